"""The interactive priority order of `pplabel identify --order priority`, retrained in a background thread.

The model learns from THIS rater's decisions only (read by rater id at start, then the ones made in the session),
so raters stay blind to each other: another rater's work never changes this order. Until the rater has made
``warmup`` decisions (and at least one of each kind) the seeded random order is kept. After that, every
decision wakes the trainer thread, which refits on the shared schedule (:func:`ranker.retrain_due`) and
publishes the scope sorted by the new scores; drawing the next post only applies the latest published ranking
to the pending ids (once per ranking), so the rater never waits for a fit. The ranking in use lags by the
decisions since the last refit: none while fewer than 40 are made, then at most one, plus any made while a fit
runs (a fraction of a second).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
import sqlalchemy as sa

from core.schema.labeling import Identification
from core.sites import PostKey
from labeling.triage.dataset import post_texts
from labeling.triage.models import DEFAULT_MODEL, parse_model
from labeling.triage.ranker import Ranker, can_train, retrain_due

DEFAULT_WARMUP = 20
RECENT = 50


@dataclass(frozen=True)
class ScreeningStatus:
    decisions: int
    pps: int
    recent: int  # decisions among the last RECENT
    recent_pps: int
    unread_estimate: float | None  # the model's estimate of PPs among the unread, None before it has one
    failure: str | None = None  # the last fit that failed (the ranking in use stays the one before it)

    def line(self) -> str:
        """Short, for the status line at 80 columns: PPs/decisions, PPs in the last 50, estimated PPs unread."""
        est = "model warming up" if self.unread_estimate is None else f"≈{self.unread_estimate:.0f} left"
        line = f"PP {self.pps}/{self.decisions} · last {self.recent}: {self.recent_pps} · {est}"
        return f"{line} · fit failed: {self.failure}" if self.failure else line


class PriorityOrder:
    """Ranks one rater's candidates; ``arrange`` is what the identify queue calls after each decision."""

    def __init__(
        self, store, rater_id: int, scope: list[int], warmup: int, model: str, background: bool
    ) -> None:
        self.warmup, self.specs = warmup, parse_model(model)
        self._scope = list(scope)
        self._row = {q: i for i, q in enumerate(self._scope)}
        with store.read() as s:
            own = s.execute(
                sa.select(Identification.site, Identification.question_id, Identification.is_pp)
                .where(Identification.rater_id == rater_id)
                .order_by(Identification.decided_at, Identification.id)
            ).all()
        # this rater's own decisions, oldest first (a dict keeps insertion order)
        self._decisions: dict[PostKey, bool] = {
            q: bool(pp) for site, qid, pp in own if (q := PostKey(site, qid)) in self._row
        }
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._ranked: list[int] | None = None  # the scope by the latest scores, highest first
        self._generation, self._applied = 0, 0  # rankings published; the one the queue last applied
        self._estimate: float | None = None
        self._changes = 0  # decisions learnt or forgotten so far
        self._tried = -1  # the count the last fit attempt saw
        self._fit_changes: int | None = None  # the count the published scores were fitted at
        self._closed = False
        self.failure: str | None = None  # the last failed fit, if any (the status line says so)
        self._ranker: Ranker | None = None
        self._store = store
        self._thread = None
        if background:
            self._thread = threading.Thread(target=self._train_loop, name="pplabel-ranker", daemon=True)
            self._thread.start()
        else:  # tests and benchmarks: every fit in the caller's thread, when the schedule says so
            self._fit_if_synchronous()

    # -- what the queue calls --

    def learn(self, question_id: int, is_pp: bool) -> None:
        with self._wake:
            self._decisions.pop(question_id, None)
            self._decisions[question_id] = is_pp
            self._changes += 1
            self._wake.notify()
        self._fit_if_synchronous()

    def forget(self, question_id: int) -> None:
        with self._wake:
            self._decisions.pop(question_id, None)
            self._changes += 1
            self._wake.notify()
        self._fit_if_synchronous()

    def _fit_if_synchronous(self) -> None:
        if self._thread is None and self._due():
            self.refit_now()

    def arrange(self, pending, skipped: set[int]) -> list[int] | None:
        """The pending ids in the latest ranking's order (this session's skipped posts stay at the end), or None
        when the order in use still stands: before the warm-up is done, or no ranking newer than the last one
        applied. The trainer sorts the whole scope when it publishes, so this is one pass over ``ranked``."""
        ranked, generation = self._ranked, self._generation
        if ranked is None or generation == self._applied or len(self._decisions) < self.warmup:
            return None
        self._applied = generation
        waiting = set(pending)
        head = [q for q in ranked if q in waiting and q not in skipped]
        return head + [q for q in pending if q in skipped]

    def status(self) -> ScreeningStatus:
        with self._lock:
            labels = list(self._decisions.values())
            estimate = self._estimate
        recent = labels[-RECENT:]
        return ScreeningStatus(len(labels), sum(labels), len(recent), sum(recent), estimate, self.failure)

    @property
    def lag(self) -> int | None:
        """Decisions learnt or forgotten since the published ranking was fitted (None before the first fit)."""
        with self._lock:
            return None if self._fit_changes is None else self._changes - self._fit_changes

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify()

    # -- training --

    def refit_now(self) -> bool:
        """Fit and publish scores in this thread (the trainer thread's step; tests call it to be deterministic)."""
        with self._lock:
            decided, changes = dict(self._decisions), self._changes
            self._tried = changes
        if len(decided) < self.warmup:
            return False
        rows = np.fromiter((self._row[q] for q in decided), dtype=np.int64, count=len(decided))
        labels = np.fromiter(decided.values(), dtype=np.int8, count=len(decided))
        if not can_train(labels):
            return False
        if self._ranker is None:
            with self._store.read() as s:
                texts = post_texts(s, self._scope)
            fields = {f: [texts[q][f] for q in self._scope] for f in next(iter(texts.values()))}
            self._ranker = Ranker.build(fields, self.specs)
        scores = self._ranker.scores(rows, labels)
        estimate = _unread_estimate(scores, rows, labels)
        ranked = [self._scope[i] for i in np.argsort(-scores, kind="stable").tolist()]
        with self._lock:
            self._ranked, self._estimate, self._fit_changes = ranked, estimate, changes
            self.failure = None
            self._generation += 1
        return True

    def _due(self) -> bool:
        if self._changes == self._tried:
            return False
        if self._fit_changes is None:
            return True
        return retrain_due(len(self._decisions), self._changes - self._fit_changes)

    def _train_loop(self) -> None:
        while True:
            with self._wake:
                while not self._closed and not self._due():
                    self._wake.wait()
                if self._closed:
                    return
            try:
                self.refit_now()
            except Exception as exc:  # a failed fit keeps the last ranking; the session goes on
                self.failure = f"{type(exc).__name__}: {exc}"


def _unread_estimate(scores: np.ndarray, rows: np.ndarray, labels: np.ndarray) -> float:
    """Sum over the unread of P(PP | score), the probability a 1-D logistic fit of the decisions on their scores
    gives (Platt scaling, in-sample): a rough expectation, not a guarantee (see `pplabel triage status`)."""
    from sklearn.linear_model import LogisticRegression

    fit = LogisticRegression(C=1.0).fit(scores[rows].reshape(-1, 1), labels)
    unread = np.ones(len(scores), dtype=bool)
    unread[rows] = False
    if not unread.any():
        return 0.0
    return float(fit.predict_proba(scores[unread].reshape(-1, 1))[:, 1].sum())


@dataclass(frozen=True)
class Priority:
    """``--order priority`` options; :meth:`start` is called by the identify queue with its scope."""

    warmup: int = DEFAULT_WARMUP
    model: str = DEFAULT_MODEL
    background: bool = True  # False: fit in the caller's thread (deterministic, for tests)

    def start(self, store, rater_id: int, scope: list[int]) -> PriorityOrder:
        return PriorityOrder(store, rater_id, scope, self.warmup, self.model, self.background)
