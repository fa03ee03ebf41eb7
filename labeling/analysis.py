"""The queries behind the analysis notebooks: the study's tables as pandas DataFrames, read from the database.

Notebooks import only this module. ``open_study()`` takes the database from ``PPMINER_DB`` and the output folder
from ``PPMINER_OUT`` (default ``notebooks/output/``); relative paths in either are taken from the checkout root, so
a notebook gives the same answer whatever folder its kernel starts in. Names of categories, subcategories and
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

from labeling.models import FinalIdentification, FinalLabel, pp_key
from mining.config import StudyConfig, load_config
from mining.db import PROJECT_ROOT, Store, open_store, redact, resolve_url
from mining.errors import PPMinerError
from mining.models import Candidate, CandidateHit, KeywordSet
from mining.stats import funnel_counts, latest_keyword_set_id

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
                 "exposing_stage"]  # fmt: skip

# funnel step -> what it counts, in funnel order
FUNNEL_STEPS = {
    "questions": "questions acquired",
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


def _from_root(path: str | Path) -> Path:
    path = Path(path).expanduser()
    return path if path.is_absolute() else PROJECT_ROOT / path


def database_url(url: str | None = None) -> str:
    """``url``, else ``PPMINER_DB``, else the checkout's ``data/study.db``; a relative SQLite path is from the root."""
    url = resolve_url(url or os.environ.get(ENV_DB) or str(DEFAULT_DB))
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        db = Path(parsed.database)
        if not db.is_absolute():
            url = parsed.set(database=str(_from_root(db))).render_as_string(hide_password=False)
        if not Path(make_url(url).database).exists():
            raise PPMinerError(f"no study database at {redact(url)} (set {ENV_DB} to its URL)")
    return url


def output_dir(path: str | Path | None = None) -> Path:
    """``path``, else ``PPMINER_OUT``, else ``notebooks/output/`` of the checkout; created when missing."""
    out = _from_root(path or os.environ.get(ENV_OUT) or DEFAULT_OUT)
    out.mkdir(parents=True, exist_ok=True)
    return out


# --- reading --------------------------------------------------------------------------------------------------


def final_labels(session: Session) -> pd.DataFrame:
    """One row per final PP (``LABEL_COLUMNS``), leaving out posts whose final identification says 'not a PP'."""
    not_pp = sa.select(FinalIdentification.question_id).where(FinalIdentification.is_pp.is_(False))
    stmt = (
        sa.select(*(getattr(FinalLabel, c) for c in LABEL_COLUMNS))
        .where(FinalLabel.question_id.not_in(not_pp))
        .order_by(FinalLabel.question_id, FinalLabel.pp_index)
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
        where = f"final label of PP {pp_key(row.question_id, row.pp_index)}"
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
                where = f"final label of PP {pp_key(row.question_id, row.pp_index)}"
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
    ``selected`` is empty before the first match run."""
    counts = funnel_counts(session)
    labels = final_labels(session)
    values = {
        "questions": counts["questions"],
        "selected": counts["selected"],
        "candidates": counts["candidates"],
        "identified": counts["identified"],
        "pp_posts": counts["pp_posts"],
        "labelled_posts": int(labels["question_id"].nunique()),
        "pps_labelled": len(labels),
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

    ``tables``: ``symptoms``, ``root_causes``, ``stages``, ``funnel`` and optionally ``agreement`` as returned by
    the functions above. Kappas compare to the paper's three decimals.
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
    return pd.DataFrame(rows, columns=REPLICATION_COLUMNS, dtype=object)


def _int(value: Any) -> int | None:
    return None if value is None or pd.isna(value) else int(value)


# --- figures (matplotlib; the notebooks only call these) -----------------------------------------------------


def category_chart(table: pd.DataFrame, title: str):
    """Two horizontal bar panels: PPs per category, then per subcategory, labelled 'count (percent%)'."""
    import matplotlib.pyplot as plt

    cats = table[table["subcategory"] == ""]
    subs = table[table["subcategory"] != ""]
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(8, 2 + 0.32 * (len(cats) + len(subs))),
        gridspec_kw={"height_ratios": [max(len(cats), 1), max(len(subs), 1)]},
    )  # fmt: skip
    for ax, rows, labels in (
        (top, cats, list(cats["category"])),
        (bottom, subs, [f"{c}: {s}" for c, s in zip(subs["category"], subs["subcategory"], strict=True)]),
    ):
        bars = ax.barh(labels[::-1], list(rows["count"])[::-1], color="#4C72B0")
        ax.bar_label(bars, [f"{n} ({p:.1f}%)" for n, p in zip(rows["count"], rows["percent"], strict=True)][::-1],
                     padding=3, fontsize=8)  # fmt: skip
        ax.set_xlabel("PPs")
        ax.margins(x=0.2)
    top.set_title(title)
    fig.tight_layout()
    return fig


def stage_chart(stages: pd.DataFrame):
    """Grouped bars: PPs per stage as introducing and as exposing stage."""
    ax = stages.set_index("stage")[["introducing", "exposing"]].plot.barh(figsize=(8, 4.5))
    ax.invert_yaxis()
    ax.set_xlabel("PPs")
    ax.set_ylabel("")
    ax.set_title("Introducing and exposing stages")
    ax.figure.tight_layout()
    return ax.figure


def matrix_chart(matrix: pd.DataFrame):
    """Heat map of the introducing x exposing stage table, counts in the cells."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 6.5))
    ax.imshow(matrix.to_numpy(), cmap="Blues")
    ax.set_xticks(range(len(matrix.columns)), matrix.columns, rotation=45, ha="right")
    ax.set_yticks(range(len(matrix.index)), matrix.index)
    ax.set_xlabel("exposing stage")
    ax.set_ylabel("introducing stage")
    top = matrix.to_numpy().max() if matrix.size else 0
    for i, row in enumerate(matrix.to_numpy()):
        for j, n in enumerate(row):
            if n:
                ax.text(j, i, str(n), ha="center", va="center", fontsize=8,
                        color="white" if n > top / 2 else "black")  # fmt: skip
    ax.set_title("Introducing x exposing stage")
    fig.tight_layout()
    return fig


def bar_chart(table: pd.DataFrame, label: str, value: str, title: str, xlabel: str = ""):
    """One horizontal bar per row of ``table`` (e.g. candidates per keyword, kappa per dimension)."""
    ax = table.plot.barh(x=label, y=value, legend=False, figsize=(8, 1 + 0.3 * max(len(table), 1)))
    ax.invert_yaxis()
    ax.set_ylabel("")
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.figure.tight_layout()
    return ax.figure


def replication_chart(replication: pd.DataFrame, section: str):
    """Published beside database counts for the rows of one replication ``section``."""
    rows = replication[replication["section"] == section].set_index("item")[["published", "database"]]
    ax = rows.astype(float).plot.barh(figsize=(8, 1 + 0.35 * max(len(rows), 1)))
    ax.invert_yaxis()
    ax.set_ylabel("")
    ax.set_title(f"{section}: published vs database")
    ax.figure.tight_layout()
    return ax.figure


def funnel_chart(funnel: pd.DataFrame):
    """The funnel's main steps as bars on a log scale (per-keyword rows left out)."""
    steps = funnel[funnel["keyword"] == ""].dropna(subset=["count"])
    steps = steps.assign(count=steps["count"].astype(int))
    ax = steps.plot.barh(x="step", y="count", legend=False, figsize=(8, 3.5), logx=True)
    ax.invert_yaxis()
    ax.bar_label(ax.containers[0], [f"{n:,}" for n in steps["count"]], padding=3, fontsize=8)
    ax.set_xlim(left=1, right=max(10, int(steps["count"].max() if len(steps) else 1)) * 3)
    ax.set_ylabel("")
    ax.set_xlabel("count (log scale)")
    ax.set_title("Mining funnel")
    ax.figure.tight_layout()
    return ax.figure


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

    def published(self) -> dict[str, Any]:
        return load_published(self.config.published_file)

    def replication(self) -> pd.DataFrame:
        tables = {"symptoms": self.symptoms(), "root_causes": self.root_causes(), "stages": self.stages(),
                  "funnel": self.funnel(), "agreement": self.agreement()}  # fmt: skip
        return replication_table(self.published(), tables, self.codebook)

    def save(self, table: pd.DataFrame, name: str, index: bool = False) -> Path:
        """Write ``table`` as CSV ``name`` in the output folder; returns the path."""
        path = self.out / name
        table.to_csv(path, index=index)
        return path

    def save_figure(self, figure, name: str) -> Path:
        """Write a matplotlib figure as PNG ``name`` in the output folder and close it; returns the path.

        Closed so a long run does not pile figures up; a notebook shows it by ending the cell with it."""
        import matplotlib.pyplot as plt

        path = self.out / name
        figure.savefig(path, dpi=120, bbox_inches="tight")
        plt.close(figure)
        return path

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
