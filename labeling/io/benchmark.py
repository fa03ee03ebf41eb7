"""`pplabel import/export --format benchmark`: the study's 58 reproduced PPs and their RQ4 assessment.

The published ``benchmark.csv`` has one row per reproduced PP: its id (``65160023_1``, or a bare post id for PP 1),
the post's creation date and URL, the library, whether the TensorFlow Profiler and XLA helped
(``profiler_status``/``xla_status``: -1 not applied, 0 applied but not solved, 1 partly solved), whether the
documentation applied (``performance_modified``: 1 yes, 0 no), and the PP's labels in the final vocabulary.

Import follows ``labeling.io.import_study``: the whole file is read and validated first (one bad value rejects
it, naming line and value), then written in one transaction through ``labeling.records`` (audited); posts not
yet stored get a stub question. Export writes the file back byte for byte as published: UTF-8 with a BOM, CRLF
between rows and no line break after the last row, rows in the imported order.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from core.db import Store
from core.errors import PPMinerError
from core.progress import progress
from core.schema.labeling import BenchmarkCase, pp_key
from core.schema.mining import Question, question_link
from core.sites import PostKey
from labeling.io.export_study import iso_millis, refuse_empty
from labeling.io.import_study import (
    _date,
    _no_duplicate,
    _pp,
    _require_columns,
    _resolve,
    _stub,
    decode,
    parse_csv,
    read_source,
    store_stubs,
)
from labeling.io.output import write_output
from labeling.io.published import STAGE_SPELLING, STUDY_SPELLING, detect_format
from labeling.records import set_benchmark_case

FORMAT = "benchmark"
ACTOR = "import:benchmark"
ID_COLUMN = "_id"
COLUMNS = (
    ID_COLUMN,
    "creation_date",
    "library",
    "url",
    "profiler_status",
    "xla_status",
    "performance_modified",
    "introducing stage",
    "exposing stage",
    "symptom1",
    "symptom2",
    "root cause1",
)
LABEL_FIELDS = {
    "introducing stage": ("introducing_stage", "stage"),
    "exposing stage": ("exposing_stage", "stage"),
    "symptom1": ("symptom1", "symptom"),
    "symptom2": ("symptom2", "symptom"),
    "root cause1": ("root_cause", "root_cause"),
}
TOOL_STATUS = {-1: "not applied", 0: "applied, not solved", 1: "partly solved"}
# The benchmark file spells one code in lower case where empirical_study.csv capitalises it.
SPELLING = {**STUDY_SPELLING, "library.buggy_version": "Library: buggy library version"}


@dataclass
class BenchmarkPlan:
    source: str
    stubs: dict[PostKey, dict[str, Any]] = field(default_factory=dict)
    cases: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)


@dataclass
class BenchmarkImport:
    source: str
    cases: int
    posts: int
    new_stubs: int

    def summary(self) -> str:
        return (
            f"{self.source}: imported {self.cases} benchmark cases with their RQ4 assessment "
            f"for {self.posts} posts ({self.new_stubs} new post stubs)"
        )


def _status(value: str, allowed: dict[int, str], source: str, line: int, column: str) -> int:
    status = int(value) if value in {str(k) for k in allowed} else None  # exactly as written: no " 1", "01"
    if status is None:
        want = ", ".join(f"{k} {v}" for k, v in allowed.items())
        raise PPMinerError(f"{source}:{line}: bad {column} {value!r} (want {want})")
    return status


def plan_benchmark(source: str, codebook=None) -> BenchmarkPlan:
    """Read and validate a benchmark file (no database access)."""
    if codebook is None:
        from labeling.codebook import load_codebook

        codebook = load_codebook()
    header, rows = parse_csv(decode(read_source(source), source), source)
    shape = detect_format(header)
    if shape not in (None, FORMAT):
        raise PPMinerError(
            f"{source}:1: the header of a {shape!r} file, not of a 'benchmark' one: import it with --format {shape}"
        )
    _require_columns(header, COLUMNS, source, FORMAT)
    other = [h for h in header if h and h not in COLUMNS]
    if other:
        raise PPMinerError(f"{source}:1: unexpected columns {other} in a 'benchmark' file")
    if not rows:
        raise PPMinerError(f"{source}: only a header, no data rows")
    plan, seen = BenchmarkPlan(source), {}
    for position, row in enumerate(rows, start=1):
        post, index = _pp(row, ID_COLUMN, source)
        _no_duplicate(seen, (post, index), row, source, f"PP {post}_{index}")
        c = {k: v.strip() for k, v in row.cells.items()}  # parse_csv keeps cells as written; these are codes
        raw = row.cells  # the status cells are taken exactly as written
        values: dict[str, Any] = {
            "published_id": c[ID_COLUMN],
            "position": position,
            "library": c["library"] or None,
            "profiler_status": _status(
                raw["profiler_status"], TOOL_STATUS, source, row.line, "profiler_status"
            ),
            "xla_status": _status(raw["xla_status"], TOOL_STATUS, source, row.line, "xla_status"),
            "documentation_applies": bool(
                _status(
                    raw["performance_modified"],
                    {0: "no", 1: "documentation applies"},
                    source,
                    row.line,
                    "performance_modified",
                )  # fmt: skip
            ),
        }
        if len(c["library"]) > 40:
            raise PPMinerError(
                f"{source}:{row.line}: library {c['library'][:50]!r} is longer than 40 characters"
            )
        for column, (fld, dim) in LABEL_FIELDS.items():
            values[fld] = _resolve(codebook, dim, c[column], source, row.line, column) if c[column] else None
        _stub(plan, post, "", c["url"], _date(c["creation_date"], source, row.line))
        plan.cases.append((post, index, values))
    return plan


def import_benchmark(store: Store, source: str, codebook=None, plan=None) -> BenchmarkImport:
    """Import a benchmark file in ONE transaction: all of it, or (on any error) nothing. ``plan``: the file as
    :func:`plan_benchmark` read it already."""
    plan = plan or plan_benchmark(source, codebook)
    with store.write() as session:
        existing = store_stubs(session, plan.stubs)
        with progress("importing benchmark", len(plan.cases)) as bar:
            for post, index, values in plan.cases:
                set_benchmark_case(session, post, index, ACTOR, **values)
                bar.advance()
    return BenchmarkImport(
        source, len(plan.cases), len(plan.stubs), sum(1 for post in plan.stubs if post not in existing)
    )


# -- export -----------------------------------------------------------------------------------------------------


def _spell(code: str | None, dimension: str) -> str:
    if not code:
        return ""
    return (STAGE_SPELLING if dimension == "stage" else SPELLING).get(code, code)


def benchmark_rows(session) -> list[list[str]]:
    found = session.execute(
        sa.select(BenchmarkCase, Question.link, Question.creation_date)
        .join(
            Question, sa.and_(Question.site == BenchmarkCase.site, Question.id == BenchmarkCase.question_id)
        )
        .order_by(BenchmarkCase.position, BenchmarkCase.id)
    ).all()
    out = []
    for case, link, created in found:
        cells = {
            ID_COLUMN: case.published_id or pp_key(case.key, case.pp_index),
            "creation_date": iso_millis(created),
            "library": case.library or "",
            "url": link or question_link(case.question_id, case.site),
            "profiler_status": str(case.profiler_status),
            "xla_status": str(case.xla_status),
            "performance_modified": str(int(case.documentation_applies)),
        }
        for column, (fld, dim) in LABEL_FIELDS.items():
            cells[column] = _spell(getattr(case, fld), dim)
        out.append([cells[c] for c in COLUMNS])
    return out


def render(rows: list[list[str]]) -> bytes:
    """The published layout: BOM, CRLF between rows, none after the last."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows([list(COLUMNS), *rows])
    return ("\ufeff" + buffer.getvalue().removesuffix("\r\n")).encode("utf-8")


def export_benchmark(store: Store, out: str | Path) -> int:
    """Write the stored benchmark cases to ``out`` (``labeling.io.output``); returns the number of rows."""
    with store.read() as session:
        rows = benchmark_rows(session)
    refuse_empty(FORMAT, rows)
    write_output(out, render(rows))  # `-`: standard output; a file: atomic, the user's umask
    return len(rows)
