"""Graph mode: the op is built once before the loop; the loop only feeds and runs it."""

import tensorflow as tf

from ppbench import probe

tf.compat.v1.disable_eager_execution()
x = tf.compat.v1.placeholder(tf.float32, shape=(64,))
i_in = tf.compat.v1.placeholder(tf.float32, shape=())
w = tf.Variable(tf.ones((64,)))
y = tf.reduce_sum(x * w + i_in)
with tf.compat.v1.Session() as sess:
    sess.run(tf.compat.v1.global_variables_initializer())
    sess.graph.finalize()  # adding a node now would raise
    with probe.section():
        for i in probe.steps(probe.count(600)):
            sess.run(y, feed_dict={x: [1.0] * 64, i_in: float(i)})
