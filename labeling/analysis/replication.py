"""The replication check: every published figure of the paper beside this database's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from core.errors import PPMinerError
from labeling.analysis.labels import _dimension_codes, _known
from labeling.analysis.rq4 import RQ4_TOOLS, rq4_table

REPLICATION_COLUMNS = ["section", "item", "published", "database", "difference", "status"]


def load_published(path: str | Path) -> dict[str, Any]:
    """The paper's figures from ``data/published.yaml``; empty when the file holds none."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PPMinerError(f"published figures not found: {path}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise PPMinerError(f"{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
    if data is None:  # empty, or only comments: no figures published
        return {}
    if not isinstance(data, dict):
        raise PPMinerError(f"{path}: expected a mapping of sections at the top level")
    return data


def _compare(
    section: str, item: str, published: Any, database: Any, tolerance: float = 0.0
) -> dict[str, Any]:
    if published is None:
        status, diff = "not published", None
    elif database is None or (isinstance(database, float) and pd.isna(database)):
        status, diff = "MISSING", None
    else:
        diff = database - published
        status = "same" if abs(diff) <= tolerance else "DIFFERS"
        diff = round(diff, 3) if isinstance(diff, float) else diff
    return {"section": section, "item": item, "published": published, "database": database,
            "difference": diff, "status": status}  # fmt: skip


def replication_table(published: dict[str, Any], tables: dict[str, pd.DataFrame], codebook) -> pd.DataFrame:
    """Every published figure beside the database's; ``status`` is ``same``, ``DIFFERS`` or ``MISSING``.

    ``tables``: ``symptoms``, ``root_causes``, ``stages``, ``funnel`` and optionally ``agreement`` and
    ``benchmark`` (:func:`benchmark_cases`, for RQ4) as returned by the functions here. Kappas compare to the
    paper's three decimals.
    """
    rows: list[dict[str, Any]] = []
    funnel = tables["funnel"]
    steps = funnel[funnel["keyword"] == ""].set_index("step")["count"]
    for step, value in (published.get("funnel") or {}).items():
        got = steps.get(step)
        rows.append(_compare("funnel", step, value, None if got is None or pd.isna(got) else int(got)))
    for section, dimension in (("symptoms", "symptom"), ("root_causes", "root_cause")):
        pub = published.get(section) or {}
        table = tables[section]
        by_cat = table[table["subcategory"] == ""].set_index("category")["count"]
        by_sub = table[table["subcategory"] != ""].set_index(["category", "subcategory"])["count"]
        for cat, value in (pub.get("categories") or {}).items():
            name = codebook.category_name(cat)
            rows.append(_compare(section, name, value, _int(by_cat.get(name))))
        known = _dimension_codes(codebook, dimension)
        for code, value in (pub.get("subcategories") or {}).items():
            known_code = _known(known, code, dimension, "in the published figures")
            key = (known_code.category_name, known_code.name)
            rows.append(_compare(section, " / ".join(key), value, _int(by_sub.get(key))))
    stages = tables["stages"].set_index("stage")
    stage_codes = _dimension_codes(codebook, "stage")
    for role in ("introducing", "exposing"):
        for code, value in ((published.get("stages") or {}).get(role) or {}).items():
            name = _known(stage_codes, code, "stage", "in the published figures").name
            got = stages[role].get(name)
            rows.append(_compare(f"{role} stage", name, value, _int(got)))
    agreement = tables.get("agreement")
    kappas = {}
    if agreement is not None and len(agreement) and "cohen_kappa" in agreement:
        kappas = agreement.set_index("dimension")["cohen_kappa"].to_dict()
    for dimension, value in (published.get("kappa") or {}).items():
        got = kappas.get(dimension)
        got = None if got is None or pd.isna(got) else round(float(got), 3)
        rows.append(_compare("kappa", dimension, value, got, tolerance=0.0005))
    rows.extend(rq4_replication_rows(published.get("rq4"), tables.get("benchmark")))
    return pd.DataFrame(rows, columns=REPLICATION_COLUMNS, dtype=object)


def _int(value: Any) -> int | None:
    return None if value is None or pd.isna(value) else int(value)


def rq4_replication_rows(
    published: dict[str, Any] | None, cases: pd.DataFrame | None
) -> list[dict[str, Any]]:
    """The paper's RQ4 figures (``rq4`` in published.yaml) beside the stored benchmark's."""
    if not published:
        return []
    have = cases is not None and len(cases) > 0
    table = rq4_table(cases).set_index("tool") if have else None
    rows = [_compare("rq4", "cases", published.get("cases"), len(cases) if have else None)]
    for tool in RQ4_TOOLS:
        for column, value in (published.get(tool) or {}).items():
            got = table.loc[tool, column] if have and column in table.columns else None
            rows.append(_compare("rq4", f"{tool} {column.replace('_', ' ')}", value, _int(got)))
    return rows
