"""PP501 across modules: a training loop that reads values on the host every step, in a module that
moves nothing to a GPU itself (a trainer or agent module) while a module of the project that imports it
does (the script that places the model and batches), judged as if on the GPU, at medium; and a loop that
reads a loss through a def of another module (`epoch_loss += utils.to_scalar(loss)`)."""

from __future__ import annotations

import ast
import bisect
import collections
import functools
import os
import re

from checker.findings import Finding
from checker.module import ModuleIndex
from checker.noqa import file_is_silenced, noqa_lines, silenced
from checker.project_files import import_word, module_paths
from checker.rules.torch_common import lowered_on_toys, uses_torch
from checker.rules.torch_sync import (
    check_host_sync,
    host_readers,
    instance_methods,
    parameter_reads,
    reading_methods,
    stepping_returns,
)
from checker.torch_project.common import (
    TRAINS,
    checked_texts,
    import_aliases,
    import_lines,
    importers,
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
        texts = checked_texts(project_texts(files, sources))
        findings = findings + _reads_off_device(texts, findings)
        findings = findings + _reader_loops(texts, findings)
        findings = findings + _stepper_loops(texts, findings)
        findings = findings + _untorched_modules(texts, findings)
    return findings


_IMPORTS_TORCH = re.compile(r"^[ \t]*(?:import|from)[ \t]+torch(?:vision)?\b", re.MULTILINE)


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
        word in _WORD.findall(import_lines(texts[p])) and path in _imported_paths(texts[p], p)
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
    starts = [m.start() for m in _MARGIN.finditer(text)] + [len(text)]
    for start, stop in zip(starts, starts[1:], strict=False):
        head = _TOP_NAME.match(text, start)
        at = bisect.bisect_left(reads, start)
        if head is not None and at < len(reads) and reads[at] < stop:
            (defs if head.group(1) == "def" else classes)[head.group(2)] = (start, stop)
    return defs, classes


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


_MARGIN = re.compile(r"^\S", re.MULTILINE)
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


def _reader_loops(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
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
    indexes: dict = {}  # (path -> index: a user is parsed once for its readers, own defs and classes)
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
    starts = [m.start() for m in _MARGIN.finditer(text)] + [len(text)]
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
    summaries: dict[tuple[str, str], dict] = {}
    found = []
    for index, chosen, path in importers(_loading(users, classes, texts), classes, made, torch_only=False):
        methods = {}
        for name, entries in _loaded(chosen, texts, path).items():
            for (maker,) in entries:
                if (maker, name) not in summaries:
                    start, end = _stepping_class_spans(texts[maker])[name]
                    definer = parse_index(texts[maker][start:end], torch_only=False)
                    summaries[maker, name] = stepping_returns(definer) if definer is not None else {}
                methods.setdefault(name, {}).update(summaries[maker, name])
        steppers = instance_methods(index, {c: m for c, m in methods.items() if m})
        if not steppers:
            continue
        check = lowered_on_toys(functools.partial(check_host_sync, steppers=steppers))
        found += _new_reads(check, index, path, texts[path], reported)
    return found


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
    name, with where each runs."""
    starts = [m.start() for m in _MARGIN.finditer(text)] + [len(text)]
    found = {}
    for start, stop in zip(starts, starts[1:], strict=False):
        head = _TOP_NAME.match(text, start)
        if head is not None and head.group(1) == "class" and ".backward(" in text[start:stop]:
            found[head.group(2)] = (start, stop)
    return found


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
        for word in stems.intersection(_WORD.findall(import_lines(texts[p]))):
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
    starts = [m.start() for m in _MARGIN.finditer(text)] + [len(text)]
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
