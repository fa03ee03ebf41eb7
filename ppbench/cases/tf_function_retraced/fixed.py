"""tf.function called with a tensor for the changing value: one trace, reused on every call."""

import tensorflow as tf

from ppbench import probe

x = tf.random.stateless_normal((64, 64), seed=(1, 2))


@tf.function
def step(x, scale):
    return tf.reduce_sum(tf.matmul(x, x) * scale)


with probe.section():
    for i in probe.steps(probe.count(60)):
        step(x, tf.constant(float(i)))
