"""Inter-rater agreement per dimension: observed agreement, Cohen's and Fleiss' kappa, Krippendorff's alpha.

Dimensions and what one rating is:

- ``identification``: a rater's PP / not-PP decision on a post (``identifications``), item = post.
- ``symptom``, ``root_cause``, ``introducing_stage``, ``exposing_stage``: a rater's codebook code for one PP
  (``pp_labels``), item = one aligned PP of a post. Raters' PPs are paired by ``labeling.alignment`` (by the
  part of the post they point at, else the best label match, by an optimal assignment), never by the order
  they were typed in; a PP one rater found and another did not gets ``(no PP)`` from the other: a disagreement.
  The item id is ``<post>_<n>`` for the n-th aligned PP; ``ItemRatings.pps`` says which PP of each rater it is.
- ``symptom_category``, ``root_cause_category``: the same, reduced to the code's category (``codebook.category``).

Symptoms: a PP may carry two symptoms (symptom1, symptom2). They are compared as ONE unordered set per PP: a
rater who gave {slow execution, memory leak} agrees with one who gave {memory leak, slow execution} and disagrees
with one who gave {slow execution} alone. The set is rendered as its sorted codes joined by ``+``.

A rating that is empty (no code) is a missing rating. Only items rated by at least two raters count. With
exactly two raters Cohen's kappa is computed by scikit-learn; Fleiss' kappa (generalised to a varying number of
raters per item) and Krippendorff's alpha (nominal, ``krippendorff`` package) are computed whenever defined, so
they cover more raters and missing ratings. A statistic that is undefined (e.g. every rating the same) is None.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import combinations
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.schema.labeling import Identification, PPLabel, Rater, pp_key
from core.sites import PostKey
from labeling import rater_agreement
from labeling.alignment import NO_PP, align_pps
from labeling.ratings import DimensionAgreement, ItemRatings, finite
from labeling.vocabulary import (
    AGREEMENT_DIMENSIONS,
    IDENTIFICATION,
    LABEL_DIMENSIONS,
    SET_JOIN,
    complete_label_sql,
    symptom_set,
)

DIMENSIONS = AGREEMENT_DIMENSIONS
STAGES = {"identify": (IDENTIFICATION,), "classify": LABEL_DIMENSIONS}
PP, NOT_PP = "pp", "not_pp"


# -- collecting ratings ---------------------------------------------------------------------------------------


def _category_set(codebook, symptom1: str | None, symptom2: str | None) -> str | None:
    cats = sorted({codebook.category(c) for c in (symptom1, symptom2) if c})
    return SET_JOIN.join(cats) if cats else None


def _row_values(row: PPLabel) -> dict[str, Any]:
    return {f: getattr(row, f) for f in ("symptom1", "symptom2", "root_cause", "introducing_stage",
                                         "exposing_stage", "part")}  # fmt: skip


def _label_value(codebook, dimension: str, row: PPLabel) -> str | None:
    if dimension == "symptom":
        return symptom_set(row.symptom1, row.symptom2)
    if dimension == "symptom_category":
        return _category_set(codebook, row.symptom1, row.symptom2)
    if dimension == "root_cause_category":
        return codebook.category(row.root_cause) if row.root_cause else None
    return getattr(row, dimension) or None


def collect_ratings(
    session: Session, codebook=None, dimensions: tuple[str, ...] = DIMENSIONS
) -> dict[str, list[ItemRatings]]:
    """Every item of each dimension with every rater's value, ordered by post and PP (items with one rater too)."""
    unknown = [d for d in dimensions if d not in DIMENSIONS]
    if unknown:
        raise ValueError(f"unknown agreement dimensions {unknown}; choose from {list(DIMENSIONS)}")
    if codebook is None and any(d.endswith("_category") for d in dimensions):
        from labeling.codebook import load_codebook

        codebook = load_codebook()
    out: dict[str, list[ItemRatings]] = {}
    if IDENTIFICATION in dimensions:
        items: dict[PostKey, ItemRatings] = {}
        rows = session.execute(
            sa.select(Identification.site, Identification.question_id, Rater.name, Identification.is_pp)
            .join(Rater, Rater.id == Identification.rater_id)
            .order_by(Identification.site, Identification.question_id, Rater.name)
        )
        for site, question_id, rater, is_pp in rows:
            qid = PostKey(site, question_id)
            item = items.setdefault(qid, ItemRatings(IDENTIFICATION, str(qid), qid, None))
            item.ratings[rater] = PP if is_pp else NOT_PP
        out[IDENTIFICATION] = list(items.values())
    label_dims = [d for d in dimensions if d != IDENTIFICATION]
    if label_dims:
        by_post: dict[PostKey, dict[str, dict[int, PPLabel]]] = {}
        # a label in progress (a required field empty) is no rating at all (core.label_rule)
        rows = session.execute(
            sa.select(PPLabel, Rater.name)
            .join(Rater, Rater.id == PPLabel.rater_id)
            .where(complete_label_sql(PPLabel))
        )
        for label, rater in rows:
            by_post.setdefault(label.key, {}).setdefault(rater, {})[label.pp_index] = label
        for dim in label_dims:
            out[dim] = []
        for qid in sorted(by_post):
            posts = by_post[qid]
            values = {r: {i: _row_values(row) for i, row in pps.items()} for r, pps in posts.items()}
            for slot_no, slot in enumerate(align_pps(values), 1):
                for dim in label_dims:
                    item = ItemRatings(
                        dim, pp_key(qid, slot_no), qid, slot_no, pps=dict(sorted(slot.items()))
                    )
                    for rater, index in slot.items():
                        value = _label_value(codebook, dim, posts[rater][index])
                        if value is not None:
                            item.ratings[rater] = value
                    if (
                        not item.ratings
                    ):  # nobody gave this PP a value here: no item, (no PP)s alone agree on nothing
                        continue
                    for rater in posts.keys() - slot.keys():  # labelled the post but not this PP
                        item.ratings[rater] = NO_PP
                    item.ratings = dict(sorted(item.ratings.items()))
                    out[dim].append(item)
    return {d: out[d] for d in dimensions}


def item_ratings(session: Session, codebook, dimension: str) -> list[ItemRatings]:
    """Every item of one dimension with each rater's value."""
    return collect_ratings(session, codebook, (dimension,))[dimension]


def disagreements(session: Session, codebook, dimension: str) -> list[ItemRatings]:
    """The items of one dimension that at least two raters rated differently."""
    return [i for i in item_ratings(session, codebook, dimension) if i.rated_by_several and not i.agreed]


# -- statistics -----------------------------------------------------------------------------------------------


def fleiss_kappa(items: list[list[str]]) -> tuple[float | None, float | None]:
    """(mean pairwise agreement, Fleiss' kappa) of items given as lists of values, each of length >= 2.

    Uses the form that allows a different number of raters per item: per-item agreement is the share of agreeing
    rater pairs, chance agreement comes from the pooled share of each value.
    """
    items = [v for v in items if len(v) >= 2]
    if not items:
        return None, None
    per_item, pooled, total = [], Counter(), 0
    for values in items:
        counts = Counter(values)
        n = len(values)
        per_item.append((sum(c * c for c in counts.values()) - n) / (n * (n - 1)))
        pooled.update(counts)
        total += n
    observed = sum(per_item) / len(per_item)
    expected = sum((c / total) ** 2 for c in pooled.values())
    kappa = None if expected >= 1 else (observed - expected) / (1 - expected)
    return observed, kappa


def krippendorff_alpha(items: list[dict[str, str]], raters: list[str]) -> float | None:
    """Nominal Krippendorff's alpha over a raters x items matrix with missing ratings."""
    import numpy as np

    domain = sorted({v for ratings in items for v in ratings.values()})
    if len(domain) < 2:
        return None
    code = {v: i for i, v in enumerate(domain)}
    matrix = np.full((len(raters), len(items)), np.nan)
    row = {r: i for i, r in enumerate(raters)}
    for j, ratings in enumerate(items):
        for rater, value in ratings.items():
            matrix[row[rater], j] = code[value]
    import krippendorff

    return finite(krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal"))


def disagreement_pairs(items: list[dict[str, str]], top: int | None = 5) -> list[dict[str, Any]]:
    """The most frequent unordered pairs of different values given to the same item by two raters."""
    pairs: Counter[tuple[str, str]] = Counter()
    for ratings in items:
        for a, b in combinations(sorted(ratings), 2):
            if ratings[a] != ratings[b]:
                pairs[tuple(sorted((ratings[a], ratings[b])))] += 1
    ranked = sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
    return [{"labels": list(p), "count": n} for p, n in ranked[:top]]


def agreement_of(dimension: str, items: list[ItemRatings], top: int | None = 5) -> DimensionAgreement:
    """The statistics of one dimension from its items (items with fewer than two raters are left out)."""
    several = [i for i in items if i.rated_by_several]
    rated = [i.ratings for i in several]
    raters = sorted({r for ratings in rated for r in ratings})
    observed, fleiss = fleiss_kappa([list(r.values()) for r in rated])
    pairs = rater_agreement.pairwise(rated, raters)
    cohen = pairs[0]["cohen_kappa"] if len(raters) == 2 else None  # two raters: the one pair rated every item
    kappas = [p["cohen_kappa"] for p in pairs if p["cohen_kappa"] is not None]
    return DimensionAgreement(
        dimension=dimension,
        items=len(rated),
        raters=raters,
        observed_agreement=finite(observed),
        cohen_kappa=cohen,
        fleiss_kappa=finite(fleiss),
        krippendorff_alpha=krippendorff_alpha(rated, raters) if rated else None,
        disagreements=disagreement_pairs(rated, top),
        pairwise=pairs,
        majority=rater_agreement.majority(rated, raters),
        confusion=rater_agreement.confusion(several, raters),
        disputed=rater_agreement.disputed(several),
        pairing=rater_agreement.pairing(several),
        mean_pairwise_kappa=finite(sum(kappas) / len(kappas)) if kappas else None,
    )


def compute_agreement(
    session: Session, codebook=None, stage: str | None = None, top: int | None = 5
) -> dict[str, DimensionAgreement]:
    """Agreement per dimension, keyed in :data:`DIMENSIONS` order.

    ``stage``: None (all dimensions), ``"identify"`` (identification only) or ``"classify"`` (the label
    dimensions). ``top``: how many disagreement pairs to keep per dimension (None: all).
    """
    if stage is not None and stage not in STAGES:
        raise ValueError(f"stage must be one of {sorted(STAGES)} or None, not {stage!r}")
    dims = STAGES[stage] if stage else DIMENSIONS
    ratings = collect_ratings(session, codebook, dims)
    return {d: agreement_of(d, ratings[d], top) for d in dims}


# -- figures ----------------------------------------------------------------------------------------------------


def chart_kappa(
    cohen: Iterable[float | None], fleiss: Iterable[float | None]
) -> tuple[list[float | None], str]:
    """Per dimension the kappa a chart shows (Cohen's where two raters, else Fleiss') and a title naming
    exactly the statistics shown, so a three-rater study is never titled Cohen's."""
    values, shown = [], set()
    for c, f in zip(cohen, fleiss, strict=True):
        c, f = finite(c), finite(f)
        values.append(c if c is not None else f)
        if c is not None or f is not None:
            shown.add("Cohen's" if c is not None else "Fleiss'")
    if shown == {"Cohen's", "Fleiss'"}:
        return values, "Cohen's (two raters) or Fleiss' kappa per dimension"
    return values, f"{shown.pop() if shown else 'No'} kappa per dimension"
