"""What the PyTorch rules (PP5xx) share: whether a module uses torch, training-step loops, guards, no_grad.

Facts that need a walk over the whole tree (the parent of every node) are computed once per module and kept
for the rules that run after the first.
"""

from __future__ import annotations

import ast
import bisect
import collections
import dataclasses
import functools
import re
from collections.abc import Iterator

from checker.module import (
    FUNCTION_TYPES,
    LOOP_TYPES,
    CallSite,
    ModuleIndex,
    child_nodes,
    def_scopes,
    dotted_parts,
    iter_walk,
    names_in,
    none_tested,
    sole_name_target,
    statements_in,
    values_by_name,
    walk,
)
from checker.rules.common import literal_iterations, runs_once

TORCH_CODE_PREFIX = "PP5"
# Names a snippet may use without importing them; one of them must appear for torch rules to run on it.
_SNIPPET_NAMES = frozenset({"torch", "nn", "F"})
NO_GRAD = frozenset(
    {
        "torch.no_grad",
        "torch.inference_mode",
        "torch.autograd.no_grad",
        "torch.autograd.grad_mode.no_grad",
        "torch.autograd.inference_mode",
    }
)
_SET_GRAD = frozenset({"torch.set_grad_enabled", "torch.autograd.set_grad_enabled"})
MODEL_LIKE = (
    "model",
    "net",
    "encoder",
    "decoder",
    "generator",
    "discriminator",
    "classifier",
    "policy",
    "critic",
)
_GUARDS = (ast.If, ast.IfExp, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler, ast.Try, ast.BoolOp)


def is_torch_rule(rule) -> bool:
    return rule.code.startswith(TORCH_CODE_PREFIX)


def uses_torch(index: ModuleIndex) -> bool:
    """The module imports torch, or (a snippet read with implicit imports) names `torch`, `nn` or `F`, or calls
    what only PyTorch code calls (`loss.backward()`, `optimizer.zero_grad()`, `x.cuda()`, `DataLoader(...)`)."""
    names = index.resolver.names
    if not any(v == "torch" or v.startswith(("torch.", "torchvision")) for v in names.values()):
        return False
    if any(_imports_torch(node) for node in index.imports):
        return True
    if any(_torch_only_call(site.node) for site in index.calls):
        return True
    return any(isinstance(n, ast.Name) and n.id in _SNIPPET_NAMES for n in iter_walk(index.tree))


_TORCH_ONLY_METHODS = frozenset(
    {"backward", "zero_grad", "cuda", "unsqueeze", "state_dict", "parameters", "size"}
)


def _torch_only_call(call: ast.Call) -> bool:
    if isinstance(call.func, ast.Attribute):
        if call.func.attr in ("eval", "train") and not call.args and not call.keywords:
            return is_model_name(base_name(call.func.value))  # model.eval(); TF1's tensor.eval() is no model
        return call.func.attr in _TORCH_ONLY_METHODS
    return isinstance(call.func, ast.Name) and call.func.id == "DataLoader"


def _imports_torch(node) -> bool:
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[0] in ("torch", "torchvision") for a in node.names)
    return bool(node.module) and node.module.split(".")[0] in ("torch", "torchvision")


class TorchFacts:
    """Per-module facts: each node's parent, whether anything goes to a GPU, the loops that run a training step."""

    def __init__(self, index: ModuleIndex):
        self.index = index
        self._parent: dict[int, ast.AST] = {}
        self._mapped: set[int] = set()
        self._starts: list[int] | None = None
        self._models: set[str] | None = None
        self._callers: dict[int, list[CallSite]] | None = None
        self._no_grad_ids: dict[int, list[tuple[int, int]]] = {}
        self._per_loop: dict[tuple[str, int], tuple[object, object]] = {}
        self._toy: bool | None = None

    @functools.cached_property
    def step_loops(self) -> list[ast.AST]:
        """The loops that run a training step (`_steps`), found when first asked (torch-speed21: the project
        passes make TorchFacts for modules whose step loops no rule of theirs asks for)."""
        return [loop for loop in self.index.loops if isinstance(loop, LOOP_TYPES) and self._steps(loop)]

    @functools.cached_property
    def on_device(self) -> bool:
        """Something in the module goes to a GPU (asked only by the rules that need it, and once)."""
        return any(True for _ in self._device_calls())

    @functools.cached_property
    def places_on_device(self) -> bool:
        """Something in the module is put on a GPU: `on_device`, not counting the torch.cuda calls that
        only query or tidy it (`torch.cuda.empty_cache()`, `synchronize()`, `is_available()`)."""
        return any(self.index.resolver.call_name(c) not in _CUDA_QUERIES for c in self._device_calls())

    @property
    def cpu_names(self) -> set[str]:
        """`cpu_device_names`, found once per module (the key is shared with the rules that ask)."""
        return self.loop_cache("cpu_names", None, lambda: _bound_to_cpu_only(self.index))

    def _device_calls(self) -> Iterator[ast.Call]:
        """The module's calls that go to a GPU, in index order, found lazily (callers stop at the first)."""
        cpu = self.cpu_names
        return (site.node for site in self.index.calls if _moves_to_device(site.node, self.index, cpu))

    def parent_of(self, node: ast.AST) -> ast.AST | None:
        """A node's parent. Parents are mapped one top-level statement at a time, on first use: most of a
        module (model definitions, helpers) is never asked about."""
        found = self._parent.get(id(node))
        if found is not None or not hasattr(node, "lineno"):
            return found
        body = self.index.tree.body
        if self._starts is None:
            self._starts = [
                min([s.lineno] + [d.lineno for d in getattr(s, "decorator_list", [])]) for s in body
            ]
        at = bisect.bisect_right(self._starts, node.lineno) - 1
        if at >= 0 and id(body[at]) not in self._mapped:
            found = self._descend(body[at], node)
            if found is None:
                self._map(body[at])
                found = self._parent.get(id(node))
        if found is None and len(self._mapped) < len(body):  # `a; b` on one line: map the rest
            for stmt in body:
                if id(stmt) not in self._mapped:
                    self._map(stmt)
            found = self._parent.get(id(node))
        return found

    def _descend(self, stmt: ast.stmt, node: ast.AST) -> ast.AST | None:
        """The node's parent, found by going down from `stmt` through the nodes whose span holds it (the
        parents met on the way are kept); None when positions mislead: the statement is then mapped whole."""
        try:
            path = _path_in([stmt], node)
        except RecursionError:
            return None
        if path is None:
            return None
        chain = [self.index.tree, *path, node]
        for outer, inner in zip(chain, chain[1:], strict=False):
            self._parent[id(inner)] = outer
        return chain[-2]

    def _map(self, stmt: ast.stmt) -> None:
        self._mapped.add(id(stmt))
        self._parent[id(stmt)] = self.index.tree
        todo = [stmt]
        while todo:
            outer = todo.pop()
            for child in child_nodes(outer, []):
                self._parent[id(child)] = outer
                todo.append(child)

    @functools.cached_property
    def helper_calls(self) -> list[tuple[CallSite, ast.AST]]:
        """Each call that runs a module function or same-class method by name, with that def: one pass over
        the module's calls for every rule that follows helpers."""
        found = []
        for site in self.index.calls:
            helper = self.index.helper_of(site.node, site.function)
            if helper is not None:
                found.append((site, helper))
        return found

    @functools.cached_property
    def _method_calls_on(self) -> dict[int, ast.Call]:
        """id(call) -> the call of a method on its result, for `method_call_on`."""
        found = {}
        for site in self.index.calls:
            func = site.node.func
            if func.__class__ is ast.Attribute and func.value.__class__ is ast.Call:
                found[id(func.value)] = site.node
        return found

    def method_call_on(self, call: ast.Call) -> ast.Call | None:
        """The call of a method on the call's result (`model_func(dataset).to(device)`: the `.to(...)` call,
        for `model_func(dataset)`), from one pass over the module's calls: what `parent_of` twice would say
        (the result's attribute, then the call of it) without a search for parents."""
        return self._method_calls_on.get(id(call))

    @functools.cached_property
    def helpers(self) -> dict[int, ast.AST]:
        """id(call) -> the def it runs, for the calls in ``helper_calls``."""
        return {id(site.node): helper for site, helper in self.helper_calls}

    @property
    def callers(self) -> dict[int, list[CallSite]]:
        """The calls of each module function or same-class method, by the def's id."""
        if self._callers is None:
            self._callers = {}
            for site, helper in self.helper_calls:
                self._callers.setdefault(id(helper), []).append(site)
        return self._callers

    @functools.cached_property
    def direct(self) -> dict[int, list[CallSite]]:
        """id(loop) -> the calls in the loop's own body (not in a loop nested in it), in the module's order."""
        found: dict[int, list[CallSite]] = {}
        for site in self.index.calls:
            if site.loops:
                found.setdefault(id(site.loops[-1]), []).append(site)
        return found

    def loop_cache(self, key: str, loop, make):
        """A per-loop value (graph tensors...) computed once for every rule that asks; ``loop`` None: a value
        for the whole module (the data rules' loaders). The one per-object cache of TorchFacts (`body_nodes`,
        `module_nodes_of` keep their lists here; the module-wide tables stay cached properties): each entry
        keeps the object it is for, so an id cannot name another object while the entry is there, and an
        entry whose object is not the one asked about is made again."""
        slot = (key, id(loop))
        entry = self._per_loop.get(slot)
        if entry is None or entry[0] is not loop:
            entry = self._per_loop[slot] = (loop, make())
        return entry[1]

    @functools.cached_property
    def _moved_models(self) -> list[tuple[ast.AST | None, int, str]]:
        """(def or None, line, name) of each move of a model to a GPU, for `models_on_device`."""
        cpu = self.cpu_names
        return [
            (site.function, site.node.lineno, base_name(site.node.func.value))
            for site in self.index.calls
            if isinstance(site.node.func, ast.Attribute)
            and base_name(site.node.func.value) in self.models
            and _moves_to_device(site.node, self.index, cpu)
        ]

    def models_on_device(self, function, line: int) -> set[str]:
        """Models the module's own code or `function` moves to a GPU (`model.cuda()`, `model =
        model.to(device)` with a device that is not only the CPU): their inputs reach the device, wherever
        the module or its data set moves them. The move must come before `line` (the loop), or before a call
        of `function` at module level: a notebook's CPU chapter may move its model only in a later cell, and a
        move in another def may come after it."""
        called = [s.node.lineno for s in self.callers.get(id(function), ())] if function is not None else []
        return {
            name
            for where, at, name in self._moved_models
            if (where is function and at < line) or (where is None and any(at < c for c in [line, *called]))
        }

    @property
    def models(self) -> set[str]:
        if self._models is None:
            self._models = model_names(self.index)
        return self._models

    def ancestors(self, node: ast.AST, stop: ast.AST | None = None):
        """The parents of a node, innermost first, up to (not including) `stop`."""
        current = self.parent_of(node)
        while current is not None and current is not stop:
            yield current
            current = self.parent_of(current)

    def guarded(self, node: ast.AST, loop: ast.AST) -> bool:
        """Under an `if`, a nested loop, a `try` or a boolean test inside the loop: not run every step."""
        path = _path_in(loop.body, node)
        if path is None:
            return id(node) in self.loop_cache("body", loop, lambda: _loop_body(loop))[0]
        return any(isinstance(outer, _GUARDS) for outer in path)

    def guarded_step(self, node: ast.AST, loop: ast.AST) -> bool:
        """`guarded` for reads on the step's path: a `try` body, an `if` on the process or the configuration
        (`if master_process:`, `if num_gpus > 1: ... else: ...`, `if device_type == "cuda":`) and the branch
        of a first-time test that runs on every later step (`if ema is None: ... else: <here>`) run every
        step, so they do not guard."""
        path = _path_in(loop.body, node)
        if path is None:  # positions mislead (an f-string): the parents say the same
            path = list(self.ancestors(node, loop))[::-1]
        for i, outer in enumerate(path):
            if isinstance(outer, ast.Try):
                continue  # its body runs every step; an `except` is an ExceptHandler, a guard
            if isinstance(outer, ast.If):
                inner = path[i + 1] if i + 1 < len(path) else node
                if (
                    configuration_test(outer.test)
                    or option_choice(outer.test)
                    or _later_branch(outer, inner)
                    or _accumulation(outer.test)
                ):
                    continue
            if isinstance(outer, _GUARDS):
                return True
        return False

    def periodic(self, node: ast.AST, loop: ast.AST) -> bool:
        """Under an `if` of the loop whose test takes a remainder (`if step % 100 == 0:`): run every N-th step,
        for logging or samples. (`guarded`, which PP501 asks, counts these and every other `if`.)"""
        if not hasattr(loop, "body"):
            return False  # a comprehension: no statement to guard it
        return any(
            isinstance(outer, ast.If)
            and any(
                isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) and not self._every_one(n.right)
                for n in iter_walk(outer.test)
            )
            for outer in _path_in(loop.body, node) or ()
        )

    @functools.cached_property
    def data_parallel_models(self) -> set[str]:
        """Names bound to a model wrapped for data parallelism (`generator_full = DataParallelWithCallback(
        generator_full, device_ids=device_ids)`, `nn.DataParallel(net)`): the wrapper scatters its inputs
        to the GPUs, so a batch it is given is copied there (PP505) and a loop running it is no CPU loop
        (PP501)."""
        return {
            name
            for name, values in self.index.name_values.items()
            if any(isinstance(v, ast.Call) and "DataParallel" in (base_name(v.func) or "") for v in values)
        }

    @functools.cached_property
    def module_nodes(self) -> list[ast.AST]:
        """Every node of the module, in `walk`'s order (ast.walk's), listed once for every rule that looks at
        the whole tree (each walked it again). It lives with these facts, so with the module's tree (the engine
        forgets both once the module's rules ran); callers read it and never change it."""
        return walk(self.index.tree)

    @functools.cached_property
    def _bindings(self) -> collections.Counter:
        """How many times the module binds each name: assignments, loop targets, parameters."""
        found = collections.Counter()
        for node in self.module_nodes:
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                found[node.id] += 1
            elif isinstance(node, ast.arg):
                found[node.arg] += 1
        return found

    def _every_one(self, period: ast.AST) -> bool:
        """`step % 1`, or `step % n_critic` with `n_critic = 1` the name's only binding in the module: the
        test holds on every step (a GAN tutorial's generator step, `if step % n_critic == 0:`)."""
        if isinstance(period, ast.Name):
            values = self.index.name_values.get(period.id, [])
            return (
                bool(values)
                and all(isinstance(v, ast.Constant) and v.value == 1 for v in values)
                and self._bindings[period.id] == len(values)  # (no parameter, loop or tuple binds it too)
            )
        return isinstance(period, ast.Constant) and period.value == 1

    def statement_in(self, node: ast.AST, loop: ast.AST) -> ast.AST:
        """The statement a node of the loop's body is part of."""
        path = _path_in(loop.body, node)
        if path is None:
            found = self.loop_cache("body", loop, lambda: _loop_body(loop))[1].get(id(node))
        else:
            found = next((n for n in reversed([*path, node]) if isinstance(n, ast.stmt)), None)
        return found if found is not None else self.statement(node)

    def statement(self, node: ast.AST) -> ast.AST:
        """The statement a node is part of."""
        current = node
        while not isinstance(current, ast.stmt):
            current = self.parent_of(current)
        return current

    def site_without_grad(self, site: CallSite) -> bool:
        """`without_grad` for a call whose def is known: one walk per def instead of a parent chain."""
        function = site.function
        while function is not None:
            if isinstance(function, FUNCTION_TYPES) and any(
                self.disables_grad(d) for d in function.decorator_list
            ):
                return True
            function = self.index.function_parent.get(id(function))
        line = site.node.lineno
        return any(start <= line <= end for start, end in self.no_grad_ranges(site.function))

    def no_grad_ranges(self, function) -> list[tuple[int, int]]:
        """Line ranges of the `with torch.no_grad():` bodies in a def (None: the module's own code)."""
        key = id(function) if function is not None else 0
        if key not in self._no_grad_ids:
            body = function.body if isinstance(function, FUNCTION_TYPES) else self.index.tree.body
            self._no_grad_ids[key] = self._no_grad_lines(body if isinstance(body, list) else [])
        return self._no_grad_ids[key]

    def _no_grad_lines(self, body) -> list[tuple[int, int]]:
        """Line ranges of the `with torch.no_grad():` bodies in one scope, found by walking statements only
        (nested defs and classes are scopes of their own)."""
        ranges: list[tuple[int, int]] = []
        stack = list(body)
        while stack:
            stmt = stack.pop()
            if isinstance(stmt, (*FUNCTION_TYPES, ast.ClassDef)):
                continue
            if isinstance(stmt, ast.With | ast.AsyncWith) and any(
                self.disables_grad(item.context_expr) for item in stmt.items
            ):
                ranges.append((stmt.body[0].lineno, stmt.end_lineno))
                continue
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                stack.extend(getattr(stmt, field, ()))
        return ranges

    def without_grad(self, node: ast.AST) -> bool:
        """Inside `with torch.no_grad()`/`inference_mode()`/`set_grad_enabled(False)`, or a def decorated so."""
        for outer in self.ancestors(node):
            if isinstance(outer, ast.With | ast.AsyncWith) and any(
                self.disables_grad(item.context_expr) for item in outer.items
            ):
                return True
            if isinstance(outer, FUNCTION_TYPES) and any(self.disables_grad(d) for d in outer.decorator_list):
                return True
        return False

    def disables_grad(self, expr: ast.AST) -> bool:
        target = expr.func if isinstance(expr, ast.Call) else expr
        name = self.index.resolver.qualname(target)
        if name in NO_GRAD:
            return not (
                isinstance(expr, ast.Call) and expr.args and is_false(expr.args[0])
            )  # inference_mode(False) enables
        if name in _SET_GRAD and isinstance(expr, ast.Call) and expr.args:
            # set_grad_enabled(phase == "train"): the author switches gradients per phase on purpose
            return not (isinstance(expr.args[0], ast.Constant) and expr.args[0].value is True)
        return False

    def _steps(self, loop) -> bool:
        """The loop's own body (not a nested loop) runs backward() or optimizer.step(), or a helper that does."""
        for site in self.direct.get(id(loop), ()):
            if is_step_call(site.node):
                return True
            helper = self.helpers.get(id(site.node)) or self.own_method(site.node)
            if helper is not None and self._helper_steps(helper):
                return True
        return False

    def own_method(self, call: ast.Call) -> ast.AST | None:
        """The method a call `obj.name(...)` runs when exactly one class of the module defines `name` and no
        nn.Module or optimizer method goes by it (`model.train_model(x, y)`, a course's model class that runs
        its own training step)."""
        func = call.func
        if (
            not isinstance(func, ast.Attribute)
            or func.attr in _FRAMEWORK_METHODS
            or func.attr.startswith("__")
        ):
            return None
        table = self.loop_cache("own_methods", None, self._unique_methods)
        return table.get(func.attr)

    def _unique_methods(self) -> dict[str, ast.AST]:
        seen: dict[str, list[ast.AST]] = {}
        for methods in self.index.class_methods.values():
            for name, method in methods.items():
                seen.setdefault(name, []).append(method)
        return {name: defs[0] for name, defs in seen.items() if len(defs) == 1}

    def _helper_steps(self, helper) -> bool:
        """The def runs backward() or optimizer.step() outside any loop of its own (asked once per def)."""
        return self.loop_cache(
            "helper_steps",
            helper,
            lambda: any(
                is_step_call(s.node) and not s.loops for s in self.index.function_calls.get(id(helper), [])
            ),
        )


_FRAMEWORK_METHODS = frozenset(
    {"forward", "train", "eval", "step", "backward", "zero_grad", "update", "to", "cuda", "cpu", "parameters"}
    | {"state_dict", "load_state_dict", "add", "append", "extend", "get", "item", "run", "fit", "predict"}
)
FEW_RUNS = 16  # a body that runs this many times in all costs nothing worth a finding


def runs(loop) -> int | None:
    """How many times a loop's body runs, when the code says so: once when the body `break`s or returns
    outside any `if` (the take-one-batch idiom), else as its literal source says (``literal_iterations``)."""
    if runs_once(loop):
        return 1
    count = literal_iterations(loop)
    if count is None:
        count = _counted_break(loop) if isinstance(loop, ast.For) else _counted_while(loop)
    return None if count is None else max(count, 0)


def _counted_while(loop) -> int | None:
    """`while restarts < 1: ... restarts += 1`: a counter compared with a literal and raised by one in the body
    runs that many times (counting from 0, as such counters do)."""
    test = getattr(loop, "test", None)
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Lt | ast.LtE)
        and isinstance(test.left, ast.Name)
        and isinstance(test.comparators[0], ast.Constant)
        and type(test.comparators[0].value) is int
    ):
        return None
    counter, bound = test.left.id, test.comparators[0].value
    raised = any(
        isinstance(n, ast.AugAssign)
        and isinstance(n.op, ast.Add)
        and isinstance(n.target, ast.Name)
        and n.target.id == counter
        and isinstance(n.value, ast.Constant)
        and n.value.value == 1
        for stmt in loop.body
        for n in iter_walk(stmt)
    )
    if not raised:
        return None
    return bound + 1 if isinstance(test.ops[0], ast.LtE) else bound


def _counted_break(loop) -> int | None:
    """`for j, batch in enumerate(loader): ... if j >= 9: break`: the body runs 10 times (a few samples drawn
    for a plot). Only a bare break under a comparison of the enumerate counter with a literal counts."""
    it, target = getattr(loop, "iter", None), getattr(loop, "target", None)
    if not (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "enumerate"
        and isinstance(target, ast.Tuple)
        and target.elts
        and isinstance(target.elts[0], ast.Name)
    ):
        return None
    counter = target.elts[0].id
    for stmt in loop.body:
        test = stmt.test if isinstance(stmt, ast.If) and isinstance(stmt.body[0], ast.Break) else None
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.left, ast.Name)
            and test.left.id == counter
            and isinstance(test.comparators[0], ast.Constant)
            and type(test.comparators[0].value) is int
        ):
            bound, op = test.comparators[0].value, test.ops[0]
            if isinstance(op, ast.GtE | ast.Eq):
                return bound + 1
            if isinstance(op, ast.Gt):
                return bound + 2
    return None


def few_runs(loops) -> bool:
    """The innermost of these nested loops runs its body at most FEW_RUNS times in all."""
    total = 1
    for loop in loops:
        count = runs(loop)
        if count is None:
            return False
        total *= count
    return total <= FEW_RUNS


_CLOCKS = frozenset(
    {
        "time",
        "perf_counter",
        "monotonic",
        "process_time",
        "time_ns",
        "perf_counter_ns",
        "default_timer",
        "timer",
    }
)


def reads_clock(sites) -> bool:
    """One of these calls reads a clock (`time.perf_counter()`, `timer()` from timeit, a CUDA event's
    `record()`, a stopwatch's `toc()` as pycls and Detectron time their benchmarks): the loop times what it
    runs. By the called name: the resolver follows only the frameworks."""
    return any(
        base_name(site.node.func) in _CLOCKS or method_name(site.node) in ("record", "elapsed_time", "toc")
        for site in sites
    )


def call_function(index: ModuleIndex, call: ast.Call) -> ast.AST | None:
    """The def a call is in (None at module level), from a table made once per module."""
    table = facts(index).loop_cache(
        "call_function", None, lambda: {id(s.node): s.function for s in index.calls}
    )
    return table.get(id(call))


def module_nodes(index: ModuleIndex) -> list[ast.AST]:
    """Every node of the module (as ast.walk gives them), listed once per module for all the rules that look
    (`TorchFacts.module_nodes`; read it, do not change it)."""
    return facts(index).module_nodes


def scope_values(index: ModuleIndex, scope: ast.AST) -> dict[str, list[ast.AST | None]]:
    """`module.values_by_name(scope)` (name -> the values `bound_values` gives) for a def or the module's tree,
    made once per scope for every loop of it that asks (PP503 asked `bound_values` once per loop over a name,
    each a walk of the whole def). Keyed on the scope, one of this module's nodes, in the module's TorchFacts,
    which are forgotten with its tree: never another module's table. Read it, do not change it."""
    return facts(index).loop_cache("values_by_name", scope, lambda: values_by_name(scope))


def module_nodes_of(index: ModuleIndex, *kinds: type) -> list[ast.AST]:
    """The module's nodes of these classes (exact classes, as `node.__class__ is` tests them), in `walk`'s
    order: one list per set of classes for every rule that asks, from `TorchFacts.module_nodes`, instead of a
    walk of the tree per rule (torch-speed22; torch_data's `_module_is_cpu_script` and `_listed` ask it for
    their `ast.Call`s and `ast.Assign`s). Read it, do not change it. Keyed by each class's module and
    qualified name (review28 item 21: two classes of one name from different modules would share a list)."""
    wanted = frozenset(kinds)
    key = "nodes_of:" + ",".join(sorted(f"{kind.__module__}.{kind.__qualname__}" for kind in wanted))
    held = facts(index)
    return held.loop_cache(key, None, lambda: [n for n in held.module_nodes if n.__class__ in wanted])


def loop_nodes(index: ModuleIndex, loop) -> list[ast.AST]:
    """Every node of a loop (as ast.walk gives them), listed once per module for all the rules that look."""
    return facts(index).loop_cache("nodes", loop, lambda: walk(loop))


_CONFIGURATION = re.compile(
    r"(?i)^(is_)?(master|main)(_process|_proc|_rank)?$|^(local_|global_)?rank$|^get_rank$|^world_size$"
    r"|^(num|n)_?gpus?$|^ngpus?$|^(is_|use_)?(distributed|cuda|ddp|multi_gpu)$|^device(_type)?$|^is_available$"
    # a switch of the run's configuration or a def's phase: `if args.use_amp: ... else: ...`, `if is_train:`,
    # `if config["enable_tensorboard"]:` take the same branch every step
    r"|^(use|enable)_[a-z0-9_]+$|^is_train(ing)?$|^(use_)?(amp|fp16|bf16|mixed_precision)(_run|_enabled)?$"
)


# Words of an `if` test that runs what it holds only on some steps (a step count, an interval) or only for a
# log (a print, verbose or debug switch; a TensorBoard, wandb or visdom writer): one vocabulary for every
# PyTorch rule that asks whether a test times or switches a read (PP501's readers, loss terms, log switches).
_STEP_WORDS = r"step|iter|epoch|batch|count|freq|interval|every"
_LOG_WORDS = (
    r"log|print|verbose|debug|display|summar|writer|tensorboard|wandb|visdom|mlflow|neptune"
    r"|(?<![a-z])(?:tb|vis|viz)(?![a-z])"
)
STEP_OR_LOG = re.compile(rf"(?i){_STEP_WORDS}|{_LOG_WORDS}")
LOG_WORDS = re.compile(rf"(?i){_LOG_WORDS}")


def configuration_test(test: ast.AST) -> bool:
    """A test on the process or the configuration only (`master_process`, `args.local_rank in [-1, 0]`,
    `num_gpus > 1`, `device_type == "cuda"`, `dist.get_rank() == 0`): the same answer every step."""
    inner = set()
    ends = []
    for node in iter_walk(test):
        if _keyed_switch(node):
            ends.append(ast.Name(id=node.slice.value))
            inner.add(id(node.value))
            continue
        if isinstance(node, ast.BinOp | ast.Subscript | ast.Lambda | ast.NamedExpr | ast.Starred):
            return False
        if isinstance(node, ast.Attribute):
            inner.add(id(node.value))
        elif isinstance(node, ast.Call):
            inner.add(id(node.func))
            ends.append(node.func)
    for node in iter_walk(test):
        if isinstance(node, ast.Name | ast.Attribute) and id(node) not in inner:
            ends.append(node)
    return bool(ends) and all(
        _CONFIGURATION.search(end.id if isinstance(end, ast.Name) else end.attr)
        for end in ends
        if isinstance(end, ast.Name | ast.Attribute)
    )


def log_switch(test: ast.AST) -> bool:
    """`if self.use_tb:`, `if args.use_wandb and is_main_process:`, `if config["enable_tensorboard"]:`, `if
    writer is not None:`: a test of whether the run logs (a name, attribute or string key of `LOG_WORDS`,
    with at most the process or the configuration beside it, `_CONFIGURATION`). It takes the same branch
    on every step, but what it holds runs only when the run turns its log on (DrQ-v2's metrics, `use_tb`
    off by default)."""
    inner, ends = set(), []
    for node in iter_walk(test):
        if isinstance(node, ast.BinOp | ast.Call | ast.Lambda | ast.NamedExpr | ast.Starred):
            return False
        if isinstance(node, ast.Subscript):
            if not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
                return False
            ends.append(node.slice.value)
            inner.update((id(node.value), id(node.slice)))
        elif isinstance(node, ast.Attribute):
            inner.add(id(node.value))
    for node in iter_walk(test):
        if isinstance(node, ast.Name | ast.Attribute) and id(node) not in inner:
            ends.append(node.id if isinstance(node, ast.Name) else node.attr)
    return any(LOG_WORDS.search(e) for e in ends) and all(
        LOG_WORDS.search(e) or _CONFIGURATION.search(e) for e in ends
    )


def under_log_switch(fx: TorchFacts, node: ast.AST, stop: ast.AST | None = None) -> bool:
    """The node is in the body of an `if` that tests a logging switch (`log_switch`), inside its own def."""
    child = node
    for outer in fx.ancestors(node, stop):
        if isinstance(outer, FUNCTION_TYPES):
            return False
        if isinstance(outer, ast.If) and any(child is s for s in outer.body) and log_switch(outer.test):
            return True
        child = outer
    return False


OPTIONS = re.compile(r"(?i)^(args|opts?|options|c(on)?fg|config|conf|hparams|hps?|flags|settings)$")


def option_choice(test: ast.AST) -> bool:
    """`if args.loss == 'wgan-gp':`, `elif cfg.model.type in ("a", "b"):`: an option of the run compared with
    a name of a choice; one branch runs on every step of the run, so it does not guard a read."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    if not isinstance(test.ops[0], ast.Eq | ast.NotEq | ast.In | ast.NotIn):
        return False
    choice = test.comparators[0]
    texts = choice.elts if isinstance(choice, ast.Tuple | ast.List | ast.Set) else [choice]
    if not texts or not all(isinstance(t, ast.Constant) and isinstance(t.value, str) for t in texts):
        return False
    node = test.left
    if not isinstance(node, ast.Attribute | ast.Subscript):
        return False
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
        if isinstance(node, ast.Attribute) and OPTIONS.match(node.attr):
            return True
    return isinstance(node, ast.Name) and bool(OPTIONS.match(node.id))


def _keyed_switch(node: ast.AST) -> bool:
    """`config["enable_tensorboard"]`: a configuration's entry read by a key that names a switch."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
        and node.slice.value.startswith(("use_", "enable_"))
    )


def _accumulation(test: ast.AST) -> bool:
    """`if (step + 1) % args.gradient_accumulation_steps == 0:`: the optimizer-step boundary of gradient
    accumulation, every step by default (one step per update), not a logging interval."""
    return any(
        isinstance(n, ast.BinOp)
        and isinstance(n.op, ast.Mod)
        and any("accum" in (base_name(m) or "").lower() for m in iter_walk(n.right))
        for n in iter_walk(test)
    )


def _later_branch(test_if: ast.If, inner: ast.AST) -> bool:
    """`inner` is in the branch of `if x is None:` (the `else`) or `if x is not None:` (the body) that runs
    on every step after the first."""
    if none_tested(test_if.test, ast.Is) is not None:
        branch = test_if.orelse
    elif none_tested(test_if.test, ast.IsNot) is not None:
        branch = test_if.body
    else:
        return False
    return any(inner is stmt for stmt in branch)


def _path_in(body: list[ast.stmt], node: ast.AST) -> list[ast.AST] | None:
    """The nodes from a statement of `body` down to `node` (not included), found by descending only into the
    nodes whose source span holds the node's; None when the node is not there (or positions mislead, as
    they may inside f-strings: the caller then walks the whole body)."""
    if not hasattr(node, "end_lineno"):
        return None
    span = ((node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset))
    path: list[ast.AST] = []
    return path if _descend_to(body, node, span, path) else None


def _descend_to(children, node: ast.AST, span, path: list[ast.AST]) -> bool:
    """`_path_in`'s search below `children`, extending `path`. (A function of its own, not a closure: a
    closure calling itself is a reference cycle, which would keep the statement alive until the cyclic
    collector runs.)"""
    start, end = span
    line, end_line = start[0], end[0]
    for child in children:
        if child is node:
            return True
        if hasattr(child, "end_lineno"):
            first, last = child.lineno, child.end_lineno
            if first > line or last < end_line:
                continue  # (the lines alone say the child's span does not hold the node's: most siblings)
            if (first == line or last == end_line) and not (
                (first, child.col_offset) <= start and end <= (last, child.end_col_offset)
            ):
                continue
        path.append(child)
        if _descend_to(child_nodes(child, []), node, span, path):
            return True
        path.pop()
    return False


def _loop_body(loop) -> tuple[set[int], dict[int, ast.AST]]:
    """One walk of a loop's body: the ids of nodes under a guard (if, try, nested loop, `and`/`or`), and the
    statement each node is part of."""
    guarded: set[int] = set()
    statement_of: dict[int, ast.AST] = {}
    stack = [(stmt, False, stmt) for stmt in loop.body]
    while stack:
        node, under_guard, stmt = stack.pop()
        if isinstance(node, ast.stmt):
            stmt = node
        statement_of[id(node)] = stmt
        if under_guard:
            guarded.add(id(node))
        inner = under_guard or isinstance(node, _GUARDS)
        stack.extend((child, inner, stmt) for child in ast.iter_child_nodes(node))
    return guarded, statement_of


_CACHE: dict[str, object] = {"index": None, "facts": None}


def facts(index: ModuleIndex) -> TorchFacts:
    """The module's TorchFacts, computed once for all rules run on the same index."""
    if _CACHE["index"] is not index:
        _CACHE["facts"] = TorchFacts(index)
        _CACHE["index"] = index
    return _CACHE["facts"]


def body_nodes(statements) -> list[ast.AST]:
    """Every node of these statements (a loop's body), one statement after another, each in `walk`'s order,
    listed once per body while the module's TorchFacts lives (torch-speed21: PP509 walked a loop's body
    again for each of its questions, 341k walks on hold-out 36), in its `loop_cache` (torch-speed22: one
    cache, not a second table beside it); without TorchFacts (no rule is running), listed afresh."""
    held = _CACHE["facts"]
    if held is None:
        return _listed_body(statements)
    return held.loop_cache("body_nodes", statements, lambda: _listed_body(statements))


def _listed_body(statements) -> list[ast.AST]:
    return [node for stmt in statements for node in walk(stmt)]


def forget_facts(index: ModuleIndex | None = None) -> None:
    """Drop the cached TorchFacts (of `index` only, when given): the engine calls this once a module's rules
    ran, so the module is freed at once by reference counts, not kept alive until the next module is
    checked; the project passes when they take up an index again (checker/torch_project/common.py)."""
    if index is None or _CACHE["index"] is index:
        _CACHE["index"] = _CACHE["facts"] = None


def is_false(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def direct_calls(index: ModuleIndex, loop) -> list[CallSite]:
    """Calls in the loop's own body, not in a loop nested in it."""
    return facts(index).direct.get(id(loop), [])


def method_name(call: ast.Call) -> str | None:
    """`x.backward()` -> "backward"; None for a call of a plain name or an expression. (Class tests, not
    `isinstance`: asked a million times on hold-out 18, and no AST class is subclassed.)"""
    func = call.func
    return func.attr if func.__class__ is ast.Attribute else None


@functools.lru_cache(maxsize=256)
def returns_in(function) -> tuple[ast.Return, ...]:
    """Every `return` statement under a def (nested defs' too), in ast.walk order; cached per def."""
    return tuple(n for n in statements_in(function) if isinstance(n, ast.Return))


_SCOPE_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_STATEMENT_FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")  # (as `statements_in` reads them)


def own_returns(function) -> list[ast.Return]:
    """The `return` statements of the def itself, not of a def or class nested in it: a small local loader
    (`def load(path): return np.load(path)`) inside `__getitem__` returns to its caller, not from the item."""
    found, stack = [], list(reversed(function.body))
    while stack:
        node = stack.pop()
        if node.__class__ is ast.Return:
            found.append(node)
        elif not isinstance(node, _SCOPE_DEFS):
            for name in _STATEMENT_FIELDS:
                block = getattr(node, name, None)
                if block.__class__ is list:
                    stack += reversed(block)
    return found


def base_name(node: ast.AST) -> str | None:
    """`self.model.fc` -> `model` (the last name before the attribute chain's end), `loss` -> `loss`."""
    kind = node.__class__  # (as `method_name`)
    if kind is ast.Name:
        return node.id
    if kind is ast.Attribute:
        return node.attr
    return None


def is_step_call(call: ast.Call) -> bool:
    """`loss.backward()`, `optimizer.step()`, `scaler.step(opt)`, `loss_scaler(loss, optimizer)`."""
    name = method_name(call)
    if name == "backward":
        return True
    if name == "step" and isinstance(call.func, ast.Attribute):
        receiver = (base_name(call.func.value) or "").lower()
        # (torch-fix19) MUNIT's `self.gen_opt.step()`, `self.dis_opt.step()`: a name that ends in `_opt`
        return (
            "optim" in receiver
            or receiver.startswith("opt")
            or receiver.endswith("_opt")
            or "scaler" in receiver
        )
    # timm's `loss_scaler(loss, optimizer, ...)`: a scaler object called on the loss runs backward and the step
    return name is None and "scaler" in (base_name(call.func) or "").lower() and len(call.args) >= 2


def is_model_name(name: str | None) -> bool:
    return name is not None and _model_like(name)


@functools.lru_cache(maxsize=4096)
def _model_like(name: str) -> bool:
    """(Asked for every call's name by several rules: the same few names again and again.)"""
    lowered = name.lower()
    return any(m in lowered for m in MODEL_LIKE)


_DTYPE_ONLY = frozenset({"float", "double", "half", "long", "int", "bool", "bfloat16", "float32", "float16"})
# torch's dtypes named by their size (`.to(torch.int64)` changes the type, not the device; torch-fix40)
_SIZED_DTYPE = re.compile(
    r"^(?:u?int(?:8|16|32|64)|float(?:16|32|64)|complex(?:64|128)|short|cfloat|cdouble)$"
)


def is_dtype_name(name: str) -> bool:
    """The last name of a torch dtype (`float`, `int64`, `bfloat16`): `.to(torch.<name>)` is a cast."""
    return name in _DTYPE_ONLY or bool(_SIZED_DTYPE.match(name))


def cpu_device_names(index: ModuleIndex) -> set[str]:
    """Names bound only to the CPU (`device = torch.device("cpu")` or `device = "cpu"`, never to anything
    else): moves to them stay on the host (hold-out 14: BYOL's linear-evaluation notebook). Found once per
    module (`TorchFacts.cpu_names`)."""
    return facts(index).cpu_names


def _bound_to_cpu_only(index: ModuleIndex) -> set[str]:
    return {
        name
        for name, values in index.name_values.items()
        if values and all(on_cpu(v, index, frozenset()) for v in values)
    }


def on_cpu(node: ast.expr, index: ModuleIndex, cpu) -> bool:
    """`"cpu"`, a name of `cpu` (`cpu_device_names`), or `torch.device(...)` of one (BYOL's
    `torch.device(torch.device(device))` after `device = 'cpu'`)."""
    if isinstance(node, ast.Name):
        return node.id in cpu
    if isinstance(node, ast.Call) and index.resolver.call_name(node) == "torch.device":
        return bool(node.args) and on_cpu(node.args[0], index, cpu)
    return _is_cpu(node)


def _is_cpu(node) -> bool:
    return isinstance(node, ast.Constant) and node.value == "cpu"


_CUDA_QUERIES = frozenset(
    "torch.cuda." + n
    for n in (
        "empty_cache",
        "synchronize",
        "is_available",
        "device_count",
        "ipc_collect",
        "reset_peak_memory_stats",
    )
)


def _moves_to_device(call: ast.Call, index: ModuleIndex, cpu: set[str]) -> bool:
    name = method_name(call)
    if name == "cuda":
        return True
    if name == "to":
        first = (
            call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "device"), None)
        )
        if first is not None and on_cpu(first, index, cpu):
            return False
        return is_device_move(call, index)
    qualified = index.resolver.call_name(call) or ""
    if qualified == "torch.device":
        return not on_cpu(call, index, cpu)
    return qualified.startswith("torch.cuda.")


def is_device_move(call: ast.Call, index: ModuleIndex) -> bool:
    """`.cuda()`, `.to(device)`, `.to("cuda")`, `.to(x.device)`; not a dtype change such as `.to(torch.float32)`."""
    name = method_name(call)
    if name == "cuda":
        return True
    if name == "type":
        return len(call.args) == 1 and cuda_type(call.args[0], index)
    if name != "to":
        return False
    if any(k.arg == "device" for k in call.keywords):
        return True
    if not call.args:
        return False
    first = call.args[0]
    if isinstance(first, ast.Constant):
        return isinstance(first.value, str) and first.value.startswith(("cuda", "mps", "xpu"))
    qualified = index.resolver.qualname(first)
    if qualified is not None and qualified.startswith("torch."):
        return not is_dtype_name(qualified.rsplit(".", 1)[1])
    return not (isinstance(first, ast.Attribute) and first.attr in ("dtype",))


def mapped_move_argument(call: ast.Call, index: ModuleIndex) -> str | None:
    """The lambda's argument in `map(lambda x: x.cuda(), batch)` (DCUnet, h43 train.py:71) or `map(lambda x:
    x.to(opt.device).squeeze(0), batch)` (Pyraformer): a method chain on the argument with a device move in
    it, so every item mapped comes out on the device. None for any other call, or a lambda that moves nothing
    (review25 item 7: one test for PP509's placed values and the loader rules' batch names)."""
    func, args = call.func, call.args
    if not (
        func.__class__ is ast.Name and func.id == "map" and len(args) == 2 and isinstance(args[0], ast.Lambda)
    ):
        return None
    node, moved = args[0].body, False
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        moved = moved or is_device_move(node, index)
        node = node.func.value
    if moved and isinstance(node, ast.Name) and node.id in {a.arg for a in args[0].args.args}:
        return node.id
    return None


# torch's joins of several tensors into one (`torch.cat((anc, pos, neg))`, `torch.stack([x_, y_], dim=0)`):
# the joined tensor is where its parts are (review25 item 6: one set for the loader and factory rules).
TORCH_JOINS = frozenset({"cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack"})


def cuda_type(node: ast.AST, index: ModuleIndex) -> bool:
    """`torch.cuda.FloatTensor`, or a name every binding of which is one or picks one by a test (`Tensor =
    torch.cuda.FloatTensor if cuda else torch.FloatTensor`, the PyTorch-GAN idiom): `x.type(Tensor)` then
    copies a host tensor to the GPU (torch-fix19)."""
    if isinstance(node, ast.Name):
        values = index.name_values.get(node.id, ())
        return bool(values) and all(
            any(
                _names_cuda_type(e, index) for e in ((v.body, v.orelse) if isinstance(v, ast.IfExp) else (v,))
            )
            for v in values
        )
    return _names_cuda_type(node, index)


def _names_cuda_type(node: ast.AST, index: ModuleIndex) -> bool:
    if not (isinstance(node, ast.Attribute) and node.attr.endswith("Tensor")):
        return False  # (the last part names the type: no resolving for the other calls of a module)
    qualified = index.resolver.qualname(node)
    return qualified is not None and qualified.startswith("torch.cuda.") and qualified.endswith("Tensor")


def model_names(index: ModuleIndex) -> set[str]:
    """Names that hold a model: receivers of `.eval()`/`.train()`/`.parameters()` and model-like names."""
    found = set()
    for site in index.calls:
        if method_name(site.node) in ("eval", "train", "parameters", "named_parameters") and (
            not site.node.args
        ):
            receiver = base_name(site.node.func.value)
            if receiver not in (None, "self"):
                found.add(receiver)
    return found


def model_called(call: ast.Call) -> str | None:
    """The name a call runs as a model: `model(x)` -> model, `self.net(x)` -> net, `net.forward(x)` -> net.
    None for what only sounds like one: an exception class (`pb_utils.TritonModelException(...)`), a
    getter (`trainer.get_model()`), a random-number generator (`torch.Generator(device="cuda")`)."""
    if method_name(call) == "forward":
        return base_name(call.func.value)
    func = call.func
    if (
        isinstance(func, ast.Subscript)
        and isinstance(func.slice, ast.Constant)
        and isinstance(func.slice.value, str)
    ):
        func = func.value  # `self.model["generator"](z, c)`: an entry of a dict of models, by its name
    name = base_name(func)
    if name is None or name.endswith(("Exception", "Error", "Warning")) or name.startswith("get_"):
        return None
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "Generator" and base_name(func.value) == "torch":
        return None
    return name


GRAD_CALLS = frozenset({"torch.autograd.grad", "torch.autograd.backward"})
_EVAL_WORDS = ("eval", "test", "valid", "infer", "predict", "accuracy")
NEEDS_GRAD_ATTRS = frozenset({"requires_grad", "requires_grad_", "grad", "backward", "retain_grad"})


# words that, beside `val`, make it validation's short spelling rather than RL's "value" (`val_epoch`,
# `run_val`, `val_step`; not `rollout_val`, `fit_val`, `target_val`)
_VAL_PHASE_WORDS = frozenset({"epoch", "step", "loop", "run", "one", "batch", "pass"})


def eval_named(function) -> bool:
    """A def named for evaluation (`test`, `validate`, `compute_accuracy`...), or one with `val` as a word of
    its name beside a loop or phase word (`val_epoch`, `run_val`, `val_step`: the short spelling of
    validation that `valid` misses; torch-fix120, SR-LSTM's `val_epoch`, hold-out 36). `val` alone often
    means "value" in RL code (`rollout_val`, whose outputs feed the caller's loss: review 24 item 6). None,
    the module's code: no."""
    if function is None:
        return False
    name = function.name.lower()
    if any(w in name for w in _EVAL_WORDS):
        return True
    words = [w for w in name.split("_") if w]
    return "val" in words and any(w in _VAL_PHASE_WORDS for w in words)


def needs_grad(loop, index: ModuleIndex) -> bool:
    """A loop that uses gradients (saliency maps, adversarial inputs, training): no_grad would break it."""
    for inner in loop_nodes(index, loop):
        if isinstance(inner, ast.Attribute) and inner.attr in NEEDS_GRAD_ATTRS:
            return True
        if isinstance(inner, ast.Call) and index.resolver.call_name(inner) in GRAD_CALLS:
            return True
        if _asks_grad(inner):
            return True
    return False


def _asks_grad(node) -> bool:
    """A `requires_grad=` keyword that asks for gradients (`Variable(x, requires_grad=False)`, DiffPool's
    evaluation batches, asks for none)."""
    return isinstance(node, ast.keyword) and node.arg == "requires_grad" and not is_false(node.value)


def attacks(call: ast.Call) -> bool:
    """`adversary.perturb(x, y)`, `attack(images, labels)`: an adversarial attack, which takes gradients with
    respect to its inputs through the model."""
    name = (base_name(call.func) or "").lower()
    return method_name(call) == "perturb" or "attack" in name or "adversar" in name


def uses_input_gradients(function, index: ModuleIndex) -> bool:
    """Saliency maps, adversarial examples: gradients with respect to inputs, set up anywhere in the def.
    Reading or setting a parameter's flag (`sum(p.numel() for p in model.parameters() if p.requires_grad)`,
    a count of trainable weights; `for p in model.parameters(): p.requires_grad = True`) is no such use.
    Found once per def for the rules that ask."""
    return facts(index).loop_cache("input_gradients", function, lambda: _input_gradients(function, index))


def _input_gradients(function, index: ModuleIndex) -> bool:
    nodes = walk(function)
    params = _parameter_loop_names(nodes)
    return any(
        (
            isinstance(n, ast.Attribute)
            and n.attr in ("requires_grad", "requires_grad_")
            and base_name(n.value) not in params
        )
        or _asks_grad(n)
        or (isinstance(n, ast.Call) and index.resolver.call_name(n) == "torch.autograd.grad")
        for n in nodes
    )


def _parameter_loop_names(nodes) -> set[str]:
    """Names a loop or comprehension among a def's nodes binds to a model's parameters (`for p in
    model.parameters()`, `for name, p in net.named_parameters()`)."""
    found = set()
    for n in nodes:
        if isinstance(n, ast.For | ast.AsyncFor | ast.comprehension) and (
            isinstance(n.iter, ast.Call) and method_name(n.iter) in ("parameters", "named_parameters")
        ):
            found |= names_in(n.target)
    return found


def grad_disabled_by_call(sites, index: ModuleIndex) -> bool:
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


def callers_disable_grad(function, index: ModuleIndex, depth: int = 3) -> bool:
    """A call of the def runs under no_grad, directly or through the defs that call it (3 levels)."""
    fx = facts(index)
    sites = fx.callers.get(id(function), [])
    latest = index.module_functions.get(getattr(function, "name", ""))
    if not sites and latest is not None and latest is not function and function in index.tree.body:
        sites = fx.callers.get(id(latest), [])  # a notebook defines it again later: calls go by the name
    for site in sites:
        if fx.site_without_grad(site):
            return True
        if depth > 1 and site.function is not None and callers_disable_grad(site.function, index, depth - 1):
            return True
    return False


def carried_graph(index: ModuleIndex, loop) -> str | None:
    """A call in the loop takes a name it also rebinds (`out, state = model(x, state)`) and nothing detaches
    that state (`state = state.detach()`, `h.detach_()`): each step's graph reaches back into the previous
    one and backward needs retain_graph; the fix is detaching the state, not dropping the flag. Its name."""
    carried = _carried_names(index, loop)
    if not carried or _state_detached(index, loop, carried):
        return None
    return min(carried)


def carried_state(index: ModuleIndex, loop) -> str | None:
    """:func:`carried_graph`, less the names each iteration binds afresh before any call takes them: the
    loop's own target, and a name whose first binding in the loop body (in source order) reads no earlier
    value of itself (`x = data["image"]`, then `x = x.to(device)` and `x, a, b, lam = cutmix_data(x=x)`).
    Such a name holds this step's batch, not the previous step's graph. torch-fix124: Rainbow Memory's four
    PP511 findings (hold-out 39, read right) named the batch `x` as a carried state."""
    carried = _carried_names(index, loop)
    if not carried or _state_detached(index, loop, carried):
        return None
    fresh = set(names_in(loop.target)) if isinstance(loop, ast.For) else set()
    first: dict[str, bool] = {}  # name -> its first binding in the body reads no earlier value of it
    statements = [n for n in loop_nodes(index, loop) if isinstance(n, ast.Assign) and n is not loop]
    for node in sorted(statements, key=lambda n: (n.lineno, n.col_offset)):
        read = {n.id for n in iter_walk(node.value) if isinstance(n, ast.Name)}
        for target in node.targets:
            for name in (n.id for n in iter_walk(target) if isinstance(n, ast.Name)):
                first.setdefault(name, name not in read)
    kept = [name for name in carried if name not in fresh and not first.get(name, False)]
    return min(kept) if kept else None


def _carried_names(index: ModuleIndex, loop) -> set[str]:
    """The names :func:`carried_graph` takes as carried (a call in the loop takes a name it also rebinds)."""
    carried: set[str] = set()
    for node in loop_nodes(index, loop):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            targets = {n.id for t in node.targets for n in iter_walk(t) if isinstance(n, ast.Name)}
            given = [*node.value.args, *(k.value for k in node.value.keywords)]
            carried |= targets & {n.id for a in given for n in iter_walk(a) if isinstance(n, ast.Name)}
    return carried


def _state_detached(index: ModuleIndex, loop, carried: set[str]) -> bool:
    """The loop detaches a carried state (`h.detach_()`, `state = state.detach()`): no graph reaches back."""
    for node in loop_nodes(index, loop):
        if isinstance(node, ast.Call) and method_name(node) == "detach_":
            return True
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id in carried for t in node.targets)
            and any(isinstance(c, ast.Call) and method_name(c) == "detach" for c in iter_walk(node.value))
        ):
            return True
    return False


# --- toy data: a module whose only data is a few samples written into it -------------------------------------

_TINY_ROWS = 1000  # rows a literal or random data tensor may have and still be a toy
_TINY_ELEMENTS = 100_000  # elements a random tensor may have and still be a toy
_LITERAL_MAKERS = frozenset(
    {"tensor", "Tensor", "FloatTensor", "LongTensor", "as_tensor", "array", "asarray"}
)
_RANDOM_MAKERS = frozenset({"randn", "rand", "linspace"})
# a call that reads data from outside the script (a file, a dataset class, a download, a project helper)
_REAL_SOURCE = re.compile(
    r"(?i)read_|load(?!_state_dict)|genfromtxt|open|fetch|download|dataset|folder|get_data|get_batch|mnist|cifar"
    r"|imagenet|coco|voc|corpus|tokeni[sz]|from_pretrained|glob|listdir|walk|environ|gym|make_env"
)


def reads_real_source(name: str) -> bool:
    """A called name that reads data from outside the script (`_REAL_SOURCE`: a file, a data set class, a
    download, a data helper): public for the rules that tell a toy script from one that reads real data."""
    return bool(_REAL_SOURCE.search(name))


def toy_data(index: ModuleIndex) -> bool:
    """The module trains on a handful of samples it writes itself (`x = [[1, 2], [3, 4]]`,
    `torch.tensor([[-1.2, 3.1], ...])`, `X = torch.randn(100, 1)` outside any def, a few sentences handed to a
    def of the module) and reads no data from
    anywhere else (no file, dataset class, download or data helper is called): a
    lesson's toy, where a per-step read or an unpinned copy costs nothing anyone would measure."""
    fx = facts(index)
    if fx._toy is None:
        fx._toy = _toy_data(index)
    return fx._toy


def _toy_data(index: ModuleIndex) -> bool:
    tiny = False
    defined = set(index.class_methods) | index.function_names
    for site in index.calls:
        call = site.node
        name = base_name(call.func) or ""
        if name in defined or name == "DataLoader":
            if site.function is None and call.args and _sentences(call.args[0], index):
                tiny = True  # `pairs = preprocess(raw)` with `raw = ["I feel hungry.\t...", ...]`
            continue
        if name in _LITERAL_MAKERS:
            tiny = tiny or bool(call.args and _tiny_literal(call.args[0], index))
        elif name in _RANDOM_MAKERS:  # data made at the top of a script, not in a model's method
            tiny = tiny or (site.function is None and _tiny_random(call, name))
        elif _REAL_SOURCE.search(name):
            return False
    return tiny


def _sentences(value: ast.AST, index: ModuleIndex) -> bool:
    """A name bound once to a literal list of three or more sentences (strings with a space): a demo corpus
    written into the script."""
    if not isinstance(value, ast.Name):
        return False
    bound = index.name_values.get(value.id, [])
    if len(bound) != 1 or not isinstance(bound[0], ast.List | ast.Tuple):
        return False
    items = bound[0].elts
    return 2 < len(items) <= _TINY_ROWS and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) and " " in e.value for e in items
    )


def _tiny_literal(value: ast.AST, index: ModuleIndex) -> bool:
    if isinstance(value, ast.Name):
        bound = index.name_values.get(value.id, [])
        if len(bound) != 1:
            return False
        value = bound[0]
    return (  # rows of samples (`[[1, 2], [3, 4]]`), not a list of constants (loss weights, a kernel)
        isinstance(value, ast.List | ast.Tuple)
        and 2 < len(value.elts) <= _TINY_ROWS
        and all(isinstance(e, ast.List | ast.Tuple) for e in value.elts)
    )


def _tiny_random(call: ast.Call, name: str) -> bool:
    sizes = call.args[2:3] if name == "linspace" else call.args
    if len(sizes) == 1 and isinstance(sizes[0], ast.Tuple | ast.List):
        sizes = sizes[0].elts
    if not 0 < len(sizes) <= 2:  # samples x features; more axes are a layer's demo input
        return False
    if not all(isinstance(s, ast.Constant) and isinstance(s.value, int) for s in sizes):
        return False
    total = 1
    for s in sizes:
        total *= s.value
    return 1 < sizes[0].value <= _TINY_ROWS and total <= _TINY_ELEMENTS


def lowered_on_toys(check):
    """A check whose high findings (its rule's level, or `high` set on the finding) drop to medium in a
    module of toy data (`toy_data`)."""

    @functools.wraps(check)
    def checked(index: ModuleIndex):
        toy = None
        for raw in check(index):
            if raw.confidence in (None, "high"):
                if toy is None:
                    toy = toy_data(index)
                if toy:
                    raw = dataclasses.replace(raw, confidence="medium")
            yield raw

    return checked


# (calls whose value is on the host: a read of a tensor, or a Python number made from one)
HOST_READS = frozenset({"item", "numpy", "tolist", "float", "int"})


def returns_host_value(ret: ast.Return, function) -> bool:
    """A return of a host value: `return loss.item()`, or `return loss` whose last binding above it in the
    def's own statements is one (`loss = loss.item()` two lines up: NCF's `train_single_batch`)."""
    value = ret.value
    if isinstance(value, ast.Call):
        return base_name(value.func) in HOST_READS
    if not isinstance(value, ast.Name):
        return False
    bound = [
        stmt
        for stmt in function.body
        if isinstance(stmt, ast.Assign)
        and stmt.lineno < ret.lineno
        and any(isinstance(t, ast.Name) and t.id == value.id for t in stmt.targets)
    ]
    last = bound[-1].value if bound else None
    return isinstance(last, ast.Call) and base_name(last.func) in HOST_READS


def numpy_array_names(index: ModuleIndex) -> set[str]:
    """Names the module binds from a NumPy call (`err_train = np.zeros(nb_epochs)`; `np.` also when the
    module has it only from a star import), found once per module; PP501 and PP502 ask it."""
    return facts(index).loop_cache(
        "numpy_array_names",
        None,
        lambda: {
            t.id
            for node in index.call_assignments
            if (index.resolver.call_name(node.value) or "").startswith("numpy.")
            or (dotted_parts(node.value.func) or [""])[0] == "np"
            for t in node.targets
            if isinstance(t, ast.Name)
        },
    )


def does_nothing(function) -> bool:
    """A template's body: a docstring, then `pass`, `return`/`return None` or `raise NotImplementedError`."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return all(
        isinstance(stmt, ast.Pass)
        or (isinstance(stmt, ast.Return) and (stmt.value is None or isinstance(stmt.value, ast.Constant)))
        or isinstance(stmt, ast.Raise)
        for stmt in body
    )


def model_output(call: ast.Call, index: ModuleIndex) -> bool:
    """`model(x)`, `net.forward(x)`, `self.encoder(x)`: a call of a model instance (a lower-case name the
    module uses as a model, or an attribute of `self` or of a model so named); not `Net()` (a class, the
    model's constructor), `ShapeNetPart(...)` (a data set), nor `rollout.feed_forward_generator(...)` (a
    method only named like one)."""
    called = model_called(call)
    if called is None or not called[:1].islower():
        return False
    if not (is_model_name(called) or called in facts(index).models):
        return False
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr != "forward":
        root = dotted_parts(func.value) or []
        if root == ["self"] and any(func.attr in methods for methods in index.class_methods.values()):
            return False  # (`self.apply_model(...)`: a method of the class, which may return anything)
        return bool(root) and (root[0] == "self" or any(is_model_name(p) for p in root))
    return True


def breaks_early(loop) -> bool:
    """`for bib in range(len(asr)): ... if bib >= 5: break`: a range loop whose own body breaks once its
    variable passes a literal of a few (a handful of examples written out at an epoch's end); or an
    `enumerate` loop once its counter does (`for i, (x, y) in enumerate(loader): if i > 2: break`, review 24
    item 7). A compared name that is not the loop's counter (`if failures > 0: break`) says nothing of how
    many passes run."""
    counter = _loop_counter(loop)
    if counter is None:
        return False
    for stmt in loop.body:
        test = stmt.test if isinstance(stmt, ast.If) and isinstance(stmt.body[0], ast.Break) else None
        if (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and test.left.id == counter
            and isinstance(test.ops[0], ast.Gt | ast.GtE | ast.Eq)
            and isinstance(test.comparators[0], ast.Constant)
            and type(test.comparators[0].value) is int
            and test.comparators[0].value < FEW_RUNS
        ):
            return True
    return False


def _loop_counter(loop) -> str | None:
    """The name that counts a call-driven loop's passes: its own variable (`for i in range(n)`) or the first
    name of an `enumerate(...)` target (`for i, batch in enumerate(loader)`)."""
    if not isinstance(loop.iter, ast.Call):
        return None
    if isinstance(loop.target, ast.Name):
        return loop.target.id
    if (
        isinstance(loop.iter.func, ast.Name)
        and loop.iter.func.id == "enumerate"
        and isinstance(loop.target, ast.Tuple)
        and loop.target.elts
        and isinstance(loop.target.elts[0], ast.Name)
    ):
        return loop.target.elts[0].id
    return None


def constructs_model(call: ast.Call, index: ModuleIndex) -> bool:
    """A call shaped like a model's forward that makes, stores or restores a model instead: the one test PP503
    (a forward outside no_grad) and PP506 (a loop that runs a model every pass) ask. Its result goes straight
    to the device (`model = model_func(dataset).to(device)`, GraphCL's cross-validation); it is given only size
    keywords (`tg_model = self.network(num_classes=n)`, mnemonics' eval driver, hold-out 20); a method named
    for saving, loading or building one (`agent.save_model(env, step)`, MARL-code-pytorch, hold-out 20); or the
    name it is bound to is then used as a module (`net.children()`, `net.state_dict()`: the LUCIR family's
    phase loops, hold-out 20)."""
    fx = facts(index)
    above = fx.method_call_on(call)
    if above is not None and is_device_move(above, index):
        return True
    if method_name(call) is not None and call.func.attr.startswith(_MODEL_VERBS):
        return True
    if not call.args and call.keywords and all(_size_keyword(k.arg) for k in call.keywords):
        return True
    return _bound_as_module(call, fx)


# method-name prefixes of calls that store, restore or make a model rather than run it
_MODEL_VERBS = ("save_", "load_", "build_", "create_", "make_", "init_", "restore_", "export_")
# methods only a module answers to, not a forward's output
_MODULE_ONLY = frozenset(
    {"children", "modules", "parameters", "named_parameters", "state_dict", "load_state_dict", "apply"}
)


def _size_keyword(name: str | None) -> bool:
    """`num_classes=`, `n_layers=`, `hidden_dim=`, `input_size=`, `pretrained=`: a constructor's argument."""
    return name is not None and (
        name.startswith(("num_", "n_"))
        or name.endswith(("_classes", "_dim", "_size", "_channels"))
        or name in ("pretrained", "depth", "width")
    )


def _bound_as_module(call: ast.Call, fx: TorchFacts) -> bool:
    """`net = self.network(...)` whose name the same scope then treats as a module (`net.children()`)."""
    return id(call) in fx.loop_cache(
        "calls bound as modules", None, lambda: _calls_bound_as_modules(fx.index)
    )


def _calls_bound_as_modules(index: ModuleIndex) -> frozenset[int]:
    """id() of each call whose value `name = call(...)` binds to a name that its innermost def (or the module)
    calls a module-only method on anywhere inside it (`name.children()`). One descent per module by scope
    (`def_scopes`): PP503 asks about every model-shaped call, and finding each call's scope by its ancestors
    cost more than the rule (a walk carrying each node's chain of enclosing defs cost a tenth of the run on
    hold-out 18)."""
    used: dict[int, set[str]] = collections.defaultdict(set)  # id(scope) -> names used as modules in it
    bound: list[tuple[int, str, int]] = []  # (id(innermost scope), name, id(call))
    for _scope, chain, nodes in def_scopes(index.tree):
        for node in nodes:
            kind = node.__class__
            if kind is ast.Call:
                func = node.func
                if (
                    func.__class__ is ast.Attribute
                    and func.attr in _MODULE_ONLY
                    and func.value.__class__ is ast.Name
                ):
                    for scope in chain:
                        used[scope].add(func.value.id)
            elif kind is ast.Assign and node.value.__class__ is ast.Call:
                name = sole_name_target(node)
                if name is not None:
                    bound.append((chain[-1], name, id(node.value)))
    return frozenset(call for scope, name, call in bound if name in used.get(scope, ()))


def nests_loop(outer, loops) -> bool:
    """One of `loops` other than `outer` starts inside `outer`'s lines: `outer` holds it (an epoch loop around
    a step loop, a per-class loop around a whole pass over the data)."""
    end = outer.end_lineno or outer.lineno
    return any(inner is not outer and outer.lineno < inner.lineno <= end for inner in loops)


def loop_source(loop) -> ast.AST | None:
    """What a `for` loop goes over, its `enumerate`/`tqdm`/`iter` wrappers taken off (`for i, batch in
    enumerate(tqdm(test_loader)):` -> `test_loader`); None for a `while` loop. One definition for the rules
    that judge a loop by its loader's name (review23 item 10)."""
    source = getattr(loop, "iter", None)
    while (
        isinstance(source, ast.Call)
        and source.args
        and base_name(source.func) in ("enumerate", "tqdm", "iter")
    ):
        source = source.args[0]
    return source


def outside_ifs(fx, node: ast.AST, stop: ast.AST) -> bool:
    """No `if` stands between the node and `stop` (its def or loop): the node runs every time `stop`'s body
    does. One definition for the copies and reads judged "outside the def's ifs" (review23 item 11)."""
    return not any(isinstance(up, ast.If) for up in fx.ancestors(node, stop))


# the calls that list a model's weights (`parameter_list`)
PARAMETER_LISTS = frozenset({"parameters", "named_parameters"})


def parameter_list(node: ast.AST | None, listed: bool = False) -> bool:
    """`model.parameters()`, `self.net.named_parameters()`: a call that lists a model's weights, or with
    `listed` also `list(...)` of one (`named_params = list(net.named_parameters())`). The one test of a
    parameter list (torch-tidy26's left-undone: torch_sync spelled it three times); a caller that wants
    the whole model's list alone adds `not node.args` (no `recurse=False`, no `prefix`)."""
    if listed and isinstance(node, ast.Call) and base_name(node.func) == "list" and len(node.args) == 1:
        node = node.args[0]
    return isinstance(node, ast.Call) and method_name(node) in PARAMETER_LISTS


def parameter_defaults(function) -> dict[str, ast.Constant]:
    """The def's parameters whose default is a constant (`None` too), by name: the defaults table of
    `default_branch` and of the rules reading a def's number or flag defaults (review 27 item 3)."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    pairs = [*zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)]
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None]
    return {a.arg: d for a, d in pairs if isinstance(d, ast.Constant)}


def default_branch(test: ast.AST, in_body: bool, function) -> bool:
    """`test` compares a parameter of `function` with a constant (`task == 'flow'`, `!=`, `max_len is None`,
    `is not`) and the branch asked (the body when `in_body`, else the `else`) is the one a call leaving the
    parameter at its default takes. Equal means the same type and value (`1` is not `1.0` nor `True`), `is`
    the same object. One definition for torch_moves (a copy made on every call) and the cross-module reads
    (a read its defaults decide): review 27 item 3."""
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq | ast.NotEq | ast.Is | ast.IsNot)
        and isinstance(test.left, ast.Name)
        and isinstance(test.comparators[0], ast.Constant)
    ):
        return False
    default = parameter_defaults(function).get(test.left.id)
    if default is None:
        return False
    value, op = test.comparators[0].value, test.ops[0]
    if isinstance(op, ast.Is | ast.IsNot):
        same = default.value is value
    else:
        same = type(default.value) is type(value) and default.value == value
    return in_body == (same == isinstance(op, ast.Eq | ast.Is))


_NAN_CALLS = {"isnan": True, "isinf": True, "isfinite": False}
_NUMBER_TEST = re.compile(r"(?i)^_?is_?(valid|finite|nan|inf)(?:_?(?:number|num|value|loss))?$")


def nan_test(test: ast.AST) -> bool | None:
    """(review 28 item 9) The test is a check for a NaN or an infinity and nothing else: True when it holds on
    a NaN or infinite value (`torch.isnan(loss).any()`, `np.isinf(x)`, `loss != loss`, `loss.ne(loss).any()`,
    `not torch.isfinite(loss)`, `is_nan_value(v)`), False when it holds on a finite one (`torch.isfinite(x).all()`,
    `not torch.isnan(loss).any()`, a project's `is_valid_number(loss.item())`: SiamMask, TracKit and pysot
    guard each optimizer step with it), None for any other test (`step % 100 == 0 and ...`). Through `not`,
    `.any()`, `.all()` and `or` (True when a part is). The one NaN test of torch_sync (a divergence check) and
    torch_moves (a fallback taken only on a failure)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = nan_test(test.operand)
        return None if inner is None else not inner
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        parts = [nan_test(v) for v in test.values]
        return None if None in parts else any(parts)
    if not isinstance(test, ast.Call | ast.Compare):
        return None
    if isinstance(test, ast.Call) and method_name(test) in ("any", "all") and not test.args:
        return nan_test(test.func.value)
    if isinstance(test, ast.Call) and method_name(test) == "ne" and len(test.args) == 1 and not test.keywords:
        left, right = test.func.value, test.args[0]
    elif isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotEq):
        left, right = test.left, test.comparators[0]
    else:
        name = base_name(test.func) if isinstance(test, ast.Call) else None
        if name in _NAN_CALLS:
            return _NAN_CALLS[name]
        word = _NUMBER_TEST.match(name or "")
        return None if word is None else word.group(1).lower() in ("nan", "inf")
    same = isinstance(left, ast.Name | ast.Attribute | ast.Subscript) and ast.dump(left) == ast.dump(right)
    return True if same else None  # (a value unequal to itself: `self.K != self.K` too)
