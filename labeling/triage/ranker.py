"""Train on the decisions so far and rank every record; the retraining schedule shared by simulation and queue.

Retraining after every decision is what makes a naive loop slow (thousands of fits). The model is refitted after
each of the first ``EARLY`` decisions (the ranking moves most then), and after that as soon as ``MAX_LAG`` (2)
decisions are not in it: the next record is drawn by a ranking that lacks at most one decision. The feature
matrix is built once for all records (their texts are known up front, as in ASReview) as float64 CSR with sorted
indices, which liblinear fits on without copying it, so a retrain is one small fit and one sparse product.
"""

from __future__ import annotations

import numpy as np

from labeling.triage.features import build_matrix
from labeling.triage.models import Classifier, ModelSpec

EARLY = 40
MAX_LAG = 2


def retrain_due(decisions: int, since_fit: int) -> bool:
    """Whether to refit now, given the decisions made and those made since the last fit."""
    return since_fit >= (1 if decisions < EARLY else MAX_LAG)


def can_train(labels: np.ndarray) -> bool:
    """A model needs at least one decision of each kind."""
    return 0 < int(labels.sum()) < len(labels)


class Ranker:
    """The model ``specs`` over fixed feature matrices (one row per record, one matrix per feature kind)."""

    def __init__(self, matrices: dict, specs: tuple[ModelSpec, ...]) -> None:
        self.matrices, self.specs = matrices, specs

    @classmethod
    def build(cls, fields: dict[str, list[str]], specs: tuple[ModelSpec, ...]) -> Ranker:
        """Fit the vectorisers of every feature kind the specs use, once, on all records."""
        kinds = dict.fromkeys(spec.features for spec in specs)
        return cls({kind: build_matrix(fields, kind) for kind in kinds}, specs)

    def scores(self, rows: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """Fit on the decided ``rows`` (with their ``labels``) and score every record (members: summed z-scores)."""
        total = None
        for spec in self.specs:
            X = self.matrices[spec.features]
            raw = Classifier(spec.classifier).fit(X[rows], labels).score(X)
            if len(self.specs) > 1:
                raw = (raw - raw.mean()) / (raw.std() or 1.0)
            total = raw if total is None else total + raw
        return total
