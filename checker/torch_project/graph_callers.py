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
parsed.

It also drops a PP503 finding whose inputs another module of the project makes volatile (PyTorch 0.3-era
code, whose `Variable(x, volatile=True)` was the no_grad of its day): the loop iterates over a loader, or
the forward is given a value, that a def or class imported from a project module makes while passing
`volatile=` a value that is not False (torch-light's `Data_loader(..., evaluation=True)` whose batches are
`Variable(..., volatile=self.evaluation)`; `G(model.gen_z(64, ..., True))`). Only projects with a module
whose text writes `volatile=` are parsed (torch-fix95).

And it drops a PP503 finding in, or at a call of, a def decorated by a project decorator whose wrapper runs
the call under no_grad (the MVSNet family's `@make_nograd_func` from `utils.py`, whose wrapper body is `with
torch.no_grad(): ret = func(*f_args, **f_kwargs)`), defined in the same module or imported from the module
that defines it (torch-fix108).

Before those drops it adds PP503 findings the module pass cannot make: an evaluation def in a module that
does not import torch (so no PyTorch rule reads it), handed a model by a module that does, which runs a
method of that model's `nn.Module` class in a loop and lets only values without the graph out (TiSASRec's
`evaluate(model, dataset, args)` with `model.predict(...)` per user, CARE-GNN's and PC-GNN's
`test_care`/`test_pcgnn` with `model.to_prob(...)` per batch; torch-fix116, `_torch_free_evaluations`)."""

from __future__ import annotations

import ast
import functools
import re

from checker.findings import Finding, RawFinding
from checker.module import FUNCTION_TYPES, ModuleIndex, dotted_name, parameter_names, statements_in
from checker.project_files import import_word, import_words, names_file
from checker.rules import rule_selected
from checker.rules.torch_common import (
    callers_disable_grad,
    eval_named,
    facts,
    few_runs,
    is_step_call,
    method_name,
)
from checker.rules.torch_graph import (
    given_models,
    graph_free,
    input_maker_names,
    name_makes_volatile,
    reads_items,
)
from checker.torch_project.common import (
    checked_texts,
    imported_entries,
    imported_from,
    parse_index,
    project_finding,
    project_texts,
    star_imported,
)

_GRAPH_RULE = "PP503"
# method names too common to tell one class's from another's by the name alone
_GENERIC = frozenset({"forward", "__call__", "eval", "train", "step", "run", "main"})
# what a module's text holds when it turns gradients off (`torch.no_grad()`, `inference_mode`, a switch)
_NO_GRAD_WORDS = ("no_grad", "inference_mode", "set_grad_enabled")
_VOLATILE = re.compile(r"\bvolatile\s*=")


def graph_callers_across_modules(
    findings: list[Finding], projects: list[list[str]], codes=None, sources: dict | None = None
) -> list[Finding]:
    """`findings` less the PP503 findings in defs that another module of the project calls under no_grad."""
    if not rule_selected(codes, _GRAPH_RULE):
        return findings
    sources = {} if sources is None else sources
    dropped: set[tuple[str, int]] = set()
    for files in projects:
        paths = set(files)
        texts = project_texts(files, sources) if len(files) > 1 else None  # (gathered once per project)
        if texts is not None:
            findings = findings + _torch_free_evaluations(texts)
        reported: dict[str, set[int]] = {}
        for f in findings:
            if f.rule == _GRAPH_RULE and f.cell is None and f.path in paths:
                reported.setdefault(f.path, set()).add(f.line)
        if reported:
            texts = project_texts(files, sources) if texts is None else texts
            dropped |= _decorated_no_grad(texts, reported)
        if reported and len(files) > 1:
            dropped |= _called_without_grad(texts, reported)
            dropped |= _volatile_elsewhere(texts, reported)
            dropped |= _self_guarded_forwards(texts, reported)
            dropped |= _guarded_callees(texts, reported)
    if not dropped:
        return findings
    return [f for f in findings if not (f.rule == _GRAPH_RULE and (f.path, f.line) in dropped)]


def _called_without_grad(texts: dict[str, str], reported: dict[str, set[int]]) -> set[tuple[str, int]]:
    """(path, line) of the reported findings whose def another module calls under no_grad."""
    defs: dict[str, list[tuple[str, bool, set[int]]]] = {}  # name -> (path, is a method, finding lines)
    guessed = {path: _guessed_defs(texts.get(path, ""), lines) for path, lines in reported.items()}
    named = {name for names in guessed.values() for name in names}
    if not named:
        return set()
    callers = {  # (literal searches first: most texts name none of the defs, or never turn gradients off)
        path
        for path, text in texts.items()
        if any(word in text for word in _NO_GRAD_WORDS) and any(f"{name}(" in text for name in named)
    }
    for path, lines in reported.items():
        if not any(any(f"{name}(" in texts[c] for name in guessed[path]) for c in callers if c != path):
            continue  # (no other module that turns gradients off names a def holding these findings)
        index = parse_index(texts.get(path, ""))
        if index is None:
            continue
        for function, at in _enclosing_defs(index, lines).items():
            method = index.function_class.get(id(function)) is not None
            if method and function.name in _GENERIC:
                continue
            defs.setdefault(function.name, []).append((path, method, at))
    defs = _named_once(defs, texts)
    if not defs:
        return set()
    dropped = set()
    # (review28 item 19: the answer does not depend on the caller; asked once per def)
    elsewhere = functools.cache(functools.partial(_called_with_grad_elsewhere, texts))
    for path in callers:
        text = texts[path]
        first = min((at for word in _NO_GRAD_WORDS if (at := text.find(word)) >= 0), default=-1)
        names = {  # (a call written before any no_grad is under none)
            name
            for name in defs
            if text.find(f"{name}(", first) >= 0
            and _may_call(text, name, [e for e in defs[name] if e[0] != path])
        }
        if not names:
            continue
        index = parse_index(text, torch_only=False)
        if index is None:
            continue
        guarded = [  # (this module's facts first, then the other modules': `facts` holds one module's)
            (name, def_path, method, lines)
            for name in names
            for def_path, method, lines in defs[name]
            if def_path != path
            # (a def of that name the module does not import from the def's file: not this one)
            and (method or imported_entries(index, name, path, [(def_path,)]))
            and _runs_under_no_grad(index, name, method)
        ]
        for name, def_path, method, lines in guarded:
            if method or not elsewhere(name, def_path):
                dropped |= {(def_path, line) for line in lines}
    return dropped


def _called_with_grad_elsewhere(texts: dict[str, str], name: str, def_path: str) -> bool:
    """(torch-fix150) Another module of the project that imports the def from its file calls it with
    autograd on (no `with torch.no_grad():` around the call, no decorator, no caller of that module turning
    it off): one caller's no_grad does not make the def's pass graph-free at the other's. CSI's
    `test_classifier` (hold-out 48 `evals/evals.py` 61, listed, missed at every level): `eval.py` calls it
    under no_grad, `train.py` every `error_step` epochs without. Defs only (a method's name may be
    another class's); asked only of a def some module runs under no_grad. A call is `name(...)`, or
    `module.name(...)` through an `import` of a module (review28 item 8: `meter.top1_error(...)`, a method
    of another class, counted as a call of the def `top1_error`). Asked once per def, after the caller's
    own questions (`facts` keeps one module's TorchFacts: review28 item 19)."""
    word = import_word(def_path)
    for path, text in texts.items():
        if path == def_path or f"{name}(" not in text or word not in import_words(text):
            continue
        index = parse_index(text, torch_only=False)
        if index is None or not imported_entries(index, name, path, [(def_path,)]):
            continue
        modules = _imported_modules(index)
        fx = facts(index)
        for site in index.calls:
            func = site.node.func
            if isinstance(func, ast.Attribute):
                if func.attr != name or dotted_name(func.value) not in modules:
                    continue
            elif not (isinstance(func, ast.Name) and func.id == name):
                continue
            if not fx.site_without_grad(site) and not (
                site.function is not None and callers_disable_grad(site.function, index)
            ):
                return True
    return False


def _imported_modules(index: ModuleIndex) -> set[str]:
    """The names an `import` binds to a module (`import utils.metrics as m` -> `m`; `import utils.metrics`
    -> `utils.metrics`)."""
    return {
        alias.asname or alias.name
        for node in index.imports
        if isinstance(node, ast.Import)
        for alias in node.names
    }


def _may_call(text: str, name: str, entries: list) -> bool:
    """The text can call a def of `entries` by its name: a method as `obj.name(`; a def when the text names
    the def's module's name in its import lines (`from .validation import validate`, `from .utils import
    (evaluate_pipe, ...)`, `import validation` then `validation.validate(`: `import_words`), which the parsed
    imports then settle."""
    if any(method for _, method, _ in entries) and (
        f".{name}(" in text or re.search(rf"\.{name}\s+\(", text) is not None
    ):
        return True
    return any(not method and import_word(path) in import_words(text) for path, method, _ in entries)


_DEF_LINE = re.compile(r"^([ \t]*)(?:async[ \t]+)?def[ \t]+(\w+)")


def _guessed_defs(text: str, lines: set[int]) -> set[str]:
    """The names of the defs the lines seem to sit in, by the text alone: for each line, the nearest `def`
    above it indented less (a sieve; `_enclosing_defs` settles it on the parsed module)."""
    rows = text.splitlines()
    found = set()
    for line in lines:
        if not 0 < line <= len(rows):
            continue
        indent = len(rows[line - 1]) - len(rows[line - 1].lstrip())
        for row in reversed(rows[: line - 1]):
            m = _DEF_LINE.match(row)
            if m and len(m.group(1)) < indent:
                found.add(m.group(2))
                break
    return found


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


def _named_once(defs: dict, texts: dict[str, str]) -> dict:
    """`defs` less the method names another module of the project also defines (`def name(`): a call by
    that name may be another class's."""
    methods = {name for name, entries in defs.items() if any(method for _, method, _ in entries)}
    if not methods:
        return defs
    pattern = re.compile(
        r"^[ \t]*(?:async[ \t]+)?def[ \t]+(" + "|".join(map(re.escape, methods)) + r")[ \t]*\(", re.M
    )
    shared = set()
    for path, text in texts.items():
        if any(
            f"def {n}(" in text for n in methods
        ):  # (literal searches first: a regex over every text costs more)
            shared |= {n for n in pattern.findall(text) if all(path != p for p, _, _ in defs[n])}
    return {name: entries for name, entries in defs.items() if name not in shared}


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


def _volatile_elsewhere(texts: dict[str, str], reported: dict[str, set[int]]) -> set[tuple[str, int]]:
    """(path, line) of the reported findings whose inputs a def or class of another module makes volatile
    (`input_maker_names`: the loop's loader, a maker of the forward's argument), by the import that names
    that module."""
    # (the word first: `_VOLATILE` leads with `\b`, which re tries at every character of every text)
    volatile = {path for path, text in texts.items() if "volatile" in text and _VOLATILE.search(text)}
    if not volatile:
        return set()
    parsed: dict[str, ModuleIndex | None] = {}  # path -> its index, parsed when an import names it
    dropped = set()
    for path, lines in reported.items():
        if not any(p != path for p in volatile):
            continue
        index = parse_index(texts.get(path, ""), torch_only=False)
        if index is None:
            continue
        for site in index.calls:
            line = site.node.lineno
            if line not in lines or not site.loops or (path, line) in dropped:
                continue
            if reads_items(index, site.function):
                continue  # (`.item()`: code for PyTorch 0.4 or later, where `volatile=` does nothing)
            for name, call in input_maker_names(site, index):
                module = imported_from(index, name)
                if module is None or not any(names_file(module, p) for p in volatile if p != path):
                    continue
                named = [(p,) for p in texts if p != path and names_file(module, p)]
                if any(  # (the nearest file the import names: each lesson of a repository has its loader)
                    entry[0] in volatile and _makes_volatile(entry[0], name, call, texts, parsed)
                    for entry in imported_entries(index, name, path, named)
                ):
                    dropped.add((path, line))
                    break
    return dropped


def _makes_volatile(
    path: str, name: str, call, texts: dict[str, str], parsed: dict[str, ModuleIndex | None]
) -> bool:
    """The module at `path` defines `name` as a def or class that makes what this call gets volatile
    (`name_makes_volatile`)."""
    if path not in parsed:
        parsed[path] = parse_index(texts[path], torch_only=False)
    index = parsed[path]
    return index is not None and name_makes_volatile(index, name, call)


_GUARD_NAMES = frozenset({"no_grad", "inference_mode"})


def _guards_own_inference(text: str) -> bool:
    """Every network class the module defines (a class with a `forward`, at least one) has a `forward` that
    returns what one of its own methods decorated with no_grad returns (`@torch.no_grad() def
    inference_single_image(self, x)` and, in `forward`, `if not self.trainable: return
    self.inference_single_image(x)`): the model turns autograd off for its own inference, so a caller's loop
    over it records nothing. One unguarded class beside a guarded one may be the network the caller runs."""
    index = parse_index(text, torch_only=False)
    if index is None:
        return False
    fx = facts(index)  # (`disables_grad`: `@torch.no_grad()`, `@torch.inference_mode()`, called or not)
    forwards = 0
    for node in statements_in(index.tree):  # (a class is a statement: no need to walk the expressions)
        if not isinstance(node, ast.ClassDef):
            continue
        methods = {f.name: f for f in node.body if isinstance(f, FUNCTION_TYPES)}
        forward = methods.get("forward")
        if forward is None:
            continue
        forwards += 1
        guarded = {name for name, f in methods.items() if any(fx.disables_grad(d) for d in f.decorator_list)}
        if not any(
            isinstance(n, ast.Return)
            and isinstance(n.value, ast.Call)
            and isinstance(n.value.func, ast.Attribute)
            and isinstance(n.value.func.value, ast.Name)
            and n.value.func.value.id == "self"
            and n.value.func.attr in guarded
            for n in ast.walk(forward)
        ):
            return False
    return forwards > 0


def _self_guarded_forwards(texts: dict[str, str], reported: dict[str, set[int]]) -> set[tuple[str, int]]:
    """(torch-fix97) (path, line) of the reported findings at a plain call `net(x)` in a module that defines
    no network of its own and whose imports name modules (or packages) of the project that define a
    `forward`, every one of which guards its own inference (`_all_guarded`): the YOLO family's `test.py` runs `net(x)`, built by
    `models.yolo.build_model`, whose six detectors' `forward` returns `self.inference_single_image(x)`, a
    method decorated `@torch.no_grad()` (hold-out 28: read wrong at `medium`). A package of which only some
    networks guard themselves says nothing about the one built (SlowFast's `slowfast.models`, whose
    contrastive model's `forward` returns `self.eval_knn(q)` in eval mode while the detection models built by
    `build_model` in its demos guard nothing: hold-out 19, two `high` findings read right, kept). Only texts
    that name `no_grad` or `inference_mode` and define `forward` are parsed for guards."""
    guarded = [
        path
        for path, text in texts.items()
        if "def forward" in text
        and any(word in text for word in _GUARD_NAMES)
        and _guards_own_inference(text)
    ]
    if not guarded:
        return set()
    networks = [path for path, text in texts.items() if "def forward" in text]
    dropped = set()
    for path, lines in reported.items():
        index = parse_index(texts.get(path, ""), torch_only=False)
        if index is None or any(
            isinstance(f, FUNCTION_TYPES) and f.name == "forward" for f in index.functions
        ):
            continue  # (a module with a network of its own may run that one)
        modules = [
            alias.name if isinstance(node, ast.Import) else node.module
            for node in index.imports
            for alias in node.names
            if isinstance(node, ast.Import) or node.module
        ]
        if not _all_guarded(modules, path, networks, guarded):
            continue
        for site in index.calls:
            if site.node.lineno in lines and site.loops and isinstance(site.node.func, ast.Name):
                dropped.add((path, site.node.lineno))
    return dropped


def _all_guarded(modules: list[str], user: str, networks: list[str], guarded: list[str]) -> bool:
    """The imports of `modules` from `user` name project modules that define a `forward`, and each of them
    guards its own inference (`_guards_own_inference`): a network imported from an unguarded module beside a
    guarded one may be the one the loop runs."""
    named = [path for path in networks if path != user and any(names_file(m, path) for m in modules)]
    return bool(named) and all(path in guarded for path in named)


def _decorated_no_grad(texts: dict[str, str], reported: dict[str, set[int]]) -> set[tuple[str, int]]:
    """(torch-fix108) (path, line) of the reported findings inside a def decorated by a project no-grad
    decorator (`_no_grad_decorators`), or at a call of such a def: `@make_nograd_func def test_sample(...)`,
    whose forward runs under the wrapper's `with torch.no_grad():`, and `test_sample(sample)` in the loop of
    `test()` (hold-out 34: 8 `medium` findings read wrong in the MVSNet family). The decorator counts when
    the module defines it or imports it from the module that does (`from utils import *`). Only the names
    the reported modules write as bare decorators (`@make_nograd_func`, `@utils.make_nograd_func`) are
    looked for, and only texts that define one of them (`def name(`) and name `no_grad` or
    `inference_mode` are parsed for them."""
    # (each reported text's bare decorators, found once: what to look for, and then which each module uses)
    written = {path: set(_BARE_DECORATOR.findall(texts.get(path, ""))) - _GUARD_NAMES for path in reported}
    wanted = set().union(*written.values())
    if not wanted:
        return set()
    makers: dict[str, set[str]] = {}
    for path, text in texts.items():
        if any(f"def {name}(" in text for name in wanted) and any(word in text for word in _GUARD_NAMES):
            index = parse_index(text, torch_only=False)
            names = _no_grad_decorators(index) & wanted if index is not None else set()
            if names:
                makers[path] = names
    every = set().union(*makers.values()) if makers else set()
    dropped = set()
    for path, lines in reported.items():
        text = texts.get(path, "")
        used = every & written[path]
        index = parse_index(text, torch_only=False) if used else None
        if index is None:
            continue
        guards = {
            name
            for name in used
            if name in makers.get(path, ())
            or imported_entries(
                index, name, path, [(p,) for p, ns in makers.items() if p != path and name in ns]
            )
        }
        decorated = [
            f
            for f in index.functions
            if isinstance(f, FUNCTION_TYPES) and any(_decorator_name(d) in guards for d in f.decorator_list)
        ]
        if not decorated:
            continue
        names = {f.name for f in decorated}
        for line in lines:
            if any(f.lineno <= line <= (f.end_lineno or f.lineno) for f in decorated):
                dropped.add((path, line))
        for site in index.calls:
            # (a call is named as a decorator is: `test_sample(x)`, `self.test_sample(x)`)
            if site.node.lineno in lines and _decorator_name(site.node.func) in names:
                dropped.add((path, site.node.lineno))
    return dropped


# a decorator line without a call: `@make_nograd_func`, `@utils.make_nograd_func` (the last name is taken),
# a comment after it allowed; `\r?` for a text with CRLF line ends (PatchmatchNet's `train_dtu.py`)
_BARE_DECORATOR = re.compile(r"^[ \t]*@(?:\w+\.)*(\w+)[ \t]*(?:#[^\r\n]*)?\r?$", re.M)


def _decorator_name(node: ast.AST) -> str | None:
    """The name a decorator is written with: `make_nograd_func`, `utils.make_nograd_func` (not called)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _no_grad_decorators(index: ModuleIndex) -> set[str]:
    """The module-level defs of one parameter that return an inner def calling that parameter inside `with
    torch.no_grad():` (or inference_mode): `def make_nograd_func(func): def wrapper(*a, **k): with
    torch.no_grad(): ret = func(*a, **k) ... return wrapper`. A def they decorate runs under no_grad."""
    fx = facts(index)
    found = set()
    for node in index.tree.body:
        if not isinstance(node, FUNCTION_TYPES) or len(node.args.args) != 1:
            continue
        param = node.args.args[0].arg
        returned = {
            n.value.id for n in node.body if isinstance(n, ast.Return) and isinstance(n.value, ast.Name)
        }
        for inner in node.body:
            if not isinstance(inner, FUNCTION_TYPES) or inner.name not in returned:
                continue
            ranges = fx.no_grad_ranges(inner)
            if any(
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Name)
                and call.func.id == param
                and any(start <= call.lineno <= end for start, end in ranges)
                for call in ast.walk(inner)
            ):
                found.add(node.name)
    return found


# a def named for evaluation in a module's text (`def test_care(`, `def evaluate(`), as `eval_named` reads it
_EVAL_DEF = re.compile(
    r"^[ \t]*def[ \t]+\w*(?:eval|test|valid|infer|predict|accuracy)\w*[ \t]*\(", re.M | re.I
)
# methods of an nn.Module that run no forward (set-up, state, devices, modes)
_NO_FORWARD_METHODS = re.compile(
    r"^(?:to|cuda|cpu|eval|train|zero_grad|apply|modules|children|parameters|named_\w+|state_dict|"
    r"load\w*|save\w*|set_\w+|get_\w+|init\w*|register_\w+|update\w*)$"
)


def _torch_free_evaluations(texts: dict[str, str]) -> list[Finding]:
    """(torch-fix116) PP503 findings in modules the module pass never reads because they do not import
    torch: an evaluation def handed the model (`_free_evaluation`). Hold-outs 29 and 37: TiSASRec's
    `utils.evaluate`, CARE-GNN's `test_care` and PC-GNN's `test_pcgnn`, three listed cases no rule found;
    their callers, in the training scripts, hand them the trained model with autograd on."""
    torch_texts = {p: t for p, t in texts.items() if "torch" in t}
    if not torch_texts or any("volatile" in t and _VOLATILE.search(t) for t in torch_texts.values()):
        return []  # (no model module; or 0.3-era code, whose volatile inputs were the no_grad of its day)
    found = []
    for path, text in checked_texts(texts).items():
        if "torch" in text or not _EVAL_DEF.search(text):
            continue
        index = parse_index(text, torch_only=False)
        if index is None:
            continue
        fx = facts(index)
        for function in index.functions:
            if isinstance(function, FUNCTION_TYPES) and eval_named(function):
                found.extend(_free_evaluation(path, function, index, fx, torch_texts))
    return found


def _free_evaluation(path: str, function, index: ModuleIndex, fx, torch_texts: dict[str, str]):
    """The finding for `function` when it is handed a model (a parameter with a model's name), calls a method
    of it in a loop of more than a few runs, that method being one a torch module of the project defines in
    an `nn.Module` class without turning gradients off (`_module_method`), trains nothing, lets only values
    without the graph out (`graph_free`), and a torch module of the project calls it by name."""
    given = given_models(parameter_names(function))
    sites = index.function_calls.get(id(function), [])
    if not given or any(is_step_call(s.node) or method_name(s.node) == "zero_grad" for s in sites):
        return []
    forwards = [
        s
        for s in sites
        if s.loops
        and isinstance(s.node.func, ast.Attribute)
        and isinstance(s.node.func.value, ast.Name)
        and s.node.func.value.id in given
        and (s.node.args or s.node.keywords)
        and not _NO_FORWARD_METHODS.match(s.node.func.attr)
    ]
    forwards = [s for s in forwards if not few_runs(s.loops)]
    # (each method name asked once, not once per call: `_module_method` parses every torch text defining it)
    methods = {name: _module_method(name, torch_texts) for name in {s.node.func.attr for s in forwards}}
    forwards = [s for s in forwards if methods[s.node.func.attr]]
    if not forwards or not graph_free(function, [s.node for s in forwards], fx):
        return []
    callers = [t for t in torch_texts.values() if _imports_and_calls(t, function.name, path)]
    if not callers or any(_calls_under_no_grad(t, function.name) for t in callers):
        return []  # (no torch module calls it, so nothing hands it a model; or one calls it under no_grad)
    site = forwards[0]
    model, method = site.node.func.value.id, site.node.func.attr
    return [
        project_finding(
            path,
            RawFinding(
                _GRAPH_RULE,
                site.node.lineno,
                site.node.col_offset,
                f"`{model}.{method}` runs in the loop at line {site.loops[-1].lineno} of `{function.name}` "
                "without torch.no_grad(), and only values without its graph leave the def: autograd records "
                f"every batch's activations for nothing; decorate `{function.name}` with `@torch.no_grad()` "
                "(this module does not import torch; its callers hand it the model)",
                confidence="high",
            ),
            _GRAPH_RULE,
        )
    ]


def _imports_and_calls(text: str, name: str, path: str) -> bool:
    """The torch module's text imports `name` from the module at `path` (`from utils import evaluate`, or
    `import utils` then `utils.evaluate(...)`) and calls it: a bare `\bname(` match also took the text's own
    `def evaluate(` and an unrelated `x.evaluate(` (review23 bug 4: a false `high` on a def nothing calls)."""
    if import_word(path) not in import_words(text) or not re.search(rf"\b{name}\(", text):
        return False  # (a sieve before the parse)
    index = parse_index(text, torch_only=False)
    if index is None:
        return False
    module = imported_from(index, name)
    modules = [module] if module is not None else star_imported(index)  # (CARE-GNN's train.py)
    if not any(names_file(m, path) for m in modules):
        return False
    return any(
        (isinstance(s.node.func, ast.Name) and s.node.func.id == name)
        or (isinstance(s.node.func, ast.Attribute) and s.node.func.attr == name)
        for s in index.calls
    )


def _calls_under_no_grad(text: str, name: str) -> bool:
    """The module calls the def `name` (`name(...)` or `module.name(...)`) under no_grad somewhere
    (`_runs_under_no_grad`; the drop of `_called_without_grad` parses only modules that import torch)."""
    if not any(word in text for word in _NO_GRAD_WORDS):
        return False
    index = parse_index(text, torch_only=False)
    return index is not None and (
        _runs_under_no_grad(index, name, method=False) or _runs_under_no_grad(index, name, method=True)
    )


def _module_method(name: str, torch_texts: dict[str, str]) -> bool:
    """A torch module of the project defines `name` as a method of a class based on a `Module`
    (`class TiSASRec(torch.nn.Module)` ... `def predict(self, ...)`), neither decorated to turn gradients off
    nor opening no_grad in its body: a forward under another name, which records a graph."""
    found = False
    for text in torch_texts.values():
        if f"def {name}(" not in text:
            continue
        index = parse_index(text)
        if index is None:
            continue
        for node in index.tree.body:
            if not isinstance(node, ast.ClassDef) or not any(
                (ast.unparse(b).split(".")[-1]).endswith("Module") for b in node.bases
            ):
                continue
            for method in node.body:
                if isinstance(method, FUNCTION_TYPES) and method.name == name:
                    words = {
                        n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", "")
                        for n in ast.walk(method)
                    }
                    if not words.isdisjoint(_NO_GRAD_WORDS):
                        return False
                    found = True
    return found


def _guarded_callees(texts: dict[str, str], reported: dict[str, set[int]]) -> set[tuple[str, int]]:
    """(torch-fix134) (path, line) of the reported findings at a call whose callee, in the project, turns
    autograd off itself one level down: a method every def of that name in the project (the caller's module
    too) runs wholly under no_grad (ExpandNet's `net.predict(t_input, opt.patch_size)`, whose body is `with
    torch.no_grad():`, model.py 55), or a forward called with a mode keyword (`model(data_i,
    mode="inference")`) whose branch for that mode runs under no_grad in every project forward that takes the
    keyword (Bringing Old Photos' `Pix2PixModel.forward`, pix2pix_model.py 49). Both were read wrong at `high`
    on hold-out 45. Only projects naming a no-grad word are asked, and only texts defining the method parsed."""
    if not any(w in t for t in texts.values() for w in _NO_GRAD_WORDS):
        return set()
    dropped = set()
    answers: dict[tuple, bool] = {}  # (one answer per method name or mode keyword and value in the pass)
    for path, lines in reported.items():
        index = parse_index(texts.get(path, ""), torch_only=False)
        if index is None:
            continue
        for site in index.calls:
            call = site.node
            if call.lineno in lines and (
                _guarded_method(call, texts, answers) or _guarded_mode(call, texts, answers)
            ):
                dropped.add((path, call.lineno))
    return dropped


@functools.lru_cache(maxsize=256)
def _def_pattern(name: str) -> re.Pattern:
    """`def name(` in a source text: the one spelling of the project-text searches below, compiled once per
    name."""
    return re.compile(rf"\bdef\s+{re.escape(name)}\s*\(")


def _project_defs(name: str, texts: dict[str, str], word: str = ""):
    """(index, def) for each method named `name` in the project's texts that define it (the caller's module
    too: a method of its own by that name, unguarded, may be the one called); with `word`, only in texts
    that hold it too (a `forward` taking the mode keyword)."""
    pattern = _def_pattern(name)
    for text in texts.values():
        if word not in text or name not in text or not pattern.search(text):
            continue  # (a substring test first: a regex over every text of the project costs)
        index = parse_index(text, torch_only=False)
        if index is None:
            continue
        for function in index.functions:
            if (
                isinstance(function, FUNCTION_TYPES)
                and function.name == name
                and index.function_class.get(id(function))
            ):
                yield index, function


def _guards_near_defs(name: str, texts: dict[str, str]) -> bool:
    """Every `def name(` of the project's texts has a no-grad word within a few lines of it (a decorator
    above, a `with` at the top of its body): without one no def is parsed (most `test` or `predict` methods
    guard nothing)."""
    pattern = _def_pattern(name)
    return all(
        any(w in text[max(0, m.start() - 200) : m.end() + 600] for w in _NO_GRAD_WORDS)
        for text in texts.values()
        if name in text
        for m in pattern.finditer(text)
    )


def _guarded_method(call: ast.Call, texts: dict[str, str], answers: dict) -> bool:
    """`obj.name(...)` and every method of that name in the project runs under no_grad: decorated so, or its
    body no more than no_grad blocks and statements that call nothing."""
    name = method_name(call)
    if name is None or name in _GENERIC or name.startswith("__"):
        return False
    if name not in answers:
        found = list(_project_defs(name, texts)) if _guards_near_defs(name, texts) else []
        answers[name] = bool(found) and all(
            any(facts(index).disables_grad(d) for d in function.decorator_list)
            or _body_guarded(function.body, index)
            for index, function in found
        )
    return answers[name]


def _body_guarded(body: list[ast.stmt], index: ModuleIndex) -> bool:
    """Each statement (a docstring aside) is a `with` that turns autograd off, or calls nothing; at least
    one is such a `with`."""
    fx = facts(index)
    guards = 0
    for stmt in body:
        if isinstance(stmt, ast.With) and any(fx.disables_grad(item.context_expr) for item in stmt.items):
            guards += 1
        elif any(isinstance(n, ast.Call) for n in ast.walk(stmt)):
            return False
    return guards > 0


def _guarded_mode(call: ast.Call, texts: dict[str, str], answers: dict) -> bool:
    """`model(x, mode="inference")`: a call of a module given a string keyword, and every project `forward`
    that takes that keyword has an `if mode == "inference":` branch that runs under no_grad (`_body_guarded`).
    A module is called plain, through `.forward`, or as an attribute no project def is named after
    (`self.model(data_i, mode="inference")` in a Tester class, review 26 item 9; not `self.evaluate(...)`)."""
    name = method_name(call)
    if name not in (None, "forward") and _project_def_named(name, texts, answers):
        return False
    for keyword in call.keywords:
        value = keyword.value
        if not (keyword.arg and isinstance(value, ast.Constant) and isinstance(value.value, str)):
            continue
        key = (keyword.arg, value.value)
        if key not in answers:
            # every forward that takes the keyword, also one with no branch for this mode (session 26 reread)
            named = {p: t for p, t in texts.items() if keyword.arg in t and "forward" in t}
            takers = [
                (index, function)
                for index, function in _project_defs("forward", named, keyword.arg)
                if keyword.arg in parameter_names(function)
            ]
            answers[key] = bool(takers) and all(
                any(_body_guarded(branch, index) for branch in _mode_branches(function, *key))
                for index, function in takers
            )
        if answers[key]:
            return True
    return False


def _project_def_named(name: str, texts: dict[str, str], answers: dict) -> bool:
    """Some text of the project defines a function or method `name` (one answer per name in the pass)."""
    key = ("def", name)
    if key not in answers:
        pattern = _def_pattern(name)
        answers[key] = any(name in text and pattern.search(text) for text in texts.values())
    return answers[key]


def _mode_branches(function, parameter: str, mode: str) -> list[list[ast.stmt]]:
    """The bodies of the def's `if parameter == mode:` (or `elif`) branches."""
    return [
        node.body
        for node in ast.walk(function)
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == parameter
        and len(node.test.ops) == 1
        and isinstance(node.test.ops[0], ast.Eq)
        and isinstance(node.test.comparators[0], ast.Constant)
        and node.test.comparators[0].value == mode
    ]
