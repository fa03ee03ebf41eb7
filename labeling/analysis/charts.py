"""The notebooks' figures (matplotlib), all in one shared style.

matplotlib is imported where a figure is drawn, after :func:`labeling.analysis.open_study` has chosen its
backend.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from labeling.agreement import chart_kappa

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


def screening_figure(curve: pd.DataFrame, title: str = "Screening by priority: recall against records read"):
    """The recall curve per seed and random reading's expected recall."""
    import matplotlib.pyplot as plt

    with plt.rc_context(STYLE):
        fig, ax = plt.subplots(figsize=(6.5, 4.2))
        for seed, part in curve.groupby("seed"):
            ax.plot(part["read"], part["recall"], lw=1.2, label=f"seed {seed}")
        first = curve[curve["seed"] == curve["seed"].iloc[0]]
        ax.plot(
            first["read"], first["random"], color="grey", ls="--", lw=1, label="random reading (expected)"
        )
        ax.axhline(0.95, color="grey", lw=0.6, ls=":")
        ax.set(xlabel="posts read", ylabel="recall of PP posts", ylim=(0, 1.01), title=title)
        _integer_ticks(ax.xaxis)
        ax.legend(loc="lower right")
        fig.tight_layout()
    return fig
