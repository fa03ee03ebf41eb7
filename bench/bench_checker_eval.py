"""Evaluation of ppcheck on what DeepPerf reported and on fresh code, rerunnable from the shipped data.

tests/fixtures/deepperf/ holds the lines DeepPerf's authors reported as GitHub issues with each maintainer's
verdict (reports.csv; the code, trimmed, under projects/), and the places DeepPerf itself reports in its
example programs (examples.csv, examples/). A report counts as made when ppcheck has a finding in the
statement that holds the reported line (DeepPerf names a statement's first line, ppcheck the call's).

    python bench/bench_checker_eval.py [--mirror /work/.mirror [--full]] [--fresh REPO_DIR ...]
        [--verdicts bench/data/tf_checker_verdicts.csv [--root CHECKOUTS]]
        [--holdout tests/fixtures/deepperf/reports_holdout.csv --mirror /work/.mirror [--full]]

prints, for the default output (high) and with --min-confidence medium and low:
  recall on confirmed/fixed lines, the share of rejected/declined reports still made, the examples covered,
  and with --fresh, findings per 1,000 lines of fresh repositories. --mirror adds the reports whose code
  cannot be shipped (no licence, or GPL) from local git mirrors (<mirror>/<owner>+<name>/repo). With
  --full it also checks each reported project whole, as it stood at the reported commit (every .py and .ipynb
  file read from the mirror), so the confidence of a line can draw on its callers and the training code that
  the trimmed files leave out; the shipped trimmed files stay the offline default.
  --verdicts recounts the hand reading of fresh repositories (right/debatable/wrong per finding) per rule and
  confidence as it was read; with --root (checkouts of those repositories as <root>/<owner>+<name>) it runs
  ppcheck again and counts the same verdicts under today's confidences (findings no longer made: dropped).
  --holdout prints, instead, recall per confidence level and per kind on reports kept out of tuning
  (reports_holdout.csv, read from the mirrors only: each reported file alone, with --full each project whole),
  how many lines each rule makes, the rejected/declined reports still made, and the lines missed at every
  level. Its kinds are DeepPerf's checkers (1, 2, 3, session) and the other problems ppcheck's TF rules
  cover (KINDS), so a set mined from maintainers' own fixes (bench/data/tf_fixed_lines.csv) reads the same.
"""

from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys
import tempfile
import textwrap
from collections import Counter, defaultdict
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from bench.checker_common import (  # noqa: E402
    checkout,
    code_lines,
    extract_project,
    finding_key,
    mirror_git,
    read_rows,
    verdict_key,
)
from checker import check_source  # noqa: E402
from checker.findings import at_least  # noqa: E402
from checker.walker import check_paths  # noqa: E402

DATA = PROJECT / "tests" / "fixtures" / "deepperf"
POSITIVE = ("confirmed", "fixed")
NEGATIVE = ("rejected", "declined")
LEVELS = ("high", "medium", "low")  # the levels DeepPerf recall is reported at
READ_LEVELS = ("high", "medium", "low")  # every level a hand-read finding can have


def statement_span(tree: ast.AST, line: int) -> range:
    """Lines of the innermost statement holding `line` (a compound statement's header only)."""
    best = range(line, line + 1)
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or not (node.lineno <= line <= (node.end_lineno or node.lineno)):
            continue
        body = getattr(node, "body", None)
        end = (
            body[0].lineno - 1
            if isinstance(body, list) and body and body[0].lineno > line
            else node.end_lineno
        )
        if isinstance(body, list) and body and body[0].lineno <= line:
            continue  # the line is inside the body: a nested statement is closer
        span = range(node.lineno, (end or node.lineno) + 1)
        if len(span) <= len(best) or best == range(line, line + 1):
            best = span
    return best


def source_of(row: dict, mirror: str | None, shipped_root: Path | None = DATA / "projects") -> str | None:
    """The reported file at the reported commit: the shipped trimmed copy, else the mirror's git history."""
    shipped = checkout(shipped_root, row["repo"]) / row["path"] if shipped_root else None
    if shipped is not None and shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    if mirror is None:
        return None
    git = mirror_git(mirror, row["repo"])
    done = subprocess.run(
        ["git", "--git-dir", str(git), "show", f"{row['commit']}:{row['path']}"],
        capture_output=True,
        text=True,
    )
    return done.stdout if done.returncode == 0 else None


def made(
    text: str, path: str, lines: list[int], rules: dict[int, set[str]] | None = None
) -> dict[int, set[str]]:
    """Reported line -> confidence levels at which ppcheck reports in its statement; `rules`, when
    given, receives the rules of those findings per line."""
    findings, _ = check_source(text, path)
    tree = ast.parse(text)
    hits: dict[int, set[str]] = {}
    for line in lines:
        span = statement_span(tree, line)
        here = [f for f in findings if f.line in span]
        hits[line] = {level for f in here for level in LEVELS if at_least(f.confidence, level)}
        if rules is not None:
            rules[line] = {f.rule for f in here}
    return hits


def report_hits(
    rows: list[dict], mirror: str | None, shipped_root: Path | None = DATA / "projects"
) -> tuple[list[tuple[dict, set[str]]], int]:
    """Each report whose code could be read, with the levels at which ppcheck makes it; and how many could not."""
    by_file: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        by_file[(row["repo"], row["commit"], row["path"])].append(row)
    found: list[tuple[dict, set[str]]] = []
    missing = 0
    for (_, _, path), group in by_file.items():
        text = source_of(group[0], mirror, shipped_root)
        if text is None:
            missing += len(group)
            continue
        rules: dict[int, set[str]] = {}
        hits = made(text, path, [int(r["line"]) for r in group], rules)
        for row in group:
            row[MADE_BY] = rules[int(row["line"])]
        found.extend((row, hits[int(row["line"])]) for row in group)
    return found, missing


def evaluate_reports(mirror: str | None, full: bool = False) -> None:
    """Recall on confirmed/fixed lines (and reports still made): each reported file as shipped or mirrored,
    or with `full` each project checked whole at the reported commit (from the mirror)."""
    rows = read_rows(DATA / "reports.csv")
    found, missing = project_hits(rows, mirror) if full else report_hits(rows, mirror)
    tally = _tally_by_verdict(found)
    if full:
        print(
            f"DeepPerf's reports, whole projects at the reported commit ({len(rows) - missing} of {len(rows)} lines)"
        )
    else:
        print(
            f"DeepPerf's reports ({len(rows) - missing} of {len(rows)} lines with code; --mirror adds the rest)"
        )
    _print_recall(tally)


def _tally_by_verdict(found) -> dict[str, Counter]:
    """verdict -> how many reported lines it has ("total") and how many each confidence level makes."""
    tally: dict[str, Counter] = defaultdict(Counter)
    for row, levels in found:
        tally[row["verdict"]]["total"] += 1
        for level in levels:
            tally[row["verdict"]][level] += 1
    return tally


def _made_at(tally: dict[str, Counter], level: str) -> tuple[int, int, int, int]:
    """(confirmed/fixed made, confirmed/fixed, rejected/declined made, rejected/declined) at `level` and up."""
    return (
        sum(tally[v][level] for v in POSITIVE),
        sum(tally[v]["total"] for v in POSITIVE),
        sum(tally[v][level] for v in NEGATIVE),
        sum(tally[v]["total"] for v in NEGATIVE),
    )


def _print_recall(tally: dict[str, Counter]) -> None:
    for level in LEVELS:
        pos_hit, pos, neg_hit, neg = _made_at(tally, level)
        print(
            f"  {level + ' and up' if level != 'high' else 'default (high)':<16} recall on confirmed/fixed "
            f"{pos_hit}/{pos} = {pos_hit / max(pos, 1):.0%}   rejected/declined still made {neg_hit}/{neg}"
        )
    for verdict in sorted(tally):
        counts = tally[verdict]
        print(
            f"    {verdict:<10} {counts['total']:>3} lines: high {counts['high']}, with medium "
            f"{counts['medium']}, with low {counts['low']}"
        )


KINDS = {  # DeepPerf's checkers (1-3, session), then the other kinds of problem ppcheck's TF rules cover
    "1": "1 TF op in a loop",
    "2": "2 map before batch",
    "3": "3 map, no parallel",
    "session": "tf.Session in loop",
    "writer": "writer in loop",
    "prefetch": "no prefetch",
    "shuffle": "shuffle after batch",
    "predict": "predict per sample",
    "model": "model in loop",
    "function": "tf.function retrace",
    "numpy": "numpy in train step",
}
MADE_BY = "made_by"  # key a read report gets: the rules of the findings in its statement (any level)
HOLDOUT_COLUMNS = ("repo", "commit", "path", "line", "deepperf_checker", "verdict", "issue")
VERDICTS_KNOWN = (*POSITIVE, *NEGATIVE, "no reply")


def _check_holdout(path: str, rows: list[dict]) -> None:
    """Exit with a one-line error at the first row that cannot be read as a report."""
    for number, row in enumerate(rows, start=2):
        if set(HOLDOUT_COLUMNS) - set(row):
            sys.exit(f"{path}: columns must be {','.join(HOLDOUT_COLUMNS)}")
        if (
            not row["line"].isdigit()
            or row["deepperf_checker"] not in KINDS
            or row["verdict"] not in VERDICTS_KNOWN
        ):
            sys.exit(f"{path}: line {number}: line, deepperf_checker or verdict not known")


def _where(row: dict) -> str:
    """A report in a few words: project name, file name and line, DeepPerf kind."""
    name = row["repo"].split("/")[-1][:20]
    return f"{name} {Path(row['path']).name}:{row['line']} ({row['deepperf_checker']})"


def evaluate_holdout(path: str, mirror: str | None, full: bool = False) -> None:
    """Recall per level and per DeepPerf kind on reports kept out of tuning, read from the mirrors only:
    each reported file alone, or with `full` each project whole at the reported commit."""
    rows = read_rows(Path(path))
    _check_holdout(path, rows)
    if full and mirror:
        found, missing = project_hits(rows, mirror)
        how = "whole projects"
    else:
        found, missing = report_hits(rows, mirror, shipped_root=None)
        how = "reported files"
    print(f"Held-out DeepPerf reports, {how}: {len(found)} of {len(rows)} lines read from --mirror")
    pos = [(r, lv) for r, lv in found if r["verdict"] in POSITIVE]
    neg = [(r, lv) for r, lv in found if r["verdict"] in NEGATIVE]
    tally = _tally_by_verdict(found)
    print(f"  {'level':<16}{'confirmed/fixed made':<24}rejected/declined made")
    for level, label in zip(LEVELS, ("default (high)", "medium and up", "low and up"), strict=True):
        hit, total, bad, bad_total = _made_at(tally, level)
        share = f"{hit}/{total} = {hit / max(total, 1):.0%}"
        print(f"  {label:<16}{share:<24}{bad}/{bad_total}")
    print("  confirmed/fixed by DeepPerf kind (made at high, medium+, low+):")
    for kind, name in KINDS.items():
        group = [lv for r, lv in pos if r["deepperf_checker"] == kind]
        if group:
            counts = ", ".join(str(sum(level in lv for lv in group)) for level in LEVELS)
            print(f"    {name:<20} {len(group):>3} lines: {counts}")
    by_rule = Counter(rule for row, lv in pos for rule in row.get(MADE_BY, ()))
    if by_rule:
        made_by = ", ".join(f"{rule} {count}" for rule, count in sorted(by_rule.items()))
        print("  confirmed/fixed made, lines per rule reporting them (any level):")
        print(textwrap.fill(made_by, width=80, initial_indent="    ", subsequent_indent="    "))
    missed = [row for row, lv in pos if not lv]
    if missed:
        print("  confirmed/fixed missed at every level:")
    for row in missed:
        print(f"    {_where(row)}")
    for row, lv in neg:
        if lv:
            print(f"  {row['verdict']}, made from {min(lv, key=LEVELS.index)}: {_where(row)}")
    if missing:
        print(f"  {missing} lines not read: give --mirror (<mirror>/<owner>+<name>/repo)")


def project_hits(rows: list[dict], mirror: str) -> tuple[list[tuple[dict, set[str]]], int]:
    """As report_hits, with each project checked whole as it stood at the reported commit (read from the
    mirror); a report whose file is not in its project is found, unmade."""
    by_project: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        by_project[(row["repo"], row["commit"])].append(row)
    found: list[tuple[dict, set[str]]] = []
    missing = 0
    with tempfile.TemporaryDirectory() as scratch:
        for (repo, commit), group in sorted(by_project.items()):
            git = mirror_git(mirror, repo)
            into = Path(scratch) / repo.replace("/", "+")
            if not git.is_dir() or not extract_project(git, commit, into):
                missing += len(group)
                continue
            findings, _, _ = check_paths([str(into)])
            for row in group:
                source = into / row["path"]
                if not source.is_file():
                    found.append((row, set()))
                    continue
                span = statement_span(ast.parse(source.read_text(encoding="utf-8")), int(row["line"]))
                here = [f for f in findings if Path(f.path) == source and f.line in span and f.cell is None]
                row[MADE_BY] = {f.rule for f in here}
                found.append((row, {lv for lv in LEVELS if any(at_least(f.confidence, lv) for f in here)}))
    return found, missing


def evaluate_examples() -> None:
    rows = read_rows(DATA / "examples.csv")
    by_file: dict[str, list[int]] = defaultdict(list)
    for row in rows:
        by_file[row["path"]].append(int(row["line"]))
    covered = Counter()
    for path, lines in by_file.items():
        text = (DATA / "examples" / path).read_text(encoding="utf-8")
        hits = made(text, path, lines)
        for row in rows:
            if row["path"] == path:
                for level in hits[int(row["line"])]:
                    covered[level] += 1
    print(
        f"DeepPerf's example programs: {covered['high']}/{len(rows)} places reported by default, "
        f"{covered['medium']}/{len(rows)} with medium, {covered['low']}/{len(rows)} with low"
    )


def evaluate_fresh(dirs: list[str]) -> None:
    print("Fresh repositories (findings per 1,000 lines):")
    for folder in dirs:
        lines = code_lines(folder)
        findings, _, files = check_paths([folder])
        per = Counter(f.confidence for f in findings)
        rules = Counter((f.rule, f.confidence) for f in findings)
        high, medium = per["high"], per["high"] + per["medium"]
        print(
            f"  {os.path.basename(folder.rstrip('/')):<36} {lines / 1000:>6.1f}k lines  default {high:>3} "
            f"({high * 1000 / max(lines, 1):.2f}/k)  with medium {medium:>3} ({medium * 1000 / max(lines, 1):.2f}/k)"
        )
        print("    " + ", ".join(f"{r} {c} {n}" for (r, c), n in sorted(rules.items())))


VERDICTS = ("right", "debatable", "wrong")


def _tally_line(label: str, counts: Counter) -> str:
    total = sum(counts[v] for v in VERDICTS)
    right = counts["right"]
    return (
        f"  {label:<14} {right:>3}/{total:<3} right ({right / max(total, 1):.0%})  "
        f"debatable {counts['debatable']:>3}  wrong {counts['wrong']:>3}"
    )


def _print_precision(title: str, rows: list[dict], level_of) -> None:
    """Per confidence level and rule; `level_of(row)` gives the level a finding has (None: not made)."""
    print(title)
    by: dict[tuple[str, str], Counter] = defaultdict(Counter)
    dropped = Counter()
    for row in rows:
        level = level_of(row)
        if level is None:
            dropped[row["verdict"]] += 1
            continue
        for lvl in READ_LEVELS:
            if at_least(level, lvl):
                by[(lvl, "all")][row["verdict"]] += 1
        by[(level, row["rule"])][row["verdict"]] += 1
    for lvl, label in (("high", "default (high)"), ("medium", "with medium"), ("low", "with low")):
        print(_tally_line(label, by[(lvl, "all")]))
    for lvl in READ_LEVELS:
        for rule in sorted(r for (v, r) in by if v == lvl and r != "all"):
            print(_tally_line(f"{lvl} {rule}", by[(lvl, rule)]))
    if sum(dropped.values()):
        print(_tally_line("no longer made", dropped))


def evaluate_verdicts(path: str, root: str | None) -> None:
    rows = read_rows(Path(path))
    for number, row in enumerate(rows, start=2):
        if row["verdict"] not in VERDICTS or row["confidence"] not in READ_LEVELS:
            sys.exit(f"{path}: line {number}: verdict or confidence not known")
    readings: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        readings[row.get("reading") or "1"].append(row)
    now = _rerun(rows, root) if root else None
    for reading, group in sorted(readings.items()):
        repos = sorted({r["repo"] for r in group})
        print(f"Reading {reading}: {len(group)} findings read by hand on {len(repos)} fresh repositories")
        _print_precision(
            "as read (each finding's confidence when it was read):", group, lambda r: r["confidence"]
        )
        if now is not None:
            _print_precision(
                "with today's rules (the same verdicts):", group, lambda r: now.get(verdict_key(r))
            )
            unread = {k for k in now if k[0] in repos} - {verdict_key(r) for r in group}
            if unread:
                print(f"  {len(unread)} findings made today were not read, e.g. {sorted(unread)[:3]}")


def _rerun(rows: list[dict], root: str) -> dict[tuple, str]:
    """(repo, path, cell, line, rule) -> confidence of every finding ppcheck makes today on the checkouts."""
    now: dict[tuple, str] = {}
    for repo in sorted({r["repo"] for r in rows}):
        folder = checkout(root, repo)
        if not folder.is_dir():
            sys.exit(f"--root: {folder}: no checkout of {repo}")
        findings, _, _ = check_paths([str(folder)])
        for f in findings:
            now[finding_key(repo, os.path.relpath(f.path, folder), f)] = f.confidence
    return now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", help="folder of git mirrors for reports whose code is not shipped")
    parser.add_argument(
        "--full", action="store_true", help="with --mirror: also check each reported project whole"
    )
    parser.add_argument(
        "--fresh", nargs="*", default=[], metavar="DIR", help="fresh repositories to count on"
    )
    parser.add_argument("--verdicts", help="CSV of hand verdicts on fresh repositories to recount")
    parser.add_argument("--root", help="with --verdicts: folder of their checkouts, to rerun ppcheck")
    parser.add_argument(
        "--holdout", metavar="CSV", help="held-out reports (reports.csv's columns) to measure from --mirror"
    )
    args = parser.parse_args()
    if args.full and not args.mirror:
        sys.exit("--full: needs --mirror (the projects are read from the git mirrors)")
    if args.holdout:
        evaluate_holdout(args.holdout, args.mirror, args.full)
        return
    if args.verdicts:
        evaluate_verdicts(args.verdicts, args.root)
        return
    evaluate_reports(args.mirror)
    if args.full:
        evaluate_reports(args.mirror, full=True)
    evaluate_examples()
    if args.fresh:
        evaluate_fresh(args.fresh)


if __name__ == "__main__":
    main()
