"""PP1xx: graph-mode TensorFlow (TF1 / tf.compat.v1): ops and sessions created inside loops."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from checker.datasets import named_call, runs_training_step
from checker.findings import RawFinding
from checker.module import ModuleIndex, assigned_names, dotted_parts, dotted_text, names_in, parameter_names
from checker.rules import Rule, register
from checker.rules.common import (
    GRAPH_RESETS,
    SESSION_CLASSES,
    cache_guarded,
    few_iterations,
    first_report,
    in_tf_function,
    is_session_run,
    loops_keeping_the_graph,
    per_key_cached,
    receiver_name,
    short,
    switched_off,
)

# Namespaces and names under `tensorflow.` that build no graph node when called.
_NON_OP_PREFIXES = tuple(
    f"tensorflow.{p}."
    for p in [
        "logging",
        "gfile",
        "io.gfile",
        "app",
        "flags",
        "test",
        "errors",
        "config",
        "sysconfig",
        "version",
        "estimator",
        "keras",
        "saved_model",
        "distribute",
        "profiler",
        "autograph",
        "lite",
        "nest",
        "feature_column",
        "tpu",
        "experimental",
        "debugging.experimental",
        "summary.FileWriter",
        "types",
        "lookup.experimental",
        "graph_util",
        "python.platform",
        "python_io",
    ]
)
# graph and collection state (`tf.get_default_graph()`, `tf.device(...)`): each a `tf.*` name and a name of
# `tensorflow.python.framework.ops`, which a vendored copy of TensorFlow calls (`_INTERNAL_NON_OPS`)
_GRAPH_STATE = (
    "get_default_graph",
    "reset_default_graph",
    "get_default_session",
    "name_scope",
    "device",
    "control_dependencies",
    "get_collection",
    "get_collection_ref",
    "add_to_collection",
)
# the graph's variable listings: `tf.*` names and names of `tensorflow.python.ops.variables`
_VARIABLE_LISTINGS = (
    "global_variables",
    "trainable_variables",
    "local_variables",
    "all_variables",
    "model_variables",
    "moving_average_variables",
)
_NON_OP_NAMES = frozenset(
    "tensorflow." + n
    for n in [
        *_GRAPH_STATE,
        *_VARIABLE_LISTINGS,
        "variable_scope",
        "get_variable_scope",
        "set_random_seed",
        "random.set_seed",
        "enable_eager_execution",
        "disable_eager_execution",
        "disable_v2_behavior",
        "enable_v2_behavior",
        "executing_eagerly",
        "get_logger",
        "as_dtype",
        "dtypes.as_dtype",
        "is_tensor",
        "function",
        "make_template",
        "train.latest_checkpoint",
        "train.get_checkpoint_state",
        "train.list_variables",
        "train.load_variable",
        "train.get_global_step",
        "get_variable",
        "contrib.framework.get_global_step",
        "contrib.framework.get_or_create_global_step",
        "layers.Layer",
        "train.get_or_create_global_step",
        "train.create_global_step",
        "train.checkpoint_exists",
        "train.global_step",
        "train.start_queue_runners",
        "train.write_graph",
        "train.summary_iterator",
        "summary.create_file_writer",
        "summary.record_if",
        "summary.experimental.get_step",
        "summary.experimental.set_step",
        "data.experimental.AUTOTUNE",
        "data.AUTOTUNE",
        # NumPy code that decodes a score matrix already fetched (reading 21 read it wrong; so did
        # tf-calibrate19's reads): `crf_decode` is the graph op
        "contrib.crf.viterbi_decode",
    ]
)
# Python helpers under `tensorflow.` that add no node: record readers, the eager runtime, string helpers,
# structure utilities (read wrong 10 times in 11 as PP101 findings on fresh code).
_NON_OP_PARTS = (
    ".python.lib.io.",
    ".python.eager.",
    ".compat.as_",
    ".compat.path_to_str",
    ".nest.",
    ".profiler.",
)
# Calls that hand back graph elements already built (`tf.contrib.summary.all_summary_ops()` returns the summary
# ops the graph's collection holds) and classes whose calls build Python option objects
# (`ProfileOptionBuilder.time_and_memory()`, a dict for the profiler): no node is added (tf-fix42: reading 30's
# avsr-tf1 training loop, four PP101 `medium` findings read wrong).
_EXISTING_ELEMENTS = frozenset({"all_summary_ops", "all_v2_summary_ops"})
_OPTION_CLASS_ENDS = ("Builder", "Options", "Config", "ConfigProto")
# Calls that write the graph built so far to a file and add no node (`tf.train.export_meta_graph(path)`,
# `tf.io.write_graph(graph_def, ...)`, a summary writer's `add_graph`): tf-fix44, reading 31's one wrong
# PP101 `medium` finding, a policy-gradient loop exporting its meta graph every few episodes.
_FILE_WRITES = frozenset({"export_meta_graph", "write_graph", "add_graph", "add_meta_graph"})
# Lookups and predicates (`get_masks`, `is_symbolic_tensor`): they return what the graph already holds.
_NON_OP_STARTS = ("get_", "is_")
# Summary writers: each opens an event file and starts a writer thread.
_WRITERS = frozenset({"tensorflow.summary.FileWriter", "tensorflow.summary.create_file_writer"})
# Classes (CamelCase) whose construction does add nodes to the default graph.
_OP_CLASSES = frozenset({"tensorflow.Variable", "tensorflow.train.Saver"})
# Methods on graph objects that add nodes (`var.assign(x)`, `optimizer.minimize(loss)`).
_OP_METHODS = frozenset({"assign", "assign_add", "assign_sub", "minimize", "apply_gradients"})


def graph_op_name(call: ast.Call, index: ModuleIndex) -> str | None:
    """The op a call creates in graph mode (`tf.reshape`), or None if it is not a graph-building call."""
    name = index.resolver.call_name(call)
    if name is None:
        func = call.func
        if _standalone_backend_call(call, index) is not None:
            return _keras_backend_op(f"{_KERAS_BACKEND[0]}{func.attr}")
        if isinstance(func, ast.Attribute) and func.attr in _OP_METHODS:
            return f".{func.attr}()"
        if isinstance(func, ast.Attribute) and func.attr == "get_next" and _tf1_iterator(func.value, index):
            return ".get_next()"
        return None
    if name.startswith(_KERAS_BACKEND):
        return _keras_backend_op(name)
    if not name.startswith("tensorflow.") or name in _NON_OP_NAMES or name.startswith(_NON_OP_PREFIXES):
        return None
    if _internal_non_op(name):
        return None
    last = name.rsplit(".", 1)[1]
    if last.startswith(_NON_OP_STARTS) or any(part in name for part in _NON_OP_PARTS):
        return None
    if last in _EXISTING_ELEMENTS or last in _FILE_WRITES or _builds_options(name):
        return None
    if name in _OP_CLASSES or (last[:1].islower() and not last.startswith("_")):
        return short(name)
    return None


# The non-ops of `_NON_OP_NAMES` where TensorFlow's own modules define them (a vendored copy of TensorFlow's source
# imports its own modules by path: `tensorflow.python.framework.ops.get_default_graph`), and helpers those modules
# call that add no node: the global-step lookups (`assert_or_get_global_step` returns the step tensor the graph
# holds) and tfdbg's string parser of node names (`parse_node_or_tensor_name`). Kept explicit, module and name
# (review 23: matching the last name alone also took any internal `device`, `function` or `Layer`). tf-fix47's
# 29 internal names in ryfeus/lambda-packs' six vendored copies are all here.
_GLOBAL_STEP_LOOKUPS = (
    "global_step",
    "get_global_step",
    "create_global_step",
    "get_or_create_global_step",
    "assert_or_get_global_step",
)
_CHECKPOINT_LOOKUPS = ("latest_checkpoint", "get_checkpoint_state", "checkpoint_exists")
_NODE_NAME_PARSER = ("parse_node_or_tensor_name",)
_INTERNAL_NON_OPS = frozenset(
    f"tensorflow.{module}.{name}"
    for module, names in [
        ("python.framework.ops", _GRAPH_STATE),
        ("python.framework.random_seed", ("set_random_seed",)),
        ("python.framework.dtypes", ("as_dtype",)),
        ("python.framework.tensor_util", ("is_tensor",)),
        ("python.eager.context", ("executing_eagerly",)),
        ("python.ops.variables", _VARIABLE_LISTINGS),
        ("python.ops.variable_scope", ("variable_scope", "get_variable_scope", "get_variable")),
        ("python.training.saver", _CHECKPOINT_LOOKUPS),
        ("python.training.checkpoint_management", _CHECKPOINT_LOOKUPS),
        ("python.training.checkpoint_utils", ("list_variables", "load_variable")),
        ("python.training.training_util", _GLOBAL_STEP_LOOKUPS),
        ("python.training.training", (*_GLOBAL_STEP_LOOKUPS, *_CHECKPOINT_LOOKUPS, "start_queue_runners")),
        ("python.training.queue_runner", ("start_queue_runners",)),
        ("python.training.queue_runner_impl", ("start_queue_runners",)),
        ("contrib.framework", (*_GLOBAL_STEP_LOOKUPS, "list_variables", "load_variable")),
        ("contrib.framework.python.ops.variables", _GLOBAL_STEP_LOOKUPS),
        ("python.debug.debug_data", _NODE_NAME_PARSER),
        ("python.debug.lib.debug_data", _NODE_NAME_PARSER),
        ("python.debug.lib.debug_graphs", _NODE_NAME_PARSER),
    ]
    for name in names
)


def _internal_non_op(name: str) -> bool:
    """A call into TensorFlow's internal modules (`tensorflow.python.training.training_util.global_step`,
    resolved so in a vendored copy of TensorFlow's source, which imports its own modules by path) that is one of
    the non-ops known by their public name (`tf.train.global_step` runs the session and returns a Python int,
    `tf.train.start_queue_runners` starts threads). tf-fix47: 27 PP101 `medium` findings in ryfeus/lambda-packs'
    vendored TensorFlow copies (slim's `_wait_for_step`, contrib learn's `graph_actions`, tfdbg's stepper,
    the training feeder), all wrong: none of these calls adds a node. contrib's re-exports count too
    (`tensorflow.contrib.framework.load_variable` reads a checkpoint: `tf.train.load_variable`), and so do the
    writer caches' lookups (`SummaryWriterCache.get`, `FileWriterCache.get`: a cached writer, read wrong in reading 19)."""
    return name in _INTERNAL_NON_OPS or name.rsplit(".", 1)[0].endswith("WriterCache")


def _builds_options(name: str) -> bool:
    """A name under a class of Python option objects (`...option_builder.ProfileOptionBuilder.time_and_memory`,
    `tf.data.Options`, `tf.compat.v1.ConfigProto`): what it returns configures a tool, not the graph."""
    return any(part.endswith(_OPTION_CLASS_ENDS) and part[:1].isupper() for part in name.split(".")[1:])


# `keras.backend` (`from keras import backend as K`, resolved as `tensorflow.keras.backend`): in graph mode its
# tensor functions (`K.sum`, `K.gradients`, `K.sign`, `K.clip`, `K.variable`) add nodes as `tf.*` ops do
_KERAS_BACKEND = ("tensorflow.keras.backend.", "tensorflow.python.keras.backend.")
# ... but these read or set the backend's state, build a callable, or compute in Python
_KERAS_BACKEND_NON_OPS = frozenset(
    {
        "backend",
        "clear_session",
        "count_params",
        "dtype",
        "epsilon",
        "eval",
        "floatx",
        "function",
        "image_data_format",
        "int_shape",
        "is_keras_tensor",
        "is_sparse",
        "learning_phase",
        "manual_variable_initialization",
        "name_scope",
        "ndim",
        "reset_uids",
        "batch_get_value",
        "batch_set_value",
        "set_epsilon",
        "set_floatx",
        "set_image_data_format",
        "set_learning_phase",
        "set_session",
        "set_value",
    }
)


def _keras_backend_op(name: str) -> str | None:
    """`tensorflow.keras.backend.sum` -> `K.sum`; None for the backend's state and Python helpers
    (`K.get_session`, `K.set_learning_phase`, `K.int_shape`). tf-fix32: reading 24's tremblerz builds a PGD
    attack's loss, gradients, sign and clip with `K.*` on every call, per test batch."""
    last = name.rsplit(".", 1)[1]
    if last in _KERAS_BACKEND_NON_OPS or last.startswith((*_NON_OP_STARTS, "_")) or not last[:1].islower():
        return None
    return f"K.{last}"


# `keras.backend` functions that evaluate a tensor in the backend's session (TF1 graph mode)
_BACKEND_RUNS = frozenset({"get_value", "batch_get_value", "eval"})


def may_run_graph(text: str) -> bool:
    """A sieve over a module's text for `_runs_graph`: a session's `.run(`, or a call of one of `_BACKEND_RUNS`
    (`K.get_value(`, `K.eval(`; also any `.eval(`). Built from the same names, so the two cannot drift apart
    (review 23: a def whose only run was `keras.backend.eval(...)` never reached the per-call pass)."""
    return ".run(" in text or any(f"{name}(" in text for name in _BACKEND_RUNS)


def _runs_graph(call: ast.Call, index: ModuleIndex) -> bool:
    """One graph execution: a session `run`/`eval` (`is_session_run`), or standalone Keras's `K.get_value`
    / `K.eval` / `K.batch_get_value`, which run the tensor in Keras's own TF1 session. tf-fix46: readings 31
    and 32 listed three loops whose only run is `K.get_value(K.ctc_decode(...))` (a CRNN's per-image decode,
    a Keras DeepSpeech2's per-batch evaluation): a decoder subgraph added per image or batch. Only the
    standalone `keras` package counts (`tf.keras`'s backend runs eagerly in TF2)."""
    if is_session_run(call, index) or _backend_session_run(call, index):
        return True
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in _BACKEND_RUNS
        and _standalone_backend_call(call, index) is not None
    )


def _backend_session_run(call: ast.Call, index: ModuleIndex) -> bool:
    """`K.get_session().run(decoder, feed_dict=...)`: a run of the session standalone Keras keeps for its TF1
    graph, which `is_session_run` does not see (no `sess` name, no session class). tf-fix48: reading 33's
    lipnet-replication builds two `K.placeholder` and a `K.ctc_decode` per test batch in an epoch-end
    callback's `while` loop and runs them so."""
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "run"
        and isinstance(func.value, ast.Call)
        and _standalone_backend_call(func.value, index) == "get_session"
    )


def _standalone_backend_call(call: ast.Call, index: ModuleIndex) -> str | None:
    """The function name of a call into standalone Keras's backend (`keras.backend.get_value`,
    `K.ctc_decode` with `from keras import backend as K`, `import keras.backend as K`, or `K` bound nowhere
    in a module that imports `*` from a `keras` module, as `from keras.layers import *` hands over the
    `K` that `keras/layers/*.py` import), else None. Keras 2 on TF1 builds every backend call into its
    session's graph."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    parts = dotted_parts(func.value)
    if parts is None:
        return None
    source = _keras_binding(parts[0], index)
    if source is None:
        return None
    path = ".".join([source, *parts[1:]])
    return func.attr if path == "keras.backend" else None


def _keras_binding(name: str, index: ModuleIndex) -> str | None:
    """The standalone `keras` module path an import binds `name` to (`keras`, `keras.backend`), with a
    `K` no import or assignment binds taken from a `from keras.* import *`; None otherwise."""
    star = False
    for node in index.imports:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname == name and alias.name.split(".")[0] == "keras":
                    return alias.name
                if alias.asname is None and alias.name.split(".")[0] == name == "keras":
                    return "keras"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] != "keras":
                continue
            for alias in node.names:
                if alias.name == "*":
                    star = True
                elif (alias.asname or alias.name) == name:
                    return f"{node.module}.{alias.name}"
    if star and name == "K" and name not in index.name_values and not _imported(name, index):
        return "keras.backend"
    return None


def _imported(name: str, index: ModuleIndex) -> bool:
    """Some import of the module binds `name`."""
    return any(
        (alias.asname or alias.name.split(".")[0]) == name
        for node in index.imports
        for alias in getattr(node, "names", [])
    )


_ITERATOR_MAKERS = ("make_one_shot_iterator", "make_initializable_iterator")


def _tf1_iterator(receiver: ast.AST, index: ModuleIndex) -> bool:
    """`ds.make_one_shot_iterator()`, `tf.compat.v1.data.make_one_shot_iterator(ds)`, or a name the module
    binds only to one: its `get_next()` adds an op to the graph on every call (tf-fix31: reading 23's
    hrnet-tf1 runs `sess.run(ite.get_next())` every training step)."""
    if isinstance(receiver, ast.Name):
        receiver = index.only_value(receiver.id)
    if not isinstance(receiver, ast.Call):
        return False
    func = receiver.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in _ITERATOR_MAKERS


def check_graph_op_in_loop(index: ModuleIndex):
    reported: set[tuple[int, int]] = set()
    stores = _LoopStores()
    for loop, reached in loops_keeping_the_graph(index):
        if few_iterations(loop) or not any(_runs_graph(site.node, index) for site, _ in reached):
            continue
        cached = per_key_cached(loop)
        callers = {id(site.node): site for site in index.loop_calls[id(loop)]}
        for site, via in reached:
            if in_tf_function(site, index) or id(site.node) in cached:
                continue
            op = graph_op_name(site.node, index)
            if op is None or "assign" in op and _over_weights(loop, index):
                continue  # (a restore assigning each pretrained variable once: no growth while training)
            if via is not None and id(via) in callers and switched_off(callers[id(via)], site, index):
                continue  # (built only under a flag this call leaves off: `self.evaluate(x, y, sess)`)
            at = via or site.node
            if _in_self_disabling_branch(loop, at, stores):
                continue  # (a branch that clears its own condition: built once, not per iteration)
            if not first_report(reported, at):
                continue
            if via is None:
                message = (
                    f"`{op}` adds a node to the graph on every iteration of a loop that runs the session "
                    f"(loop at line {loop.lineno}); create it once before the loop"
                )
            else:
                message = (
                    f"this call creates `{op}` (line {site.node.lineno}) on every iteration of a loop that "
                    f"runs the session (loop at line {loop.lineno}); create it once before the loop"
                )
            yield RawFinding(
                "PP101",
                at.lineno,
                at.col_offset,
                message,
                confidence="medium"
                if _long_loop(loop) and not _polls(loop) or _grows_while_training(loop, at, op, index)
                else "low",
            )

    yield from _ops_in_step_callbacks(index, reported)
    yield from _ops_run_per_call(index, reported)


def _in_self_disabling_branch(loop: ast.AST, node: ast.AST, stores: _LoopStores) -> bool:
    """`node` sits, inside `loop`, under `if` tests that a branch on its path switches off by binding a
    constant to a name or attribute those tests read (`if self._unfreeze_epochs >= 0: ...
    self._unfreeze_epochs = -1`, `if not built: ...; built = True`): the branch runs at most once per
    switch, so what it builds is a one-time graph change, not growth per iteration (tf-fix46: reading 32
    read 3 PP101 `medium` findings wrong in cbreider's "unfreeze all layers" branch). `stores` holds each
    loop's bindings, walked once per loop rather than once per finding and branch (tf-fix48)."""
    chain = _ifs_above(loop, node)
    if not chain:
        return False
    tested = set()
    for branch in chain:
        tested |= {text for n in ast.walk(branch.test) if (text := dotted_text(n)) is not None}
    for branch in chain:
        switches = [s for s in branch.body if isinstance(s, ast.Assign) and _switch_off_value(s.value)]
        if not switches:
            continue
        # (the branch walked once, review 24 item 18)
        still_tested = tested - stores.bound_outside(loop, branch)
        if any(dotted_text(t) in still_tested for stmt in switches for t in stmt.targets):
            return True
    return False


def _switch_off_value(value: ast.AST) -> bool:
    """A constant (`True`, `-1`, `None`), or a signed one: a value that stays the same every time the branch
    binds it, so the test cannot pass again by it. `flag = not flag` flips the test back on every other pass
    (review 23: a toggle read as a once-only switch)."""
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub | ast.UAdd):
        value = value.operand
    return isinstance(value, ast.Constant)


class _LoopStores:
    """The names and attributes each loop binds (`ast.Store` targets, by node), found by one walk of the loop
    for all of a module's findings; `_in_self_disabling_branch` walked the whole loop again for each branch
    of each finding (tf-fix48)."""

    def __init__(self) -> None:
        self._by_loop: dict[int, list[tuple[int, str]]] = {}

    def _stores_of(self, loop: ast.AST) -> list[tuple[int, str]]:
        """(id(node), dotted text) of each name or attribute the loop stores to, found once per loop."""
        found = self._by_loop.get(id(loop))
        if found is None:
            found = [
                (id(node), text)
                for node in ast.walk(loop)
                if isinstance(getattr(node, "ctx", None), ast.Store)
                and (text := dotted_text(node)) is not None
            ]
            self._by_loop[id(loop)] = found
        return found

    def bound_outside(self, loop: ast.AST, branch: ast.If) -> set[str]:
        """Names and attributes the loop binds anywhere but in `branch`'s body, constants included: a counter
        (`since_eval += 1`), a flag the loop sets again (`if step % 10 == 0: rebuild = True`) or rebinds from
        data (`flag = step > warmup`) lets the branch that switches it off run again, every period, not once
        (review 23: the re-armed flag was read as a one-time switch). The loop is walked once (`_stores_of`),
        the branch once per call."""
        inside = {id(n) for stmt in branch.body for n in ast.walk(stmt)}
        return {text for node_id, text in self._stores_of(loop) if node_id not in inside}


def _ifs_above(loop: ast.AST, node: ast.AST) -> list[ast.If]:
    """The `if` statements of `loop`'s body whose `body` (not `else`) holds `node`, outermost first; [] when
    `node` is not in the loop's body or lies in an `else` on the way, or the loop is a comprehension."""
    if not isinstance(loop, ast.For | ast.AsyncFor | ast.While):
        return []  # (a comprehension holds no statements)
    path: list[ast.If] = []

    def find(statements) -> bool:
        for stmt in statements:
            if stmt.lineno > node.lineno or getattr(stmt, "end_lineno", stmt.lineno) < node.lineno:
                continue
            if isinstance(stmt, ast.If):
                if find(stmt.body):
                    path.insert(0, stmt)
                    return True
                return False
            if isinstance(stmt, ast.With | ast.AsyncWith | ast.Try):
                return find(stmt.body)  # (a `with` or `try` between keeps the branch what it was)
            return any(n is node for n in ast.walk(stmt))
        return False

    return path if find(loop.body) else []


# What a weight restore iterates over: the graph's variables (`tf.trainable_variables()`, `model.weights`) or
# a checkpoint's names (`reader.get_variable_to_shape_map()`, `tf.train.list_variables(path)`)
_VARIABLE_LISTS = frozenset(
    {
        "trainable_variables",
        "global_variables",
        "all_variables",
        "model_variables",
        "local_variables",
        "get_collection",
        "get_variable_to_shape_map",
        "get_variable_to_dtype_map",
        "list_variables",
        "weights",
        "trainable_weights",
        "variables",
    }
)
# ... or a weights file loaded whole (`np.load(path).item()`, `pickle.load(f)`, `h5py.File(path)`)
_WEIGHT_FILE_LOADS = frozenset({"load", "File", "NewCheckpointReader", "CheckpointReader"})


def _over_weights(loop, index: ModuleIndex) -> bool:
    """The loop walks a model's variables or a weights file's entries (`for var in tf.trainable_variables()`,
    `for name in data_dict` after `data_dict = np.load(path).item()`, `for k, v in weights[layer].items()`):
    a restore that assigns each variable once, before training, whose assign ops are built once in all
    (tf-fix36: reading 26's FishBigOcean and hellochick loaders, wrong at `medium` and `low`). A training
    loop around it, or one calling the def that holds it, is still its own loop."""
    it = getattr(loop, "iter", None)
    while isinstance(it, ast.Call) and (
        isinstance(it.func, ast.Name)
        and it.func.id in ("enumerate", "zip", "sorted", "list", "tuple", "reversed")
        or isinstance(it.func, ast.Attribute)
        and it.func.attr in ("keys", "items", "values")
    ):
        it = (it.args[0] if it.args else None) if isinstance(it.func, ast.Name) else it.func.value
    while isinstance(it, ast.Subscript):
        it = it.value  # `data_dict[op_name].items()`
    if isinstance(it, ast.Call):
        return named_call(it) in _VARIABLE_LISTS
    if isinstance(it, ast.Attribute):
        return it.attr in _VARIABLE_LISTS
    if not isinstance(it, ast.Name):
        return False
    values = index.name_values.get(it.id, [])
    return bool(values) and all(_loads_weights(value) for value in values)


def _loads_weights(value: ast.AST) -> bool:
    """`np.load(path, allow_pickle=True).item()`, `pickle.load(f)`, `h5py.File(path, "r")`,
    `tf.train.NewCheckpointReader(path)`, or a variable list as `_over_weights` reads one."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "item":
        value = value.func.value
    return isinstance(value, ast.Call) and named_call(value) in _WEIGHT_FILE_LOADS | _VARIABLE_LISTS


def _ops_in_step_callbacks(index: ModuleIndex, reported: set[tuple[int, int]]):
    """PP101 (low) in a def handed to an optimizer as its per-step callback (`minimize(...,
    step_callback=self._scipy_callback)`) that runs the session: the optimizer calls it every step, so an op
    it builds grows the graph as a loop would (gpflow-monitor's scipy callback, tf-fix23)."""
    for callback, keyword in _step_callbacks(index):
        reached = list(index.reached_calls(index.function_calls.get(id(callback), [])))
        if not any(is_session_run(site.node, index) for site, _ in reached):
            continue
        for site, via in reached:
            op = graph_op_name(site.node, index)
            if op is None or in_tf_function(site, index):
                continue
            at = via or site.node
            if not first_report(reported, at):
                continue
            yield RawFinding(
                "PP101",
                at.lineno,
                at.col_offset,
                f"`{op}` adds a node to the graph on every call of `{callback.name}`, which runs the session "
                f"and is called every step (`{keyword.arg}=`, line {keyword.value.lineno}); create it once",
                confidence="low",
            )


def _ops_run_per_call(index: ModuleIndex, reported: set[tuple[int, int]]):
    """PP101 (low) in a def that is handed a session and, on every call, builds an op on what it is given
    inside the very `run` that evaluates it (`def add_noise(data, sigma, sess): noise =
    sess.run(tf.truncated_normal(data.shape))`): the graph used as a calculator by a helper made to be
    called per batch, so each call adds a node, wherever the loop calling it is (DnCNN's `add_noise`, called
    per batch from another module's training loop: tf-fix26). An op built beside the run (a def that builds
    a graph and then evaluates it, once) is not reported, nor a def that a loop of this module calls (the
    loop's finding names it), nor an op built once under an `if` testing for a missing value."""
    in_loops = None
    for function in index.functions:
        if isinstance(function, ast.Lambda):
            continue
        sessions = {p for p in parameter_names(function) if "sess" in p.lower()}
        if not sessions:
            continue
        if in_loops is None:
            in_loops = _called_from_loops(index)
        if id(function) in in_loops:
            continue
        sites = index.function_calls.get(id(function), [])
        runs = [s.node for s in sites if is_session_run(s.node, index) and receiver_name(s.node) in sessions]
        if not runs:
            continue
        given = parameter_names(function) - sessions - {"self", "cls"}
        guarded = cache_guarded(function)
        evaluated = {id(n) for run in runs for a in (*run.args, *run.keywords) for n in ast.walk(a)}
        for site in sites:
            op = graph_op_name(site.node, index)
            if op is None or id(site.node) not in evaluated or id(site.node) in guarded:
                continue
            if "initializer" in op or not names_in(site.node) & given:
                continue  # an initializer run once, or an op on nothing the caller passes
            if not first_report(reported, site.node):
                continue
            yield RawFinding(
                "PP101",
                site.node.lineno,
                site.node.col_offset,
                f"`{op}` adds a node to the graph on every call of `{function.name}`, which builds it on "
                "what it is given and runs it at once with the session it is handed; build it once and "
                "feed the values through a placeholder",
                confidence="low",
            )


@dataclass(frozen=True)
class OpBuilder:
    """A module function or a method of a module class (`owner`) that runs the session and builds graph ops
    on every call (`ops`: (line, column, op) of each, outside a cache guard; initializers, savers and
    optimizer steps, which build a model once, left out; none for a def that makes a graph of its own or
    resets the default one, whose ops do not pile up). tf-fix30: the project pass (checker/project.py)
    reports them where another module calls the def in a loop (reading 18's policy, whose `calc_action`
    builds `tf.exp`, `tf.multinomial` and `tf.reshape` for every environment step of a rollout loop in
    another module)."""

    name: str
    owner: str | None
    ops: tuple[tuple[int, int, str], ...]


# Ops that build a model once (reported, when a loop builds them, by the loop's own finding)
_ONCE_OPS = ("initializer", "initialize", "Saver", "Variable", "minimize", "apply_gradients", "gradients")


def per_call_op_builders(index: ModuleIndex) -> dict[int, OpBuilder]:
    """id(def) -> OpBuilder for the module's defs that run the session and build ops on every call."""
    if getattr(index, "_op_builders", None) is not None:
        return index._op_builders
    index._op_builders = {}
    if not index.resolver.uses_tensorflow:
        return index._op_builders
    defs = [(name, None, f) for name, f in index.module_functions.items()]
    defs += [
        (name, owner, f) for owner, methods in index.class_methods.items() for name, f in methods.items()
    ]
    running = {id(site.function) for site in index.calls if _runs_graph(site.node, index)}
    for name, owner, function in defs:
        if id(function) not in running:
            continue
        sites = index.function_calls.get(id(function), [])
        if any(index.resolver.call_name(site.node) in GRAPH_RESETS for site in sites):
            continue  # (`with tf.Graph().as_default():`, `tf.reset_default_graph()`: each call starts afresh)
        built = [
            (site.node, op)
            for site in sites
            if (op := graph_op_name(site.node, index)) is not None
            and not in_tf_function(site, index)
            and not any(word in op for word in _ONCE_OPS)
        ]
        guarded = cache_guarded(function) if built else set()
        ops = tuple((node.lineno, node.col_offset, op) for node, op in built if id(node) not in guarded)
        if ops:
            index._op_builders[id(function)] = OpBuilder(name, owner, ops)
    return index._op_builders


def _called_from_loops(index: ModuleIndex) -> set[int]:
    """The defs of this module a loop calls (their ops are reported at the loop's call)."""
    return {
        id(helper)
        for loop in index.loops
        for site in index.loop_calls[id(loop)]
        if (helper := index.helper_of(site.node, site.function)) is not None
    }


def _step_callbacks(index: ModuleIndex):
    """(def, keyword) for each def of this module passed as a `*callback` keyword (`step_callback=f`,
    `callback=self._on_step`)."""
    methods = {}
    for function in index.functions:
        params = function.args.args if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) else []
        if params and params[0].arg == "self":
            methods.setdefault(function.name, function)
    seen: set[int] = set()
    for site in index.calls:
        for keyword in site.node.keywords:
            if not keyword.arg or not keyword.arg.lower().endswith("callback"):
                continue
            value = keyword.value
            target = None
            if isinstance(value, ast.Name):
                target = index.module_functions.get(value.id)
            elif (
                isinstance(value, ast.Attribute)
                and isinstance(value.value, ast.Name)
                and value.value.id == "self"
            ):
                target = methods.get(value.attr)
            if target is not None and id(target) not in seen:
                seen.add(id(target))
                yield target, keyword


# PP101 at `medium` (tf-calibrate19): as first read over readings 13-18, loops that say they run long were
# right 27 times in 38 (`while` 13/18, `for` over `range` with a literal bound of 100 or more 14/20), the
# others 75 in 167 (over a Python collection 15/58, over `range` of a name 56/100). A loop that sleeps between
# rounds (`_polls`: a checkpoint-polling evaluator) stays `low`: reading 19 read six such findings wrong, the
# shape tf-calibrate19 had already listed among its wrong reads.
_LONG_RANGE = 100


def _long_loop(loop) -> bool:
    """A `while` loop (a training loop run until told to stop), or a `for` over `range`/`xrange` with an
    integer literal of 100 or more among its arguments (`for step in range(2000):`)."""
    if isinstance(loop, ast.While):
        return True
    it = getattr(loop, "iter", None) if isinstance(loop, ast.For) else None
    if not isinstance(it, ast.Call):
        return False
    func = it.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name in ("range", "xrange") and any(
        isinstance(a, ast.Constant) and isinstance(a.value, int) and a.value >= _LONG_RANGE for a in it.args
    )


# Calls that build a model (an optimizer step, an initializer of its variables, a session): a loop making
# them outside the nested loop that trains builds one model per iteration (`_model_per_iteration`).
_MODEL_BUILDING = frozenset(
    {
        "global_variables_initializer",
        "initialize_all_variables",
        "variables_initializer",
        "initialize_variables",
        "minimize",
        "compute_gradients",
    }
)


def _grows_while_training(loop, at: ast.AST, op: str, index: ModuleIndex) -> bool:
    """PP101's `medium` class of tf-fix29: the loop runs a training step (`runs_training_step`: an
    optimizer's step, a call named for training, `sess.run(train_op)`), the op is no `Saver` and the loop
    does not build a model per iteration (`_model_per_iteration`), so the graph grows as the model trains.
    As first read over readings 15-22 (by reason where no checkout is left, by code on reading 22), such
    findings read right 92 times in 110 (84%) in 33 repositories, 25 in 30 in the readings 19-22 that read
    them all at `low`. Left out: a model per setting (learning-rate sweeps, cross-validation folds,
    ensembles, two-job demos) 0 right of 29, and `Saver`s (built per checkpoint, or under a modulo test that
    never holds) 1 of 15 (bench/data/tf-fix29_class_reads.csv). Not `high`: under 90%, the misses being a
    learning-rate `assign` per epoch or every few thousand steps and loops that end after a few steps."""
    if "Saver" in op or _polls(loop) or not runs_training_step(loop, index):
        return False
    return not _model_per_iteration(loop, at, index)


def _model_per_iteration(loop, at: ast.AST, index: ModuleIndex) -> bool:
    """Each iteration builds a model (an optimizer, an initializer of its variables, a session) and trains it
    in a loop nested in this one, and `at` is outside that nested loop: a sweep over settings, folds or
    ensemble members, whose ops are built once per setting (`for lr in rates: train_op =
    tf.train.GradientDescentOptimizer(lr).minimize(loss); sess.run(tf.global_variables_initializer()); for step
    in range(1000): sess.run(train_op)`)."""
    inner = [
        node
        for node in ast.walk(loop)
        if node is not loop and isinstance(node, ast.For | ast.While) and runs_training_step(node, index)
    ]
    if not inner or any(node is at for m in inner for node in ast.walk(m)):
        return False
    skipped = {id(node) for m in inner for node in ast.walk(m)}
    for node in ast.walk(loop):
        if id(node) in skipped or not isinstance(node, ast.Call):
            continue
        last = (index.resolver.call_name(node) or named_call(node)).rsplit(".", 1)[-1]
        if last in _MODEL_BUILDING or last.endswith(("Optimizer", "Session")):
            return True
    return False


def check_session_in_loop(index: ModuleIndex):
    reported: set[tuple[int, int]] = set()
    for loop, reached in loops_keeping_the_graph(index):
        if few_iterations(loop):
            continue  # a session per split or configuration, two or three times
        for site, via in reached:
            name = index.resolver.call_name(site.node)
            if name not in SESSION_CLASSES and name not in _WRITERS:
                continue
            if _polls(loop):
                break  # an evaluator that restores the newest checkpoint every few seconds (reading 15)
            if name in _WRITERS and via is None and names_in(site.node) & _loop_bound(loop):
                continue  # a writer per log directory the loop walks (one per metric, per run)
            at = via or site.node
            if not first_report(reported, at):
                continue
            where = "" if via is None else f" (via this call, line {site.node.lineno})"
            yield RawFinding(
                "PP102",
                at.lineno,
                at.col_offset,
                f"`{short(name)}` is created on every iteration of the loop at line {loop.lineno}{where}; "
                "create one before the loop and reuse it",
            )


def _polls(loop) -> bool:
    """The loop sleeps (`time.sleep(TEST_INTERVAL_SECS)`): it waits between rounds, so what it builds each
    round costs nothing next to the wait."""
    for node in ast.walk(loop):
        if isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Name) and func.id == "sleep") or (
                isinstance(func, ast.Attribute)
                and func.attr == "sleep"
                and isinstance(func.value, ast.Name)
                and func.value.id == "time"
            ):
                return True
    return False


def _loop_bound(loop) -> set[str]:
    """Names the loop binds: its targets and everything assigned in its body."""
    return assigned_names([loop])


register(
    Rule(
        code="PP101",
        name="graph-op-in-session-loop",
        root_cause="model.computation_graph_confusion",
        summary=(
            "A TensorFlow op (tf.reshape, tf.nn.conv2d, tf.assign, var.assign(), optimizer.minimize(), ...) "
            "created inside a loop that also runs the session each iteration (sess.run / tensor.eval), "
            "directly or in a helper called from the loop (3 levels), in any loop form (for, while, "
            "comprehension, nested); and (since tf-fix23, `low`) an op built by a def of the module passed "
            "as a `*callback` keyword (`step_callback=self._scipy_callback`) that runs the session itself; "
            "and (since tf-fix26, `low`) an op built, on what a def is given, inside the `run` of the session "
            "the def is handed (`def add_noise(data, sigma, sess): sess.run(tf.truncated_normal(data.shape))`): "
            "a helper made to be called per batch, wherever its loop is; and (since tf-fix30, `low`) an op a "
            "def builds on every call while running the session, when a loop of another module of the "
            "project calls that def (a policy's `calc_action` per environment step), unless the def makes a "
            "new graph or resets the default one."
        ),
        why=(
            "In graph mode every op call adds a node to the default graph. Created inside the training or "
            "inference loop, the graph grows by one node per iteration: each sess.run gets slower, memory grows "
            "and the program eventually stalls."
        ),
        example="""
for step in range(10000):
    batch = next(batches)
    sess.run(tf.assign(w, w - lr * grad), feed_dict={x: batch})
""",
        instead="""
update = tf.assign(w, w - lr * grad)   # build the graph once
for step in range(10000):
    sess.run(update, feed_dict={x: next(batches)})
""",
        false_alarms=(
            "Low. It only fires when the same loop runs a session, so graph-building loops (stacking layers) "
            "and eager TF2 code never match; loops that reset the graph (tf.reset_default_graph, a new "
            "tf.Graph, clear_session) and loops inside a tf.function are skipped. A loop that creates the op only "
            "on its first iteration behind a flag is still reported. Python helpers that add no node are no "
            "findings: record readers (tf_record_iterator), the eager runtime, tf.compat string helpers, nest "
            "utilities, and lookups or predicates named get_*/is_* (get_masks, is_symbolic_tensor). `medium` "
            "(since tf-calibrate19) in a `while` loop or a `for` over `range` with a literal bound of 100 or "
            "more (`for step in range(2000):`): as first read over readings 13-18 right 27 times in 38 (the "
            "Morvan-style `compute_accuracy` helper called every 50 steps, accuracy and summary ops built per "
            "evaluation batch, a learning-rate `tf.assign` per epoch). `medium` too (since tf-fix29) in any loop "
            "that runs a training step (an optimizer step, a call named for training, `sess.run(train_op)`), "
            "unless the op is a `Saver` or the loop builds a model per iteration (an optimizer, an "
            "initializer, a session) and trains it in a loop nested in it: as first read over readings "
            "15-22 right 92 times in 110 (sweeps and folds 0 of 29, Savers 1 of 15). Every other finding is "
            "`low`: loops over a Python collection read right 15 times in 58, over `range` of a name 56 in "
            "100 (loops over layers, shards or splits that run the session once each), and so is a loop that "
            "sleeps between rounds (a checkpoint-polling evaluator: reading 19 read six such findings wrong). "
            "`tf.contrib.crf.viterbi_decode` is NumPy code and no op (since tf-fix29). Since tf-fix36 an "
            "assign in a loop over the graph's variables (`tf.trainable_variables()`, `model.weights`) or over "
            "a weights file's entries (`np.load(path).item()`, a checkpoint reader's variable map) is a "
            "restore that assigns each variable once and is silent; a training loop around it, or calling the "
            "def that holds it, still reports it. Since tf-fix42 calls that hand back graph elements already "
            "built (`tf.contrib.summary.all_summary_ops()`) or build Python option objects (the profiler's "
            "`ProfileOptionBuilder`, anything under a `profiler` module, classes named `*Builder`, `*Options`, "
            "`*Config`) add no node, and a helper's op is not followed when the loop's call leaves off the flag "
            "it is built under (`if cache:` in a def whose `cache=False` the call does not pass, or passes on "
            "off through a second helper)."
        ),
        check=check_graph_op_in_loop,
        # low but for long loops: right 2 times in 20, then 16-30% at medium in every reading (loops over
        # layers, shards, splits); `medium` in while loops and range(>=100) loops (tf-calibrate19)
        confidence="medium",
    )
)

register(
    Rule(
        code="PP102",
        name="session-or-writer-in-loop",
        root_cause="api.inefficient_usage",
        summary=(
            "A tf.Session / InteractiveSession / MonitoredSession, or a summary FileWriter / file writer, "
            "created inside a loop (or a helper it calls)."
        ),
        why=(
            "Creating a session sets up the runtime and devices (on a GPU, seconds) and re-places the graph; "
            "one per iteration repeats that start-up cost every time, and unclosed sessions hold memory. A "
            "summary writer opens a new event file and writer thread each time."
        ),
        example="""
for image in images:
    with tf.Session() as sess:
        print(sess.run(logits, feed_dict={x: image}))
""",
        instead="""
with tf.Session() as sess:
    for image in images:
        print(sess.run(logits, feed_dict={x: image}))
""",
        false_alarms=(
            "Medium-low. A loop over configurations that builds a fresh graph per iteration (tf.Graph(), "
            "reset_default_graph, clear_session in the loop) is skipped, as is a loop that sleeps between "
            "rounds (an evaluator polling for new checkpoints); a deliberate sweep without that is reported (silence it with `# noqa: PP102`)."
        ),
        check=check_session_in_loop,
        confidence="low",  # read on fresh code: 2 right of 19 (a session per shard, file or checkpoint)
    )
)
