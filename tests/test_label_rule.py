"""Issue 20's scenario: a classify session killed half-way (carl: symptom and root cause, no stages) changes
no figure: agreement, ``ppmine stats``, ``pplabel progress`` and reconcile all apply core.label_rule."""

from __future__ import annotations

import sqlalchemy as sa

from core.schema.labeling import PPLabel
from labeling.agreement import compute_agreement
from labeling.codebook import load_codebook
from labeling.progress import progress_report
from labeling.reconcile import label_items
from labeling.records import get_or_create_rater, set_identification, set_pp_label
from labeling.vocabulary import complete_label_sql, label_is_complete
from mining.stats import funnel_counts
from mining.store import upsert_questions

STAGES = {"introducing_stage": "training", "exposing_stage": "training"}


def _figures(store, codebook):
    with store.read() as s:
        agreement = {d: a.as_dict() for d, a in compute_agreement(s, codebook, stage="classify").items()}
        labelled = funnel_counts(s)["pp_labelled_by_raters"]
        progress = {(p.rater, p.stage): (p.decided, p.remaining) for p in progress_report(s)}
        items, pending = label_items(s)
        reconcile = ([(i.key, i.raters) for i in items], pending)
    return agreement, labelled, progress, reconcile


def test_a_killed_classify_changes_no_figure(sqlite_store):
    codebook = load_codebook()
    with sqlite_store.write() as s:
        upsert_questions(s, [{"site": "stackoverflow", "id": i, "title": "t", "body_html": "<p>x</p>"}
                             for i in (1, 2)], "import")  # fmt: skip
        ann, bob, carl = (get_or_create_rater(s, n) for n in ("ann", "bob", "carl"))
        for rater in (ann, bob, carl):
            for post in (1, 2):
                set_identification(s, rater, post, True)
        set_pp_label(s, ann, 1, 1, symptom1="memory.oom", root_cause="other", **STAGES)
        set_pp_label(s, bob, 1, 1, symptom1="memory.oom", root_cause="other", **STAGES)
        set_pp_label(s, ann, 2, 1, symptom1="time.hang", root_cause="other", **STAGES)
        set_pp_label(s, bob, 2, 1, symptom1="time.slow_execution", root_cause="other", **STAGES)
    before = _figures(sqlite_store, codebook)
    with sqlite_store.write() as s:  # `m t1 r a1`, then kill -9: symptom and root cause kept, no stages
        set_pp_label(
            s, get_or_create_rater(s, "carl"), 2, 1, symptom1="time.hang", root_cause="data.improper_input"
        )
    after = _figures(sqlite_store, codebook)
    agreement, labelled, progress, reconcile = after
    assert agreement["symptom"]["raters"] == ["ann", "bob"]  # carl is not a symptom rater
    assert agreement["symptom"]["observed_agreement"] == 0.5
    assert labelled == 4  # carl's partial label is not counted
    assert progress[("carl", "classify")][0] == 0  # shown in progress, never decided
    assert all("carl" not in raters for _, raters in reconcile[0])
    assert after == before


def test_the_rule_in_python_and_in_sql_agree(sqlite_store):
    full = {"symptom1": "memory.oom", "root_cause": "other", **STAGES}
    with sqlite_store.write() as s:
        upsert_questions(
            s, [{"site": "stackoverflow", "id": 5, "title": "t", "body_html": "<p>x</p>"}], "import"
        )
        ann = get_or_create_rater(s, "ann")
        set_pp_label(s, ann, 5, 1, **full)
        set_pp_label(s, ann, 5, 2, **{**full, "exposing_stage": None})
        set_pp_label(s, ann, 5, 3, **{**full, "symptom1": ""})
    with sqlite_store.read() as s:
        in_sql = set(s.scalars(sa.select(PPLabel.pp_index).where(complete_label_sql(PPLabel))))
        rows = s.scalars(sa.select(PPLabel)).all()
        in_python = {r.pp_index for r in rows if label_is_complete({f: getattr(r, f) for f in full})}
    assert in_sql == in_python == {1}
