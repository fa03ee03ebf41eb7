"""Benchmark: ppcheck (all rules) against the bare cost of reading and parsing the same files.

Point it at a TensorFlow repository checked out anywhere (the issue's reference is tensorpack, ~43k lines of
Python, on which DeepPerf took 29 s); it times, in this process:

  read+parse   read every .py/.ipynb file and ast.parse it (the floor any AST checker pays)
  ppcheck      check_paths with every rule (read, parse, index, rules, noqa), one process
  ppcheck -jN  the same with a process pool (when --jobs > 1)

and prints lines/s (wall clock and CPU), the ratio to read+parse, and the speed-up over DeepPerf's 29 s.
Best of --repeat, runs interleaved so background load hits both alike.

    python bench/bench_checker.py PATH [--repeat 3] [--jobs 2]
"""

from __future__ import annotations

import argparse
import ast
import sys
import time
import warnings
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from checker.notebook import NotebookError, code_cells  # noqa: E402
from checker.walker import check_paths, iter_files  # noqa: E402

DEEPPERF_SECONDS = 29.0


def read_and_parse(files: list[str]) -> int:
    parsed = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path in files:
            with open(path, "rb") as handle:
                text = handle.read().decode("utf-8-sig", errors="replace")
            sources = [text]
            if path.endswith(".ipynb"):
                try:
                    sources = ["\n".join(src for _, src in code_cells(text))]
                except NotebookError:
                    sources = []
            for source in sources:
                try:
                    ast.parse(source)
                    parsed += 1
                except (SyntaxError, ValueError):
                    pass
    return parsed


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    files = list(iter_files([args.path]))
    lines = 0
    for path in files:
        with open(path, "rb") as handle:
            lines += handle.read().count(b"\n")
    runs = {"read+parse": [], "ppcheck": []}
    if args.jobs > 1:
        runs[f"ppcheck -j{args.jobs}"] = []
    findings = None
    for _ in range(args.repeat):
        runs["read+parse"].append(timed(lambda: read_and_parse(files)))
        runs["ppcheck"].append(timed(lambda: check_paths([args.path])))
        if args.jobs > 1:
            runs[f"ppcheck -j{args.jobs}"].append(timed(lambda: check_paths([args.path], jobs=args.jobs)))
    findings = runs["ppcheck"][-1][2][0]
    print(f"{args.path}: {len(files)} files, {lines:,} lines, {len(findings)} findings")
    base_wall = min(r[0] for r in runs["read+parse"])
    base_cpu = min(r[1] for r in runs["read+parse"])
    print(f"{'run':<14} {'wall s':>7} {'cpu s':>7} {'lines/s':>10} {'x parse':>8} {'vs DeepPerf 29 s':>17}")
    for name, results in runs.items():
        wall = min(r[0] for r in results)
        cpu = min(r[1] for r in results)
        print(
            f"{name:<14} {wall:7.2f} {cpu:7.2f} {lines / wall:10,.0f} {wall / base_wall:7.2f}x "
            f"{DEEPPERF_SECONDS / wall:15.1f}x"
        )
    print(f"(read+parse cpu {base_cpu:.2f} s; lines/s on wall clock; the machine may be shared)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
