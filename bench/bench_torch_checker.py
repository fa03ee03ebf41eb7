"""Benchmark: ppcheck's PyTorch rules on real repositories: precision from hand verdicts, speed, TorchFix beside it.

ROOT holds one folder per repository, named `owner+name` (as the verdicts file names them). The script

  1. checks ROOT with every rule (in this process, each repository folder its own project) and counts the
     PP5xx findings per rule;
  2. joins them with the hand verdicts (bench/data/torch_checker_verdicts.csv, the reading the rules were tuned
     on, or --verdicts bench/data/torch_checker_fresh_verdicts.csv, the fresh reading: repo, path, cell, line,
     rule, verdict = right | debatable | wrong, note) and prints per rule: findings, read, right, debatable,
     wrong, precision (right / read). A finding without a verdict counts as unread, so a rule change that moves
     findings shows up as fewer read; --as-read prints the verdicts file's own counts (what was read, whatever
     the rules find now) and stops;
  3. times whole `python -m checker` processes, interleaved, best of --repeat: ROOT as a user runs ppcheck
     (`python -m checker ROOT/*`, one process, each repository folder its own project, as the precision table
     checks them), ROOT as one project (`python -m checker ROOT`, the timing before torch-speed13: project
     passes that grow faster than a project's size make it slower) and, with --baseline, a TensorFlow
     repository (the issue's reference: tensorpack, 43k lines in at most 2.9 s); prints lines/s and the ratio
     of each PyTorch row to the baseline's. The processes run the checker from bytecode compiled once, as an
     installed copy does (`process_env`); --compile-each-run times them compiling its sources each time;
  4. with --torchfix, runs TorchFix (`torchfix --select ALL`, if installed) on ROOT and prints its findings per
     code, and how many of its TOR401 (synchronous DataLoader) lines ppcheck's PP504 also reports.

    python bench/bench_torch_checker.py ROOT [--verdicts CSV] [--as-read] [--baseline TF_REPO] [--repeat 3]
        [--compile-each-run] [--torchfix] [--recall bench/data/torch_recall_holdout4.csv]
"""

from __future__ import annotations

import argparse
import ast
import collections
import functools
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from bench.checker_common import code_lines, finding_key, read_rows, verdict_key  # noqa: E402
from checker.walker import check_paths  # noqa: E402

VERDICTS = PROJECT / "bench" / "data" / "torch_checker_verdicts.csv"
_TORCHFIX_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>TOR\d+) ")


def root_finding_key(root: str, finding) -> tuple:
    """A finding under ROOT keyed as the verdicts file keys it (the repository is ROOT's folder holding it)."""
    repo, rel = os.path.relpath(finding.path, root).split(os.sep, 1)
    return finding_key(repo, rel, finding)


def read_verdicts(path: Path) -> dict[tuple, str]:
    return {verdict_key(r): r["verdict"] for r in read_rows(path)}


def count(rows, rule: str, verdict: str | None) -> None:
    """One finding into rows[rule] = [findings, read, right, debatable, wrong]."""
    row = rows[rule]
    row[0] += 1
    if verdict is not None:
        row[1] += 1
        row[2 + ("right", "debatable", "wrong").index(verdict)] += 1


def repository_folders(root: str) -> list[str]:
    """ROOT's repository folders, each checked as its own project (as a user checks one repository): run over
    ROOT as one project, a def name in one repository would count as called from another."""
    return sorted(e.path for e in os.scandir(root) if e.is_dir() and not e.name.startswith("."))


def precision_table(root: str, verdicts: dict[tuple, str]):
    findings, _, files = check_paths(repository_folders(root))
    torch_findings = [f for f in findings if f.rule.startswith("PP5")]
    rows = collections.defaultdict(lambda: [0] * 5)
    repos = collections.defaultdict(set)
    for f in torch_findings:
        key = root_finding_key(root, f)
        repos[f.rule].add(key[0])
        count(rows, f.rule, verdicts.get(key))
    return rows, repos, torch_findings, files


def as_read_table(verdicts: dict[tuple, str]):
    """The verdicts file's own counts per rule: what was read, whether or not the rules still report it."""
    rows = collections.defaultdict(lambda: [0] * 5)
    repos = collections.defaultdict(set)
    for key, verdict in verdicts.items():
        repos[key[4]].add(key[0])
        count(rows, key[4], verdict)
    return rows, repos


def print_table(rows, repos) -> None:
    print(
        f"{'rule':<7} {'findings':>8} {'repos':>5} {'read':>5} {'right':>5} {'debat.':>6} {'wrong':>5} {'precision':>9}"
    )
    for rule in sorted(rows):
        total, read, right, debatable, wrong = rows[rule]
        share = f"{right / read:9.0%}" if read else f"{'-':>9}"
        print(f"{rule:<7} {total:8} {len(repos[rule]):5} {read:5} {right:5} {debatable:6} {wrong:5} {share}")
    total, read, right, debatable, wrong = (sum(r[i] for r in rows.values()) for i in range(5))
    print(
        f"{'all':<7} {total:8} {'':5} {read:5} {right:5} {debatable:6} {wrong:5} {right / max(read, 1):9.0%}"
    )


# the rules that report each kind of hand-listed case (bench/data/torch_recall_holdout4.csv's `kind`)
_KIND_RULES = {
    "host-sync": {"PP501"},
    "loader": {"PP504", "PP505"},
    "cpu-tensor-moved": {"PP506"},
    "eval-without-no-grad": {"PP503"},
    "element-loop": {"PP509"},
    "synchronize-every-step": {"PP510"},
    "history-accumulated": {"PP502"},
    "setup-in-loop": {"PP507"},
    "per-sample-call": {"PP508"},
    "retain-graph": {"PP511"},
}
_LOOP_LINE = re.compile(r"loop at (?:cell \d+ )?line (\d+)")
_MADE_LINE = re.compile(
    r"made on the CPU \((?:cell \d+ )?line (\d+)\)"
)  # PP506: where the copied tensor was made


# PP501: where a finding that names no loop of its module puts the reads it counts beside its own (torch-fix83)
_OTHER_READS = re.compile(r"the other reads? (?:is|are) at lines? ([\d, and]+)")


def other_read_lines(message: str) -> set[int]:
    """The lines a PP501 message names as its other reads (`; the other reads are at lines 194, 212 and
    281`): a host-sync case on one of them is counted as found by that finding, at its level."""
    match = _OTHER_READS.search(message)
    return {int(n) for n in re.findall(r"\d+", match.group(1))} if match else set()


@functools.cache
def _loop_end(path: str, loop_line: int) -> int:
    """The last line of the `for`/`while` loop that starts at `loop_line` of a .py file, or `loop_line` when
    there is none (a notebook, a file that does not parse). (torch-fix87) A PP503 finding at a call that runs
    an evaluation pass through a mode argument (`run(..., train=False)`, `iterate(..., mode='val')`) names
    the loop in the called def that runs the model: a listed eval-without-no-grad case inside that loop (its
    model call) is the one the finding's remedy covers."""
    if not path.endswith(".py"):
        return loop_line
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError, OSError):
        return loop_line
    ends = [
        n.end_lineno or loop_line
        for n in ast.walk(tree)
        if isinstance(n, ast.For | ast.While | ast.AsyncFor) and n.lineno == loop_line
    ]
    return max(ends, default=loop_line)


def recall_table(root: str, found, cases_path: Path) -> None:
    """Hand-listed clear cases found at the default (high) and at medium: a case counts when a finding of its
    kind's rules names its line, its loop's line or (PP506) the line that made the copied tensor, or a PP501
    finding on its loop counts it among its "more reads" (the loop's line at most 200 lines before it), or a PP501
    finding names its line among its other reads (`other_read_lines`, for findings that name no loop of their
    module: a training-step or loss def, since torch-fix83). `clean-loop` rows are where every rule should stay
    silent and are not counted."""
    by_file = collections.defaultdict(list)
    for f in found:
        repo, rel = os.path.relpath(f.path, root).split(os.sep, 1)
        by_file[(repo, rel)].append(f)
    per_kind = collections.defaultdict(lambda: [0, 0, 0])
    missed = []
    for case in read_rows(cases_path):
        if case["kind"] == "clean-loop":
            continue
        line, rules = int(case["line"]), _KIND_RULES.get(case["kind"], set())
        levels = set()
        for f in by_file[(case["repo"], case["path"])]:
            loop = _LOOP_LINE.search(f.message)
            loop_line = int(loop.group(1)) if loop else None
            made = _MADE_LINE.search(f.message)
            made_line = int(made.group(1)) if made else None
            named = f.rule in rules and line in (f.line, loop_line, made_line)
            counted = (
                f.rule == "PP501"
                and case["kind"] == "host-sync"
                and "more reads" in f.message
                and loop_line is not None
                and loop_line <= line <= loop_line + 200
            )
            listed = f.rule == "PP501" and case["kind"] == "host-sync" and line in other_read_lines(f.message)
            inside = (
                f.rule == "PP503"
                and case["kind"] == "eval-without-no-grad"
                and loop_line is not None
                and loop_line <= line <= _loop_end(f.path, loop_line)
            )
            if named or counted or listed or inside:
                levels.add(f.confidence)
        row = per_kind[case["kind"]]
        row[0] += 1
        row[1] += "high" in levels
        row[2] += bool(levels & {"high", "medium"})
        if "high" not in levels:
            missed.append(f"{case['kind']} {case['repo']}/{case['path']}:{line}")
    print(f"{'kind':<24} {'cases':>5} {'default':>7} {'medium':>6}")
    for kind in sorted(per_kind):
        n, high, medium = per_kind[kind]
        print(f"{kind:<24} {n:5} {high:7} {medium:6}")
    n, high, medium = (sum(r[i] for r in per_kind.values()) for i in range(3))
    print(f"{'all':<24} {n:5} {high:7} {medium:6}  default {high / max(n, 1):.0%}")
    if missed:
        print("missed at the default:")
    for case in missed:
        print(f"  {case}" if len(case) <= 77 else f"  ...{case[-74:]}")  # 80 columns


def process_env(compiled: bool = True) -> dict[str, str]:
    """The timed processes' environment. `compiled`: the checker runs from bytecode compiled once (by the
    first process), as an installed copy does (pip compiles it; a checkout writes __pycache__ on its first
    run), kept in a folder of the bench's own (PYTHONPYCACHEPREFIX), never in the checkout. This project's
    sessions set PYTHONDONTWRITEBYTECODE, so until torch-speed15 every timed process compiled the checker's
    sources again: 0.35 CPU s of each start (0.53 s against 0.18 s), a third of tensorpack's time, the same
    in every row, which moved every PyTorch row's ratio toward 1. Not `compiled`: timed that way still."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    if compiled:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "ppcheck-bench-bytecode")
    return env


def whole_process(paths: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one `python -m checker PATH...` process (CPU is steadier on a shared machine),
    in `env` (`process_env()` when None)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "checker", *paths, "--exit-zero"],
        cwd=PROJECT,
        env=process_env() if env is None else env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def timing_targets(root: str, lines: int, baseline: str | None) -> list[tuple[str, list[str], int]]:
    """The processes to time: (row name, PATHs, lines). The first row is ROOT as a user checks it, one PATH per
    repository folder; the second keeps ROOT as one project (the bench's timing before torch-speed13) so a
    project pass that grows with the square of a project's size still shows."""
    targets = [("pytorch", repository_folders(root), lines), ("ROOT as one project", [root], lines)]
    if baseline:
        targets.append(("baseline", [baseline], code_lines(baseline)))
    return targets


def print_timing(targets, wall: dict[str, float], cpu: dict[str, float]) -> None:
    """One row per timed process, then each PyTorch row's lines per CPU second against the baseline's."""
    print(f"{'whole process':<20} {'lines':>8} {'wall s':>6} {'lines/s':>8} {'cpu s':>6} {'lines/cpu s':>11}")
    speed = {}
    for name, _, n in targets:
        speed[name] = n / cpu[name]
        print(
            f"{name:<20} {n:8,} {wall[name]:6.2f} {n / wall[name]:8,.0f} {cpu[name]:6.2f} {speed[name]:11,.0f}"
        )
    if "baseline" in speed:
        print(
            f"PyTorch lines per CPU second are {speed['pytorch'] / speed['baseline']:.2f}x the baseline's "
            f"(one PATH per repository; ROOT as one project "
            f"{speed['ROOT as one project'] / speed['baseline']:.2f}x)"
        )


def torchfix_findings(root: str) -> tuple[list[tuple[str, int, str]], float]:
    exe = shutil.which("torchfix")
    if exe is None:
        raise SystemExit("bench_torch_checker: --torchfix: torchfix is not installed (pip install torchfix)")
    start = time.perf_counter()
    out = subprocess.run([exe, "--select", "ALL", "-j", "1", root], capture_output=True, text=True).stdout
    seconds = time.perf_counter() - start
    found = []
    for line in out.splitlines():
        m = _TORCHFIX_LINE.match(line)
        if m:
            found.append((os.path.abspath(m["path"]), int(m["line"]), m["code"]))
    return found, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument(
        "--verdicts", default=str(VERDICTS), help="hand verdicts (default: the tuned reading)"
    )
    parser.add_argument("--as-read", action="store_true", help="count the verdicts file alone and stop")
    parser.add_argument("--baseline", help="a TensorFlow repository to time beside ROOT (tensorpack)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--compile-each-run",
        action="store_true",
        help="time processes that compile the checker's sources (the timing before torch-speed15)",
    )
    parser.add_argument("--torchfix", action="store_true")
    parser.add_argument(
        "--recall", help="hand-listed cases (bench/data/torch_recall_holdout4.csv): how many are found"
    )
    args = parser.parse_args()
    root = os.path.abspath(args.root)

    verdicts = read_verdicts(Path(args.verdicts))
    if args.as_read:
        print(f"{args.verdicts}: {len(verdicts)} verdicts as read")
        print_table(*as_read_table(verdicts))
        return 0
    rows, repos, found, files = precision_table(root, verdicts)
    lines = code_lines(root)
    print(f"{root}: {files} files, {lines:,} lines of code, {len(found)} PyTorch findings")
    print_table(rows, repos)
    if args.recall:
        recall_table(root, found, Path(args.recall))

    targets = timing_targets(root, lines, args.baseline)
    wall = {name: float("inf") for name, _, _ in targets}
    cpu = dict(wall)
    env = process_env(compiled=not args.compile_each_run)
    if args.repeat > 0:
        whole_process(["--version"], env)  # (compiles the bytecode the timed processes run)
    for _ in range(args.repeat):
        for name, paths, _ in targets:
            w, c = whole_process(paths, env)
            wall[name], cpu[name] = min(wall[name], w), min(cpu[name], c)
    if args.repeat > 0:
        print_timing(targets, wall, cpu)

    if args.torchfix:
        tf_found, seconds = torchfix_findings(root)
        codes = collections.Counter(code for _, _, code in tf_found)
        print(
            f"TorchFix: {len(tf_found)} findings in {seconds:.1f} s (.py only): "
            + ", ".join(f"{c} {n}" for c, n in sorted(codes.items()))
        )
        pp504 = {(f.path, f.line) for f in found if f.rule == "PP504"}
        tor401 = {(p, n) for p, n, c in tf_found if c == "TOR401"}
        py504 = {k for k in pp504 if k[0].endswith(".py")}
        print(
            f"TOR401 {len(tor401)} lines, PP504 {len(py504)} in .py files; both {len(tor401 & py504)}, "
            f"PP504 only {len(py504 - tor401)}, TOR401 only {len(tor401 - py504)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
