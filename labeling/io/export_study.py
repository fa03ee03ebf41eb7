"""`pplabel export`: write the study database in the three published CSV shapes (see ``labeling.io.published``).

Codes are written in the published spellings (final vocabulary for ``study``, the older rater vocabulary for
``labels``), so ``pplabel import`` reads the files back unchanged. A PP id is the bare post id when the post has
a single PP numbered 1, else ``<post>_<pp>``. The file is written to a temporary name and renamed at the end, so
a failed export never leaves half a file.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.db import Store
from core.errors import PPMinerError
from core.schema.labeling import FinalIdentification, FinalLabel, Identification, PPLabel, Rater, rater_key
from core.schema.mining import Question, question_link
from core.sites import PostKey
from labeling.alignment import align_pps
from labeling.io.output import write_output
from labeling.io.published import (
    FORMATS,
    ID_COLUMN,
    LABEL_COLUMNS,
    LABELS_HEADER,
    MERGE_COLUMN,
    RATER_PREFIX,
    STUDY_COLUMNS,
    STUDY_COMMENT_FIELD,
    STUDY_LABEL_FIELDS,
    spell,
)

ALIGNED_FIELDS = ("symptom1", "symptom2", "root_cause", "introducing_stage", "exposing_stage", "part")


@dataclass
class ExportResult:
    fmt: str
    path: str
    rows: int
    raters: list[str] = field(default_factory=list)
    dropped: dict[str, int] = field(default_factory=dict)  # field -> values the shape cannot hold

    def summary(self) -> str:
        raters = f" ({', '.join(self.raters)})" if self.raters else ""
        return f"{self.path}: wrote {self.rows} rows{raters}"

    def warnings(self) -> list[str]:
        return [
            f"the {self.fmt!r} shape has no column for {fld}: {n} values not written "
            "(--format archive keeps them)"
            for fld, n in sorted(self.dropped.items())
        ]


def _pp_ids(keys: list[tuple[int, int]], spelled: dict[tuple[int, int], str] | None = None) -> dict:
    """The id written for each PP: as an imported file spelled it, else the post id for a post's only PP and
    ``<post>_<pp>`` otherwise (the published files use both forms for a single PP)."""
    spelled = spelled or {}
    per_post = Counter(post for post, _ in keys)
    return {
        (post, index): spelled.get((post, index))
        or (str(post) if per_post[post] == 1 and index == 1 else f"{post}_{index}")
        for post, index in keys
    }


def iso_millis(value: datetime | None) -> str:
    """A time as the published files write it: `2019-03-05T10:11:12.345Z` (empty for none)."""
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z" if value else ""


def study_rows(session: Session) -> tuple[list[str], list[list[str]], dict[str, int]]:
    rows = session.execute(
        sa.select(FinalLabel, Question.title, Question.link, Question.creation_date).join(
            Question, sa.and_(Question.site == FinalLabel.site, Question.id == FinalLabel.question_id)
        )
    ).all()
    # Newest post first, as the published file is ordered.
    rows.sort(key=lambda r: (r[3] or datetime.min, r[0].key, -r[0].pp_index), reverse=True)
    keys = [(r[0].key, r[0].pp_index) for r in rows]
    ids = _pp_ids(keys, {k: r[0].published_id for k, r in zip(keys, rows, strict=True) if r[0].published_id})
    dropped = Counter()
    out = []
    for label, title, link, created in rows:
        if label.note:
            dropped["note"] += 1
        cells = {
            "id": ids[(label.key, label.pp_index)],
            "creation_date": iso_millis(created),
            "title": title or "",
            "url": link or question_link(label.question_id, label.site),
            "comment": getattr(label, STUDY_COMMENT_FIELD) or "",
        }
        as_written = label.spellings or {}  # an imported file's own spelling of a label, kept beside the code
        for column, (fld, dim) in STUDY_LABEL_FIELDS.items():
            cells[column] = as_written.get(fld) or spell(getattr(label, fld), dim)
        out.append([cells[c] for c in STUDY_COLUMNS])
    return list(STUDY_COLUMNS), out, dict(dropped)


def _raters_named(session: Session, names: list[str]) -> list[Rater]:
    keys = [rater_key(n) for n in names]  # "Ann " names rater ann
    found = {r.name_key: r for r in session.scalars(sa.select(Rater).where(Rater.name_key.in_(keys)))}
    missing = [n for n, k in zip(names, keys, strict=True) if k not in found]
    if missing:
        known = session.scalars(sa.select(Rater.name).order_by(Rater.id)).all()
        raise PPMinerError(f"no rater named {missing}; raters: {list(known)}")
    return [found[k] for k in keys]


def _chosen_raters(session: Session, raters: list[str] | None, rated_by) -> list[Rater]:
    """The named raters, else every rater with a row in the table ``rated_by`` belongs to, in id order."""
    if raters:
        return _raters_named(session, raters)
    return list(session.scalars(sa.select(Rater).where(Rater.id.in_(sa.select(rated_by))).order_by(Rater.id)))


def identification_rows(
    session: Session, raters: list[str] | None
) -> tuple[list[str], list[list[str]], dict[str, int]]:
    """The published kappa_identification.csv shape; the raters' notes have no column there (counted as dropped,
    so the file stays byte for byte the published one)."""
    chosen = _chosen_raters(session, raters, Identification.rater_id)
    rows = session.scalars(
        sa.select(Identification).where(Identification.rater_id.in_([r.id for r in chosen]))
    ).all()
    decisions = {(row.rater_id, row.key): row.is_pp for row in rows}
    notes = sum(1 for row in rows if row.note)
    finals = {row.key: row.is_pp for row in session.scalars(sa.select(FinalIdentification))}
    # A post only the study file's final labels brought (no rater decided it) is not an identification row:
    # exporting identifications after importing the study file adds no row.
    decided = {
        PostKey(*r) for r in session.execute(sa.select(Identification.site, Identification.question_id))
    }
    labelled = {PostKey(*r) for r in session.execute(sa.select(FinalLabel.site, FinalLabel.question_id))}
    finals = {q: v for q, v in finals.items() if q in decided or q not in labelled}
    posts = sorted({qid for _, qid in decisions} | set(finals))
    header = [ID_COLUMN, *(f"{RATER_PREFIX}{r.name}" for r in chosen)] + ([MERGE_COLUMN] if finals else [])

    def cell(value: bool | None) -> str:
        return "" if value is None else str(int(value))

    out = []
    for qid in posts:
        row = [str(qid), *(cell(decisions.get((r.id, qid))) for r in chosen)]
        if finals:
            row.append(cell(finals.get(qid)))
        out.append(row)
    return header, out, {"note": notes} if notes else {}


def _label_values(label: PPLabel) -> dict:
    """What ``labeling.alignment`` pairs PPs by."""
    return {f: getattr(label, f) for f in ALIGNED_FIELDS}


def _slot_ids(slots: list[dict[str, int]], first: str) -> list[int]:
    """Each slot's PP number: the first rater's (agreement's item ids follow it), else the other rater's, else
    (taken) the next free one."""
    numbers = [slot.get(first) for slot in slots]
    taken = {n for n in numbers if n}
    for n, slot in enumerate(slots):
        if numbers[n] is None:
            other = next(iter(slot.values()))
            numbers[n] = other if other not in taken else max(taken) + 1
            taken.add(numbers[n])
    return numbers


def label_rows(
    session: Session, raters: list[str] | None
) -> tuple[list[str], list[list[str]], list[str], dict]:
    """The published kappa_label.csv shape. A row holds the two raters' PPs that ``labeling.alignment.align_pps``
    pairs (as agreement and reconcile do), not their PPs of the same number."""
    chosen = _chosen_raters(session, raters, PPLabel.rater_id)
    if len(chosen) != 2:
        raise PPMinerError(
            f"the 'labels' shape holds exactly two raters, found {[r.name for r in chosen]}: pass --raters A,B"
        )
    by_post: dict[PostKey, dict[str, dict[int, PPLabel]]] = {}
    names = {r.id: r.name for r in chosen}
    for lab in session.scalars(sa.select(PPLabel).where(PPLabel.rater_id.in_(list(names)))):
        by_post.setdefault(lab.key, {}).setdefault(names[lab.rater_id], {})[lab.pp_index] = lab
    rows: list[tuple[tuple[PostKey, int], dict[str, PPLabel]]] = []
    for post, pps in by_post.items():
        slots = align_pps({r: {i: _label_values(lab) for i, lab in own.items()} for r, own in pps.items()})
        for number, slot in zip(_slot_ids(slots, chosen[0].name), slots, strict=True):
            rows.append(((post, number), {r: pps[r][i] for r, i in slot.items()}))
    rows.sort(key=lambda row: (row[0][0].site, -row[0][0].id, row[0][1]))
    spelled = {}
    for key, labs in rows:
        for rater in chosen:  # an imported row's own id, the first rater's first
            lab = labs.get(rater.name)
            if lab is not None and lab.published_id and lab.pp_index == key[1]:
                spelled.setdefault(key, lab.published_id)
    ids = _pp_ids([key for key, _ in rows], spelled)
    dropped = Counter()
    out = []
    for key, labs in rows:
        cells = {}
        for rater, columns in zip(chosen, LABEL_COLUMNS, strict=True):
            lab = labs.get(rater.name)
            if lab is None:
                continue
            for extra in ("symptom2", "part", "note"):
                if getattr(lab, extra):
                    dropped[extra] += 1
            as_written = lab.spellings or {}
            for col, (fld, dim) in columns.items():
                cells[col] = as_written.get(fld) or spell(getattr(lab, fld), dim, legacy=True)
        out.append([ids[key], *(cells.get(col, "") for col in LABELS_HEADER[1:])])
    return list(LABELS_HEADER), out, [r.name for r in chosen], dict(dropped)


def write_csv(path: str | Path, header: list[str], rows: list[list[str]], bom: bool = False) -> None:
    """Write a CSV (CRLF rows) to ``path`` or, for ``-``, to standard output (``labeling.io.output``)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    write_output(path, buffer.getvalue().encode("utf-8-sig" if bom else "utf-8"))


NOTHING_STORED = {
    "study": "no final labels",
    "identification": "no decisions",
    "labels": "no labels",
    "benchmark": "no benchmark cases",
}


def refuse_empty(fmt: str, rows: list) -> None:
    """A header alone is a file ``pplabel import`` refuses, so it is never written."""
    if not rows:
        raise PPMinerError(f"nothing to export: {NOTHING_STORED[fmt]} stored (no file written)")


def export_file(store: Store, fmt: str, out: str | Path, raters: list[str] | None = None) -> ExportResult:
    """Write one published shape from the database to ``out``."""
    if fmt not in FORMATS:
        raise PPMinerError(f"unknown export format {fmt!r}; choose from {list(FORMATS)}")
    with store.read() as session:
        if fmt == "study":
            if raters:
                raise PPMinerError("--raters does not apply to the 'study' shape (it holds final labels)")
            header, rows, dropped = study_rows(session)
            names = []
        elif fmt == "identification":
            header, rows, dropped = identification_rows(session, raters)
            names = [h[len(RATER_PREFIX) :] for h in header if h.startswith(RATER_PREFIX)]
        else:
            header, rows, names, dropped = label_rows(session, raters)
    refuse_empty(fmt, rows)
    write_csv(out, header, rows, bom=fmt == "study")
    return ExportResult(fmt, str(out), len(rows), names, dropped)
