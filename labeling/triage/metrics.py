"""Screening metrics over a reading order: WSS@r, recall after a share read, records read to reach a recall.

``labels_in_order`` are the labels (1 relevant) in the order the records were read, priors first. WSS@r is
(records not yet read) / N - (1 - r) at the moment recall r is first reached, as ASReview defines it; recall r
is reached when ceil(r * relevant) relevant records have been read.
"""

from __future__ import annotations

import math

import numpy as np


def read_to_recall(labels_in_order: np.ndarray, recall: float) -> int:
    """Records read when the recall first reaches ``recall``."""
    found = np.cumsum(labels_in_order)
    needed = max(1, math.ceil(round(recall * int(found[-1]), 9)))
    return int(np.searchsorted(found, needed) + 1)


def wss(labels_in_order: np.ndarray, recall: float) -> float:
    n = len(labels_in_order)
    return (n - read_to_recall(labels_in_order, recall)) / n - (1.0 - recall)


def recall_after(labels_in_order: np.ndarray, share: float) -> float:
    """Recall after the first ``share`` of the records (rounded up) are read."""
    n = len(labels_in_order)
    read = math.ceil(round(share * n, 9))
    return float(labels_in_order[:read].sum() / labels_in_order.sum())


def screening_metrics(labels_in_order) -> dict[str, float | int]:
    labels = np.asarray(labels_in_order, dtype=np.int64)
    if labels.sum() == 0:
        raise ValueError("no relevant record: recall is undefined")
    return {
        "wss95": round(wss(labels, 0.95), 4),
        "wss100": round(wss(labels, 1.0), 4),
        "recall10": round(recall_after(labels, 0.10), 4),
        "recall25": round(recall_after(labels, 0.25), 4),
        "read95": read_to_recall(labels, 0.95),
    }


def recall_curve(labels_in_order) -> np.ndarray:
    """Recall after each record read (index i: after i + 1 records)."""
    labels = np.asarray(labels_in_order, dtype=np.int64)
    return np.cumsum(labels) / labels.sum()
