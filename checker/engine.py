"""Check one source text: parse once, index once, run the chosen rules, drop `# noqa` lines."""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from collections.abc import Iterable
from dataclasses import replace

from checker.findings import Finding, RawFinding, Skipped
from checker.gc_pause import collection_paused
from checker.module import ModuleIndex
from checker.noqa import file_is_silenced, noqa_lines, silenced
from checker.notebook import NotebookError, code_cells, pass_for_magic
from checker.resolve import may_use_a_framework
from checker.rules import RULE_ERRORS, Rule, all_rules, finding
from checker.rules.torch_common import forget_facts, is_torch_rule, uses_torch
from checker.testcode import is_test_path, is_test_place, is_unit_test

_LINE_REF = re.compile(r"\bline (\d+)")


class Unparsable(ValueError):
    """Source that ast cannot turn into a tree; the message is the one-line reason, `line` the line the
    parser stopped at (None when it names none)."""

    def __init__(self, reason: str, line: int | None = None):
        super().__init__(reason)
        self.line = line


def _parse(source: str, label: str, line_offset: int = 0) -> ast.Module:
    """The module's tree. Raises Unparsable with a reason (a syntax error, or nesting too deep for the
    parser: a 20,000-term expression raises RecursionError inside ast)."""
    try:
        with collection_paused(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences in old code are not our findings
            return ast.parse(source, filename=label)
    except SyntaxError as exc:
        raise Unparsable(_syntax_reason(exc, line_offset), exc.lineno) from None
    except (RecursionError, MemoryError):
        raise Unparsable("too deeply nested for the Python parser") from None
    except ValueError as exc:  # null bytes
        raise Unparsable(str(exc)) from None


def _parse_script(source: str, label: str) -> ast.Module:
    """A `.py` file's tree. A file that does not parse as written is parsed again with each IPython magic or
    shell line the parser stops at (`%matplotlib inline`, `!pip install ...`: a notebook exported as a
    script) made `pass` as in a notebook cell (`pass_for_magic`), line for line, so findings keep the file's
    line numbers (hold-out 35's Coderx7 tutorials were skipped whole). Only a line the parser rejects is
    changed: a `%` continuing an expression, or a line of a string, parses and stays as written. A file that
    still does not parse is reported with the first error that is not a magic line. Every magic line outside
    a string is made `pass` in one pass first (`_magics_passed`): a parse per magic line cost the square of
    their number (review23 item 6: 0.78 s for 400 `!nvidia-smi` lines, against 0.005 s for one parse)."""
    try:
        return _parse(source, label)
    except Unparsable:
        passed = _magics_passed(source)
    if passed is not None:
        try:
            return _parse(passed, label)
        except Unparsable:
            pass  # (a magic-looking line the parser accepts where it stands: judged line by line)
    lines = source.split("\n")
    while True:
        try:
            return _parse("\n".join(lines), label)
        except Unparsable as exc:
            at = (exc.line or 0) - 1
            if not 0 <= at < len(lines) or (changed := pass_for_magic(lines[at])) == lines[at]:
                raise  # (each pass changes a line to `pass`, which no later pass changes: it ends)
            lines[at] = changed


def _magics_passed(source: str) -> str | None:
    """The source with every line `pass_for_magic` changes made `pass`, except lines the tokenizer places
    inside a string (a `%cd` line of a docstring stays as written); None when nothing changes or the
    tokenizer fails. A statement never starts with `%`, `!` or `?`, and `pass` fits in no expression, so when
    this parses, the line-by-line loop would have changed the same lines."""
    lines = source.split("\n")
    changed = [pass_for_magic(line) for line in lines]
    if changed == lines:
        return None
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    for token in tokens:
        if token.type == tokenize.STRING:
            for row in range(token.start[0], token.end[0]):  # (0-based: the rows after the first)
                if row < len(lines):
                    changed[row] = lines[row]
    return "\n".join(changed)


def _syntax_reason(exc: SyntaxError, line_offset: int = 0) -> str:
    line = (exc.lineno or 0) + line_offset
    hint = " (Python 2 code?)" if exc.msg and ("print" in exc.msg or "Missing parentheses" in exc.msg) else ""
    return f"line {line}: {exc.msg}{hint}"


def run_rules(
    tree: ast.Module, rules: Iterable[Rule], implicit_imports: bool = False, keep=None
) -> tuple[list, list[str]]:
    """Raw findings of every rule, and one line per rule that failed on this module (a checker bug).
    `keep`, if given, is called with the module's index after the rules ran (while their caches are warm)."""
    with collection_paused():  # (the index and the rules' caches are cycles of one module's life)
        try:
            return _run_rules(tree, rules, implicit_imports, keep)
        finally:
            forget_facts()  # (the module's facts die with its tree)


def _run_rules(
    tree: ast.Module, rules: Iterable[Rule], implicit_imports: bool, keep
) -> tuple[list, list[str]]:
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
        except RecursionError:
            errors.append(f"{rule.code}: too deeply nested to check")
        except RULE_ERRORS as exc:
            errors.append(f"internal error in {rule.code}: {type(exc).__name__}: {exc}")
    if keep is not None and not errors:
        keep(index)
    return raw, errors


def _mentions_tensorflow(index: ModuleIndex) -> bool:
    return index.resolver.uses_tensorflow or any(
        v.startswith("tensorflow_datasets") for v in index.resolver.names.values()
    )


def _placed(raw: list[RawFinding], source: str) -> list[RawFinding]:
    """Raw findings with `# noqa` lines dropped, one per (rule, line), columns in characters.

    ast gives UTF-8 byte offsets; editors, ruff and SARIF count characters. The source is tokenized for its
    `# noqa` comments only when a line with a finding says `noqa` (a comment holds its word on its line).
    """
    if not raw:
        return []
    lines = source.split("\n")
    noqa = noqa_lines(source) if any("noqa" in _line(lines, r.line).lower() for r in raw) else {}
    kept: dict[tuple[str, int], RawFinding] = {}
    for r in sorted(raw, key=lambda r: (r.line, r.col)):
        if silenced(noqa.get(r.line), r.rule) or (r.rule, r.line) in kept:
            continue
        kept[(r.rule, r.line)] = replace(r, col=character_column(_line(lines, r.line), r.col))
    return list(kept.values())


def character_column(text: str, col: int) -> int:
    """A 0-based column of a line of text in characters, from ast's `col_offset` (UTF-8 bytes)."""
    return col if text.isascii() else len(text.encode("utf-8")[:col].decode("utf-8", errors="ignore"))


def _line(lines: list[str], number: int) -> str:
    """Line `number` (1-based) of the source split at newlines; "" past its end."""
    return lines[number - 1] if 0 < number <= len(lines) else ""


def _finding(r: RawFinding, path: str, line: int, message: str, cell: int | None = None) -> Finding:
    return finding(path, line, r.col, r.rule, message, r.confidence, cell)


def check_source(source: str, path: str = "<string>", rules: Iterable[Rule] | None = None, keep=None):
    """Findings and skips for one Python source text; `keep` as run_rules takes it."""
    rules = list(all_rules().values()) if rules is None else list(rules)
    if file_is_silenced(source) or is_test_place(path):
        return [], []
    try:
        tree = _parse_script(source, path)
    except Unparsable as exc:  # a test-named file that does not parse may be unit tests: silent, as before
        return [], [] if is_test_path(path) else [Skipped(path, str(exc))]
    if is_test_path(path) and is_unit_test(tree):
        return [], []
    if not may_use_a_framework(source):  # (parsed for its syntax errors; indexed for nothing: 0.04 s on th30)
        return [], []
    raw, errors = run_rules(tree, rules, keep=keep)
    findings = [_finding(r, path, r.line, r.message) for r in _placed(raw, source)]
    return sorted(findings, key=Finding.sort_key), [Skipped(path, e) for e in errors]


def check_notebook(text: str, path: str, rules: Iterable[Rule] | None = None):
    """Findings for a notebook's code cells, checked together as one module (cells share imports).

    A cell that does not parse is skipped with its reason; the others are still checked.
    """
    if is_test_place(path):
        return [], []
    try:
        cells = code_cells(text)
    except NotebookError as exc:
        return [], [Skipped(path, str(exc))]
    return check_cells(cells, path, rules, unit="cell")  # (SARIF finds each finding's .ipynb line itself)


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
    except Unparsable:
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
    if any(file_is_silenced(source) for _, source in cells):
        return [], []
    tree, good, skipped = parsed_cells(cells, path, unit=unit, joined_ok=joined_ok)
    if tree is None:  # each piece parses alone, together too deep
        return [], skipped
    joined = "\n".join(source for _, source in good)
    findings = []
    raw, errors = run_rules(tree, rules, implicit_imports=implicit_imports)
    skipped.extend(Skipped(path, e) for e in errors)
    places = CellLines(good)
    for r in _placed(raw, joined):
        number, line = places.place(r.line)
        findings.append(_finding(r, path, line, places.message(r.message, unit), cell=number))
    return sorted(findings, key=Finding.sort_key), skipped


def parsed_cells(
    cells: list[tuple[int, str]], path: str = "<cells>", *, unit: str = "cell", joined_ok: bool = False
) -> tuple[ast.Module | None, list[tuple[int, str]], list[Skipped]]:
    """Numbered pieces of source read as one module, as `check_cells` reads them: (the tree of the pieces
    joined at newlines, the pieces in it, a skip for each piece left out). All of them when they parse
    together (`joined_ok`: the caller knows they do); else each piece that parses alone, the others skipped
    with their reason; tree None (and a last skip) when the pieces kept do not parse together (too deep).
    The project pass reads a notebook's cells with it too (checker/project.py)."""
    skipped: list[Skipped] = []
    if not joined_ok:  # most notebooks parse whole: one parse instead of one per cell and one more joined
        try:
            return _parse("\n".join(source for _, source in cells), path), list(cells), skipped
        except Unparsable:
            pass
    good = []
    for number, source in cells:
        if joined_ok:
            good.append((number, source))
            continue
        try:
            _parse(source, path)
            good.append((number, source))
        except Unparsable as exc:
            skipped.append(Skipped(path, f"{unit} {number}: {exc}"))
    try:
        return _parse("\n".join(source for _, source in good), path), good, skipped
    except Unparsable as exc:
        return None, good, [*skipped, Skipped(path, str(exc))]


class CellLines:
    """Where the lines of numbered pieces joined at newlines (`parsed_cells`' pieces) come from: a line of the
    joined text is (piece, line in it); `message` says each `line N` of a message as `cell C line L`."""

    def __init__(self, cells: list[tuple[int, str]]):
        self.starts: list[tuple[int, int]] = []  # (first line in the joined text, piece number)
        self.sources: dict[int, str] = {}
        line = 1
        for number, source in cells:
            self.starts.append((line, number))
            self.sources[number] = source
            line += source.count("\n") + 1

    def place(self, line: int) -> tuple[int, int]:
        """(piece number, line in the piece) of a line of the joined text."""
        start, number = max((s for s in self.starts if s[0] <= line), default=(1, 1))
        return number, line - start + 1

    def message(self, message: str, unit: str = "cell") -> str:
        """The message with each `line N` (a line of the joined text) said as `UNIT C line L`."""
        return _LINE_REF.sub(lambda m: "{} {} line {}".format(unit, *self.place(int(m.group(1)))), message)

    def line(self, number: int, line: int) -> str:
        """Line `line` (1-based) of piece `number`; "" past its end (as `_line`)."""
        return _line(self.sources.get(number, "").split("\n"), line)
