"""What the PyTorch project passes share: the texts of a project's files, parsing a module, and which
module of the project a module imports a name from (`importers`, `imported_entries`: of several files
the import may name, the nearest; the file test is checker/project_files.py's `names_file`)."""

from __future__ import annotations

import ast
import contextlib
import contextvars
import functools
import os
import re

from checker.findings import Finding
from checker.gc_pause import collection_paused
from checker.module import ModuleIndex, import_of
from checker.project_files import names_file
from checker.rules import finding
from checker.rules.torch_common import forget_facts, uses_torch
from checker.source import read_python
from checker.testcode import is_test_path

LOADER_RULE = "PP505"
WORKERS_RULE = "PP504"
# (a line that moves a tensor)
MOVES = re.compile(r"\.(?:to|cuda)\(")
# (a def that trains: `autograd.grad` alone is a step's helper, such as a gradient penalty)
TRAINS = re.compile(r"\.backward\(|\.step\(")


def project_finding(path: str, raw, code: str) -> Finding:
    """A rule's raw finding (its line, 0-based column, message, confidence) as a finding of `code` at
    `path`, at the rule's own confidence when the raw one names none."""
    return finding(path, raw.line, raw.col, code, raw.message, raw.confidence)


def parse_index(text: str, torch_only: bool = True) -> ModuleIndex | None:
    """The module's index; None when it does not parse, nests too deep, or (with `torch_only`) does not
    use torch. Inside `reusing_indexes`, a text is parsed at most once: a module the per-module pass kept
    the index of is not parsed again, and what one pass parses (a whole module, or one def's text) is kept
    for the next pass that asks (on hold-out 18, 36 of the passes' 274 parses were of a text parsed
    before)."""
    known = _REUSED.get()
    if known is not None and text in known:
        index = known[text]
        if index is not None:  # (each caller's rules start from fresh TorchFacts, as on a module just parsed)
            forget_facts(index)
    else:
        index = _parsed(text)
        if known is not None:
            known[text] = index
    return index if index is not None and (not torch_only or uses_torch(index)) else None


def _parsed(text: str) -> ModuleIndex | None:
    try:
        with collection_paused():
            return ModuleIndex.build(ast.parse(text))
    except (SyntaxError, ValueError, RecursionError):
        return None


# The indexes `parse_index` answers from while the project passes run (module text -> its index); set by
# `reusing_indexes`, for one `across_modules` call.
_REUSED: contextvars.ContextVar[dict | None] = contextvars.ContextVar("reused_indexes", default=None)


@contextlib.contextmanager
def reusing_indexes(indexes: dict):
    """Within the block, `parse_index` answers from `indexes` (text -> index, or None for a text that does
    not parse: the modules the per-module pass kept, `parsed_again`, then what the passes parse) instead of
    parsing a text again, and adds what it parses. A text is its own key: an index is the parse of that
    text, so an entry cannot go stale; each taker starts from fresh TorchFacts (`forget_facts`); the dict
    lives as long as the caller keeps it (one run)."""
    token = _REUSED.set(indexes)
    try:
        yield
    finally:
        _REUSED.reset(token)


def margin_starts(text: str) -> list[int]:
    """Where each line at the margin (`^\\S`: a top-level statement, decorator or comment) starts, in order:
    the first line's start, then the start of each line after a newline. (A regex led by a literal newline
    is searched for it; `^\\S` tried every character of the text, three times slower.)"""
    return ([0] if _MARGIN.match(text) else []) + [m.start() + 1 for m in _AFTER_NEWLINE.finditer(text)]


_MARGIN = re.compile(r"^\S", re.MULTILINE)
_AFTER_NEWLINE = re.compile(r"\n(?=\S)")


def parsed_again(text: str) -> bool:
    """The project passes are likely to parse this module again: its text trains (`TRAINS`), as the
    modules whose loops the PP501 and PP506 passes check once more do. The per-module pass keeps the
    index of such a module for them (checker/walker.py)."""
    return TRAINS.search(text) is not None


def project_texts(files: list[str], sources: dict) -> dict[str, str]:
    """The texts of a project's Python files: from `sources` (what the module pass read in this process),
    else read here and kept in `sources` for the next project pass."""
    texts = {}
    for path in files:
        if path.endswith(".py"):
            text = sources.get(path)
            if text is None:
                text = sources[path] = read_python(path)
            if text is not None:
                texts[path] = text
    return texts


def checked_texts(texts: dict[str, str]) -> dict[str, str]:
    """The project texts a pass judges: not test code (`is_test_path`), whose loops measure nothing."""
    return {p: t for p, t in texts.items() if not is_test_path(p)}


def importers(
    texts: dict[str, str],
    table: dict,
    pattern: re.Pattern,
    torch_only: bool = True,
    parsed: dict | None = None,
):
    """(index, chosen, path) of each module whose text names (by `pattern`) and can reach a name of `table`
    that another module defines; `chosen` maps each such name to the entries (path first) of the modules it
    imports it from. Only those modules are parsed; `parsed` (path -> index), if given, keeps each index for
    the caller's next question of the same module (one pass, one parse)."""
    for path, text in texts.items():
        names = set(pattern.findall(text)) if any(n in text for n in table) else set()
        names = {n for n in names if any(e[0] != path for e in table[n]) and reaches(text, n)}
        if not names:
            continue
        if parsed is None:
            index = parse_index(text, torch_only=torch_only)
        else:
            if path not in parsed:
                parsed[path] = parse_index(text, torch_only=torch_only)
            index = parsed[path]
        if index is not None:
            chosen = {
                n: imported_entries(index, n, path, [e for e in table[n] if e[0] != path]) for n in names
            }
            yield index, chosen, path


def callee_owner(callee: str) -> str:
    """The def or class a handoff's callee names (`Trainer` of `Trainer.train`)."""
    return callee.partition(".")[0]


_FROM_ALIAS = re.compile(r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]*\(?([^)\n]*\bas\b[^)\n]*)", re.MULTILINE)
_AS = re.compile(r"\b(\w+)\s+as\s+(\w+)")


@functools.lru_cache(maxsize=512)
def import_aliases(text: str) -> dict[str, frozenset[str]]:
    """The names the text imports from a module under another, with the names it uses for them (`from
    train.metrics import accuracy_SBM as accuracy` -> {"accuracy_SBM": {"accuracy"}}), from the text."""
    if " as " not in text:
        return {}
    found: dict[str, set[str]] = {}
    for line in _FROM_ALIAS.findall(text):
        for name, alias in _AS.findall(line):
            found.setdefault(name, set()).add(alias)
    return {n: frozenset(a) for n, a in found.items()}


def reaches(text: str, name: str) -> bool:
    """The text imports `name` (`from data import get_loader`, also on a later line of `from m import (a,\n
    name)` or of a backslash-continued import, or every name: `from utils import *`) or calls it on a module
    (`datasets.name(`): it can reach another module's def of that name."""
    return bool(
        re.search(rf"import[^\n]*\b{name}\b", text)
        or _continued_import(text, name)
        or _STAR_IMPORT.search(text)
        or any(_WORD_END.match(text, m.start() - 1) for m in re.finditer(rf"(?<=.)\.{name}\s*\(", text))
    )  # (three searches: one pattern whose second branch starts with `\w` is tried at every character)


_STAR_IMPORT = re.compile(r"^from\s+[\w.]+\s+import\s+\*", re.M)
_WORD_END = re.compile(r"\w")


def _continued_import(text: str, name: str) -> bool:
    """`name` on a continuation line of an import: inside `import (...)`, or after a line of the import that
    ends with a backslash (Deep-Exemplar's `from utils.util import (batch_lab2rgb_transpose_mc, ...,\n
    tensor_lab2rgb, ...)`, hold-out 45). Searched only in texts with such an import."""
    if "import (" not in text and "import(" not in text and "\\\n" not in text:
        return False
    return bool(
        re.search(rf"import[ \t]*\([^)]*\b{name}\b", text)
        or re.search(rf"^[ \t]*(?:from|import)[ \t][^\n]*\\\n(?:[^\n]*\\\n)*[^\n]*\b{name}\b", text, re.M)
    )


def imported_from(index: ModuleIndex, name: str) -> str | None:
    """The module a name is imported from (`from data.factory import name` -> "data.factory"); for a name
    the module reaches through a module it imports (`import helpers`, `from train_utils import
    train_eval_utils as utils`), the module it calls the name on (`helpers.name(...)`: "helpers",
    `utils.name(...)`: "train_utils.train_eval_utils"); for a name it imports under another (`from
    train.metrics import accuracy_SBM as accuracy`), the module it is imported from."""
    if (found := import_of(name, index)) is not None:
        return found[1]
    called = {  # `from train_utils import train_eval_utils as utils`, then `utils.train_one_epoch(...)`
        site.node.func.value.id
        for site in index.calls
        if isinstance(site.node.func, ast.Attribute)
        and site.node.func.attr == name
        and isinstance(site.node.func.value, ast.Name)
    }
    for node in index.imports:
        for alias in node.names:
            if (alias.asname or alias.name) not in called:
                continue
            if isinstance(node, ast.Import):
                return alias.name  # `import engine` or `import tools.engine as engine`
            # (`from . import networks`: a module of the importer's own package, named by itself; of
            # several files of that name, `imported_entries` keeps the nearest)
            return f"{node.module}.{alias.name}" if node.module else alias.name
    # (imported under another name: `from train.metrics import accuracy_SBM as acc`)
    for node in index.imports:
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and any(alias.name == name and alias.asname for alias in node.names)
        ):
            return node.module
    return None


def star_imported(index: ModuleIndex) -> list[str]:
    """The modules the module imports every name of (`from utils import *`: TiSASRec's main.py, RawNet2's
    `from trainer import *`), "" for a relative import of the package itself (`from . import *`, which
    `names_file` matches to any file; callers wanting a named module skip it). One definition for
    `imported_entries`, the loaders pass and the graph-callers pass."""
    return [
        node.module or ""
        for node in index.imports
        if isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names)
    ]


def imported_entries(index: ModuleIndex, name: str, user: str, entries: list) -> list:
    """The makers of `name` that the module at `user` imports: those whose file the import names (`from
    data.factory import name` -> .../data/factory.py or a package .../data/factory/; `import datasets` then
    `datasets.name(...)` -> .../datasets.py), and of several, the nearest to `user` (a repository of
    lectures, each with its own helper.py)."""
    module = imported_from(index, name)
    if module is not None:
        named = [e for e in entries if names_file(module, e[0])]
    else:
        modules = [a.name for node in index.imports if isinstance(node, ast.Import) for a in node.names]
        modules += star_imported(index)  # `from utils import *`
        named = [e for e in entries if any(m and names_file(m, e[0]) for m in modules)]
    if len(named) <= 1:
        return named
    shared = {e[0]: len(os.path.commonpath([e[0], user])) for e in named}
    best = max(shared.values())
    return [e for e in named if shared[e[0]] == best]
