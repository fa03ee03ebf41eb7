"""Tables of the labeling side: raters, their decisions and labels, reconciled finals, and the audit log.

Label values (symptoms, root causes, stages) are the codebook's codes (see ``data/codebook.yaml``), never free
strings: importers map the published spellings through the codebook's aliases before anything is stored.
A post can hold several PPs; ``pp_index`` 1, 2, ... gives the published ids ``<post>_1``, ``<post>_2``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from mining.models import Base


def pp_key(question_id: int, pp_index: int) -> str:
    """The published PP id, e.g. ``65160023_1``."""
    return f"{question_id}_{pp_index}"


def parse_pp_key(key: str) -> tuple[int, int]:
    """``'65160023_2'`` -> ``(65160023, 2)``; a bare post id means PP 1."""
    post, _, index = str(key).strip().partition("_")
    return int(post), int(index or 1)


class Rater(Base):
    __tablename__ = "raters"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class Identification(Base):
    """One rater's answer to 'is this post a PP?'."""

    __tablename__ = "identifications"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    rater_id: Mapped[int] = mapped_column(ForeignKey("raters.id"))
    question_id: Mapped[int] = mapped_column(ForeignKey("questions.id", ondelete="CASCADE"), index=True)
    is_pp: Mapped[bool] = mapped_column(Boolean)
    decided_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (UniqueConstraint("rater_id", "question_id", name="uq_identifications_rater_post"),)


class PPLabel(Base):
    """One rater's codebook labels for one PP of a post."""

    __tablename__ = "pp_labels"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    rater_id: Mapped[int] = mapped_column(ForeignKey("raters.id"))
    question_id: Mapped[int] = mapped_column(ForeignKey("questions.id", ondelete="CASCADE"), index=True)
    pp_index: Mapped[int] = mapped_column(Integer, default=1)
    part: Mapped[str | None] = mapped_column(Text, doc="which part of the post this PP is")
    symptom1: Mapped[str | None] = mapped_column(String(80))
    symptom2: Mapped[str | None] = mapped_column(String(80))
    root_cause: Mapped[str | None] = mapped_column(String(80))
    introducing_stage: Mapped[str | None] = mapped_column(String(80))
    exposing_stage: Mapped[str | None] = mapped_column(String(80))
    note: Mapped[str | None] = mapped_column(Text)
    labeled_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (UniqueConstraint("rater_id", "question_id", "pp_index", name="uq_pp_labels_rater_pp"),)


class FinalIdentification(Base):
    """The reconciled 'is this a PP?' for a post."""

    __tablename__ = "final_identifications"

    question_id: Mapped[int] = mapped_column(
        ForeignKey("questions.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    is_pp: Mapped[bool] = mapped_column(Boolean)
    method: Mapped[str] = mapped_column(String(20), doc="agreement | adjudicated | imported")
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("raters.id"), doc="adjudicator; null if agreed")
    decided_at: Mapped[datetime] = mapped_column(DateTime)


class FinalLabel(Base):
    """The reconciled labels of one PP."""

    __tablename__ = "final_labels"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    question_id: Mapped[int] = mapped_column(ForeignKey("questions.id", ondelete="CASCADE"), index=True)
    pp_index: Mapped[int] = mapped_column(Integer, default=1)
    part: Mapped[str | None] = mapped_column(Text)
    symptom1: Mapped[str | None] = mapped_column(String(80))
    symptom2: Mapped[str | None] = mapped_column(String(80))
    root_cause: Mapped[str | None] = mapped_column(String(80))
    introducing_stage: Mapped[str | None] = mapped_column(String(80))
    exposing_stage: Mapped[str | None] = mapped_column(String(80))
    note: Mapped[str | None] = mapped_column(Text)
    method: Mapped[str] = mapped_column(String(20), doc="agreement | adjudicated | imported")
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("raters.id"))
    decided_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (UniqueConstraint("question_id", "pp_index", name="uq_final_labels_pp"),)


class AuditEntry(Base):
    """Append-only record of every change to decisions and labels (triggers forbid UPDATE and DELETE)."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime)
    actor: Mapped[str | None] = mapped_column(String(100), doc="rater or adjudicator name, or the importer")
    entity: Mapped[str] = mapped_column(String(40), doc="table name")
    entity_key: Mapped[str] = mapped_column(String(100), doc="e.g. '<rater>/<post>' or '<post>_<pp>'")
    action: Mapped[str] = mapped_column(String(10), doc="insert | update | delete")
    before: Mapped[dict | None] = mapped_column(JSON)
    after: Mapped[dict | None] = mapped_column(JSON)
