"""tf.data pipelines of one module: which dataset methods are chained, in which order, and where they are used.

A pipeline is followed through variables (`ds = ds.map(f)`), through helpers that take or return a dataset
(`ds = add_augmentation(ds)`, `def train(model, ds): model.fit(ds)`) up to a few calls deep, across every
function of the module. Branches are read in source order: a `map` under an `if` counts as part of the chain.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from checker.module import (
    COMPREHENSION_TYPES,
    FUNCTION_TYPES,
    HELPER_DEPTH,
    ModuleIndex,
    child_nodes,
    dotted_parts,
    import_of,
    statements_in,
)
from checker.rules.common import values_here

_SOURCE_MEMBERS = frozenset(
    [
        "from_tensor_slices",
        "from_tensors",
        "from_generator",
        "range",
        "list_files",
        "zip",
        "TFRecordDataset",
        "TextLineDataset",
        "FixedLengthRecordDataset",
        "CsvDataset",
        "sample_from_datasets",
        "choose_from_datasets",
        "load",
    ]
)
# Keras and tf.data loaders that return batched (by default shuffled) and prefetched datasets.
_BATCHED_SOURCES = frozenset(
    {
        "tensorflow.keras.utils.image_dataset_from_directory",
        "tensorflow.keras.utils.text_dataset_from_directory",
        "tensorflow.keras.utils.audio_dataset_from_directory",
        "tensorflow.keras.preprocessing.image_dataset_from_directory",
        "tensorflow.keras.preprocessing.text_dataset_from_directory",
        "tensorflow.data.experimental.make_csv_dataset",
        "tensorflow.data.experimental.make_batched_features_dataset",
    }
)
METHODS = frozenset(
    [
        "map",
        "batch",
        "padded_batch",
        "unbatch",
        "shuffle",
        "prefetch",
        "repeat",
        "cache",
        "filter",
        "flat_map",
        "interleave",
        "take",
        "skip",
        "shard",
        "apply",
        "with_options",
        "concatenate",
        "window",
        "rebatch",
        "ragged_batch",
        "enumerate",
        "map_with_legacy_function",
        "parallel_interleave",
        "bucket_by_sequence_length",
        "group_by_window",
        "take_while",
        "ignore_errors",
    ]
)
# Transformations applied through `ds.apply(tf.data.experimental.X(...))`, by the step they amount to.
_APPLIED = {
    "prefetch_to_device": "prefetch",
    "copy_to_device": "prefetch",
    "map_and_batch": "map_and_batch",
    "batch_and_drop_remainder": "batch",  # tf.contrib.data (TF 1.x; CycleGAN, tf-fix34)
    "padded_batch_and_drop_remainder": "padded_batch",
    "shuffle_and_repeat": "shuffle",
    "unbatch": "unbatch",
    "bucket_by_sequence_length": "bucket_by_sequence_length",
    "dense_to_ragged_batch": "ragged_batch",
    "parallel_interleave": "parallel_interleave",
}
_CONSUMERS = frozenset({"fit", "evaluate", "predict", "fit_generator", "experimental_distribute_dataset"})
# Consumers that read a pipeline once, in one pass: a final test score or a set of predictions.
ONE_PASS = frozenset({"evaluate", "predict"})
_ITERATOR_MAKERS = frozenset({"make_one_shot_iterator", "make_initializable_iterator"})
_MERGERS = frozenset({"zip", "sample_from_datasets", "choose_from_datasets"})


@dataclass(frozen=True, slots=True)
class Step:
    kind: str  # "source", or a method such as "map", "batch", "prefetch"
    node: ast.Call


@dataclass
class DatasetFlow:
    index: ModuleIndex
    chains: dict[tuple[int, ...], tuple[Step, ...]] = field(default_factory=dict)
    consumed: dict[tuple[int, ...], tuple[tuple[Step, ...], ast.AST]] = field(default_factory=dict)
    returned: dict[tuple[int, ...], tuple[tuple[Step, ...], ast.AST]] = field(default_factory=dict)
    returners: dict[tuple[int, ...], list] = field(default_factory=dict)  # every function returning one
    # `next(it)` only under `if step % 100 == 0:` in a training loop: an evaluation or a picture now and then
    periodic: dict[tuple[int, ...], tuple[Step, ...]] = field(default_factory=dict)
    iterated: dict[int, tuple[tuple[Step, ...], ast.AST]] = field(default_factory=dict)  # for loops over one
    # handed on where this flow cannot follow it: an argument of a call it does not run (`obj.train(ds)`,
    # `validation_data=val_ds`), an element of a tuple, list or dict, an attribute or item stored, an
    # iterator `next`-ed in a loop
    passed: dict[tuple[int, ...], tuple[tuple[Step, ...], ast.AST]] = field(default_factory=dict)
    # training data: the first argument of fit/fit_generator/a `train` call, or the iterable of a for loop
    # that runs a training step (not evaluate/predict/validation_data, nor a loop that only runs the model)
    trained: dict[tuple[int, ...], tuple[Step, ...]] = field(default_factory=dict)
    # `fit(..., validation_data=val_ds)`: read once per epoch beside the training data
    validated: dict[tuple[int, ...], tuple[tuple[Step, ...], ast.AST]] = field(default_factory=dict)
    # every place that consumes a pipeline (`consumed` keeps the first only): a call or a loop
    readers: dict[tuple[int, ...], list[ast.AST]] = field(default_factory=dict)
    _iterators: dict[str, tuple[Step, ...]] = field(default_factory=dict)  # `it = iter(ds)`
    _ending: dict[int, tuple[Step, ...]] = field(default_factory=dict)  # last step's call -> its chain
    # module-level names bound to pipelines, seen by functions that do not bind the name themselves (a
    # notebook's `ds` built in one cell and read by `def evaluate(): for x in ds: ...` in another)
    _globals: dict = field(default_factory=dict)
    _plain: dict[int, object] = field(default_factory=dict)
    _branches: int = 0
    _alternatives: int = 0  # alternatives still to follow in the current top-level run (`_ALTERNATIVES`)
    # `Dataset.zip((images, labels))`, `sample_from_datasets([a, b])`: the merged source's call -> the
    # pipelines merged; what reads the merged pipeline reads them (see `expand`)
    parts: dict[int, list[tuple[Step, ...]]] = field(default_factory=dict)
    # the one-name assignments a parallel assignment is read as, kept alive: steps and places are keyed by id
    _kept_nodes: list[ast.Assign] = field(default_factory=list)
    # merges with a part this flow cannot see (`zip(loaders)` of a tuple built in a loop, a parameter)
    unseen_parts: set[int] = field(default_factory=set)
    # class name -> {"self.dataset": the pipeline a method of the class last stored there}: what the class's
    # other methods read (`def get_dataset(self): return self._dataset`, tf-fix27)
    _attributes: dict[str, dict[str, tuple[Step, ...]]] = field(default_factory=dict)
    stored_in: dict[int, str] = field(default_factory=dict)  # `self.x = ds` statement (its id) -> its class
    _fed: set[int] | None = None  # `fed_steps`, worked out once
    # def (its id) -> the pipelines it last returned side by side (`return train_ds, val_ds`), None for an
    # element that is none
    _packs: dict[int, list] = field(default_factory=dict)

    @classmethod
    def of(cls, index: ModuleIndex) -> DatasetFlow:
        flow = cls(index)
        flow._alternatives = cls._ALTERNATIVES
        flow._run_body(index.tree.body, flow._globals, None, 0, [])
        for node in _run_order(index):
            flow._alternatives = cls._ALTERNATIVES
            flow._plain_result(node, [])
        for site in index.calls:  # `it = iter(ds)` ... `next(it)` in a loop: the iterator feeds the loop
            call = site.node
            if site.loops and named_call(call) == "next" and call.args and isinstance(call.args[0], ast.Name):
                chain = flow._iterators.get(call.args[0].id)
                if chain is not None:
                    flow._pass(chain, call)
                    if _every_n_steps(site.loops[-1], call):
                        flow.periodic.setdefault(tuple(id(s.node) for s in chain), chain)
                    elif runs_training_step(site.loops[-1], index):
                        flow._train(chain)
        return flow

    # -- interpretation ------------------------------------------------------------------------------------

    def _run_function(self, function, bound: dict, depth: int, stack: list):
        if id(function) in stack:
            return None
        stack.append(id(function))
        returned: list = []
        local = _parameters(function)
        env = {k: v for k, v in self._globals.items() if "." not in k and k not in local}
        env.update(self._attributes.get(self.index.function_class.get(id(function)), {}))
        env.update(bound)
        self._run_body(function.body, env, function, depth, stack, returned)
        stack.pop()
        return returned[-1] if returned else None

    def _run_body(self, body, env, function, depth, stack, returned=None) -> None:
        for position, stmt in enumerate(body):
            if isinstance(stmt, (*FUNCTION_TYPES, ast.ClassDef)):
                continue
            if isinstance(stmt, ast.If):
                self._run_if(stmt, body[position + 1 :], env, function, depth, stack, returned)
                continue
            pairs = _parallel_pairs(stmt)
            if pairs:  # `train_ds, test_ds = ds["train"], ds["test"]`: one assignment per name (tf-fix21)
                self._kept_nodes.extend(pairs)
                self._run_body(pairs, env, function, depth, stack, returned)
                continue
            if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
                value = self._eval(stmt.value, env, function, depth, stack)
                if value is None and isinstance(stmt, ast.Assign):
                    for name in self._split_names(stmt):
                        env[name] = self._record(_tfds_steps(stmt.value))  # one pipeline per split
                if isinstance(stmt, ast.Assign):
                    for name in self._split_dicts(stmt):
                        env[name + _SPLITS] = stmt.value  # `dataset["test"]` reads one split
                    env.update(_pipelines_by_key(stmt, env))  # `sets = {"train": train_ds, ...}`
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if value is not None and isinstance(stmt, ast.Assign):
                    targets = self._with_info_targets(stmt) or targets  # `ds, info = tfds.load(...)`
                iterator = self._iterator_of(stmt.value, env, function, depth, stack)
                unpacked = self._unpacked(stmt, value, function) if isinstance(stmt, ast.Assign) else []
                for target, part in unpacked:  # `train_ds, val_ds = make_datasets(...)` (tf-fix31)
                    self._bind(target, part, None, env, function, stmt)
                for target in [] if unpacked else targets:
                    self._bind(target, value, iterator, env, function, stmt)
                continue
            if isinstance(stmt, ast.Return):
                if stmt.value is not None:
                    value = self._eval(stmt.value, env, function, depth, stack)
                    if value is not None and returned is not None:
                        returned.append(value)
                    if value is not None and function is not None and names_training(function.name):
                        self._train(value)  # `def train_input_fn(): ... return ds`
                    if function is not None and isinstance(stmt.value, ast.Tuple | ast.List):
                        self._note_pack(function, stmt.value, env)
                    if value is not None and function is not None:
                        ids = tuple(id(s.node) for s in value)
                        self.returned.setdefault(ids, (value, stmt))
                        self.returners.setdefault(ids, []).append(function)
                continue
            if isinstance(stmt, ast.For | ast.AsyncFor):
                chain = self._eval(stmt.iter, env, function, depth, stack)
                if chain is None and _is_enumerate(stmt.iter):
                    chain = self._eval(stmt.iter.args[0], env, function, depth, stack)
                    if chain is None:
                        chain = self._iterator_of(stmt.iter.args[0], env, function, depth, stack)
                if chain is None:
                    chain = self._iterator_of(stmt.iter, env, function, depth, stack)
                if chain is not None:
                    self.iterated.setdefault(id(stmt), (chain, stmt))
                if chain is not None and _runs_a_step(stmt, self.index):
                    self._consume(chain, stmt)
                    if runs_training_step(stmt, self.index):
                        self._train(chain)
                self._run_body(stmt.body, env, function, depth, stack, returned)
                self._run_body(stmt.orelse, env, function, depth, stack, returned)
                continue
            # Every other statement: evaluate its expressions, then its nested bodies in order.
            for name, value in ast.iter_fields(stmt):
                if name in ("body", "orelse", "finalbody", "handlers"):
                    continue
                for expr in value if isinstance(value, list) else [value]:
                    if isinstance(expr, ast.expr):
                        self._eval(expr, env, function, depth, stack)
                    elif isinstance(expr, ast.withitem):
                        self._eval(expr.context_expr, env, function, depth, stack)
            for name in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, name, None)
                if isinstance(inner, list):
                    self._run_body(inner, env, function, depth, stack, returned)
            for handler in getattr(stmt, "handlers", []):
                self._run_body(handler.body, env, function, depth, stack, returned)

    def _bind(self, target, value, iterator, env, function, stmt) -> None:
        """Binds one assignment target to the pipeline `value` (or to nothing, when None)."""
        if iterator is not None and isinstance(target, ast.Name):
            self._iterators[target.id] = iterator
        if value is not None and isinstance(target, ast.Attribute | ast.Subscript):
            self._pass(value, stmt)  # `self.train_ds = ds`: read by other methods
            self._store(target, value, function, stmt)
        key = _key(target)
        if value is not None and names_training(key):
            self._train(value)  # `train_ds = ...`, `self.train_dataset = ...`
        if key is None:
            return
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value

    def _note_pack(self, function, value: ast.Tuple | ast.List, env) -> None:
        """`return train_ds, val_ds`: the pipelines a def returns side by side, kept for the statements that
        unpack its result (`_unpacked`); the elements were evaluated already."""
        parts = [self._element_chain(element, env) for element in value.elts]
        if any(part is not None for part in parts):
            self._packs[id(function)] = parts

    def _element_chain(self, element, env):
        if isinstance(element, ast.Name | ast.Attribute):
            return env.get(_key(element))
        return self._ending.get(id(element)) if isinstance(element, ast.Call) else None

    def _unpacked(self, stmt: ast.Assign, value, function) -> list[tuple[ast.expr, tuple[Step, ...]]]:
        """`train_ds, val_ds = make_datasets(cfg)` of a def that returns pipelines side by side, and
        `train, val = image_dataset_from_directory(..., subset="both")`: each name, or attribute, with the
        pipeline it gets; [] for any other statement (tf-fix31: reading 23's tonywu71 bound both splits of
        one loader this way, and the maps on them went unseen)."""
        target = stmt.targets[0] if len(stmt.targets) == 1 else None
        call = stmt.value
        if not isinstance(target, ast.Tuple | ast.List) or not isinstance(call, ast.Call):
            return []
        if not all(isinstance(t, ast.Name | ast.Attribute) for t in target.elts):
            return []
        if value is not None:  # a loader read as one pipeline: its pair of subsets
            name = self.index.resolver.call_name(call)
            subset = next((k.value for k in call.keywords if k.arg == "subset"), None)
            both = isinstance(subset, ast.Constant) and subset.value == "both" and len(target.elts) == 2
            both = both and name in _BATCHED_SOURCES
            return [(t, value) for t in target.elts] if both else []
        helper = self.index.helper_of(call, function)
        parts = self._packs.get(id(helper)) if helper is not None else None
        if parts is None or len(parts) != len(target.elts):
            return []
        return [(t, part) for t, part in zip(target.elts, parts, strict=True) if part is not None]

    _BRANCH_LIMIT = 3  # alternatives followed past one `if` (each runs the statements after it once more)
    # alternatives followed per top-level run (the module's body, each def): each reruns the statements after
    # its `if`, helpers included, so a def of many optional steps would otherwise take exponential time
    _ALTERNATIVES = 32

    def _split_names(self, stmt: ast.Assign) -> list[str]:
        """`train_ds, val_ds = tfds.load(name, split=["train", "test"], ...)` (with `with_info=True`:
        `(train_ds, val_ds), info = ...`): the names bound to the splits, one per split listed."""
        call = stmt.value
        if len(stmt.targets) != 1 or not isinstance(call, ast.Call):
            return []
        if self.index.resolver.call_name(call) != "tensorflow_datasets.load":
            return []
        split = next((k.value for k in call.keywords if k.arg == "split"), None)
        target = stmt.targets[0]
        if _keyword_is(call, "with_info", True) and isinstance(target, ast.Tuple) and len(target.elts) == 2:
            target = target.elts[0]
        if not isinstance(split, ast.List | ast.Tuple) or not isinstance(target, ast.Tuple | ast.List):
            return []
        names = [t.id for t in target.elts if isinstance(t, ast.Name)]
        return names if len(names) == len(target.elts) == len(split.elts) else []

    def _with_info_targets(self, stmt: ast.Assign) -> list[ast.expr]:
        """`ds, info = tfds.load(name, split="train", with_info=True)`: the dataset is the pair's first
        element (tf-fix25); the info object is no pipeline."""
        call = stmt.value
        if len(stmt.targets) != 1 or not isinstance(call, ast.Call):
            return []
        if self.index.resolver.call_name(call) != "tensorflow_datasets.load":
            return []
        target = stmt.targets[0]
        if not _keyword_is(call, "with_info", True) or not isinstance(target, ast.Tuple | ast.List):
            return []
        return [target.elts[0]] if len(target.elts) == 2 else []

    def _split_dicts(self, stmt: ast.Assign) -> list[str]:
        """`dataset = tfds.load(name)` or `dataset, info = tfds.load(name, with_info=True)` with no `split`:
        a dict of splits, one pipeline per `dataset["train"]` read from it (reading 17)."""
        call = stmt.value
        if len(stmt.targets) != 1 or not isinstance(call, ast.Call):
            return []
        if self.index.resolver.call_name(call) != "tensorflow_datasets.load":
            return []
        if any(k.arg == "split" for k in call.keywords) or len(call.args) > 1:
            return []
        target = stmt.targets[0]
        if _keyword_is(call, "with_info", True) and isinstance(target, ast.Tuple) and len(target.elts) == 2:
            target = target.elts[0]
        return [target.id] if isinstance(target, ast.Name) else []

    def _run_if(self, stmt, rest, env, function, depth, stack, returned) -> None:
        """Both branches of an `if` run from the same state and the `else` branch's state goes on (without an
        `else`, the state after the body). The other branch's pipelines are followed through the statements
        after the `if` as well: the `if` branch's (`if csv: ds = ds.map(parse_csv)` / `else: ...` /
        `ds.batch(n)`), the names it leaves as they were when only the `else` binds them (a parameter, or
        `else: words = Dataset.from_tensors(pad)`, tf-fix27), and without an `else` the state before the
        body (`if workers == 1: ds = ds.prefetch(1)`: the pipeline may go on unprefetched)."""
        self._eval(stmt.test, env, function, depth, stack)
        before = dict(env)
        self._run_body(stmt.body, env, function, depth, stack, returned)
        after_body = dict(env)
        env.clear()
        env.update(before)
        self._run_body(stmt.orelse, env, function, depth, stack, returned)
        if not stmt.orelse:
            env.clear()
            env.update(after_body)
            other = before
        else:
            other = after_body
        changed = _pipelines_apart(env, other)
        if not stmt.orelse:  # `if augment: ds = ds.map(f)` changes little: followed for batch and prefetch
            changed = [k for k in changed if _adds_a_stage(before.get(k), env.get(k))]
        if changed and self._branches < self._BRANCH_LIMIT and self._alternatives > 0:
            self._alternatives -= 1
            self._branches += 1
            alternative = {k: v for k, v in env.items() if k not in changed}
            alternative.update((k, other[k]) for k in changed if k in other)
            self._run_body(rest, alternative, function, depth, stack, returned)
            self._branches -= 1

    def _eval(self, expr, env, function, depth, stack):
        """The pipeline an expression evaluates to, or None; records chains and consumptions on the way."""
        if isinstance(expr, ast.Name | ast.Attribute) and _key(expr) in env:
            return env[_key(expr)]
        if (
            isinstance(expr, ast.Subscript)
            and isinstance(expr.value, ast.Call)
            and self.index.resolver.call_name(expr.value) == "tensorflow_datasets.load"
        ):
            return self._record(_tfds_steps(expr.value))  # tfds.load(name)["train"]
        if (
            isinstance(expr, ast.Subscript)
            and isinstance(expr.value, ast.Name)
            and isinstance(env.get(expr.value.id + _SPLITS), ast.Call)
        ):
            return self._record(_tfds_steps(env[expr.value.id + _SPLITS]))  # dataset["train"]
        if isinstance(expr, ast.Subscript) and _item_key(expr) in env:
            return env[_item_key(expr)]  # `sets["test"]`, bound by a dict literal of pipelines
        if isinstance(expr, ast.Lambda):
            # `flat_map(lambda f: TextLineDataset(f).map(parse))`: what calls the lambda reads the pipeline
            value = self._eval(expr.body, env, function, depth, stack)
            if value is not None:
                self._pass(value, expr)
            return None
        if isinstance(expr, COMPREHENSION_TYPES):
            for generator in expr.generators:  # `[to_python(e) for e in ds]`: every element is read
                value = self._eval(generator.iter, env, function, depth, stack)
                value = value or self._iterator_of(generator.iter, env, function, depth, stack)
                if value is not None:
                    self._pass(value, expr)
            return None
        if not isinstance(expr, ast.Call):
            container = isinstance(expr, ast.Tuple | ast.List | ast.Set | ast.Dict | ast.Starred)
            for child in ast.iter_child_nodes(expr):
                if isinstance(child, ast.expr) and not isinstance(child, ast.Lambda):
                    value = self._eval(child, env, function, depth, stack)
                    if container and value is not None:
                        self._pass(value, expr)  # `return train_ds, val_ds`, `zip((a, b))`
            return None
        call = expr
        func = call.func
        merged = self._merge(call, env, function, depth, stack)
        if merged is not None:
            return merged
        args = [self._eval(a, env, function, depth, stack) for a in call.args]
        kwargs = {k.arg: self._eval(k.value, env, function, depth, stack) for k in call.keywords}
        name = self.index.resolver.call_name(call)
        if name is not None:
            result = self._eval_named(call, name, args, kwargs)
            if result is None:
                self._pass_arguments(call, args, kwargs)  # `tfds.as_numpy(ds)`, `hvd.DistributedDataset`
            return result
        if isinstance(func, ast.Attribute):
            receiver = self._eval(func.value, env, function, depth, stack)
            if receiver is not None:
                self._pass_arguments(call, args, kwargs)  # `ds.concatenate(other)`
                if func.attr in METHODS:
                    kind = _applied_kind(call, self.index) if func.attr == "apply" else func.attr
                    return self._record((*receiver, Step(kind, call)))
                if func.attr in _ITERATOR_MAKERS:
                    self._consume(receiver, call)
                return None
            searched = func.attr == "search" and _key(func.value) in tuner_names(self.index)
            if func.attr in _CONSUMERS or "train" in func.attr.lower() or searched:
                first = args[0] if args else kwargs.get("x")
                if first is not None:
                    self._consume(first, call)
                    if (is_training_call(func.attr) or searched) and not toy_fit(call, self.index):
                        self._train(first)
                # the data evaluated, or read for the few steps of a smoke fit, is consumed, not handed on
                read_once = func.attr in ONE_PASS or toy_fit(call, self.index)
                if read_once and args and first is args[0]:
                    args = args[1:]
                elif read_once and first is not None:
                    kwargs = {k: v for k, v in kwargs.items() if k != "x"}
                validation = kwargs.get("validation_data")
                if (
                    validation is not None
                    and (is_training_call(func.attr) or searched)
                    and not few_validation_steps(call)
                ):
                    self.validated.setdefault(tuple(id(s.node) for s in validation), (validation, call))
                self._pass_arguments(call, args, kwargs)  # `validation_data=val_ds`
                return None
        if isinstance(func, ast.Name) and dataset_subclass(func.id, self.index):
            self._pass_arguments(call, args, kwargs)
            return self._record((Step("source", call),))  # `ImageLabelFilelist(root, files)` (tf-fix38)
        helper = self.index.helper_of(call, function) or _instance_method(call, self.index, function)
        if helper is not None and depth < HELPER_DEPTH:
            bound = _bind(helper, call, args, kwargs)
            if bound or not helper.args.args:
                return self._run_function(helper, bound, depth + 1, stack)
            return self._plain_result(helper, stack)
        if isinstance(func, ast.Name) and is_training_call(func.id) and args and args[0] is not None:
            self._train(args[0])  # `run_training(ds)` defined elsewhere
        self._pass_arguments(call, args, kwargs)
        return None

    def _merge(self, call: ast.Call, env, function, depth, stack):
        """`Dataset.zip(a, b)`, `zip((a, b))`, `sample_from_datasets([a, b], ...)`: a new source whose
        elements come from the pipelines given, which are then read as the merged pipeline is read."""
        if named_call(call) not in _MERGERS:
            return None
        name = self.index.resolver.call_name(call) or ""
        prefix, _, last = name.rpartition(".")
        if last not in _MERGERS or prefix not in ("tensorflow.data.Dataset", "tensorflow.data.experimental"):
            return None
        parts = []
        for arg in call.args:
            for item in arg.elts if isinstance(arg, ast.Tuple | ast.List) else [arg]:
                value = self._eval(item, env, function, depth, stack)
                if value is not None:
                    parts.append(value)
                elif isinstance(item, ast.Starred | ast.Tuple | ast.List | ast.Dict):
                    return self._merge_unknown(call, env, function, depth, stack)
                elif isinstance(item, ast.Name | ast.Attribute | ast.Call | ast.Subscript):
                    self.unseen_parts.add(id(call))
        for keyword in call.keywords:
            self._eval(keyword.value, env, function, depth, stack)
        known = self.parts.setdefault(id(call), [])  # a merge met again on another branch adds its parts
        for part in parts:
            if all([id(s.node) for s in part] != [id(s.node) for s in seen] for seen in known):
                known.append(part)
        return self._record((Step("source", call),))

    def _merge_unknown(self, call, env, function, depth, stack):
        """A merge of nested structures (`zip((a, (b, c)))`): each pipeline in it is handed on, as before."""
        for arg in call.args:
            self._eval(arg, env, function, depth, stack)
        return self._record((Step("source", call),))

    def expand(self, chain) -> list[tuple[Step, ...]]:
        """`chain` and, when it starts at a merge, each merged pipeline followed by the merge's later steps
        (a few levels deep): what reads `chain` reads them too."""
        out = [chain]
        todo = [(chain, 0)]
        while todo:
            current, level = todo.pop()
            for part in self.parts.get(id(current[0].node), ()) if level < 4 else ():
                joined = (*part, *current[1:])
                out.append(joined)
                todo.append((joined, level + 1))
        return out

    def _pass_arguments(self, call: ast.Call, args, kwargs) -> None:
        """Pipelines handed to a call this flow does not run, unless it only looks at them (print, len)."""
        if _only_looks(call):
            return
        for value in [*args, *kwargs.values()]:
            if value is not None:
                self._pass(value, call)

    def _iterator_of(self, expr, env, function, depth, stack):
        """The pipeline behind `iter(ds)`, `ds.as_numpy_iterator()`, `tfds.as_numpy(ds)` or an iterator name
        bound to one; None otherwise (evaluates nothing new: the expression was evaluated already)."""
        if isinstance(expr, ast.Name):
            return self._iterators.get(expr.id)
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        if isinstance(func, ast.Attribute) and func.attr == "as_numpy_iterator":
            inner = func.value
        elif expr.args and (
            named_call(expr) in _ITERATING
            or (self.index.resolver.call_name(expr) or "").endswith(".as_numpy")
        ):
            inner = expr.args[0]
        else:
            return None
        if isinstance(inner, ast.Name | ast.Attribute) and _key(inner) in env:
            return env[_key(inner)]
        return self._ending.get(id(inner))  # `iter(ds.batch(1).take(4))`

    def _plain_result(self, helper, stack):
        """What a helper called without a dataset argument returns (computed once per helper)."""
        if id(helper) not in self._plain:
            self._plain[id(helper)] = None  # guards recursion
            self._plain[id(helper)] = self._run_function(helper, {}, 0, stack)
        return self._plain[id(helper)]

    def _eval_named(self, call, name, args, kwargs):
        if name in _BATCHED_SOURCES:
            steps = [Step("source", call)]
            if not _keyword_is(call, "shuffle", False):
                steps.append(Step("shuffle", call))
            if not _keyword_is(call, "batch_size", None):
                steps.append(Step("batch", call))
            steps.append(Step("prefetch", call))  # these loaders end with prefetch(AUTOTUNE) themselves
            return self._record(tuple(steps))
        if name == "tensorflow_datasets.load":
            # one split (`split="train"`, `split=split`) gives a dataset; a list of splits, a list of them
            split = next((k for k in call.keywords if k.arg == "split"), None)
            if split is not None and not isinstance(split.value, ast.List | ast.Tuple | ast.Constant):
                return self._record(_tfds_steps(call))
            if (
                split is not None
                and isinstance(split.value, ast.Constant)
                and isinstance(split.value.value, str)
            ):
                return self._record(_tfds_steps(call))
            return None
        prefix, _, last = name.rpartition(".")
        if prefix in ("tensorflow.data", "tensorflow.data.Dataset", "tensorflow.data.experimental") and (
            last in _SOURCE_MEMBERS
        ):
            return self._record((Step("source", call),))
        if last in _ITERATOR_MAKERS and args and args[0] is not None:
            self._consume(args[0], call)
        return None

    def _record(self, chain):
        self.chains[tuple(id(s.node) for s in chain)] = chain
        self._ending[id(chain[-1].node)] = chain
        return chain

    def _consume(self, chain, at) -> None:
        ids = tuple(id(s.node) for s in chain)
        self.consumed.setdefault(ids, (chain, at))
        self.readers.setdefault(ids, []).append(at)

    def _store(self, target, chain, function, stmt) -> None:
        """`self.dataset = ds` in a method: the class's other methods read `self.dataset` as this pipeline."""
        owner = self.index.function_class.get(id(function)) if function is not None else None
        key = _key(target)
        if owner is not None and key is not None and key.startswith("self."):
            self._attributes.setdefault(owner, {})[key] = chain
            self.stored_in[id(stmt)] = owner

    def _train(self, chain) -> None:
        self.trained.setdefault(tuple(id(s.node) for s in chain), chain)

    def _pass(self, chain, at) -> None:
        self.passed.setdefault(tuple(id(s.node) for s in chain), (chain, at))

    # -- queries -------------------------------------------------------------------------------------------

    def handed_out(self):
        """Pipelines a function returns that no code of this module extends (or merges): the caller consumes
        them."""
        dropped = dropped_steps(self.index)  # `ds.prefetch(1)` as a statement extends nothing (tf-fix24)
        extended = {ids[:n] for ids in self.chains if ids[-1] not in dropped for n in range(1, len(ids))}
        extended.update(tuple(id(s.node) for s in p) for parts in self.parts.values() for p in parts)
        return [(chain, at) for ids, (chain, at) in self.returned.items() if ids not in extended]

    def steps_of(self, chains) -> set[int]:
        """The steps of `chains` and of the pipelines merged into them."""
        return {id(s.node) for chain in chains for each in self.expand(chain) for s in each}

    def used_steps(self) -> set[int]:
        """Steps of pipelines something reads at scale: consumed (fit/evaluate/predict, a training loop, a
        TF1 iterator), returned to a caller that this module does not extend, or handed on where the flow
        cannot follow them."""
        return self.steps_of(self.read_chains())

    def read_chains(self) -> list[tuple[Step, ...]]:
        """Every pipeline something reads: consumed here, or kept (`kept_chains`)."""
        return [c for c, _ in self.consumed.values()] + self.kept_chains()

    def kept_chains(self) -> list[tuple[Step, ...]]:
        """Pipelines read beyond the calls of this module that consume them: handed on, trained on, or
        returned to a caller this module does not extend (one it extends is judged by the extension)."""
        chains = [c for c, _ in self.passed.values()] + list(self.trained.values())
        return chains + [c for c, _ in self.handed_out()]

    def trained_steps(self) -> set[int]:
        """Steps of pipelines seen training a model: fit's training data or a training loop's iterable."""
        return self.steps_of(self.trained.values())

    def validated_steps(self) -> set[int]:
        """Steps of pipelines a training call validates on (`fit(train_ds, validation_data=val_ds)`): read
        once per epoch for as long as the model trains."""
        return self.steps_of(chain for chain, _ in self.validated.values())

    def all_steps(self):
        """Each chain once per (step, chain-so-far); rules dedupe by step node."""
        return self.chains.values()


_STEP_METHODS = frozenset(
    {"apply_gradients", "train_on_batch", "test_on_batch", "predict_on_batch", "run", "minimize", "gradient"}
)


def _run_order(index: ModuleIndex) -> list[ast.AST]:
    """The module's defs in source order, except that a method storing something on `self` runs at the place
    of its class's first method: the other methods then read what it stored (`def train(self): for x in
    self.dataset` above `def build(self): self.dataset = ...`)."""
    first: dict[str, int] = {}
    ranked = []
    for position, function in enumerate(index.functions):
        owner = index.function_class.get(id(function))
        if owner is not None:
            first.setdefault(owner, position)
            if _stores_on_self(function):
                ranked.append((first[owner], 0, position, function))
                continue
        ranked.append((position, 1, position, function))
    return [function for *_, function in sorted(ranked, key=lambda r: r[:3])]


def _stores_on_self(function) -> bool:
    """The def assigns an attribute of `self` (`self.dataset = ...`)."""
    return any(
        isinstance(stmt, ast.Assign)
        and any(
            isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
            for t in stmt.targets
        )
        for stmt in statements_in(function)
    )


# Steps whose presence on one path only PP203 judges: the batching a prefetch belongs after, and the prefetch
_STAGES = frozenset({"batch", "padded_batch", "prefetch", "cache"})


def _adds_a_stage(prior, after) -> bool:
    """`after` is `prior` carried on by a batch, a prefetch or a cache (`if workers == 1: ds = ds.prefetch(1)`,
    `if cache: ds = ds.cache()`: the pipeline may go on without it; tf-fix31 added the cache)."""
    if not isinstance(prior, tuple) or not isinstance(after, tuple):
        return False
    old = {id(s.node) for s in prior}
    return any(s.kind in _STAGES and id(s.node) not in old for s in after)


def _pipelines_apart(one: dict, other: dict) -> list[str]:
    """The names two branches' states bind to different pipelines, or to a pipeline in one state only."""
    return [
        k
        for k in {**one, **other}
        if one.get(k) is not other.get(k)
        and (isinstance(one.get(k), tuple) or isinstance(other.get(k), tuple))
    ]


def _parallel_pairs(stmt: ast.stmt) -> list[ast.Assign]:
    """`a, b = x, y` as `a = x` and `b = y`, when every target is a plain name that no value reads (so the
    order does not matter: not a swap); otherwise []."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return []
    target, value = stmt.targets[0], stmt.value
    if not (
        isinstance(target, ast.Tuple)
        and isinstance(value, ast.Tuple)
        and len(target.elts) == len(value.elts) > 1
        and all(isinstance(t, ast.Name) for t in target.elts)
    ):
        return []
    names = {t.id for t in target.elts}
    if any(isinstance(n, ast.Name) and n.id in names for v in value.elts for n in ast.walk(v)):
        return []
    return [
        ast.copy_location(ast.Assign(targets=[t], value=v), stmt)
        for t, v in zip(target.elts, value.elts, strict=True)
    ]


def _runs_a_step(loop: ast.AST, index: ModuleIndex) -> bool:
    """A for loop over a dataset that trains or evaluates (not one that prints a few elements)."""
    for node in ast.walk(loop):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _STEP_METHODS:
            return True
        if index.resolver.call_name(node) == "tensorflow.GradientTape":
            return True
        if _fits_loop_data(node, loop):
            return True
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if "step" in name.lower() or "train" in name.lower() or "model" in name.lower():
            return True
    return False


def _fits_loop_data(call: ast.Call, loop: ast.AST) -> bool:
    """`model.fit(x, y, ...)` on names the loop binds (its target, or names assigned in its body): a fit per
    element, one training step per batch as `train_on_batch` is (tf-fix51: reading 35's highredshine xDeepFM
    fits each batch of its TFRecord pipeline in `for batch in train_data:`; PP203 read the loop as not
    training). A fit on data made before the loop (`for fold in folds: model.fit(train_ds)`) is not one."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr in ("fit", "fit_generator")):
        return False
    bound = (
        {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)} if hasattr(loop, "target") else set()
    )
    bound |= {
        n.id
        for stmt in ast.walk(loop)
        if isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign)
        for target in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
        for n in ast.walk(target)
        if isinstance(n, ast.Name)
    }
    return any(
        isinstance(n, ast.Name) and n.id in bound
        for arg in [*call.args[:2], *(k.value for k in call.keywords if k.arg in ("x", "y"))]
        for n in ast.walk(arg)
    )


TRAIN_METHODS = frozenset({"apply_gradients", "train_on_batch", "minimize"})
_NOT_TRAINING = ("eval", "test", "valid", "predict", "infer")


def _every_n_steps(loop: ast.AST, call: ast.Call) -> bool:
    """`call` runs only under an `if` of the loop testing a remainder (`if step % 100 == 0:`, `if
    tf.equal(optimizer.iterations % 100, 0):`): once every N iterations, not every step."""
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.If)
            and any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) for n in ast.walk(node.test))
            and any(n is call for stmt in node.body for n in ast.walk(stmt))
        ):
            return True
    return False


def names_training(name: str | None) -> bool:
    """A name that says training (`train_ds`, `self.train_dataset`, `def train_input_fn`), not evaluation."""
    lower = (name or "").lower()
    return "train" in lower and not any(w in lower for w in _NOT_TRAINING)


# keras-tuner's tuners: `tuner.search(ds, epochs=n)` fits a model on `ds` once per trial (tf-fix49)
_TUNERS = frozenset({"Hyperband", "RandomSearch", "BayesianOptimization", "GridSearch"})
_TUNER_MODULES = ("keras_tuner", "kerastuner")


def tuner_names(index: ModuleIndex) -> frozenset[str]:
    """Names bound to a keras-tuner tuner (`tuner = kt.Hyperband(build, ...)`, `from keras_tuner import
    RandomSearch`), whose `search(ds, ...)` trains on `ds` as `fit` does: reading 34's keras-tuner script
    handed its tfds pipeline only to `tuner.search` and PP203 read it as unused. Worked out once per module."""
    cached = getattr(index, "_tuner_names", None)
    if cached is not None:
        return cached
    names = set()
    for stmt in index.call_assignments:
        parts = dotted_parts(stmt.value.func)
        if not parts or parts[-1] not in _TUNERS:
            continue
        imported = import_of(parts[0], index, whole_module=True)
        if imported is not None and f"{imported[1]}.{imported[2]}".lstrip(".").startswith(_TUNER_MODULES):
            names.update(k for k in map(_key, stmt.targets) if k is not None)
    index._tuner_names = frozenset(names)
    return index._tuner_names


def is_training_call(name: str) -> bool:
    """`fit`, `fit_generator`, `train`, `trainer.train_model`: not evaluate/predict, not `train_eval`."""
    lower = name.lower()
    return lower in ("fit", "fit_generator") or (
        "train" in lower and not any(w in lower for w in _NOT_TRAINING)
    )


def runs_training_step(loop: ast.AST, index: ModuleIndex | None = None) -> bool:
    """A for loop whose body runs a training step: apply_gradients, minimize, train_on_batch, a call named
    for training (`train_step`), or a session run of something named for training (`sess.run(train_op)`)."""
    for node in ast.walk(loop):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in TRAIN_METHODS or is_training_call(name):
            return True
        if name == "run" and any(_names_a_train_op(f) for f in _fetched(node)):
            return True
    return False


def _fetched(run: ast.Call) -> list[ast.AST]:
    """What a session `run` fetches: its first argument or `fetches=`, with lists, tuples and dict values
    opened (`sess.run([train_op, loss])`, `sess.run({"step": model.train_op})`); a call stays one fetch, its
    arguments are not what is run (`sess.run(var.assign(pre_trained_weights))` runs an assign)."""
    fetches = [*run.args[:1], *(k.value for k in run.keywords if k.arg == "fetches")]
    out: list[ast.AST] = []
    while fetches:
        node = fetches.pop()
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            fetches.extend(node.elts)
        elif isinstance(node, ast.Dict):
            fetches.extend(node.values)
        else:
            out.append(node)
    return out


def _names_a_train_op(fetch: ast.AST) -> bool:
    """A fetch named for a training op or an optimizer step (`train_op`, `model.train_op`, `self.optimizer`,
    `ops["train"]`, `train_ops[i]`) or a step made in place (`opt.minimize(loss)`); tf-fix32: only the fetch
    itself, never words in its arguments."""
    if isinstance(fetch, ast.Subscript):
        key = fetch.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and _train_word(key.value):
            return True
        return _names_a_train_op(fetch.value)
    if isinstance(fetch, ast.Call):
        return named_call(fetch) in TRAIN_METHODS
    name = fetch.id if isinstance(fetch, ast.Name) else fetch.attr if isinstance(fetch, ast.Attribute) else ""
    return _train_word(name)


def _train_word(name: str) -> bool:
    lower = name.lower()
    return "train" in lower or "opt" in lower


def _parameters(function) -> set[str]:
    args = function.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    names.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    return names


def _item_key(node: ast.Subscript) -> str | None:
    """The env key of `name["key"]` (a constant string key of a name), else None."""
    key = _key(node.value)
    item = node.slice
    if key is None or not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
        return None
    return f"{key}[{item.value!r}]"


def _pipelines_by_key(stmt: ast.Assign, env) -> dict:
    """`datasets = {"train": train_ds, "test": test_ds}`: the pipelines a dict literal of names holds, by
    the keys `datasets["test"]` reads them under (reading 26: JeffOnGithub's validation pipeline)."""
    if len(stmt.targets) != 1 or not isinstance(stmt.value, ast.Dict) or _key(stmt.targets[0]) is None:
        return {}
    found = {}
    for key, value in zip(stmt.value.keys, stmt.value.values, strict=True):
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and _key(value) in env:
            item = ast.Subscript(value=stmt.targets[0], slice=key)
            found[_item_key(item)] = env[_key(value)]
    return found


def dataset_subclass(name: str, index: ModuleIndex) -> bool:
    """`name` is a class of the module that subclasses `tf.data.Dataset` and builds itself in `__new__`
    (`class ImageLabelFilelist(tf.data.Dataset): def __new__(cls, ...): return
    tf.data.Dataset.from_generator(...)`, the tf.data guide's idiom): calling it makes a dataset source
    (tf-fix38: reading 27's VQ-VAE image list)."""
    if "__new__" not in index.class_methods.get(name, {}):
        return False
    return any(
        isinstance(stmt, ast.ClassDef)
        and stmt.name == name
        and any(index.resolver.qualname(base) == "tensorflow.data.Dataset" for base in stmt.bases)
        for stmt in index.tree.body
    )


def _key(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


# Calls that only look at a pipeline (print it, count it, show a few examples): no evidence of use at scale.
_LOOKING = frozenset(
    {
        "print",
        "len",
        "repr",
        "str",
        "type",
        "isinstance",
        "iter",
        "next",
        "list",
        "display",
        "enumerate",
        "zip",
        "tqdm",
    }
)
_LOOKING_WORDS = ("show", "plot", "visuali", "display", "print")
# Calls that hand back an iterator over the pipeline: `iter(ds)`, a progress bar around it (`tqdm(ds)`)
_ITERATING = frozenset({"iter", "tqdm", "trange"})


def named_call(call: ast.Call) -> str:
    """The called name as written (`table.lookup(...)` -> "lookup"); "" for anything else."""
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _only_looks(call: ast.Call) -> bool:
    name = named_call(call)
    if (
        name == "format"
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Constant)
    ):
        return True  # `"dataset: {}".format(ds)`: the pipeline's repr, for a print
    return name in _LOOKING or any(w in name.lower() for w in _LOOKING_WORDS)


def _is_enumerate(node) -> bool:
    """`enumerate(ds)` or `enumerate(ds, 1)`: not `module.builtin_call`, whose one-argument test would drop the
    `start` that TF loops over a pipeline often give (review 26 item 18)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "enumerate"
        and len(node.args) >= 1
    )


_TOY_STEPS = 20  # `fit(ds, epochs=2, steps_per_epoch=4)`: a smoke run of a tutorial, not a training


# `validation_steps` up to this reads a batch or two per epoch: a glance, next to the epoch's training steps.
_FEW_VALIDATION_STEPS = 2


def few_validation_steps(call: ast.Call) -> bool:
    """`fit(..., validation_data=val_ds, validation_steps=1)`: the validation pipeline gives one batch per
    epoch, so its input speed is no bottleneck (tf-fix34: reading 25's BERT validation sets, PP203 read
    wrong twice)."""
    value = next((k.value for k in call.keywords if k.arg == "validation_steps"), None)
    return (
        isinstance(value, ast.Constant)
        and type(value.value) is int
        and 0 < value.value <= _FEW_VALIDATION_STEPS
    )


def toy_fit(call: ast.Call, index: ModuleIndex) -> bool:
    """A `fit` whose literal `epochs` times `steps_per_epoch` is at most `_TOY_STEPS` (reading 13 read the
    serial decode of such a tutorial copy debatable: 8 batches of 8 images)."""
    sizes = []
    for name in ("epochs", "steps_per_epoch"):
        value = next((k.value for k in call.keywords if k.arg == name), None)
        if isinstance(value, ast.Name):
            value = index.only_value(value.id)
        if not (isinstance(value, ast.Constant) and type(value.value) is int):
            return False
        sizes.append(value.value)
    return sizes[0] * sizes[1] <= _TOY_STEPS


# The key suffix under which a name bound to tfds.load's dict of splits keeps the call (no Python name has it).
_SPLITS = "[]"


def _tfds_steps(call: ast.Call) -> tuple[Step, ...]:
    """`tfds.load(...)`: a source, already batched when `batch_size=` is given (not None)."""
    if any(k.arg == "batch_size" for k in call.keywords) and not _keyword_is(call, "batch_size", None):
        return (Step("source", call), Step("batch", call))
    return (Step("source", call),)


def _keyword_is(call: ast.Call, name: str, value) -> bool:
    return any(
        k.arg == name and isinstance(k.value, ast.Constant) and k.value.value is value for k in call.keywords
    )


def _applied_kind(call: ast.Call, index: ModuleIndex) -> str:
    if call.args and isinstance(call.args[0], ast.Call):
        name = index.resolver.call_name(call.args[0]) or ""
        return _APPLIED.get(name.rsplit(".", 1)[-1], "apply")
    return "apply"


def _instance_method(call: ast.Call, index: ModuleIndex, function=None) -> ast.AST | None:
    """The method `obj.m(...)` runs when the calling def binds `obj` only to instances of one class the module
    defines (`dataset = VocDataset(params)` then `dataset.load_dataset(is_training=True, ...)`): the flow
    follows the pipeline the method returns into the caller's use, as it does for a module function's
    (tf-fix51: reading 35's FCN dataset classes build their pipelines in such methods). Every value must call
    that class by name, read in the caller's def when it binds `obj` (the method itself binds `dataset` to
    its pipeline), else module-wide: a `ds` bound to `tf.data.Dataset.from_tensor_slices(x)` is no instance,
    so `ds.batch(32)` is tf.data's, not the class's `batch` (review 26 item 10). A parameter of the caller's
    def is never read through a module-level binding of its name (session 26 reread)."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)) or func.value.id in (
        "self",
        "cls",
    ):
        return None
    values = values_here(func.value.id, index, function)
    if values is None:
        return None  # the caller's argument, whatever a module-level name of the same spelling holds
    classes = {
        v.func.id if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) else None for v in values
    }
    if len(classes) != 1 or None in classes:
        return None
    return index.class_methods.get(classes.pop(), {}).get(func.attr)


def _bind(helper, call: ast.Call, args, kwargs) -> dict:
    params = [a.arg for a in helper.args.posonlyargs + helper.args.args]
    if params and params[0] in ("self", "cls") and isinstance(call.func, ast.Attribute):
        params = params[1:]
    bound = {}
    for param, value in zip(params, args, strict=False):
        if value is not None:
            bound[param] = value
    for name, value in kwargs.items():
        if name is not None and value is not None:
            bound[name] = value
    return bound


# -- pipelines the flow cannot start --------------------------------------------------------------------------

_UNTRACED_DEPTH = 6  # names followed back (`eval_ds = ds.batch(n)` ... `ds` a parameter)
# Steps only a tf.data pipeline takes: a chain with one of them is a pipeline whatever its source
_DATASET_ONLY_KINDS = frozenset(
    {"padded_batch", "unbatch", "interleave", "flat_map", "parallel_interleave", "with_options", "apply"}
)


def untraced_pipelines(index: ModuleIndex, traced: set[int]):
    """Pipelines whose source the flow cannot see (a parameter no call of this module binds, the result
    of a helper defined elsewhere: `dataset = make_petastorm_dataset(reader)`, `d = dataset.read(mode)`)
    that a function then consumes or returns: yields (steps, place, how, source, def) with the steps in
    order. A `for` loop that runs a training step on its elements consumes the pipeline it iterates
    (tf-fix51: reading 35's highredshine trains batch by batch on `tools.concat_datasets(ds_list).repeat(n)
    .batch(b)`, whose source is another module's helper).

    A TF1 iterator (`d.make_one_shot_iterator()`) is read as consumption; a returned chain counts when a
    step or a name says tf.data (`padded_batch`, `apply`, `dataset = ...`). Chains the flow traced (any of
    their step calls in `traced`) are left to it."""
    extended = _extended_results(index)  # `make(x).prefetch(1)`: the caller ends the chain
    for function in index.functions:
        if isinstance(function, ast.Lambda):
            continue
        for node in _own_nodes(function):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr not in _ITERATOR_MAKERS:
                    continue
                target, how = node.func.value, "consumed"
            elif isinstance(node, ast.Return) and node.value is not None and function.name not in extended:
                target, how = node.value, "returned"
            elif isinstance(node, ast.For) and runs_training_step(node, index) and _runs_a_step(node, index):
                target, how = _loop_iterable(node.iter), "consumed"  # a training loop over it (tf-fix51)
            else:
                continue
            steps, source = _steps_back(target, function, node.lineno, index, 0)
            if not steps or source is None or any(id(s.node) in traced for s in steps):
                continue
            if how == "returned" and not _says_dataset(steps, source, target):
                continue
            yield steps, node, how, source, function


def _loop_iterable(expr: ast.expr) -> ast.expr:
    """`for batch in data` / `for i, batch in enumerate(data)`: `data`."""
    return expr.args[0] if _is_enumerate(expr) and expr.args else expr


def _own_nodes(function) -> list[ast.AST]:
    """The nodes of a def's body, without those of the defs and classes nested in it."""
    found, todo = [], list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (*FUNCTION_TYPES, ast.ClassDef, ast.Lambda)):
            continue
        found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def _chain_steps(expr, index: ModuleIndex) -> tuple[list[Step], ast.AST]:
    """`a.shuffle(n).batch(b)` -> ([shuffle, batch], a)."""
    steps: list[Step] = []
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr in METHODS:
        kind = _applied_kind(expr, index) if expr.func.attr == "apply" else expr.func.attr
        steps.insert(0, Step(kind, expr))
        expr = expr.func.value
    return steps, expr


def _steps_back(expr, function, before: int, index: ModuleIndex, depth: int):
    """The steps `expr` applies, following the local names it is built from back to a parameter or a call
    that is no step (its source); (steps, None) when the source is neither."""
    steps, root = _chain_steps(expr, index)
    if not isinstance(root, ast.Name):
        return steps, (root if isinstance(root, ast.Call) else None)
    earlier = [a for a in _assignments(function, root.id) if a.lineno < before]
    for assign in reversed(earlier):
        more, inner = _chain_steps(assign.value, index)
        if isinstance(inner, ast.Name) and inner.id == root.id:
            steps = more + steps  # `d = d.batch(n)`, under an `if` or not
            continue
        if depth >= _UNTRACED_DEPTH:
            return steps, None
        more, source = _steps_back(assign.value, function, assign.lineno, index, depth + 1)
        return more + steps, source
    return steps, (root if root.id in _parameters(function) and root.id not in ("self", "cls") else None)


def _assignments(function, name: str) -> list[ast.Assign]:
    found = [
        node
        for node in _own_nodes(function)
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == name
    ]
    return sorted(found, key=lambda a: a.lineno)


def _says_dataset(steps, source, target) -> bool:
    if any(s.kind in _DATASET_ONLY_KINDS for s in steps):
        return True
    names = [target, source, source.func if isinstance(source, ast.Call) else None]
    words = [n.id if isinstance(n, ast.Name) else getattr(n, "attr", "") for n in names if n is not None]
    return any("dataset" in w.lower() or "ds" in w.lower().split("_") for w in words)


def dropped_steps(index: ModuleIndex) -> set[int]:
    """Ids of tf.data step calls whose result a statement throws away (`dataset.prefetch(n)` or
    `ds.shuffle(k).batch(n)` on a line of its own). Datasets are immutable: such a statement leaves the
    pipeline as it was, so it extends nothing (reading 20: NguyenThanhAI's and nihil21's discarded
    prefetch on returned training pipelines)."""
    cached = getattr(index, "_dropped_steps", None)
    if cached is None:
        cached = set()
        for node in ast.walk(index.tree):
            call = node.value if isinstance(node, ast.Expr) else None
            while (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr in METHODS
            ):
                cached.add(id(call))
                call = call.func.value
        index._dropped_steps = cached
    return cached


def _extended_results(index: ModuleIndex) -> set[str]:
    """Names of functions whose result a step is applied to here (`make_dataset(files).prefetch(2)`)."""
    names = set()
    dropped = dropped_steps(index)
    for site in index.calls:
        if id(site.node) in dropped:
            continue  # `make_dataset(files).prefetch(2)` as a statement: its result is thrown away
        steps, root = _chain_steps(site.node, index)
        if steps and isinstance(root, ast.Call):
            names.add(named_call(root))
    return names


# -- pipelines a training step reads where the flow does not follow them (tf-fix29) -------------------------


def says_evaluation(name: str | None) -> bool:
    """A name that says evaluation, testing, validation, prediction or inference (`test_iterator`,
    `def eval_input_fn`, `val_ds`)."""
    lower = (name or "").lower()
    return any(w in lower for w in (*_NOT_TRAINING, "val_"))


def into_training(node: ast.AST, parents: dict) -> bool:
    """The value of `node` (a call, or a def named without a call) goes into training: bound to a name that
    says train, passed (as an argument, a keyword or a lambda's body) to a call that trains or is named for
    training (fit, `estimator.train`, `TrainSpec`), or to a keyword that says train (`train_input_fn=`); the
    names are read as the dataset flow reads them (not eval, test, valid, predict or infer)."""
    child = node
    while child in parents:
        parent = parents[child]
        if isinstance(parent, ast.Assign | ast.AnnAssign):
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            return any(names_training(ast.unparse(t)) for t in targets)
        if isinstance(parent, ast.keyword) and names_training(parent.arg):
            return True
        if isinstance(parent, ast.Call) and parent is not node and is_training_call(named_call(parent) or ""):
            return True
        if isinstance(parent, ast.stmt):
            return False
        child = parent
    return False


def parents_of(index: ModuleIndex) -> dict:
    """Each node of the module -> the node holding it (worked out once per module)."""
    cached = getattr(index, "_parents", None)
    if cached is None:
        cached = index._parents = parent_map(index.tree)
    return cached


def parent_map(tree: ast.AST) -> dict:
    """Each node under `tree` -> the node holding it (a walk in `checker.module.walk`'s fast style)."""
    parents = {}
    found = [tree]
    at = 0
    while at < len(found):
        node = found[at]
        start = len(found)
        child_nodes(node, found)
        for position in range(start, len(found)):
            parents[found[position]] = node
        at += 1
    return parents


def _scope(node: ast.AST, parents: dict) -> ast.AST:
    """The innermost def or lambda holding `node`, or the module (the root of `parents`) at the top level."""
    while node in parents:
        node = parents[node]
        if isinstance(node, (*FUNCTION_TYPES, ast.Lambda)):
            return node
    return node


def scope_trains(scope: ast.AST, cache: dict) -> bool:
    """The def (or the module's top level) holds, in its own code, a `for` or `while` loop that runs a
    training step (`runs_training_step`: `while not sess.should_stop(): sess.run(model.train_op)`, `for x, y
    in batches: train_step(x, y)`); `cache` keeps the answer per scope."""
    key = id(scope)
    if key not in cache:
        nodes = [] if isinstance(scope, ast.Lambda) else _own_nodes(scope)
        cache[key] = any(
            isinstance(n, ast.For | ast.AsyncFor | ast.While) and runs_training_step(n) for n in nodes
        )
    return cache[key]


def _training_scopes(index: ModuleIndex) -> dict:
    """The module's cache for `scope_trains`."""
    cached = getattr(index, "_training_scopes", None)
    if cached is None:
        cached = index._training_scopes = {}
    return cached


def _statement_targets(node: ast.AST, parents: dict) -> list[str]:
    """The targets, as written, of the assignment whose value holds `node` (`test_it =
    test_ds.make_one_shot_iterator()` -> ["test_it"]); [] when no assignment holds it."""
    while node in parents and not isinstance(node, ast.stmt):
        node = parents[node]
    if isinstance(node, ast.Assign):
        return [ast.unparse(t) for t in node.targets]
    if isinstance(node, ast.AnnAssign):
        return [ast.unparse(node.target)]
    return []


def _for_evaluation(chain, at: ast.AST, holder, parents: dict) -> bool:
    """The pipeline, the iterator made of it or the def holding it is named for evaluation (`test_ds =
    ds.batch(n)`, `test_it = ds.make_one_shot_iterator()`, `def eval_input_fn()`)."""
    names = [t for s in chain for t in _statement_targets(s.node, parents)]
    names += _statement_targets(at, parents)
    if isinstance(holder, FUNCTION_TYPES):
        names.append(holder.name)
    return any(says_evaluation(name) for name in names)


def _target_names(node: ast.AST, parents: dict) -> set[str]:
    """The plain names the assignment whose value holds `node` binds (`images, labels = it.get_next()`)."""
    while node in parents and not isinstance(node, ast.stmt):
        node = parents[node]
    targets = node.targets if isinstance(node, ast.Assign) else []
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _reads(node: ast.AST | None, names: set[str]) -> bool:
    return node is not None and any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _returns_from(at: ast.AST, holder, parents: dict) -> bool:
    """The def returns what `at` makes: `at` is its `return` or sits in one, or a `return` reads a name bound
    from it (`iterator = ds.make_one_shot_iterator(); images, labels = iterator.get_next(); return images,
    labels`)."""
    node = at
    while node in parents and not isinstance(node, ast.stmt):
        node = parents[node]
    if isinstance(node, ast.Return):
        return True
    names = _target_names(at, parents)
    own = _own_nodes(holder)
    for _ in range(2):  # `it = ...`, then `x, y = it.get_next()`
        for stmt in own:
            if isinstance(stmt, ast.Assign) and _reads(stmt.value, names):
                names |= {n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return any(isinstance(stmt, ast.Return) and _reads(stmt.value, names) for stmt in own)


def _references(function, index: ModuleIndex, parents: dict) -> list[ast.AST]:
    """The places this module names the def beyond defining it: `input_fn` (a module function or a def
    nested in another) or `self.input_fn` (a method)."""
    method = index.function_class.get(id(function)) is not None
    found = []
    for node in parents:
        if method:
            if (
                isinstance(node, ast.Attribute)
                and node.attr == function.name
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
            ):
                found.append(node)
        elif isinstance(node, ast.Name) and node.id == function.name and isinstance(node.ctx, ast.Load):
            found.append(node)
    return found


def _called_into_training(function, index: ModuleIndex, parents: dict, depth: int = 0) -> bool:
    """A call of the def goes into training (`into_training`: `train_ds = make(...)`,
    `estimator.train(input_fn=lambda: input_fn(True, ...))`), or sits in a def whose own loop runs a training
    step and is bound to no name for evaluation (`images, labels = input_fn(True, ...)` in a `def train()`
    that runs `sess.run(model.train_op)` until told to stop), or the def is handed to training uncalled
    (`estimator.train(train_input_fn)`, `TrainSpec(input_fn=input_fn)`); a def a nesting def returns
    (`def get_input_fn(...): def input_fn(): ...; return input_fn`) through the calls of that one."""
    for reference in _references(function, index, parents):
        call = parents.get(reference)
        if isinstance(call, ast.Call) and call.func is reference:
            if feeds_training(call, parents, _training_scopes(index)):
                return True
        elif into_training(reference, parents):
            return True
    outer = index.function_parent.get(id(function))
    if depth < 2 and isinstance(outer, FUNCTION_TYPES):
        returned = any(
            isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and n.value.id == function.name
            for n in _own_nodes(outer)
        )
        if returned:
            return _called_into_training(outer, index, parents, depth + 1)
    return False


def feeds_training(call: ast.Call, parents: dict, scopes: dict) -> bool:
    """The value of `call` goes into training (`into_training`), or the call sits in a def (or at the top
    level) whose own loop runs a training step (`scope_trains`, answers kept in `scopes`) and is bound to no
    name for evaluation (`images, labels = input_fn(True, ...)` in a `def train()` that runs
    `sess.run(model.train_op)` until told to stop)."""
    if into_training(call, parents):
        return True
    if not scope_trains(_scope(call, parents), scopes):
        return False
    return not any(says_evaluation(t) for t in _statement_targets(call, parents))


def _fed_at(chain, at: ast.AST, index: ModuleIndex, parents: dict) -> bool:
    """The pipeline `chain`, consumed, returned or handed on at `at`, is read by a training step through
    code the flow does not follow: a TF1 iterator made of it is bound to a name that says train
    (`self.train_iterator = ...`) or made where a loop trains, or the def holding it returns it (or the
    tensors of its iterator) and is called into training (`_called_into_training`); nothing on the way
    is named for evaluation."""
    holder = _scope(at, parents)
    if _for_evaluation(chain, at, holder, parents):
        return False
    if isinstance(at, ast.Lambda):
        return into_training(at, parents)  # `input_fn = lambda: ds.batch(n)`, `train(input_fn=lambda: ...)`
    iterator = isinstance(at, ast.Call) and named_call(at) in _ITERATOR_MAKERS
    if iterator and any(names_training(t) for t in _statement_targets(at, parents)):
        return True
    if iterator and scope_trains(holder, _training_scopes(index)):
        return True
    if not isinstance(holder, FUNCTION_TYPES) or not _returns_from(at, holder, parents):
        return False
    return _called_into_training(holder, index, parents)


def fed_steps(flow: DatasetFlow) -> set[int]:
    """Steps of pipelines a training step reads where the flow's `trained` does not see it (`_fed_at`):
    TF1 iterators feeding a session's training loop and Estimator input functions (tf-fix29). PP203 reads
    them as seen training: with a map doing image or file work such a pipeline is `medium`, and so is one
    another module trains on this way (checker/project.py, `_fed_elsewhere`). As first read over readings
    15-22 (by reason where no checkout is left, by code on reading 22), the pipelines seen training only
    through this evidence and with such a map read right 18 times in 21 (86%) in 11 repositories (12 of 14
    without copies); the debatable three are a guide's snippet in two copies and a batch-of-one research
    loader. Without such a map they read right 8 times in 25 (32%: MNIST records, CSV and Iris estimators,
    tutorial input functions) and stay `low` (bench/data/tf-fix29_class_reads.csv)."""
    cached = getattr(flow, "_fed", None)
    if cached is not None:
        return cached
    places = [*flow.consumed.values(), *flow.handed_out(), *flow.passed.values()]
    places += [
        (chain, at) for ids, ats in flow.readers.items() for at in ats if (chain := flow.chains.get(ids))
    ]
    fed = []
    if places:
        parents = parents_of(flow.index)
        seen: set[tuple[int, int]] = set()
        for chain, at in places:
            key = (id(chain[-1].node), id(at))
            if key not in seen:
                seen.add(key)
                if _fed_at(chain, at, flow.index, parents):
                    fed.append(chain)
    flow._fed = flow.steps_of(fed)
    return flow._fed
