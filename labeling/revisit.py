"""What `pplabel identify` looks up to go back to a post: the rater's own decisions (``h``) and a search of the
rater's candidates by text or matched keyword (``/``). Only this rater's rows are read: raters stay blind."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from core.db import Store
from core.schema.labeling import Identification
from core.schema.mining import Candidate, CandidateHit, KeywordSet, Question
from core.sites import PostKey
from mining.match.matcher import keyword_matcher

SEARCH_LIMIT = 200  # rows a search shows (the count says how many matched)


@dataclass(frozen=True)
class OwnDecision:
    post: PostKey
    is_pp: bool
    decided_at: datetime
    note: str | None
    title: str | None = None  # None: only the post's id is stored (a published file's stub)


def own_decisions(store: Store, rater_id: int | None) -> list[OwnDecision]:
    """This rater's decisions, newest first."""
    if rater_id is None:
        return []
    with store.read() as s:
        rows = s.execute(
            sa.select(
                Identification.site,
                Identification.question_id,
                Identification.is_pp,
                Identification.decided_at,
                Identification.note,
                Question.title,
            )
            .outerjoin(
                Question, (Question.site == Identification.site) & (Question.id == Identification.question_id)
            )
            .where(Identification.rater_id == rater_id)
            .order_by(Identification.decided_at.desc(), Identification.id.desc())
        ).all()
    return [
        OwnDecision(PostKey(site, qid), bool(pp), at, note, title or None)
        for site, qid, pp, at, note, title in rows
    ]


@dataclass(frozen=True)
class Found:
    post: PostKey
    title: str
    decided: bool


@dataclass(frozen=True)
class SearchResult:
    found: list[Found]  # at most SEARCH_LIMIT, undecided first
    matched: int  # how many posts of the scope matched in all


def _keywords_named_by(session, keyword_set_id: int, query: str) -> list[str]:
    """The keywords the version's candidates matched that ``query`` names: the keyword contains it as typed
    (``slowli``, ``memori``), or the keyword matches the query's words as it matches a post (``slowly``, ``memory
    leaks``)."""
    mode = session.scalar(sa.select(KeywordSet.stemmer_mode).where(KeywordSet.id == keyword_set_id)) or ""
    hit = session.scalars(
        sa.select(CandidateHit.keyword)
        .join(Candidate, Candidate.id == CandidateHit.candidate_id)
        .where(Candidate.keyword_set_id == keyword_set_id)
        .distinct()
    ).all()
    folded = query.casefold()
    matched = {h.keyword for h in keyword_matcher(tuple(hit), mode).hits(query)} if hit else set()
    return [k for k in hit if folded in k.casefold() or k in matched]


def search_candidates(
    store: Store,
    keyword_set_id: int,
    scope: frozenset[PostKey],
    pending: list[PostKey],
    query: str,
    limit: int = SEARCH_LIMIT,
) -> SearchResult:
    """Posts of ``scope`` (the rater's identify scope) whose title, text or code contains ``query`` (any case; on
    SQLite only ASCII letters fold), or that matched a keyword the query names. Undecided posts (``pending``, in
    queue order) come first, then the decided ones by post."""
    text = query.strip()
    if not text:
        return SearchResult([], 0)
    escaped = text.casefold().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    pattern = f"%{escaped}%"
    with store.read() as s:
        keywords = _keywords_named_by(s, keyword_set_id, text)
        by_keyword = (
            sa.select(CandidateHit.candidate_id).where(CandidateHit.keyword.in_(keywords))
            if keywords
            else None
        )
        matches = [
            sa.func.lower(Question.title).like(pattern, escape="\\"),
            sa.func.lower(Question.prose).like(pattern, escape="\\"),
            sa.func.lower(sa.cast(Question.code_blocks, sa.Text)).like(pattern, escape="\\"),
        ]
        if by_keyword is not None:
            matches.append(Candidate.id.in_(by_keyword))
        rows = s.execute(
            sa.select(Question.site, Question.id, Question.title)
            .join(Candidate, sa.and_(Candidate.site == Question.site, Candidate.question_id == Question.id))
            .where(Candidate.keyword_set_id == keyword_set_id, sa.or_(*matches))
        ).all()
    titles = {PostKey(site, qid): title or "" for site, qid, title in rows if PostKey(site, qid) in scope}
    position = {q: i for i, q in enumerate(pending) if q in titles}
    ordered = sorted(titles, key=lambda q: (q not in position, position.get(q, 0), q))
    found = [Found(q, titles[q], q not in position) for q in ordered[:limit]]
    return SearchResult(found, len(titles))
