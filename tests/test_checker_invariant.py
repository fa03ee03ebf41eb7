"""PP103 (loop-invariant TF op) on the shapes maintainers confirmed, and where repetition is the point."""

from __future__ import annotations

import textwrap

from checker import check_source


def found(source: str) -> list[tuple[int, str]]:
    """(line, confidence) of PP103's findings at every level (the rule is `low`: see its doc)."""
    findings, skipped = check_source(textwrap.dedent(source), "t.py")
    assert not skipped, skipped
    return [(f.line, f.confidence) for f in findings if f.rule == "PP103"]


def test_confirmed_shapes_are_reported():
    src = """
import tensorflow as tf
PHASE_TRAIN = 1
class Decoder:
    def decode(self, y_pred, inputs, phase, states, parallel, p, h, w, rows, timestep):
        outs = []
        for t in range(10):
            q = tf.concat([y_pred, self.query_embedding], axis=1)
            is_train = tf.equal(phase, PHASE_TRAIN)
            b = tf.shape(states.value())[:1]
            e = tf.expand_dims(parallel, 1)
            r = tf.reshape(p, [1, h, w, 1])
            outs.append(self.cell(inputs[:, t], q))
        for buffer_, elements in zip(self._buffers, self._elements):
            length = tf.gather(self._length, rows)
            idx = tf.stack([rows, timestep], 1)
            buffer_.scatter(idx, elements)
        return outs
"""
    assert found(src) == [(n, "low") for n in (8, 9, 10, 11, 12, 15, 16)]  # PP103 is low (README)


def test_what_the_loop_changes_keeps_it_silent():
    src = """
import tensorflow as tf
def run(xs, h, w, v, model, optimizer, inputs, step_fn):
    acc = tf.zeros([4])
    for i, x in enumerate(xs):
        a = tf.reshape(x, [-1])                      # the loop target
        h = tf.tanh(tf.matmul(h, w))                 # h is assigned in the loop
        self_state = tf.add(acc, 1.0)                # acc is augmented below
        acc += a
        n = tf.random.normal([3])                    # random: fresh each step
        v.assign_add(a)                              # a variable update
        m = tf.reduce_sum(v)                         # v changed by assign_add
        loss = step_fn(model, optimizer, inputs)
        it = tf.cast(optimizer.iterations, tf.int64) # optimizer handed to a call that may change it
        out = tf.while_loop(cond, body, [x])         # control flow traces its body once
    cells = [tf.nn.rnn_cell.LSTMCell(128) for _ in range(3)]  # a cell per layer, on purpose
    for gpu in range(4):
        with tf.device(f"/gpu:{gpu}"):
            towers = tf.reduce_mean(inputs)          # a tower per device
    for th in [0.3, 0.5]:
        recall = tf.size(inputs)                     # two literal iterations
"""
    assert found(src) == []


def test_helper_guard_tf_function_and_comprehension():
    src = """
import tensorflow as tf
TABLE = tf.ones([100, 8])

def norm(x, w):
    return tf.nn.l2_normalize(TABLE, axis=1)[x]

@tf.function
def step(xs, w):
    for x in xs:
        y = tf.transpose(w)
    return y

def train(xs, w, table):
    for i, x in enumerate(xs):
        n = norm(x, w)
        if i % 100 == 0:
            print(tf.reduce_sum(table))
    return [tf.reduce_max(table) for x in xs]
"""
    # every shape is low: the confirmed one (a for statement in a def working on its inputs) read right 0-10%
    assert found(src) == [(11, "low"), (16, "low"), (18, "low"), (19, "low")]


def test_session_loops_are_left_to_pp101():
    src = """
import tensorflow.compat.v1 as tf
for step in range(100):
    sess.run(tf.reduce_sum(w), feed_dict={x: step})
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [f.rule for f in findings] == ["PP101"]


def test_nested_comprehensions_variables_and_non_dataset_interleave():
    src = """
import tensorflow as tf
def norms(grads_per_loss, n, dims):
    norms = [[tf.norm(g) for g in grads] for grads in grads_per_loss]   # g is the inner target
    locs = [tf.Variable(tf.zeros([dims]), name=f"loc_{i}") for i in range(n)]   # a variable each
    x = utils.interleave(tf.concat(grads_per_loss, 0), 3)                 # not tf.data
    return norms, locs, x
"""
    findings, skipped = check_source(textwrap.dedent(src), "t.py")
    assert not skipped and findings == []


def test_timing_loops_and_string_helpers_are_no_findings():
    src = """
import time
import tensorflow as tf
def time_matmul(x, base, names):
    start = time.time()
    for loop in range(10):
        tf.matmul(x, x)                                  # result discarded: timed on purpose
    paths = []
    for name in names:
        paths.append(tf.compat.as_bytes(base) + tf.compat.as_bytes(name))   # Python helpers
    for name in names:
        y = tf.matmul(x, x)                              # kept: the same product every time
        paths.append(name)
    return time.time() - start, paths, y
"""
    assert found(src) == [(12, "low")]


def test_values_stored_per_iteration_are_collected():
    src = """
import tensorflow as tf
def init_cache(batch_size, heads, length, size, layers):
    cache = {}
    for layer in range(layers):
        cache["layer_%d" % layer] = {"k": tf.zeros([batch_size, heads, length, size])}   # one per layer
        scale = tf.sqrt(tf.cast(size, tf.float32))                                        # the same each time
        cache["scale"] = layer
    return cache, scale
"""
    assert found(src) == [(7, "low")]


def test_a_keras_optimizers_get_updates_is_built_once():
    """tf-fix34, reading 25's AdamW: `get_updates` builds one update op per parameter when Keras makes the
    training function, once; `K.sqrt` of the optimizer's constants in its loop is no op run per step. The
    same op in a method a training loop calls over epochs is still reported."""
    src = """
from keras import backend as K
from keras.optimizers import Optimizer

class AdamW(Optimizer):
    def get_updates(self, loss, params):
        grads = self.get_gradients(loss, params)
        self.updates = [K.update_add(self.iterations, 1)]
        for p, g in zip(params, grads):
            w_d = self.weight_decay * K.sqrt(self.batch_size / (self.samples_per_epoch * self.epochs))
            self.updates.append(K.update(p, p - self.lr * g - w_d * p))
        return self.updates
"""
    assert found(src) == []
    assert found(src.replace("def get_updates", "def step")) != []


_POWER_ITERATION = """
import tensorflow as tf

class SpectralNormalization(tf.keras.layers.Wrapper):
    def __init__(self, layer, iteration=1, eps=1e-12, training=True, **kwargs):
        self.iteration = iteration
        self.eps = eps
        self.do_power_iteration = training
        super().__init__(layer, **kwargs)

    def update_weights(self):
        w_reshaped = tf.reshape(self.w, [-1, self.w_shape[-1]])
        u_hat = self.u
        v_hat = None
        if self.do_power_iteration:
            for _ in range(self.iteration):
                v_ = tf.matmul(u_hat, tf.transpose(w_reshaped))
                v_hat = v_ / (tf.reduce_sum(v_ ** 2) ** 0.5 + self.eps)
                u_ = tf.matmul(v_hat, w_reshaped)
                u_hat = u_ / (tf.reduce_sum(u_ ** 2) ** 0.5 + self.eps)
        return v_hat, u_hat

conv = SpectralNormalization(tf.keras.layers.Conv2D(64, 3))
"""


def test_a_loop_over_an_attribute_bound_once_to_one_runs_once():
    """Reading 34 (suyeon-K `ops_sequential.py`): `range(self.iteration)` with `iteration=1` by default and no
    caller passing it runs once: no PP103. Bound to a literal, the same; passed 20 by a caller, or stored
    again elsewhere, the loop repeats and `tf.transpose(w_reshaped)` is reported."""
    assert found(_POWER_ITERATION) == []
    literal = _POWER_ITERATION.replace("self.iteration = iteration", "self.iteration = 1")
    assert literal != _POWER_ITERATION and found(literal) == []
    for grown in (
        _POWER_ITERATION.replace("Conv2D(64, 3))", "Conv2D(64, 3), iteration=20)"),
        _POWER_ITERATION.replace("Conv2D(64, 3))", "Conv2D(64, 3), 20)"),
        _POWER_ITERATION.replace("iteration=1,", "iteration=20,"),
        _POWER_ITERATION.replace(
            "        u_hat = self.u\n", "        u_hat = self.u\n        self.iteration = steps\n"
        ),
    ):
        transpose = 1 + grown.splitlines().index(
            "                v_ = tf.matmul(u_hat, tf.transpose(w_reshaped))"
        )
        assert grown != _POWER_ITERATION and [line for line, _ in found(grown)] == [transpose], grown
