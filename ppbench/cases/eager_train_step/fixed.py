"""The same training step compiled once with tf.function: one graph call per step."""

import tensorflow as tf

from ppbench import probe

tf.random.set_seed(0)
model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(64, activation="relu"),
                             tf.keras.layers.Dense(64, activation="relu"), tf.keras.layers.Dense(1)])  # fmt: skip
optimizer = tf.keras.optimizers.SGD(0.01)
x = tf.random.normal((32, 32))
y = tf.random.normal((32, 1))


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
    return loss


train_step(x, y)  # trace outside the measured section
with probe.section():
    for _ in probe.steps(probe.count(200)):
        train_step(x, y)
