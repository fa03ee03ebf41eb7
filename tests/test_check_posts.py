"""`ppmine check` on real SQLite and PostgreSQL databases: findings per post, incremental runs, explain, analysis."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from conftest import run_cli

from core.schema.mining import CheckedPost, CheckFinding
from labeling.analysis import checker_rule_table
from labeling.records import set_final_identification, set_final_label
from mining.check import findings_text, run_check
from mining.store import upsert_questions

PROJECT = Path(__file__).resolve().parent.parent
T0 = datetime(2021, 3, 1, 12, 0)


def pre(code: str) -> str:
    return (
        "<pre><code>" + code.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") + "</code></pre>"
    )


# Question bodies in the shapes Stack Overflow posts have: prose, partial code without imports, tracebacks.
POSTS = {
    1: "<p>Prediction is very slow.</p>"
    + pre(
        "model = load_model('m.h5')\nfor img in images:\n    p = model.predict(np.expand_dims(img, axis=0))"
    )
    + "<p>It prints:</p>"
    + pre('Traceback (most recent call last):\n  File "x.py", line 3\nResourceExhaustedError: OOM'),
    2: "<p>My pipeline:</p>"
    + pre("def make(files):\n    ds = tf.data.TFRecordDataset(files)")
    + pre("    return ds.batch(32).shuffle(100)"),
    3: "<p>Old code</p>" + pre("print 'loss', loss") + pre("$ python train.py --epochs 3"),
    4: "<p>Fine</p>" + pre("import tensorflow as tf\nmodel.fit(x, y, batch_size=256)"),
    5: "<p>No code at all.</p>",
}


def question(qid: int, body: str, activity: datetime = T0) -> dict:
    return dict(site="stackoverflow", id=qid, title=f"post {qid}", body_html=body, tags="|tensorflow|", creation_date=T0,
                last_activity_date=activity)  # fmt: skip


def seed(store) -> None:
    with store.write() as s:
        upsert_questions(s, [question(q, body) for q, body in POSTS.items()], "api")


def findings(store) -> list[tuple[int, int, int, str, str]]:
    with store.read() as s:
        rows = s.execute(
            sa.select(CheckFinding.question_id, CheckFinding.block, CheckFinding.line, CheckFinding.rule,
                      CheckFinding.root_cause).order_by(CheckFinding.question_id, CheckFinding.rule)
        ).all()  # fmt: skip
    return [tuple(r) for r in rows]


def test_findings_per_post_incremental_and_recheck(store):
    seed(store)
    summary = run_check(store, show_progress=False)
    assert (summary.questions, summary.skipped, summary.unchanged) == (4, 1, 0)
    assert summary.findings == {"PP204": 1, "PP301": 1}
    assert findings(store) == [
        (1, 1, 3, "PP301", "api.not_batch_api"),
        (2, 2, 1, "PP204", "api.inefficient_usage"),  # the blocks only parse joined
    ]
    with store.read() as s:
        status = dict(s.execute(sa.select(CheckedPost.question_id, CheckedPost.status)).all())
        assert status == {1: "checked", 2: "checked", 3: "skipped", 4: "checked"}  # 5 has no code
        skipped = s.get(CheckedPost, ("stackoverflow", 3)).skipped_blocks
        assert [r.split(":")[0] for r in skipped] == ["block 1", "block 2"]
        assert "block 2" in s.get(CheckedPost, ("stackoverflow", 1)).skipped_blocks[0]  # the traceback

    again = run_check(store, show_progress=False)
    assert (again.questions, again.unchanged, again.findings) == (0, 4, {})

    # an edited question is checked again, and only it; its old findings are replaced
    edited = POSTS[4] + pre("for x in xs:\n    model.predict(x[None])")
    with store.write() as s:
        upsert_questions(s, [question(4, edited, T0 + timedelta(days=1))], "api")
    third = run_check(store, show_progress=False)
    assert (third.questions, third.unchanged, third.findings) == (1, 3, {"PP301": 1})
    assert [f[:4] for f in findings(store)][-1] == (4, 2, 2, "PP301")

    everything = run_check(store, recheck_all=True, show_progress=False)
    assert (everything.questions, len(findings(store))) == (4, 3)

    with store.read() as s:
        text = findings_text(s, "stackoverflow", 1)
        assert text.splitlines()[0].startswith("checker (ppcheck ") and "2 code blocks): 1 finding" in text
        assert "  block 1 line 3: PP301 `model.predict` is called on one sample" in text
        assert "  not checked: block 2: line " in text
        assert findings_text(s, "stackoverflow", 5) == "checker: not checked yet (ppmine check)"


def test_analysis_rule_table_against_final_labels(store):
    seed(store)
    run_check(store, show_progress=False)
    with store.write() as s:
        for qid, cause in (
            (1, "api.not_batch_api"),
            (2, "data.inefficient_preprocessing"),
            (4, "api.not_batch_api"),
        ):
            set_final_identification(s, qid, True, "imported")
            set_final_label(s, qid, 1, "imported", symptom1="time.slow_execution", root_cause=cause)
        set_final_label(
            s, 2, 2, "imported", symptom1="time.slow_execution", root_cause="api.inefficient_usage"
        )
    with store.read() as s:
        table = checker_rule_table(s).set_index("rule")
    assert table.loc["PP301"].to_dict() == {
        "root_cause": "api.not_batch_api", "posts": 1, "pps": 1, "root_cause_match": 1, "match_percent": 100.0,
        "category_match": 1, "checked_pp_posts": 3,
    }  # fmt: skip
    assert table.loc["PP204", ["posts", "pps", "root_cause_match", "category_match"]].tolist() == [1, 2, 1, 1]
    assert table.loc["PP101", ["posts", "match_percent"]].tolist() == [0, 0.0]
    assert len(table) >= 8


def ppmine(*args, db):
    return run_cli("mining.cli", *args, "--db", db, check=False)


def test_cli_check_and_explain(sqlite_store, sqlite_url):
    seed(sqlite_store)
    out = ppmine("check", db=sqlite_url)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "check: 4 questions checked (1 skipped: no code block parses), 0 unchanged; 2 findings",
        "  PP204 1",
        "  PP301 1",
    ]
    data = json.loads(ppmine("check", "--format", "json", db=sqlite_url).stdout)
    assert data["questions"] == 0 and data["unchanged"] == 4 and data["findings"] == {}
    shown = ppmine("explain", "1", db=sqlite_url)
    assert shown.returncode == 0, shown.stderr
    assert "block 1 line 3: PP301" in shown.stdout and "[api.not_batch_api]" in shown.stdout
    assert ppmine("check", "--format", "xml", db=sqlite_url).returncode == 2


def _candidates(store, ids) -> None:
    from core.schema.mining import Candidate, CandidateHit, KeywordSet

    with store.write() as s:
        ks = KeywordSet(content_hash="h", stemmer_mode="porter", keywords=["slow"], created_at=T0)
        s.add(ks)
        s.flush()
        for q in ids:
            cand = Candidate(keyword_set_id=ks.id, site="stackoverflow", question_id=q, matched_at=T0)
            cand.hits.append(CandidateHit(keyword="slow", field="prose", count=1))
            s.add(cand)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_labeling_screen_shows_findings_only_with_hints(sqlite_store, size):
    import asyncio

    from labeling.queue import IdentifyQueue
    from labeling.tui.common import screen_text
    from labeling.tui.identify import IdentifyApp

    with sqlite_store.write() as s:
        upsert_questions(s, [question(1, POSTS[1])], "api")
    _candidates(sqlite_store, [1])
    run_check(sqlite_store, show_progress=False)

    async def screen(hints: bool) -> str:
        app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"), hints=hints)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            return screen_text(app)

    with_hints, blind = asyncio.run(screen(True)), asyncio.run(screen(False))
    assert "Checker hints (ppcheck)" in with_hints and "PP301" in with_hints
    assert "Checker hints" not in blind and "PP301" not in blind
    assert "post 1" in with_hints and "post 1" in blind  # the post itself is still shown
