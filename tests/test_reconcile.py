"""Reconciliation library: agreed items become final on their own, disagreements wait for the adjudicator."""

from __future__ import annotations

import csv

import pytest
import sqlalchemy as sa

from core.errors import PPMinerError
from core.schema.labeling import AuditEntry, FinalIdentification, FinalLabel
from core.sites import PostKey
from labeling.reconcile import (
    AlreadyDecided,
    ReconcileSession,
    decide_identification,
    decide_label,
    finalize_agreements,
    open_identifications,
    open_labels,
    undo,
)
from labeling.records import (
    get_or_create_rater,
    set_final_identification,
    set_identification,
    set_pp_label,
)
from mining.store import upsert_questions


def SO(post_id: int) -> PostKey:  # noqa: N802 - reads like the post it names
    return PostKey("stackoverflow", post_id)


SLOW = dict(introducing_stage="model_building", exposing_stage="training")


def _posts(session, *ids):
    upsert_questions(
        session,
        [{"site": "stackoverflow", "id": i, "title": f"post {i}", "body_html": "<p>slow</p>"} for i in ids],
        "import",
    )


def _study(store):
    """ann and bob: 1 and 2 agreed PPs, 3 agreed not-PP, 4 disputed, 5 rated by ann only."""
    with store.write() as s:
        _posts(s, 1, 2, 3, 4, 5)
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        for qid, a, b in [(1, True, True), (2, True, True), (3, False, False), (4, True, False)]:
            set_identification(s, ann, qid, a)
            set_identification(s, bob, qid, b)
        set_identification(s, ann, 5, True)
        # post 1, PP 1: same symptoms in another order -> agreed; PP 2: root causes differ
        set_pp_label(s, ann, 1, 1, symptom1="memory.oom", symptom2="time.slow_execution",
                     root_cause="api.not_batch_api", part="first paragraph", **SLOW)  # fmt: skip
        set_pp_label(s, bob, 1, 1, symptom1="time.slow_execution", symptom2="memory.oom",
                     root_cause="api.not_batch_api", **SLOW)  # fmt: skip
        set_pp_label(
            s, ann, 1, 2, symptom1="time.slow_execution", root_cause="model.inefficient_structure", **SLOW
        )
        set_pp_label(
            s, bob, 1, 2, symptom1="time.slow_execution", root_cause="model.improper_model_parameter", **SLOW
        )
        # post 2: bob labelled a second PP ann did not see; bob's first PP is unfinished (no stages) and is aligned
        # with ann's PP 1 (same symptom and root cause; labeling.alignment)
        set_pp_label(s, ann, 2, 1, symptom1="processor.not_using_gpu", root_cause="hardware.library_mismatch",
                     introducing_stage="environment_setting", exposing_stage="training")  # fmt: skip
        set_pp_label(s, bob, 2, 2, symptom1="memory.oom", root_cause="library.mismatched_version",
                     introducing_stage="data_preparation", exposing_stage="training")  # fmt: skip
        set_pp_label(s, bob, 2, 1, symptom1="processor.not_using_gpu", root_cause="hardware.library_mismatch")


def _finals(store):
    with store.read() as s:
        ids = {
            r.question_id: (r.is_pp, r.method, r.decided_by)
            for r in s.scalars(sa.select(FinalIdentification))
        }
        labels = {(r.question_id, r.pp_index): r for r in s.scalars(sa.select(FinalLabel))}
        audit = s.scalar(sa.select(sa.func.count()).select_from(AuditEntry))
    return ids, labels, audit


def test_agreed_items_become_final_without_a_visit(store):
    _study(store)
    with store.write() as s:
        summary = finalize_agreements(s)
    assert (
        summary.identifications_agreed,
        summary.identifications_open,
        summary.identifications_pending,
    ) == (
        3,
        1,
        1,
    )
    ids, labels, audit = _finals(store)
    assert ids == {1: (True, "agreement", None), 2: (True, "agreement", None), 3: (False, "agreement", None)}
    # post 1 PP 1 agreed (symptoms as a set, first rater's order and part); PP 2 disputed; post 2: bob's unfinished
    # PP 1 does not count, so PP 1 and PP 2 each lack a rater -> both disputed
    assert set(labels) == {(1, 1)}
    final = labels[(1, 1)]
    assert (final.symptom1, final.symptom2, final.root_cause, final.part, final.method, final.decided_by) == (
        "memory.oom",
        "time.slow_execution",
        "api.not_batch_api",
        "first paragraph",
        "agreement",
        None,
    )
    assert (final.introducing_stage, final.exposing_stage) == ("model_building", "training")
    assert (summary.labels_agreed, summary.labels_open) == (1, 3)
    with store.write() as s:
        again = finalize_agreements(s)
    assert (again.identifications_agreed, again.labels_agreed) == (0, 0)
    assert _finals(store)[2] == audit, "a second run must write nothing"


def test_open_items_list_what_the_adjudicator_must_decide(sqlite_store):
    _study(sqlite_store)
    with sqlite_store.write() as s:
        finalize_agreements(s)
    with sqlite_store.read() as s:
        disputed = open_identifications(s)
        labels = {item.key: item for item in open_labels(s)}
    assert [(i.question_id, i.votes) for i in disputed] == [(SO(4), {"ann": True, "bob": False})]
    assert sorted(labels) == ["1_2", "2_1", "2_2"]
    assert labels["1_2"].disagreements == ("root_cause",)
    assert labels["1_2"].open_fields == ("root_cause",)
    assert labels["2_2"].ratings["ann"] is None and labels["2_2"].disagreements == (
        "symptom",
        "root_cause",
        "introducing_stage",
        "exposing_stage",
    )
    assert labels["2_2"].open_fields == (
        "symptom1",
        "symptom2",
        "root_cause",
        "introducing_stage",
        "exposing_stage",
    )


def test_min_raters_one_finalises_single_ratings(sqlite_store):
    _study(sqlite_store)
    with sqlite_store.write() as s:
        summary = finalize_agreements(s, min_raters=1)
    assert summary.identifications_pending == 0
    assert _finals(sqlite_store)[0][5] == (True, "agreement", None)
    with pytest.raises(ValueError), sqlite_store.write() as s:
        finalize_agreements(s, min_raters=0)


def test_agreement_finals_follow_the_raters_human_finals_do_not(store):
    _study(store)
    with store.write() as s:
        finalize_agreements(s)
        set_final_identification(s, 3, True, "imported")
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        set_identification(s, ann, 2, False)  # 2 now disputed: back to the adjudicator
        set_identification(s, ann, 3, True)
        set_identification(s, bob, 3, True)  # the imported final of 3 stays as imported
    with store.write() as s:
        summary = finalize_agreements(s)
        assert [i.question_id for i in open_identifications(s)] == [SO(2), SO(4)]
    # 2's agreement final was reopened when ann changed her mind (issue 20, point 4), not by finalize
    assert summary.reopened == [] and 2 not in _finals(store)[0]
    ids = _finals(store)[0]
    assert ids[3] == (True, "imported", None)
    with store.write() as s:  # both change their minds on post 2: the agreement final follows them
        set_identification(s, get_or_create_rater(s, "bob"), 2, False)
        finalize_agreements(s)
    assert _finals(store)[0][2] == (False, "agreement", None)


def test_adjudicated_decisions_are_recorded_audited_and_undone(store):
    _study(store)
    with store.write() as s:
        finalize_agreements(s)
        judge = get_or_create_rater(s, "judge")
        first = decide_identification(s, judge, 4, True)
    ids, _, _ = _finals(store)
    with store.read() as s:
        judge_id = get_or_create_rater(s, "judge").id
    assert ids[4] == (True, "adjudicated", judge_id)
    with store.write() as s:
        undo(s, first, "judge")
    assert 4 not in _finals(store)[0]
    with store.read() as s:
        actions = s.execute(
            sa.select(AuditEntry.actor, AuditEntry.action)
            .where(AuditEntry.entity == "final_identifications", AuditEntry.entity_key == "4")
            .order_by(AuditEntry.id)
        ).all()
    assert [tuple(a) for a in actions] == [("judge", "insert"), ("judge", "delete")]

    with store.write() as s:
        judge = get_or_create_rater(s, "judge")
        item = next(i for i in open_labels(s) if i.key == "1_2")
        with pytest.raises(ValueError, match="root_cause"):
            decide_label(s, judge, item, {})
        decision = decide_label(s, judge, item, {"root_cause": "model.inefficient_structure"})
    labels = _finals(store)[1]
    final = labels[(1, 2)]
    assert (final.symptom1, final.root_cause, final.exposing_stage, final.method, final.decided_by) == (
        "time.slow_execution",
        "model.inefficient_structure",
        "training",
        "adjudicated",
        judge_id,
    )
    with store.read() as s:
        assert [i.key for i in open_labels(s)] == ["2_1", "2_2"]
    with store.write() as s:
        undo(s, decision, "judge")
    assert (1, 2) not in _finals(store)[1]


def test_undo_after_a_reopened_agreement_leaves_the_post_open(sqlite_store):
    _study(sqlite_store)
    with sqlite_store.write() as s:
        finalize_agreements(s)
        set_identification(s, get_or_create_rater(s, "ann"), 2, False)  # 2 reopened: its final is gone
        finalize_agreements(s)
        decision = decide_identification(s, get_or_create_rater(s, "judge"), 2, False)
        assert decision.previous is None
    with sqlite_store.write() as s:
        undo(s, decision, "judge")
    assert 2 not in _finals(sqlite_store)[0]  # back to open, not to the agreement that no longer holds


def test_a_post_judged_pp_by_the_adjudicator_gets_its_labels_reconciled(sqlite_store):
    _study(sqlite_store)
    with sqlite_store.write() as s:
        finalize_agreements(s)
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        for rater in (ann, bob):
            set_pp_label(s, rater, 4, 1, symptom1="memory.leak", root_cause="api.inefficient_usage", **SLOW)
        assert not [i for i in open_labels(s) if i.question_id == SO(4)]
        decision = decide_identification(s, get_or_create_rater(s, "judge"), 4, True)
        summary = finalize_agreements(s)
    assert [i.key for i in decision.agreed_labels] == ["4_1"] and not decision.open_labels
    assert summary.labels_agreed == 0, "the decision itself made the agreed labels final"
    assert _finals(sqlite_store)[1][(4, 1)].symptom1 == "memory.leak"


def test_session_walks_identifications_then_labels_with_skip_and_undo(sqlite_store):
    _study(sqlite_store)
    with sqlite_store.write() as s:
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        for rater, cause in ((ann, "api.inefficient_usage"), (bob, "api.inefficient_usage")):
            set_pp_label(s, rater, 4, 1, symptom1="memory.leak", root_cause=cause, **SLOW)
        set_pp_label(s, ann, 4, 2, symptom1="memory.oom", root_cause="data.improper_input", **SLOW)
        set_pp_label(s, bob, 4, 2, symptom1="memory.oom", root_cause="api.not_batch_api", **SLOW)
    session = ReconcileSession(sqlite_store, "judge")
    assert session.summary.identifications_agreed == 3
    assert [i.key for i in session.pending] == ["4", "1_2", "2_1", "2_2"]
    session.skip()
    assert [i.key for i in session.pending] == ["1_2", "2_1", "2_2", "4"]
    assert session.undo().key == "4" and session.current.key == "4"
    decision = session.decide_identification(True)
    # 4_1 agreed -> final with the decision; 4_2 disputed -> queued at the end
    assert [i.key for i in decision.agreed_labels] == ["4_1"]
    assert [i.key for i in session.pending] == ["1_2", "2_1", "2_2", "4_2"]
    assert (4, 1) in _finals(sqlite_store)[1]
    session.decide_label({"root_cause": "model.improper_model_parameter"})
    assert session.decided == 2 and session.remaining == 3
    assert session.undo().key == "1_2"
    assert (1, 2) not in _finals(sqlite_store)[1]
    assert session.undo().key == "4"
    ids, labels, _ = _finals(sqlite_store)
    assert 4 not in ids and (4, 1) not in labels
    assert [i.key for i in session.pending] == ["4", "1_2", "2_1", "2_2"]
    assert session.undo() is None
    with pytest.raises(ValueError):
        session.decide_label({})


def test_session_needs_an_adjudicator_name(sqlite_store):
    with pytest.raises(PPMinerError, match="adjudicator"):
        ReconcileSession(sqlite_store, "  ")


def test_an_item_decided_elsewhere_meanwhile_is_left_alone(store):
    _study(store)
    first, second = ReconcileSession(store, "judge"), ReconcileSession(store, "jury")
    first.decide_identification(False)
    with pytest.raises(AlreadyDecided, match="post 4 was decided meanwhile by judge"):
        second.decide_identification(True)
    assert second.current.key == "1_2" and second.decided == 0
    first.decide_label({"root_cause": "model.inefficient_structure"})
    with pytest.raises(AlreadyDecided, match="PP 1_2"):
        second.decide_label({"root_cause": "model.improper_model_parameter"})
    ids, labels, _ = _finals(store)
    assert ids[4][:2] == (False, "adjudicated")
    assert labels[(1, 2)].root_cause == "model.inefficient_structure"


def _published(path):
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return [row for row in csv.DictReader(fh) if (row.get("_id") or row.get("id") or "").strip()]


def test_published_raters_agreements_become_final_and_match_the_published_labels(sqlite_store, published):
    """The two published raters' labels (kappa_label.csv): what they agree on is made final, and matches the
    paper's final labels (empirical_study.csv) wherever the paper kept that PP."""
    from labeling.codebook import load_codebook
    from labeling.io.import_study import import_file

    cb = load_codebook()
    dlperf = published  # data/published
    import_file(sqlite_store, "identification", str(dlperf / "kappa_identification.csv"))
    import_file(sqlite_store, "labels", str(dlperf / "kappa_label.csv"), cb)
    with sqlite_store.write() as s:
        summary = finalize_agreements(s)

    # Expected straight from the files: PPs of posts reconciled as PPs ("merge" = 1) whose two raters' columns
    # resolve to the same codes in every dimension.
    pp_posts = {int(r["_id"]) for r in _published(dlperf / "kappa_identification.csv") if r["merge"] == "1"}
    pairs = [("symptom1", "symptom2", "symptom"), ("root casue", "root casue 2", "root_cause"),
             ("root stage", "root stage 2", "stage"), ("expose stage", "expose stage 2", "stage")]  # fmt: skip
    agreed, disputed = {}, set()
    for row in _published(dlperf / "kappa_label.csv"):
        post, _, index = row["_id"].partition("_")
        if int(post) not in pp_posts:
            continue
        a = [cb.resolve(dim, row[x]) for x, _, dim in pairs]
        b = [cb.resolve(dim, row[y]) for _, y, dim in pairs]
        key = (int(post), int(index or 1))
        if a == b:
            agreed[key] = a
        else:
            disputed.add(key)
    assert (summary.labels_agreed, summary.labels_open) == (len(agreed), len(disputed))
    assert summary.identifications_agreed == 0, "imported finals (merge) are kept as they are"
    finals = _finals(sqlite_store)[1]
    assert {k for k, f in finals.items() if f.method == "agreement"} == set(agreed)
    with sqlite_store.read() as s:
        assert {(i.question_id.id, i.pp_index) for i in open_labels(s)} == disputed

    compared = 0
    for row in _published(dlperf / "empirical_study.csv"):
        post, _, index = row["id"].partition("_")
        key = (int(post), int(index or 1))
        if key not in agreed:
            continue
        compared += 1
        final = finals[key]
        assert final.symptom1 == cb.resolve("symptom", row["symptom1"]), key
        assert final.introducing_stage == cb.resolve("stage", row["introducing stage"]), key
        assert final.exposing_stage == cb.resolve("stage", row["exposing stage"]), key
        if not cb.get(final.root_cause, "root_cause").legacy:  # the paper refined the old "Others"
            assert final.root_cause == cb.resolve("root_cause", row["root cause"]), key
    assert compared > len(agreed) // 2


def test_a_disputed_post_loses_its_agreed_finals_at_once(sqlite_store):
    _study(sqlite_store)
    with sqlite_store.write() as s:
        finalize_agreements(s)
        set_identification(s, get_or_create_rater(s, "ann"), 1, False)  # post 1 disputed now
    session = ReconcileSession(sqlite_store, "judge")
    # ann's change reopened post 1 at once: its agreement final and its PPs' agreement finals are gone (issue 20)
    assert session.current.key == "1" and (1, 1) not in _finals(sqlite_store)[1]
    decision = session.decide_identification(False)
    assert not decision.withdrawn_labels
    session.undo()  # back to open, not to the agreement that no longer holds
    ids, labels, _ = _finals(sqlite_store)
    assert 1 not in ids and (1, 1) not in labels
    with sqlite_store.write() as s:  # both raters now say not a PP: the agreement step makes that final
        set_identification(s, get_or_create_rater(s, "bob"), 1, False)
        summary = finalize_agreements(s)
    assert summary.labels_withdrawn == 0
    ids, labels, _ = _finals(sqlite_store)
    assert ids[1] == (False, "agreement", None) and (1, 1) not in labels
