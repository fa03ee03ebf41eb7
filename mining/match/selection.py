"""The study's selection of questions before keyword matching, as SQL, and the funnel counts along it.

Steps, each narrowing the previous one: all acquired ``questions`` -> ``with_tag`` (one of the study's tags) ->
``in_scope`` (also created inside the date window) -> ``with_code`` (the body has a code block) ->
``with_good_answer`` (an accepted answer, or an answer scored above ``min_answer_score``) -> ``selected``. A filter
switched off in the config passes everything; with ``apply_filters=False`` every acquired question is selected (the
steps are still counted, for the record). ``mining.stats.removed_by`` says how many questions each filter removed (tags,
window, code, answers), in that order, so ``0 selected of 604`` names the filter that removed them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.config import StudyConfig
from core.schema.mining import Answer, Question


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

    @classmethod
    def from_config(cls, config: StudyConfig, apply_filters: bool = True) -> SelectionSpec:
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
        if "tags" in known:
            known["tags"] = tuple(known["tags"])
        return cls(**known)

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["tags"] = list(self.tags)
        return out

    # -- conditions -------------------------------------------------------------------------------------------
    def tag_condition(self):
        if not self.tags:
            return sa.true()
        return sa.or_(*(Question.tags.like(f"%|{tag}|%") for tag in self.tags))

    def scope_condition(self):
        conds = [self.tag_condition()]
        if self.date_from:
            conds.append(
                Question.creation_date >= datetime.combine(date.fromisoformat(self.date_from), time())
            )
        if self.date_to:
            end = datetime.combine(date.fromisoformat(self.date_to) + timedelta(days=1), time())
            conds.append(Question.creation_date < end)
        return sa.and_(sa.true(), *conds)

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

    def selected_condition(self):
        """The WHERE clause over ``questions`` that picks the selected questions."""
        if not self.apply_filters:
            return sa.true()
        return sa.and_(self.scope_condition(), self.code_condition(), self.good_answer_condition())

    def selected_ids(self):
        """A subquery of the selected questions' (site, id)."""
        return sa.select(Question.site, Question.id).where(self.selected_condition())


def funnel(session: Session, spec: SelectionSpec) -> dict[str, int]:
    """Counts of every step, in order (without ``candidates``, which the matcher adds)."""

    def count(*conds) -> int:
        return int(session.scalar(sa.select(sa.func.count()).select_from(Question).where(*conds)) or 0)

    scope, code, good = spec.scope_condition(), spec.code_condition(), spec.good_answer_condition()
    steps = {
        "questions": count(),
        "with_tag": count(spec.tag_condition()),
        "in_scope": count(scope),
        "with_code": count(scope, code),
        "with_good_answer": count(scope, code, good),
    }
    steps["selected"] = steps["with_good_answer"] if spec.apply_filters else steps["questions"]
    return steps
