"""Evidence read across the checked files of one project for PP505 (DataLoader batches copied to the GPU
from pageable memory).

Projects often build their loaders in a module of their own (`data_factory.py`: `def get_loader(...):
return DataLoader(...)`) and train in another, or hand a loader to a trainer class defined elsewhere
(`BERTTrainer(bert, train_dataloader=loader)`). Checked one module at a time, the maker has no loop and the
loop has no DataLoader, so PP505 says nothing. This pass, as checker/project.py does for TensorFlow
pipelines, reads the files of one project (one PATH argument) once, and parses only the modules whose text
makes a DataLoader, then only those whose text calls one of the makers, or defines one of the callees a
loader is handed to; it reports PP505 at the unpinned DataLoader when the other module copies its batches.
It also drops PP505 findings on loaders of a project dataset class whose `__getitem__` moves each item to
the device itself (the batches are on the GPU already), parsing only modules that define `__getitem__`.

`reads_across_modules` does it for PP501: a training loop that reads values on the host every step, in a
module that moves nothing to a GPU itself (a trainer or agent module) while a module of the project that
imports it does (the script that places the model and batches), is judged as if on the GPU, at medium.

`factories_across_modules` does the same for PP506: a def of one module that returns a tensor made on the
host (`def gen_rand_noise(n): return torch.randn(n, 128)`) and a loop in another module that copies what it
returns to the device on every step (`noise = gen_rand_noise(b).to(device)`).
"""

from __future__ import annotations

import ast
import collections
import functools
import os
import re

from checker.findings import Finding
from checker.module import ModuleIndex, import_of
from checker.noqa import file_is_silenced, noqa_lines, silenced
from checker.rules import all_rules
from checker.rules.torch_common import base_name, is_device_move, lowered_on_toys, uses_torch
from checker.rules.torch_data import (
    consumed_params,
    handed_made,
    handed_over,
    held_loaders,
    little_to_pin,
    loader_dataset,
    moves_batches_of,
    moves_held_batches,
    pinned_memory_message,
    returned_loaders,
    token_batches,
    unpinned,
)
from checker.rules.torch_sync import (
    FACTORIES,
    check_created_then_moved,
    check_host_sync,
    host_factories,
    host_readers,
    step_loop_callees,
)
from checker.source import read_python
from checker.testcode import is_test_path

RULE = "PP505"
_CLASS = re.compile(r"^\s*class\s+(\w+)", re.MULTILINE)
_MOVES = re.compile(r"\.(?:to|cuda)\(")


def _index(text: str, torch_only: bool = True) -> ModuleIndex | None:
    try:
        index = ModuleIndex.build(ast.parse(text))
    except (SyntaxError, ValueError, RecursionError):
        return None
    return index if not torch_only or uses_torch(index) else None


def loaders_across_modules(
    findings: list[Finding],
    projects: list[list[str]],
    codes=None,
    sources: dict | None = None,
    known: dict | None = None,
) -> list[Finding]:
    """`findings` with a PP505 finding added for each unpinned DataLoader that one module of a project makes
    and another copies the batches of, and with those on loaders of datasets that move their own items to
    the device taken out. `sources` holds the texts the per-module pass read and `known` its
    `module_facts` (by path); other files are read and parsed here, each once."""
    if codes is not None and RULE not in codes:
        return findings
    sources, known = {} if sources is None else sources, known or {}
    for files in projects:
        texts = project_texts(files, sources)
        if not texts:
            continue
        checked = {p: t for p, t in texts.items() if not is_test_path(p)}
        findings = _without_device_datasets(findings + _in_project(checked, findings, known), texts)
    return findings


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
        texts = {p: t for p, t in project_texts(files, sources).items() if not is_test_path(p)}
        findings = findings + _factories_moved(texts, findings)
    return findings


_READ_RULE = "PP501"
_READS = re.compile(r"\.(?:item|cpu|numpy|tolist)\(\)")
_TO_DEVICE = re.compile(r"\.to\(\s*(?:self\.|args\.|opt\.|config\.)?device\b")


def _places(text: str) -> bool:
    """The text puts tensors on a GPU: `.cuda(`, `torch.device("cuda"`, `.to(device)` (literal searches first:
    one regular expression over every module costs more)."""
    return (
        ".cuda(" in text
        or 'torch.device("cuda' in text
        or "torch.device('cuda" in text
        or (".to(" in text and _TO_DEVICE.search(text) is not None)
    )


def reads_across_modules(
    findings: list[Finding], projects: list[list[str]], codes=None, sources: dict | None = None
) -> list[Finding]:
    """`findings` with PP501 findings added for the training loops of modules that put nothing on a GPU
    themselves while a module of the project that imports them does (by its text: `.cuda(`, `.to(device`,
    `torch.device("cuda"`), and for loops that read a loss through another module's def (`_reader_loops`).
    Only modules whose text trains (backward, a step) and reads (`.item()`, `.cpu()`) are candidates, and
    one is parsed only when such a module imports it."""
    if codes is not None and _READ_RULE not in codes:
        return findings
    sources = {} if sources is None else sources
    for files in projects:
        texts = {p: t for p, t in project_texts(files, sources).items() if not is_test_path(p)}
        findings = findings + _reads_off_device(texts, findings)
        findings = findings + _reader_loops(texts, findings)
    return findings


_WORD = re.compile(r"\w+")
_IMPORT_LINE = re.compile(r"^[ \t]*(?:from|import)[ \t][^\n]*", re.MULTILINE)
_READER = re.compile(r"^(?: {4}|\t)return\s+\w+[\w.()\-\[\], ]*\.(?:item|tolist|numpy)\(\)", re.MULTILINE)
_LOOP_LINE = re.compile(r"training loop at line (\d+)")


def _reader_defs(text: str) -> set[str]:
    """`host_readers` of the module-level defs holding a `_READER` line, each parsed alone (a def runs from
    its `def` at the margin to the next line at the margin)."""
    found, seen = set(), set()
    for match in _READER.finditer(text):
        start = text.rfind("\ndef ", 0, match.start()) + 1
        if start == 0 and not text.startswith("def "):
            continue
        if start in seen:
            continue
        seen.add(start)
        end = _MARGIN.search(text, match.end())
        index = _index(text[start : end.start() if end else len(text)], torch_only=False)
        found |= host_readers(index) if index is not None else set()
    return found


_MARGIN = re.compile(r"^\S", re.MULTILINE)


def _reader_loops(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP501 findings for training loops that call, on a loss, a def of another module returning a host
    read of its argument (`epoch_loss += utils.to_scalar(loss)`), where the module's own pass found no
    read in that loop. Only modules whose text returns such a read are parsed for the defs, and only
    modules that name one of them and reach it by an import for the loops."""
    table: dict[str, list[tuple[str]]] = {}
    for path, text in texts.items():
        if (".item()" in text or ".tolist()" in text or ".numpy()" in text) and not file_is_silenced(text):
            for name in _reader_defs(text):
                table.setdefault(name, []).append((path,))
    if not table:
        return []
    loops = {
        (f.path, int(m.group(1)))
        for f in findings
        if f.rule == _READ_RULE and (m := _LOOP_LINE.search(f.message))
    }
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    rule = all_rules()[_READ_RULE]
    called = re.compile(r"\b(" + "|".join(map(re.escape, table)) + r")\s*\(")
    users = {
        p: t
        for p, t in texts.items()
        if _TRAINS.search(t) and ("cuda" in t or "device" in t) and not file_is_silenced(t)
    }
    found = []
    for index, chosen, path in _importers(users, table, called):
        readers = frozenset(n for n, entries in chosen.items() if entries)
        if not readers:
            continue
        check = lowered_on_toys(functools.partial(check_host_sync, readers=readers))
        noqa = noqa_lines(texts[path])
        for raw in check(index):
            loop = _LOOP_LINE.search(raw.message)
            if loop is None or (path, int(loop.group(1))) in loops or (path, raw.line) in reported:
                continue
            if silenced(noqa.get(raw.line), _READ_RULE):
                continue
            reported.add((path, raw.line))
            confidence = raw.confidence or rule.confidence
            found.append(
                Finding(
                    path, raw.line, raw.col + 1, _READ_RULE, raw.message, rule.root_cause, None, confidence
                )
            )
    return found


def _reads_off_device(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP501 findings of `check_host_sync(device_elsewhere=True)` in the candidates a placing module imports
    (its text names the candidate's file before its imports are resolved)."""
    placing, candidates = [], []
    for p, t in texts.items():
        if _places(t):
            placing.append(p)
        elif _TRAINS.search(t) and _READS.search(t) and not file_is_silenced(t):
            candidates.append(p)
    stems = {_stem(p) for p in candidates}
    by_import = collections.defaultdict(list)  # (the placing modules by the words of their import lines)
    for p in placing if candidates else ():
        for word in stems.intersection(_WORD.findall("\n".join(_IMPORT_LINE.findall(texts[p])))):
            by_import[word].append(p)
    if not by_import:
        return []
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    rule, check = (
        all_rules()[_READ_RULE],
        lowered_on_toys(functools.partial(check_host_sync, device_elsewhere=True)),
    )
    imports: dict[str, set[str]] = {}
    found = []
    for path in sorted(candidates):
        linked = [q for q in by_import.get(_stem(path), ()) if q != path and _linked(texts, path, q, imports)]
        if not linked:
            continue
        index = _index(texts[path])
        if index is None:
            continue
        noqa = noqa_lines(texts[path])
        for raw in check(index):
            if (path, raw.line) in reported or silenced(noqa.get(raw.line), _READ_RULE):
                continue
            reported.add((path, raw.line))
            confidence = raw.confidence or rule.confidence
            found.append(
                Finding(
                    path, raw.line, raw.col + 1, _READ_RULE, raw.message, rule.root_cause, None, confidence
                )
            )
    return found


_FROM = re.compile(r"^\s*from\s+(\.*)([\w.]*)\s+import\s+\(?([\w\s,*]+)", re.MULTILINE)
_IMPORT = re.compile(r"^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)", re.MULTILINE)


def _imported_paths(text: str, path: str) -> set[str]:
    """The files the module's import lines may load, as Python finds them for a script run from its own
    folder or any folder above it (`from agents.PPO import PPO` -> `<folder>/agents/PPO.py`), or relative
    to its package (`from .ppo import PPO`). A checkout of several projects links no two of them."""
    dotted: list[tuple[int, str]] = []
    for match in _FROM.finditer(text):
        level, module = len(match.group(1)), match.group(2)
        names = [n.split()[0] for n in match.group(3).split(",") if n.strip() and n.strip() != "*"]
        dotted.append((level, module))
        dotted.extend((level, f"{module}.{n}" if module else n) for n in names)
    for match in _IMPORT.finditer(text):
        dotted.extend((0, part.split()[0]) for part in match.group(1).split(","))
    folder, found = os.path.dirname(path), set()
    for level, module in dotted:
        rel = module.replace(".", os.sep)
        if level:
            bases = [os.path.normpath(os.path.join(folder, *[".."] * (level - 1)))]
        else:
            bases, at = [], folder
            while at and at not in bases:
                bases.append(at)
                at = os.path.dirname(at)
        for base in bases:
            found.add(os.path.join(base, rel + ".py"))
            found.add(os.path.join(base, rel, "__init__.py"))
    return found


def _stem(path: str) -> str:
    """The last name an import of the file ends with: its own, or its folder's for an `__init__.py`."""
    name = os.path.basename(path)[: -len(".py")]
    return os.path.basename(os.path.dirname(path)) if name == "__init__" else name


def _linked(texts: dict[str, str], a: str, b: str, imports: dict[str, set[str]]) -> bool:
    """Module b imports module a (the script that places the model imports the trainer or agent; a module
    that only imports a helper with GPU code may well train on the CPU)."""
    if b not in imports:
        imports[b] = _imported_paths(texts[b], b)
    return a in imports[b]


_FACTORY_RULE = "PP506"
_FACTORY = r"torch\.(?:" + "|".join(sorted(n[len("torch.") :] for n in FACTORIES)) + r")\("
# (a factory's call; one whose tensor is moved in the same line)
_FACTORY_RE = re.compile(_FACTORY)
_MOVED_FACTORY = re.compile(rf"{_FACTORY}.*\.(?:cuda|to)\(")


def _factories_moved(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP506 findings that need two modules: a copy of what another module's def made on the host
    (`_outside_factories`), and a copy made in a def that another module's training loop calls
    (`_stepped_defs`). Each module concerned is checked once more with that knowledge, and only its
    findings not reported before are kept."""
    indexes: dict[str, ModuleIndex] = {}
    outside = _outside_factories(texts, indexes)
    stepped = _stepped_defs(texts, indexes)
    reported = {(f.path, f.line) for f in findings if f.rule == _FACTORY_RULE}
    rule = all_rules()[_FACTORY_RULE]
    found = []
    for path in sorted(set(outside) | set(stepped)):
        index = indexes.get(path) or _index(texts[path])
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
            confidence = raw.confidence or rule.confidence
            found.append(
                Finding(
                    path, raw.line, raw.col + 1, _FACTORY_RULE, raw.message, rule.root_cause, None, confidence
                )
            )
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
    users = {p: moved for p, t in texts.items() if _MOVES.search(t) and (moved := _moved_results(t, named))}
    makers: dict[str, list[tuple[str, str]]] = {}
    for path, names in candidates.items():
        if not any(n in moved for p, moved in users.items() if p != path for n in names):
            continue  # (no other module moves what they return)
        index = _index(texts[path])
        for name, factory in (host_factories(index, names) if index is not None else {}).items():
            makers.setdefault(name, []).append((path, factory))
    if not makers:
        return {}
    defined = collections.Counter(n for t in texts.values() for n in _DEF.findall(t) if n in makers)
    called = re.compile(r"\b(" + "|".join(map(re.escape, makers)) + r")\s*\(")
    found = {}
    movers = {p: texts[p] for p, moved in users.items() if any(n in makers for n in moved)}
    for index, chosen, path in _importers(movers, makers, called):
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
                if _MOVES.search(text, start, end):
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
    stems = {os.path.basename(e[0])[: -len(".py")] for entries in defs.values() for e in entries}
    wanted = re.compile(r"\b(?:" + "|".join(map(re.escape, {*defs, *stems})) + r")\b")
    trainers = {
        p: t
        for p, t in texts.items()
        if any(n in t for n in defs) and _STEPS.search(t) and _imports_any(t, wanted)
    }
    for index, chosen, _ in _importers(trainers, defs, called):
        for name in step_loop_callees(index) & set(chosen):
            for (path,) in chosen[name]:
                found.setdefault(path, set()).add(name)
    return found


_DEF = re.compile(r"^\s*def\s+(\w+)", re.MULTILINE)
_STEPS = re.compile(r"\.backward\(|\.step\(|autograd\.grad\(")
# (a def that trains: `autograd.grad` alone is a step's helper, such as a gradient penalty)
_TRAINS = re.compile(r"\.backward\(|\.step\(")


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
        elif _TRAINS.search(line):
            trainers.add(current)
    found.discard("main")  # (a script's entry point, not a step's helper)
    return found - trainers


_BOUND_FACTORY = re.compile(rf"\s+(\w+)\s*=.*{_FACTORY}")


def _imports_any(text: str, wanted: re.Pattern) -> bool:
    """An import line of the text names a def or module `wanted` matches (`from utils import mixup_data`,
    `import utils`, `from utils import *`). (A method call by the same name, `model.train()`, does not
    count: these are module-level defs.)"""
    return bool(wanted.search("\n".join(line for line in text.split("\n") if "import" in line)))


def _method_call(text: str, name: str) -> bool:
    return re.search(rf"\w\.{name}\s*\(", text) is not None


def module_facts(index: ModuleIndex) -> tuple[list, list, list, set] | None:
    """What the project pass needs of a module that makes DataLoaders, as plain tuples (no tree kept):
    makers [(def name, line, column, where returned)] of unpinned loaders a def returns, handoffs
    [(line, column, callee, parameter, module imported from)] of unpinned loaders passed to an imported def
    or class, and held [(class, attribute, line, column)] of unpinned loaders a class keeps on its
    instances (`self.train = DataLoader(...)`); and little, the (line, column) of those loaders whose batches
    are token ids or data held in memory (`little_to_pin`: reported at medium, the others at high). The
    per-module pass computes them from its own index
    (checker/walker.py) so that this pass does not parse the module again; None for a module that does not
    use torch."""
    if not uses_torch(index):
        return None
    made = [
        (name, call, where)
        for name, loaders in returned_loaders(index).items()
        for call, where in loaders
        if unpinned(call, index)
    ]
    makers = [(name, call.lineno, call.col_offset, where) for name, call, where in made]
    handed = [
        (call, callee, param, module)
        for call, callee, param in handed_over(index)
        if (module := _import_module(index, _owner(callee))) is not None
        and not token_batches(index, call)  # (a few KB of token ids a step, as the module's own pass says)
    ]
    handoffs = [
        (call.lineno, call.col_offset, callee, param, module) for call, callee, param, module in handed
    ]
    kept = held_loaders(index)
    held = [(owner, attr, call.lineno, call.col_offset) for call, owner, attr in kept]
    calls = [c for _, c, _ in made] + [c for c, _, _, _ in handed] + [c for c, _, _ in kept]
    little = {(c.lineno, c.col_offset) for c in calls if little_to_pin(index, c)}
    return makers, handoffs, held, little


def _in_project(texts: dict[str, str], findings: list[Finding], known: dict) -> list[Finding]:
    reported = {(f.path, f.line) for f in findings if f.rule == RULE}
    makers: dict[str, list[tuple[str, int, int, int]]] = {}
    handoffs: dict[str, list[tuple[str, int, int, str | int, str]]] = {}
    held: dict[str, list[tuple[str, int, int, str]]] = {}
    little: dict[str, set[tuple[int, int]]] = {}
    for path, text in texts.items():
        if "DataLoader" not in text or file_is_silenced(text):
            continue
        if path in known:
            found = known[path]
        else:
            index = _index(text)
            found = None if index is None else module_facts(index)
        if found is None:
            continue
        little[path] = found[3]  # (loaders of token ids or of data held in memory: not at high)
        for name, line, col, where in found[0]:
            if (path, line) not in reported:
                makers.setdefault(name, []).append((path, line, col, where))
        for line, col, callee, param, module in found[1]:
            if (path, line) not in reported:
                handoffs.setdefault(callee, []).append((path, line, col, param, module))
        for owner, attr, line, col in found[2]:
            if (path, line) not in reported:
                held.setdefault(owner, []).append((path, line, col, attr))
    made, handoffs = _made_elsewhere(texts, makers, handoffs)
    trained = made | _used_elsewhere(texts, handoffs) | _held_elsewhere(texts, held)
    rule = all_rules()[RULE]
    found = []
    named = {}
    for path, line, col, name in sorted(trained):
        named.setdefault((path, line, col), name)  # one finding a loader, whatever the names it goes by
    for (path, line, col), name in named.items():
        if silenced(noqa_lines(texts[path]).get(line), RULE):
            continue
        message = pinned_memory_message(name)
        level = "medium" if (line, col) in little.get(path, ()) else "high"  # (torch-calibrate31)
        found.append(Finding(path, line, col + 1, RULE, message, rule.root_cause, None, level))
    return found


def _made_elsewhere(texts: dict[str, str], makers: dict, handoffs: dict) -> tuple[set, dict]:
    """(path, line, column, name) of the makers' loaders that a module importing the maker trains on; and
    `handoffs` with the makers' loaders that such a module hands on to a def or class it imports (`Solver(config,
    train_loader)`, the loop in a third module) added."""
    if not makers:
        return set(), handoffs
    handoffs = {name: list(entries) for name, entries in handoffs.items()}
    called = re.compile(r"\b(" + "|".join(map(re.escape, makers)) + r")\s*\(")
    trained = set()
    # (a main.py that only hands the loaders on imports no torch)
    for index, chosen, _ in _importers(texts, makers, called, torch_only=False):
        where = {n: {m[3] for m in entries} for n, entries in chosen.items() if entries}
        moved = moves_batches_of(index, where)
        for name in moved:
            trained.update((p, line, col, f"{name}()") for p, line, col, _ in chosen[name])
        unmoved = {n: w for n, w in where.items() if n not in moved}
        for maker, at, callee, param in handed_made(index, unmoved):
            module = _import_module(index, _owner(callee))
            if module is not None:
                entries = handoffs.setdefault(callee, [])
                entries.extend((p, line, col, param, module) for p, line, col, w in chosen[maker] if w == at)
    return trained, handoffs


def _used_elsewhere(texts: dict[str, str], handoffs: dict) -> set[tuple[str, int, int, str]]:
    """(path, line, column, name) of the loaders handed to a def or class of another module of the project
    (`BERTTrainer(bert, train_dataloader=train_loader)`) whose loops copy that parameter's batches. Only the
    modules whose text defines one of those names are parsed."""
    if not handoffs:
        return set()
    owners: dict[str, list[str]] = {}  # (`Trainer.train`, a method of an imported class: its class's def)
    for callee in handoffs:
        owners.setdefault(_owner(callee), []).append(callee)
    defined = re.compile(r"^\s*(?:class|def)\s+(" + "|".join(map(re.escape, owners)) + r")\b", re.MULTILINE)
    trained = set()
    for path, text in texts.items():
        names = {
            n
            for owner in defined.findall(text)
            for n in owners[owner]
            if any(p != path and _names_file(module, path) for p, _, _, _, module in handoffs[n])
        }
        if not names:
            continue
        index = _index(text)
        if index is None:
            continue
        for name in names:
            found = consumed_params(index, name)
            if found is None:
                continue
            params, consumed = found
            for loader_path, line, col, param, module in handoffs[name]:
                if loader_path == path or not _names_file(module, path):
                    continue
                named = params[param] if isinstance(param, int) and param < len(params) else param
                if named in consumed:
                    trained.add((loader_path, line, col, f"{name}(..., {named})"))
    return trained


def _held_elsewhere(texts: dict[str, str], held: dict) -> set[tuple[str, int, int, str]]:
    """(path, line, column, name) of the loaders a class keeps on its instances (`self.train =
    DataLoader(...)` in `class Cifar`) that a module importing the class iterates and copies to the device
    (`dataset = Cifar(...)`, `for batch in dataset.train:`; or a class derived from it, `for data, label in
    self.data_loader['train']:`). Only modules whose text names one of the classes and imports it are
    parsed."""
    if not held:
        return set()
    named = re.compile(r"\b(" + "|".join(map(re.escape, held)) + r")\b")
    trained = set()
    for index, chosen, _ in _importers(texts, held, named):
        attrs = {n: {e[3] for e in entries} for n, entries in chosen.items() if entries}
        for owner, attr in moves_held_batches(index, attrs):
            trained.update(
                (p, line, col, f"{owner}(...).{attr}") for p, line, col, a in chosen[owner] if a == attr
            )
    return trained


def _importers(texts: dict[str, str], table: dict, pattern: re.Pattern, torch_only: bool = True):
    """(index, chosen, path) of each module whose text names (by `pattern`) and can reach a name of `table`
    that another module defines; `chosen` maps each such name to the entries (path first) of the modules it
    imports it from. Only those modules are parsed."""
    for path, text in texts.items():
        names = set(pattern.findall(text)) if any(n in text for n in table) else set()
        names = {n for n in names if any(e[0] != path for e in table[n]) and _reaches(text, n)}
        if not names:
            continue
        index = _index(text, torch_only=torch_only)
        if index is not None:
            chosen = {n: _imported(index, n, path, [e for e in table[n] if e[0] != path]) for n in names}
            yield index, chosen, path


def _owner(callee: str) -> str:
    """The def or class a handoff's callee names (`Trainer` of `Trainer.train`)."""
    return callee.partition(".")[0]


def _reaches(text: str, name: str) -> bool:
    """The text imports `name` (`from data import get_loader`, or every name: `from utils import *`) or
    calls it on a module (`datasets.name(`): it can reach another module's def of that name."""
    return bool(
        re.search(rf"import[^\n]*\b{name}\b|\w\.{name}\s*\(|^from\s+[\w.]+\s+import\s+\*", text, re.M)
    )


def _names_file(module: str, path: str) -> bool:
    """`from a.b import x` can mean the file: .../a/b.py, or a module of the package .../a/b/ (re-exported
    by its __init__); a relative import (`from . import x`, module "") any file."""
    tail = module.replace(".", "/").strip("/")
    return not tail or path[: -len(".py")].endswith("/" + tail) or path.rsplit("/", 1)[0].endswith("/" + tail)


def _import_module(index: ModuleIndex, name: str) -> str | None:
    """The module a name is imported from (`from data.factory import name` -> "data.factory"); for a name
    the module reaches through a module it imports (`import helpers`, `from train_utils import
    train_eval_utils as utils`), the module it calls the name on (`helpers.name(...)`: "helpers",
    `utils.name(...)`: "train_utils.train_eval_utils")."""
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
            if node.module:
                return f"{node.module}.{alias.name}"
    return None


def _imported(index: ModuleIndex, name: str, user: str, entries: list) -> list:
    """The makers of `name` that the module at `user` imports: those whose file the import names (`from
    data.factory import name` -> .../data/factory.py or a package .../data/factory/; `import datasets` then
    `datasets.name(...)` -> .../datasets.py), and of several, the nearest to `user` (a repository of
    lectures, each with its own helper.py)."""
    module = _import_module(index, name)
    if module is not None:
        named = [e for e in entries if _names_file(module, e[0])]
    else:
        modules = [a.name for node in index.imports if isinstance(node, ast.Import) for a in node.names]
        modules += [  # `from utils import *`
            node.module
            for node in index.imports
            if isinstance(node, ast.ImportFrom) and node.module and any(a.name == "*" for a in node.names)
        ]
        named = [e for e in entries if any(m and _names_file(m, e[0]) for m in modules)]
    if len(named) <= 1:
        return named
    shared = {e[0]: len(os.path.commonpath([e[0], user])) for e in named}
    best = max(shared.values())
    return [e for e in named if shared[e[0]] == best]


def _without_device_datasets(findings: list[Finding], texts: dict[str, str]) -> list[Finding]:
    """`findings` less the PP505 findings on loaders of a dataset class of the project whose `__getitem__`
    moves each item to the device itself (`signal = signal.to(self.device)`): its batches are on the GPU
    already, and pinning CUDA tensors fails. (PP504 stays: decoding in the main process is still read a
    clear case, though workers need the move taken out of the dataset first.) Only modules whose text
    defines `__getitem__` are parsed for such classes, and only modules with a PP505 finding that name one
    for the loaders."""
    reported: dict[str, set[int]] = {}
    for f in findings:
        if f.rule == RULE and f.cell is None and f.path in texts:
            reported.setdefault(f.path, set()).add(f.line)
    if not reported:
        return findings
    named = {p: set(_CLASS.findall(t)) for p, t in texts.items() if "__getitem__" in t and _MOVES.search(t)}
    wanted = {
        c
        for names in named.values()
        for c in names
        if any(c in texts[p] and re.search(rf"\b{c}\s*\(", texts[p]) for p in reported)
    }
    classes = set()
    for path, names in named.items():
        if names & wanted and (index := _index(texts[path])) is not None:
            classes |= _device_item_classes(index)
    if not classes:
        return findings
    dropped: set[tuple[str, int]] = set()
    for path, lines in reported.items():
        if not any(c in texts[path] for c in classes):
            continue
        index = _index(texts[path])
        if index is not None:
            dropped |= {(path, line) for line in _loaders_of_classes(index, classes, lines)}
    return [f for f in findings if not (f.rule == RULE and (f.path, f.line) in dropped)]


def _device_item_classes(index: ModuleIndex) -> set[str]:
    found = set()
    for name, methods in index.class_methods.items():
        getitem = methods.get("__getitem__")
        if getitem is not None and any(
            isinstance(n, ast.Call) and is_device_move(n, index) for n in ast.walk(getitem)
        ):
            found.add(name)
    return found


def _loaders_of_classes(index: ModuleIndex, classes: set[str], lines: set[int]) -> set[int]:
    """The lines among `lines` whose DataLoader's dataset is an instance of one of `classes`: made inline,
    bound to a name, or a def's parameter that a call of the def gives such a name."""
    instances = {
        base_name(t)
        for node in index.call_assignments
        if base_name(node.value.func) in classes
        for t in node.targets
    }
    found = set()
    for site in index.calls:
        node = site.node
        if node.lineno not in lines:
            continue
        dataset = loader_dataset(node)
        if dataset is None:
            continue
        if (
            isinstance(dataset, ast.Call)
            and base_name(dataset.func) in classes
            or base_name(dataset) in instances
            or _given_instance(index, node, dataset, instances)
        ):
            found.add(node.lineno)
    return found


def _given_instance(index: ModuleIndex, call: ast.Call, dataset: ast.AST, instances: set[str]) -> bool:
    """The dataset is a parameter of the def that makes the loader, and a call of that def passes an
    instance (`create_data_loader(usd, BATCH_SIZE)` after `usd = UrbanSoundDataset(...)`)."""
    if not isinstance(dataset, ast.Name):
        return False
    for name, function in index.module_functions.items():
        start, end = function.lineno, function.end_lineno or function.lineno
        if not start <= call.lineno <= end:
            continue
        params = [a.arg for a in function.args.args]
        if dataset.id not in params:
            return False
        position = params.index(dataset.id)
        for site in index.calls:
            node = site.node
            if base_name(node.func) == name:
                given = node.args[position] if len(node.args) > position else None
                given = next((k.value for k in node.keywords if k.arg == dataset.id), given)
                if given is not None and base_name(given) in instances:
                    return True
        return False
    return False
