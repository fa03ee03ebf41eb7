"""The whole dataset goes through the model as ONE batch: every layer's activations for all samples are held at
once, so peak memory grows with the dataset (and runs out of memory on a large one)."""

import numpy as np
import tensorflow as tf

from ppbench import probe

model = tf.keras.Sequential([tf.keras.Input((256,)), tf.keras.layers.Dense(2048, activation="relu"),
                             tf.keras.layers.Dense(2048, activation="relu"), tf.keras.layers.Dense(10)])  # fmt: skip
data = np.random.default_rng(0).random((probe.count(20000), 256), dtype=np.float32)
with probe.section():
    out = model(data).numpy()  # the PP: one call over every sample
