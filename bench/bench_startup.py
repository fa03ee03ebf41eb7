"""Benchmark: how long the CLIs take to start, as whole processes, against the floor of any click program.

Times (wall clock, best of --repeat, the variants interleaved so a busy machine slows each alike):

  floor          python3 -c "import click": the interpreter and click, which every CLI here pays
  ppmine --help  and pplabel --help, ppbench --help
  eager --help   ppmine --help with SQLAlchemy, alembic and the schema imported first: what --help cost while
                 the shared CLI module imported the database layer at its top
  ppmine stats   on an empty, current SQLite database (opens it, checks its revision, counts)

and prints each beside the floor, and eager --help against ppmine --help (the saving of deferred imports).
With --importtime it also lists the five slowest imports of `ppmine stats` (python3 -X importtime).

    python bench/bench_startup.py [--repeat 7] [--importtime]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent

EAGER = (
    "import sys, runpy, sqlalchemy.orm, alembic.runtime.migration, alembic.script, core.schema; "
    "sys.argv = ['ppmine', '--help']; runpy.run_module('mining.cli', run_name='__main__')"
)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(PROJECT) + (os.pathsep + path if path else "")
    return env


def _seconds(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, stdout=subprocess.DEVNULL, cwd=PROJECT)
    return time.perf_counter() - start


def _slowest_imports(args: list[str], env: dict[str, str], n: int = 5) -> list[tuple[int, str]]:
    """The ``n`` top-level imports with the largest cumulative time (microseconds) under -X importtime."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *args], env=env, capture_output=True, text=True, cwd=PROJECT
    )
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit() and not parts[2].startswith("  "):
            rows.append((int(parts[1]), parts[2].strip()))
    return sorted(rows, reverse=True)[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--importtime", action="store_true")
    opts = parser.parse_args()
    env = _env()
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'study.db'}"
        subprocess.run(
            [sys.executable, "-m", "mining.cli", "db", "upgrade", "--db", db],
            env=env,
            check=True,
            capture_output=True,
            cwd=PROJECT,
        )
        variants = {
            "floor (python + click)": ["-c", "import click"],
            "ppmine --help": ["-m", "mining.cli", "--help"],
            "pplabel --help": ["-m", "labeling.cli", "--help"],
            "ppbench --help": ["-m", "ppbench.cli", "--help"],
            "eager ppmine --help": ["-c", EAGER],
            "ppmine stats": ["-m", "mining.cli", "stats", "--db", db],
        }
        best = {name: float("inf") for name in variants}
        for _ in range(opts.repeat):
            for name, args in variants.items():
                best[name] = min(best[name], _seconds(args, env))
        floor = best["floor (python + click)"]
        print(f"whole-process start, best of {opts.repeat} (wall seconds; ratio to the floor)")
        for name, seconds in best.items():
            print(f"  {name:<24} {seconds:6.3f} s  {seconds / floor:5.1f}x")
        saved = best["eager ppmine --help"] / best["ppmine --help"]
        print(f"ppmine --help with the database layer imported first is {saved:.1f}x slower than as shipped")
        if opts.importtime:
            print("slowest imports of ppmine stats (cumulative ms):")
            for micros, name in _slowest_imports(variants["ppmine stats"], env):
                print(f"  {micros / 1000:7.1f}  {name}")


if __name__ == "__main__":
    main()
