"""The queries behind the analysis notebooks: the study's tables as pandas DataFrames, read from the database.

Notebooks import only this module. ``open_study()`` takes the database from ``PPMINER_DB`` and the output folder
from ``PPMINER_OUT`` (default ``notebooks/output/`` of the checkout); relative paths in either are taken from the
folder the command (``jupyter nbconvert``, ``jupyter lab``) was started in, the same folder nbconvert's
``--output-dir`` and ppmine's ``--db`` are relative to, although the kernel itself runs in ``notebooks/``. Names of categories, subcategories and
stages are the codebook's; counts are over final (reconciled) labels.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from labeling.agreement import chart_kappa
from labeling.models import FinalIdentification, FinalLabel, pp_key
from mining.config import StudyConfig, load_config
from mining.db import PROJECT_ROOT, Store, open_store, redact, resolve_url
from mining.errors import PPMinerError
from mining.models import Candidate, CandidateHit, KeywordSet
from mining.sites import PostKey
from mining.stats import filter_steps, funnel_counts, latest_keyword_set_id

ENV_DB = "PPMINER_DB"
ENV_OUT = "PPMINER_OUT"
DEFAULT_DB = PROJECT_ROOT / "data" / "study.db"
DEFAULT_OUT = PROJECT_ROOT / "notebooks" / "output"

TABLE_COLUMNS = ["category", "subcategory", "count", "percent"]
STAGE_COLUMNS = ["stage", "introducing", "exposing"]
MATRIX_CORNER = "introducing \\ exposing"  # stage_matrix: rows are introducing stages, columns exposing
FUNNEL_COLUMNS = ["step", "keyword", "count"]
REPLICATION_COLUMNS = ["section", "item", "published", "database", "difference", "status"]
LABEL_COLUMNS = ["question_id", "pp_index", "symptom1", "symptom2", "root_cause", "introducing_stage",
                 "exposing_stage", "site"]  # fmt: skip

# funnel step -> what it counts, in funnel order
FUNNEL_STEPS = {
    "questions": "questions acquired",
    "with_tag": "questions with one of the study's tags (last match run)",
    "in_scope": "of those, created in the study's date window (last match run)",
    "with_code": "of those, with a code block (last match run)",
    "selected": "questions passing the selection filters (last match run)",
    "candidates": "keyword candidates",
    "candidates_with_keyword": "candidates matching one keyword",
    "identified": "posts rated by at least one rater",
    "pp_posts": "posts finally identified as holding a PP",
    "labelled_posts": "posts with final PP labels",
    "pps_labelled": "PPs with final labels",
}


def percent(count: int, total: int) -> float:
    """Percent with one decimal, halves rounded up as the paper does (126 of 224 -> 56.3)."""
    if not total:
        return 0.0
    value = Decimal(count) * 100 / Decimal(total)
    return float(value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def launch_dir() -> Path:
    """The folder the user started the command in: ``$PWD`` as the shell set it (a notebook kernel runs in
    ``notebooks/`` but inherits the shell's ``$PWD``, as nbconvert's ``--output-dir`` does), else the working
    directory."""
    pwd = os.environ.get("PWD")
    return Path(pwd) if pwd and Path(pwd).is_dir() else Path.cwd()


def _from_launch_dir(path: str | Path) -> Path:
    path = Path(path).expanduser()
    return path if path.is_absolute() else launch_dir() / path


def database_url(url: str | None = None) -> str:
    """``url``, else ``PPMINER_DB``, else the checkout's ``data/study.db``; a relative SQLite path is from the
    folder the command was started in (:func:`launch_dir`), as for ppmine and pplabel."""
    url = resolve_url(url or os.environ.get(ENV_DB) or str(DEFAULT_DB))
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        db = Path(parsed.database)
        if not db.is_absolute():
            url = parsed.set(database=str(_from_launch_dir(db))).render_as_string(hide_password=False)
        if not Path(make_url(url).database).exists():
            raise PPMinerError(f"no study database at {redact(url)} (set {ENV_DB} to its URL)")
    return url


def output_dir(path: str | Path | None = None) -> Path:
    """``path``, else ``PPMINER_OUT``, else ``notebooks/output/`` of the checkout; created when missing. A relative
    path is from the folder the command was started in (:func:`launch_dir`), like nbconvert's ``--output-dir``."""
    out = _from_launch_dir(path or os.environ.get(ENV_OUT) or DEFAULT_OUT)
    out.mkdir(parents=True, exist_ok=True)
    return out


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


# --- funnel ------------------------------------------------------------------------------------------------------


def keyword_candidates(session: Session) -> pd.DataFrame:
    """Candidates per keyword of the keyword-set version last matched, in keyword-file order (zeros kept)."""
    set_id = latest_keyword_set_id(session)
    if set_id is None:
        return pd.DataFrame(columns=["keyword", "candidates"])
    keywords = list(session.scalar(sa.select(KeywordSet.keywords).where(KeywordSet.id == set_id)) or [])
    stmt = (
        sa.select(CandidateHit.keyword, sa.func.count(sa.distinct(CandidateHit.candidate_id)))
        .join(Candidate, Candidate.id == CandidateHit.candidate_id)
        .where(Candidate.keyword_set_id == set_id)
        .group_by(CandidateHit.keyword)
    )
    counts = dict(session.execute(stmt).all())
    keywords += sorted(k for k in counts if k not in keywords)
    return pd.DataFrame({"keyword": keywords, "candidates": [int(counts.get(k, 0)) for k in keywords]})


def funnel_table(session: Session) -> pd.DataFrame:
    """The mining funnel (``FUNNEL_STEPS``); ``keyword`` is set on the per-keyword candidate rows only.
    The selection steps (``with_tag`` .. ``selected``) are empty before the first match run."""
    counts = funnel_counts(session)
    run_steps = filter_steps(session)
    values = {
        "questions": counts["questions"],
        "with_tag": run_steps["with_tag"],
        "in_scope": run_steps["in_scope"],
        "with_code": run_steps["with_code"],
        "selected": counts["selected"],
        "candidates": counts["candidates"],
        "identified": counts["identified"],
        "pp_posts": counts["pp_posts"],
        "labelled_posts": counts["labelled_posts"],
        "pps_labelled": counts["pps_final"],
    }
    rows: list[dict[str, Any]] = []
    for step in FUNNEL_STEPS:
        if step == "candidates_with_keyword":
            for kw in keyword_candidates(session).itertuples(index=False):
                rows.append({"step": step, "keyword": kw.keyword, "count": kw.candidates})
        else:
            rows.append({"step": step, "keyword": "", "count": values[step]})
    return pd.DataFrame(rows, columns=FUNNEL_COLUMNS).astype({"count": "Int64"})


# --- agreement ---------------------------------------------------------------------------------------------------


def agreement_table(session: Session, codebook, stage: str | None = None) -> pd.DataFrame:
    """pplabel's own agreement figures (``labeling.agreement``), one row per dimension."""
    from labeling import agreement

    result = agreement.compute_agreement(session, codebook, stage=stage)
    return pd.DataFrame(agreement.to_rows(result), columns=list(agreement.ROW_COLUMNS))


def agreement_detail(session: Session, codebook, report: str, stage: str | None = None) -> pd.DataFrame:
    """One per-rater table of ``labeling.rater_agreement`` (``pairwise``, ``majority``, ``confusion`` or
    ``disputed``), the rows `pplabel agreement --report REPORT --format csv` writes."""
    from labeling import agreement, rater_agreement

    rows_of, columns = rater_agreement.ROWS[report]
    result = agreement.compute_agreement(session, codebook, stage=stage)
    return pd.DataFrame(rows_of(result), columns=list(columns))


# --- replication -------------------------------------------------------------------------------------------------


def load_published(path: str | Path) -> dict[str, Any]:
    """The paper's figures from ``data/published.yaml``."""
    import yaml

    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PPMinerError(f"published figures not found: {path}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise PPMinerError(f"{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None
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


# --- figures (matplotlib; the notebooks only call these) -----------------------------------------------------
#
# One look for every figure, fit for a paper: one colour scheme (Okabe-Ito, readable by colour-blind readers and in
# grey print), official names from the codebook rather than codes, the value beside every bar, integer ticks on
# count axes. Study.save_figure writes each figure as PNG (for notebooks and slides) beside PDF and SVG (vector,
# text kept as text, for the paper).

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
HEATMAP = "Blues"  # the sequential counterpart of PALETTE[0]
STYLE = {
    "axes.prop_cycle": f"cycler('color', {PALETTE!r})",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.frameon": False,
    "svg.fonttype": "none",  # text stays text in SVG: searchable and editable
    "pdf.fonttype": 42,  # TrueType in PDF, as publishers ask
}
FIGURE_FORMATS = ("png", "pdf", "svg")
PNG_DPI = 200
# funnel step -> its name on a figure
FUNNEL_LABELS = {
    "questions": "Questions acquired",
    "with_tag": "With a study tag",
    "in_scope": "Created in the window",
    "with_code": "With a code block",
    "selected": "Selected (good answer)",
    "candidates": "Keyword candidates",
    "identified": "Rated by a rater",
    "pp_posts": "Posts holding a PP",
    "labelled_posts": "Posts with labelled PPs",
    "pps_labelled": "PPs labelled",
}
# agreement dimension -> its name on a figure
DIMENSION_NAMES = {
    "identification": "PP or not (identification)",
    "symptom": "Symptom",
    "symptom_category": "Symptom category",
    "root_cause": "Root cause",
    "root_cause_category": "Root-cause category",
    "introducing_stage": "Introducing stage",
    "exposing_stage": "Exposing stage",
}


def _integer_ticks(axis) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _figure(rows: int, height_per_row: float = 0.3, base: float = 1.2, width: float = 6.5):
    """A figure with one axes sized for ``rows`` horizontal bars (call inside ``plt.rc_context(STYLE)``)."""
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(width, base + height_per_row * max(rows, 1)))


def category_chart(table: pd.DataFrame, title: str):
    """Two horizontal bar panels: PPs per category, then per subcategory, labelled 'count (percent%)'."""
    import matplotlib.pyplot as plt

    cats = table[table["subcategory"] == ""]
    subs = table[table["subcategory"] != ""]
    with plt.rc_context(STYLE):
        fig, (top, bottom) = plt.subplots(
            2, 1, figsize=(6.5, 1.6 + 0.26 * (len(cats) + len(subs))),
            gridspec_kw={"height_ratios": [max(len(cats), 1), max(len(subs), 1)]},
        )  # fmt: skip
        for ax, rows, labels, colour in (
            (top, cats, list(cats["category"]), PALETTE[0]),
            (bottom, subs, [f"{c}: {s}" for c, s in zip(subs["category"], subs["subcategory"], strict=True)],
             PALETTE[4]),
        ):  # fmt: skip
            bars = ax.barh(labels[::-1], list(rows["count"])[::-1], color=colour)
            values = [f"{n} ({p:.1f}%)" for n, p in zip(rows["count"], rows["percent"], strict=True)]
            ax.bar_label(bars, values[::-1], padding=3)
            ax.set_xlabel("PPs")
            _integer_ticks(ax.xaxis)
            ax.margins(x=0.22)
        top.set_title(title)
        fig.tight_layout()
    return fig


def stage_chart(stages: pd.DataFrame):
    """Grouped bars: PPs per stage as introducing and as exposing stage, each bar with its count."""
    import matplotlib.pyplot as plt
    import numpy as np

    with plt.rc_context(STYLE):
        fig, ax = _figure(len(stages), 0.45)
        y = np.arange(len(stages))
        for k, (column, name) in enumerate(
            (("introducing", "Introducing stage"), ("exposing", "Exposing stage"))
        ):
            bars = ax.barh(y + (k - 0.5) * 0.4, stages[column], height=0.4, label=name, color=PALETTE[k])
            ax.bar_label(bars, [str(int(n)) for n in stages[column]], padding=2)
        ax.set_yticks(y, list(stages["stage"]))
        ax.invert_yaxis()
        ax.set_xlabel("PPs")
        _integer_ticks(ax.xaxis)
        ax.margins(x=0.12)
        ax.legend(loc="lower right")
        ax.set_title("Introducing and exposing stages")
        fig.tight_layout()
    return fig


def matrix_chart(matrix: pd.DataFrame):
    """Heat map of the introducing x exposing stage table, counts in the cells."""
    import matplotlib.pyplot as plt

    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6.5, 5.5))
        ax.imshow(matrix.to_numpy(), cmap=HEATMAP)
        ax.set_xticks(range(len(matrix.columns)), matrix.columns, rotation=45, ha="right")
        ax.set_yticks(range(len(matrix.index)), matrix.index)
        ax.set_xlabel("Exposing stage")
        ax.set_ylabel("Introducing stage")
        ax.spines[:].set_visible(False)
        top = matrix.to_numpy().max() if matrix.size else 0
        for i, row in enumerate(matrix.to_numpy()):
            for j, n in enumerate(row):
                if n:
                    ax.text(j, i, str(n), ha="center", va="center",
                            color="white" if n > top / 2 else "black")  # fmt: skip
        ax.set_title("PPs per introducing and exposing stage")
        fig.tight_layout()
    return fig


def bar_chart(
    table: pd.DataFrame, label: str, value: str, title: str, xlabel: str = "", value_format: str | None = None
):
    """One horizontal bar per row of ``table`` (e.g. candidates per keyword), each with its value; integer ticks
    when the values are whole numbers."""
    import matplotlib.pyplot as plt

    with plt.rc_context(STYLE):
        fig, ax = _figure(len(table))
        values = list(table[value])
        whole = all(float(v).is_integer() for v in values)
        shown = (
            [f"{int(v):,}" if whole else f"{v:.3f}" for v in values]
            if value_format is None
            else [value_format.format(v) for v in values]
        )
        bars = ax.barh([str(v) for v in table[label]], values, color=PALETTE[0])
        ax.bar_label(bars, shown, padding=3)
        ax.invert_yaxis()
        ax.set_xlabel(xlabel)
        if whole:
            _integer_ticks(ax.xaxis)
        ax.margins(x=0.15)
        ax.set_title(title)
        fig.tight_layout()
    return fig


def agreement_chart(agreement: pd.DataFrame):
    """Cohen's kappa (two raters) or else Fleiss' kappa per dimension, by official name, each bar with its value
    on a 0..1 axis."""
    rows = agreement.assign(
        name=agreement["dimension"].map(lambda d: DIMENSION_NAMES.get(d, d)),
        kappa=chart_kappa(agreement["cohen_kappa"], agreement["fleiss_kappa"])[0],
    ).dropna(subset=["kappa"])
    title = chart_kappa(agreement["cohen_kappa"], agreement["fleiss_kappa"])[1]
    fig = bar_chart(rows, "name", "kappa", title, "kappa", "{:.3f}")
    fig.axes[0].set_xlim(min(0.0, float(rows["kappa"].min()) if len(rows) else 0.0), 1.1)
    return fig


def replication_chart(replication: pd.DataFrame, section: str):
    """Published beside database counts for the rows of one replication ``section``, with values."""
    import matplotlib.pyplot as plt
    import numpy as np

    rows = replication[replication["section"] == section]
    with plt.rc_context(STYLE):
        fig, ax = _figure(len(rows), 0.45)
        y = np.arange(len(rows))
        for k, (column, name) in enumerate(
            (("published", "Published (paper)"), ("database", "This database"))
        ):
            values = [float("nan") if v in (None, "") else float(v) for v in rows[column]]
            bars = ax.barh(y + (k - 0.5) * 0.4, values, height=0.4, label=name, color=PALETTE[k])
            ax.bar_label(bars, ["" if np.isnan(v) else f"{v:g}" for v in values], padding=2)
        ax.set_yticks(y, list(rows["item"]))
        ax.invert_yaxis()
        _integer_ticks(ax.xaxis)
        ax.margins(x=0.12)
        ax.legend(loc="lower right")
        ax.set_title(f"{section.replace('_', ' ').capitalize()}: published vs this database")
        fig.tight_layout()
    return fig


def funnel_chart(funnel: pd.DataFrame):
    """Every funnel step (per-keyword rows left out) as a bar on a log axis, each with its count; a step with
    no count yet is named and marked 'not counted'."""
    import matplotlib.pyplot as plt

    steps = funnel[funnel["keyword"] == ""]
    with plt.rc_context(STYLE):
        fig, ax = _figure(len(steps), 0.32)
        names = [FUNNEL_LABELS.get(s, s) for s in steps["step"]]
        counts = [None if pd.isna(n) else int(n) for n in steps["count"]]
        # bars start at 1 (10^0) so a log axis shows every count >= 1 as a bar
        widths = [max(n, 1) - 1 if n is not None else 0 for n in counts]
        bars = ax.barh(names, widths, left=1, color=PALETTE[0])
        ax.bar_label(bars, ["not counted" if n is None else f"{n:,}" for n in counts], padding=3)
        ax.set_xscale("log")
        top = max([n for n in counts if n] or [10])
        ax.set_xlim(1, top * 4)
        ax.invert_yaxis()
        ax.set_xlabel("count (log scale)")
        ax.set_title("Mining funnel")
        fig.tight_layout()
    return fig


def highlight_differences(replication: pd.DataFrame):
    """The replication table styled for a notebook: rows that differ or are missing in colour."""
    colours = {"DIFFERS": "background-color: #f8d0d0", "MISSING": "background-color: #fbeec1"}
    return replication.style.apply(lambda row: [colours.get(row["status"], "")] * len(row), axis=1).format(
        precision=3, na_rep=""
    )


# --- the notebooks' entry point ----------------------------------------------------------------------------------


@dataclass
class Study:
    """One database, its study config and codebook, and the folder the notebooks write to."""

    store: Store
    config: StudyConfig
    out: Path
    _codebook: Any = field(default=None, repr=False)

    @property
    def codebook(self):
        if self._codebook is None:
            from labeling.codebook import load_codebook

            self._codebook = load_codebook(self.config.codebook_file)
        return self._codebook

    def labels(self) -> pd.DataFrame:
        with self.store.read() as session:
            return final_labels(session)

    def symptoms(self) -> pd.DataFrame:
        return symptom_table(self.labels(), self.codebook)

    def root_causes(self) -> pd.DataFrame:
        return root_cause_table(self.labels(), self.codebook)

    def stages(self) -> pd.DataFrame:
        return stage_table(self.labels(), self.codebook)

    def stage_matrix(self) -> pd.DataFrame:
        return stage_matrix(self.labels(), self.codebook)

    def funnel(self) -> pd.DataFrame:
        with self.store.read() as session:
            return funnel_table(session)

    def keyword_candidates(self) -> pd.DataFrame:
        with self.store.read() as session:
            return keyword_candidates(session)

    def agreement(self, stage: str | None = None) -> pd.DataFrame:
        with self.store.read() as session:
            return agreement_table(session, self.codebook, stage=stage)

    def agreement_detail(self, report: str, stage: str | None = None) -> pd.DataFrame:
        with self.store.read() as session:
            return agreement_detail(session, self.codebook, report, stage=stage)

    def published(self) -> dict[str, Any]:
        return load_published(self.config.published_file)

    def benchmark_cases(self) -> pd.DataFrame:
        with self.store.read() as session:
            return benchmark_cases(session)

    def rq4(self) -> pd.DataFrame:
        return rq4_table(self.benchmark_cases())

    def rq4_by_root_cause(self) -> pd.DataFrame:
        return rq4_by_root_cause(self.benchmark_cases(), self.codebook)

    def replication(self) -> pd.DataFrame:
        tables = {"symptoms": self.symptoms(), "root_causes": self.root_causes(), "stages": self.stages(),
                  "funnel": self.funnel(), "agreement": self.agreement(),
                  "benchmark": self.benchmark_cases()}  # fmt: skip
        return replication_table(self.published(), tables, self.codebook)

    def save(self, table: pd.DataFrame, name: str, index: bool = False) -> Path:
        """Write ``table`` as CSV ``name`` in the output folder; returns the path."""
        path = self.out / name
        table.to_csv(path, index=index)
        return path

    def save_figure(self, figure, name: str) -> Path:
        """Write a matplotlib figure as ``<stem>.png`` ({PNG_DPI} dpi), ``<stem>.pdf`` and ``<stem>.svg`` (vector)
        in the output folder (``name``'s suffix is ignored) and close it; returns the PNG's path.

        Closed so a long run does not pile figures up; a notebook shows it by ending the cell with it."""
        import matplotlib.pyplot as plt

        stem = self.out / Path(name).stem
        with plt.rc_context(STYLE):
            for fmt in FIGURE_FORMATS:
                figure.savefig(stem.with_suffix(f".{fmt}"), dpi=PNG_DPI, bbox_inches="tight")
        plt.close(figure)
        return stem.with_suffix(".png")

    def describe(self) -> str:
        return f"database {redact(self.store.url)}; outputs in {self.out}"


def open_study(
    db: str | None = None, out: str | Path | None = None, config: str | Path | None = None
) -> Study:
    """The study the notebooks analyse: ``PPMINER_DB``, ``PPMINER_OUT`` and ``PPMINER_CONFIG`` unless given."""
    if not os.environ.get("MPLBACKEND"):  # Jupyter kernels set their inline backend here; keep it
        import matplotlib

        matplotlib.use("Agg")  # headless: figures are files, never windows
    return Study(store=open_store(database_url(db)), config=load_config(config), out=output_dir(out))


# --- RQ4: the published benchmark's assessment of the Profiler, XLA and the documentation -----------------------

RQ4_TOOLS = ("profiler", "xla", "documentation")
RQ4_COLUMNS = ["tool", "applied", "not_solved", "partly_solved"]
RQ4_CATEGORY_COLUMNS = ["category", "cases", "profiler_applied", "profiler_partly_solved", "xla_applied",
                        "xla_partly_solved", "documentation_applied"]  # fmt: skip


def benchmark_cases(session: Session) -> pd.DataFrame:
    """The stored benchmark cases (``pplabel import --format benchmark``), one row per reproduced PP."""
    from labeling.models import BenchmarkCase

    rows = session.execute(
        sa.select(
            BenchmarkCase.site,
            BenchmarkCase.question_id,
            BenchmarkCase.pp_index,
            BenchmarkCase.profiler_status,
            BenchmarkCase.xla_status,
            BenchmarkCase.documentation_applies,
            BenchmarkCase.root_cause,
        ).order_by(BenchmarkCase.position, BenchmarkCase.id)
    ).all()
    columns = [
        "site",
        "question_id",
        "pp_index",
        "profiler_status",
        "xla_status",
        "documentation_applies",
        "root_cause",
    ]
    frame = pd.DataFrame(rows, columns=columns)
    frame.insert(
        0,
        "pp",
        [
            pp_key(PostKey(s, q), i)
            for s, q, i in zip(frame["site"], frame["question_id"], frame["pp_index"], strict=True)
        ],
    )
    return frame


def rq4_table(cases: pd.DataFrame) -> pd.DataFrame:
    """Per tool, the cases it applied to, and of those the ones it did not solve and the ones it partly solved.

    The published file records only whether the documentation applies, so its two outcome cells stay empty."""
    rows = []
    for tool in ("profiler", "xla"):
        status = cases[f"{tool}_status"].astype(int)
        rows.append([tool, int((status >= 0).sum()), int((status == 0).sum()), int((status == 1).sum())])
    rows.append(["documentation", int(cases["documentation_applies"].astype(bool).sum()), None, None])
    table = pd.DataFrame(rows, columns=RQ4_COLUMNS)
    for column in ("not_solved", "partly_solved"):
        table[column] = table[column].astype("Int64")
    return table


def rq4_by_root_cause(cases: pd.DataFrame, codebook) -> pd.DataFrame:
    """The same assessment per root-cause category (the benchmark's own labels), categories in codebook order."""
    categories = [c.name for c in codebook.categories("root_cause")]
    named = cases.assign(
        category=cases["root_cause"].map(
            lambda c: codebook.category_name(codebook.get(c, "root_cause").category) if c else "(none)"
        )
    )
    rows = []
    for name in categories + sorted(set(named["category"]) - set(categories)):
        part = named[named["category"] == name]
        if part.empty and name not in categories:
            continue
        rows.append([
            name, len(part),
            int((part["profiler_status"] >= 0).sum()), int((part["profiler_status"] == 1).sum()),
            int((part["xla_status"] >= 0).sum()), int((part["xla_status"] == 1).sum()),
            int(part["documentation_applies"].astype(bool).sum()),
        ])  # fmt: skip
    return pd.DataFrame(rows, columns=RQ4_CATEGORY_COLUMNS)


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


# --- checker: ppcheck's findings on the labelled posts (`ppmine check`) -----------------------------------------


def checker_rule_table(session: Session) -> pd.DataFrame:
    """Per ppcheck rule: the labelled PP posts it fires on, and how often its root cause is the raters' final one.

    Columns: ``rule``, ``root_cause`` (the codebook code the rule stands for), ``posts`` (labelled PP posts whose
    code was checked and on which the rule fires), ``pps`` (their final PPs), ``root_cause_match`` (of those posts,
    the ones where a final PP has the rule's root cause), ``match_percent``, ``category_match`` (a final PP in the
    rule's root-cause category, e.g. ``api``), and ``checked_pp_posts`` (labelled PP posts checked at all).
    """
    from checker import all_rules
    from mining.models import CheckedPost, CheckFinding

    labels = final_labels(session)
    labels = labels.assign(post=list(zip(labels["site"], labels["question_id"], strict=True)))
    pp_posts = set(labels["post"])
    checked = {
        (site, qid)
        for site, qid in session.execute(
            sa.select(CheckedPost.site, CheckedPost.question_id).where(CheckedPost.status == "checked")
        )
        if (site, qid) in pp_posts
    }
    fired: dict[str, set[tuple[str, int]]] = {}
    query = sa.select(CheckFinding.rule, CheckFinding.site, CheckFinding.question_id).distinct()
    for rule, site, qid in session.execute(query):
        if (site, qid) in checked:
            fired.setdefault(rule, set()).add((site, qid))
    causes = labels.groupby("post")["root_cause"].apply(lambda s: {c for c in s if c})
    rows = []
    for code, rule in all_rules().items():
        posts = fired.get(code, set())
        category = rule.root_cause.split(".")[0]
        match = sum(1 for q in posts if rule.root_cause in causes.get(q, set()))
        in_category = sum(1 for q in posts if any(c.split(".")[0] == category for c in causes.get(q, set())))
        rows.append(
            {
                "rule": code,
                "root_cause": rule.root_cause,
                "posts": len(posts),
                "pps": int(labels["post"].isin(posts).sum()),
                "root_cause_match": match,
                "match_percent": percent(match, len(posts)),
                "category_match": in_category,
                "checked_pp_posts": len(checked),
            }
        )
    return pd.DataFrame(rows)


def checker_table(study: Study) -> pd.DataFrame:
    """The notebooks' entry to :func:`checker_rule_table`."""
    with study.store.read() as session:
        return checker_rule_table(session)


# -- screening by priority (issue 14): the study database's screening curve --------------------------------------
SCREENING_COLUMNS = ["seed", "read", "recall", "random"]


def screening_curve(
    store: Store, seeds: tuple[int, ...] = (1, 2, 3), model: str | None = None
) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """Replay screening by priority on the final identifications (as `pplabel triage simulate --db`).

    Returns (curve: recall after each record read per seed beside random reading's expected recall; metrics per
    seed and their mean; a one-line note). Both tables are empty, and the note says why, until the database holds
    final identifications with at least one PP post and one that is not.
    """
    import numpy as np

    from labeling.triage.dataset import from_database
    from labeling.triage.metrics import recall_curve
    from labeling.triage.models import DEFAULT_MODEL
    from labeling.triage.simulate import METRICS, mean_metrics, simulate

    empty = pd.DataFrame(columns=SCREENING_COLUMNS), pd.DataFrame(columns=["seed", *METRICS])
    try:
        data = from_database(store)
        runs = simulate(data, seeds, model=model or DEFAULT_MODEL)
    except PPMinerError as exc:
        return (*empty, f"no screening curve: {exc}")
    n = len(data)
    frames = [
        pd.DataFrame({"seed": r.seed, "read": np.arange(1, n + 1), "recall": recall_curve(data.labels[r.rows]),
                      "random": np.arange(1, n + 1) / n})
        for r in runs
    ]  # fmt: skip
    metrics = pd.DataFrame(
        [{"seed": r.seed, **r.metrics} for r in runs] + [{"seed": "mean", **mean_metrics(runs)}]
    )
    blank = sum(1 for i in range(n) if not any(data.fields[f][i].strip() for f in data.fields))
    note = (f"{n} posts with final identifications, {data.positives} PP posts; model {model or DEFAULT_MODEL}; "
            f"{blank} posts have no stored text (import or scrape them for a fair curve)")  # fmt: skip
    return pd.concat(frames, ignore_index=True), metrics, note


def screening_figure(curve: pd.DataFrame, title: str = "Screening by priority: recall against records read"):
    """The recall curve per seed and random reading's expected recall."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for seed, part in curve.groupby("seed"):
        ax.plot(part["read"], part["recall"], lw=1.2, label=f"seed {seed}")
    first = curve[curve["seed"] == curve["seed"].iloc[0]]
    ax.plot(first["read"], first["random"], color="grey", ls="--", lw=1, label="random reading (expected)")
    ax.axhline(0.95, color="grey", lw=0.6, ls=":")
    ax.set(xlabel="posts read", ylabel="recall of PP posts", ylim=(0, 1.01), title=title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return fig
