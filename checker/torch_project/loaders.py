"""PP505 across modules: DataLoader batches copied to the GPU from pageable memory, where one module
makes the loader and another copies its batches.

Projects often build their loaders in a module of their own (`data_factory.py`: `def get_loader(...):
return DataLoader(...)`) and train in another, or hand a loader to a trainer class defined elsewhere
(`BERTTrainer(bert, train_dataloader=loader)`). This pass parses only the modules whose text makes a
DataLoader (or takes their `module_facts` from the per-module pass), then only those whose text calls one
of the makers, names a class keeping one, or defines one of the callees a loader is handed to; it reports
PP505 at the unpinned DataLoader when the other module copies its batches. The findings on loaders of a
dataset that moves its own items to the device are then dropped (device_datasets.py)."""

from __future__ import annotations

import ast
import re
from typing import NamedTuple

from checker.findings import Finding
from checker.module import ModuleIndex, import_of
from checker.noqa import file_is_silenced, noqa_lines, silenced, silenced_at
from checker.project_files import module_file, names_file
from checker.rules import finding, rule_selected
from checker.rules.torch_common import does_nothing, forget_facts, uses_torch
from checker.rules.torch_data import (
    batches_handed_out,
    check_loader_without_pinned_memory,
    consumed_params,
    copies_parameter,
    handed_made,
    handed_over,
    held_loaders,
    little_to_pin,
    made_on_device,
    moves_batches_of,
    moves_held_batches,
    pinned_copy_negligible,
    pinned_memory_message,
    pinning_turned_off,
    pins_decoded_items,
    returned_by_methods,
    returned_loaders,
    take_loader_for_torch,
    take_movers,
    token_batches,
    unpinned,
    workerless_makers,
    workers_message,
)
from checker.torch_project.common import (
    LOADER_RULE,
    WORKERS_RULE,
    callee_owner,
    checked_texts,
    imported_from,
    importers,
    parse_index,
    project_finding,
    project_texts,
    star_imported,
)
from checker.torch_project.device_datasets import (
    decoding_classes_raised,
    evaluation_medium_lowered,
    in_memory_classes_lowered,
    without_device_datasets,
    without_placed_datasets,
)
from checker.torch_project.movers import project_movers


def loaders_across_modules(
    findings: list[Finding],
    projects: list[list[str]],
    codes=None,
    sources: dict | None = None,
    known: dict | None = None,
) -> list[Finding]:
    """`findings` with a PP505 finding added for each unpinned DataLoader that one module of a project makes
    and another copies the batches of, and with those on loaders of datasets that move their own items to
    the device taken out. `sources` holds the texts the per-module pass read and `known` its `module_facts`
    (by path); other files are read and parsed here, each once."""
    sources = {} if sources is None else sources
    return _pinned_across_modules(findings, projects, codes, sources, known)


def _pinned_across_modules(
    findings: list[Finding], projects: list[list[str]], codes, sources: dict, known: dict | None
) -> list[Finding]:
    pinning = rule_selected(codes, LOADER_RULE)
    workers = rule_selected(codes, WORKERS_RULE)
    if not (pinning or workers):
        return findings
    sources, known = {} if sources is None else sources, known or {}
    for files in projects:
        texts = project_texts(files, sources)
        if not texts:
            continue
        checked = checked_texts(texts)
        factory = _workerless_in_project(checked, findings, known) if workers else []
        findings = findings + factory
        made = {(f.path, f.line) for f in factory}  # (not the module pass's: `decoding_classes_raised`)
        if not pinning:
            findings = decoding_classes_raised(findings, texts, made)  # (PP504's, torch-fix106)
            continue
        found = _in_project(checked, findings, known) + _torch_loaders_renamed(checked, findings)
        found += _moved_by_imported_helpers(checked, findings + found)
        findings = without_placed_datasets(without_device_datasets(findings + found, texts), texts)
        findings = decoding_classes_raised(in_memory_classes_lowered(findings, texts), texts, made)
        findings = evaluation_medium_lowered(findings, texts)
    return findings


def _workerless_in_project(texts: dict[str, str], findings: list[Finding], known: dict) -> list[Finding]:
    """PP504 findings at the loaders a factory def makes without workers (`workerless_makers`) and
    returns to another module of the project that copies their batches to the device, itself or through a
    def or class it hands them to (`train_loader = create_dataloader(mode="train")`, then
    `trainer(model, optimizer, train_loader, DEVICE)`): the chain PP505 follows for an unpinned factory
    loader (`_made_elsewhere`, `_used_elsewhere`), at the level the module's own pass gives such a loader."""
    reported = {(f.path, f.line) for f in findings if f.rule == WORKERS_RULE}
    makers: dict[str, list[tuple[str, int, int, int]]] = {}
    facts: dict[tuple[str, int, int], tuple[str, bool]] = {}
    for path, text in texts.items():
        if "DataLoader" not in text or "return" not in text or file_is_silenced(text):
            continue
        if path in known and (known[path] is None or known[path].workerless is not None):
            entries = () if known[path] is None else known[path].workerless  # (the module pass's: no parse)
        else:  # (not a module the run saw, or its facts were made without PP504's: `workerless` None)
            index = parse_index(text)
            entries = () if index is None else _workerless_entries(index)
        for name, line, col, where, level, given in entries:
            if (path, line) not in reported:
                makers.setdefault(name, []).append((path, line, col, where))
                facts[(path, line, col)] = (level, given)
    if not makers:
        return []
    made, handoffs = _made_elsewhere(texts, makers, {})
    trained = {(p, line, col) for p, line, col, _ in made | _used_elsewhere(texts, handoffs)}
    found = []
    for path, line, col in sorted(trained):
        if silenced_at(texts[path], line, WORKERS_RULE):
            continue
        level, given = facts[(path, line, col)]
        found.append(finding(path, line, col, WORKERS_RULE, workers_message(given), level))
    return found


def _workerless_entries(index: ModuleIndex) -> list[tuple[str, int, int, int, str, bool]]:
    """`workerless_makers` as plain tuples (def name, line, column, where returned, level, num_workers
    given), for the project pass and for `module_facts`."""
    return [
        (name, call.lineno, call.col_offset, where, level, given)
        for name, call, where, level, given in workerless_makers(index)
    ]


class LoaderFacts(NamedTuple):
    """What the project pass needs of a module that makes DataLoaders, as plain tuples (no tree kept, so a
    pool's worker can send it back). Fields by name: adding one shifts no other's meaning (review item 15)."""

    # [(def name, line, column, where returned)]: unpinned loaders a def returns
    makers: list
    # [(line, column, callee, parameter, module imported from)]: unpinned loaders passed to an imported def
    handoffs: list
    # [(class, attribute, line, column)]: unpinned loaders a class keeps (`self.train = DataLoader(...)`)
    held: list
    # {(line, column)} of loaders whose batches are token ids or data held in memory (`little_to_pin`):
    # reported at medium, the others at high
    little: set
    # [(line, column, callee, position)]: batches handed unmoved to a def another module defines
    batches: list
    # [(method name, line, column, where returned)]: unpinned loaders a class's method returns
    # (`dataset.loaders(...)`)
    methods: list
    # {(line, column)} of loaders the module pass would report at `low` (`pinned_copy_negligible`:
    # TensorDatasets, token ids, arrays handed in; torch-fix96)
    negligible: set
    # PP504's factory loaders without workers (`_workerless_entries`, for `_workerless_in_project`); None
    # when not worked out (`workers` False), [] when there are none (review 24 item 19)
    workerless: list | None
    # {(line, column)} of loaders whose data set is on the device already (`made_on_device`): never reported,
    # pinning CUDA tensors fails (torch-fix154)
    on_device: frozenset = frozenset()


def module_facts(index: ModuleIndex, workers: bool = True) -> LoaderFacts | None:
    """`LoaderFacts` of a module: the per-module pass computes them from its own index (checker/walker.py) so
    that the project pass does not parse the module again; None for a module that does not use torch.

    `workerless` (PP504's) is None, not worked out, when `workers` is False: the walker says so when PP504
    is not selected, when nothing reads it (review item 16; torch-speed14). None and not [] so that facts
    reused by a run with PP504 are not read as "no workerless loaders" (review 24 item 19)."""
    if not uses_torch(index):
        return None
    returned = returned_loaders(index)
    made = [
        (name, call, where)
        for name, loaders in returned.items()
        for call, where in loaders
        if unpinned(call, index)
    ]
    makers = [(name, call.lineno, call.col_offset, where) for name, call, where in made]
    handed = [
        (call, callee, param, module)
        for call, callee, param in handed_over(index)
        for module in _callee_modules(index, callee_owner(callee))
        if not token_batches(index, call)  # (a few KB of token ids a step, as the module's own pass says)
    ]
    handoffs = [
        (call.lineno, call.col_offset, callee, param, module) for call, callee, param, module in handed
    ]
    kept = held_loaders(index)
    held = [(owner, attr, call.lineno, call.col_offset) for call, owner, attr in kept]
    given = batches_handed_out(index)
    batches = [(call.lineno, call.col_offset, name, position) for call, name, position in given]
    owned = [
        (name, call, where) for name, loaders in returned_by_methods(index).items() for call, where in loaders
    ]
    methods = [(name, call.lineno, call.col_offset, where) for name, call, where in owned]
    calls = [c for _, c, _ in made] + [c for c, _, _, _ in handed] + [c for c, _, _ in kept]
    calls += [c for c, _, _ in given] + [c for _, c, _ in owned]
    little = {
        (c.lineno, c.col_offset)
        for c in calls
        if little_to_pin(index, c) or not pins_decoded_items(c, index) or pinning_turned_off(c, index)
    }
    negligible = {(c.lineno, c.col_offset) for c in calls if pinned_copy_negligible(index, c)}
    on_device = frozenset((c.lineno, c.col_offset) for c in calls if made_on_device(c, index))
    # (`workerless_makers` reads only the loaders a def returns: none, nothing to ask)
    workerless = None if not workers else _workerless_entries(index) if returned else []
    return LoaderFacts(makers, handoffs, held, little, batches, methods, negligible, workerless, on_device)


def _callee_modules(index: ModuleIndex, name: str) -> list[str]:
    """The modules a def or class the module calls may come from: the one it is imported from, else each
    module the module star-imports (`from trainer import *`, then `train_model(model=model,
    db_gen=devset_gen, ...)`: RawNet2's loop is in trainer.py); the project pass keeps the one that defines
    it."""
    module = imported_from(index, name)
    if module is not None:
        return [module]
    return [m for m in star_imported(index) if m]


def _in_project(texts: dict[str, str], findings: list[Finding], known: dict) -> list[Finding]:
    reported = {(f.path, f.line) for f in findings if f.rule == LOADER_RULE}
    makers: dict[str, list[tuple[str, int, int, int]]] = {}
    handoffs: dict[str, list[tuple[str, int, int, str | int, str]]] = {}
    held: dict[str, list[tuple[str, int, int, str]]] = {}
    batches: dict[str, list[tuple[str, int, int, int]]] = {}
    methods: dict[str, list[tuple[str, int, int, int]]] = {}
    little: dict[str, set[tuple[int, int]]] = {}
    negligible: dict[str, set[tuple[int, int]]] = {}
    on_device: dict[str, frozenset] = {}
    for path, text in texts.items():
        if "DataLoader" not in text or file_is_silenced(text):
            continue
        if path in known:
            found = known[path]
        else:
            index = parse_index(text)
            found = None if index is None else module_facts(index, workers=False)  # (workerless: unread)
        if found is None:
            continue
        # (loaders of token ids, of data held in memory, or not decoding: not at high)
        little[path] = found.little
        negligible[path] = found.negligible  # (what the module pass would report at low: torch-fix96)
        on_device[path] = found.on_device
        for name, line, col, where in found.makers:
            if (path, line) not in reported:
                makers.setdefault(name, []).append((path, line, col, where))
        for line, col, callee, param, module in found.handoffs:
            if (path, line) not in reported:
                handoffs.setdefault(callee, []).append((path, line, col, param, module))
        for owner, attr, line, col in found.held:
            if (path, line) not in reported:
                held.setdefault(owner, []).append((path, line, col, attr))
        for line, col, name, position in found.batches:
            if (path, line) not in reported:
                batches.setdefault(name, []).append((path, line, col, position))
        for name, line, col, where in found.methods:
            if (path, line) not in reported:
                methods.setdefault(name, []).append((path, line, col, where))
    made, handoffs = _made_elsewhere(texts, makers, handoffs)
    trained = made | _used_elsewhere(texts, handoffs) | _held_elsewhere(texts, held)
    trained |= _copied_elsewhere(texts, batches) | _method_made_elsewhere(texts, methods)
    found = []
    named = {}
    for path, line, col, name in sorted(trained):
        named.setdefault((path, line, col), name)  # one finding a loader, whatever the names it goes by
    for (path, line, col), name in named.items():
        if silenced_at(texts[path], line, LOADER_RULE) or (line, col) in on_device.get(path, ()):
            continue
        message = pinned_memory_message(name)
        level = "medium" if (line, col) in little.get(path, ()) else "high"  # (torch-calibrate31)
        if (line, col) in negligible.get(path, ()):
            level = "low"  # (as the module pass reports the same loader: `pinned_copy_negligible`)
        found.append(finding(path, line, col, LOADER_RULE, message, level))
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
    for index, chosen, _ in importers(texts, makers, called, torch_only=False):
        where = {n: {m[3] for m in entries} for n, entries in chosen.items() if entries}
        moved = moves_batches_of(index, where)
        for name in moved:
            trained.update((p, line, col, f"{name}()") for p, line, col, _ in chosen[name])
        unmoved = {n: w for n, w in where.items() if n not in moved}
        for maker, at, callee, param in handed_made(index, unmoved):
            module = imported_from(index, callee_owner(callee))
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
        owners.setdefault(callee_owner(callee), []).append(callee)
    defined = re.compile(r"^\s*(?:class|def)\s+(" + "|".join(map(re.escape, owners)) + r")\b", re.MULTILINE)
    trained = set()
    for path, text in texts.items():
        names = {
            n
            for owner in defined.findall(text)
            for n in owners[owner]
            if any(p != path and names_file(module, path) for p, _, _, _, module in handoffs[n])
        }
        if not names:
            continue
        index = parse_index(text)
        if index is None:
            continue
        for name in names:
            found = consumed_params(index, name)
            if found is None:
                continue
            params, consumed = found
            for loader_path, line, col, param, module in handoffs[name]:
                if loader_path == path or not names_file(module, path):
                    continue
                named = params[param] if isinstance(param, int) and param < len(params) else param
                if named in consumed:
                    trained.add((loader_path, line, col, f"{name}(..., {named})"))
    return trained


def _copied_elsewhere(texts: dict[str, str], batches: dict) -> set[tuple[str, int, int, str]]:
    """(path, line, column, name) of the loaders whose batches a loop hands to a method or def its module
    does not define (`x, y = model.parse_batch(batch)`) that every other module of the project defining
    that name copies to the device (model.py's `parse_batch`: `to_gpu(text_padded).long()`, ...). Only the
    modules whose text defines one of the names are parsed."""
    if not batches:
        return set()
    defined = re.compile(r"^\s*def\s+(" + "|".join(map(re.escape, batches)) + r")\s*\(", re.MULTILINE)
    verdicts: dict[tuple[str, int], list[tuple[str, bool]]] = {}
    for path, text in texts.items():
        names = set(defined.findall(text))
        if not names:
            continue
        index = parse_index(text)
        for name in names:
            for position in {e[3] for e in batches[name]}:
                copies = index is not None and copies_parameter(index, name, position)
                verdicts.setdefault((name, position), []).append((path, bool(copies)))
    trained = set()
    for name, entries in batches.items():
        for loader_path, line, col, position in entries:
            found = [copies for path, copies in verdicts.get((name, position), ()) if path != loader_path]
            if found and all(found):
                trained.add((loader_path, line, col, f"{name}(...)"))
    return trained


def _method_made_elsewhere(texts: dict[str, str], methods: dict) -> set[tuple[str, int, int, str]]:
    """(path, line, column, name) of the loaders a class's method makes and returns (`methods`: name ->
    entries) that a module where no class defines that method calls on an object it is handed and copies
    the batches of (Deep-SVDD's trainers: `train_loader, _ = dataset.loaders(batch_size=...)`, then
    `inputs = inputs.to(self.device)` for each batch; `loaders` is `TorchvisionDataset`'s). A method name
    that some other def of the project defines with a body of its own (not a template: `pass`, `raise
    NotImplementedError`) is not followed: the object could be of that class."""
    if not methods:
        return set()
    defined = re.compile(r"^\s*def\s+(" + "|".join(map(re.escape, methods)) + r")\s*\(", re.MULTILINE)
    called = re.compile(r"\.(" + "|".join(map(re.escape, methods)) + r")\s*\(")
    makers = {name: {e[0] for e in entries} for name, entries in methods.items()}
    ambiguous: set[str] = set()
    callers: dict[str, set[str]] = {}
    for path, text in texts.items():
        for name in set(defined.findall(text)):
            if path not in makers[name] and not _only_templates(text, name):
                ambiguous.add(name)
        for name in set(called.findall(text)):
            if makers[name] - {path}:
                callers.setdefault(path, set()).add(name)
    trained = set()
    for path, names in callers.items():
        names -= ambiguous
        index = parse_index(texts[path]) if names else None
        if index is None:
            continue
        names -= {n for methods_of in index.class_methods.values() for n in methods_of}  # (its own pass)
        for name in names:
            entries = [e for e in methods[name] if e[0] != path]
            for where in {e[3] for e in entries}:
                if moves_batches_of(index, {name: {where}}):
                    trained.update((p, line, col, f"{name}()") for p, line, col, w in entries if w == where)
    return trained


def _only_templates(text: str, name: str) -> bool:
    """Every def named `name` in the module's text is a template (`@abstractmethod def loaders(...): pass`)."""
    index = parse_index(text, torch_only=False)
    if index is None:
        return False
    defs = [f for f in index.functions if getattr(f, "name", None) == name]
    return all(does_nothing(f) for f in defs)


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
    for index, chosen, _ in importers(texts, held, named):
        attrs = {n: {e[3] for e in entries} for n, entries in chosen.items() if entries}
        for owner, attr in moves_held_batches(index, attrs):
            trained.update(
                (p, line, col, f"{owner}(...).{attr}") for p, line, col, a in chosen[owner] if a == attr
            )
    return trained


# (`from data import COCO, DataLoader`: a `DataLoader` a module imports from a module that is not torch's)
_LOADER_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+[^\n]*\bDataLoader\b", re.MULTILINE
)


def _torch_loaders_renamed(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP505 findings of the module pass in modules that import `DataLoader` from a module of the project
    handing on torch's (`_hands_on_torch_loader`), which that pass skips as a project's own loader class
    (checker/rules/torch_data.py's `_foreign_loader`): hold-out 17's meshed-memory transformer (`from data
    import COCO, DataLoader`, data/__init__.py's `class DataLoader(TorchDataLoader)` adding a collate_fn)
    and hold-out 13's Transformer-TTS (`from preprocess import get_dataset, DataLoader`, preprocess.py
    importing torch's). The module is parsed again and told its loader is torch's."""
    reported = {(f.path, f.line) for f in findings if f.rule == LOADER_RULE}
    files = set(texts)
    found = []
    for path, text in texts.items():
        if "DataLoader" not in text or file_is_silenced(text):
            continue
        sources = {
            module_file(m.group(2), path, len(m.group(1)), files) for m in _LOADER_IMPORT.finditer(text)
        }
        if not any(s is not None and s != path and _hands_on_torch_loader(texts[s]) for s in sources):
            continue
        index = parse_index(text)
        if index is None:
            continue
        take_loader_for_torch(index)
        noqa = noqa_lines(text)
        for raw in check_loader_without_pinned_memory(index):
            if (path, raw.line) not in reported and not silenced(noqa.get(raw.line), LOADER_RULE):
                found.append(project_finding(path, raw, LOADER_RULE))
    return found


def _hands_on_torch_loader(text: str) -> bool:
    """The module's `DataLoader` is torch's: imported from torch and not redefined (a re-export), or a class
    of the module derived from torch's that keeps its iteration and says nothing of pinning (no `__iter__`,
    no `pin_memory`: a pinned copy is the caller's to ask for)."""
    index = parse_index(text, torch_only=False)
    if index is None:
        return False
    classes = [n for n in index.tree.body if isinstance(n, ast.ClassDef) and n.name == "DataLoader"]
    if not classes:
        return _torch_name(index, "DataLoader")
    return len(classes) == 1 and (
        any(isinstance(b, ast.Name) and _torch_name(index, b.id) for b in classes[0].bases)
        and "__iter__" not in index.class_methods.get("DataLoader", {})
        and "pin_memory" not in ast.unparse(classes[0])
    )


def _torch_name(index: ModuleIndex, name: str) -> bool:
    """`name` is imported from torch's data package (`from torch.utils.data import DataLoader as TDL`)."""
    found = import_of(name, index)
    return (
        found is not None
        and found[0] == 0
        and found[1].startswith("torch.utils.data")
        and found[2] == "DataLoader"
    )


def _moved_by_imported_helpers(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP505 findings of the module pass in modules whose loops copy their loaders' batches through a def
    imported from another module of the project that copies its first argument to the device, whatever
    its name (the project's movers table, checker/torch_project/movers.py): hold-out 18's DiffAb (`from
    diffab.utils.train import *`, then `batch = recursive_to(next(train_iterator), args.device)`) and ADDA
    (`make_variable(images)`, which `.cuda()`s its argument under `torch.cuda.is_available()`). The module is
    parsed again and told which of its imported names move (`take_movers`); only modules that make a
    DataLoader and may import a mover are looked at, and only the modules they import from are read."""
    reported = {(f.path, f.line) for f in findings if f.rule == LOADER_RULE}
    movers = project_movers(texts)
    found = []
    for path, text in texts.items() if movers.names else ():
        if "DataLoader" not in text or file_is_silenced(text) or not movers.may_import(text):
            continue
        index = parse_index(text)
        names = frozenset() if index is None else frozenset(movers.imported(path, index))
        if not names:
            continue
        forget_facts(index)  # (fresh facts: the movers must be known before any rule reads the module)
        take_movers(index, names)
        noqa = noqa_lines(text)
        for raw in check_loader_without_pinned_memory(index):
            if (path, raw.line) not in reported and not silenced(noqa.get(raw.line), LOADER_RULE):
                found.append(project_finding(path, raw, LOADER_RULE))
    return found
