"""PP505's exception across modules: a DataLoader of a project dataset class whose `__getitem__`
moves each item to the device itself has its batches on the GPU already (pinning CUDA tensors fails), so
its PP505 findings are taken out. Only modules that define `__getitem__` are parsed for such classes."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Collection

from checker.findings import Finding
from checker.module import ModuleIndex, iter_walk, statements_in, walk
from checker.rules.torch_common import base_name, is_device_move, own_returns, returns_in
from checker.rules.torch_data import (
    arrays_handed_in,
    check_loader_without_pinned_memory,
    decoding_classes_through,
    decoding_defs,
    evaluation_loader_with_workers,
    evaluation_named_loader,
    indexing_classes,
    little_to_pin,
    loader_dataset,
    pinning_turned_off,
    pins_decoded_items,
    workers_decode_items,
)
from checker.rules.torch_loop import device_history
from checker.torch_project.common import LOADER_RULE, MOVES, WORKERS_RULE, parse_index

_CLASS = re.compile(r"^\s*class\s+(\w+)", re.MULTILINE)
_CALLED = re.compile(r"\b(\w+)\s*\(")


def without_device_datasets(findings: list[Finding], texts: dict[str, str]) -> list[Finding]:
    """`findings` less the PP505 findings on loaders of a dataset class of the project whose `__getitem__`
    moves each item to the device itself (`signal = signal.to(self.device)`): its batches are on the GPU
    already, and pinning CUDA tensors fails. (PP504 stays: decoding in the main process is still read a
    clear case, though workers need the move taken out of the dataset first.) Only modules whose text
    defines `__getitem__` are parsed for such classes, and only modules with a PP505 finding that name one
    for the loaders."""
    reported = _loader_lines(findings, texts)
    if not reported:
        return findings
    named = {p: set(_CLASS.findall(t)) for p, t in texts.items() if "__getitem__" in t and MOVES.search(t)}
    wanted = {
        c
        for names in named.values()
        for c in names
        if any(c in texts[p] and re.search(rf"\b{c}\s*\(", texts[p]) for p in reported)
    }
    classes = set()
    for path, names in named.items():
        if names & wanted and (index := parse_index(texts[path])) is not None:
            classes |= _device_item_classes(index)
    if not classes:
        return findings
    dropped: set[tuple[str, int]] = set()
    for path, lines in reported.items():
        if not any(c in texts[path] for c in classes):
            continue
        index = parse_index(texts[path])
        if index is not None:
            dropped |= {(path, line) for line in _loaders_of_classes(index, classes, lines)}
    return [f for f in findings if not (f.rule == LOADER_RULE and (f.path, f.line) in dropped)]


def _device_item_classes(index: ModuleIndex) -> set[str]:
    found = set()
    for name, methods in index.class_methods.items():
        getitem = methods.get("__getitem__")
        if getitem is not None and _every_return_moved(getitem, index):
            found.add(name)
    return found


def _every_return_moved(getitem, index: ModuleIndex) -> bool:
    """`__getitem__` copies to the device, and every `return` of it gives back something copied (a move in
    the returned value, or a name some assignment binds to a move). TransCrowd's and FIDTM's `listDataset`
    crop test images onto the GPU under `else:` but return the training item from the CPU under `if
    self.train:` (h42 train.py:143, train_baseline.py:143, listed): the training loader's batches are
    pageable, so its PP505 stays. Only the def's own returns count: a local `def load(path): return
    np.load(path)` returns to `__getitem__`, not from it."""
    moves = [n for n in iter_walk(getitem) if isinstance(n, ast.Call) and is_device_move(n, index)]
    if not moves:
        return False
    return all(
        ret.value is None
        or any(
            n in moves or (isinstance(n, ast.Name) and _moved_before(index, getitem, n.id, ret.lineno))
            for n in iter_walk(ret.value)
        )
        for ret in own_returns(getitem)
    )


def _moved_before(index: ModuleIndex, getitem, name: str, line: int) -> bool:
    """The name's last binding of a known place above the `return` at `line` is on the device (torch_loop's
    line-aware `device_history`; session 25 reread note): `img = img.cuda()` under `else:` does not make the
    `return img` of the `if` above it moved. A binding of unknown place keeps the one before it
    (`signal = self.transformation(signal)` after `signal = signal.to(self.device)`: a transform of a
    device tensor stays there)."""
    last = None
    for at, kind in device_history(index, getitem).get(name, ()):
        if at >= line:
            break
        if kind is not None:
            last = kind
    return last is True


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


def in_memory_classes_lowered(findings: list[Finding], texts: dict[str, str]) -> list[Finding]:
    """`findings` with the PP505 findings above `low` on loaders of a dataset class that another module of the
    project defines and whose `__getitem__` only indexes arrays it holds (`indexing_classes`: `return
    self.x[index]`, converted at most), made from the loader's def's own parameters (`arrays_handed_in`),
    lowered to `low`, as the module's own pass does for such classes of its own: the batches are slices of
    arrays the caller already holds, and pinning them saves little. Hold-out 21
    (torch-fix79): TabNet's `predict`/`predict_proba`/`explain` loaders over `PredictDataset(X)` and
    `SparsePredictDataset(X)` of utils.py, 12 findings in four modules read debatable at `high`."""
    reported = _loader_lines(findings, texts, above_low=True)
    if not reported:
        return findings
    called = {p: set(_CALLED.findall(texts[p])) for p in reported}  # the names each such module calls
    named = {p: set(_CLASS.findall(t)) for p, t in texts.items() if "__getitem__" in t}
    classes: dict[str, set[str]] = {}  # class -> the modules that define it as an indexing class
    for path, names in named.items():
        if any(names & called[p] for p in reported if p != path):
            index = parse_index(texts[path], torch_only=False)
            for name in indexing_classes(index) if index is not None else ():
                classes.setdefault(name, set()).add(path)
    if not classes:
        return findings
    lowered: set[tuple[str, int]] = set()
    for path, lines in reported.items():
        foreign = {c for c, where in classes.items() if path not in where and c in texts[path]}
        index = parse_index(texts[path]) if foreign else None
        if index is not None:
            lowered |= {
                (path, site.node.lineno)
                for site in index.calls
                if site.node.lineno in lines and arrays_handed_in(site.node, index, foreign)
            }
    return [
        dataclasses.replace(f, confidence="low")
        if f.rule == LOADER_RULE and f.cell is None and (f.path, f.line) in lowered
        else f
        for f in findings
    ]


def without_placed_datasets(findings: list[Finding], texts: dict[str, str]) -> list[Finding]:
    """`findings` less the PP505 findings on loaders whose data set holds its tensors on the device already,
    followed across modules: an instance of a project class whose `__init__` moves what `__getitem__` reads to
    the device (`self.data, self.targets = self.data.to(device), self.targets.to(device)`: `_placed_classes`)
    or whose `__getitem__` moves each item, made in the loader's def, returned by a def of the project that
    makes one (`train_dataset, test_dataset = create_MNIST_dataset()`: `_placing_factories`), or wrapped
    (`Subset(train_dataset, idx)`, `ConcatDataset([a, b])`, `random_split(...)`, an attribute of a wrapper
    made from one: `_placed_value`). Pinning CUDA tensors fails, so `pin_memory=False` there is deliberate.
    Hold-out 22 (torch-fix81): DDU's five active-learning loaders over FastMNIST and AmbiguousMNIST, defined
    in data/ and reached through `create_MNIST_dataset`, `Subset` and `ConcatDataset`, read wrong at `high`."""
    reported = _loader_lines(findings, texts)
    if not reported:
        return findings
    classes: set[str] = set()
    for text in texts.values():
        if "__getitem__" in text and MOVES.search(text) and (index := parse_index(text)) is not None:
            classes |= _placed_classes(index)
    if not classes:
        return findings
    makers = set(classes)
    for text in texts.values():
        if "return" in text and any(c in text for c in classes) and (index := parse_index(text)) is not None:
            makers |= _placing_factories(index, classes)
    dropped: set[tuple[str, int]] = set()
    for path, lines in reported.items():
        if not any(re.search(rf"\b{m}\s*\(", texts[path]) for m in makers):
            continue
        index = parse_index(texts[path])
        own = makers - _library_imports(index) if index is not None else set()
        for site in index.calls if index is not None else ():
            dataset = loader_dataset(site.node) if site.node.lineno in lines else None
            if dataset is not None and _placed_value(
                dataset, own, _placed_names(site.function or index.tree, own)
            ):
                dropped.add((path, site.node.lineno))
    return [f for f in findings if not (f.rule == LOADER_RULE and (f.path, f.line) in dropped)]


def _library_imports(index: ModuleIndex) -> set[str]:
    """Names the module imports from a library (`from torchvision.datasets import MNIST`): a project class of
    the same name (`class MNIST(datasets.MNIST)` that moves its tensors in another script) is not this one."""
    return {
        alias.asname or alias.name
        for node in index.imports
        if isinstance(node, ast.ImportFrom)
        and node.level == 0
        and (node.module or "").split(".")[0] in _LIBRARIES
        for alias in node.names
    }


_LIBRARIES = frozenset({"torch", "torchvision", "torchaudio", "torchtext", "torch_geometric", "datasets"})


def _placed_classes(index: ModuleIndex) -> set[str]:
    """The module's Dataset classes whose tensors are on the device: `__getitem__` moves each item, or
    `__init__` binds an attribute `__getitem__` reads to a value moved to the device."""
    found = _device_item_classes(index)
    for name, methods in index.class_methods.items():
        init, getitem = methods.get("__init__"), methods.get("__getitem__")
        if init is None or getitem is None or name in found:
            continue
        moved = {
            t.attr
            for n in walk(init)
            if isinstance(n, ast.Assign)
            and any(isinstance(c, ast.Call) and is_device_move(c, index) for c in walk(n.value))
            for target in n.targets
            for t in _bound_parts(target)
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
        }
        if any(
            isinstance(n, ast.Attribute)
            and n.attr in moved
            and isinstance(n.value, ast.Name)
            and n.value.id == "self"
            for n in walk(getitem)
        ):
            found.add(name)
    return found


def _bound_parts(target: ast.AST) -> list[ast.AST]:
    """The names and attributes an assignment target binds (`a, (b, self.c)` -> a, b, self.c)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return [p for e in target.elts for p in _bound_parts(e)]
    return [target.value] if isinstance(target, ast.Starred) else [target]


def _placing_factories(index: ModuleIndex, classes: set[str]) -> set[str]:
    """The module's top-level defs that return an instance of one of `classes` (made in the return, or a name
    the def binds to one): `return train_dataset, test_dataset` after `train_dataset = FastMNIST(...)`."""
    found = set()
    for name, function in index.module_functions.items():
        placed = _placed_names(function, classes)
        if any(
            ret.value is not None
            and any(_placed_value(v, classes, placed) for v in _returned_parts(ret.value))
            for ret in returns_in(function)
        ):
            found.add(name)
    return found


def _returned_parts(value: ast.AST) -> list[ast.AST]:
    return list(value.elts) if isinstance(value, (ast.Tuple, ast.List)) else [value]


def _called(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _placed_value(value: ast.AST, makers: set[str], placed: set[str]) -> bool:
    """`value` is, or wraps, a data set on the device: a call of a maker, a placed name, an attribute or entry
    of one (`active_learning_data.training_dataset`, `splits[0]`), or a call whose data set (first argument,
    or `dataset=`/`datasets=`) is one of those or a list of them (`Subset(ds, idx)`, `ConcatDataset([a, b])`)."""
    if isinstance(value, ast.Name):
        return value.id in placed
    if isinstance(value, (ast.Attribute, ast.Subscript, ast.Starred)):
        return _placed_value(value.value, makers, placed)
    if isinstance(value, (ast.List, ast.Tuple)):
        return any(_placed_value(e, makers, placed) for e in value.elts)
    if not isinstance(value, ast.Call):
        return False
    if _called(value) in makers:
        return True
    if _called(value) in _NOT_WRAPPERS or _on_module(value):
        return False  # (`len(train_set)`, `np.random.permutation(len(train_set))`: numbers, not the data set)
    given = value.args[:1] + [k.value for k in value.keywords if k.arg in ("dataset", "datasets")]
    return any(_placed_value(g, makers, placed) for g in given)


# calls whose first argument may be a data set but whose result is not one
_NOT_WRAPPERS = frozenset({"len", "range", "enumerate", "zip", "iter", "next", "print", "str", "int"})


def _on_module(call: ast.Call) -> bool:
    """A function of a numeric library module (`np.random.permutation(...)`, `random.sample(...)`): its result
    is computed from the data set, not a wrapper of it. (Not torch: `torch.utils.data.Subset(...)` wraps.)"""
    func = call.func
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id in {"np", "numpy", "random", "math"}


def _placed_names(scope: ast.AST, makers: set[str]) -> set[str]:
    """The names `scope` binds, anywhere in it, to a data set on the device (`_placed_value`), to a fixpoint."""
    assigns = [n for n in statements_in(scope) if isinstance(n, ast.Assign)]
    placed: set[str] = set()
    grown = True
    while grown:
        grown = False
        for node in assigns:
            if _placed_value(node.value, makers, placed):
                for target in node.targets:
                    for part in _bound_parts(target):
                        if isinstance(part, ast.Name) and part.id not in placed:
                            placed.add(part.id)
                            grown = True
    return placed


# what a `__getitem__` that decodes a file names (a cheap test of a module's text before it is parsed)
_DECODING_WORDS = (".load(", "imread", ".read(", "read_image", "pil_loader", "default_loader")
_OPEN = re.compile(r"\bopen\(")


def _decoding_text(text: str) -> bool:
    """The text names what a decoding `__getitem__` calls: `open(` as a word, or one of `_DECODING_WORDS`.
    (Substring tests first: one regex of seven alternatives scanned every character of every project text,
    six times slower.)"""
    return any(word in text for word in _DECODING_WORDS) or (
        "open(" in text and _OPEN.search(text) is not None
    )


def decoding_classes_raised(
    findings: list[Finding], texts: dict[str, str], factory: Collection[tuple[str, int]] = frozenset()
) -> list[Finding]:
    """`findings` with the PP505 `medium` findings on loaders over an instance of a Dataset class that
    another module of the project defines and whose `__getitem__` decodes a file (`decoding_classes`:
    `Image.open`, `np.load`, `librosa.load`), raised to `high`, as a loader over such a class of its own
    module is (`pins_decoded_items`, torch-fix88): the module pass runs again with those classes, and a
    loader only this pass reports is raised when its data set is one and its batches are not otherwise
    little to pin (`little_to_pin`). Most projects define their data set in a module of its own
    (`from dataset import listDataset`: CSRNet's, EAST's, PSMNet's training loaders, listed cases).
    PP504 `medium` findings on such loaders are raised the same way (`workers_decode_items`, torch-fix106:
    hold-outs 30 and 31's listed Context-Aware-Crowd-Counting and Super-SloMo training loaders); not those
    the project pass found at a factory def (`factory`: (path, line)), which the module pass never judged.
    First, the project's `high` findings on evaluation loaders with workers go to `medium`
    (`evaluation_loaders_lowered`), and such loaders are never raised."""
    findings = evaluation_loaders_lowered(findings, texts)
    medium: dict[str, set[int]] = {}
    workerless: dict[str, set[int]] = {}
    for f in findings:
        if f.cell is None and f.confidence == "medium" and f.path in texts:
            if f.rule == LOADER_RULE:
                medium.setdefault(f.path, set()).add(f.line)
            elif f.rule == WORKERS_RULE and (f.path, f.line) not in factory:
                workerless.setdefault(f.path, set()).add(f.line)
    for path in workerless:
        medium.setdefault(path, set())
    if not medium:
        return findings
    called = {p: set(_CALLED.findall(texts[p])) for p in medium}
    makers = _factory_modules(texts, called)
    wanted = [*called.items(), *makers.items()]
    classes: dict[str, set[str]] = {}  # class -> the modules that define it as a decoding class
    reader_defs = {path: set(_DEF.findall(text)) for path, text in texts.items() if _decoding_text(text)}
    readers = set().union(*reader_defs.values()) if reader_defs else set()
    callers: dict[str, set[str]] = {}  # name -> the loader and factory modules calling it
    for p, names_called in wanted:
        for name in names_called:
            callers.setdefault(name, set()).add(p)
    datasets = {
        path: text
        for path, text in texts.items()
        if "__getitem__" in text
        and (_decoding_text(text) or set(_CALLED.findall(text)) & readers)
        and any(callers.get(name, set()) - {path} for name in set(_CLASS.findall(text)))
    }
    helpers = _decoding_helpers(texts, reader_defs, datasets)
    for path, text in datasets.items():
        index = parse_index(text, torch_only=False)
        for name in decoding_classes_through(index, helpers) if index is not None else ():
            classes.setdefault(name, set()).add(path)
    for name, where in _decoding_factories(texts, makers, classes).items():
        classes.setdefault(name, set()).update(where)
    raised: set[tuple[str, int]] = set()
    raised_workers: set[tuple[str, int]] = set()  # (PP504 `medium` findings over such a class: torch-fix106)
    for path, lines in medium.items():
        foreign = frozenset(c for c, where in classes.items() if path not in where and c in called[path])
        index = parse_index(texts[path]) if foreign else None
        if index is None:
            continue
        judged = {raw.line: raw.confidence for raw in check_loader_without_pinned_memory(index, foreign)}
        raised |= {(path, line) for line in lines if judged.get(line) == "high"}
        raised_workers |= _workers_raised(index, path, workerless.get(path, set()), foreign)
        raised |= {
            (path, site.node.lineno)
            for site in index.calls
            if site.node.lineno in lines
            and site.node.lineno not in judged
            and loader_dataset(site.node) is not None
            and not little_to_pin(index, site.node)
            and not pinning_turned_off(site.node, index)
            and not evaluation_loader_with_workers(site.node, index)
            and pins_decoded_items(site.node, index, foreign)
        }
    return [
        dataclasses.replace(f, confidence="high")
        if f.cell is None
        and (
            (f.rule == LOADER_RULE and (f.path, f.line) in raised)
            or (f.rule == WORKERS_RULE and (f.path, f.line) in raised_workers)
        )
        else f
        for f in findings
    ]


def evaluation_loaders_lowered(findings: list[Finding], texts: dict[str, str]) -> list[Finding]:
    """`findings` with the PP505 `high` findings on evaluation loaders with workers
    (`evaluation_loader_with_workers`) lowered to `medium`, as the module pass reports them: the project
    pass finds `high` loaders of its own (a def of one module returns `test_loader`, a loop of another
    copies its batches: hold-out 47's VainF `get_dataloader`, seven test loaders read debatable).
    Only the modules with such a finding are parsed (torch-fix137)."""
    reported: dict[str, set[int]] = {}
    for f in findings:
        if f.rule == LOADER_RULE and f.cell is None and f.confidence == "high" and f.path in texts:
            reported.setdefault(f.path, set()).add(f.line)
    lowered: set[tuple[str, int]] = set()
    for path, lines in reported.items():
        index = parse_index(texts[path]) if "worker" in texts[path] else None
        if index is not None:
            lowered |= {
                (path, site.node.lineno)
                for site in index.calls
                if site.node.lineno in lines and evaluation_loader_with_workers(site.node, index)
            }
    return [
        dataclasses.replace(f, confidence="medium")
        if f.rule == LOADER_RULE and f.cell is None and f.confidence == "high" and (f.path, f.line) in lowered
        else f
        for f in findings
    ]


def evaluation_medium_lowered(findings: list[Finding], texts: dict[str, str]) -> list[Finding]:
    """`findings` with the PP505 `medium` findings of modules (not notebook cells) on loaders named for
    evaluation (`evaluation_named_loader`) lowered to `low`, after the project's raising
    (`decoding_classes_raised`), so a loader raised to `high` stays there. Only the modules with such a
    finding are parsed (torch-fix154)."""
    reported: dict[str, set[int]] = {}
    for f in findings:
        if f.rule == LOADER_RULE and f.cell is None and f.confidence == "medium" and f.path in texts:
            reported.setdefault(f.path, set()).add(f.line)
    lowered: set[tuple[str, int]] = set()
    for path, lines in reported.items():
        index = parse_index(texts[path])
        if index is not None:
            lowered |= {
                (path, site.node.lineno)
                for site in index.calls
                if site.node.lineno in lines
                and loader_dataset(site.node) is not None
                and evaluation_named_loader(site.node, index)
            }
    if not lowered:
        return findings
    return [
        dataclasses.replace(f, confidence="low")
        if f.rule == LOADER_RULE
        and f.cell is None
        and f.confidence == "medium"
        and (f.path, f.line) in lowered
        else f
        for f in findings
    ]


def _workers_raised(
    index: ModuleIndex, path: str, lines: set[int], foreign: frozenset[str]
) -> set[tuple[str, int]]:
    """(path, line) of the module's PP504 `medium` findings (`lines`) whose loader's data set is one of the
    `foreign` decoding classes (`workers_decode_items`). A `medium` PP504 finding is one the module pass
    (`check_loader_main_process`) already judged in every other respect, with its data set the one thing
    it could not see: that fact is shared here instead of running the whole check again (torch-fix113)."""
    if not lines:
        return set()
    return {
        (path, site.node.lineno)
        for site in index.calls
        if site.node.lineno in lines
        and loader_dataset(site.node) is not None
        and workers_decode_items(site.node, index, foreign)
    }


_DEF = re.compile(r"^def\s+(\w+)", re.MULTILINE)


def _factory_modules(texts: dict[str, str], called: dict[str, set[str]]) -> dict[str, set[str]]:
    """The modules (other than the loaders' own) that define a module-level def a loader's module calls
    and return a call from one, with the names each calls: where a data set factory may live
    (`from data import get_training_set`)."""
    wanted = set().union(*called.values())
    return {
        path: set(_CALLED.findall(text))
        for path, text in texts.items()
        if path not in called and "return " in text and set(_DEF.findall(text)) & wanted
    }


def _decoding_factories(
    texts: dict[str, str], makers: dict[str, set[str]], classes: dict[str, set[str]]
) -> dict[str, set[str]]:
    """Module-level defs that return an instance of a decoding Dataset class (`classes`, of any module of the
    project) made in their last statement or any `return` (`def get_training_set(root_dir, direction): ...
    return DatasetFromFolder(train_dir, direction)`): a data set made through such a factory decodes each
    item as the class's own instance does. torch-fix89: hold-out 25's pix2pix-pytorch loaders (`train_set =
    get_training_set(...)`, data.py over dataset.py's `DatasetFromFolder`, whose `__getitem__` opens two
    images with PIL) were lowered for want of this. Maps each factory to the modules that define it."""
    found: dict[str, set[str]] = {}
    for path, names in makers.items():
        if not names & set(classes):
            continue
        index = parse_index(texts[path], torch_only=False)
        for name, function in index.module_functions.items() if index is not None else ():
            if any(
                isinstance(r.value, ast.Call) and base_name(r.value.func) in classes
                for r in walk(function)
                if isinstance(r, ast.Return)
            ):
                found.setdefault(name, set()).add(path)
    return found


def _decoding_helpers(
    texts: dict[str, str], reader_defs: dict[str, set[str]], datasets: dict[str, str]
) -> frozenset[str]:
    """Module-level defs of the project that open and decode a file (`decoding_defs`) and that a data set
    module calls by name (`from utils.preprocessing import load_img`): only the modules defining such a
    def are parsed."""
    called = set().union(*(set(_CALLED.findall(t)) for t in datasets.values())) if datasets else set()
    found: set[str] = set()
    for path, names in reader_defs.items():
        if names & called:
            index = parse_index(texts[path], torch_only=False)
            found |= decoding_defs(index, called) if index is not None else set()
    return frozenset(found)


def _loader_lines(
    findings: list[Finding], texts: dict[str, str], above_low: bool = False
) -> dict[str, set[int]]:
    """Module path -> the lines of its PP505 findings (outside notebook cells, in modules whose text is at
    hand; with `above_low`, only those above `low`): the loaders the project-wide steps ask about."""
    reported: dict[str, set[int]] = {}
    for f in findings:
        if (
            f.rule == LOADER_RULE
            and f.cell is None
            and f.path in texts
            and not (above_low and f.confidence == "low")
        ):
            reported.setdefault(f.path, set()).add(f.line)
    return reported
