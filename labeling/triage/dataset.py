"""Labelled records for a screening: from a CSV in ASReview's shape or from the study database's final decisions.

A CSV needs ``title``, ``abstract`` (or ``body``) and ``label_included`` (0 or 1) columns, with an optional
``record_id``; other columns are ignored, so a dataset exported from ASReview LAB reads as it is. Records keep
their fields apart (title, prose, code, tags, keywords), so features can be plain text or field-aware.
"""

from __future__ import annotations

import csv
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from core.db import redact
from core.errors import PPMinerError
from core.schema.mining import tags_from_text

FIELDS = ("title", "prose", "code", "tags", "keywords")
TEXT_COLUMNS = ("abstract", "body")
LABEL_COLUMN = "label_included"

# Markdown code: fenced blocks and indented lines (a CSV's abstract may be a GitHub or Stack Overflow body).
_FENCED = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
_INDENTED = re.compile(r"(?:^(?: {4}|\t)[^\n]*\n?)+", re.M)


@dataclass
class Dataset:
    """``N`` records: ids, labels (1 included / relevant, 0 not) and per-field texts."""

    name: str
    record_ids: list
    labels: np.ndarray
    fields: dict[str, list[str]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.record_ids)

    @property
    def positives(self) -> int:
        return int(self.labels.sum())


def split_markdown(text: str) -> tuple[str, str]:
    """A markdown body -> (prose, code): fenced and indented blocks are code."""
    code: list[str] = []

    def take(match: re.Match) -> str:
        code.append(match.group(0))
        return "\n"

    prose = _INDENTED.sub(take, _FENCED.sub(take, text))
    return prose, "\n".join(code)


def _label(value: str, where: str) -> int:
    text = value.strip()
    if text in ("0", "1"):
        return int(text)
    if text in ("0.0", "1.0"):
        return int(float(text))
    shown = text if len(text) <= 20 else text[:20] + "…"
    raise PPMinerError(f"{where}: {LABEL_COLUMN} must be 0 or 1, not {shown!r}")


def read_csv(path: str | Path) -> Dataset:
    """Read a labelled CSV; every problem is one message naming the file and line."""
    path = Path(path)
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    try:
        handle = path.open(encoding="utf-8-sig", newline="")
    except FileNotFoundError:
        raise PPMinerError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise PPMinerError(f"{path}: is a directory, not a CSV file") from None
    with handle:
        reader = csv.DictReader(handle)
        try:
            header = [h.strip().lower() for h in (reader.fieldnames or [])]
        except UnicodeDecodeError as exc:
            raise PPMinerError(f"{path}:1: not UTF-8 ({exc.reason} at byte {exc.start})") from None
        if not header:
            raise PPMinerError(f"{path}: empty dataset (no header, no records)")
        reader.fieldnames = header
        if LABEL_COLUMN not in header:
            raise PPMinerError(f"{path}:1: no {LABEL_COLUMN} column (header: {', '.join(header)})")
        if "title" not in header and not any(c in header for c in TEXT_COLUMNS):
            raise PPMinerError(f"{path}:1: no title, abstract or body column")
        text_col = next((c for c in TEXT_COLUMNS if c in header), None)
        ids: list = []
        labels: list[int] = []
        titles: list[str] = []
        bodies: list[str] = []
        seen: set = set()
        try:
            for row in reader:
                line = reader.line_num
                if None in row:
                    raise PPMinerError(f"{path}:{line}: more cells than header columns")
                if all(not (v or "").strip() for v in row.values()):
                    continue
                labels.append(_label(row.get(LABEL_COLUMN) or "", f"{path}:{line}"))
                rid = (row.get("record_id") or "").strip() if "record_id" in header else str(len(ids))
                if not rid:
                    raise PPMinerError(f"{path}:{line}: empty record_id")
                if rid in seen:
                    raise PPMinerError(f"{path}:{line}: record_id {rid!r} appears twice")
                seen.add(rid)
                ids.append(int(rid) if rid.isdigit() else rid)
                titles.append(row.get("title") or "")
                bodies.append((row.get(text_col) or "") if text_col else "")
        except UnicodeDecodeError as exc:
            raise PPMinerError(f"{path}:{reader.line_num + 1}: not UTF-8 ({exc.reason})") from None
        except csv.Error as exc:
            raise PPMinerError(f"{path}:{reader.line_num}: malformed CSV ({exc})") from None
    if not ids:
        raise PPMinerError(f"{path}: empty dataset (a header but no records)")
    prose, code = zip(*(split_markdown(b) for b in bodies), strict=True)
    return Dataset(
        path.stem, ids, np.array(labels, dtype=np.int8),
        {"title": titles, "prose": list(prose), "code": list(code)},
    )  # fmt: skip


def from_database(store) -> Dataset:
    """The study database's posts with a final identification, labelled by it (1 = a PP post)."""
    import sqlalchemy as sa

    from core.schema.labeling import FinalIdentification

    with store.read() as s:
        finals = [
            (row.key, row.is_pp)
            for row in s.scalars(
                sa.select(FinalIdentification).order_by(
                    FinalIdentification.site, FinalIdentification.question_id
                )
            )
        ]
        if not finals:
            raise PPMinerError(
                f"{redact(store.url)}: no final identifications yet (reconcile first: `pplabel reconcile`)"
            )
        texts = post_texts(s, [q for q, _ in finals])
    ids = [q for q, _ in finals]
    labels = np.array([1 if pp else 0 for _, pp in finals], dtype=np.int8)
    return Dataset("study", ids, labels, {f: [texts[q][f] for q in ids] for f in FIELDS})


def post_texts(session, question_ids, chunk: int = 500) -> dict:
    """Fields of stored posts (PostKeys, or bare Stack Overflow ids): title, question prose, code blocks, tags and
    the keywords they matched; keyed as given."""

    from core.sites import as_post
    from mining.stats import latest_keyword_set_id

    set_id = latest_keyword_set_id(session)
    out: dict = {}
    given = list(question_ids)
    keys = {as_post(q): q for q in given}
    by_site: dict[str, list[int]] = {}
    for post in keys:
        by_site.setdefault(post.site, []).append(post.id)
    for site, ids in by_site.items():
        for start in range(0, len(ids), chunk):
            _site_texts(session, site, ids[start : start + chunk], set_id, keys, out)
    for qid in given:
        out.setdefault(qid, dict.fromkeys(FIELDS, ""))
    return out


def _site_texts(session, site: str, part: list[int], set_id, keys: dict, out: dict) -> None:
    import sqlalchemy as sa

    from core.schema.mining import Candidate, CandidateHit, Question
    from core.sites import PostKey

    rows = session.execute(
        sa.select(Question.id, Question.title, Question.prose, Question.code_blocks, Question.tags).where(
            Question.site == site, Question.id.in_(part)
        )
    )
    for qid, title, prose, code, tags in rows:
        out[keys[PostKey(site, qid)]] = {
            "title": title or "",
            "prose": prose or "",
            "code": "\n".join(code or []),
            "tags": " ".join(tags_from_text(tags)),
            "keywords": "",
        }
    if set_id is not None:
        hits = session.execute(
            sa.select(Candidate.question_id, CandidateHit.keyword)
            .join(CandidateHit, CandidateHit.candidate_id == Candidate.id)
            .where(
                Candidate.keyword_set_id == set_id, Candidate.site == site, Candidate.question_id.in_(part)
            )
        )
        for qid, keyword in hits:
            key = keys[PostKey(site, qid)]
            if key in out:
                out[key]["keywords"] += f" kw_{keyword.replace(' ', '_')}"
