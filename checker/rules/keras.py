"""PP3xx: Keras usage: one-sample predictions in a loop, models rebuilt in a loop without clearing state."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from checker.datasets import runs_training_step
from checker.findings import RawFinding
from checker.module import (
    COMPREHENSION_TYPES,
    ModuleIndex,
    assigned_names,
    bound_values,
    dotted_parts,
    import_of,
    is_main_guard,
    names_in,
    value_bound_to,
    walk,
)
from checker.rules import Rule, register
from checker.rules.common import (
    eval_feed,
    few_iterations,
    first_report,
    is_range_call,
    is_session_run,
    literal_iterations,
    loops_keeping_the_graph,
    parameter_values,
    receiver_name,
    runs_once,
    runs_per_call,
    self_bindings,
    values_here,
)
from checker.rules.data import literal_int

_PREDICT = frozenset({"predict", "predict_classes", "predict_proba"})
# Image libraries not tracked by imports whose resize takes the image first (OpenCV, imutils, skimage, scipy).
_IMAGE_MODULES = frozenset({"cv2", "cv", "imutils", "transform", "misc"})
MODEL_LIKE = ("model", "net", "classifier", "encoder", "decoder", "generator", "discriminator", "predictor")
_MODEL_BUILDERS = frozenset(
    "tensorflow.keras." + n
    for n in [
        "Sequential",
        "Model",
        "models.Sequential",
        "models.Model",
        "models.load_model",
        "models.clone_model",
        "models.model_from_json",
        "models.model_from_yaml",
        "models.model_from_config",
        "saving.load_model",
    ]
)
_TRAIN_CALLS = frozenset(
    {"fit", "fit_generator", "train_on_batch", "evaluate", "predict", "evaluate_generator"}
)


# Modules that unpickle (`pickle.load(f)`, `joblib.load(path)`, matched as written: the resolver does not track
# them). What they return is a scikit-learn-style estimator far more often than a Keras model, which is saved
# in its own format (reading 17: a pickled classifier's predict, wrong 2/2 at `high`).
_UNPICKLERS = frozenset({"pickle", "cPickle", "joblib", "dill", "cloudpickle"})


def _unpickled(call: ast.Call) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in ("load", "loads")
        and isinstance(func.value, ast.Name)
        and func.value.id in _UNPICKLERS
    )


def _model_receivers(index: ModuleIndex) -> tuple[set[str], set[str]]:
    """Names bound from Keras calls, and names bound from scikit-learn calls or unpickled, anywhere in the
    module."""
    keras, sklearn = set(), set()
    for node in index.call_assignments:
        name = index.resolver.call_name(node.value) or ""
        for target in node.targets:
            key = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
            if key is None:
                continue
            if name.startswith("tensorflow.keras."):
                keras.add(key)
            elif name.startswith("sklearn.") or _unpickled(node.value):
                sklearn.add(key)
    return keras, sklearn


def _is_one_sample(expr: ast.AST, index: ModuleIndex, loop_names: set[str]) -> bool:
    """`np.expand_dims(x, 0)`, `x[None]`, `x[np.newaxis, ...]`, `np.array([x])`, `x.reshape(1, ...)`, `xs[i:i+1]`."""
    resolver = index.resolver
    if isinstance(expr, ast.Subscript):
        sl = expr.slice
        first = sl.elts[0] if isinstance(sl, ast.Tuple) and sl.elts else sl
        if isinstance(first, ast.Constant) and first.value is None:
            return True
        if resolver.qualname(first) == "numpy.newaxis":
            return True
        if isinstance(sl, ast.Slice) and isinstance(sl.lower, ast.Name) and sl.lower.id in loop_names:
            upper = sl.upper
            return (
                isinstance(upper, ast.BinOp)
                and isinstance(upper.op, ast.Add)
                and isinstance(upper.right, ast.Constant)
                and upper.right.value == 1
            )
        return False
    if (
        isinstance(expr, ast.BinOp)
        and isinstance(expr.op, ast.Div | ast.Mult | ast.Sub | ast.Add)
        and isinstance(expr.right, ast.Constant)
    ):
        # `img.reshape(1, -1) / 255.0`: scaling keeps the batch of one (reading 17)
        return _is_one_sample(expr.left, index, loop_names)
    if not isinstance(expr, ast.Call):
        return False
    if isinstance(expr.func, ast.Attribute) and expr.func.attr == "astype":
        # `x[np.newaxis, ...].astype(np.float32)`: a cast keeps the batch of one (tf-fixmine's yolov4 benchmark)
        return _is_one_sample(expr.func.value, index, loop_names)
    if _given_a_list_of_one(expr) or _own_def_given_one_sample(expr, index, loop_names):
        return True
    name = resolver.call_name(expr)
    if name in ("numpy.expand_dims", "tensorflow.expand_dims"):
        axis = (
            expr.args[1]
            if len(expr.args) > 1
            else next((k.value for k in expr.keywords if k.arg == "axis"), None)
        )
        if isinstance(axis, ast.Constant) and axis.value == 0:
            return True
        # `np.expand_dims(np.array([u]), axis=-1)`: an axis added behind keeps the batch of one (tf-fix38)
        return bool(expr.args) and _is_one_sample(expr.args[0], index, loop_names)
    if name in ("numpy.array", "numpy.asarray", "tensorflow.constant", "tensorflow.convert_to_tensor"):
        return (
            bool(expr.args) and isinstance(expr.args[0], ast.List | ast.Tuple) and len(expr.args[0].elts) == 1
        )
    if isinstance(expr.func, ast.Attribute) and expr.func.attr == "reshape" and name is None and expr.args:
        shape = expr.args[0] if len(expr.args) == 1 else ast.Tuple(elts=expr.args)
        return _leading_one(shape) or _item_to_batch(expr.func.value, shape, loop_names)
    if name in ("numpy.reshape", "tensorflow.reshape") and len(expr.args) > 1:
        return _leading_one(expr.args[1]) or _item_to_batch(expr.args[0], expr.args[1], loop_names)
    return False


def _item_to_batch(array: ast.AST, shape: ast.AST, loop_names: set[str]) -> bool:
    """`x[i].reshape(-1, h, w, c)`: one item indexed by the loop's own name, reshaped to a leading `-1` and
    literal sizes after it: the `-1` is a batch axis of one, as `reshape(1, ...)` is (tf-fix54: reading 37's
    convolutional autoencoder, `eval.py` 44). Only a plain `xs[i]` (not a slice, not `xs[i, j]`) with every
    other size a literal positive int, so the item's size fixes the batch at one."""
    if not (
        isinstance(array, ast.Subscript)
        and isinstance(array.slice, ast.Name)
        and array.slice.id in loop_names
        and isinstance(shape, ast.Tuple | ast.List)
        and len(shape.elts) > 1
    ):
        return False
    first, *rest = shape.elts
    return (
        isinstance(first, ast.UnaryOp)
        and isinstance(first.op, ast.USub)
        and isinstance(first.operand, ast.Constant)
        and first.operand.value == 1
        and all(isinstance(e, ast.Constant) and type(e.value) is int and e.value > 0 for e in rest)
    )


def _given_a_list_of_one(call: ast.Call) -> bool:
    """A batching helper given one sample in a list of one (`pad_sequences([seq], maxlen=n)`,
    `tokenizer.texts_to_sequences([text])`, a project's `PreProcessInputData([text])`): what it returns is a
    batch of one, as `np.array([x])` is (tf-fix38: reading 27's BERT-NER evaluation). `np.array` and the
    like keep their own test above; a list of lists or a starred item is not one sample. Since tf-fix41
    also a helper given several inputs of one sample, each in a list of one (bert4keras' `to_array([ids],
    [segment_ids])`, reading 29): every positional argument is such a list."""
    if not isinstance(call, ast.Call) or not call.args:
        return False
    return all(
        isinstance(listed, ast.List)
        and len(listed.elts) == 1
        and not isinstance(listed.elts[0], ast.List | ast.Tuple | ast.Starred)
        for listed in call.args
    )


def _own_def_given_one_sample(call: ast.Call, index: ModuleIndex, loop_names: set[str]) -> bool:
    """A def of this module given a batch of one first that hands that same array back
    (`thresholdvector(test_x[i:i+1])`, whose body thresholds `vector[i]` in place and ends `return vector`):
    still the batch of one (tf-fix48: reading 31's Packt parameter study feeds each test row so, per
    `sess.run`, while its sibling lessons feeding `test_x[i:i+1]` itself were found). A def that builds and
    returns a new array may grow the one sample into many (basenji's `satmut_seqs`, every mutation of a
    sequence), so it is not read so."""
    if not (
        isinstance(call.func, ast.Name) and call.args and _is_one_sample(call.args[0], index, loop_names)
    ):
        return False
    function = index.module_functions.get(call.func.id)
    return isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) and _returns_first_parameter(function)


def _returns_first_parameter(function) -> bool:
    """Every `return` in the def gives back its first parameter, which the def never rebinds (it may change
    the array's items in place)."""
    params = function.args.posonlyargs + function.args.args
    if not params:
        return False
    first = params[0].arg
    nodes = [n for stmt in function.body for n in walk(stmt)]  # (loops and nested defs too, to be safe)
    returns = [n for n in nodes if isinstance(n, ast.Return)]
    rebound = any(isinstance(n, ast.Name) and n.id == first and isinstance(n.ctx, ast.Store) for n in nodes)
    return (
        bool(returns)
        and not rebound
        and all(isinstance(r.value, ast.Name) and r.value.id == first for r in returns)
    )


def _leading_one(shape) -> bool:
    """`(1, h, w)`, `[1, -1]`, or `(1,) + x.shape` (a batch axis put in front of a sample's shape)."""
    if isinstance(shape, ast.BinOp) and isinstance(shape.op, ast.Add):
        return _leading_one(shape.left)
    return isinstance(shape, ast.Tuple | ast.List) and bool(shape.elts) and _is_one(shape.elts[0])


# PP301's level for a pseudo-batch of one filled item by item: a new shape (2 first reads, readings 30-31)
FILLED_BATCH_LEVEL = "medium"
# PP301's level for a multi-input model given each input in a list of one (`predict([[np.array(a)],
# [np.array(x)]])`): a new shape (2 first reads in one repository, reading 33's PointNetReg), as the filled one
LISTED_INPUTS_LEVEL = "medium"
_ALLOCATORS = frozenset({"numpy.zeros", "numpy.empty", "numpy.ones", "numpy.full"})
_WRAPPERS = frozenset({"numpy.array", "numpy.asarray", "tensorflow.constant", "tensorflow.convert_to_tensor"})


def _filled_batch_of_one(arg: ast.AST, loop, line: int, scope, targets: set[str], index: ModuleIndex) -> bool:
    """The input is an array allocated with a leading axis of one (`z = np.zeros((1, d))`, in the loop or
    once before it in `scope`) that the loop fills item by item before `line` (`z[0, 0] = xi`; `data[0, j, ...]
    = imread(tile)`), given as it is or wrapped (`tf.constant(z)`): one sample per iteration in a pseudo-batch
    (tf-fix44: reading 30's VAE latent grid and reading 31's Sentinel-2 tiles). Not when what fills it, or
    what a loop around the fill runs over, is carried from earlier iterations (a text generator one-hot
    encodes the sentence it extends with each prediction)."""
    bound = _assignment_in(loop, arg.id, line) if isinstance(arg, ast.Name) else None
    if bound is not None and _wraps_a_name(bound, index):
        arg, line = bound, bound.lineno
    if _wraps_a_name(arg, index):
        arg = arg.args[0]
    if not isinstance(arg, ast.Name):
        return False
    name = arg.id
    allocated = _assignment_in(loop, name, line)
    if allocated is None and scope is not None:
        values = bound_values(scope, name)
        allocated = values[0] if len(values) == 1 else None
    if not (
        isinstance(allocated, ast.Call)
        and index.resolver.call_name(allocated) in _ALLOCATORS
        and allocated.args
        and _leading_one(allocated.args[0])
    ):
        return False
    fills = [
        node
        for node in ast.walk(loop)
        if isinstance(node, ast.Assign)
        and node.lineno < line
        and any(
            isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name
            for t in node.targets
        )
    ]
    if not fills:
        return False
    sources = [f.value for f in fills] + [
        t.slice for f in fills for t in f.targets if isinstance(t, ast.Subscript)
    ]
    sources += [
        inner.iter
        for inner in ast.walk(loop)
        if inner is not loop and isinstance(inner, ast.For) and any(f in ast.walk(inner) for f in fills)
    ]
    carried = targets | _fresh_names(loop, targets) | {name}
    return not feeds_back(loop, ast.Tuple(elts=sources, ctx=ast.Load()), carried, line, index)


def _wraps_a_name(node: ast.AST, index: ModuleIndex) -> bool:
    """`tf.constant(z)`, `np.array(z)`: the array a name holds, as it is."""
    return (
        isinstance(node, ast.Call)
        and index.resolver.call_name(node) in _WRAPPERS
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
    )


def _is_one(node) -> bool:
    return isinstance(node, ast.Constant) and node.value == 1


def loop_targets(loop) -> set[str]:
    if isinstance(loop, COMPREHENSION_TYPES):
        return assigned_names([g.target for g in loop.generators])
    return assigned_names([loop.target]) if hasattr(loop, "target") else set()


def _assignment_in(loop, name: str, before_line: int):
    """The last `name = <expr>` inside the loop before a line, or None; also the matching item of a
    tuple assignment (`a, b = np.reshape(s, (1, n)), np.reshape(t, (1, m))`)."""
    found = None
    body = loop.body if hasattr(loop, "body") else []
    for stmt in body:
        for node in ast.walk(stmt):
            if not isinstance(node, ast.Assign) or node.lineno >= before_line:
                continue
            value = value_bound_to(node, name)
            if value is not None:
                found = value
    return found


# Calls that give back their input's batch axis as it was: Keras' per-model input scaling (`x =
# np.expand_dims(x, axis=0)`, then `x = preprocess_input(x)`: the keras.applications idiom; tf-fix30, reading
# 22's video feature extractor).
_KEEPS_BATCH = frozenset({"preprocess_input"})


def _batch_kept(node: ast.AST) -> ast.AST | None:
    """The input of a call that keeps its batch axis (`preprocess_input(x)` -> `x`), else None."""
    if isinstance(node, ast.Call) and _callee_name(node) in _KEEPS_BATCH and node.args:
        return node.args[0]
    return None


def _one_sample_input(arg: ast.AST, loop, line: int, index: ModuleIndex, targets: set[str]) -> bool:
    """The predicted input is a batch of one: directly (`np.expand_dims(x, 0)`), as a list of such inputs
    for a model with several (`predict([state_1, action_1])`, each made a batch of one in the loop), or as
    a list the iteration starts empty, appends one sample to and stacks (`xs = []`, `xs.append(img)`,
    `xs = np.array(xs)`: a batch of one under a plural name). Scaling (`xs * (2.0 / 255.0)`) and
    `preprocess_input(x)` keep a batch of one."""
    if isinstance(arg, ast.List | ast.Tuple) and arg.elts:
        # `predict([x])` of a one-input model given as a list: the list adds no batch axis (tf-fix26)
        return all(_one_sample_input(e, loop, line, index, targets) for e in arg.elts)
    if (entries := _named_inputs(arg, loop, line)) is not None:
        # a multi-input model fed a dict of batches of one, by input name (tf-fix38: SASRec's per-user loop)
        return bool(entries) and all(_one_sample_input(e, loop, line, index, targets) for e in entries)
    if (wrapped := _array_of_name(arg, index)) is not None and _one_sample_input(
        wrapped, loop, line, index, targets
    ):
        return True  # `np.array(token_list)` after `token_list = sequence_padding([token_ids])` (tf-fix41)
    for _ in range(3):  # `xs = np.array(xs)`, then `xs = xs * (2.0 / 255.0) - 1.0`
        if isinstance(arg, ast.Name):
            if _unpacked_from_a_list_of_one(loop, arg.id, line):
                return True
            value = _assignment_in(loop, arg.id, line)
            if value is None:
                # `ids, segments = encode([text])`: each output of a helper given a list of one
                bound = _bound_call_in(loop, arg.id, line)
                return bound is not None and _given_a_list_of_one(bound[0])
            arg, line = value, value.lineno
        while isinstance(arg, ast.BinOp) and _constant(arg.right):
            arg = arg.left
        if (kept := _batch_kept(arg)) is not None:
            arg = kept
        if not isinstance(arg, ast.Name):
            break
    return _is_one_sample(arg, index, targets) or _stacked_single_append(arg, loop, line, index)


def _inputs_listed_one_each(arg: ast.AST, loop, line: int, index: ModuleIndex, targets: set[str]) -> bool:
    """A list of a model's inputs in which each input is a list of one sample (`[[np.array(fixed)],
    [np.array(moving)], [np.array(x)]]`) or a batch of one made otherwise: Keras stacks a list of one into a
    batch of one, so every input carries one sample. The outer list is the list of inputs (a lone `[x]`
    adds no batch axis, tf-fix26); a list of several items, of lists or starred items is no list of one
    (tf-fix48: reading 33's PointNetReg predicts each ROI of a patient so, in a comprehension)."""
    if not isinstance(arg, ast.List | ast.Tuple) or not arg.elts:
        return False
    listed = [
        isinstance(e, ast.List)
        and len(e.elts) == 1
        and not isinstance(e.elts[0], ast.List | ast.Tuple | ast.Starred)
        for e in arg.elts
    ]
    return any(listed) and all(
        one or _one_sample_input(e, loop, line, index, targets)
        for e, one in zip(arg.elts, listed, strict=True)
    )


def _array_of_name(arg: ast.AST, index: ModuleIndex) -> ast.Name | None:
    """`x` of `np.array(x)` or `np.asarray(x)`: an array of what `x` holds, with its batch axis."""
    if (
        isinstance(arg, ast.Call)
        and index.resolver.call_name(arg) in ("numpy.array", "numpy.asarray")
        and len(arg.args) == 1
        and isinstance(arg.args[0], ast.Name)
    ):
        return arg.args[0]
    return None


def _unpacked_from_a_list_of_one(loop, name: str, line: int) -> bool:
    """The last binding of `name` before `line` unpacks the outputs of a helper given lists of one
    (`token_ids, segment_ids = to_array([token_ids], [segment_ids])` after `token_ids = tokenizer.encode(text)`:
    bert4keras' per-sentence recognizers, reading 29), though an earlier plain assignment binds the same
    name to one sample's unbatched value (tf-fix41)."""
    bound = _bound_call_in(loop, name, line)
    return bound is not None and bound[1] is not None and _given_a_list_of_one(bound[0])


def _named_inputs(arg: ast.AST, loop, line: int) -> list[ast.AST] | None:
    """The values of a dict of named model inputs, else None: a dict literal (`{"seq": np.array([seq])}`),
    or a name the loop body (not a loop nested in it) binds to an empty dict and fills before `line` by
    constant key (`inputs = {}`, `inputs["user"] = ...`); entries set under an `if` are left out (an optional
    input, `inputs["seq_c"] = ...` under a flag, need not show its batch axis)."""
    if isinstance(arg, ast.Dict):
        return None if None in arg.keys else list(arg.values)
    if not isinstance(arg, ast.Name) or not _emptied_dict(loop, arg.id, line):
        return None
    entries = []
    for node in _unconditional_nodes(getattr(loop, "body", [])):
        if not (isinstance(node, ast.Assign) and node.lineno < line and len(node.targets) == 1):
            continue
        target = node.targets[0]
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id == arg.id
            and isinstance(target.slice, ast.Constant)
        ):
            entries.append(node.value)
    return entries


def _emptied_dict(loop, name: str, line: int) -> bool:
    """The loop body's last binding of `name` before `line` is an empty dict (`{}` or `dict()`)."""
    value = _assignment_in(loop, name, line)
    if isinstance(value, ast.Dict):
        return not value.keys
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "dict"
        and not value.args
        and not value.keywords
    )


def _unconditional_nodes(body: list[ast.stmt]):
    """The statements a loop body runs on every iteration: its own, not those under an `if`, a `try`, a
    `with` or a nested loop or def."""
    return [stmt for stmt in body if not isinstance(stmt, (*_NESTED, ast.If, ast.Try, ast.With))]


def _made_by_helper(arg: ast.AST, loop, line: int, index: ModuleIndex) -> bool:
    """The predicted input is what a def of the module returns, bound in the loop (`image, label =
    perturbed_image(eps, idx)`, or the call itself), and that def returns a batch of one, made in its own
    body or by a def it calls in turn (`image = preprocess_image(image, shape)` whose body ends `image =
    np.expand_dims(image, axis=0); return image`): two calls deep. tf-fix32: reading 24's tremblerz
    predicts, for every test index, an image whose batch axis `preprocess_image` adds two calls down."""
    if isinstance(arg, ast.Call):
        return _returns_one_sample(arg, None, index, 2)
    if not isinstance(arg, ast.Name):
        return False
    bound = _bound_call_in(loop, arg.id, line)
    return bound is not None and _returns_one_sample(*bound, index, 2)


def _made_by_call(arg: ast.AST, loop, line: int, returns_one_sample) -> bool:
    """The predicted input is a call, or a name the loop binds to a call before `line`, for which
    `returns_one_sample(call, place)` holds (`place`: the name's position in a tuple target, else None)."""
    if isinstance(arg, ast.Call):
        return returns_one_sample(arg, None)
    if not isinstance(arg, ast.Name):
        return False
    bound = _bound_call_in(loop, arg.id, line)
    return bound is not None and returns_one_sample(*bound)


def predicts_on_calls_elsewhere(index: ModuleIndex, returns_one_sample):
    """PP301's loop findings, at the level PP301 gives them, on inputs that only `returns_one_sample(call,
    place)` shows to be a batch of one: a call of a def of another module of the project that returns one
    (tf-fix50: reading 33's OCR evaluation predicts `TextImageGenerator.prepara_immagine(img, ...)` of another
    module, which ends `np.expand_dims(img, axis=0)`). Predicts the module's own judgement reports are left
    out. (The callback was `made` until review25 item 16; it says what it decides now.)"""
    receivers = _model_receivers(index)
    for site in index.calls:
        call = site.node
        if not site.loops or not isinstance(call.func, ast.Attribute) or call.func.attr not in _PREDICT:
            continue
        receiver, arg = _model_receiver(call, *receivers), _predicted(call)
        if receiver is None or arg is None:
            continue
        if _one_sample_per_iteration(site, arg, index, first_row=True) is not None:
            continue
        judged = _one_sample_per_iteration(site, arg, index, returns_one_sample=returns_one_sample)
        if judged is not None:
            yield _loop_predict_finding(call, receiver, *judged)


def def_returns_one_sample(function, place: int | None, index: ModuleIndex) -> bool:
    """The def (of the module `index` indexes) returns a batch of one, at `place` of a returned tuple, on
    every `return` of its own body, as `_returns_one_sample` reads a module def (two calls deep)."""
    return _function_returns_one_sample(function, place, index, 2)


def _bound_call_in(loop, name: str, before_line: int) -> tuple[ast.Call, int | None] | None:
    """The call the loop's last assignment of `name` before `line` binds it to, with the name's place in a
    tuple target (`a, b = f(x)` -> (f(x), 1) for `b`); None when that assignment binds no call."""
    found, at = None, 0
    for node in _own_nodes(getattr(loop, "body", [])):
        if not isinstance(node, ast.Assign) or not at < node.lineno < before_line or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if isinstance(target, ast.Name) and target.id == name:
            found, at = (node.value, None), node.lineno
        elif isinstance(target, ast.Tuple):
            places = [i for i, e in enumerate(target.elts) if isinstance(e, ast.Name) and e.id == name]
            if places:
                found, at = (node.value, places[0]), node.lineno
    if found is None or not isinstance(found[0], ast.Call):
        return None
    return found


def _returns_one_sample(call: ast.Call, place: int | None, index: ModuleIndex, depth: int) -> bool:
    """The module def `call` runs returns a batch of one (at `place` of a returned tuple) on every
    `return` of its own body, as written, as bound earlier in its body, or as the result of another module
    def it calls (`depth` levels)."""
    if depth <= 0 or not isinstance(call.func, ast.Name):
        return False
    return _function_returns_one_sample(index.module_functions.get(call.func.id), place, index, depth)


def _function_returns_one_sample(function, place: int | None, index: ModuleIndex, depth: int) -> bool:
    """`_returns_one_sample` of the def itself."""
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    returns = [n for n in _own_nodes(function.body) if isinstance(n, ast.Return) and n.value is not None]
    if not returns:
        return False
    for ret in returns:
        value = ret.value
        if place is not None:
            if not (isinstance(value, ast.Tuple) and len(value.elts) > place):
                return False
            value = value.elts[place]
        if _one_sample_in(value, function, ret.lineno, index):
            continue
        if isinstance(value, ast.Name):
            bound = _bound_call_in(function, value.id, ret.lineno)
            if bound is not None and _returns_one_sample(*bound, index, depth - 1):
                continue
        elif isinstance(value, ast.Call) and _returns_one_sample(value, None, index, depth - 1):
            continue
        return False
    return True


def _constant(node: ast.AST) -> bool:
    """A number or arithmetic on numbers (`2.0 / 255.0`)."""
    if isinstance(node, ast.BinOp):
        return _constant(node.left) and _constant(node.right)
    return isinstance(node, ast.Constant) and isinstance(node.value, int | float)


_STACKERS = frozenset({"numpy.array", "numpy.asarray", "numpy.stack", "numpy.concatenate", "numpy.vstack"})


def _stacked_single_append(value: ast.AST, loop, line: int, index: ModuleIndex) -> bool:
    """`np.array(xs)` where the loop body (not a loop nested in it) binds `xs = []` and appends to it once
    before `line`: one sample per iteration (XiaoyuHuang96's COCO evaluation)."""
    if not (
        isinstance(value, ast.Call)
        and index.resolver.call_name(value) in _STACKERS
        and value.args
        and isinstance(value.args[0], ast.Name)
    ):
        return False
    name = value.args[0].id
    emptied = appends = 0
    for node in _own_nodes(getattr(loop, "body", [])):
        if getattr(node, "lineno", line) >= line:
            continue
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
            and isinstance(node.value, ast.List)
            and not node.value.elts
        ):
            emptied += 1
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == name
            and node.func.attr in ("append", "extend", "insert")
        ):
            appends += 1 if node.func.attr == "append" else 2
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            appends += 2
    return emptied == 1 and appends == 1


_NESTED = (
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    *COMPREHENSION_TYPES,
)


def _own_nodes(body: list[ast.stmt]):
    """The nodes of a loop body, not descending into loops, comprehensions or functions nested in it."""
    stack = [stmt for stmt in body if not isinstance(stmt, _NESTED)]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, _NESTED):
                stack.append(child)


def check_predict_per_sample(index: ModuleIndex):
    if not index.resolver.uses_tensorflow:
        return
    yield from predicts_per_sample(index)


def predicts_per_sample(index: ModuleIndex):
    """PP301's findings in the module, whatever it imports (the project pass, checker/project.py, asks it of
    a module that imports no TensorFlow but gets its model from one that does)."""
    yield from _predicts_in_loops(index)
    yield from _predictors_called_in_loops(index)
    yield from _session_runs_in_loops(index)
    yield from _saved_model_predictors_in_loops(index)


def _predicts_in_loops(index: ModuleIndex):
    receivers = _model_receivers(index)
    repeated = []  # predicts outside any loop of their def, which may run once per input
    repeats = []  # predicts in a loop of their def that gives them the same input every time
    for site in index.calls:
        call = site.node
        if not isinstance(call.func, ast.Attribute) or call.func.attr not in _PREDICT:
            continue
        receiver = _model_receiver(call, *receivers)
        arg = _predicted(call)
        if receiver is None or arg is None:
            continue
        if not site.loops:
            repeated.append((site, receiver, arg))
            continue
        judged = _one_sample_per_iteration(site, arg, index, first_row=True)
        if judged is not None:
            yield _loop_predict_finding(call, receiver, *judged)
        elif _same_input_repeated(site, arg):
            repeats.append((site, receiver, arg))
    index._predictors = _predictors(repeated, index, repeats)  # (read by per_sample_predictors)
    yield from _predicts_per_call(repeated, index)


# `tf.contrib.predictor`'s factories: each returns a callable that runs the exported model on a dict of
# batched inputs (`predictor({"inputs": examples})`)
_SAVED_MODEL_PREDICTORS = frozenset(
    f"tensorflow.contrib.predictor.{name}"
    for name in ("from_saved_model", "from_estimator", "from_contrib_estimator")
)


def _saved_model_predictors_in_loops(index: ModuleIndex):
    """PP301 (low) where a loop calls a `tf.contrib.predictor` predictor on a dict whose every input is a list
    of one item the iteration makes (`predictor({"inputs": [model_input]})` with `model_input` a serialized
    Example built from the row just read): each row runs the exported model alone, though the predictor
    takes a list of examples (tf-fix50: reading 33's Wide & Deep CSV scorer). Loops PP301 leaves alone
    (`while`, one that runs once, a user asked) are left alone; a first read, so `low`."""
    names = {
        target.id
        for node in index.call_assignments
        if index.resolver.call_name(node.value) in _SAVED_MODEL_PREDICTORS
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for site in index.calls if names else ():
        call = site.node
        if not (site.loops and isinstance(call.func, ast.Name) and call.func.id in names):
            continue
        if len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.Dict):
            continue
        loop = site.loops[-1]
        if isinstance(loop, ast.While) or (len(site.loops) == 1 and runs_once(loop)) or _asks_user(loop):
            continue
        targets = set().union(*(loop_targets(lp) for lp in site.loops))
        fresh = targets | _fresh_names(loop, targets)
        values = call.args[0].values
        if values and None not in call.args[0].keys and all(_fresh_list_of_one(v, fresh) for v in values):
            yield RawFinding(
                "PP301",
                call.lineno,
                call.col_offset,
                f"`{call.func.id}` runs the exported model on one example per iteration of the loop at line "
                f"{loop.lineno}; collect the examples and call it once on the list",
                confidence="low",
            )


def _fresh_list_of_one(value: ast.AST, fresh: set[str]) -> bool:
    """`[x]` whose one item is no list, tuple or starred item and names something the iteration makes."""
    return (
        isinstance(value, ast.List)
        and len(value.elts) == 1
        and not isinstance(value.elts[0], ast.List | ast.Tuple | ast.Starred)
        and bool(names_in(value.elts[0]) & fresh)
    )


def _loop_predict_finding(
    call: ast.Call, receiver: str, loop, shown: bool, confidence: str | None
) -> RawFinding:
    return RawFinding(
        "PP301",
        call.lineno,
        call.col_offset,
        f"`{receiver}.{call.func.attr}` is called on one sample per iteration of the loop at line "
        f"{loop.lineno}{'' if shown else ' (only the first row of each prediction is kept)'}; stack "
        "the samples and predict once on the batch",
        confidence=confidence,
    )


def _per_index(index: ModuleIndex, slot: str, compute):
    """`compute(index)`, worked out once per module and kept on its index under `slot` (`_model_builders`,
    `_model_owners`): the project passes ask again for each module importing it. The one place that reads
    and sets these slots, which ModuleIndex does not declare (review27 item 26)."""
    value = getattr(index, slot, None)
    if value is None:
        value = compute(index)
        setattr(index, slot, value)
    return value


def keras_model_builders(index: ModuleIndex) -> frozenset[str]:
    """Names of the module's top-level defs that build a Keras model and return it (`model =
    Model(inputs, outputs)` ... `return model`, on every `return`) and of its classes that subclass Keras'
    `Model`: what another module of the project binds a Keras model from (tf-fix36)."""
    return _per_index(index, "_model_builders", _model_builders)


def _model_builders(index: ModuleIndex) -> frozenset[str]:
    found = set()
    for name, function in index.module_functions.items():
        returns = [n for n in _own_nodes(function.body) if isinstance(n, ast.Return) and n.value is not None]
        if returns and all(_returns_built_model(ret, function, index) for ret in returns):
            found.add(name)
    for stmt in index.tree.body:
        if isinstance(stmt, ast.ClassDef) and any(
            index.resolver.qualname(base) in _MODEL_BUILDERS for base in stmt.bases
        ):
            found.add(stmt.name)
    return frozenset(found)


def keras_model_owners(index: ModuleIndex) -> frozenset[str]:
    """Names of the module's top-level classes whose constructor builds a Keras model and keeps it on the
    instance (`model = Sequential()` ... `self.model = model` in `__init__`, or `self.model =
    Model(inputs, outputs)`): each instance holds a new model, as each call of a def returning one does
    (tf-fix52: reading 36's `Architecture(...)` made and trained per experiment of a grid search)."""
    return _per_index(index, "_model_owners", _model_owners)


def _model_owners(index: ModuleIndex) -> frozenset[str]:
    found = set()
    for stmt in index.tree.body:
        if not isinstance(stmt, ast.ClassDef):
            continue
        init = index.class_methods.get(stmt.name, {}).get("__init__")
        if init is not None and _keeps_built_model(init, index):
            found.add(stmt.name)
    return frozenset(found)


def _keeps_built_model(init, index: ModuleIndex) -> bool:
    """`init` binds `self.attr` to a Keras model it builds itself (a `Sequential`/`Model` call, as written or
    through a name it bound to one)."""
    built: set[str] = set()
    kept: list[ast.AST] = []
    for node in _own_nodes(init.body):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        builds = isinstance(node.value, ast.Call) and index.resolver.call_name(node.value) in _MODEL_BUILDERS
        if isinstance(target, ast.Name) and builds:
            built.add(target.id)
        elif isinstance(target, ast.Attribute) and getattr(target.value, "id", None) == "self":
            kept.append(node.value)
    return any(
        (isinstance(v, ast.Call) and index.resolver.call_name(v) in _MODEL_BUILDERS)
        or (isinstance(v, ast.Name) and v.id in built)
        for v in kept
    )


def _returns_built_model(ret: ast.Return, function, index: ModuleIndex) -> bool:
    value = ret.value
    if isinstance(value, ast.Name):
        bound = _bound_call_in(function, value.id, ret.lineno)
        value = bound[0] if bound is not None and bound[1] is None else value
    return isinstance(value, ast.Call) and index.resolver.call_name(value) in _MODEL_BUILDERS


def predicts_on_models(index: ModuleIndex, builders: set[str]):
    """PP301's loop findings, at the level PP301 gives them in a TensorFlow module, on a model the module
    binds only from calls of `builders` (defs and classes of other modules of the project that build a Keras
    model, imported by these names): the project pass asks it of a module that imports neither TensorFlow
    nor Keras (tf-fix36: see--'s `model = HourglassNetwork(...)` in scripts that import only the project)."""
    models = {
        name
        for name, values in index.name_values.items()
        if values
        and all(
            isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in builders for v in values
        )
    }
    for site in index.calls:
        call = site.node
        if not site.loops or not isinstance(call.func, ast.Attribute) or call.func.attr not in _PREDICT:
            continue
        receiver, arg = receiver_name(call), _predicted(call)
        if receiver in models and arg is not None:
            judged = _one_sample_per_iteration(site, arg, index, first_row=True)
            if judged is not None:
                yield _loop_predict_finding(call, receiver, *judged)


def _one_sample_per_iteration(
    site, arg: ast.AST, index: ModuleIndex, first_row: bool = False, returns_one_sample=None
):
    """(loop, shown, confidence) when the call at `site` is given one sample (`arg`) per iteration of its
    innermost loop, else None. `shown`: the batch of one is in the code (else only the first row of each
    prediction is kept, with `first_row`), or, with `returns_one_sample(call, place)`, made by a call that
    it says returns a batch of one (a def of another module, the project pass's). Silent for serving loops
    (`while`), loops cut short by `break`, an input fed back from earlier results, a person typing each
    sample, or inputs resized per iteration."""
    call = site.node
    loop = site.loops[-1]
    if isinstance(loop, ast.While):
        return None  # serving loops answer one request at a time on purpose
    if all(runs_once(lp) for lp in site.loops):
        return None  # the loops end in `break`: one predict call (a folder loop cut short, reading 14)
    targets = set().union(*(loop_targets(lp) for lp in site.loops))
    # a pseudo-batch of one filled item by item (tf-fix44): a new shape with 2 first reads, `medium`
    filled = _filled_batch_of_one(arg, loop, call.lineno, site.function or index.tree, targets, index)
    if (not filled and _fed_back(site, arg, index)) or _beams_of_an_outer_loop(site):
        return None  # the input depends on earlier predictions (decoding, an agent's next state)
    whole = arg
    if isinstance(arg, ast.Name):
        arg = _assignment_in(loop, arg.id, call.lineno) or arg
    if _asks_user(loop):
        return None  # each iteration waits for a person to type the sample (`input(...)`): one at a time
    if _resized_per_iteration(arg, loop, call.lineno, targets, index):
        return None  # an image pyramid: each scale has its own shape, so the inputs cannot be stacked
    replay = _replayed_transition(arg, loop, index)
    shown = (
        replay
        or _is_one_sample(arg, index, targets)
        or _one_sample_input(whole, loop, call.lineno, index, targets)
        or _made_by_helper(whole, loop, call.lineno, index)
        or (returns_one_sample is not None and _made_by_call(whole, loop, call.lineno, returns_one_sample))
    )
    filled = filled and not shown
    listed = not shown and not filled and _inputs_listed_one_each(whole, loop, call.lineno, index, targets)
    shown = shown or filled or listed
    if not shown and not (first_row and _first_row_kept(call, loop, arg, targets)):
        return None
    # a stateful RNN is fed one step at a time on purpose (priming its state): read debatable
    # a demo of <= 10 literal samples predicts one at a time on purpose: read wrong
    # a loop over a few samples (`ds.take(15)`, a short list of files) or one that plots each
    # prediction shows single predictions on purpose: 15 of 17 such loops read wrong (reading 4)
    # every such shape was right 2 times in 39 at medium over readings 1-8: low
    # a DQN replay predicting each stored transition of a minibatch of 32-64: right 6 of 6 in
    # one book's agents (reading 15), a shape not read elsewhere yet: medium
    # the rest (`high`): as first read over readings 15-22, 171 right of 187 (tf-fix30: reading
    # 22 adds one wrong, five spot-check images over `range(nb_images)` whose default is 5);
    # 171 of 180 for the shapes still reported so; tf-fix31, with reading 23: 172 of 188 as
    # read, 172 of 181 (95%) for the shapes reported so (carlesoctav's face database, right)
    confidence = (
        "medium"
        if replay
        else "low"
        if not shown
        or _stateful(index)
        or few_iterations(loop, 10)
        or _sample_loop(loop, index)
        or _few_by_default(loop, site.function, index)
        or _over_detections(loop, index)
        or _builds_gradients(loop, index)
        or _native_sizes(arg, loop, call.lineno, site.function)
        else "low"
        if _demoted_from_high(loop, site.function, index)
        else None
    )
    if filled and confidence is None:
        confidence = FILLED_BATCH_LEVEL
    if listed and confidence is None:
        confidence = LISTED_INPUTS_LEVEL
    if confidence is None and _only_item_reshaped(arg):
        confidence = ITEM_RESHAPE_LEVEL
    return loop, shown, confidence


# PP301's level for `xs[i].reshape(-1, h, w, c)` (tf-fix54): a new shape with one first read (reading 37's
# convolutional autoencoder, right at `low`); `xs` may hold batches, not samples, which the sizes do not tell
ITEM_RESHAPE_LEVEL = "medium"


def _only_item_reshaped(arg: ast.AST) -> bool:
    """The input is a batch of one only by `_item_to_batch` (`xs[i].reshape(-1, ...)`), not by a leading 1."""
    if not (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "reshape"):
        return False
    if isinstance(arg.func.value, ast.Subscript):
        shape = arg.args[0] if len(arg.args) == 1 else ast.Tuple(elts=arg.args)
        return bool(arg.args) and not _leading_one(shape)
    return len(arg.args) > 1 and isinstance(arg.args[0], ast.Subscript) and not _leading_one(arg.args[1])


# calls that set an image's size (a fixed-size input stacks into a batch): resize, crop, reshape, pad
_SIZE_SETTERS = ("resize", "crop", "reshape", "pad", "thumbnail", "center_crop", "random_crop")


def _native_sizes(arg: ast.AST, loop, line: int, function) -> bool:
    """The image predicted one at a time keeps its own size, so the images cannot be stacked into a batch
    without padding (a fully convolutional super-resolution or detection model, any input size): nothing on
    its path in the loop resizes, crops or reshapes it, and either the loop resizes a companion image to the
    size it reads off an item before predicting (`hr_shape = (imgs_hr[i].shape[1], imgs_hr[i].shape[0])`,
    then `pil_img.resize(hr_shape)`: a bicubic baseline), or the images come from a list the def fills with
    files opened at their own size (`imgs.append(np.array(Image.open(path)))`, no resize). Reading 28 read
    eight such `high` findings debatable (one lineage of super-resolution test helpers), as reading 10 read
    EAST's per-image predict on images resized to their own multiple of 32."""
    path = _data_path(arg, loop, line)
    if any(_sets_size(node) for expr in path for node in ast.walk(expr)):
        return False
    return (
        _resizes_to_an_items_size(loop, line)
        or _from_opened_files(path, function, loop)
        or (_opened_in_loop(path) and _any_size_input(function))
    )


def _opened_in_loop(path: list[ast.AST]) -> bool:
    """The predicted image is a file the loop opens (`cv2.imread(p)`, `Image.open(p)`, `load_img(p)` without
    `target_size`), on the path `_data_path` gives, which already holds no resize."""
    return any(
        isinstance(node, ast.Call)
        and _IMAGE_OPENS.search(ast.unparse(node.func))
        and not any(k.arg == "target_size" for k in node.keywords)
        for expr in path
        for node in ast.walk(expr)
    )


def _any_size_input(function) -> bool:
    """The def holding the loop builds a Keras input of any height and width (`Input((None, None, c))`,
    `Input(shape=[None, None, 3])`): a fully convolutional model rebuilt to take each image at its own size
    (tf-fix45: reading 16 read CycleGAN's `generate.py`, which translates a folder's images so, wrong at
    `high`: they cannot be stacked, and each full-size image is a heavy step anyway)."""
    for node in ast.walk(function) if function is not None else ():
        if not (isinstance(node, ast.Call) and _callee_name(node) == "Input"):
            continue
        shape = next(
            (k.value for k in node.keywords if k.arg == "shape"), node.args[0] if node.args else None
        )
        dims = shape.elts if isinstance(shape, ast.Tuple | ast.List) else []
        if len(dims) >= 3 and all(isinstance(d, ast.Constant) and d.value is None for d in dims[:2]):
            return True
    return False


def _sets_size(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _callee_name(node).lower().startswith(_SIZE_SETTERS)


def _data_path(arg: ast.AST, loop, line: int) -> list[ast.AST]:
    """`arg` and the values the loop binds, before `line`, to the names it is built from (3 levels)."""
    path, pending, seen = [arg], [arg], set()
    for _ in range(3):
        names = {n.id for expr in pending for n in ast.walk(expr) if isinstance(n, ast.Name)} - seen
        seen |= names
        pending = [value for name in names for value in _assignments_in(loop, name, line)]
        path += pending
    return path


def _assignments_in(loop, name: str, before_line: int) -> list[ast.AST]:
    """Every value the loop binds to `name` before a line (`img = Image.open(p)`, then `img = img.convert(m)`)."""
    return [
        value
        for stmt in getattr(loop, "body", [])
        for node in ast.walk(stmt)
        if isinstance(node, ast.Assign)
        and node.lineno < before_line
        and (value := value_bound_to(node, name)) is not None
    ]


def _item_size(expr: ast.AST) -> bool:
    """`img.shape[1]`, `test_hr.shape`, `pil.size`: the size read off an image."""
    return any(isinstance(n, ast.Attribute) and n.attr in ("shape", "size") for n in ast.walk(expr))


def _resizes_to_an_items_size(loop, line: int) -> bool:
    """Before `line`, the loop resizes an image to a size read off an item (`hr_shape = (hr.shape[1],
    hr.shape[0])`, then `img.resize(hr_shape)`): the items have their own sizes."""
    sizes = {
        name
        for node in ast.walk(loop)
        if isinstance(node, ast.Assign) and node.lineno < line and _item_size(node.value)
        for name in assigned_names(node.targets)
    }
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.Call)
            and node.lineno < line
            and _callee_name(node).lower().startswith("resize")
        ):
            given = [*node.args, *(k.value for k in node.keywords if k.arg in ("size", "dsize"))]
            if any(names_in(a) & sizes or _item_size(a) for a in given):
                return True
    return False


_IMAGE_OPENS = re.compile(r"(?:Image\.open|imread|load_img)$")


def _from_opened_files(path: list[ast.AST], function, loop) -> bool:
    """The predicted image indexes (or is an item of) a list that `function` fills, in another loop, with
    images opened from files at their own size (`imgs.append(np.array(img))` after `img = Image.open(p)`)
    and not resized there."""
    lists = {
        n.value.id
        for expr in path
        for n in ast.walk(expr)
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
    }
    it = getattr(loop, "iter", None)
    if isinstance(it, ast.Name):
        lists.add(it.id)
    if not lists or function is None:
        return False
    for other in ast.walk(function):
        if other is loop or not isinstance(other, (ast.For, ast.While)):
            continue
        for node in ast.walk(other):
            if (
                isinstance(node, ast.Call)
                and _callee_name(node) == "append"
                and isinstance(node.func, ast.Attribute)
                and getattr(node.func.value, "id", None) in lists
                and node.args
            ):
                filled = _data_path(node.args[0], other, node.lineno)
                calls = [c for expr in filled for c in ast.walk(expr) if isinstance(c, ast.Call)]
                opened = any(
                    _IMAGE_OPENS.search(ast.unparse(c.func))
                    and not any(k.arg == "target_size" for k in c.keywords)
                    for c in calls
                )
                if opened and not any(_sets_size(c) for c in calls):
                    return True
    return False


def _beams_of_an_outer_loop(site) -> bool:
    """The innermost loop walks a collection its enclosing loop rebuilds from what this loop made (`for seq,
    score in sequences:` ... `all_candidates.append(...)`, then `sequences = sorted(all_candidates)[:k]`):
    the candidates of a beam search, each step fed by the last one's predictions (tf-fix38: reading 25's
    captioning notebook)."""
    if len(site.loops) < 2:
        return False
    inner, outer = site.loops[-1], site.loops[-2]
    iterable = getattr(inner, "iter", None)
    if not isinstance(iterable, ast.Name):
        return False
    made = set()  # names the inner loop binds or grows
    for node in ast.walk(inner):
        if isinstance(node, ast.Assign | ast.AugAssign):
            made |= assigned_names(node.targets if isinstance(node, ast.Assign) else [node.target])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "extend")
            and isinstance(node.func.value, ast.Name)
        ):
            made.add(node.func.value.id)
    for stmt in getattr(outer, "body", []):
        if stmt is inner or not isinstance(stmt, ast.Assign):
            continue
        if names_in(stmt.value) & made:
            made |= assigned_names(stmt.targets)
    return iterable.id in made


def _fed_back(site, arg: ast.AST, index: ModuleIndex) -> bool:
    """The input given at `site` depends on what earlier iterations of its innermost loop computed
    (`feeds_back`), read through the loop's last binding of a name."""
    loop = site.loops[-1]
    targets = set().union(*(loop_targets(lp) for lp in site.loops))
    if isinstance(arg, ast.Name):
        arg = _assignment_in(loop, arg.id, site.node.lineno) or arg
    return feeds_back(loop, arg, targets | _fresh_names(loop, targets), site.node.lineno, index)


def _feeds_own_output(site, values: list[ast.AST]) -> bool:
    """A fed value reads what this very run returned in an earlier iteration, as written or through one
    binding in the loop (`prev_state = last_state` ... `last_out, last_state = sess.run(..., {s: prev_state})`:
    a recurrent state carried from frame to frame)."""
    loop = site.loops[-1]
    outputs: set[str] = set()
    for node in _own_nodes(getattr(loop, "body", [])):
        if isinstance(node, ast.Assign) and node.value is site.node:
            outputs |= assigned_names(node.targets)
    if not outputs:
        return False
    for value in values:
        read = names_in(value)
        for name in list(read):
            bound = _assignment_in(loop, name, site.node.lineno)
            if bound is not None:
                read |= names_in(bound)
        if read & outputs:
            return True
    return False


def _session_runs_in_loops(index: ModuleIndex):
    """PP301 on a TF1 session run fed one sample per iteration of a loop over known samples
    (`sess.run(prob, feed_dict={x: np.expand_dims(img, 0)})` for every patch image of a folder): the same
    per-sample prediction as a Keras `predict` on a batch of one, judged as that one is. Silent when the
    loop trains (some session run in it fetches a train op: per-sample SGD is another matter) and when no
    fed value is a batch of one (a batch slice, a whole array). tf-fix36, reading 26's patch-by-patch
    evaluation scripts."""
    for site in index.calls:
        call = site.node
        if not site.loops or not is_session_run(call, index):
            continue
        feed = _fed(call)
        if feed is None or _trains_on_its_samples(site, index):
            continue
        values = [v for v in feed.values if v is not None and not isinstance(v, ast.Constant)]
        if _feeds_own_output(site, values) or any(_fed_back(site, value, index) for value in values):
            continue  # a recurrent state or the last output fed in again (video inpainting, decoding)
        for value in values:
            judged = _one_sample_per_iteration(site, _listed_sample(value), index)
            if judged is None:
                continue
            loop, _, confidence = judged
            yield RawFinding(
                "PP301",
                call.lineno,
                call.col_offset,
                f"`{receiver_name(call) or call.func.attr}.{call.func.attr}` is fed one sample per "
                f"iteration of the loop at line {loop.lineno}; stack the samples and run the graph once on "
                "the batch (or in a few large batches)",
                confidence=confidence,
            )
            break


def _listed_sample(value: ast.AST) -> ast.AST:
    """A feed value that is a list literal of one array expression (`{self.input: [x[i*s:(i+1)*s,
    j*s:(j+1)*s]]}`), read as that expression with a batch axis put in front (`x[...][None]`), which is what
    the session makes of it: a batch of one (tf-fix52: reading 36's EDSR tiles an image and runs each tile
    so). A list of one constant, of a list or of a starred item is left as written. Only for session feeds:
    a Keras `predict([x])` reads the list as the model's inputs, not as a batch."""
    if not (isinstance(value, ast.List) and len(value.elts) == 1):
        return value
    item = value.elts[0]
    if not isinstance(item, ast.Name | ast.Subscript | ast.Attribute | ast.Call):
        return value
    return ast.copy_location(ast.Subscript(value=item, slice=ast.Constant(None), ctx=ast.Load()), value)


def _trains_on_its_samples(site, index: ModuleIndex) -> bool:
    """The loop that feeds the run one sample per iteration trains (per-sample SGD), or a training run in a
    loop around it reads what that loop binds (an agent's rollout collected, then trained on). A training
    run that binds the name afresh before it, every iteration of its own loop (`x_raw = train[j:j+b]` before
    `sess.run(train_op, {x: x_raw})`), reads its own batch, not the samples (tf-fix44: reading 31's parameter
    studies test each configuration sample by sample after training it on batches under the same name)."""
    inner = site.loops[-1]
    if runs_training_step(inner, index):
        return True
    bound = loop_targets(inner) | _changed_in(inner)
    for other in index.calls:
        loops = other.loops
        if inner in loops or not loops or not any(lp in loops for lp in site.loops[:-1]):
            continue
        if not runs_training_step(other.node, index):
            continue
        own = loops[-1]
        # a binding before the run in its own loop, after the sample loop when that loop is inside it
        start = inner.end_lineno if any(node is inner for node in ast.walk(own)) else 0
        fresh = {
            name
            for node in _own_nodes(getattr(own, "body", []))
            if isinstance(node, ast.Assign) and start < node.lineno < other.node.lineno
            for name in assigned_names(node.targets)
        } | loop_targets(own)
        if (names_in(other.node) & bound) - fresh:
            return True
    return False


def _changed_in(loop) -> set[str]:
    """The names a loop binds or changes in place (`s = ...`, `states.append(s)`, `batch[i] = s`)."""
    changed = set()
    for node in ast.walk(loop):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                while isinstance(target, ast.Subscript | ast.Attribute):
                    target = target.value
                changed |= assigned_names([target])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "extend", "insert")
            and isinstance(node.func.value, ast.Name)
        ):
            changed.add(node.func.value.id)
    return changed


def _fed(call: ast.Call) -> ast.Dict | None:
    """The feed dict literal of `sess.run(fetches, feed_dict={...})` (or its second argument, or
    `tensor.eval(feed_dict={...})`, or `tensor.eval({...})`), else None."""
    feed = next((k.value for k in call.keywords if k.arg == "feed_dict"), None)
    if (
        feed is None
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "run"
        and len(call.args) > 1
    ):
        feed = call.args[1]
    if feed is None:
        feed = eval_feed(call)
    return feed if isinstance(feed, ast.Dict) else None


@dataclass(frozen=True)
class Predictor:
    """A def (a module function or a method of a module class) that predicts one sample on every call,
    outside any loop of its own: it `makes` the batch of one itself from what it is given (`x =
    np.expand_dims(load(path), 0)`), or predicts its parameter at `position` (after `self`) as given, a
    batch of one when the caller makes it so. `line` is the predict's, `call` how the code writes it.
    `listed`: the def predicts `[parameter]`, the input list of a one-input model (tf-fix50: digengill's
    `my_predict(self, img, ...)` predicts `[img]`), so a caller's list of one sample (`my_predict([img])`)
    reaches the model as a batch of one."""

    name: str
    owner: str | None
    line: int
    call: str
    makes: bool
    position: int
    listed: bool = False


def per_sample_predictors(index: ModuleIndex, any_module: bool = False) -> dict[int, Predictor]:
    """id(def) -> Predictor for the module's defs that predict one sample per call (tf-fix30: the project
    pass, checker/project.py, finds their calls in other modules' loops). With `any_module`, also in a module
    that imports no TensorFlow (its model comes from a module of the project that does, tf-fix31)."""
    if getattr(index, "_predictors", None) is None:
        index._predictors = {}
        if index.resolver.uses_tensorflow or any_module:
            for _ in _predicts_in_loops(index):
                pass
    return index._predictors


def _predictors(repeated, index: ModuleIndex, repeats=()) -> dict[int, Predictor]:
    """A def that also predicts in a loop of its own is none: the one-sample call starts a decoder run
    step by step (Tacotron's `_predict` encodes one phrase, then decodes it frame by frame), which batching
    the calls of the def would not remove. A def whose looped predicts all get the same input each time
    (`repeats`: CEAL's MC-dropout `compute_uncertain` predicts its `sample` 20 times) decodes nothing: it is
    a predictor of what it is given, as one predicting once is (tf-fix50)."""
    found: dict[int, Predictor] = {}
    same = {id(site.node) for site, _, _ in repeats}
    decoding = {
        id(site.function)
        for site in index.calls
        if site.loops
        and isinstance(site.node.func, ast.Attribute)
        and site.node.func.attr in _PREDICT
        and id(site.node) not in same
    }
    for site, receiver, arg in [*repeated, *repeats]:
        function = site.function
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or id(function) in found:
            continue
        if id(function) in decoding:
            continue
        owner = index.function_class.get(id(function))
        if index.module_functions.get(function.name) is not function and (
            owner is None or index.class_methods.get(owner, {}).get(function.name) is not function
        ):
            continue  # a def nested in another: no other module can call it
        line, call = site.node.lineno, f"{receiver}.{site.node.func.attr}"
        if _one_sample_in(arg, function, line, index) or _made_by_helper(arg, function, line, index):
            found[id(function)] = Predictor(function.name, owner, line, call, True, -1)
        elif (position := _predicted_parameter(arg, function, line, owner is not None)) is not None:
            found[id(function)] = Predictor(function.name, owner, line, call, False, position)
        elif (listed := _listed_parameter(arg, function, line, owner is not None)) is not None:
            found[id(function)] = Predictor(function.name, owner, line, call, False, listed, listed=True)
    return found


def _listed_parameter(arg: ast.AST, function, line: int, method: bool) -> int | None:
    """The position of the parameter a predict gets as the one item of its input list (`predict([img])`)."""
    if not (isinstance(arg, ast.List) and len(arg.elts) == 1 and not isinstance(arg.elts[0], ast.Starred)):
        return None
    return _predicted_parameter(arg.elts[0], function, line, method)


def _same_input_repeated(site, arg: ast.AST) -> bool:
    """A predict in `for` loops of its def, each a counted `range(...)`, whose input names nothing any of
    them binds or changes: the same input predicted again and again (Monte Carlo dropout's repeated passes,
    CEAL's `for t in range(nb_step_predictions): model.predict(sample)`)."""
    if site.function is None or not all(
        isinstance(loop, ast.For) and is_range_call(loop.iter) for loop in site.loops
    ):
        return False
    used = names_in(arg)
    return bool(used) and not any(used & (loop_targets(loop) | _changed_in(loop)) for loop in site.loops)


def _predicted_parameter(arg: ast.AST, function, line: int, method: bool) -> int | None:
    """The position (after `self` for a method) of the positional parameter a predict gets as it was given,
    or through calls and scaling that keep its batch axis (`x = preprocess_input(data)`); None otherwise."""
    for _ in range(3):
        while isinstance(arg, ast.BinOp) and _constant(arg.right):
            arg = arg.left
        if (kept := _batch_kept(arg)) is not None:
            arg = kept
        if not isinstance(arg, ast.Name):
            return None
        value = _assignment_in(function, arg.id, line)
        if value is None:
            break
        arg, line = value, value.lineno
    params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)][1 if method else 0 :]
    return params.index(arg.id) if isinstance(arg, ast.Name) and arg.id in params else None


def _predictors_called_in_loops(index: ModuleIndex):
    """PP301 (low) where a loop calls, once per iteration, a def of this module that predicts one sample per
    call (`features = model.extract(image)` with `def extract(self, path): x = np.expand_dims(...);
    return self.model.predict(x)`). Calls of another module's such defs are the project pass's
    (checker/project.py)."""
    predictors = per_sample_predictors(index)
    if not predictors:
        return
    for site in index.calls:
        if not site.loops:
            continue
        function = index.helper_of(site.node, site.function) or instance_method(
            site.node, index, site.function
        )
        if function is None:
            function = _submitted_and_awaited(site.node, site.loops[-1], index)
        predictor = _predictor_through_wrapper(function, predictors, index) if function is not None else None
        if predictor is not None and function is not site.function:
            finding = predictor_call_finding(site, predictor, index)
            if finding is not None:
                yield finding


def _submitted_and_awaited(call: ast.Call, loop, index: ModuleIndex) -> ast.AST | None:
    """The module def an executor runs for `pool.submit(f, x).result()` in the loop: submitted and awaited at
    once, so it runs once per iteration as a plain call would (tf-fix34: reading 25's patch predictor)."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "submit" and call.args):
        return None
    if not isinstance(call.args[0], ast.Name):
        return None
    awaited = any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "result"
        and n.func.value is call
        for n in ast.walk(loop)
    )
    return index.module_functions.get(call.args[0].id) if awaited else None


def _predictor_through_wrapper(
    function, predictors: dict[int, Predictor], index: ModuleIndex
) -> Predictor | None:
    """The Predictor of `function`, or of the module def a one-line wrapper returns the call of (`def
    threaded_prediction(patch, label): return predict_single_patch(patch, label)`), when that def makes the
    batch of one itself (a predicted parameter's position would not carry through the wrapper)."""
    if (found := predictors.get(id(function))) is not None:
        return found
    body = getattr(function, "body", None)
    if not (isinstance(body, list) and len(body) == 1 and isinstance(body[0], ast.Return)):
        return None
    value = body[0].value
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
        return None
    inner = predictors.get(id(index.module_functions.get(value.func.id)))
    return inner if inner is not None and inner.makes else None


def instance_method(call: ast.Call, index: ModuleIndex, function=None) -> ast.AST | None:
    """The method of a class of this module that `obj.method(...)` runs, when the module binds `obj` (or
    `self.obj`) only to instances of that class (`extractor = Extractor()`); function.py's PP403 follows
    `model.train()` in a loop with it too (tf-fix52). `function` is the def holding the call (None: the
    module's code), whose parameters and own bindings `instance_class` reads first."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    owner = instance_class(func.value, index, function)
    return None if owner is None else index.class_methods.get(owner, {}).get(func.attr)


def instance_class(receiver: ast.AST, index: ModuleIndex, function=None) -> str | None:
    """The name of the class (as the module calls it: `Extractor`, `extractor.Extractor`) whose instances
    are all the module binds to the receiver, a name or `self.name` (`model = Extractor()`; `self.net =
    model` binds what `model` is bound to); None when the module binds it to instances of more than one
    class, or to no call. A `self.name` is read from its own bindings (`self_bindings`, review25 item 8):
    before, a plain `name = X()` anywhere counted for `self.name` too, whatever `self.name` was bound to.
    A plain name is read where it is used (`values_here`, as the dataset flow reads it: tf-fix53): a
    parameter of the def using it (`function`, or the def binding `self.net = model`) is the caller's
    argument, not the module's `model = Extractor()`, and a def binding the name is read alone."""
    if isinstance(receiver, ast.Name):
        calls = _calls_bound_to(receiver.id, index, function)
    elif isinstance(receiver, ast.Attribute) and getattr(receiver.value, "id", None) == "self":
        calls = []
        for node, holder in self_bindings(index, receiver.attr):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                calls.append(node.value)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
                # `model = Extractor()`, `self.net = model`: `model` as the def binding `self.net` reads it
                calls += _calls_bound_to(node.value.id, index, holder)
    else:
        return None
    made = {".".join(parts) if (parts := dotted_parts(call.func)) else None for call in calls}
    return made.pop() if len(made) == 1 else None


def _calls_bound_to(name: str, index: ModuleIndex, function=None) -> list[ast.Call]:
    """The calls `name` may hold where `function` reads it (`values_here`): none for a parameter of it."""
    return [value for value in values_here(name, index, function) or () if isinstance(value, ast.Call)]


def predictor_call_finding(
    site, predictor: Predictor, index: ModuleIndex, where: str = ""
) -> RawFinding | None:
    """PP301 (low: a shape no reading has measured) on a call, in a loop, of a def that predicts one sample
    per call: when the def makes the batch of one, the call must give it something new each iteration; when
    it predicts its parameter as given, the loop must make that argument a batch of one, as a predict in the
    loop would (reading 21's `model.predict_point_by_point(x_split)` after `x_split = np.reshape(x_split,
    (1, n, d))`). The loops PP301 leaves alone (`while` loops, one that runs once, a prediction fed back,
    a user asked, an image pyramid) are left alone. `where` names the def's file when it is another."""
    call = site.node
    loop = site.loops[-1]
    if isinstance(loop, ast.While) or (len(site.loops) == 1 and runs_once(loop)) or _asks_user(loop):
        return None
    targets = set().union(*(loop_targets(lp) for lp in site.loops))
    fresh = targets | _fresh_names(loop, targets)
    if predictor.makes:
        given = [*call.args, *(k.value for k in call.keywords)]
        if not given or not any(names_in(a) & fresh for a in given):
            return None  # the same input every iteration
        arg = ast.Tuple(elts=given, ctx=ast.Load())
    else:
        if predictor.position >= len(call.args) or isinstance(call.args[predictor.position], ast.Starred):
            return None
        whole = arg = call.args[predictor.position]
        if isinstance(arg, ast.Name):
            arg = _assignment_in(loop, arg.id, call.lineno) or arg
        if _resized_per_iteration(arg, loop, call.lineno, targets, index):
            return None
        if not (
            _is_one_sample(arg, index, targets)
            or _one_sample_input(whole, loop, call.lineno, index, targets)
            or (predictor.listed and _fresh_list_of_one(whole, fresh))
        ):
            return None
    if feeds_back(loop, arg, fresh, call.lineno, index):
        return None
    at = f"{where} line {predictor.line}" if where else f"line {predictor.line}"
    return RawFinding(
        "PP301",
        call.lineno,
        call.col_offset,
        f"`{ast.unparse(call.func)}` predicts one sample on every call (`{predictor.call}`, {at}) and runs once "
        f"per iteration of the loop at line {loop.lineno}; stack the samples and predict once on the batch",
        confidence="low",
    )


def _first_row_kept(call: ast.Call, loop, arg: ast.AST, targets: set[str]) -> bool:
    """Only the first row of the prediction is kept (`model.predict(img)[0]`, `[0, :]`) on an input the
    iteration gives (its target, or a name rebound from it): the input was one sample made a batch where the
    code does not show it (deepface's faces, expanded by a helper of another module, tf-fix26). A model with
    several outputs also returns a list indexed so, so this evidence alone is `low`."""
    given = names_in(arg) & (targets | _fresh_names(loop, targets))
    if not given or any("batch" in name.lower() for name in given):
        return False  # `model.predict(x_batch)[0]`: the first output of a model with several
    for node in ast.walk(loop):
        if isinstance(node, ast.Subscript) and node.value is call:
            index = node.slice
            first = index.elts[0] if isinstance(index, ast.Tuple) and index.elts else index
            return _is_zero(first) and (
                not isinstance(index, ast.Tuple) or all(isinstance(e, ast.Slice) for e in index.elts[1:])
            )
    return False


def _is_zero(node) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


def _model_receiver(call: ast.Call, keras_names: set[str], sklearn_names: set[str]) -> str | None:
    """The name of the model `call` predicts with (bound from a Keras call or named like a model), or None
    for anything else (a scikit-learn estimator, an unpickled object)."""
    receiver = receiver_name(call)
    if receiver is None or receiver in sklearn_names:
        return None
    if receiver not in keras_names and not any(m in receiver.lower() for m in MODEL_LIKE):
        return None
    return receiver


def _predicted(call: ast.Call) -> ast.AST | None:
    """What a predict call is given: its first argument or `x=`."""
    return call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "x"), None)


def _predicts_per_call(repeated, index: ModuleIndex):
    """PP301 (low) on a predict outside any loop, on a batch of one, in a def that runs once per input: a
    method its caller runs again and again (a vehicle's per-frame `inference`, a `predict_one`, `__call__`:
    donkeycar replaced such predicts by `model(x)`), or a def handed to a per-element map over a collection
    (`rdd.map(partial(_predict, ...))`, `df.apply(...)`, `pool.map(...)`: elephas moved to one predict per
    partition). `predict` is built for many samples: on one, its fixed cost dominates (tf-fix26)."""
    mapped = _mapped_defs(index) if repeated else {}
    for site, receiver, arg in repeated:
        function = site.function
        if function is None:
            continue
        if id(function) in mapped:
            mapper = mapped[id(function)]
            how = (
                f"for every element that `{_callee_name(mapper)}` (line {mapper.lineno}) maps it over; "
                "predict once on each partition or on the stacked elements"
            )
        elif not isinstance(function, ast.Lambda) and runs_per_call(function):
            how = (
                f"on every call of `{function.name}`, which its caller runs once per input; on one sample "
                f"call the model directly (`{receiver}(x, training=False)`) or predict on a batch of inputs"
            )
        else:
            continue
        if not _one_sample_in(arg, function, site.node.lineno, index):
            continue
        yield RawFinding(
            "PP301",
            site.node.lineno,
            site.node.col_offset,
            f"`{receiver}.{site.node.func.attr}` is called on one sample {how}",
            # a shape no reading has measured yet (the maintainer-fixed set's donkeycar and elephas): low
            confidence="low",
        )


def _one_sample_in(arg: ast.AST, function, line: int, index: ModuleIndex) -> bool:
    """The predicted input is a batch of one, as written or as bound earlier in the def's body."""
    if _is_one_sample(arg, index, set()):
        return True
    return isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) and _one_sample_input(
        arg, function, line, index, set()
    )


# Calls that run their function argument once per element of a collection: Python's `map`, a pool's
# `map`/`imap`/`starmap`, Spark's `rdd.map`/`foreach`, pandas' `apply`/`applymap`
_PER_ELEMENT_MAPS = frozenset(
    {"map", "imap", "imap_unordered", "starmap", "foreach", "flatMap", "mapValues", "apply", "applymap"}
)


def _callee_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _mapped_defs(index: ModuleIndex) -> dict[int, ast.Call]:
    """id(def or lambda) -> the call that maps it over a collection element by element (the def given by
    name, through `functools.partial`, or a lambda written in the call)."""
    found: dict[int, ast.Call] = {}
    for site in index.calls:
        call = site.node
        if _callee_name(call) not in _PER_ELEMENT_MAPS:
            continue
        for arg in [*call.args, *(k.value for k in call.keywords)]:
            if isinstance(arg, ast.Call) and _callee_name(arg) == "partial" and arg.args:
                arg = arg.args[0]  # `partial(_predict, yaml_model)`
            if isinstance(arg, ast.Lambda):
                found.setdefault(id(arg), call)
            elif isinstance(arg, ast.Name):
                named = ast.Call(func=arg, args=[], keywords=[], lineno=call.lineno)
                function = index.helper_of(named, site.function)
                if function is not None:
                    found.setdefault(id(function), call)
    return found


def _demoted_from_high(loop, function, index: ModuleIndex) -> bool:
    """PP301's classes taken out of `high` for one debatable read each (tf-fix24): a loop over the paths
    typed on the command line (`_command_line_list`) and a def the entry point bypasses
    (`_bypassed_by_entry_point`). Until tf-fix33 they were `medium`; as first read over readings 15-24 they
    read right 0 times in 2 (icexiaoyou's CLI and TachibanaYoshino's `predict_single`, reading 20, both
    debatable), and with the project pass's uncalled defs (`_lower_uncalled_predicts`, Ananas120's Tacotron
    `evaluate`, reading 21, debatable) 0 of 3 in 3 repositories: under `medium`'s 70%, so `low`."""
    return _command_line_list(loop, index) or _bypassed_by_entry_point(function, index)


def _command_line_list(loop, index: ModuleIndex) -> bool:
    """A loop over the paths typed on the command line (`for path in args.images` with
    `add_argument("images", nargs="+")`, or `sys.argv[1:]`): a CLI for one or a few images, where
    batching pays only when many are passed (reading 20 read one debatable at `high`): `low`."""
    it = _loop_iter(loop)
    if isinstance(it, ast.Subscript):
        it = it.value
    if isinstance(it, ast.Attribute) and isinstance(it.value, ast.Name) and it.value.id == "sys":
        return it.attr == "argv"
    if not (isinstance(it, ast.Attribute) and isinstance(it.value, ast.Name)):
        return False
    for site in index.calls:
        call = site.node
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument"):
            continue
        if not any(
            k.arg == "nargs" and isinstance(k.value, ast.Constant) and k.value.value in ("+", "*")
            for k in call.keywords
        ):
            continue
        names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        names += [
            k.value.value for k in call.keywords if k.arg == "dest" and isinstance(k.value, ast.Constant)
        ]
        if any(str(n).lstrip("-").replace("-", "_") == it.attr for n in names):
            return True
    return False


def _bypassed_by_entry_point(function, index: ModuleIndex) -> bool:
    """The top-level def holding the loop is an alternative the script's entry point does not run: the
    module has an `if __name__ == "__main__":` block, nothing in the module names the def, and another def
    it names predicts too (a per-tile `predict_single` beside the batched `predict_batch` that `main` runs;
    reading 20 read one debatable at `high`): `low`."""
    if function is None or index.module_functions.get(getattr(function, "name", None)) is not function:
        return False
    if not any(is_main_guard(stmt) for stmt in index.tree.body):
        return False
    named = {
        node.id if isinstance(node, ast.Name) else node.attr
        for node in ast.walk(index.tree)
        if isinstance(node, ast.Name | ast.Attribute)
    }
    if function.name in named:
        return False
    return any(
        name in named and other is not function and _predicts(other)
        for name, other in index.module_functions.items()
    )


def _predicts(function) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _PREDICT
        for n in ast.walk(function)
    )


def _replayed_transition(arg: ast.AST, loop, index: ModuleIndex) -> bool:
    """`for state, action, reward, next_state, done in random.sample(self.memory, batch_size):` and
    `model.predict(state)`: experience replay predicting each stored transition (stored as a one-sample batch,
    so nothing in the loop shows the batch of one) where one predict on the stacked states does the lot.
    Also the indexed form: `for i in np.random.choice(len(memory), n):` with
    `state, action, reward, next_state, done = memory[i]` in the body (reading 17)."""
    if not isinstance(arg, ast.Name):
        return False
    target = getattr(loop, "target", None)
    it = _loop_iter(loop)
    values = (index.name_values.get(it.id) or []) if isinstance(it, ast.Name) else [it]
    if isinstance(target, ast.Tuple) and len(target.elts) >= 4 and arg.id in loop_targets(loop):
        # a transition unpacked (state, action, reward, next state, ...), not a batch drawn
        return bool(values) and all(_random_sample(v) for v in values)
    if not any(index.resolver.call_name(v) in _RANDOM_INDICES for v in values if isinstance(v, ast.Call)):
        return False
    return _unpacks_transition(loop, arg.id, loop_targets(loop))


# numpy's draws of random indices: `for i in np.random.choice(len(memory), n)` picks a minibatch by index
_RANDOM_INDICES = frozenset({"numpy.random.choice", "numpy.random.randint"})


def _unpacks_transition(loop, name: str, indices: set[str]) -> bool:
    """`state, action, reward, next_state, done = self.memory[i]` (or `memory[i][0]`) in the loop body,
    binding `name`, with `i` a loop target: one stored transition per drawn index."""
    for stmt in loop.body:
        for node in ast.walk(stmt):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                continue
            target = node.targets[0]
            if not (isinstance(target, ast.Tuple) and len(target.elts) >= 4):
                continue
            if name not in assigned_names([target]):
                continue
            value = node.value
            while isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant):
                value = value.value  # `memory[idx][0]`
            if (
                isinstance(value, ast.Subscript)
                and isinstance(value.slice, ast.Name)
                and value.slice.id in indices
            ):
                return True
    return False


def _random_sample(node) -> bool:
    """`random.sample(...)`, of the standard library (ppcheck's resolver tracks only ML libraries)."""
    func = node.func if isinstance(node, ast.Call) else None
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "sample"
        and isinstance(func.value, ast.Name)
        and func.value.id == "random"
    )


_PLOTTING = frozenset({"imshow", "set_title", "subplot", "add_subplot", "subplots", "title", "plot"})
_SHORT_LIST = 20
_FEW_SAMPLES = 10


def _named_range(it, index: ModuleIndex) -> bool:
    """`range(n)` with `n = 5` assigned once in the module: a few samples."""
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and it.args):
        return False
    k = literal_int(it.args[-1], index)
    return k is not None and k <= _FEW_SAMPLES


def _loop_iter(loop) -> ast.AST | None:
    """What a loop or comprehension iterates over, seen through enumerate(...) and zip(...)."""
    it = loop.generators[0].iter if hasattr(loop, "generators") else getattr(loop, "iter", None)
    while isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("enumerate", "zip"):
        it = it.args[0] if it.args else None
    return it


def _split_of_literal_text(it, index: ModuleIndex) -> bool:
    """`re.split("[.!?]", text)` or `text.split(".")` where `text` is a string written in the module: the
    sentences of one example paragraph, a demo (tf-fix38: reading 27's NER prediction script)."""
    if not isinstance(it, ast.Call):
        return False
    if not (isinstance(it.func, ast.Attribute) and it.func.attr in ("split", "splitlines")):
        return False
    text = it.func.value
    if isinstance(text, ast.Name) and text.id == "re":
        text = it.args[1] if len(it.args) > 1 else None
    if isinstance(text, ast.Name):
        values = index.name_values.get(text.id, [])
        return bool(values) and all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in values)
    return isinstance(text, ast.Constant) and isinstance(text.value, str)


def _few_sliced(part: ast.AST, index: ModuleIndex) -> bool:
    """`[:5]`, `[1:8]` or `[:10:2]` (tf-fix43; `df["im"].iloc[1:8]`, seven word images shown in a notebook
    cell): a slice of at most `_FEW_SAMPLES` items, its bounds and any positive step written in the code
    (`ceil((upper - lower) / step)` items, review 21 item 7)."""
    if not isinstance(part, ast.Slice):
        return False
    upper = literal_int(part.upper, index)
    lower = 0 if part.lower is None else literal_int(part.lower, index)
    step = 1 if part.step is None else literal_int(part.step, index)
    if upper is None or lower is None or step is None or step <= 0 or upper < lower:
        return False
    return -(-(upper - lower) // step) <= _FEW_SAMPLES


def _few_by_default(loop, function, index: ModuleIndex) -> bool:
    """`for _ in range(nb_images):` where `nb_images` is a parameter of the def holding the loop whose default
    is a small int (`def main(nb_images=5):`), the def never rebinds it, and no call of the def in the module
    passes more than `_FEW_SAMPLES` for it (`main()`): a spot check of a few samples, as `range(5)` is
    (tf-fix43: harvitronix's `validate_cnn.py`, read wrong at `high` by reading 22)."""
    it = _loop_iter(loop)
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
        return False
    bound = it.args[-1] if it.args and len(it.args) <= 2 else None
    if not isinstance(bound, ast.Name) or not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    if bound.id in assigned_names(function.body):
        return False
    calls = [site.node for site in index.calls if _callee_name(site.node) == function.name]
    dummy = ast.Call(func=ast.Name(id=function.name), args=[], keywords=[])
    for call in [dummy, *calls]:
        values = parameter_values(call, function)
        count = literal_int((values or {}).get(bound.id), index)
        if count is None or count > _FEW_SAMPLES:
            return False
    return True


def _sample_loop(loop, index: ModuleIndex) -> bool:
    """A loop showing a few samples: over `x.take(k)` or a list literal (also through a name bound to one, or
    wrapped in enumerate/zip), or one whose body draws (`plt.imshow`, `ax[i].set_title`)."""
    it = _loop_iter(loop)
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "take":
        k = it.args[0] if it.args else None
        if isinstance(k, ast.Constant) and isinstance(k.value, int) and k.value <= _SHORT_LIST:
            return True
    if isinstance(it, ast.Name) and _short_list_name(it.id, index):
        return True
    if isinstance(it, ast.Subscript) and _few_sliced(it.slice, index):
        return True
    if _named_range(it, index) or _split_of_literal_text(it, index) or _colab_uploads(it, index):
        return True
    body = loop.body if hasattr(loop, "body") else [loop.elt] if hasattr(loop, "elt") else []
    for stmt in body:
        for node in ast.walk(stmt):
            if not isinstance(node, ast.Call):
                continue
            name = index.resolver.call_name(node) or ""
            callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if (
                name.startswith("matplotlib.")
                or callee in _PLOTTING
                or any(w in callee.lower() for w in ("plot", "visuali", "imshow"))
            ):
                return True
    return False


def _colab_uploads(it: ast.AST | None, index: ModuleIndex) -> bool:
    """A loop over the files a person just picked in Colab's upload dialog (`uploaded = files.upload()`,
    then `for fn in uploaded.keys():`): an interactive demo of a few images, as a loop over a short list is.
    Reading 31 read the one such `high` finding debatable (tf-fix45)."""
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in ("keys", "items"):
        it = it.func.value
    value = index.only_value(it.id) if isinstance(it, ast.Name) else None
    func = value.func if isinstance(value, ast.Call) else None
    if not (isinstance(func, ast.Attribute) and func.attr == "upload" and isinstance(func.value, ast.Name)):
        return False
    # ppcheck's resolver tracks only ML libraries: find `from google.colab import files` among the imports
    return import_of(func.value.id, index) == (0, "google.colab", "files")


_DETECTED = ("face", "detect", "letter", "char")


def _over_detections(loop, index: ModuleIndex) -> bool:
    """A loop over what a detector found in one image or frame (`for (x, y, w, h) in faces`, the letters of
    a CAPTCHA): a handful of items each time, read debatable or wrong 5 times in 6 (reading 8)."""
    it = _loop_iter(loop)
    if it is None:
        return False
    roots = [it]
    if isinstance(it, ast.Name) and index.only_value(it.id) is not None:
        roots.append(index.only_value(it.id))  # `faces = detector.detectMultiScale(gray)`
    words = [
        n.id if isinstance(n, ast.Name) else n.attr
        for root in roots
        for n in ast.walk(root)
        if isinstance(n, ast.Name | ast.Attribute)
    ]
    return any(w in name.lower() for name in words for w in _DETECTED)


def _builds_gradients(loop, index: ModuleIndex) -> bool:
    """Grad-CAM and saliency tools: each item also builds a gradient function (`K.gradients`, `K.function`,
    a GradientTape), which costs far more than the one-sample predict (read debatable, reading 8)."""
    for node in ast.walk(loop):
        if isinstance(node, ast.Call):
            name = index.resolver.call_name(node) or ""
            if name.endswith(("backend.gradients", "backend.function", ".GradientTape", ".gradients")):
                return True
    return False


def _short_list_name(name: str, index: ModuleIndex) -> bool:
    """Every assignment of the name in the module is a list or tuple literal of <= 20 elements, or a list
    built by a comprehension over as few literal items (`[f"image-{i}.jpg" for i in range(1, 5)]`)."""
    values = index.name_values.get(name)
    return bool(values) and all(_short_list(v) for v in values) and not _grown(name, index)


_GROWING = frozenset({"append", "extend", "insert"})


def _grown(name: str, index: ModuleIndex) -> bool:
    """The list is grown after it is bound (`files = []` then `files.append(f)` in a loop over a folder,
    or `files += ...`): its literal says nothing of its length (reading 15)."""
    for site in index.calls:
        func = site.node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in _GROWING
            and isinstance(func.value, ast.Name)
            and func.value.id == name
        ):
            return True
    return any(
        isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name
        for node in ast.walk(index.tree)
    )


def _short_list(value: ast.AST) -> bool:
    if isinstance(value, ast.List | ast.Tuple):
        return len(value.elts) <= _SHORT_LIST
    if isinstance(value, ast.ListComp) and len(value.generators) == 1:
        count = literal_iterations(value)
        return count is not None and count <= _SHORT_LIST
    return False


def _stateful(index: ModuleIndex) -> bool:
    """The module builds a stateful RNN (`stateful=True`) or resets one (`model.reset_states()`)."""
    for site in index.calls:
        call = site.node
        if isinstance(call.func, ast.Attribute) and call.func.attr == "reset_states":
            return True
        if any(
            k.arg == "stateful" and isinstance(k.value, ast.Constant) and k.value.value for k in call.keywords
        ):
            return True
    return False


def feeds_back(loop, arg: ast.AST, loop_targets: set[str], line: int | None = None, index=None) -> bool:
    """The predicted input is built from a value the loop body itself changes (`tokens[i] = ...`, `obs = ...`).
    With `line` (the predict call's) and `index`, a name each iteration binds afresh before `line` is read
    through its value (`image_data = prep(img); image_data = image_data[np.newaxis]`: not carried from one
    iteration to the next), unless that value comes from an object the loop steps after the call (`state =
    env.get_state()` ... `env.step(action)`: the next state answers this prediction)."""
    read = {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)} - loop_targets
    if line is not None and index is not None:
        read = _through_fresh_bindings(loop, read, line)
        if read & _stepped_after(loop, line, index):
            return True
    if not read:
        return False
    for stmt in getattr(loop, "body", []):
        for node in ast.walk(stmt):
            targets = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("append", "extend", "insert", "pop")
                and isinstance(node.func.value, ast.Name)
            ):
                targets = [node.func.value]
            for target in targets:
                base = target
                while isinstance(base, ast.Subscript | ast.Attribute):
                    base = base.value
                if names_in(base) & read and not (
                    isinstance(target, ast.Name) and _assigned_from_targets(node, loop_targets)
                ):
                    return True
    return False


def _asks_user(loop) -> bool:
    """The loop body waits for a person: it calls the builtin `input()` (a prompt per prediction, reading
    14's course scripts) or sleeps (`time.sleep(.5)` after showing each image, reading 18's slideshow), so
    one prediction per iteration is its pace by design."""
    for stmt in getattr(loop, "body", []):
        for node in ast.walk(stmt):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if (isinstance(func, ast.Name) and func.id in ("input", "sleep")) or (
                isinstance(func, ast.Attribute)
                and func.attr == "sleep"
                and getattr(func.value, "id", "") == "time"
            ):
                return True
    return False


def _stepped_after(loop, line: int, index: ModuleIndex) -> set[str]:
    """Names the module binds (not imports) whose methods the loop body calls after `line` (`env.step(a)`)."""
    return {
        node.func.value.id
        for stmt in getattr(loop, "body", [])
        for node in ast.walk(stmt)
        if isinstance(node, ast.Call)
        and node.lineno > line
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in index.name_values
    }


def _through_fresh_bindings(loop, names: set[str], line: int) -> set[str]:
    """`names` with each one the loop binds afresh before `line` replaced by the names its values read, up to
    3 levels: a name is bound afresh when an unconditional statement of the body (`x = ...`, not in a branch)
    assigns it before the body reads it, so its value is made anew in each iteration rather than carried
    over from the last one (tf-fixmine's yolov4 benchmark: an image read, resized and expanded per step)."""
    body = getattr(loop, "body", [])
    for _ in range(3):
        resolved: set[str] = set()
        for name in names:
            values = _fresh_values(body, name, line)
            resolved |= {name} if values is None else set().union(*(names_in(v) for v in values)) - {name}
        if resolved == names:
            break
        names = resolved
    return names


def _fresh_values(body: list[ast.stmt], name: str, line: int) -> list[ast.AST] | None:
    """The values bound to `name` by the body's statements before `line`, when the first of them is an
    unconditional `name = value` that nothing before it in the body reads or binds `name`; else None."""
    values: list[ast.AST] = []
    for stmt in body:
        if stmt.lineno >= line:
            break
        binds = isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in stmt.targets
        )
        touched = any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(stmt))
        if not values:
            if binds and len(stmt.targets) == 1 and name not in names_in(stmt.value):
                values.append(stmt.value)
            elif touched:
                return None
        elif binds and len(stmt.targets) == 1:
            values.append(stmt.value)
        elif touched and any(
            isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
            for n in ast.walk(stmt)
        ):
            return None  # bound again in a branch or by a loop: not one plain chain
    return values or None


def _resized_per_iteration(arg: ast.AST, loop, line: int, loop_targets: set[str], index: ModuleIndex) -> bool:
    """The predicted input is resized to a size the iteration computes (`cv2.resize(img, (w * s, h * s))`
    for each `s` of a scale list, MTCNN's P-Net pyramid): every input has its own height and width, so they
    cannot be stacked into one batch (reading 16: wrong 2/2 at `high`). A fixed size (`(24, 24)`) is no reason
    for silence. Follows the names the input is built from back through the loop's assignments, 3 levels."""
    varying = loop_targets | _fresh_names(loop, loop_targets)
    pending, seen = [arg], set()
    for _ in range(3):
        names = set()
        for expr in pending:
            for node in ast.walk(expr):
                if isinstance(node, ast.Call) and _resizes_to(node, varying, index):
                    return True
                if isinstance(node, ast.Name) and node.id not in seen:
                    names.add(node.id)
        seen |= names
        pending = [value for name in names if (value := _assignment_in(loop, name, line)) is not None]
    return False


def _resizes_to(call: ast.Call, varying: set[str], index: ModuleIndex) -> bool:
    """A resize (`cv2.resize`, `tf.image.resize`, `img.resize(...)`) whose size or scale reads a name the
    iteration binds; the image itself (a module function's first argument) does not count."""
    func = call.func
    named = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if not named.lower().startswith(("resize", "rescale")):
        return False
    # `cv2.resize(img, size)`, `tf.image.resize(img, size)`: the first argument is the image; `img.resize(size)`
    module_function = index.resolver.call_name(call) is not None or (
        isinstance(func, ast.Attribute) and getattr(func.value, "id", None) in _IMAGE_MODULES
    )
    sizes = [*(call.args[1:] if module_function else call.args), *(k.value for k in call.keywords)]
    return any(names_in(size) & varying for size in sizes)


def _fresh_names(loop, loop_targets: set[str]) -> set[str]:
    """Names each iteration binds anew from its own items (`x = load(path); x = np.expand_dims(x, 0)`), in
    source order: a value computed from them is new each time, not fed back from earlier predictions."""
    fresh: set[str] = set()
    for stmt in getattr(loop, "body", []):
        for node in ast.walk(stmt):
            if isinstance(node, ast.Assign) and names_in(node.value) & (loop_targets | fresh):
                fresh |= assigned_names(node.targets)
    return fresh


def _assigned_from_targets(node, loop_targets: set[str]) -> bool:
    """`x = np.array([[xi, yi]])`: rebinding a name from the loop's own variables is not feedback."""
    value = getattr(node, "value", None)
    if value is None:
        return False
    return bool(names_in(value) & loop_targets)


def _stored_in_container(loop, target_names: set[str]) -> bool:
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "extend", "insert", "add")
        ) and any(n.id in target_names for a in node.args for n in ast.walk(a) if isinstance(n, ast.Name)):
            return True
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Subscript) for t in node.targets)
            and any(isinstance(n, ast.Name) and n.id in target_names for n in ast.walk(node.value))
        ):
            return True
    return False


def _bound_to(loop, call: ast.Call) -> set[str]:
    for node in ast.walk(loop):
        if isinstance(node, ast.Assign) and node.value is call:
            return assigned_names(node.targets)
    return set()


def check_model_in_loop(index: ModuleIndex):
    yield from models_built_in_loops(index)


def models_built_in_loops(index: ModuleIndex, builders=frozenset(), owners_elsewhere=frozenset()):
    """PP302's findings in the module; with `builders`, also on calls of those names (defs and classes of
    other modules of the project that build and return a Keras model, the project pass's: tf-fix50, reading
    33's `from wide_cnn import *` then `model = Wide_CNN(...)` per round)."""
    reported: set[tuple[int, int]] = set()
    owners = keras_model_owners(index) | {name for name in builders if name in owners_elsewhere}
    for loop, reached in loops_keeping_the_graph(index):
        if isinstance(loop, COMPREHENSION_TYPES) or _few_models(loop, index):
            continue
        if not any(
            isinstance(site.node.func, ast.Attribute) and site.node.func.attr in _TRAIN_CALLS
            for site, _ in reached
        ) and not _trains_owned_model(loop, reached, owners):
            continue
        for site, via in reached:
            name = index.resolver.call_name(site.node)
            func = site.node.func
            if (called := _called_name(func)) is not None and (called in builders or called in owners):
                name = f".{called.rsplit('.', 1)[-1]}"  # (the message names what is after the last dot)
            elif name not in _MODEL_BUILDERS:
                continue
            at = via or site.node
            if _kept(loop, at) or not first_report(reported, at):
                continue
            where = "" if via is None else f" (via this call, line {site.node.lineno})"
            yield RawFinding(
                "PP302",
                at.lineno,
                at.col_offset,
                f"a Keras model (`{name.rsplit('.', 1)[1]}`) is built on every iteration of the loop at line "
                f"{loop.lineno}{where} without keras.backend.clear_session(); Keras' global state grows each time",
            )


def _trains_owned_model(loop, reached, owners) -> bool:
    """(tf-fix52) The loop calls a method named for training (`train...`, `fit...`) on a receiver it binds to
    an instance of a class whose constructor builds a Keras model (`architecture = Architecture(...)` then
    `architecture.train_model()`): it trains the model that instance holds. The receiver is a name or
    `self.name`, bound alone, as one item of a tuple target matched by a tuple (`arch, log = Architecture(),
    []`) or by a chain (`a = b = Architecture()`); the class is called by its name or on a module
    (`architectures.Architecture(...)`, an owner the project pass names so: tf-fix53, session 27 reread)."""
    if not owners:
        return False
    made = {
        key
        for node in _own_nodes(getattr(loop, "body", []))
        if isinstance(node, ast.Assign)
        for target in node.targets
        for item, value in _paired(target, node.value)
        if isinstance(value, ast.Call)
        and _called_name(value.func) in owners
        and (key := _receiver_key(item)) is not None
    }
    return any(
        isinstance(func := site.node.func, ast.Attribute)
        and _receiver_key(func.value) in made
        and func.attr.lower().startswith(("train", "fit"))
        for site, _ in reached
    )


def _paired(target: ast.AST, value: ast.AST):
    """(target, value) pairs of an assignment, a tuple or list target matched item by item with a tuple or
    list value of its length; an unpacked call or a starred item pairs nothing (which item is which is
    unknown)."""
    if isinstance(target, ast.Tuple | ast.List):
        if (
            isinstance(value, ast.Tuple | ast.List)
            and len(value.elts) == len(target.elts)
            and not any(isinstance(e, ast.Starred) for e in (*target.elts, *value.elts))
        ):
            for item, part in zip(target.elts, value.elts, strict=True):
                yield from _paired(item, part)
        return
    yield target, value


def _called_name(func: ast.AST) -> str | None:
    """`Owner` for `Owner(...)`, `module.Owner` for `module.Owner(...)`; None for any other callee."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return None


def _receiver_key(node: ast.AST) -> str | None:
    """A plain name (`architecture`) or an attribute of `self` (`self.architecture`), as text."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return f"self.{node.attr}"
    return None


_FEW_MODELS = 10


def _few_models(loop, index: ModuleIndex) -> bool:
    """Cross-validation folds (`for tr, va in kfold.split(x)`) or a few literal iterations: a handful of
    models, where the growth of Keras' state does not matter. Literal loops nested in literal loops count
    together (tf-fix50: `for valr in [0.7, 0.6, 0.5]:` around `for i in range(10):` builds 30 models in one
    graph, reading 33's AbnerYang); a loop inside one over data or folds is judged alone, as before."""
    it = getattr(loop, "iter", None)
    if it is None:
        return False
    for node in ast.walk(it):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split":
            return True
        if isinstance(node, ast.Name) and "fold" in node.id.lower():
            return True
    count = literal_iterations(loop)
    if count is None:
        return False
    outer = _enclosing_loops(loop, index)
    counts = [literal_iterations(lp) for lp in outer]
    if outer and all(c is not None for c in counts):
        for c in counts:
            count *= c
    return count <= _FEW_MODELS


def _enclosing_loops(loop, index: ModuleIndex) -> list:
    """The `for` loops of the module whose body holds `loop`, in its own def (index.loops holds each). A
    loop in a def (or lambda) nested in another loop's body runs when the def is called, not once per
    iteration of that loop, so that loop is not counted (review25 item 15)."""
    function = index.loop_function.get(id(loop))
    return [
        other
        for other in index.loops
        if other is not loop
        and isinstance(other, ast.For)
        and index.loop_function.get(id(other)) is function
        and any(node is loop for stmt in other.body for node in walk(stmt))
    ]


def _kept(loop, call: ast.Call) -> bool:
    """The loop keeps every model it builds (an ensemble): passed to append, or its name stored away."""
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "insert")
            and any(a is call for a in node.args)
        ):
            return True
    return _stored_in_container(loop, _bound_to(loop, call))


register(
    Rule(
        code="PP301",
        name="predict-one-sample-in-loop",
        root_cause="api.not_batch_api",
        summary=(
            "`model.predict(...)` inside a for loop or comprehension on one sample made into a batch of one "
            "(np.expand_dims(x, 0), x[None], np.array([x]), x.reshape(1, ...), xs[i].reshape(-1, h, w), xs[i:i+1]; a list the "
            "iteration starts empty, appends one sample to and stacks; a list of such inputs for a model "
            "with several). Since tf-fix26, at `low`: the same predict outside any loop in a method its caller "
            "runs once per input (`inference`, `infer...`, `predict...`, `run`, `__call__`: a vehicle's "
            "per-frame part) or in a def mapped over a collection element by element (`rdd.map(f)`, "
            "`map(f, xs)`, `df.apply(f)`, also through `functools.partial`), and a loop that keeps only the "
            "first row of each prediction (`model.predict(img)[0]`) on what the iteration gives, a batch of "
            "one made where the code does not show it. Since tf-fix30, at `low`: a call, in a loop of the "
            "module or of another module of the project, of a def that predicts one sample on every call "
            "(it makes the batch of one from what it is given, or predicts what it is given and the loop "
            "gives one sample; not a def that also predicts in a loop of its own, a decoder), and PP301 in a "
            "module that imports no TensorFlow but gets its model from a module of the project that does. "
            "`x = preprocess_input(x)` keeps a batch of one. Since tf-fix36 a TF1 session run fed one sample "
            "per iteration (`sess.run(prob, feed_dict={x: np.expand_dims(img, 0)})`, also `t.eval(feed_dict=...)`) "
            "is judged as a predict on that sample; and a loop in a module without a TensorFlow import that "
            "predicts on a model it binds from a def or class of the project that builds a Keras model "
            "(`model = HourglassNetwork(...)`) is judged as in a TensorFlow module, at most `medium`. Since "
            "tf-fix38 a dict of named inputs each a batch of one (a dict literal, or one the loop sets to `{}` "
            "and fills by key) is read as the list form is, and what a call given one sample in a list of one "
            "returns (`encode([text])`, `pad_sequences([seq])`) is a batch of one; a loop over the split of a "
            "string written in the module is a demo (`low`). Since tf-fix41 so is what a call returns whose "
            "positional arguments are each one sample in a list of one (bert4keras' `to_array([ids], [segs])`), "
            "also when an earlier line binds the unpacked names to the unbatched values, and `np.array(x)` "
            "of such a batch."
        ),
        why=(
            "Each predict call has a large fixed cost (building the input pipeline, dispatching the step, "
            "copying to the device); paid once per sample it dominates, while one call on the stacked samples "
            "pays it once and uses the accelerator's parallelism."
        ),
        example="""
for img in images:
    probs.append(model.predict(np.expand_dims(img, axis=0)))
""",
        instead="""
probs = model.predict(np.stack(images), batch_size=64)
""",
        false_alarms=(
            "Low-medium. `while` loops (serving one request, one video frame at a time) are skipped, as are "
            "receivers bound from scikit-learn or from an unpickler (`pickle.load`, `joblib.load`); the "
            "receiver must be bound from a Keras call or be named like a model. A for loop that must answer "
            "sample by sample (online decoding that feeds one prediction into the next input) is still "
            "reported. `high` needs a loop over data of unknown or large size; these "
            "are `low` (read right 2 times in 39 below high): a literal range or list of at most 10 items; a "
            "slice [:k] or take(k) with k up to 10, or [a:b] with both bounds written and b - a up to 10 "
            "(a short list literal never grown by append or +=, or take(k) up to 20); range(n) where n is a "
            "parameter of the def with a default up to 10 that the def never rebinds and no call in the "
            "module raises (`def main(nb_images=5)`, a spot check; tf-fix43); a loop whose "
            "body plots (plt., imshow, subplot, a helper named for plotting); a loop over what a detector "
            "found in one image or frame (faces, detections, letters); a loop that builds a gradient function "
            "per item (Grad-CAM); and a module with a stateful RNN, where one step at a time primes the state. "
            "A DQN replay that predicts each transition it unpacks from random.sample(memory, n), or from "
            "memory[i] for indices drawn by np.random.choice or np.random.randint, is `medium`. "
            "An image pyramid is silent: an input resized to a size or scale the iteration computes "
            "(`cv2.resize(img, (int(w * s), int(h * s)))` for each scale s, MTCNN's P-Net) has its own shape "
            "each time and cannot be stacked (reading 16: wrong 2/2 at `high`); a fixed size is still reported. "
            "Images kept at their own sizes are `low` (tf-fix39; reading 28 read eight such `high` findings "
            "debatable): nothing on the predicted input's path in the loop resizes, crops or reshapes it, and "
            "the loop resizes a companion image to a size read off an item (`hr_shape = (hr.shape[1], "
            "hr.shape[0])`, a bicubic baseline) or the images come from a list the def fills with files opened "
            "and never resized (`imgs.append(np.array(Image.open(p)))`), or (tf-fix45) the loop opens the image "
            "itself, never resized, in a def that builds an input of any size (`Input((None, None, c))`: "
            "reading 16's CycleGAN folder translation, wrong at `high`). A loop over the files picked in "
            "Colab's upload dialog (`uploaded = files.upload()`, `for fn in uploaded.keys()`) is a demo, `low` "
            "(tf-fix45; reading 31 read one debatable at `high`). "
            "An input the iteration builds afresh (`image_data = prep(cv2.imread(path))` then `image_data = "
            "image_data[np.newaxis]`) is not fed back, even from a file that does not change (tf-fix19), unless "
            "it is read from an object the loop steps after predicting (`env.get_screen()`, then "
            "`env.step(a)`); a loop that asks the user for each sample (`input()`) is silent. A list filled by a loop "
            "nested in the iteration, or appended to more than once, is a batch and stays silent (tf-fix21). "
            "`low` (since tf-fix33; `medium` from tf-fix24, 0 right of 3 first reads over readings 15-24): a "
            "loop over the images typed on the command line (an "
            "argparse list with nargs '+' or '*', `sys.argv`), where batching pays only when many are "
            "passed; and a top-level def that nothing in a module with an `if __name__ == '__main__':` "
            "block names while another def it names predicts too (a per-tile `predict_single` beside the "
            "batched `predict_batch` that the entry point runs); and (tf-cal28) a def or method that no file of a "
            "project of several files names beyond its definition (a Keras model's own `evaluate` or `predict` "
            "called on a receiver named for a model is no use of it). The first-row evidence skips inputs named for "
            "batches (`model.predict(x_batch)[0]` is the first output of a model with several). A session run "
            "is silent when a session run of the loop fetches a training step (`train_op`, `opt.minimize(loss)`) "
            "or when a fed value reads what the run itself returned in an earlier iteration (a recurrent "
            "state carried from frame to frame)."
        ),
        check=check_predict_per_sample,
    )
)

register(
    Rule(
        code="PP302",
        name="model-rebuilt-in-loop",
        root_cause="model.computation_graph_confusion",
        summary=(
            "A Keras model built or loaded (Sequential, Model, load_model, clone_model, model_from_json, "
            "directly or in a helper) in a loop that trains or predicts, with no clear_session / "
            "reset_default_graph in the loop; since tf-fix52 also an instance of a class whose __init__ "
            "builds a Keras model and keeps it on self, made in a loop that calls a train.../fit... method "
            "on it."
        ),
        why=(
            "Keras keeps global state (the graph in TF1, layer-name counters and caches in TF2) for every model "
            "it builds: in cross-validation folds or hyperparameter searches memory and step time grow with "
            "each model until the run slows down or runs out of memory."
        ),
        example="""
for units in search_space:
    model = keras.Sequential([layers.Dense(units), layers.Dense(1)])
    model.compile("adam", "mse")
    model.fit(x, y)
""",
        instead="""
for units in search_space:
    keras.backend.clear_session()
    model = keras.Sequential([layers.Dense(units), layers.Dense(1)])
    model.compile("adam", "mse")
    model.fit(x, y)
""",
        false_alarms=(
            "Medium-low. Models kept on purpose (appended to a list or stored in a dict: an ensemble) and "
            "models built in comprehensions are skipped; a loop that neither trains nor predicts is skipped. A "
            "loop of two or three models where the growth does not matter is still reported."
        ),
        check=check_model_in_loop,
        confidence="low",
    )
)
