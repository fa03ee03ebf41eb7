"""PP4xx: tf.function tracing and host synchronisation in eager (TF2) training loops."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from checker.findings import RawFinding
from checker.module import FUNCTION_TYPES, ModuleIndex, assigned_names, import_of, parameter_names
from checker.rules import Rule, register
from checker.rules.common import cache_guarded, few_iterations, first_report, per_device_loop, runs_per_call
from checker.rules.data import dataset_flow
from checker.rules.keras import instance_method

TF_FUNCTION = "tensorflow.function"


def _compat_function(target, index: ModuleIndex) -> bool:
    """`tf.function` where `tf` is a compat module re-exporting TensorFlow (`import lingvo.compat as tf`,
    whose names the resolver does not know: tf-fix23)."""
    if not (isinstance(target, ast.Attribute) and target.attr == "function"):
        return False
    if not isinstance(target.value, ast.Name):
        return False
    imported = import_of(target.value.id, index, whole_module=True)
    return imported is not None and imported[2] == "compat"


def _makes_tf_function(call: ast.Call, index: ModuleIndex) -> bool:
    """`tf.function(f)` or `tf.function(autograph=False)`."""
    return index.resolver.call_name(call) == TF_FUNCTION or _compat_function(call.func, index)


def _is_tf_function_def(function, index: ModuleIndex) -> bool:
    if TF_FUNCTION in index.decorators(function):
        return True
    return any(
        _compat_function(d.func if isinstance(d, ast.Call) else d, index) for d in function.decorator_list
    )


def _has_input_signature(function) -> bool:
    return any(
        isinstance(d, ast.Call) and any(k.arg == "input_signature" for k in d.keywords)
        for d in function.decorator_list
    )


def _nested_tf_function_defs(index: ModuleIndex) -> dict[int, ast.AST]:
    """Functions that define a tf.function inside themselves (a new one on every call)."""
    found = {}
    for inner in index.functions:
        parent = index.function_parent.get(id(inner))
        if parent is not None and isinstance(parent, FUNCTION_TYPES) and _is_tf_function_def(inner, index):
            found.setdefault(id(parent), inner)
    return found


def check_tf_function_in_loop(index: ModuleIndex):
    nested = _nested_tf_function_defs(index)
    reported: set[tuple[int, int]] = set()

    def report(at, message, confidence=None):
        if not first_report(reported, at):
            return None
        return RawFinding("PP401", at.lineno, at.col_offset, message, confidence)

    # A def decorated with @tf.function written inside a loop body.
    decorators = {id(d) for f in index.functions for d in f.decorator_list}
    for function in index.functions:
        if index.function_loops.get(id(function)) and _is_tf_function_def(function, index):
            loop = index.function_loops[id(function)][-1]
            if _closes_over_iteration(function, loop):
                continue  # it runs what this iteration built (a new layer): each one needs its own trace
            finding = report(
                function,
                f"`@tf.function {function.name}` is defined inside the loop at line {loop.lineno}: a new "
                "function is traced on every iteration; define it once outside the loop",
            )
            if finding:
                yield finding
    for loop in index.loops:
        for site, via in index.reached_calls(index.loop_calls[id(loop)]):
            if _makes_tf_function(site.node, index) and id(site.node) not in decorators:
                at = via or site.node  # `@tf.function()` is the def's finding
                finding = report(
                    at,
                    f"tf.function(...) is applied on every iteration of the loop at line {loop.lineno}"
                    + ("" if via is None else f" (via this call, line {site.node.lineno})")
                    + ": each new function is traced again; wrap the function once outside the loop",
                )
                if finding:
                    yield finding
            helper = index.helper_of(site.node, site.function)
            if via is None and helper is not None and id(helper) in nested:
                inner = nested[id(helper)]
                finding = report(
                    site.node,
                    f"`{helper.name}` defines `@tf.function {inner.name}` (line {inner.lineno}) and is called on "
                    f"every iteration of the loop at line {loop.lineno}: it is traced again each time",
                    "low",  # often one run per configuration or checkpoint, where retracing is the design
                )
                if finding:
                    yield finding
            elif (
                via is not None
                and helper is not None
                and id(helper) in nested
                and site.function is not None
                and not _traced_once(loop, index)
                and not per_device_loop(loop, index)
            ):
                # `fit_one_epoch(...)` in the epoch loop runs `train_step = get_train_step_fn(strategy)`
                # (tf-fix30: bubbliiiing's trainers, `low` as the helper called in the loop is)
                suffix = f", which the loop at line {loop.lineno} runs (line {via.lineno})"
                message = Maker.of(site.node, "helper", helper, nested).message(site.function.name, suffix)
                finding = report(site.node, message, "low")
                if finding:
                    yield finding
    for at, message in _made_per_call(index, nested, decorators):
        finding = report(at, message, "low")
        if finding:
            yield finding


def _traced_once(loop, index: ModuleIndex) -> bool:
    """The loop is in the body of a @tf.function def: Python runs it while tracing, not per call."""
    return any(
        not isinstance(f, ast.Lambda)
        and f.lineno <= loop.lineno <= (f.end_lineno or f.lineno)
        and _is_tf_function_def(f, index)
        and any(n is loop for n in ast.walk(f))
        for f in index.functions
    )


def _made_per_call(index: ModuleIndex, nested: dict[int, ast.AST], decorators: set[int]):
    """(node, message) for each tf.function a per-call method makes: a nested @tf.function def, a
    `tf.function(...)` call, or a call of a helper of this module that defines one."""
    for function in index.functions:
        if isinstance(function, ast.Lambda) or not runs_per_call(function):
            continue
        for at, kind, maker in per_call_makers(function, index, nested, decorators):
            yield at, Maker.of(at, kind, maker, nested).message(function.name)


def per_call_makers(function, index: ModuleIndex, nested: dict[int, ast.AST], decorators: set[int]):
    """(node, kind, def) for each tf.function a call of `function` makes anew, outside a cache guard: a
    nested @tf.function def ("nested", that def), a `tf.function(...)` call ("call", None), or a call of a
    helper of this module that defines one ("helper", the helper)."""
    found = []
    inner = nested.get(id(function))
    if inner is not None:
        found.append((inner, "nested", inner))
    for site in index.function_calls.get(id(function), []):
        call = site.node
        if id(call) in decorators:
            continue
        if _makes_tf_function(call, index):
            found.append((call, "call", None))
            continue
        helper = index.helper_of(call, function)
        if helper is not None and helper is not function and id(helper) in nested:
            found.append((call, "helper", helper))
    guarded = cache_guarded(function) if found else set()
    yield from (each for each in found if id(each[0]) not in guarded)


@dataclass(frozen=True)
class Maker:
    """A tf.function that every call of a def makes anew (per_call_makers): where (`line`, `col`), and
    what: a nested @tf.function def ("nested", `name`), a `tf.function(...)` call ("call"), or a call of a
    helper of the module that defines one ("helper", `name`, whose def is `inner` at `inner_line`)."""

    line: int
    col: int
    kind: str
    name: str = ""
    inner: str = ""
    inner_line: int = 0

    @classmethod
    def of(cls, at, kind: str, maker, nested: dict[int, ast.AST]) -> Maker:
        if kind == "helper":
            inner = nested[id(maker)]
            return cls(at.lineno, at.col_offset, kind, maker.name, inner.name, inner.lineno)
        return cls(at.lineno, at.col_offset, kind, getattr(maker, "name", ""))

    def message(self, name: str, suffix: str = "") -> str:
        """PP401's message on it, in the def `name`; `suffix` says who calls the def (", which train.py calls
        in the loop at line 244"), empty for a method its caller runs once per input."""
        if self.kind == "call":
            return (
                f"tf.function(...) is applied on every call of `{name}`{suffix}: each new function is traced "
                "again; wrap it once and keep it"
            )
        if self.kind == "nested":
            return (
                f"`@tf.function {self.name}` is defined inside `{name}`{suffix}: every call of `{name}` makes "
                "and traces a new function; define it once (a method or an attribute)"
            )
        return (
            f"`{self.name}` defines `@tf.function {self.inner}` (line {self.inner_line}) and runs on every call "
            f"of `{name}`{suffix}: it is traced again each time"
        )


@dataclass(frozen=True)
class Factory:
    """A module function or a method of a module class (`owner`) that makes a tf.function on every call
    (tf-fix30: the project pass, checker/project.py, reports its `makers` where another module calls it in
    a loop)."""

    name: str
    owner: str | None
    makers: tuple[Maker, ...]


def per_call_factories(index: ModuleIndex) -> dict[int, Factory]:
    """id(def) -> Factory for the module's functions and class methods that make a tf.function on every
    call."""
    if getattr(index, "_factories", None) is None:
        index._factories = {}
        if not index.resolver.uses_tensorflow:
            return index._factories
        nested = _nested_tf_function_defs(index)
        decorators = {id(d) for f in index.functions for d in f.decorator_list}
        found = {}
        for name, function in index.module_functions.items():
            found[id(function)] = (name, None, function)
        for owner, methods in index.class_methods.items():
            for name, function in methods.items():
                found[id(function)] = (name, owner, function)
        for key, (name, owner, function) in found.items():
            makers = tuple(
                Maker.of(at, kind, maker, nested)
                for at, kind, maker in per_call_makers(function, index, nested, decorators)
            )
            if makers:
                index._factories[key] = Factory(name, owner, makers)
    return index._factories


def _closes_over_iteration(function, loop) -> bool:
    """The def reads a name the loop binds anew each iteration (`layer = aug(...)` before `@tf.function def
    apply(x): return layer(x)`): every iteration has a different function to trace."""
    bound = assigned_names([loop])
    own = assigned_names(function.body) | parameter_names(function)
    return any(
        isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in bound - own
        for node in ast.walk(function)
    )


def _loop_counters(loop) -> set[str]:
    """Python ints that change every iteration: `for i in range(n)`, `for i, x in enumerate(xs)`, `i += 1`."""
    names: set[str] = set()
    if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Name):
        kind = loop.iter.func.id
        if kind == "range" and isinstance(loop.target, ast.Name):
            names.add(loop.target.id)
        elif kind == "enumerate" and isinstance(loop.target, ast.Tuple) and loop.target.elts:
            first = loop.target.elts[0]
            if isinstance(first, ast.Name):
                names.add(first.id)
    for stmt in getattr(loop, "body", []):
        for node in ast.walk(stmt):
            if (
                isinstance(node, ast.AugAssign)
                and isinstance(node.op, ast.Add | ast.Sub)
                and isinstance(node.target, ast.Name)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, int | float)
            ):
                names.add(node.target.id)
    return names


_VARIABLE_SHAPES = frozenset({"padded_batch", "bucket_by_sequence_length", "ragged_batch", "group_by_window"})
_RELAXED = frozenset({"input_signature", "reduce_retracing", "experimental_relax_shapes"})


def _relaxed(function) -> bool:
    return any(
        isinstance(d, ast.Call) and any(k.arg in _RELAXED for k in d.keywords)
        for d in function.decorator_list
    )


def _variable_length_loops(index: ModuleIndex) -> dict[int, ast.AST]:
    """For loops over a pipeline whose batches change shape (padded or bucketed by length)."""
    return {
        id(loop): loop
        for chain, loop in dataset_flow(index).iterated.values()
        if any(step.kind in _VARIABLE_SHAPES and not _fixed_padding(step) for step in chain)
    }


def _fixed_padding(step) -> bool:
    """`padded_batch(64, padded_shapes=([40], [40]))`: every dimension padded to a literal size, so the
    batches keep one shape (the last, smaller batch traces once more; tf-fix22, a transformer tutorial)."""
    if step.kind != "padded_batch":
        return False
    call = step.node
    shapes = next((k.value for k in call.keywords if k.arg == "padded_shapes"), None)
    if shapes is None and len(call.args) > 1:
        shapes = call.args[1]
    sizes = _padded_sizes(shapes)
    return bool(sizes) and all(
        isinstance(n, ast.Constant) and type(n.value) is int and n.value > 0 for n in sizes
    )


def _padded_sizes(shapes) -> list[ast.expr]:
    """The leaves of a padded_shapes structure (tuples, lists and dict values of sizes); [] when it is not
    written out (a name, a call)."""
    if isinstance(shapes, ast.Tuple | ast.List):
        if not shapes.elts:
            return [ast.Constant(1)]  # `[]`: a scalar component, one shape
        leaves = [_padded_sizes(e) for e in shapes.elts]
        return [] if not all(leaves) else [n for each in leaves for n in each]
    if isinstance(shapes, ast.Dict):
        leaves = [_padded_sizes(v) for v in shapes.values]
        return [] if not leaves or not all(leaves) else [n for each in leaves for n in each]
    if isinstance(shapes, ast.Constant):
        return [shapes]
    return []


def check_retrace_python_scalar(index: ModuleIndex):
    varying = _variable_length_loops(index)
    for site in index.calls:
        if site.loops and id(site.loops[-1]) in varying:
            helper = index.helper_of(site.node, site.function)
            if helper is not None and _is_tf_function_def(helper, index) and not _relaxed(helper):
                yield RawFinding(
                    "PP402",
                    site.node.lineno,
                    site.node.col_offset,
                    f"tf.function `{helper.name}` gets batches whose shapes change (a padded or bucketed "
                    f"pipeline, loop at line {site.loops[-1].lineno}): each new shape traces a new graph; give "
                    "it an input_signature with None dimensions or reduce_retracing=True",
                )
                continue
    for site in index.calls:
        if not site.loops:
            continue
        helper = index.helper_of(site.node, site.function)
        if helper is None or not _is_tf_function_def(helper, index) or _has_input_signature(helper):
            continue
        if site.loops and id(site.loops[-1]) in varying:
            continue
        counters = set().union(*(_loop_counters(lp) for lp in site.loops))
        args = [*site.node.args, *(k.value for k in site.node.keywords)]
        hit = next((a for a in args if isinstance(a, ast.Name) and a.id in counters), None)
        if hit is None:
            continue
        yield RawFinding(
            "PP402",
            site.node.lineno,
            site.node.col_offset,
            f"tf.function `{helper.name}` gets the Python number `{hit.id}`, which changes every iteration: "
            f"each new value traces a new graph; pass tf.constant({hit.id}) or a tf.Variable",
            # `for i in range(5): square(i)`: five traces at most, a notebook showing retracing on purpose
            # (reading 13: wrong at medium); epochs and step counters run far longer
            confidence="low" if all(few_iterations(lp) for lp in site.loops) else None,
        )


_STEP_MARKERS = frozenset({"apply_gradients", "train_on_batch", "minimize"})


def _is_training_step(site, index: ModuleIndex) -> bool:
    call = site.node
    if index.resolver.call_name(call) == "tensorflow.GradientTape":
        return True
    if isinstance(call.func, ast.Attribute) and call.func.attr in _STEP_MARKERS:
        return True
    helper = index.helper_of(call, site.function)
    if helper is not None and _is_tf_function_def(helper, index) and "train" in helper.name.lower():
        return True
    # (tf-fix54) a def or a method of the receiver's class that holds a GradientTape and applies its
    # gradients is a training step whatever its name and decorator (reading 37's `critic.train(...)`, an
    # eager method; `feed(x, ...)`)
    if helper is None:
        helper = instance_method(call, index, site.function)
    return helper is not None and _holds_step(helper, index)


def _holds_step(function, index: ModuleIndex) -> bool:
    """`function` itself (outside its loops) opens a `tf.GradientTape` and calls `apply_gradients`: it
    runs one training step per call."""
    own = [c for c in index.function_calls.get(id(function), []) if not c.loops]
    tape = any(index.resolver.call_name(c.node) == "tensorflow.GradientTape" for c in own)
    return tape and any(
        isinstance(c.node.func, ast.Attribute) and c.node.func.attr == "apply_gradients" for c in own
    )


def _guarded(node, loop) -> bool:
    """The node sits under an `if` in the loop (e.g. logging every N steps), or in a nested loop."""
    for stmt in loop.body:
        for inner in ast.walk(stmt):
            if isinstance(inner, ast.If | ast.For | ast.AsyncFor | ast.While) and any(
                n is node for n in ast.walk(inner)
            ):
                return True
    return False


def _is_numpy_call(node) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "numpy"
        and not node.args
    )


def _needs_host_values(loop) -> bool:
    """The loop's own logic uses a value from the device (`actions = probs.numpy() > r`, `if x == old`): it
    must synchronise every step anyway, so a further `.numpy()` for logging costs nothing extra."""
    for stmt in loop.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Assign) and all(
                isinstance(t, ast.Name | ast.Tuple) for t in node.targets
            ):
                if any(_is_numpy_call(n) for n in ast.walk(node.value)):
                    return True
            elif isinstance(node, ast.If | ast.While) and any(_is_numpy_call(n) for n in ast.walk(node.test)):
                return True
    return False


_FEW_STEPS = 100  # `for step in range(30)`: a toy loop, where a sync per step costs nothing that matters
_PRINTERS = frozenset({"print", "info", "debug", "write", "set_postfix", "set_description", "format"})


def _few_steps(loop) -> bool:
    it = getattr(loop, "iter", None)
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and it.args):
        return False
    stop = it.args[1] if len(it.args) > 1 else it.args[0]
    return isinstance(stop, ast.Constant) and isinstance(stop.value, int) and stop.value <= _FEW_STEPS


def _printed(call, root) -> bool:
    """The `.numpy()` only feeds a print or log line (progress output every step is the design)."""
    for node in ast.walk(root):
        if isinstance(node, ast.Call) and node is not call:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in _PRINTERS and any(n is call for n in ast.walk(node)):
                return True
    return False


_HOST_COPIES = frozenset({"numpy.array", "numpy.asarray"})


def _host_copy(call, results: set[str], index: ModuleIndex) -> bool:
    """`.numpy()`, or (tf-fix52, reading 36's StyleGAN) `np.array(c)` / `np.asarray(c)` of a name the body
    binds to a training step's result: a host copy of a tensor as `.numpy()` is."""
    if _is_numpy_call(call):
        return True
    return (
        len(call.args) == 1
        and isinstance(call.args[0], ast.Name)
        and call.args[0].id in results
        and index.resolver.call_name(call) in _HOST_COPIES
    )


def _numpy_calls(body_owner, sites, index: ModuleIndex | None = None):
    results = _step_result_names(body_owner, sites, index) if index is not None else set()
    for site in sites:
        call = site.node
        if (
            _host_copy(call, results, index)
            and not _guarded(call, body_owner)
            and not _printed(call, body_owner)
        ):
            yield call


def _copy_words(call) -> str:
    """How a message names the host copy: `.numpy()`, or `np.array(c)` as written."""
    return "`.numpy()`" if _is_numpy_call(call) else f"`{ast.unparse(call)}`"


def _step_result_names(body_owner, sites, index: ModuleIndex) -> set[str]:
    """Names `body_owner`'s body binds to the result of a training step it runs (`a, b, c =
    self.train_step(...)`, `loss = train_step(x, y)`): a step among `sites`, which the callers restrict to the
    calls outside nested loops (the loop's own, a helper's outside its loops), so the walk of the whole body
    finds only those assignments (review27 item 28). Keras' `train_on_batch` returns NumPy values already:
    an `np.array` of them copies nothing from the device."""
    steps = {
        id(s.node)
        for s in sites
        if _is_training_step(s, index) and getattr(s.node.func, "attr", None) != "train_on_batch"
    }
    names: set[str] = set()
    if not steps:
        return names
    for stmt in body_owner.body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Assign) and id(node.value) in steps:
                for target in node.targets:
                    elts = target.elts if isinstance(target, ast.Tuple | ast.List) else [target]
                    names |= {t.id for t in elts if isinstance(t, ast.Name)}
    return names


# Helpers the training loop calls that may run its step: `train_step(...)`, and (tf-fix30, reading 21's seq2seq
# trainer) `train(model, data, optimizer)`; the helper must run a training step itself to count.
_STEP_HELPER_WORDS = ("step", "train")


def check_numpy_in_step_loop(index: ModuleIndex):
    reported: set[tuple[int, int]] = set()
    for loop in index.loops:
        if not isinstance(loop, ast.For | ast.While) or _few_steps(loop):
            continue
        direct = [s for s in index.loop_calls[id(loop)] if s.loops and s.loops[-1] is loop]
        steps = [s for s in direct if _is_training_step(s, index)]
        helpers = [
            (s, h)
            for s in direct
            if (h := index.helper_of(s.node, s.function)) is not None
            and not _is_tf_function_def(h, index)
            and (any(word in h.name.lower() for word in _STEP_HELPER_WORDS) or _holds_step(h, index))
        ]
        # (tf-fix52) `while model.GAN.steps <= n: model.train()`, `model = StyleGAN(...)`: a method of the
        # one class the module binds the receiver to, as a module def is
        helpers += [
            (s, h)
            for s in direct
            if index.helper_of(s.node, s.function) is None
            and (h := instance_method(s.node, index, s.function)) is not None
            and not _is_tf_function_def(h, index)
            and (any(word in h.name.lower() for word in _STEP_HELPER_WORDS) or _holds_step(h, index))
        ]
        if not steps and not helpers:
            continue
        if _needs_host_values(loop):
            continue
        message = (
            f"`.numpy()` on every step of the training loop at line {loop.lineno} waits for the device and "
            "copies to the host; keep metrics as tensors (tf.keras.metrics) and read them every N steps"
        )
        if steps:
            for call in _numpy_calls(loop, direct, index):
                if first_report(reported, call):
                    yield RawFinding(
                        "PP403",
                        call.lineno,
                        call.col_offset,
                        message.replace("`.numpy()`", _copy_words(call), 1),
                    )
        for site, helper in helpers:
            own = [c for c in index.function_calls.get(id(helper), []) if not c.loops]
            if not any(_is_training_step(c, index) for c in own) or _needs_host_values(helper):
                continue
            for call in _numpy_calls(helper, own, index):
                if first_report(reported, call):
                    yield RawFinding(
                        "PP403",
                        call.lineno,
                        call.col_offset,
                        f"`{helper.name}` runs {_copy_words(call)} on every step of the training loop at line "
                        f"{loop.lineno} (called at line {site.node.lineno}): it waits for the device and copies "
                        "to the host; return tensors and read them every N steps",
                    )
    yield from _numpy_in_layer_call(index, reported)


_KERAS_BASES = frozenset(
    {"tensorflow.keras.layers.Layer", "tensorflow.keras.Model", "tensorflow.keras.models.Model"}
)


def _numpy_in_layer_call(index: ModuleIndex, reported: set[tuple[int, int]]):
    """(tf-fix54, reading 37's VAE-Tensorflow2.0 `model.py` 17) `.numpy()` in the `call` of a Keras layer or
    model subclass of the module, or in a def of the module that `call` calls itself (one level,
    `z = sampling(mean, sigma)`): every forward pass, in training and in inference, waits for the device
    and copies to the host. Not under an `if` or in a loop of the def (a branch may be the rare one)."""
    for stmt in ast.walk(index.tree):
        if not isinstance(stmt, ast.ClassDef) or not any(
            index.resolver.qualname(base) in _KERAS_BASES for base in stmt.bases
        ):
            continue
        call_def = next(
            (
                m
                for m in stmt.body
                if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef) and m.name == "call"
            ),
            None,
        )
        if call_def is None:
            continue
        owners = [(call_def, None)]
        for site in index.function_calls.get(id(call_def), []):
            helper = index.helper_of(site.node, call_def)
            if (
                helper is not None
                and not site.loops
                and not _guarded(site.node, call_def)
                and not _is_tf_function_def(helper, index)
                and isinstance(helper.name, str)
                and index.module_functions.get(helper.name) is helper
            ):
                owners.append((helper, site.node))
        for owner, via in owners:
            for site in index.function_calls.get(id(owner), []):
                call = site.node
                if site.loops or not _is_numpy_call(call) or _guarded(call, owner):
                    continue
                if not first_report(reported, call):
                    continue
                where = (
                    f"in `{stmt.name}.call`"
                    if via is None
                    else f"in `{owner.name}`, which `{stmt.name}.call` calls at line {via.lineno},"
                )
                yield RawFinding(
                    "PP403",
                    call.lineno,
                    call.col_offset,
                    f"`.numpy()` {where} runs on every forward pass of the Keras layer: it waits for the "
                    "device and copies to the host each step (and fails in graph mode); keep it a tensor "
                    "(`tf.shape(x)` for a shape)",
                )


register(
    Rule(
        code="PP401",
        name="tf-function-created-in-loop",
        root_cause="model.computation_graph_confusion",
        summary=(
            "tf.function applied inside a loop, a @tf.function def written in a loop body, or a helper that "
            "defines a @tf.function called from a loop; and (since tf-fix23) a tf.function made by a method "
            "its caller runs again and again (`Run`, `predict...`, `run_...`, `__call__`, and since tf-fix26 "
            "`infer...`/`inference`): a nested "
            "@tf.function def, a `tf.function(...)` call or a call of a helper defining one, unless made under "
            "an `if` that tests for a missing value (`if self._fn is None:`). A compat module's `tf.function` "
            "(`import lingvo.compat as tf`) counts as TensorFlow's. Since tf-fix30, at `low`: such a maker in a "
            "def that a loop runs two calls down (`fit_one_epoch(...)` in the epoch loop, making its step with "
            "a factory that defines a new @tf.function) or that a loop of another module of the project "
            "calls; not for a loop in a @tf.function body (run once, while tracing), a loop placing each "
            "iteration under `tf.device` (one copy per replica) or, across modules, a loop of a few literal "
            "iterations."
        ),
        why=(
            "Tracing turns Python into a graph and costs far more than running it. A tf.function object made "
            "anew each iteration starts with an empty trace cache, so every iteration pays for tracing and the "
            "speed-up of graph execution is lost (TensorFlow warns about 'excessive retracing')."
        ),
        example="""
for x, y in dataset:
    step = tf.function(train_step)
    step(x, y)
""",
        instead="""
step = tf.function(train_step)
for x, y in dataset:
    step(x, y)
""",
        false_alarms=(
            "Low. Only a tf.function created per iteration is reported, once per def (`@tf.function()` is "
            "not reported again as a call); a def that runs what its iteration built (a new layer or model "
            "bound in the loop) is skipped, since each needs its own trace. Every finding is `low`: readings "
            "1-6 read 2 of 38 right at high, readings 1-8 2 of 8 at medium (loops that build a new model, layer or export per setting or weights file "
            "need their own trace, and the shape does not tell them apart). tf-fix40 made one sub-shape `high` (a "
            "@tf.function def or a tf.function(...) call right in the body of a loop over a tf.data pipeline); "
            "tf-fix41 put it back to `low`: its evidence is 2 first reads in one repository (reading 29's "
            "Morizeyao GPT-2 and Transformer-XL steps, both right, no first read of readings 15-28 and no "
            "maintainer-fixed line has the shape), far under the 20 first-read findings in 5 repositories "
            "that a move to `medium` or `high` asks."
        ),
        confidence="low",
        check=check_tf_function_in_loop,
    )
)

register(
    Rule(
        code="PP402",
        name="tf-function-python-scalar-argument",
        root_cause="model.computation_graph_confusion",
        summary=(
            "A @tf.function (module function or method of the same class, without input_signature) called in a "
            "loop with a Python counter as argument: the range() variable, the enumerate() index, or a name "
            "incremented by a constant in the loop; or called in a loop over a padded/bucketed tf.data pipeline "
            "(batches of changing shape; not a padded_batch whose padded_shapes are all literal sizes) without "
            "input_signature or reduce_retracing."
        ),
        why=(
            "tf.function traces a new graph for every distinct Python value of an argument; a step counter "
            "passed as a Python int retraces on every call, which is much slower than running the graph."
        ),
        example="""
@tf.function
def train_step(x, y, step):
    ...

for step in range(1000):
    train_step(x, y, step)
""",
        instead="""
for step in range(1000):
    train_step(x, y, tf.constant(step, dtype=tf.int64))
""",
        false_alarms=(
            "Low. Functions with an input_signature are skipped (they convert the argument); only plain names "
            "that are loop counters are reported, never other Python values."
        ),
        check=check_retrace_python_scalar,
        # right 1 time in 2 over readings 1-4 (a layer index that selects differently shaped weights needs
        # its own trace): too few to call high
        confidence="medium",
    )
)

register(
    Rule(
        code="PP403",
        name="numpy-in-training-step-loop",
        root_cause="data.inefficient_transmission",
        summary=(
            "`.numpy()` called unconditionally in the body of a loop that runs a training step (a GradientTape, "
            "apply_gradients, train_on_batch, minimize, or a @tf.function whose name has 'train'), or in a "
            "helper named for a step or for training (`train_step`, `train`) that the loop calls and that runs "
            "the step itself. Since tf-fix52 also `np.array(x)`/`np.asarray(x)` of a name bound to a training "
            "step's result, and a `*step*`/`*train*` method of the one class the module binds the loop's "
            "receiver to (`model.train()`). Since tf-fix54 a def or method of any name that opens a GradientTape "
            "and calls apply_gradients is a step, and `.numpy()` in a Keras layer's or model's `call` (or a module "
            "def it calls) is reported as run on every forward pass."
        ),
        why=(
            "`.numpy()` blocks until the device has finished the step and copies the value to host memory; "
            "every step the asynchronous pipeline drains, so the accelerator idles between steps."
        ),
        example="""
for x, y in dataset:
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    losses.append(loss.numpy())
""",
        instead="""
mean_loss = tf.keras.metrics.Mean()
for step, (x, y) in enumerate(dataset):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    mean_loss.update_state(loss)
    if step % 100 == 0:
        history.append(mean_loss.result().numpy())
""",
        false_alarms=(
            "Medium. Calls under an `if` (logging every N steps) or inside a print/log call (progress output is "
            "the design), loops of at most 100 literal steps (toys), and loops "
            "whose own logic needs a device value every step (`actions = probs.numpy() > r`: an agent, a "
            "convergence test), where one more sync costs nothing; a per-step .numpy() on a tiny model where the "
            "sync costs little is still reported."
        ),
        check=check_numpy_in_step_loop,
        confidence="low",
    )
)
