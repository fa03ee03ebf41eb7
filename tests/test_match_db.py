"""run_match on real SQLite and PostgreSQL databases: selection funnel, incremental checks, versions, CLI."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from conftest import run_cli
from nltk.stem.porter import PorterStemmer

from core.config import load_config
from core.errors import PPMinerError
from core.schema.mining import CandidateHit, MatchCheck, MatchRun
from mining.match.candidates import list_candidates, list_versions
from mining.match.run import run_match
from mining.stats import funnel_counts
from mining.store import upsert_answers, upsert_questions

PROJECT = Path(__file__).resolve().parent.parent
T0 = datetime(2019, 5, 1, 12, 0)
CODE = "<pre><code>model.fit(x, y)</code></pre>"


def question(
    qid, title, body="<p>Plain question.</p>" + CODE, tags="|keras|", created=T0, accepted=None, **kw
):
    kw.setdefault("site", "stackoverflow")
    return dict(
        id=qid,
        title=title,
        body_html=body,
        tags=tags,
        creation_date=created,
        last_activity_date=kw.pop("activity", created),
        accepted_answer_id=accepted,
        **kw,
    )


def answer(aid, qid, score, body="<p>Try a smaller batch.</p>"):
    return dict(
        site="stackoverflow",
        id=aid,
        question_id=qid,
        body_html=body,
        score=score,
        creation_date=T0,
        last_activity_date=T0,
    )


def seed(store):
    """Six questions, each failing (or passing) a different step of the study's selection."""
    with store.write() as s:
        upsert_questions(
            s,
            [
                question(1, "Training is very slow", accepted=101),  # selected, candidate
                question(2, "Shapes do not match", tags="|tensorflow|python|"),  # selected via answer score 3
                question(3, "Model hangs", tags="|keras|"),  # best answer scores 2: not good enough
                question(4, "PyTorch is slower", tags="|pytorch|", accepted=104),  # out of scope (tag)
                question(5, "OOM in 2017", created=datetime(2017, 12, 31, 23), accepted=105),  # before window
                question(6, "Memory leak", body="<p>No code here.</p>", accepted=106),  # no code block
            ],
            "import",
        )
        upsert_answers(
            s,
            [answer(101, 1, 0), answer(102, 2, 3, "<p>It is faster with tf.function</p>"), answer(103, 3, 2)],
            "import",
        )


@pytest.fixture
def config():
    return load_config(PROJECT / "data" / "study.toml")


def candidate_ids(store, set_id=None):
    with store.read() as s:
        return [c["post_id"] for c in list_candidates(s, set_id)]


def assert_checks_agree(store):
    """match_checks.is_candidate is what a re-check trusts: it must say exactly which candidates exist."""
    from core.schema.mining import Candidate

    with store.read() as s:
        flagged = set(
            s.execute(
                sa.select(MatchCheck.keyword_set_id, MatchCheck.question_id).where(MatchCheck.is_candidate)
            )
        )
        stored = set(s.execute(sa.select(Candidate.keyword_set_id, Candidate.question_id)))
        hits_of = set(s.scalars(sa.select(CandidateHit.candidate_id)))
        cands = set(s.scalars(sa.select(Candidate.id)))
    assert flagged == stored
    assert hits_of == cands  # every candidate has its hits, and no hits outlive their candidate


def test_selection_funnel_and_candidates(store, config):
    seed(store)
    result = run_match(store, config)
    assert result.funnel == {
        "questions": 6,
        "with_tag": 5,
        "in_scope": 4,
        "with_code": 3,
        "with_good_answer": 2,
        "selected": 2,
        "candidates": 1,
    }
    assert candidate_ids(store) == [1]
    assert "2 selected of 6 questions (removed by tags 1, window 1, code 1, answers 1)" in result.summary()
    assert "1 candidates" in result.summary()
    with store.read() as s:
        counts = funnel_counts(s)
        assert counts["selected"] == 2
        assert [counts[f"removed_by_{f}"] for f in ("tags", "window", "code", "answers")] == [1, 1, 1, 1]
        run = s.scalars(sa.select(MatchRun)).one()
        assert run.finished_at is not None and run.selection["fields"] == ["title", "prose"]
        assert run.selection["min_answer_score"] == 2
        (cand,) = list_candidates(s)
        assert cand["keywords"] == ["very slow"] and cand["hits"] == [
            {"keyword": "very slow", "field": "title", "count": 1}
        ]


def test_no_filters_then_filters_again(store, config):
    seed(store)
    wide = run_match(store, config, apply_filters=False)
    assert wide.funnel["selected"] == 6
    with store.read() as s:  # every question selected: no filter removed any (issue 20, point 5)
        assert [funnel_counts(s)[f"removed_by_{f}"] for f in ("tags", "window", "code", "answers")] == [0] * 4
    assert candidate_ids(store) == [1, 3, 4, 5, 6]
    with store.read() as s:
        selected = dict(s.execute(sa.select(MatchCheck.question_id, MatchCheck.selected)).all())
    assert selected == {1: True, 2: True, 3: False, 4: False, 5: False, 6: False}
    with store.read() as s:  # what the checks recorded is reported: which candidates the study's filters keep
        assert {c["post_id"]: c["passes_filters"] for c in list_candidates(s)} == {
            1: True, 3: False, 4: False, 5: False, 6: False
        }  # fmt: skip
        assert [(v["checked"], v["candidates"]) for v in list_versions(s)] == [(6, 5)]
    assert (
        run_match(store, config).scope_change is None
    )  # a plain run keeps the remembered scope (no filters)
    assert candidate_ids(store) == [1, 3, 4, 5, 6]
    narrow = run_match(store, config, apply_filters=True)
    assert "filters off (--no-filters), fields title,prose] to [filters on" in narrow.scope_change
    assert candidate_ids(store) == [1]
    assert narrow.removed_candidates == 4 and narrow.checked == 0
    assert_checks_agree(store)
    with store.read() as s:
        assert [(v["checked"], v["candidates"]) for v in list_versions(s)] == [(2, 1)]


def test_config_filters_can_be_switched_off(store, config, tmp_path):
    seed(store)
    text = config.path.read_text(encoding="utf-8")
    text = text.replace("require_code = true", "require_code = false").replace(
        "min_answer_score = 2", "min_answer_score = 1"
    )
    text = text.replace('keywords = "keywords.txt"', f'keywords = "{PROJECT / "data" / "keywords.txt"}"')
    (tmp_path / "study.toml").write_text(text, encoding="utf-8")
    result = run_match(store, load_config(tmp_path / "study.toml"))
    assert (result.funnel["with_code"], result.funnel["selected"]) == (4, 4)
    assert candidate_ids(store) == [1, 3, 6]


def test_only_new_or_refreshed_questions_are_checked(store, config):
    seed(store)
    run_match(store, config)
    again = run_match(store, config)
    assert (again.checked, again.new_candidates, again.funnel["candidates"]) == (0, 0, 1)
    with store.write() as s:  # question 2 is edited: now it is about speed
        upsert_questions(
            s,
            [question(2, "How to speed up fit", tags="|tensorflow|", activity=T0 + timedelta(days=3))],
            "api",
        )
    changed = run_match(store, config)
    assert (changed.checked, changed.new_candidates) == (1, 1)
    assert candidate_ids(store) == [1, 2]
    with store.read() as s:
        before = dict(s.execute(sa.select(MatchCheck.question_id, MatchCheck.checked_at)).all())
    everything = run_match(store, config, rematch_all=True)
    # nothing changed: no candidate counts as updated (issue 20, point 5)
    assert (everything.checked, everything.updated_candidates, everything.new_candidates) == (2, 0, 0)
    assert "checked 2 again (all selected)" in everything.summary() and "0 updated" in everything.summary()
    with store.read() as s:  # an unchanged re-check keeps its record and moves only checked_at
        after = s.execute(
            sa.select(MatchCheck.question_id, MatchCheck.checked_at, MatchCheck.is_candidate)
        ).all()
    assert {q: (at > before[q], c) for q, at, c in after} == {1: (True, True), 2: (True, True)}
    assert_checks_agree(store)


def test_a_changed_keyword_set_is_a_new_version_and_old_candidates_remain(store, config, tmp_path):
    seed(store)
    first = run_match(store, config)
    mine = tmp_path / "mine.txt"
    mine.write_text("# my own set\nmatch\n", encoding="utf-8")
    second = run_match(store, config, keywords_file=mine)
    assert second.keyword_set_id != first.keyword_set_id
    assert candidate_ids(store) == [2]  # the last run's version: "Shapes do not match"
    assert candidate_ids(store, first.keyword_set_id) == [1]
    literal = run_match(store, config, keyword_reading="literal")
    assert literal.keyword_set_id not in (first.keyword_set_id, second.keyword_set_id)
    assert candidate_ids(store) == []  # "very slow" read literally cannot match "very slow"
    with store.read() as s:
        assert [v["candidates"] for v in list_versions(s)] == [1, 1, 0]


def test_fields_answers_and_code(store, config):
    seed(store)
    run_match(store, config, fields=["title", "prose", "answers"])
    assert candidate_ids(store) == [1, 2]
    with store.read() as s:
        fields = set(s.execute(sa.select(CandidateHit.keyword, CandidateHit.field)).all())
    assert fields == {("very slow", "title"), ("faster", "answers")}
    assert run_match(store, config).checked == 0  # the remembered fields: nothing new to check
    back = run_match(store, config, fields=config.match_fields)  # other fields: everything is rematched
    assert back.checked == 2 and candidate_ids(store) == [1]
    with pytest.raises(PPMinerError, match="unknown match fields"):
        run_match(store, config, fields=["body"])


# -- the real command line -------------------------------------------------------------------------------------
def ppmine(*args, db):
    return run_cli("mining.cli", *args, check=False, env={"PPMINER_DB": db, "COLUMNS": "200"})


def test_cli_match_candidates_explain_and_errors(sqlite_store, sqlite_url, tmp_path):
    seed(sqlite_store)
    with sqlite_store.write() as s:  # an escape sequence in untrusted text must not reach the terminal raw
        upsert_questions(s, [question(7, "\x1b[2JIt runs\nslow", accepted=1)], "api")
    out = ppmine("match", db=sqlite_url)
    assert out.returncode == 0, out.stderr
    assert re.match(
        r"match: 3 selected of 7 questions \(removed by tags \d, window \d, code \d, answers \d\); checked 3 .* 2 candidates",
        out.stdout,
    )
    rows = json.loads(ppmine("candidates", "--format", "json", db=sqlite_url).stdout)
    assert [(r["post_id"], r["keywords"]) for r in rows] == [(1, ["very slow"]), (7, ["run slow"])]
    assert isinstance(rows[0]["post_id"], int) and rows[0]["link"] == "https://stackoverflow.com/questions/1"
    csv_rows = list(
        csv.DictReader(ppmine("candidates", "--format", "csv", db=sqlite_url).stdout.splitlines())
    )
    assert csv_rows[1]["hits"] == "run slow (title 1)"
    shown = ppmine("explain", "7", db=sqlite_url)
    assert shown.returncode == 0, shown.stderr
    assert "\x1b" not in shown.stdout and "␛[2JIt [[runs\nslow]]{run slow}" in shown.stdout
    assert "stored candidate of keyword set 1: yes" in shown.stdout
    # bad input: one line naming file and line, exit 1, nothing stored lost
    bad = tmp_path / "bad.txt"
    bad.write_text("slow\nway too slow\n", encoding="utf-8")
    out = ppmine("match", "--keywords", str(bad), db=sqlite_url)
    assert out.returncode == 1
    assert out.stderr.strip() == f"ppmine: error: {bad}:2: 'way too slow' has 3 words; a keyword has 1 or 2"
    assert ppmine("explain", "999", db=sqlite_url).stderr.startswith("ppmine: error: post 999 ")
    # a stored version fixes keywords, mode and fields: options that would change them are refused, not ignored
    mixed = ppmine("explain", "7", "--keyword-set", "1", "--code", "--stemmer", "original", db=sqlite_url)
    assert mixed.returncode == 2 and mixed.stdout == ""
    assert "--keyword-set cannot be combined with --stemmer, --code" in mixed.stderr
    assert "[[runs\nslow]]{run slow}" in ppmine("explain", "7", "--keyword-set", "1", db=sqlite_url).stdout
    assert candidate_ids(sqlite_store) == [1, 7]
    # a version without candidates still gives scripts a CSV header
    nothing = tmp_path / "nothing.txt"
    nothing.write_text("zyzzyva\n", encoding="utf-8")
    assert ppmine("match", "--keywords", str(nothing), db=sqlite_url).returncode == 0
    empty = ppmine("candidates", "--format", "csv", db=sqlite_url)
    assert empty.returncode == 0 and empty.stdout.splitlines() == [",".join(csv_rows[0])]
    assert list(csv_rows[0])[:3] == ["post_id", "title", "link"]


def test_explain_marks_hits_in_every_field(store, config):
    from mining.match.explain import explain_post, mark, render, stored_status
    from mining.match.keywords import read_keywords
    from mining.match.matcher import Matcher

    seed(store)
    run_match(store, config)
    matcher = Matcher(read_keywords(config.keywords_file))
    with store.read() as s:
        question_2, parts = explain_post(s, 2, matcher, ("title", "prose", "answers"))
        text = render(question_2, parts, matcher, stored_status(s, 2, matcher))
        with pytest.raises(PPMinerError, match="post 999 is not a question"):
            explain_post(s, 999, matcher, ("title",))
        with pytest.raises(PPMinerError, match="no keyword set 42"):
            list_candidates(s, 42)
    assert [p.label for p in parts] == ["title", "question", "answer 102"]
    assert "It is [[faster]]{faster} with tf.function" in text and "'faster' in answers x1" in text
    assert "stored candidate of keyword set 1: no" in text
    two = Matcher(read_keywords(config.keywords_file))
    assert mark("it is very slow", two.hits("it is very slow")) == "it is [[very slow]]{very slow}"


def test_no_candidates_before_a_match(store):
    with store.read() as s, pytest.raises(PPMinerError, match="run `ppmine match` first"):
        list_candidates(s)


# -- real Stack Overflow questions against an independent re-implementation ------------------------------------
def reference_candidates(rows, keywords):
    """Stem every word afresh; two words are adjacent when only spaces, one newline or - / ' ’ lie between."""
    porter = PorterStemmer()
    wanted = [[{w, porter.stem(w)} for w in k.split()] for k in keywords]
    out = {}
    for qid, texts in rows.items():
        found = set()
        for text in texts:
            words = list(re.finditer(r"[^\W_]+", text))
            stems = [porter.stem(m.group().lower()) for m in words]
            for i, stem in enumerate(stems):
                gap = text[words[i - 1].end() : words[i].start()] if i else "!"
                adjacent = re.fullmatch(r"[\s\-/'’]*", gap) and gap.count("\n") < 2
                for keyword, alts in zip(keywords, wanted, strict=True):
                    if len(alts) == 1 and stem in alts[0]:
                        found.add(keyword)
                    if len(alts) == 2 and adjacent and stems[i - 1] in alts[0] and stem in alts[1]:
                        found.add(keyword)
        if found:
            out[qid] = found
    return out


def test_real_questions_match_the_reference(fixtures, sqlite_store, config):
    path = fixtures / "so_questions" / "sede_so_2022_questions_QueryResults.csv"
    with path.open(encoding="utf-8") as f:
        rows = [
            question(
                int(r["Id"]),
                r["Title"],
                r["Body"],
                tags="|" + r["Tags"].strip("<>").replace("><", "|") + "|",
                created=datetime.fromisoformat(r["CreationDate"]),
            )
            for r in csv.DictReader(f)
        ]
    with sqlite_store.write() as s:
        upsert_questions(s, rows, "import")
    result = run_match(sqlite_store, config, apply_filters=False)
    assert result.funnel["selected"] == len(rows) == 352
    with sqlite_store.read() as s:
        got = {c["post_id"]: set(c["keywords"]) for c in list_candidates(s)}
        from core.schema.mining import Question

        texts = {q.id: [q.title or "", q.prose or ""] for q in s.scalars(sa.select(Question))}
    from mining.match.keywords import read_keywords

    expected = reference_candidates(texts, read_keywords(config.keywords_file).keywords)
    assert got == expected and len(got) >= 10


def test_a_refreshed_answer_is_matched_again_when_answers_are_matched(store, config):
    seed(store)
    fields = ["title", "prose", "answers"]
    run_match(store, config, fields=fields)
    assert candidate_ids(store) == [1, 2]
    assert run_match(store, config, fields=fields).checked == 0
    with store.write() as s:  # the answer that said "faster" is edited
        row = answer(102, 2, 3, "<p>Use tf.function.</p>")
        upsert_answers(s, [{**row, "last_activity_date": T0 + timedelta(days=1)}], "api")
    again = run_match(store, config, fields=fields)
    assert (again.checked, again.removed_candidates) == (1, 1)
    assert candidate_ids(store) == [1]
    assert_checks_agree(store)


@pytest.mark.slow
def test_a_killed_match_keeps_its_batches_and_the_next_run_finishes(sqlite_store, sqlite_url, config):
    """kill -9 in the middle of `ppmine match`: committed batches stay, the rerun checks only the rest."""
    import time

    from core.schema.mining import Question
    from mining.match.keywords import read_keywords
    from mining.match.matcher import Matcher
    from mining.store import utcnow

    titles = ["Training is very slow", "Shapes differ", "GPU utilization is low", "A question about loss"]
    now = utcnow()
    with sqlite_store.write() as s:
        s.execute(
            sa.insert(Question),
            [
                dict(site="stackoverflow", id=i, title=f"{titles[i % 4]} {i}", prose="Some text " * (i % 50), code_blocks=[], has_code=True,
                     tags="|keras|", creation_date=T0, accepted_answer_id=i, source="import", refreshed_at=now)
                for i in range(1, 40_001)
            ],
        )  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "mining.cli", "match"],
        env={**os.environ, "PPMINER_DB": sqlite_url},
        cwd=PROJECT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    checked = 0
    while proc.poll() is None and time.monotonic() < deadline:
        with sqlite_store.read() as s:
            checked = s.scalar(sa.select(sa.func.count()).select_from(MatchCheck))
        if checked:
            proc.kill()
            break
        time.sleep(0.05)
    proc.wait()
    assert 0 < checked < 40_000, "the run was not caught in the middle"
    with sqlite_store.read() as s:
        kept = s.scalar(sa.select(sa.func.count()).select_from(MatchCheck))
    assert kept % 1000 == 0  # whole batches only
    rest = run_match(sqlite_store, config)
    assert rest.checked == 40_000 - kept
    matcher = Matcher(read_keywords(config.keywords_file))
    expected = [i for i in range(1, 40_001) if matcher.count(f"{titles[i % 4]} {i}")]
    assert candidate_ids(sqlite_store) == expected and len(expected) == 20_000


def test_two_match_runs_at_once_share_the_work(store, config):
    from concurrent.futures import ThreadPoolExecutor

    from core.schema.mining import Question
    from mining.store import utcnow

    now = utcnow()
    with store.write() as s:
        s.execute(
            sa.insert(Question),
            [
                dict(site="stackoverflow", id=i, title="it is very slow" if i % 3 == 0 else "fine", prose="", code_blocks=[],
                     has_code=True, tags="|keras|", creation_date=T0, accepted_answer_id=i, source="import",
                     refreshed_at=now)
                for i in range(1, 5001)
            ],
        )  # fmt: skip
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda _: run_match(store, config), range(2)))
    assert sum(r.checked for r in results) == 5000
    assert candidate_ids(store) == list(range(3, 5001, 3))
    assert_checks_agree(store)


def test_explain_with_a_stored_version(store, config, tmp_path):
    from mining.match.explain import explain_post, matcher_for_version

    seed(store)
    mine = tmp_path / "mine.txt"
    mine.write_text("Faster\nvery slow\n", encoding="utf-8")
    result = run_match(
        store, config, keywords_file=mine, fields=["title", "answers"], keyword_reading="literal"
    )
    mine.write_text("something else\n", encoding="utf-8")  # the file moves on; the stored version does not
    with store.read() as s:
        matcher, fields = matcher_for_version(s, result.keyword_set_id)
        _, parts = explain_post(s, 2, matcher, fields)
        assert matcher.mode == "porter:nltk_extensions;kw=literal" and fields == ("title", "answers")
        assert [(p.label, [h.keyword for h in p.hits]) for p in parts] == [
            ("title", []),
            ("answer 102", ["Faster"]),
        ]
        with pytest.raises(PPMinerError, match="no keyword set 99"):
            matcher_for_version(s, 99)


def test_candidate_links_fall_back_to_the_question_site(store, config):
    from mining.match.explain import explain_post, render, stored_status
    from mining.match.keywords import read_keywords
    from mining.match.matcher import Matcher

    with store.write() as s:
        upsert_questions(s, [question(9, "Inference is very slow", site="ai", accepted=1)], "import")
    run_match(store, config)
    matcher = Matcher(read_keywords(config.keywords_file))
    with store.read() as s:
        assert [c["link"] for c in list_candidates(s)] == ["https://ai.stackexchange.com/questions/9"]
        question_9, parts = explain_post(s, "ai:9", matcher, ("title",))
        assert "link: https://ai.stackexchange.com/questions/9" in render(
            question_9, parts, matcher, stored_status(s, question_9.key, matcher)
        )
        with pytest.raises(
            PPMinerError, match="post 9 is not a stored Stack Overflow question; did you mean ai:9"
        ):
            explain_post(s, 9, matcher, ("title",))
        with pytest.raises(
            PPMinerError, match=r"^'so:9': unknown site 'so': the database holds posts of ai$"
        ):
            explain_post(s, "so:9", matcher, ("title",))
        with pytest.raises(PPMinerError, match="post ai:10 is not a question in the database"):
            explain_post(s, "ai:10", matcher, ("title",))


def test_cli_match_and_stats_name_the_filter_that_removed_everything(sqlite_store, sqlite_url, tmp_path):
    seed(sqlite_store)
    config = tmp_path / "study.toml"
    text = (PROJECT / "data" / "study.toml").read_text(encoding="utf-8")
    text = text.replace('tags = ["tensorflow", "keras"]', 'tags = ["pytorch-lightning"]')
    for name in ("keywords.txt", "codebook.yaml", "published.yaml"):
        text = text.replace(f'"{name}"', f'"{PROJECT / "data" / name}"')
    config.write_text(text, encoding="utf-8")
    out = ppmine("match", "--config", str(config), db=sqlite_url)
    assert out.returncode == 0, out.stderr
    assert "0 selected of 6 questions (removed by tags 6, window 0, code 0, answers 0)" in out.stdout
    stats = ppmine("stats", "--format", "json", db=sqlite_url)
    counts = json.loads(stats.stdout)
    assert list(counts)[3:8] == [
        "removed_by_tags", "removed_by_window", "removed_by_code", "removed_by_answers", "selected"
    ]  # fmt: skip
    assert [counts[k] for k in list(counts)[3:8]] == [6, 0, 0, 0, 0]
    table = ppmine("stats", db=sqlite_url).stdout
    assert re.search(r"- tags filter\s*│ 6", table) and re.search(r"selected\s*│ 0", table)
    assert ppmine("match", db=sqlite_url).returncode == 0  # the study's own tags: one filter each
    counts = json.loads(ppmine("stats", "--format", "json", db=sqlite_url).stdout)
    assert [counts[k] for k in list(counts)[3:8]] == [1, 1, 1, 1, 2]


def test_candidates_table_shows_the_whole_link_and_csv_hits_read_plainly(sqlite_store, sqlite_url):
    slug = "https://stackoverflow.com/questions/1/training-is-very-slow-and-the-gpu-util-stays-low-why"
    with sqlite_store.write() as s:
        upsert_questions(
            s,
            [
                question(
                    1,
                    "Training is very slow, gpu util low " * 3,
                    body="<p>It is very slow.</p>" + CODE,
                    accepted=101,
                    link=slug,
                )
            ],  # fmt: skip
            "import",
        )
        upsert_answers(s, [answer(101, 1, 0)], "import")
    assert ppmine("match", db=sqlite_url).returncode == 0
    for width in ("80", "120"):
        env = {**os.environ, "PPMINER_DB": sqlite_url, "COLUMNS": width}
        table = subprocess.run([sys.executable, "-m", "mining.cli", "candidates"], capture_output=True, text=True,
                               env=env, cwd=PROJECT).stdout  # fmt: skip
        assert "…" not in table and max(len(line) for line in table.splitlines()) <= int(width)
        assert re.search(r"^1 +│ stackoverflow │", table, re.M), table  # id and site whole
        if width == "120":  # the whole link (without the title slug), on one line
            assert re.search(r"│ https://stackoverflow\.com/questions/1\s*$", table, re.M), table
        else:  # 80 columns cannot hold id, site, a readable title and the link: the link gives way, and says so
            assert "https://" not in table and "(link left out to fit 80 columns" in table
    rows = list(csv.DictReader(ppmine("candidates", "--format", "csv", db=sqlite_url).stdout.splitlines()))
    assert rows[0]["hits"] == "gpu util (title 3); very slow (title 3, prose 1)"
    assert rows[0]["link"] == slug


def test_updated_counts_only_candidates_whose_hits_changed(store, config):
    seed(store)
    run_match(store, config)
    with store.read() as s:
        ids = dict(s.execute(sa.text("SELECT question_id, id FROM candidates")).all())
    with store.write() as s:  # question 1's title says "very slow" twice: its hits change, its check is new
        upsert_questions(
            s,
            [question(1, "Training is very slow, very slow", accepted=101, activity=T0 + timedelta(days=2))],
            "api",
        )
    changed = run_match(store, config, rematch_all=True)
    assert (changed.updated_candidates, changed.new_candidates, changed.removed_candidates) == (1, 0, 0)
    again = run_match(store, config, rematch_all=True)
    assert (again.checked, again.updated_candidates) == (2, 0)
    with store.read() as s:  # an unchanged candidate is left as it is: same row
        assert dict(s.execute(sa.text("SELECT question_id, id FROM candidates")).all()).keys() == ids.keys()
        kept = s.execute(sa.text("SELECT id FROM candidates")).scalars().all()
    third = run_match(store, config, rematch_all=True)
    assert third.updated_candidates == 0
    with store.read() as s:
        assert s.execute(sa.text("SELECT id FROM candidates")).scalars().all() == kept
    assert_checks_agree(store)


def test_stats_and_match_count_candidates_alike(store, config):
    """A candidate kept only because someone decided it is not counted as a candidate by either."""
    from labeling.records import get_or_create_rater, set_identification

    seed(store)
    wide = run_match(store, config, apply_filters=False)
    with store.write() as s:
        set_identification(s, get_or_create_rater(s, "ann"), 3, True)
    narrow = run_match(store, config, apply_filters=True)
    assert (narrow.funnel["candidates"], narrow.funnel["kept_not_matching"]) == (1, 1)
    with store.read() as s:
        assert funnel_counts(s)["candidates"] == narrow.funnel["candidates"]
    assert wide.funnel["candidates"] == 5
