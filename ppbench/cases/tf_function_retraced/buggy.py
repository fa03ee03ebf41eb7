"""tf.function called with a new Python number on every call: each value is a new signature, so the function
is traced (Python run and graph built) again on every call."""

import tensorflow as tf

from ppbench import probe

x = tf.random.stateless_normal((64, 64), seed=(1, 2))


@tf.function
def step(x, scale):
    return tf.reduce_sum(tf.matmul(x, x) * scale)


with probe.section():
    for i in probe.steps(probe.count(60)):
        step(x, float(i))  # the PP: a Python float is part of the trace key
