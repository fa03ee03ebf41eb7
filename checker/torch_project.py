"""Evidence read across the checked files: a DataLoader one module makes and returns, another trains on.

Projects often build their loaders in a module of their own (`data_factory.py`, `utils.py`:
`def get_loader(...): return DataLoader(...)`) and the training script imports that function and copies
each batch to the GPU. Checked one module at a time, the maker has no loop and the loop has no
DataLoader, so PP505 says nothing in either. This pass, as checker/project.py does for TensorFlow
pipelines, reads the files of one project together: it parses only the modules whose text makes a
DataLoader and returns something, and then only the modules whose text calls one of those makers by name,
and reports PP505 at the maker's DataLoader when a module that imports it copies its batches to a device.
"""

from __future__ import annotations

import ast
import re

from checker.engine import is_test_path
from checker.findings import Finding
from checker.module import ModuleIndex
from checker.noqa import file_is_silenced, noqa_lines, silenced
from checker.rules import all_rules
from checker.rules.torch_common import uses_torch
from checker.rules.torch_data import moves_batches_of, pinned_memory_message, returned_loaders, unpinned

RULE = "PP505"


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return None


def _index(text: str) -> ModuleIndex | None:
    try:
        index = ModuleIndex.build(ast.parse(text))
    except (SyntaxError, ValueError, RecursionError):
        return None
    return index if uses_torch(index) else None


def loaders_trained_elsewhere(
    findings: list[Finding], projects: list[list[str]], codes=None
) -> list[Finding]:
    """`findings` and a PP505 finding for each unpinned DataLoader that a def returns and another module of
    the same project (the files of one PATH argument) iterates and copies to the device."""
    if codes is not None and RULE not in codes:
        return findings
    added: list[Finding] = []
    for files in projects:
        added.extend(_in_project([p for p in files if p.endswith(".py") and not is_test_path(p)], findings))
    return findings + added


def _in_project(files: list[str], findings: list[Finding]) -> list[Finding]:
    texts = {path: text for path in files if (text := _read(path)) is not None}
    reported = {(f.path, f.line) for f in findings if f.rule == RULE}
    makers: dict[str, list[tuple[str, ast.Call, int]]] = {}
    for path, text in texts.items():
        if "DataLoader" not in text or "return" not in text or file_is_silenced(text):
            continue
        index = _index(text)
        if index is None:
            continue
        for name, loaders in returned_loaders(index).items():
            for call, where in loaders:
                if unpinned(call) and (path, call.lineno) not in reported:
                    makers.setdefault(name, []).append((path, call, where))
    if not makers:
        return []
    called = re.compile(r"\b(" + "|".join(map(re.escape, makers)) + r")\s*\(")
    trained: set[str] = set()
    for path, text in texts.items():
        names = set(called.findall(text))
        if not names or names <= trained:
            continue
        index = _index(text)
        if index is None:
            continue
        where = {n: {w for p, _, w in makers[n] if p != path} for n in names}
        trained |= moves_batches_of(index, {n: w for n, w in where.items() if w})
    rule = all_rules()[RULE]
    found = []
    for name in sorted(trained):
        for path, call, _ in makers[name]:
            if silenced(noqa_lines(texts[path]).get(call.lineno), RULE):
                continue
            message = pinned_memory_message(f"{name}()")
            found.append(
                Finding(
                    path,
                    call.lineno,
                    call.col_offset + 1,
                    RULE,
                    message,
                    rule.root_cause,
                    None,
                    rule.confidence,
                )
            )
    return found
