"""The analysis notebooks' one entry: ``from labeling import analysis as A``, then ``study = A.open_study()``.

Tables come from the study (``study.symptoms()``, ``study.funnel()``, ``study.replication()``, ...), figures from
the chart functions here (``A.category_chart(...)``), files from ``study.save`` and ``study.save_figure``.
``open_study()`` takes the database from ``PPMINER_DB`` and the output folder from ``PPMINER_OUT`` (default
``notebooks/output/`` of the checkout); relative paths in either are taken from the folder the command
(``jupyter nbconvert``, ``jupyter lab``) was started in, the same folder nbconvert's ``--output-dir`` and ppmine's
``--db`` are relative to, although the kernel itself runs in ``notebooks/``. Names of categories, subcategories
and stages are the codebook's; counts are over final (reconciled) labels.

One module per job: ``paths`` (where to read and write), ``labels`` (final labels, RQ1-RQ3 tables), ``funnel``,
``agreement_tables``, ``rq4``, ``replication`` (published beside database), ``checker_rules``, ``screening``,
``charts`` (every figure in one style) and ``study`` (the facade the notebooks hold).
"""

from labeling.analysis.agreement_tables import agreement_detail, agreement_table
from labeling.analysis.charts import (
    DIMENSION_NAMES,
    FIGURE_FORMATS,
    FUNNEL_LABELS,
    HEATMAP,
    PALETTE,
    PNG_DPI,
    STYLE,
    agreement_chart,
    bar_chart,
    category_chart,
    funnel_chart,
    highlight_differences,
    matrix_chart,
    replication_chart,
    screening_figure,
    stage_chart,
)
from labeling.analysis.checker_rules import checker_rule_table
from labeling.analysis.funnel import FUNNEL_COLUMNS, FUNNEL_STEPS, funnel_table, keyword_candidates
from labeling.analysis.labels import (
    LABEL_COLUMNS,
    MATRIX_CORNER,
    STAGE_COLUMNS,
    TABLE_COLUMNS,
    category_table,
    final_labels,
    percent,
    root_cause_table,
    stage_matrix,
    stage_table,
    symptom_table,
)
from labeling.analysis.paths import (
    DEFAULT_DB,
    DEFAULT_OUT,
    ENV_DB,
    ENV_OUT,
    database_url,
    launch_dir,
    output_dir,
)
from labeling.analysis.replication import (
    REPLICATION_COLUMNS,
    load_published,
    replication_table,
    rq4_replication_rows,
)
from labeling.analysis.rq4 import (
    RQ4_CATEGORY_COLUMNS,
    RQ4_COLUMNS,
    RQ4_TOOLS,
    benchmark_cases,
    rq4_by_root_cause,
    rq4_table,
)
from labeling.analysis.screening import SCREENING_COLUMNS, screening_curve
from labeling.analysis.study import Study, open_study

__all__ = [
    "DEFAULT_DB", "DEFAULT_OUT", "DIMENSION_NAMES", "ENV_DB", "ENV_OUT", "FIGURE_FORMATS", "FUNNEL_COLUMNS",
    "FUNNEL_LABELS", "FUNNEL_STEPS", "HEATMAP", "LABEL_COLUMNS", "MATRIX_CORNER", "PALETTE", "PNG_DPI",
    "REPLICATION_COLUMNS", "RQ4_CATEGORY_COLUMNS", "RQ4_COLUMNS", "RQ4_TOOLS", "SCREENING_COLUMNS",
    "STAGE_COLUMNS", "STYLE", "TABLE_COLUMNS", "Study", "agreement_chart", "agreement_detail", "agreement_table",
    "bar_chart", "benchmark_cases", "category_chart", "category_table", "checker_rule_table", "database_url",
    "final_labels", "funnel_chart", "funnel_table", "highlight_differences", "keyword_candidates", "launch_dir",
    "load_published", "matrix_chart", "open_study", "output_dir", "percent", "replication_chart",
    "replication_table", "root_cause_table", "rq4_by_root_cause", "rq4_replication_rows", "rq4_table",
    "screening_curve", "screening_figure", "stage_chart", "stage_matrix", "stage_table", "symptom_table",
]  # fmt: skip
