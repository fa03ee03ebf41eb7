"""What agreement is computed from and into: one item's ratings, one dimension's statistics, and Cohen's kappa.

Shared by ``labeling.agreement`` (per dimension) and ``labeling.rater_agreement`` (per rater and pair), so that
neither imports the other's module back.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import asdict, dataclass, field
from typing import Any

from core.sites import PostKey


@dataclass
class ItemRatings:
    """All raters' values for one item of one dimension."""

    dimension: str
    item: str  # the post as written (65160023, ai:136), or the PP id '<post>_<pp>'
    question_id: PostKey
    pp_index: int | None
    ratings: dict[str, str] = field(default_factory=dict)  # rater name -> value
    pps: dict[str, int] = field(default_factory=dict)  # labels: rater name -> their own pp_index in this item

    @property
    def rated_by_several(self) -> bool:
        return len(self.ratings) >= 2

    @property
    def agreed(self) -> bool:
        """True when at least two raters rated the item and all gave the same value."""
        return self.rated_by_several and len(set(self.ratings.values())) == 1


@dataclass
class DimensionAgreement:
    dimension: str
    items: int  # items rated by at least two raters
    raters: list[str]
    observed_agreement: float | None
    cohen_kappa: float | None  # exactly two raters, else None
    fleiss_kappa: float | None
    krippendorff_alpha: float | None
    disagreements: list[dict[str, Any]]  # [{"labels": [a, b], "count": n}], most frequent first
    # per rater and pair (labeling.rater_agreement): who disagrees with whom, on which items
    pairwise: list[dict[str, Any]] = field(default_factory=list)
    majority: list[dict[str, Any]] = field(default_factory=list)
    confusion: list[dict[str, Any]] = field(default_factory=list)
    disputed: list[dict[str, Any]] = field(default_factory=list)
    # Light's kappa: the mean of the pairwise Cohen's kappas (equals Cohen's with two raters); defined for any
    # number of raters, so a summary row never goes blank when a third rater joins.
    mean_pairwise_kappa: float | None = None
    pairing: list[dict[str, Any]] = field(default_factory=list)  # label dimensions: which PPs were paired

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def finite(value: float | None) -> float | None:
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) or math.isinf(value) else value


def cohen_kappa(first: list[str], second: list[str]) -> float | None:
    from sklearn.metrics import cohen_kappa_score

    if not first:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined kappa (one label only) comes back as NaN -> None
        return finite(cohen_kappa_score(first, second))
