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
  (checker/project.py); the PP202 findings left `medium`, and those whose pipeline a Python loop or
  comprehension walks whole (loaded once into memory).
  PP103, the questions of tf-confidence13: does the loop run each training step (a def named for a loss, a
  step or a layer's call, or a tf.function), does the loop also run the graph, is the op a cast or compare of
  what the def is given, does the loop walk a model's outputs or layers, or the data.

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

from bench.bench_checker_eval import DATA, POSITIVE, statement_span  # noqa: E402
from bench.checker_common import (  # noqa: E402
    checkout,
    extract_project,
    finding_key,
    mirror_git,
    read_rows,
    verdict_key,
)
from checker.notebook import code_cells  # noqa: E402
from checker.project import lift_trained_elsewhere  # noqa: E402
from checker.walker import check_file, iter_files  # noqa: E402

# PP202's `medium` findings a training call elsewhere would lift: the evidence, though nothing is lifted
# since tf-calibrate14 (checker/project.py)
MEASURED_LIFT = frozenset({"PP202"})
RULES = ("PP103", *sorted(MEASURED_LIFT))
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
    "per-step def (loss, step, call)",
    "per-step def, real op",
    "loop also runs the graph",
    "cast/compare of a parameter",
    "per-step, cast/compare of param",
    "loop over outputs/layers/levels",
    "per-step, outputs loop",
    "loop over data (batches, epochs)",
)
# What the brief of tf-confidence13 asked to test: does the loop run each training step (a def named for a
# loss, a step or a layer's call, or traced by tf.function), does the op work on what the def is given (a
# cast or compare of a batch tensor, not of a scalar setting), and does the loop walk a model's outputs or
# layers (a few trips) or the data (many)?
_PER_STEP = re.compile(r"loss|step|train|update|^call$|^__call__$|^act$|entropy")
_CAST_COMPARE = frozenset(
    {
        "cast", "to_float", "to_int32", "to_int64", "equal", "not_equal", "greater", "less", "greater_equal",
        "less_equal", "logical_and", "logical_or", "logical_not", "where", "reduce_sum", "reduce_mean",
        "reduce_any", "reduce_all", "abs",
    }
)  # fmt: skip
_FEW_TRIPS = re.compile(r"output|layer|logit|pred|head|level|scale|side|model|arm", re.I)
_DATA_TRIPS = re.compile(r"batch|data|epoch|step|loader|iter|sample|train|example|record", re.I)


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
    classes |= _step_evidence(tree, defs, loop, op, line)
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


def _step_evidence(tree, defs, loop, op: str, line: int) -> set[str]:
    """Evidence that the loop runs every training step, that the op works on data, and the loop's trips."""
    classes: set[str] = set()
    per_step = any(
        _PER_STEP.search(d.name.lower()) or any("function" in ast.unparse(x) for x in d.decorator_list)
        for d in defs
    )
    if per_step:
        classes.add("per-step def (loss, step, call)")
        if op not in _CHEAP_OPS:
            classes.add("per-step def, real op")
    inner = max(defs, key=lambda d: d.lineno) if defs else None
    if op in _CAST_COMPARE and inner is not None and _reads_parameter(inner, line):
        classes.add("cast/compare of a parameter")
        if per_step:
            classes.add("per-step, cast/compare of param")
    if loop is None:
        return classes
    if any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("eval", "run")
        for n in ast.walk(loop)
    ):
        classes.add("loop also runs the graph")
    trips = ast.unparse(loop.iter if hasattr(loop, "iter") else getattr(loop, "test", loop))
    if _FEW_TRIPS.search(trips):
        classes.add("loop over outputs/layers/levels")
        if per_step:
            classes.add("per-step, outputs loop")
    elif _DATA_TRIPS.search(trips):
        classes.add("loop over data (batches, epochs)")
    return classes


def _reads_parameter(definition, line: int) -> bool:
    """The statement at `line` reads a parameter of `definition`, or a name bound straight from one
    (`y = label`)."""
    args = definition.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self", "cls"}
    for node in ast.walk(definition):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in params:
            params |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    statement = next(
        (
            n
            for n in ast.walk(definition)
            if isinstance(n, ast.stmt)
            and n.lineno <= line <= (n.end_lineno or n.lineno)
            and not hasattr(n, "body")
        ),
        None,
    )
    return statement is not None and any(
        isinstance(n, ast.Name) and n.id in params for n in ast.walk(statement)
    )


def _check(folder: Path):
    """(findings of each file alone, the same with the project-wide evidence) for one checkout."""
    files = list(iter_files([str(folder)]))
    alone = [f for path in files for f in check_file(path, RULES)[0]]
    return alone, lift_trained_elsewhere(alone, [files], MEASURED_LIFT)


def read_by_python(source: str, line: int) -> bool:
    """The dataset bound by the statement at `line` is walked whole by a Python `for` or comprehension later
    in the same def (`dataset = dataset.map(parse)` then `[f(x) for x in dataset]`): loaded once, not trained
    on (tensorflow-coder's confirmed map has this shape)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    defs = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.lineno <= line <= (n.end_lineno or 0)
    ]
    scope = max(defs, key=lambda d: d.lineno) if defs else tree
    bound = {
        t.id
        for n in ast.walk(scope)
        if isinstance(n, ast.Assign) and n.lineno <= line <= (n.end_lineno or n.lineno)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    for node in ast.walk(scope):
        walked = [node.iter] if isinstance(node, ast.For | ast.AsyncFor) else []
        if isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
            walked = [g.iter for g in node.generators]
        if any(isinstance(it, ast.Name) and it.id in bound and it.lineno > line for it in walked):
            return True
    return False


def evaluate(verdicts: str, root: str) -> tuple[dict[str, Counter], Counter, Counter]:
    """PP103's verdicts per evidence class; the verdicts of PP201/PP202 findings a training call lifts; and
    those of `medium` PP202 findings whose pipeline Python code walks whole."""
    rows = [r for r in read_rows(Path(verdicts)) if r["rule"] in RULES]
    verdict = {verdict_key(r): r["verdict"] for r in rows}
    pp103: dict[str, Counter] = defaultdict(Counter)
    lifted: Counter = Counter()
    walked: Counter = Counter()
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
            elif before.rule == "PP202" and before.confidence == "medium":
                walked["all " + verdict[key]] += 1
                if read_by_python(_source(before.path, before.cell) or "", before.line):
                    walked[verdict[key]] += 1
    return pp103, lifted, walked


def confirmed_pp103(mirror: str) -> Counter:
    """How many of DeepPerf's confirmed/fixed PP103 lines have each evidence class, on whole projects."""
    rows = [r for r in read_rows(DATA / "reports.csv") if r["verdict"] in POSITIVE]
    have: Counter = Counter()
    with tempfile.TemporaryDirectory() as scratch:
        for repo, commit in sorted({(r["repo"], r["commit"]) for r in rows}):
            git = mirror_git(mirror, repo)
            into = Path(scratch) / repo.replace("/", "+")
            if not git.is_dir() or not extract_project(git, commit, into):
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
    pp103, lifted, walked = evaluate(args.verdicts, args.root)
    confirmed = confirmed_pp103(args.mirror) if args.mirror else None
    print("PP103 findings made today, by evidence (verdicts of the readings):")
    for evidence in EVIDENCE:
        tail = (
            f"  confirmed lines {confirmed[evidence]}/{confirmed['lines']}" if confirmed is not None else ""
        )
        print(f"  {evidence:<33} {_share(pp103[evidence])}{tail}")
    print("PP201/PP202 lifted from medium to high by a training call in the project:")
    print(f"  {'lifted':<33} {_share(lifted)}")
    print("PP202 findings left `medium`:")
    every = Counter({k[4:]: v for k, v in walked.items() if k.startswith("all ")})
    print(f"  {'every one':<33} {_share(every)}")
    mine = Counter({k: v for k, v in walked.items() if not k.startswith("all ")})
    print(f"  {'pipeline walked whole by Python':<33} {_share(mine)}")


if __name__ == "__main__":
    main()
