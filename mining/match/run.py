"""`ppmine match`: apply the study's selection, then the keyword set, and store versioned candidates.

Per keyword-set version (content hash + match mode) the database keeps which questions were checked and how they
looked then (``match_checks``), and the candidates with their hits per keyword and field. A run checks only the
selected questions not yet checked against the version, or refreshed since (the question, or, when those fields
are matched, one of its answers or comments); ``rematch_all`` checks every one.
After a run the version's candidates are exactly the matches among the questions the run selected, with the
fields the run used: checks of questions that left the selection are dropped, and a change of fields rematches
everything. A candidate someone has decided or labelled is never dropped: it stays, marked ``matching`` false.
A run without an explicit scope uses the one the version's last run used (see :func:`run_match`). Work is committed in batches, so an interrupted run keeps what it did and the next run resumes.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.config import MATCH_FIELDS, StudyConfig
from core.db import Store
from core.errors import PPMinerError
from core.progress import progress
from core.schema.labeling import FinalIdentification, FinalLabel, Identification, PPLabel
from core.schema.mining import (
    Answer,
    Candidate,
    CandidateHit,
    Comment,
    KeywordSet,
    MatchCheck,
    MatchRun,
    Question,
)
from mining.match.keywords import read_keywords
from mining.match.matcher import Matcher
from mining.match.selection import SelectionSpec, funnel
from mining.match.tokenize import DEFAULT_STEMMER
from mining.stats import candidate_counts, funnel_text
from mining.store import chunks, dialect_insert, utcnow

BATCH = 1000
PG_LOCK_KEY = 7351005  # advisory lock id of match runs


def _serialize(session: Session) -> None:
    """Let one match transaction at a time run on PostgreSQL (SQLite write transactions are serialised already).

    Each batch reads what is still pending only after taking the lock, so two runs at once share the work
    instead of colliding on the same candidates.
    """
    if session.get_bind().dialect.name == "postgresql":
        session.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK_KEY})


@dataclass
class MatchResult:
    """What one match run did."""

    match_run_id: int
    keyword_set_id: int
    content_hash: str
    mode: str
    fields: tuple[str, ...]
    funnel: dict[str, int]
    checked: int = 0
    new_candidates: int = 0
    updated_candidates: int = 0
    removed_candidates: int = 0
    kept_candidates: int = 0  # no longer matching but kept: someone decided them
    seconds: float = 0.0
    filters: bool = True
    rematch_all: bool = False  # every selected question checked again, not only new or changed ones
    scope_change: str | None = None  # said loudly: the scope differs from the last run of this version

    @property
    def candidates(self) -> int:
        return self.funnel.get("candidates", 0)

    def summary(self) -> str:
        f = self.funnel
        scope = (
            f"{f['selected']:,} selected of {f['questions']:,} questions ({funnel_text(f)})"
            if self.filters
            else (f"{f['selected']:,} questions (no filters)")
        )
        return (
            f"match: {scope}; checked {self.checked:,} {'again (all selected)' if self.rematch_all else 'new or changed'}; "
            f"{f.get('candidates', 0):,} candidates ({self.new_candidates:,} new, {self.updated_candidates:,} "
            f"updated, {self.removed_candidates:,} removed)"
            + (
                f", {f.get('kept_not_matching', 0):,} decided ones kept as no longer matching"
                if f.get("kept_not_matching")
                else ""
            )
            + f" for keyword set {self.keyword_set_id} "
            f"[{self.content_hash[:12]} {self.mode}; fields {','.join(self.fields)}]"
        )


def check_fields(fields: Sequence[str]) -> tuple[str, ...]:
    unknown = [f for f in fields if f not in MATCH_FIELDS]
    if unknown or not fields:
        raise PPMinerError(f"unknown match fields {unknown or '(none)'}; choose from {list(MATCH_FIELDS)}")
    return tuple(f for f in MATCH_FIELDS if f in fields)  # canonical order, no repeats


def keyword_set_version(session: Session, matcher: Matcher) -> KeywordSet:
    """The stored version for this keyword set and mode, created on first use."""
    kf = matcher.keyword_file
    key = dict(content_hash=kf.content_hash, stemmer_mode=matcher.mode)
    found = session.scalar(sa.select(KeywordSet).filter_by(**key))
    if found is not None:
        return found
    session.execute(
        dialect_insert(session, KeywordSet.__table__)
        .values(
            **key, name=str(kf.path) if kf.path else None, keywords=list(kf.keywords), created_at=utcnow()
        )
        .on_conflict_do_nothing()
    )
    return session.scalar(sa.select(KeywordSet).filter_by(**key))


def _field_texts(
    session: Session, site: str, rows, fields: tuple[str, ...]
) -> dict[int, dict[str, list[str | None]]]:
    """question id -> field -> the texts matched in it."""
    out: dict[int, dict[str, list[str | None]]] = {}
    for row in rows:
        texts: dict[str, list[str | None]] = {}
        if "title" in fields:
            texts["title"] = [row.title]
        if "prose" in fields:
            texts["prose"] = [row.prose]
        if "code" in fields:
            texts["code"] = list(row.code_blocks or [])
        out[row.id] = texts
    ids = list(out)
    for field, model, text in (("answers", Answer, Answer.prose), ("comments", Comment, Comment.text)):
        owner = model.question_id
        if field not in fields:
            continue
        for texts in out.values():
            texts[field] = []
        for chunk in chunks(ids, 500):
            query = sa.select(owner, text).where(model.site == site, owner.in_(chunk))
            for qid, value in session.execute(query):
                out[qid][field].append(value)
    return out


def _later(a, b):
    """The later of two timestamps in portable SQL (b may be NULL)."""
    return sa.case((b > a, b), else_=a)


def _seen_at(fields: tuple[str, ...]):
    """When the matched text last changed: the question's refresh, or a later one of its answers/comments when
    those fields are matched (a new answer alone then triggers a rematch)."""
    seen = Question.refreshed_at
    for name, model in (("answers", Answer), ("comments", Comment)):
        if name in fields:
            latest = sa.select(sa.func.max(model.refreshed_at)).where(
                model.site == Question.site, model.question_id == Question.id
            )
            seen = _later(seen, latest.scalar_subquery())
    return seen


def _pending(spec: SelectionSpec, set_id: int, fields: tuple[str, ...], rematch_all: bool):
    """SELECT of the questions this run must check, with their stored check if any (callers add paging)."""
    study_filters = replace(spec, apply_filters=True).selected_condition()
    passes = sa.case((study_filters, True), else_=False)  # recorded in match_checks.selected
    seen_at = _seen_at(fields)
    cols = [
        Question.id,
        Question.title,
        Question.prose,
        seen_at.label("seen_at"),
        passes.label("passes"),
        MatchCheck.is_candidate.label("was_candidate"),  # NULL: never checked against this version
        # compared here, so the stored date need not come back (SQLite parses every datetime in Python)
        sa.case(
            (sa.and_(MatchCheck.question_refreshed_at == seen_at, MatchCheck.selected == passes), True),
            else_=False,
        ).label("same_check"),
    ]
    if "code" in fields:
        cols.append(Question.code_blocks)
    stmt = (
        sa.select(*cols)
        .outerjoin(
            MatchCheck,
            sa.and_(
                MatchCheck.keyword_set_id == set_id,
                MatchCheck.site == Question.site,
                MatchCheck.question_id == Question.id,
            ),
        )
        .where(spec.selected_condition())
    )
    if not rematch_all:
        stmt = stmt.where(
            sa.or_(MatchCheck.question_id.is_(None), MatchCheck.question_refreshed_at != seen_at)
        )
    return stmt


# A post with a row in any of these labeling tables is decided.
_DECIDED_TABLES = tuple(m.__table__ for m in (Identification, FinalIdentification, PPLabel, FinalLabel))


def decided_ids():
    """SELECT of the posts someone has decided or labelled: their candidates are never dropped."""
    return sa.union(*(sa.select(table.c.site, table.c.question_id) for table in _DECIDED_TABLES))


def _drop_unselected(session: Session, spec: SelectionSpec, set_id: int) -> tuple[int, int]:
    """Forget checks and candidates of questions outside the selection, except candidates someone decided: those
    are kept, marked as no longer matching. Returns (candidates removed, candidates kept)."""
    cands, checks = Candidate.__table__, MatchCheck.__table__
    outside = sa.and_(
        cands.c.keyword_set_id == set_id,
        sa.tuple_(cands.c.site, cands.c.question_id).not_in(spec.selected_ids()),
    )
    decided = decided_ids()
    kept = session.execute(
        sa.update(cands)
        .where(outside, cands.c.matching.is_(True), sa.tuple_(cands.c.site, cands.c.question_id).in_(decided))
        .values(matching=False)
    ).rowcount
    removed = session.execute(
        sa.delete(cands).where(outside, sa.tuple_(cands.c.site, cands.c.question_id).not_in(decided))
    ).rowcount  # one DELETE statement: its rowcount is exact on every backend
    session.execute(
        sa.delete(checks).where(
            checks.c.keyword_set_id == set_id,
            sa.tuple_(checks.c.site, checks.c.question_id).not_in(spec.selected_ids()),
        )
    )
    return int(removed), int(kept)


def _ids_in(column, ids: Sequence[int]):
    """``column IN (...)`` with the ids written into the SQL: they are integers read from the database, and one
    bind parameter per id (each cast on PostgreSQL) costs more than the statement itself."""
    return column.in_(
        sa.bindparam("ids", [int(i) for i in ids], expanding=True, literal_execute=True, unique=True)
    )


def _store_batch(
    session: Session, set_id: int, site: str, rows, hits_by_q: dict[int, dict], now
) -> tuple[int, int, int, int]:
    """Record the checks and candidates of one batch (questions of one site); returns (new, updated, removed, kept) candidates.

    A candidate that no longer matches is deleted unless someone decided it: then it is kept (``matching`` false,
    its hits as they were), so no decision or label loses its candidate. A kept one that matches again is
    replaced by a fresh, matching candidate.

    ``match_checks.is_candidate`` is written in the same transaction as the candidates (and both go together
    when a question, a keyword set or a check is deleted), so the stored check tells which candidates exist:
    no query for them, and only those are deleted. A check whose text date, selection and outcome are unchanged
    (a ``--all`` run over unchanged posts) only has its ``checked_at`` moved, in one statement.
    """
    matched = [r.id for r in rows if hits_by_q.get(r.id)]
    now_set = set(matched)
    before = {r.id for r in rows if r.was_candidate}
    unchanged, changed = [], []
    for r in rows:
        is_candidate = r.id in now_set
        if r.same_check and r.was_candidate == is_candidate:
            unchanged.append(r.id)
        else:
            changed.append(
                dict(
                    keyword_set_id=set_id,
                    site=site,
                    question_id=r.id,
                    question_refreshed_at=r.seen_at,
                    selected=bool(r.passes),
                    is_candidate=is_candidate,
                    checked_at=now,
                )
            )
    # Core statements on the tables: no ORM bookkeeping for thousands of rows
    checks, cands = MatchCheck.__table__, Candidate.__table__
    if unchanged:
        session.execute(
            sa.update(checks)
            .where(
                checks.c.keyword_set_id == set_id,
                checks.c.site == site,
                _ids_in(checks.c.question_id, unchanged),
            )
            .values(checked_at=now)
        )
    if changed:
        upsert = dialect_insert(session, checks)
        session.execute(
            upsert.on_conflict_do_update(
                index_elements=[checks.c.keyword_set_id, checks.c.site, checks.c.question_id],
                set_={
                    c: upsert.excluded[c]
                    for c in ("question_refreshed_at", "selected", "is_candidate", "checked_at")
                },
            ),
            changed,
        )
    gone = before - now_set
    same = _unchanged_candidates(session, set_id, site, now_set & before, hits_by_q)
    decided = set()
    if gone:
        known = decided_ids().subquery()
        decided = set(
            session.scalars(
                sa.select(known.c.question_id).where(known.c.site == site, _ids_in(known.c.question_id, gone))
            )
        )
        if decided:
            session.execute(
                sa.update(cands)
                .where(
                    cands.c.keyword_set_id == set_id,
                    cands.c.site == site,
                    _ids_in(cands.c.question_id, sorted(decided)),
                )
                .values(matching=False)
            )
    # Replaced: those that match now with other hits than stored (or again: a question matching now may have a
    # kept, non-matching candidate), and those gone and undecided. (Hits go by ON DELETE CASCADE.) A candidate
    # whose hits are as stored is left as it is.
    replace_ids = (now_set - same) | (gone - decided)
    if replace_ids:
        session.execute(
            sa.delete(cands).where(
                cands.c.keyword_set_id == set_id,
                cands.c.site == site,
                _ids_in(cands.c.question_id, sorted(replace_ids)),
            )
        )
    fresh = [qid for qid in matched if qid not in same]
    if fresh:
        created = session.execute(
            sa.insert(cands).returning(cands.c.id, cands.c.question_id, sort_by_parameter_order=True),
            [dict(keyword_set_id=set_id, site=site, question_id=qid, matched_at=now) for qid in fresh],
        ).all()
        session.execute(
            sa.insert(CandidateHit.__table__),
            [
                dict(candidate_id=cid, keyword=kw, field=fld, count=n)
                for cid, qid in created
                for (kw, fld), n in hits_by_q[qid].items()
            ],
        )
    return len(now_set - before), len((now_set & before) - same), len(gone - decided), len(decided)


def _unchanged_candidates(
    session: Session, set_id: int, site: str, ids: set[int], hits_by_q: dict[int, dict]
) -> set[int]:
    """Of the questions (``ids``) that were and still are candidates, those whose stored, matching candidate has
    exactly the hits found now: their match result did not change, so they are neither rewritten nor counted as
    updated. One query reads the stored hits of the whole batch."""
    if not ids:
        return set()
    cands, hits = Candidate.__table__, CandidateHit.__table__
    stored: dict[int, dict] = {qid: {} for qid in ids}
    rows = session.execute(
        sa.select(cands.c.question_id, cands.c.matching, hits.c.keyword, hits.c.field, hits.c.count)
        .join(hits, hits.c.candidate_id == cands.c.id, isouter=True)
        .where(
            cands.c.keyword_set_id == set_id, cands.c.site == site, _ids_in(cands.c.question_id, sorted(ids))
        )
    )
    seen, stale = set(), set()
    for qid, matching, keyword, field, count in rows:
        seen.add(qid)
        if not matching:
            stale.add(qid)
        elif keyword is not None:
            stored[qid][(keyword, field)] = count
    return {qid for qid in ids if qid in seen and qid not in stale and stored[qid] == dict(hits_by_q[qid])}


@dataclass(frozen=True)
class Scope:
    """What a match run of a keyword-set version looks at: the study's filters (on/off) and the matched fields."""

    filters: bool
    fields: tuple[str, ...]

    def describe(self) -> str:
        return f"filters {'on' if self.filters else 'off (--no-filters)'}, fields {','.join(self.fields)}"


def last_scope(session: Session, set_id: int) -> Scope | None:
    """The scope the last match run of this keyword-set version used (None before its first run)."""
    last = session.scalar(
        sa.select(MatchRun).where(MatchRun.keyword_set_id == set_id).order_by(MatchRun.id.desc()).limit(1)
    )
    if last is None:
        return None
    selection = last.selection or {}
    return Scope(bool(selection.get("apply_filters", True)), tuple(selection.get("fields") or ()))


def run_match(
    store: Store,
    config: StudyConfig,
    *,
    rematch_all: bool = False,
    apply_filters: bool | None = None,
    keywords_file: str | Path | None = None,
    fields: Sequence[str] | None = None,
    add_fields: Sequence[str] = (),
    show_progress: bool = False,
    stemmer: str = DEFAULT_STEMMER,
    keyword_reading: str = "stem",
) -> MatchResult:
    """Match the selected questions against the keyword set; see the module docstring.

    Scope memory: ``apply_filters`` and ``fields`` left as None take what the last run of this keyword-set
    version used (the config's on the first run), so a plain run (the nightly ``ppmine run``) never narrows a
    match someone widened; ``add_fields`` adds to those. A run whose scope differs from the last one says so in
    :attr:`MatchResult.scope_change`.
    """
    started, t0 = utcnow(), time.perf_counter()
    keywords = read_keywords(keywords_file or config.keywords_file)
    matcher = Matcher(keywords, stemmer, keyword_reading)
    if fields is not None:
        fields = check_fields([*fields, *add_fields])
    elif add_fields:
        check_fields(add_fields)

    with store.write() as session:
        _serialize(session)
        kset = keyword_set_version(session, matcher)
        set_id = kset.id
        last = last_scope(session, set_id)
        filters = apply_filters if apply_filters is not None else (last.filters if last else True)
        if fields is None:
            base = last.fields if last and last.fields else tuple(config.match_fields)
            fields = check_fields([*base, *add_fields])
        scope = Scope(filters, fields)
        scope_change = None
        if last is not None and last != scope:
            scope_change = (
                f"keyword set {set_id}: the match scope changes from [{last.describe()}] to [{scope.describe()}]"
                "; candidates someone decided are kept"
            )
        if last is not None and last.fields != fields:
            rematch_all = True  # hits were counted over other fields
        spec = SelectionSpec.from_config(config, filters)
        selection = {**spec.as_dict(), "fields": list(fields), "keywords_file": str(keywords.path)}
        selection["rematch_all"] = rematch_all
        removed, kept = _drop_unselected(session, spec, set_id)
        counts = funnel(session, spec)
        run = MatchRun(keyword_set_id=set_id, selection=selection, funnel=counts, started_at=started)
        session.add(run)
        session.flush()
        run_id = run.id
        total = None  # counted only for a progress bar: the count is a query over every selected question
        if show_progress and sys.stderr.isatty():
            pending = _pending(spec, set_id, fields, rematch_all).subquery()
            total = int(session.scalar(sa.select(sa.func.count()).select_from(pending)) or 0)

    result = MatchResult(
        run_id,
        set_id,
        keywords.content_hash,
        matcher.mode,
        fields,
        counts,
        removed_candidates=removed,
        kept_candidates=kept,
        filters=filters,
        rematch_all=rematch_all,
        scope_change=scope_change,
    )
    with store.read() as session:
        sites = session.scalars(sa.select(Question.site).distinct().order_by(Question.site)).all()
    with progress("matching", total, enabled=show_progress) as bar:
        for site in sites:  # one site at a time: within it, a question is its id
            after = -(2**63)
            while True:
                with store.write() as session:
                    _serialize(session)
                    rows = session.execute(
                        _pending(spec, set_id, fields, rematch_all)
                        .where(Question.site == site, Question.id > after)
                        .order_by(Question.id)
                        .limit(BATCH)
                    ).all()
                    if not rows:
                        break
                    texts = _field_texts(session, site, rows, fields)
                    hits = {qid: matcher.count_fields(t) for qid, t in texts.items()}
                    new, updated, gone, kept = _store_batch(session, set_id, site, rows, hits, utcnow())
                result.checked += len(rows)
                result.new_candidates += new
                result.updated_candidates += updated
                result.removed_candidates += gone
                result.kept_candidates += kept
                after = rows[-1].id
                bar.advance(len(rows))

    with store.write() as session:
        _serialize(session)
        counts["candidates"], kept_total = candidate_counts(session, set_id)
        if kept_total:  # only then: the funnel of a study without any keeps its shape
            counts["kept_not_matching"] = kept_total
        run = session.get(MatchRun, run_id)
        run.funnel = dict(counts)
        run.finished_at = utcnow()
    result.funnel = counts
    result.seconds = time.perf_counter() - t0
    return result
