"""The study's selection of questions before keyword matching, as SQL, and the funnel counts along it.

Steps, each narrowing the previous one: all acquired ``questions`` -> ``with_tag`` (one of the study's tags) ->
``in_scope`` (also created inside the date window) -> ``with_code`` (the body has a code block) ->
``with_good_answer`` (an accepted answer, or an answer scored above ``min_answer_score``) -> ``selected``. A filter
switched off in the config passes everything; with ``apply_filters=False`` every acquired question is selected (the
steps are still counted, for the record). ``mining.stats.removed_by`` says how many questions each filter removed (tags,
window, code, answers), in that order, so ``0 selected of 604`` names the filter that removed them.

A GitHub study (``[github]`` in the config, :mod:`mining.github_config`) has its own steps: ``questions`` ->
``in_repos`` (an issue of one of its repositories) -> ``with_label`` (one of ``labels_keep``) ->
``without_dropped_label`` (none of ``labels_drop``) -> ``closed`` -> ``in_scope`` (window) -> ``with_code`` ->
``with_comments`` (at least ``min_comments`` stored) -> ``selected``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.config import StudyConfig
from core.schema.mining import Answer, Question
from mining.github_config import load_github


@dataclass(frozen=True)
class SelectionSpec:
    """Everything that decides which questions are matched; stored with each match run as a dict."""

    apply_filters: bool = True
    tags: tuple[str, ...] = ()
    date_from: str | None = None
    date_to: str | None = None
    require_code: bool = True
    require_good_answer: bool = True
    min_answer_score: int = 2
    # GitHub studies (empty sites: a Stack Exchange study, and these are unused)
    sites: tuple[str, ...] = ()
    labels_keep: tuple[str, ...] = ()
    labels_drop: tuple[str, ...] = ()
    closed_only: bool = False
    min_comments: int = 0

    @classmethod
    def from_config(cls, config: StudyConfig, apply_filters: bool = True) -> SelectionSpec:
        github = load_github(config)
        if github is not None:
            return cls(
                apply_filters=apply_filters,
                date_from=config.date_from.isoformat() if config.date_from else None,
                date_to=config.date_to.isoformat() if config.date_to else None,
                require_code=github.require_code,
                require_good_answer=False,
                sites=github.sites,
                labels_keep=github.labels_keep,
                labels_drop=github.labels_drop,
                closed_only=github.closed_only,
                min_comments=github.min_comments,
            )
        return cls(
            apply_filters=apply_filters,
            tags=tuple(config.tags),
            date_from=config.date_from.isoformat() if config.date_from else None,
            date_to=config.date_to.isoformat() if config.date_to else None,
            require_code=config.selection.require_code,
            require_good_answer=config.selection.require_good_answer,
            min_answer_score=config.selection.min_answer_score,
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SelectionSpec:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        for name in _LISTS:
            if name in known:
                known[name] = tuple(known[name])
        return cls(**known)

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for name in _LISTS:
            out[name] = list(out[name])
        if not self.sites:  # a Stack Exchange study's record keeps its shape
            for name in _GITHUB_ONLY:
                del out[name]
        return out

    # -- conditions -------------------------------------------------------------------------------------------
    def tag_condition(self):
        if not self.tags:
            return sa.true()
        return sa.or_(*(Question.tags.like(f"%|{tag}|%") for tag in self.tags))

    def scope_condition(self):
        return sa.and_(self.tag_condition(), self.window_condition())

    def code_condition(self):
        return Question.has_code.is_(True) if self.require_code else sa.true()

    def good_answer_condition(self):
        if not self.require_good_answer:
            return sa.true()
        scored = sa.exists().where(
            Answer.site == Question.site,
            Answer.question_id == Question.id,
            Answer.score > self.min_answer_score,
        )
        return sa.or_(Question.accepted_answer_id.is_not(None), scored)

    def window_condition(self):
        conds = []
        if self.date_from:
            conds.append(
                Question.creation_date >= datetime.combine(date.fromisoformat(self.date_from), time())
            )
        if self.date_to:
            end = datetime.combine(date.fromisoformat(self.date_to) + timedelta(days=1), time())
            conds.append(Question.creation_date < end)
        return sa.and_(sa.true(), *conds)

    def steps(self) -> list[tuple[str, Any]]:
        """The funnel's steps after ``questions``, in order, each with the condition it adds."""
        if not self.sites:
            return [
                ("with_tag", self.tag_condition()),
                ("in_scope", self.window_condition()),
                ("with_code", self.code_condition()),
                ("with_good_answer", self.good_answer_condition()),
            ]
        return [
            ("in_repos", Question.site.in_(self.sites)),
            ("with_label", _any_label(self.labels_keep) if self.labels_keep else sa.true()),
            (
                "without_dropped_label",
                sa.not_(_any_label(self.labels_drop)) if self.labels_drop else sa.true(),
            ),
            ("closed", Question.closed_date.is_not(None) if self.closed_only else sa.true()),
            ("in_scope", self.window_condition()),
            ("with_code", self.code_condition()),
            ("with_comments", _stored_answers() >= self.min_comments if self.min_comments else sa.true()),
        ]

    def selected_condition(self):
        """The WHERE clause over ``questions`` that picks the selected questions."""
        if not self.apply_filters:
            return sa.true()
        return sa.and_(*(cond for _, cond in self.steps()))

    def selected_ids(self):
        """A subquery of the selected questions' (site, id)."""
        return sa.select(Question.site, Question.id).where(self.selected_condition())


def funnel(session: Session, spec: SelectionSpec) -> dict[str, int]:
    """Counts of every step, in order (without ``candidates``, which the matcher adds)."""

    def count(*conds) -> int:
        return int(session.scalar(sa.select(sa.func.count()).select_from(Question).where(*conds)) or 0)

    steps, conds = {"questions": count()}, []
    for name, cond in spec.steps():
        conds.append(cond)
        steps[name] = count(*conds)
    last = list(steps)[-1]
    steps["selected"] = steps[last] if spec.apply_filters else steps["questions"]
    return steps


_LISTS = ("tags", "sites", "labels_keep", "labels_drop")
_GITHUB_ONLY = ("sites", "labels_keep", "labels_drop", "closed_only", "min_comments")


def _any_label(labels: tuple[str, ...]):
    """The issue carries one of ``labels`` (tags are stored ``|a|b|``; LIKE wildcards in a label are literal)."""
    return sa.or_(*(Question.tags.contains(f"|{label}|", autoescape=True) for label in labels))


def _stored_answers():
    return (
        sa.select(sa.func.count())
        .where(Answer.site == Question.site, Answer.question_id == Question.id)
        .scalar_subquery()
    )
