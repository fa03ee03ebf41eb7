"""Issue 20, point 4: a final made on agreement is reopened, audited, on every path that changes a decision."""

from __future__ import annotations

import sqlalchemy as sa
from test_tui_identify import seed_candidates

from core.schema.labeling import AuditEntry, FinalIdentification
from core.sites import PostKey
from labeling.io.import_study import import_file
from labeling.queue import IdentifyQueue, seeded_order
from labeling.raters import merge_raters
from labeling.reconcile import finalize_agreements, open_identifications
from labeling.records import get_or_create_rater, set_identification

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
