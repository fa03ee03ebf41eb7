"""Graph mode: a new op is added to the graph on every step, so the graph grows and each run gets slower."""

import tensorflow as tf

from ppbench import probe

tf.compat.v1.disable_eager_execution()
x = tf.compat.v1.placeholder(tf.float32, shape=(64,))
w = tf.Variable(tf.ones((64,)))
with tf.compat.v1.Session() as sess:
    sess.run(tf.compat.v1.global_variables_initializer())
    with probe.section():
        for i in probe.steps(probe.count(600)):
            y = tf.reduce_sum(x * w + float(i))  # the PP: a new node per iteration
            sess.run(y, feed_dict={x: [1.0] * 64})
