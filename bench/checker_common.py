"""What the ppcheck evaluation benches share: lines of code, checkout folders, hand-verdict CSVs and their keys.

One definition of each, so that ``bench_checker_eval.py`` and ``bench_torch_checker.py`` count a line, name a
checkout and join a verdict to a finding the same way.
"""

from __future__ import annotations

import contextlib
import csv
import subprocess
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


def mirror_git(mirror: str | Path, repo: str) -> Path:
    """The git directory of a repository's mirror, `<mirror>/<owner>+<name>/repo` (or its `.git`)."""
    git = checkout(mirror, repo) / "repo"
    return git / ".git" if (git / ".git").is_dir() else git


def extract_project(git: Path, commit: str, into: Path, folder: str = "") -> bool:
    """Write the Python files and notebooks of `folder` (the whole repository when empty) at `commit` under
    `into`, read in one `git cat-file --batch` (a blob the mirror lacks is left out); False when the mirror
    lacks the commit."""
    where = [folder] if folder else []
    listed = subprocess.run(
        ["git", "--git-dir", str(git), "ls-tree", "-r", "-z", "--name-only", commit, *where],
        capture_output=True,
    )
    if listed.returncode != 0:
        return False
    names = [n.decode() for n in listed.stdout.split(b"\0") if n.endswith((b".py", b".ipynb"))]
    query = "".join(f"{commit}:{name}\n" for name in names).encode()
    blobs = subprocess.run(
        ["git", "--git-dir", str(git), "cat-file", "--batch"], input=query, capture_output=True
    )
    data, at = blobs.stdout, 0
    for name in names:
        header_end = data.index(b"\n", at)
        header = data[at:header_end].split()
        at = header_end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data[at : at + size])
        at += size + 1  # the blob, then the newline cat-file ends it with
    return True


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
