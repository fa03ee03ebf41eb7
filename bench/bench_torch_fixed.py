"""Recall of ppcheck's PyTorch rules on lines that project maintainers changed to fix a performance problem.

bench/data/torch_fixed_lines.csv names, for each fix, the line as it stood at the fix's parent commit, the
kind of problem and the PP5xx rule expected to report it (see bench/data/PROVENANCE.md for how the lines were
found). The code is not shipped: each file is read from a local git mirror (<mirror>/<owner>+<name>/repo).

    python bench/bench_torch_fixed.py [--data bench/data/torch_fixed_lines.csv] [--mirror /work/.mirror]
        [--full]

A line counts as found at a level when a finding of its expected rule, at that confidence or higher, lies in
the statement that holds the line. By default each file is checked alone; with --full the project as it stood
at the parent commit is checked whole (the `project` column names a folder for a monorepo, else the whole
repository), so callers and training code in other modules count. Prints recall at high, medium and low, per
kind, per rule, for repositories seen before by the PyTorch rules' tuning and hold-outs (`seen` = torch) and
for the others, and lists the lines missed at low.
"""

from __future__ import annotations

import argparse
import ast
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from bench.bench_checker_eval import LEVELS, source_of, statement_span  # noqa: E402
from bench.checker_common import extract_project, mirror_git, read_rows  # noqa: E402
from checker import check_source  # noqa: E402
from checker.engine import all_rules  # noqa: E402
from checker.findings import at_least  # noqa: E402
from checker.walker import check_paths  # noqa: E402

DATA = PROJECT / "bench" / "data" / "torch_fixed_lines.csv"
COLUMNS = ("repo", "commit", "path", "line", "kind", "rule", "fix", "project", "seen", "note")
LABELS = {"high": "default (high)", "medium": "medium and up", "low": "low and up"}


def torch_rules() -> list:
    """The PyTorch rules (PP5xx): the only ones a line of this set expects."""
    return [rule for code, rule in sorted(all_rules().items()) if code.startswith("PP5")]


def check_rows(path: str, rows: list[dict]) -> None:
    """Exit with a one-line error naming the file and row of the first row that cannot be measured."""
    if rows and set(COLUMNS) - set(rows[0]):
        sys.exit(f"{path}: columns must be {','.join(COLUMNS)}")
    codes = set(all_rules())
    for number, row in enumerate(rows, start=2):
        if not row["line"].isdigit() or row["rule"] not in codes or not row["rule"].startswith("PP5"):
            sys.exit(f"{path}: line {number}: line is not a number or rule is not a PP5xx rule")
        if len(row["commit"]) != 40:
            sys.exit(f"{path}: line {number}: commit must be a full 40-digit hash")


def _levels(findings, rule: str, span: range) -> set[str]:
    """Levels at which a finding of `rule` lies in `span`."""
    here = [f for f in findings if f.rule == rule and f.line in span and f.cell is None]
    return {level for level in LEVELS if any(at_least(f.confidence, level) for f in here)}


def file_hits(rows: list[dict], mirror: str) -> list[tuple[dict, set[str] | None]]:
    """Each row with the levels at which it is found, its file checked alone (None: file not read)."""
    rules = torch_rules()
    by_file: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        by_file[(row["repo"], row["commit"], row["path"])].append(row)
    out: list[tuple[dict, set[str] | None]] = []
    for (_, _, path), group in by_file.items():
        text = source_of(group[0], mirror, shipped_root=None)
        if text is None:
            out.extend((row, None) for row in group)
            continue
        tree = _parsed(text)
        if tree is None:
            out.extend((row, None) for row in group)
            continue
        findings, _ = check_source(text, path, rules)
        out.extend(
            (row, _levels(findings, row["rule"], statement_span(tree, int(row["line"])))) for row in group
        )
    return out


def _parsed(text: str) -> ast.Module | None:
    """The module's tree, or None when it does not parse (ppcheck skips such a file too)."""
    try:
        return ast.parse(text)
    except SyntaxError:
        return None


def project_hits(rows: list[dict], mirror: str) -> list[tuple[dict, set[str] | None]]:
    """As file_hits, with the project checked whole at the parent commit (once per repository, commit and
    project folder)."""
    rules = torch_rules()
    by_project: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        by_project[(row["repo"], row["commit"], row["project"])].append(row)
    out: list[tuple[dict, set[str] | None]] = []
    for (repo, commit, folder), group in sorted(by_project.items()):
        git = mirror_git(mirror, repo)
        with tempfile.TemporaryDirectory() as scratch:
            into = Path(scratch)
            if not git.is_dir() or not extract_project(git, commit, into, folder):
                out.extend((row, None) for row in group)
                continue
            findings, _, _ = check_paths([str(into / folder) if folder else str(into)], rules)
            for row in group:
                source = into / row["path"]
                tree = _parsed(source.read_text(encoding="utf-8")) if source.is_file() else None
                if tree is None:
                    out.append((row, None))
                    continue
                mine = [f for f in findings if Path(f.path) == source]
                out.append((row, _levels(mine, row["rule"], statement_span(tree, int(row["line"])))))
    return out


def _share(group: list[set[str]], level: str) -> str:
    hit = sum(level in levels for levels in group)
    return f"{hit}/{len(group)} = {hit / max(len(group), 1):.0%}"


def _counts(group: list[set[str]]) -> str:
    return ", ".join(str(sum(level in levels for levels in group)) for level in LEVELS)


def report(found: list[tuple[dict, set[str] | None]], how: str) -> None:
    """Print recall per level, per kind, per rule and per seen/never seen, then the lines missed at low."""
    read = [(row, levels) for row, levels in found if levels is not None]
    repos = {row["repo"] for row, _ in read}
    print(f"Maintainer-fixed lines, {how}: {len(read)} of {len(found)} lines read, {len(repos)} repositories")
    print(f"  {'level':<16}{'all':<16}{'never seen':<16}seen (torch)")
    for level in LEVELS:
        fresh = [lv for row, lv in read if row["seen"] != "torch"]
        seen = [lv for row, lv in read if row["seen"] == "torch"]
        every = [lv for _, lv in read]
        print(
            f"  {LABELS[level]:<16}{_share(every, level):<16}{_share(fresh, level):<16}{_share(seen, level)}"
        )
    for column, title in (("kind", "per kind"), ("rule", "per rule")):
        print(f"  {title} (lines: found at high, medium+, low+):")
        for key in sorted({row[column] for row, _ in read}):
            group = [lv for row, lv in read if row[column] == key]
            print(f"    {key:<18} {len(group):>3} lines: {_counts(group)}")
    missed = sorted(
        (row for row, levels in read if not levels), key=lambda r: (r["repo"], r["path"], int(r["line"]))
    )
    if missed:
        print("  missed at every level:")
    for row in missed:
        name = row["repo"].split("/")[-1][:22]
        print(f"    {row['rule']} {name} {Path(row['path']).name[:26]}:{row['line']}")
    unread = len(found) - len(read)
    if unread:
        print(f"  {unread} lines not read: mirror, commit or file missing, or no parse")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DATA), help="CSV of fixed lines (default: %(default)s)")
    parser.add_argument(
        "--mirror", default="/work/.mirror", help="folder of git mirrors: <owner>+<name>/repo"
    )
    parser.add_argument("--full", action="store_true", help="check each project whole at the parent commit")
    args = parser.parse_args(argv)
    path = Path(args.data)
    if not path.is_file():
        sys.exit(f"{path}: no such file")
    rows = read_rows(path)
    check_rows(str(path), rows)
    if args.full:
        report(project_hits(rows, args.mirror), "whole projects")
    else:
        report(file_hits(rows, args.mirror), "each file alone")


if __name__ == "__main__":
    main()
