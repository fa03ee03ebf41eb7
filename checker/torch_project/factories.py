"""PP506 across modules: a def of one module that returns a tensor made on the host (`def
gen_rand_noise(n): return torch.randn(n, 128)`) and a loop in another module that copies what it
returns to the device on every step (`noise = gen_rand_noise(b).to(device)`); and a def that makes and
moves a tensor (`torch.randperm(n).cuda()`) called by another module's training step."""

from __future__ import annotations

import collections
import functools
import re

from checker.findings import Finding
from checker.module import ModuleIndex
from checker.noqa import file_is_silenced, noqa_lines, silenced
from checker.project_files import import_word
from checker.rules.torch_common import lowered_on_toys
from checker.rules.torch_sync import FACTORIES, check_created_then_moved, host_factories, step_loop_callees
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
    """{path: def names}: module-level defs that make a torch tensor and move one (`mixup_data`, whose
    `torch.randperm(n).cuda()` runs on every step) and that a training loop or training-step def of a
    module importing them calls (`step_loop_callees`)."""
    defs: dict[str, list[tuple[str]]] = {}
    for path, text in texts.items():
        if "torch." not in text or file_is_silenced(text):
            continue
        for name in _defs_moving_factories(text):
            defs.setdefault(name, []).append((path,))
    if not defs:
        return {}
    called = re.compile(r"\b(" + "|".join(map(re.escape, defs)) + r")\s*\(")
    found: dict[str, set[str]] = {}
    stems = {import_word(e[0]) for entries in defs.values() for e in entries}
    wanted = re.compile(r"\b(?:" + "|".join(map(re.escape, {*defs, *stems})) + r")\b")
    trainers = {
        p: t
        for p, t in texts.items()
        if any(n in t for n in defs) and _STEPS.search(t) and wanted.search(import_lines(t))
    }
    for index, chosen, _ in importers(trainers, defs, called):
        for name in step_loop_callees(index) & set(chosen):
            for (path,) in chosen[name]:
                found.setdefault(path, set()).add(name)
    return found


_DEF = re.compile(r"^\s*def\s+(\w+)", re.MULTILINE)
_STEPS = re.compile(r"\.backward\(|\.step\(|autograd\.grad\(")


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


def _defs_moving_factories(text: str) -> set[str]:
    """Module-level defs with a line that makes a factory's tensor and moves it (`index =
    torch.randperm(n).cuda()`), or that binds a factory's tensor to a name a later line moves (`c_t_1 =
    Variable(torch.zeros((b, h)))`, then `c_t_1 = c_t_1.cuda()` under `if use_cuda:`), by the text: each
    such line goes to the `def` at the margin above it. A def that steps itself (backward, an optimizer
    step) is a training function, not a step's helper: its own loop is the per-module pass's."""
    found, trainers, current = set(), set(), None
    made: list[str] = []
    if not _FACTORY_RE.search(text):
        return found
    for line in text.split("\n"):
        if line[:1].strip():  # (a def, a class or any other statement at the margin)
            current = line[4:].split("(", 1)[0].strip() if line.startswith("def ") else None
            made = []
        elif current is None:
            continue
        elif "torch." in line and _MOVED_FACTORY.search(line):
            found.add(current)
        elif "torch." in line and (bound := _BOUND_FACTORY.match(line)):
            made.append(bound.group(1))
        elif made and any(f"{name}.cuda(" in line or f"{name}.to(" in line for name in made):
            found.add(current)
        elif TRAINS.search(line):
            trainers.add(current)
    found.discard("main")  # (a script's entry point, not a step's helper)
    return found - trainers


_BOUND_FACTORY = re.compile(rf"\s+(\w+)\s*=.*{_FACTORY}")


def _method_call(text: str, name: str) -> bool:
    return re.search(rf"\w\.{name}\s*\(", text) is not None
