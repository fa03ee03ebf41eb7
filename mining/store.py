"""Writing posts: one upsert path shared by the API scraper, the dump importer and file importers.

Rows are dicts keyed by the model's column names. A post already stored is replaced only by a version with a newer
``last_activity_date`` (or when the stored row has none, e.g. a stub made by an import), so a post acquired from the
API and from a dump is one row, and importing the same data twice changes nothing.

Every row names its ``site`` (see :mod:`core.sites`): a post is ``(site, id)``, so the same id on another site is
another row, never an update. A row without a site is refused rather than guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from operator import itemgetter
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from core.schema.mining import SOURCES, Answer, Comment, Question
from core.text import html_to_text, replace_surrogates, split_html

T = TypeVar("T")


def utcnow() -> datetime:
    """Naive UTC now: the database keeps naive UTC datetimes everywhere."""
    return datetime.now(UTC).replace(tzinfo=None)


def _with_text(out: dict[str, Any], from_xml: bool = False) -> dict[str, Any]:
    """Fill prose/code_blocks in ``out`` (a copy of the caller's row) from body_html unless derived already.
    ``from_xml``: body_html was read by an XML parser (see :func:`core.text.split_html`)."""
    if "prose" not in out:
        split = split_html(out.get("body_html"), from_xml)
        out["prose"] = split.prose
        out["code_blocks"] = split.code_blocks
    out.setdefault("code_blocks", [])
    return out


def dialect_insert(session: Session, table: sa.Table):
    """The INSERT construct of the session's backend, with its ON CONFLICT support."""
    return _insert_for(session.get_bind().dialect.name, table)


def _insert_for(dialect: str, table: sa.Table):
    if dialect == "postgresql":
        return postgresql.insert(table)
    if dialect == "sqlite":
        return sqlite.insert(table)
    raise ValueError(f"unsupported database dialect {dialect!r}")


@dataclass
class Upsert:
    """One table's rows made ready to write: stamped, prose and code derived, one row per id, in id order, grouped
    by the columns they carry. A group is ``(columns, sql, rows)``: on SQLite, ``rows`` are already the driver's
    parameter tuples for ``sql``; otherwise ``sql`` is None and ``rows`` are dicts for SQLAlchemy. Made by
    :func:`prepare_upsert` without a database (the dump importer makes them in a worker process), written by
    :func:`write_upsert`."""

    table: str
    dialect: str
    groups: list[tuple[tuple[str, ...], str | None, list]]


def prepare_upsert(table: sa.Table, rows: list[dict[str, Any]], dialect, from_xml: bool = False) -> Upsert:
    """``rows`` made ready for :func:`write_upsert` on ``dialect`` (a SQLAlchemy dialect). ``from_xml``: every text
    value was read by an XML parser (or derived from such text), which refuses NUL and lone surrogates, so the
    check that makes text storable has nothing to do."""
    # One statement per distinct key set keeps executemany batches uniform. Rows go in id order so concurrent
    # writers (a scrape and a dump import) lock rows in the same order and cannot deadlock on PostgreSQL.
    by_keys: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    text_columns = () if from_xml else _text_columns(table)
    # a row's keys in its own order -> sorted (rows built alike share one: no sort per row)
    sorted_keys: dict[tuple[str, ...], tuple[str, ...]] = {}
    for row in sorted(newest_per_id(rows), key=itemgetter("site", "id")):
        if text_columns:
            _make_storable(row, text_columns)
        keys = tuple(row)
        if keys not in sorted_keys:
            sorted_keys[keys] = tuple(sorted(keys))
        by_keys.setdefault(sorted_keys[keys], []).append(row)
    groups = []
    for keys, batch in by_keys.items():
        fast = _sqlite_params(table, keys, batch, dialect) if dialect.name == "sqlite" else None
        groups.append((keys, None, batch) if fast is None else (keys, *fast))
    return Upsert(table.name, dialect.name, groups)


def write_upsert(session: Session, upsert: Upsert) -> int:
    """Insert the prepared rows; on an existing id update every column, but only where the table's test says the
    row is newer (or changed). Returns the rows inserted or updated."""
    dialect = session.get_bind().dialect.name
    if upsert.dialect != dialect:
        raise ValueError(f"rows prepared for {upsert.dialect} cannot be written to {dialect}")
    table = _TABLES[upsert.table]
    changed = 0
    for keys, sql, batch in upsert.groups:
        if (
            sql is not None
        ):  # SQLite's own executemany, which sums the rows each statement inserted or updated
            if session.autoflush:  # as session.execute would: ORM objects added before (a parent) go first
                session.flush()
            changed += session.connection().exec_driver_sql(sql, batch).rowcount
        elif dialect == "sqlite":
            changed += session.execute(_statement(table, keys, dialect), batch).rowcount
        else:  # RETURNING counts them on every backend (batched statements' rowcount is unreliable)
            changed += len(
                session.execute(_statement(table, keys, dialect).returning(table.c.id), batch).all()
            )
    return changed


def without_ids(upsert: Upsert, ids: set[int], dialect) -> Upsert:
    """``upsert`` (prepared for ``dialect``) less its rows whose id is in ``ids``."""
    table = _TABLES[upsert.table]
    groups = []
    for keys, sql, batch in upsert.groups:
        at = None if sql is None else _compiled(table, keys, dialect)[1].index("id")
        rows = [row for row in batch if (row["id"] if at is None else row[at]) not in ids]
        if rows:
            groups.append((keys, sql, rows))
    return Upsert(upsert.table, upsert.dialect, groups)


@cache
def _statement(table: sa.Table, keys: tuple[str, ...], dialect: str):
    """INSERT ... ON CONFLICT (site, id) DO UPDATE of the columns ``keys``, where the table's test allows."""
    stmt = _insert_for(dialect, table)
    excluded = stmt.excluded
    return stmt.on_conflict_do_update(
        index_elements=[table.c.site, table.c.id],
        set_={k: excluded[k] for k in keys if k not in ("site", "id")},
        where=_NEWER_WHEN[table.name](table, excluded),
    )


@cache
def _compiled(table: sa.Table, keys: tuple[str, ...], dialect) -> tuple[str, tuple[str, ...]] | None:
    """The statement's SQL text on ``dialect`` and the columns its parameters take, in order; None when it needs
    more than the rows' own values (a default) or names a column the table lacks (SQLAlchemy then says so)."""
    if not set(keys) <= set(table.c.keys()):
        return None
    compiled = _statement(table, keys, dialect.name).compile(dialect=dialect, column_keys=list(keys))
    names = compiled.positiontup
    if compiled.insert_prefetch or not names or len(names) < 2 or not set(names) <= set(keys):
        return None
    return compiled.string, tuple(names)


def _sqlite_params(
    table: sa.Table, keys: tuple[str, ...], batch: list[dict[str, Any]], dialect
) -> tuple[str, list[tuple]] | None:
    """The batch as the SQLite driver's executemany takes it: the statement's SQL and a tuple per row, each value
    converted by its column type's own bind processor. SQLAlchemy would build a parameter dict per row and convert
    it value by value, a third of the write. None when the statement cannot go to the driver directly."""
    compiled = _compiled(table, keys, dialect)
    if compiled is None:
        return None
    sql, names = compiled
    # Column by column: one comprehension per column instead of a Python step per value of every row.
    columns = list(zip(*map(itemgetter(*names), batch), strict=True))
    for i, name in enumerate(names):
        convert_column = _column_converter(table.c[name].type, dialect)
        if convert_column is not None:
            columns[i] = convert_column(columns[i])
    return sql, list(zip(*columns, strict=True))


@cache
def _column_converter(type_: sa.types.TypeEngine, dialect) -> Callable[[Sequence], Sequence] | None:
    """A column's values -> what the type's bind processor on ``dialect`` makes of each (None: it keeps them),
    cheaper for the common values: an empty JSON list converts to the same text every time; SQLite's DATETIME
    processor formats field by field in Python, so a naive datetime goes through isoformat (C) instead, where that
    gives the same text (checked here, on extreme values)."""
    process = type_.dialect_impl(dialect).bind_processor(dialect)
    if process is None:
        return None
    if isinstance(type_, sa.JSON):  # most posts have no code: [] every time
        empty = process([])
        return lambda values: [empty if v.__class__ is list and not v else process(v) for v in values]
    samples = (datetime(2019, 1, 2, 3, 4, 5), datetime(1, 1, 1), datetime(9999, 12, 31, 23, 59, 59, 999999))
    if (
        not isinstance(type_, sa.DateTime)
        or process(None) is not None
        or any(process(d) != d.isoformat(" ", "microseconds") for d in samples)
    ):
        return lambda values: [process(v) for v in values]

    def naive_iso(values):
        return [
            v.isoformat(" ", "microseconds")
            if v.__class__ is datetime and v.tzinfo is None
            else (None if v is None else process(v))
            for v in values
        ]

    return naive_iso


def newest_per_id(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (site, id), as one INSERT ... ON CONFLICT may not touch a row twice: the newest
    last_activity_date wins, else the later row (a repeated id in a broken dump, a post seen twice in one API page).
    """
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for row in rows:
        if not row.get("site"):
            raise ValueError(f"post {row.get('id')!r} has no site: every stored post names its site")
        key = (row["site"], row["id"])
        old = out.get(key)
        if old is None or (row.get("last_activity_date") or datetime.min) >= (
            old.get("last_activity_date") or datetime.min
        ):
            out[key] = row
    return list(out.values())


def chunks(seq: Sequence[T], size: int = 1000) -> Iterator[Sequence[T]]:
    """Consecutive slices of ``seq``: keeps each ``IN (...)`` list and executemany batch within backend limits."""
    for start in range(0, len(seq), size):
        yield seq[start : start + size]


def _storable(value: str) -> str:
    """NUL (PostgreSQL text cannot hold it) and lone surrogates (not encodable) -> U+FFFD, on every backend."""
    if "\x00" in value:
        value = value.replace("\x00", "\ufffd")
    return replace_surrogates(value)


@cache
def _text_columns(table: sa.Table) -> tuple[str, ...]:
    """The columns that can hold strings (text, and JSON lists of text): the only values _make_storable checks."""
    return tuple(c.name for c in table.columns if isinstance(c.type, sa.String | sa.JSON))


def _make_storable(row: dict[str, Any], keys: tuple[str, ...]) -> None:
    for key in keys:
        value = row.get(key)
        if isinstance(value, str):
            if "\x00" in value or not value.isascii():  # (both in C): most values need no copy
                row[key] = _storable(value)
        elif isinstance(value, list):
            row[key] = [_storable(v) if isinstance(v, str) else v for v in value]


def _newer_activity(table, excluded):
    return sa.or_(
        table.c.last_activity_date.is_(None),
        excluded.last_activity_date > table.c.last_activity_date,
    )


def _comment_changed(table, excluded):
    return sa.or_(
        table.c.score.is_distinct_from(excluded.score),
        table.c.text.is_distinct_from(excluded.text),
        table.c.body_html.is_distinct_from(excluded.body_html),
    )


def _stamp(rows: Iterable[Mapping[str, Any]], source: str, now: datetime) -> list[dict[str, Any]]:
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}, not {source!r}")
    return [{**row, "source": source, "refreshed_at": now} for row in rows]


def prepare_questions(
    rows: Iterable[Mapping[str, Any]], source: str, dialect, from_xml: bool = False
) -> Upsert:
    """Questions (dicts with body_html; prose and code are derived here) made ready for :func:`write_upsert`.
    ``from_xml``: the text was read by an XML parser (see :func:`prepare_upsert`)."""
    now = utcnow()
    prepared = []
    for row in _stamp(rows, source, now):
        row = _with_text(row, from_xml)
        row["has_code"] = bool(row["code_blocks"])
        prepared.append(row)
    return prepare_upsert(Question.__table__, prepared, dialect, from_xml)


def prepare_answers(
    rows: Iterable[Mapping[str, Any]], source: str, dialect, from_xml: bool = False
) -> Upsert:
    """Answers made ready for :func:`write_upsert`, as :func:`prepare_questions`."""
    now = utcnow()
    prepared = [_with_text(row, from_xml) for row in _stamp(rows, source, now)]
    return prepare_upsert(Answer.__table__, prepared, dialect, from_xml)


def upsert_questions(
    session: Session, rows: Iterable[Mapping[str, Any]], source: str, from_xml: bool = False
) -> int:
    """Insert or refresh questions (dicts with body_html; prose and code are derived here). Returns rows changed.
    ``from_xml``: the text was read by an XML parser (see :func:`prepare_upsert`)."""
    return write_upsert(session, prepare_questions(rows, source, session.get_bind().dialect, from_xml))


def upsert_answers(
    session: Session, rows: Iterable[Mapping[str, Any]], source: str, from_xml: bool = False
) -> int:
    """Insert or refresh answers; their questions must be stored already (same transaction is fine)."""
    return write_upsert(session, prepare_answers(rows, source, session.get_bind().dialect, from_xml))


def upsert_comments(session: Session, rows: Iterable[Mapping[str, Any]], source: str) -> int:
    """Insert or refresh comments. Rows carry ``text``, or ``body_html`` from which the text is derived."""
    now = utcnow()
    prepared = []
    for row in _stamp(rows, source, now):
        if "text" not in row:
            row["text"] = html_to_text(row.get("body_html"))
        row.setdefault("body_html", None)
        prepared.append(row)
    return write_upsert(session, prepare_upsert(Comment.__table__, prepared, session.get_bind().dialect))


_TABLES = {table.name: table for table in (Question.__table__, Answer.__table__, Comment.__table__)}
# when a stored row gives way to the one written: a newer activity date (posts), any change (comments)
_NEWER_WHEN = {"questions": _newer_activity, "answers": _newer_activity, "comments": _comment_changed}
