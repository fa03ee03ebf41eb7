"""Graph mode: the default graph is reset before each rebuild (what keras.backend.clear_session() does for
Keras models), so each trial holds only its own model."""

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
        tf.compat.v1.reset_default_graph()
        x, y = build()
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(y, feed_dict={x: batch})
