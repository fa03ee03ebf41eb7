"""`pplabel agreement`'s output, built in one place from one agreement result (``labeling.agreement``).

:func:`report_rows` gives the rows and columns of one report (``summary`` or a per-rater table of
``labeling.rater_agreement``): what ``--format csv`` and ``--format json --report X`` write, and what
``labeling.analysis`` turns into DataFrames. :func:`to_json` is the whole result per dimension (``--format json``).
:func:`blocks` is everything the command prints for a format and report, in order: the CLI only prints them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from labeling.alignment import NO_PP
from labeling.ratings import DimensionAgreement

Result = dict[str, DimensionAgreement]

REPORTS = ("summary", "pairwise", "majority", "confusion", "disputed", "pairing")
SHOWN_IDS = 5

#: The summary's columns in CSV and the notebooks (one row per dimension).
SUMMARY_COLUMNS = (
    "dimension",
    "items",
    "raters",
    "observed_agreement",
    "cohen_kappa",
    "fleiss_kappa",
    "krippendorff_alpha",
    "disagreements",
    "mean_pairwise_kappa",
)
LIGHT_COLUMN = "light κ"
LIGHT_NOTE = "light κ: Light's kappa, the mean of the pairwise Cohen's kappas (Cohen's κ with two raters)"


# -- the summary ---------------------------------------------------------------------------------------------


def to_json(result: Result) -> str:
    """``{dimension: {items, raters, observed_agreement, cohen_kappa, fleiss_kappa, krippendorff_alpha,
    disagreements, ...}}``."""
    return json.dumps({d: a.as_dict() for d, a in result.items()}, indent=2, ensure_ascii=False)


def summary_rows(result: Result) -> list[dict[str, Any]]:
    """One flat row per dimension (for CSV); disagreements as 'a / b (n)' joined by '; '."""
    rows = []
    for a in result.values():
        row = a.as_dict()
        row["raters"] = ", ".join(a.raters)
        row["disagreements"] = "; ".join(
            f"{d['labels'][0]} / {d['labels'][1]} ({d['count']})" for d in a.disagreements
        )
        rows.append(row)
    return rows


def table_rows(result: Result) -> list[dict[str, Any]]:
    """The summary with short column names for a terminal table (disagreements: :func:`directed_disagreements`)."""
    return [
        {
            "dimension": a.dimension,
            "items": a.items,
            "raters": ", ".join(a.raters),
            "observed": a.observed_agreement,
            # one pairwise kappa column: Light's (mean pairwise Cohen's), Cohen's itself with two raters
            LIGHT_COLUMN: a.mean_pairwise_kappa,
            "fleiss κ": a.fleiss_kappa,
            "kripp. α": a.krippendorff_alpha,
        }
        for a in result.values()
    ]


def needs_light_note(result: Result) -> bool:
    return any(len(a.raters) > 2 and a.mean_pairwise_kappa is not None for a in result.values())


# -- the per-rater reports -----------------------------------------------------------------------------------


def pairwise_rows(result: Result) -> list[dict[str, Any]]:
    return [{"dimension": a.dimension, **p} for a in result.values() for p in a.pairwise]


def majority_rows(result: Result) -> list[dict[str, Any]]:
    return [{"dimension": a.dimension, **m} for a in result.values() for m in a.majority]


def confusion_rows(result: Result) -> list[dict[str, Any]]:
    return [{"dimension": a.dimension, **c} for a in result.values() for c in a.confusion]


def disputed_rows(result: Result) -> list[dict[str, Any]]:
    """One row per (dimension, disputed item, rater): long form, one value per cell, for a spreadsheet."""
    return [
        {"dimension": a.dimension, "item": d["item"], "rater": rater, "value": value}
        for a in result.values()
        for d in a.disputed
        for rater, value in d["ratings"].items()
    ]


def pairing_rows(result: Result) -> list[dict[str, Any]]:
    """One row per (aligned PP, rater): the PP as the rater numbered it. The pairing is the same in every label
    dimension, so it is read from the first one computed (symptom unless --stage says otherwise)."""
    first = next((a for a in result.values() if a.pairing), None)
    if first is None:
        return []
    return [
        {"item": p["item"], "rater": rater, "rater_pp": own if own is not None else NO_PP}
        for p in first.pairing
        for rater, own in p["pps"].items()
    ]


ROWS: dict[str, tuple[Callable[[Result], list[dict[str, Any]]], tuple[str, ...]]] = {
    "summary": (summary_rows, SUMMARY_COLUMNS),
    "pairwise": (
        pairwise_rows,
        ("dimension", "rater_a", "rater_b", "items", "observed_agreement", "cohen_kappa"),
    ),
    "majority": (majority_rows, ("dimension", "rater", "items", "agreement_with_majority")),
    "confusion": (
        confusion_rows,
        ("dimension", "rater_a", "rater_b", "label_a", "label_b", "count", "items"),
    ),
    "disputed": (disputed_rows, ("dimension", "item", "rater", "value")),
    "pairing": (pairing_rows, ("item", "rater", "rater_pp")),
}


def report_rows(result: Result, report: str = "summary") -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """The rows and columns of one report (``REPORTS``)."""
    rows_of, columns = ROWS[report]
    return rows_of(result), columns


# -- the terminal's tables -----------------------------------------------------------------------------------


def _ids(ids: list[str], shown: int = SHOWN_IDS) -> str:
    more = len(ids) - shown
    return ", ".join(ids[:shown]) + (f" (+{more})" if more > 0 else "")


def pivot_pairwise(result: Result) -> list[dict[str, Any]]:
    """Dimensions x rater pairs, Cohen's kappa per cell (terminal table)."""
    return [
        {"dimension": a.dimension} | {f"{p['rater_a']}–{p['rater_b']}": p["cohen_kappa"] for p in a.pairwise}
        for a in result.values()
        if a.pairwise
    ]


def pivot_majority(result: Result) -> list[dict[str, Any]]:
    """Dimensions x raters, share of items agreeing with the other raters' majority (terminal table)."""
    return [
        {"dimension": a.dimension} | {m["rater"]: m["agreement_with_majority"] for m in a.majority}
        for a in result.values()
        if a.majority
    ]


def directed_disagreements(result: Result, top: int | None) -> list[dict[str, Any]]:
    """The most frequent disagreeing cells of each dimension, with direction and the first item ids."""
    out = []
    for a in result.values():
        cells = sorted((c for c in a.confusion if c["label_a"] != c["label_b"]), key=lambda c: -c["count"])
        for c in cells[:top]:
            out.append(
                {
                    "dimension": a.dimension,
                    "rater A said": f"{c['rater_a']}: {c['label_a']}",
                    "rater B said": f"{c['rater_b']}: {c['label_b']}",
                    "count": c["count"],
                    "items": _ids(c["items"]),
                }
            )
    return out


@dataclass(frozen=True)
class Block:
    """One piece of the command's output, in order: a table (``rows`` under ``title``, in ``columns`` when
    given), machine data printed as it is (``data``), a note line (``note``) or a paragraph (``paragraph``)."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    columns: tuple[str, ...] | None = None
    title: str = ""
    data: str | None = None
    note: str | None = None
    paragraph: str | None = None


def blocks(result: Result, report: str = "summary", fmt: str = "table", top: int | None = 5) -> list[Block]:
    """Everything `pplabel agreement --report REPORT --format FMT --top TOP` prints, in order."""
    if report != "summary":
        rows, columns = report_rows(result, report)
        return [Block(rows, columns, f"Agreement: {report}")]
    if fmt == "json":
        return [Block(data=to_json(result) + "\n")]
    if fmt == "csv":
        return [Block(*report_rows(result))]
    out = [Block(table_rows(result), title="Inter-rater agreement")]
    if needs_light_note(result):
        out.append(Block(note=LIGHT_NOTE))
    out.append(Block(pivot_pairwise(result), title="Cohen's kappa per rater pair"))
    out.append(Block(pivot_majority(result), title="Agreement with the other raters' majority"))
    if top:
        out.append(Block(directed_disagreements(result, top), title="Most frequent disagreements"))
    counts = ", ".join(f"{a.dimension} {len(a.disputed)}" for a in result.values() if a.disputed)
    if counts:
        out.append(Block(paragraph=f"disputed items: {counts} (--report disputed lists them)"))
    paired = next((len(a.pairing) for a in result.values() if a.pairing), 0)
    if paired:
        out.append(
            Block(
                paragraph=f"PPs paired across raters: {paired} (--report pairing says which PP of each rater)"
            )
        )
    return out
