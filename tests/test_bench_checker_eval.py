"""bench_checker_eval.py --holdout: recall on held-out reports read from a git mirror.

The mirror is built here from a small project written for this test (tests/fixtures/deepperf/holdout_tiny):
a map before batch (a report ppcheck makes at some level), a plain print in a training loop (a report it
must miss), and a lambda picking a tuple item, rejected (it must stay silent).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from git_mirror import make_mirror, run_bench, write_rows

PROJECT = Path(__file__).resolve().parent.parent
BENCH = PROJECT / "bench" / "bench_checker_eval.py"
TINY = PROJECT / "tests" / "fixtures" / "deepperf" / "holdout_tiny"
COLUMNS = ["repo", "commit", "path", "line", "deepperf_checker", "verdict", "issue"]


def _mirror(root: Path) -> str:
    return make_mirror(TINY, root)


def _write(path: Path, rows: list[list]) -> None:
    write_rows(path, COLUMNS, rows)


def _run(*args: str) -> subprocess.CompletedProcess:
    return run_bench(BENCH, *args)


def _rows(commit: str) -> list[list]:
    where = ["someone/tiny", commit, "src/pipeline.py"]
    return [
        [*where, 14, "2", "fixed", "https://example.org/1"],
        [*where, 29, "1", "confirmed", "https://example.org/2"],
        [*where, 19, "3", "rejected", "https://example.org/3"],
    ]


@pytest.mark.parametrize(("option", "how"), [((), "reported files"), (("--full",), "whole projects")])
def test_holdout_counts_reports_from_the_mirror(tmp_path, option, how):
    commit = _mirror(tmp_path / "mirror")
    holdout = tmp_path / "holdout.csv"
    _write(holdout, _rows(commit))
    done = _run("--holdout", str(holdout), "--mirror", str(tmp_path / "mirror"), *option)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"Held-out DeepPerf reports, {how}: 3 of 3 lines read from --mirror"
    low = next(line for line in lines if line.lstrip().startswith("low and up"))
    assert low.split()[3:] == ["1/2", "=", "50%", "0/1"]
    kind2 = next(line for line in lines if "map before batch" in line)
    assert kind2.split(":")[-1].split(", ")[-1] == "1"  # made at low and up
    assert "    tiny pipeline.py:29 (1)" in lines  # the print is missed at every level
    assert not any("rejected, made" in line for line in lines)
    assert all(len(line) <= 80 for line in lines)


def test_holdout_without_mirror_reads_nothing(tmp_path):
    holdout = tmp_path / "holdout.csv"
    _write(holdout, _rows("0" * 40))
    done = _run("--holdout", str(holdout))
    assert done.returncode == 0, done.stderr
    first = "Held-out DeepPerf reports, reported files: 0 of 3 lines read from --mirror"
    assert done.stdout.splitlines()[0] == first
    assert "3 lines not read" in done.stdout


def test_holdout_rejects_an_unknown_verdict(tmp_path):
    holdout = tmp_path / "holdout.csv"
    rows = _rows("0" * 40)
    rows[1][5] = "maybe"
    _write(holdout, rows)
    done = _run("--holdout", str(holdout), "--mirror", str(tmp_path))
    assert done.returncode != 0
    assert done.stderr.strip() == f"{holdout}: line 3: line, deepperf_checker or verdict not known"


def test_holdout_takes_every_covered_kind_and_names_the_rules(tmp_path):
    """Kinds beyond DeepPerf's (a set mined from maintainers' fixes) are counted under their own names,
    and the lines made are counted per rule that reports them, as check_source reports them."""
    from checker import check_source

    commit = _mirror(tmp_path / "mirror")
    where = ["someone/tiny", commit, "src/pipeline.py"]
    holdout = tmp_path / "holdout.csv"
    _write(holdout, [[*where, 14, "prefetch", "fixed", "abc"], [*where, 29, "numpy", "fixed", "def"]])
    done = _run("--holdout", str(holdout), "--mirror", str(tmp_path / "mirror"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    prefetch = next(line for line in lines if "no prefetch" in line)
    numpy = next(line for line in lines if "numpy in train step" in line)
    assert prefetch.split(":")[-1].split(", ")[-1] == "1"  # line 14 is made at low and up
    assert numpy.split(":")[-1].strip() == "0, 0, 0"
    findings, _ = check_source((TINY / "pipeline.py").read_text(encoding="utf-8"), "src/pipeline.py")
    expected = ", ".join(f"{rule} 1" for rule in sorted({f.rule for f in findings if f.line == 14}))
    header = lines.index("  confirmed/fixed made, lines per rule reporting them (any level):")
    assert lines[header + 1].strip() == expected
    assert all(len(line) <= 80 for line in lines)
