"""What the ppcheck evaluation benches share: lines of code, checkout folders, hand-verdict CSVs and their keys.

One definition of each, so that ``bench_checker_eval.py`` and ``bench_torch_checker.py`` count a line, name a
checkout and join a verdict to a finding the same way.
"""

from __future__ import annotations

import contextlib
import csv
from pathlib import Path

from checker.notebook import NotebookError, code_cells
from checker.walker import iter_files


def code_lines(root: str) -> int:
    """Lines of Python under ``root`` (a file or a folder): every line of a .py file, every line of a notebook's
    code cells (a notebook that cannot be read counts nothing)."""
    total = 0
    for path in iter_files([root]):
        with open(path, "rb") as handle:
            data = handle.read()
        if path.endswith(".ipynb"):
            with contextlib.suppress(NotebookError, UnicodeDecodeError):
                total += sum(src.count("\n") + 1 for _, src in code_cells(data.decode("utf-8-sig")))
        else:
            total += data.count(b"\n")
    return total


def checkout(root: str | Path, repo: str) -> Path:
    """The folder under ``root`` holding ``repo`` (``owner/name`` or ``owner+name``): named ``owner+name``."""
    return Path(root) / repo.replace("/", "+")


def read_rows(path: Path) -> list[dict]:
    """A CSV file's rows, as dicts keyed by its header."""
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def verdict_key(row: dict) -> tuple:
    """A verdict row's finding: (repo, path, cell or None, line, rule), as :func:`finding_key` gives it."""
    return (
        row["repo"],
        row["path"],
        int(row["cell"]) if row["cell"] else None,
        int(row["line"]),
        row["rule"],
    )


def finding_key(repo: str, relpath: str, finding) -> tuple:
    """A finding of ``repo``, at ``relpath`` within its checkout, keyed as :func:`verdict_key` keys a row."""
    return (repo, relpath, finding.cell, finding.line, finding.rule)
