"""Reading stored candidates: the candidate set of a keyword-set version, and the versions there are."""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, selectinload

from core.config import MATCH_FIELDS
from core.errors import PPMinerError
from core.schema.mining import Candidate, KeywordSet, MatchCheck, MatchRun, Question, question_link
from mining.stats import latest_keyword_set_id

CANDIDATE_COLUMNS = ("post_id", "site", "title", "keywords", "fields", "link")  # the table
CANDIDATE_CSV_COLUMNS = (
    "post_id", "title", "link", "keywords", "fields", "hits", "passes_filters", "matching", "keyword_set_id",
    "matched_at", "site",
)  # fmt: skip
VERSION_COLUMNS = (
    "keyword_set_id", "content_hash", "mode", "keywords", "checked", "candidates", "file", "last_match",
)  # fmt: skip


def link_of(question: Question) -> str:
    """The link the source gave, else the canonical one of the question's site (core.schema.mining.question_link)."""
    return question.link or question_link(question.id, question.site)


def short_link(link: str) -> str:
    """A question link without its optional title slug: ``.../questions/123/some-title`` -> ``.../questions/123``."""
    m = _SLUGGED.match(link or "")
    return m.group(1) if m else link


_SLUGGED = re.compile(r"^(https?://[^/\s]+/(?:questions|q)/\d+)(?:/[^\s?#]*)?([?#].*)?$")


def hits_text(hits: list[dict[str, Any]]) -> str:
    """``'effici (title 1, prose 2); gpu util (prose 1)'``: per keyword (in the given order) its count per field."""
    by_keyword: dict[str, list[str]] = {}
    for h in hits:
        by_keyword.setdefault(h["keyword"], []).append(f"{h['field']} {h['count']}")
    return "; ".join(f"{k} ({', '.join(fields)})" for k, fields in by_keyword.items())


def resolve_keyword_set(session: Session, keyword_set_id: int | None = None) -> KeywordSet:
    """The given version, else the one the last match run used; PPMinerError if there is none."""
    set_id = keyword_set_id if keyword_set_id is not None else latest_keyword_set_id(session)
    kset = session.get(KeywordSet, set_id) if set_id is not None else None
    if kset is None:
        if keyword_set_id is not None:
            raise PPMinerError(f"no keyword set {keyword_set_id}; `ppmine candidates --versions` lists them")
        raise PPMinerError("no candidates yet: run `ppmine match` first")
    return kset


def list_candidates(session: Session, keyword_set_id: int | None = None) -> list[dict[str, Any]]:
    """One dict per candidate, by post id: keywords as written in the keyword file (in its order), hits, and
    whether the post passes the study's filters (``passes_filters``: false only for a post a ``--no-filters``
    run matched, as its match check recorded)."""
    kset = resolve_keyword_set(session, keyword_set_id)
    order = {k: i for i, k in enumerate(kset.keywords or [])}
    field_order = {f: i for i, f in enumerate(MATCH_FIELDS)}
    rows = session.execute(
        sa.select(Candidate, Question, MatchCheck.selected)
        .join(Question, sa.and_(Question.site == Candidate.site, Question.id == Candidate.question_id))
        .outerjoin(
            MatchCheck,
            sa.and_(
                MatchCheck.keyword_set_id == kset.id,
                MatchCheck.site == Candidate.site,
                MatchCheck.question_id == Candidate.question_id,
            ),
        )
        .where(Candidate.keyword_set_id == kset.id)
        .order_by(Candidate.site, Candidate.question_id)
        .options(selectinload(Candidate.hits))
    ).all()
    out = []
    for cand, question, selected in rows:
        hits = sorted(
            cand.hits, key=lambda h: (order.get(h.keyword, len(order)), field_order.get(h.field, 99))
        )
        out.append(
            {
                "post_id": int(question.id),
                "site": question.site,
                "title": question.title,
                "link": link_of(question),
                "keywords": list(dict.fromkeys(h.keyword for h in hits)),
                "fields": sorted({h.field for h in hits}, key=lambda f: field_order.get(f, 99)),
                "hits": [{"keyword": h.keyword, "field": h.field, "count": h.count} for h in hits],
                "passes_filters": selected,
                "matching": cand.matching,  # false: kept because someone decided it, no longer matched
                "keyword_set_id": kset.id,
                "matched_at": cand.matched_at.isoformat(timespec="seconds"),
            }
        )
    return out


def list_versions(session: Session) -> list[dict[str, Any]]:
    """Every stored keyword-set version with how many questions it checked, its candidates and last match run."""
    counts = dict(
        session.execute(
            sa.select(Candidate.keyword_set_id, sa.func.count()).group_by(Candidate.keyword_set_id)
        ).all()
    )
    checked = dict(
        session.execute(
            sa.select(MatchCheck.keyword_set_id, sa.func.count()).group_by(MatchCheck.keyword_set_id)
        ).all()
    )
    last_runs = dict(
        session.execute(
            sa.select(MatchRun.keyword_set_id, sa.func.max(MatchRun.started_at)).group_by(
                MatchRun.keyword_set_id
            )
        ).all()
    )
    return [
        {
            "keyword_set_id": k.id,
            "content_hash": k.content_hash[:12],
            "mode": k.stemmer_mode,
            "keywords": len(k.keywords or []),
            "checked": checked.get(k.id, 0),
            "candidates": counts.get(k.id, 0),
            "file": k.name,
            "last_match": last_runs[k.id].isoformat(timespec="seconds") if last_runs.get(k.id) else None,
        }
        for k in session.scalars(sa.select(KeywordSet).order_by(KeywordSet.id))
    ]
