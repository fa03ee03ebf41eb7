"""The recall curve of simulated screenings against reading in random order, as a PNG."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from labeling.triage.metrics import recall_curve


def plot_recall(path: str | Path, labels: np.ndarray, runs, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(labels)
    x = np.arange(1, n + 1)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for run in runs:
        ax.plot(x, recall_curve(labels[run.rows]), lw=1.2, label=f"seed {run.seed}")
    ax.plot([0, n], [0, 1], color="grey", ls="--", lw=1, label="random reading (expected)")
    ax.axhline(0.95, color="grey", lw=0.6, ls=":")
    ax.set(xlabel="records read", ylabel="recall", xlim=(0, n), ylim=(0, 1.01), title=title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
