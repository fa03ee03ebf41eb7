"""Check one source text: parse once, index once, run the chosen rules, drop `# noqa` lines."""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterable

from checker.findings import Finding, Skipped
from checker.module import ModuleIndex
from checker.noqa import noqa_lines, silenced
from checker.notebook import NotebookError, code_cells, pass_for_magic
from checker.rules import Rule, all_rules
from checker.rules.torch_common import is_torch_rule, uses_torch

_LINE_REF = re.compile(r"\bline (\d+)")


def _parse(source: str, label: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences in old code are not our findings
        return ast.parse(source, filename=label)


def _syntax_reason(exc: SyntaxError, line_offset: int = 0) -> str:
    line = (exc.lineno or 0) + line_offset
    hint = " (Python 2 code?)" if exc.msg and ("print" in exc.msg or "Missing parentheses" in exc.msg) else ""
    return f"line {line}: {exc.msg}{hint}"


def run_rules(
    tree: ast.Module, rules: Iterable[Rule], implicit_imports: bool = False
) -> tuple[list, list[str]]:
    """Raw findings of every rule, and one line per rule that failed on this module (a checker bug)."""
    try:
        index = ModuleIndex.build(tree, implicit_imports=implicit_imports)
    except RecursionError:
        return [], ["too deeply nested to index"]
    tensorflow, torch = _mentions_tensorflow(index), uses_torch(index)
    if not (tensorflow or torch):
        return [], []
    raw, errors = [], []
    for rule in rules:
        if not (torch if is_torch_rule(rule) else tensorflow):
            continue
        try:
            raw.extend(rule.check(index))
        except (RecursionError, ValueError, TypeError, AttributeError, KeyError, IndexError) as exc:
            errors.append(f"internal error in {rule.code}: {type(exc).__name__}: {exc}")
    return raw, errors


def _mentions_tensorflow(index: ModuleIndex) -> bool:
    return index.resolver.uses_tensorflow or any(
        v.startswith("tensorflow_datasets") for v in index.resolver.names.values()
    )


def check_source(source: str, path: str = "<string>", rules: Iterable[Rule] | None = None):
    """Findings and skips for one Python source text."""
    rules = list(all_rules().values()) if rules is None else list(rules)
    codes = all_rules()
    try:
        tree = _parse(source, path)
    except (SyntaxError, ValueError) as exc:
        reason = _syntax_reason(exc) if isinstance(exc, SyntaxError) else str(exc)
        return [], [Skipped(path, reason)]
    noqa = noqa_lines(source)
    raw, errors = run_rules(tree, rules)
    findings = [
        Finding(path, r.line, r.col + 1, r.rule, r.message, codes[r.rule].root_cause)
        for r in raw
        if not silenced(noqa.get(r.line), r.rule)
    ]
    return sorted(findings, key=Finding.sort_key), [Skipped(path, e) for e in errors]


def check_notebook(text: str, path: str, rules: Iterable[Rule] | None = None):
    """Findings for a notebook's code cells, checked together as one module (cells share imports).

    A cell that does not parse is skipped with its reason; the others are still checked.
    """
    try:
        cells = code_cells(text)
    except NotebookError as exc:
        return [], [Skipped(path, str(exc))]
    return check_cells(cells, path, rules, unit="cell")


def check_snippets(blocks: list[str], path: str, rules: Iterable[Rule] | None = None):
    """Findings for the code blocks of one post (partial snippets, often without imports).

    The blocks are checked joined into one module when that parses (a snippet split over two blocks); else
    each block that parses on its own is kept and the others are skipped with their reason. Names used without
    an import get their conventional meaning (`tf`, `np`, `keras`, `K`, `tfds`). Findings carry the block
    number in `cell`.
    """
    cells = [(n, clean_snippet(b)) for n, b in enumerate(blocks, 1)]
    joined = "\n".join(src for _, src in cells)
    try:
        _parse(joined, path)
    except (SyntaxError, ValueError):
        return check_cells(cells, path, rules, unit="block", implicit_imports=True)
    return check_cells(cells, path, rules, unit="block", implicit_imports=True, joined_ok=True)


_PROMPT = re.compile(r"^(>>> |\.\.\. |In \[\d+\]: )")


def clean_snippet(block: str) -> str:
    """A pasted interactive session reads as code: `>>> ` / `... ` / `In [3]: ` prompts are removed (when
    every code line of the block has one, so ordinary code is left alone); IPython magics become `pass`."""
    lines = block.replace("\r\n", "\n").split("\n")
    prompted = [ln for ln in lines if _PROMPT.match(ln)]
    if prompted and lines[0].startswith((">>> ", "In [")):
        lines = [_PROMPT.sub("", ln) if _PROMPT.match(ln) else "# " + ln for ln in lines]
    return "\n".join(pass_for_magic(ln) for ln in lines)


def check_cells(
    cells: list[tuple[int, str]],
    path: str,
    rules: Iterable[Rule] | None = None,
    *,
    unit: str = "cell",
    implicit_imports: bool = False,
    joined_ok: bool = False,
):
    """Check numbered pieces of source as one module; findings name their piece (`cell`) and line in it."""
    rules = list(all_rules().values()) if rules is None else list(rules)
    codes = all_rules()
    skipped = []
    good = []
    for number, source in cells:
        if joined_ok:
            good.append((number, source))
            continue
        try:
            _parse(source, path)
            good.append((number, source))
        except (SyntaxError, ValueError) as exc:
            reason = _syntax_reason(exc) if isinstance(exc, SyntaxError) else str(exc)
            skipped.append(Skipped(path, f"{unit} {number}: {reason}"))
    # Join the pieces; remember where each starts so findings map back to (piece, line in piece).
    starts = []
    parts = []
    line = 1
    for number, source in good:
        starts.append((line, number))
        parts.append(source)
        line += source.count("\n") + 1
    joined = "\n".join(parts)
    tree = _parse(joined, path)
    noqa = noqa_lines(joined)
    findings = []
    raw, errors = run_rules(tree, rules, implicit_imports=implicit_imports)
    skipped.extend(Skipped(path, e) for e in errors)

    def place(line: int) -> tuple[int, int]:
        start, number = max((s for s in starts if s[0] <= line), default=(1, 1))
        return number, line - start + 1

    def piece_lines(message: str) -> str:
        return _LINE_REF.sub(lambda m: "{} {} line {}".format(unit, *place(int(m.group(1)))), message)

    for r in raw:
        if silenced(noqa.get(r.line), r.rule):
            continue
        number, line = place(r.line)
        findings.append(
            Finding(
                path, line, r.col + 1, r.rule, piece_lines(r.message), codes[r.rule].root_cause, cell=number
            )
        )
    return sorted(findings, key=Finding.sort_key), skipped
