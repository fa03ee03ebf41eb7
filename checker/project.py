"""Evidence read across the checked files: a pipeline returned by a function that a caller trains on.

A module often builds the tf.data pipeline in a function (`def input_fn(...)`, a loader class) and a training
script, in the same module or elsewhere in the project, calls it: `train_dataset = input_fn(files)`,
`estimator.train(input_fn=lambda: input_fn(...))`, `model.fit(load(...))`. The rules follow a pipeline inside
the function that builds it, where it is only "returned to a caller", so its PP201/PP202 findings are
`medium`. When the files checked together show a call of that function (by name) into training, the finding
rises to `high`, the level of a pipeline seen training.
"""

from __future__ import annotations

import ast
import dataclasses

from checker.datasets import is_training_call, named_call, names_training
from checker.findings import Finding
from checker.source import read_python

# The rules whose `medium` findings on a pipeline "returned to a caller" a training call elsewhere lifts.
LIFTED_RULES = frozenset({"PP201", "PP202"})


def _parse(path: str) -> ast.Module | None:
    text = read_python(path)
    if text is None:
        return None
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _builder(tree: ast.Module, line: int) -> str | None:
    """The top-level def or class whose code holds `line`: what another module calls to get the pipeline."""
    for node in tree.body:
        holds = node.lineno <= line <= (node.end_lineno or node.lineno)
        if holds and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return node.name
    return None


def _trains_on(call: ast.Call, parents: dict) -> bool:
    """The value of `call` goes into training: bound to a name that says train, passed (as an argument, a
    keyword or a lambda's body) to a call that trains or is named for training (fit, `estimator.train`,
    `TrainSpec`), or to a keyword that says train (`train_input_fn=`); the names are read as the dataset flow
    reads them (checker/datasets.py: not eval, test, valid, predict or infer)."""
    node = call
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.Assign | ast.AnnAssign):
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            return any(names_training(ast.unparse(t)) for t in targets)
        if isinstance(parent, ast.keyword) and names_training(parent.arg):
            return True
        if isinstance(parent, ast.Call) and parent is not call and is_training_call(named_call(parent) or ""):
            return True
        if isinstance(parent, ast.stmt):
            return False
        node = parent
    return False


def _trained_builders(wanted_at: dict[str, set[str]], files: list[str]) -> set[tuple[str, str]]:
    """(name, path) for the builders of `wanted_at` (name -> the paths defining it) that some checked module
    calls into training: the module defining it, or one that does not define that name itself (a module
    calling its own `input_fn` does not train on another module's copy of it)."""
    found: set[tuple[str, str]] = set()
    names = set(wanted_at)
    for path in files:
        text = read_python(path)
        if text is None:
            continue
        wanted = {n for n in names if f"{n}(" in text}
        if not wanted:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        own = {
            node.name
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        }
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and named_call(node) in wanted and _trains_on(node, parents):
                name = named_call(node)
                for defined_in in wanted_at[name]:
                    if defined_in == path or name not in own:
                        found.add((name, defined_in))
    return found


def lift_trained_elsewhere(findings: list[Finding], projects: list[list[str]]) -> list[Finding]:
    """`findings` with the `medium` PP201/PP202 findings of pipelines a module of the same project (the files
    of one PATH argument) trains on made `high`. Only Python files are read for the training calls (a notebook
    is a module of its own)."""
    lifted = findings
    for files in projects:
        lifted = _lift_in(lifted, files)
    return lifted


def _lift_in(findings: list[Finding], files: list[str]) -> list[Finding]:
    inside = set(files)
    candidates = [
        f
        for f in findings
        if f.rule in LIFTED_RULES and f.confidence == "medium" and f.cell is None and f.path in inside
    ]
    if not candidates:
        return findings
    builder_at: dict[tuple[str, int], str] = {}
    for path in {f.path for f in candidates}:
        tree = _parse(path)
        if tree is None:
            continue
        for f in candidates:
            if f.path == path and (name := _builder(tree, f.line)) is not None:
                builder_at[(path, f.line)] = name
    if not builder_at:
        return findings
    wanted_at: dict[str, set[str]] = {}
    for (path, _), name in builder_at.items():
        wanted_at.setdefault(name, set()).add(path)
    trained = _trained_builders(wanted_at, [p for p in files if p.endswith(".py")])
    chosen = {id(f) for f in candidates if (builder_at.get((f.path, f.line)), f.path) in trained}
    return [dataclasses.replace(f, confidence="high") if id(f) in chosen else f for f in findings]
