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
