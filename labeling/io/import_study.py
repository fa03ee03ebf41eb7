"""`pplabel import`: load one of the study's published CSV files (path or http(s) URL) into the study database.

The whole file is read, parsed and every label resolved through the codebook BEFORE anything is written; then
everything is written in one transaction through ``labeling.records`` (audited). An unknown label, a bad id or a
malformed row rejects the file naming source, line and value, and the database is left as it was.
Posts not yet in the database get a stub question (id, link, and title/creation date when the file has them);
a stub has no last_activity_date, so a later real acquisition replaces it.
"""

from __future__ import annotations

import codecs
import csv
import io
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.db import Store
from core.errors import PPMinerError
from core.progress import progress
from core.schema.mining import Question, question_link
from core.sites import DEFAULT_SITE, PostKey, parse_pp_key
from labeling.io.published import (
    DEFAULT_LABEL_RATERS,
    FORMATS,
    ID_COLUMN,
    LABEL_COLUMNS,
    LABELS_HEADER,
    MERGE_COLUMN,
    RATER_PREFIX,
    STUDY_COLUMNS,
    STUDY_COMMENT_FIELD,
    STUDY_LABEL_FIELDS,
    detect_format,
    spell,
)
from labeling.reconcile import reopen_broken_label_agreements
from labeling.records import (
    get_or_create_rater,
    set_final_identification,
    set_final_label,
    set_identification,
    set_pp_label,
)
from mining.store import chunks, upsert_questions

IMPORT_METHOD = "imported"
URL_TIMEOUT_S = 60


@dataclass
class Row:
    line: int
    cells: dict[str, str]


@dataclass
class ImportPlan:
    """Everything a file says, already validated; applying it cannot fail on the file's content."""

    fmt: str
    source: str
    stubs: dict[PostKey, dict[str, Any]] = field(default_factory=dict)  # post (site, id) -> stub row
    identifications: list[tuple[str, int, bool]] = field(default_factory=list)  # (rater, post, is_pp)
    final_identifications: list[tuple[int, bool]] = field(default_factory=list)
    pp_labels: list[tuple[str, int, int, dict[str, Any]]] = field(default_factory=list)
    final_labels: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    raters: list[str] = field(default_factory=list)


@dataclass
class ImportResult:
    fmt: str
    source: str
    posts: int
    new_stubs: int
    raters: list[str]
    identifications: int
    final_identifications: int
    pp_labels: int
    final_labels: int

    def summary(self) -> str:
        parts = [
            f"{n} {what}"
            for n, what in (
                (self.final_labels, "final labels"),
                (self.final_identifications, "final identifications"),
                (self.identifications, "identifications"),
                (self.pp_labels, "rater labels"),
            )
            if n
        ]
        raters = f" by {', '.join(self.raters)}" if self.raters else ""
        return (
            f"{self.source}: imported {', '.join(parts) or 'nothing'}{raters} "
            f"for {self.posts} posts ({self.new_stubs} new post stubs)"
        )


# -- reading ----------------------------------------------------------------------------------------------------


def read_source(source: str) -> bytes:
    """The bytes of a local file or an http(s) URL (a download must be the file itself, not a web page)."""
    if source.startswith(("http://", "https://")):
        import requests

        try:
            response = requests.get(source, timeout=URL_TIMEOUT_S)
        except requests.RequestException as exc:
            raise PPMinerError(f"{source}: download failed: {type(exc).__name__}: {exc}") from None
        if response.status_code != 200:
            raise PPMinerError(f"{source}: download failed: HTTP {response.status_code} {response.reason}")
        kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind in ("text/html", "application/xhtml+xml"):
            raise PPMinerError(
                f"{source}: the server sent a web page ({kind}), not a CSV file: give the file's raw download URL"
            )
        return response.content
    try:
        return Path(source).read_bytes()
    except OSError as exc:
        raise PPMinerError(f"{source}: cannot read: {exc.strerror or exc}") from None


def decode(data: bytes, source: str) -> str:
    """UTF-8 text (a BOM allowed); markup (an HTML page saved or served under a .csv name) is refused."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise PPMinerError(
            f"{source}: UTF-16 text (a byte order mark at byte offset 0): save the file as UTF-8"
        )
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as exc:  # the offset counts from the file's start, BOM included
        raise PPMinerError(f"{source}: not UTF-8 text at byte offset {bom + exc.start}") from None
    head = text.lstrip()[:2048].lower()
    if head.startswith("<"):  # no published header starts with '<'
        kind = "an HTML page" if "<html" in head or head.startswith("<!doctype html") else "markup (XML/HTML)"
        line = text[: len(text) - len(text.lstrip())].count("\n") + 1
        raise PPMinerError(f"{source}:{line}: {kind}, not a CSV file")
    return text


def parse_csv(text: str, source: str) -> tuple[list[str], list[Row]]:
    """Header and non-blank rows with their starting line numbers; every row has a cell for every named column.

    Unnamed columns must stay empty and may be left out at the end of a row; a row without a cell for a named
    column rejects the file (a broken line must not be read as empty labels or decisions).
    """
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise PPMinerError(f"{source}:{line}: NUL byte: not a CSV text file")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise PPMinerError(f"{source}: empty file, expected a CSV header") from None
    except csv.Error as exc:
        raise PPMinerError(f"{source}:1: malformed CSV header: {exc}") from None
    if not any(header):
        raise PPMinerError(f"{source}:1: blank first line, expected a CSV header")
    named = [h for h in header if h]
    dupes = sorted({h for h in named if named.count(h) > 1})
    if dupes:
        raise PPMinerError(f"{source}:1: duplicate columns {dupes}")
    # A row may stop after its last named cell: trailing unnamed columns are empty by definition (editors often
    # drop trailing commas). A row that stops earlier is a broken line, never read as empty labels.
    needed = max((i + 1 for i, h in enumerate(header) if h), default=0)
    rows: list[Row] = []
    last_line = reader.line_num
    while True:
        start = last_line + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise PPMinerError(f"{source}:{start}: malformed CSV: {exc}") from None
        last_line = reader.line_num
        if not any(c.strip() for c in cells):
            continue
        if len(cells) > len(header):
            raise PPMinerError(
                f"{source}:{start}: {len(cells)} cells but the header has {len(header)} columns"
            )
        if len(cells) < needed:
            missing = [h for h in header[len(cells) : needed] if h]
            raise PPMinerError(
                f"{source}:{start}: short row: {len(cells)} cells but the header names {needed} columns "
                f"(no {', '.join(repr(m) for m in missing)})"
            )
        row: dict[str, str] = {}
        for i, value in enumerate(
            cells
        ):  # cells as written: text (a comment's trailing space) is kept exactly
            if header[i]:
                row[header[i]] = value
            elif value.strip():
                raise PPMinerError(f"{source}:{start}: value {value.strip()!r} in unnamed column {i + 1}")
        rows.append(Row(start, row))
    return header, rows


def _require_columns(header: list[str], required: tuple[str, ...] | list[str], source: str, fmt: str) -> None:
    missing = [c for c in required if c not in header]
    if missing:
        raise PPMinerError(
            f"{source}:1: not a {fmt!r} file: missing columns {missing} (header: {[h for h in header if h]})"
        )


def _pp(row: Row, column: str, source: str) -> tuple[PostKey, int]:
    """The PP a row names. The published files spell Stack Overflow ids bare (``65160023_1``), so a bare id is a
    Stack Overflow post; a post of another site is written ``ai:136_1`` (as ``pplabel export`` writes it)."""
    value = row.cells.get(column, "")
    try:
        post, index = parse_pp_key(value)
    except (ValueError, PPMinerError):
        post, index = PostKey(DEFAULT_SITE, 0), 0
    if post.id <= 0 or index <= 0:
        raise PPMinerError(
            f"{source}:{row.line}: bad id {value!r} in column {column!r} (want <post> or <post>_<pp>, "
            "<post> being a Stack Overflow id or SITE:ID)"
        )
    return post, index


def _resolve(codebook, dimension: str, value: str, source: str, line: int, column: str) -> str | None:
    from labeling.codebook import UnknownLabel

    try:
        return codebook.resolve(dimension, value)
    except UnknownLabel:
        raise PPMinerError(
            f"{source}:{line}: unknown {dimension} label {value!r} in column {column!r}"
        ) from None


def _date(value: str, source: str, line: int) -> datetime | None:
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise PPMinerError(f"{source}:{line}: bad creation_date {value!r} (want ISO 8601)") from None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(UTC).replace(tzinfo=None)
    return parsed


def _stub(
    plan: ImportPlan, post: PostKey, title: str = "", link: str = "", created: datetime | None = None
) -> None:
    stub = plan.stubs.setdefault(
        post, {"site": post.site, "id": post.id, "link": link or question_link(post.id, post.site)}
    )
    if link:
        stub["link"] = link
    if title and not stub.get("title"):
        stub["title"] = title
    if created and not stub.get("creation_date"):
        stub["creation_date"] = created


def _no_duplicate(seen: dict, key, row: Row, source: str, what: str) -> None:
    if key in seen:
        raise PPMinerError(f"{source}:{row.line}: {what} already given on line {seen[key]}")
    seen[key] = row.line


# -- the three formats ------------------------------------------------------------------------------------------


def plan_study(header: list[str], rows: list[Row], source: str, codebook) -> ImportPlan:
    _require_columns(header, STUDY_COLUMNS, source, "study")
    plan, seen = ImportPlan("study", source), {}
    for row in rows:
        post, index = _pp(row, "id", source)
        _no_duplicate(seen, (post, index), row, source, f"PP {post}_{index}")
        c = row.cells
        values: dict[str, Any] = {STUDY_COMMENT_FIELD: c["comment"] if c["comment"].strip() else None}
        spellings = {}
        for column, (fld, dim) in STUDY_LABEL_FIELDS.items():
            values[fld] = _resolve(codebook, dim, c[column], source, row.line, column)
            if values[fld] and c[column] != spell(values[fld], dim):
                spellings[fld] = c[column]
        _stub(plan, post, c["title"], c["url"].strip(), _date(c["creation_date"].strip(), source, row.line))
        plan.final_labels.append(
            (post, index, {**values, "published_id": c["id"].strip(), "spellings": spellings})
        )
    plan.final_identifications = [(post, True) for post in plan.stubs]
    return plan


FLAGS = {"1": True, "0": False, "": None}  # an empty cell: no decision


def _flag(value: str, source: str, line: int, column: str) -> bool | None:
    """A 0/1 cell exactly as the published files write it (`yes`, `true` or ` 1` are refused, so an export
    writes back the cell as it was imported)."""
    if value not in FLAGS:
        raise PPMinerError(
            f"{source}:{line}: unknown identification value {value!r} in column {column!r} "
            "(want 0, 1 or an empty cell)"
        )
    return FLAGS[value]


def plan_identification(header: list[str], rows: list[Row], source: str) -> ImportPlan:
    named = [h for h in header if h]
    id_col = ID_COLUMN if ID_COLUMN in named else "id"
    _require_columns(header, [id_col], source, "identification")
    rater_cols = [h for h in named if h.startswith(RATER_PREFIX)]
    other = [h for h in named if h not in rater_cols and h not in (id_col, MERGE_COLUMN)]
    if other:
        raise PPMinerError(
            f"{source}:1: unexpected columns {other} (want {ID_COLUMN}, {RATER_PREFIX}<rater>..., merge)"
        )
    if not rater_cols and MERGE_COLUMN not in named:
        raise PPMinerError(f"{source}:1: no {RATER_PREFIX}<rater> or {MERGE_COLUMN} column")
    raters = {col: col[len(RATER_PREFIX) :].strip() for col in rater_cols}
    if any(not name for name in raters.values()):
        raise PPMinerError(f"{source}:1: a {RATER_PREFIX} column without a rater name")
    plan, seen = ImportPlan("identification", source, raters=list(raters.values())), {}
    for row in rows:
        post, index = _pp(row, id_col, source)
        if index != 1 and "_" in row.cells[id_col]:
            raise PPMinerError(
                f"{source}:{row.line}: identification ids are post ids, not {row.cells[id_col]!r}"
            )
        _no_duplicate(seen, post, row, source, f"post {post}")
        _stub(plan, post)
        for col, rater in raters.items():
            decision = _flag(row.cells.get(col, ""), source, row.line, col)
            if decision is not None:
                plan.identifications.append((rater, post, decision))
        if MERGE_COLUMN in named:
            merged = _flag(row.cells.get(MERGE_COLUMN, ""), source, row.line, MERGE_COLUMN)
            if merged is not None:
                plan.final_identifications.append((post, merged))
    return plan


def plan_labels(
    header: list[str], rows: list[Row], source: str, codebook, raters: tuple[str, str] = DEFAULT_LABEL_RATERS
) -> ImportPlan:
    named = [h for h in header if h]
    _require_columns(header, LABELS_HEADER, source, "labels")
    other = [h for h in named if h not in LABELS_HEADER]
    if other:
        raise PPMinerError(f"{source}:1: unexpected columns {other} in a 'labels' file")
    if len(raters) != 2 or len({r.strip() for r in raters}) != 2 or not all(r.strip() for r in raters):
        raise PPMinerError(
            f"a 'labels' file holds two raters' labels: give two different names, not {list(raters)}"
        )
    plan, seen = ImportPlan("labels", source, raters=[r.strip() for r in raters]), {}
    for row in rows:
        post, index = _pp(row, ID_COLUMN, source)
        _no_duplicate(seen, (post, index), row, source, f"PP {post}_{index}")
        _stub(plan, post)
        for rater, columns in zip(plan.raters, LABEL_COLUMNS, strict=True):
            if not any(row.cells[col].strip() for col in columns):
                continue
            values = {
                fld: _resolve(codebook, dim, row.cells[col], source, row.line, col)
                for col, (fld, dim) in columns.items()
            }
            values["spellings"] = {
                fld: row.cells[col]
                for col, (fld, dim) in columns.items()
                if values[fld] and row.cells[col] != spell(values[fld], dim, legacy=True)
            }
            values["published_id"] = row.cells[ID_COLUMN].strip()
            plan.pp_labels.append((rater, post, index, values))
    return plan


# -- applying ---------------------------------------------------------------------------------------------------


def apply_plan(session: Session, plan: ImportPlan) -> ImportResult:
    """Write a validated plan in the caller's transaction (a progress bar on a terminal)."""
    total = sum(
        len(x) for x in (plan.identifications, plan.final_identifications, plan.pp_labels, plan.final_labels)
    )
    with progress(f"importing {plan.fmt}", total) as bar:
        return _apply(session, plan, bar.advance)


def store_stubs(session: Session, stubs: dict[PostKey, dict[str, Any]]) -> set[PostKey]:
    """Insert stubs for posts not stored yet and complete earlier import stubs; never touch a post acquired from
    a dump or the API. Returns the posts that were stored before (of any source)."""
    existing: dict[PostKey, str] = {}
    for site in sorted({post.site for post in stubs}):
        ids = [post.id for post in stubs if post.site == site]
        for chunk in chunks(ids):
            query = sa.select(Question.id, Question.source).where(
                Question.site == site, Question.id.in_(chunk)
            )
            existing.update({PostKey(site, qid): source for qid, source in session.execute(query)})
    upsert_questions(
        session, [s for post, s in stubs.items() if existing.get(post, "import") == "import"], source="import"
    )
    return set(existing)


def _apply(session: Session, plan: ImportPlan, tick) -> ImportResult:
    existing = store_stubs(session, plan.stubs)
    raters = {name: get_or_create_rater(session, name) for name in plan.raters}
    for rater, post, decision in plan.identifications:
        set_identification(session, raters[rater], post, decision)
        tick()
    for post, decision in plan.final_identifications:
        set_final_identification(session, post, decision, IMPORT_METHOD)
        tick()
    for rater, post, index, values in plan.pp_labels:
        set_pp_label(session, raters[rater], post, index, **values)
        tick()
    for post in dict.fromkeys(post for _, post, _, _ in plan.pp_labels):  # labels may break agreement finals
        reopen_broken_label_agreements(session, post, "import")
    for post, index, values in plan.final_labels:
        set_final_label(session, post, index, IMPORT_METHOD, None, **values)
        tick()
    return ImportResult(
        fmt=plan.fmt,
        source=plan.source,
        posts=len(plan.stubs),
        new_stubs=sum(1 for post in plan.stubs if post not in existing),
        raters=plan.raters,
        identifications=len(plan.identifications),
        final_identifications=len(plan.final_identifications),
        pp_labels=len(plan.pp_labels),
        final_labels=len(plan.final_labels),
    )


def plan_import(fmt: str, source: str, codebook=None, raters: tuple[str, str] | None = None) -> ImportPlan:
    """Read and validate a published file into an :class:`ImportPlan` (no database access)."""
    if fmt not in FORMATS:
        raise PPMinerError(f"unknown import format {fmt!r}; choose from {list(FORMATS)}")
    if raters is not None and fmt != "labels":
        raise PPMinerError(f"rater names apply to a 'labels' file only, not to a {fmt!r} file")
    if codebook is None and fmt != "identification":
        from labeling.codebook import load_codebook

        codebook = load_codebook()
    header, rows = parse_csv(decode(read_source(source), source), source)
    shape = detect_format(header)
    if shape is not None and shape != fmt:
        raise PPMinerError(
            f"{source}:1: the header of a {shape!r} file, not of a {fmt!r} one: import it with --format {shape}"
        )
    if fmt == "study":
        plan = plan_study(header, rows, source, codebook)
    elif fmt == "identification":
        plan = plan_identification(header, rows, source)
    else:
        plan = plan_labels(header, rows, source, codebook, raters or DEFAULT_LABEL_RATERS)
    if not rows:  # checked after the header, so a header that is wrong too is named first
        raise PPMinerError(f"{source}: only a header, no data rows")
    return plan


def import_file(
    store: Store, fmt: str, source: str, codebook=None, raters: tuple[str, str] | None = None, plan=None
) -> ImportResult:
    """Import one published file in ONE transaction: all of it, or (on any error) nothing. ``plan``: the file as
    :func:`plan_import` read it already."""
    plan = plan or plan_import(fmt, source, codebook, raters)
    with store.write() as session:
        return apply_plan(session, plan)
