"""Tables of the mining side: posts as Stack Exchange gives them, acquisition runs, keyword sets, candidates.

A post is identified by its site and its Stack Exchange id (see :mod:`core.sites`): questions, answers and
comments have the primary key ``(site, id)``, and every table that points at a question holds ``(site,
question_id)`` with a composite foreign key. Keeping the Stack Exchange ids as the keys (rather than a surrogate
row id) means every id shown, exported or audited is the real one, and the database refuses a reference that does
not name its site. The foreign keys cascade on update, so correcting a post's site moves everything about it. Dates are naive UTC datetimes. Tags are kept in the
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
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy import true as sa_true
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from core.sites import PostKey, question_link  # noqa: F401  (re-exported: the models' callers use them)

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


SITE_LENGTH = 100


def site_column(primary_key: bool = False, doc: str = "the post's site (core.sites)"):
    """The ``site`` half of a post's identity."""
    return mapped_column(String(SITE_LENGTH), primary_key=primary_key, doc=doc)


def question_fk() -> ForeignKeyConstraint:
    """``(site, question_id)`` -> ``questions(site, id)``: deleting a question deletes what points at it, and
    correcting its site moves them along."""
    return ForeignKeyConstraint(
        ["site", "question_id"], ["questions.site", "questions.id"], ondelete="CASCADE", onupdate="CASCADE"
    )


class Question(Base):
    __tablename__ = "questions"

    site: Mapped[str] = site_column(primary_key=True)
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
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

    @property
    def key(self) -> PostKey:
        return PostKey(self.site, self.id)


class Answer(Base):
    __tablename__ = "answers"

    site: Mapped[str] = site_column(primary_key=True)
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    question_id: Mapped[int] = mapped_column(BigInteger)
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

    __table_args__ = (question_fk(), Index("ix_answers_site_question_id", "site", "question_id"))

    @property
    def is_accepted(self) -> bool:
        """Derived from the question, so the two can never disagree."""
        return self.question is not None and self.question.accepted_answer_id == self.id


class Comment(Base):
    __tablename__ = "comments"

    site: Mapped[str] = site_column(primary_key=True)
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    post_id: Mapped[int] = mapped_column(BigInteger, doc="the question or answer commented on")
    post_type: Mapped[str] = mapped_column(String(10), doc="question | answer")
    question_id: Mapped[int] = mapped_column(BigInteger)
    body_html: Mapped[str | None] = mapped_column(Text, doc="API only; the dump has plain text")
    text: Mapped[str | None] = mapped_column(Text, doc="plain text")
    score: Mapped[int | None] = mapped_column(Integer)
    owner_user_id: Mapped[int | None] = mapped_column(BigInteger)
    creation_date: Mapped[datetime | None] = mapped_column(DateTime)
    source: Mapped[str] = mapped_column(String(10))
    refreshed_at: Mapped[datetime] = mapped_column(DateTime)

    question: Mapped[Question] = relationship(back_populates="comments")

    __table_args__ = (question_fk(), Index("ix_comments_site_question_id", "site", "question_id"))


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
    site: Mapped[str] = site_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    question_refreshed_at: Mapped[datetime] = mapped_column(DateTime)
    selected: Mapped[bool] = mapped_column(Boolean, doc="passed the study's selection filters")
    is_candidate: Mapped[bool] = mapped_column(Boolean)
    checked_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (question_fk(), Index("ix_match_checks_site_question_id", "site", "question_id"))


class Candidate(Base):
    """A question that matched at least one keyword of a keyword-set version."""

    __tablename__ = "candidates"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    keyword_set_id: Mapped[int] = mapped_column(ForeignKey("keyword_sets.id", ondelete="CASCADE"))
    site: Mapped[str] = site_column()
    question_id: Mapped[int] = mapped_column(BigInteger)
    matched_at: Mapped[datetime] = mapped_column(DateTime)
    matching: Mapped[bool] = mapped_column(
        Boolean,
        default=True,
        server_default=sa_true(),
        doc="false: kept because someone decided it, though the last match no longer selects or matches it",
    )

    hits: Mapped[list[CandidateHit]] = relationship(
        back_populates="candidate", cascade="all, delete-orphan", passive_deletes=True
    )

    __table_args__ = (
        UniqueConstraint("keyword_set_id", "site", "question_id", name="uq_candidates_version_post"),
        question_fk(),
        Index("ix_candidates_site_question_id", "site", "question_id"),
    )

    @property
    def key(self) -> PostKey:
        return PostKey(self.site, self.question_id)


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


# -- ppcheck findings on the code blocks of questions (`ppmine check`) --------------------------------------------
# Keyed by (site, question_id) like posts, without a foreign key: the findings are derived data that `ppmine check`
# rebuilds at will, and it removes the rows of questions no longer stored.


class CheckedPost(Base):
    """That ppcheck ran on a question's code blocks: with which rules, on which version of the post, and how."""

    __tablename__ = "checked_posts"

    site: Mapped[str] = mapped_column(String(100), primary_key=True)
    question_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    question_refreshed_at: Mapped[datetime] = mapped_column(DateTime, doc="the question as it was checked")
    checker_version: Mapped[str] = mapped_column(String(40), doc="ppcheck version + hash of its rule codes")
    status: Mapped[str] = mapped_column(String(10), doc="checked | skipped (no code block parses)")
    blocks: Mapped[int] = mapped_column(Integer, doc="code blocks in the question")
    skipped_blocks: Mapped[list[str]] = mapped_column(JSON, default=list, doc="why blocks were not checked")
    checked_at: Mapped[datetime] = mapped_column(DateTime)


class CheckFinding(Base):
    """One ppcheck finding in a question's code: block (1-based), line and column within it, rule, root cause."""

    __tablename__ = "check_findings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    site: Mapped[str] = mapped_column(String(100))
    question_id: Mapped[int] = mapped_column(BigInteger)
    block: Mapped[int] = mapped_column(Integer)
    line: Mapped[int] = mapped_column(Integer)
    column: Mapped[int] = mapped_column(Integer)
    rule: Mapped[str] = mapped_column(String(10))
    root_cause: Mapped[str] = mapped_column(String(80), doc="codebook code the rule stands for")
    message: Mapped[str] = mapped_column(Text)

    __table_args__ = (
        Index("ix_check_findings_site_question_id", "site", "question_id"),
        Index("ix_check_findings_rule", "rule"),
    )
