"""Keras: one predict() call on the whole batch of samples."""

import numpy as np
import tensorflow as tf

from ppbench import probe

model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(64, activation="relu"),
                             tf.keras.layers.Dense(1)])  # fmt: skip
data = np.random.default_rng(0).random((probe.count(60), 32), dtype=np.float32)
with probe.section():
    out = model.predict(data, batch_size=len(data), verbose=0)
