"""Counts along the study funnel: acquired posts -> selected -> candidates -> identified -> labelled.

The selection steps (questions -> with_tag -> in_scope -> with_code -> with_good_answer -> selected) are counted by
each match run (``mining.match.selection.funnel``) and stored with it; :func:`removed_by` turns them into how many
questions each filter removed.

Labeling tables are read by name (mining never imports labeling); they exist because the migrations create them.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from mining.models import AcquisitionRun, Answer, Candidate, Comment, KeywordSet, MatchRun, Question

_identifications = sa.table(
    "identifications", sa.column("site"), sa.column("question_id"), sa.column("rater_id")
)
_final_ids = sa.table("final_identifications", sa.column("question_id"), sa.column("is_pp"))
_final_labels = sa.table("final_labels", sa.column("question_id"))
_pp_labels = sa.table("pp_labels", sa.column("question_id"))
_raters = sa.table("raters", sa.column("id"))


# filter -> (the step before it, the step after it)
FILTER_STEPS = {
    "tags": ("questions", "with_tag"),
    "window": ("with_tag", "in_scope"),
    "code": ("in_scope", "with_code"),
    "answers": ("with_code", "with_good_answer"),
}


# The same for a GitHub study's selection (mining.match.selection).
GITHUB_FILTER_STEPS = {
    "repos": ("questions", "in_repos"),
    "labels": ("in_repos", "with_label"),
    "dropped_labels": ("with_label", "without_dropped_label"),
    "closed": ("without_dropped_label", "closed"),
    "window": ("closed", "in_scope"),
    "code": ("in_scope", "with_code"),
    "comments": ("with_code", "with_comments"),
}


def removed_by(steps: dict[str, Any]) -> dict[str, int | None]:
    """How many questions each filter removed, in filter order (None where a step was not recorded, e.g. the
    tag step of runs stored before it was counted)."""
    out: dict[str, int | None] = {}
    filters = GITHUB_FILTER_STEPS if "in_repos" in steps else FILTER_STEPS
    for name, (before, after) in filters.items():
        a, b = steps.get(before), steps.get(after)
        out[name] = None if a is None or b is None else a - b
    return out


def funnel_text(steps: dict[str, Any]) -> str:
    """``'removed by tags 604, window 0, code 0, answers 0'`` (unrecorded steps are left out)."""
    parts = [f"{name} {n:,}" for name, n in removed_by(steps).items() if n is not None]
    return f"removed by {', '.join(parts)}" if parts else ""


def latest_keyword_set_id(session: Session) -> int | None:
    """The keyword-set version used by the most recent match run (else the newest version)."""
    run_set = session.scalar(sa.select(MatchRun.keyword_set_id).order_by(MatchRun.id.desc()).limit(1))
    return run_set or session.scalar(sa.select(KeywordSet.id).order_by(KeywordSet.id.desc()).limit(1))


def _count(session: Session, stmt) -> int:
    return int(session.scalar(stmt) or 0)


def selection_steps(session: Session) -> dict[str, int]:
    """The selection steps the last match run counted (questions, with_tag, in_scope, with_code,
    with_good_answer, selected, candidates); empty before the first run."""
    last_run = session.scalar(sa.select(MatchRun).order_by(MatchRun.id.desc()).limit(1))
    return dict(last_run.funnel or {}) if last_run else {}


def funnel_counts(session: Session) -> dict[str, int | None]:
    """The study funnel as ordered name -> count. ``removed_by_<filter>`` (tags, window, code, answers) and
    ``selected`` are from the last match run (None before one)."""
    set_id = latest_keyword_set_id(session)
    run_steps = selection_steps(session)
    candidates = (
        _count(session, sa.select(sa.func.count()).where(Candidate.keyword_set_id == set_id))
        if set_id is not None
        else 0
    )
    return {
        "questions": _count(session, sa.select(sa.func.count()).select_from(Question)),
        "answers": _count(session, sa.select(sa.func.count()).select_from(Answer)),
        "comments": _count(session, sa.select(sa.func.count()).select_from(Comment)),
        **{f"removed_by_{name}": n for name, n in removed_by(run_steps).items()},
        "selected": run_steps.get("selected"),
        "candidates": candidates,
        "raters": _count(session, sa.select(sa.func.count()).select_from(_raters)),
        "identified": _count(
            session,
            sa.select(sa.func.count()).select_from(
                sa.select(_identifications.c.site, _identifications.c.question_id).distinct().subquery()
            ),
        ),
        "pp_posts": _count(
            session, sa.select(sa.func.count()).select_from(_final_ids).where(_final_ids.c.is_pp.is_(True))
        ),
        "pp_labelled_by_raters": _count(session, sa.select(sa.func.count()).select_from(_pp_labels)),
        "pps_final": _count(session, sa.select(sa.func.count()).select_from(_final_labels)),
        "acquisition_runs": _count(session, sa.select(sa.func.count()).select_from(AcquisitionRun)),
    }
