"""The one write path for decisions and labels: every change lands together with its audit-log entry.

Callers pass an open session inside a transaction (``store.write()``, or an interactive session they commit);
each function changes one row and appends one :class:`AuditEntry`, so the log and the data never disagree.
Label values must already be codebook codes (resolve aliases with ``labeling.codebook`` first).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from labeling.models import (
    AuditEntry,
    FinalIdentification,
    FinalLabel,
    Identification,
    PPLabel,
    Rater,
    pp_key,
)
from mining.store import utcnow

LABEL_FIELDS = ("part", "symptom1", "symptom2", "root_cause", "introducing_stage", "exposing_stage", "note")
# A final's audit entry also records how it was decided and by whom (rater id), so "agreed" -> "adjudicated"
# with the same labels is a change on record.
FINAL_ID_FIELDS = ("is_pp", "method", "decided_by")
FINAL_LABEL_FIELDS = (*LABEL_FIELDS, "method", "decided_by")


def get_or_create_rater(session: Session, name: str) -> Rater:
    name = name.strip()
    if not name:
        raise ValueError("a rater needs a name")
    rater = session.scalar(sa.select(Rater).where(Rater.name == name))
    if rater is None:
        rater = Rater(name=name, created_at=utcnow())
        session.add(rater)
        session.flush()
    return rater


def _snapshot(row: Any, fields: tuple[str, ...]) -> dict[str, Any] | None:
    if row is None:
        return None
    return {f: getattr(row, f) for f in fields}


def _audit(session: Session, actor: str | None, entity: str, key: str, action: str, before, after) -> None:
    session.add(
        AuditEntry(
            at=utcnow(), actor=actor, entity=entity, entity_key=key, action=action, before=before, after=after
        )
    )


def set_identification(session: Session, rater: Rater, question_id: int, is_pp: bool) -> Identification:
    """Record (or change) a rater's PP / not-PP decision on a post."""
    row = session.scalar(
        sa.select(Identification).where(
            Identification.rater_id == rater.id, Identification.question_id == question_id
        )
    )
    before = _snapshot(row, ("is_pp",))
    if row is None:
        row = Identification(rater_id=rater.id, question_id=question_id, is_pp=is_pp, decided_at=utcnow())
        session.add(row)
    elif row.is_pp == is_pp:
        return row
    else:
        row.is_pp, row.decided_at = is_pp, utcnow()
    _audit(
        session, rater.name, "identifications", f"{rater.name}/{question_id}",
        "insert" if before is None else "update", before, {"is_pp": is_pp},
    )  # fmt: skip
    session.flush()
    return row


def delete_identification(session: Session, rater: Rater, question_id: int) -> bool:
    """Undo a rater's decision on a post. Returns whether there was one."""
    row = session.scalar(
        sa.select(Identification).where(
            Identification.rater_id == rater.id, Identification.question_id == question_id
        )
    )
    if row is None:
        return False
    _audit(session, rater.name, "identifications", f"{rater.name}/{question_id}", "delete",
           {"is_pp": row.is_pp}, None)  # fmt: skip
    session.delete(row)
    session.flush()
    return True


def set_pp_label(session: Session, rater: Rater, question_id: int, pp_index: int, **values: Any) -> PPLabel:
    """Record (or change) a rater's labels for PP ``pp_index`` of a post. Unnamed fields are left as they are."""
    unknown = set(values) - set(LABEL_FIELDS)
    if unknown:
        raise ValueError(f"unknown label fields {sorted(unknown)}")
    row = session.scalar(
        sa.select(PPLabel).where(
            PPLabel.rater_id == rater.id, PPLabel.question_id == question_id, PPLabel.pp_index == pp_index
        )
    )
    before = _snapshot(row, LABEL_FIELDS)
    if row is None:
        row = PPLabel(rater_id=rater.id, question_id=question_id, pp_index=pp_index, labeled_at=utcnow())
        session.add(row)
    for field, value in values.items():
        setattr(row, field, value)
    after = _snapshot(row, LABEL_FIELDS)
    if after == before:
        return row
    row.labeled_at = utcnow()
    _audit(session, rater.name, "pp_labels", f"{rater.name}/{pp_key(question_id, pp_index)}",
           "insert" if before is None else "update", before, after)  # fmt: skip
    session.flush()
    return row


def delete_pp_label(session: Session, rater: Rater, question_id: int, pp_index: int) -> bool:
    row = session.scalar(
        sa.select(PPLabel).where(
            PPLabel.rater_id == rater.id, PPLabel.question_id == question_id, PPLabel.pp_index == pp_index
        )
    )
    if row is None:
        return False
    _audit(session, rater.name, "pp_labels", f"{rater.name}/{pp_key(question_id, pp_index)}", "delete",
           _snapshot(row, LABEL_FIELDS), None)  # fmt: skip
    session.delete(row)
    session.flush()
    return True


def set_final_identification(
    session: Session, question_id: int, is_pp: bool, method: str, decided_by: Rater | None = None
) -> FinalIdentification:
    """Record the reconciled decision. ``method``: agreement | adjudicated | imported."""
    row = session.get(FinalIdentification, question_id)
    before = _snapshot(row, FINAL_ID_FIELDS)
    if row is None:
        row = FinalIdentification(question_id=question_id)
        session.add(row)
    row.is_pp, row.method = is_pp, method
    row.decided_by = decided_by.id if decided_by else None
    row.decided_at = utcnow()
    after = _snapshot(row, FINAL_ID_FIELDS)
    if before != after:
        _audit(session, decided_by.name if decided_by else method, "final_identifications", str(question_id),
               "insert" if before is None else "update", before, after)  # fmt: skip
    session.flush()
    return row


def set_final_label(
    session: Session,
    question_id: int,
    pp_index: int,
    method: str,
    decided_by: Rater | None = None,
    **values: Any,
) -> FinalLabel:
    """Record (or change) the reconciled labels of one PP."""
    unknown = set(values) - set(LABEL_FIELDS)
    if unknown:
        raise ValueError(f"unknown label fields {sorted(unknown)}")
    row = session.scalar(
        sa.select(FinalLabel).where(FinalLabel.question_id == question_id, FinalLabel.pp_index == pp_index)
    )
    before = _snapshot(row, FINAL_LABEL_FIELDS)
    if row is None:
        row = FinalLabel(question_id=question_id, pp_index=pp_index)
        session.add(row)
    for field, value in values.items():
        setattr(row, field, value)
    row.method, row.decided_by, row.decided_at = method, decided_by.id if decided_by else None, utcnow()
    after = _snapshot(row, FINAL_LABEL_FIELDS)
    if before != after:
        _audit(session, decided_by.name if decided_by else method, "final_labels", pp_key(question_id, pp_index),
               "insert" if before is None else "update", before, after)  # fmt: skip
    session.flush()
    return row


def delete_final_identification(session: Session, question_id: int, actor: str | None) -> bool:
    """Remove a post's reconciled decision (e.g. an adjudicator's undo). Returns whether there was one."""
    row = session.get(FinalIdentification, question_id)
    if row is None:
        return False
    _audit(session, actor, "final_identifications", str(question_id), "delete",
           _snapshot(row, FINAL_ID_FIELDS), None)  # fmt: skip
    session.delete(row)
    session.flush()
    return True


def delete_final_label(session: Session, question_id: int, pp_index: int, actor: str | None) -> bool:
    """Remove the reconciled labels of one PP. Returns whether there were any."""
    row = session.scalar(
        sa.select(FinalLabel).where(FinalLabel.question_id == question_id, FinalLabel.pp_index == pp_index)
    )
    if row is None:
        return False
    _audit(session, actor, "final_labels", pp_key(question_id, pp_index), "delete",
           _snapshot(row, FINAL_LABEL_FIELDS), None)  # fmt: skip
    session.delete(row)
    session.flush()
    return True
