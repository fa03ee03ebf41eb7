"""Tables of the mining side: posts as Stack Exchange gives them, acquisition runs, keyword sets, candidates.

Ids of questions, answers and comments are Stack Exchange ids. Dates are naive UTC datetimes. Tags are kept in the
canonical ``|a|b|`` form so SQL can filter on ``tags LIKE '%|keras|%'`` on every backend.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

SOURCES = ("api", "dump", "import")


class Base(DeclarativeBase):
    """Declarative base shared by `mining` and `labeling` models (one metadata, one migration history)."""


def tags_to_text(tags: list[str] | tuple[str, ...]) -> str:
    """``['a', 'b']`` -> ``'|a|b|'`` (empty list -> ``''``)."""
    tags = [t for t in tags if t]
    return f"|{'|'.join(tags)}|" if tags else ""


def tags_from_text(text: str | None) -> list[str]:
    """Inverse of :func:`tags_to_text`."""
    return [t for t in (text or "").split("|") if t]


# Sites served from their own .com domain rather than <site>.stackexchange.com.
_OWN_DOMAIN_SITES = {"stackoverflow", "serverfault", "superuser", "askubuntu", "mathoverflow", "stackapps"}


def question_link(question_id: int, site: str | None = "stackoverflow") -> str:
    """The canonical link of a question when the source gave none (dumps, published files)."""
    site = site or "stackoverflow"
    if "." in site:
        host = site
    elif site in _OWN_DOMAIN_SITES:
        host = f"{site}.com"
    else:
        host = f"{site}.stackexchange.com"
    return f"https://{host}/questions/{question_id}"


class Question(Base):
    __tablename__ = "questions"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    site: Mapped[str] = mapped_column(String(100), default="stackoverflow")
    title: Mapped[str | None] = mapped_column(Text)
    body_html: Mapped[str | None] = mapped_column(Text)
    prose: Mapped[str | None] = mapped_column(Text, doc="plain text of the body with code blocks removed")
    code_blocks: Mapped[list[str]] = mapped_column(JSON, default=list, doc="contents of <pre> blocks")
    has_code: Mapped[bool] = mapped_column(Boolean, default=False, doc="body holds at least one <pre> block")
    tags: Mapped[str] = mapped_column(Text, default="", doc="'|a|b|'")
    score: Mapped[int | None] = mapped_column(Integer)
    view_count: Mapped[int | None] = mapped_column(Integer)
    answer_count: Mapped[int | None] = mapped_column(Integer)
    accepted_answer_id: Mapped[int | None] = mapped_column(BigInteger)
    owner_user_id: Mapped[int | None] = mapped_column(BigInteger)
    link: Mapped[str | None] = mapped_column(Text)
    creation_date: Mapped[datetime | None] = mapped_column(DateTime)
    last_activity_date: Mapped[datetime | None] = mapped_column(DateTime)
    last_edit_date: Mapped[datetime | None] = mapped_column(DateTime)
    closed_date: Mapped[datetime | None] = mapped_column(DateTime)
    source: Mapped[str] = mapped_column(String(10), doc="api | dump | import")
    refreshed_at: Mapped[datetime] = mapped_column(DateTime, doc="when this row was last written")

    answers: Mapped[list[Answer]] = relationship(
        back_populates="question", order_by="Answer.id", cascade="all, delete-orphan", passive_deletes=True
    )
    comments: Mapped[list[Comment]] = relationship(
        back_populates="question", order_by="Comment.id", cascade="all, delete-orphan", passive_deletes=True
    )

    __table_args__ = (
        Index("ix_questions_creation_date", "creation_date"),
        Index("ix_questions_last_activity_date", "last_activity_date"),
        Index("ix_questions_refreshed_at", "refreshed_at"),
    )

    @property
    def tag_list(self) -> list[str]:
        return tags_from_text(self.tags)


class Answer(Base):
    __tablename__ = "answers"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    question_id: Mapped[int] = mapped_column(ForeignKey("questions.id", ondelete="CASCADE"), index=True)
    body_html: Mapped[str | None] = mapped_column(Text)
    prose: Mapped[str | None] = mapped_column(Text)
    code_blocks: Mapped[list[str]] = mapped_column(JSON, default=list)
    score: Mapped[int | None] = mapped_column(Integer)
    owner_user_id: Mapped[int | None] = mapped_column(BigInteger)
    creation_date: Mapped[datetime | None] = mapped_column(DateTime)
    last_activity_date: Mapped[datetime | None] = mapped_column(DateTime)
    last_edit_date: Mapped[datetime | None] = mapped_column(DateTime)
    source: Mapped[str] = mapped_column(String(10))
    refreshed_at: Mapped[datetime] = mapped_column(DateTime)

    question: Mapped[Question] = relationship(back_populates="answers")

    @property
    def is_accepted(self) -> bool:
        """Derived from the question, so the two can never disagree."""
        return self.question is not None and self.question.accepted_answer_id == self.id


class Comment(Base):
    __tablename__ = "comments"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    post_id: Mapped[int] = mapped_column(BigInteger, doc="the question or answer commented on")
    post_type: Mapped[str] = mapped_column(String(10), doc="question | answer")
    question_id: Mapped[int] = mapped_column(ForeignKey("questions.id", ondelete="CASCADE"), index=True)
    body_html: Mapped[str | None] = mapped_column(Text, doc="API only; the dump has plain text")
    text: Mapped[str | None] = mapped_column(Text, doc="plain text")
    score: Mapped[int | None] = mapped_column(Integer)
    owner_user_id: Mapped[int | None] = mapped_column(BigInteger)
    creation_date: Mapped[datetime | None] = mapped_column(DateTime)
    source: Mapped[str] = mapped_column(String(10))
    refreshed_at: Mapped[datetime] = mapped_column(DateTime)

    question: Mapped[Question] = relationship(back_populates="comments")


class AcquisitionRun(Base):
    """One scrape, dump import or file import, with the checkpoint that lets it resume."""

    __tablename__ = "acquisition_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), doc="scrape | dump | import")
    status: Mapped[str] = mapped_column(String(20), doc="running | done | failed | quota | interrupted")
    params: Mapped[dict] = mapped_column(JSON, default=dict, doc="what was asked (never an API key)")
    checkpoint: Mapped[dict] = mapped_column(JSON, default=dict, doc="where to resume")
    high_water: Mapped[datetime | None] = mapped_column(
        DateTime, doc="incremental scrape: last activity seen"
    )
    items: Mapped[int] = mapped_column(Integer, default=0)
    requests: Mapped[int] = mapped_column(Integer, default=0)
    quota_remaining: Mapped[int | None] = mapped_column(Integer)
    message: Mapped[str | None] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime)

    __table_args__ = (Index("ix_acquisition_runs_kind_status", "kind", "status"),)


class JobLock(Base):
    """A named lock row: a second scrape on the same database sees it and exits."""

    __tablename__ = "job_locks"

    name: Mapped[str] = mapped_column(String(50), primary_key=True)
    holder: Mapped[str] = mapped_column(String(200), doc="host:pid")
    acquired_at: Mapped[datetime] = mapped_column(DateTime)
    heartbeat_at: Mapped[datetime] = mapped_column(DateTime)


class Setting(Base):
    """Small key/value facts the tool caches, e.g. the id of the API filter it created."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class KeywordSet(Base):
    """One version of a keyword set: identified by the hash of its keywords and the stemmer mode."""

    __tablename__ = "keyword_sets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    content_hash: Mapped[str] = mapped_column(String(64))
    stemmer_mode: Mapped[str] = mapped_column(String(40))
    name: Mapped[str | None] = mapped_column(Text, doc="file it was read from")
    keywords: Mapped[list[str]] = mapped_column(JSON, doc="as written in the file, in file order")
    created_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (UniqueConstraint("content_hash", "stemmer_mode", name="uq_keyword_sets_version"),)


class MatchRun(Base):
    """One `ppmine match`: the keyword-set version, the selection used and the funnel counts it saw."""

    __tablename__ = "match_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    keyword_set_id: Mapped[int] = mapped_column(ForeignKey("keyword_sets.id"))
    selection: Mapped[dict] = mapped_column(JSON, default=dict, doc="filters and matched fields in force")
    funnel: Mapped[dict] = mapped_column(JSON, default=dict, doc="step name -> count, in order")
    started_at: Mapped[datetime] = mapped_column(DateTime)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime)


class MatchCheck(Base):
    """That a question was checked against a keyword-set version, and how it looked then.

    A question whose ``refreshed_at`` is newer than ``question_refreshed_at`` has changed and is matched again.
    """

    __tablename__ = "match_checks"

    keyword_set_id: Mapped[int] = mapped_column(
        ForeignKey("keyword_sets.id", ondelete="CASCADE"), primary_key=True
    )
    question_id: Mapped[int] = mapped_column(ForeignKey("questions.id", ondelete="CASCADE"), primary_key=True)
    question_refreshed_at: Mapped[datetime] = mapped_column(DateTime)
    selected: Mapped[bool] = mapped_column(Boolean, doc="passed the study's selection filters")
    is_candidate: Mapped[bool] = mapped_column(Boolean)
    checked_at: Mapped[datetime] = mapped_column(DateTime)


class Candidate(Base):
    """A question that matched at least one keyword of a keyword-set version."""

    __tablename__ = "candidates"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    keyword_set_id: Mapped[int] = mapped_column(ForeignKey("keyword_sets.id", ondelete="CASCADE"))
    question_id: Mapped[int] = mapped_column(ForeignKey("questions.id", ondelete="CASCADE"), index=True)
    matched_at: Mapped[datetime] = mapped_column(DateTime)

    hits: Mapped[list[CandidateHit]] = relationship(
        back_populates="candidate", cascade="all, delete-orphan", passive_deletes=True
    )

    __table_args__ = (UniqueConstraint("keyword_set_id", "question_id", name="uq_candidates_version_post"),)


class CandidateHit(Base):
    """How often one keyword matched in one field (title, prose, code, answers, comments) of a candidate."""

    __tablename__ = "candidate_hits"

    candidate_id: Mapped[int] = mapped_column(
        ForeignKey("candidates.id", ondelete="CASCADE"), primary_key=True
    )
    keyword: Mapped[str] = mapped_column(String(100), primary_key=True, doc="as written in the keyword file")
    field: Mapped[str] = mapped_column(String(20), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)

    candidate: Mapped[Candidate] = relationship(back_populates="hits")
