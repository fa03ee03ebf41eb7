"""Who disagrees with whom, and on what: the per-rater side of agreement.

From one dimension's items (each a ``{rater: value}`` dict, rated by at least two raters):

- ``pairwise``: for every pair of raters, the items both rated, their observed agreement and Cohen's kappa.
- ``majority``: for every rater, the share of items where the rater's value equals the majority of the OTHER raters
  (the one most frequent value among them; items where the others tie have no majority and are left out). A rater
  who labels at random stands out with a low share even when the summary statistics look fine.
- ``confusion``: the directed confusion counts per rater pair, ``rater_a`` (the first in name order) said
  ``label_a`` while ``rater_b`` said ``label_b``; agreeing cells are included, so each pair's counts add up to its
  items.
- ``disputed``: the items that at least two raters rated differently, with every rater's value.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from labeling.ratings import ItemRatings, cohen_kappa


def pairwise(items: list[dict[str, str]], raters: list[str]) -> list[dict[str, Any]]:
    out = []
    for a, b in combinations(raters, 2):
        both = [r for r in items if a in r and b in r]
        first, second = [r[a] for r in both], [r[b] for r in both]
        agree = sum(x == y for x, y in zip(first, second, strict=True))
        out.append(
            {
                "rater_a": a,
                "rater_b": b,
                "items": len(both),
                "observed_agreement": agree / len(both) if both else None,
                "cohen_kappa": cohen_kappa(first, second) if both else None,
            }
        )
    return out


def _majority(values: list[str]) -> str | None:
    ranked = Counter(values).most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def majority(items: list[dict[str, str]], raters: list[str]) -> list[dict[str, Any]]:
    out = []
    for rater in raters:
        compared = agreed = 0
        for ratings in items:
            if rater not in ratings:
                continue
            others = _majority([v for r, v in ratings.items() if r != rater])
            if others is None:
                continue
            compared += 1
            agreed += ratings[rater] == others
        out.append(
            {
                "rater": rater,
                "items": compared,
                "agreement_with_majority": agreed / compared if compared else None,
            }
        )
    return out


def confusion(items: list[ItemRatings], raters: list[str]) -> list[dict[str, Any]]:
    cells: dict[tuple[str, str, str, str], list[str]] = {}
    for item in items:
        for a, b in combinations(sorted(item.ratings), 2):
            cells.setdefault((a, b, item.ratings[a], item.ratings[b]), []).append(item.item)
    order = {r: i for i, r in enumerate(raters)}
    ranked = sorted(cells.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]], -len(kv[1]), kv[0][2:]))
    return [
        {"rater_a": a, "rater_b": b, "label_a": x, "label_b": y, "count": len(ids), "items": ids}
        for (a, b, x, y), ids in ranked
    ]


def disputed(items: list[ItemRatings]) -> list[dict[str, Any]]:
    """The items rated differently, in the given order, with every rater's value."""
    return [
        {"item": i.item, "ratings": dict(sorted(i.ratings.items()))}
        for i in items
        if len(i.ratings) >= 2 and len(set(i.ratings.values())) > 1
    ]


def pairing(items: list[ItemRatings]) -> list[dict[str, Any]]:
    """For each aligned PP rated by several raters: which of each rater's own PPs it is (``None``: the rater
    labelled the post but has no PP here). Lets a reader check labeling.alignment's pairing post by post."""
    from core.schema.labeling import pp_key

    return [
        {
            "item": i.item,
            "pps": {r: pp_key(i.question_id, i.pps[r]) if r in i.pps else None for r in i.ratings},
        }
        for i in items
        if i.pp_index is not None and len(i.ratings) >= 2
    ]
