"""Replay a screening on labelled data: priors, then always the highest-ranked unread record, retraining as the
interactive queue does. The reading order and its metrics per seed are the result.

Priors are drawn per seed (``numpy.random.default_rng(seed)``): ``prior_included`` relevant and
``prior_excluded`` irrelevant records, read first. Ties in the ranking go to the record listed first.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
from dataclasses import dataclass, field

import numpy as np

from core.errors import PPMinerError
from labeling.triage.dataset import Dataset
from labeling.triage.metrics import screening_metrics
from labeling.triage.models import DEFAULT_MODEL, parse_model
from labeling.triage.ranker import Ranker, retrain_due

DEFAULT_SEEDS = (1, 2, 3, 4, 5)
METRICS = ("wss95", "wss100", "recall10", "recall25", "read95")


@dataclass
class Run:
    seed: int
    rows: np.ndarray  # dataset row indices in reading order, priors first
    metrics: dict = field(default_factory=dict)


def check_priors(dataset: Dataset, included: int, excluded: int, where: str = "") -> None:
    at = f"{where}: " if where else ""
    if len(dataset) == 0:
        raise PPMinerError(f"{at}empty dataset")
    if included < 1:
        raise PPMinerError(f"{at}no relevant record among the priors (--prior-included must be at least 1)")
    if excluded < 1:
        raise PPMinerError(f"{at}no irrelevant record among the priors (--prior-excluded must be at least 1)")
    pos = dataset.positives
    neg = len(dataset) - pos
    if pos < included:
        raise PPMinerError(
            f"{at}{pos} relevant records (label_included 1), fewer than --prior-included {included}"
        )
    if neg < excluded:
        raise PPMinerError(
            f"{at}{neg} irrelevant records (label_included 0), fewer than --prior-excluded {excluded}"
        )


def draw_priors(labels: np.ndarray, seed: int, included: int, excluded: int) -> list[int]:
    rng = np.random.default_rng(seed)
    pos = rng.choice(np.flatnonzero(labels == 1), size=included, replace=False)
    neg = rng.choice(np.flatnonzero(labels == 0), size=excluded, replace=False)
    return [int(i) for i in pos] + [int(i) for i in neg]


def replay(ranker: Ranker, labels: np.ndarray, priors: list[int]) -> np.ndarray:
    """The reading order: priors, then the top-ranked unread record, refitting on the retraining schedule.

    Once every relevant record has been read, no refit can change a figure (all are fixed by then), so the rest
    is read in the last ranking's order without refitting, as ASReview's simulation stops at the last relevant
    record."""
    n = len(labels)
    order = list(priors)
    seen = np.zeros(n, dtype=bool)
    seen[order] = True
    ranked: list[int] = []
    pos = 0
    since_fit = None
    relevant_left = int(labels.sum()) - int(labels[order].sum())
    while len(order) < n:
        if since_fit is None or (relevant_left and retrain_due(len(order), since_fit)):
            rows = np.asarray(order)
            scores = ranker.scores(rows, labels[rows])
            unseen = np.flatnonzero(~seen)
            ranked = unseen[np.argsort(-scores[unseen], kind="stable")].tolist()
            pos, since_fit = 0, 0
        while seen[ranked[pos]]:
            pos += 1
        nxt = ranked[pos]
        order.append(nxt)
        seen[nxt] = True
        since_fit += 1
        relevant_left -= int(labels[nxt])
    return np.asarray(order)


_SHARED: tuple | None = None  # (ranker, labels, included, excluded) for forked workers


def _replay_seed(seed: int) -> tuple[int, np.ndarray]:
    ranker, labels, included, excluded = _SHARED
    return seed, replay(ranker, labels, draw_priors(labels, seed, included, excluded))


def simulate(
    dataset: Dataset,
    seeds=DEFAULT_SEEDS,
    prior_included: int = 1,
    prior_excluded: int = 1,
    model: str = DEFAULT_MODEL,
    where: str = "",
    on_run=None,
    jobs: int | None = None,
) -> list[Run]:
    """One replay per seed (``on_run(run)`` after each, e.g. to advance a progress bar).

    Seeds are independent, so with several they run in ``jobs`` forked processes (default: one per core), which
    share the feature matrices built here; results come back in seed order either way."""
    global _SHARED
    specs = parse_model(model)
    check_priors(dataset, prior_included, prior_excluded, where)
    seeds = list(seeds)
    _SHARED = (Ranker.build(dataset.fields, specs), dataset.labels, prior_included, prior_excluded)
    jobs = min(len(seeds), jobs or os.cpu_count() or 1)
    runs = []
    try:
        if jobs > 1 and "fork" in mp.get_all_start_methods():
            with mp.get_context("fork").Pool(jobs, initializer=_default_sigterm) as pool:
                results = pool.imap(_replay_seed, seeds)
                for seed, rows in results:
                    runs.append(Run(seed, rows, screening_metrics(dataset.labels[rows])))
                    if on_run is not None:
                        on_run(runs[-1])
        else:
            for seed in seeds:
                _, rows = _replay_seed(seed)
                runs.append(Run(seed, rows, screening_metrics(dataset.labels[rows])))
                if on_run is not None:
                    on_run(runs[-1])
    finally:
        _SHARED = None
    return runs


def _default_sigterm() -> None:
    """A replay process ends on SIGTERM, which is how the pool stops it. A fork inherits the parent's handlers:
    under `ppmine run` (or any caller that turns SIGTERM into KeyboardInterrupt) an idle replay process raised
    instead, stayed, and the pool's exit waited on it for ever."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def mean_metrics(runs: list[Run]) -> dict:
    return {m: round(float(np.mean([r.metrics[m] for r in runs])), 4) for m in METRICS}


def to_json_obj(dataset: Dataset, runs: list[Run], model: str) -> dict:
    """The documented JSON shape: every run's metrics and reading order (record ids), then the means."""
    return {
        "dataset": dataset.name,
        "records": len(dataset),
        "relevant": dataset.positives,
        "model": model,
        "runs": [
            {"seed": r.seed, **r.metrics, "order": [_written(dataset.record_ids[i]) for i in r.rows.tolist()]}
            for r in runs
        ],
        "mean": mean_metrics(runs),
    }


def _written(record_id):
    """A record id for JSON: a study post as its id (Stack Overflow) or ``SITE:ID``; a file's id as it was."""
    from core.sites import DEFAULT_SITE, PostKey

    if isinstance(record_id, PostKey):
        return record_id.id if record_id.site == DEFAULT_SITE else str(record_id)
    return record_id
