"""What a rater sees next: a seeded order of posts, only this rater's own decisions, progress counts.

The order of a post is a hash of (seed, post id), so it does not depend on which other posts exist: adding
candidates later never reshuffles the ones already there, and ``--sample N`` (the first N in that order) is the
same sample for every rater using the same seed on the same candidates (candidates added later can enter it).
A queue reads only the rater's own rows (and, for classify, the reconciled decisions): sessions are blind.

Skipping moves a post to the end of this session's queue; it comes back next session. In identify, undo pops this
session's last action; with none left it takes back the rater's latest stored decision, so it works after a
restart too. Classify keeps its finer undo (per field) in the app and uses :meth:`ClassifyQueue.undo_navigation`.
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from labeling.models import FinalIdentification, Identification, PPLabel, Rater
from labeling.records import delete_identification, get_or_create_rater, set_identification
from mining.db import Store
from mining.errors import PPMinerError
from mining.models import Candidate
from mining.stats import latest_keyword_set_id

REQUIRED_LABELS = ("symptom1", "root_cause", "introducing_stage", "exposing_stage")


def order_key(seed: int, question_id: int) -> bytes:
    """The sort key that places a post in the seeded order."""
    return hashlib.blake2b(f"{seed}:{question_id}".encode(), digest_size=8).digest()


def seeded_order(question_ids, seed: int, sample: int | None = None) -> list[int]:
    ordered = sorted(set(question_ids), key=lambda q: order_key(seed, q))
    return ordered if sample is None else ordered[:sample]


def open_rater(store: Store, name: str) -> Rater:
    """The rater row for ``name``, created on first use (two sessions starting at once may race: retry once)."""
    if not name or not name.strip():
        raise PPMinerError("--rater: a rater needs a non-empty name")
    for attempt in (1, 2):
        try:
            with store.write() as s:
                return get_or_create_rater(s, name)
        except IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class Progress:
    done: int
    remaining: int

    @property
    def total(self) -> int:
        return self.done + self.remaining


class _SessionQueue:
    """A deque of pending post ids with a session undo stack of (kind, post id)."""

    def __init__(self, store: Store, rater: Rater, pending: list[int], done: int) -> None:
        self.store, self.rater = store, rater
        self._pending: deque[int] = deque(pending)
        self._done = done
        self._actions: list[tuple[str, int]] = []

    @property
    def current(self) -> int | None:
        return self._pending[0] if self._pending else None

    @property
    def upcoming(self) -> int | None:
        """The post after the current one (what a decision or skip moves to), for prefetching."""
        return self._pending[1] if len(self._pending) > 1 else None

    @property
    def progress(self) -> Progress:
        return Progress(self._done, len(self._pending))

    def skip(self) -> int | None:
        """Move the current post to the end of this session's queue; returns the new current post."""
        if len(self._pending) > 1:
            qid = self._pending.popleft()
            self._pending.append(qid)
            self._actions.append(("skip", qid))
        return self.current

    def _undo_skip(self, qid: int) -> None:
        if self._pending and self._pending[-1] == qid:
            self._pending.pop()
        self._pending.appendleft(qid)

    def _mark_done(self, qid: int) -> None:
        if self._pending and self._pending[0] == qid:
            self._pending.popleft()
        else:
            self._pending.remove(qid)
        self._done += 1

    def _mark_undone(self, qid: int) -> None:
        # A decided post is never pending (no O(n) search through a queue of 100k posts).
        self._pending.appendleft(qid)
        self._done -= 1


class IdentifyQueue(_SessionQueue):
    """The candidates of the latest keyword-set version this rater has not decided, in seeded order."""

    def __init__(self, store: Store, rater_name: str, seed: int = 0, sample: int | None = None) -> None:
        if sample is not None and sample < 1:
            raise PPMinerError(f"--sample: must be at least 1, not {sample}")
        rater = open_rater(store, rater_name)
        with store.read() as s:
            set_id = latest_keyword_set_id(s)
            if set_id is None:
                raise PPMinerError("no candidates yet: run `ppmine match` first")
            ids = s.scalars(sa.select(Candidate.question_id).where(Candidate.keyword_set_id == set_id)).all()
            decided = set(
                s.scalars(sa.select(Identification.question_id).where(Identification.rater_id == rater.id))
            )
        self.keyword_set_id = set_id
        order = seeded_order(ids, seed, sample)
        super().__init__(
            store, rater, [q for q in order if q not in decided], sum(q in decided for q in order)
        )
        self._in_scope = set(order)

    def decide(self, is_pp: bool) -> int | None:
        """Store the rater's decision on the current post (committed now); returns the next post."""
        qid = self.current
        if qid is None:
            return None
        with self.store.write() as s:
            set_identification(s, self.rater, qid, is_pp)
        self._mark_done(qid)
        self._actions.append(("decide", qid))
        return self.current

    def undo(self) -> int | None:
        """Take back the last action (decision or skip); returns the post to show again, or None if nothing to undo."""
        if self._actions:
            kind, qid = self._actions[-1]
            if kind == "skip":
                self._actions.pop()
                self._undo_skip(qid)
                return qid
        else:
            qid = self._latest_stored_decision()
            if qid is None:
                return None
        with self.store.write() as s:  # if this fails, the action stays on the stack for another try
            existed = delete_identification(s, self.rater, qid)
        if self._actions:
            self._actions.pop()
        if existed:
            self._mark_undone(qid)
        return qid

    def _latest_stored_decision(self) -> int | None:
        with self.store.read() as s:
            rows = s.execute(
                sa.select(Identification.question_id)
                .where(Identification.rater_id == self.rater.id)
                .order_by(Identification.decided_at.desc(), Identification.id.desc())
            )
            return next((q for (q,) in rows if q in self._in_scope), None)


class ClassifyQueue(_SessionQueue):
    """The posts that are PPs for this rater: the reconciled decision where there is one, else their own.

    A post is done when the rater labeled at least one PP of it and every PP has a symptom, a root cause and both
    stages. Posts left half-labeled come first, so a session resumes where the last one stopped.
    """

    def __init__(self, store: Store, rater_name: str, seed: int = 0) -> None:
        rater = open_rater(store, rater_name)
        with store.read() as s:
            finals = dict(
                s.execute(sa.select(FinalIdentification.question_id, FinalIdentification.is_pp)).all()
            )
            own = s.scalars(
                sa.select(Identification.question_id).where(
                    Identification.rater_id == rater.id, Identification.is_pp.is_(True)
                )
            ).all()
            pp_posts = {q for q, is_pp in finals.items() if is_pp} | {q for q in own if q not in finals}
            labels = s.execute(
                sa.select(PPLabel.question_id, *(getattr(PPLabel, f) for f in REQUIRED_LABELS)).where(
                    PPLabel.rater_id == rater.id
                )
            ).all()
        complete: dict[int, bool] = {}
        for row in labels:
            complete[row[0]] = complete.get(row[0], True) and all(row[1:])
        order = seeded_order(pp_posts, seed)
        started = [q for q in order if complete.get(q) is False]
        fresh = [q for q in order if q not in complete]
        super().__init__(store, rater, started + fresh, sum(1 for q in order if complete.get(q)))

    def finish(self) -> int | None:
        """The current post is done (its labels are already stored); returns the next post."""
        qid = self.current
        if qid is not None:
            self._mark_done(qid)
            self._actions.append(("finish", qid))
        return self.current

    def undo_navigation(self) -> tuple[str, int] | None:
        """Take back the last skip or finish: that post becomes current again. Returns (kind, post) or None."""
        if not self._actions:
            return None
        kind, qid = self._actions.pop()
        if kind == "skip":
            self._undo_skip(qid)
        else:
            self._mark_undone(qid)
        return kind, qid
