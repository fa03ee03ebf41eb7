"""What a rater sees next: a seeded order of posts, only this rater's own decisions, progress counts.

The order of a post is a hash of (seed, post id), so it does not depend on which other posts exist: adding
candidates later never reshuffles the ones already there, and ``--sample N`` (the first N in that order) is the
same sample for every rater using the same seed on the same candidates (candidates added later can enter it).
A queue reads only the rater's own rows (and, for classify, the reconciled decisions): sessions are blind.

Skipping moves a post to the end of this session's queue; it comes back next session. In identify, undo pops this
session's last action; with none left it takes back the rater's latest stored decision, so it works after a
restart too. Identify can also *visit* a post out of turn (from the history, a post id or a search): it is shown
until the rater decides it (again) or skips it, then the queue goes on where it was; undoing a changed decision
puts the previous one back. Classify keeps its finer undo (per field) in the app and uses :meth:`ClassifyQueue.undo_navigation`.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.db import Store
from core.errors import PPMinerError
from core.schema.labeling import FinalIdentification, Identification, PPLabel, Rater, rater_display
from core.schema.mining import Candidate
from core.sites import PostKey, as_post
from labeling.reconcile import reopen_broken_label_agreements
from labeling.records import (
    clean_note,
    delete_identification,
    find_rater,
    get_or_create_rater,
    identification,
    set_identification,
    set_identification_note,
)
from labeling.vocabulary import REQUIRED_LABEL_FIELDS, label_is_complete
from mining.stats import latest_keyword_set_id

REQUIRED_LABELS = REQUIRED_LABEL_FIELDS  # the name the classify screen uses


def _id_of(rater: Rater | None) -> int:
    """The rater's id for a filter; -1 (no row has it) for a rater not yet stored."""
    return rater.id if rater is not None else -1


def order_key(seed: int, post: PostKey | int) -> bytes:
    """The sort key that places a post in the seeded order: a hash of the seed and the post as written
    (``65160023``, ``ai:136``), so Stack Overflow posts keep the places they had before posts had sites."""
    return hashlib.blake2b(f"{seed}:{as_post(post)}".encode(), digest_size=8).digest()


def seeded_order(posts, seed: int, sample: int | None = None) -> list[PostKey]:
    ordered = sorted({as_post(p) for p in posts}, key=lambda q: order_key(seed, q))
    return ordered if sample is None else ordered[:sample]


def open_rater(store: Store, name: str) -> Rater | None:
    """The stored rater called ``name`` (trimmed, case-folded), or None: opening a session registers nobody; a
    rater is created with their first decision (:meth:`_SessionQueue.writing`)."""
    if not name or not name.strip():
        raise PPMinerError("--rater: a rater needs a non-empty name")
    with store.read() as s:
        return find_rater(s, name)


def identify_scope(
    session: Session, set_id: int, rater_id: int, seed: int = 0, sample: int | None = None
) -> list[PostKey]:
    """The posts a rater's identify queue walks, in seeded order: the version's matching candidates, plus the
    candidates kept as no longer matching that this rater decided (so done counts what they did)."""
    decided = sa.select(Identification.site, Identification.question_id).where(
        Identification.rater_id == rater_id
    )
    ids = session.execute(
        sa.select(Candidate.site, Candidate.question_id).where(
            Candidate.keyword_set_id == set_id,
            sa.or_(
                Candidate.matching.is_(True), sa.tuple_(Candidate.site, Candidate.question_id).in_(decided)
            ),
        )
    ).all()
    return seeded_order(map(PostKey._make, ids), seed, sample)


@dataclass(frozen=True)
class Progress:
    done: int
    remaining: int

    @property
    def total(self) -> int:
        return self.done + self.remaining


class _SessionQueue:
    """A deque of pending post ids with a session undo stack of (kind, post id)."""

    def __init__(
        self, store: Store, rater: Rater | None, name: str, pending: list[PostKey], done: int
    ) -> None:
        self.store, self.rater, self._name = store, rater, rater_display(name)
        self._pending: deque[PostKey] = deque(pending)
        self._done = done
        self._actions: list[tuple[str, PostKey]] = []

    @property
    def rater_name(self) -> str:
        """The rater's name as first written (as typed now if they have not decided anything yet)."""
        return self.rater.name if self.rater is not None else self._name

    @property
    def rater_id(self) -> int | None:
        return self.rater.id if self.rater is not None else None

    @contextmanager
    def writing(self) -> Iterator[tuple[Session, Rater]]:
        """A write transaction and the rater to record under, created in it on their first decision."""
        with self.store.write() as s:
            rater = self.rater or get_or_create_rater(s, self._name)
            yield s, rater
        self.rater = rater  # only once committed

    @property
    def current(self) -> PostKey | None:
        return self._pending[0] if self._pending else None

    @property
    def upcoming(self) -> PostKey | None:
        """The post after the current one (what a decision or skip moves to), for prefetching."""
        return self._pending[1] if len(self._pending) > 1 else None

    @property
    def progress(self) -> Progress:
        return Progress(self._done, len(self._pending))

    def skip(self) -> PostKey | None:
        """Move the current post to the end of this session's queue; returns the new current post."""
        if len(self._pending) > 1:
            qid = self._pending.popleft()
            self._pending.append(qid)
            self._actions.append(("skip", qid))
        return self.current

    def _undo_skip(self, qid: PostKey) -> None:
        if self._pending and self._pending[-1] == qid:
            self._pending.pop()
        self._pending.appendleft(qid)

    def _mark_done(self, qid: PostKey) -> None:
        if self._pending and self._pending[0] == qid:
            self._pending.popleft()
        elif qid in self._pending:  # a post visited out of turn
            self._pending.remove(qid)
        self._done += 1

    def _mark_undone(self, qid: PostKey) -> None:
        # A decided post is never pending (no O(n) search through a queue of 100k posts).
        self._pending.appendleft(qid)
        self._done -= 1


class IdentifyQueue(_SessionQueue):
    """The candidates of the latest keyword-set version this rater has not decided, in seeded order; with
    ``sample`` the posts of the frozen sample (seed, sample) instead (``labeling.samples``)."""

    def __init__(
        self, store: Store, rater_name: str, seed: int = 0, sample: int | None = None, priority=None
    ) -> None:
        """``priority``: a :class:`labeling.triage.priority.Priority` for the model's order (else seeded)."""
        if sample is not None and sample < 1:
            raise PPMinerError(f"--sample: must be at least 1, not {sample}")
        rater = open_rater(store, rater_name)
        with store.read() as s:
            set_id = latest_keyword_set_id(s)
            if set_id is None:
                raise PPMinerError("no candidates yet: run `ppmine match` first")
            # a sample is drawn from the matching candidates alone
            order = identify_scope(s, set_id, -1 if sample is not None else _id_of(rater), seed)
        self.sample: dict | None = None
        if sample is not None:  # frozen: drawn once, the same posts for every rater whatever is matched later
            from labeling.samples import frozen_sample

            order, self.sample, self.sample_drawn = frozen_sample(
                store, seed, sample, set_id, order, rater.name if rater else rater_display(rater_name)
            )
        with store.read() as s:
            decided = {
                PostKey(*row)
                for row in s.execute(
                    sa.select(Identification.site, Identification.question_id).where(
                        Identification.rater_id == _id_of(rater)
                    )
                )
            }
        self.keyword_set_id = set_id
        super().__init__(
            store, rater, rater_name, [q for q in order if q not in decided], sum(q in decided for q in order)
        )
        self._in_scope = set(order)
        self._visiting: PostKey | None = None
        self._drafts: dict[PostKey, str] = {}
        self._overwritten: list[tuple[bool, object]] = []  # (is_pp, decided_at) a "redecide" action replaced
        self.ranking = priority.start(store, _id_of(rater), order) if priority is not None else None
        if self.ranking is not None:
            self._rearrange()

    def _rearrange(self) -> None:
        order = self.ranking.arrange(self._pending, {q for kind, q in self._actions if kind == "skip"})
        if order is not None:  # a newer ranking than the one in use
            self._pending = deque(order)

    # -- the post shown: the queue's head, or one visited out of turn --

    @property
    def current(self) -> PostKey | None:
        return self._visiting if self._visiting is not None else super().current

    @property
    def upcoming(self) -> PostKey | None:
        if self._visiting is not None:
            return self._pending[0] if self._pending else None
        return super().upcoming

    @property
    def visiting(self) -> bool:
        """Whether the post shown is one visited out of turn (the queue resumes after it)."""
        return self._visiting is not None

    def in_scope(self, post: PostKey) -> bool:
        return post in self._in_scope

    @property
    def scope(self) -> frozenset[PostKey]:
        return frozenset(self._in_scope)

    @property
    def pending_posts(self) -> list[PostKey]:
        """The undecided posts in the order they come."""
        return list(self._pending)

    def visit(self, post: PostKey) -> bool:
        """Show ``post`` now, decided or not, if it is in this rater's scope (else False, nothing changes)."""
        if post not in self._in_scope:
            return False
        self._visiting = None if self._pending and self._pending[0] == post else post
        return True

    def skip(self) -> PostKey | None:
        """Leave a visited post as it is (back to the queue), else move the queue's head to its end."""
        if self._visiting is not None:
            self._visiting = None
            return self.current
        return super().skip()

    # -- notes --

    def draft_note(self, post: PostKey) -> str | None:
        """The note typed for an undecided post, kept until its decision stores it (this session only)."""
        return self._drafts.get(post)

    def unsaved_notes(self) -> list[PostKey]:
        """Posts whose typed note waits for a decision that has not come (lost if the session ends now)."""
        return list(self._drafts)

    def stored_decision(self, post: PostKey) -> tuple[bool, str | None] | None:
        """This rater's stored (is_pp, note) on ``post``, or None."""
        if self.rater is None:
            return None
        with self.store.read() as s:
            row = identification(s, self.rater, post)
            return (bool(row.is_pp), row.note) if row is not None else None

    def set_note(self, note: str) -> bool:
        """Note the current post: on a stored decision at once (audited); on an undecided post kept as a draft that
        its decision stores. Returns whether it was stored now. An empty note clears it."""
        qid = self.current
        if qid is None:
            return False
        if self.rater is not None:
            with self.writing() as (s, rater):
                stored = set_identification_note(s, rater, qid, note)
            if stored is not None:
                self._drafts.pop(qid, None)
                return True
        text = clean_note(note)
        if text is None:
            self._drafts.pop(qid, None)
        else:
            self._drafts[qid] = text
        return False

    # -- decisions --

    def decide(self, is_pp: bool) -> PostKey | None:
        """Store the rater's decision on the current post (committed now, with its draft note if any); a decided
        post gets the new value (undo puts the old one back). Returns the next post."""
        qid = self.current
        if qid is None:
            return None
        note = {"note": self._drafts[qid]} if qid in self._drafts else {}
        with self.writing() as (s, rater):
            row = identification(s, rater, qid)  # read once: set_identification takes it as it is
            before = None if row is None else (row.is_pp, row.decided_at)
            set_identification(s, rater, qid, is_pp, current=row, **note)
        self._drafts.pop(qid, None)
        self._visiting = None
        if before is None:
            self._mark_done(qid)
            self._actions.append(("decide", qid))
        else:
            self._actions.append(("redecide", qid))
            self._overwritten.append((bool(before[0]), before[1]))
        if self.ranking is not None:
            self.ranking.learn(qid, is_pp)
            self._rearrange()
        return self.current

    def undo(self) -> PostKey | None:
        """Take back the last action (decision, changed decision or skip); returns the post to show again, or None
        if nothing to undo."""
        if self._actions:
            kind, qid = self._actions[-1]
            if kind == "skip":
                self._actions.pop()
                self._visiting = None
                self._undo_skip(qid)
                return qid
            if kind == "redecide":
                return self._undo_redecide(qid)
        else:
            qid = self._latest_stored_decision()
            if qid is None:
                return None
        if self.rater is None:
            return None  # nothing was ever decided
        with self.store.write() as s:  # if this fails, the action stays on the stack for another try
            row = identification(s, self.rater, qid)  # read once: delete_identification takes it as it is
            note = row.note if row is not None else None
            existed = delete_identification(s, self.rater, qid, current=row)
        if self._actions:
            self._actions.pop()
        self._visiting = None
        if note:  # the note goes back to being a draft of the post shown again, not lost with the decision
            self._drafts[qid] = note
        if existed:
            self._mark_undone(qid)
            if self.ranking is not None:
                self.ranking.forget(qid)
        return qid

    def _undo_redecide(self, qid: PostKey) -> PostKey:
        """Put back the decision a revisit changed (value and time), and show that post again."""
        is_pp, decided_at = self._overwritten[-1]
        with self.writing() as (s, rater):
            set_identification(s, rater, qid, is_pp).decided_at = decided_at
        self._actions.pop()
        self._overwritten.pop()
        self._visiting = qid if not (self._pending and self._pending[0] == qid) else None
        if self.ranking is not None:
            self.ranking.learn(qid, is_pp)
        return qid

    def _latest_stored_decision(self) -> PostKey | None:
        if self.rater is None:
            return None
        with self.store.read() as s:
            rows = s.execute(
                sa.select(Identification.site, Identification.question_id)
                .where(Identification.rater_id == self.rater.id)
                .order_by(Identification.decided_at.desc(), Identification.id.desc())
            )
            return next((q for q in map(PostKey._make, rows) if q in self._in_scope), None)


@dataclass(frozen=True)
class ClassifyStatus:
    """Where a rater's classification stands, read once (the classify queue and ``pplabel progress`` use it)."""

    pp_posts: set[PostKey]  # the posts that are PPs for this rater
    finished: dict[PostKey, datetime]  # completely labelled, with when their last label was written
    started: set[PostKey]  # labelled in part: some PP lacks a required field


def classify_status(session: Session, rater_id: int) -> ClassifyStatus:
    """A post is a PP for a rater by the reconciled decision where there is one, else by the rater's own; it is
    finished when every PP the rater labelled on it is complete (``labeling.vocabulary``'s rule)."""
    finals = {
        PostKey(site, qid): is_pp
        for site, qid, is_pp in session.execute(
            sa.select(FinalIdentification.site, FinalIdentification.question_id, FinalIdentification.is_pp)
        )
    }
    own = [
        PostKey(*row)
        for row in session.execute(
            sa.select(Identification.site, Identification.question_id).where(
                Identification.rater_id == rater_id, Identification.is_pp.is_(True)
            )
        )
    ]
    pp_posts = {q for q, is_pp in finals.items() if is_pp} | {q for q in own if q not in finals}
    labels = session.execute(
        sa.select(
            PPLabel.site,
            PPLabel.question_id,
            PPLabel.labeled_at,
            *(getattr(PPLabel, f) for f in REQUIRED_LABEL_FIELDS),
        ).where(PPLabel.rater_id == rater_id)
    ).all()
    complete: dict[PostKey, bool] = {}
    last: dict[PostKey, datetime] = {}
    for site, question_id, at, *values in labels:
        post = PostKey(site, question_id)
        complete[post] = complete.get(post, True) and label_is_complete(
            dict(zip(REQUIRED_LABEL_FIELDS, values, strict=True))
        )
        last[post] = max(at, last.get(post, at))
    return ClassifyStatus(
        pp_posts,
        {q: last[q] for q in pp_posts if complete.get(q)},
        {q for q in pp_posts if complete.get(q) is False},
    )


class ClassifyQueue(_SessionQueue):
    """The posts that are PPs for this rater: the reconciled decision where there is one, else their own.

    A post is done when the rater labeled at least one PP of it and every PP has a symptom, a root cause and both
    stages. Posts left half-labeled come first, so a session resumes where the last one stopped.
    """

    def __init__(self, store: Store, rater_name: str, seed: int = 0) -> None:
        rater = open_rater(store, rater_name)
        with store.read() as s:
            status = classify_status(s, _id_of(rater))
        #: when each finished post was finished (the session's pace clock starts from these)
        self.finished_at: list[datetime] = list(status.finished.values())
        order = seeded_order(status.pp_posts, seed)
        started = [q for q in order if q in status.started]
        fresh = [q for q in order if q not in status.started and q not in status.finished]
        super().__init__(store, rater, rater_name, started + fresh, len(status.finished))

    @contextmanager
    def writing_labels(self, post: PostKey) -> Iterator[tuple[Session, Rater]]:
        """:meth:`writing` for this rater's labels of ``post``: the PP finals made on agreement that the labels
        written no longer hold are reopened in the same transaction (``labeling.reconcile``)."""
        with self.writing() as (s, rater):
            yield s, rater
            reopen_broken_label_agreements(s, post, rater.name)

    def finish(self) -> PostKey | None:
        """The current post is done (its labels are already stored); returns the next post."""
        qid = self.current
        if qid is not None:
            self._mark_done(qid)
            self._actions.append(("finish", qid))
        return self.current

    def undo_navigation(self) -> tuple[str, PostKey] | None:
        """Take back the last skip or finish: that post becomes current again. Returns (kind, post) or None."""
        if not self._actions:
            return None
        kind, qid = self._actions.pop()
        if kind == "skip":
            self._undo_skip(qid)
        else:
            self._mark_undone(qid)
        return kind, qid
