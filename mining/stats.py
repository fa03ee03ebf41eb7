"""Counts along the study funnel: acquired posts -> selected -> candidates -> identified -> labelled.

Labeling tables are read by name (mining never imports labeling); they exist because the migrations create them.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import Session

from mining.models import AcquisitionRun, Answer, Candidate, Comment, KeywordSet, MatchRun, Question

_identifications = sa.table("identifications", sa.column("question_id"), sa.column("rater_id"))
_final_ids = sa.table("final_identifications", sa.column("question_id"), sa.column("is_pp"))
_final_labels = sa.table("final_labels", sa.column("question_id"))
_pp_labels = sa.table("pp_labels", sa.column("question_id"))
_raters = sa.table("raters", sa.column("id"))


def latest_keyword_set_id(session: Session) -> int | None:
    """The keyword-set version used by the most recent match run (else the newest version)."""
    run_set = session.scalar(sa.select(MatchRun.keyword_set_id).order_by(MatchRun.id.desc()).limit(1))
    return run_set or session.scalar(sa.select(KeywordSet.id).order_by(KeywordSet.id.desc()).limit(1))


def _count(session: Session, stmt) -> int:
    return int(session.scalar(stmt) or 0)


def funnel_counts(session: Session) -> dict[str, int | None]:
    """The study funnel as ordered name -> count. ``selected`` is from the last match run (None before one)."""
    set_id = latest_keyword_set_id(session)
    last_run = session.scalar(sa.select(MatchRun).order_by(MatchRun.id.desc()).limit(1))
    candidates = (
        _count(session, sa.select(sa.func.count()).where(Candidate.keyword_set_id == set_id))
        if set_id is not None
        else 0
    )
    return {
        "questions": _count(session, sa.select(sa.func.count()).select_from(Question)),
        "answers": _count(session, sa.select(sa.func.count()).select_from(Answer)),
        "comments": _count(session, sa.select(sa.func.count()).select_from(Comment)),
        "selected": (last_run.funnel or {}).get("selected") if last_run else None,
        "candidates": candidates,
        "raters": _count(session, sa.select(sa.func.count()).select_from(_raters)),
        "identified": _count(session, sa.select(sa.func.count(sa.distinct(_identifications.c.question_id)))),
        "pp_posts": _count(
            session, sa.select(sa.func.count()).select_from(_final_ids).where(_final_ids.c.is_pp.is_(True))
        ),
        "pp_labelled_by_raters": _count(session, sa.select(sa.func.count()).select_from(_pp_labels)),
        "pps_final": _count(session, sa.select(sa.func.count()).select_from(_final_labels)),
        "acquisition_runs": _count(session, sa.select(sa.func.count()).select_from(AcquisitionRun)),
    }
