"""bench_torch_fixed.py: recall on maintainer-fixed lines read from a git mirror.

The mirror is built here from a tiny project written for this test (tests/fixtures/torch_fixed/tiny): a loss
summed with its graph (ppcheck finds it in the file alone, `high` since torch-fix139), a DataLoader over an image
folder built in data.py whose batches train.py copies to the GPU (found only when the project is checked whole;
`high` because the data set decodes a file per item), and a host read hidden in a lambda of a meter class (missed).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from git_mirror import make_mirror, run_bench, write_rows

PROJECT = Path(__file__).resolve().parent.parent
BENCH = PROJECT / "bench" / "bench_torch_fixed.py"
TINY = PROJECT / "tests" / "fixtures" / "torch_fixed" / "tiny"
COLUMNS = ["repo", "commit", "path", "line", "kind", "rule", "fix", "project", "seen", "note"]


def _mirror(root: Path) -> str:
    return make_mirror(TINY, root)


def _write(path: Path, rows: list[list]) -> None:
    write_rows(path, COLUMNS, rows)


def _rows(commit: str) -> list[list]:
    def row(path, line, kind, rule, seen):
        return ["someone/tiny", commit, f"src/{path}", line, kind, rule, "f" * 40, "", seen, "a note"]

    return [
        row("train.py", 30, "loss-history", "PP502", ""),
        row("data.py", 9, "loader-pin", "PP505", "torch"),
        row("train.py", 15, "host-sync", "PP501", ""),
    ]


def _run(*args: str) -> subprocess.CompletedProcess:
    return run_bench(BENCH, *args)


def _level(lines: list[str], label: str) -> list[str]:
    """The three shares (all, never seen, seen) of a level's line, as 'hit/total'."""
    line = next(line for line in lines if line.lstrip().startswith(label))
    return [word for word in line.split() if "/" in word]


@pytest.mark.parametrize(
    ("option", "how", "low", "default"),
    [
        # (the loss summed with its graph is PP502 `high` since torch-fix139: found by default)
        ((), "each file alone", ["1/3", "1/2", "0/1"], ["1/3", "1/2", "0/1"]),
        # (the project pass's loader is `high` since torch-calibrate31: found by default when checked whole)
        (("--full",), "whole projects", ["2/3", "1/2", "1/1"], ["2/3", "1/2", "1/1"]),
    ],
)
def test_recall_from_the_mirror(tmp_path, option, how, low, default):
    commit = _mirror(tmp_path / "mirror")
    data = tmp_path / "fixed.csv"
    _write(data, _rows(commit))
    done = _run("--data", str(data), "--mirror", str(tmp_path / "mirror"), *option)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"Maintainer-fixed lines, {how}: 3 of 3 lines read, 1 repositories"
    assert _level(lines, "low and up") == low
    assert _level(lines, "default (high)") == default
    pp502 = next(line for line in lines if line.lstrip().startswith("PP502"))
    assert pp502.split(":")[-1].strip() == "1, 1, 1"  # found at the default (high) since torch-fix139
    assert "    PP501 tiny train.py:15" in lines  # missed at every level
    assert ("    PP505 tiny data.py:9" in lines) is (not option)
    assert all(len(line) <= 80 for line in lines)


def test_a_missing_mirror_reads_nothing(tmp_path):
    data = tmp_path / "fixed.csv"
    _write(data, _rows("0" * 40))
    done = _run("--data", str(data), "--mirror", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.splitlines()[0]
        == "Maintainer-fixed lines, each file alone: 0 of 3 lines read, 0 repositories"
    )
    assert "3 lines not read" in done.stdout


def test_a_rule_outside_pp5xx_is_refused(tmp_path):
    data = tmp_path / "fixed.csv"
    rows = _rows("0" * 40)
    rows[1][5] = "PP101"
    _write(data, rows)
    done = _run("--data", str(data), "--mirror", str(tmp_path))
    assert done.returncode != 0
    assert done.stderr.strip() == f"{data}: line 3: line is not a number or rule is not a PP5xx rule"
