"""The dataset goes through the model in batches of 256 (predict's batch_size), so memory per call is bounded."""

import numpy as np
import tensorflow as tf

from ppbench import probe

model = tf.keras.Sequential([tf.keras.Input((256,)), tf.keras.layers.Dense(2048, activation="relu"),
                             tf.keras.layers.Dense(2048, activation="relu"), tf.keras.layers.Dense(10)])  # fmt: skip
data = np.random.default_rng(0).random((probe.count(20000), 256), dtype=np.float32)
with probe.section():
    out = model.predict(data, batch_size=256, verbose=0)
