"""PP501 across modules: a training loop that reads values on the host every step, in a module that
moves nothing to a GPU itself (a trainer or agent module) while a module of the project that imports it
does (the script that places the model and batches), judged as if on the GPU, at medium; and a loop that
reads a loss through a def of another module (`epoch_loss += utils.to_scalar(loss)`)."""

from __future__ import annotations

import ast
import bisect
import collections
import dataclasses
import functools
import os
import re

from checker.findings import Finding, RawFinding
from checker.module import LOOP_TYPES, ModuleIndex, assigned_names, parameter_names
from checker.noqa import file_is_silenced, noqa_lines, silenced, silenced_at
from checker.project_files import defining_texts, import_word, import_words, module_file, module_paths
from checker.rules import rule_selected, torch_history
from checker.rules.torch_common import (
    default_branch,
    direct_calls,
    facts,
    lowered_on_toys,
    method_name,
    nests_loop,
    uses_torch,
)
from checker.rules.torch_sync import (
    after_early_return,
    after_warmup,
    check_host_sync,
    cpu_loader_loop,
    evaluation_read_loops,
    factory_read,
    full_batch_epochs,
    handed_methods,
    host_readers,
    imported_names,
    instance_methods,
    logic_reads_host,
    loop_bindings,
    loss_def_read_places,
    mode_test,
    module_cpu_names,
    more_reads,
    moved_to_host,
    numpy_of_host_tensor,
    other_read_lines,
    parameter_reads,
    reading_methods,
    stepping_returns,
    term_test,
    updates_weights,
)
from checker.torch_project import wide_reads
from checker.torch_project.common import (
    TRAINS,
    checked_texts,
    import_aliases,
    importers,
    margin_starts,
    parse_index,
    project_finding,
    project_texts,
)

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
        or (".device" in text and _to_module_device(text))
    )


# (torch-fix144) `.to(hp.device)`: a device named by an attribute of some receiver
_TO_HELD_DEVICE = re.compile(r"\.to\(\s*([A-Za-z_]\w*)\.device\b(?!\s*\()")


def _to_module_device(text: str) -> bool:
    """(torch-fix144) `seq2seq.to(hp.device)` with `import hyperparams as hp`: the device a settings module
    of the project names, taken for a GPU device when that module is imported whole (its text is not read;
    minimal-nmt's `train.py`, hold-out 47); not `x.to(pred.device)`, another tensor's device, nor a device
    built in place, `x.to(torch.device("cpu"))` (session 27 reread)."""
    for word in {m.group(1) for m in _TO_HELD_DEVICE.finditer(text)} - {"torch"}:  # not torch.device("cpu")
        if re.search(rf"^\s*import\s+[\w.]+\s+as\s+{word}\b|^\s*import\s+{word}\b", text, re.MULTILINE):
            return True
    return False


def reads_across_modules(
    findings: list[Finding], projects: list[list[str]], codes=None, sources: dict | None = None
) -> list[Finding]:
    """`findings` with PP501 findings added for the training loops of modules that put nothing on a GPU
    themselves while a module of the project that imports them does (by its text: `.cuda(`, `.to(device`,
    `torch.device("cuda"`), and for loops that read a loss through another module's def (`_reader_loops`).
    Only modules whose text trains (backward, a step) and reads (`.item()`, `.cpu()`) are candidates, and
    one is parsed only when such a module imports it."""
    sources = {} if sources is None else sources
    keep, read = rule_selected(codes, _KEEP_RULE), rule_selected(codes, _READ_RULE)
    projects_texts = (
        [checked_texts(project_texts(files, sources)) for files in projects] if keep or read else []
    )
    if keep:
        for texts in projects_texts:
            findings = findings + _meters_across_modules(texts, findings)
    if not read:
        return findings
    for texts in projects_texts:
        findings = _unplaced_loss_defs(texts, findings)
        findings = findings + _reads_off_device(texts, findings)
        indexes: dict = {}  # (path -> index: a module both passes below parse is parsed once)
        findings = findings + _reader_loops(texts, findings, indexes)
        findings = findings + _stepper_loops(texts, findings)
        findings = findings + _handed_stepper_loops(texts, findings, indexes)
        findings = findings + _untorched_modules(texts, findings)
        findings = findings + _step_called_reads(texts, findings, indexes)
        findings = findings + _held_stepper_reads(texts, findings, indexes)
    return findings


_IMPORTS_TORCH = re.compile(r"^[ \t]*(?:import|from)[ \t]+torch(?:vision)?\b", re.MULTILINE)


_KEEP_RULE = "PP502"


def _unplaced_loss_defs(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """`findings` without the medium loss-def reads (`_loss_def_reads` in a module that places nothing) of a
    project none of whose modules puts tensors on a GPU (`_places`): a loss def's `.item()` then waits for no
    device (review22 item 2: a `compute_loss` returning `loss.item()` for a CPU-only Linear). Where another
    module places, the medium finding stays (IQ-Learn's `iq_loss`)."""
    if any(_places(text) for text in texts.values()):
        return findings
    candidates = {f.path for f in findings if f.rule == _READ_RULE and f.confidence == "medium"}
    places = {
        (path, *place)
        for path in candidates & texts.keys()
        if (index := parse_index(texts[path], torch_only=False)) is not None
        for place in loss_def_read_places(index)
    }
    return [
        f
        for f in findings
        if not (
            f.rule == _READ_RULE
            and f.confidence == "medium"
            and f.cell is None
            and (f.path, f.line, f.column) in places
        )
    ]


def _meters_across_modules(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """(torch-fix104) PP502, at medium, for a training loop that hands its undetached loss to the `update` of
    a meter whose class another module of the project defines and keeps the value as is (`self.sum += val *
    n`, `keeping_classes`: align_uniform's `loss_meter.update(loss, x.shape[0])` with `AverageMeter` in
    `util.py`): the meter holds every step's graph. The module pass sees only its own classes. Only modules
    whose text makes an instance of such a class (`AverageMeter(`) and defines no class of that name are
    parsed for their loops."""
    keeping: dict[str, set[str]] = collections.defaultdict(set)  # class name -> the modules defining it
    for path, text in texts.items():
        if "def update(" not in text or file_is_silenced(text):
            continue
        index = parse_index(text, torch_only=False)
        if index is not None:
            for name in torch_history.keeping_classes(index):
                keeping[name].add(path)
    if not keeping:
        return []
    reported = {(f.path, f.line) for f in findings if f.rule == _KEEP_RULE}
    found = []
    for path, text in sorted(texts.items()):
        if ".backward(" not in text:  # (first: the word search below runs per meter class and text)
            continue
        own = _class_spans(text)
        named = [c for c in keeping if c not in own and re.search(rf"\b{c}\b", text)]
        if not named or file_is_silenced(text):
            continue
        index = parse_index(text)
        if index is None:
            continue
        used = _imported_meters(index, path, keeping, set(texts))
        if not used:
            continue
        for raw in torch_history.check_accumulated_history(index, used):
            if (path, raw.line) in reported or silenced_at(text, raw.line, _KEEP_RULE):
                continue
            reported.add((path, raw.line))
            found.append(project_finding(path, raw, _KEEP_RULE))
    return found


def _imported_meters(
    index: ModuleIndex, path: str, keeping: dict[str, set[str]], files: set[str]
) -> frozenset[str]:
    """The names under which the module at `path` imports a `keeping` class from a module that defines it
    (review22 item 1): `Meter` for `from util import AverageMeter as Meter`; the class name itself for `from
    util import *` or `import util` (then `util.AverageMeter(...)`). A class of the same name imported from
    another module (`from meters import AverageMeter`, whose `update` stores `float(val)`) is not one."""
    names = set()
    for node in index.imports:
        for alias in node.names:
            if isinstance(node, ast.ImportFrom):
                source = module_file(node.module or "", path, node.level, files)
                if alias.name == "*":
                    names.update(c for c, makers in keeping.items() if source in makers)
                elif source in keeping.get(alias.name, ()):
                    names.add(alias.asname or alias.name)
            else:
                source = module_file(alias.name, path, 0, files)
                names.update(c for c, makers in keeping.items() if source in makers)
    return frozenset(names)


def _untorched_modules(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP501 findings of the module pass (`check_host_sync`) for modules it skipped because they name no
    torch (`uses_torch`: no import of it, no `torch.` name), while their text backpropagates, steps and
    reads on the host and they import a module of the project that does import torch: a trainer whose
    tensors all come from the project's own code (deep-person-reid's `ImageSoftmaxEngine(Engine)` in
    `torchreid/engine/image/softmax.py` runs `loss.backward()`, `self.optimizer.step()` and returns
    `loss.item()` every step, importing only `torchreid` and `..engine`); or that such a module imports (a
    mixin of the trainer class it builds, `_imported_by`)."""
    candidates = [
        p
        for p, t in texts.items()
        if ".backward(" in t and ".step(" in t and _READS.search(t) and not _IMPORTS_TORCH.search(t)
    ]
    if not candidates:
        return []
    torch_modules = {p for p, t in texts.items() if _IMPORTS_TORCH.search(t)}
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    check = lowered_on_toys(check_host_sync)
    found = []
    for path in candidates:
        text = texts[path]
        if file_is_silenced(text):
            continue
        if not (_imported_paths(text, path) & torch_modules or _imported_by(path, torch_modules, texts)):
            continue
        index = parse_index(text, torch_only=False)
        if index is None or uses_torch(index):
            continue  # (the module pass judged it)
        found += _new_reads(check, index, path, text, reported)
    return found


def _imported_by(path: str, modules: set[str], texts: dict[str, str]) -> bool:
    """A module of `modules` imports the one at `path` (torch-fix52: AtlasNet's `training/trainer.py`, which
    imports torch, builds `class Trainer(..., TrainerIteration, ...)` from `training/trainer_iteration.py`, a
    mixin that names no torch but runs the step: `self.data.loss.item()`, `backward()`,
    `self.optimizer.step()`). Their import lines are searched for the file's word before any is resolved."""
    word = import_word(path)
    return any(
        word in import_words(texts[p]) and path in _imported_paths(texts[p], p)
        for p in modules
        if p != path and word in texts[p]
    )


_WORD = re.compile(r"\w+")
_READER = re.compile(r"^(?: {4}|\t)return\s+\w+[\w.()\-\[\], ]*\.(?:item|tolist|numpy)\(\)", re.MULTILINE)
_LOOP_LINE = re.compile(r"training loop at line (\d+)")


def _reading_def_spans(text: str) -> dict[str, tuple[int, int]]:
    """The module-level defs whose text holds a host read, by name: where each runs, from its `def` at the
    margin to the next line at the margin (found from the text alone)."""
    return _reading_spans(text)[0]


@functools.lru_cache(maxsize=512)
def _reading_spans(text: str) -> tuple[dict, dict]:
    """The module-level defs and classes whose text (from the `def` or `class` line at the margin to the
    next line at the margin) holds a host read, by name, with where each runs."""
    reads = sorted(at for word in _READ_WORDS for at in _found_at(text, word))
    defs, classes = {}, {}
    if not reads:
        return defs, classes
    starts = margin_starts(text) + [len(text)]
    for start, stop in zip(starts, starts[1:], strict=False):
        head = _TOP_NAME.match(text, start)
        at = bisect.bisect_left(reads, start)
        if head is not None and at < len(reads) and reads[at] < stop:
            (defs if head.group(1) == "def" else classes)[head.group(2)] = (start, stop)
    return defs, classes


@functools.lru_cache(maxsize=512)
def _relay_defs(text: str) -> dict[str, tuple[str, ...]]:
    """(torch-fix151) The module-level defs with no host read of their own that call reading module-level defs
    of their module by name, with those defs: a metric entry point whose helpers read (`evaluate(logits,
    targets, k)` returning `get_recall(...)` and `get_mrr(...)`, the latter `mrr.item()`: NARM's `metric.py`
    and pyGRU4REC's `modules/evaluate.py`, hold-out 48). A loop that calls the entry point runs the helpers'
    reads, so `_step_called_reads` files the entry point under the helpers' spans. One named for evaluation
    only when it runs no loop (`loopless_eval_method`: a metric of the batch handed in, not a pass over data);
    never one named for other work (`_NOT_STEP_CALLEE`) or that steps or loops while (`_NOT_READER`)."""
    defs = _reading_spans(text)[0]
    if not defs:
        return {}
    found: dict[str, tuple[str, ...]] = {}
    starts = margin_starts(text) + [len(text)]
    for start, stop in zip(starts, starts[1:], strict=False):
        head = _TOP_NAME.match(text, start)
        if head is None or head.group(1) != "def" or head.group(2) in defs:
            continue
        name, body = head.group(2), text[start:stop]
        if _NOT_STEP_CALLEE.search(name) and not wide_reads.loopless_eval_method(name, body):
            continue
        if _NOT_READER.search(body):
            continue
        callees = tuple(c for c in defs if c != name and re.search(rf"(?<![\w.]){c}\s*\(", body))
        if callees and not any(_NOT_STEP_CALLEE.search(c) for c in callees):
            found[name] = callees
    return found


def _reader_defs(text: str, spans: dict[str, tuple[int, int]], names: set[str]) -> set[str]:
    """Of the defs `names` (`_reading_def_spans`), those that return a host read of their argument
    (`host_readers`: `return x.data.cpu().numpy()`) or read a parameter anywhere (`parameter_reads`:
    `logger.logkv_mean(key, values.mean().item())` over a dict of losses), each parsed alone."""
    found = set()
    for name in names:
        start, end = spans[name]
        index = parse_index(text[start:end], torch_only=False)
        if index is None:
            continue
        found |= host_readers(index)
        found |= {
            n
            for n, f in index.module_functions.items()
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and parameter_reads(f)
        }
    return found & names


_TOP_NAME = re.compile(r"(def|class)\s+(\w+)")
# (a def that steps, or loops while: a step or an evaluation, not a reader; its loops: `parameter_reads`)
_NOT_READER = re.compile(r"\.backward\(|^\s+while\b", re.MULTILINE)
_CALLED = re.compile(r"\b(\w++)\s*+\(")  # (`\b`, `++`: no retry inside a word, no backtracking)


@functools.lru_cache(maxsize=512)
def _called_words(text: str) -> frozenset[str]:
    """The words the text calls (`name(`), and the imported names it calls under another
    (`from train.metrics import accuracy_SBM as accuracy`, then `accuracy(...)`: accuracy_SBM)."""
    called = frozenset(_CALLED.findall(text))
    aliases = import_aliases(text)
    return called | {name for name, alias in aliases.items() if alias & called}


def _reader_loops(
    texts: dict[str, str], findings: list[Finding], indexes: dict | None = None
) -> list[Finding]:
    """PP501 findings for training loops that hand a loss or a step's tensor to code of another module that
    reads it on the host: a def returning a host read of its argument (`epoch_loss +=
    utils.to_scalar(loss)`), or a method of a project class that the loop's module makes an instance of
    (`meters = MetricLogger()`, then `meters.update(**loss_dict)`; `result = Result()`, then
    `result.evaluate(pred.data, target.data)`), where the module's own pass found no read in that loop.
    Only modules whose text reads on the host are parsed for the defs and classes, and only modules that
    name one of them and reach it by an import for the loops."""
    users = {
        p: t
        for p, t in texts.items()
        if TRAINS.search(t) and ("cuda" in t or "device" in t) and not file_is_silenced(t)
    }
    if not users:
        return []
    wanted = set().union(*(_called_words(t) for t in users.values()))
    spans: dict[str, dict[str, tuple[int, int]]] = {}
    named: dict[str, list[tuple[str]]] = {}  # (defs holding a read, by the text alone)
    classes: dict[str, list[tuple[str]]] = {}
    for path, text in texts.items():
        if not any(word in text for word in _READ_WORDS) or file_is_silenced(text):
            continue
        spans[path] = {
            n: (a, b)
            for n, (a, b) in _reading_def_spans(text).items()
            if n in wanted and not _NOT_READER.search(text, a, b)
        }
        for name in spans[path]:
            named.setdefault(name, []).append((path,))
        for name in _reading_class_spans(text).keys() & wanted:
            classes.setdefault(name, []).append((path,))
    table = _verified_readers(users, named, spans, texts)
    if not table and not classes:
        return []
    chosen_readers: dict[str, tuple] = {}
    indexes = {} if indexes is None else indexes  # (path -> index: a user is parsed once, kept for later)
    if table:  # (a reader is called by its name or imported under another: `import accuracy_SBM as accuracy`)
        called = re.compile(r"\b(" + "|".join(map(re.escape, table)) + r")(?:\s*\(|\s+as\s+\w)")
        for index, chosen, path in importers(_loading(users, table, texts), table, called, parsed=indexes):
            names = {n for n, entries in _loaded(chosen, texts, path).items() if entries}
            if names:
                chosen_readers[path] = (index, names)
    for path, text in users.items():  # (a def of the loop's own module: `log_loss_dict(...)`)
        own = {n for n, entries in table.items() if (path,) in entries and text.count(f"{n}(") > 1}
        if own:
            if path not in indexes:
                indexes[path] = parse_index(text)
            index = indexes[path]
            if index is not None:
                chosen_readers[path] = (index, chosen_readers.get(path, (index, set()))[1] | own)
    if classes:
        made = re.compile(r"\b(" + "|".join(map(re.escape, classes)) + r")\s*\(")
        parsed: dict[tuple[str, str], set[str]] = {}
        for index, chosen, path in importers(_loading(users, classes, texts), classes, made, parsed=indexes):
            names = _instance_readers(index, _loaded(chosen, texts, path), texts, parsed)
            if names:
                old = chosen_readers.get(path, (index, set()))
                chosen_readers[path] = (old[0], old[1] | names)
    if not chosen_readers:
        return []
    loops = {
        (f.path, int(m.group(1)))
        for f in findings
        if f.rule == _READ_RULE and (m := _LOOP_LINE.search(f.message))
    }
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    found = []
    for path, (index, names) in chosen_readers.items():
        aliases = import_aliases(texts[path])
        names = names | {a for n in names for a in aliases.get(n, ())}
        check = lowered_on_toys(functools.partial(check_host_sync, readers=frozenset(names)))
        noqa = noqa_lines(texts[path])
        for raw in check(index):
            loop = _LOOP_LINE.search(raw.message)
            if loop is None or (path, int(loop.group(1))) in loops or (path, raw.line) in reported:
                continue
            if silenced(noqa.get(raw.line), _READ_RULE):
                continue
            reported.add((path, raw.line))
            found.append(project_finding(path, raw, _READ_RULE))
    return found


def _verified_readers(users: dict[str, str], named: dict, spans: dict, texts: dict[str, str]) -> dict:
    """Of the defs `named` by the text, those that read on the host (`_reader_defs`), parsed only where a
    user calls one that its imports can load, or calls one of its own module more than once."""
    if not named:
        return {}
    needed: dict[str, set[str]] = {}
    for user, text in users.items():
        names = _called_words(text) & named.keys()
        if not names:
            continue
        chosen = _loaded({n: [e for e in named[n] if e[0] != user] for n in names}, texts, user)
        for name, entries in chosen.items():
            for (path,) in entries:
                needed.setdefault(path, set()).add(name)
        for name in names:
            if (user,) in named[name] and text.count(f"{name}(") > 1:
                needed.setdefault(user, set()).add(name)
    table: dict[str, list[tuple[str]]] = {}
    for path, names in needed.items():
        for name in _reader_defs(texts[path], spans[path], names):
            table.setdefault(name, []).append((path,))
    return table


def _loading(users: dict[str, str], table: dict, texts: dict[str, str]) -> dict:
    """The users that call a name of `table` whose maker's file their imports can load (`_loaded`), found
    from their text before any is parsed."""
    kept = {}
    for path, text in users.items():
        if not any(n in text for n in table):  # (a called word is in the text: a substring search first)
            continue
        names = _called_words(text) & table.keys()
        if not names:
            continue
        chosen = {n: [e for e in table[n] if e[0] != path] for n in names}
        if any(_loaded(chosen, texts, path).values()):
            kept[path] = text
    return kept


@functools.lru_cache(maxsize=256)
def _loadable(text: str, path: str) -> tuple[set[str], set[str]]:
    """The files a module's imports can load, and the folders of the packages among them."""
    loadable = _imported_paths(text, path)
    return loadable, {os.path.dirname(p) for p in loadable if p.endswith("__init__.py")}


def _loaded(chosen: dict, texts: dict[str, str], path: str) -> dict:
    """`chosen` without the entries of files the module's imports cannot load as Python would (`import
    utils` beside a utils.py of its own does not load another example's utils.py); a file of an imported
    package may be loaded by its `__init__.py` (`from tools import Logger`)."""
    loadable, packages = _loadable(texts[path], path)  # (a package's `__init__` re-exports its files)
    return {
        n: [e for e in entries if e[0] in loadable or os.path.dirname(e[0]) in packages]
        for n, entries in chosen.items()
    }


# (host reads, by the text: literal searches cost less than one regular expression)
_READ_WORDS = (".item()", ".cpu()", ".numpy()", ".tolist()", "float(")
# (a def's body that may read on the host by itself: `.numpy()` alone follows a `.cpu()` in working code)
_DEF_READ_WORDS = tuple(w for w in _READ_WORDS if w != ".numpy()")


def _found_at(text: str, word: str):
    """Where `word` occurs in `text`."""
    at = text.find(word)
    while at >= 0:
        yield at
        at = text.find(word, at + 1)


_CLASS_LINE = re.compile(r"^class\s+(\w+)", re.MULTILINE)


def _reading_class_spans(text: str) -> dict[str, tuple[int, int]]:
    """The module-level classes whose text holds a host read and no backward (a trainer's own steps are
    another pass's), by name, with where each runs: the candidates `reading_methods` parses; in a module
    with a class whose `__iadd__` reads what it is given (`_reads_when_added`), also the classes adding
    into what they hold (ALAE's `LossTracker.update`: `self.tracks[k] += v`)."""
    found = {n: (a, b) for n, (a, b) in _reading_spans(text)[1].items() if ".backward(" not in text[a:b]}
    if _reads_when_added(text):
        found.update(_adding_class_spans(text))
    return found


@functools.lru_cache(maxsize=256)
def _reads_when_added(text: str) -> bool:
    """A class of the module reads what its `__iadd__` is given (`value.detach().cpu()`)."""
    if "def __iadd__" not in text:
        return False
    for a, b in _reading_spans(text)[1].values():
        if "def __iadd__" in text[a:b] and (index := parse_index(text[a:b], torch_only=False)) is not None:
            classes = [n for n in index.tree.body if isinstance(n, ast.ClassDef)]
            if classes and "__iadd__" in reading_methods(classes[0]):
                return True
    return False


def _adding_class_spans(text: str) -> dict[str, tuple[int, int]]:
    """The module-level classes whose text adds into something (`+=`) and holds no backward."""
    starts = margin_starts(text) + [len(text)]
    found = {}
    for start, stop in zip(starts, starts[1:], strict=False):
        head = _TOP_NAME.match(text, start)
        body = text[start:stop]
        if head is not None and head.group(1) == "class" and "+=" in body and ".backward(" not in body:
            found[head.group(2)] = (start, stop)
    return found


def _instance_readers(index: ModuleIndex, chosen: dict, texts: dict[str, str], parsed: dict) -> set[str]:
    """`meters.update`, `self.integrator.add_dict`: the reading methods (`reading_methods`) of the
    receivers the module binds to an instance of a project class it imports (`meters = MetricLogger(...)`,
    `self.integrator = Integrator(...)`)."""
    methods: dict[str, set[str]] = {}
    for name, entries in chosen.items():
        for (path,) in entries:
            if (path, name) not in parsed:
                start, end = _reading_class_spans(texts[path])[name]
                definer = parse_index(texts[path][start:end], torch_only=False)
                classes = [n for n in definer.tree.body if isinstance(n, ast.ClassDef)] if definer else []
                adds = _reads_when_added(texts[path])
                parsed[path, name] = reading_methods(classes[0], adds) if classes else set()
            methods.setdefault(name, set()).update(parsed[path, name])
    if not any(methods.values()):
        return set()
    return set(instance_methods(index, {cls: dict.fromkeys(names) for cls, names in methods.items()}))


def _stepper_loops(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP501 findings for loops that call a training-step method of a class of another module that puts
    tensors on a GPU, on an instance they make (`net = MC_drop_net(..., cuda=use_cuda)`, then `cost_pred, err
    = net.fit(x, y)` per batch), and read a device value it returns on the host (`err_train[i] += err`, a
    NumPy array): `check_host_sync(steppers=...)`. Only classes whose text runs a backward, in a module
    whose text places tensors (`_places`), are parsed, and only modules that name one and reach it by an
    import."""
    classes: dict[str, list[tuple[str]]] = {}
    for path, text in texts.items():
        if ".backward(" in text and _places(text) and not file_is_silenced(text):
            for name in _stepping_class_spans(text):
                classes.setdefault(name, []).append((path,))
    if not classes:
        return []
    made = re.compile(r"\b(" + "|".join(map(re.escape, classes)) + r")\s*\(")
    users = {p: t for p, t in texts.items() if not file_is_silenced(t)}
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    found = []
    for index, chosen, path in importers(_loading(users, classes, texts), classes, made, torch_only=False):
        methods = {}
        for name, entries in _loaded(chosen, texts, path).items():
            for (maker,) in entries:
                steps = _class_steppers(texts[maker], *_stepping_class_spans(texts[maker])[name])
                methods.setdefault(name, {}).update({m: places for m, (places, _) in steps.items()})
        steppers = instance_methods(index, {c: m for c, m in methods.items() if m})
        if not steppers:
            continue
        check = lowered_on_toys(functools.partial(check_host_sync, steppers=steppers))
        found += _new_reads(check, index, path, texts[path], reported)
    return found


# (torch-fix101) the level of a read of what a handed-in trainer's training step returns
HANDED_STEPPER_LEVEL = "high"
_SELF_METHOD = re.compile(r"^[ \t]+def[ \t]+(\w+)\(\s*self\b", re.MULTILINE)
# (`.name(` and `def name(` anywhere: tables made in one scan of each text, where a search per method name
# went over every text of the project)
_DOT_CALL = re.compile(r"\.(\w+)\(")
_DEF_HEAD_NAME = re.compile(r"\bdef[ \t]+(\w+)\(")


def _handed_stepper_loops(texts: dict[str, str], findings: list[Finding], indexes: dict) -> list[Finding]:
    """(torch-fix101) PP501 findings for loops of a module that places tensors on a GPU and calls, on a
    parameter of the def around the loop, a training-step method of a class of another module (backward and
    an optimizer step in the method, `stepping_returns`), then reads a device value it returns on the host:
    Faster R-CNN's `fit_one_epoch(model, train_util, ...)` runs `train_util.train_step(...)` (its class in
    nets/frcnn_training.py) and `.item()`s the five returned losses every step; a set VAE's trainer runs
    `out = model.step(x, optimizer, ...)` and `.item()`s every entry (hold-outs 28 and 21). The instance is
    made elsewhere, so the class is known by the method's name alone: only a name no other def of the
    project defines, called with arguments that fit it (`handed_methods`). Reported at
    `HANDED_STEPPER_LEVEL`."""
    classes = {}
    for path, text in texts.items():
        if ".backward(" in text and not file_is_silenced(text):
            for name, span in _stepping_class_spans(text).items():
                classes[path, name] = span
    makers = {path for path, _ in classes}
    users = {p: t for p, t in texts.items() if p not in makers and _places(t)}
    if not classes or not users:
        return []
    owners: dict[str, list[tuple[str, str]]] = {}
    for (path, name), (start, end) in classes.items():
        for m in _SELF_METHOD.finditer(texts[path], start, end):
            owners.setdefault(m.group(1), []).append((path, name))
    called = {m for t in users.values() for m in _DOT_CALL.findall(t)}  # (each `.w(` of a user, one scan)
    wanted = {w for w in owners if w in called}
    methods = {}
    heads = (
        collections.Counter(n for t in texts.values() for n in _DEF_HEAD_NAME.findall(t)) if wanted else {}
    )
    stepping: dict[tuple[str, str], dict] = {}  # ((path, class) -> its `_class_steppers`, once per class)
    for word in sorted(wanted):
        for key in owners[word]:
            if key not in stepping:
                stepping[key] = _class_steppers(texts[key[0]], *classes[key])
        steps = [stepping[key].get(word) for key in owners[word]]
        if not all(f is not None and f[0] == steps[0][0] for f in steps):
            continue
        if heads[word] == len(owners[word]):  # (no other def of the project has the name)
            methods[word] = steps[0]
    if not methods:
        return []
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    found = []
    for path, text in users.items():
        if file_is_silenced(text) or not any(f".{w}(" in text for w in methods):
            continue
        if path not in indexes:
            indexes[path] = parse_index(text)
        index = indexes[path]
        steppers = handed_methods(index, methods) if index is not None else {}
        if not steppers:
            continue
        check = _at_level(lowered_on_toys(functools.partial(check_host_sync, steppers=steppers)))
        found += _new_reads(check, index, path, text, reported)
    return found


def _at_level(check):
    """`check` with its default-level findings at `HANDED_STEPPER_LEVEL`."""

    def checked(index: ModuleIndex):
        for raw in check(index):
            yield (
                dataclasses.replace(raw, confidence=HANDED_STEPPER_LEVEL)
                if raw.confidence in (None, "high")
                else raw
            )

    return checked


@functools.lru_cache(maxsize=256)
def _class_steppers(text: str, start: int, end: int) -> dict[str, tuple]:
    """The training-step methods of the class at `text[start:end]` that return a device value
    (`stepping_returns`), by name, with (the places of their device returns, the def); parsed once."""
    definer = parse_index(text[start:end], torch_only=False)
    if definer is None:
        return {}
    places = stepping_returns(definer)
    return {
        m: (places[m], f) for defs in definer.class_methods.values() for m, f in defs.items() if m in places
    }


def _new_reads(check, index, path: str, text: str, reported: set) -> list[Finding]:
    """`check`'s PP501 findings in one module, as project findings: not a line already reported (which it
    adds to `reported`) nor one a `noqa` silences."""
    noqa = noqa_lines(text)
    found = []
    for raw in check(index):
        if (path, raw.line) in reported or silenced(noqa.get(raw.line), _READ_RULE):
            continue
        reported.add((path, raw.line))
        found.append(project_finding(path, raw, _READ_RULE))
    return found


@functools.lru_cache(maxsize=256)
def _stepping_class_spans(text: str) -> dict[str, tuple[int, int]]:
    """The module-level classes whose text runs a backward (a model class with its own training step), by
    name, with where each runs: `_class_spans` (cached) filtered, not a second scan of the margins."""
    return {
        name: (start, stop)
        for name, (start, stop) in _class_spans(text).items()
        if ".backward(" in text[start:stop]
    }


def _reads_off_device(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP501 findings of `check_host_sync(device_elsewhere=True)` in the candidates a placing module imports
    (its text names the candidate's file before its imports are resolved)."""
    placing, candidates = [], []
    for p, t in texts.items():
        if _places(t):
            placing.append(p)
        elif TRAINS.search(t) and _READS.search(t) and not file_is_silenced(t):
            candidates.append(p)
    stems = {import_word(p) for p in candidates}
    by_import = collections.defaultdict(list)  # (the placing modules by the words of their import lines)
    for p in placing if candidates else ():
        for word in stems.intersection(import_words(texts[p])):
            by_import[word].append(p)
    inheriting = _inheriting(candidates, set(placing), texts)
    if not by_import and not inheriting:
        return []
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    check = lowered_on_toys(functools.partial(check_host_sync, device_elsewhere=True))
    imports: dict[str, set[str]] = {}
    found = []
    for path in sorted(candidates):
        linked = [
            q for q in by_import.get(import_word(path), ()) if q != path and _linked(texts, path, q, imports)
        ]
        if not linked and path not in inheriting:
            continue
        index = parse_index(texts[path])
        if index is None or (not linked and not _uses_placing_class(index, path, inheriting[path], texts)):
            continue
        found += _new_reads(check, index, path, texts[path], reported)
    return found


# (the names of a parenthesised import run over lines; of a plain one, to the line's end)
_FROM = re.compile(r"^\s*from\s+(\.*)([\w.]*)\s+import\s+(?:\(([\w\s,*]+)|([\w \t,*]+))", re.MULTILINE)
_IMPORT = re.compile(r"^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)", re.MULTILINE)


def _imported_paths(text: str, path: str) -> set[str]:
    """The files the module's import lines may load, as Python finds them for a script run from its own
    folder or any folder above it (`from agents.PPO import PPO` -> `<folder>/agents/PPO.py`), or relative
    to its package (`from .ppo import PPO`): checker/project_files.py's `module_paths`. A checkout of several
    projects links no two of them."""
    dotted: list[tuple[int, str]] = []
    for match in _FROM.finditer(text):
        level, module = len(match.group(1)), match.group(2)
        listed = match.group(3) or match.group(4)
        names = [n.split()[0] for n in listed.split(",") if n.strip() and n.strip() != "*"]
        dotted.append((level, module))
        dotted.extend((level, f"{module}.{n}" if module else n) for n in names)
    for match in _IMPORT.finditer(text):
        dotted.extend((0, part.split()[0]) for part in match.group(1).split(","))
    return {found for level, module in set(dotted) for found in module_paths(module, path, level)}


def _inheriting(candidates: list[str], placing: set[str], texts: dict[str, str]) -> dict[str, set[str]]:
    """The candidates that import a placing module (by their text; what they take from it is checked once
    parsed, `_uses_placing_class`), with the placing modules they import."""
    found = {}
    for path in candidates if placing else ():
        loaded = _imported_paths(texts[path], path) & placing
        if loaded:
            found[path] = loaded
    return found


def _uses_placing_class(index: ModuleIndex, path: str, placing: set[str], texts: dict[str, str]) -> bool:
    """A class of a placing module, whose own text puts tensors on a GPU, that the module subclasses
    (torch-ac's `class PPOAlgo(BaseAlgo)`, whose `BaseAlgo.__init__` runs `self.acmodel.to(self.device)`)
    or makes an instance of (lstm-crf's `model = rnn_crf(...)`, whose `__init__` runs `self = self.cuda()`
    when CUDA is there): the module trains a model its class placed."""
    used = {
        base.id if isinstance(base, ast.Name) else base.attr
        for node in index.tree.body
        if isinstance(node, ast.ClassDef)
        for base in node.bases
        if isinstance(base, ast.Name | ast.Attribute)
    }
    used |= {site.node.func.id for site in index.calls if isinstance(site.node.func, ast.Name)}
    for node in index.imports:
        if not (isinstance(node, ast.ImportFrom) and node.module):
            continue
        for alias in node.names:
            # (`from rnn_crf import *`: any class of the module it names)
            names = (
                used if alias.name == "*" else {alias.name} if (alias.asname or alias.name) in used else ()
            )
            for maker in placing.intersection(module_paths(node.module, path, node.level)) if names else ():
                spans = _class_spans(texts[maker])
                if any(n in spans and _places(texts[maker][spans[n][0] : spans[n][1]]) for n in names):
                    return True
    return False


@functools.lru_cache(maxsize=256)
def _class_spans(text: str) -> dict[str, tuple[int, int]]:
    """The module-level classes of a text, by name, with where each runs."""
    starts = margin_starts(text) + [len(text)]
    found = {}
    for start, stop in zip(starts, starts[1:], strict=False):
        head = _TOP_NAME.match(text, start)
        if head is not None and head.group(1) == "class":
            found[head.group(2)] = (start, stop)
    return found


def _linked(texts: dict[str, str], a: str, b: str, imports: dict[str, set[str]]) -> bool:
    """Module b imports module a (the script that places the model imports the trainer or agent; a module
    that only imports a helper with GPU code may well train on the CPU)."""
    if b not in imports:
        imports[b] = _imported_paths(texts[b], b)
    return a in imports[b]


# (defs a training loop runs every step whose host reads are judged where they are: `_step_called_reads`)
_CALLEE_READS = frozenset({"item", "cpu", "tolist"})
_NOT_STEP_CALLEE = re.compile(rf"(?i)eval|{wide_reads.NOT_STEP_WORDS}")
_METHOD_LINE = re.compile(r"^([ \t]+)def\s+(\w+)\s*\(", re.MULTILINE)
_CALLED_METHOD = re.compile(r"\.(\w+)\s*\(")
_COMPREHENSIONS = (ast.comprehension, ast.ListComp, ast.DictComp, ast.GeneratorExp, ast.SetComp)
_SUBCLASS = re.compile(r"^class\s+(\w+)\s*\(([^)]*)\)", re.MULTILINE)
_SCALAR_READS = (".item()", "float()")  # (what an evaluation loop's callee is reported for: torch-fix140)


def _evaluates(text: str) -> bool:
    """(torch-fix140) A module that may evaluate on every batch without training (`_evaluation_calls`), by
    literal searches (a regular expression over every module costs more)."""
    return ".eval()" in text or "no_grad" in text or "inference_mode" in text


def _step_called_reads(
    texts: dict[str, str], findings: list[Finding], indexes: dict | None = None
) -> list[Finding]:
    """PP501 findings, at medium, in a def that reads a device value on the host and that a training loop
    of the project runs once per step from elsewhere: another class of its module, another module, or a
    method reached through an instance (`outputs, gen_loss, dis_loss, logs = self.edge_model.process(...)`,
    EdgeConnect's `EdgeModel.process` building its log list with `.item()`), one call deep into the loop's
    own helpers (`self._collect_running_batch_states()` then `self._update_metric()`, BIT's; a nested `train(it)`
    then DiffAb's `log_losses(loss_dict, ...)` from `diffab.utils.train`), and a subclass's override of a method
    the loop's class calls (PODNet's `_compute_loss` under ICarl's loop). The finding points at the def's first
    read (`_callee_reads`) and names the loop. Only modules whose text backpropagates or steps and may reach a
    reading def (`_may_reach`) are parsed for the loops (once with `_reader_loops`, through `indexes`), and only
    the defs and classes that read and whose names a loop module calls for the reads."""
    users = {
        p: t for p, t in texts.items() if (TRAINS.search(t) or _evaluates(t)) and not file_is_silenced(t)
    }
    if not users or not any(_places(t) for t in texts.values()):
        return []  # (no module of the project puts a tensor on a GPU)
    wanted = set().union(*(_called_words(t) for t in users.values()))
    wanted |= {m for t in users.values() for m in _CALLED_METHOD.findall(t)}
    held_words: dict[str, frozenset[str]] = {}  # (text -> `_held_def_words`, asked up to three times a text)
    wanted |= {d for t in users.values() for d in _held_def_words(t, held_words)}
    wanted.add(_FORWARD)  # (`loss = criterion(out, y)`: an instance called runs its class's `forward`)
    table: dict[str, list[tuple[str, str | None, tuple[int, int]]]] = {}  # name -> (path, class, span)
    for path, text in texts.items():
        if file_is_silenced(text) or not any(w in text for w in _READ_WORDS):
            continue
        defs, classes = _reading_spans(text)
        for name, span in defs.items():
            if name in wanted and not _NOT_STEP_CALLEE.search(name):
                table.setdefault(name, []).append((path, None, span))
        for name, callees in _relay_defs(text).items():  # (torch-fix151)
            if name in wanted:
                table.setdefault(name, []).extend((path, None, defs[c]) for c in callees)
        for cls, (start, stop) in classes.items():
            for name, span in _reading_method_spans(text, start, stop):
                if name in wanted and (
                    not _NOT_STEP_CALLEE.search(name)
                    or wide_reads.loopless_eval_method(name, text[slice(*span)])
                ):
                    table.setdefault(name, []).append((path, cls, span))
    if not table:
        return []
    defining = defining_texts(texts)
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    spans_found = collections.defaultdict(list)  # (path -> the lines of earlier PP501 findings)
    for f in findings:
        if f.rule == _READ_RULE:
            spans_found[f.path].append(f.line)
    parsed: dict[tuple[str, int], list] = {}
    found = []
    reachable: dict[str, set[str]] = {}  # (path -> the reading defs its text may run, asked once)
    for evaluations in (False, True):  # (training loops first: a def both run is named by its training loop)
        for path, text in sorted(users.items()):
            if not (_evaluates(text) if evaluations else TRAINS.search(text)):
                continue  # (an evaluation by `.eval()`, no_grad or inference_mode in the text: torch-fix140)
            if path not in reachable:
                words = (
                    _called_words(text)
                    | set(_CALLED_METHOD.findall(text))
                    | _held_def_words(text, held_words)
                )
                reachable[path] = {
                    n
                    for n in (words | {_FORWARD}) & table.keys()
                    if any(_may_reach(text, path, n, e, texts, defining) for e in table[n])
                }
            names = reachable[path]
            if not names:
                continue
            indexes = {} if indexes is None else indexes
            if path not in indexes:  # (`_reader_loops` may have parsed it)
                indexes[path] = parse_index(text)
            index = indexes[path]
            if index is None:
                continue
            if not _held_def_words(text, held_words) & (
                imported_names(index) | index.module_functions.keys()
            ):  # (no def held as it is: nothing to walk. Not only reading defs: a held `plain_fn` shadows a
                # subclass's reading method of the attribute's name, torch-fix147)
                facts(index).loop_cache(_HELD_KEY, None, dict)
            calls = [] if evaluations else list(_step_calls(index, names))
            named = {(id(loop), _call_word(call)) for call, loop in calls if (path, call.lineno) in reported}
            evaluation = [
                (call, loop)
                for call, loop in (_evaluation_calls(index, names) if evaluations else ())
                if not any(loop.lineno <= line <= loop.end_lineno for line in spans_found[path])
            ]  # (a loop the module pass reports already: the callee's reads are more of the same waits)
            evaluating = {id(loop) for _, loop in evaluation}
            for call, loop in calls + evaluation:
                if (path, call.lineno) in reported:
                    continue  # (the call is a read a finding names: `epoch_loss += utils.to_scalar(loss)`)
                for maker, _, span in _resolved(call, index, path, table, texts):
                    start_line = texts[maker].count("\n", 0, span[0]) + 1
                    stop_line = texts[maker].count("\n", 0, span[1]) + 1
                    if any(start_line <= line < stop_line for line in spans_found[maker]):
                        continue  # (the def's reads are reported already)
                    if (maker, span[0]) not in parsed:
                        wide_def = (
                            _NOT_STEP_CALLEE.search(texts[maker][span[0] : span[1]].split("(", 1)[0])
                            is not None
                        )
                        parsed[maker, span[0]] = _callee_reads(texts[maker], span, start_line, wide_def)
                    passed = [r for r in parsed[maker, span[0]] if not _passes_any(call, r[4])]
                    reads = [r[:4] for r in passed if not r[5]]
                    wider = not reads  # (torch-fix91's sub-shapes count only where no other read is: medium)
                    if wider and (
                        (id(loop), _call_word(call)) in named or nests_loop(loop, facts(index).step_loops)
                    ):
                        continue  # (another call of the def in this loop is a read a finding names; an epoch loop)
                    if wider and not wide_reads.hands_step_value(call, loop_bindings(index, loop)):
                        passed = [r for r in passed if r[5] != _WIDE_TYPED]  # (handed host numbers only)
                    reads = reads or [r[:4] for r in passed]
                    if id(loop) in evaluating:  # (scalars read, not outputs copied out for a host metric)
                        reads = [r for r in reads if r[2] in _SCALAR_READS]
                    if not reads or (maker, reads[0][0]) in reported:
                        continue
                    line, col, how, name = reads[0]
                    more = more_reads(reads)
                    where = os.path.relpath(path, os.path.dirname(maker)) if maker != path else "this module"
                    raw_message = (
                        f"`{how}` in `{name}`{more}, which the training loop at line {loop.lineno} of {where} runs "
                        "on every step, waits for the GPU each time; return the tensors detached and read them "
                        f"every N steps{other_read_lines([r[0] for r in reads])}"
                    )
                    if id(loop) in evaluating:
                        raw_message = (
                            f"`{how}` in `{name}`{more}, which the evaluation loop at line {loop.lineno} of {where} "
                            "runs on every batch, waits for the GPU each time; return the tensors, sum them on the "
                            f"device and read the totals once after the loop{other_read_lines([r[0] for r in reads])}"
                        )
                    reported.add((maker, line))
                    spans_found[maker].append(line)
                    level = (
                        None
                        if same_module_callee(maker, path) and not wider and id(loop) not in evaluating
                        else "medium"
                    )
                    found.append(_finding_at(maker, line, col, raw_message, texts[maker], level))
    return [f for f in found if f is not None]


def _finding_at(
    path: str, line: int, col: int, message: str, text: str, level: str | None = "medium"
) -> Finding | None:
    """A PP501 finding (medium unless `level` says otherwise) at the line unless a `noqa` there silences it."""
    if silenced_at(text, line, _READ_RULE):
        return None
    return project_finding(path, RawFinding(_READ_RULE, line, col, message, confidence=level), _READ_RULE)


def same_module_callee(maker: str, loop_path: str) -> bool:
    """A reading def found by `_step_called_reads` in the very module whose training loop runs it every step
    (`... which the training loop at line 656 of this module runs on every step`): the loop, the call and the
    reads are in one file, so nothing that decides whether the read runs every step is out of sight. High
    since torch-fix83: first reads of hold-outs 13-22 joined to today's findings of this shape are 20 of 20
    right in 11 repositories (text-to-motion and its copy in motion-diffusion-model give 6), and 30 of all 32
    current findings on th13-22 were read right (on-policy's `trpo_update` wrong, CMGAN's discriminator loss
    debatable). A def in another module stays medium (15 first reads, 12 right: under the bar)."""
    return maker == loop_path


def _reading_method_spans(text: str, start: int, stop: int) -> list[tuple[str, tuple[int, int]]]:
    """The methods of the class text[start:stop] whose text holds a host read, with where each runs
    (`_method_spans`)."""
    return [
        (name, span)
        for name, span in _method_spans(text, start, stop)
        if any(w in text[slice(*span)] for w in _DEF_READ_WORDS)
    ]


def _method_spans(text: str, start: int, stop: int) -> list[tuple[str, tuple[int, int]]]:
    """(name, span) of each method of the class text[start:stop], its span from its `def` to the next
    `def` at its indentation or the class's end: the one notion of a method's text (review 26 item 17), for
    the reading methods and the stepping ones (`_duck_classes`) alike."""
    heads = list(_METHOD_LINE.finditer(text, start, stop))
    found = []
    for i, head in enumerate(heads):
        indent = head.group(1)
        end = next((later.start() for later in heads[i + 1 :] if later.group(1) == indent), stop)
        found.append((head.group(2), (head.start(), end)))
    return found


def _may_reach(
    text: str, path: str, name: str, entry: tuple, texts: dict[str, str], defining: dict | None = None
) -> bool:
    """From the user's text alone, before it is parsed: a def of its own module; a module-level def it
    imports (`_loaded`); a method of a class it makes an instance of (`Cls(`, or since torch-fix104 a
    builder's `build_recorder(` returning one, `_built_classes`),
    of a class of its own, or of a class subclassing one of its own (`class PODNet(ICarl):` for ICarl's
    module)."""
    maker, cls, _ = entry
    if name == _FORWARD:  # (an instance of the class, called: `_forwards`)
        return cls is not None and f"{cls}(" in text
    if maker == path:  # (called here, not only defined: `self.name(`, or `name(` past its `def`)
        return f"self.{name}(" in text if cls is not None else text.count(f"{name}(") > 1
    if cls is None:  # (as `_resolved` will: a file the module's imports load)
        return bool(_loaded({name: [entry]}, texts, path)[name])
    if f"{cls}(" in text or any(
        cls in _built_classes(b, texts, defining) for b in set(_BUILDER_CALL.findall(text))
    ):
        return True
    bases = [words for subclass, words in _subclass_bases(texts[maker]) if subclass == cls]
    if not bases:
        return False
    own = set(_class_spans(text))
    return any(own & words for words in bases)


@functools.lru_cache(maxsize=512)
def _subclass_bases(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """(class, the words of its bases) of each `class X(...)` line at the margin (`_SUBCLASS`), found once
    per text: `_may_reach` asks it of a maker's text for user after user."""
    return tuple((m.group(1), frozenset(_WORD.findall(m.group(2)))) for m in _SUBCLASS.finditer(text))


def _step_calls(index: ModuleIndex, names: set[str]):
    """(call, loop) for each call a training loop of the module makes on every step: in its own body outside
    any `if` that skips steps, and in the module's defs it so calls, outside their loops and ifs (one call
    deep). A training loop is a step loop that updates weights (`updates_weights`) or hands its losses to
    a model object's own `backward` (`self.edge_model.backward(gen_loss, dis_loss)`), and none the module
    pass leaves alone: a loop whose logic reads on the host, a CPU loader's loop, a full-batch epoch loop
    (`full_batch_epochs`: GCNII's and GRAND's `train()` per epoch, read debatable by torch-fix49)."""
    fx = facts(index)
    for loop in fx.step_loops:
        sites = direct_calls(index, loop)
        wanted = []  # (each call with the calls of the module's def it runs that may run a reading def)
        for site in sites:
            helper = fx.helpers.get(id(site.node))
            inner = [
                s
                for s in (index.function_calls.get(id(helper), ()) if helper is not None else ())
                if not s.loops and _step_words(index, s.node) & names
            ]
            if _step_words(index, site.node) & names or inner:
                wanted.append((site, helper, inner))
        if not wanted:
            continue  # (no guard or step to ask about: checked from the names first)
        if not (updates_weights(loop, index) or any(_model_backward(s.node) for s in sites)):
            continue
        if logic_reads_host(loop, index) or cpu_loader_loop(loop, index) or full_batch_epochs(loop, index):
            continue  # (as the module pass: a loop whose logic reads, a CPU loader's, one step per epoch)
        bound = assigned_names([loop])
        cpu = module_cpu_names(index)
        for site, helper, inner in wanted:
            if (
                fx.guarded_step(site.node, loop)
                and not _mode_branch(fx, site.node, loop, bound)
                and not after_warmup(fx, site.node, loop, helper)
            ):
                continue
            if cpu and _on_host_device(site.node, index, loop, cpu):
                continue
            yield site.node, loop
            yield from ((s.node, loop) for s in inner if not fx.guarded_step(s.node, helper))


def _evaluation_calls(index: ModuleIndex, names: set[str]):
    """(torch-fix140) (call, loop) for each call of a def another module defines that an evaluation loop of
    the module (`evaluation_read_loops`: under no_grad, in a def named for evaluation, after `.eval()`, over
    a test loader; on a GPU) makes on every batch, in its own body outside any `if`: TransE's
    `hits_at_1 += metric.hit_at_k(...)` and `mrr += metric.mrr(...)` (hold-out 47), FastDepth's
    `result.evaluate(pred.data, target.data)` with nine `float()`s in `metrics.py` (hold-out 46). A def of
    the loop's own module is the module pass's (`_evaluation_helper_reads`)."""
    fx = facts(index)
    steps = {id(loop) for loop in fx.step_loops}  # (never an evaluation loop)
    sites = {
        id(loop): found
        for loop in index.loops
        if isinstance(loop, ast.For | ast.AsyncFor)
        and id(loop) not in steps
        and (
            found := [
                s.node
                for s in direct_calls(index, loop)
                if _step_words(index, s.node) & names
                and fx.helpers.get(id(s.node)) is None
                and fx.own_method(s.node) is None
            ]
        )
    }
    if not sites:
        return  # (no loop calls such a def: the evaluation loops need not be worked out)
    for loop in evaluation_read_loops(index):
        yield from ((call, loop) for call in sites.get(id(loop), ()) if not fx.guarded(call, loop))


def _call_word(call: ast.Call) -> str | None:
    """The name a call runs by: `f` of `f(...)`, `m` of `x.m(...)`."""
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _on_host_device(call: ast.Call, index: ModuleIndex, loop, cpu: set[str]) -> bool:
    """A call handed a tensor the loop moved to a CPU device (`loss, eer = model.loss(embeds_loss)` with
    `embeds_loss = embeds.view(...).to(loss_device)`, `loss_device = torch.device("cpu")`: GE2E's loss on
    the host, hold-outs 15 and 16)."""
    bound = loop_bindings(index, loop)
    return any(moved_to_host(a, index, bound, cpu) for a in [*call.args, *(k.value for k in call.keywords)])


def _mode_branch(fx, node: ast.AST, loop, bound: set[str]) -> bool:
    """Every guard between the node and the loop is an `if` on names the loop never binds (`if model == 1:`
    with `model = self.config.MODEL` before it, EdgeConnect's): a mode chosen once, whose branch runs on
    every step; not a step count, remainder or logging switch (`term_test`). `bound` is the loop's
    `assigned_names`, stores only: a name the loop only `del`s is not rebound by it (since torch-fix114; a
    guard on it would fail the next pass anyway unless a store rebinds it, which counts)."""
    for up in fx.ancestors(node, loop):
        if isinstance(up, ast.If):
            if not mode_test(up.test, bound):
                return False
        elif isinstance(up, (*_SKIPPING, *LOOP_TYPES)):
            return False
    return True


def _model_backward(call: ast.Call) -> bool:
    """`self.edge_model.backward(gen_loss, dis_loss)`: a model object's method named backward, given the
    losses (a tensor's `loss.backward()` takes none, or a gradient on a name)."""
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "backward"
        and isinstance(func.value, ast.Attribute)
        and isinstance(func.value.value, ast.Name)
        and func.value.value.id == "self"
        and len(call.args) >= 1
    )


def _resolved(call: ast.Call, index: ModuleIndex, path: str, table: dict, texts: dict[str, str]) -> list:
    """The reading defs of `table` a call may run: `f(...)`, a def of the module or one its imports load;
    `self.m(...)`, a method of the loop's class (of the module) or of a class of the project that subclasses
    it by name; `self.x.m(...)` or `x.m(...)`, a method of the class the module binds `x` to an instance of
    (`_instances`)."""
    func = call.func
    if _instance_call(index, call):
        return _forwards(call, index, path, table, texts)
    if isinstance(func, ast.Name):
        entries = [e for e in table.get(func.id, ()) if e[1] is None]
        return [e for e in entries if e[0] == path] or _loaded({func.id: entries}, texts, path)[func.id]
    if isinstance(func, ast.Attribute) and (held := _held_defs(index).get(ast.unparse(func))):
        chosen = {name: [e for e in table.get(name, ()) if e[1] is None] for name in sorted(held)}
        local = [e for entries in chosen.values() for e in entries if e[0] == path]
        found = local or [e for entries in _loaded(chosen, texts, path).values() for e in entries]
        if found:
            return found
    if not isinstance(func, ast.Attribute) or func.attr not in table:
        return []
    receiver = func.value
    if isinstance(receiver, ast.Name) and receiver.id in _module_imports(index):
        return _module_defs(func.attr, _module_imports(index)[receiver.id], table, texts, path)
    entries = [e for e in table[func.attr] if e[1] is not None]
    if isinstance(receiver, ast.Name) and receiver.id == "self":
        owner = _owner_class(index, call)
        return [
            e
            for e in entries
            if (e[0] == path and e[1] == owner) or (owner and _subclasses(texts[e[0]], e[1], owner))
        ]
    bound = _instances(index).get(ast.unparse(receiver), set())
    bound = bound | {c for name in bound if name[:1].islower() for c in _built_classes(name, texts)}
    entries = [e for e in entries if e[1] in bound]
    return [e for e in entries if e[0] == path] or _loaded({func.attr: entries}, texts, path)[func.attr]


def _module_imports(index: ModuleIndex) -> dict[str, str]:
    """Names the module binds to an imported module, with the module (`import utils`, `import a.b as c`,
    `from . import utils`), not to a def or class it imports. Not one with the project's other import readers,
    which answer other questions: `import_aliases` (torch_project/common.py) reads from the text, before any
    parse, which imported defs a module calls under another name (`from m import f as g`: f -> {g}), keyed by
    the def's own name; `imported_from` gives, for a def name, the one module it comes from (taking `from pkg
    import mod as m` too, which this leaves out: `_resolved` asks it only of `x.name(...)` after `import x`
    or a relative package import); checker/resolve.py's `Resolver` maps names to canonical dotted names of the
    tracked libraries (torch, tensorflow) alone. Served by `imported_from`, `_resolved` would also follow an
    absolute `from pkg import mod` and so change which defs `_module_defs` matches: the two are left apart."""
    found = {}
    for node in index.imports:
        if isinstance(node, ast.Import):
            found |= {
                a.asname or a.name.split(".")[0]: a.name if a.asname else a.name.split(".")[0]
                for a in node.names
            }
        elif isinstance(node, ast.ImportFrom) and node.level and not node.module:
            found |= {a.asname or a.name: a.name for a in node.names}
    return found


def _module_defs(name: str, module: str, table: dict, texts: dict[str, str], path: str) -> list:
    """The module-level reading defs `name` of `table` that `module.name(...)` runs (`utils.compute_acc`
    after `import utils`: Meta-Baseline's trainers): in a file the module's imports load whose module
    path ends with the imported one (`utils.py` or `utils/__init__.py`)."""
    tail = module.lstrip(".").replace(".", os.sep)
    entries = [
        e
        for e in table.get(name, ())
        if e[1] is None
        and tail
        and (
            os.path.splitext(e[0])[0].endswith(os.sep + tail)
            or (e[0].endswith("__init__.py") and os.path.dirname(e[0]).endswith(os.sep + tail))
        )
    ]
    return _loaded({name: entries}, texts, path)[name]


def _owner_class(index: ModuleIndex, call: ast.Call) -> str | None:
    """The class whose method holds the call."""
    for site in index.calls:
        if site.node is call:
            return index.function_class.get(id(site.function)) if site.function is not None else None
    return None


def _subclasses(text: str, cls: str, base: str) -> bool:
    """`class PODNet(ICarl):` in the text: `cls` names `base` among its bases."""
    return any(m.group(1) == cls and base in _WORD.findall(m.group(2)) for m in _SUBCLASS.finditer(text))


def _instances(index: ModuleIndex) -> dict[str, set[str]]:
    """Receiver (`self.edge_model`, `meters`) -> the classes the module binds it to an instance of."""
    return facts(index).loop_cache("step_called_instances", None, lambda: _bound_instances(index))


def _bound_instances(index: ModuleIndex) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for node in index.call_assignments:
        value = node.value
        while (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Call)
        ):
            value = value.func.value  # (`EdgeModel(config).to(config.DEVICE)`: the class made first)
        func = value.func
        cls = (
            func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        )
        for target in node.targets if cls else ():
            if isinstance(target, ast.Name) or (
                isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
            ):
                found.setdefault(ast.unparse(target), set()).add(cls)
    return found


def _built_classes(name: str, texts: dict[str, str], defining: dict | None = None) -> set[str]:
    """(torch-fix104) The classes a builder def of the project returns an instance of (`def
    build_recorder(cfg): return Recorder(cfg)`, RESA's runner: `self.recorder = build_recorder(self.cfg)`),
    so a receiver bound to the builder's result is an instance of them. Each text's table is built once
    (`_returned_classes`, review22 item 14). `defining` (`defining_texts(texts)`), when given, names the
    texts that may define it, so a project of 1,000 modules is not searched once per builder call."""
    found = set()
    for text in texts.values() if defining is None else defining.get(name, ()):
        if f"def {name}(" in text:
            found |= _returned_classes(text).get(name, set())
    return found


@functools.lru_cache(maxsize=256)
def _returned_classes(text: str) -> dict[str, set[str]]:
    """The module-level defs of a text, by name, with the classes each returns an instance of (`return
    Recorder(cfg)`) in its first 2,000 characters after the header, up to the next line at the margin
    (`margin_starts`, review22 item 7)."""
    starts = margin_starts(text) + [len(text)]
    table: dict[str, set[str]] = collections.defaultdict(set)
    for start, stop in zip(starts, starts[1:], strict=False):
        head = _DEF_HEAD.match(text, start)
        if head is not None:
            table[head.group(1)] |= set(
                _RETURNED_CLASS.findall(text, head.end(), min(stop, head.end() + 2000))
            )
    return table


_DEF_HEAD = re.compile(r"def[ \t]+(\w+)\(")
_BUILDER_CALL = re.compile(r"=[ \t]*((?:build|make|create|get)_\w+)\(")
_RETURNED_CLASS = re.compile(r"(?m)^[ \t]+return[ \t]+([A-Z]\w*)\(")


def _callee_reads(text: str, span: tuple[int, int], first_line: int, wide_def: bool = False) -> list:
    """(line, column, how, def name, parameters, wider) of each host read (`.item()`, `.cpu()`, `.tolist()`,
    no arguments) in the def at `span`, outside its loops and ifs but a settings switch (`term_test`: `if
    self._nca_config:`) or the branch its defaults take (`_default_branch`, when the call passes none of the
    `parameters` it tests), not of a tensor a torch factory just made on the host; lines of the whole file.
    `wider` marks the reads of the sub-shapes torch-fix91 added (wide_reads.py: `float()` of a reduction, a
    loop, comprehension, type test or key test over the def's arguments, any read of a loopless `evaluate`
    method when `wide_def`), which `_step_called_reads` reports at medium and only where no other read is."""
    body = text[span[0] : span[1]]
    indent = len(body) - len(body.lstrip(" \t"))
    source = "\n".join(line[indent:] for line in body.splitlines())
    index = parse_index(source, torch_only=False)
    if index is None:
        return []
    functions = [n for n in index.tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    if not functions:
        return []
    function = functions[0]
    fx = facts(index)
    params = wide_reads.parameters(function)
    reads = []
    for site in index.function_calls.get(id(function), ()):
        call = site.node
        plain = method_name(call) in _CALLEE_READS and not call.args and not call.keywords
        if not (plain or wide_reads.float_read(call)) and (
            not wide_reads.float_loss_read(call, function) or _bare_numpy(text)
        ):
            continue  # (a module with a bare tensor `.numpy()` runs its tensors on the CPU: torch-fix140)
        if site.loops and not all(wide_reads.runs_per_argument(loop, params) for loop in site.loops):
            continue
        if (
            factory_read(index, call)
            or _global_batch_item(call, function, text)
            or after_early_return(function, call)
        ):
            continue
        widened: list = []
        tested = _defaults_tested(fx, call, function, widened)
        if tested is None:
            continue
        reads.append(
            (
                call.lineno + first_line - 1,
                call.col_offset + indent,
                f".{method_name(call)}()" if plain else "float()",
                function.name,
                tested,
                _WIDE_TYPED
                if any(isinstance(u, ast.If) and wide_reads.type_test(u.test) for u in widened)
                else _WIDE
                if wide_def or not plain or site.loops or widened
                else 0,
            )
        )
    return sorted(reads)


@functools.lru_cache(maxsize=16)
def _bare_numpy(text: str) -> bool:
    """A bare tensor `.numpy()` in the module (survival-kernets' `lrisks = lrisks.numpy()`, h40), judged on
    its parsed calls by `torch_sync.numpy_of_host_tensor`: `x.cpu().detach().numpy()` and `x.to("cpu").numpy()`
    copy a device tensor to the host, so they say nothing of where the module's tensors live (review 27 item
    6), and a comment or string naming `.numpy()` is no call (session 27 reread). Once per text: asked for
    every `float(loss)` of the module's defs."""
    if ".numpy()" not in text:
        return False
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return any(isinstance(node, ast.Call) and numpy_of_host_tensor(node) for node in ast.walk(tree))


_WIDE, _WIDE_TYPED = 1, 2  # (a torch-fix91 sub-shape's read; one under a type test of its argument)
_SKIPPING = (ast.IfExp, ast.BoolOp, ast.Try, ast.ExceptHandler, ast.Lambda, *_COMPREHENSIONS)


def _defaults_tested(
    fx, call: ast.Call, function, widened: list | None = None
) -> tuple[tuple[str, int], ...] | None:
    """The read runs on every call of the def that passes none of the returned parameters (name, position
    among the arguments a caller writes): under no loop, comprehension, `try` or boolean test, not in an
    `if`'s test (`_within`), and under no `if` but a settings switch (`term_test`: `if self._nca_config:`,
    no step count, remainder or logging switch) or one its defaults decide (`_default_branch`: `elif reduction == 'mean': return ret.mean().item()` in Meta-Baseline's
    `compute_acc(logits, label, reduction='mean')`, which both trainers call with two arguments). None when
    it does not run on every call. Given a `widened` list, also under what `_wider_guard` allows (a
    comprehension over the def's arguments, a type test, a loop key's test), each added to the list."""
    tested = []
    skipped = set()
    for up in fx.ancestors(call, function):
        if isinstance(up, ast.If) and not _within(call, up.test):
            parameter = _default_branch(up, call, function)
            if parameter is not None:
                tested.append(parameter)
                skipped.add(id(up))
    for up in fx.ancestors(call, function):
        if isinstance(up, _SKIPPING) or (
            isinstance(up, ast.If)
            and id(up) not in skipped
            and (not (term_test(up.test, set()) or _key_test(up.test, call)) or _within(call, up.test))
        ):
            if widened is None or not _wider_guard(fx, up, call, function):
                return None
            widened.append(up)
    return tuple(tested)


def _wider_guard(fx, up: ast.AST, call: ast.Call, function) -> bool:
    """torch-fix91: a guard of a read that still runs on every call: a comprehension over the def's arguments
    (`{k: t.item() for k, t in tensor_dict.items()}`), an argument's (or such a loop key's) type test
    (`if isinstance(loss, torch.Tensor):`), a test of such a loop's key (`if 'loss' in key:`), or (torch-fix104)
    the body of such a loop target's gradient test (`if p.grad is not None:`, `wide_reads.gradient_test`)."""
    params = wide_reads.parameters(function)
    if isinstance(up, _COMPREHENSIONS):
        return wide_reads.argument_comprehension(up, params)
    if not isinstance(up, ast.If) or _within(call, up.test):
        return False
    targets = fx.loop_cache(
        "argument_loop_targets", function, lambda: wide_reads.loop_targets(function, params)
    )
    return (
        wide_reads.type_switch(up, call, params | targets)
        or wide_reads.key_filter(up.test, targets)
        or (wide_reads.gradient_test(up.test, targets) and any(_within(call, s) for s in up.body))
    )


def _key_test(test: ast.AST, call: ast.Call) -> bool:
    """`if "loss_sup" in cur_losses.keys():` over `cur_losses["loss_sup"].mean().item()`: a test that the dict
    holds the key the read takes its value from, which a step's dict of losses does on every call (hold-out
    20: CCT's `_update_losses`, which the training loop calls every step), not a step count or a switch."""
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.In)
        and isinstance(test.left, ast.Constant)
        and isinstance(test.left.value, str)
    ):
        return False
    held = test.comparators[0]
    if isinstance(held, ast.Call) and method_name(held) == "keys" and not held.args:
        held = held.func.value
    if not isinstance(held, ast.Name):
        return False
    return any(
        isinstance(n, ast.Subscript)
        and isinstance(n.value, ast.Name)
        and n.value.id == held.id
        and isinstance(n.slice, ast.Constant)
        and n.slice.value == test.left.value
        for n in ast.walk(call)
    )


def _default_branch(branch: ast.If, node: ast.AST, function) -> tuple[str, int] | None:
    """The `if` compares a parameter with a constant (`reduction == 'mean'`, `max_len is None`) and `node`
    is in the branch the parameter's default value takes (`default_branch`): (the parameter, its position
    among the arguments a caller writes), or None."""
    in_body = any(n is node for stmt in branch.body for n in ast.walk(stmt))
    if not (in_body or any(n is node for stmt in branch.orelse for n in ast.walk(stmt))):
        return None
    if not default_branch(branch.test, in_body, function):
        return None
    arguments = function.args
    names = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
    tested = branch.test.left.id
    position = names.index(tested) if tested in names else len(names)
    if names and names[0] in ("self", "cls"):
        position -= 1
    return tested, position


def _passes_any(call: ast.Call, parameters) -> bool:
    """The call passes one of the (name, position) parameters, by keyword, by position or through `*`/`**`."""
    if not parameters:
        return False
    if any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
        return True
    return any(k.arg == name for k in call.keywords for name, _ in parameters) or any(
        len(call.args) > position for _, position in parameters
    )


def _within(node: ast.AST, tree: ast.AST) -> bool:
    """The node is part of the tree (a read in an `if`'s test decides the step's logic: GANomaly's
    `if self.err_d.item() < 1e-5: self.reinit_d()`, which the module pass leaves alone too)."""
    return any(n is node for n in ast.walk(tree))


_FORWARD = "forward"


def _instance_call(index: ModuleIndex, call: ast.Call) -> bool:
    """`criterion(outputs, targets)`, `self.ot_loss(outputs, points)`: a call of a name (or `self.x`) the module
    binds to an instance of a class (`_instances`), which runs that class's `forward` when it is a torch module."""
    func = call.func
    if not (
        isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name))
    ):
        return False
    return ast.unparse(func) in _instances(index)


def _step_words(index: ModuleIndex, call: ast.Call) -> frozenset[str]:
    """The names of the reading defs a call may run: its own (`_call_word`), `forward` for an instance called,
    every def an attribute holds (`_held_defs`: `self.loss_fn(...)` runs `loss_jocor`, and both `ce_plain`
    and `loss_small` when two branches bind one each; review 27 item 8, where one chosen by order could be
    the one that reads nothing)."""
    if _instance_call(index, call):
        return frozenset((_FORWARD,))
    held = _held_defs(index).get(ast.unparse(call.func)) if isinstance(call.func, ast.Attribute) else None
    if held:
        return held
    word = _call_word(call)
    return frozenset(() if word is None else (word,))


_HELD_DEF = re.compile(
    r"(?:^|[;:])[ \t]*self\.\w+[ \t]*=[ \t(\\\r\n]*([A-Za-z_]\w*)[ \t)]*(?=[;#\r\n]|$)", re.MULTILINE
)  # (torch-fix147: also after `;` or an `if ...:` on the line, and in brackets or over a continuation)


def _held_def_words(text: str, found: dict[str, frozenset[str]]) -> frozenset[str]:
    """(torch-fix140) The names a method of the text holds on an attribute as they are (`self.loss_fn =
    loss_jocor`), before any parse: the defs such an attribute may run when called. Found once per text of
    the pass, in its `found` (review 27 item 11: not a module-wide cache that keeps earlier projects' texts)."""
    if text not in found:
        found[text] = frozenset(_HELD_DEF.findall(text)) - {"None", "True", "False", "self"}
    return found[text]


def _held_defs(index: ModuleIndex) -> dict[str, frozenset[str]]:
    """(torch-fix140) `self.x` -> the names the module's methods bind it to as they are (`self.loss_fn =
    loss_jocor`, JoCoR's trainer, hold-out 47; a name bound to a def, imported or of the module, so
    `self.loss_fn(...)` runs it); `_resolved` keeps only the names of module-level reading defs."""
    return facts(index).loop_cache(_HELD_KEY, None, lambda: _bound_defs(index))


_HELD_KEY = "step_called_held_defs"


def _bound_defs(index: ModuleIndex) -> dict[str, frozenset[str]]:
    """(not a parameter handed in, `self.criterion = criterion`: only a name the module imports or defines)"""
    known = imported_names(index) | index.module_functions.keys()
    found: dict[str, set[str]] = {}
    for node in ast.walk(index.tree):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.value, ast.Name)
            and isinstance(target := node.targets[0], ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
            and node.value.id in known
        ):
            found.setdefault(ast.unparse(target), set()).add(node.value.id)
    return {k: frozenset(v) for k, v in found.items()}


def _forwards(call: ast.Call, index: ModuleIndex, path: str, table: dict, texts: dict[str, str]) -> list:
    """The reading `forward` methods (of `table`) an instance call runs (torch-fix71): of the classes the
    module binds the callee to (`criterion = Loss()`, `self.ot_loss = OT_Loss(...)`), defined in the module or
    in a file its imports load, and subclassing a torch module by a base named `nn.Module` or `Module`. A loss
    module's or model's `forward` runs on every call: EAST's `Loss.forward` formatting three device losses,
    DM-Count's `OT_Loss.forward` summing `.item()` per image, TransUNet's `DiceLoss.forward` per class."""
    bound = _instances(index).get(ast.unparse(call.func), set())
    entries = [
        e
        for e in table.get(_FORWARD, ())
        if e[1] in bound
        and any(_is_torch_module_base(b) for c, b in _subclass_bases(texts[e[0]]) if c == e[1])
    ]
    return [e for e in entries if e[0] == path] or _loaded({_FORWARD: entries}, texts, path)[_FORWARD]


def _is_torch_module_base(words: frozenset[str]) -> bool:
    """The words of a class's bases name a torch module (`nn.Module`, `torch.nn.Module`, `Module`)."""
    return "Module" in words


def _global_batch_item(call: ast.Call, function, text: str) -> bool:
    """(torch-fix93) `data['label'].cpu()` in a def that neither takes nor binds `data`: an item, by a constant
    key, of the module global a `for` loop of the module takes from its loader (`for i, data in
    enumerate(dataset, start=epoch_iter):`), which the module never assigns a device value by key: a host
    tensor, its read waits for nothing (ACGPN's `changearm`, called every step with the label map; hold-out 27
    read its finding wrong)."""
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    if not (
        isinstance(receiver, ast.Subscript)
        and isinstance(receiver.value, ast.Name)
        and isinstance(receiver.slice, ast.Constant)
    ):
        return False
    name = receiver.value.id
    if name in parameter_names(function) or name in assigned_names([function]):
        return False
    word = re.escape(name)
    looped = re.search(
        rf"^\s*for\s+(?:\w+\s*,\s*)*{word}\s+in\s+(?:\w+\()?\w*(?:loader|dataset)\w*\b", text, re.M
    )
    moved = re.search(rf"\b{word}\[[^\]\n]*\]\s*=[^\n]*\.(?:cuda|to)\(", text)
    return looped is not None and moved is None


_STEPS_TEXT = re.compile(r"\.(?:backward|step)\(")


def _held_stepper_reads(texts: dict[str, str], findings: list[Finding], indexes: dict) -> list[Finding]:
    """(torch-fix132) PP501 findings, at medium, in a method that reads on the host and that a loop of the
    project calls on every step on the same held object whose training-step method it calls there, where
    the object's class is known only by its methods: ERRNet's and YTMT's `Engine.train` run
    `model.optimize_parameters()` then `errors = model.get_current_errors()` on `model = self.model`, bound
    to `models.__dict__[opt.model]()`, and `get_current_errors` `.item()`s every loss (hold-out 45). A
    class is a candidate when it defines both the stepping method (its text calls `.backward(` or
    `.step(`) and the reading one (`_duck_classes`); the read is the def's first (`_callee_reads`, its
    narrow sub-shapes only)."""
    classes = _duck_classes(texts)
    if not classes or not any(_places(t) for t in texts.values()):
        return []
    stepping = {m for steps, _ in classes.values() for m in steps}
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    parsed: dict[tuple[str, int], list] = {}
    found = []
    for path, text in sorted(texts.items()):
        if file_is_silenced(text) or not any(f".{m}(" in text for m in stepping):
            continue
        if indexes.get(path) is None:  # (a full parse replaces the None a torch-only parse of an earlier pass
            indexes[path] = parse_index(text, torch_only=False)  # left for a trainer without torch; kept, so
            # the pass asked again with the same `indexes` parses nothing twice; no later pass reads `indexes`)
        index = indexes[path]
        if index is None:
            continue
        for loop, receiver, step, calls in _held_step_loops(index, stepping):
            for call in calls:
                for maker, span in _duck_methods(classes, step, method_name(call)):
                    if (maker, span[0]) not in parsed:
                        first = texts[maker].count("\n", 0, span[0]) + 1
                        parsed[maker, span[0]] = [
                            r for r in _callee_reads(texts[maker], span, first) if not r[5]
                        ]
                    reads = parsed[maker, span[0]]
                    if not reads or any((maker, r[0]) in reported for r in reads):
                        continue
                    line, col, how, name, _, _ = reads[0]
                    where = os.path.relpath(path, os.path.dirname(maker)) if maker != path else "this module"
                    message = (
                        f"`{how}` in `{name}`{more_reads([r[:4] for r in reads])}, which the training loop at "
                        f"line {loop.lineno} of {where} runs on every step on `{receiver}` after "
                        f"`{receiver}.{step}(...)`, waits for the GPU each time; return the tensors detached "
                        f"and read them every N steps{other_read_lines([r[0] for r in reads])}"
                    )
                    reported.add((maker, line))
                    found.append(_finding_at(maker, line, col, message, texts[maker]))
    return [f for f in found if f is not None]


def _duck_classes(texts: dict[str, str]) -> dict[tuple[str, str], tuple[frozenset[str], dict]]:
    """(path, class) -> (its stepping methods, its reading methods by name with their spans) for each
    class of the project whose text runs a backward (`_stepping_class_spans`) and has a method that reads
    on the host (`_reading_method_spans`)."""
    found = {}
    for path, text in texts.items():
        if ".backward(" not in text or file_is_silenced(text):
            continue
        for cls, (start, stop) in _stepping_class_spans(text).items():
            reading = dict(_reading_method_spans(text, start, stop))
            if not reading:
                continue
            steps = frozenset(
                name
                for name, (head, end) in _method_spans(text, start, stop)
                if _SELF_METHOD.match(text, head) and _one_step(text[head:end])
            )
            if steps:
                found[path, cls] = (steps, reading)
    return found


_LOOP_STATEMENT = re.compile(r"^[ \t]+(?:async[ \t]+)?(?:for|while)\b", re.MULTILINE)


def _one_step(body: str) -> bool:
    """A method's text that steps (`.backward(` or `.step(`) and holds no loop: one training step
    (`optimize_parameters`), not a whole epoch or run (`exp.train(...)`, SCINet's, whose loop is its own)."""
    return _STEPS_TEXT.search(body) is not None and _LOOP_STATEMENT.search(body) is None


def _duck_methods(classes: dict, step: str, name: str | None) -> list[tuple[str, tuple[int, int]]]:
    """(path, span) of the reading method `name` of every class that also defines the stepping method
    `step`: the classes an object may be an instance of when the loop calls both on it."""
    return [
        (path, reading[name])
        for (path, _), (steps, reading) in sorted(classes.items())
        if step in steps and name in reading and name != step and not _NOT_STEP_CALLEE.search(name)
    ]


def _held_step_loops(index: ModuleIndex, stepping: set[str]):
    """(loop, receiver text, stepping method, the other calls on the receiver) for each loop that calls a
    project class's stepping method on an object (`model.optimize_parameters(**kwargs)`) on every step, in
    its own body and outside any `if` that skips steps, with the other calls it so makes on the same
    object, after the step's."""
    fx = facts(index)
    for loop in index.loops:
        if not isinstance(loop, LOOP_TYPES):
            continue
        sites = [s for s in direct_calls(index, loop) if method_name(s.node) is not None]
        for site in sites:
            step = method_name(site.node)
            if step not in stepping or fx.guarded_step(site.node, loop):
                continue
            receiver = ast.unparse(site.node.func.value)
            if receiver == "self":
                continue
            calls = [
                s.node
                for s in sites
                if s.node is not site.node
                and (s.node.lineno, s.node.col_offset) > (site.node.lineno, site.node.col_offset)
                and ast.unparse(s.node.func.value) == receiver
                and not fx.guarded_step(s.node, loop)
                and not _steers_loop(fx, s.node, loop)
            ]
            if calls:
                yield loop, receiver, step, calls
            break


def _steers_loop(fx, call: ast.Call, loop) -> bool:
    """What the call returns reaches, through the loop's assignments, an `if` or `while` test of the loop
    (`new_probs, new_v = net.policy_value(...)`, `kl = np.mean(...new_probs...)`, `if kl > limit: break`:
    AlphaZero_Gomoku's early stop, hold-out 35): the loop needs the value on the host."""
    statement = fx.statement(call)
    if not isinstance(statement, ast.Assign):
        return False
    tainted = {n.id for t in statement.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    nodes = list(ast.walk(loop))
    assigns = [n for n in nodes if isinstance(n, ast.Assign | ast.AugAssign) and n is not statement]
    grown = True
    while grown:
        grown = False
        for node in assigns:
            if {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)} & tainted:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                new = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)} - tainted
                if new:
                    tainted |= new
                    grown = True
    return any(
        isinstance(node, ast.If | ast.While)
        and {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)} & tainted
        for node in nodes
    )
