"""Counts along the study funnel: acquired posts -> selected -> candidates -> identified -> labelled.

The selection steps (questions -> with_tag -> in_scope -> with_code -> with_good_answer -> selected) are counted by
each match run (``mining.match.selection.funnel``) and stored with it; :func:`removed_by` turns them into how many
questions each filter removed.

Labeling's tables come from the one schema (:mod:`core.schema`): mining never imports ``labeling``.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.label_rule import complete_label_sql
from core.schema.labeling import FinalIdentification, FinalLabel, Identification, PPLabel, Rater
from core.schema.mining import AcquisitionRun, Answer, Candidate, Comment, KeywordSet, MatchRun, Question

_identifications = Identification.__table__
_final_ids = FinalIdentification.__table__
_final_labels = FinalLabel.__table__
_pp_labels = PPLabel.__table__
_raters = Rater.__table__


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


def filters_of(steps: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """The filter steps of the selection a match run counted: a GitHub study's or Stack Overflow's."""
    return GITHUB_FILTER_STEPS if "in_repos" in steps else FILTER_STEPS


def removed_by(steps: dict[str, Any]) -> dict[str, int | None]:
    """How many questions each filter removed, in filter order (None where a step was not recorded, e.g. the
    tag step of runs stored before it was counted). A run that selected every question (``--no-filters``)
    removed nothing, whatever its steps say the filters would have cut."""
    everything = steps.get("selected") is not None and steps.get("selected") == steps.get("questions")
    out: dict[str, int | None] = {}
    for name, (before, after) in filters_of(steps).items():
        a, b = steps.get(before), steps.get(after)
        out[name] = None if a is None or b is None else 0 if everything else a - b
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


def candidate_counts(session: Session, set_id: int | None) -> tuple[int, int]:
    """(candidates, kept): a keyword-set version's candidates the last match selected and matched, and those
    kept only because someone decided them (``matching`` false). One query: ``ppmine match``'s summary and
    funnel and ``ppmine stats`` both count with it."""
    if set_id is None:
        return 0, 0
    counts = dict(
        session.execute(
            sa.select(Candidate.matching, sa.func.count())
            .where(Candidate.keyword_set_id == set_id)
            .group_by(Candidate.matching)
        ).all()
    )
    return int(counts.get(True, 0)), int(counts.get(False, 0))


def selection_steps(session: Session) -> dict[str, int]:
    """The selection steps the last match run counted (questions, with_tag, in_scope, with_code,
    with_good_answer, selected, candidates); empty before the first run."""
    last_run = session.scalar(sa.select(MatchRun).order_by(MatchRun.id.desc()).limit(1))
    return dict(last_run.funnel or {}) if last_run else {}


def filter_steps(session: Session) -> dict[str, int | None]:
    """The questions left after each filter of the last match run (with_tag, in_scope, with_code,
    with_good_answer), as many as the filters really removed: a --no-filters run keeps every question."""
    steps = selection_steps(session)
    return _steps_after(steps.get("questions"), removed_by(steps), filters_of(steps))


def _steps_after(
    questions: int | None, removed: dict[str, int | None], filters: dict[str, tuple[str, str]]
) -> dict[str, int | None]:
    out: dict[str, int | None] = {}
    left = questions
    for name, (_, after) in filters.items():
        n = removed[name]
        left = None if left is None or n is None else left - n
        out[after] = left
    return out


def funnel_counts(session: Session) -> dict[str, int | None]:
    """The study funnel as ordered name -> count. ``removed_by_<filter>`` (tags, window, code, answers) and
    ``selected`` are from the last match run (None before one)."""
    set_id = latest_keyword_set_id(session)
    run_steps = selection_steps(session)
    candidates, _ = candidate_counts(session, set_id)
    removed = removed_by(run_steps)
    # a final PP counts unless its post is finally judged not a PP (reconcile may keep labels on such posts)
    not_pp = sa.select(_final_ids.c.site, _final_ids.c.question_id).where(_final_ids.c.is_pp.is_(False))
    pps = sa.select(_final_labels.c.site, _final_labels.c.question_id).where(
        sa.tuple_(_final_labels.c.site, _final_labels.c.question_id).not_in(not_pp)
    )
    questions = _count(session, sa.select(sa.func.count()).select_from(Question))
    return {
        "questions": questions,
        "answers": _count(session, sa.select(sa.func.count()).select_from(Answer)),
        "comments": _count(session, sa.select(sa.func.count()).select_from(Comment)),
        **{f"removed_by_{name}": n for name, n in removed.items()},
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
        "pp_labelled_by_raters": _count(
            session,
            sa.select(sa.func.count()).select_from(_pp_labels).where(complete_label_sql(_pp_labels.c)),
        ),
        "pps_final": _count(session, sa.select(sa.func.count()).select_from(pps.subquery())),
        "labelled_posts": _count(session, sa.select(sa.func.count()).select_from(pps.distinct().subquery())),
        "acquisition_runs": _count(session, sa.select(sa.func.count()).select_from(AcquisitionRun)),
    }
