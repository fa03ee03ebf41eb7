"""`pplabel export/import --format archive`: a whole study in one zip of JSON Lines files, and back.

The zip holds ``manifest.json`` (format name, version, each table's file, columns and row count) and one
``<table>.jsonl`` per table of ``labeling.io.archive_tables``: one JSON object per line, keys sorted, times as
``YYYY-MM-DDTHH:MM:SS.ffffff`` (naive UTC). Rows are in the database's order (surrogate id, else key) and the zip
entries carry a fixed date, so the same study always gives the same bytes: import -> export is byte-identical.

Import reads and validates the whole archive first (one bad line names file and line; nothing is opened), then
writes in ONE transaction: a row whose key is stored already is skipped when equal (times aside: the same
decision recorded in two databases); a study row that says something else is a conflict, and any conflict
refuses the whole archive naming the rows. The archive's own audit log is restored as it is (rows are copied,
not re-decided, so no new audit entries are made), except that a decision the archive adds to a post the
database made final on agreement, and that breaks that agreement, reopens the final (audited), as any decision
does.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.db import Store
from core.errors import PPMinerError
from core.schema.labeling import SamplePost
from core.schema.mining import CandidateHit
from core.sites import PostKey
from labeling.io.archive_tables import TABLES, Table
from labeling.io.import_study import read_source
from labeling.io.output import STDOUT, atomic_file
from labeling.reconcile import reopen_broken_label_agreements
from labeling.records import reopen_broken_agreement
from labeling.vocabulary import FIELD_DIMENSION
from mining.store import chunks

FORMAT = "ppminer-study-archive"
VERSION = 1
MANIFEST = "manifest.json"
PAIRING = "pp_pairing.jsonl"  # derived (see pairing_rows)
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say: entries carry no export time
EXTRA = {"candidates": "hits", "samples": "posts"}  # child rows carried in a parent row
LISTED_CONFLICTS = 8
INT_BITS = {sa.BigInteger: 63, sa.Integer: 31}


def _time(value: datetime) -> str:
    return value.isoformat(timespec="microseconds")


def _json(value: Any) -> Any:
    return _time(value) if isinstance(value, datetime) else value


def _frozen(value: Any) -> Any:
    """A JSON value usable as a dict key (lists become tuples)."""
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def key_of(table: Table, rec: dict) -> Any:
    """A row's identity: its key fields (every field for append-only records)."""
    if table.key is None:
        return _frozen(json.dumps(rec, sort_keys=True))
    return _frozen([rec[k] for k in table.key]) if len(table.key) > 1 else rec[table.key[0]]


def _ref_value(table: Table, rec: dict) -> Any:
    """How other rows write a reference to this row: its key, as JSON."""
    return [rec[k] for k in table.key] if len(table.key) > 1 else rec[table.key[0]]


def line_of(rec: dict) -> bytes:
    return (json.dumps(rec, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


# -- the database side: rows as the archive writes them ------------------------------------------------------------


def _children(session: Session, table: Table) -> dict[int, list]:
    out: dict[int, list] = defaultdict(list)
    if table.name == "candidates":
        hits = sa.select(CandidateHit).order_by(
            CandidateHit.candidate_id, CandidateHit.field, CandidateHit.keyword
        )
        for hit in session.scalars(hits):
            out[hit.candidate_id].append([hit.field, hit.keyword, hit.count])
    elif table.name == "samples":
        for post in session.scalars(
            sa.select(SamplePost).order_by(SamplePost.sample_id, SamplePost.position)
        ):
            out[post.sample_id].append([post.position, post.site, post.question_id])
    return out


def stored_rows(session: Session, table: Table, refs: dict[str, dict[int, Any]]):
    """Yield ``(id, rec)`` for every stored row of ``table`` in archive order; ``refs`` (table -> id -> how a
    reference writes the row) must hold the referenced tables and gets this one's when it is referenced."""
    t = table.model.__table__
    order = [t.c.id] if table.surrogate else list(t.primary_key.columns)
    if session.get_bind().dialect.name == "postgresql":  # text in byte order, as SQLite sorts it
        order = [c.collate("C") if isinstance(c.type, sa.String) else c for c in order]
    children = _children(session, table) if table.name in EXTRA else {}
    columns = table.columns()
    own = refs.setdefault(table.name, {}) if table.key else None
    for row in session.execute(sa.select(t).order_by(*order)).mappings().yield_per(1000):
        rec = {c.name: _json(row[c.name]) for c in columns}
        for ref in table.refs:
            target = row[ref.column]
            rec[ref.field] = None if target is None else refs[ref.table][target]
        if table.name in EXTRA:
            rec[EXTRA[table.name]] = children.get(row["id"], [])
        if own is not None and table.surrogate:
            own[row["id"]] = _ref_value(table, rec)
        yield (row["id"] if table.surrogate else None), rec


@dataclass
class ArchiveExport:
    path: str
    rows: dict[str, int]

    def summary(self) -> str:
        stored = {name: n for name, n in self.rows.items() if name != PAIRING}
        shown = ", ".join(f"{name} {n:,}" for name, n in stored.items() if n)
        return f"{self.path}: wrote {sum(stored.values()):,} rows ({shown or 'an empty study'})"


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def manifest(rows: dict[str, int]) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "tables": [
            {
                "name": table.name,
                "file": table.file,
                "rows": rows[table.name],
                "columns": sorted(expected_fields(table)),
            }
            for table in TABLES
        ],
        "derived": [{"file": PAIRING, "rows": rows[PAIRING], "columns": ["item", "pps"]}],
    }


def pairing_rows(session: Session) -> list[dict]:
    """How agreement and reconcile pair the raters' PPs (``labeling.alignment``), as ``agreement --report
    pairing`` shows it: ``{"item": "ai:1416_1", "pps": {"ann": "ai:1416_1", "bob": "ai:1416_2"}}``. Derived from
    the labels (which the archive holds), written for readers outside ppminer; import does not store it."""
    from labeling.agreement import collect_ratings
    from labeling.rater_agreement import pairing

    return pairing(collect_ratings(session, None, ("symptom",))["symptom"])


def export_archive(store: Store, out: str | Path) -> ArchiveExport:
    """Write the whole study to the zip ``out`` (replaced atomically), one table at a time, streaming."""
    if str(out) == STDOUT:
        raise PPMinerError("an archive is a zip file: give a file name, not -")
    rows: dict[str, int] = {}
    refs: dict[str, dict[int, Any]] = {}
    with store.read() as session, atomic_file(out) as fh, zipfile.ZipFile(fh, "w") as zf:
        for table in TABLES:
            n = 0
            with zf.open(_entry(table.file), "w") as entry:
                for _, rec in stored_rows(session, table, refs):
                    entry.write(line_of(rec))
                    n += 1
            rows[table.name] = n
        paired = pairing_rows(session)
        zf.writestr(_entry(PAIRING), b"".join(line_of(rec) for rec in paired))
        rows[PAIRING] = len(paired)
        zf.writestr(_entry(MANIFEST), json.dumps(manifest(rows), indent=1) + "\n")
    return ArchiveExport(str(out), rows)


# -- reading an archive (no database) ----------------------------------------------------------------------------


def expected_fields(table: Table) -> set[str]:
    return (
        {c.name for c in table.columns()}
        | {r.field for r in table.refs}
        | ({EXTRA[table.name]} if table.name in EXTRA else set())
    )


def _check_value(column: sa.Column, value: Any) -> str | None:
    """Why ``value`` cannot be stored in ``column`` (None: it can)."""
    if value is None:
        return None if column.nullable else "is null"
    kind = column.type
    if isinstance(kind, sa.DateTime):
        try:
            ok = isinstance(value, str) and _time(datetime.fromisoformat(value)) == value
        except ValueError:
            ok = False
        return None if ok else f"{value!r} is not a time written YYYY-MM-DDTHH:MM:SS.ffffff"
    if isinstance(kind, sa.Boolean):
        return None if isinstance(value, bool) else f"{value!r} is not true or false"
    if isinstance(kind, sa.Integer):
        bits = next(b for t, b in INT_BITS.items() if isinstance(kind, t))
        ok = isinstance(value, int) and not isinstance(value, bool) and -(2**bits) <= value < 2**bits
        return None if ok else f"{value!r} is not a {bits + 1}-bit integer"
    if isinstance(kind, sa.Float):
        return (
            None
            if isinstance(value, int | float) and not isinstance(value, bool)
            else f"{value!r} is not a number"
        )
    if isinstance(kind, sa.String):
        if not isinstance(value, str):
            return f"{value!r} is not text"
        if kind.length and len(value) > kind.length:
            return f"is longer than {kind.length} characters"
        return "holds a NUL character" if "\x00" in value else None
    return None  # JSON: any value


def _check_extra(name: str, value: Any) -> bool:
    shapes = {"hits": (str, str, int), "posts": (int, str, int)}[name]
    return isinstance(value, list) and all(
        isinstance(item, list)
        and len(item) == len(shapes)
        and all(isinstance(v, t) and not isinstance(v, bool) for v, t in zip(item, shapes, strict=True))
        for item in value
    )


@dataclass
class Archive:
    source: str
    rows: dict[str, list[tuple[int, dict]]] = field(default_factory=dict)  # table -> (line, rec)


def _plain_default(column: sa.Column) -> Any:
    """A column's constant default (None when it has none, or a computed one)."""
    default = column.default
    return default.arg if default is not None and default.is_scalar else None


def _parse_table(source: str, table: Table, data: bytes) -> list[tuple[int, dict]]:
    where = f"{source}:{table.file}"
    columns = {c.name: c for c in table.columns()}
    expected = expected_fields(table)
    out, seen = [], {}
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, raw in enumerate(lines, start=1):
        try:
            rec = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise PPMinerError(f"{where}:{number}: not a JSON line: {exc}") from None
        if not isinstance(rec, dict):
            raise PPMinerError(f"{where}:{number}: not a JSON object")
        for name in expected - set(rec):  # a column added since the archive was written: empty or its default
            column = columns.get(name)
            if column is not None and (column.nullable or _plain_default(column) is not None):
                rec[name] = None if column.nullable else _plain_default(column)
        missing, unknown = sorted(expected - set(rec)), sorted(set(rec) - expected)
        if missing:
            raise PPMinerError(f"{where}:{number}: missing fields {missing}")
        if unknown:
            raise PPMinerError(f"{where}:{number}: unknown fields {unknown} (an archive of a newer ppminer?)")
        for name, column in columns.items():
            problem = _check_value(column, rec[name])
            if problem:
                raise PPMinerError(f"{where}:{number}: {name} {problem}")
        if table.name in EXTRA and not _check_extra(EXTRA[table.name], rec[EXTRA[table.name]]):
            raise PPMinerError(f"{where}:{number}: malformed {EXTRA[table.name]} list")
        key = key_of(table, rec)
        if key in seen:
            raise PPMinerError(f"{where}:{number}: the same row as line {seen[key]}")
        seen[key] = number
        out.append((number, rec))
    return out


def _check_references(archive: Archive) -> None:
    """Every reference names a row of the archive, and every post a question of it."""
    keys = {t.name: {key_of(t, rec) for _, rec in archive.rows[t.name]} for t in TABLES if t.key}
    posts = keys["questions"]
    for table in TABLES:
        where = f"{archive.source}:{table.file}"
        for number, rec in archive.rows[table.name]:
            for ref in table.refs:
                value = rec[ref.field]
                if value is not None and _frozen(value) not in keys[ref.table]:
                    raise PPMinerError(f"{where}:{number}: {ref.field} {value!r} is not in {ref.table}.jsonl")
            if table.posts and (rec["site"], rec["question_id"]) not in posts:
                post = PostKey(rec["site"], rec["question_id"])
                raise PPMinerError(f"{where}:{number}: post {post} is not in questions.jsonl")


CODED_TABLES = ("pp_labels", "final_labels", "benchmark_cases")


def _check_codes(archive: Archive, codebook) -> None:
    """Labels are codes of the study's codebook (the database stores codes only)."""
    known = {
        dim: {c.code for c in codebook.codes(dim, include_legacy=True)}
        for dim in set(FIELD_DIMENSION.values())
    }
    for name in CODED_TABLES:
        for number, rec in archive.rows[name]:
            for fld, dim in FIELD_DIMENSION.items():
                if rec[fld] is not None and rec[fld] not in known[dim]:
                    raise PPMinerError(
                        f"{archive.source}:{name}.jsonl:{number}: {fld} {rec[fld]!r} is not a {dim} code of "
                        f"the codebook {codebook.path}"
                    )


def read_archive(source: str, codebook=None) -> Archive:
    """Read and validate an archive (a path or http(s) URL) against ``codebook`` (default: the shipped one);
    PPMinerError naming file and line if malformed."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(read_source(source)))
    except zipfile.BadZipFile:
        raise PPMinerError(
            f"{source}: not a zip file (an archive is what `pplabel export --format archive` writes)"
        ) from None
    with zf:
        names = set(zf.namelist())
        if MANIFEST not in names:
            raise PPMinerError(f"{source}: no {MANIFEST}: not a ppminer study archive")
        try:
            head = json.loads(zf.read(MANIFEST))
        except (ValueError, zipfile.BadZipFile) as exc:
            raise PPMinerError(f"{source}:{MANIFEST}: not JSON: {exc}") from None
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise PPMinerError(f"{source}:{MANIFEST}: not a ppminer study archive (format is not {FORMAT!r})")
        version = head.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise PPMinerError(f"{source}:{MANIFEST}: bad version {version!r}")
        if version > VERSION:
            raise PPMinerError(
                f"{source}: archive format version {version} is newer than this ppminer reads ({VERSION}): "
                "upgrade ppminer"
            )
        unknown = sorted(names - {MANIFEST, PAIRING} - {t.file for t in TABLES})
        if unknown:
            raise PPMinerError(f"{source}: unknown files {unknown} (an archive of a newer ppminer?)")
        if PAIRING in names:  # derived: read for well-formedness only
            for number, raw in enumerate(zf.read(PAIRING).splitlines(), start=1):
                try:
                    ok = isinstance(json.loads(raw), dict)
                except ValueError:
                    ok = False
                if not ok:
                    raise PPMinerError(f"{source}:{PAIRING}:{number}: not a JSON object")
        archive = Archive(source)
        for table in TABLES:
            if table.file not in names:
                raise PPMinerError(f"{source}: no {table.file} in the archive")
            try:
                data = zf.read(table.file)
            except (zipfile.BadZipFile, OSError) as exc:  # a damaged entry (CRC) is named too
                raise PPMinerError(f"{source}:{table.file}: cannot read: {exc}") from None
            archive.rows[table.name] = _parse_table(source, table, data)
    _check_references(archive)
    if codebook is None:
        from labeling.codebook import load_codebook

        codebook = load_codebook()
    _check_codes(archive, codebook)
    return archive


# -- writing an archive into a database --------------------------------------------------------------------------


@dataclass
class ArchiveImport:
    source: str
    added: dict[str, int]
    present: int

    def summary(self) -> str:
        added = sum(self.added.values())
        if not added:
            return f"{self.source}: nothing new: the database holds all {self.present:,} rows of the archive"
        shown = ", ".join(f"{name} {n:,}" for name, n in self.added.items() if n)
        return f"{self.source}: imported {added:,} rows ({shown}); {self.present:,} were stored already"


def describe(table: Table, rec: dict) -> str:
    """A row named as the rest of ppminer names it: ``identifications ann/ai:136``, ``final_labels 6512_2``."""
    parts = [str(rec["rater"])] if "rater" in (table.key or ()) else []
    if "question_id" in (table.key or ()):
        pp = f"_{rec['pp_index']}" if "pp_index" in table.key else ""
        parts.append(f"{PostKey(rec['site'], rec['question_id'])}{pp}")
    else:
        parts.extend(json.dumps(rec[k]) for k in table.key or ())
    return f"{table.name} {'/'.join(parts)}"


def _db_values(table: Table, rec: dict, ids: dict[str, dict]) -> dict:
    values = {}
    for column in table.columns():
        value = rec[column.name]
        values[column.name] = (
            datetime.fromisoformat(value) if isinstance(column.type, sa.DateTime) and value else value
        )
    for ref in table.refs:
        value = rec[ref.field]
        values[ref.column] = None if value is None else ids[ref.table][_frozen(value)]
    return values


def _insert(session: Session, table: Table, recs: list[dict], ids: dict[str, dict]) -> None:
    t = table.model.__table__
    if not (
        table.surrogate
        and (table.name in EXTRA or any(r.table == table.name for o in TABLES for r in o.refs))
    ):
        for chunk in chunks([_db_values(table, rec, ids) for rec in recs], 500):
            session.execute(sa.insert(t), chunk)
        return
    for rec in recs:
        new_id = session.execute(sa.insert(t).returning(t.c.id), _db_values(table, rec, ids)).scalar_one()
        ids.setdefault(table.name, {})[key_of(table, rec)] = new_id
        if table.name == "candidates" and rec["hits"]:
            session.execute(
                sa.insert(CandidateHit.__table__),
                [{"candidate_id": new_id, "field": f, "keyword": k, "count": n} for f, k, n in rec["hits"]],
            )
        if table.name == "samples" and rec["posts"]:
            session.execute(
                sa.insert(SamplePost.__table__),
                [
                    {"sample_id": new_id, "position": p, "site": s, "question_id": q}
                    for p, s, q in rec["posts"]
                ],
            )


def _stored_keys(session: Session, table: Table, refs: dict) -> dict:
    """Kept tables: key -> surrogate id (None without one), reading only the key's columns."""
    t = table.model.__table__
    by_field = {r.field: r for r in table.refs}
    cols = [t.c[by_field[k].column] if k in by_field else t.c[k] for k in table.key]
    if table.surrogate:
        cols.append(t.c.id)
    out = {}
    own = refs.setdefault(table.name, {})
    for row in session.execute(sa.select(*cols)):
        rec = {
            k: refs[by_field[k].table][v] if k in by_field else _json(v)
            for k, v in zip(table.key, row, strict=False)
        }
        out[key_of(table, rec)] = row[-1] if table.surrogate else None
        if table.surrogate:
            own[row[-1]] = _ref_value(table, rec)
    return out


def _content(table: Table, rec: dict) -> dict:
    """What a row says, without its times: one decision recorded twice (the same file imported into two
    databases) is the same decision, and the stored row is kept."""
    return {k: v for k, v in rec.items() if k not in _times(table)}


def _times(table: Table) -> set[str]:
    return {c.name for c in table.columns() if isinstance(c.type, sa.DateTime)}


def apply_archive(session: Session, archive: Archive) -> ArchiveImport:
    """Write a validated archive in the caller's transaction; PPMinerError (so the caller rolls back) listing
    the rows that conflict with stored ones."""
    refs: dict[str, dict[int, Any]] = {}  # table -> stored id -> reference value
    ids: dict[str, dict] = {}  # table -> key -> id, for resolving the archive's references
    added, present, conflicts = {}, 0, []
    new_decisions: list[dict] = []
    new_labels: list[dict] = []
    for table in TABLES:
        if table.kept:
            stored = _stored_keys(session, table, refs)
            ids[table.name] = {k: v for k, v in stored.items() if v is not None}
            same = {}
        else:
            same = {key_of(table, rec): (row_id, rec) for row_id, rec in stored_rows(session, table, refs)}
            stored = same
            if table.key and table.surrogate:
                ids[table.name] = {k: row_id for k, (row_id, _) in same.items()}
        new = []
        for _, rec in archive.rows[table.name]:
            key = key_of(table, rec)
            if key not in stored:
                new.append(rec)
                continue
            present += 1
            if key in same and _content(table, same[key][1]) != _content(table, rec):
                conflicts.append(describe(table, rec))
        _insert(session, table, new, ids)
        added[table.name] = len(new)
        if table.name == "identifications":
            new_decisions = new
        elif table.name == "pp_labels":
            new_labels = new
    if conflicts:
        listed = ", ".join(conflicts[:LISTED_CONFLICTS])
        more = f" and {len(conflicts) - LISTED_CONFLICTS} more" if len(conflicts) > LISTED_CONFLICTS else ""
        raise PPMinerError(
            f"{archive.source}: {len(conflicts)} rows differ from the stored ones, nothing imported: {listed}{more}"
        )
    for rec in new_decisions:  # a decision the archive adds may break a final the database made on agreement
        reopen_broken_agreement(session, PostKey(rec["site"], rec["question_id"]), rec["rater"])
    for post in dict.fromkeys(PostKey(rec["site"], rec["question_id"]) for rec in new_labels):  # and a label
        reopen_broken_label_agreements(session, post, "import")
    return ArchiveImport(archive.source, added, present)


def import_archive(store: Store, archive: Archive) -> ArchiveImport:
    """Import a read archive in ONE transaction: all of it, or (on a conflict or any error) nothing."""
    with store.write() as session:
        return apply_archive(session, archive)
