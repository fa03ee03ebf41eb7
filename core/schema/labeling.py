"""Tables of the labeling side: raters, their decisions and labels, reconciled finals, and the audit log.

Label values (symptoms, root causes, stages) are the codebook's codes (see ``data/codebook.yaml``), never free
strings: importers map the published spellings through the codebook's aliases before anything is stored.
A post can hold several PPs; ``pp_index`` 1, 2, ... gives the published ids ``<post>_1``, ``<post>_2``.
Posts are ``(site, question_id)`` (see :mod:`core.sites`); a post's written form is ``65160023`` on Stack Overflow
and ``ai:136`` elsewhere, so PP ids read ``65160023_1`` and ``ai:136_1``.
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
from sqlalchemy.orm import Mapped, mapped_column

from core.schema.mining import Base, question_fk, site_column
from core.sites import PostKey, as_post


def pp_key(post: PostKey | int, pp_index: int) -> str:
    """The PP id, e.g. ``65160023_1`` (a Stack Overflow post, as published) or ``ai:136_1``."""
    return f"{as_post(post)}_{pp_index}"


def rater_key(name: str) -> str:
    """A rater's identity: the name trimmed, inner whitespace folded, case-folded ("Ann " and "ann" are one)."""
    return " ".join(str(name).split()).casefold()


def rater_display(name: str) -> str:
    """A rater's name as shown: as first written, trimmed, inner whitespace folded."""
    return " ".join(str(name).split())


class Rater(Base):
    """A rater (or adjudicator). Exists once they decided something; ``name`` is shown, ``name_key`` identifies."""

    __tablename__ = "raters"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True, doc="as first written (trimmed)")
    name_key: Mapped[str] = mapped_column(String(100), doc="rater_key(name): the identity")
    created_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (UniqueConstraint("name_key", name="uq_raters_name_key"),)


class Identification(Base):
    """One rater's answer to 'is this post a PP?'."""

    __tablename__ = "identifications"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    rater_id: Mapped[int] = mapped_column(ForeignKey("raters.id"))
    site: Mapped[str] = site_column()
    question_id: Mapped[int] = mapped_column(BigInteger)
    is_pp: Mapped[bool] = mapped_column(Boolean)
    decided_at: Mapped[datetime] = mapped_column(DateTime)
    note: Mapped[str | None] = mapped_column(
        Text, doc="the rater's own note on this decision (identify's c key)"
    )

    __table_args__ = (
        UniqueConstraint("rater_id", "site", "question_id", name="uq_identifications_rater_post"),
        question_fk(),
        Index("ix_identifications_site_question_id", "site", "question_id"),
    )

    @property
    def key(self) -> PostKey:
        return PostKey(self.site, self.question_id)


class PPLabel(Base):
    """One rater's codebook labels for one PP of a post."""

    __tablename__ = "pp_labels"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    rater_id: Mapped[int] = mapped_column(ForeignKey("raters.id"))
    site: Mapped[str] = site_column()
    question_id: Mapped[int] = mapped_column(BigInteger)
    pp_index: Mapped[int] = mapped_column(Integer, default=1)
    part: Mapped[str | None] = mapped_column(Text, doc="which part of the post this PP is")
    symptom1: Mapped[str | None] = mapped_column(String(80))
    symptom2: Mapped[str | None] = mapped_column(String(80))
    root_cause: Mapped[str | None] = mapped_column(String(80))
    introducing_stage: Mapped[str | None] = mapped_column(String(80))
    exposing_stage: Mapped[str | None] = mapped_column(String(80))
    note: Mapped[str | None] = mapped_column(Text)
    published_id: Mapped[str | None] = mapped_column(
        String(40), doc="the id as a published file spelled it (e.g. '62522643_1' or '62522643'), for exports"
    )
    spellings: Mapped[dict | None] = mapped_column(
        JSON,
        doc="field -> the label as an imported file wrote it, where that differs from the code's spelling",
    )
    labeled_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (
        UniqueConstraint("rater_id", "site", "question_id", "pp_index", name="uq_pp_labels_rater_pp"),
        question_fk(),
        Index("ix_pp_labels_site_question_id", "site", "question_id"),
    )

    @property
    def key(self) -> PostKey:
        return PostKey(self.site, self.question_id)


class FinalIdentification(Base):
    """The reconciled 'is this a PP?' for a post."""

    __tablename__ = "final_identifications"

    site: Mapped[str] = site_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    is_pp: Mapped[bool] = mapped_column(Boolean)
    method: Mapped[str] = mapped_column(String(20), doc="agreement | adjudicated | imported")
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("raters.id"), doc="adjudicator; null if agreed")
    decided_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (question_fk(),)

    @property
    def key(self) -> PostKey:
        return PostKey(self.site, self.question_id)


class FinalLabel(Base):
    """The reconciled labels of one PP."""

    __tablename__ = "final_labels"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    site: Mapped[str] = site_column()
    question_id: Mapped[int] = mapped_column(BigInteger)
    pp_index: Mapped[int] = mapped_column(Integer, default=1)
    part: Mapped[str | None] = mapped_column(Text)
    symptom1: Mapped[str | None] = mapped_column(String(80))
    symptom2: Mapped[str | None] = mapped_column(String(80))
    root_cause: Mapped[str | None] = mapped_column(String(80))
    introducing_stage: Mapped[str | None] = mapped_column(String(80))
    exposing_stage: Mapped[str | None] = mapped_column(String(80))
    note: Mapped[str | None] = mapped_column(Text)
    published_id: Mapped[str | None] = mapped_column(
        String(40), doc="the id as a published file spelled it (e.g. '62522643_1' or '62522643'), for exports"
    )
    spellings: Mapped[dict | None] = mapped_column(
        JSON,
        doc="field -> the label as an imported file wrote it, where that differs from the code's spelling",
    )
    method: Mapped[str] = mapped_column(String(20), doc="agreement | adjudicated | imported")
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("raters.id"))
    decided_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (
        UniqueConstraint("site", "question_id", "pp_index", name="uq_final_labels_pp"),
        question_fk(),
    )

    @property
    def key(self) -> PostKey:
        return PostKey(self.site, self.question_id)


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


# -- the published benchmark (RQ4) -------------------------------------------------------------------------------


class BenchmarkCase(Base):
    """One PP the study reproduced as a benchmark case, with the RQ4 assessment of three analysis aids.

    ``profiler_status`` and ``xla_status``: -1 the tool does not apply, 0 applied but did not solve the PP,
    1 partly solved it; ``documentation_applies``: the TensorFlow performance documentation covers the PP. The
    labels are the benchmark file's own (codebook codes), kept beside the study's final labels.
    """

    __tablename__ = "benchmark_cases"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    site: Mapped[str] = site_column()
    question_id: Mapped[int] = mapped_column(BigInteger)
    pp_index: Mapped[int] = mapped_column(Integer, default=1)
    published_id: Mapped[str] = mapped_column(String(40), doc="the id as the benchmark file spells it")
    position: Mapped[int] = mapped_column(Integer, doc="row order of the imported file, kept for exports")
    library: Mapped[str | None] = mapped_column(String(40), doc="tf | keras as the file says")
    profiler_status: Mapped[int] = mapped_column(Integer)
    xla_status: Mapped[int] = mapped_column(Integer)
    documentation_applies: Mapped[bool] = mapped_column(Boolean)
    symptom1: Mapped[str | None] = mapped_column(String(80))
    symptom2: Mapped[str | None] = mapped_column(String(80))
    root_cause: Mapped[str | None] = mapped_column(String(80))
    introducing_stage: Mapped[str | None] = mapped_column(String(80))
    exposing_stage: Mapped[str | None] = mapped_column(String(80))
    imported_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (
        UniqueConstraint("site", "question_id", "pp_index", name="uq_benchmark_cases_pp"),
        question_fk(),
        Index("ix_benchmark_cases_site_question_id", "site", "question_id"),
    )

    @property
    def key(self) -> PostKey:
        return PostKey(self.site, self.question_id)


class Sample(Base):
    """A frozen sample of candidates (``pplabel identify --sample N --seed S``): drawn once, then every rater of
    it sees exactly its posts, whatever is matched later."""

    __tablename__ = "samples"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[int] = mapped_column(Integer)
    size: Mapped[int] = mapped_column(Integer, doc="N asked for (the sample holds fewer if there were fewer)")
    keyword_set_id: Mapped[int] = mapped_column(ForeignKey("keyword_sets.id"), doc="the candidate version")
    match_run_id: Mapped[int | None] = mapped_column(
        ForeignKey("match_runs.id", ondelete="SET NULL"), doc="the last match run before the draw"
    )
    candidates: Mapped[int] = mapped_column(Integer, doc="how many candidates it was drawn from")
    drawn_by: Mapped[str] = mapped_column(String(100), doc="the rater whose session drew it")
    drawn_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (UniqueConstraint("seed", "size", name="uq_samples_seed_size"),)


class SamplePost(Base):
    """One post of a sample, in its seeded order."""

    __tablename__ = "sample_posts"

    sample_id: Mapped[int] = mapped_column(ForeignKey("samples.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    site: Mapped[str] = mapped_column(String(100), doc="the post's site, as stored when drawn")
    question_id: Mapped[int] = mapped_column(BigInteger)
