"""Files to check: the .py and .ipynb files under the given paths, read (never written) and checked."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor

from checker.engine import check_notebook, check_source
from checker.findings import Finding, Skipped
from checker.rules import Rule, all_rules

SUFFIXES = (".py", ".ipynb")
_SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".ipynb_checkpoints", ".venv", "venv", ".tox"})


class PathError(ValueError):
    """A PATH argument that does not exist."""


def iter_files(paths: Iterable[str]) -> Iterator[str]:
    """Every .py/.ipynb file named or found under a folder, in a stable order. Raises PathError."""
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
                for name in sorted(files):
                    if name.endswith(SUFFIXES):
                        yield os.path.join(root, name)
        elif os.path.isfile(path):
            yield path
        else:
            raise PathError(f"{path}: no such file or directory")


def check_file(path: str, codes: tuple[str, ...] | None = None) -> tuple[list[Finding], list[Skipped]]:
    """Read one file (bytes, never opened for writing) and check it with the rules named by `codes`."""
    rules = _rules(codes)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return [], [Skipped(path, exc.strerror or str(exc))]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return [], [Skipped(path, f"byte {exc.start}: not UTF-8")]
    if path.endswith(".ipynb"):
        return check_notebook(text, path, rules)
    return check_source(text, path, rules)


def _rules(codes) -> list[Rule]:
    rules = all_rules()
    return list(rules.values()) if codes is None else [rules[c] for c in codes]


def check_paths(paths: Iterable[str], rules: list[Rule] | None = None, jobs: int = 1):
    """All findings and skipped files under `paths`, sorted. `jobs` > 1 checks files in a process pool."""
    files = list(iter_files(paths))
    codes = None if rules is None else tuple(r.code for r in rules)
    findings: list[Finding] = []
    skipped: list[Skipped] = []
    if jobs > 1 and len(files) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = pool.map(check_file, files, [codes] * len(files), chunksize=16)
            for found, skips in results:
                findings.extend(found)
                skipped.extend(skips)
    else:
        for path in files:
            found, skips = check_file(path, codes)
            findings.extend(found)
            skipped.extend(skips)
    return sorted(findings, key=Finding.sort_key), skipped, len(files)
