"""Evidence read across the checked files: a pipeline returned by a function that a caller trains on.

A module often builds the tf.data pipeline in a function (`def input_fn(...)`, a loader class) and a training
script, in the same module or elsewhere in the project, calls it: `train_dataset = input_fn(files)`,
`estimator.train(input_fn=lambda: input_fn(...))`, `model.fit(load(...))`. The rules follow a pipeline inside
the function that builds it, where it is only "returned to a caller", so its PP201/PP202 findings are
`medium`. When the files checked together show a call of that function (by name) into training, the finding
of a rule in LIFTED_RULES rises to `high`, the level of a pipeline seen training (no rule since
tf-calibrate14: a pipeline seen training is `medium` too). A `medium` finding in a def or class that no file
of the project uses is lowered.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import re
from dataclasses import dataclass

from checker.datasets import (
    TRAIN_METHODS,
    feeds_training,
    into_training,
    is_training_call,
    named_call,
    names_training,
    parent_map,
)
from checker.engine import CellLines, character_column, parsed_cells
from checker.findings import Finding
from checker.module import ModuleIndex, dotted_parts, import_of
from checker.noqa import file_is_silenced, silenced_at
from checker.notebook import NotebookError, code_cells
from checker.project_files import import_word, import_words, module_file
from checker.resolve import may_use_tensorflow
from checker.rules import RULE_ERRORS, finding, rule_selected
from checker.rules.common import few_iterations, per_device_loop, runs_once, self_bindings
from checker.rules.data import (
    TRAINED_IMAGE_PIPELINE_LEVEL,
    PipelineFacts,
    imported_code_does_image_work,
    imported_map_code,
    imported_python_code,
    imported_python_maps,
    names_image_work,
    pipeline_facts,
    unfed_image_pipelines,
    untrained_image_maps,
)
from checker.rules.function import Factory, per_call_factories
from checker.rules.graph import OpBuilder, may_run_graph, per_call_op_builders
from checker.rules.keras import (
    MODEL_LIKE,
    Predictor,
    def_returns_one_sample,
    instance_class,
    per_sample_predictors,
    predictor_call_finding,
    predicts_on_calls_elsewhere,
    predicts_per_sample,
)
from checker.source import read_python
from checker.testcode import is_test_path

# A module whose text names neither cannot import TensorFlow (the resolver tracks these roots only), and one
# that imports it has an import line naming it.
_TF_WORDS = ("tensorflow", "keras")
# The rules whose `medium` findings on a pipeline "returned to a caller" a training call elsewhere lifts.
# None since tf-calibrate14: PP201 had no `high` (`low` throughout since tf-fix33), and PP202's lifted
# findings, as first read over readings 10-14, were right 15 times in 16 but 0 in 1 in reading 14, too
# few (under 20) to keep in the default output. Since tf-calibrate20 PP202 is `high` when its own module trains the pipeline; a
# lift by training elsewhere stays unmeasured and off.
LIFTED_RULES: frozenset[str] = frozenset()
# The rules whose `medium` findings in a def or class that the project never uses are lowered.
LOWERED_RULES = frozenset({"PP201", "PP202"})
# Calls that run training steps: a function making them is a runner, not an input helper.
_TRAINING_STEPS = TRAIN_METHODS | {"fit", "fit_generator"}


@dataclass(frozen=True)
class ModuleFacts:
    """What the project pass reads of a module that the per-module pass worked out already (tf-fix30), so
    that it neither parses the module nor runs the dataset flow again: its pipelines' PipelineFacts, its
    defs that predict one sample per call (`predictors`), those that make a tf.function per call
    (`factories`) and those that build graph ops and run the session per call (`op_builders`); None for
    what that pass did not work out."""

    pipelines: PipelineFacts | None
    predictors: tuple[Predictor, ...] | None
    factories: tuple[Factory, ...] | None
    op_builders: tuple[OpBuilder, ...] | None


def tf_module_facts(index: ModuleIndex, text: str) -> ModuleFacts:
    """The module's ModuleFacts, from what the rules that ran on `index` left on it (the factories are
    worked out here, for a module whose text names tf.function)."""
    predictors = getattr(index, "_predictors", None)
    tensorflow = index.resolver.uses_tensorflow
    return ModuleFacts(
        pipeline_facts(index),
        tuple(predictors.values()) if predictors is not None else None if tensorflow else (),
        tuple(per_call_factories(index).values()) if tensorflow and "function" in text else (),
        tuple(per_call_op_builders(index).values()) if tensorflow and may_run_graph(text) else (),
    )


class _Modules:
    """The project's files as text and as trees, each read and parsed at most once: from the texts the
    per-module pass already read (`sources`), else from disk with the module's coding line; and what that
    pass worked out of a module (`facts`: path -> ModuleFacts), else worked out again from a new index."""

    def __init__(
        self,
        sources: dict[str, str] | None,
        facts: dict[str, ModuleFacts] | None = None,
        kept: dict | None = None,
    ) -> None:
        self._texts: dict[str, str | None] = dict(sources or {})
        self._trees: dict[str, ast.Module | None] = {}
        self._indexes: dict[str, ModuleIndex | None] = {}
        self._facts: dict[str, ModuleFacts] = dict(facts or {})
        self._kept = kept or {}
        # (path, predictor) of modules that import no TensorFlow and get the model from their caller
        # (tf-fix52): their calls count only in a module using TensorFlow (an sklearn model's `predict` is no
        # Keras one's). Keyed by path too (review27 item 23): a predictor is a value, and an equal one of
        # another module (a copied `utils.py`, same def at the same line) is not this one
        self.handed_models: set[tuple[str, Predictor]] = set()

    def _pipelines(self, path: str) -> PipelineFacts | None:
        facts = self._facts.get(path)
        return None if facts is None else facts.pipelines

    def untrained_maps(self, path: str) -> set | frozenset:
        """untrained_image_maps of the module at `path` (empty when it does not parse)."""
        facts = self._pipelines(path)
        if facts is not None and facts.untrained is not None:
            return facts.untrained
        return set() if (index := self.index(path)) is None else untrained_image_maps(index)

    def imported_maps(self, path: str) -> dict:
        """imported_map_code of the module at `path` (empty when it does not parse)."""
        facts = self._pipelines(path)
        if facts is not None and facts.imported is not None:
            return facts.imported
        return {} if (index := self.index(path)) is None else imported_map_code(index)

    def imported_python(self, path: str) -> dict:
        """imported_python_maps of the module at `path` (empty when it does not parse)."""
        facts = self._pipelines(path)
        if facts is not None and facts.python is not None:
            return facts.python
        return {} if (index := self.index(path)) is None else imported_python_maps(index)

    def unfed_pipelines(self, path: str) -> set | frozenset:
        """unfed_image_pipelines of the module at `path` (empty when it does not parse)."""
        facts = self._pipelines(path)
        if facts is not None and facts.unfed is not None:
            return facts.unfed
        return set() if (index := self.index(path)) is None else unfed_image_pipelines(index)

    def predictors(self, path: str) -> tuple[Predictor, ...]:
        """per_sample_predictors of the module at `path`."""
        facts = self._facts.get(path)
        if facts is not None and facts.predictors is not None:
            return facts.predictors
        return self._worked_out(path, per_sample_predictors)

    def factories(self, path: str) -> tuple[Factory, ...]:
        """per_call_factories of the module at `path`."""
        facts = self._facts.get(path)
        if facts is not None and facts.factories is not None:
            return facts.factories
        return self._worked_out(path, per_call_factories)

    def op_builders(self, path: str) -> tuple[OpBuilder, ...]:
        """per_call_op_builders of the module at `path`."""
        facts = self._facts.get(path)
        if facts is not None and facts.op_builders is not None:
            return facts.op_builders
        return self._worked_out(path, per_call_op_builders)

    def _worked_out(self, path: str, defs) -> tuple:
        """The values of `defs(index)` for the module at `path`; none when it does not parse, when no import
        line of its text names TensorFlow or Keras (`defs` reads only modules that import them), or when the
        rule code raises on it (the per-module pass then skipped the rule there with an internal error)."""
        text = self.text(path) or ""
        if not any(word in text for word in _TF_WORDS) or import_words(text).isdisjoint(_TF_WORDS):
            return ()
        if (index := self.index(path)) is None:
            return ()
        try:
            return tuple(defs(index).values())
        except RULE_ERRORS:
            return ()

    def text(self, path: str) -> str | None:
        if path not in self._texts:
            self._texts[path] = read_python(path)
        return self._texts[path]

    def _reuse(self, path: str) -> bool:
        """Take the index the per-module pass kept of this module's text (`kept`: text -> index, the walker's
        `KeptIndexes`) and its tree, rather than parse and index the text again (torch-speed19: the TF calls
        pass 0.44 -> 0.16 CPU s on hold-out 36). A text is its own key, so a changed module finds nothing;
        a text with a line the per-module pass may have made `pass` (`%`/`!`: `_parse_script`) or indexed as a
        snippet is parsed here as before, as its tree may not be the text's own."""
        text = self.text(path)
        index = self._kept.get(text) if text is not None else None
        if index is None or index.snippet or _MAGIC_LINE.search(text):
            return False
        self._trees[path], self._indexes[path] = index.tree, index
        return True

    def tree(self, path: str) -> ast.Module | None:
        if path not in self._trees and not self._reuse(path):
            text = self.text(path)
            try:
                self._trees[path] = None if text is None else ast.parse(text)
            except (SyntaxError, ValueError, RecursionError):
                self._trees[path] = None
        return self._trees[path]

    def index(self, path: str) -> ModuleIndex | None:
        """The module's index, built at most once (None when it does not parse or nests too deep)."""
        if path not in self._indexes and (path in self._trees or not self._reuse(path)):
            tree = self.tree(path)
            try:
                self._indexes[path] = None if tree is None else ModuleIndex.build(tree)
            except RecursionError:
                self._indexes[path] = None
        return self._indexes[path]


# A line an IPython magic or shell command may start (`%matplotlib inline`, `!pip install x`).
_MAGIC_LINE = re.compile(r"^[ \t]*[%!]", re.MULTILINE)


def _builder(tree: ast.Module, line: int) -> str | None:
    """The top-level def or class whose code holds `line`: what another module calls to get the pipeline."""
    for node in tree.body:
        holds = node.lineno <= line <= (node.end_lineno or node.lineno)
        if holds and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return node.name
    return None


def _slot(tree: ast.Module, builder: str, line: int) -> int | None:
    """Which element of the tuple the builder returns (`return dataset_train, dataset_val`) holds the
    pipeline of the statement at `line` (`dataset_val = dataset_val.map(parse)`), or None when it returns
    one value or the statement binds no element of it."""
    function = next((n for n in tree.body if getattr(n, "name", None) == builder), None)
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    returns = [n for n in ast.walk(function) if isinstance(n, ast.Return) and isinstance(n.value, ast.Tuple)]
    if len(returns) != 1:
        return None
    names = [e.id if isinstance(e, ast.Name) else None for e in returns[0].value.elts]
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and node.lineno <= line <= (node.end_lineno or node.lineno):
            bound = [t.id for t in node.targets if isinstance(t, ast.Name)]
            if len(bound) == 1 and bound[0] in names:
                return names.index(bound[0])
    return None


def _trained_slots(call: ast.Call, parents: dict) -> set[int] | None:
    """`train_ds, val_ds = make_datasets(...)`: the positions of the tuple target named for training (None
    when the value is not unpacked so)."""
    parent = parents.get(call)
    if (
        isinstance(parent, ast.Assign)
        and len(parent.targets) == 1
        and isinstance(parent.targets[0], ast.Tuple)
    ):
        return {i for i, t in enumerate(parent.targets[0].elts) if names_training(ast.unparse(t))}
    return None


def _trained_builders(
    wanted_at: dict[str, set[str]], files: list[str], modules: _Modules, in_loops: bool = False
) -> dict[tuple[str, str], set[int] | None]:
    """(name, path) for the builders of `wanted_at` (name -> the paths defining it) that some checked module
    calls into training: the module defining it, or one that does not define that name itself (a module
    calling its own `input_fn` does not train on another module's copy of it). Each maps to the positions of
    a returned tuple that training unpacks (`train_ds, val_ds = load()`: {0}), or None for the whole value.
    With `in_loops`, a call made where a loop runs a training step counts too (`feeds_training`: TF1 code
    that trains on the tensors an input function returns, tf-fix29)."""
    found: dict[tuple[str, str], set[int] | None] = {}
    names = set(wanted_at)
    for path in files:
        text = modules.text(path)
        wanted = {n for n in names if f"{n}(" in text} if text is not None else None
        if not wanted or (tree := modules.tree(path)) is None:
            continue
        own = {
            node.name
            for node in tree.body
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        }
        parents = parent_map(tree)
        instances = _instances_of(wanted, parents)
        objects = _objects_of(wanted, parents)
        fitted = _fitted_names(parents)
        calls = [
            (n, name)
            for n in parents
            if isinstance(n, ast.Call)
            for name in [_built_by(n, instances), *_methods_run(n, objects)]
            if name.partition(".")[0] in wanted
        ]
        scopes: dict = {}
        for node, name in calls:
            trains = feeds_training(node, parents, scopes) if in_loops else into_training(node, parents)
            if trains or _fitted_through_name(node, parents, fitted):
                slots = _trained_slots(node, parents)
                for defined_in in wanted_at[name.partition(".")[0]]:
                    if defined_in == path or name not in own:
                        key = (name, defined_in)
                        if slots is None or found.get(key, set()) is None:
                            found[key] = None
                        else:
                            found[key] = found.get(key, set()) | slots
    return found


def _instances_of(wanted: set[str], parents: dict) -> dict[str, str]:
    """Names bound once to an instance of a wanted class (`pipe = Datapipe()`) -> the class: calling the
    instance (`g = pipe(csv_files, ...)`) runs its `__call__`, which builds the pipeline (reading 26: cmb87's
    CenterNet `Datapipe`, fitted by every main_*.py script)."""
    bound: dict[str, list[str]] = {}
    for node in parents:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            made = named_call(value) if isinstance(value, ast.Call) else ""
            bound.setdefault(node.targets[0].id, []).append(made if made in wanted else "")
    return {name: made[0] for name, made in bound.items() if len(made) == 1 and made[0]}


def _objects_of(wanted: set[str], parents: dict) -> dict[str, set[str]]:
    """Names bound only to instances of classes (`dataset = KittyRoadDataset(params)` in one branch of an
    `if`/`elif` chain, `dataset = CamVidDataset(params)` in another) -> the wanted classes among them: a method
    called on the name (`dataset.load_dataset(is_training=True, ...)`) runs that method of any of them
    (tf-fix51: reading 35's FCN trainer picks one of four dataset classes by a flag)."""
    bound: dict[str, set[str]] = {}
    others: set[str] = set()
    for node in parents:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            made = named_call(value) if isinstance(value, ast.Call) else ""
            if made[:1].isupper():
                bound.setdefault(name, set()).add(made)
            else:
                others.add(name)
    return {name: made & wanted for name, made in bound.items() if made & wanted and name not in others}


def _methods_run(call: ast.Call, objects: dict[str, set[str]]) -> list[str]:
    """`dataset.load_dataset(...)` on a name of `objects`: "Class.load_dataset" for each class it may hold."""
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in objects:
        return [f"{made}.{func.attr}" for made in sorted(objects[func.value.id])]
    return []


def _method_at(tree: ast.Module, builder: str, line: int) -> str | None:
    """ "Class.method" when `line` is in a method of the top-level class `builder`, else None."""
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == builder), None)
    for item in node.body if node is not None else []:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and (
            item.lineno <= line <= (item.end_lineno or item.lineno)
        ):
            return f"{builder}.{item.name}"
    return None


def _fitted_names(parents: dict) -> set[str]:
    """Names the module passes as the data of a training call (`model.fit(g, ...)`, `fit(x=g)`)."""
    names = set()
    for node in parents:
        if isinstance(node, ast.Call) and is_training_call(named_call(node) or ""):
            data = node.args[:1] + [k.value for k in node.keywords if k.arg == "x"]
            names.update(d.id for d in data if isinstance(d, ast.Name))
    return names


def _fitted_through_name(call: ast.Call, parents: dict, fitted: set[str]) -> bool:
    """`g = pipe(csv_files, ...)` ... `model.fit(g, ...)`: the call's value, bound to a name the name of which
    says nothing, is fitted by the same module."""
    parent = parents.get(call)
    return (
        isinstance(parent, ast.Assign)
        and len(parent.targets) == 1
        and isinstance(parent.targets[0], ast.Name)
        and parent.targets[0].id in fitted
    )


def _built_by(call: ast.Call, instances: dict[str, str]) -> str:
    """The builder a call runs: its own name, or the class of the instance it calls (`pipe(...)`)."""
    if isinstance(call.func, ast.Name) and call.func.id in instances:
        return instances[call.func.id]
    return named_call(call)


def lift_trained_elsewhere(
    findings: list[Finding],
    projects: list[list[str]],
    rules: frozenset[str] = LIFTED_RULES,
    sources: dict[str, str] | None = None,
    facts: dict[str, ModuleFacts] | None = None,
    kept: dict | None = None,
) -> list[Finding]:
    """`findings` with the `medium` findings of `rules` on pipelines a module of the same project (the files
    of one PATH argument) trains on made `high`, and the `medium` findings in defs the project never uses
    made `low`. Only Python files are read for the training calls (a notebook is a module of its own).
    `rules` other than LIFTED_RULES measure the evidence (bench/bench_tf_evidence.py); `sources` holds the
    texts the per-module pass read (path -> text), so that they are not read again, and `facts` what it
    worked out of them (path -> ModuleFacts), so that the dataset flow does not run again; `kept` (text ->
    index) the indexes that pass kept, so that those modules are not parsed again (`_Modules`)."""
    lifted = findings
    modules = _Modules(sources, facts, kept)
    for files in projects:
        lifted = _read_imported_maps(lifted, files, modules)
        lifted = _read_imported_python(lifted, files, modules)
        lifted = _trained_elsewhere(lifted, files, modules)
        lifted = _fed_elsewhere(lifted, files, modules)
        lifted = _lift_in(lifted, files, rules, modules)
        lifted = _lower_uncalled(lifted, files, modules)
        lifted = _lower_uncalled_predicts(lifted, files, modules)
    return lifted


def _trained_elsewhere(findings: list[Finding], files: list[str], modules: _Modules) -> list[Finding]:
    """PP202's `low` maps that do image or file work in their own code on a pipeline their module neither
    trains nor validates (`untrained_image_maps`), made `medium` when another module of the project calls the
    def or class building the pipeline into training (`train_ds = make_dataset(...)`, `fit(load(...))`; the
    evidence `_lift_in` reads). tf-cal28: the rest of such maps (returned loaders, evaluation and test sets,
    one-pass tools) read right about 18 times in 38 over readings 15-21 and went `low`; these read right
    15 times in 16 as first read over readings 10-14 (tf-calibrate14's lifted class, then at `high`) and
    every time (5) in readings 15-21 where a reason names the training module (Guillem96's VOC loader,
    tfwcn's ViTGAN files, jowinjohnchemban's YOLO records, naufalso's NeRF images)."""
    inside = set(files)
    at_path: dict[str, list[Finding]] = {}
    for f in findings:
        if f.rule == "PP202" and f.confidence == "low" and f.cell is None and f.path in inside:
            at_path.setdefault(f.path, []).append(f)
    wanted: set[int] = set()
    for path, found in at_path.items():
        untrained = modules.untrained_maps(path)
        wanted.update(id(f) for f in found if (f.line, f.column - 1) in untrained)
    if not wanted:
        return findings
    return _lift_in(findings, files, frozenset({"PP202"}), modules, wanted, "medium")


def _fed_elsewhere(findings: list[Finding], files: list[str], modules: _Modules) -> list[Finding]:
    """PP203's `low` findings on pipelines whose maps do image or file work and that their module is not seen
    training on (`unfed_image_pipelines`), made `TRAINED_IMAGE_PIPELINE_LEVEL` (`high` since tf-fix43, `medium`
    before) when another module of the project calls the def or
    class building the pipeline into training, a call in a def whose loop runs a training step included
    (`_trained_builders` with `in_loops`: `images, labels = data.inputs(...)` in a GAN's `def train()`).
    tf-fix29: the class of PP203's `medium` (a pipeline seen training whose maps do image or file work)
    with the training seen through TF1 iterators, input functions and other modules; see
    checker/rules/data.py, `check_missing_prefetch`."""
    inside = set(files)
    at_path: dict[str, list[Finding]] = {}
    for f in findings:
        if f.rule == "PP203" and f.confidence == "low" and f.cell is None and f.path in inside:
            at_path.setdefault(f.path, []).append(f)
    wanted: set[int] = set()
    for path, found in at_path.items():
        if not names_image_work(modules.text(path) or "") or not _called_elsewhere(
            path, found, files, modules
        ):
            continue  # (text tests that spare the dataset flow of the modules that cannot be lifted)
        unfed = modules.unfed_pipelines(path)
        wanted.update(id(f) for f in found if (f.line, f.column - 1) in unfed)
    if not wanted:
        return findings
    return _lift_in(
        findings, files, frozenset({"PP203"}), modules, wanted, TRAINED_IMAGE_PIPELINE_LEVEL, in_loops=True
    )


def _called_elsewhere(path: str, found: list[Finding], files: list[str], modules: _Modules) -> bool:
    """Another Python file of the project writes a call of the top-level def or class holding one of the
    findings (`frame_triplets(`): a test on the texts only."""
    tree = modules.tree(path)
    names = {name for f in found if tree is not None and (name := _builder(tree, f.line)) is not None}
    return any(
        other != path and other.endswith(".py") and any(f"{n}(" in (modules.text(other) or "") for n in names)
        for other in files
    )


def _read_imported_maps(findings: list[Finding], files: list[str], modules: _Modules) -> list[Finding]:
    """The `low` PP202 findings on a map that runs a def or class imported from another module of the
    project (`from tfrecord_utils import load_images; ds.map(load_images)`), made `medium` when that code
    does image or file work and the map would be raised were the code in its own module (tf-fix19: the
    per-module pass cannot see the code)."""
    inside = set(files)
    at_path: dict[str, list[Finding]] = {}
    for f in findings:
        if f.rule == "PP202" and f.confidence == "low" and f.cell is None and f.path in inside:
            at_path.setdefault(f.path, []).append(f)
    raised: set[int] = set()
    for path, found in at_path.items():
        if "import" not in (modules.text(path) or ""):
            continue
        sources = modules.imported_maps(path)
        for f in found:
            if any(
                _imported_image_work(s, path, inside, modules)
                for s in sources.get((f.line, f.column - 1), ())
            ):
                raised.add(id(f))
    if not raised:
        return findings
    return [dataclasses.replace(f, confidence="medium") if id(f) in raised else f for f in findings]


def _read_imported_python(findings: list[Finding], files: list[str], modules: _Modules) -> list[Finding]:
    """The `low` PP202 findings on maps calling back into Python whose Python runs helpers of another module
    of the project (`imported_python_maps`), made `medium` when that code opens files or runs OpenCV (two
    imports deep: a base class's `transform_record` calling `image_utils.random_transform`): threads overlap
    that work as they do for such code held in the map's own module (tf-fix51, reading 35's FCN dataset
    classes). A map `low` also because its module does not train on the pipeline rises only when another
    module trains on it (`_lift_in`, as `_trained_elsewhere` reads it)."""
    inside = set(files)
    raised: set[int] = set()
    untrained: set[int] = set()
    for f in findings:
        if f.rule != "PP202" or f.confidence != "low" or f.cell is not None or f.path not in inside:
            continue
        if "import" not in (modules.text(f.path) or ""):
            continue  # (a text test that spares the dataset flow of modules importing nothing)
        noted = modules.imported_python(f.path).get((f.line, f.column - 1))
        if noted is None:
            continue
        sources, here = noted
        if any(_native_python_elsewhere(s, f.path, inside, modules, 0) for s in sources):
            (raised if here else untrained).add(id(f))
    lifted = [dataclasses.replace(f, confidence="medium") if id(f) in raised else f for f in findings]
    if not untrained:
        return lifted
    return _lift_in(lifted, files, frozenset({"PP202"}), modules, untrained, "medium")


def _native_python_elsewhere(
    source: tuple[int, str, str], path: str, inside: set[str], modules: _Modules, depth: int
) -> bool:
    """The def or method `source` names, imported by the module at `path` from a module of the project,
    opens files or runs OpenCV, itself or through the project helpers it imports (two modules deep)."""
    defined_in = module_file(source[1], path, source[0], inside)
    target = None if defined_in is None else modules.index(defined_in)
    if target is None:
        return False
    native, helpers = imported_python_code(target, source[2])
    return native or (
        depth < 1
        and any(_native_python_elsewhere(h, defined_in, inside, modules, depth + 1) for h in helpers)
    )


def _imported_image_work(
    source: tuple[int, str, str], path: str, inside: set[str], modules: _Modules
) -> bool:
    """The def or class `source` (import level, module, name) names, imported by the module at `path` from
    another module of the project, does image or file work."""
    defined_in = module_file(source[1], path, source[0], inside)
    target = None if defined_in is None else modules.index(defined_in)
    return target is not None and imported_code_does_image_work(target, source[2])


def _lower_uncalled(findings: list[Finding], files: list[str], modules: _Modules) -> list[Finding]:
    """The `medium` PP201/PP202 findings (and PP202's `high`, tf-calibrate20) in a top-level def or class
    whose name no file of the project (of more than one file) uses beyond its definition, and that does not
    train itself, made `low`: a guide's input_fn copied and never called, a dataset class nothing
    instantiates (reading 13: wrong 4 of 4 in such helpers; over readings 10, 11 and 13, 2 right of 7)."""
    inside = set(files)
    candidates = [
        f
        for f in findings
        if f.rule in LOWERED_RULES and f.confidence != "low" and f.cell is None and f.path in inside
    ]
    if not candidates or len(files) < 2:
        return findings
    builder_at: dict[int, str] = {}
    for path in {f.path for f in candidates}:
        tree = modules.tree(path)
        for f in candidates:
            if tree is None or f.path != path or (name := _builder(tree, f.line)) is None:
                continue
            if not _trains_itself(tree, name):
                builder_at[id(f)] = name
    uses = dict.fromkeys(builder_at.values(), 0)
    for path in files:
        text = modules.text(path)
        if text is None:
            continue
        for name in uses:
            if name in text:
                uses[name] += len(re.findall(rf"\b{re.escape(name)}\b", text))
    unused = {name for name, n in uses.items() if n <= 1}
    return [
        dataclasses.replace(f, confidence="low") if builder_at.get(id(f)) in unused else f for f in findings
    ]


# Methods a framework runs without naming them in the project: Keras callbacks and layers, threads, dunders.
_RUN_IMPLICITLY = ("__", "on_", "call", "build", "run", "forward")
# Keras model methods: `train_model.evaluate(x, y)` calls the model's, not a def of the project so named.
_MODEL_METHODS = frozenset({"evaluate", "predict", "fit", "predict_on_batch", "test_on_batch"})


def _lower_uncalled_predicts(findings: list[Finding], files: list[str], modules: _Modules) -> list[Finding]:
    """PP301's `high` findings in a def (a function or a method, at any depth) whose name no file of the
    project (of more than one file) uses beyond its definition, made `low` (`medium` until tf-fix33): a
    per-sample helper nothing runs. A call of a Keras model's own method of that name on a receiver named for a model
    (`train_model.evaluate(x, y)` beside a class's uncalled `def evaluate(self, data)`) is no use of the
    def. tf-cal28: the two such findings first read over readings 15-21 were both debatable (reading 21: Ananas120's Tacotron `evaluate`, which nothing calls
    and which cannot run; reading 20: TachibanaYoshino's per-tile `predict_single`, `medium` already by
    tf-fix24's narrower test of one module), so the group falls under `high`'s 90%. tf-fix33: with tf-fix24's
    `medium` classes of one module (`keras._demoted_from_high`) 0 right of 3 first reads over readings 15-24,
    under `medium`'s 70%: `low`."""
    inside = set(files)
    candidates = [
        f
        for f in findings
        if f.rule == "PP301" and f.confidence == "high" and f.cell is None and f.path in inside
    ]
    if not candidates or len(files) < 2:
        return findings
    holder_at: dict[int, str] = {}
    for f in candidates:
        tree = modules.tree(f.path)
        holder = None if tree is None else _innermost_def(tree, f.line)
        if holder is not None and not holder.startswith(_RUN_IMPLICITLY):
            holder_at[id(f)] = holder
    wanted = set(holder_at.values())
    used: set[str] = set()
    for path in files:
        text = modules.text(path)
        if text is not None and any(name in text for name in wanted - used):
            tree = modules.tree(path)
            used |= {n for n in wanted if n in text} if tree is None else _names_used(tree, wanted)
    unused = wanted - used
    return [
        dataclasses.replace(f, confidence="low") if holder_at.get(id(f)) in unused else f for f in findings
    ]


def _names_used(tree: ast.Module, wanted: set[str]) -> set[str]:
    """The names of `wanted` that `tree` reads or calls (a name, an attribute), not counting a Keras model
    method called on a receiver named for a model (`train_model.evaluate(...)`)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in wanted:
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and node.attr in wanted:
            receiver = node.value.id if isinstance(node.value, ast.Name) else getattr(node.value, "attr", "")
            if not (node.attr in _MODEL_METHODS and "model" in receiver.lower()):
                found.add(node.attr)
    return found


def _innermost_def(tree: ast.Module, line: int) -> str | None:
    """The name of the innermost def (function or method) whose code holds `line`."""
    holders = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.lineno <= line <= (node.end_lineno or node.lineno)
    ]
    return max(holders, key=lambda node: node.lineno).name if holders else None


def _trains_itself(tree: ast.Module, builder: str) -> bool:
    """The function `builder` runs training steps itself (fit, fit_generator, apply_gradients, minimize,
    train_on_batch): a runner nothing calls (a script's alternative entry point), not an input helper; its
    PP202 findings were `high` until tf-calibrate14, out of reach of the lowering, and stay so (reading 11
    read one right). A call only named for training (`getPhaseTrain()`) does not count."""
    node = next((n for n in tree.body if getattr(n, "name", None) == builder), None)
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
        isinstance(c, ast.Call) and named_call(c) in _TRAINING_STEPS for c in ast.walk(node)
    )


def _lift_in(
    findings: list[Finding],
    files: list[str],
    rules: frozenset[str],
    modules: _Modules,
    wanted: set[int] | None = None,
    to: str = "high",
    in_loops: bool = False,
) -> list[Finding]:
    """The `medium` findings of `rules` (or the findings whose ids are `wanted`) on pipelines built by a
    top-level def or class that a module of the project calls into training (`in_loops`: as
    `_trained_builders` reads it), made `to`."""
    inside = set(files)
    candidates = [
        f
        for f in findings
        if f.rule in rules
        and (f.confidence == "medium" if wanted is None else id(f) in wanted)
        and f.cell is None
        and f.path in inside
    ]
    if not candidates:
        return findings
    builder_at: dict[tuple[str, int], str] = {}
    method_at: dict[tuple[str, int], str | None] = {}
    slot_at: dict[tuple[str, int], int | None] = {}
    for path in {f.path for f in candidates}:
        tree = modules.tree(path)
        if tree is None:
            continue
        for f in candidates:
            if f.path == path and (name := _builder(tree, f.line)) is not None:
                builder_at[(path, f.line)] = name
                slot_at[(path, f.line)] = _slot(tree, name, f.line)
                method_at[(path, f.line)] = _method_at(tree, name, f.line)
    if not builder_at:
        return findings
    wanted_at: dict[str, set[str]] = {}
    for (path, _), name in builder_at.items():
        wanted_at.setdefault(name, set()).add(path)
    trained = _trained_builders(wanted_at, [p for p in files if p.endswith(".py")], modules, in_loops)
    chosen = set()
    for f in candidates:
        key = (builder_at.get((f.path, f.line)), f.path)
        if key not in trained:  # or the method of the class that a module calls into training
            key = (method_at.get((f.path, f.line)), f.path)
        if key not in trained:
            continue
        slots, slot = trained[key], slot_at.get((f.path, f.line))
        # the validation half of `train_ds, val_ds = load()` is not what trains (reading 13 read it wrong)
        if slots is None or slot is None or slot in slots:
            chosen.add(id(f))
    return [dataclasses.replace(f, confidence=to) if id(f) in chosen else f for f in findings]


def calls_across_modules(
    findings: list[Finding],
    projects: list[list[str]],
    codes: tuple[str, ...] | None = None,
    sources: dict[str, str] | None = None,
    facts: dict[str, ModuleFacts] | None = None,
    kept: dict | None = None,
) -> list[Finding]:
    """`findings` with PP301, PP401 and PP101 added where a loop of one module runs, once per iteration, a def
    that it imports from another module of the project (tf-fix30): a def that predicts one sample per call
    (PP301 at the call, as `predictor_call_finding` judges it: reading 22's `features = model.extract(image)`
    over every frame, reading 21's `model.predict_point_by_point(x_split)` over every test window, both in
    scripts that import no TensorFlow); one that makes a tf.function per call (PP401 where the def makes
    it: reading 22's `fit_one_epoch`, which builds a new `@tf.function` train step for every epoch train.py
    runs); one that runs the session and builds graph ops per call (PP101 at each op: reading 18's policy
    whose `calc_action` a rollout loop of another module runs every environment step). Loops that run once
    or a few literal times are left alone for PP101 and PP401. Also PP301 in a module that imports no
    TensorFlow but gets its model from a module of the project that does (`_predicts_without_tensorflow`).
    All `low`: no reading has measured them. `codes` are the rules chosen (all when None); `sources` and
    `facts` as lift_trained_elsewhere takes them, and `kept` (text -> index) the indexes the per-module pass
    kept (`_Modules`)."""
    wanted = {rule for rule in ("PP101", "PP301", "PP302", "PP401") if rule_selected(codes, rule)}
    if not wanted:
        return findings
    modules = _Modules(sources, facts, kept)
    made = {(f.path, f.cell, f.line, f.rule) for f in findings}
    added: list[Finding] = []
    for files in projects:
        for found in _loop_calls_across(files, modules, wanted):
            if (found.path, found.cell, found.line, found.rule) not in made:
                made.add((found.path, found.cell, found.line, found.rule))
                added.append(found)
    return findings + added


def _loop_calls_across(files: list[str], modules: _Modules, wanted: set[str]):
    python = [p for p in files if p.endswith(".py") and not is_test_path(p)]
    if "PP301" in wanted:
        yield from _predicts_on_project_models(python, modules, set(files))
        yield from _predicts_without_tensorflow(python, modules, set(files))
        yield from _predicts_on_helpers_elsewhere(python, modules, set(files))
    if "PP302" in wanted:
        yield from _models_built_elsewhere(python, modules, set(files))
        notebooks = [p for p in files if p.endswith(".ipynb") and not is_test_path(p)]
        yield from _notebook_models_built_elsewhere(notebooks, modules, set(files))
    defs: dict[str, list[tuple[str, str, Predictor | Factory]]] = {}
    inside = set(files)
    for path in python:
        text = modules.text(path) or ""
        if "PP301" in wanted and ".predict" in text and "def " in text:
            predictors = modules.predictors(path) or _predictors_without_tensorflow(
                path, text, modules, inside
            )
            for predictor in predictors:
                defs.setdefault(predictor.name, []).append((path, "PP301", predictor))
        if "PP401" in wanted and "function" in text and "def " in text:
            for factory in modules.factories(path):
                defs.setdefault(factory.name, []).append((path, "PP401", factory))
        if "PP101" in wanted and may_run_graph(text) and "def " in text:
            for builder in modules.op_builders(path):
                defs.setdefault(builder.name, []).append((path, "PP101", builder))
    if not defs:
        return
    for path in python:
        text = modules.text(path) or ""
        names = {n for n, entries in defs.items() if f"{n}(" in text and any(e[0] != path for e in entries)}
        handed = {n for n in names if _only_method_of_its_name(n, defs[n], python, modules)}
        if names:
            names = {n for n in names if any(_may_import(text, e[0], e[2]) for e in defs[n] if e[0] != path)}
        names |= handed
        if not names or (index := modules.index(path)) is None:
            continue
        for site in index.calls:
            func = site.node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if not site.loops or name not in names:
                continue
            for defined_in, rule, found in defs[name]:
                if defined_in == path:
                    continue
                if not _runs_def_of(
                    site.node, index, path, defined_in, found, inside, site.function
                ) and not (name in handed and _handed_in(site.node.func, index)):
                    continue
                if rule == "PP301":
                    if (defined_in, found) in modules.handed_models and not index.resolver.uses_tensorflow:
                        continue  # (a plain helper's model is TensorFlow's only where its caller uses it)
                    raw = predictor_call_finding(site, found, index, os.path.basename(defined_in))
                    if raw is not None and _kept(modules.text(path), raw.line, rule):
                        yield finding(path, raw.line, raw.col, rule, raw.message, raw.confidence)
                    continue
                loop = site.loops[-1]
                if not isinstance(loop, ast.For | ast.AsyncFor | ast.While) or _runs_few_times(site.loops):
                    continue
                if per_device_loop(loop, index):
                    continue  # (one copy per replica, built once)
                caller = f"{os.path.basename(path)} calls in the loop at line {loop.lineno}"
                if rule == "PP401":
                    for maker in found.makers:
                        if _kept(modules.text(defined_in), maker.line, rule):
                            message = maker.message(found.name, f", which {caller}")
                            yield finding(defined_in, maker.line, maker.col, rule, message, "low")
                    continue
                for line, col, op in found.ops:
                    if _kept(modules.text(defined_in), line, rule):
                        message = (
                            f"`{op}` adds a node to the graph on every call of `{found.name}`, which runs the "
                            f"session and which {caller}; create it once"
                        )
                        yield finding(defined_in, line, col, rule, message, "low")


def _only_method_of_its_name(name: str, entries: list, python: list[str], modules: _Modules) -> bool:
    """`name` is a method of one class of the project, defined once (`def name(` nowhere else in its texts):
    an object that has it, wherever it comes from, is of that class (tf-fix50)."""
    owners = {(e[0], e[2].owner) for e in entries}
    if len(owners) != 1 or next(iter(owners))[1] is None:
        return False
    marker = f"def {name}("
    return sum((modules.text(p) or "").count(marker) for p in python) == 1


def _handed_in(func: ast.AST, index: ModuleIndex) -> bool:
    """`self.x.method` where the module binds `self.x` only to parameters of the defs binding it (`def
    __init__(self, model=None): ... self.my_model = model`), each binding read with the parameters of its
    own def, a nested one's included (review25 item 8): the object is handed in by a caller, so its class is
    not in this module's imports (digengill's App is given the project's model by main.py)."""
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute)):
        return False
    receiver = func.value
    if getattr(receiver.value, "id", None) != "self":
        return False
    bindings = [(stmt, function) for stmt, function in self_bindings(index, receiver.attr) if function]
    return bool(bindings) and all(
        isinstance(stmt.value, ast.Name) and stmt.value.id in _parameters(function)
        for stmt, function in bindings
    )


def _parameters(function: ast.AST) -> set[str]:
    """The names of a def's parameters, `*args` and `**kwargs` left out (as `_handed_in` always read them)."""
    args = function.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}


def _may_import(text: str, defined_in: str, found) -> bool:
    """A text sieve before a module is parsed: its import lines (`import_words`) name the module defining
    `found` (`from utils import utils_fit`, `import extractor`) or the def or its class (`from extractor
    import Extractor`), as any call `_runs_def_of` accepts needs."""
    return not import_words(text).isdisjoint((import_word(defined_in), found.owner or found.name))


def _runs_few_times(loops) -> bool:
    """The innermost loop ends in `break` (it runs once) or runs at most a few literal times."""
    return (len(loops) == 1 and runs_once(loops[-1])) or few_iterations(loops[-1])


# `model.predict(`, `self.generator.predict(`: a predict on a receiver PP301 takes for a model (MODEL_LIKE)
_PREDICTS_ON_A_MODEL = re.compile(rf"(?i)(?:{'|'.join(MODEL_LIKE)})\w*\s*\.\s*predict")


def _predicts_without_tensorflow(python: list[str], modules: _Modules, inside: set[str]):
    """PP301 (low) in a module that imports neither TensorFlow nor Keras, so that no TF rule ran on it, but
    imports a module of the project that does, where its model comes from (reading 19's sliding-window
    segmentation and test-WAV loops, whose model arrives as a parameter; reading 18's driving log predicted
    row by row with a model of a local module): PP301 as in a TF module, `low` since no reading has measured
    it."""
    # (what an import of a module of the project that names TensorFlow or Keras ends with)
    words = {import_word(p) for p in python if any(w in (modules.text(p) or "") for w in _TF_WORDS)}
    for path in python if words else ():
        text = modules.text(path) or ""
        if ".predict" not in text or any(word in text for word in _TF_WORDS) or "import" not in text:
            continue
        if import_words(text).isdisjoint(words):
            continue
        if not _PREDICTS_ON_A_MODEL.search(text):
            continue  # (PP301 asks for a receiver named like a model when the module binds no Keras model)
        if (index := modules.index(path)) is None or index.resolver.uses_tensorflow:
            continue
        if not _imports_tf_module(index, path, modules, inside):
            continue
        try:
            raws = list(predicts_per_sample(index))
        except RULE_ERRORS:
            continue
        for raw in raws:
            if _kept(text, raw.line, "PP301"):
                yield finding(path, raw.line, raw.col, "PP301", raw.message, "low")


def _predictors_without_tensorflow(path: str, text: str, modules: _Modules, inside: set[str]) -> tuple:
    """per_sample_predictors of a module that imports neither TensorFlow nor Keras but gets its model from a
    module of the project that does (bubbliiiing's `pspnet.py` wraps the Keras net of `nets/pspnet.py` and
    predicts one letterboxed image per `get_miou_png` call, which `get_miou.py` loops over; reading 23), as
    `_predicts_without_tensorflow` reads such modules; () for any other module."""
    if any(word in text for word in _TF_WORDS) or not _PREDICTS_ON_A_MODEL.search(text):
        return ()
    if (index := modules.index(path)) is None:
        return ()
    handed = not _imports_tf_module(index, path, modules, inside)
    try:
        found = tuple(per_sample_predictors(index, any_module=True).values())
    except RULE_ERRORS:
        return ()
    if handed:
        # (tf-fix52) a module of plain helpers, TensorFlow nowhere in its imports: only a def that predicts
        # what it is given with the model it is given (`def calc_128_vec1(model, img): pre =
        # model.predict(img)`, reading 36's MobileFaceNet `utils.py`), whose caller's batch of one and model
        # the project pass reads at the call
        found = tuple(p for p in found if not p.makes and _predicts_with_given_model(p, index))
        modules.handed_models.update((path, predictor) for predictor in found)
    return found


def _predicts_with_given_model(predictor, index: ModuleIndex) -> bool:
    """The predictor's def predicts on a receiver that is one of its own parameters (`model.predict(img)` in
    `def calc_128_vec1(model, img)`)."""
    if predictor.owner is None:
        function = index.module_functions.get(predictor.name)
    else:
        function = index.class_methods.get(predictor.owner, {}).get(predictor.name)
    receiver = predictor.call.rsplit(".", 1)[0]
    return function is not None and hasattr(function, "args") and receiver in _parameters(function)


def _imports_tf_module(index: ModuleIndex, path: str, modules: _Modules, inside: set[str]) -> bool:
    """The module imports a module of the project whose text names TensorFlow or Keras."""
    for node in index.imports:
        level = getattr(node, "level", 0) or 0
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + [
                f"{node.module}.{a.name}" if node.module else a.name for a in node.names
            ]
        else:
            names = [a.name for a in node.names]
        for name in names:
            found = module_file(name, path, level, inside)
            if (
                found is not None
                and found != path
                and any(w in (modules.text(found) or "") for w in _TF_WORDS)
            ):
                return True
    return False


def _runs_def_of(
    call: ast.Call, index: ModuleIndex, path: str, defined_in: str, found, inside: set[str], function=None
) -> bool:
    """The call, in the module at `path`, runs the def `found` of the module at `defined_in`: a function
    imported from it by name (`from utils.utils_fit import fit_one_epoch`) or called on it as a module
    (`utils_fit.fit_one_epoch(...)`), or a method called on an object the module binds only to instances of
    its class imported from there (`model = Extractor()` after `from extractor import Extractor`), read
    where the call is (`function`, the def holding it: `keras.instance_class`)."""
    func = call.func
    if found.owner is None:
        if isinstance(func, ast.Name):
            return _imported_from(func.id, found.name, index, path, defined_in, inside)
        return isinstance(func.value, ast.Name) and _module_is(func.value.id, index, path, defined_in, inside)
    cls = instance_class(func.value, index, function) if isinstance(func, ast.Attribute) else None
    if cls is None:
        return False
    module, _, name = cls.rpartition(".")
    if name != found.owner:
        return False
    if not module:
        return _imported_from(name, found.owner, index, path, defined_in, inside)
    return "." not in module and _module_is(module, index, path, defined_in, inside)


def _imported_from(name: str, original: str, index: ModuleIndex, path: str, defined_in: str, inside) -> bool:
    """`from module import original as name`, where the module is the file at `defined_in`."""
    found = import_of(name, index)
    return (
        found is not None
        and found[2] == original
        and module_file(found[1], path, found[0], inside) == defined_in
    )


def _module_is(name: str, index: ModuleIndex, path: str, defined_in: str, inside) -> bool:
    """The name is the module at `defined_in` as the module at `path` imports it (`import utils_fit`, `from
    utils import utils_fit`, `import utils.utils_fit as fit`)."""
    found = import_of(name, index, whole_module=True)
    if found is None:
        return False
    level, parent, last = found
    return module_file(f"{parent}.{last}" if parent else last, path, level, inside) == defined_in


def _kept(text: str | None, line: int, rule: str) -> bool:
    """A finding of `rule` at `line` of the text is not silenced by a `# noqa` there or in the file."""
    return text is not None and not file_is_silenced(text) and not silenced_at(text, line, rule)


def _predicts_on_project_models(python: list[str], modules: _Modules, inside: set[str]):
    """PP301 at the level PP301 gives in a TensorFlow module, in a module that imports neither TensorFlow nor
    Keras but predicts in a loop on a model it binds from a def or class of the project that builds a Keras
    model (`keras_model_builders`): reading 26's see-- scripts bind `model = HourglassNetwork(...)`, then
    `model = CtDetDecode(model)`, both defs of the project returning a Keras `Model`, and predict one
    letterboxed image per file of a glob. The model is as plainly a Keras model as one built in the module
    (tf-fix36; `_predicts_without_tensorflow` keeps `low` for a model known only by its name). `high` at most
    `medium`: on its tuning set (reading 26) the class read 2 right and 2 debatable, the debatable ones two
    COCO evaluations whose project letterbox pads each image to its own size by default."""
    from checker.rules.keras import predicts_on_models

    yield from _on_project_models(
        python,
        modules,
        inside,
        ("PP301", (".predict",)),
        lambda index: not index.resolver.uses_tensorflow,  # (a TensorFlow module's own pass reads it)
        lambda index, builders, _path: (
            (raw, raw.confidence or "medium") for raw in predicts_on_models(index, builders)
        ),
    )


def _project_model_builders(
    index: ModuleIndex, path: str, modules: _Modules, inside: set[str], builders, dotted: bool = False
) -> set:
    """The names the module imports (`from package.nets import HourglassNetwork as Net`) of defs and classes
    that another module of the project, one that imports TensorFlow or Keras, builds Keras models with
    (`builders` of that module's index). With `dotted` (PP302, tf-fix53), also the classes keeping a model
    it calls on a module of the project it imports (`architectures.Architecture` after `from pkg import
    architectures`, `_builders_on_modules`)."""
    found = set()
    for node in index.imports:
        if dotted:
            found |= _builders_on_modules(node, path, modules, inside)
        if not isinstance(node, ast.ImportFrom):
            continue
        source = module_file(node.module or "", path, node.level or 0, inside)
        if source is None or source == path or not may_use_tensorflow(modules.text(source) or ""):
            continue  # (not parsed when its text rules TensorFlow out)
        other = modules.index(source)
        if other is None or not other.resolver.uses_tensorflow:
            continue
        made = builders(other)
        found |= {alias.asname or alias.name for alias in node.names if alias.name in made}
        if any(alias.name == "*" for alias in node.names):
            found |= {name for name in made if not name.startswith("_")}  # (`from wide_cnn import *`)
    return found


def _models_built_elsewhere(python: list[str], modules: _Modules, inside: set[str]):
    """PP302 (low, the rule's level) where a loop builds a Keras model with a def or class of another module
    of the project that builds and returns one (`_project_model_builders`), imported by name or with `*`
    (tf-fix50: reading 33's AbnerYang `run.py`, `from wide_cnn import *`, builds and fits `Wide_CNN(...)` ten
    times for each of three split ratios, 30 models in one graph, and imports no TensorFlow itself)."""
    from checker.rules.keras import models_built_in_loops

    # (tf-fix52) and classes whose constructor keeps a Keras model it builds (`keras_model_owners`), whose
    # instances a loop makes and trains (`architecture = Architecture(...)`, `architecture.train_model()`):
    # those the module imports (review27 item 25: not those of every module read so far)
    yield from _on_project_models(
        python,
        modules,
        inside,
        ("PP302", ("fit", "train", "evaluate", "predict")),
        lambda index: bool(index.loops),
        lambda index, builders, path: (
            (raw, "low")
            for raw in models_built_in_loops(index, builders, _owners_imported(index, path, modules, inside))
        ),
        _model_makers,
        dotted=True,
    )


def _model_makers(other: ModuleIndex) -> frozenset[str]:
    """What another module builds Keras models with: its defs and classes returning or subclassing one
    (`keras_model_builders`), and (tf-fix52) the classes whose constructor keeps one it builds
    (`keras_model_owners`)."""
    from checker.rules.keras import keras_model_builders, keras_model_owners

    return keras_model_builders(other) | keras_model_owners(other)


def _builders_on_modules(node, path: str, modules: _Modules, inside: set[str]) -> set[str]:
    """`module.Name` for each class whose constructor keeps a Keras model it builds (`keras_model_owners`)
    in a module of the project, using TensorFlow, that the import `node` binds to one name (`import
    architectures`, `import pkg.arch as arch`, `from pkg import architectures`). Owners only: defs and
    `Model` subclasses called on their module (`xdeepfm.Model(...)`, `glunet.get_unet(...)`) drew two new
    findings over readings 31-36, a k-fold loop's and a one-setting grid's, neither a problem (tf-fix53)."""
    from checker.rules.keras import keras_model_owners

    found: set[str] = set()
    for alias in node.names:
        if isinstance(node, ast.ImportFrom):
            if alias.name == "*":
                continue
            module, level = (f"{node.module}.{alias.name}" if node.module else alias.name), node.level or 0
        elif alias.asname is None and "." in alias.name:
            continue  # (`import a.b` binds `a`; `a.b.Name(...)` is no `module.Name` call)
        else:
            module, level = alias.name, 0
        source = module_file(module, path, level, inside)
        if source is None or source == path or not may_use_tensorflow(modules.text(source) or ""):
            continue
        other = modules.index(source)
        if other is None or not other.resolver.uses_tensorflow:
            continue
        found |= {f"{alias.asname or alias.name}.{name}" for name in keras_model_owners(other)}
    return found


def _owners_imported(index: ModuleIndex, path: str, modules: _Modules, inside: set[str]) -> frozenset[str]:
    """The names the module imports of classes of other modules of the project whose constructor keeps a
    Keras model it builds (`keras_model_owners`), as `_project_model_builders` finds the builders."""
    from checker.rules.keras import keras_model_owners

    return frozenset(_project_model_builders(index, path, modules, inside, keras_model_owners, dotted=True))


def _notebook_models_built_elsewhere(notebooks: list[str], modules: _Modules, inside: set[str]):
    """PP302 (low) in a notebook of the project, read as the per-module pass reads it (its code cells joined),
    where a loop builds a Keras model with a def or class of a `.py` module of the project
    (`_project_model_builders`, `_model_makers`): tf-fix52, reading 36's `train_grid_search.ipynb` makes an
    `Architecture(...)` of `deepvideoclassification/architectures.py` per experiment of a grid and trains
    it. Findings name their cell and the line in it, as the per-module pass's do."""
    if not notebooks or not any(
        may_use_tensorflow(modules.text(p) or "") for p in inside if p.endswith(".py")
    ):
        return
    for path in notebooks:
        yield from _notebook_models(path, modules, inside)


def _notebook_models(path: str, modules: _Modules, inside: set[str]):
    """`_notebook_models_built_elsewhere` in one notebook, its cells read as `engine.check_cells` reads them
    (review27 item 24): nothing when a cell silences the file (`# ppcheck: noqa`), and a cell that does not
    parse left out, the others read (a py2 `print 'x'` cell lost the whole notebook)."""
    from checker.rules.keras import models_built_in_loops

    raw_text = modules.text(path)
    if raw_text is None or "import" not in raw_text or not any(word in raw_text for word in ("fit", "train")):
        return
    try:
        cells = code_cells(raw_text)
    except NotebookError:
        return
    if any(file_is_silenced(source) for _, source in cells):
        return
    tree, cells, _skipped = parsed_cells(cells, path)
    if tree is None:
        return
    try:
        index = ModuleIndex.build(tree)
    except RecursionError:
        return
    if not index.loops:
        return
    builders = _project_model_builders(index, path, modules, inside, _model_makers, dotted=True)
    if not builders:
        return
    try:
        raws = list(models_built_in_loops(index, builders, _owners_imported(index, path, modules, inside)))
    except RULE_ERRORS:
        return
    places = CellLines(cells)
    for raw in raws:
        cell, at = places.place(raw.line)
        if not _kept(places.sources[cell], at, "PP302"):
            continue
        col = character_column(places.line(cell, at), raw.col)
        yield finding(path, at, col, "PP302", places.message(raw.message), "low", cell=cell)


def _on_project_models(
    python: list[str], modules: _Modules, inside: set[str], sieve, wanted, judged, made_by=None, dotted=False
):
    """The findings of the rule `sieve` names, `(rule, words)`, in the modules that import, from another
    module of the project using TensorFlow, a def or class building a Keras model (`_project_model_builders`),
    as `judged(index, builders, path)` yields them, each with its level. A module is parsed only when its text
    imports and has one of `words`, and read only when `wanted(index)` (before its imports are followed);
    nothing is parsed when no module of the project may use TensorFlow. The one skeleton of PP301's and
    PP302's reads of project models (review25 item 9)."""
    from checker.rules.keras import keras_model_builders

    rule, words = sieve

    # (the builders come from a module of the project that uses TensorFlow: none, none to parse for them)
    if not any(may_use_tensorflow(modules.text(p) or "") for p in inside if p.endswith(".py")):
        return
    for path in python:
        text = modules.text(path) or ""
        if "import" not in text or not any(word in text for word in words):
            continue
        if (index := modules.index(path)) is None or not wanted(index):
            continue
        builders = _project_model_builders(
            index, path, modules, inside, made_by or keras_model_builders, dotted
        )
        if not builders:
            continue
        try:
            raws = list(judged(index, builders, path))
        except RULE_ERRORS:
            continue
        for raw, level in raws:
            if _kept(text, raw.line, rule):
                yield finding(path, raw.line, raw.col, rule, raw.message, level)


def _predicts_on_helpers_elsewhere(python: list[str], modules: _Modules, inside: set[str]):
    """PP301 (low) where a loop predicts on what a def of another module of the project returns, when that
    def returns a batch of one (tf-fix50: reading 33's OCR evaluation, `img_pred =
    image_generator.TextImageGenerator.prepara_immagine(img, ...)` then `model_nn.predict(img_pred)` over a
    folder; the static method ends `np.expand_dims(img, axis=0)`). In a module of its own the helper would
    be read as PP301 reads `_made_by_helper`; across modules a first read, so `low`."""
    for path in python:
        text = modules.text(path) or ""
        if ".predict" not in text or "import" not in text or not _PREDICTS_ON_A_MODEL.search(text):
            continue
        if (index := modules.index(path)) is None:
            continue

        def returns_one_sample(call: ast.Call, place: int | None, index=index, path=path) -> bool:
            """The call runs a def of another module of the project that returns a batch of one."""
            found = _def_elsewhere(call, index, path, modules, inside)
            return found is not None and def_returns_one_sample(found[1], place, found[0])

        try:
            raws = list(predicts_on_calls_elsewhere(index, returns_one_sample))
        except RULE_ERRORS:
            continue
        for raw in raws:
            if _kept(text, raw.line, "PP301"):
                yield finding(path, raw.line, raw.col, "PP301", raw.message, "low")


def _def_elsewhere(call: ast.Call, index: ModuleIndex, path: str, modules: _Modules, inside: set[str]):
    """(index of its module, def) for the def of another module of the project that `call` runs: a function
    imported by name (`from utils import prepare`) or called on its module (`utils.prepare(...)`), or a
    static method called on its class (`TextImageGenerator.prepara_immagine(...)` after importing the class,
    or `image_generator.TextImageGenerator.prepara_immagine(...)` on the module); None otherwise."""
    parts = dotted_parts(call.func)
    if not parts or len(parts) > 3:
        return None
    first, rest = parts[0], parts[1:]
    source, names = None, rest
    found = import_of(first, index, whole_module=True)
    if found is not None:
        level, parent, last = found
        whole = module_file(f"{parent}.{last}" if parent else last, path, level, inside)
        if whole is not None and rest:
            source = whole  # `module.f(...)`, `module.Class.method(...)`
        else:
            source, names = module_file(parent, path, level, inside), [last, *rest]
    if source is None or source == path or (other := modules.index(source)) is None:
        return None
    if len(names) == 1:
        function = other.module_functions.get(names[0])
        return (other, function) if isinstance(function, ast.FunctionDef) else None
    if len(names) == 2:
        method = other.class_methods.get(names[0], {}).get(names[1])
        static = isinstance(method, ast.FunctionDef) and any(
            getattr(d, "id", None) == "staticmethod" for d in method.decorator_list
        )
        return (other, method) if static else None
    return None
