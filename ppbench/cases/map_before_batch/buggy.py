"""tf.data: a per-element map() before batch(), one element at a time, no parallel calls, no prefetch."""

import tensorflow as tf

from ppbench import probe


def scale(x):
    return tf.math.log1p(tf.abs(x)) * 0.5 + 1.0


n = probe.count(20000)
ds = tf.data.Dataset.range(n).map(lambda i: tf.cast(i, tf.float32)).map(scale).batch(256)
with probe.section():
    for _ in ds:
        pass
