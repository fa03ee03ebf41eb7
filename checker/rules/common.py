"""Small predicates several rules share."""

from __future__ import annotations

import ast

from checker.findings import RawFinding
from checker.module import CallSite, ModuleIndex, assigned_names, bound_values

GRAPH_RESETS = frozenset(
    {
        "tensorflow.reset_default_graph",
        "tensorflow.keras.backend.clear_session",
        "tensorflow.Graph",
    }
)
SESSION_CLASSES = frozenset(
    {
        "tensorflow.Session",
        "tensorflow.InteractiveSession",
        "tensorflow.train.MonitoredTrainingSession",
        "tensorflow.train.MonitoredSession",
        "tensorflow.train.SingularMonitoredSession",
    }
)


def short(name: str) -> str:
    """`tensorflow.nn.conv2d` -> `tf.nn.conv2d`, the spelling users write."""
    return "tf." + name[len("tensorflow.") :] if name.startswith("tensorflow.") else name


def receiver_name(call: ast.Call) -> str | None:
    """The last identifier of a method call's receiver: `self.sess.run()` -> `sess`."""
    if not isinstance(call.func, ast.Attribute):
        return None
    value = call.func.value
    if isinstance(value, ast.Name):
        return value.id
    if isinstance(value, ast.Attribute):
        return value.attr
    return None


def is_session_run(call: ast.Call, index: ModuleIndex) -> bool:
    """`sess.run(...)`, `tf.Session().run(...)`, `tensor.eval(session=...)`: one graph execution."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr == "run":
        if isinstance(func.value, ast.Call) and index.resolver.call_name(func.value) in SESSION_CLASSES:
            return True
        name = receiver_name(call)
        return name is not None and "sess" in name.lower()
    if func.attr == "eval":
        return any(k.arg in ("session", "feed_dict") for k in call.keywords) or eval_feed(call) is not None
    return False


def eval_feed(call: ast.Call) -> ast.Dict | None:
    """The feed dict literal given first to `tensor.eval({x: batch})` (TF1's `Tensor.eval(feed_dict=None,
    session=None)`), else None: a tensor evaluated with a feed, as `sess.run(tensor, {x: batch})` is
    (tf-fix44, reading 31's `pred.eval({x: x_raw})`)."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "eval" and call.args:
        first = call.args[0]
        return first if isinstance(first, ast.Dict) else None
    return None


def in_tf_function(site: CallSite, index: ModuleIndex) -> bool:
    """The call runs inside a def decorated with tf.function (traced once, Python loops unrolled)."""
    fn = site.function
    return fn is not None and any(
        d in ("tensorflow.function", "function", "tf_function") for d in index.decorators(fn)
    )


def loops_keeping_the_graph(index: ModuleIndex):
    """Each loop with the calls it reaches (its own and its helpers'), unless one of them resets the graph
    (tf.reset_default_graph, clear_session): a loop that starts afresh each time grows nothing."""
    for loop in index.loops:
        reached = list(index.reached_calls(index.loop_calls[id(loop)]))
        if not loop_resets_graph(reached, index):
            yield loop, reached


def loop_resets_graph(reached: list[tuple[CallSite, ast.Call | None]], index: ModuleIndex) -> bool:
    return any(index.resolver.call_name(site.node) in GRAPH_RESETS for site, _ in reached)


def first_report(reported: set[tuple[int, int]], at) -> bool:
    """Whether ``at`` (the call to report, or a finding already placed) is reported for the first time; records
    it. A helper reached from two loops, or a call seen via two paths, is reported once."""
    key = (at.line, at.col) if isinstance(at, RawFinding) else (at.lineno, at.col_offset)
    if key in reported:
        return False
    reported.add(key)
    return True


def self_bindings(index: ModuleIndex, attr: str) -> list[tuple[ast.stmt, ast.AST | None]]:
    """Every assignment of the module to `self.attr` (`self.model = model`, annotated or augmented, or one
    target of several), in source order, each with the innermost def holding it (None: outside any def).
    Worked out in one walk per module and kept on its index: PP301's `instance_class` (keras.py) and the
    project pass's `_handed_in` read the same bindings, once per call site (review25 item 8)."""
    found = getattr(index, "_self_bindings", None)
    if found is None:
        found = _all_self_bindings(index.tree)
        index._self_bindings = found
    return found.get(attr, [])


def _all_self_bindings(tree: ast.AST) -> dict[str, list[tuple[ast.stmt, ast.AST | None]]]:
    """`self_bindings` of every attribute, from one walk that knows the def each node is in."""
    found: dict[str, list[tuple[ast.stmt, ast.AST | None]]] = {}
    stack: list[tuple[ast.AST, ast.AST | None]] = [(tree, None)]
    while stack:
        node, function = stack.pop()
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for attr in dict.fromkeys(
                t.attr
                for t in targets
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
            ):
                found.setdefault(attr, []).append((node, function))
        inner = node if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else function
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    for bindings in found.values():
        bindings.sort(key=lambda pair: (pair[0].lineno, pair[0].col_offset))
    return found


def is_range_call(node: ast.AST) -> bool:
    """`range(...)`, or Python 2's `xrange(...)` (reading 34): a loop over it counts its iterations. The one
    range test of the TensorFlow rules' loop counts (review25 item 10)."""
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("range", "xrange")
    )


def literal_iterations(loop) -> int | None:
    """How many times a loop runs when its source says so: `for x in [a, b]` (2), `for i in range(3)` (3),
    `for i in range(1, 4)` (3), `for i in xrange(9)` (9); None otherwise (while loops, loops over data).
    `enumerate` and a progress bar (`tqdm([0.1], total=3)`, `tqdm.tqdm(...)`: tf-fix53) run as often as
    their first argument."""
    it = loop.generators[0].iter if hasattr(loop, "generators") else getattr(loop, "iter", None)
    while isinstance(it, ast.Call) and it.args and _counted_through(it.func):
        it = it.args[0]  # `for i, n in enumerate((10, 250))` runs as often as its argument
    if isinstance(it, ast.List | ast.Tuple):
        return len(it.elts)
    if is_range_call(it) and 1 <= len(it.args) <= 2:
        bounds = [a.value for a in it.args if isinstance(a, ast.Constant) and isinstance(a.value, int)]
        if len(bounds) == len(it.args):
            return bounds[-1] - (bounds[0] if len(bounds) == 2 else 0)
    return None


def _counted_through(func: ast.AST) -> bool:
    """`enumerate`, `tqdm`, `tqdm.tqdm`: a wrapper yielding one item per item of its first argument."""
    if isinstance(func, ast.Name):
        return func.id in ("enumerate", "tqdm")
    return isinstance(func, ast.Attribute) and func.attr == "tqdm"


def runs_once(loop) -> bool:
    """The body `break`s or returns outside any `if`: the loop takes one item and stops (the take-one idiom,
    or a loop its author cut short)."""
    return any(isinstance(stmt, ast.Break | ast.Return) for stmt in getattr(loop, "body", ()))


FEW_ITERATIONS = 5  # a handful of copies made on purpose (a few splits, thresholds, configurations)


def few_iterations(loop, limit: int = FEW_ITERATIONS) -> bool:
    count = literal_iterations(loop)
    return count is not None and count <= limit


# Methods a caller runs again and again, once per input (a program's `Run`, a model's `predict`,
# `__call__`, an `inference` or `infer` step): what they build or run is paid on every call (tf-fix23:
# lingvo's programs and epitome's predictions for PP401; tf-fix26: donkeycar's per-frame `inference` for
# PP301)
PER_CALL_METHODS = ("run", "predict", "__call__", "infer")


def runs_per_call(function) -> bool:
    """A method (first parameter `self`) named for per-call work: `run`, `Run`, `predict...`, `run_...`,
    `_infer`, `inference`, `__call__`."""
    params = getattr(function, "args", None)
    params = params.args if params is not None else []
    name = function.name.lower().lstrip("_") if function.name != "__call__" else "__call__"
    return bool(params) and params[0].arg == "self" and name.startswith(PER_CALL_METHODS)


def cache_guarded(function) -> set[int]:
    """Nodes under an `if` that tests for a missing value (`if self._step is None:`, `if not hasattr(...)`,
    `if key not in cache:`): made once and kept, not per call."""
    guarded: set[int] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.If) and tests_missing(node.test):
            guarded.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return guarded


def per_key_cached(scope) -> set[int]:
    """Nodes under an `if key not in cache:` whose body stores into a subscript (`self.ops[tag] =
    tf.summary.scalar(...)`): built once per key and kept, though the `if` sits in a loop (tf-fix34:
    reading 25's summary logger, four PP101 findings read wrong). Narrower than `cache_guarded`: a loop's
    `if not training:` or `if x is None:` does not say the op is kept."""
    cached: set[int] = set()
    for node in ast.walk(scope):
        if not (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Compare)
            and [type(o) for o in node.test.ops] == [ast.NotIn]
        ):
            continue
        stores = any(
            isinstance(n, ast.Assign) and any(isinstance(t, ast.Subscript) for t in n.targets)
            for stmt in node.body
            for n in ast.walk(stmt)
        )
        if stores:
            cached.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return cached


def tests_missing(test) -> bool:
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and any(isinstance(o, ast.Is | ast.NotIn) for o in node.ops):
            return True
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hasattr":
            return True
    return False


def per_device_loop(loop, index: ModuleIndex) -> bool:
    """The loop places each iteration on a device of its own (`with tf.device(replica_device):` in its
    body): one copy of a graph or input per replica or tower, built once, on purpose (tf-fix30: lingvo's
    input built once per replica, read wrong twice as a tf.function made per iteration)."""
    return any(
        isinstance(node, ast.With) and any(_places_on_device(item.context_expr, index) for item in node.items)
        for node in ast.walk(loop)
    )


def _places_on_device(expr: ast.AST, index: ModuleIndex) -> bool:
    """`tf.device(...)`, also through a module re-exporting TensorFlow (`import lingvo.compat as tf`)."""
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    return index.resolver.call_name(expr) == "tensorflow.device" or (
        isinstance(func, ast.Attribute) and func.attr == "device" and isinstance(func.value, ast.Name)
    )


def switched_off(caller: CallSite, target: CallSite, index: ModuleIndex, depth: int = 3) -> bool:
    """Whether `target`, a call in a helper that `caller`'s call runs (to `depth` levels), is reached on that
    call only under a test of a flag the call leaves off: the helper's parameter with a false default
    (`cache=False`, `None`, `0`) that the call does not pass, or passes on as a flag already off
    (`self.probs(data, cache=cache)`), tested by `if cache:` or `if cache == 'TF':` around every way to
    `target`. tf-fix42: reading 30's DeepSphere evaluates with `self.evaluate(val_data, val_labels, sess)`,
    whose pipeline and iterator are built only `if cache:`."""
    helper = index.helper_of(caller.node, caller.function)
    if helper is None or isinstance(helper, ast.Lambda):
        return False
    return _off_in(helper, _flags_left_off(caller.node, helper, set()), target, index, depth)


def _off_in(function, off: set[str], target: CallSite, index: ModuleIndex, depth: int) -> bool:
    if target.function is function:
        return _under_flag_off(target.node, function, off)
    if depth <= 1 or not off:
        return False
    paths = 0
    for site in index.function_calls.get(id(function), []):
        inner = index.helper_of(site.node, site.function)
        if inner is None or inner is function or isinstance(inner, ast.Lambda):
            continue
        if not _reaches(inner, target, index, depth - 1):
            continue
        paths += 1
        if _under_flag_off(site.node, function, off):
            continue
        if not _off_in(inner, _flags_left_off(site.node, inner, off), target, index, depth - 1):
            return False
    return paths > 0


def _reaches(function, target: CallSite, index: ModuleIndex, depth: int) -> bool:
    if target.function is function:
        return True
    if depth <= 1:
        return False
    for site in index.function_calls.get(id(function), []):
        inner = index.helper_of(site.node, site.function)
        if inner is not None and inner is not function and _reaches(inner, target, index, depth - 1):
            return True
    return False


def _flags_left_off(call: ast.Call, helper, off_in_caller: set[str]) -> set[str]:
    """The helper's parameters this call leaves false: defaulted to `False`/`None`/`0`/`""` and not passed,
    or passed a false constant or a name of the caller's already off."""
    values = parameter_values(call, helper)
    if values is None:
        return set()
    off = {
        name
        for name, value in values.items()
        if _false_constant(value) or isinstance(value, ast.Name) and value.id in off_in_caller
    }
    return off - assigned_names(helper.body) if off else off


def parameter_values(call: ast.Call, helper) -> dict[str, ast.AST | None] | None:
    """What each parameter of `helper` holds on this call: the argument passed, else its default (None when
    it has neither); None when the call spreads `*args` or `**kwargs` (the values cannot be read)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    args = helper.args
    positional = [*args.posonlyargs, *args.args]
    if positional and positional[0].arg in ("self", "cls") and isinstance(call.func, ast.Attribute):
        positional = positional[1:]
    defaults = dict(zip([a.arg for a in positional][::-1], args.defaults[::-1], strict=False))
    defaults.update(
        {a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None}
    )
    given = {a.arg: value for a, value in zip(positional, call.args, strict=False)}
    given.update({k.arg: k.value for k in call.keywords})
    return {
        name: given.get(name, defaults.get(name)) for name in (a.arg for a in (*positional, *args.kwonlyargs))
    }


def _false_constant(value) -> bool:
    return isinstance(value, ast.Constant) and value.value in (False, None, 0, "")


def _under_flag_off(node: ast.AST, function, off: set[str]) -> bool:
    """`node` sits in the body of an `if` (in `function`) whose test needs a flag of `off` to be true, or in
    the `else` of one whose test is `not flag`."""
    if not off:
        return False
    for branch in ast.walk(function):
        if not isinstance(branch, ast.If):
            continue
        if _needs_flag(branch.test, off):
            body = branch.body
        elif isinstance(branch.test, ast.UnaryOp) and isinstance(branch.test.op, ast.Not):
            body = branch.orelse if _needs_flag(branch.test.operand, off) else []
        else:
            continue
        if any(inner is node for statement in body for inner in ast.walk(statement)):
            return True
    return False


def _needs_flag(test: ast.AST, off: set[str]) -> bool:
    """`flag`, `flag is 'TF'`, `flag == 1`, `flag and x` for a flag of `off` (false on this path)."""
    if isinstance(test, ast.Name):
        return test.id in off
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_needs_flag(value, off) for value in test.values)
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is | ast.Eq)
        and isinstance(test.left, ast.Name)
        and test.left.id in off
    ):
        right = test.comparators[0]
        return isinstance(right, ast.Constant) and bool(right.value)
    return False


def values_here(
    name: str, index: ModuleIndex, function: ast.AST | None = None, depth: int = 1
) -> list[ast.AST | None] | None:
    """What the plain name `name` may hold where the def `function` (None: the module's own code) reads it:
    None (unknown) when it is a parameter of `function`, the caller's argument whatever a module-level name
    of the same spelling holds; the values `function` binds it to when it binds it; else every value the
    module binds it to (`index.name_values`). A parameter of a module def is read, `depth` levels up, as
    what the def's calls in the module hand it (`_handed_values`). The one reading of a name that PP301's
    `instance_class` (keras.py) and the dataset flow's `_instance_method` (datasets.py) share (tf-fix53,
    session 27 reread: keras read a def's parameter through a module-level binding, which datasets
    refused)."""
    if function is not None and hasattr(function, "args"):
        args = function.args
        parameters = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
        parameters.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
        if name in parameters:
            return _handed_values(name, function, index) if depth else None
    values = bound_values(function, name) if function is not None else []
    return values or index.name_values.get(name, [])


def _handed_values(name: str, function, index: ModuleIndex) -> list[ast.AST | None] | None:
    """What the calls of the module def `function` hand it as its parameter `name`, each argument read where
    its call is (`values_here`, one level): `predict(yolov3_trainer, ...)` in `__main__` after
    `yolov3_trainer = YOLOv3Trainer()` (reading 35's YOLOv3, `def predict(yolov3_trainer, ...)`). None
    when the def is no module def, is never called by name in the module, or one call's argument is
    missing, starred or unknown."""
    if index.module_functions.get(getattr(function, "name", None)) is not function:
        return None
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args)]
    found: list[ast.AST | None] = []
    sites = _calls_by_name(index).get(function.name, [])
    for site in sites:
        call = site.node
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        given = {k.arg: k.value for k in call.keywords}
        given.update(zip(positional, call.args, strict=False))
        value = given.get(name)
        if isinstance(value, ast.Name):
            values = values_here(value.id, index, site.function, depth=0)
            if not values:
                return None
            found += values
        elif isinstance(value, ast.Call):
            found.append(value)
        else:
            return None
    return found if sites else None


def _calls_by_name(index: ModuleIndex) -> dict[str, list[CallSite]]:
    """The module's calls of a plain name (`predict(...)`), by that name; worked out once per index."""
    found = getattr(index, "_calls_by_name", None)
    if found is None:
        found = {}
        for site in index.calls:
            if isinstance(site.node.func, ast.Name):
                found.setdefault(site.node.func.id, []).append(site)
        index._calls_by_name = found
    return found
