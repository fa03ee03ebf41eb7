"""Graph mode: a model is rebuilt in a loop (per trial) into the same default graph without clearing it, so the
graph keeps every old model: memory grows with each one, and each step initialises all models built so far."""

import numpy as np
import tensorflow as tf

from ppbench import probe

tf.compat.v1.disable_eager_execution()
batch = np.ones((8, 64), dtype=np.float32)


def build():
    x = tf.compat.v1.placeholder(tf.float32, (None, 64))
    w1 = tf.Variable(tf.random.normal((64, 512)))
    w2 = tf.Variable(tf.random.normal((512, 1)))
    return x, tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2)


with probe.section():
    for _ in probe.steps(probe.count(40)):
        x, y = build()  # the PP: no reset, the default graph keeps growing
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(y, feed_dict={x: batch})
