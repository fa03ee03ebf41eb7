"""PP504, PP505: DataLoaders that load in the training process, or copy batches from pageable memory."""

from __future__ import annotations

import ast

from checker.findings import RawFinding
from checker.module import LOOP_TYPES, ModuleIndex
from checker.rules import Rule, register
from checker.rules.torch_common import base_name, facts, is_device_move, loop_nodes

_LOADERS = frozenset({"torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"})
_IN_MEMORY = frozenset({"torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset"})
_NUM_WORKERS_POSITION = (
    5  # DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers, ...)
)
_PIN_MEMORY_POSITION = 7


def _is_loader(call: ast.Call, index: ModuleIndex, aliases: frozenset[str]) -> bool:
    """`DataLoader(...)`, `data.DataLoader(...)`, `DL(...)` after `import DataLoader as DL`; a snippet's bare
    `DataLoader` counts unless the module defines its own."""
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr == "DataLoader" and index.resolver.call_name(call) in _LOADERS
    if not isinstance(func, ast.Name):
        return False
    return func.id in aliases or (func.id == "DataLoader" and "DataLoader" not in index.class_methods)


def _argument(call: ast.Call, keyword: str, position: int):
    """(given, value): the argument by keyword or position; given is None when `**kwargs` may hold it."""
    for k in call.keywords:
        if k.arg == keyword:
            return True, k.value
    if len(call.args) > position:
        return True, call.args[position]
    if any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args):
        return None, None
    return False, None


def loaders_of(index: ModuleIndex) -> list[tuple[ast.Call, set[str]]]:
    """Each DataLoader(...) call with the names it goes by: those it is bound to, and the parameters of the
    module's defs it is passed to (`train(model, train_loader)` -> `def train(model, loader)`)."""
    found = list(_loaders(index))
    if not found:
        return found
    passed: dict[str, set[str]] = {}
    for site in index.calls:
        helper = index.helper_of(site.node, site.function)
        if helper is None:
            continue
        params = [a.arg for a in helper.args.args]
        if params and params[0] in ("self", "cls") and isinstance(site.node.func, ast.Attribute):
            params = params[1:]
        pairs = [(base_name(a), p) for a, p in zip(site.node.args, params, strict=False)]
        pairs += [(base_name(k.value), k.arg) for k in site.node.keywords if k.arg]
        for given, param in pairs:
            if given is not None:
                passed.setdefault(given, set()).add(param)
    return [(call, names | set().union(*(passed.get(n, set()) for n in names))) for call, names in found]


def module_loaders(index: ModuleIndex) -> list[tuple[ast.Call, set[str]]]:
    """:func:`loaders_of`, computed once per module for both loader rules."""
    return facts(index).loop_cache("loaders", None, lambda: loaders_of(index))


def _loaders(index: ModuleIndex):
    """Each DataLoader(...) call with the names it is bound to (`train_loader`, `self.loader`)."""
    bound: dict[int, set[str]] = {}
    for node in index.call_assignments:
        for target in node.targets:
            name = base_name(target)
            if name is not None:
                bound.setdefault(id(node.value), set()).add(name)
    aliases = frozenset(local for local, name in index.resolver.names.items() if name in _LOADERS)
    for site in index.calls:
        if _is_loader(site.node, index, aliases):
            yield site.node, bound.get(id(site.node), set()) | {_inline(site.node)}


def _in_memory_names(index: ModuleIndex) -> set[str]:
    names = set()
    for node in index.call_assignments:
        if (
            index.resolver.call_name(node.value) in _IN_MEMORY
            or base_name(node.value.func) == "TensorDataset"
        ):
            names.update(base_name(t) for t in node.targets)
    return names


def _training_sources(index: ModuleIndex) -> set[str]:
    """Names the training loops take their batches from: `for x, y in train_loader:` with a backward, or
    `next(batches)` in such a loop after `batches = iter(train_loader)`."""
    steps = facts(index).step_loops
    sources = {_iterated(loop) for loop in steps if hasattr(loop, "target")}
    pulls = any(
        isinstance(s.node.func, ast.Name) and s.node.func.id == "next"
        for loop in steps
        for s in index.loop_calls[id(loop)]
    )
    if pulls:
        sources |= {
            base_name(s.node.args[0])
            for s in index.calls
            if isinstance(s.node.func, ast.Name) and s.node.func.id == "iter" and s.node.args
        }
    return sources


def check_loader_main_process(index: ModuleIndex):
    loaders = module_loaders(index)
    if not loaders:
        return
    in_memory = _in_memory_names(index)
    training = None
    for call, names in loaders:
        given, workers = _argument(call, "num_workers", _NUM_WORKERS_POSITION)
        if given is None or (given and not (isinstance(workers, ast.Constant) and workers.value == 0)):
            continue
        dataset = (
            call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "dataset"), None)
        )
        if dataset is None or base_name(dataset) in in_memory:
            continue
        if isinstance(dataset, ast.Call) and (
            index.resolver.call_name(dataset) in _IN_MEMORY or base_name(dataset.func) == "TensorDataset"
        ):
            continue
        if training is None:
            training = _training_sources(index)
        if not names & training:
            continue
        how = "num_workers=0" if given else "no num_workers"
        yield RawFinding(
            "PP504",
            call.lineno,
            call.col_offset,
            f"training DataLoader with {how} loads and transforms every batch in the training process, "
            "between steps; set num_workers (e.g. 4) so workers prepare batches in parallel",
        )


def _moved_loop_targets(loop, index: ModuleIndex) -> bool:
    """A batch the loop takes from the loader is copied to the GPU in the loop body."""
    targets = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    for node in loop_nodes(index, loop):
        if isinstance(node, ast.Call) and is_device_move(node, index):
            receiver = node.func.value
            while isinstance(receiver, ast.Subscript | ast.Attribute):
                receiver = receiver.value
            if isinstance(receiver, ast.Name) and receiver.id in targets:
                return True
    return False


def _iterated(loop) -> str | None:
    """The name a for loop takes batches from: `loader`, `enumerate(loader)`, `tqdm(self.loader)`."""
    source = loop.iter
    while isinstance(source, ast.Call) and source.args:
        if base_name(source.func) == "DataLoader":
            return _inline(source)  # for x, y in DataLoader(ds, ...):
        source = source.args[0]
    return base_name(source)


def _inline(call: ast.Call) -> str:
    """The name a DataLoader(...) iterated where it is made goes by."""
    return f"<DataLoader at line {call.lineno}>"


def check_loader_without_pinned_memory(index: ModuleIndex):
    loaders = module_loaders(index)
    if not loaders or not facts(index).on_device:
        return
    names = set().union(*(bound for _, bound in loaders))
    moved_from = {
        source
        for loop in index.loops
        if isinstance(loop, LOOP_TYPES)
        and hasattr(loop, "target")
        and (source := _iterated(loop)) in names
        and _moved_loop_targets(loop, index)
    }
    for call, names in loaders:
        given, pinned = _argument(call, "pin_memory", _PIN_MEMORY_POSITION)
        if given is None or (given and not (isinstance(pinned, ast.Constant) and not pinned.value)):
            continue
        if not names & moved_from:
            continue
        yield RawFinding(
            "PP505",
            call.lineno,
            call.col_offset,
            f"batches of `{min(names & moved_from).strip('<>')}` are copied to the GPU without pin_memory=True: each "
            "copy goes through pageable memory and blocks; pin it (and use .to(device, non_blocking=True))",
        )


register(
    Rule(
        code="PP504",
        name="dataloader-in-main-process",
        root_cause="api.inefficient_usage",
        summary=(
            "A DataLoader without num_workers, or with num_workers=0, whose batches a training loop (one that "
            "calls backward/step) iterates by name, over a dataset that is not an in-memory TensorDataset."
        ),
        why=(
            "With no workers the training process itself reads, decodes and augments every batch between "
            "steps, so the GPU (or the CPU's math threads) waits for data; workers prepare the next batches "
            "in parallel while the current step runs."
        ),
        example="""
train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
for x, y in train_loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
""",
        instead="""
train_loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4)
for x, y in train_loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
""",
        false_alarms=(
            "Medium. TensorDatasets (already tensors in memory), loaders whose arguments come from `**kwargs`, "
            "evaluation loaders and loaders returned by a helper (not iterated by name) are skipped; a dataset "
            "whose items cost nothing to load (pre-tokenised, in memory) is still reported."
        ),
        risk="medium",
        check=check_loader_main_process,
    )
)

register(
    Rule(
        code="PP505",
        name="dataloader-without-pinned-memory",
        root_cause="data.inefficient_transmission",
        summary=(
            "A DataLoader without pin_memory=True (absent or False) whose batches are moved to the GPU with "
            "`.to(device)`/`.cuda()` in a loop over it."
        ),
        why=(
            "Copies from pageable host memory go through a staging buffer and block the host; from pinned "
            "memory the copy is a direct DMA transfer that can overlap with compute (with non_blocking=True)."
        ),
        example="""
loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4)
for x, y in loader:
    x, y = x.to(device), y.to(device)
""",
        instead="""
loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=4, pin_memory=True)
for x, y in loader:
    x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
""",
        false_alarms=(
            "Low. Only loaders iterated by name in a loop that moves the batch to a device are reported; "
            "`pin_memory=` set from a variable or `**kwargs` is trusted."
        ),
        risk="low",
        check=check_loader_without_pinned_memory,
    )
)
