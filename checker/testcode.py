"""Which files are test code, which ppcheck leaves silent.

Speed rarely matters in unit tests, and findings read there were wrong nearly always. But in Keras projects a
file named `test_*.py` or `*_test.py` is often a script that runs a model over the test set (reading 15: a
Kaggle script predicting 12,500 test images one at a time), so a file that is test code by its name alone is
silent only when it reads as a unit-test module.
"""

from __future__ import annotations

import ast
import re

from checker.module import dotted_name, iter_walk

# tests/ folders and test helpers: test code whatever they hold
_TEST_PLACE = re.compile(r"(^|/)(tests?/|[^/]*test_utils?\.py$|conftest\.py$)")
# test_*.py and *_test.py: a unit-test module, or a script that evaluates on a test set
_TEST_NAME = re.compile(r"(^|/)(test_[^/]*|[^/]*_test)\.py$")

_TEST_LIBRARIES = ("unittest", "pytest", "absl.testing", "nose", "hypothesis")
_RUNS = (ast.Expr, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.If, ast.Try)


def is_test_path(path: str) -> bool:
    """A path test code may have: under tests/, a test helper, or named test_*.py or *_test.py."""
    path = path.replace("\\", "/")
    return bool(_TEST_PLACE.search(path) or _TEST_NAME.search(path))


def is_test_place(path: str) -> bool:
    """Test code by where it is (tests/, test_utils.py, conftest.py), whatever it holds."""
    return bool(_TEST_PLACE.search(path.replace("\\", "/")))


def is_unit_test(tree: ast.Module) -> bool:
    """A module that reads as unit tests: it imports a test library, defines a TestCase class (`*Test`,
    `*TestCase` bases), defines a `test*` function holding an `assert`, calls `tf.test.main()`, or runs no
    code at module level (definitions only: nothing here is a script)."""
    runs = False
    for stmt in tree.body:
        if isinstance(stmt, ast.Import | ast.ImportFrom) and imports_test_library(stmt):
            return True
        if isinstance(stmt, _RUNS) and not _docstring(stmt):
            runs = True
    for node in iter_walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            (dotted_name(b) or "").endswith(("Test", "TestCase")) for b in node.bases
        ):
            return True
        if (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.name.startswith("test")
            and any(isinstance(n, ast.Assert) for n in iter_walk(node))
        ):
            return True
        if isinstance(node, ast.Call) and (dotted_name(node.func) or "").endswith("test.main"):
            return True
    return not runs and not _training_library(tree)


def _training_library(tree: ast.Module) -> bool:
    """Definitions only, among them a training def (`train`, `train_epoch`) and no pytest test (`test_*`): a
    script's library named for what it does, train and test (E(3) diffusion's and Sequential-GCN's
    `train_test.py`: `train_epoch` and `test` loops over the loaders, run by main_qm9.py and main.py), not a
    unit-test module."""
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    return any(n.startswith("train") for n in names) and not any(n.startswith("test_") for n in names)


def imports_test_library(stmt: ast.Import | ast.ImportFrom) -> bool:
    names = [a.name for a in stmt.names] if isinstance(stmt, ast.Import) else [stmt.module or ""]
    return any(n == lib or n.startswith(lib + ".") for n in names for lib in _TEST_LIBRARIES)


def _docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
