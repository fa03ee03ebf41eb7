"""`pplabel raters`: who has labelled what, and renaming or merging raters (every change audited).

A rater is identified by the normalised name (``core.schema.labeling.rater_key``: trimmed, case-folded), shown as first
written. Renaming changes how a rater is shown (and may change the identity, as long as no other rater has it);
merging moves every decision, label and adjudication of one rater to another, refusing (and changing nothing)
when both decided the same thing differently.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.errors import PPMinerError
from core.schema.labeling import (
    AuditEntry,
    FinalIdentification,
    FinalLabel,
    Identification,
    PPLabel,
    Rater,
    pp_key,
    rater_display,
    rater_key,
)
from core.sites import PostKey
from labeling.reconcile import reopen_broken_label_agreements
from labeling.records import (
    LABEL_FIELDS,
    delete_identification,
    delete_pp_label,
    find_rater,
    set_identification,
    set_pp_label,
)
from mining.store import utcnow

RATER_COLUMNS = ("rater", "identifications", "pp_posts", "pp_labels", "adjudicated", "first", "last")


def _count_by_rater(session: Session, column, *where) -> dict[int, int]:
    return dict(session.execute(sa.select(column, sa.func.count()).where(*where).group_by(column)).all())


def list_raters(session: Session) -> list[dict[str, Any]]:
    """One row per rater: identifications, posts they called a PP, PP labels, finals they adjudicated, and
    the first and last time they decided something (an adjudicator's finals included)."""
    idents = _count_by_rater(session, Identification.rater_id)
    pps = _count_by_rater(session, Identification.rater_id, Identification.is_pp.is_(True))
    labels = _count_by_rater(session, PPLabel.rater_id)
    adjudicated = _count_by_rater(session, FinalIdentification.decided_by)
    for rid, n in _count_by_rater(session, FinalLabel.decided_by).items():
        adjudicated[rid] = adjudicated.get(rid, 0) + n
    spans: dict[int, list] = {}
    for column, when in (
        (Identification.rater_id, Identification.decided_at),
        (PPLabel.rater_id, PPLabel.labeled_at),
        (FinalIdentification.decided_by, FinalIdentification.decided_at),  # an adjudicator's decisions
        (FinalLabel.decided_by, FinalLabel.decided_at),
    ):
        for rid, first, last in session.execute(
            sa.select(column, sa.func.min(when), sa.func.max(when)).group_by(column)
        ):
            span = spans.setdefault(rid, [first, last])
            span[0], span[1] = min(span[0], first), max(span[1], last)
    out = []
    for rater in session.scalars(sa.select(Rater).order_by(Rater.name_key)):
        first, last = spans.get(rater.id, (None, None))
        out.append(
            {
                "rater": rater.name,
                "identifications": idents.get(rater.id, 0),
                "pp_posts": pps.get(rater.id, 0),
                "pp_labels": labels.get(rater.id, 0),
                "adjudicated": adjudicated.get(rater.id, 0),
                "first": first.isoformat(timespec="seconds") if first else None,
                "last": last.isoformat(timespec="seconds") if last else None,
            }
        )
    return out


def _require(session: Session, name: str) -> Rater:
    rater = find_rater(session, name)
    if rater is None:
        known = session.scalars(sa.select(Rater.name).order_by(Rater.name_key)).all()
        raise PPMinerError(f"no rater named {rater_display(name)!r}; raters: {', '.join(known) or 'none'}")
    return rater


def _audit_rater(session: Session, actor: str, rater: Rater, action: str, before, after) -> None:
    session.add(
        AuditEntry(
            at=utcnow(), actor=actor, entity="raters", entity_key=str(rater.id), action=action,
            before=before, after=after,
        )
    )  # fmt: skip


def rename_rater(session: Session, old: str, new: str) -> tuple[str, str]:
    """Show rater ``old`` as ``new`` from now on; returns (before, after). Refused when ``new`` is another
    rater's name (merge them instead)."""
    rater = _require(session, old)
    shown = rater_display(new)
    if not shown:
        raise PPMinerError("the new name is empty")
    other = find_rater(session, shown)
    if other is not None and other.id != rater.id:
        raise PPMinerError(
            f"{other.name!r} is another rater: `pplabel raters merge {rater.name!r} {other.name!r}` joins them"
        )
    before = {"name": rater.name, "name_key": rater.name_key}
    if shown == rater.name:
        return rater.name, shown
    rater.name, rater.name_key = shown, rater_key(shown)
    _audit_rater(session, shown, rater, "update", before, {"name": rater.name, "name_key": rater.name_key})
    session.flush()
    return before["name"], shown


def _label_sets(session: Session, rater: Rater) -> dict[PostKey, list[dict[str, Any]]]:
    out: dict[PostKey, list[dict[str, Any]]] = {}
    for row in session.scalars(
        sa.select(PPLabel).where(PPLabel.rater_id == rater.id).order_by(PPLabel.pp_index)
    ):
        out.setdefault(row.key, []).append(
            {
                "pp_index": row.pp_index,
                "published_id": row.published_id,
                "labeled_at": row.labeled_at,
                "spellings": row.spellings,
                **{f: getattr(row, f) for f in LABEL_FIELDS},
            }  # fmt: skip
        )
    return out


def merge_raters(session: Session, source: str, target: str) -> dict[str, int]:
    """Move everything ``source`` recorded to ``target`` and remove ``source``; returns what moved.

    Where both decided the same post, the decisions must agree (the duplicate is dropped) and their labels of
    that post must be the same; otherwise nothing changes and the error names the posts in conflict.
    """
    src, dst = _require(session, source), _require(session, target)
    if src.id == dst.id:
        raise PPMinerError(f"{src.name!r} and {rater_display(target)!r} are the same rater")
    mine, when, notes = {}, {}, {}
    for row in session.scalars(sa.select(Identification).where(Identification.rater_id == src.id)):
        mine[row.key], when[row.key], notes[row.key] = row.is_pp, row.decided_at, row.note
    dst_rows = {
        row.key: row
        for row in session.scalars(sa.select(Identification).where(Identification.rater_id == dst.id))
    }
    theirs = {q: row.is_pp for q, row in dst_rows.items()}
    untold = {q: notes[q] for q in mine.keys() & dst_rows.keys() if notes[q] and not dst_rows[q].note}
    src_labels, dst_labels = _label_sets(session, src), _label_sets(session, dst)
    conflicts = sorted(q for q in mine.keys() & theirs.keys() if mine[q] != theirs[q])
    conflicts += sorted(
        q
        for q in src_labels.keys() & dst_labels.keys()
        if [{f: pp[f] for f in LABEL_FIELDS} for pp in src_labels[q]]
        != [{f: pp[f] for f in LABEL_FIELDS} for pp in dst_labels[q]]
    )
    if conflicts:
        shown = ", ".join(str(q) for q in sorted(set(conflicts))[:10])
        raise PPMinerError(
            f"cannot merge {src.name!r} into {dst.name!r}: they decided or labelled {len(set(conflicts))} posts "
            f"differently ({shown}); settle those first (nothing was changed)"
        )
    moved = {"identifications": 0, "pp_labels": 0, "finals": 0}
    for qid, is_pp in sorted(mine.items()):
        # The target's decision is written before the source's goes, so a post never looks as if one rater fewer
        # decided it; where both decided it, it now has one rater fewer (an agreement of two names of one person
        # then no longer holds, and delete_identification reopens it).
        if qid not in theirs:
            moved_row = set_identification(session, dst, qid, is_pp, note=notes[qid])
            moved_row.decided_at = when[qid]  # when it was decided
            moved["identifications"] += 1
        elif qid in untold:  # the same decision: the target keeps its own note, else takes the source's
            set_identification(session, dst, qid, is_pp, note=untold[qid])
        delete_identification(session, src, qid)
    for qid, pps in sorted(src_labels.items()):
        for pp in pps:
            delete_pp_label(session, src, qid, pp["pp_index"])
        if qid in dst_labels:  # the target keeps its own labels: one rater's fewer on the post
            reopen_broken_label_agreements(session, qid, dst.name)
            continue
        for pp in pps:
            values = {f: pp[f] for f in LABEL_FIELDS}
            row = set_pp_label(
                session, dst, qid, pp["pp_index"], pp["published_id"], pp["spellings"] or {}, **values
            )
            row.labeled_at = pp["labeled_at"]
            moved["pp_labels"] += 1
    finals = (
        (FinalIdentification, lambda r: str(r.key)),
        (FinalLabel, lambda r: pp_key(r.key, r.pp_index)),
    )
    for model, key in finals:
        for row in session.scalars(sa.select(model).where(model.decided_by == src.id)):
            row.decided_by = dst.id
            session.add(
                AuditEntry(
                    at=utcnow(), actor=dst.name, entity=model.__tablename__, entity_key=key(row), action="update",
                    before={"decided_by": src.id}, after={"decided_by": dst.id},
                )
            )  # fmt: skip
            moved["finals"] += 1
    _audit_rater(session, dst.name, src, "delete", {"name": src.name, "name_key": src.name_key},
                 {"merged_into": dst.name})  # fmt: skip
    session.flush()
    session.delete(src)
    session.flush()
    return moved
