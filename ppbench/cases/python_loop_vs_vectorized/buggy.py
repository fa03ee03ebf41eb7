"""Eager TensorFlow: a Python loop over the elements with one small op per element and a branch per value."""

import numpy as np
import tensorflow as tf

from ppbench import probe

values = tf.constant(np.random.default_rng(0).standard_normal(probe.count(2000)), dtype=tf.float32)
with probe.section():
    total = tf.constant(0.0)
    for v in values:
        total += v * 2.0 if v > 0 else -v
