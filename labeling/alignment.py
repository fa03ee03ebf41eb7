"""Which PP of one rater is the same PP as which PP of another: the alignment agreement and reconcile use.

A post can hold several PPs, and each rater numbers theirs in the order they typed them. That order says
nothing: two raters who found the same two PPs in opposite order agree. So PPs are paired by what they are:

1. Each rater's PPs are put in a canonical order by their content (symptom set, root cause, stages, part), so
   nothing below depends on the order they were typed in.
2. Raters are taken in name order. The first rater's PPs open one slot each. Every further rater's PPs are
   assigned to the slots so far by an optimal assignment (the Hungarian method) maximising the total score of
   the pairs, where a PP scores against each PP already in a slot:
   - ``PART_WEIGHT`` when both name the same part of the post (the ``part`` text, compared trimmed and
     case-folded) — the part a PP points at decides first;
   - plus 1 for each of symptom set, root cause, introducing stage and exposing stage they agree on (the best
     label match).
   As many pairs as possible are made (a rater with two PPs on a post pairs both with another rater's two).
3. A PP left over (a rater found more PPs than the slots hold) opens a slot of its own. In that slot every
   other rater who labelled the post has the value :data:`NO_PP`: an unmatched PP counts as a disagreement.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PART_WEIGHT = 100
NO_PP = "(no PP)"


def _symptoms(values: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(sorted({c for c in (values.get("symptom1"), values.get("symptom2")) if c}))


def _part(values: Mapping[str, Any]) -> str:
    return " ".join(str(values.get("part") or "").split()).casefold()


def _content(values: Mapping[str, Any]) -> tuple:
    """What a PP says, comparable across raters (symptoms as an unordered set)."""
    return (
        _symptoms(values),
        values.get("root_cause") or "",
        values.get("introducing_stage") or "",
        values.get("exposing_stage") or "",
        _part(values),
    )


def pair_score(a: Mapping[str, Any], b: Mapping[str, Any]) -> int:
    """How strongly two raters' PPs look like the same PP (see the module docstring)."""
    ca, cb = _content(a), _content(b)
    score = PART_WEIGHT if ca[4] and ca[4] == cb[4] else 0
    return score + sum(1 for x, y in zip(ca[:4], cb[:4], strict=True) if x and x == y)


def align_pps(pps: Mapping[str, Mapping[int, Mapping[str, Any]]]) -> list[dict[str, int]]:
    """Slots of one post: each maps rater name -> that rater's ``pp_index`` in the slot.

    ``pps``: rater name -> pp_index -> label values (``symptom1``, ``symptom2``, ``root_cause``, stages,
    ``part``). Which PPs share a slot does not depend on how any rater numbered their PPs; the slots are listed
    by the first rater's (by name) numbering, then the next rater's, so slot n is usually everyone's PP n.
    """
    from scipy.optimize import linear_sum_assignment

    slots: list[dict[str, int]] = []
    for rater in sorted(pps):
        own = sorted(pps[rater], key=lambda i: (_content(pps[rater][i]), i))
        if not own:
            continue
        if not slots:
            slots = [{rater: i} for i in own]
            continue
        scores = [
            [sum(pair_score(pps[rater][i], pps[r][j]) for r, j in slot.items()) for slot in slots]
            for i in own
        ]
        rows, cols = linear_sum_assignment(scores, maximize=True)
        taken = set()
        for row, col in zip(rows, cols, strict=True):
            slots[col][rater] = own[row]
            taken.add(row)
        slots.extend({rater: i} for n, i in enumerate(own) if n not in taken)
    raters = sorted(pps)
    return sorted(slots, key=lambda slot: [slot.get(r, float("inf")) for r in raters])
