"""Throwaway git mirrors, row files and runs for the benches that read code from mirrors (`--mirror DIR`)."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent

_GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.org",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.org",
}


def make_mirror(source: Path, root: Path) -> str:
    """`source` committed as <root>/someone+tiny/repo (its files under src/); returns the commit."""
    repo = root / "someone+tiny" / "repo"
    shutil.copytree(source, repo / "src")
    env = {**os.environ, **_GIT_ENV}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "tiny"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env)
    done = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip()


def write_rows(path: Path, columns: list[str], rows: list[list]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows(rows)


def run_bench(bench: Path, *args: str) -> subprocess.CompletedProcess:
    """The bench script run as its users run it, in a fresh interpreter, with this checkout's packages."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    return subprocess.run([sys.executable, str(bench), *args], capture_output=True, text=True, env=env)
