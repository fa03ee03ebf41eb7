"""The study database's tables for benchmark runs: one row per measured process, one per case verdict.

A case names the study PPs it reproduces (``65160023_1``, ``ai:136_1``); rows keep the first as
``site``/``question_id``/``pp_index`` (no foreign key: a run is worth keeping before the study's posts are
imported) and all of them in ``pp_ids``.
The full JSON record (measurements and platform) is stored as written to ``--out``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from core.schema.mining import SITE_LENGTH, Base


class BenchRun(Base):
    """One process of a case: its variant (buggy or fixed), status and measurements."""

    __tablename__ = "bench_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[str] = mapped_column(String(40), index=True, doc="one `ppbench run` invocation")
    case_name: Mapped[str] = mapped_column(String(100), index=True)
    site: Mapped[str | None] = mapped_column(String(SITE_LENGTH), doc="the first PP's site (core.sites)")
    question_id: Mapped[int | None] = mapped_column(BigInteger)
    pp_index: Mapped[int | None] = mapped_column(Integer)
    pp_ids: Mapped[list] = mapped_column(JSON)
    variant: Mapped[str] = mapped_column(String(10), doc="buggy | fixed")
    repeat: Mapped[int] = mapped_column(Integer, doc="0-based; warm-up runs are negative")
    status: Mapped[str] = mapped_column(String(20), doc="ok | oom | crashed | timeout | missing")
    started_at: Mapped[datetime] = mapped_column(DateTime)
    wall_s: Mapped[float | None] = mapped_column(Float)
    cpu_s: Mapped[float | None] = mapped_column(Float)
    peak_rss_bytes: Mapped[int | None] = mapped_column(BigInteger)
    record: Mapped[dict] = mapped_column(JSON)

    __table_args__ = (Index("ix_bench_runs_site_question_id", "site", "question_id"),)


class BenchResult(Base):
    """The verdict of one case in one invocation: the fixed/buggy ratio with its bootstrap interval."""

    __tablename__ = "bench_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[str] = mapped_column(String(40), index=True)
    case_name: Mapped[str] = mapped_column(String(100), index=True)
    site: Mapped[str | None] = mapped_column(String(SITE_LENGTH), doc="the first PP's site (core.sites)")
    question_id: Mapped[int | None] = mapped_column(BigInteger)
    pp_index: Mapped[int | None] = mapped_column(Integer)
    pp_ids: Mapped[list] = mapped_column(JSON)
    symptom: Mapped[str] = mapped_column(String(40))
    metric: Mapped[str | None] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(20), doc="reproduced | not reproduced | failed")
    reproduced: Mapped[bool | None] = mapped_column(Boolean)
    ratio: Mapped[float | None] = mapped_column(Float, doc="median fixed/buggy")
    ci_low: Mapped[float | None] = mapped_column(Float)
    ci_high: Mapped[float | None] = mapped_column(Float)
    started_at: Mapped[datetime] = mapped_column(DateTime)
    record: Mapped[dict] = mapped_column(JSON)

    __table_args__ = (Index("ix_bench_results_site_question_id", "site", "question_id"),)
