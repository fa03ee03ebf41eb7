"""The three CSV shapes the seed study published, and how codes are spelled in them.

- ``study`` (``empirical_study.csv``): the final labels, one row per PP, in the final vocabulary
  ("Time: slow execution time"). UTF-8 with a BOM; trailing unnamed empty columns.
- ``identification`` (``kappa_identification.csv``): ``_id, isPB_<rater>..., merge`` with 0/1 cells.
- ``labels`` (``kappa_label.csv``): two raters' labels per PP in the older vocabulary ("Time: Long
  execution/training time"); the columns carry no rater names, and the header spells "root casue".

PP ids are ``<post>_<pp>``; a bare post id is PP 1. Importers accept every spelling the codebook resolves; the
tables below only say how exporters write codes back.
"""

from __future__ import annotations

FORMATS = ("study", "identification", "labels")

STUDY_COLUMNS = (
    "id",
    "creation_date",
    "title",
    "url",
    "comment",
    "introducing stage",
    "exposing stage",
    "symptom1",
    "symptom2",
    "root cause",
)
# study column -> final_labels field (and the codebook dimension of its values)
STUDY_LABEL_FIELDS = {
    "introducing stage": ("introducing_stage", "stage"),
    "exposing stage": ("exposing_stage", "stage"),
    "symptom1": ("symptom1", "symptom"),
    "symptom2": ("symptom2", "symptom"),
    "root cause": ("root_cause", "root_cause"),
}
# The study's free-text "comment" says which part of the post a PP is (e.g. "second paragraph").
STUDY_COMMENT_FIELD = "part"

ID_COLUMN = "_id"
RATER_PREFIX = "isPB_"
MERGE_COLUMN = "merge"

# labels shape: rater slot (0 = first, 1 = second) -> column -> (pp_labels field, codebook dimension)
LABEL_COLUMNS = (
    {
        "symptom1": ("symptom1", "symptom"),
        "root casue": ("root_cause", "root_cause"),
        "root stage": ("introducing_stage", "stage"),
        "expose stage": ("exposing_stage", "stage"),
    },
    {
        "symptom2": ("symptom1", "symptom"),
        "root casue 2": ("root_cause", "root_cause"),
        "root stage 2": ("introducing_stage", "stage"),
        "expose stage 2": ("exposing_stage", "stage"),
    },
)
LABELS_HEADER = (
    ID_COLUMN,
    "symptom1",
    "symptom2",
    "root casue",
    "root casue 2",
    "root stage",
    "root stage 2",
    "expose stage",
    "expose stage 2",
)
# The kappa_label file names no raters. Its rows cannot tell which rater is which; the default pairs its first
# and second rater columns with the identification file's column order (isPB_cjm, isPB_longjie).
DEFAULT_LABEL_RATERS = ("cjm", "longjie")


def detect_format(header: list[str]) -> str | None:
    """Which published shape a header is: every column that shape requires is present; None when none fits."""
    named = {h.strip() for h in header if h.strip()}
    if set(STUDY_COLUMNS) <= named:
        return "study"
    if set(LABELS_HEADER) <= named:
        return "labels"
    if {ID_COLUMN, "profiler_status", "xla_status"} <= named:
        return "benchmark"  # labeling.io.benchmark
    if ID_COLUMN in named and (MERGE_COLUMN in named or any(h.startswith(RATER_PREFIX) for h in named)):
        return "identification"
    return None


STAGE_SPELLING = {
    "environment_setting": "env",
    "initialization": "initialization",
    "data_preparation": "data preparation",
    "model_building": "build model",
    "training": "training",
    "evaluation": "evaluation",
    "hyper_parameter_tuning": "hyper parameter tuning",
    "prediction": "prediction",
    "unknown": "unknown",
}

# Final vocabulary, as empirical_study.csv spells it (including its "Unkown").
STUDY_SPELLING = {
    "time.slow_execution": "Time: slow execution time",
    "time.slow_initialization": "Time: slow initialization time",
    "time.increasing_over_time": "Time: increasing time over time",
    "time.hang": "Time: program hang",
    "memory.oom": "Memory: out of memory",
    "memory.leak": "Memory: memory leak",
    "memory.abnormal_gpu_memory": "Memory: abnormal GPU memory usage",
    "processor.abnormal_gpu_util": "Processor: abnormal GPU utilization",
    "processor.not_using_gpu": "Processor: not using GPU",
    "processor.abnormal_cpu_util": "Processor: abnormal CPU utilization",
    "unknown": "Unkown",
    "api.not_efficient_api": "API: not using efficient API",
    "api.not_batch_api": "API: not using batch API",
    "api.inefficient_usage": "API: inefficient API usage",
    "model.computation_graph_confusion": "Model: confusion with computation model",
    "model.inefficient_structure": "Model: inefficient model structure",
    "model.improper_model_parameter": "Model: improper model parameter",
    "model.improper_hyper_parameter": "Model: improper hyper parameter",
    "library.buggy_version": "Library: Buggy library version",
    "library.mismatched_version": "Library: mismatched library version",
    "data.inefficient_transmission": "Data: inefficient data transmission",
    "data.inefficient_preprocessing": "Data: inefficient data preprocessing",
    "data.improper_input": "Data: improper data input",
    "hardware.library_mismatch": "Hardware: hardware and library mismatch",
    "hardware.code_mismatch": "Hardware: hardware and code mismatch",
    "hardware.improper_configuration": "Hardware: improper configuration",
    "other": "Others",
}

# Older rater vocabulary, as kappa_label.csv spells it.
LEGACY_SPELLING = {
    "time.slow_execution": "Time: Long execution/training time",
    "time.slow_initialization": "Time: Long initializing time",
    "time.increasing_over_time": "Time: increase time over time",
    "time.hang": "Time: Program hang",
    "memory.oom": "Memory: OOM",
    "memory.leak": "Memory: Memory leak",
    "memory.abnormal_gpu_memory": "Memory: Abnormal GPU memory usage",
    "processor.abnormal_gpu_util": "Processor: Abnormal GPU utilization",
    "processor.not_using_gpu": "Processor: No GPU Used",
    "processor.abnormal_cpu_util": "Processor: Abnormal CPU utilization",
    "unknown": "Unkown",
    "api.not_efficient_api": "API: not using library APIs",
    "api.not_batch_api": "API: forgetting batch APIs",
    "api.inefficient_usage": "API: misuse",
    "model.computation_graph_confusion": "Model: Confusion with computation model",
    "model.inefficient_structure": "Model: Structure Inefficiency",
    "model.improper_model_parameter": "Model: model para",
    "model.improper_hyper_parameter": "Model: hyper para",
    "library.buggy_version": "Library: internal bug",
    "library.mismatched_version": "Library: version",
    "data.inefficient_transmission": "Data: Transmission",
    "data.inefficient_preprocessing": "Data: preprocessing unproperly",
    "data.improper_input": "Data: unproper data inputs",
    "hardware.library_mismatch": "Hardware: Mismatch hardware and library",
    "hardware.code_mismatch": "Hardware: Mismatch hardware and code/model",
    "hardware.improper_configuration": "Hardware: config para",
    "other": "Others",
}


def spell(code: str | None, dimension: str, legacy: bool = False) -> str:
    """A code as the published files write it; a code missing from the tables is written as itself."""
    if not code:
        return ""
    if dimension == "stage":
        return STAGE_SPELLING.get(code, code)
    return (LEGACY_SPELLING if legacy else STUDY_SPELLING).get(code, code)
