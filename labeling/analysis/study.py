"""The notebooks' entry point: one study (database, config, codebook, output folder) and its tables."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from core.config import StudyConfig, load_config
from core.db import Store, open_store, redact
from labeling.analysis.agreement_tables import agreement_detail, agreement_table
from labeling.analysis.charts import FIGURE_FORMATS, PNG_DPI, STYLE
from labeling.analysis.checker_rules import checker_rule_table
from labeling.analysis.funnel import funnel_table, keyword_candidates
from labeling.analysis.labels import final_labels, root_cause_table, stage_matrix, stage_table, symptom_table
from labeling.analysis.paths import database_url, output_dir
from labeling.analysis.replication import REPLICATION_COLUMNS, load_published, replication_table
from labeling.analysis.rq4 import benchmark_cases, rq4_by_root_cause, rq4_table
from labeling.analysis.screening import screening_curve


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
        """The paper's figures (the config's ``published`` file); empty for a study that has none, its file
        absent or empty."""
        path = Path(self.config.published_file)
        return load_published(path) if path.is_file() else {}

    def benchmark_cases(self) -> pd.DataFrame:
        with self.store.read() as session:
            return benchmark_cases(session)

    def rq4(self) -> pd.DataFrame:
        return rq4_table(self.benchmark_cases())

    def rq4_by_root_cause(self) -> pd.DataFrame:
        return rq4_by_root_cause(self.benchmark_cases(), self.codebook)

    def replication(self) -> pd.DataFrame:
        """Every published figure beside the database's; no rows for a study without published figures."""
        published = self.published()
        if not published:
            return pd.DataFrame(columns=REPLICATION_COLUMNS, dtype=object)
        tables = {"symptoms": self.symptoms(), "root_causes": self.root_causes(), "stages": self.stages(),
                  "funnel": self.funnel(), "agreement": self.agreement(),
                  "benchmark": self.benchmark_cases()}  # fmt: skip
        return replication_table(published, tables, self.codebook)

    def replication_note(self, replication: pd.DataFrame) -> str:
        """One line on what :meth:`replication` compared: the published file, or that there is nothing to
        compare."""
        path = self.config.published_file
        if replication.empty:
            return f"nothing to compare: this study has no published figures ({path} is absent or empty)"
        return f"{len(replication)} published figures from {path} beside this database's"

    def checker_rules(self) -> pd.DataFrame:
        """Per ppcheck rule, the labelled PP posts it fires on (:func:`checker_rule_table`)."""
        with self.store.read() as session:
            return checker_rule_table(session)

    def screening(
        self, seeds: tuple[int, ...] = (1, 2, 3), model: str | None = None
    ) -> tuple[pd.DataFrame, pd.DataFrame, str]:
        """The screening curve, its metrics and a note (:func:`screening_curve`)."""
        return screening_curve(self.store, seeds=seeds, model=model)

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
