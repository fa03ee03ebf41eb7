"""Raters (issue 12, case 7): one rater whatever the case or spaces of the name, registered by their first
decision only, listed with counts, renamed and merged with an audit trail."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from conftest import run_cli
from test_tui_identify import run

from core.db import Store, downgrade, open_store, upgrade
from core.errors import PPMinerError
from core.schema.labeling import AuditEntry, Identification, Rater
from core.sites import PostKey
from labeling.io.export_study import export_file
from labeling.queue import IdentifyQueue
from labeling.records import get_or_create_rater, set_identification, set_pp_label
from labeling.tui.identify import IdentifyApp


@pytest.fixture
def matched(ai_study):
    """The ai.stackexchange study matched without filters (43 candidates), as in the issue."""
    run_cli("mining.cli", "match", "--no-filters", "--db", ai_study)
    return ai_study


def raters(url):
    return json.loads(run_cli("labeling.cli", "raters", "--format", "json", "--db", url).stdout)


def test_a_name_with_other_case_or_spaces_is_the_same_rater(matched, tmp_path):
    store = open_store(matched)
    ann = IdentifyQueue(store, "Ann ")
    first = ann.current
    ann.decide(True)
    again = IdentifyQueue(store, "  ann")
    assert again.progress.done == 1 and again.current != first
    again.decide(False)
    assert again.rater_name == "Ann"  # shown as first written (trimmed)
    (row,) = raters(matched)
    assert (row["rater"], row["identifications"], row["pp_posts"], row["pp_labels"]) == ("Ann", 2, 1, 0)
    out = tmp_path / "ident.csv"
    export_file(store, "identification", out, ["ANN"])  # any spelling names the rater
    assert out.read_text().splitlines()[0] == "_id,isPB_Ann"


def test_opening_a_session_registers_nobody(matched):
    store = open_store(matched)
    run(IdentifyApp(IdentifyQueue(store, "carol")), "q")
    stats = json.loads(run_cli("mining.cli", "stats", "--format", "json", "--db", matched).stdout)
    assert stats["raters"] == 0 and raters(matched) == []
    run(IdentifyApp(IdentifyQueue(store, "carol")), "y", "q")
    assert [r["rater"] for r in raters(matched)] == ["carol"]
    assert (
        json.loads(run_cli("mining.cli", "stats", "--format", "json", "--db", matched).stdout)["raters"] == 1
    )


def test_rename_and_merge_are_audited_and_refuse_conflicts(matched):
    store = open_store(matched)
    with store.read() as s:
        posts = [
            PostKey(*row)
            for row in s.execute(
                sa.text("SELECT site, question_id FROM candidates ORDER BY question_id LIMIT 4")
            )
        ]
    with store.write() as s:
        a, b = get_or_create_rater(s, "ann"), get_or_create_rater(s, "anne")
        set_identification(s, a, posts[0], True)
        set_identification(s, b, posts[0], True)  # the same decision: a duplicate, dropped by the merge
        set_identification(s, b, posts[1], False)
        set_identification(s, b, posts[2], True)
        set_pp_label(s, b, posts[2], 1, symptom1="time.slow_execution", part="the loop ")
        set_identification(s, a, posts[3], True)
        set_identification(s, b, posts[3], False)  # a conflict
    refused = run_cli("labeling.cli", "raters", "merge", "anne", "ann", "--db", matched, check=False)
    assert refused.returncode == 1 and str(posts[3]) in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert {r["rater"]: r["identifications"] for r in raters(matched)} == {"ann": 2, "anne": 4}
    with store.write() as s:
        set_identification(s, get_or_create_rater(s, "anne"), posts[3], True)
    taken = run_cli("labeling.cli", "raters", "rename", "anne", "ANN", "--db", matched, check=False)
    assert taken.returncode == 1 and "merge" in taken.stderr
    run_cli("labeling.cli", "raters", "merge", "Anne", "ann", "--db", matched)
    run_cli("labeling.cli", "raters", "rename", "ann", "Ann Lee", "--db", matched)
    rows = raters(matched)
    assert [(r["rater"], r["identifications"], r["pp_labels"]) for r in rows] == [("Ann Lee", 4, 1)]
    with store.read() as s:
        decided = {
            row.key: row.is_pp
            for row in s.scalars(sa.select(Identification).join(Rater).where(Rater.name == "Ann Lee"))
        }
        label = s.execute(sa.text("SELECT part FROM pp_labels")).scalar_one()
        audit = s.execute(
            sa.select(AuditEntry.entity, AuditEntry.action, AuditEntry.after).where(
                AuditEntry.entity == "raters"
            )
        ).all()
    assert decided == {posts[0]: True, posts[1]: False, posts[2]: True, posts[3]: True}
    assert label == "the loop "
    assert [(e, a) for e, a, _ in audit] == [("raters", "delete"), ("raters", "update")]
    assert audit[0][2] == {"merged_into": "ann"} and audit[1][2]["name"] == "Ann Lee"


def test_migration_keeps_raters_that_differ_in_case_apart_until_merged(sqlite_url):
    store = Store(sqlite_url)
    upgrade(store, "0004")
    with store.engine.begin() as conn:
        for name in ("ann", "Ann"):
            conn.execute(
                sa.text("INSERT INTO raters (name, created_at) VALUES (:n, '2024-01-01')"), {"n": name}
            )
    upgrade(store)
    with store.read() as s:
        assert dict(s.execute(sa.select(Rater.name, Rater.name_key)).all()) == {"ann": "ann", "Ann": "ann#2"}
    with store.write() as s, pytest.raises(PPMinerError, match="no rater named"):
        from labeling.raters import merge_raters

        merge_raters(s, "nobody", "ann")
    downgrade(store, "0004")
    upgrade(store)


def test_an_adjudicators_first_and_last_dates_come_from_their_finals(sqlite_store):
    from labeling.raters import list_raters
    from labeling.reconcile import decide_identification
    from mining.store import upsert_questions

    with sqlite_store.write() as s:
        upsert_questions(
            s, [{"site": "stackoverflow", "id": 7, "title": "t", "body_html": "<p>x</p>"}], "import"
        )
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        set_identification(s, ann, 7, True)
        set_identification(s, bob, 7, False)
        decide_identification(s, get_or_create_rater(s, "judge"), 7, True)
    with sqlite_store.read() as s:
        judge = next(r for r in list_raters(s) if r["rater"] == "judge")
    assert judge["adjudicated"] == 1
    assert judge["first"] is not None and judge["first"] == judge["last"]
