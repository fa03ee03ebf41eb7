"""PP506 across modules: a def of one module that returns a tensor made on the host (`def
gen_rand_noise(n): return torch.randn(n, 128)`) and a loop in another module that copies what it
returns to the device on every step (`noise = gen_rand_noise(b).to(device)`); a def that makes and
moves a tensor (`torch.randperm(n).cuda()`) called by another module's training step or `forward`; and
a method doing so (or copying a tensor its `__init__` made on the host, a DDPM scheduler's
`self.betas.to(x.device)`) that another module's training step calls on an object
(`scheduler.add_noise(x, noise, t)`)."""

from __future__ import annotations

import collections
import functools
import os
import re

from checker.findings import Finding
from checker.module import ModuleIndex
from checker.noqa import file_is_silenced, noqa_lines, silenced
from checker.project_files import import_word
from checker.rules.torch_common import lowered_on_toys
from checker.rules.torch_sync import (
    FACTORIES,
    check_created_then_moved,
    forward_callees,
    host_factories,
    step_loop_callees,
)
from checker.torch_project.common import (
    MOVES,
    TRAINS,
    checked_texts,
    import_lines,
    importers,
    parse_index,
    project_finding,
    project_texts,
)

_FACTORY_RULE = "PP506"
_FACTORY = r"torch\.(?:" + "|".join(sorted(n[len("torch.") :] for n in FACTORIES)) + r")\("
# (a factory's call; one whose tensor is moved in the same line)
_FACTORY_RE = re.compile(_FACTORY)
_MOVED_FACTORY = re.compile(rf"{_FACTORY}.*\.(?:cuda|to)\(")


def factories_across_modules(
    findings: list[Finding], projects: list[list[str]], codes=None, sources: dict | None = None
) -> list[Finding]:
    """`findings` with a PP506 finding added where a loop copies to the device, every step, a tensor that
    a def of another module of the project made on the host. Only modules whose text calls a torch factory
    are parsed for such defs, and only modules that name one of them for the copies."""
    if codes is not None and _FACTORY_RULE not in codes:
        return findings
    sources = {} if sources is None else sources
    for files in projects:
        texts = checked_texts(project_texts(files, sources))
        findings = findings + _factories_moved(texts, findings)
    return findings


def _factories_moved(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP506 findings that need two modules: a copy of what another module's def made on the host
    (`_outside_factories`), and a copy made in a def that another module's training loop calls
    (`_stepped_defs`). Each module concerned is checked once more with that knowledge, and only its
    findings not reported before are kept."""
    indexes: dict[str, ModuleIndex] = {}
    outside = _outside_factories(texts, indexes)
    stepped = _stepped_defs(texts, indexes)
    reported = {(f.path, f.line) for f in findings if f.rule == _FACTORY_RULE}
    found = []
    for path in sorted(set(outside) | set(stepped)):
        index = indexes.get(path) or parse_index(texts[path])
        if index is None:
            continue
        check = functools.partial(
            check_created_then_moved, outside=outside.get(path, {}), stepped=frozenset(stepped.get(path, ()))
        )
        noqa = noqa_lines(texts[path])
        for raw in lowered_on_toys(check)(index):
            if (path, raw.line) in reported or silenced(noqa.get(raw.line), _FACTORY_RULE):
                continue
            reported.add((path, raw.line))
            found.append(project_finding(path, raw, _FACTORY_RULE))
    return found


def _outside_factories(texts: dict[str, str], indexes: dict) -> dict[str, dict[str, str]]:
    """{path: {callee: factory}}: for each module, the defs of other modules it calls that return a tensor
    made on the host, imported from their module, or methods no other def of the project is named as
    (`G.sample_latent`). The parsed importers are kept in `indexes`."""
    candidates = {
        p: names for p, t in texts.items() if (names := _factory_defs(t)) and not file_is_silenced(t)
    }
    if not candidates:
        return {}
    named = set().union(*candidates.values())
    users = {p: moved for p, t in texts.items() if MOVES.search(t) and (moved := _moved_results(t, named))}
    makers: dict[str, list[tuple[str, str]]] = {}
    for path, names in candidates.items():
        if not any(n in moved for p, moved in users.items() if p != path for n in names):
            continue  # (no other module moves what they return)
        index = parse_index(texts[path])
        for name, factory in (host_factories(index, names) if index is not None else {}).items():
            makers.setdefault(name, []).append((path, factory))
    if not makers:
        return {}
    defined = collections.Counter(n for t in texts.values() for n in _DEF.findall(t) if n in makers)
    called = re.compile(r"\b(" + "|".join(map(re.escape, makers)) + r")\s*\(")
    found = {}
    movers = {p: texts[p] for p, moved in users.items() if any(n in makers for n in moved)}
    for index, chosen, path in importers(movers, makers, called):
        named = {
            n: (entries or makers[n])[0][1]
            for n, entries in chosen.items()
            if entries or (defined[n] == len(makers[n]) and _method_call(texts[path], n))
        }
        if named:
            found[path], indexes[path] = named, index
    return found


def _moved_results(text: str, names: set[str]) -> set[str]:
    """Those of `names` called on a line that moves a tensor, or whose next three lines do
    (`gen_rand_noise(b).to(device)`; `z = Variable(G.sample_latent(n))`, then `z = z.cuda()`)."""
    found = set()
    for name in names:
        at = text.find(name + "(") if name in text else -1
        while at >= 0 and name not in found:
            if at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_"):
                start = text.rfind("\n", 0, at) + 1
                end = start
                for _ in range(4):
                    end = text.find("\n", end + 1)
                    if end < 0:
                        end = len(text)
                        break
                if MOVES.search(text, start, end):
                    found.add(name)
            at = text.find(name + "(", at + 1)
    return found


def _stepped_defs(texts: dict[str, str], indexes: dict) -> dict[str, set[str]]:
    """{path: names}: module-level defs that make a torch tensor and move one (`mixup_data`, whose
    `torch.randperm(n).cuda()` runs on every step) and that a training loop or training-step def
    (`step_loop_callees`), or a `forward` or loss def (`forward_callees`: a YOLO layer's
    `build_targets(...)`), of a module importing them calls; and methods, as `Class.method`, that do so
    or copy a tensor held on `self` (`_moving_defs`), named by no other def of the project, that a training
    loop or training-step def of another module calls on an object (`model.gradient_penalty(x, g)`)."""
    defs: dict[str, list[tuple[str]]] = {}
    methods: dict[str, dict[str, str]] = {}
    for path, text in texts.items():
        if "torch." not in text or file_is_silenced(text):
            continue
        moving, moving_methods = _moving_defs(text)
        for name in moving:
            defs.setdefault(name, []).append((path,))
        for owner, name in moving_methods:
            methods.setdefault(name, {})[path] = owner
    found: dict[str, set[str]] = {}
    if defs:
        _stepped_module_defs(texts, defs, found)
    if methods:
        _stepped_methods(texts, methods, indexes, found)
    return found


def _stepped_module_defs(texts: dict[str, str], defs: dict[str, list[tuple[str]]], found: dict) -> None:
    """Into `found`, the defs of `defs` that a training loop, training-step def, `forward` or loss def of a
    module importing them calls."""
    called = re.compile(r"\b(" + "|".join(map(re.escape, defs)) + r")\s*\(")
    stems = {import_word(e[0]) for entries in defs.values() for e in entries}
    wanted = re.compile(r"\b(?:" + "|".join(map(re.escape, {*defs, *stems})) + r")\b")
    trainers = {
        p: t
        for p, t in texts.items()
        if any(n in t for n in defs)
        and (_STEPS.search(t) or _FORWARD.search(t))
        and wanted.search(import_lines(t))
    }
    for index, chosen, _ in importers(trainers, defs, called):
        for name in (step_loop_callees(index) | forward_callees(index)) & set(chosen):
            for (path,) in chosen[name]:
                found.setdefault(path, set()).add(name)


def _stepped_methods(texts: dict[str, str], methods: dict[str, dict[str, str]], indexes: dict, found: dict):
    """Into `found`, `Class.method` for the methods of `methods` (name -> {path: class}) that a training
    loop or training-step def of another module calls on an object (`_named_def`: the one def of that name
    nearest the caller), so `model.sample_noise(n)` runs it whatever `model` is (the object often comes in
    as a parameter, its class imported by the module that makes it, not by the one stepping)."""
    called = re.compile(r"\w\.(" + "|".join(map(re.escape, methods)) + r")\s*\(")
    defined: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for path, text in texts.items():
        for name in _DEF.findall(text):
            if name in methods:
                defined[name][path] += 1
    for path, text in texts.items():
        names = {n for n in called.findall(text) if path not in methods[n]} if _STEPS.search(text) else ()
        if not names or file_is_silenced(text):
            continue
        index = indexes.get(path) or parse_index(text)
        if index is None:
            continue
        indexes[path] = index
        for name in step_loop_callees(index) & names:
            where = _named_def(path, defined[name])
            if where in methods[name]:
                found.setdefault(where, set()).add(f"{methods[name][where]}.{name}")


def _named_def(user: str, defined: collections.Counter) -> str | None:
    """The file of the one def of a name nearest the module at `user` (by their common path: a checked
    folder of many repositories holds other projects' defs of it too); None when the nearest files define
    it more than once (two classes' `sample`: the call may be either)."""
    if not defined:
        return None
    shared = {p: len(os.path.commonpath([p, user])) for p in defined}
    best = max(shared.values())
    nearest = [p for p in defined if shared[p] == best]
    return nearest[0] if len(nearest) == 1 and defined[nearest[0]] == 1 else None


_DEF = re.compile(r"^\s*def\s+(\w+)", re.MULTILINE)
_STEPS = re.compile(r"\.backward\(|\.step\(|autograd\.grad\(")
_FORWARD = re.compile(r"^\s+def\s+forward\s*\(|^def\s+\w*loss\w*\s*\(", re.MULTILINE)


def _factory_defs(text: str) -> set[str]:
    """Names of defs that may return a factory's tensor, by the text: `return torch.randn(...)`, or `noise =
    torch.randn(...)` with a `return noise` after it, each in the nearest `def` above. (A first sieve; the
    parse decides.) `forward` is left out: a model is called, not its `forward`."""
    found = set()
    for match in _FACTORY_RE.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        head = text[start : match.start()].strip()
        name = head[:-1].strip() if head.endswith("=") else ""
        if head == "return" or (name.isidentifier() and _returns_name(text, name, match.end())):
            at = text.rfind("def ", 0, start)
            if at >= 0:
                found.add(text[at + 4 : text.find("(", at)].strip())
    found.discard("forward")
    return found


def _returns_name(text: str, name: str, start: int) -> bool:
    """A `return name` line within 2,000 characters after `start`."""
    at = text.find(f"return {name}", start, start + 2000)
    while at >= 0:
        end = text.find("\n", at)
        if not text[at + 7 + len(name) : end if end >= 0 else len(text)].strip():
            return True
        at = text.find(f"return {name}", at + 1, start + 2000)
    return False


def _moving_defs(text: str) -> tuple[set[str], set[tuple[str, str]]]:
    """Module-level defs, and (class, method) pairs of methods one level into a class at the margin, with a
    line that makes a factory's tensor and moves it (`index = torch.randperm(n).cuda()`), or that binds a
    factory's tensor to a name a later line moves (`c_t_1 = Variable(torch.zeros((b, h)))`, then `c_t_1 =
    c_t_1.cuda()` under `if use_cuda:`), by the text; a method also with a line that moves a tensor held
    on `self` (`self.betas.to(x.device)`, checked against `__init__` by the module pass). A def that steps
    itself (backward, an optimizer step) is a training function, not a step's helper: its own loop is the
    per-module pass's; `main`, `__init__` and `forward` are left out (an entry point, set-up, and a
    forward the module pass follows itself)."""
    found: set[tuple[str | None, str]] = set()
    trainers: set[tuple[str | None, str]] = set()
    if not _FACTORY_RE.search(text) and not _HELD_MOVE.search(text):
        return set(), set()
    owner, current, indent = None, None, None
    made: list[str] = []
    for line in text.split("\n"):
        if line[:1].strip():  # (a def, a class or any other statement at the margin)
            owner = line[6:].split("(", 1)[0].split(":", 1)[0].strip() if line.startswith("class ") else None
            current = (None, line[4:].split("(", 1)[0].strip()) if line.startswith("def ") else None
            indent, made = None, []
            continue
        if owner is not None and (method := _METHOD.match(line)) is not None:
            if indent is None:
                indent = len(method.group(1))
            if len(method.group(1)) == indent:
                current, made = (owner, method.group(2)), []
                continue
        if current is None:
            continue
        if "torch." in line and _MOVED_FACTORY.search(line):
            found.add(current)
        elif "torch." in line and (bound := _BOUND_FACTORY.match(line)):
            made.append(bound.group(1))
        elif (made and any(f"{name}.cuda(" in line or f"{name}.to(" in line for name in made)) or (
            current[0] is not None and _HELD_MOVE.search(line)
        ):
            found.add(current)
        elif TRAINS.search(line):
            trainers.add(current)
    found -= trainers
    defs = {name for where, name in found if where is None and name != "main"}  # (a script's entry point)
    methods = {(where, name) for where, name in found if where is not None and name not in _SKIPPED_METHODS}
    return defs, methods


_BOUND_FACTORY = re.compile(rf"\s+(\w+)\s*=.*{_FACTORY}")
_METHOD = re.compile(r"([ \t]+)(?:async[ \t]+)?def[ \t]+(\w+)")
_HELD_MOVE = re.compile(r"\bself\.\w+\.(?:to|cuda)\(")
_SKIPPED_METHODS = frozenset({"__init__", "forward"})


def _method_call(text: str, name: str) -> bool:
    return re.search(rf"\w\.{name}\s*\(", text) is not None
