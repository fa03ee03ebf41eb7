"""Fitted precision of candidate evidence for the confidence of ppcheck's TensorFlow findings.

A finding may rise a level only on evidence whose findings read right often enough in the hand readings
(bench/data/tf_checker_verdicts.csv): at least 90% for `high`, about 70% for `medium`. This script counts,
on the repositories read (checkouts as <root>/<owner>+<name>), the verdicts of every finding made today that
has each piece of evidence:

  PP103 (loop-invariant op, DeepPerf's rule 1): an op doing real work (not a reshape, cast, range, fill,
  constant or shape), the kind of loop (over range, over a Python collection, while), a loop that also builds
  layers or RNN cells, a def decorated as a tf.function; with --mirror, how many of DeepPerf's confirmed or
  fixed PP103 lines (their projects whole at the reported commit) have it.
  PP201/PP202: the `medium` findings a training call elsewhere in the project lifts to `high`
  (checker/project.py).

    python bench/bench_tf_evidence.py --verdicts bench/data/tf_checker_verdicts.csv --root CHECKOUTS
        [--mirror /work/.mirror]
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from bench.bench_checker_eval import DATA, POSITIVE, project_files, statement_span  # noqa: E402
from bench.checker_common import checkout, finding_key, read_rows, verdict_key  # noqa: E402
from checker.notebook import code_cells  # noqa: E402
from checker.project import LIFTED_RULES, lift_trained_elsewhere  # noqa: E402
from checker.walker import check_file, iter_files  # noqa: E402

RULES = ("PP103", *sorted(LIFTED_RULES))
# Ops that only reshape, convert, count or fill: what readers called "hoistable but negligible".
_CHEAP_OPS = frozenset(
    {
        "reshape", "expand_dims", "squeeze", "cast", "to_float", "to_int32", "to_int64", "range", "zeros",
        "ones", "zeros_like", "ones_like", "constant", "shape", "rank", "size", "eye", "fill", "identity",
        "transpose", "convert_to_tensor", "get_static_value", "maximum", "minimum",
    }
)  # fmt: skip
_BUILDS = re.compile(
    r"Cell\b|Cell\(|Dense|\bdense\(|conv[123]d\(|Conv[123]D|dynamic_rnn|batch_normalization|BatchNormalization"
    r"|LSTM|GRU|Embedding\(|layers\."
)
_LOOP_AT = re.compile(r"`([^`]+)`.*loop at (?:cell \d+ )?line (\d+)", re.S)
EVIDENCE = (
    "every finding",
    "op doing real work",
    "loop over range",
    "loop over a collection",
    "while loop",
    "loop builds layers/cells",
    "real op, collection loop",
    "in a tf.function",
)


def _source(path: str, cell: int | None) -> str | None:
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    if cell is None:
        return text
    return next((src for number, src in code_cells(text) if number == cell), None)


def pp103_evidence(source: str, line: int, message: str) -> set[str]:
    """The evidence classes a PP103 finding at `line` has (its message names the op and the loop's line)."""
    found = _LOOP_AT.search(message)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {"every finding"}
    if found is None:
        return {"every finding"}
    op, loop_line = found.group(1).rsplit(".", 1)[-1], int(found.group(2))
    loop_types = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
    loop = next((n for n in ast.walk(tree) if isinstance(n, loop_types) and n.lineno == loop_line), None)
    defs = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.lineno <= line <= (n.end_lineno or 0)
    ]
    classes = {"every finding"}
    real = op not in _CHEAP_OPS
    if real:
        classes.add("op doing real work")
    if defs and any("function" in ast.unparse(d) for d in max(defs, key=lambda d: d.lineno).decorator_list):
        classes.add("in a tf.function")
    if loop is None:
        return classes
    if isinstance(loop, ast.While):
        classes.add("while loop")
    else:
        it = loop.iter if hasattr(loop, "iter") else loop.generators[0].iter
        over_range = isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
        classes.add("loop over range" if over_range else "loop over a collection")
        if real and not over_range:
            classes.add("real op, collection loop")
    body = getattr(loop, "body", None) or []
    if any(_BUILDS.search(ast.unparse(stmt)) for stmt in body):
        classes.add("loop builds layers/cells")
    return classes


def _check(folder: Path):
    """(findings of each file alone, the same with the project-wide evidence) for one checkout."""
    files = list(iter_files([str(folder)]))
    alone = [f for path in files for f in check_file(path, RULES)[0]]
    return alone, lift_trained_elsewhere(alone, [files])


def evaluate(verdicts: str, root: str) -> tuple[dict[str, Counter], Counter]:
    rows = [r for r in read_rows(Path(verdicts)) if r["rule"] in RULES]
    verdict = {verdict_key(r): r["verdict"] for r in rows}
    pp103: dict[str, Counter] = defaultdict(Counter)
    lifted: Counter = Counter()
    for repo in sorted({r["repo"] for r in rows}):
        folder = checkout(root, repo)
        if not folder.is_dir():
            sys.exit(f"--root: {folder}: no checkout of {repo}")
        alone, together = _check(folder)
        for before, after in zip(alone, together, strict=True):
            key = finding_key(repo, os.path.relpath(before.path, folder), before)
            if key not in verdict:
                continue
            if before.rule == "PP103":
                source = _source(before.path, before.cell)
                for evidence in pp103_evidence(source or "", before.line, before.message):
                    pp103[evidence][verdict[key]] += 1
            elif before.confidence != after.confidence:
                lifted[verdict[key]] += 1
    return pp103, lifted


def confirmed_pp103(mirror: str) -> Counter:
    """How many of DeepPerf's confirmed/fixed PP103 lines have each evidence class, on whole projects."""
    rows = [r for r in read_rows(DATA / "reports.csv") if r["verdict"] in POSITIVE]
    have: Counter = Counter()
    with tempfile.TemporaryDirectory() as scratch:
        for repo, commit in sorted({(r["repo"], r["commit"]) for r in rows}):
            git = checkout(mirror, repo) / "repo"
            git = git / ".git" if (git / ".git").is_dir() else git
            into = Path(scratch) / repo.replace("/", "+")
            if not git.is_dir() or not project_files(git, commit, into):
                continue
            for row in (r for r in rows if r["repo"] == repo):
                source_path = into / row["path"]
                if not source_path.is_file():
                    continue
                source = source_path.read_text(encoding="utf-8")
                span = statement_span(ast.parse(source), int(row["line"]))
                found = [f for f in check_file(str(source_path), ("PP103",))[0] if f.line in span]
                if found:
                    have["lines"] += 1
                    for evidence in pp103_evidence(source, found[0].line, found[0].message):
                        have[evidence] += 1
    return have


def _share(counts: Counter) -> str:
    total = sum(counts.values())
    right = counts["right"]
    return (
        f"{right:>3}/{total:<3} right ({right / max(total, 1):>4.0%})  debatable {counts['debatable']:>3}  "
        f"wrong {counts['wrong']:>3}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--verdicts", required=True, help="CSV of hand verdicts (bench/data/tf_checker_verdicts.csv)"
    )
    parser.add_argument("--root", required=True, help="folder of the read repositories' checkouts")
    parser.add_argument("--mirror", help="folder of git mirrors: count DeepPerf's confirmed PP103 lines too")
    args = parser.parse_args()
    pp103, lifted = evaluate(args.verdicts, args.root)
    confirmed = confirmed_pp103(args.mirror) if args.mirror else None
    print("PP103 findings made today, by evidence (verdicts of the readings):")
    for evidence in EVIDENCE:
        tail = (
            f"  confirmed lines {confirmed[evidence]}/{confirmed['lines']}" if confirmed is not None else ""
        )
        print(f"  {evidence:<26} {_share(pp103[evidence])}{tail}")
    print("PP201/PP202 lifted from medium to high by a training call in the project:")
    print(f"  {'lifted':<26} {_share(lifted)}")


if __name__ == "__main__":
    main()
