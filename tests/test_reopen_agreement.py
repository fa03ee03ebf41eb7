"""Issue 20, point 4: a final made on agreement is reopened, audited, on every path that changes a decision
(identify and its undo, a revisit, a raters merge, an import) or a rater's labels (classify, an import)."""

from __future__ import annotations

import sqlalchemy as sa
from test_tui_identify import seed_candidates

from core.schema.labeling import AuditEntry, FinalIdentification, FinalLabel
from core.sites import PostKey
from labeling.io.import_study import import_file
from labeling.queue import ClassifyQueue, IdentifyQueue, seeded_order
from labeling.raters import merge_raters
from labeling.reconcile import finalize_agreements, open_identifications
from labeling.records import get_or_create_rater, set_identification, set_pp_label

IDS = [61, 62]


def _agreed(store, *raters):
    """Every rater calls both posts a PP; the agreement step makes both final."""
    seed_candidates(store, IDS)
    with store.write() as s:
        for name in raters:
            rater = get_or_create_rater(s, name)
            for post in IDS:
                set_identification(s, rater, post, True)
        finalize_agreements(s)


def _finals(store):
    with store.read() as s:
        return {r.question_id: (r.is_pp, r.method) for r in s.scalars(sa.select(FinalIdentification))}


def _reopened_by(store, post):
    with store.read() as s:
        return s.scalars(
            sa.select(AuditEntry.actor).where(
                AuditEntry.entity == "final_identifications",
                AuditEntry.entity_key == str(PostKey("stackoverflow", post)),
                AuditEntry.action == "delete",
            )
        ).all()


def test_identify_reopens_at_once(sqlite_store):
    _agreed(sqlite_store, "bob", "carl")
    queue = IdentifyQueue(sqlite_store, "ann")
    first = queue.current
    queue.decide(False)
    assert first.id not in _finals(sqlite_store) and _reopened_by(sqlite_store, first.id) == ["ann"]
    with sqlite_store.read() as s:
        assert first in [i.question_id for i in open_identifications(s)]


def test_a_revisit_reopens_at_once(sqlite_store):
    _agreed(sqlite_store, "ann", "bob")
    order = seeded_order(IDS, 0)
    queue = IdentifyQueue(sqlite_store, "ann")
    assert queue.visit(order[0])
    queue.decide(False)  # `h`, the post, `n`
    assert _finals(sqlite_store) == {order[1].id: (True, "agreement")}
    assert _reopened_by(sqlite_store, order[0].id) == ["ann"]


def test_an_import_reopens_at_once(sqlite_store, tmp_path):
    _agreed(sqlite_store, "ann", "bob")
    path = tmp_path / "ids.csv"
    path.write_text(f"_id,isPB_ann,isPB_bob\n{IDS[0]},1,0\n{IDS[1]},1,1\n", encoding="utf-8")
    import_file(sqlite_store, "identification", str(path))
    assert _finals(sqlite_store) == {IDS[1]: (True, "agreement")}
    assert _reopened_by(sqlite_store, IDS[0]) == ["bob"]


def test_a_merge_keeps_an_agreement_that_still_holds(sqlite_store):
    _agreed(sqlite_store, "ann", "Ann2", "bob")
    with sqlite_store.write() as s:
        merge_raters(s, "Ann2", "ann")
    assert _finals(sqlite_store) == {post: (True, "agreement") for post in IDS}
    assert not _reopened_by(sqlite_store, IDS[0])


def test_an_undo_that_leaves_one_rater_reopens(sqlite_store):
    """Identify's `u` takes a decision away: with one rater left, the two-rater agreement no longer holds."""
    _agreed(sqlite_store, "ann", "bob")
    queue = IdentifyQueue(sqlite_store, "bob")
    with sqlite_store.write() as s:  # bob's latest stored decision is taken back (undo after a restart)
        s.execute(sa.text("UPDATE identifications SET decided_at = '2000-01-01' WHERE question_id = :q"),
                  {"q": IDS[1]})  # fmt: skip
    assert queue.undo() is not None
    undone = IDS[0]
    assert _finals(sqlite_store) == {IDS[1]: (True, "agreement")}
    assert _reopened_by(sqlite_store, undone) == ["bob"]


def test_an_undo_with_two_raters_left_keeps_the_agreement(sqlite_store):
    _agreed(sqlite_store, "ann", "bob", "carl")
    assert IdentifyQueue(sqlite_store, "carl").undo() is not None
    assert _finals(sqlite_store) == {post: (True, "agreement") for post in IDS}


def test_merging_two_names_of_one_rater_reopens_their_agreement(sqlite_url):
    """ann and Ann2 are one person: their 'agreement' was one rater's; after `pplabel raters merge` one rater is
    left on each post, and the finals go back to reconcile."""
    from conftest import run_cli

    from core.db import open_store

    store = open_store(sqlite_url)
    _agreed(store, "ann", "Ann2")
    run_cli("labeling.cli", "raters", "merge", "Ann2", "ann", "--db", sqlite_url)
    assert _finals(store) == {}
    assert all(_reopened_by(store, post) == ["Ann2"] for post in IDS)
    auto = run_cli("labeling.cli", "reconcile", "--auto-only", "--db", sqlite_url).stdout
    assert "identification: 0 made final on agreement, 0 to adjudicate, 2 waiting for more raters" in auto


def test_an_archive_that_adds_a_breaking_decision_reopens(sqlite_url, tmp_path):
    """Two copies of a study: in one, carl decides differently; importing its archive into the other reopens."""
    import sqlite3

    from core.db import open_store
    from labeling.io.archive import export_archive, import_archive, read_archive

    store = open_store(sqlite_url)
    _agreed(store, "ann", "bob")
    copy = tmp_path / "copy.db"
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)  # the write-ahead log included
    other = open_store(f"sqlite:///{copy}")
    with other.write() as s:
        set_identification(s, get_or_create_rater(s, "carl"), IDS[0], False)
    export_archive(other, tmp_path / "other.zip")
    import_archive(store, read_archive(str(tmp_path / "other.zip")))
    assert _finals(store) == {IDS[1]: (True, "agreement")}
    assert "carl" in _reopened_by(store, IDS[0])[-1]


# -- PP labels: a final made on agreement goes as soon as the raters' labels no longer agree -------------------

FULL = {"symptom1": "time.slow_execution", "root_cause": "api.inefficient_usage",
        "introducing_stage": "model_building", "exposing_stage": "training"}  # fmt: skip


def _labelled(store, *raters):
    """Every rater calls IDS[0] a PP and labels its one PP alike; the agreement step makes both final."""
    seed_candidates(store, IDS[:1])
    with store.write() as s:
        for name in raters:
            rater = get_or_create_rater(s, name)
            set_identification(s, rater, IDS[0], True)
            set_pp_label(s, rater, IDS[0], 1, **FULL)
        finalize_agreements(s)


def _label_finals(store):
    with store.read() as s:
        return {(r.question_id, r.pp_index): r.method for r in s.scalars(sa.select(FinalLabel))}


def _label_reopened_by(store):
    with store.read() as s:
        return s.scalars(
            sa.select(AuditEntry.actor).where(
                AuditEntry.entity == "final_labels", AuditEntry.action == "delete"
            )
        ).all()


def test_classify_a_changed_label_reopens_its_agreed_final(sqlite_store):
    """Classify writes through ClassifyQueue.writing_labels: ann changes the root cause after the finals."""
    _labelled(sqlite_store, "ann", "bob")
    assert _label_finals(sqlite_store) == {(IDS[0], 1): "agreement"}
    queue = ClassifyQueue(sqlite_store, "ann")
    with queue.writing_labels(PostKey("stackoverflow", IDS[0])) as (s, rater):
        set_pp_label(s, rater, IDS[0], 1, part="the loop")  # the part alone: the agreement holds
    assert _label_finals(sqlite_store) == {(IDS[0], 1): "agreement"}
    with queue.writing_labels(PostKey("stackoverflow", IDS[0])) as (s, rater):
        set_pp_label(s, rater, IDS[0], 1, root_cause="data.improper_input")
    assert _label_finals(sqlite_store) == {} and _label_reopened_by(sqlite_store) == ["ann"]
    assert _finals(sqlite_store) == {IDS[0]: (True, "agreement")}  # the post's own final stays
    with sqlite_store.write() as s:
        summary = finalize_agreements(s)
        assert summary.labels_open == 1 and not summary.labels_agreed


def test_an_archive_that_adds_a_differing_label_reopens(sqlite_url, tmp_path):
    import sqlite3

    from core.db import open_store
    from labeling.io.archive import export_archive, import_archive, read_archive

    store = open_store(sqlite_url)
    _labelled(store, "ann", "bob")
    copy = tmp_path / "copy.db"
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    other = open_store(f"sqlite:///{copy}")
    with other.write() as s:  # carl agrees it is a PP, but labels it otherwise
        carl = get_or_create_rater(s, "carl")
        set_identification(s, carl, IDS[0], True)
        set_pp_label(s, carl, IDS[0], 1, **{**FULL, "exposing_stage": "evaluation"})
    export_archive(other, tmp_path / "other.zip")
    import_archive(store, read_archive(str(tmp_path / "other.zip")))
    assert _finals(store) == {IDS[0]: (True, "agreement")} and _label_finals(store) == {}


def test_reconcile_never_keeps_an_agreed_final_its_raters_left(sqlite_store):
    """A label changed outside the write paths above (e.g. a direct write) is caught by the agreement step:
    the stale final is deleted, audited, and the PP goes to the adjudicator."""
    _labelled(sqlite_store, "ann", "bob")
    with sqlite_store.write() as s:
        s.execute(sa.text("UPDATE pp_labels SET root_cause = 'data.improper_input' WHERE rater_id = 1"))
    with sqlite_store.write() as s:
        summary = finalize_agreements(s)
    assert summary.reopened == [f"{IDS[0]}_1"] and _label_finals(sqlite_store) == {}
    assert _label_reopened_by(sqlite_store) == ["agreement"]
