"""Texts -> a TF-IDF matrix, fitted once on all records (their texts are known before screening starts).

``plain``: one vocabulary over all fields joined, as ASReview reads title + abstract. ``fields``: one vocabulary
per field (title, question prose, code, tags, matched keywords), so "slow" in a title and in a code comment are
different evidence; the blocks are stacked with field weights and each row is scaled to unit length. Words are
kept as written (no stop list: "not", "much" and "very" carry weight in problem reports); term frequency is
sublinear so one long log pasted into a post does not drown its title.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import normalize

FEATURES = ("plain", "fields")
# Field weights of the field-aware matrix: a title is short and says what the post is about.
FIELD_WEIGHTS = {"title": 1.5, "prose": 1.0, "code": 0.7, "tags": 0.5, "keywords": 0.5}
TOKEN_PATTERN = r"(?u)\b\w\w+\b"


def _vectorizer(ngram_max: int) -> TfidfVectorizer:
    return TfidfVectorizer(
        ngram_range=(1, ngram_max), sublinear_tf=True, token_pattern=TOKEN_PATTERN, dtype=np.float64
    )


def build_matrix(fields: dict[str, list[str]], kind: str = "fields", ngram_max: int = 1) -> sp.csr_matrix:
    """The records' feature rows (CSR, float64, unit length, sorted indices): what liblinear fits on without
    converting or sorting a copy per fit, which cost more than the fit itself in a replay."""
    if kind not in FEATURES:
        raise ValueError(f"unknown features {kind!r}: choose from {', '.join(FEATURES)}")
    present = [f for f in FIELD_WEIGHTS if any(t.strip() for t in fields.get(f, ()))]
    n = len(next(iter(fields.values())))
    if not present:
        return sp.csr_matrix((n, 1), dtype=np.float64)
    if kind == "plain":
        joined = [" ".join(parts) for parts in zip(*(fields[f] for f in present), strict=True)]
        matrix = _vectorizer(ngram_max).fit_transform(joined).tocsr()
        matrix.sort_indices()
        return matrix
    blocks = []
    for name in present:
        try:
            block = _vectorizer(ngram_max).fit_transform(fields[name])
        except ValueError:  # a field with no words at all (e.g. only punctuation)
            continue
        blocks.append(block * FIELD_WEIGHTS[name])
    matrix = normalize(sp.hstack(blocks, format="csr"))
    matrix.sort_indices()  # liblinear is many times slower on the unsorted rows hstack leaves
    return matrix
