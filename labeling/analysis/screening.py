"""Screening by priority (issue 14): the study database's screening curve."""

from __future__ import annotations

import numpy as np
import pandas as pd

from core.db import Store
from core.errors import PPMinerError

SCREENING_COLUMNS = ["seed", "read", "recall", "random"]


def screening_curve(
    store: Store, seeds: tuple[int, ...] = (1, 2, 3), model: str | None = None
) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """Replay screening by priority on the final identifications (as `pplabel triage simulate --db`).

    Returns (curve: recall after each record read per seed beside random reading's expected recall; metrics per
    seed and their mean; a one-line note). Both tables are empty, and the note says why, until the database holds
    final identifications with at least one PP post and one that is not.
    """
    # triage's models load scikit-learn: only when a curve is asked for
    from labeling.triage.dataset import from_database
    from labeling.triage.metrics import recall_curve
    from labeling.triage.models import DEFAULT_MODEL
    from labeling.triage.simulate import METRICS, mean_metrics, simulate

    empty = pd.DataFrame(columns=SCREENING_COLUMNS), pd.DataFrame(columns=["seed", *METRICS])
    try:
        data = from_database(store)
        runs = simulate(data, seeds, model=model or DEFAULT_MODEL)
    except PPMinerError as exc:
        return (*empty, f"no screening curve: {exc}")
    n = len(data)
    frames = [
        pd.DataFrame({"seed": r.seed, "read": np.arange(1, n + 1), "recall": recall_curve(data.labels[r.rows]),
                      "random": np.arange(1, n + 1) / n})
        for r in runs
    ]  # fmt: skip
    metrics = pd.DataFrame(
        [{"seed": r.seed, **r.metrics} for r in runs] + [{"seed": "mean", **mean_metrics(runs)}]
    )
    blank = sum(1 for i in range(n) if not any(data.fields[f][i].strip() for f in data.fields))
    note = (f"{n} posts with final identifications, {data.positives} PP posts; model {model or DEFAULT_MODEL}; "
            f"{blank} posts have no stored text (import or scrape them for a fair curve)")  # fmt: skip
    return pd.concat(frames, ignore_index=True), metrics, note
