"""Every decision and label change is stored together with its audit entry."""

import sqlalchemy as sa

from core.schema.labeling import AuditEntry, FinalLabel, Identification, PPLabel
from labeling.records import (
    delete_identification,
    get_or_create_rater,
    set_final_label,
    set_identification,
    set_pp_label,
)
from mining.store import upsert_questions


def test_changes_are_audited(store):
    with store.write() as s:
        upsert_questions(
            s, [{"site": "stackoverflow", "id": 5, "title": "slow fit", "body_html": "<p>x</p>"}], "import"
        )
        ann = get_or_create_rater(s, "ann")
        set_identification(s, ann, 5, True)
        set_identification(s, ann, 5, True)  # no change, no entry
        set_identification(s, ann, 5, False)
        set_pp_label(s, ann, 5, 1, symptom1="time.slow_execution", root_cause="api.inefficient_usage")
        set_final_label(s, 5, 1, "agreement", symptom1="time.slow_execution")
        set_final_label(s, 5, 1, "adjudicated", ann, symptom1="time.slow_execution")  # same label, new method
        assert delete_identification(s, ann, 5)
    with store.read() as s:
        entries = s.scalars(sa.select(AuditEntry).order_by(AuditEntry.id)).all()
        assert [(e.entity, e.action) for e in entries] == [
            ("identifications", "insert"),
            ("identifications", "update"),
            ("pp_labels", "insert"),
            ("final_labels", "insert"),
            ("final_labels", "update"),
            ("identifications", "delete"),
        ]
        assert (entries[3].after["method"], entries[4].after["method"]) == ("agreement", "adjudicated")
        assert entries[4].after["decided_by"] == ann.id
        assert entries[1].before == {"is_pp": True} and entries[1].after == {"is_pp": False}
        assert entries[2].entity_key == "ann/5_1"
        assert s.scalar(sa.select(sa.func.count()).select_from(Identification)) == 0
        assert s.scalar(sa.select(PPLabel.root_cause)) == "api.inefficient_usage"
        assert s.scalar(sa.select(FinalLabel.method)) == "adjudicated"
