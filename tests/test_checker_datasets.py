"""The tf.data flow (checker/datasets.py) reads every form of `tfds.load(..., with_info=True)` as a source."""

from __future__ import annotations

import ast
import textwrap

from checker.datasets import DatasetFlow
from checker.module import ModuleIndex

_PREVIEW = """
import tensorflow as tf
import tensorflow_datasets as tfds

def show(ds):
    for i, (images, labels) in enumerate(ds):
        print(images.shape)
        if i == 5:
            break

def main():
    {load}
    ds = ds.map(lambda image, label: (tf.image.resize(image, (224, 224)), label))
    show(ds.batch(16))
"""


def iterated_sources(load: str) -> list[tuple[str, ...]]:
    """The step kinds of each pipeline a `for` loop reads when `main` builds `ds` with `load`."""
    tree = ast.parse(textwrap.dedent(_PREVIEW).format(load=load))
    flow = DatasetFlow.of(ModuleIndex.build(tree))
    return [tuple(step.kind for step in chain) for chain, _ in flow.iterated.values()]


def test_one_split_with_info_is_a_source():
    # Taichicchi1221's augmentation preview (reading 20): before tf-fix25 the pair hid the dataset
    load = 'ds, info = tfds.load("tf_flowers", split="train", as_supervised=True, with_info=True)'
    assert iterated_sources(load) == [("source", "map", "batch")]


def test_split_list_and_dict_with_info_are_sources():
    splits = '(ds, test_ds), info = tfds.load("mnist", split=["train", "test"], with_info=True)'
    assert iterated_sources(splits) == [("source", "map", "batch")]
    whole = 'ds, info = tfds.load("mnist", with_info=True)\n    ds = ds["train"]'
    assert iterated_sources(whole) == [("source", "map", "batch")]


def flow_of(src: str) -> DatasetFlow:
    return DatasetFlow.of(ModuleIndex.build(ast.parse(textwrap.dedent(src))))


def kinds(chain) -> tuple[str, ...]:
    return tuple(step.kind for step in chain)


def test_a_step_under_an_if_without_else_is_followed_both_ways():
    # keras' generator adapter: `prefetch(1)` on one configuration only; the store sees both pipelines
    flow = flow_of("""
import tensorflow as tf

def adapter(self, wrapped, workers):
    dataset = tf.data.Dataset.from_generator(wrapped)
    if workers == 1:
        dataset = dataset.prefetch(1)
    self._dataset = dataset
""")
    assert sorted(kinds(chain) for chain, _ in flow.passed.values()) == [("source",), ("source", "prefetch")]


def test_a_pipeline_bound_in_an_else_only_leaves_the_parameter_on_the_other_path():
    # reading_comprehension_tf: a feature's dataset is the caller's, or a placeholder bound in `else`
    flow = flow_of("""
import tensorflow as tf

def create_pipeline(word_dataset, word_enable, pad, size):
    if word_enable:
        pad_id = 1
    else:
        word_dataset = tf.data.Dataset.from_tensors(pad).repeat()
    dataset = tf.data.Dataset.zip((word_dataset, tf.data.Dataset.range(size)))
    return dataset.batch(32).make_initializable_iterator()
""")
    (zip_call,) = {chain[0].node for chain in flow.chains.values() if chain[0].node.func.attr == "zip"}
    assert id(zip_call) in flow.unseen_parts  # the caller's `word_dataset`, on the `if` path
    assert sorted(kinds(part) for part in flow.parts[id(zip_call)]) == [("source",), ("source", "repeat")]


def test_methods_read_what_another_method_of_the_class_stored_on_self():
    # the method training on `self.ds` is written above the one storing it; another class's `self.ds` is
    # another object
    flow = flow_of("""
import tensorflow as tf

class Trainer:
    def train(self, model):
        for batch in self.ds:
            model.train_on_batch(batch)

    def build(self, files, parse):
        self.ds = tf.data.TFRecordDataset(files).map(parse).batch(32)

class Evaluator:
    def evaluate(self, model):
        for batch in self.ds:
            model.train_on_batch(batch)
""")
    assert [kinds(chain) for chain in flow.trained.values()] == [("source", "map", "batch")]
    assert [at.lineno for chain, at in flow.consumed.values()] == [6]


_RECORDS = """
import tensorflow as tf


class Records:
    def __init__(self, files):
        self.files = files

    def batch(self, size):
        return [self.files[:size]]


def make_records(files):
    ds = Records(files)
    return ds.batch(8)


def make_pipeline(x):
    ds = tf.data.Dataset.from_tensor_slices(x)
    return ds.batch(32)
"""


def test_a_name_bound_to_a_class_instance_and_to_a_pipeline_runs_no_method():
    """(review 26 item 10) `ds` is a `Records` in one def and a tf.data pipeline in another: the pipeline's
    `ds.batch(32)` is tf.data's, no call of `Records.batch`; the `Records` def's `ds.batch(8)` is one. Read
    module-wide (no calling def), the mixed name runs no method; with every binding a `Records(...)`, both."""
    from checker.datasets import _instance_method

    def batch_calls(src: str) -> list:
        index = ModuleIndex.build(ast.parse(src))
        calls = [site.node for site in index.calls if getattr(site.node.func, "attr", None) == "batch"]
        return [getattr(_instance_method(call, index), "name", None) for call in calls]

    def in_defs(src: str) -> list:
        index = ModuleIndex.build(ast.parse(src))
        sites = [site for site in index.calls if getattr(site.node.func, "attr", None) == "batch"]
        return [getattr(_instance_method(s.node, index, s.function), "name", None) for s in sites]

    assert batch_calls(_RECORDS) == [None, None]
    assert in_defs(_RECORDS) == ["batch", None]
    only_records = _RECORDS.replace("tf.data.Dataset.from_tensor_slices(x)", "Records(x)")
    assert only_records != _RECORDS
    assert batch_calls(only_records) == ["batch", "batch"]


def test_the_class_at_a_line_is_the_innermost_and_a_chain_follows_the_module_bases():
    """(review 26 items 13, 22) `module.class_at`: data.py's holder of a map took the outermost class holding
    the line, so a nested dataset class's imported base was never read. `module.class_chain`: the class and
    the bases the module defines, nearest first (torch_graph's methods of a class chain)."""
    from checker.module import class_at, class_chain

    index = ModuleIndex.build(
        ast.parse(
            textwrap.dedent(
                """
                from dataset import Dataset

                class Datasets:
                    class Voc(Dataset):
                        def load(self, path):
                            return tf.data.TFRecordDataset(path).map(self.parse)

                class Base:
                    pass

                class Middle(Base):
                    pass

                class Top(Middle, Dataset):
                    pass
                """
            )
        )
    )
    assert class_at(index, 7).name == "Voc"
    assert class_at(index, 4).name == "Datasets"
    assert class_at(index, 2) is None
    assert [c.name for c in class_chain(index, "Top")] == ["Top", "Middle", "Base"]
    assert [c.name for c in class_chain(index, "Voc")] == ["Voc"]
