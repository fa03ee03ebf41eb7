"""PP503 across modules: an evaluation def whose caller, in another module of the project, already runs it
under no_grad.

Checked one module at a time, `def validate(...)` in `utils/validation.py` (UnivNet) runs its model over the
validation loader with autograd on as far as its own module shows; the training loop in `utils/train.py`
calls it inside `with torch.no_grad():`. The module pass asks a def's callers in the same module
(`callers_disable_grad`), not those of other modules, so such findings were read wrong (hold-out 16: UnivNet's
`validate`, and P-tuning's `eval_step` methods, which `wrapper.eval()` calls through `self.task_helper` inside
its `with torch.no_grad():`). This pass drops a PP503 finding in a def when a module of the project calls
that def under no_grad (a `with`, a decorated def, or a def whose own callers there hold it), as the module
pass does for callers of the same module. Only modules whose text names the def's name followed by `(` are
parsed."""

from __future__ import annotations

import ast
import re

from checker.findings import Finding
from checker.module import FUNCTION_TYPES, ModuleIndex
from checker.rules.torch_common import callers_disable_grad, facts
from checker.torch_project.common import imported_entries, parse_index, project_texts

_GRAPH_RULE = "PP503"
# method names too common to tell one class's from another's by the name alone
_GENERIC = frozenset({"forward", "__call__", "eval", "train", "step", "run", "main"})


def graph_callers_across_modules(
    findings: list[Finding], projects: list[list[str]], codes=None, sources: dict | None = None
) -> list[Finding]:
    """`findings` less the PP503 findings in defs that another module of the project calls under no_grad."""
    if codes is not None and _GRAPH_RULE not in codes:
        return findings
    sources = {} if sources is None else sources
    dropped: set[tuple[str, int]] = set()
    for files in projects:
        paths = set(files)
        reported: dict[str, set[int]] = {}
        for f in findings:
            if f.rule == _GRAPH_RULE and f.cell is None and f.path in paths:
                reported.setdefault(f.path, set()).add(f.line)
        if reported and len(files) > 1:
            dropped |= _called_without_grad(project_texts(files, sources), reported)
    if not dropped:
        return findings
    return [f for f in findings if not (f.rule == _GRAPH_RULE and (f.path, f.line) in dropped)]


def _called_without_grad(texts: dict[str, str], reported: dict[str, set[int]]) -> set[tuple[str, int]]:
    """(path, line) of the reported findings whose def another module calls under no_grad."""
    defs: dict[str, list[tuple[str, bool, set[int]]]] = {}  # name -> (path, is a method, finding lines)
    for path, lines in reported.items():
        index = parse_index(texts.get(path, ""))
        if index is None:
            continue
        for function, at in _enclosing_defs(index, lines).items():
            method = index.function_class.get(id(function)) is not None
            if method and function.name in _GENERIC:
                continue
            defs.setdefault(function.name, []).append((path, method, at))
    defs = {name: entries for name, entries in defs.items() if not _defined_elsewhere(name, entries, texts)}
    if not defs:
        return set()
    called = re.compile(r"\b(" + "|".join(map(re.escape, defs)) + r")\s*\(")
    dropped = set()
    for path, text in texts.items():
        names = set(called.findall(text)) & set(defs)
        names = {n for n in names if any(p != path for p, _, _ in defs[n])}
        if not names:
            continue
        index = parse_index(text, torch_only=False)
        if index is None:
            continue
        for name in names:
            for def_path, method, lines in defs[name]:
                if def_path == path:
                    continue
                if not method and not imported_entries(index, name, path, [(def_path,)]):
                    continue  # (a def of that name the module does not import from the def's file)
                if _runs_under_no_grad(index, name, method):
                    dropped |= {(def_path, line) for line in lines}
    return dropped


def _enclosing_defs(index: ModuleIndex, lines: set[int]) -> dict:
    """The innermost def holding each line, with the lines it holds (module-level lines have none)."""
    found: dict = {}
    for line in lines:
        holding = [
            f
            for f in index.functions
            if isinstance(f, FUNCTION_TYPES) and f.lineno <= line <= (f.end_lineno or f.lineno)
        ]
        if holding:
            innermost = max(holding, key=lambda f: f.lineno)
            found.setdefault(innermost, set()).add(line)
    return found


def _defined_elsewhere(name: str, entries: list, texts: dict[str, str]) -> bool:
    """A method name another module of the project also defines (`def name(`): a call by that name may be
    another class's."""
    if not any(method for _, method, _ in entries):
        return False
    own = {path for path, _, _ in entries}
    pattern = re.compile(rf"^\s*(?:async\s+)?def\s+{re.escape(name)}\s*\(", re.MULTILINE)
    return any(path not in own and pattern.search(text) for path, text in texts.items())


def _runs_under_no_grad(index: ModuleIndex, name: str, method: bool) -> bool:
    """A call of `name` in the module (`obj.name(...)` for a method; `name(...)` or `module.name(...)` for a
    def) runs under no_grad: in a `with torch.no_grad():` body, in a def decorated with it, or in a def the
    module's own callers run under it (3 levels)."""
    fx = facts(index)
    for site in index.calls:
        func = site.node.func
        if isinstance(func, ast.Attribute):
            if func.attr != name:
                continue
        elif method or not (isinstance(func, ast.Name) and func.id == name):
            continue
        if fx.site_without_grad(site) or (
            site.function is not None and callers_disable_grad(site.function, index)
        ):
            return True
    return False
