"""PP2xx: tf.data input pipelines (the order of map/batch/shuffle, parallel calls, prefetch)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass

from checker.datasets import (
    METHODS,
    ONE_PASS,
    DatasetFlow,
    Step,
    dropped_steps,
    fed_steps,
    named_call,
    toy_fit,
    untraced_pipelines,
)
from checker.findings import RawFinding
from checker.module import (
    FUNCTION_TYPES,
    ModuleIndex,
    class_at,
    import_of,
    is_main_guard,
    self_attribute,
    walk,
)
from checker.rules import Rule, register
from checker.rules.common import first_report, literal_iterations, runs_once

# Element-wise ops: a map made only of these gives the same result on a batch as on each element.
_ELEMENTWISE = frozenset(
    "tensorflow." + n
    for n in [
        "cast",
        "add",
        "subtract",
        "multiply",
        "divide",
        "truediv",
        "realdiv",
        "maximum",
        "minimum",
        "abs",
        "exp",
        "log",
        "sqrt",
        "square",
        "pow",
        "sigmoid",
        "tanh",
        "clip_by_value",
        "one_hot",
        "round",
        "floor",
        "ceil",
        "equal",
        "greater",
        "less",
        "logical_and",
        "logical_or",
        "logical_not",
        "math.add",
        "math.subtract",
        "math.multiply",
        "math.divide",
        "math.truediv",
        "math.maximum",
        "math.minimum",
        "math.abs",
        "math.exp",
        "math.log",
        "math.sqrt",
        "math.square",
        "math.pow",
        "math.sigmoid",
        "math.tanh",
        "math.round",
        "math.floor",
        "math.ceil",
        "math.equal",
        "math.greater",
        "math.less",
        "math.logical_and",
        "math.logical_or",
        "math.logical_not",
        "nn.relu",
        "nn.sigmoid",
        "nn.tanh",
        "nn.elu",
        "image.convert_image_dtype",
        "dtypes.cast",
    ]
)
_BETWEEN_MAP_AND_BATCH = frozenset({"shuffle", "repeat", "prefetch", "take", "skip", "shard", "with_options"})


def _at_method(call: ast.Call) -> tuple[int, int]:
    """Line and column of a method call's name (`.batch` in a chain), where the reader looks."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.end_lineno is not None:
        return func.end_lineno, func.end_col_offset - len(func.attr)
    return call.lineno, call.col_offset


def _once(index: ModuleIndex, name: str, compute):
    """`compute(index)`, worked out once per module and kept on its index for the PP2xx rules sharing it."""
    value = getattr(index, name, None)
    if value is None:
        value = compute(index)
        setattr(index, name, value)
    return value


def dataset_flow(index: ModuleIndex) -> DatasetFlow:
    # The flow is computed once per module and shared by the PP2xx rules.
    return _once(index, "_dataset_flow", DatasetFlow.of)


# Ops that give the same result on a batch as on each element (or have a batch form the message names).
_BATCH_CAPABLE = _ELEMENTWISE | frozenset(
    "tensorflow." + n
    for n in [
        "io.parse_single_example",  # -> tf.io.parse_example after batching
        "parse_single_example",
        "io.parse_example",
        "parse_example",
        "io.decode_raw",
        "decode_raw",
        "image.per_image_standardization",
        "image.flip_left_right",
        "image.flip_up_down",
        "image.rgb_to_grayscale",
        "image.grayscale_to_rgb",
        "image.rgb_to_hsv",
        "image.adjust_brightness",
        "image.adjust_contrast",
        "image.adjust_saturation",
        "image.adjust_gamma",
        "sparse.to_dense",
        "sparse_tensor_to_dense",
    ]
)
# Calls in a map function that compute nothing per element (feature specs).
_NEUTRAL = frozenset(
    "tensorflow." + n
    for n in [
        "io.FixedLenFeature",
        "FixedLenFeature",
        "io.VarLenFeature",
        "VarLenFeature",
        "io.FixedLenSequenceFeature",
    ]
)
_PER_EXAMPLE_PARSE = frozenset(
    {
        "tensorflow.io.parse_single_example",
        "tensorflow.parse_single_example",
        "tensorflow.io.decode_csv",
        "tensorflow.decode_csv",
    }
)


def _mapped_def(call: ast.Call, index: ModuleIndex, keyword: str = "map_func"):
    """The def a map runs (a `from_generator` its generator, `keyword="generator"`), when it is named in this
    module: a module function, a def nested anywhere with a unique name, or a method of the calling class
    (`self._parse`)."""
    fn = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == keyword), None)
    if isinstance(fn, ast.Name):
        named = [f for f in index.functions if f.name == fn.id]
        top = [f for f in index.tree.body if isinstance(f, ast.FunctionDef) and f.name == fn.id]
        if len(top) > 1:
            # a notebook may define it again in a later cell: the map runs the def last run before it
            before = [f for f in top if f.lineno < call.lineno]
            return (before or top)[-1]
        if fn.id in index.module_functions:
            return index.module_functions[fn.id]
        return named[-1] if named else None
    if (
        isinstance(fn, ast.Call)
        and isinstance(fn.func, ast.Name)
        and not fn.args
        and not fn.keywords
        and (target := index.module_functions.get(fn.func.id)) is not None
        and len(target.args.args) > len(target.args.defaults)
        and not any(
            isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            for n in ast.walk(target)
            if n is not target
        )
    ):
        return target  # `map(preprocess())` of a `def preprocess(x, y)`: the call is a slip, the map means it
    if (made := _factory_made(fn, index)) is not None:
        return made  # `map(parse_function_generator(80))`: the def the factory returns
    if isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id in ("self", "cls"):
        for methods in index.class_methods.values():
            if fn.attr in methods:
                return methods[fn.attr]
    return None


def _factory_made(fn: ast.AST | None, index: ModuleIndex) -> ast.AST | None:
    """`make_parser(cfg)` of a module function whose last statement returns a def nested in it (`def
    make_parser(cfg): def parse(record): ...; return parse`): that nested def, the code a map given the call
    runs (tf-fix31: reading 23's breadbread1984 maps `parse_function_generator(80)`); None otherwise."""
    if not (isinstance(fn, ast.Call) and isinstance(fn.func, ast.Name)):
        return None
    factory = index.module_functions.get(fn.func.id)
    return None if factory is None else returned_inner_def(factory)


def returned_inner_def(factory: ast.AST) -> ast.AST | None:
    """The def nested in `factory` that its last statement returns by name, or None."""
    last = factory.body[-1] if factory.body else None
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Name)):
        return None
    inner = [s for s in factory.body if isinstance(s, FUNCTION_TYPES) and s.name == last.value.id]
    return inner[-1] if inner else None


def _map_function_body(call: ast.Call, index: ModuleIndex) -> list[ast.AST] | None:
    if not call.args and not call.keywords:
        return None
    fn = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "map_func"), None)
    if isinstance(fn, ast.Lambda):
        return [fn.body]
    bound = _lambda_bound_to(fn, index)
    if bound is not None:
        return [bound.body]  # `preprocess_fn = lambda x: ...; ds.map(preprocess_fn)`
    function = _mapped_def(call, index)
    if function is not None:
        body = function.body
        if all(isinstance(s, ast.Assign | ast.Return | ast.Expr) for s in body):
            return [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return None


def _lambda_bound_to(fn, index: ModuleIndex) -> ast.Lambda | None:
    """The lambda a name is bound to, when every assignment of the name in the module binds one lambda."""
    if not isinstance(fn, ast.Name) or fn.id in index.function_names:
        return None
    value = index.only_value(fn.id)
    return value if isinstance(value, ast.Lambda) else None


def _injected(call: ast.Call, index: ModuleIndex) -> bool:
    """`ds.map(self._preprocess_fn)`: a callable stored on the object (named `..fn`/`..func`, no method of
    the module), handed in from elsewhere, whose cost this module cannot see; an inherited method such as
    `self.decode_example` is not one."""
    fn = mapped_function(call)
    if not isinstance(fn, ast.Attribute) or _mapped_def(call, index) is not None:
        return False
    stored = fn.attr.lower().endswith(("fn", "func"))
    return stored and isinstance(fn.value, ast.Name) and fn.value.id in ("self", "cls")


def vectorisable_map(call: ast.Call, index: ModuleIndex) -> str | None:
    """How the map's function would run on a whole batch, or None when it cannot: "element-wise" (casts,
    scaling, one-hot), "parse_example" (per-example parsing that has a batch form), "batch-capable"."""
    body = _map_function_body(call, index)
    if not body:
        return None
    if _parses_batches(body, index):
        return "batch-capable"  # written for batches: tf.io.parse_example is the batched parser
    seen: set[str] = set()
    for root in body:
        for node in ast.walk(root):
            if isinstance(node, ast.Call):
                name = index.resolver.call_name(node)
                if name in _NEUTRAL:
                    continue
                if name not in _BATCH_CAPABLE:
                    return None
                seen.add(name)
            elif isinstance(node, ast.Lambda | ast.Slice):
                return None
            elif isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
                return None  # features["image"] and pair[0] are fine; x[:, 1:] is not
    if seen & _PER_EXAMPLE_PARSE:
        return "parse_example"
    if seen <= _ELEMENTWISE and (seen or any(isinstance(n, ast.BinOp) for r in body for n in ast.walk(r))):
        return "element-wise"
    return "batch-capable" if seen else None


_BATCH_PARSERS = frozenset({"tensorflow.io.parse_example", "tensorflow.parse_example"})


def _parses_batches(body, index: ModuleIndex) -> bool:
    return any(
        isinstance(node, ast.Call) and index.resolver.call_name(node) in _BATCH_PARSERS
        for root in body
        for node in ast.walk(root)
    )


# Work that needs one element at a time (images of different sizes, fresh randomness, Python).
_PER_ELEMENT_ONLY = ("decode_jpeg", "decode_png", "decode_image", "decode_bmp", "decode_gif", "read_file")
_PER_ELEMENT_ONLY += ("resize", "random", "crop", "py_function", "py_func", "numpy_function")


def _parses_examples(call: ast.Call, index: ModuleIndex) -> bool:
    """The mapped function, or a module function it calls (three levels, as PP202 reads its cost), parses one
    example or CSV line (with more around it): the parse, usually the costly part, has a batched form even
    when the rest needs a small change. `tf.io.parse_example` in a helper counts too: before `batch` it
    parses one record per call (tf-fix26: cloudml-samples' `map(lambda r: parse_tf_example(r))`, which its
    maintainers moved behind `batch`)."""
    roots = map_code(call, index)
    if not roots:
        return False
    names = {name for _, name in _calls_in_map(roots, index)}
    # a decode in a helper it calls (`decode_image(example["image"])`) dominates the parse: read wrong 38/38
    return bool(names & (_PER_EXAMPLE_PARSE | _BATCH_PARSERS)) and not _per_element_only(names)


def _call_names(roots, index: ModuleIndex) -> set[str]:
    """Canonical names of the calls anywhere under these nodes ("" for a call that does not resolve)."""
    return {
        index.resolver.call_name(node) or ""
        for root in roots
        for node in walk(root)
        if isinstance(node, ast.Call)
    }


def _per_element_only(names: set[str]) -> bool:
    """One of these calls works on a single element only (a decode, a resize, a Python function)."""
    return any(word in name for name in names for word in _PER_ELEMENT_ONLY)


def _called_helpers(body, index: ModuleIndex, depth: int = 3) -> list[ast.AST]:
    """The module functions the code calls by name, and the ones they call, up to `depth` levels; a def
    handed to `tf.numpy_function`/`py_function` counts as called (tf-fix32: `tf.numpy_function(read_image,
    ...)` runs `read_image` as `f(x)` would)."""
    found: list[ast.AST] = []
    roots = list(body)
    for _ in range(depth):
        new = []
        for root in roots:
            for node in ast.walk(root):
                name = _called_by_name(node, index)
                if name is not None:
                    helper = index.module_functions.get(name) or _last_def_named(name, index)
                else:
                    helper = _own_method_called(node, index)
                if helper is not None and helper not in found:
                    found.append(helper)
                    new.append(helper)
        roots = new
    return found


def _own_method_called(node: ast.AST, index: ModuleIndex) -> ast.AST | None:
    """The method a `self.m(x)` / `cls.m(x)` call runs, when exactly one class of the module defines `m`
    (tf-fix46: reading 32's two-tower reader maps `lambda x: self._parse_function(x)`, whose method parses
    each record; `ds.map(self._parse_function)` was already read through `_mapped_def`)."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in ("self", "cls")
    ):
        return None
    defs = [methods[node.func.attr] for methods in index.class_methods.values() if node.func.attr in methods]
    return defs[0] if len(defs) == 1 else None


def _called_by_name(node: ast.AST, index: ModuleIndex) -> str | None:
    """The name a call runs: `f(x)` -> "f", `tf.numpy_function(f, [x], tf.float32)` -> "f"."""
    if not isinstance(node, ast.Call):
        return None
    if isinstance(node.func, ast.Name):
        return node.func.id
    if node.args and isinstance(node.args[0], ast.Name) and index.resolver.call_name(node) in _PYTHON_OPS:
        return node.args[0].id
    return None


def _last_def_named(name: str, index: ModuleIndex) -> ast.AST | None:
    """A nested def of that name (the last one, as a later definition shadows an earlier)."""
    return next((f for f in reversed(index.functions) if f.name == name), None)


def _named_like_a_parser(call: ast.Call, index: ModuleIndex) -> bool:
    """`map(parse_tfrecord)` of a function this module does not define: most such parsers call
    tf.io.parse_single_example, which has a batched form; the name is the only evidence (medium)."""
    fn = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "map_func"), None)
    name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
    if "parse" not in name.lower() or _mapped_def(call, index) is not None or name in index.function_names:
        return False
    if _lambda_bound_to(fn, index) is not None:
        return False  # `parse_fn = lambda f, l: _parse_function(f, l, size)`: its code was read (above)
    # `parse_fn = _parse_function` (or a partial of it): the def is seen, and one that reads or decodes
    # images cannot run on a batch (read wrong 5/5 in reading 5)
    return not any(_per_element_work(d, index) for d in _defs_bound_to(name, index))


def _defs_bound_to(name: str, index: ModuleIndex) -> list[ast.AST]:
    """Module functions a name is assigned, directly or through functools.partial(f, ...)."""
    found = []
    for value in index.name_values.get(name, []):
        if isinstance(value, ast.Call) and value.args:
            value = value.args[0]  # partial(_parse_function, size=...)
        if isinstance(value, ast.Name) and value.id in index.module_functions:
            found.append(index.module_functions[value.id])
    return found


def _per_element_work(function: ast.AST, index: ModuleIndex) -> bool:
    return _per_element_only(_call_names([function, *_called_helpers([function], index)], index))


_CHEAP = _ELEMENTWISE | {
    "tensorflow." + n
    for n in (
        "expand_dims",
        "reshape",
        "squeeze",
        "identity",
        "shape",
        "stack",
        "size",
        "zeros_like",
        "ones_like",
    )
    + ("fill", "random.uniform", "random.normal", "strings.as_string", "strings.to_number")
    # a flip or a dtype conversion touches each pixel once: cheaper than the hand-off to a thread
    + ("image.flip_left_right", "image.flip_up_down", "image.random_flip_left_right")
    + ("image.random_flip_up_down", "image.convert_image_dtype", "image.transpose")
    # padding a small image into a larger canvas copies it once (MNIST 28x28 into 75x75: debatable 2/2)
    + ("pad", "image.pad_to_bounding_box")
}


# crops copy a window of an image: cheap once the image is decoded, but a chain of pad, crop and flip on
# 32x32 CIFAR images alone on one thread was read right (reading 14), so only `_light_after_threads` uses them
_CROPS = frozenset(
    "tensorflow." + n for n in ("image.random_crop", "random_crop", "image.crop_to_bounding_box", "slice")
) | {"tensorflow.image.central_crop"}


def _light_after_threads(call: ast.Call, index: ModuleIndex) -> bool:
    """A map that only casts, reshapes or crops (`cast` + `random_crop`): after an earlier map that decodes on
    several threads it adds little per element (reading 14: debatable 2/2 at medium)."""
    body = _map_function_body(call, index)
    return bool(body) and all(
        index.resolver.call_name(node) in _CHEAP | _CROPS
        for root in body
        for node in ast.walk(root)
        if isinstance(node, ast.Call)
    )


def is_cheap_map(call: ast.Call, index: ModuleIndex) -> bool:
    """The map only selects, slices or applies element-wise ops: running it in parallel would gain nothing."""
    if call.args and index.resolver.qualname(call.args[0]) in _CHEAP:
        return True  # ds.map(tf.square)
    body = _map_function_body(call, index)
    if not body:
        return False
    return all(
        index.resolver.call_name(node) in _CHEAP
        or (isinstance(node.func, ast.Name) and node.func.id in _BUILDERS)
        or (isinstance(node.func, ast.Attribute) and node.func.attr in _BUILDERS)
        for root in body
        for node in ast.walk(root)
        if isinstance(node, ast.Call)
    )


# `lambda x: dict(image=..., label=...)`, `collections.OrderedDict(x=..., y=...)` only repack
_BUILDERS = frozenset({"dict", "tuple", "list", "OrderedDict"})
_MODEL_WORDS = ("model", "tower", "encoder", "net")


def maps_a_model(call: ast.Call) -> bool:
    """`batches.map(movie_model)`, `map(lambda t: (t, model.movie_model(t)))`: a network run inside the
    input pipeline (embedding candidates), not input preparation that threads would speed up."""
    fn = mapped_function(call)
    if fn is None:
        return False
    for node in ast.walk(fn):
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        if any(word in name.lower() for word in _MODEL_WORDS):
            return True
    return False


def _batch_of_one(call: ast.Call) -> bool:
    size = (
        call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "batch_size"), None)
    )
    return isinstance(size, ast.Constant) and size.value == 1


def _map_before_batch(index: ModuleIndex):
    """(map call, batch call, kind) where a vectorisable map runs before the batch that follows it."""
    seen: set[int] = set()
    for chain in dataset_flow(index).all_steps():
        for i, step in enumerate(chain):
            if step.kind != "map" or id(step.node) in seen:
                continue
            kind = vectorisable_map(step.node, index)
            if kind is None and _parses_examples(step.node, index):
                kind = "parsing"  # the per-example parse is in the code seen: high
            elif kind is None and _named_like_a_parser(step.node, index):
                kind = "parser"  # only the name says it parses single examples: medium
            if kind is None:
                continue
            for later in chain[i + 1 :]:
                if later.kind == "batch":
                    if not _batch_of_one(later.node):
                        seen.add(id(step.node))
                        yield step.node, later.node, kind
                    break
                if later.kind == "map" and (
                    vectorisable_map(later.node, index) is not None or _repacks_only(later.node, index)
                ):
                    continue  # two maps that run on batches too: both can move behind the batch
                if later.kind not in _BETWEEN_MAP_AND_BATCH:
                    break


# Python calls that only take apart or rebuild an element's structure (a dict of features, a tuple)
_STRUCTURE_CALLS = _BUILDERS | {
    "pop",
    "get",
    "items",
    "keys",
    "values",
    "set",
    "len",
    "zip",
    "update",
    "copy",
}


def _repacks_only(call: ast.Call, index: ModuleIndex) -> bool:
    """The map only rearranges the element's structure, in its own code and the module functions it calls
    (`lambda f: get_features_target_tuple(f)` popping the label out of a feature dict, `lambda d: (d["x"],
    d["y"])`): it gives the same on a batch, so a parse before it can still move behind the batch (tf-fix26:
    cloudml-samples' template, whose maintainers batched before all three maps)."""
    roots = map_code(call, index)
    if not roots:
        return False
    helpers = {f.name for f in _called_helpers(roots, index)}
    for node, name in _calls_in_map(roots, index):
        if name in _NEUTRAL or named_call(node) in _STRUCTURE_CALLS:
            continue
        if isinstance(node.func, ast.Name) and node.func.id in helpers:
            continue
        return False
    return True


def check_map_before_batch(index: ModuleIndex):
    """Every finding is `low`, the rule's level since tf-fix33 (the comment below says why). A serial map
    that parses single examples is reported here too since tf-fix40, besides PP202's finding on it: the two
    rules name different fixes (threads keep the parse as written; parsing after `batch` does the batch's
    records in one op, the fix reading 29 read as the better one on all 8 listed parses). Not a serial map
    of a function known as a parser by its name only: its code may decode or run Python, which batching
    first would not take (PP202 reports it)."""
    serial = {id(call) for call, _ in _serial_map_findings(index)}
    for map_call, batch_call, kind in _map_before_batch(index):
        if kind == "parser" and id(map_call) in serial:
            continue  # a serial map named like a parser: PP202's, naming batching as the other fix
        how = (
            "batch first and parse the batch with tf.io.parse_example"
            if kind in ("parse_example", "parsing", "parser")
            else "batch first and map once per batch"
        )
        what = "a parser `map` (if it parses single examples)" if kind == "parser" else f"{kind} `map`"
        yield RawFinding(
            "PP201",
            *_at_method(map_call),
            f"{what} runs once per element before `batch` (line {_at_method(batch_call)[0]}); {how}",
        )


# PP201's last `medium` class until tf-fix33: a per-example parse seen in the map's code (not a parser known by
# name only), on a pipeline seen training, not only printed or peeked at (serial parses are PP202's since
# tf-fix17, so in practice a parse already on threads). As first read over readings 15-24 it read right 3 times
# in 6 in 4 repositories (moono's StyleGAN reader and Geron's CSV reader twice right; nex3z's housing CSV twice
# and dmmagdal's AUTOTUNE LSUN parse debatable: little to gain next to the model), under `medium`'s 70%, so the
# rule is `low` throughout. (tf-calibrate15 had read it 14 of 16 over readings 10-15 while serial parses were
# in it; maps only looked at, batch-capable element-wise maps and parsers known by name only were `low`
# already: right 1 time in 14 at medium in reading 8.)


# How a map is told its thread count: `num_parallel_calls`, or `num_threads` in tf.contrib.data's
# `map(f, num_threads=n, output_buffer_size=m)` (TF 1.2-1.4; read wrong 6/6 as serial in reading 16).
_THREAD_KEYWORDS = ("num_parallel_calls", "num_threads")


def _on_threads(call: ast.Call, position: int = 1, keyword: str = "num_parallel_calls") -> bool:
    """The stage already runs on several threads: `num_parallel_calls` or `num_threads` (keyword, or the
    argument at `position`: 1 for map, 3 for interleave) is given and is not the literal 1."""
    names = _THREAD_KEYWORDS if keyword == "num_parallel_calls" else (keyword,)
    value = next((k.value for k in call.keywords if k.arg in names), None)
    if value is None and len(call.args) > position:
        value = call.args[position]
    if value is None:
        return False
    return not (isinstance(value, ast.Constant) and value.value in (1, None))


def _threads_unset(value: ast.AST, index: ModuleIndex) -> bool:
    """A thread count that leaves the stage serial all the same: `None` (the default), written or through a
    name the module binds once to it (`autotune = None` ... `num_parallel_calls=autotune`)."""
    if isinstance(value, ast.Name):
        value = index.only_value(value.id)
    return isinstance(value, ast.Constant) and value.value is None


# Steps that group elements; `apply` of a transformation not known (`batch_and_drop_remainder`) may be one.
_BATCHING = frozenset(
    {"batch", "padded_batch", "map_and_batch", "ragged_batch", "bucket_by_sequence_length", "window", "apply"}
)


def _groups(chain) -> bool:
    """The pipeline groups its elements somewhere: a `_BATCHING` step other than `batch(1)`."""
    return any(s.kind in _BATCHING and not _batch_of_one(s.node) for s in chain)


def _serial_by_choice(index: ModuleIndex) -> set[int]:
    """`map`/`interleave` calls in one branch of an `if` whose other branch runs the same stage on several
    threads (`if deterministic: ds.interleave(...)` / `else: ds.apply(parallel_interleave(...))`, a fallback
    for an old TensorFlow, an evaluation branch): the serial path was chosen on purpose. Computed once per
    module, when a finding first asks."""
    return _once(index, "_serial_by_choice", _branches_with_parallel_siblings)


def _branches_with_parallel_siblings(index: ModuleIndex) -> set[int]:
    chosen: set[int] = set()
    for node in walk(index.tree):
        if not isinstance(node, ast.If) or not node.orelse:
            continue
        sides = [_stage_calls(node.body), _stage_calls(node.orelse)]
        for mine, other in (sides, sides[::-1]):
            if any(_parallel_stage(c) for c in other):
                chosen.update(id(c) for c in mine if not _parallel_stage(c))
    return chosen


_STAGES = frozenset({"map", "interleave", "apply", "parallel_interleave", "map_and_batch"})


def _stage_calls(body) -> list[ast.Call]:
    calls = []
    for stmt in body:
        for node in ast.walk(stmt):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in _STAGES
            ):
                calls.append(node)
    return calls


def _parallel_stage(call: ast.Call) -> bool:
    """A stage that runs on several threads: `num_parallel_calls` given (not 1), a parallel_interleave."""
    attr = call.func.attr if isinstance(call.func, ast.Attribute) else ""
    if attr == "parallel_interleave":
        return True
    if attr == "apply" and call.args and isinstance(call.args[0], ast.Call):
        return _parallel_stage(call.args[0])
    if attr == "map_and_batch":  # (map_func, batch_size, num_parallel_batches, drop_remainder, calls)
        return _on_threads(call, 4) or _on_threads(call, 2, "num_parallel_batches")
    return attr in ("map", "interleave") and _on_threads(call, 3 if attr == "interleave" else 1)


def _read_lightly(flow, index: ModuleIndex) -> set[int]:
    """Steps of pipelines whose speed hardly matters, as this module reads them: only by `evaluate` or
    `predict` outside loops (a test split scored once after training), or element by element (no batch, or
    `batch(1)`, each element fetched by its own `sess.run` or Python step, which costs more than the map).
    A pipeline also trained on, handed on, returned or stored is never among them."""
    looped = {id(site.node) for site in index.calls if site.loops}
    enclosing = {id(site.node): site.function for site in index.calls}

    def one_pass(at, chain) -> bool:
        """`evaluate`/`predict` outside a loop, or a TF1 one-shot iterator over an evaluation pipeline that
        does not repeat (`test_ds.make_one_shot_iterator()`, in `def eval(...)`)."""
        if not isinstance(at, ast.Call) or not isinstance(at.func, ast.Attribute) or id(at) in looped:
            return False
        if at.func.attr in ONE_PASS or toy_fit(at, index):
            return True  # a smoke `fit` of at most 20 steps reads a few batches (reading 13: debatable)
        if at.func.attr != "make_one_shot_iterator" or any(s.kind == "repeat" for s in chain):
            return False
        owner = getattr(enclosing.get(id(at)), "name", "")
        words = f"{ast.unparse(at.func.value)} {owner}".lower()
        return any(w in words for w in _EVALUATION_WORDS)

    # one pass over the consumed pipelines (merged parts included) for both questions
    once: set[int] = set()
    many: set[int] = set()
    single: set[int] = set()
    grouped: set[int] = set()
    for ids, readers in flow.readers.items():  # every consumer of each pipeline `consumed` holds
        chain = flow.consumed[ids][0]
        by_pass = once if all(one_pass(at, chain) for at in readers) else many
        for each in flow.expand(chain):
            steps = [id(s.node) for s in each]
            by_pass.update(steps)
            (grouped if _groups(each) else single).update(steps)
    return ((once - many) | (single - grouped)) - flow.steps_of(flow.kept_chains())


_WRITE_CALLS = frozenset({"write", "writestr", "imwrite", "SerializeToString", "savez", "save"})


def loop_writes(loop: ast.AST) -> bool:
    """A loop whose body writes (`writer.write(serialize_example(x, y))`, `cv2.imwrite`, `np.save`): over a
    pipeline, a conversion whose per-element Python work costs more than the pipeline; for PP103, a loop that
    may change the files it reads. A weights save (`checkpoint.save(path)`) writes no records."""
    periodic = _every_n_steps(loop)
    for node in ast.walk(loop):
        if isinstance(node, ast.Call) and not _saves_weights(node, periodic):
            name = named_call(node)
            if name in _WRITE_CALLS or "serializ" in name.lower():
                return True
    return False


# receivers of a `.save(...)` that keeps weights, not records: `checkpoint`, `ckpt_manager`, `saver`,
# `self.model`, `tf.saved_model`
_WEIGHT_SAVERS = ("ckpt", "checkpoint", "saver", "manager", "model")


def _saves_weights(call: ast.Call, periodic: set[int]) -> bool:
    """A `.save(...)` of a checkpoint or model: its receiver is named for one, or it runs every n steps
    (`if step % 2000 == 0: net.save(path)`), as a training loop saves and a record conversion never does
    (OCR-tf2's `checkpoint.save` made its training loop read as a conversion, reading 28)."""
    if named_call(call) != "save" or not isinstance(call.func, ast.Attribute):
        return False
    if id(call) in periodic:
        return True
    receiver = ast.unparse(call.func.value).lower()
    return any(word in receiver for word in _WEIGHT_SAVERS)


def _every_n_steps(loop: ast.AST) -> set[int]:
    """Calls under an `if` whose test takes a remainder (`if step % 100 == 0:`) in `loop`."""
    inside: set[int] = set()
    for node in ast.walk(loop):
        if isinstance(node, ast.If) and any(
            isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) for n in ast.walk(node.test)
        ):
            inside.update(id(n) for stmt in node.body for n in ast.walk(stmt) if isinstance(n, ast.Call))
    return inside


def _only_called_here(index: ModuleIndex) -> set[str]:
    """Functions whose results stay in this module: called here, never referenced otherwise (returned,
    passed as a callback), and only from the module's top level or from functions that are such
    themselves (a script's `train_set = reader(files)`)."""
    calls: dict[str, list] = {}
    callee_nodes = set()
    for site in index.calls:
        func = site.node.func
        if isinstance(func, ast.Name):
            calls.setdefault(func.id, []).append(site)
            callee_nodes.add(id(func))
    nodes = [n for n in walk(index.tree) if isinstance(n, ast.Name) and n.id in calls]
    local = _local_spans(nodes, calls, index)
    referenced = {
        n.id
        for n in nodes
        if isinstance(n.ctx, ast.Load)
        and id(n) not in callee_nodes
        and not any(start <= n.lineno <= end for start, end in local.get(n.id, ()))
    }
    internal: set[str] = set()
    for _ in range(3):  # callers of callers, three levels
        internal |= {
            name
            for name, sites in calls.items()
            if name not in referenced
            and all(
                site.function is None or getattr(site.function, "name", None) in internal for site in sites
            )
        }
    return internal


def _local_spans(nodes, names, index: ModuleIndex) -> dict[str, list[tuple[int, int]]]:
    """Line spans of the functions that bind one of `names` locally (a parameter or an assignment): a use
    there (`dataset = dataset.map(f)` in `def dataset(...)`) is the local, not the module function."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for function in index.functions:
        args = function.args
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
            if a.arg in names:
                spans.setdefault(a.arg, []).append((function.lineno, function.end_lineno or function.lineno))
    for n in nodes:
        if isinstance(n.ctx, ast.Store):
            inner = [f for f in index.functions if f.lineno <= n.lineno <= (f.end_lineno or f.lineno)]
            if inner:
                f = max(inner, key=lambda f: f.lineno)
                spans.setdefault(n.id, []).append((f.lineno, f.end_lineno or f.lineno))
    return spans


def _used_here(flow, index: ModuleIndex) -> set[int]:
    """`flow.used_steps()`, without pipelines only returned by functions that this module alone calls: what
    their callers do with them is seen here (`tdataset = dataset(...)` then a loop that plots each batch;
    reading 13 read such lessons wrong 3 times at medium)."""
    internal = _once(index, "_only_called_here", _only_called_here)
    returned = [
        c
        for c, _ in flow.handed_out()
        if any(
            getattr(f, "name", None) not in internal
            for f in flow.returners.get(tuple(id(s.node) for s in c), [])
        )
    ]
    kept = [c for c, _ in flow.passed.values()] + list(flow.trained.values()) + returned
    return flow.steps_of([c for c, _ in flow.consumed.values()] + kept)


def _converted_or_unread(flow, index: ModuleIndex) -> set[int]:
    """Steps of pipelines read once to be rewritten (only Python loops that write records or files read
    them: a CSV-to-TFRecord conversion; reading 11 wrong 6/6 at high) and of pipelines trained by name only
    (`train_set = reader(...)`) that nothing reads, returns or hands on (the consumer commented out or
    replaced: wrong 4/4 in reading 11)."""
    writing: list = []
    reading: list = []
    for chain, loop in flow.iterated.values():
        (writing if loop_writes(loop) else reading).append(chain)
    for ids, readers in flow.readers.items():  # every consumer, the first (`consumed`'s) included
        if any(not loop_writes(at) for at in readers):
            reading.append(flow.consumed[ids][0])
    reading += [c for c, _ in flow.passed.values()]
    # returned by a function a caller outside this module may call (`def train_input_fn(): ... return ds`)
    internal = _once(index, "_only_called_here", _only_called_here)
    reading += [
        c
        for c, _ in flow.handed_out()
        if any(
            getattr(f, "name", None) not in internal
            for f in flow.returners.get(tuple(id(s.node) for s in c), [])
        )
    ]
    read = flow.steps_of(reading)
    written = flow.steps_of(writing)
    trained = flow.trained_steps()
    # one element now and then (`next(vis_iter)` every 100 steps to draw it), not trained on or batched:
    # reading 11 read such a visualisation set wrong
    glimpsed = flow.steps_of([c for c in flow.periodic.values() if not _groups(c)])
    return (written - read) | (trained - read - written) | (glimpsed - trained) | _tf1_run_once(flow, index)


def _tf1_run_once(flow, index: ModuleIndex) -> set[int]:
    """Steps of pipelines only TF1 iterators read (`ds.make_one_shot_iterator().get_next()`, made where the
    result stays in this module: not an Estimator's input_fn) in a script (no `__main__` guard: a loader
    module whose `main()` pulls one batch is imported by its training script; a DeepPerf hold-out line)
    whose session runs never repeat (no `run` in a loop, or only in `for step in np.arange(1)`) and that
    trains nothing: one batch is pulled to be shown, or none (book demos and a sketch that never runs its
    tensors: wrong 4/4 over readings 13 and 14)."""
    internal = _once(index, "_only_called_here", _only_called_here)
    enclosing = {id(site.node): site.function for site in index.calls}

    def kept_here(at) -> bool:  # made at the top level or in a function whose results stay here
        function = enclosing.get(id(at))
        return function is None or getattr(function, "name", None) in internal

    only_iterators = [
        flow.consumed[ids][0]
        for ids, readers in flow.readers.items()
        if all(
            isinstance(at, ast.Call) and named_call(at) in _TF1_ITERATORS and kept_here(at) for at in readers
        )
    ]
    if not only_iterators or _has_main_guard(index):
        return set()  # a module meant to be imported: its `__main__` check says nothing of its callers
    for site in index.calls:
        name = named_call(site.node)
        if name in _TRAINING_CALLS or (name == "run" and not all(_at_most_once(lp) for lp in site.loops)):
            return set()
    others = [c for c, _ in flow.passed.values()]
    others += [
        c
        for ids, (c, _) in flow.returned.items()
        if any(getattr(f, "name", None) not in internal for f in flow.returners.get(ids, []))
    ]
    others += [c for c, _ in flow.iterated.values()] + list(flow.trained.values())
    others += [flow.consumed[ids][0] for ids in flow.readers if flow.consumed[ids][0] not in only_iterators]
    return flow.steps_of(only_iterators) - flow.steps_of(others)


def _has_main_guard(index: ModuleIndex) -> bool:
    """`if __name__ == "__main__":` at the top level."""
    return any(is_main_guard(stmt) for stmt in index.tree.body)


_TF1_ITERATORS = frozenset({"make_one_shot_iterator", "make_initializable_iterator"})
_TRAINING_CALLS = frozenset(
    {"fit", "fit_generator", "train", "train_and_evaluate", "minimize", "apply_gradients", "train_on_batch"}
)


def _at_most_once(loop) -> bool:
    """`for step in range(1)` or `np.arange(1)`: the body runs once."""
    count = literal_iterations(loop)
    it = getattr(loop, "iter", None)
    if count is None and isinstance(it, ast.Call) and named_call(it) == "arange" and len(it.args) == 1:
        arg = it.args[0]
        count = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, int) else None
    return count is not None and count <= 1


_PLAIN_READERS = ("TFRecordDataset", "TextLineDataset", "CsvDataset", "FixedLengthRecordDataset")


def _node_of(chains, node_id: int) -> ast.Call | None:
    return next((s.node for chain in chains for s in chain if id(s.node) == node_id), None)


def _reads_plain_files(call: ast.Call | None, index: ModuleIndex) -> bool:
    """The interleaved function only opens file readers (`lambda f: tf.data.TextLineDataset(f).skip(1)`,
    `tf.data.TFRecordDataset` itself): no parse, decode or map inside it."""
    fn = mapped_function(call) if call is not None else None
    if fn is None:
        return False
    roots = map_code(call, index) or [fn]
    calls = [n for root in roots for n in ast.walk(root) if isinstance(n, ast.Call)]
    names = [index.resolver.call_name(n) or "" for n in calls]
    attrs = [n.func.attr for n in calls if isinstance(n.func, ast.Attribute)]
    if isinstance(fn, ast.Attribute | ast.Name) and map_code(call, index) is None:
        return ast.unparse(fn).endswith(_PLAIN_READERS)  # `interleave(tf.data.TFRecordDataset, ...)`
    return any(n.endswith(_PLAIN_READERS) for n in names) and not any(
        a in ("map", "flat_map", "interleave", "batch") for a in attrs
    )


def _sets_map_parallelization(index: ModuleIndex) -> bool:
    for node in walk(index.tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr == "map_parallelization":
                    return True
    return False


_PARALLEL_POSITION = {"map": 1, "interleave": 3}
_PEEK_LIMIT = 100  # `take(k)` with a constant k at most this: a look at a few elements, not a training input


def mapped_function(call: ast.Call) -> ast.AST | None:
    return call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "map_func"), None)


def is_trivial_lambda(fn: ast.AST | None) -> bool:
    """`lambda x, y: x`, `lambda d: d["image"]`, `lambda x, y: (y, x)`: selects or reorders, computes nothing."""
    if not isinstance(fn, ast.Lambda):
        return False
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args)}

    def plain(node) -> bool:
        if isinstance(node, ast.Name):
            return node.id in params
        if isinstance(node, ast.Subscript):
            return plain(node.value) and isinstance(node.slice, ast.Constant | ast.Name)
        if isinstance(node, ast.Tuple | ast.List):
            return all(plain(e) for e in node.elts)
        if isinstance(node, ast.Dict):
            return all(isinstance(k, ast.Constant) for k in node.keys) and all(plain(v) for v in node.values)
        return False

    return plain(fn.body)


def _regroups_only(call: ast.Call, index: ModuleIndex) -> bool:
    """The map's def (or lambda) only builds a tuple or dict from its argument's items: every statement
    binds a name or a key to a plain value (the argument, an item of it, a local so bound, or a tuple or
    dict of those), returns one, or is an `if` on a name of the closure (`if is_training:`) around such
    statements (tf-fix40: `select_data_from_record` regrouping a parsed dict into `(x, y)`, read wrong 5
    times under PP202 in reading 29). It computes nothing, so threads would not help it."""
    fn = mapped_function(call)
    if isinstance(fn, ast.Lambda):
        return is_trivial_lambda(fn)
    definition = _mapped_def(call, index)
    if definition is None or isinstance(definition, ast.Lambda):
        return False
    plain_names = {a.arg for a in (*definition.args.posonlyargs, *definition.args.args)}
    if not plain_names:
        return False

    def plain(node) -> bool:
        if isinstance(node, ast.Name):
            return node.id in plain_names
        if isinstance(node, ast.Subscript):
            return plain(node.value) and isinstance(node.slice, ast.Constant)
        if isinstance(node, ast.Tuple | ast.List):
            return all(plain(e) for e in node.elts)
        if isinstance(node, ast.Dict):
            return all(isinstance(k, ast.Constant) for k in node.keys) and all(plain(v) for v in node.values)
        return False

    def regroups(statements) -> bool:
        for stmt in statements:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # a docstring
            if isinstance(stmt, ast.Pass):
                continue
            if isinstance(stmt, ast.Return) and (stmt.value is None or plain(stmt.value)):
                continue
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and plain(stmt.value):
                target = stmt.targets[0]
                if isinstance(target, ast.Name):
                    plain_names.add(target.id)
                    continue
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id in plain_names
                    and isinstance(target.slice, ast.Constant)
                ):
                    continue
                return False
            if (
                isinstance(stmt, ast.If)
                and all(
                    isinstance(n, ast.Name | ast.UnaryOp | ast.BoolOp | ast.Not | ast.And | ast.Or | ast.Load)
                    for n in ast.walk(stmt.test)
                )
                and not any(isinstance(n, ast.Name) and n.id in plain_names for n in ast.walk(stmt.test))
                and regroups(stmt.body)
                and regroups(stmt.orelse)
            ):
                continue
            return False
        return True

    return regroups(definition.body)


def literal_int(node: ast.AST | None, index: ModuleIndex) -> int | None:
    """An int written in the code, directly or through a name assigned once (`num_examples = 4`)."""
    if isinstance(node, ast.Name):
        node = index.only_value(node.id)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


_NAMED_PEEK_LIMIT = 10  # `take(num_examples)`: a named count is a setting, and may be raised (100 read right)


def _small_take(call: ast.Call, index: ModuleIndex) -> bool:
    arg = call.args[0] if call.args else None
    k = literal_int(arg, index)
    return k is not None and k <= (_NAMED_PEEK_LIMIT if isinstance(arg, ast.Name) else _PEEK_LIMIT)


def _peeked(map_call: ast.Call, chains, index: ModuleIndex) -> bool:
    """The map feeds only a look at a few elements (`ds.map(f).take(1)`, `take(num_examples)` with
    `num_examples = 4`), directly or through a merge (`Dataset.zip(a, b).take(1)`), and nothing reads it
    without such a `take` (`for x in ds.take(1): show(x)` then `model.fit(ds)` is no peek)."""
    flow = dataset_flow(index)
    key = id(map_call)
    peek = False
    for chain in [each for c in chains for each in flow.expand(c)]:
        ids = [id(s.node) for s in chain]
        if key in ids and _small_take_after(chain, ids.index(key), index):
            peek = True
            break
    if not peek:
        return False
    for chain in _once(index, "_read_chains", lambda _: _read_chains(flow)):  # once per module, not per map
        ids = [id(s.node) for s in chain]
        if key in ids and not _small_take_after(chain, ids.index(key), index):
            return False
    return True


def _small_take_after(chain, position: int, index: ModuleIndex) -> bool:
    return any(s.kind == "take" and _small_take(s.node, index) for s in chain[position + 1 :])


def _read_chains(flow) -> list:
    """Every pipeline something reads (consumed, handed on, trained on, returned), merged ones included."""
    return [each for chain in flow.read_chains() for each in flow.expand(chain)]


def _interleaved_functions(index: ModuleIndex) -> set[str]:
    """Names of functions passed to an interleave/flat_map: their maps run inside another parallel stage."""
    names = set()
    for site in index.calls:
        func = site.node.func
        if isinstance(func, ast.Attribute) and func.attr in ("interleave", "flat_map", "parallel_interleave"):
            fn = mapped_function(site.node)
            if isinstance(fn, ast.Name | ast.Attribute):
                names.add(fn.id if isinstance(fn, ast.Name) else fn.attr)
    return names


def _untraced_dataset_maps(index: ModuleIndex, traced: set[int]):
    """`.map`/`.interleave` calls on datasets the flow could not trace (a parameter, an attribute set
    elsewhere) that only tf.data spells so: `map(map_func=...)`, or a receiver named like a dataset (`ds`,
    `train_ds`, `self.dataset`; `utils.interleave(x, n)` is no dataset)."""
    stepped = None
    for site in index.calls:
        call = site.node
        func = call.func
        if id(call) in traced or not isinstance(func, ast.Attribute) or func.attr not in _PARALLEL_POSITION:
            continue
        root = _chain_root(func.value)
        if _takes_a_few(func.value, index):
            continue  # `ds.take(10).map(decode)...`: a look at a few elements
        receiver = root.attr if isinstance(root, ast.Attribute) else getattr(root, "id", "")
        words = receiver.lower().split("_")
        looks_like_dataset = "dataset" in receiver.lower() or "ds" in words
        if not looks_like_dataset and self_attribute(func.value):
            stepped = _tf_data_attributes(index) if stepped is None else stepped
            looks_like_dataset = receiver in stepped
        if looks_like_dataset or any(k.arg == "map_func" for k in call.keywords):
            yield call, func.attr


def _takes_a_few(expr: ast.AST, index: ModuleIndex) -> bool:
    """The chain of steps `expr` ends takes a few elements somewhere (`take(k)`, as `_small_take` counts k)."""
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in METHODS:
        if expr.func.attr == "take" and _small_take(expr, index):
            return True
        expr = expr.func.value
    return False


def _chain_root(expr: ast.AST) -> ast.AST:
    """What a chain of tf.data steps starts from: `ds` in `ds.map(decode).batch(n)`, `expr` itself when it
    is no such chain (a later map of an untraced pipeline is named by its pipeline, not by the call)."""
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in METHODS:
        expr = expr.func.value
    return expr


# Steps only a tf.data pipeline takes (a list or an array has none of them)
_TF_DATA_ONLY_STEPS = frozenset(
    {"unbatch", "padded_batch", "prefetch", "flat_map", "interleave", "with_options"}
)


def _tf_data_attributes(index: ModuleIndex) -> set[str]:
    """Attributes the module rebinds to a tf.data-only step of themselves (`self.core =
    self.core.unbatch()`): a wrapper class keeping its pipeline on `self` (tf-fixmine's Computer-Vision
    `Dataset`, whose `map(self, func)` forwards to `self.core.map(func)`)."""
    found = set()
    for node in walk(index.tree):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and self_attribute(node.targets[0])
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr in _TF_DATA_ONLY_STEPS
            and self_attribute(node.value.func.value)
            and node.value.func.value.attr == node.targets[0].attr
        ):
            found.add(node.targets[0].attr)
    return found


def _receiver_batched(call: ast.Call, index: ModuleIndex) -> bool:
    """An untraced map on batches: `x.batch(n).map(f)`, or on a name every assignment of which ends in
    `.batch(...)` (`batch_ds = in_ds.map(load, num_parallel_calls=4).batch(n)` in a pipeline factory)."""
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    values = index.name_values.get(receiver.id, []) if isinstance(receiver, ast.Name) else [receiver]
    return bool(values) and all(
        isinstance(v, ast.Call)
        and isinstance(v.func, ast.Attribute)
        and v.func.attr in ("batch", "padded_batch")
        and not _batch_of_one(v)
        for v in values
    )


# PP201's kinds that parse single examples: on a serial map PP202 reports them too (see _serial_maps)
_PARSE_KINDS = ("parse_example", "parsing", "parser")


def check_sequential_map(index: ModuleIndex):
    for _, finding in _serial_map_findings(index):
        yield finding


def _serial_map_findings(index: ModuleIndex) -> list:
    """`_serial_maps` once per module."""
    return _once(index, "_serial_map_findings", lambda i: list(_serial_maps(i)))


def _serial_maps(index: ModuleIndex):
    """(map or interleave call, PP202 finding) for each serial stage reported. A serial map that parses
    single examples before `batch` is PP202's as well as PP201's (since tf-fix40): threads are the one-keyword fix that keeps the
    parse as written (reading 16: 23 such maps read under PP201 asked for parallel calls first); the
    message names batching and tf.io.parse_example as the other way."""
    flow = dataset_flow(index)
    if _sets_map_parallelization(index):
        return
    before_batch = [(m, kind) for m, _, kind in _map_before_batch(index)]
    vectorisable = {id(m) for m, kind in before_batch if kind not in _PARSE_KINDS}
    parses = {id(m) for m, kind in before_batch if kind in _PARSE_KINDS}
    chains = list(flow.all_steps())
    enclosing = {id(site.node): site.function for site in index.calls}
    interleaved = _interleaved_functions(index)
    seen: set[int] = set()
    traced = {id(step.node) for chain in chains for step in chain}
    discarded = {
        id(node.value)
        for node in walk(index.tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
    }
    fitted = [chain for ids, chain in flow.trained.items() if ids in flow.consumed]
    before_cache = _cached_steps(chains) - _cached_steps(fitted, uncached=True)
    only_looked_at = _only_iterated(flow)
    glanced = _glanced(flow)
    used = _once(index, "_used_here", lambda i: _used_here(flow, i))
    trained = flow.trained_steps()
    validated = flow.validated_steps()
    light = _once(index, "_read_lightly", lambda i: _read_lightly(flow, i))
    idle = _once(index, "_converted_or_unread", lambda i: _converted_or_unread(flow, i))
    feeds_threads = {
        id(step.node)
        for chain in chains
        for i, step in enumerate(chain)
        # a later map, or `apply(map_and_batch(parse, ..., num_parallel_calls=...))`, on several threads
        if step.kind == "interleave"
        and any(_parallel_stage(s.node) for s in chain[i + 1 :] if s.kind != "interleave")
    }
    plain_readers = {i for i in feeds_threads if _reads_plain_files(_node_of(chains, i), index)}
    untraced = [(Step(kind, call),) for call, kind in _untraced_dataset_maps(index, traced)]
    untraced_ids = {id(chain[0].node) for chain in untraced}
    for chain in [*chains, *untraced]:
        if _synthetic(chain[0].node, index):
            continue  # from_tensors(x) or range(1) repeated: a stand-in input (tests, null input, noise)
        batched = threaded = False
        for step in chain:
            if step.kind == "map" and _parallel_stage(step.node):
                threaded = True
            if step.kind in ("batch", "padded_batch", "map_and_batch") and not _batch_of_one(step.node):
                batched = True
            elif step.kind == "unbatch":
                batched = False
            if step.kind not in _PARALLEL_POSITION or id(step.node) in seen or id(step.node) in vectorisable:
                continue
            seen.add(id(step.node))
            call = step.node
            if any(
                k.arg is None or (k.arg in _THREAD_KEYWORDS and not _threads_unset(k.value, index))
                for k in call.keywords
            ):
                continue
            if len(call.args) > _PARALLEL_POSITION[step.kind] or any(
                isinstance(a, ast.Starred) for a in call.args
            ):
                continue
            if _regroups_only(call, index) or _peeked(call, chains, index) or _sets_shapes(call):
                continue
            if id(call) in discarded:
                continue  # `dataset.map(f)` as a statement does nothing at all (a bug, not a slow map)
            python = step.kind == "map" and _runs_python(call, index) and not _python_reads_files(call, index)
            # the Python code calls helpers another module holds (`py_func(self.transform_record, ...)` whose
            # method runs `image_utils.random_transform`): the project pass reads them (tf-fix51)
            elsewhere = _python_helpers_elsewhere(call, index) if python else ()
            if step.kind == "map" and (
                is_cheap_map(call, index)
                or maps_a_model(call)
                or (python and not elsewhere and not _image_ops_besides_python(call, index))
            ):
                continue  # too cheap for threads, a network, or Python under the GIL: read wrong nearly always
            owner = enclosing.get(id(call))
            # a callable handed in (`self._preprocess_fn`): its cost is unseen, read debatable or wrong 2/2
            # (Python run through helpers named for augmentation elsewhere: the project pass reads their cost)
            unsure = step.kind == "map" and (
                (not visibly_costly(call, index) and not elsewhere) or _injected(call, index)
            )
            nested = getattr(owner, "name", None) in interleaved
            cached = id(call) in before_cache  # runs once, in the first epoch
            looked_at = id(call) in only_looked_at or id(call) in glanced  # printed, never trained on
            # after `batch` the map runs once per batch on a whole tensor: threads still overlap batches, but
            # readers split on it (right 12 in readings 1 and 3: parse_example, TextVectorization on batches;
            # debatable 20/20 in reading 5: decode_csv and feature repacking once per batch)
            per_batch = step.kind == "map" and (
                batched or (id(call) in untraced_ids and _receiver_batched(call, index))
            )
            trimmed = threaded and step.kind == "map" and _light_after_threads(call, index)
            evaluation = step.kind == "map" and _in_memory_evaluation(chain, owner, index)
            # its code is here and shows no costly work (repacking, casts, padding, slicing): read right 29
            # times in 204 at `medium` over readings 1-7
            plain = (
                step.kind == "map"
                and map_code(call, index) is not None
                and not visibly_costly(call, index)
                and not elsewhere
            )
            # no code reads the traced pipeline at scale (built and left, printed by loops, one element taken
            # with next(iter(ds))) or its source is a handful of literal values: read right 4 times in 35 over
            # readings 1-7 (wrong 8/8 in reading 7's notebook demos): low
            # read once by evaluate/predict, or element by element (reading 10: debatable or wrong 11/11),
            # or a serial branch beside a parallel one (determinism, an old TF, evaluation: debatable 4/4)
            demo = id(call) not in used or id(call) in light or id(call) in _serial_by_choice(index)
            unread = id(call) not in untraced_ids and (demo or _tiny_literal_source(chain[0].node, index))
            # an interleave that only reads records a later map parses on threads, on a pipeline not seen
            # training: only the byte reads are serial (reading 10: debatable 4 times in 5)
            # the same on a pipeline seen training, when the interleaved function only opens plain readers
            # (TFRecordDataset, TextLineDataset, CSV lines): read debatable 10 times in 12 over readings 10
            # and 11 (small shards, decompression at most); the right ones were ImageNet-scale streams
            reads_for_threads = id(call) in feeds_threads and (
                id(call) not in trained or id(call) in plain_readers
            )
            alternative = (
                " (or batch first and parse the batch with tf.io.parse_example)" if id(call) in parses else ""
            )
            image_work = step.kind == "map" and does_image_work(call, index)
            doubt = unsure or nested or cached or looked_at or per_batch or evaluation or trimmed
            evidence = {
                "weak": plain or unread or reads_for_threads or id(call) in idle,
                "doubtful": doubt or python,
                "trained": id(call) in trained,
                "validated": _read_every_epoch(call, validated),
                "strings": step.kind == "map" and _string_work_only(call, index),
                "image_work": image_work,
                "fed": image_work and id(call) in fed_steps(flow),
            }
            confidence = _sequential_map_confidence(**evidence)
            if confidence == "low" and step.kind == "map":
                _note_imported_code(call, evidence, index)  # read by the project pass
                _note_untrained_image_map(call, evidence, index)  # read by the project pass
                _note_imported_python(call, {**evidence, "doubtful": doubt}, elsewhere, index)
            unset = next((k.arg for k in call.keywords if k.arg in _THREAD_KEYWORDS), None)
            message = (
                f"`{step.kind}` {f'with {unset}=None' if unset else 'without num_parallel_calls'} runs on one "
                "element at a time; "
                f"pass num_parallel_calls=tf.data.AUTOTUNE{alternative}"
            )
            yield call, RawFinding("PP202", *_at_method(call), message, confidence=confidence)


def _cached_steps(chains, uncached: bool = False) -> set[int]:
    """The steps of `chains` that a later `cache` follows (with `uncached`, that none follows). A map cached
    on one path only (`if cache: ds = ds.cache()`, a flag) and consumed by training on the other is not read
    as cached (tf-fix31: reading 23's carlesoctav); a training name bound before the cache
    (`train_ds = ds.map(f)`, then `train_ds = train_ds.cache()`) is no such path."""
    return {
        id(step.node)
        for chain in chains
        for i, step in enumerate(chain)
        if any(later.kind == "cache" for later in chain[i + 1 :]) != uncached
    }


def imported_map_code(index: ModuleIndex) -> dict[tuple[int, int], tuple[int, str, str]]:
    """The `low` PP202 findings (line, column) that would be raised if the def or class the map runs,
    imported from another module, does image or file work, each with where that code is: a tuple of (import
    level, module, name), as `from .utils import load_images` gives ((1, "utils", "load_images"),); several
    when the map's own code calls imported helpers (tf-fix37). The project pass (checker/project.py) reads
    the code."""
    _serial_map_findings(index)
    return _once(index, "_imported_maps", lambda i: {})


def _note_imported_code(call: ast.Call, evidence: dict[str, bool], index: ModuleIndex) -> None:
    """Records a `low` map for imported_map_code when image work in the code it imports would raise it
    (the project pass makes it `medium`, not `high`: imported code's lift is unmeasured on fresh code); a
    pipeline named for testing never rises (reading 13 read two such maps wrong: a pix2pix test set drawn
    from once per epoch)."""
    if evidence["image_work"]:
        return
    source = _imported_callable(call, index)
    sources = (source,) if source is not None else _imported_helpers(call, index)
    if not sources:
        return
    fed = id(call) in fed_steps(dataset_flow(index))  # (the evidence asks it only of maps doing image work)
    would_be = _sequential_map_confidence(**{**evidence, "image_work": True, "fed": fed})
    if would_be != "low" and not _bound_for_evaluation(call, index):
        _once(index, "_imported_maps", lambda i: {})[_at_method(call)] = sources


def _imported_helpers(call: ast.Call, index: ModuleIndex) -> tuple[tuple[int, str, str], ...]:
    """Where the helpers come from that the map's own code (held here) calls from a module this one imports
    (`preprocessing.random_rescale_image_and_label(image, label, ...)` in a local `preprocess_image`, reading
    26: LeslieZhoa's DeepLab input function), as _imported_callable gives one; () when there are none."""
    roots = map_code(call, index)
    return () if roots is None else _imported_from(roots, index)


def _imported_from(roots: list[ast.AST], index: ModuleIndex) -> tuple[tuple[int, str, str], ...]:
    """(level, module, name) of each helper the code in `roots` (with the module functions it calls) calls
    from a module this one imports."""
    found = []
    for node, _ in _calls_in_map(roots, index):
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            where = _in_imported_module(func.value.id, func.attr, index)
        elif isinstance(func, ast.Name) and (where := import_of(func.id, index)) is not None:
            where = where if where[1] != "" else None
        else:
            where = None
        if where is not None and where not in found:
            found.append(where)
    return tuple(found)


def untrained_image_maps(index: ModuleIndex) -> set[tuple[int, int]]:
    """The `low` PP202 findings (line, column) that are `low` only because their module neither trains nor
    validates on the pipeline: a map doing image or file work in its own code, nothing weak or doubtful.
    The project pass (checker/project.py) makes them `medium` when another module of the project calls the
    def or class that builds the pipeline into training (`_trained_elsewhere`)."""
    _serial_map_findings(index)
    return _once(index, "_untrained_maps", lambda i: set())


@dataclass(frozen=True)
class PipelineFacts:
    """What the project pass (checker/project.py) reads of a module's PP202 and PP203 findings, kept from
    the per-module pass so that the dataset flow does not run again (tf-fix30): `untrained` as
    untrained_image_maps gives it, `imported` as imported_map_code, `unfed` as unfed_image_pipelines; None
    for a part that pass did not work out (its rule was not run)."""

    untrained: frozenset | None
    imported: dict | None
    unfed: frozenset | None
    python: dict | None = None  # as imported_python_maps gives it


def pipeline_facts(index: ModuleIndex) -> PipelineFacts | None:
    """The module's PipelineFacts as the rules that ran on `index` left them, or None when neither PP202
    nor PP203 ran on it. Computes nothing: a part no rule worked out is None."""
    mapped = getattr(index, "_serial_map_findings", None) is not None
    unfed = getattr(index, "_unfed_image_pipelines", None)
    if not mapped and unfed is None:
        return None
    return PipelineFacts(
        frozenset(getattr(index, "_untrained_maps", ())) if mapped else None,
        dict(getattr(index, "_imported_maps", {})) if mapped else None,
        None if unfed is None else frozenset(unfed),
        dict(getattr(index, "_imported_python", {})) if mapped else None,
    )


def _note_untrained_image_map(call: ast.Call, evidence: dict[str, bool], index: ModuleIndex) -> None:
    """A pipeline bound to a name for testing (`self.test_unbatched = ...map(f)`) is not lifted: the class
    another module trains builds it beside the training set (tf-fix31: reading 23's tonywu71 builds a test
    split nothing reads)."""
    if _bound_for_evaluation(call, index, ("test",)):
        return
    if _sequential_map_confidence(**{**evidence, "trained": True}) == "high":
        _once(index, "_untrained_maps", lambda i: set()).add(_at_method(call))


def imported_python_maps(index: ModuleIndex) -> dict[tuple[int, int], tuple[tuple, bool]]:
    """The `low` PP202 findings (line, column) on maps that call back into Python whose Python calls helpers
    of another module (`_python_helpers_elsewhere`), each with those helpers and whether the map is `low`
    here only as a Python callback (True) or also because its module does not train on the pipeline (False,
    the `_note_untrained_image_map` class). The project pass raises it to `medium` when the helpers' code
    opens files or runs OpenCV (the work `_python_reads_files` reads here), in the second case only when
    another module trains on the pipeline."""
    _serial_map_findings(index)
    return _once(index, "_imported_python", lambda i: {})


def _note_imported_python(
    call: ast.Call, evidence: dict[str, bool], sources: tuple, index: ModuleIndex
) -> None:
    """Records a Python-callback map for imported_python_maps; `evidence` is the map's without the callback's
    doubt."""
    if not sources or _bound_for_evaluation(call, index):
        return
    if _sequential_map_confidence(**evidence) != "low":
        _once(index, "_imported_python", lambda i: {})[_at_method(call)] = (sources, True)
    elif _sequential_map_confidence(**{**evidence, "trained": True}) == "high":
        _once(index, "_imported_python", lambda i: {})[_at_method(call)] = (sources, False)


def imported_python_code(index: ModuleIndex, name: str) -> tuple[bool, tuple[tuple[int, str, str], ...]]:
    """What the top-level def `name` (or the method "Class.m") of this module does as a Python callback:
    whether it, with the module functions it calls (3 levels), opens files or runs OpenCV
    (`_python_native_work`), and the helpers it calls from modules it imports (for the project pass to read
    in turn: `Dataset.transform_record` calls `image_utils.random_transform`)."""
    owner, _, method = name.rpartition(".")
    function = index.class_methods.get(owner, {}).get(method) if owner else index.module_functions.get(name)
    if function is None:
        return False, ()
    native = any(_python_native_work(node.func) for node, _ in _calls_in_map([function], index))
    return native, _imported_from([function], index)


def _imported_callable(call: ast.Call, index: ModuleIndex) -> tuple[int, str, str] | None:
    """Where the function a map runs comes from, when this module imports it: `map(load_images)` after `from
    tfrecord_utils import load_images`, or an instance of an imported class (`parser =
    yolact_parser.Parser(...)` after `from data import yolact_parser`, or `Parser` imported by name); None for
    anything else (code held here, a TensorFlow op, a callable handed in)."""
    if map_code(call, index) is not None:
        return None
    fn = mapped_function(call)
    if isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name):
        return _in_imported_module(fn.value.id, fn.attr, index)  # `map(preprocessing.load_image)`
    if isinstance(fn, ast.Call) and isinstance(fn.func, ast.Name):
        found = import_of(fn.func.id, index)  # `map(parse_function_generator(80))`: a factory, or a class
        return found if found is not None and found[1] != "" else None
    if not isinstance(fn, ast.Name):
        return None
    if (found := import_of(fn.id, index)) is not None:
        return found if found[1] != "" else None
    made = index.only_value(fn.id)
    if not isinstance(made, ast.Call):
        return None
    if isinstance(made.func, ast.Name):
        found = import_of(made.func.id, index)
        return found if found is not None and found[1] != "" else None
    if isinstance(made.func, ast.Attribute) and isinstance(made.func.value, ast.Name):
        return _in_imported_module(made.func.value.id, made.func.attr, index)
    return None


def _in_imported_module(module: str, name: str, index: ModuleIndex) -> tuple[int, str, str] | None:
    """(level, module, name) of `module.name` where `module` is a module this one imports (`from data
    import parser`, `import utils.image as image_utils`)."""
    found = import_of(module, index, whole_module=True)
    if found is None:
        return None
    level, parent, last = found
    return level, f"{parent}.{last}" if parent else last, name


def _bound_for_evaluation(call: ast.Call, index: ModuleIndex, words: tuple[str, ...] | None = None) -> bool:
    """`test_dataset = test_dataset.map(load_image_test)`: the map's pipeline is named for testing or
    validation (for one of `words`, by default _EVALUATION_WORDS)."""
    words = _EVALUATION_WORDS if words is None else words
    return any(
        any(word in ast.unparse(target).lower() for word in words)
        for node in index.call_assignments
        if node.lineno <= call.lineno and any(n is call for n in walk(node.value))
        for target in node.targets
    )


def imported_code_does_image_work(index: ModuleIndex, name: str) -> bool:
    """The top-level def `name` of this module, or the `__call__` of its class `name` with the methods it
    calls on `self` (3 levels), does image or file work as does_image_work counts it."""
    roots: list[ast.AST] = []
    if name in index.module_functions:
        roots = [index.module_functions[name]]
    elif "__call__" in (methods := index.class_methods.get(name, {})):
        roots = [methods["__call__"]]
        # `self._parse_fn = self._parse_train_data` in __init__: a call of `self._parse_fn` runs that method
        aliases: dict[str, set[str]] = {}
        for method in methods.values():
            for node in ast.walk(method):
                if (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and self_attribute(node.targets[0])
                ):
                    values = (
                        [node.value.body, node.value.orelse]
                        if isinstance(node.value, ast.IfExp)
                        else [node.value]
                    )
                    aliases.setdefault(node.targets[0].attr, set()).update(
                        v.attr for v in values if self_attribute(v)
                    )
        for _ in range(3):
            called = {
                node.func.attr
                for root in roots
                for node in ast.walk(root)
                if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "self"
            }
            called |= {m for attr in called for m in aliases.get(attr, ())}
            roots += [methods[m] for m in sorted(called) if m in methods and methods[m] not in roots]
    names = [name for _, name in _calls_in_map(roots, index)]
    return any(any(word in name for word in _IMAGE_WORK_WORDS) and not _only_slices(name) for name in names)


def _sequential_map_confidence(
    weak: bool,
    doubtful: bool,
    trained: bool,
    strings: bool = False,
    image_work: bool = False,
    validated: bool = False,
    fed: bool = False,
) -> str:
    """high: a map whose own code does image or file work (`image_work`: decodes an image, calls a
    tf.image op, reads a file or calls back into Python) on a pipeline seen training a model or validating
    one every epoch (`_read_every_epoch`); medium: the same on a pipeline a training step reads through
    code the flow does not follow (`fed`: a TF1 iterator, an input function or a def returning it into
    training, `fed_steps`); low: the rest.

    tf-fix35 (first reads over readings 15-25; bar: `medium` needs 10 first reads or more in 4
    repositories or more, right at least 70% of the time): the `fed` class read right 13 times in 15 in 8
    repositories (readings 15-22 by reason, tf-fix30's count; reading 22's michaelwfc CIFAR-10
    augmentation maps by code, the only members in readings 21-25 when main runs on their checkouts, both
    right): `medium`. Under the 20 findings `high` asks.

    tf-cal28, as first read over readings 15-21 (bar: `high` needs 20 first-read findings or more in 5
    repositories or more, right at least 90% of the time; `medium` 70%; debatable counts against):

    - `_read_every_epoch` (image work on the `validation_data` of a training call): right 22 times in 22,
      9 repositories (the validation sets of the dragen1860 book's ch15 in three copies, the Udacity TF Hub
      notebooks, DogFaceNet, Geron's ch14, andreiqv's factories, seungtaek94's loaders, int2-group-37), all
      read at `medium`: `high`, beside the class seen training.
    - the rest of `medium` (visibly costly image work on a pipeline read at scale but neither trained nor
      validated here: returned loaders, evaluation and test sets, one-pass tools): about 18 right in 38 over
      readings 15-21 (readings 19-21 alone 4 in 16: andreiqv's one-label subsets, previews, uncalled
      loaders, one evaluate per typed model name), far under 70%: `low`. tf-calibrate20 had counted the
      whole of it, validation sets included, at 41 in 59 over readings 13-18.

    tf-calibrate20, as first read over readings 13-18 (bar: right at least 90% of the time in 25 findings or
    more over 3 readings or more, no reading of 5 or more under 80%): the `medium` class seen training read
    right 48 times in 52 (worst reading 13, 17 of 19), so it is `high`.

    tf-calibrate15, as first read over readings 10, 11, 13, 14 and 15 (bar: right at least 70% of the time
    in 15 findings or more, no reading of 5 or more under 60%): image or file work read right 169 times in
    201 (worst: reading 13, 22 of 32); record parsing alone (parse_*, decode_raw, decode_csv) 34 in 57 (0 of 9
    in reading 15), a cost seen only in the function's name 42 in 64, interleaves 2 in 6: all `low`.
    Before: maps whose only cost is string splitting and lookups (`strings`) read right 0 times in 9 at
    medium over readings 11 and 13; the rest about 1 time in 3 at medium over readings 1-8.

    tf-fix30, with reading 22 (first reads over readings 15-22, same bar as tf-cal28): reading 22 adds no
    map to the validation class or to the class seen training; the rest (`low`) gains three right ones
    (michaelwfc's two CIFAR-10 augmentation maps, first read at `medium`, trained through a one-shot
    iterator; breadbread1984's ImageNet crops, fitted by train.py but previewed in their own module): 21 in
    41 (51%), still `low`. Maps doing image work on a pipeline trained through a TF1 iterator, an input
    function or another module's loop (`fed_steps`, which this rule read only from tf-fix35) read right 13 times in
    15 by reason over readings 15-22 (8 repositories: juanabascal, bruce1408, DarkGeekMS, cyprienruffino,
    zyqgmzyq, ladangol, NguyenThanhAI, michaelwfc), under the 20 findings either level asks: not moved.

    tf-fix31, with reading 23 (first reads over readings 15-23): PP202 `low` as read 38 right of 289 in 100
    repositories (reading 23: 7 of 16); no first read of reading 23 was at `high` or `medium`. The fed
    class gains WesleyCh3n's py_function JPEG reader fitted by three scripts (right): 14 of 16 in 9
    repositories, still under 20 findings: not moved. The maps that tf-fix31 makes `high` or `medium`
    (a factory's def, tuple-unpacked splits, a cache under a flag) are reading 23's tuning rows.

    tf-fix41 (bar as tf-cal28, no repository giving more than half), first reads of readings 21-29 as
    today's code classes them (readings 15-20's checkouts are not kept): no `low` class reaches 20 findings
    at 70%. Maps doing image or file work but left `low` (not trained, weak or doubtful) read right 3 times
    in 17; maps without it (casts, repacking, record parses; reading 29's "cheap maps") 23 times in 92 (a
    serial parse alone 5 in 10, on a trained pipeline 0 in 7; the trained class without image work 6 in 6,
    in 2 repositories). `high` (trained or validated, with image work): right 16 times in 18 at first read
    over readings 15-29 (9 repositories); the debatable one (a decode a `cache` follows) is `low` since
    tf-fix31, so 16 in 17 as today's code reports them: stays `high`."""
    if weak or strings or not image_work or doubtful:
        return "low"
    if trained or validated:
        return "high"
    return "medium" if fed else "low"


def _read_every_epoch(call: ast.Call, validated: set[int]) -> bool:
    """The map's pipeline is the `validation_data` of a training call in its module (`model.fit(train_ds,
    validation_data=val_ds)`, `validated`: DatasetFlow.validated_steps): its work runs again at every epoch
    for as long as the model trains. tf-cal28: with image work, right 22 times in 22 as first read over
    readings 15-21 (9 repositories), all read at `medium`."""
    return id(call) in validated


_EVALUATION_WORDS = ("eval", "valid", "val_", "test", "predict")
_FILE_OP_WORDS = ("read_file", "decode_", "parse_", "TFRecord", "TextLine")


def _in_memory_evaluation(chain, owner, index: ModuleIndex) -> bool:
    """An evaluation or test pipeline over arrays already in memory (`from_tensor_slices((self._val_images,
    ...))` in `eval_fn`) whose maps read, decode or parse nothing: a few dozen to a few thousand samples once
    per evaluation (reading 6 read two of them debatable)."""
    source = index.resolver.call_name(chain[0].node) or ""
    if not source.endswith("from_tensor_slices"):
        return False
    name = (getattr(owner, "name", "") or "").lower()
    if not any(w in name for w in _EVALUATION_WORDS):
        return False
    for step in chain:
        if step.kind != "map":
            continue
        definition = _mapped_def(step.node, index)
        roots = [definition] if definition is not None else list(_map_function_body(step.node, index) or [])
        if not roots:
            return False  # code not seen: it may read files
        for root in roots:
            for node in ast.walk(root):
                if isinstance(node, ast.Call):
                    called = index.resolver.call_name(node) or ""
                    if any(w in called for w in _FILE_OP_WORDS):
                        return False
    return True


_SMALL_RANGE = 10
_TINY_LITERAL = 100  # elements: `range(10)`, `np.arange(10)`, a list written out in the code


def _tiny_literal_source(source: ast.Call, index: ModuleIndex) -> bool:
    """A source of a few values written in the code (`from_tensor_slices(np.arange(10))`, `Dataset.range(20)`,
    `from_tensor_slices([1, 2, 3])`) or a file the module writes itself (`open("my_test.csv", "w")` then
    `TextLineDataset(["my_test.csv"])`, a demo file of a few lines)."""
    name = (index.resolver.call_name(source) or "").rsplit(".", 1)[-1]
    first = source.args[0] if source.args else None
    if name == "range":
        return bool(source.args) and all(
            (v := literal_int(a, index)) is not None and v <= _TINY_LITERAL for a in source.args
        )
    if name in ("from_tensor_slices", "from_tensors"):
        return first is not None and _literal_values(first, index)
    if isinstance(first, ast.Name) and index.only_value(first.id) is not None:
        first = index.only_value(first.id)  # `filenames = ["my_test.csv"]`
    if name in ("TextLineDataset", "CsvDataset", "TFRecordDataset") and first is not None:
        files = first.elts if isinstance(first, ast.List | ast.Tuple) else [first]
        written = _files_written(index)
        return bool(files) and all(isinstance(f, ast.Constant) and f.value in written for f in files)
    return False


def _literal_values(node: ast.AST, index: ModuleIndex) -> bool:
    """Constants written out (nested lists, tuples, dicts of them) or a small `range`/`np.arange(n)`."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.List | ast.Tuple):
        return 0 < len(node.elts) <= _TINY_LITERAL and all(_literal_values(e, index) for e in node.elts)
    if isinstance(node, ast.Dict):
        return bool(node.values) and all(_literal_values(v, index) for v in node.values)
    if isinstance(node, ast.Call):
        name = index.resolver.call_name(node) or getattr(node.func, "id", "")
        if name in ("range", "numpy.arange"):
            return bool(node.args) and all(
                (v := literal_int(a, index)) is not None and v <= _TINY_LITERAL for a in node.args
            )
        if name in ("numpy.array", "tensorflow.constant") and node.args:
            return _literal_values(node.args[0], index)
    return False


def _files_written(index: ModuleIndex) -> set[str]:
    """File names the module opens for writing with a literal name (`open("my_test.csv", "w")`)."""
    written = set()
    for site in index.calls:
        call = site.node
        if not (isinstance(call.func, ast.Name) and call.func.id == "open" and len(call.args) >= 1):
            continue
        mode = (
            call.args[1]
            if len(call.args) > 1
            else next((k.value for k in call.keywords if k.arg == "mode"), None)
        )
        if (
            isinstance(call.args[0], ast.Constant)
            and isinstance(mode, ast.Constant)
            and isinstance(mode.value, str)
            and "w" in mode.value
        ):
            written.add(call.args[0].value)
    return written


def _only_iterated(flow) -> set[int]:
    """Steps of pipelines that only Python `for` loops running no training step read (a loop printing or
    collecting records), never consumed by training, returned or handed on (`validation_data=ds`)."""
    looked = flow.steps_of([chain for chain, _ in flow.iterated.values()])
    return looked - flow.used_steps()


def _glanced(flow) -> set[int]:
    """Steps of pipelines read only by `for` loops that stop after one element (`for x in ds: print(x);
    break`), whatever the pipeline is named (a lesson's `train_dataset` that prints one record: reading 14,
    wrong at medium): no fit, loop or hand-off reads them otherwise, and no function returns them (a
    loader's `__main__` check that takes one batch says nothing of the training script that imports it)."""
    once = [chain for chain, loop in flow.iterated.values() if runs_once(loop)]
    if not once:
        return set()
    others = [chain for chain, loop in flow.iterated.values() if not runs_once(loop)]
    others += [chain for chain, _ in flow.consumed.values()]
    others += [chain for chain, _ in flow.passed.values()] + [chain for chain, _ in flow.returned.values()]
    return flow.steps_of(once) - flow.steps_of(others)


def _synthetic(source: ast.Call, index: ModuleIndex) -> bool:
    name = index.resolver.call_name(source) or ""
    if name.endswith(".from_tensors"):
        return True
    if name.endswith("Dataset.range") and source.args:
        return all(isinstance(a, ast.Constant) and isinstance(a.value, int) for a in source.args) and (
            source.args[-1].value <= _SMALL_RANGE
        )
    return False


# What makes a map worth threads: decoding, parsing, image work, string processing, file reads.
_COSTLY_OP_WORDS = ("decode_jpeg", "decode_png", "decode_image", "decode_bmp", "decode_gif", "decode_csv")
_COSTLY_OP_WORDS += ("string_split", "substr", "regex")
_COSTLY_OP_WORDS += (
    "decode_json",
    "decode_wav",
    "parse_",
    "image.",
    "read_file",
    "strings.",
    "audio.",
    "signal.",
)
_COSTLY_NAME_WORDS = ("parse", "decode", "preprocess", "augment", "load", "tokeniz", "resize")


def map_code(call: ast.Call, index: ModuleIndex) -> list[ast.AST] | None:
    """The code the map runs when this module holds it (a lambda, a lambda bound to a name, a def of the
    module or a method of its class, also through `functools.partial(f, ...)`), else None."""
    call = _through_partial(call, index)
    fn = mapped_function(call)
    if isinstance(fn, ast.Lambda):
        return [fn.body]
    definition = _mapped_def(call, index)
    if definition is not None:
        return [definition]
    bound = _lambda_bound_to(fn, index)
    return [bound.body] if bound is not None else None


# Calls (not TensorFlow's own) whose name says they do work threads speed up: a vocabulary lookup, a
# tokenizer or TextVectorization layer, an augmentation, a crop.
_COSTLY_CALL_WORDS = (*_COSTLY_NAME_WORDS, "lookup", "split", "vectoriz", "crop", "token", "encode")


def visibly_costly(call: ast.Call, index: ModuleIndex, by_name: bool = True) -> bool:
    """The mapped function does work that threads speed up: its code (and the module functions it calls, three
    levels deep) decodes, parses, transforms images or strings, reads files, or (with `by_name`) calls
    something named for such work (`table.lookup`, `vectorize_layer`, `augmenter`); when its code is
    elsewhere, its own name says so (`parse_record`, `preprocess_fn`, `load_image`)."""
    fn = mapped_function(call)
    if fn is None:
        return False
    roots = map_code(call, index)
    if roots is None:
        names = [
            n.id if isinstance(n, ast.Name) else n.attr
            for n in ast.walk(fn)
            if isinstance(n, ast.Name | ast.Attribute)
        ]
        return any(word in name.lower() for name in names for word in _COSTLY_NAME_WORDS)
    for node, name in _calls_in_map(roots, index):
        if name.startswith("tensorflow."):
            if any(w in name for w in _COSTLY_OP_WORDS):
                return True
            continue
        if by_name and any(w in _callee(node) for w in _COSTLY_CALL_WORDS):
            return True
    return False


def _calls_in_map(roots: list[ast.AST], index: ModuleIndex) -> Iterator[tuple[ast.Call, str]]:
    """Every call in a mapped function's code and the module functions it calls, with its resolved name ("" when
    unknown)."""
    for root in [*roots, *_called_helpers(roots, index)]:
        for node in ast.walk(root):
            if isinstance(node, ast.Call):
                yield node, index.resolver.call_name(node) or ""


def _callee(call: ast.Call) -> str:
    """The called name as written, lowercased (`table.lookup(...)` -> "lookup"); "" for anything else."""
    return named_call(call).lower()


_STRING_OP_WORDS = ("strings.", "string_split", "substr", "regex")


def _string_work_only(call: ast.Call, index: ModuleIndex) -> bool:
    """The map's visible cost is only string splitting, casing or conversion and vocabulary lookups
    (`tf.strings.split(line, "\t")`, `lookup_layer(tf.strings.lower(tokens))`): cheap per sentence next to the
    model step (readings 5, 10 and 11: debatable 7 times in 9 at `high`); no decode, parse, image work, file
    read or tokenizer."""
    roots = map_code(call, index)
    if roots is None:
        return False
    string_work = False
    for node, name in _calls_in_map(roots, index):
        if name.startswith("tensorflow."):
            if any(w in name for w in _STRING_OP_WORDS):
                string_work = True
            elif any(w in name for w in _COSTLY_OP_WORDS):
                return False
            continue
        callee = _callee(node)
        if "lookup" in callee:
            string_work = True
        elif any(w in callee for w in _COSTLY_CALL_WORDS) and "split" not in callee:
            return False
    return string_work


_PYTHON_OPS = frozenset(
    {
        "tensorflow.py_func",
        "tensorflow.py_function",
        "tensorflow.numpy_function",
        "tensorflow.compat.v1.py_func",
    }
)


# Calls that show image or file work in a map's code: image decoders, tf.image ops, file reads and Python
# callbacks (the one class of PP202 evidence that stays `medium`, tf-calibrate15).
_IMAGE_WORK_WORDS = ("image.", "decode_jpeg", "decode_png", "decode_image", "decode_bmp", "decode_gif")
_IMAGE_WORK_WORDS += ("read_file", "py_function", "numpy_function", "py_func")


def names_image_work(text: str) -> bool:
    """The module's text names an image decoder, a `tf.image` op, a file read or a Python callback: a map of
    it may do image or file work (a test that spares the dataset flow of the other modules)."""
    return any(word in text for word in _IMAGE_WORK_WORDS)


def does_image_work(call: ast.Call, index: ModuleIndex) -> bool:
    """The map's code, held in this module (with the module functions it calls), decodes an image, calls an
    image op, reads a file or calls back into Python, or the map is such a TensorFlow op itself
    (`map(tf.io.decode_png)`); False when its code is elsewhere. A `functools.partial(f, ...)` is read as
    `f` (a CycleGAN's PNG decode, read right 2/2 at `medium` in reading 16, went to `low` unread)."""
    roots = map_code(call, index)
    if roots is None:
        fn = mapped_function(call)
        name = index.resolver.qualname(fn) if fn is not None else None
        names = [name] if name and name.startswith("tensorflow.") else []
    else:
        names = [name for _, name in _calls_in_map(roots, index)]
    return any(any(word in name for word in _IMAGE_WORK_WORDS) and not _only_slices(name) for name in names)


# tf.image ops that only slice, mirror or pad a decoded image (`random_crop`, `flip_left_right`,
# `resize_with_crop_or_pad`): cheap next to a decode or resize, so no image work alone (tf-fix17: maps whose
# only image op was one of these read right 1 time in 5 over readings 14-16)
_SLICE_WORDS = ("crop", "flip", "pad_to", "transpose", "rot90")


def _only_slices(name: str) -> bool:
    """An image op that moves pixels without computing new ones (`crop_and_resize` interpolates: work)."""
    return any(word in name for word in _SLICE_WORDS) and "and_resize" not in name


def _through_partial(call: ast.Call, index: ModuleIndex) -> ast.Call:
    """`ds.map(partial(_parse, channels=3))` as `ds.map(_parse)`: the function the partial binds; the call
    itself when the map is given anything else."""
    fn = mapped_function(call)
    if not (isinstance(fn, ast.Call) and fn.args and _is_partial(fn.func, index)):
        return call
    return ast.copy_location(ast.Call(func=call.func, args=[fn.args[0]], keywords=[]), call)


def _is_partial(func: ast.AST, index: ModuleIndex) -> bool:
    """`functools.partial`, or `partial` imported from functools (the resolver records only ML modules)."""
    if isinstance(func, ast.Attribute):
        return func.attr == "partial" and isinstance(func.value, ast.Name) and func.value.id == "functools"
    return isinstance(func, ast.Name) and any(
        isinstance(node, ast.ImportFrom)
        and node.module == "functools"
        and any(a.name == "partial" and (a.asname or a.name) == func.id for a in node.names)
        for node in index.imports
    )


def _runs_python(call: ast.Call, index: ModuleIndex) -> bool:
    """The map calls back into Python (tf.py_function): threads mostly wait on the GIL."""
    fn = mapped_function(call)
    body = _map_function_body(call, index) or ([fn] if fn is not None else [])
    return any(
        isinstance(node, ast.Call) and index.resolver.call_name(node) in _PYTHON_OPS
        for root in body
        for node in ast.walk(root)
    )


# Python calls that open and decode a file (the TF side of torch_data's `_DECODERS`, with medical-image
# readers): they spend their time in C code or I/O that releases the GIL, so threads overlap them
_PYTHON_FILE_READERS = re.compile(
    r"^(?:Image\.open|(?:np|numpy)\.load|cv2\.imread|cv2\.imdecode|imageio\.v?\d?\.?imread|io\.imread|"
    r"librosa\.load|(?:sf|soundfile)\.read|(?:nib|nibabel)\.load|(?:sitk|SimpleITK)\.ReadImage|"
    r"(?:pydicom|dicom)\.(?:dcmread|read_file))$"
)


# OpenCV's transforms (`cv2.warpAffine`, `cv2.GaussianBlur`, `cv2.resize`, `cv2.cvtColor`) run in C code that
# releases the GIL, as its readers do: a Python callback spending its time there overlaps on threads (tf-fix51)
_PYTHON_NATIVE_WORK = re.compile(r"^cv2\.(?!imshow|waitKey|destroy|namedWindow|putText|rectangle|circle)\w+$")


def _python_native_work(func: ast.AST) -> bool:
    """A Python call (its function as written) that opens and decodes a file or runs an OpenCV transform:
    work in C code that releases the GIL (`_PYTHON_FILE_READERS`, `_PYTHON_NATIVE_WORK`)."""
    written = ast.unparse(func)
    return bool(_PYTHON_FILE_READERS.match(written) or _PYTHON_NATIVE_WORK.match(written))


def _python_code(call: ast.Call, index: ModuleIndex) -> list[ast.AST] | None:
    """The map's code held here, with the methods it hands to `tf.py_func`/`numpy_function`/`py_function`
    as `self.m` (`py_func(self.transform_record, [im, gt], ...)`, reading 35's FCN dataset classes): the
    Python the callback runs; None when the map's code is elsewhere."""
    roots = map_code(call, index)
    if roots is None:
        return None
    handed = [found for _, found in _handed_methods(roots, index) if found is not None]
    return [*roots, *handed]


def _handed_methods(roots: list[ast.AST], index: ModuleIndex) -> list[tuple[str, ast.AST | None]]:
    """(m, its def) for each `self.m` the code in `roots` hands to a Python op (`tf.py_func(self.m, ...)`);
    the def is None unless exactly one class of this module defines `m`."""
    found = []
    for root in roots:
        for node in ast.walk(root):
            if (
                isinstance(node, ast.Call)
                and node.args
                and self_attribute(node.args[0])
                and index.resolver.call_name(node) in _PYTHON_OPS
            ):
                name = node.args[0].attr
                defs = [methods[name] for methods in index.class_methods.values() if name in methods]
                found.append((name, defs[0] if len(defs) == 1 else None))
    return found


def _python_helpers_elsewhere(call: ast.Call, index: ModuleIndex) -> tuple[tuple[int, str, str], ...]:
    """Where the helpers come from that a Python-callback map's code calls from a module this one imports
    (`random_transform` from `image_utils`), as `_imported_helpers` gives them, or the method it hands over
    that the class inherits from an imported base (`py_func(self.transform_record, ...)` in `class
    CamVidDataset(Dataset)`: (0, "dataset", "Dataset.transform_record")); only helpers named for augmentation
    or decoding work (`random_transform`, not `pad`), whose code the project pass then reads; () when there
    are none."""
    roots = _python_code(call, index)
    if roots is None:
        return ()
    found = [*_imported_from(roots, index), *_inherited_callbacks(call, roots, index)]
    return tuple(s for s in found if any(w in s[2].lower() for w in _AUGMENTATION_WORDS))


# words of a helper's name that say per-element image or record work (`random_transform`, `augment_image`)
_AUGMENTATION_WORDS = (*_COSTLY_NAME_WORDS, "transform", "distort", "jitter", "warp", "blur", "rotat")


def _inherited_callbacks(
    call: ast.Call, roots: list[ast.AST], index: ModuleIndex
) -> list[tuple[int, str, str]]:
    """(level, module, "Base.m") for each `self.m` the map's code hands to a Python op when no class of this
    module defines `m` and the class holding the map derives from `Base`, imported from a module."""
    holder = class_at(index, call.lineno)  # (the innermost class: review 26 items 13 and 22)
    if holder is None:
        return []
    found = []
    for method, _ in _handed_methods(roots, index):
        if any(method in methods for methods in index.class_methods.values()):
            continue  # defined here (read by `_python_code`)
        for base in holder.bases:
            where = import_of(base.id, index) if isinstance(base, ast.Name) else None
            if where is not None and where[1] != "":
                found.append((where[0], where[1], f"{where[2]}.{method}"))
    return found


def _python_reads_files(call: ast.Call, index: ModuleIndex) -> bool:
    """The map's code, with the defs it hands to `tf.numpy_function`/`py_function` (a module-level def or one
    nested in the map function) and the module functions they call, opens and decodes a file
    (`cv2.imread`, `Image.open`, `np.load`): the reads release the GIL, so the map is the image/file work
    PP202's evidence reads, not a Python callback threads cannot help (tf-fix32: nikhilroxtomar's
    `tf.numpy_function(read_image_bbox, ...)` on a module-level reader was silent, the same reader nested in
    the map function was `high`, reading 24). Since tf-fix51 also a method handed as `self.m` and OpenCV's
    transforms (`_python_native_work`)."""
    roots = _python_code(call, index)
    return roots is not None and any(
        _python_native_work(node.func) for node, _ in _calls_in_map(roots, index)
    )


def _image_ops_besides_python(call: ast.Call, index: ModuleIndex) -> bool:
    """A map that calls back into Python also resizes, decodes or colour-jitters images with TensorFlow ops,
    in its own code or in a method of its class it calls on `self` (simonChoi034's YOLOv4 map builds labels
    in two `tf.numpy_function`s and augments the image with `tf.image`, reading 23): threads overlap those
    ops. tf-fix31's class, `low` (no first reads)."""
    roots = map_code(call, index)
    if roots is None:
        return False
    called = [
        methods[node.func.attr]
        for root in roots
        for node in ast.walk(root)
        if isinstance(node, ast.Call) and self_attribute(node.func)
        for methods in index.class_methods.values()
        if node.func.attr in methods
    ]
    names = [name for _, name in _calls_in_map([*roots, *called], index)]
    return any(
        name.startswith("tensorflow.")
        and any(word in name for word in _COSTLY_IMAGE_OPS)
        and not _only_slices(name)
        for name in names
    )


_COSTLY_IMAGE_OPS = ("image.", "decode_jpeg", "decode_png", "decode_image", "decode_bmp", "decode_gif")


def _sets_shapes(call: ast.Call) -> bool:
    """`map(functools.partial(self.set_shapes, batch_size))`: fixes static shapes, computes nothing."""
    return any(
        isinstance(n, ast.Attribute | ast.Name)
        and "set_shape" in (n.attr if isinstance(n, ast.Attribute) else n.id)
        for arg in call.args[:1]
        for n in ast.walk(arg)
    )


_COSTLY_SOURCES = frozenset(
    [
        "TFRecordDataset",
        "TextLineDataset",
        "FixedLengthRecordDataset",
        "CsvDataset",
        "list_files",
        "from_generator",
        "load",
        "image_dataset_from_directory",
        "text_dataset_from_directory",
        "audio_dataset_from_directory",
        "make_csv_dataset",
        "make_batched_features_dataset",
    ]
)


def _costly(chain, index: ModuleIndex, unseen: set[int] = frozenset()) -> bool:
    """Producing the elements costs something: files or a generator are read, or a real map/interleave runs,
    or the pipeline merges parts the flow cannot see (`unseen`: `Dataset.zip(loaders)`, tf-fix23).

    A pipeline that only slices, shuffles and batches arrays already in memory gains little from prefetch, and
    neither does one whose costly steps all sit before a `cache`.
    """
    source = (index.resolver.call_name(chain[0].node) or "").rsplit(".", 1)[-1]
    costly = source in _COSTLY_SOURCES or id(chain[0].node) in unseen
    for s in chain:
        if s.kind == "cache":
            costly = False
        elif s.kind in ("interleave", "flat_map", "parallel_interleave", "map_and_batch") or (
            s.kind == "map" and not is_cheap_map(s.node, index)
        ):
            costly = True
    return costly


def check_missing_prefetch(index: ModuleIndex):
    seen: set[int] = set()
    flow = dataset_flow(index)
    index._unfed_image_pipelines = set()  # filled below, read by the project pass (unfed_image_pipelines)
    consumed = [(chain, at, "consumed") for chain, at in [*flow.consumed.values(), *flow.validated.values()]]
    for chain, at in [] if index.snippet else flow.handed_out():
        if _batched(chain, index) and not _returns_attribute(at):
            consumed.append((chain, at, "returned"))
    returned_tuples = _returned_tuples(index) if flow.passed and not index.snippet else set()
    for chain, at in [] if index.snippet else flow.passed.values():
        attr = _stored_on_self(at)
        batched = _batched(chain, index)
        own = {id(step.node) for step in chain}  # `self.dataset = self.dataset.batch(n)`: its own chain
        if attr and batched and not _extended(attr, index, flow.stored_in.get(id(at)), own):
            consumed.append((chain, at, f"stored on self.{attr}"))  # other methods read it
        elif batched and id(at) in returned_tuples:
            consumed.append((chain, at, "returned"))  # `return train_ds, test_ds` (tf-fix21)
        elif batched and isinstance(at, ast.Lambda):
            consumed.append((chain, at, "returned"))  # `input_fn = lambda: ds.batch(n)` (tf-fix23)
        elif _drawn_by_next(chain, at, flow, index):
            consumed.append((chain, at, "consumed"))
    consumed += _zipped_members(consumed, flow)
    trained = flow.trained_steps() | fed_steps(flow) if consumed else set()
    reported: set[tuple[int, int]] = set()  # two branches' pipelines reported where they meet: once
    paths = _paths_to(consumed)
    for chain, at, how in consumed:
        kinds = [s.kind for s in chain]
        if _prefetched_at_end(kinds, _loader_prefetches(chain)):
            continue
        if (kinds[-1] == "source" or not ({"map", "batch"} & set(kinds))) and not _batched(chain, index):
            continue
        if _only_looked_at(chain, index):
            continue
        if not any(_costly(each, index, flow.unseen_parts) for each in flow.expand(chain)):
            continue  # (a zip of an image-decoding map and labels costs what the map costs: keras, tf-fixmine)
        if id(chain[-1].node) in seen or _prefetch_turned_off(paths.get(id(at), []), at, index):
            continue
        seen.add(id(chain[-1].node))
        image_work = _does_image_work(chain, flow, index)
        finding = _no_prefetch_finding(
            chain[-1].node,
            how,
            at,
            _no_prefetch_level(image_work, id(chain[-1].node) in trained),
            index,
            _dropped_prefetch_note(chain, flow),
            paths.get(id(at), []),
        )
        if first_report(reported, finding):
            if image_work and finding.confidence == "low":
                index._unfed_image_pipelines.add((finding.line, finding.col))
            yield finding
    if not index.snippet:
        for finding in _untraced_without_prefetch(index, flow, seen):
            if first_report(reported, finding):
                yield finding


def _zipped_members(consumed, flow) -> list:
    """(member, at, how) for each pipeline merged by a bare merge that is consumed (`for x, y in
    tf.data.Dataset.zip((horses, zebras)):`, also bound to a name first): the zip adds no step a prefetch
    could end, so each member's own last step decides, and a member is reported as it would be read alone
    (reading 34: CycleGAN's two tfds pipelines, silent at every level). None when the merge is read only
    after more steps (those are judged on the merged chain)."""
    members = []
    for chain, at, how in consumed:
        if len(chain) == 1:
            members += [(member, at, how) for member in flow.expand(chain)[1:]]
    return members


# PP203's level for a pipeline seen training (here or, through the project pass, in another module) whose
# maps do image or file work (`_no_prefetch_level`)
TRAINED_IMAGE_PIPELINE_LEVEL = "high"


def _no_prefetch_level(image_work: bool, trained: bool) -> str:
    """PP203's level for a traced pipeline: `TRAINED_IMAGE_PIPELINE_LEVEL` (`high` since tf-fix43, `medium`
    before) when it is seen training (fit's data, the iterable of a training loop, or through a TF1 iterator or an input function, `fed_steps`, tf-fix29) and a map decodes
    images, calls a tf.image op, reads files or calls back into Python (tf-calibrate19: right 15 times in 17
    as first read over readings 14-18); `low` otherwise: right 0/25 when returned or on in-memory toys, and 13
    times in 45 at medium on the fresh reading 8 (small datasets, benchmarks, one-pass scripts).

    tf-fix41 (bar: a move to `medium` needs 20 first-read findings or more in 5 repositories or more, none
    giving more than half, right at least 70% of the time, debatable counting against; to `high` 90%):

    - trained, no image work (reading 29's candidate: TFRecord or generator pipelines handed to `fit` or a
      training loop, or returned to one): as first read over readings 21-29 with today's code, right 17 times
      in 22 (5 debatable, 12 repositories); over readings 15-20, whose checkouts are not kept, the rows whose
      reason names a training consumer read right about 19 times in 36 (11 debatable: estimator input
      functions over small CSVs and MNIST records, tfds MNIST, in-memory IMDB strings, where the step or the
      data is too small for the overlap to matter). Pooled about 36 in 58 (62%): stays `low`.
    - trained with image work (`medium`): right 17 times in 19 at `medium` as first read over readings 15-29
      (12 in 12 over readings 21-29, 5 repositories): under the 20 findings and the 90% `high` asks.
    - consumed but not trained, no image work (validation sets, evaluation loops, TF1 iterators not bound
      to training): right 12 times in 16 over readings 21-29: under 20 findings, stays `low`.

    tf-fix43 (same bar): the trained class with image work is `high`. First reads of the findings in it,
    readings 15-30 (readings 21-30 as today's code classes them on their checkouts, readings 15-20 as
    recorded at `medium`, their checkouts not being kept): right 22 times in 24 (12
    repositories, none giving more than 5; the two debatable ones are reading 19's copies of andreiqv's
    dataset factory that no trainer imports or that a one-pass TFRecord writer reads)."""
    return TRAINED_IMAGE_PIPELINE_LEVEL if image_work and trained else "low"


def _drawn_by_next(chain, at: ast.AST, flow, index: ModuleIndex) -> bool:
    """`it = iter(ds)`, then `next(it)` on every iteration of a loop (not every n steps): the loop consumes
    the pipeline as a `for` over it would (PP202 read DETR's such training pipeline, PP203 did not: reading
    28). Not in a def whose parameter has the iterator's name (`def __init__(self, trainset): next(trainset)`
    draws from what its caller passes)."""
    if not (isinstance(at, ast.Call) and named_call(at) == "next" and at.args):
        return False
    if tuple(id(s.node) for s in chain) in flow.periodic:
        return False
    name = getattr(at.args[0], "id", None)
    return not any(
        f.lineno <= at.lineno <= (f.end_lineno or f.lineno)
        and name in {a.arg for a in (*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs)}
        for f in index.functions
    )


# Steps that do the costly work on the elements (decode, parse, read): a prefetch before them does not
# overlap that work with training.
_COSTLY_KINDS = frozenset({"map", "map_and_batch", "interleave", "parallel_interleave", "flat_map"})


def _prefetched_at_end(kinds: list[str], loader: int | None = None) -> bool:
    """The pipeline prefetches after some of its costly work: a prefetch before every map and interleave
    (`files.prefetch(n).shuffle(k).map(decode).batch(n)`, CycleGAN's file names, tf-fix34) buffers raw
    inputs, not the decoded elements the training step waits for. A prefetch after the decoding map
    still counts when a light map follows it (MoCo's per-batch `map(shuffle_BN)` after its prefetch), and
    so does one after each map with only a `padded_batch` after the last (the NMT tutorial's iterator).
    `loader`: the position of the prefetch a Keras loader ends with (`image_dataset_from_directory`), which
    reads and decodes the files before it: costly work comes first (tf-fix37)."""
    prefetches = [at for at, kind in enumerate(kinds) if kind == "prefetch"]
    if not prefetches:
        return False
    costly = [at for at, kind in enumerate(kinds) if kind in _COSTLY_KINDS]
    if loader is not None:
        costly = sorted([loader - 1, *costly])
    return not costly or costly[0] < prefetches[-1] or costly[-1] < prefetches[-1]


def _loader_prefetches(chain) -> int | None:
    """The position of the prefetch step the chain's source adds itself (a `_BATCHED_SOURCES` loader, whose
    steps all share its call), or None."""
    return next(
        (at for at, step in enumerate(chain) if step.kind == "prefetch" and step.node is chain[0].node),
        None,
    )


def _dropped_prefetch_note(chain, flow) -> str:
    """Names the `ds.prefetch(n)` statement that was meant to end this pipeline: its result is thrown
    away, as datasets are immutable (tf-fix24)."""
    ids = tuple(id(s.node) for s in chain)
    dropped = dropped_steps(flow.index)
    for key, other in flow.chains.items():
        if key[:-1] == ids and key[-1] in dropped and other[-1].kind == "prefetch":
            line = other[-1].node.lineno
            return f" (the `prefetch` statement on line {line} discards its result; assign it)"
    return ""


def _untraced_without_prefetch(index: ModuleIndex, flow, seen: set[int]):
    """PP203 on batched pipelines the flow cannot start (a parameter, a helper's result from elsewhere)
    consumed by a TF1 iterator or returned (tf-fix23: spotify-tensorflow, magenta, horovod,
    TensorflowFramework fixed these by adding prefetch); always low, as their source is unseen."""
    traced = {id(s.node) for chain in flow.chains.values() for s in chain}
    inner = _step_functions(index)
    for steps, at, how, source, function in untraced_pipelines(index, traced):
        kinds = [s.kind for s in steps]
        if _prefetched_at_end(kinds) or not ({"batch", "padded_batch"} & set(kinds)):
            continue
        if function.name in inner:
            continue  # `flat_map(batch_window)`, `group_by_window(key, reduce_fn, n)`: batches inside a step
        if _in_memory_source(source) and not _costly((Step("source", source), *steps), index):
            continue  # `from_tensor_slices(arrays)` shuffled and batched: nothing for prefetch to overlap
        if _only_looked_at(steps, index) or id(steps[-1].node) in seen:
            continue
        seen.add(id(steps[-1].node))
        yield _no_prefetch_finding(steps[-1].node, how, at, "low", index)


def _only_looked_at(steps, index: ModuleIndex) -> bool:
    """The pipeline is only looked at: a `take(5)` last (a few elements), or any `take` of a few samples
    (a preview, a smoke test)."""
    if steps[-1].kind == "take" and not _open_take(steps[-1].node, index):
        return True
    return any(s.kind == "take" and _small_take(s.node, index) for s in steps)


def _no_prefetch_finding(
    last: ast.AST,
    how: str,
    at: ast.AST,
    confidence: str,
    index: ModuleIndex,
    note: str = "",
    paths: list = (),
) -> RawFinding:
    """PP203 at the pipeline's last step: it is consumed, returned or stored (`how`, at `at`) unprefetched.
    When that step runs only under an `if` that the consuming statement is outside of (`if batch_size: ds =
    ds.batch(batch_size)` then `return ds`), a prefetch appended to it would be skipped on the other path:
    the finding is at the consuming statement, where the paths meet (tf-fix26: keras-cv's ImageNet loader,
    whose maintainers prefetched in its `return`). So it is when another path to that statement prefetches
    under an `if` (`paths`: the chains reaching it; `if workers == 1: ds = ds.prefetch(1)` then `self._dataset
    = ds`, keras' generator adapter, tf-fix27)."""
    branch, step = _branch_apart(last, at, index), last
    if branch is None:
        step, branch = _other_path_apart(last, at, paths, index)
    if branch is None:
        where = _at_method(last)
        fix = "end it with .prefetch(tf.data.AUTOTUNE)"
    else:
        point = at.value if isinstance(at, ast.Return) and at.value is not None else at
        where = (point.lineno, point.col_offset)
        if named_call(step) == "prefetch":  # a prefetch made on one path only
            what = f"its `prefetch` (line {_at_method(step)[0]})"
        else:  # (as seen from this path or another: a last step made under the `if`)
            what = f"its last step (`{named_call(step)}`, line {_at_method(step)[0]})"
        fix = (
            f"{what} runs only under the `if` at line {branch.lineno}: add .prefetch(tf.data.AUTOTUNE) "
            "here, after the paths meet,"
        )
    return RawFinding(
        "PP203",
        *where,
        f"this tf.data pipeline is {how} (line {at.lineno}) without a final `prefetch`; {fix} so input "
        "preparation overlaps training" + note,
        confidence=confidence,
    )


def _paths_to(consumed) -> dict[int, list[tuple[Step, ...]]]:
    """The statement consuming, returning or storing pipelines (its id) -> the pipelines reaching it, one per
    path the flow followed there (both sides of an `if`)."""
    paths: dict[int, list[tuple[Step, ...]]] = {}
    for chain, at, _ in consumed:
        paths.setdefault(id(at), []).append(chain)
    return paths


def _other_path_apart(last: ast.AST, at: ast.AST, paths, index: ModuleIndex):
    """(step, `if`) when another path to `at` ends with a step run only under an `if` that `at` is outside of:
    `if workers == 1: ds = ds.prefetch(1)` then `self._dataset = ds` reaches `at` with and without the
    prefetch, and a prefetch at this path's last step would run on one path only; (None, None) otherwise."""
    for other in paths:
        step = other[-1].node
        if step is not last and (branch := _branch_apart(step, at, index)) is not None:
            return step, branch
    return None, None


def _prefetch_turned_off(paths, at: ast.AST, index: ModuleIndex) -> bool:
    """Another path to `at` prefetches under an `if` testing a setting named for it (`if prefetch_mb > 0:
    dset = dset.prefetch(n)`, StyleGAN2's dataset): this path is the one a user chose without prefetch."""
    for other in paths:
        for step in other:
            branch = _branch_apart(step.node, at, index) if step.kind == "prefetch" else None
            if branch is not None and any(
                "prefetch" in (n.id if isinstance(n, ast.Name) else n.attr).lower()
                for n in ast.walk(branch.test)
                if isinstance(n, ast.Name | ast.Attribute)
            ):
                return True
    return False


def _branch_apart(last: ast.AST, at: ast.AST, index: ModuleIndex) -> ast.If | None:
    """The innermost `if` holding the pipeline's last step but not the statement consuming it."""
    found = None
    for node in walk(index.tree):
        if (
            isinstance(node, ast.If)
            and node.lineno < last.lineno <= (node.end_lineno or node.lineno)
            and not node.lineno <= at.lineno <= (node.end_lineno or node.lineno)
            and (found is None or node.lineno > found.lineno)
        ):
            found = node
    return found


# Steps whose function argument builds a pipeline of its own (one window, one group) inside the outer one
_NESTING_STEPS = frozenset({"flat_map", "interleave", "parallel_interleave", "group_by_window", "scan"})


def _step_functions(index: ModuleIndex) -> set[str]:
    """Names of the defs handed to a nesting step (`flat_map(batch_window)`, `group_by_window(key_func,
    reduce_func, window_size=n)`): what they return is read by the outer pipeline, not by a caller."""
    names = set()
    for site in index.calls:
        if named_call(site.node) not in _NESTING_STEPS:
            continue
        for arg in [*site.node.args, *(k.value for k in site.node.keywords)]:
            if isinstance(arg, ast.Name | ast.Attribute):
                names.add(arg.id if isinstance(arg, ast.Name) else arg.attr)
    return names


def _in_memory_source(source) -> bool:
    """`Dataset.from_tensor_slices(...)`, `from_tensors`, `range` however the module imported Dataset."""
    return isinstance(source, ast.Call) and named_call(source) in (
        "from_tensor_slices",
        "from_tensors",
        "range",
    )


def _open_take(call: ast.Call, index: ModuleIndex) -> bool:
    """`take(n)` with a count that is no literal (`take(FLAGS.take_count)`, `take(num_batches)`): a setting
    that bounds a training or evaluation run, not a look at a few elements (tf-fix23). A take whose
    receiver is also `skip`-ped is a split (`test = ds.take(k)`, `rest = ds.skip(k)`), judged as before."""
    if not call.args or literal_int(call.args[0], index) is not None:
        return False
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    return not (isinstance(receiver, ast.Name) and receiver.id in _skipped_names(index))


def _skipped_names(index: ModuleIndex) -> set[str]:
    def compute(_):
        return {
            site.node.func.value.id
            for site in index.calls
            if isinstance(site.node.func, ast.Attribute)
            and site.node.func.attr == "skip"
            and isinstance(site.node.func.value, ast.Name)
        }

    return _once(index, "_skipped_names", compute)


def _does_image_work(chain, flow, index: ModuleIndex) -> bool:
    """One of the pipeline's maps, or of the pipelines merged into it, decodes images, calls an image op, reads
    files or calls back into Python: the input work prefetch would overlap with a training step is real."""
    return any(
        s.kind == "map" and does_image_work(s.node, index) for each in flow.expand(chain) for s in each
    )


def unfed_image_pipelines(index: ModuleIndex) -> set[tuple[int, int]]:
    """The `low` PP203 findings (line, column) on pipelines whose maps do image or file work that their module
    is not seen training on (neither `trained` nor `fed_steps`): the project pass (checker/project.py)
    makes them `medium` when another module of the project calls the def or class building the pipeline
    into training (tf-fix29)."""
    if getattr(index, "_unfed_image_pipelines", None) is None:
        for _ in check_missing_prefetch(index):
            pass
    return index._unfed_image_pipelines


def _batched(chain, index: ModuleIndex) -> bool:
    """The pipeline's elements are batches: a `batch` step, or a step made for batches (`_makes_batches`)."""
    return any(s.kind in ("batch", "padded_batch") or _makes_batches(s, index) for s in chain)


def _makes_batches(step: Step, index: ModuleIndex) -> bool:
    """A `from_generator` whose generator is named for batches or yields them (`yield
    self._standardize_batch(data)`), or a map running a def named for batches (`map(grab_batch)` gathering
    rows by batched indices): keras' data adapters batch so, with no `batch` step (tf-fix27)."""
    if step.kind == "map":
        mapped = _mapped_def(step.node, index)
        return mapped is not None and "batch" in mapped.name.lower()
    if step.kind != "source" or named_call(step.node) != "from_generator":
        return False
    call = step.node
    fn = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "generator"), None)
    if isinstance(fn, ast.Lambda):
        return _says_batch(fn.body)
    generator = _mapped_def(call, index, "generator")
    if generator is None:
        return fn is not None and _says_batch(fn)
    yields = [n.value for n in ast.walk(generator) if isinstance(n, ast.Yield | ast.YieldFrom) and n.value]
    return "batch" in generator.name.lower() or any(_says_batch(v) for v in yields)


def _says_batch(node: ast.AST) -> bool:
    """A name, attribute or called name in `node` mentions batches (`batch_x`, `next_batch(...)`)."""
    return any(
        "batch" in (n.id if isinstance(n, ast.Name) else n.attr).lower()
        for n in ast.walk(node)
        if isinstance(n, ast.Name | ast.Attribute)
    )


def _returns_attribute(at: ast.AST) -> bool:
    """`return self._dataset` in a getter: the pipeline stored there is judged where it is stored."""
    return isinstance(at, ast.Return) and self_attribute(at.value)


def _returned_tuples(index: ModuleIndex) -> set[int]:
    """The tuples a function returns (`return train_ds, test_ds`): the caller reads each pipeline in them, as
    it reads one returned alone."""
    return {
        id(node.value)
        for node in ast.walk(index.tree)
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple)
    }


def _stored_on_self(at) -> str | None:
    """`self.dataset = dataset` in a method: the attribute a batched pipeline is kept in for other methods
    (basenji, keras' data adapters before their maintainers added prefetch, tf-fixmine)."""
    if not isinstance(at, ast.Assign):
        return None
    for target in at.targets:
        if (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
        ):
            return target.attr
    return None


def _extended(
    attr: str, index: ModuleIndex, owner: str | None = None, own: frozenset | set = frozenset()
) -> bool:
    """`self.dataset.prefetch(...)` or `self.dataset = self.dataset.<step>(...)` somewhere in the module (in
    the storing class `owner`'s methods when known: another class's `self.dataset` is another object,
    tf-fix27): the stored pipeline is carried on where the flow does not follow it. `self.dataset.cache()`
    as a statement is not: its result is thrown away (tf-fix24). Nor are the steps of the stored chain
    itself (`own`): `self.dataset = self.dataset.shuffle(n)`, then `.batch(b)`, builds the pipeline in the
    attribute, which the flow follows (tf-fix31: reading 23's artist-duan MVSNet-TF2)."""
    dropped = dropped_steps(index)
    for site in index.calls:
        if id(site.node) in dropped or id(site.node) in own:
            continue
        if owner is not None and index.function_class.get(id(site.function)) != owner:
            continue
        receiver = site.node.func.value if isinstance(site.node.func, ast.Attribute) else None
        while isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Attribute):
            receiver = receiver.func.value
        if (
            isinstance(receiver, ast.Attribute)
            and receiver.attr == attr
            and isinstance(receiver.value, ast.Name)
            and receiver.value.id == "self"
        ):
            return True
    return False


def check_shuffle_after_batch(index: ModuleIndex):
    chains = list(dataset_flow(index).all_steps())
    # Shuffles batched again later in any chain (a prefix chain does not show the later batch).
    rebatched = {
        id(step.node)
        for chain in chains
        for i, step in enumerate(chain)
        if step.kind == "shuffle" and any(s.kind in ("batch", "padded_batch") for s in chain[i + 1 :])
    }
    seen: set[int] = set(rebatched)  # batch -> shuffle -> batch: the first batch made sequences (windows)
    for chain in chains:
        for i, step in enumerate(chain):
            if step.kind != "shuffle" or id(step.node) in seen:
                continue
            batch = _unshuffled_batch_before(chain[:i])
            if batch is None:
                continue
            seen.add(id(step.node))
            yield RawFinding(
                "PP204",
                *_at_method(step.node),
                f"`shuffle` after `batch` (line {batch.lineno}) only reorders whole batches; "
                "shuffle elements before batching",
            )


def _unshuffled_batch_before(steps) -> ast.Call | None:
    """The batch that precedes a shuffle when nothing shuffled the elements first, else None."""
    batch = None
    for step in steps:
        if step.kind == "shuffle" and batch is None:
            return None  # elements were shuffled before batching
        if step.kind in ("batch", "map_and_batch") and batch is None:
            batch = step.node
        elif step.kind in ("padded_batch", "bucket_by_sequence_length", "group_by_window", "cache"):
            return None  # batches shaped or cached on purpose: shuffling them is the intent
        elif step.kind == "unbatch":
            batch = None
    return batch


register(
    Rule(
        code="PP201",
        name="vectorizable-map-before-batch",
        root_cause="api.inefficient_usage",
        summary=(
            "A tf.data `map` followed by `batch` whose function works on whole batches: element-wise ops "
            "(casts, scaling, one-hot, activations), tf.io.parse_single_example (tf.io.parse_example after "
            "batching), decode_raw, and the tf.image ops that accept a batch; the pipeline is followed through "
            "variables, attributes and helpers of the module (DeepPerf's rule 2). Since tf-fix26 a per-example "
            "parse is also found in the module functions the map's code calls (3 levels, as PP202 reads a "
            "map's cost; `tf.io.parse_example` there parses one record per call before `batch`), and maps "
            "that only take apart or rebuild the element's structure (popping the label out of a feature "
            "dict, `lambda d: (d['x'], d['y'])`) may stand between the map and `batch`."
        ),
        why=(
            "The map's function is called once per element, with tf.data's per-call overhead each time; after "
            "`batch` the same work runs once per batch on a whole tensor (TensorFlow's guide calls this "
            "vectorizing the map)."
        ),
        example="""
ds = tf.data.TFRecordDataset(files)
ds = ds.map(lambda r: tf.io.parse_single_example(r, spec), num_parallel_calls=8)
ds = ds.batch(2048)
model.fit(ds, epochs=10)
""",
        instead="""
ds = tf.data.TFRecordDataset(files).batch(2048)
ds = ds.map(lambda r: tf.io.parse_example(r, spec))
model.fit(ds, epochs=10)
""",
        false_alarms=(
            "Low. It fires only when every call in the mapped function is batch-capable (a decode_jpeg, "
            "resize, random op or Python function could not move behind batch, so such maps are never "
            "reported) and only when at most shuffle/repeat/prefetch/take/skip/shard, or maps that run on "
            "batches as well, lie between map and batch (a cache would be lost). Maps of functions defined in "
            "other modules are not read; a name bound to a lambda "
            "(`parse_fn = lambda f, l: _parse_function(f, l, size)`) is read through the lambda. A "
            "per-example parse seen in the code (parse_single_example, decode_csv) on a "
            "pipeline seen training a model (fit's training data, a loop that runs a training step, a call or "
            "name that says train, or a function returning the pipeline that a module of the same project "
            "calls into training: `train_ds = make_dataset(...)`, `fit(make_dataset(...))`, "
            "`TrainSpec(input_fn=...)`) was `high`; since tf-fix13 it is `medium`, as the same parse on any "
            "other pipeline is (read right 12 times in 14 at `high` over readings 10, 11 and 13, recounted, and "
            "16 in 27 as first read: under the default output's 90%; 20 in 28 at `medium` together). Since "
            "tf-calibrate15 the parse on a pipeline not seen training is `low` (15 of 26 right as first read "
            "over readings 10-15; seen training 14 of 16). Element-wise "
            "and other batch-capable maps, maps only peeked at, and functions only named like parsers are `low` "
            "(right 1 time in 14 on fresh code), and so are a parse already given num_parallel_calls (other than "
            "1) on a pipeline not seen training, pipelines read once or element by element (as PP202's), "
            "pipelines read only to be written out (a conversion to TFRecords) and pipelines named for "
            "training that nothing reads. Since tf-fix17 a parse on a serial map is PP202's finding, not this "
            "rule's: threads are the fix that keeps the parse as written, and PP202's message names batching "
            "and tf.io.parse_example as the other; this rule reported parses already on threads until tf-fix40, "
            "which reports serial ones here too when the parse is seen in the map's code, not only in a name "
            "(reading 29 listed all 8 of its serial parses of fixed-length records under this rule: parsing "
            "after `batch` is the better fix). Since tf-fix33 "
            "every finding is `low`: the last `medium` class (a parse on threads, on a pipeline seen training) "
            "read right 3 times in 6 as first read over readings 15-24, under `medium`'s 70%."
        ),
        confidence="low",
        check=check_map_before_batch,
    )
)

register(
    Rule(
        code="PP202",
        name="sequential-map",
        confidence="high",
        root_cause="api.inefficient_usage",
        summary="A tf.data `map` or `interleave` called without num_parallel_calls (positional or keyword).",
        why=(
            "Without num_parallel_calls the function is applied to one element at a time on one core, so "
            "decoding and augmentation become the bottleneck of training while the accelerator waits."
        ),
        example="""
def load(path):
    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), [224, 224])

ds = tf.data.Dataset.from_tensor_slices(paths).map(load).batch(32)
model.fit(ds, epochs=10)
""",
        instead="""
def load(path):
    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), [224, 224])

ds = tf.data.Dataset.from_tensor_slices(paths)
ds = ds.map(load, num_parallel_calls=tf.data.AUTOTUNE).batch(32)
model.fit(ds, epochs=10)
""",
        false_alarms=(
            "Medium-low. Only maps on tf.data pipelines (traced, or on a receiver named like a dataset) are "
            "reported, never pandas or Python `map`; a "
            "module that turns on options.experimental_optimization.map_parallelization is skipped, maps PP201 "
            "reports are left to it, and maps that only select, slice or apply element-wise ops (too cheap to "
            "gain from threads), run a model or call Python are skipped. From tf-calibrate14 to tf-calibrate20 "
            "nothing was `high`: of the findings that were `high`, as first read on fresh code over readings 10, 11, 13 and 14, a map "
            "whose cost is in its code fitted in its module was right 30 times in 32 but 2 in 4 in reading 14, "
            "one trained by a loop 12 in 12, by a name that says train 29 in 35, one lifted from another module "
            "of the project 15 in 16, a map costly by name only 2 in 3, an interleave 0 in 1 (72% overall): "
            "no class reached 90% in 20 findings or more without falling under 80% in one reading. Since "
            "tf-calibrate15 (as first read over readings 10-15) only a map with image or file work in its code "
            "(an image decode, a tf.image op, a file read, a Python callback: 169 of 201 right) can be `medium`; "
            "record parsing alone (34 of 57), a cost seen only in a name (42 of 64) and interleaves (2 of 6) are "
            "`low`. `high` (tf-calibrate20, first read over readings 13-18: right 48 times in 52, no reading "
            "under 83%): such a map on a pipeline seen training a model (fit's training data, "
            "a loop that runs a training step, a call or name that says train); since tf-cal28 also on the "
            "`validation_data` of a training call in its module (read every epoch: first read over readings "
            "15-21 right 22 times in 22, 9 repositories). Such a map on any other pipeline read at scale "
            "(evaluation, test and preview pipelines, returned, handed on, stored, iterated) is `low` since "
            "tf-cal28 (`medium` before: about 18 right in 38 over readings 15-21), except on a pipeline a "
            "training step reads through a TF1 iterator, an input function or a def returning it into "
            "training (as PP203 reads it since tf-fix29): `medium` since tf-fix35 (first read over readings "
            "15-25 right 13 times in 15, 8 repositories). `low`: maps whose cost is not "
            "visible or whose code shows no costly work, maps before a cache, inside an interleaved function, "
            "after `batch`, or on an in-memory evaluation set, and pipelines without evidence of use (built "
            "and left, printed by loops, next(iter(ds))) or from a few values written in the code (range or "
            "np.arange up to 100, a literal list, a file the module writes), or read once or element by "
            "element: only by `evaluate`/`predict` outside a loop (a test split scored after training), by a "
            "TF1 one-shot iterator over an evaluation pipeline that does not repeat, or consumed here with no "
            "batch (or `batch(1)`), one `sess.run` or Python step per element (reading 10: debatable or wrong "
            "16 times in 16). A pipeline read only through take(n) (n up to 100, or a name assigned once to n "
            "up to 10), also through a merge (`Dataset.zip(a, b).take(1)`), is not reported; one that is also "
            "fitted is. A merge (`Dataset.zip`, `sample_from_datasets`) reads its parts as it is read. Maps "
            "that only flip, pad or convert the image dtype are cheap and skipped. A fit of literal `epochs` "
            "times `steps_per_epoch` up to 20 steps is a smoke run, not training; `tfds.load(batch_size=n)` "
            "gives batches (a map after it runs per batch); a function defined twice (a notebook) is read as "
            "the def before the map; a pipeline returned by a function only this module calls is judged by "
            "what its callers here do with it (plotted by a loop: `low`); a `high` or `medium` finding in a "
            "function or class that no file of the project uses is `low` (tf-fix13). An interleave whose "
            "records a later map (or `map_and_batch`) parses on threads is `low` unless the pipeline is seen training, and `low` on a training "
            "pipeline too when the interleaved function only opens file readers (TFRecordDataset, "
            "TextLineDataset, CsvDataset): only the byte reads are serial (readings 10 and 11: debatable 10 "
            "times in 12). A pipeline read only by Python loops that write each element out (a conversion to "
            "TFRecords or files), or named for training but read by nothing (its consumer commented out), is "
            "`low` (reading 11: wrong 10/10 at `high`). A training map whose only visible cost is string "
            "splitting, casing or conversion and vocabulary lookups (`tf.strings.split`, "
            "`lookup_layer(tf.strings.lower(x))`) is `low` (debatable 7 times in 9 at `high`, then 9 times in 9 at "
            "`medium`). A pipeline "
            "`next`-ed only under a remainder test in a training loop (`if step % 100 == 0:`) is read now and "
            "then, not trained on; one unbatched element drawn so (a visualisation) is `low`. A costly map on a "
            "pipeline that a Python loop or comprehension walks whole (`[f(x) for x in ds]`, loaded once into "
            "memory) is not trained on: the two read on fresh code were debatable (tf-confidence13). A crop, flip "
            "or pad is no image work (a slice; tf-fix17: maps whose only image op was one read right 1 time in "
            "5). A serial map that parses single examples before `batch` is reported here and (since tf-fix40, when "
            "the parse is seen in its code) as PP201, and "
            "its message adds batching then tf.io.parse_example as the other fix. A map of a def or parser "
            "class imported from another module of the project (`from utils import load_images`) is judged "
            "by that code when the files are checked together: image or file work there makes it `medium` "
            "where the same code here would make it `high` (not `high`: that lift is unmeasured on fresh code), "
            "unless the pipeline is named for testing or validation (tf-fix19). A "
            "wrapper class that rebinds `self.core` to tf.data-only steps of itself (`unbatch`, `prefetch`) "
            "keeps a pipeline there, and its forwarded `self.core.map(func)` is read as one."
        ),
        check=check_sequential_map,
    )
)

register(
    Rule(
        code="PP203",
        name="pipeline-without-prefetch",
        root_cause="data.inefficient_transmission",
        summary=(
            "A tf.data pipeline that reads files or a generator, or runs a real map/interleave, and is consumed "
            "in the module (model.fit/evaluate/predict, fit's validation_data, a for loop that runs a training "
            "or evaluation step, a TF1 iterator, a distribution strategy) without a prefetch step after them "
            "(a cache resets the cost; a zip or sample_from_datasets costs what the pipelines it merges "
            "cost). A batched pipeline returned to the caller (alone or in a tuple, `return train_ds, val_ds`) "
            "or stored on self for other methods (none of which carries it on) is reported too, and so is "
            "one an estimator's `input_fn = lambda: ...` returns. A pipeline ending in `take(n)` counts "
            "when n is no literal (`take(FLAGS.take_count)`, `take(num_batches)`: a bound, not a peek). "
            "Pipelines the flow cannot start (a parameter no call of the module binds, the result of a "
            "helper defined elsewhere) are reported at `low` when they are batched and a TF1 iterator reads "
            "them, or returned with a tf.data-only step or a dataset name (since tf-fix23). A step written "
            "as a statement (`ds.prefetch(n)` on a line of its own) returns a new dataset and throws it away: "
            "it does not count as a prefetch, and the message names it (since tf-fix24). When the last step "
            "runs only under an `if` that the consuming statement is outside of (`if batch_size: ds = "
            "ds.batch(batch_size)`, then `return ds`), the finding is at the consuming statement, where the "
            "paths meet, since a prefetch appended to that step would be skipped on the other path (since "
            "tf-fix26). Since tf-fix27 the flow follows a pipeline down both sides of an `if` (an `if` with no "
            "`else` may leave it as it was; a name only the `else` binds keeps its earlier value on the other "
            "side) and reads `self.x` in a class's methods as the pipeline another of its methods stored "
            "there; a step run on one path only (`if workers == 1: ds = ds.prefetch(1)`) puts the finding "
            "where the paths meet, unless the `if` tests a prefetch setting (`if prefetch_mb > 0:`). A "
            "pipeline counts as batched without a `batch` step when a `from_generator`'s generator is named "
            "for batches or yields them, or a map runs a def named for batches (`grab_batch`)."
        ),
        why=(
            "Without prefetch the producer and the consumer take turns: the accelerator idles while the next "
            "batch is prepared, and the input pipeline idles while a step runs."
        ),
        example="""
def load_image(path):
    image = tf.io.decode_jpeg(tf.io.read_file(path), channels=3)
    return tf.image.resize(image, (224, 224))

ds = tf.data.Dataset.list_files("images/*.jpg")
ds = ds.map(load_image, num_parallel_calls=tf.data.AUTOTUNE)
ds = ds.shuffle(10000).batch(32)
model.fit(ds, epochs=10)
""",
        instead="""
def load_image(path):
    image = tf.io.decode_jpeg(tf.io.read_file(path), channels=3)
    return tf.image.resize(image, (224, 224))

ds = tf.data.Dataset.list_files("images/*.jpg")
ds = ds.map(load_image, num_parallel_calls=tf.data.AUTOTUNE)
ds = ds.shuffle(10000).batch(32).prefetch(tf.data.AUTOTUNE)
model.fit(ds, epochs=10)
""",
        false_alarms=(
            "High for a trained pipeline whose maps do image or file work, low otherwise (below). Only "
            "pipelines seen being consumed are reported, never one returned to other modules; "
            "a peek such as `for x in ds.take(1)` or a loop that only prints elements is ignored, and so are "
            "pipelines that only slice, shuffle and "
            "batch arrays already in memory (little to overlap). Recent TensorFlow versions may insert a prefetch "
            "themselves after a final parallel map, where the finding costs nothing to fix. `medium` (from "
            "tf-calibrate19 to tf-fix43, `high` since) when the pipeline is seen training a model in its module (fit's training data, "
            "the iterable of a training loop) and one of its maps decodes images, calls a `tf.image` op, "
            "reads files or calls back into Python: as first read over readings 13-18 right 15 times in 17. "
            "Since tf-fix29 a pipeline counts as training too when a TF1 iterator made of it is bound to a "
            "train name or made where a loop trains, when the def returning it (or its iterator's tensors) "
            "is called into training (bound to a train name, handed to `estimator.train`/`TrainSpec`, or "
            "called in a def whose loop runs a training step), in its module or another of the project: "
            "with such a map, right 18 times in 21 as first read over readings 15-22. "
            "Every other finding is `low`: the rest of the trained pipelines read right 3 times in 26, "
            "pipelines not seen training (evaluation, test, returned, stored on self) 23 times in 102; on "
            "fresh code (reading 8) the rule was right 13 times in 45 at medium (small datasets, benchmarks, "
            "one-pass conversion scripts where prefetch overlaps little), and 0/25 when returned to a caller "
            "or on in-memory slices. Since tf-fix43 that trained class with such a map is `high`: as first "
            "read over readings 15-30 right 22 times in 24 in 12 repositories."
        ),
        check=check_missing_prefetch,
        confidence="high",
    )
)

register(
    Rule(
        code="PP204",
        name="shuffle-after-batch",
        root_cause="api.inefficient_usage",
        summary="`shuffle` after `batch` on a pipeline whose elements were not shuffled before batching.",
        why=(
            "Shuffling after batching moves whole batches around: the same elements always train together, so "
            "the model needs more epochs to converge (slower training for the same accuracy), while the shuffle "
            "buffer holds batches (buffer_size times batch size elements) in memory."
        ),
        example="""
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(32).shuffle(100)
""",
        instead="""
ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(10000).batch(32)
""",
        false_alarms=(
            "Low. Pipelines shuffled before batching (loaders such as image_dataset_from_directory shuffle by "
            "default) and bucketed or padded batches, where shuffling batches is the intent, are skipped."
        ),
        check=check_shuffle_after_batch,
        confidence="low",
    )
)
