"""The one write path for decisions and labels: every change lands together with its audit-log entry.

Callers pass an open session inside a transaction (``store.write()``, or an interactive session they commit);
each function changes one row and appends one :class:`AuditEntry`, so the log and the data never disagree.
Label values must already be codebook codes (resolve aliases with ``labeling.codebook`` first).

A post is passed as a :class:`core.sites.PostKey` (``(site, id)``); a bare int is read as a Stack Overflow id,
the convention of the published files. Audit keys spell posts with :func:`core.sites.post_ref`
(``ann/65160023``, ``ann/ai:136_1``).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

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
from core.sites import PostKey, as_post
from labeling.vocabulary import AGREEMENT_METHOD, AGREEMENT_MIN_RATERS
from mining.store import utcnow

LABEL_FIELDS = ("part", "symptom1", "symptom2", "root_cause", "introducing_stage", "exposing_stage", "note")
# A final's audit entry also records how it was decided and by whom (rater id), so "agreed" -> "adjudicated"
# with the same labels is a change on record.
FINAL_ID_FIELDS = ("is_pp", "method", "decided_by")
FINAL_LABEL_FIELDS = (*LABEL_FIELDS, "method", "decided_by")


def find_rater(session: Session, name: str) -> Rater | None:
    """The rater whose normalised name (``rater_key``: trimmed, case-folded) is ``name``'s, or None."""
    return session.scalar(sa.select(Rater).where(Rater.name_key == rater_key(name)))


def get_or_create_rater(session: Session, name: str) -> Rater:
    """The rater called ``name`` ("Ann " is "ann"), created as written (trimmed) if new. Call it only when the
    rater is about to record something: a rater exists once they decided something."""
    shown = rater_display(name)
    if not shown:
        raise ValueError("a rater needs a name")
    rater = find_rater(session, shown)
    if rater is None:
        rater = Rater(name=shown, name_key=rater_key(shown), created_at=utcnow())
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


def identification(session: Session, rater: Rater, post: PostKey | int) -> Identification | None:
    """A rater's stored decision on a post, or None. Callers that need it before a write pass it on as ``current``
    to :func:`set_identification` / :func:`delete_identification`, so the row is read once."""
    post = as_post(post)
    return session.scalar(
        sa.select(Identification).where(
            Identification.rater_id == rater.id,
            Identification.site == post.site,
            Identification.question_id == post.id,
        )
    )


_KEEP: Any = object()  # set_identification(note=...) default: leave the stored note as it is
_UNREAD: Any = object()  # current=... default: the function reads the rater's row itself


def clean_note(note: str | None) -> str | None:
    """A note as stored: trimmed; an empty one is no note."""
    text = (note or "").strip()
    return text or None


def _identification_snapshot(row: Identification | None) -> dict[str, Any] | None:
    """What an identification's audit entry records: the decision, and the note when there is one (so entries
    of decisions without notes read as they always did)."""
    if row is None:
        return None
    snap: dict[str, Any] = {"is_pp": row.is_pp}
    if row.note:
        snap["note"] = row.note
    return snap


def set_identification(
    session: Session,
    rater: Rater,
    post: PostKey | int,
    is_pp: bool,
    note: str | None = _KEEP,
    *,
    current: Identification | None = _UNREAD,
) -> Identification:
    """Record (or change) a rater's PP / not-PP decision on a post; ``note`` also sets its note (None or "" clears
    it; left out, the stored note stays). A changed decision gets a new ``decided_at``; a changed note alone not.
    ``current``: the row :func:`identification` returned in this transaction (not read again)."""
    post = as_post(post)
    row = identification(session, rater, post) if current is _UNREAD else current
    before = _identification_snapshot(row)
    if row is None:
        row = Identification(
            rater_id=rater.id, site=post.site, question_id=post.id, is_pp=is_pp, decided_at=utcnow()
        )
        session.add(row)
    elif row.is_pp != is_pp:
        row.is_pp, row.decided_at = is_pp, utcnow()
    if note is not _KEEP:
        row.note = clean_note(note)
    after = _identification_snapshot(row)
    if after == before:
        return row
    _audit(
        session, rater.name, "identifications", f"{rater.name}/{post}",
        "insert" if before is None else "update", before, after,
    )  # fmt: skip
    session.flush()
    reopen_broken_agreement(session, post, rater.name)
    return row


def set_identification_note(
    session: Session, rater: Rater, post: PostKey | int, note: str | None
) -> Identification | None:
    """Set (or clear, with None or "") the note on a rater's decision. None when there is no decision: a note
    belongs to a decision, so nothing is stored."""
    row = identification(session, rater, post)
    if row is None:
        return None
    return set_identification(session, rater, post, row.is_pp, note=note, current=row)


def delete_identification(
    session: Session, rater: Rater, post: PostKey | int, *, current: Identification | None = _UNREAD
) -> bool:
    """Undo a rater's decision on a post. Returns whether there was one. A final made on agreement that the
    remaining decisions no longer hold (see :func:`reopen_broken_agreement`) is reopened. ``current``: as for
    :func:`set_identification`."""
    post = as_post(post)
    row = identification(session, rater, post) if current is _UNREAD else current
    if row is None:
        return False
    _audit(session, rater.name, "identifications", f"{rater.name}/{post}", "delete",
           _identification_snapshot(row), None)  # fmt: skip
    session.delete(row)
    session.flush()
    reopen_broken_agreement(session, post, rater.name, removed=True)
    return True


def _keep_spellings(row: Any, before: dict[str, Any] | None, spellings: dict[str, str] | None) -> None:
    """Store an imported file's spellings of the labels; a label changed since keeps none (it is another code)."""
    if spellings is not None:
        row.spellings = dict(spellings) or None
    elif row.spellings and before is not None:
        kept = {f: v for f, v in row.spellings.items() if getattr(row, f) == before.get(f)}
        row.spellings = kept or None


def _pp_label(session: Session, rater: Rater, post: PostKey, pp_index: int) -> PPLabel | None:
    return session.scalar(
        sa.select(PPLabel).where(
            PPLabel.rater_id == rater.id,
            PPLabel.site == post.site,
            PPLabel.question_id == post.id,
            PPLabel.pp_index == pp_index,
        )
    )


def set_pp_label(
    session: Session,
    rater: Rater,
    post: PostKey | int,
    pp_index: int,
    published_id: str | None = None,
    spellings: dict[str, str] | None = None,
    **values: Any,
) -> PPLabel:
    """Record (or change) a rater's labels for PP ``pp_index`` of a post. Unnamed fields are left as they are.
    ``published_id`` keeps an imported file's spelling of the PP id, so an export writes it back as it was;
    ``spellings`` (field -> cell) likewise keeps how the file wrote a label."""
    unknown = set(values) - set(LABEL_FIELDS)
    if unknown:
        raise ValueError(f"unknown label fields {sorted(unknown)}")
    post = as_post(post)
    row = _pp_label(session, rater, post, pp_index)
    before = _snapshot(row, LABEL_FIELDS)
    if row is None:
        row = PPLabel(
            rater_id=rater.id, site=post.site, question_id=post.id, pp_index=pp_index, labeled_at=utcnow()
        )
        session.add(row)
    if published_id is not None:
        row.published_id = published_id
    for field, value in values.items():
        setattr(row, field, value)
    _keep_spellings(row, before, spellings)
    after = _snapshot(row, LABEL_FIELDS)
    if after == before:
        return row
    row.labeled_at = utcnow()
    _audit(session, rater.name, "pp_labels", f"{rater.name}/{pp_key(post, pp_index)}",
           "insert" if before is None else "update", before, after)  # fmt: skip
    session.flush()
    return row


def delete_pp_label(session: Session, rater: Rater, post: PostKey | int, pp_index: int) -> bool:
    post = as_post(post)
    row = _pp_label(session, rater, post, pp_index)
    if row is None:
        return False
    _audit(session, rater.name, "pp_labels", f"{rater.name}/{pp_key(post, pp_index)}", "delete",
           _snapshot(row, LABEL_FIELDS), None)  # fmt: skip
    session.delete(row)
    session.flush()
    return True


def set_final_identification(
    session: Session, post: PostKey | int, is_pp: bool, method: str, decided_by: Rater | None = None
) -> FinalIdentification:
    """Record the reconciled decision. ``method``: agreement | adjudicated | imported."""
    post = as_post(post)
    row = session.get(FinalIdentification, (post.site, post.id))
    before = _snapshot(row, FINAL_ID_FIELDS)
    if row is None:
        row = FinalIdentification(site=post.site, question_id=post.id)
        session.add(row)
    row.is_pp, row.method = is_pp, method
    row.decided_by = decided_by.id if decided_by else None
    row.decided_at = utcnow()
    after = _snapshot(row, FINAL_ID_FIELDS)
    if before != after:
        _audit(session, decided_by.name if decided_by else method, "final_identifications", str(post),
               "insert" if before is None else "update", before, after)  # fmt: skip
    session.flush()
    return row


def final_label(session: Session, post: PostKey, pp_index: int) -> FinalLabel | None:
    """The final (reconciled or imported) labels of one PP, or None."""
    return session.scalar(
        sa.select(FinalLabel).where(
            FinalLabel.site == post.site, FinalLabel.question_id == post.id, FinalLabel.pp_index == pp_index
        )
    )


def set_final_label(
    session: Session,
    post: PostKey | int,
    pp_index: int,
    method: str,
    decided_by: Rater | None = None,
    published_id: str | None = None,
    spellings: dict[str, str] | None = None,
    **values: Any,
) -> FinalLabel:
    """Record (or change) the reconciled labels of one PP (``published_id``: as for :func:`set_pp_label`)."""
    unknown = set(values) - set(LABEL_FIELDS)
    if unknown:
        raise ValueError(f"unknown label fields {sorted(unknown)}")
    post = as_post(post)
    row = final_label(session, post, pp_index)
    before = _snapshot(row, FINAL_LABEL_FIELDS)
    if row is None:
        row = FinalLabel(site=post.site, question_id=post.id, pp_index=pp_index)
        session.add(row)
    if published_id is not None:
        row.published_id = published_id
    for field, value in values.items():
        setattr(row, field, value)
    _keep_spellings(row, before, spellings)
    row.method, row.decided_by, row.decided_at = method, decided_by.id if decided_by else None, utcnow()
    after = _snapshot(row, FINAL_LABEL_FIELDS)
    if before != after:
        _audit(session, decided_by.name if decided_by else method, "final_labels", pp_key(post, pp_index),
               "insert" if before is None else "update", before, after)  # fmt: skip
    session.flush()
    return row


def delete_final_identification(session: Session, post: PostKey | int, actor: str | None) -> bool:
    """Remove a post's reconciled decision (e.g. an adjudicator's undo). Returns whether there was one."""
    post = as_post(post)
    row = session.get(FinalIdentification, (post.site, post.id))
    if row is None:
        return False
    _audit(session, actor, "final_identifications", str(post), "delete",
           _snapshot(row, FINAL_ID_FIELDS), None)  # fmt: skip
    session.delete(row)
    session.flush()
    return True


def reopen_broken_agreement(
    session: Session, post: PostKey | int, actor: str | None, *, removed: bool = False
) -> bool:
    """Reopen a post's final made on agreement once the agreement no longer holds: a rater's decision differs
    from it, or (``removed``: a decision was just taken away) fewer than ``AGREEMENT_MIN_RATERS`` raters still
    decided the post. The final and the PP finals made on agreement under it are deleted (audited), and the post
    is to reconcile again. Every write or removal of a decision (identify and its undo, a revisit, a raters
    merge, an import) calls this. Returns whether it reopened."""
    post = as_post(post)
    final = session.get(FinalIdentification, (post.site, post.id))
    if final is None or final.method != AGREEMENT_METHOD:
        return False
    votes = session.scalars(
        sa.select(Identification.is_pp).where(
            Identification.site == post.site, Identification.question_id == post.id
        )
    ).all()
    too_few = removed and len(votes) < AGREEMENT_MIN_RATERS
    if set(votes) <= {final.is_pp} and not too_few:
        return False
    agreed_pps = session.scalars(
        sa.select(FinalLabel.pp_index).where(
            FinalLabel.site == post.site,
            FinalLabel.question_id == post.id,
            FinalLabel.method == AGREEMENT_METHOD,
        )
    ).all()
    for pp_index in agreed_pps:
        delete_final_label(session, post, pp_index, actor)
    return delete_final_identification(session, post, actor)


def delete_final_label(session: Session, post: PostKey | int, pp_index: int, actor: str | None) -> bool:
    """Remove the reconciled labels of one PP. Returns whether there were any."""
    post = as_post(post)
    row = final_label(session, post, pp_index)
    if row is None:
        return False
    _audit(session, actor, "final_labels", pp_key(post, pp_index), "delete",
           _snapshot(row, FINAL_LABEL_FIELDS), None)  # fmt: skip
    session.delete(row)
    session.flush()
    return True


# -- benchmark cases (RQ4) ---------------------------------------------------------------------------------------

BENCHMARK_FIELDS = (
    "published_id", "position", "library", "profiler_status", "xla_status", "documentation_applies",
    "symptom1", "symptom2", "root_cause", "introducing_stage", "exposing_stage",
)  # fmt: skip


def set_benchmark_case(session: Session, post: PostKey | int, pp_index: int, actor: str, **values: Any):
    """Record (or change) one reproduced PP and its RQ4 assessment; unchanged values write nothing."""
    from core.schema.labeling import BenchmarkCase

    unknown = set(values) - set(BENCHMARK_FIELDS)
    if unknown:
        raise ValueError(f"unknown benchmark fields {sorted(unknown)}")
    post = as_post(post)
    row = session.scalar(
        sa.select(BenchmarkCase).where(
            BenchmarkCase.site == post.site,
            BenchmarkCase.question_id == post.id,
            BenchmarkCase.pp_index == pp_index,
        )
    )
    before = _snapshot(row, BENCHMARK_FIELDS)
    if row is None:
        row = BenchmarkCase(site=post.site, question_id=post.id, pp_index=pp_index, imported_at=utcnow())
        session.add(row)
    for name, value in values.items():
        setattr(row, name, value)
    after = _snapshot(row, BENCHMARK_FIELDS)
    if before != after:
        row.imported_at = utcnow()
        _audit(session, actor, "benchmark_cases", pp_key(post, pp_index),
               "insert" if before is None else "update", before, after)  # fmt: skip
    session.flush()
    return row


def swap_pp_labels(session: Session, rater: Rater, post: PostKey | int, first: int, second: int) -> None:
    """Exchange a rater's PPs ``first`` and ``second`` of a post (their numbering only: every label stays with its
    PP). Audited as the two rows deleted and written again under each other's number; a missing PP just moves."""
    post = as_post(post)
    rows = {index: _pp_label(session, rater, post, index) for index in (first, second)}
    kept = {
        i: (_snapshot(r, LABEL_FIELDS), r.published_id, r.spellings) if r is not None else None
        for i, r in rows.items()
    }
    for index, row in rows.items():
        if row is not None:
            delete_pp_label(session, rater, post, index)
    for index, other in ((first, second), (second, first)):
        if kept[other] is not None:
            values, published_id, spellings = kept[other]
            set_pp_label(session, rater, post, index, published_id, spellings or {}, **values)
