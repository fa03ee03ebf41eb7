"""PP503, PP511: autograd graphs built when no backward needs them, or kept for a backward that never comes."""

from __future__ import annotations

import ast

from checker.findings import RawFinding
from checker.module import FUNCTION_TYPES, ModuleIndex
from checker.rules import Rule, register
from checker.rules.torch_common import (
    base_name,
    facts,
    few_runs,
    is_model_name,
    loop_nodes,
    method_name,
    model_called,
)

_GRAD_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward"})


_EVAL_WORDS = ("eval", "test", "valid", "infer", "predict", "accuracy")
_NEEDS_GRAD_ATTRS = frozenset({"requires_grad", "requires_grad_", "grad", "backward", "retain_grad"})


def _needs_grad(loop, index: ModuleIndex) -> bool:
    """A loop that uses gradients (saliency maps, adversarial inputs, training): no_grad would break it."""
    for inner in loop_nodes(index, loop):
        if isinstance(inner, ast.Attribute) and inner.attr in _NEEDS_GRAD_ATTRS:
            return True
        if isinstance(inner, ast.Call) and index.resolver.call_name(inner) in _GRAD_CALLS:
            return True
        if isinstance(inner, ast.keyword) and inner.arg == "requires_grad":
            return True
    return False


def _uses_input_gradients(function, index: ModuleIndex) -> bool:
    """Saliency maps, adversarial examples: gradients with respect to inputs, set up anywhere in the def."""
    return any(
        (isinstance(n, ast.Attribute) and n.attr in ("requires_grad", "requires_grad_"))
        or (isinstance(n, ast.keyword) and n.arg == "requires_grad")
        or (isinstance(n, ast.Call) and index.resolver.call_name(n) == "torch.autograd.grad")
        for n in ast.walk(function)
    )


def _unit_test(function) -> bool:
    """`def test_shapes(): ... assert out.shape == ...`: a unit test, not an evaluation loop."""
    return function.name.startswith("test_") and any(isinstance(n, ast.Assert) for n in ast.walk(function))


def _mode_calls(sites) -> list[tuple[int, str, str]]:
    """(line, receiver, "eval"|"train") for each `x.eval()`/`x.train()` call without arguments."""
    found = []
    for site in sites:
        call = site.node
        name = method_name(call)
        if name in ("eval", "train") and not call.args and not call.keywords:
            receiver = base_name(call.func.value)
            if receiver is not None:
                found.append((call.lineno, receiver, name))
    return found


def _grad_disabled_by_call(sites, index: ModuleIndex) -> bool:
    """`torch.set_grad_enabled(False)` called as a statement (not a `with`) in this scope."""
    fx = facts(index)
    return any(
        _grad_switch(s.node) and fx.disables_grad(s.node) and id(s.node) in _statement_calls(s.function, fx)
        for s in sites
    )


def _statement_calls(function, fx) -> set[int]:
    """The ids of the calls that are whole statements (`f(x)` on its own line) in a def (None: the module's
    own code), class bodies included, nested defs not: each its own scope."""

    def find() -> set[int]:
        body = function.body if isinstance(function, FUNCTION_TYPES) else []
        if function is None:
            body = fx.index.tree.body
        found, stack = set(), list(body)
        while stack:
            stmt = stack.pop()
            if isinstance(stmt, FUNCTION_TYPES):
                continue
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                found.add(id(stmt.value))
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                stack.extend(getattr(stmt, field, ()))
        return found

    return fx.loop_cache("statement_calls", function, find)


def _grad_switch(call: ast.Call) -> bool:
    """Cheap test before resolving names: the call's last name is one of autograd's switches."""
    last = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    return last in ("set_grad_enabled", "no_grad", "inference_mode")


def _callers_disable_grad(function, index: ModuleIndex, depth: int = 3) -> bool:
    """A call of the def runs under no_grad, directly or through the defs that call it (3 levels)."""
    fx = facts(index)
    sites = fx.callers.get(id(function), [])
    latest = index.module_functions.get(getattr(function, "name", ""))
    if not sites and latest is not None and latest is not function and function in index.tree.body:
        sites = fx.callers.get(id(latest), [])  # a notebook defines it again later: calls go by the name
    for site in sites:
        if fx.site_without_grad(site):
            return True
        if depth > 1 and site.function is not None and _callers_disable_grad(site.function, index, depth - 1):
            return True
    return False


def check_eval_without_no_grad(index: ModuleIndex):
    fx = facts(index)
    if _grad_disabled_by_call(index.function_calls.get(0, []), index):
        return
    models = facts(index).models
    scopes = [
        (f, index.function_calls.get(id(f), [])) for f in index.functions if isinstance(f, FUNCTION_TYPES)
    ]
    scopes.append((None, index.function_calls.get(0, [])))
    for function, sites in scopes:
        modes = _mode_calls(sites)
        named = function is not None and any(w in function.name.lower() for w in _EVAL_WORDS)
        if named and _unit_test(function):
            continue
        if not named and not any(kind == "eval" for _, _, kind in modes):
            continue
        found = list(_unguarded_model_loops(sites, modes, named, models, fx))
        if not found or (
            function is not None
            and (
                _uses_input_gradients(function, index)
                or _grad_disabled_by_call(sites, index)
                or _callers_disable_grad(function, index)
            )
        ):
            continue
        for site, receiver, mode in found:
            call, loop = site.node, site.loops[-1]
            context = f"after `{receiver}.eval()`" if mode == "eval" else f"in `{function.name}`"
            yield RawFinding(
                "PP503",
                call.lineno,
                call.col_offset,
                f"`{receiver}` runs {context} in the loop at line {loop.lineno} without torch.no_grad(): autograd "
                "records every activation; wrap the loop in `with torch.no_grad():` (or inference_mode)",
            )


def _unguarded_model_loops(sites, modes, named: bool, models: set[str], fx):
    """(site, model, mode) for the first model call of each loop in eval mode (or an eval-named def), outside
    no_grad, in a loop that needs no gradients."""
    reported: set[int] = set()
    for site in sites:
        call = site.node
        if not site.loops or id(site.loops[-1]) in reported:
            continue
        receiver = model_called(call)
        if receiver is None or not (receiver in models or is_model_name(receiver)):
            continue
        mode = _mode_at(modes, receiver, call.lineno)
        if mode == "train" or (mode is None and not named):
            continue
        loop = site.loops[-1]
        if fx.site_without_grad(site) or _needs_grad(loop, fx.index) or few_runs(site.loops):
            continue  # (a loop that takes one batch and breaks, or runs a handful of times, costs nothing)
        reported.add(id(loop))
        yield site, receiver, mode


def _mode_at(modes, receiver: str, line: int) -> str | None:
    """The last `.eval()`/`.train()` on the receiver written before the line."""
    last = None
    for at, who, kind in modes:
        if who == receiver and at < line:
            last = kind
    return last


def _retains(call: ast.Call) -> bool:
    return any(
        k.arg == "retain_graph" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in call.keywords
    )


def _is_backward(call: ast.Call, index: ModuleIndex) -> bool:
    return method_name(call) == "backward" or index.resolver.call_name(call) in _GRAD_CALLS


def check_retain_graph(index: ModuleIndex):
    for site in index.calls:
        call = site.node
        if not site.loops or not _retains(call) or not _is_backward(call, index):
            continue
        loop = site.loops[-1]
        backwards = [
            s for s, _ in index.reached_calls(index.loop_calls[id(loop)]) if _is_backward(s.node, index)
        ]
        if len(backwards) > 1:
            continue
        if index.resolver.call_name(call) not in _GRAD_CALLS:
            graph = call.func.value
        else:
            graph = (
                call.args[0]
                if call.args
                else next((k.value for k in call.keywords if k.arg == "outputs"), None)
            )
        root = graph
        while isinstance(root, ast.Subscript | ast.Attribute | ast.Call):
            root = root.value if not isinstance(root, ast.Call) else root.func
        if not isinstance(root, ast.Name) or root.id not in _assigned_in(index, loop):
            continue  # the graph comes from before the loop: each iteration needs it again
        state = _carried_graph(index, loop)
        if state is not None:  # dropping the flag alone would fail: backward reaches the previous step
            message = (
                f"backward(retain_graph=True) in the loop at line {loop.lineno}: `{state}` carries each step's "
                "graph into the next, so backward runs through every earlier step and keeps their "
                f"activations; detach it every step (`{state} = {state}.detach()`) and drop retain_graph"
            )
        else:
            message = (
                f"backward(retain_graph=True) in the loop at line {loop.lineno} has no second backward through "
                "the same graph: every step's graph and saved activations stay in memory; drop retain_graph"
            )
        yield RawFinding("PP511", call.lineno, call.col_offset, message)


def _carried_graph(index: ModuleIndex, loop) -> str | None:
    """A call in the loop takes a name it also rebinds (`out, state = model(x, state)`) and nothing detaches
    that state (`state = state.detach()`, `h.detach_()`): each step's graph reaches back into the previous
    one and backward needs retain_graph; the fix is detaching the state, not dropping the flag. Its name."""
    nodes = loop_nodes(index, loop)
    carried: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            targets = {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
            given = [*node.value.args, *(k.value for k in node.value.keywords)]
            carried |= targets & {n.id for a in given for n in ast.walk(a) if isinstance(n, ast.Name)}
    if not carried:
        return None
    for node in nodes:
        if isinstance(node, ast.Call) and method_name(node) == "detach_":
            return None
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id in carried for t in node.targets)
            and any(isinstance(c, ast.Call) and method_name(c) == "detach" for c in ast.walk(node.value))
        ):
            return None
    return min(carried)


def _assigned_in(index: ModuleIndex, loop) -> set[str]:
    return {n.id for n in loop_nodes(index, loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


register(
    Rule(
        code="PP503",
        name="eval-loop-without-no-grad",
        root_cause="model.computation_graph_confusion",
        summary=(
            "A model called in a loop after `model.eval()`, or in a function named for evaluation (test, "
            "validate, predict, infer, accuracy), outside torch.no_grad()/inference_mode() (a `with`, a "
            "decorator on the def, or a call of the def made under no_grad). A loop that takes one batch and "
            "breaks, or runs a literal range of a few iterations, is skipped."
        ),
        why=(
            "With gradients enabled every forward pass records the autograd graph and keeps each layer's "
            "activations for a backward pass that never comes: evaluation uses more memory (often several "
            "times) and runs slower. model.eval() only switches dropout and batch norm; it does not stop autograd."
        ),
        example="""
def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
    return correct
""",
        instead="""
@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
    return correct
""",
        false_alarms=(
            "Medium. Code that needs gradients (backward, torch.autograd.grad, requires_grad: saliency maps, "
            "adversarial examples), functions called inside no_grad and `torch.set_grad_enabled(False)` are "
            "skipped (a def a notebook defines twice counts the calls of its name); a no_grad set up in another "
            "module is not seen."
        ),
        risk="medium",
        check=check_eval_without_no_grad,
    )
)

register(
    Rule(
        code="PP511",
        name="retain-graph-without-second-backward",
        root_cause="model.computation_graph_confusion",
        summary=(
            "`backward(retain_graph=True)` (or autograd.grad/backward with it) in a loop that builds its graph "
            "each iteration and runs no second backward over it."
        ),
        why=(
            "retain_graph keeps the graph's saved activations after backward; with no second backward they are "
            "freed only when the last reference goes, so peak memory rises and, when the loss is carried into "
            "the next iteration, memory and step time grow without bound."
        ),
        example="""
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward(retain_graph=True)
    optimizer.step()
""",
        instead="""
for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
""",
        false_alarms=(
            "Low. Loops with two or more backward calls (GANs, several losses) and graphs built before the loop "
            "(one backward per output, Jacobians) are skipped."
        ),
        risk="low",
        check=check_retain_graph,
    )
)
