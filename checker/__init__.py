"""ppcheck: a static checker for performance problems in TensorFlow/Keras and PyTorch code.

Pure: source text in, findings out. It imports nothing of ppminer and touches no database, so `mining` (and
anyone else) can use it: `check_source(text, path)` -> (findings, skipped).
"""

from checker.engine import check_notebook, check_snippets, check_source
from checker.findings import Finding, Skipped
from checker.rules import all_rules, select_rules
from checker.walker import check_paths

__version__ = "0.1.0"
__all__ = [
    "Finding",
    "Skipped",
    "all_rules",
    "check_notebook",
    "check_paths",
    "check_snippets",
    "check_source",
    "select_rules",
]
