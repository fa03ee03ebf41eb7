"""What ppcheck's speed-ups keep to: caches that never carry one module's answers into another, and a module's
tree freed by reference counts once it is checked (no cycle holds it for the garbage collector)."""

from __future__ import annotations

import ast
import gc
from pathlib import Path

from checker import check_source
from checker.rules import torch_common
from checker.walker import check_file

CASES = Path(__file__).parent / "torch_cases"
# (a training loop whose reads, moves and guards send the rules through the parent and path searches)
_POSITIVES = sorted(CASES.glob("pp5*_positive*.py"))


def _found(source: str, path: str) -> list[tuple[str, int]]:
    findings, skipped = check_source(source, path)
    assert not skipped, skipped
    return sorted((f.rule, f.line) for f in findings)


def test_the_torch_facts_are_dropped_once_a_module_is_checked():
    check_source(_POSITIVES[0].read_text(), "train.py")
    assert torch_common._CACHE["index"] is None and torch_common._CACHE["facts"] is None


def test_two_sources_at_one_path_give_their_own_findings():
    first, second = _POSITIVES[0].read_text(), _POSITIVES[1].read_text()
    alone = [_found(first, "a.py"), _found(second, "b.py")]
    assert alone[0] != alone[1]
    assert [_found(first, "train.py"), _found(second, "train.py")] == alone
    assert [_found(second, "train.py"), _found(first, "train.py")] == alone[::-1]


def test_checking_leaves_no_cycle_holding_a_tree(tmp_path):
    """Every node of a checked module is freed by reference counts: a cycle reaching one (a closure that calls
    itself and holds the nodes it searched) would keep it for the collector, whose walks over such trees were
    a fifth of a run's time."""
    paths = []
    for n, case in enumerate(_POSITIVES[:40]):
        paths.append(tmp_path / f"train_{n}.py")
        paths[-1].write_text(case.read_text())
    collecting = gc.isenabled()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for path in paths:
            check_file(str(path))
        gc.collect()
        held = [o for o in gc.garbage if isinstance(o, ast.AST)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert held == []
    assert gc.isenabled() == collecting  # (the pause around each file is lifted)
