"""tf.data: batch() first, then one vectorised map() per batch with parallel calls, and prefetch."""

import tensorflow as tf

from ppbench import probe


def scale(x):
    return tf.math.log1p(tf.abs(x)) * 0.5 + 1.0


n = probe.count(20000)
ds = (
    tf.data.Dataset.range(n)
    .batch(256)
    .map(lambda i: scale(tf.cast(i, tf.float32)), num_parallel_calls=tf.data.AUTOTUNE)
    .prefetch(tf.data.AUTOTUNE)
)
with probe.section():
    for _ in ds:
        pass
