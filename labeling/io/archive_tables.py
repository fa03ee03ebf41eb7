"""What a study archive holds: one :class:`Table` per archived table, in the order import writes them.

A row is the database row with its surrogate ``id`` left out and each id pointing at another archived table
replaced by that row's key (a rater by ``name_key``, a keyword-set version by ``[content_hash, stemmer_mode]``, a
match run by ``[content_hash, stemmer_mode, started_at]``), so an archive means the same in any database. Rows
match stored ones by ``key``. ``kept``: a stored row with the same key but other values is the database's own copy
(posts re-acquired since, a rater's display spelling) and is left as it is; otherwise such a row is a conflict.

Not archived: what ppminer rebuilds or what belongs to one machine: ``match_checks`` (the match cache;
``ppmine match`` redoes it), ``checked_posts``/``check_findings`` (``ppmine check``), ``settings`` and
``job_locks``.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.schema.bench import BenchResult, BenchRun
from core.schema.labeling import (
    AuditEntry,
    BenchmarkCase,
    FinalIdentification,
    FinalLabel,
    Identification,
    PPLabel,
    Rater,
    Sample,
)
from core.schema.mining import AcquisitionRun, Answer, Candidate, Comment, KeywordSet, MatchRun, Question


@dataclass(frozen=True)
class Ref:
    """A column holding another archived table's surrogate id, written as that row's key under ``field``."""

    field: str
    column: str
    table: str


@dataclass(frozen=True)
class Table:
    name: str
    model: type
    key: tuple[str, ...] | None  # None: the whole row is its key (append-only records)
    refs: tuple[Ref, ...] = ()
    kept: bool = False
    posts: bool = False  # (site, question_id) names a post that must be in the archive

    @property
    def file(self) -> str:
        return f"{self.name}.jsonl"

    @property
    def surrogate(self) -> bool:
        """The rows have a generated ``id`` (left out of the archive; rows are written in its order)."""
        column = self.model.__table__.columns.get("id")
        return column is not None and column.primary_key and column.autoincrement is not False

    def columns(self) -> list:
        """The model's columns the archive writes as they are (ids and references left out)."""
        skip = {ref.column for ref in self.refs} | ({"id"} if self.surrogate else set())
        return [c for c in self.model.__table__.columns if c.name not in skip]


# Tables of the schema an archive leaves out (see the module docstring), and those carried inside a parent's row.
NOT_ARCHIVED = frozenset({"match_checks", "checked_posts", "check_findings", "settings", "job_locks"})
CARRIED = frozenset({"candidate_hits", "sample_posts"})

RATER = Ref("rater", "rater_id", "raters")
DECIDED_BY = Ref("decided_by", "decided_by", "raters")
KEYWORD_SET = Ref("keyword_set", "keyword_set_id", "keyword_sets")

TABLES = (
    Table("raters", Rater, ("name_key",), kept=True),
    Table("keyword_sets", KeywordSet, ("content_hash", "stemmer_mode"), kept=True),
    Table("match_runs", MatchRun, ("keyword_set", "started_at"), (KEYWORD_SET,), kept=True),
    Table("acquisition_runs", AcquisitionRun, ("kind", "started_at"), kept=True),
    Table("questions", Question, ("site", "id"), kept=True),
    Table("answers", Answer, ("site", "id"), kept=True, posts=True),
    Table("comments", Comment, ("site", "id"), kept=True, posts=True),
    # candidate_hits ride in their candidate's row ("hits": [[field, keyword, count], ...])
    Table(
        "candidates", Candidate, ("keyword_set", "site", "question_id"), (KEYWORD_SET,), kept=True, posts=True
    ),
    # sample_posts ride in their sample's row ("posts": [[site, question_id], ...] in the seeded order)
    Table(
        "samples",
        Sample,
        ("seed", "size"),
        (KEYWORD_SET, Ref("match_run", "match_run_id", "match_runs")),
    ),
    Table("identifications", Identification, ("rater", "site", "question_id"), (RATER,), posts=True),
    Table("pp_labels", PPLabel, ("rater", "site", "question_id", "pp_index"), (RATER,), posts=True),
    Table("final_identifications", FinalIdentification, ("site", "question_id"), (DECIDED_BY,), posts=True),
    Table("final_labels", FinalLabel, ("site", "question_id", "pp_index"), (DECIDED_BY,), posts=True),
    Table("benchmark_cases", BenchmarkCase, ("site", "question_id", "pp_index"), posts=True),
    Table("audit_log", AuditEntry, None),
    Table("bench_runs", BenchRun, None),
    Table("bench_results", BenchResult, None),
)
