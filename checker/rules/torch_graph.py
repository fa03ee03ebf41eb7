"""PP502, PP503, PP511: autograd graphs kept longer, or built more often, than the program needs."""

from __future__ import annotations

import ast

from checker.findings import RawFinding
from checker.module import FUNCTION_TYPES, LOOP_TYPES, ModuleIndex, walk
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
from checker.rules.torch_sync import LOSS_WORDS, graph_tensors

_GRAD_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward"})


def _backward_inputs(function_body: list[ast.stmt]) -> set[str]:
    """Names a backward() in this code depends on: its receivers, what they are built from, and every name in
    a statement that calls backward (`(sum(losses) / n).backward()`)."""
    receivers: set[str] = set()
    assigns = []
    for stmt in function_body:
        for node in walk(stmt):
            if isinstance(node, ast.Call) and method_name(node) == "backward":
                receivers |= {n.id for n in walk(node.func.value) if isinstance(n, ast.Name)}
            elif isinstance(node, ast.Assign):
                assigns.append(node)
    feeding = set(receivers)
    for node in assigns:
        if any(isinstance(t, ast.Name) and t.id in receivers for t in node.targets):
            feeding |= {n.id for n in walk(node.value) if isinstance(n, ast.Name)}
    return feeding


def _feeding(fx, loop) -> set[str]:
    """`_backward_inputs` of the def (or module) a loop is in, found once per def."""
    function = fx.index.loop_function.get(id(loop))
    body = function.body if isinstance(function, FUNCTION_TYPES) else fx.index.tree.body
    return fx.loop_cache("feeding", function, lambda: _backward_inputs(body))


def _holds_graph(expr: ast.AST, tensors: set[str]) -> str | None:
    """The graph tensor an expression keeps as is (`loss`, `loss * n`), not through .item()/.detach()."""
    if isinstance(expr, ast.Name):
        return expr.id if expr.id in tensors else None
    if isinstance(expr, ast.BinOp):
        return _holds_graph(expr.left, tensors) or _holds_graph(expr.right, tensors)
    return None


def check_accumulated_history(index: ModuleIndex):
    fx = facts(index)
    for loop in fx.step_loops:
        tensors = graph_tensors(index, loop) - _made_without_grad(loop, fx)
        if not tensors or _hand_written_backward(loop, index):
            continue
        feeding = None
        for node in loop_nodes(index, loop):
            found = _accumulation(node, fx)
            if found is None:
                continue
            target, kept = found[0], _holds_graph(found[1], tensors)
            if kept is None or fx.without_grad(node):
                continue
            keeper = base_name(target.value if isinstance(target, ast.Subscript) else target)
            if keeper is None or keeper in tensors:
                continue
            if feeding is None:
                feeding = _feeding(fx, loop)
            if keeper in feeding:
                continue
            yield RawFinding(
                "PP502",
                node.lineno,
                node.col_offset,
                f"`{keeper}` keeps `{kept}` with its autograd graph on every step of the loop at line "
                f"{loop.lineno}: memory grows each step; keep `{kept}.item()` or `{kept}.detach()`",
            )
    yield from _eval_accumulations(index, fx)


def _meter_update(node, fx) -> bool:
    """`losses.update(loss, n)` on an instance of a class of this module whose update() adds the value it is
    given to an attribute as is (`self.sum += val * n`): the meter keeps the value."""
    return (
        isinstance(node, ast.Call)
        and method_name(node) == "update"
        and bool(node.args)
        and isinstance(node.func.value, ast.Name | ast.Attribute)
        and base_name(node.func.value) in fx.loop_cache("meters", None, lambda: _keeping_meters(fx.index))
    )


def _keeping_meters(index: ModuleIndex) -> set[str]:
    """Names (`losses`, `self.meter`) bound to instances of the module's classes whose update(val, ...) keeps
    `val`: adds it, or an attribute set from it (`self.val = val; self.sum += self.val * n`), to an attribute
    without .item()/.detach()/float()."""
    keeping = set()
    for name, methods in index.class_methods.items():
        update = methods.get("update")
        params = [a.arg for a in update.args.args[1:]] if update is not None else []
        if not params:
            continue
        held = {params[0]}
        for node in walk(update):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Name)
                and node.value.id in held
                and all(isinstance(t, ast.Attribute) for t in node.targets)
            ):
                held |= {f"self.{t.attr}" for t in node.targets}
        if any(
            isinstance(node, ast.AugAssign)
            and isinstance(node.target, ast.Attribute)
            and _adds_as_is(node.value, held)
            for node in walk(update)
        ):
            keeping.add(name)
    if not keeping:
        return set()
    return {
        base_name(target)
        for node in index.call_assignments
        if isinstance(node.value.func, ast.Name) and node.value.func.id in keeping
        for target in node.targets
        if base_name(target) is not None
    }


def _adds_as_is(expr: ast.AST, held: set[str]) -> bool:
    """`val`, `val * n`, `self.val * n`: the expression is the value itself or arithmetic on it."""
    if isinstance(expr, ast.BinOp):
        return _adds_as_is(expr.left, held) or _adds_as_is(expr.right, held)
    if isinstance(expr, ast.Name):
        return expr.id in held
    return (
        isinstance(expr, ast.Attribute)
        and isinstance(expr.value, ast.Name)
        and f"{expr.value.id}.{expr.attr}" in held
    )


def _accumulation(node, fx=None) -> tuple[ast.AST, ast.AST] | None:
    """(what keeps, the value kept) for `total += x`, `total = total + x` and `xs.append(x)`, and (given the
    module's facts) `meter.update(x, n)` on a meter that keeps x."""
    if isinstance(node, ast.AugAssign):
        return node.target, node.value
    if (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.BinOp)
        and node.targets[0].id in {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
    ):
        return node.targets[0], node.value
    if (
        isinstance(node, ast.Call)
        and method_name(node) == "append"
        and len(node.args) == 1
        and isinstance(node.func.value, ast.Name | ast.Attribute)
    ):
        return node.func.value, node.args[0]
    if fx is not None and _meter_update(node, fx):
        return node.func.value, node.args[0]
    return None


# Loss functions of torch.nn.functional whose names carry no "loss": they return a tensor with the graph.
_FUNCTIONAL_LOSSES = frozenset(
    {"cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits", "nll_loss", "kl_div"}
)
# Calls whose value carries no autograd history (a host number, a detached tensor, integers, booleans).
_DROPS_GRAPH = frozenset({"item", "detach", "numpy", "tolist", "argmax", "argmin", "eq", "ne"})


def _is_loss_call(call: ast.Call, index: ModuleIndex) -> bool:
    """`criterion(...)`, `loss_fn(...)`, `self.criterion(...)`, `F.cross_entropy(...)`, `F.mse_loss(...)`."""
    root = call.func
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name) or root.id not in index.resolver.names:  # nothing to resolve: by name
        return any(w in (base_name(call.func) or "").lower() for w in LOSS_WORDS)
    qualified = index.resolver.call_name(call)
    if qualified is not None and qualified.startswith("torch.nn.functional."):
        return qualified.rsplit(".", 1)[1] in _FUNCTIONAL_LOSSES or "loss" in qualified
    name = (qualified or base_name(call.func) or "").lower()
    return any(w in name for w in LOSS_WORDS)


def _model_call(node, models: set[str]) -> ast.Call | None:
    """The model call an expression is (`model(x)`, `self.net(x)[0]`, `model(**batch).loss`), if it is one."""
    while isinstance(node, ast.Subscript | ast.Attribute):
        node = node.value
    if isinstance(node, ast.Call):
        name = model_called(node)
        if name is not None and (name in models or is_model_name(name)):
            return node
    return None


def _drops_graph(expr: ast.AST) -> bool:
    """`x.item()`, `x.detach()`, `float(x)`, `x.data`, `a == b`: a value without autograd history."""
    if isinstance(expr, ast.Compare):
        return True
    if isinstance(expr, ast.Attribute):
        return expr.attr == "data" or _drops_graph(expr.value)
    if isinstance(expr, ast.Subscript):
        return _drops_graph(expr.value)
    if isinstance(expr, ast.Call):
        if isinstance(expr.func, ast.Name) and expr.func.id in ("float", "int", "len", "str", "bool"):
            return True
        return method_name(expr) in _DROPS_GRAPH or (
            isinstance(expr.func, ast.Attribute) and _drops_graph(expr.func.value)
        )
    return False


class _EvalGraph:
    """The names of one loop that hold a loss with autograd history: model outputs (`out = model(x)`, made
    outside no_grad), losses of them (`loss = criterion(out, y)`), sums of those, and `loss` names a model
    call returns or a model output holds (`logits, loss = model(x, y)`, `loss = outputs.loss`)."""

    def __init__(self, index: ModuleIndex, statements: list[ast.stmt], fx, sites: dict[int, object]):
        self.index, self.models = index, fx.models
        self.fx, self.sites = fx, sites
        self.outputs: set[str] = set()
        self.losses: set[str] = set()
        assigns = [n for n in statements if isinstance(n, ast.Assign) and _accumulation(n) is None]
        for _ in range(2):  # names used before they are bound in source order (the loop's next step)
            for node in assigns:
                self._bind(node)

    def _bind(self, node: ast.Assign) -> None:
        value = node.value
        names = names_of(node.targets)
        if not names or _drops_graph(value):
            return
        call = _model_call(value, self.models)
        if call is not None:
            if not self._records(call):
                return
            self.outputs |= names
            self.losses |= {n for n in names if "loss" in n.lower()}
        elif self.kept(value) is not None:
            self.losses |= names
        elif self._from_outputs(value):  # `logits = out[0]`, `loss = outputs.loss`
            self.outputs |= names
            self.losses |= {n for n in names if "loss" in n.lower()}

    def _from_outputs(self, expr: ast.AST) -> bool:
        return any(isinstance(n, ast.Name) and n.id in self.outputs for n in ast.walk(expr))

    def _loss_of_model(self, call: ast.Call) -> bool:
        if not _is_loss_call(call, self.index):
            return False
        args = [*call.args, *(k.value for k in call.keywords)]
        return any(
            self._from_outputs(a)
            or any(
                isinstance(c, ast.Call) and _model_call(c, self.models) is c and self._records(c)
                for c in ast.walk(a)
            )
            for a in args
        )

    def _records(self, call: ast.Call) -> bool:
        """A model call of this loop made with autograd on."""
        site = self.sites.get(id(call))
        return site is not None and not self.fx.site_without_grad(site)

    def kept(self, expr: ast.AST) -> str | None:
        """The loss an expression keeps as is (`loss`, `loss * n`, `criterion(model(x), y)`), or None."""
        if isinstance(expr, ast.Name):
            return expr.id if expr.id in self.losses else None
        if isinstance(expr, ast.BinOp):
            return self.kept(expr.left) or self.kept(expr.right)
        if isinstance(expr, ast.Call) and not _drops_graph(expr) and self._loss_of_model(expr):
            return f"{base_name(expr.func) or 'loss'}(...)"
        return None


def _eval_accumulations(index: ModuleIndex, fx):
    """PP502 in loops that run no backward: the loss of a model call summed or appended outside no_grad
    (`val_loss += criterion(model(x), y)`) keeps every batch's graph until the total goes."""
    steps = {id(loop) for loop in fx.step_loops}
    seen: set[int] = set()
    for loop in index.loops:  # outer loops first: a sum is reported with the outermost loop that keeps it
        direct = fx.direct.get(id(loop))
        if not direct or not isinstance(loop, LOOP_TYPES) or any(id(lp) in steps for lp in direct[0].loops):
            continue
        if not any(
            _model_call(site.node, fx.models) is not None or _is_loss_call(site.node, index)
            for site in direct
        ):
            continue
        statements = _statements(loop.body)
        sums = [(node, found) for node in statements if (found := _accumulation(node, fx)) is not None]
        if sums:  # (a cheap test first: a kept loss is a name the loop binds, or a loss call)
            bound = set().union(*(names_of(st.targets) for st in statements if isinstance(st, ast.Assign)))
            sums = [(node, found) for node, found in sums if _may_keep(found[1], bound, index)]
        if not sums:
            continue
        sites = {id(s.node): s for s in index.loop_calls[id(loop)]}
        graph = _EvalGraph(index, statements, fx, sites)
        kept_sums = []
        for node, (target, value) in sums:
            kept = graph.kept(value)
            keeper = base_name(target.value if isinstance(target, ast.Subscript) else target)
            if kept is not None and keeper is not None and keeper not in graph.losses | graph.outputs:
                kept_sums.append((node, keeper, kept))
        if not kept_sums or _needs_grad(loop, index) or few_runs((loop,)) or _carried_graph(index, loop):
            continue
        function = index.loop_function.get(id(loop))
        if _makes_training_loss(function) or _grad_off_around(function, index):
            continue
        feeding = _feeding(fx, loop)
        returned = _returned_names(function)
        for node, keeper, kept in kept_sums:
            if id(node) in seen or fx.without_grad(node) or _reset_in(statements, keeper, node):
                continue  # (a fresh total every step: nothing spans iterations)
            if keeper in feeding or (
                keeper in returned and not _eval_named(function) and not _over_batches(loop)
            ):
                continue  # the total is back-propagated here, or by the caller it is returned to
            seen.add(id(node))
            yield RawFinding(
                "PP502",
                node.lineno,
                node.col_offset,
                f"`{keeper}` keeps `{kept}` with its autograd graph on every step of the loop at line "
                f"{loop.lineno}, which runs no backward: memory grows each step; keep `{kept}.item()` or "
                "run the loop under torch.no_grad()",
            )


def _may_keep(expr: ast.AST, bound: set[str], index: ModuleIndex) -> bool:
    """Whether `_EvalGraph.kept` can find a loss in the expression: a name the loop binds, or a loss call."""
    if isinstance(expr, ast.Name):
        return expr.id in bound
    if isinstance(expr, ast.BinOp):
        return _may_keep(expr.left, bound, index) or _may_keep(expr.right, bound, index)
    return isinstance(expr, ast.Call) and not _drops_graph(expr) and _is_loss_call(expr, index)


def names_of(targets) -> set[str]:
    return {n.id for t in targets for n in walk(t) if isinstance(n, ast.Name)}


def _statements(body: list[ast.stmt]) -> list[ast.AST]:
    """The statements of a block and the blocks nested in it (not nested defs and classes), with the call of
    each expression statement (`xs.append(x)`) in its place."""
    found: list[ast.AST] = []
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, (*FUNCTION_TYPES, ast.ClassDef)):
            continue
        found.append(stmt.value if isinstance(stmt, ast.Expr) else stmt)
        for field in ("handlers", "finalbody", "orelse", "body", "cases"):
            stack.extend(reversed(getattr(stmt, field, ())))
    return found


def _makes_training_loss(function) -> bool:
    """`forward`, `__call__`, `training_step`: a def whose sums are the loss a caller runs backward on
    (`self.aux_loss += criterion(decoder(z), x)` in a forward; loss helpers return theirs, see above)."""
    return getattr(function, "name", "") in ("forward", "__call__", "training_step")


def _grad_off_around(function, index: ModuleIndex) -> bool:
    """Gradients are off for the whole def (a decorator, its callers, `set_grad_enabled(False)`) or the def
    asks for input gradients; at module level, a `set_grad_enabled(False)` statement."""
    if function is None:
        return _grad_disabled_by_call(index.function_calls.get(0, []), index)
    if not isinstance(function, FUNCTION_TYPES):
        return True  # a lambda: nothing to sum across calls
    fx = facts(index)
    outer = function
    while outer is not None:
        if isinstance(outer, FUNCTION_TYPES) and any(fx.disables_grad(d) for d in outer.decorator_list):
            return True
        outer = index.function_parent.get(id(outer))
    return (
        _grad_disabled_by_call(index.function_calls.get(id(function), []), index)
        or _grad_disabled_by_call(index.function_calls.get(0, []), index)
        or _uses_input_gradients(function, index)
        or _callers_disable_grad(function, index)
    )


def _reset_in(nodes, keeper: str, accumulation) -> bool:
    """The loop binds the keeper afresh (`total = 0`, `losses = []`) besides accumulating into it."""
    for node in nodes:
        if (
            node is not accumulation
            and isinstance(node, ast.Assign)
            and _accumulation(node) is None
            and any(isinstance(t, ast.Name) and t.id == keeper for t in node.targets)
        ):
            return True
    return False


def _returned_names(function) -> set[str]:
    if not isinstance(function, FUNCTION_TYPES):
        return set()
    return {
        n.id
        for node in ast.walk(function)
        if isinstance(node, ast.Return) and node.value is not None
        for n in ast.walk(node.value)
        if isinstance(n, ast.Name)
    }


_BATCH_SOURCES = ("loader", "iterator", "batches", "dataset")


def _over_batches(loop) -> bool:
    """`for x, y in val_loader`, `for i, batch in enumerate(tqdm(test_iterator))`: a loop over a data set's
    batches (not over a sequence's timesteps, a model's heads or a few scales)."""
    source = getattr(loop, "iter", None)
    while isinstance(source, ast.Call) and source.args:
        source = source.args[0]
    name = (base_name(source) or "").lower() if source is not None else ""
    return any(w in name for w in _BATCH_SOURCES)


def _eval_named(function) -> bool:
    return function is not None and any(w in function.name.lower() for w in _EVAL_WORDS)


def _hand_written_backward(loop, index: ModuleIndex) -> bool:
    """Every backward in the loop takes two or more arguments (`model.backward(x, a1, a2, y)`): a model
    written from scratch that computes its own gradients, with no autograd graph to keep."""
    calls = [
        n
        for n in loop_nodes(index, loop)
        if isinstance(n, ast.Call) and (method_name(n) == "backward" or method_name(n) == "step")
    ]
    backwards = [c for c in calls if method_name(c) == "backward"]
    return bool(backwards) and all(len(c.args) >= 2 for c in backwards) and len(calls) == len(backwards)


def _made_without_grad(loop, fx) -> set[str]:
    """Names every assignment of which in the loop is under no_grad/inference_mode: they hold no graph."""
    ranges = fx.no_grad_ranges(fx.index.loop_function.get(id(loop)))
    if not ranges:
        return set()
    inside, outside = set(), set()
    for node in loop_nodes(fx.index, loop):
        if isinstance(node, ast.Assign):
            names = {t.id for t in node.targets if isinstance(t, ast.Name)}
            under = any(start <= node.lineno <= end for start, end in ranges)
            (inside if under else outside).update(names)
    return inside - outside


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
        code="PP502",
        name="loss-history-accumulated",
        root_cause="model.computation_graph_confusion",
        summary=(
            "A loss tensor (the receiver of backward(), or a value of a loss function) added to a running total "
            "(`total += loss`), appended to a list, or handed to a meter whose class in the same module sums "
            "what it is given (`losses.update(loss, n)`) in a training loop, without .item() or .detach(); or, in "
            "a loop that runs no backward (validation), the loss of a model call made outside no_grad "
            "(`val_loss += criterion(model(x), y)`)."
        ),
        why=(
            "The sum is a tensor whose autograd graph links every step's loss, so each step's graph stays alive: "
            "memory grows with every iteration (the PyTorch FAQ's first item) and the loop slows as it goes."
        ),
        example="""
total_loss = 0
for x, y in loader:
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    total_loss += loss
""",
        instead="""
total_loss = 0
for x, y in loader:
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    total_loss += loss.detach()
""",
        false_alarms=(
            "Low. A total that is itself back-propagated (`loss_sum += loss` then `loss_sum.backward()`, "
            "gradient accumulation), sums under torch.no_grad(), tensors computed under no_grad/inference_mode "
            "and models written from scratch (a `backward(x, a1, a2, y)` of their own) are skipped. In loops "
            "without backward: loops under no_grad (a `with`, a decorator, the def's callers), a total reset "
            "every step, back-propagated later, or returned by a def not named for evaluation (a per-sequence "
            "loss), sums in `forward`/`training_step`, and loops that carry a recurrent state (`out, h = rnn(x, h)`) are skipped. A meter whose "
            "class is defined in another module is not followed (some detach what they are given)."
        ),
        risk="low",
        check=check_accumulated_history,
    )
)

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
