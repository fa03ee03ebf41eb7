"""The ranking models: a classifier over a feature kind, named ``<classifier>-<features>`` (e.g. ``svm-fields``),
or several joined by ``+``, whose standardised scores are summed (a vote of differently biased rankers).

Each classifier gives every record a relevance score (higher = read sooner). Classes are weighted by their
inverse frequency, because early in a screening the few relevant records would otherwise be outvoted. All three
fit in milliseconds on a few hundred decisions, so retraining stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import MultinomialNB
from sklearn.svm import LinearSVC

from core.errors import PPMinerError
from labeling.triage.features import FEATURES

CLASSIFIERS = ("nb", "logistic", "svm")
# Chosen by measurement (bench/bench_triage.py, README "Screening by priority"): best mean WSS@95 on both
# labelled sets, on seeds 1-5 and on the held-out seeds 6-15.
DEFAULT_MODEL = "svm-fields+svm-plain+logistic-plain"


@dataclass(frozen=True)
class ModelSpec:
    classifier: str
    features: str

    @property
    def name(self) -> str:
        return f"{self.classifier}-{self.features}"


MODEL_NAMES = tuple(f"{c}-{f}" for c in CLASSIFIERS for f in FEATURES)


def parse_model(name: str) -> tuple[ModelSpec, ...]:
    """``"svm-fields+nb-plain"`` -> its members; an unknown name is a one-line error."""
    specs = []
    for part in name.split("+"):
        classifier, _, features = part.strip().partition("-")
        if classifier not in CLASSIFIERS or features not in FEATURES:
            raise PPMinerError(
                f"--model: unknown model {part!r} (choose from {', '.join(MODEL_NAMES)}, or join them with +)"
            )
        specs.append(ModelSpec(classifier, features))
    return tuple(specs)


def _balanced_weights(y: np.ndarray) -> np.ndarray:
    n, pos = len(y), int(y.sum())
    return np.where(y == 1, n / (2.0 * pos), n / (2.0 * (n - pos)))


class Classifier:
    """Fit on labelled rows, score any rows."""

    def __init__(self, kind: str) -> None:
        if kind not in CLASSIFIERS:
            raise ValueError(f"unknown classifier {kind!r}")
        self.kind = kind
        self._model = None

    def fit(self, X, y: np.ndarray) -> Classifier:
        # class balance as per-sample weights (the same problem as class_weight="balanced", without sklearn's
        # per-fit class-weight bookkeeping, which costs more than a small fit itself)
        weights = _balanced_weights(y)
        if self.kind == "nb":
            model = MultinomialNB(alpha=0.05)
        elif self.kind == "logistic":
            model = LogisticRegression(C=1.0, solver="liblinear", dual=True, random_state=0)
        else:
            model = LinearSVC(C=0.11, random_state=0)
        model.fit(X, y, sample_weight=weights)
        self._model = model
        return self

    def score(self, X) -> np.ndarray:
        if self.kind == "nb":
            log = self._model.predict_log_proba(X)
            return log[:, 1] - log[:, 0]
        return (
            X @ self._model.coef_.ravel() + self._model.intercept_[0]
        )  # decision_function, minus its checks
