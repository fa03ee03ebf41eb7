"""The final labels and the tables of RQ1 to RQ3: PPs per symptom, per root cause and per stage."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.errors import PPMinerError
from core.schema.labeling import FinalIdentification, FinalLabel, pp_key
from core.sites import PostKey

TABLE_COLUMNS = ["category", "subcategory", "count", "percent"]
STAGE_COLUMNS = ["stage", "introducing", "exposing"]
MATRIX_CORNER = "introducing \\ exposing"  # stage_matrix: rows are introducing stages, columns exposing
LABEL_COLUMNS = ["question_id", "pp_index", "symptom1", "symptom2", "root_cause", "introducing_stage",
                 "exposing_stage", "site"]  # fmt: skip


def percent(count: int, total: int) -> float:
    """Percent with one decimal, halves rounded up as the paper does (126 of 224 -> 56.3)."""
    if not total:
        return 0.0
    value = Decimal(count) * 100 / Decimal(total)
    return float(value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


# --- reading --------------------------------------------------------------------------------------------------


def final_labels(session: Session) -> pd.DataFrame:
    """One row per final PP (``LABEL_COLUMNS``), leaving out posts whose final identification says 'not a PP'."""
    not_pp = sa.select(FinalIdentification.site, FinalIdentification.question_id).where(
        FinalIdentification.is_pp.is_(False)
    )
    stmt = (
        sa.select(*(getattr(FinalLabel, c) for c in LABEL_COLUMNS))
        .where(sa.tuple_(FinalLabel.site, FinalLabel.question_id).not_in(not_pp))
        .order_by(FinalLabel.site, FinalLabel.question_id, FinalLabel.pp_index)
    )
    rows = session.execute(stmt).all()
    frame = pd.DataFrame([tuple(r) for r in rows], columns=LABEL_COLUMNS)
    return frame.astype({c: "object" for c in LABEL_COLUMNS[2:]}).where(frame.notna(), None)


def _dimension_codes(codebook, dimension: str) -> dict:
    """Code -> Code of one dimension, legacy codes included, in codebook order."""
    return {c.code: c for c in codebook.codes(dimension, include_legacy=True)}


def _known(codes: dict, value: str, dimension: str, where: str):
    if value not in codes:
        raise PPMinerError(f"{where}: {value!r} is not a {dimension} code of the codebook")
    return codes[value]


# --- RQ1 / RQ2: symptoms and root causes -----------------------------------------------------------------------


def category_table(labels: pd.DataFrame, codebook, dimension: str, columns: list[str]) -> pd.DataFrame:
    """Count and percent of PPs per category (each PP once) and then per subcategory (a PP counts under each of
    its codes). ``columns`` are the label columns holding codes of ``dimension``; every offered code appears, a
    legacy code only when used. A code without a subcategory (``unknown``, ``other``) has its category row only.
    """
    known = _dimension_codes(codebook, dimension)
    total = len(labels)
    code_counts: dict[str, int] = {}
    cat_counts: dict[str, int] = {}
    for row in labels.itertuples(index=False):
        where = f"final label of PP {pp_key(PostKey(row.site, row.question_id), row.pp_index)}"
        codes = {_known(known, v, dimension, where).code for v in (getattr(row, c) for c in columns) if v}
        for code in codes:
            code_counts[code] = code_counts.get(code, 0) + 1
        for cat in {known[code].category for code in codes}:
            cat_counts[cat] = cat_counts.get(cat, 0) + 1

    shown = [c for c in known.values() if not c.legacy or c.code in code_counts]
    rows: list[dict[str, Any]] = []
    for cat in dict.fromkeys(c.category for c in shown):
        n = cat_counts.get(cat, 0)
        rows.append({"category": codebook.category_name(cat), "subcategory": "", "count": n,
                     "percent": percent(n, total)})  # fmt: skip
    for code in shown:
        if code.code == code.category:
            continue
        n = code_counts.get(code.code, 0)
        rows.append({"category": code.category_name, "subcategory": code.name, "count": n,
                     "percent": percent(n, total)})  # fmt: skip
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)


def symptom_table(labels: pd.DataFrame, codebook) -> pd.DataFrame:
    """RQ1: symptoms per category and subcategory (``symptom1`` and ``symptom2`` both count)."""
    return category_table(labels, codebook, "symptom", ["symptom1", "symptom2"])


def root_cause_table(labels: pd.DataFrame, codebook) -> pd.DataFrame:
    """RQ2: root causes per category and subcategory."""
    return category_table(labels, codebook, "root_cause", ["root_cause"])


# --- RQ3: stages -------------------------------------------------------------------------------------------------


def _stage_names(labels: pd.DataFrame, codebook) -> dict[str, str]:
    """Stage code -> name: the offered stages, then any legacy stage the labels use; an unknown code raises."""
    known = _dimension_codes(codebook, "stage")
    used = set()
    for row in labels.itertuples(index=False):
        for value in (row.introducing_stage, row.exposing_stage):
            if value:
                where = f"final label of PP {pp_key(PostKey(row.site, row.question_id), row.pp_index)}"
                used.add(_known(known, value, "stage", where).code)
    return {c.code: c.name for c in known.values() if not c.legacy or c.code in used}


def stage_table(labels: pd.DataFrame, codebook) -> pd.DataFrame:
    """RQ3: PPs per stage, as introducing and as exposing stage, in codebook order."""
    names = _stage_names(labels, codebook)
    intro = labels["introducing_stage"].value_counts()
    expo = labels["exposing_stage"].value_counts()
    rows = [{"stage": name, "introducing": int(intro.get(c, 0)), "exposing": int(expo.get(c, 0))}
            for c, name in names.items()]  # fmt: skip
    return pd.DataFrame(rows, columns=STAGE_COLUMNS)


def stage_matrix(labels: pd.DataFrame, codebook) -> pd.DataFrame:
    """RQ3: PPs per (introducing stage, exposing stage): rows introducing, columns exposing, codebook names."""
    names = _stage_names(labels, codebook)
    order = list(names.values())
    matrix = pd.DataFrame(0, index=pd.Index(order, name=MATRIX_CORNER), columns=pd.Index(order))
    both = labels.dropna(subset=["introducing_stage", "exposing_stage"])
    for (intro, expo), n in both.groupby(["introducing_stage", "exposing_stage"]).size().items():
        matrix.loc[names[intro], names[expo]] = int(n)
    return matrix
