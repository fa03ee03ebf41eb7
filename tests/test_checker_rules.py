"""Each ppcheck rule on code shaped like real TensorFlow/Keras projects: positives and near misses."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from checker import check_paths, check_source
from checker.rules import all_rules


def codes(source: str, rule: str | None = None) -> list[tuple[str, int]]:
    findings, skipped = check_source(textwrap.dedent(source), "t.py")
    assert not skipped, skipped
    return [(f.rule, f.line) for f in findings if rule is None or f.rule == rule]


def sure(source: str, rule: str) -> list[tuple[int, str]]:
    """(line, confidence) of one rule's findings."""
    findings, skipped = check_source(textwrap.dedent(source), "t.py")
    assert not skipped, skipped
    return [(f.line, f.confidence) for f in findings if f.rule == rule]


# ---------------------------------------------------------------- PP101 graph op in a session loop


@pytest.mark.parametrize(
    "imports, prefix",
    [
        ("import tensorflow as tf", "tf."),
        ("import tensorflow.compat.v1 as tf", "tf."),
        ("import tensorflow as tf\ntf = tf.compat.v1", "tf."),
        ("from tensorflow.compat import v1 as tfv1", "tfv1."),
        ("from tensorflow import assign, nn", ""),
    ],
)
def test_pp101_every_import_form(imports, prefix):
    op = "assign" if prefix == "" else f"{prefix}assign"
    src = f"""
{imports}
def train(sess, w, lr, batches):
    for batch in batches:
        sess.run({op}(w, w - lr), feed_dict={{x: batch}})
"""
    assert codes(src, "PP101") == [("PP101", 5 + imports.count("\n"))]


def test_pp101_while_and_after_nested_loop_and_helper():
    src = """
import tensorflow as tf

def preprocess(img):
    return tf.image.resize(img, (64, 64))

def evaluate(sess, images, steps):
    step = 0
    while step < steps:
        for img in images:
            sess.run(preprocess(img))          # helper creates tf.image.resize
        total = tf.reduce_sum(images)          # after the nested loop: still in the while loop
        step += 1
"""
    assert codes(src, "PP101") == [("PP101", 11), ("PP101", 12)]


def test_pp101_helper_three_levels_and_method():
    src = """
import tensorflow as tf

class Tester:
    def level3(self, x):
        return tf.one_hot(x, 10)
    def level2(self, x):
        return self.level3(x)
    def level1(self, x):
        return self.level2(x)
    def run(self, xs):
        for x in xs:
            self.sess.run(self.level1(x))
"""
    assert codes(src, "PP101") == [("PP101", 13)]


def test_pp101_near_misses():
    src = """
import tensorflow as tf

def build(h):
    for units in (64, 32):                 # graph construction: no session in the loop
        h = tf.layers.dense(h, units)
    return h

def train(sess, train_op, batches):
    init = tf.global_variables_initializer()
    for batch in batches:                   # op built before the loop
        sess.run(train_op, feed_dict={x: batch})

def sweep(configs):
    for cfg in configs:                     # a fresh graph per configuration
        tf.reset_default_graph()
        loss = tf.reduce_mean(build(cfg))
        with tf.Session() as sess:
            sess.run(loss)

@tf.function
def eager_step(xs):
    for x in xs:
        tf.print(tf.reshape(x, [-1]))
        sess.run(x)
"""
    assert codes(src, "PP101") == []


def test_pp101_medium_in_long_loops():
    """An op built in a `while` loop or a `for` over `range` with a literal bound of 100 or more that runs
    the session (the Morvan tutorial's `compute_accuracy` every 50 of 1000 steps): `medium`, the class read
    right 27 times in 38 (tf-calibrate19). Over `range` of a name, a short literal range or a Python
    collection it stays `low` (56/100, 4/7 and 15/58 right)."""
    src = """
import tensorflow.compat.v1 as tf

def train(sess, loss, w, grads, batches, n):
    for step in range(2000):
        sess.run(tf.assign(w, w - 0.1 * grads))
    while not coord.should_stop():
        sess.run(tf.reduce_mean(loss))
    for step in range(n):
        sess.run(tf.reduce_sum(loss))
    for step in range(50):
        sess.run(tf.reduce_max(loss))
    for batch in batches:
        sess.run(tf.reduce_min(loss))
"""
    assert sure(src, "PP101") == [(6, "medium"), (8, "medium"), (10, "low"), (12, "low"), (14, "low")]


def test_pp101_low_in_a_checkpoint_polling_loop():
    """A `while True` evaluator that restores the newest checkpoint, builds its initializer and sleeps until the
    next one (the object detection API's `repeated_checkpoint_run`): `low`, though a `while` loop is `medium`
    otherwise; reading 19 read six such findings wrong (three vendored copies of one file)."""
    src = """
import time

import tensorflow.compat.v1 as tf

def evaluate_forever(sess, saver, checkpoint_dir, interval):
    while True:
        start = time.time()
        saver.restore(sess, tf.train.latest_checkpoint(checkpoint_dir))
        sess.run(tf.local_variables_initializer())
        wait = start + interval - time.time()
        if wait > 0:
            time.sleep(wait)
"""
    assert sure(src, "PP101") == [(10, "low")]


def test_pp101_medium_in_a_loop_that_trains(tmp_path):
    """tf-fix29, a TF1 MNIST script: the accuracy ops built every `log_every` steps of a loop that runs the
    optimizer are `medium` though the loop is over `range` of a name (a loop running a training step read
    right 92 times in 110 by reason over readings 15-22); in the same loop a `Saver` built per checkpoint
    stays `low` (1/15), and so do the optimizer and initializer a sweep builds once per learning rate before
    its nested training loop (a model per setting, 0/29), and the argmax of the test loop, which trains
    nothing. The same script with the ops built once has no PP101."""
    fixtures = Path(__file__).parent / "fixtures" / "ppcheck" / "levels"
    for name in ("mnist_tf1", "mnist_tf1_ok"):
        shutil.copytree(fixtures / name, tmp_path / name)  # files under tests/ get no findings
    found, _, _ = check_paths([str(tmp_path / "mnist_tf1")])
    assert [(f.line, f.confidence) for f in found if f.rule == "PP101"] == [
        (20, "low"),
        (21, "low"),
        (36, "medium"),
        (37, "medium"),
        (41, "low"),
        (48, "low"),
    ]
    clean, _, _ = check_paths([str(tmp_path / "mnist_tf1_ok")])
    assert clean == []


def test_pp101_medium_needs_a_train_op_fetched():
    """tf-fix32, reading 24: a TF1 AlexNet fine-tuner loads pretrained weights once, one
    `session.run(var.assign(pre_trained_weights))` per variable; the word `train` in the assign's argument
    made the loop a training loop and the assign `medium` (read wrong twice). Only what `run` fetches counts
    now (`model.train_op` in a fetch list): the training loop's accuracy ops stay `medium`; the load was
    `low` until tf-fix36 silenced assigns in a loop over a weights file's entries (`_over_weights`)."""
    src = """
import numpy as np
import tensorflow as tf


def load_initial_weights(session, skip_layers):
    weights_dict = np.load("bvlc_alexnet.npy", encoding="bytes").item()
    for op_name in weights_dict:
        if op_name in skip_layers:
            continue
        with tf.variable_scope(op_name, reuse=True):
            for pre_trained_weights in weights_dict[op_name]:
                name = "biases" if len(pre_trained_weights.shape) == 1 else "weights"
                var = tf.get_variable(name, trainable=False)
                session.run(var.assign(pre_trained_weights))


def train(session, model, batches, num_epochs):
    for epoch in range(num_epochs):
        for images, labels in batches:
            feed = {model.x: images, model.y: labels}
            _, logits = session.run([model.train_op, model.logits], feed_dict=feed)
            correct = tf.equal(tf.argmax(logits, 1), tf.argmax(labels, 1))
            print(epoch, session.run(tf.reduce_mean(tf.cast(correct, tf.float32))))
"""
    assert sure(src, "PP101") == [(23, "medium"), (24, "medium")]


_PRETRAINED_RESTORE = """
import numpy as np
import tensorflow as tf


def load_weights(sess, path):
    pretrained = np.load(path, allow_pickle=True).item()
    for variable in tf.trainable_variables():
        for key in pretrained.keys():
            if key == variable.name.rstrip(":0"):
                sess.run(tf.assign(variable, pretrained[key]))


def train(sess, train_op, steps):
    load_weights(sess, "resnet18.npy")
    for step in range(steps):
        sess.run(train_op)
"""


def test_pp101_a_restore_over_a_weights_file_assigns_each_variable_once():
    """tf-fix36, reading 26's FishBigOcean (`medium`, wrong) and hellochick (`low`, wrong): a loop over the
    graph's variables and a pretrained file's keys assigns each variable once, before training; the assign
    ops are built once in all. The same assign inside the training loop (a reload every step) grows the
    graph as the model trains and stays reported."""
    assert sure(_PRETRAINED_RESTORE, "PP101") == []
    per_step = _PRETRAINED_RESTORE.replace(
        "        sess.run(train_op)\n",
        "        sess.run(train_op)\n        load_weights(sess, 'resnet18.npy')\n",
    )
    assert per_step != _PRETRAINED_RESTORE
    assert sure(per_step, "PP101") == [(18, "medium")]
    over_batches = _PRETRAINED_RESTORE.replace("for key in pretrained.keys():", "for key in batches(path):")
    assert sure(over_batches, "PP101") == [(11, "low")]


_KERAS_BACKEND_PGD = """
import numpy as np
import tensorflow as tf
from keras import backend as K


def PGD(model, x, y, eps, steps=10):
    sess = K.get_session()
    loss = K.sum(K.categorical_crossentropy(y, model.output))
    grads = K.gradients(loss, model.input)[0]
    adv = x
    for _ in range(steps):
        g = sess.run(grads, feed_dict={model.input: adv})
        adv = np.clip(adv + eps * np.sign(g), 0, 1)
    return adv


def save_all_adv_samples(model, batches, eps):
    out = []
    for x, y in batches:
        out.append(PGD(model, x, y, eps))
    return out
"""


def test_pp101_keras_backend_ops_are_graph_ops():
    """tf-fix32, reading 24: a PGD attack builds its loss and gradients with `keras.backend` (`K.sum`,
    `K.gradients`) on every call, and a loop over test batches calls it; `K.*` tensor functions add graph
    nodes as `tf.*` ops do (`low` at the loop's call, as the `tf.*` spelling is). Built once before the loop,
    or only the backend's state (`K.get_session`, `K.int_shape`) in the loop: silent."""
    assert sure(_KERAS_BACKEND_PGD, "PP101") == [(21, "low")]
    once = """
import numpy as np
from keras import backend as K


def save_all_adv_samples(model, batches, eps):
    loss = K.sum(K.categorical_crossentropy(model.targets[0], model.output))
    grads = K.gradients(loss, model.input)[0]
    out = []
    for x, y in batches:
        sess = K.get_session()
        print(K.int_shape(model.input))
        g = sess.run(grads, feed_dict={model.input: x, model.targets[0]: y})
        out.append(np.clip(x + eps * np.sign(g), 0, 1))
    return out
"""
    assert sure(once, "PP101") == []


def test_pp101_viterbi_decode_is_numpy():
    """`tf.contrib.crf.viterbi_decode` decodes scores already fetched, in NumPy: no node (reading 21 read a
    finding on it wrong); `crf_decode`, the graph op, is still reported."""
    src = """
import numpy as np
import tensorflow as tf

def train(sess, model, batches, valid, num_epochs):
    for epoch in range(num_epochs):
        for batch in batches:
            sess.run(model.train, feed_dict=model.feed(batch))
        logits, trans_params = sess.run([model.logits, model.trans_params], feed_dict=model.feed(valid))
        preds = [tf.contrib.crf.viterbi_decode(logits[i], trans_params)[0] for i in range(logits.shape[0])]
        print(epoch, np.mean(preds))
"""
    assert sure(src, "PP101") == []
    graph = src.replace(
        "[tf.contrib.crf.viterbi_decode(logits[i], trans_params)[0] for i in range(logits.shape[0])]",
        "sess.run(tf.contrib.crf.crf_decode(logits, trans_params, model.lengths))",
    )
    assert sure(graph, "PP101") == [(10, "medium")]


def test_pp101_keras_backend_get_value_runs_the_session():
    """tf-fix46, readings 31 and 32: standalone Keras on a TF1 backend evaluates `K.ctc_decode` with
    `K.get_value` in an evaluation loop (a Keras DeepSpeech2's `do_evaluate_CTC`, a CRNN's per-image decode):
    a decoder subgraph per batch. `K` comes from `from keras.layers import *` or an explicit import; `low`
    in a loop over `range` of a name. `tf.keras`'s backend (eager in TF2) and a decoder built once are
    none."""
    star = """
import keras
import numpy as np
from keras.layers import *
from keras.models import *

def do_evaluate(base_model, test_gen):
    for i in range(test_gen.num_steps):
        x_test, y_test = next(test_gen)
        y_pred = base_model.predict(x_test)
        input_len = np.ones(y_pred.shape[0]) * y_pred.shape[1]
        y_pred = K.get_value(K.ctc_decode(y_pred, input_length=input_len)[0][0])
        print((y_pred == y_test).mean())
"""
    assert sure(star, "PP101") == [(12, "low")]
    explicit = star.replace("from keras.layers import *\n", "from keras import backend as K\n")
    assert sure(explicit, "PP101") == [(12, "low")]
    assert sure(star.replace("from keras.layers import *\n", "K = None\n"), "PP101") == []
    eager = explicit.replace("import keras\n", "import tensorflow as tf\n").replace(
        "from keras import backend", "from tensorflow.keras import backend"
    )
    assert sure(eager, "PP101") == []
    once = """
import keras.backend as K
import numpy as np

def do_evaluate(base_model, test_gen, steps):
    decoded = K.ctc_decode(base_model.output, K.placeholder((None,), dtype="int32"))[0][0]
    for i in range(steps):
        x_test, y_test = next(test_gen)
        print(K.get_value(decoded))
"""
    assert sure(once, "PP101") == []


def test_pp101_keras_get_session_run_runs_the_session():
    """tf-fix48, reading 33's lipnet-replication: an epoch-end callback's `while` loop over test batches calls
    `decode_batch`, which builds two `K.placeholder` and a `K.ctc_decode` and runs them with
    `K.get_session().run(...)`: standalone Keras's own TF1 session, a run no `sess` name shows. Reported at
    the loop's call as a `while` loop's ops are. `tf.keras`'s backend (no TF1 session kept) and a decoder built
    once before the loop stay silent."""
    src = """
import keras.backend as K
import numpy as np
from keras.callbacks import Callback

def decode_batch(test_func, input_list):
    out, loss = test_func(input_list)
    y_pred = K.placeholder(shape=[out.shape[0], out.shape[1] - 2, out.shape[2]])
    input_length = K.placeholder(shape=[out.shape[0]])
    decoder = K.ctc_decode(y_pred, input_length, beam_width=3, greedy=False)
    feed = {y_pred: out[:, 2:], input_length: np.full(out.shape[0], out.shape[1] - 2)}
    return K.get_session().run(decoder, feed_dict=feed)[0][0], loss

class Statistics(Callback):
    def statistic(self, num):
        num_left = num
        while num_left > 0:
            batch = next(self.test_data_gen)[0]
            decoded, loss = decode_batch(self.test_func, [batch["inputs"], 0])
            num_left -= batch["inputs"].shape[0]
"""
    assert sure(src, "PP101") == [(19, "medium")]
    eager = src.replace("import keras.backend as K", "import tensorflow.keras.backend as K")
    assert sure(eager, "PP101") == []
    once = """
import keras.backend as K

def statistic(test_data_gen, y_pred, input_length, num):
    decoder = K.ctc_decode(y_pred, input_length, beam_width=3, greedy=False)
    while num > 0:
        out, lengths = next(test_data_gen)
        decoded = K.get_session().run(decoder, feed_dict={y_pred: out, input_length: lengths})
        num -= len(out)
"""
    assert sure(once, "PP101") == []


def test_pp101_a_branch_that_switches_itself_off_runs_once():
    """tf-fix46, reading 32's cbreider BraTS trainer: the "unfreeze all layers" branch of the training loop
    rebuilds the global step, the optimizer and the initializer, then sets its own flag to -1, so it runs at
    most once (3 `medium` findings read wrong). A branch that leaves its test alone is still reported, and so
    is one the loop re-arms (`self._unfreeze_epochs = 0` every 10 epochs) or toggles (`= not ...`): review 23."""
    src = """
import tensorflow as tf

class Trainer:
    def train(self, sess, net, batches, epochs, lr):
        for epoch in range(epochs):
            for batch in batches:
                sess.run(self.train_op, feed_dict=net.feed(batch))
            if self._unfreeze_epochs and self._unfreeze_epochs >= 0:
                if epoch >= self._unfreeze_epochs:
                    self.global_step = tf.Variable(epoch, name="global_step")
                    sess.run(tf.global_variables_initializer())
                    self._unfreeze_epochs = -1
"""
    assert sure(src, "PP101") == []
    kept = src.replace("                    self._unfreeze_epochs = -1\n", "")
    assert sure(kept, "PP101") == [(11, "low"), (12, "low")]
    periodic = src.replace(
        "            for batch in batches:\n",
        "            self._unfreeze_epochs += 1\n            for batch in batches:\n",
    )
    assert sure(periodic, "PP101") == [(12, "low"), (13, "low")]
    rearmed = src.replace(
        "            for batch in batches:\n",
        "            if epoch % 10 == 0:\n                self._unfreeze_epochs = 0\n            for batch in batches:\n",
    )
    assert sure(rearmed, "PP101") == [(13, "low"), (14, "low")]
    toggled = src.replace("self._unfreeze_epochs = -1", "self._unfreeze_epochs = not self._unfreeze_epochs")
    assert sure(toggled, "PP101") == [(11, "low"), (12, "low")]
    comprehension = """
import tensorflow as tf

def evaluate(sess, batches):
    return [sess.run(tf.reduce_sum(batch)) for batch in batches]
"""
    assert sure(comprehension, "PP101") == [(5, "low")]


def test_pp101_not_tensorflow():
    src = """
import numpy as np
for b in batches:
    sess.run(np.reshape(b, (1, -1)))
"""
    assert codes(src) == []


# ---------------------------------------------------------------- PP102 session in a loop


def test_pp102_session_in_loop_direct_and_helper():
    src = """
import tensorflow.compat.v1 as tf

def score(logits, x, image):
    with tf.Session() as sess:
        return sess.run(logits, feed_dict={x: image})

for image in images:
    sess = tf.InteractiveSession()
    print(score(logits, x, image))
"""
    assert codes(src, "PP102") == [("PP102", 9), ("PP102", 10)]


def test_pp102_near_miss_new_graph_per_iteration():
    src = """
import tensorflow as tf
for path in model_paths:
    with tf.Graph().as_default():
        with tf.Session() as sess:
            restore(sess, path)
with tf.Session() as sess:
    for image in images:
        sess.run(logits, feed_dict={x: image})
"""
    assert codes(src, "PP102") == []


def test_pp102_silent_in_a_checkpoint_polling_evaluator():
    """Reading 15 (mnist_test.py of a TF1 course, copied widely): a session per round of a loop that sleeps
    5 s between rounds, restoring the newest checkpoint; the same loop without the sleep is reported."""
    src = """
import time
import tensorflow as tf

def test(mnist):
    with tf.Graph().as_default() as g:
        accuracy = build(g)
        while True:
            with tf.Session() as sess:
                saver.restore(sess, tf.train.get_checkpoint_state(PATH).model_checkpoint_path)
                print(sess.run(accuracy, feed_dict={x: mnist.test.images}))
            time.sleep(TEST_INTERVAL_SECS)
        for image in images:
            with tf.Session() as sess:
                print(sess.run(accuracy, feed_dict={x: image}))
"""
    assert codes(src, "PP102") == [("PP102", 14)]


# ---------------------------------------------------------------- PP201 element-wise map before batch


def test_pp201_lambda_and_function_across_functions():
    src = """
import tensorflow as tf

def normalize(image, label):
    image = tf.cast(image, tf.float32) / 255.0
    return image, tf.one_hot(label, 10)

def make_dataset(x, y):
    ds = tf.data.Dataset.from_tensor_slices((x, y))
    return ds.map(normalize)

def batched(ds):
    return ds.shuffle(1000).batch(64)

train = batched(make_dataset(x, y))
other = tf.data.Dataset.from_tensor_slices(x).map(lambda v: v * 2.0).batch(8)
"""
    assert codes(src, "PP201") == [("PP201", 10), ("PP201", 16)]


def test_pp201_a_lambda_calling_a_parse_method():
    """tf-fix46, reading 32's two-tower reader: `ds.map(lambda x: self._parse_function(x))` runs the method,
    which parses one record, before `batch`: found as `ds.map(self._parse_function)` is. A lambda calling a
    method that only casts is not a parse."""
    src = """
import tensorflow as tf

class TFRecordReader:
    def __init__(self, spec):
        self.spec = spec

    def _parse_function(self, record):
        return tf.io.parse_single_example(record, self.spec)

    def create(self, files, batch_size):
        ds = tf.data.TFRecordDataset(files)
        ds = ds.map(lambda x: self._parse_function(x))
        return ds.shuffle(1000).batch(batch_size)
"""
    assert sure(src, "PP201") == [(13, "low")]
    batched = src.replace(
        "ds.map(lambda x: self._parse_function(x))\n        return ds.shuffle(1000).batch(batch_size)",
        "ds.shuffle(1000).batch(batch_size)\n        return ds.map(lambda x: self._parse_function(x))",
    )
    assert sure(batched, "PP201") == []


def test_pp201_near_misses():
    src = """
import tensorflow as tf

def parse(record):
    features = tf.io.parse_single_example(record, spec)
    return tf.image.decode_jpeg(features["image"])

ds = tf.data.TFRecordDataset(files).map(parse).batch(32)           # decoding cannot move behind batch
ds2 = tf.data.Dataset.from_tensor_slices(x).map(lambda v: tf.image.random_flip_left_right(v)).batch(8)
ds3 = tf.data.Dataset.from_tensor_slices(x).map(lambda v: v / 255.0).cache().batch(8)  # cache in between
ds4 = tf.data.Dataset.from_tensor_slices(x).batch(8).map(lambda v: v / 255.0)         # already batched
"""
    assert codes(src, "PP201") == []


# ---------------------------------------------------------------- PP202 map/interleave without parallel calls


def test_pp202_map_and_interleave():
    src = """
import tensorflow as tf
from tensorflow.data import Dataset
def parse_example(r): return tf.io.parse_single_example(r, spec)
files = Dataset.list_files("train-*.tfrecord")
ds = files.interleave(tf.data.TFRecordDataset, cycle_length=4)
ds = ds.map(parse_example)
ds = ds.map(augment, num_parallel_calls=tf.data.AUTOTUNE)
ds = ds.map(other, 8)
"""
    assert codes(src, "PP202") == [("PP202", 6), ("PP202", 7)]


def test_pp202_near_misses():
    src = """
import pandas as pd
import tensorflow as tf

frame = pd.read_csv("x.csv")
frame["a"].map(str)                                   # pandas, not tf.data
names = list(map(str, range(3)))                      # Python map
one = tf.data.Dataset.from_tensors([1]).map(pull)     # a single element
options = tf.data.Options()
"""
    assert codes(src, "PP202") == []


_NUMPY_FUNCTION_READER = """
import cv2
import numpy as np
import tensorflow as tf


def read_image(path):
    image = cv2.imread(path.decode(), cv2.IMREAD_COLOR)
    image = cv2.resize(image, (256, 256))
    return (image / 255.0).astype(np.float32)


def parse(x, y):
    x = tf.numpy_function(read_image, [x], tf.float32)
    x.set_shape([256, 256, 3])
    return x, y


def tf_dataset(images, labels, batch=8):
    ds = tf.data.Dataset.from_tensor_slices((images, labels))
    ds = ds.map(parse).batch(batch).prefetch(10)
    return ds


if __name__ == "__main__":
    train_ds = tf_dataset(["a.jpg"] * 100, [0] * 100)
    model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
    model.compile(loss="mse")
    model.fit(train_ds, epochs=10)
"""


def test_pp202_numpy_function_on_a_module_level_reader():
    """tf-fix32, reading 24: a map whose `tf.numpy_function` runs a module-level def that `cv2`-reads and
    resizes each image is image/file work threads overlap (the reads release the GIL), as the same reader
    nested in the map function already was: `high` when trained. A callback doing only NumPy stays a
    Python callback under the GIL, silent as before."""
    assert sure(_NUMPY_FUNCTION_READER, "PP202") == [(21, "high")]
    clean = _NUMPY_FUNCTION_READER.replace(
        """    image = cv2.imread(path.decode(), cv2.IMREAD_COLOR)
    image = cv2.resize(image, (256, 256))
    return (image / 255.0).astype(np.float32)""",
        """    return np.frombuffer(path, dtype=np.uint8).astype(np.float32)""",
    )
    assert clean != _NUMPY_FUNCTION_READER
    assert sure(clean, "PP202") == []


def test_pp202_module_turns_on_map_parallelization():
    src = """
import tensorflow as tf
options = tf.data.Options()
options.experimental_optimization.map_parallelization = True
ds = tf.data.TFRecordDataset(files).map(parse).with_options(options)
"""
    assert codes(src, "PP202") == []


# ---------------------------------------------------------------- PP203 no prefetch


def test_pp203_consumed_by_fit_loop_and_helper():
    src = """
import tensorflow as tf

def make(files):
    return tf.data.TFRecordDataset(files).shuffle(100).batch(32)

def train(model, ds):
    model.fit(ds, epochs=3)

train_ds = make(files)
train(model, train_ds)

test_ds = tf.data.Dataset.from_tensor_slices(paths).map(load_image).batch(32)
for step, batch in enumerate(test_ds):
    train_step(batch)
in_memory = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(100).batch(32)
model.fit(in_memory)
"""
    assert codes(src, "PP203") == [("PP203", 5), ("PP203", 13)]


def test_pp203_prefetch_statement_whose_result_is_dropped():
    # reading 20 (NguyenThanhAI, nihil21): `ds.prefetch(n)` as a statement leaves `ds` unprefetched
    src = """
import tensorflow as tf

def get_batch(path, parse_fn, n):
    dataset = tf.data.TFRecordDataset([path]).map(parse_fn, num_parallel_calls=4)
    dataset = dataset.batch(n)
    dataset.prefetch(tf.data.experimental.AUTOTUNE)
    return dataset

class Loader:
    def __init__(self, path, n):
        self.dataset = tf.data.TFRecordDataset([path]).batch(n)
        self.dataset.shuffle(10).prefetch(2)
"""
    found = sure(src, "PP203")
    assert found == [(6, "low"), (12, "low")]
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert "statement on line 7 discards its result" in [f for f in findings if f.line == 6][0].message
    assigned = src.replace("    dataset.prefetch(", "    dataset = dataset.prefetch(").replace(
        "        self.dataset.shuffle", "        self.dataset = self.dataset.shuffle"
    )
    assert sure(assigned, "PP203") == []


def test_pp203_zip_costs_what_its_parts_cost():
    """A loader returning `zip((image_ds, label_ds)).batch(n)` where the image part decodes files in a map
    (keras' image_dataset_from_directory before its maintainers added prefetch): the merge costs what its
    parts cost, `low` as every returned pipeline. A zip of in-memory arrays, or of a cached part, is silent."""
    src = """
import tensorflow as tf

def image_dataset(image_paths, labels, batch_size=32):
    dataset = paths_to_dataset(image_paths, labels)
    dataset = dataset.shuffle(buffer_size=batch_size * 8)
    dataset = dataset.batch(batch_size)
    return dataset

def paths_to_dataset(image_paths, labels):
    img_ds = tf.data.Dataset.from_tensor_slices(image_paths).map(load_image)
    label_ds = tf.data.Dataset.from_tensor_slices(labels)
    return tf.data.Dataset.zip((img_ds, label_ds))

def load_image(path):
    img = tf.image.decode_image(tf.io.read_file(path), channels=3, expand_animations=False)
    return tf.image.resize(img, (256, 256))
"""
    assert sure(src, "PP203") == [(7, "low")]
    cached = src.replace(".map(load_image)", ".map(load_image).cache()")
    assert sure(cached, "PP203") == []
    arrays = src.replace(".map(load_image)", "")
    assert sure(arrays, "PP203") == []


def test_pp203_validation_data_read_every_epoch():
    """`fit(train, validation_data=ds["test"].batch(32))` over `ds = tfds.load(name)` (a dict of splits):
    the validation pipeline is read every epoch and had no prefetch (vision-transformer's maintainers added
    it); `low` as the rule's other findings. A prefetched one, or arrays, stay silent."""
    src = """
import tensorflow as tf
import tensorflow_datasets as tfds

def main(args):
    ds = tfds.load("cifar10", as_supervised=True)
    ds_train = ds["train"].cache().shuffle(1024).batch(64).prefetch(tf.data.AUTOTUNE)
    ds_test = ds["test"].batch(32)
    model.fit(ds_train, validation_data=ds_test, epochs=args.epochs)
"""
    assert sure(src, "PP203") == [(8, "low")]
    fixed = src.replace('ds["test"].batch(32)', 'ds["test"].batch(32).prefetch(tf.data.AUTOTUNE)')
    assert sure(fixed, "PP203") == []
    arrays = src.replace("validation_data=ds_test", "validation_data=(x_val, y_val)")
    assert sure(arrays, "PP203") == []


def test_pp203_pipeline_stored_on_self():
    """A dataset class that builds a batched pipeline of parsed TFRecords and keeps it in `self.dataset` for
    other methods (basenji's SeqDataset before its maintainers added prefetch): `low`, as a returned one.
    Silent when another method carries it on (`self.dataset.prefetch(...)`) or when it is not batched."""
    src = """
import tensorflow as tf

class SeqDataset:
    def make_dataset(self):
        dataset = tf.data.Dataset.list_files(self.tfr_path)
        dataset = dataset.interleave(tf.data.TFRecordDataset, num_parallel_calls=tf.data.AUTOTUNE)
        dataset = dataset.map(self.parse, num_parallel_calls=tf.data.AUTOTUNE)
        dataset = dataset.batch(self.batch_size)
        self.dataset = dataset
"""
    assert sure(src, "PP203") == [(9, "low")]
    carried = (
        src
        + """
    def ready(self):
        return self.dataset.prefetch(2)
"""
    )
    assert sure(carried, "PP203") == []
    unbatched = src.replace("dataset = dataset.batch(self.batch_size)", "pass")
    assert sure(unbatched, "PP203") == []


def test_pp203_high_when_trained_with_image_work():
    """A pipeline fitted (or walked by a training loop) whose map decodes and resizes JPEGs, with no
    prefetch (the ch15 Pokemon script of a TF2 book, read right in all its copies): `medium` since
    tf-calibrate19 (right 15 times in 17), `high` since tf-fix43 (first reads over readings 15-30). The same pipeline only evaluated, or returned to a caller, or
    fitted on a map that only parses records stays `low` (those classes read right 23/102 and 3/26)."""
    src = """
import tensorflow as tf

def preprocess(path, label):
    image = tf.io.decode_jpeg(tf.io.read_file(path), channels=3)
    image = tf.image.resize(image, [244, 244])
    return image, label

def main(model, paths, labels, test_paths, test_labels):
    db_train = tf.data.Dataset.from_tensor_slices((paths, labels))
    db_train = db_train.shuffle(1000).map(preprocess).batch(32)
    db_test = tf.data.Dataset.from_tensor_slices((test_paths, test_labels))
    db_test = db_test.map(preprocess).batch(32)
    model.fit(db_train, epochs=100)
    model.evaluate(db_test)
"""
    assert sure(src, "PP203") == [(11, "high"), (13, "low")]
    looped = src.replace(
        "model.fit(db_train, epochs=100)",
        "for step, (x, y) in enumerate(db_train):\n        train_step(model, x, y)",
    )
    assert sure(looped, "PP203") == [(11, "high"), (13, "low")]
    fixed = src.replace(
        ".map(preprocess).batch(32)\n    db_test", ".map(preprocess).batch(32).prefetch(2)\n    db_test"
    )
    assert sure(fixed, "PP203") == [(13, "low")]
    records = """
import tensorflow as tf

def parse(record):
    return tf.io.parse_single_example(record, FEATURES)

def main(model, files):
    ds = tf.data.TFRecordDataset(files).map(parse, num_parallel_calls=8).batch(32)
    model.fit(ds, epochs=10)

def input_fn(paths):
    ds = tf.data.Dataset.from_tensor_slices(paths).map(load_jpeg, num_parallel_calls=8)
    return ds.batch(32)

def load_jpeg(path):
    return tf.image.decode_jpeg(tf.io.read_file(path))
"""
    assert sure(records, "PP203") == [(8, "low"), (13, "low")]


def test_pp203_high_when_a_tf1_iterator_or_an_estimator_trains_on_it(tmp_path):
    """tf-fix29, a TF1 ResNet trainer and an Estimator script: the input function's image pipeline, read
    through a one-shot iterator whose tensors `def train()` trains on in its session loop, and the one
    `estimator.train(input_fn=lambda: ...)` reads, are `high` (`medium` until tf-fix43: the class of a pipeline seen training
    with image work; so seen, 18 right of 21 by reason and code over readings 15-22); the evaluation input
    function stays `low`. With prefetch there is no PP203."""
    fixtures = Path(__file__).parent / "fixtures" / "ppcheck" / "levels"
    for name in ("resnet_tf1", "resnet_tf1_ok"):
        shutil.copytree(fixtures / name, tmp_path / name)  # files under tests/ get no findings
    found, _, _ = check_paths([str(tmp_path / "resnet_tf1")])
    assert [(Path(f.path).name, f.line, f.confidence) for f in found if f.rule == "PP203"] == [
        ("estimator_train.py", 19, "high"),
        ("resnet_train.py", 33, "high"),
        ("resnet_train.py", 42, "low"),
    ]
    clean, _, _ = check_paths([str(tmp_path / "resnet_tf1_ok")])
    assert clean == []


def test_pp203_untraced_pipelines_are_low():
    """A pipeline handed in by a caller elsewhere, batched, bounded by `take(FLAGS.n)` and read by a TF1
    iterator (spotify-tensorflow, magenta before their maintainers added prefetch): `low`, as its source is
    unseen. A literal take is a peek, a prefetched chain is fine, and a take/skip split is left alone."""
    src = """
import tensorflow as tf

def mk_iterator(dataset, flags):
    dataset = dataset.shuffle(flags.buffer).batch(flags.batch_size)
    dataset = dataset.take(flags.take_count)
    return dataset.make_one_shot_iterator()
"""
    assert sure(src, "PP203") == [(6, "low")]
    assert sure(src.replace("take(flags.take_count)", "take(3)"), "PP203") == []
    assert sure(src.replace("take(flags.take_count)", "take(flags.take_count).prefetch(1)"), "PP203") == []
    split = src.replace("    return dataset", "    rest = dataset.skip(flags.take_count)\n    return dataset")
    assert sure(split, "PP203") == []


def test_pp401_per_call_method_is_low():
    """A `Run` method wrapping its eval function in tf.function on every call (lingvo's programs, written
    with `import lingvo.compat as tf`): `low`. Cached behind `if self._fn is None:` it is silent."""
    src = """
import lingvo.compat as tf
from tensorflow.python.eager import context

class EvalProgram:
    def Run(self, sess=None):
        self.outs = tf.function(autograph=False)(self.EvalFunc)
        return self.outs()
"""
    assert sure(src, "PP401") == [(7, "low")]
    cached = src.replace(
        "        self.outs = tf", "        if self.outs is None:\n            self.outs = tf"
    )
    assert sure(cached, "PP401") == []


def test_pp203_near_misses():
    src = """
import tensorflow as tf
good = tf.data.TFRecordDataset(f).batch(32).prefetch(tf.data.AUTOTUNE)
model.fit(good)
peek = tf.data.TFRecordDataset(f).batch(32)
for item in peek.take(1):
    print(item.shape)

shown = tf.data.TFRecordDataset(f).map(parse)
for record in shown:               # a loop that only prints records is no training loop
    print(record)
cached = tf.data.TFRecordDataset(f).map(parse).cache().batch(32)
model.fit(cached)                  # costly steps sit before the cache
dev = tf.data.TFRecordDataset(f).batch(8).apply(tf.data.experimental.prefetch_to_device("/gpu:0"))
model.fit(dev)
"""
    assert codes(src, "PP203") == []


# ---------------------------------------------------------------- PP204 shuffle after batch


def test_pp204_shuffle_after_batch():
    src = """
import tensorflow as tf
ds = tf.data.Dataset.from_generator(gen, (tf.float32, tf.int32))
ds = ds.batch(4).prefetch(100).shuffle(100)
"""
    assert codes(src, "PP204") == [("PP204", 4)]


def test_pp204_near_misses():
    src = """
import tensorflow as tf
a = tf.data.Dataset.from_tensor_slices(x).shuffle(1000).batch(32).shuffle(10)    # elements shuffled first
b = tf.data.Dataset.from_tensor_slices(x).padded_batch(32, shapes).shuffle(10)  # bucketed: batches on purpose
c = tf.keras.utils.image_dataset_from_directory("d").shuffle(10)                # loader shuffles already
d = tf.data.Dataset.from_tensor_slices(x).batch(32).unbatch().shuffle(100).batch(32)
"""
    assert codes(src, "PP204") == []


# ---------------------------------------------------------------- PP301 predict one sample in a loop


_PREDICT_HELPER_BATCH_AXIS = """
import numpy as np
from imageio import imread
from tensorflow.keras.models import load_model


def preprocess_image(image, size):
    image = np.resize(image, size)
    image = image.astype("float32") / 255.0
    image = np.expand_dims(image, axis=0)
    return image


def perturbed_image(eps, record):
    image = imread("./adv/{}/{}".format(eps, record["file"]))
    image = preprocess_image(image, (64, 64, 3))
    return image, record["race_id"]


def count_predictions(model, records, test_idx):
    race = [0, 0, 0, 0]
    for idx in test_idx:
        image, label = perturbed_image(0.2, records[idx])
        out = model.predict(image)
        race[np.argmax(out[0])] += 1
    return race


if __name__ == "__main__":
    model = load_model("model.h5")
    print(count_predictions(model, [], range(1000)))
"""


def test_pp301_batch_axis_added_by_helpers():
    """tf-fix32, reading 24: the loop predicts what `perturbed_image` returns, whose batch axis
    `preprocess_image` adds one call further down (`np.expand_dims(image, axis=0)`): one sample per
    iteration, as if the loop added the axis itself. A helper that returns a stacked batch is not one."""
    assert sure(_PREDICT_HELPER_BATCH_AXIS, "PP301") == [(24, "high")]
    batched = _PREDICT_HELPER_BATCH_AXIS.replace(
        "image = np.expand_dims(image, axis=0)", "image = np.stack([image, image[:, ::-1]])"
    )
    assert batched != _PREDICT_HELPER_BATCH_AXIS
    assert sure(batched, "PP301") == []


_SESSION_PER_PATCH = """
import os

import cv2
import numpy as np
import tensorflow as tf


def evaluate(sess, x, prob, folder):
    votes = []
    for name in os.listdir(folder):
        positive = 0
        for fname in os.listdir(os.path.join(folder, name)):
            img = cv2.imread(os.path.join(folder, name, fname))
            img = cv2.resize(img, (224, 224)) / 255.0
            img = np.expand_dims(img, axis=0)
            p = sess.run(prob, feed_dict={x: img, "is_train:0": False})
            positive += int(p[0] >= 0.5)
        votes.append(positive)
    return votes
"""


def test_pp301_a_session_run_fed_one_sample_per_iteration():
    """tf-fix36, reading 26's patch-by-patch evaluation scripts: a TF1 `sess.run` fed one patch image (a batch
    of one) per iteration over a folder is the per-sample prediction of a Keras `predict`, at its level. Not
    when the loop trains, when the feed is a batch, or when a fed value carries the run's own output (a
    recurrent state from frame to frame)."""
    assert sure(_SESSION_PER_PATCH, "PP301") == [(17, "high")]
    trains = _SESSION_PER_PATCH.replace(
        "            positive += int(p[0] >= 0.5)\n",
        "            positive += int(p[0] >= 0.5)\n            sess.run(train_op, feed_dict={x: img})\n",
    )
    assert trains != _SESSION_PER_PATCH
    assert sure(trains, "PP301") == []
    batch = _SESSION_PER_PATCH.replace(
        "img = np.expand_dims(img, axis=0)", "img = np.stack([img, img[:, ::-1]])"
    )
    assert sure(batch, "PP301") == []
    recurrent = _SESSION_PER_PATCH.replace("positive = 0", "state = np.zeros((1, 64))").replace(
        'p = sess.run(prob, feed_dict={x: img, "is_train:0": False})',
        "p, state = sess.run([prob, out_state], feed_dict={x: img, in_state: state})",
    )
    assert recurrent != _SESSION_PER_PATCH
    assert sure(recurrent, "PP301") == []


def test_pp301_nested_loops_that_all_break_predict_once():
    """tf-fix36: uptownfunkmars' heat-map script breaks out of both its loops after the first patch, so its
    predict runs once in all; a single loop ending in `break` was already silent, nested ones were not."""
    src = """
import os

import numpy as np
from tensorflow.keras.models import load_model


def heat_map(folder):
    model = load_model("resnet.h5")
    for name in os.listdir(folder):
        for fname in os.listdir(os.path.join(folder, name)):
            img = np.load(os.path.join(folder, name, fname))
            p = model.predict(np.expand_dims(img, axis=0))
            print(p)
            break
        break
"""
    assert sure(src, "PP301") == []
    assert sure(src.replace("            break\n", ""), "PP301") == [(13, "high")]


def test_pp301_command_line_images_and_an_alternative_main_does_not_run_are_low():
    # reading 20: a CLI over the images typed on its command line, and a per-tile predict_single beside
    # the batched predict_batch that the entry point runs; both read debatable at high (tf-fix24: medium),
    # 0 right of 3 first reads with the project's uncalled defs over readings 15-24 (tf-fix33: low)
    cli = """
import argparse
import numpy as np
import tensorflow as tf

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("images", nargs="+")
    args = parser.parse_args()
    model = tf.keras.models.load_model("m.keras")
    for path in args.images:
        img = tf.keras.utils.img_to_array(tf.keras.utils.load_img(path))
        print(model.predict(np.expand_dims(img, axis=0)))

if __name__ == "__main__":
    main()
"""
    assert sure(cli, "PP301") == [(13, "low")]
    folder = cli.replace('parser.add_argument("images", nargs="+")', 'parser.add_argument("folder")')
    folder = folder.replace("for path in args.images:", "for path in os.listdir(args.folder):")
    assert sure("import os\n" + folder, "PP301") == [(14, "high")]
    tiles = """
import os
import cv2
import numpy as np
from tensorflow.keras.models import load_model

def predict_single(input_path, model):
    for image in os.listdir(input_path):
        img = cv2.imread(os.path.join(input_path, image))
        pr = model.predict(np.expand_dims(img, axis=0))[0]

def predict_batch(batches, model):
    for x in batches:
        out = model.predict(x)

if __name__ == "__main__":
    model = load_model("w.h5")
    predict_batch(make_batches("tiles"), model)
"""
    assert sure(tiles, "PP301") == [(10, "low")]
    called = tiles.replace("predict_batch(make_batches", 'predict_single("tiles", model)\n    (make_batches')
    assert sure(called, "PP301") == [(10, "high")]


@pytest.mark.parametrize(
    "arg",
    [
        "np.expand_dims(img, axis=0)",
        "img[None]",
        "img[np.newaxis, ...]",
        "np.array([img])",
        "img.reshape(1, 224, 224, 3)",
        "img.reshape((1, 224, 224, 3))",
        "tf.expand_dims(img, 0)",
    ],
)
def test_pp301_one_sample_shapes(arg):
    src = f"""
import numpy as np
import tensorflow as tf
from tensorflow.keras.models import load_model
classifier = load_model("m.h5")
for img in images:
    out = classifier.predict({arg})
"""
    assert codes(src, "PP301") == [("PP301", 7)]


def test_pp301_slice_variable_and_comprehension():
    src = """
import numpy as np
from keras.models import Sequential
model = Sequential()
for i in range(len(x)):
    batch = x[i:i + 1]
    y = model.predict(batch)
preds = [model.predict(np.expand_dims(v, 0)) for v in x]
"""
    assert codes(src, "PP301") == [("PP301", 7), ("PP301", 8)]


def test_pp301_near_misses():
    src = """
import numpy as np
import tensorflow as tf
from sklearn.linear_model import LogisticRegression
clf = LogisticRegression()
model = tf.keras.models.load_model("m.h5")
for row in rows:
    clf.predict(row.reshape(1, -1))                  # scikit-learn
while True:
    frame = camera.read()
    model.predict(frame[None])                       # serving loop: one frame at a time
for chunk in chunks:
    model.predict(chunk)                             # already a batch
preds = model.predict(np.stack(images))
"""
    assert codes(src, "PP301") == []


# ---------------------------------------------------------------- PP302 model rebuilt in a loop


def test_pp302_search_with_helper_not_kfold():
    src = """
from sklearn.model_selection import KFold
from tensorflow import keras

def create_model(units):
    model = keras.Sequential([keras.layers.Dense(units)])
    model.compile("adam", "mse")
    return model

for units in grid:
    model = create_model(units)
    model.fit(x, y)
for train_idx, val_idx in KFold(5).split(x):   # five folds: the growth does not matter
    model = create_model(8)
    model.fit(x[train_idx], y[train_idx])
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP302"] == [(11, "low")]
    assert "keras.backend.clear_session()" in findings[0].message and "tf.keras" not in findings[0].message


def test_pp302_near_misses():
    src = """
import tensorflow as tf
from tensorflow import keras

for fold in range(5):
    keras.backend.clear_session()
    model = keras.models.Sequential()
    model.fit(x, y)

ensemble = []
for seed in range(3):
    member = keras.models.load_model(f"m{seed}.h5")
    member.evaluate(x, y)
    ensemble.append(member)

for path in paths:
    model = keras.models.load_model(path)       # loads but neither trains nor predicts here
    model.save(path + ".keras")
"""
    assert codes(src, "PP302") == []


# ---------------------------------------------------------------- PP401 / PP402 tf.function


def test_pp401_created_in_loop():
    src = """
import tensorflow as tf

def make_step(model):
    @tf.function
    def step(x):
        return model(x)
    return step

for x in dataset:
    fast = tf.function(train_step)
    fast(x)
    make_step(model)(x)
    @tf.function
    def inner(v):
        return v
"""
    assert codes(src, "PP401") == [("PP401", 11), ("PP401", 13), ("PP401", 15)]


def test_pp401_a_tf_function_made_every_batch_stays_low():
    """A @tf.function def or a tf.function(...) call right in the body of a loop over a tf.data pipeline
    (Morizeyao's GPT-2 step) is reported at `low` like the rule's other shapes: tf-fix40 made it `high` on
    2 first reads in one repository, under the 20 first-read findings in 5 repositories a move asks
    (tf-fix41). Under an `if` of that loop, or in a loop over settings, it is `low` too."""
    src = """
import tensorflow as tf

def train(model, optimizer, files, log_every):
    train_dataset = tf.data.TFRecordDataset(files).batch(32)
    for epoch in range(10):
        for i, batch in enumerate(iter(train_dataset)):
            @tf.function
            def get_loss(x):
                return model(x)
            loss = get_loss(batch)
            step = tf.function(model.call)
            step(batch)
            if i % log_every == 0:
                export = tf.function(model.call)
                export(batch)
"""
    assert sure(src, "PP401") == [(9, "low"), (12, "low"), (15, "low")]
    settings = """
import tensorflow as tf

def sweep(models, x):
    for model in models_list:
        @tf.function
        def run(v):
            return v * 2
        run(x)
"""
    assert sure(settings, "PP401") == [(7, "low")]


def test_pp401_near_miss():
    src = """
import tensorflow as tf
fast = tf.function(train_step)
def make_step(model):
    @tf.function
    def step(x):
        return model(x)
    return step
step = make_step(model)
for x in dataset:
    fast(x)
    step(x)
"""
    assert codes(src, "PP401") == []


def test_pp402_python_counter():
    src = """
import tensorflow as tf

@tf.function
def train_step(x, y, step):
    return x

@tf.function(input_signature=[tf.TensorSpec([], tf.int64)])
def fixed(step):
    return step

for epoch in range(10):
    n = 0
    for x, y in dataset:
        train_step(x, y, epoch)
        train_step(x, y, step=n)
        fixed(epoch)
        train_step(x, y, tf.constant(epoch))
        n += 1
"""
    assert codes(src, "PP402") == [("PP402", 15), ("PP402", 16)]


def test_pp402_a_few_literal_iterations_show_retracing_on_purpose():
    """Reading 13: a notebook calls `square(i)` for `i in range(5)` to show that each Python int traces
    again (wrong at medium): five traces at most, low. Over `range(150)` epochs it keeps its level."""
    src = """
import tensorflow as tf

@tf.function
def square(x):
    print("Tracing")
    return tf.square(x)

for i in range(5):
    square(i)
"""
    assert sure(src, "PP402") == [(10, "low")]
    assert sure(src.replace("range(5)", "range(150)"), "PP402") == [(10, "medium")]


# ---------------------------------------------------------------- PP403 .numpy() per training step


def test_pp403_numpy_every_step():
    src = """
import tensorflow as tf
for epoch in range(3):
    history = []
    for step, (x, y) in enumerate(dataset):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        history.append(loss.numpy())
        if step % 100 == 0:
            print(loss.numpy())
    print(sum(history), loss.numpy())
"""
    assert codes(src, "PP403") == [("PP403", 10)]


def test_pp403_near_miss_no_training_step():
    src = """
import tensorflow as tf
for x in dataset:
    print(model(x).numpy())
"""
    assert codes(src, "PP403") == []


# ---------------------------------------------------------------- registry


def test_every_rule_is_documented_and_maps_to_a_codebook_code():
    import yaml

    with open("data/codebook.yaml", encoding="utf-8") as handle:
        book = yaml.safe_load(handle)
    root_causes = {c["code"] for cat in book["root_cause"] for c in cat.get("codes", [])}
    rules = all_rules()
    assert len(rules) >= 8
    for rule in rules.values():
        assert rule.root_cause in root_causes, rule.code
        # the false-alarm risk is the confidence turned around: a rule right 90% of the time risks little
        assert (rule.confidence, rule.risk) in {("high", "low"), ("medium", "medium"), ("low", "high")}
        for part in (rule.summary, rule.why, rule.example, rule.instead, rule.false_alarms):
            assert part.strip(), rule.code


def test_checker_is_pure():
    """checker imports nothing of ppminer (mining, labeling) and no database library."""
    import ast
    from pathlib import Path

    for path in Path("checker").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in ("mining", "labeling", "sqlalchemy", "alembic"), (path, name)


def test_pp301_feedback_loops_are_not_batchable():
    src = """
import numpy as np
from tensorflow import keras
model = keras.models.load_model("gpt.keras")
for i in range(start, end):                        # autoregressive decoding
    prediction = model.predict(np.array([tokens]))
    tokens[i] = np.argmax(prediction[0, i - 1])
obs = env.reset()
for step in range(200):                            # an agent: the next input is the env's answer
    proba = model.predict(obs.reshape(1, -1))
    obs, reward, done, info = env.step(proba)
for xi in grid:                                     # rebuilt from the loop variable only: batchable
    z = np.array([[xi, 0.5]])
    model.predict(z)
"""
    assert codes(src, "PP301") == [("PP301", 14)]


def test_pp301_an_input_rebuilt_each_iteration_is_not_feedback():
    """tf-fixmine's yolov4 benchmark: the image is read, resized and expanded anew in every iteration, so the
    rebinding of `image_data` carries nothing from one prediction to the next (reported); a history the
    loop grows, a name bound only in a branch, or a screen read from a game the loop steps after predicting
    still counts as fed back (silent); a loop that asks the user for each sample with `input()` predicts one
    at a time by design (silent, reading 14), and so does a slideshow that sleeps after each image (silent,
    reading 18)."""
    src = """
import cv2
import numpy as np
import tensorflow as tf
model = tf.keras.models.load_model("yolov4.h5")
for i in range(1000):
    original_image = cv2.imread(FLAGS.image)
    image_data = preprocess(np.copy(original_image), [416, 416])
    image_data = image_data[np.newaxis, ...].astype(np.float32)
    pred_bbox = model.predict(image_data)
history = [seed]
for step in range(100):
    window = np.array(history[-10:])
    nxt = model.predict(window[np.newaxis, ...])
    history.append(nxt[0])
frame = first_frame
for step in range(100):
    if step % 10 == 0:
        frame = camera.read()
    frame = frame[np.newaxis, ...]
    out = model.predict(frame)
env = Game()
for step in range(500):
    screen = env.get_screen()
    action = model.predict(screen[np.newaxis, ...])
    env.step(action)
for i in range(int(input("how many letters: "))):
    letter = input("letter: ")
    x = np.reshape([char_to_id[letter]], (1, 1))
    result = model.predict(x)
for _ in range(1000):
    image = random.choice(cats + dogs)
    image = np.expand_dims(image, axis=0)
    pred = model.predict(image)
    show(image)
    time.sleep(0.5)
"""
    assert codes(src, "PP301") == [("PP301", 10)]


def test_pp202_wrapper_class_keeping_its_pipeline_on_self():
    """tf-fixmine's Computer-Vision `Dataset`: a class whose methods rebind `self.core` to its own tf.data
    steps (`unbatch`, `prefetch`) forwards `map(func)` to `self.core.map(func)`, serial (reported `low`: the
    function is handed in); a class keeping a list on `self.items` and mapping it is silent."""
    src = """
import tensorflow as tf

class Dataset:
    def __init__(self):
        self.core = None

    def map(self, func):
        self.core = self.core.map(func)
        return self

    def unbatch(self):
        self.core = self.core.unbatch()
        return self

class Records:
    def __init__(self, items):
        self.items = items

    def map(self, func):
        self.items = self.items.map(func)
        return self

    def batch(self, n):
        self.items = self.items.batch(n)
        return self
"""
    assert sure(src, "PP202") == [(9, "low")]


def test_pp204_batch_as_windowing_and_cached_batches():
    src = """
import tensorflow as tf
chars = tf.data.Dataset.from_tensor_slices(text_as_int)
sequences = chars.batch(101, drop_remainder=True).map(split_input_target)
dataset = sequences.shuffle(10000).batch(64, drop_remainder=True)    # sequences shuffled, then batched
cached = tf.data.Dataset.from_tensor_slices(x).batch(256).cache().shuffle(50)
"""
    assert codes(src, "PP204") == []


def test_decorator_call_is_not_inside_the_function():
    src = """
import tensorflow as tf
@tf.function(reduce_retracing=True)
def train_step(x):
    return x
for x in dataset:
    train_step(x)
"""
    assert codes(src) == []


def test_pp202_cheap_maps_and_trivial_lambdas_are_silent():
    src = """
import tensorflow as tf

def split_input_target(chunk):
    return chunk[:-1], chunk[1:]

ds = tf.data.Dataset.from_tensor_slices(x).batch(101)
a = ds.map(split_input_target)
b = ds.map(lambda text, label: text)
c = ds.batch(4).map(lambda xb, yb: (tf.one_hot(xb, depth=50), yb))
d = tf.data.Dataset.from_tensor_slices(paths).map(lambda p: tf.io.decode_jpeg(tf.io.read_file(p)))
e = ds.map(lambda rows: tf.io.decode_csv(rows, record_defaults=[[0.0], [0.0]]))
model.fit(d)
model.fit(e)
"""
    # e runs once per batch (after `batch`): low, readers split on it (c is too cheap to report)
    assert sure(src, "PP202") == [(11, "high"), (12, "low")]


def test_pp202_cheap_tf_function_passed_directly():
    src = """
import tensorflow as tf
a = tf.data.Dataset.from_tensor_slices(x).map(tf.square)
b = tf.data.Dataset.from_tensor_slices(x).map(lambda v, y: (tf.expand_dims(v, -1), y))
c = tf.data.Dataset.from_tensor_slices(x).map(tf.io.decode_png)
model.fit(c)
"""
    assert sure(src, "PP202") == [(5, "high")]


def test_pp203_keras_loaders_prefetch_themselves():
    src = """
import tensorflow as tf
train = tf.keras.utils.image_dataset_from_directory("train", batch_size=32)
model.fit(train)
"""
    assert codes(src, "PP203") == []


def test_pp403_loop_that_needs_host_values_anyway():
    src = """
import numpy as np
import tensorflow as tf
for iteration in range(150):
    with tf.GradientTape() as tape:
        probas = model(np.array(observations))
        loss = tf.reduce_mean(loss_fn(targets, probas))
    print(loss.numpy())
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    actions = (np.random.rand(8, 1) > probas.numpy()).astype(np.int32)
"""
    assert codes(src, "PP403") == []


def test_pp202_functions_defined_elsewhere_are_reported():
    src = """
import tensorflow as tf
from mylib import data_reader

class Problem:
    def dataset(self, files):
        def _parse(record):
            return tf.io.parse_single_example(record, self.spec)
        ds = tf.data.TFRecordDataset(files)
        ds = ds.map(self.decode_example)
        ds = ds.map(data_reader.cast_ints_to_int32)
        return ds.map(_parse)
"""
    # returned, never seen training, all `low` since tf-calibrate15: a cost seen only in a name (line 10),
    # a cast (11), a record parse with no image or file work (12)
    assert sure(src, "PP202") == [(10, "low"), (11, "low"), (12, "low")]


def test_pp201_parse_single_example_and_methods_before_batch():
    src = """
import tensorflow as tf

class Reader:
    def _parse_example_batch(self, record):
        spec = {"x": tf.io.FixedLenFeature([28], tf.float32), "y": tf.io.FixedLenFeature([], tf.int64)}
        parsed = tf.io.parse_single_example(record, spec)
        return parsed["x"], tf.cast(parsed["y"], tf.int32)

    def dataset(self, files):
        ds = tf.data.TFRecordDataset(files).map(self._parse_example_batch)
        return ds.batch(2048)

def decode(record):
    image = tf.io.decode_jpeg(record)
    return tf.image.resize(image, [64, 64])

jpegs = tf.data.TFRecordDataset(files).map(decode).batch(32)
def parse_record(record):
    return tf.io.parse_single_example(record, {"x": tf.io.FixedLenFeature([28], tf.float32)})

threaded = tf.data.TFRecordDataset(files).map(parse_record, num_parallel_calls=8).batch(64)
"""
    # tf-fix17: a serial parse before batch is PP202's (threads first; batching then tf.io.parse_example
    # named as the other fix); since tf-fix40 it is PP201's too, as a parse already on threads is
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    by_rule = {rule: [f for f in findings if f.rule == rule] for rule in ("PP201", "PP202")}
    assert [f.line for f in by_rule["PP201"]] == [11, 22]
    assert all("tf.io.parse_example" in f.message for f in by_rule["PP201"])
    serial = [f for f in by_rule["PP202"] if f.line == 11]
    assert (
        len(serial) == 1
        and "or batch first and parse the batch with tf.io.parse_example" in serial[0].message
    )


def test_pp203_returned_tfds_split_and_method_consumers():
    src = """
import tensorflow as tf
import tensorflow_datasets as tfds
def input_fn(files):                   # returned to the caller (an Estimator)
    ds = tf.data.TFRecordDataset(files).map(parse, num_parallel_calls=4)
    return ds.batch(32)
def make(files):                       # extended by this module, which prefetches
    return tf.data.TFRecordDataset(files).map(parse, num_parallel_calls=4)
good = make(f).batch(8).prefetch(1)
train = tfds.load("mnist")["train"].map(norm, num_parallel_calls=2).batch(32)
model.fit(train)
ds2 = tf.data.TFRecordDataset(files).map(parse, num_parallel_calls=4).batch(3)
trainer.train(ds2)
"""
    assert codes(src, "PP203") == [("PP203", 6), ("PP203", 10), ("PP203", 12)]


def test_issue_misses_writer_numpy_helper_and_variable_length_batches():
    src = """
import tensorflow as tf

@tf.function
def train_step(x, y):
    return model(x)

@tf.function(reduce_retracing=True)
def relaxed_step(x, y):
    return model(x)

def eager_step(model, x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x))
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss.numpy()

ds = tf.data.TFRecordDataset(f).map(parse, num_parallel_calls=4).padded_batch(32).prefetch(2)
for x, y in ds:
    train_step(x, y)
    relaxed_step(x, y)
    history.append(eager_step(model, x, y))
for i in range(30):                              # a toy loop
    with tf.GradientTape() as tape:
        loss = model(x)
    opt.apply_gradients(g)
    hist.append(loss.numpy())
for x, y in ds:
    with tf.GradientTape() as tape:
        loss = model(x)
    opt.apply_gradients(g)
    print("loss", loss.numpy())                  # printing every step is the design
for step in range(1000):
    writer = tf.summary.FileWriter("logs")
    w = tf.get_variable("w", [3], reuse=True)
    sess.run(op)
"""
    assert codes(src) == [("PP403", 16), ("PP402", 20), ("PP102", 34)]


def test_precision_cases_read_in_fresh_repositories():
    src = """
import functools
import tensorflow.compat.v1 as tf

null = tf.data.Dataset.range(1).repeat().map(get_null_input)             # a stand-in input
noise = tf.data.Dataset.from_tensors(0).repeat().map(make_noise)          # synthetic noise
shaped = tf.data.TFRecordDataset(f).map(parse, num_parallel_calls=8).batch(32)
shaped = shaped.map(functools.partial(set_shapes, 32))                   # fixes shapes only
cached = tf.data.TFRecordDataset(f).map(parse).cache().repeat()           # parsed once: medium
run_training(cached)
preview = tf.data.TFRecordDataset(f).map(parse, num_parallel_calls=4).take(10).batch(2)
model.predict(preview)                                                    # ten samples: no prefetch needed
ones = tf.data.TFRecordDataset(f).map(lambda r: tf.io.parse_single_example(r, spec)).batch(1)
run_training(ones)                                                        # handed on: used

def pad(input_tensor, input_shape):
    dims = []
    for i in range(1, len(input_shape)):                                  # one pass per dimension
        dims.append(tf.shape(input_tensor)[i])
    return dims

def evaluate(sess, metrics, op):
    for metric in metrics:
        writer = tf.summary.FileWriter(metric + "_dir")                   # a log directory per metric
        for record in tf.python_io.tf_record_iterator(metric):
            sess.run(op, feed_dict={"x:0": record})
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.rule, f.line, f.confidence) for f in findings] == [
        ("PP201", 7, "low"),  # `parse` is not in the module: its name is the only evidence
        ("PP202", 9, "low"),
        ("PP201", 11, "low"),
        ("PP202", 13, "low"),  # a record parse alone, trained or not: low since tf-calibrate15
    ]


def test_pipeline_built_in_one_branch_is_followed_past_the_if():
    src = """
import tensorflow as tf

def parse_csv(line):
    return tf.io.decode_csv([line], record_defaults=DEFAULTS)

def input_fn(kind, files):
    if kind == "csv":
        ds = tf.data.TextLineDataset(files).map(parse_csv, num_parallel_calls=8)
    else:
        ds = tf.data.TFRecordDataset(files).map(parse_record, num_parallel_calls=8)
    ds = ds.shuffle(1000)
    return ds.batch(64)
"""
    assert [(r, line) for r, line in codes(src) if r == "PP201"] == [("PP201", 9), ("PP201", 11)]


def test_pp201_reports_a_serial_parse_before_batch_besides_pp202():
    """A serial map of parse_single_example before `batch` (Morizeyao's GPT-2 reader) is PP201's as well as
    PP202's: parsing the batch is the better fix. Parsing after `batch` is clean for PP201."""
    src = """
import tensorflow as tf

def train(model, files, n_ctx):
    spec = {"ids": tf.io.FixedLenFeature([n_ctx], tf.int64)}

    def _parse_function(record):
        return tf.io.parse_single_example(record, spec)

    ds = tf.data.TFRecordDataset(files)
    ds = ds.map(_parse_function)
    ds = ds.batch(32, drop_remainder=True)
    model.fit(ds, epochs=3)
"""
    assert sure(src, "PP201") == [(11, "low")]
    assert [line for line, _ in sure(src, "PP202")] == [11]
    batched = """
import tensorflow as tf

def train(model, files, n_ctx):
    spec = {"ids": tf.io.FixedLenFeature([n_ctx], tf.int64)}
    ds = tf.data.TFRecordDataset(files).batch(32, drop_remainder=True)
    ds = ds.map(lambda records: tf.io.parse_example(records, spec))
    model.fit(ds, epochs=3)
"""
    assert sure(batched, "PP201") == []


def test_pp202_a_map_that_only_regroups_the_parsed_dict_is_silent():
    """A def that only regroups a parsed dict into `(x, y)` (reading 29's question-answering notebooks,
    read wrong 5 times) computes nothing: no PP202 on it. A def that casts an item is still reported."""
    src = """
import tensorflow as tf

def get_dataset(files, spec, is_training, batch_size):
    def decode_record(record):
        return tf.io.parse_single_example(record, spec)

    def select_data_from_record(record):
        x = {"input_ids": record["input_ids"], "input_mask": record["input_mask"]}
        if not is_training:
            x["token_map"] = record["token_map"]
        if is_training:
            y = {"start_positions": record["start_positions"]}
            return (x, y)
        return x

    dataset = tf.data.TFRecordDataset(files)
    dataset = dataset.map(decode_record)
    dataset = dataset.map(select_data_from_record)
    dataset = dataset.shuffle(100).batch(batch_size)
    return dataset

model.fit(get_dataset(files, spec, True, 32))
"""
    assert [line for line, _ in sure(src, "PP202")] == [18]
    casting = src.replace(
        '"input_ids": record["input_ids"]', '"input_ids": tf.cast(record["input_ids"], tf.int32)'
    )
    assert [line for line, _ in sure(casting, "PP202")] == [18, 19]


def test_pp201_is_low_throughout():
    src = """
import tensorflow as tf

def parse_csv(line):
    columns = tf.io.decode_csv([line], record_defaults=DEFAULTS)
    features = dict(zip(NAMES, columns))
    return features, tf.reshape(tf.cast(features.pop("y"), tf.float32), [-1])

seen = tf.data.TextLineDataset(files).map(parse_csv, num_parallel_calls=8).batch(64)
named = tf.data.TFRecordDataset(files).map(parse_record, num_parallel_calls=8).batch(64)
model.fit(seen)
model.fit(named)
held = tf.data.TextLineDataset(files).map(parse_csv).batch(64)
spread = tf.data.TextLineDataset(files).map(parse_csv, num_parallel_calls=8).batch(64)
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    # a parse seen in the code is medium, PP201's level, trained on or not (since tf-fix13: high read 12 of
    # 14 right over readings 10-13, under the default's 90%); a parser's name alone: low; a parse already on
    # several threads that is not seen training (`spread`) saves only per-call overhead: low
    got = [(f.line, f.confidence) for f in findings if f.rule == "PP201"]
    # since tf-calibrate15 the parse must also be seen training: `held` is not (low)
    # since tf-fix17 a serial parse (`held`) is PP202's: record parsing alone, low
    # since tf-fix33 the parse seen training (`seen`) is low too: 3 right of 6 first reads over readings 15-24
    # since tf-fix40 the serial parse (`held`) is PP201's as well
    assert got == [(9, "low"), (10, "low"), (13, "low"), (14, "low")]
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP202"] == [(13, "low")]


def test_medium_evidence_from_the_fresh_reading():
    src = """
import numpy as np
import tensorflow as tf
def parse(example):
    return tf.io.parse_single_example(example, SPEC)

def load(path):
    return tf.image.decode_jpeg(tf.io.read_file(path))

shown = tf.data.TFRecordDataset(files).map(parse)
for record in shown:                                       # printed, never trained on
    print(record)
toy = tf.data.Dataset.from_tensor_slices(xs).map(lambda x: scale(x), num_parallel_calls=4).batch(8)
model.fit(toy)                                             # in-memory slices: often a toy
scaled = tf.data.TFRecordDataset(files).map(lambda x: tf.cast(x, tf.float32) / 255.0).batch(32)
model.fit(scaled.prefetch(1))
rnn = tf.keras.layers.LSTM(8, stateful=True)
for i in range(len(xs)):
    model.predict(np.expand_dims(xs[i], 0))                # a stateful RNN primed one step at a time
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.rule, f.line, f.confidence) for f in findings] == [
        ("PP202", 10, "low"),  # only printed: no evidence of use at scale (4 right in 35 over readings 1-7)
        ("PP203", 13, "low"),
        ("PP201", 15, "low"),
        ("PP301", 19, "low"),
    ]
    files = """
import tensorflow as tf
def load(path):
    return tf.image.decode_jpeg(tf.io.read_file(path))
images = tf.data.Dataset.from_tensor_slices(paths).map(load, num_parallel_calls=4).batch(8)
model.fit(images)                                          # slices of paths whose map reads files
"""
    findings, _ = check_source(textwrap.dedent(files), "t.py")
    # trained on, and its map decodes what it reads: PP203's trained class (tf-calibrate19; `high` since tf-fix43)
    assert [(f.rule, f.line, f.confidence) for f in findings] == [("PP203", 5, "high")]


def test_pp401_once_per_def_and_not_for_what_the_iteration_built():
    src = """
import tensorflow as tf
for aug in [AutoContrast, OldAutoContrast]:
    layer = aug(value_range=(0, 255))

    @tf.function()
    def apply_aug(inputs):                      # runs this iteration's layer: a trace each is needed
        return layer(inputs)
    apply_aug(images)
for epoch in range(10):
    @tf.function(jit_compile=True)
    def step(x):                                # the same function every epoch
        return model(x)
    step(images)
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.rule, f.line) for f in findings] == [("PP401", 12)]


def test_pp301_loop_cut_short_or_over_a_built_short_list():
    """Reading 14: a folder loop its author ended with `break` (one predict), and four sample files listed by
    a comprehension over `range(1, 5)`; a folder loop without `break`, and one inside an outer loop, stay."""
    src = """
import os
import numpy as np
import tensorflow as tf
model = tf.keras.models.load_model("m")
for image in os.listdir(folder):
    x = tf.expand_dims(load(image), 0)
    predictions = model.predict(x)
    df = df.append({"name": image, "score": predictions[0]})
    break
sample_images = ["image-{}.jpg".format(i) for i in range(1, 5)]
for fn in sample_images:
    x = np.expand_dims(load(fn), axis=0)
    print(model.predict(x))
for image in os.listdir(folder):
    x = tf.expand_dims(load(image), 0)
    print(model.predict(x))
for sub in folders:
    for image in os.listdir(sub):
        print(model.predict(tf.expand_dims(load(image), 0)))
        break
all_images = ["image-{}.jpg".format(i) for i in range(1, 500)]
for fn in all_images:
    print(model.predict(np.expand_dims(load(fn), axis=0)))
"""
    assert sure(src, "PP301") == [(14, "low"), (17, "high"), (20, "high"), (24, "high")]


def test_pp301_list_grown_by_append_is_not_a_short_list():
    """Reading 15: every image a test folder's glob lists, gathered into `[]` by append and predicted one at
    a time, is the per-sample loop (`high`); a literal list of three files, never grown, stays a demo."""
    src = """
import glob
import numpy as np
from keras.preprocessing import image
from keras.models import load_model
cnn_model = load_model("model.h5")
test_dog_images = []
for dog_file in glob.glob(DATA_DIR + "/dogs/dog*.jpg"):
    test_dog_images.append(image.img_to_array(image.load_img(dog_file)))
for dog_image in test_dog_images:
    prediction = cnn_model.predict(np.array([dog_image]), batch_size=1)
    print(prediction[0])
samples = ["cat.jpg", "dog.jpg", "fox.jpg"]
for sample in samples:
    print(cnn_model.predict(np.array([image.img_to_array(image.load_img(sample))])))
extra = ["cat.jpg"]
extra += glob.glob(DATA_DIR + "/*.jpg")
for sample in extra:
    print(cnn_model.predict(np.array([image.img_to_array(image.load_img(sample))])))
"""
    assert sure(src, "PP301") == [(11, "high"), (15, "low"), (19, "high")]


def test_pp301_dqn_replay_predicting_each_transition():
    """Reading 15: a DQN agent's replay predicts each stored transition of the minibatch (the states were
    stored as (1, n) batches, so nothing shows the batch of one): `medium`. A loop over a few batches drawn
    by random.sample, or over transitions predicted through a stacked array, stays silent."""
    src = """
import random
import numpy as np
from tensorflow.keras.models import Sequential

class DQN:
    def replay(self, batch_size):
        x_batch, y_batch = [], []
        minibatch = random.sample(self.memory, min(len(self.memory), batch_size))
        for state, action, reward, next_state, done in minibatch:
            y_target = self.model.predict(state)
            y_target[0][action] = reward + self.gamma * np.max(self.model.predict(next_state)[0])
            x_batch.append(state[0])
            y_batch.append(y_target[0])
        self.model.fit(np.array(x_batch), np.array(y_batch))

    def check(self, batches):
        for batch in random.sample(batches, 3):
            print(self.model.predict(batch))

    def replay_batched(self, batch_size):
        minibatch = random.sample(self.memory, batch_size)
        states = np.vstack([state for state, action, reward, next_state, done in minibatch])
        return self.model.predict(states)
"""
    assert sure(src, "PP301") == [(11, "medium"), (12, "medium")]


def test_pp301_replay_by_drawn_index():
    """Reading 17: DQN replays drawing indices with np.random.choice / np.random.randint and unpacking the
    stored transition `memory[i]` (or `memory[idx][0]`) predict each one: `medium`, as the random.sample
    form. A loop over drawn indices predicting a stored batch, or unpacking only a pair, stays silent."""
    src = """
import numpy as np
from keras.models import Sequential

class Agent:
    def replay(self, batch_size):
        batches = min(batch_size, len(self.memory))
        batches = np.random.choice(len(self.memory), batches)
        for i in batches:
            state, action, reward, next_state, done = self.memory[i]
            target_f = self.model.predict(state)
            self.model.fit(state, target_f, epochs=1, verbose=0)

    def get_batch(self, model, target_model, batch_size):
        n = len(self.memory)
        for i, idx in enumerate(np.random.randint(0, n, size=min(n, batch_size))):
            current_state, action, reward, next_state = self.memory[idx][0]
            q = target_model.predict(next_state)[0]

    def check(self, n):
        for i in np.random.choice(len(self.batches), n):
            print(self.model.predict(self.batches[i]))
        for i in np.random.randint(0, n, size=8):
            x, y = self.pairs[i]
            print(self.model.predict(x))
"""
    assert sure(src, "PP301") == [(11, "medium"), (18, "medium")]


def test_pp301_one_sample_scaled_after_reshape():
    """Reading 17: `x = img.reshape(1, -1) / 255.0` keeps the batch of one, as `x = x.reshape(1, -1)` after
    the scaling does, and so does a cast (`x[np.newaxis, ...].astype(np.float32)`, the shape of a line the
    yolov4 maintainers fixed); a full batch scaled or cast stays silent."""
    src = """
import numpy as np
from tensorflow import keras

model = keras.models.load_model("m.h5")
for img in images:
    x = img.reshape(1, -1) / 255.0
    print(model.predict(x))
for batch in batches:
    x = batch.reshape(-1, 784) / 255.0
    print(model.predict(x))
for path in paths:
    image_data = preprocess(cv2.imread(path))
    image_data = image_data[np.newaxis, ...].astype(np.float32)
    pred_bbox = model.predict(image_data)
for batch in batches:
    print(model.predict(batch.astype(np.float32)))
"""
    assert codes(src, "PP301") == [("PP301", 8), ("PP301", 15)]


def test_pp301_one_sample_stacked_list_and_input_lists():
    """Reading 19: an evaluation loop that starts a list, appends the one image it loads, stacks and scales
    it (XiaoyuHuang96's COCO evaluation) predicts a batch of one; so does a model with several inputs fed a
    list of inputs each made a batch of one (a DDPG critic's `predict([s, a])`, a YOLO model's `[image,
    size]`). A list filled by an inner loop, appended twice, or an input list with a full batch in it
    stays silent."""
    src = """
import numpy as np
from tensorflow import keras

model = keras.models.load_model("m.h5")
for path in paths:
    imgs = []
    imgs.append(load(path))
    imgs = np.array(imgs, dtype=np.float32)
    imgs = imgs * (2.0 / 255.0) - 1.0
    print(model.predict(imgs))
for state, action, reward in minibatch:
    s, a = np.reshape(state, (1, len(state))), np.reshape(action, (1, len(action)))
    print(model.predict([s, a]))
for path in paths:
    image_data = np.expand_dims(letterbox(load(path)), 0)
    print(model.predict([image_data, np.array([[416, 416]])]))
for chunk in chunks:
    imgs = []
    for path in chunk:
        imgs.append(load(path))
    imgs = np.array(imgs)
    print(model.predict(imgs))
for path in paths:
    imgs = []
    imgs.append(load(path))
    imgs.append(flip(load(path)))
    print(model.predict(np.array(imgs)))
for states, action in batches:
    a = np.reshape(action, (1, -1))
    print(model.predict([states, a]))
"""
    assert sure(src, "PP301") == [(11, "high"), (14, "high"), (17, "high")]


def test_few_literal_iterations_lower_pp301_and_pp401():
    src = """
import numpy as np
import tensorflow as tf

for i in range(10):
    model.predict(np.array([x_test[i]]))                       # a 10-sample demo: medium
for x in x_test:
    model.predict(np.array([x]))                               # every sample: high
for i, n in enumerate((10, 250)):
    states = tf.function(run)(n)                               # one run per setting: medium
for batch in batches:
    states = tf.function(run)(batch)                           # every batch: medium (the rule's level)
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.rule, f.line, f.confidence) for f in findings] == [
        ("PP301", 6, "low"),
        ("PP301", 8, "high"),
        ("PP401", 10, "low"),
        ("PP401", 12, "low"),
    ]


def test_pp401_is_medium_on_a_model_built_per_weights_file():
    """Readings 1-6 read 2 of 38 `high` PP401 right: an export per weights file (IntelAI/models) builds its
    own model and function each time, which no shape tells from a retraced step."""
    src = """
import tensorflow as tf

def export(weights_files):
    for path in weights_files:
        model = build_model()
        model.load_weights(path)
        serve = tf.function(lambda x: model(x, training=False))
        tf.saved_model.save(model, path + ".sm", signatures=serve.get_concrete_function(spec))
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.rule, f.line, f.confidence) for f in findings] == [("PP401", 8, "low")]


def test_shapes_read_wrong_in_reading_4_are_below_high():
    """The fixtures' demo shapes stay reported, below the rule's own level: an injected preprocessing
    callable (PP202), plots of a few predictions and a short file list (PP301). (The titanic peek, PP201's,
    is `low`, the rule's level since tf-fix33.)"""
    fixtures = Path(__file__).parent / "fixtures" / "ppcheck"
    shapes = {
        "PP202": ["dataset.map(self._preprocess_fn)"],
        "PP301": ["model.predict(tf.reshape(img", "print(model.predict(img))"],
    }
    for code, words in shapes.items():
        text = (fixtures / f"{code}.py").read_text(encoding="utf-8")
        lines = [n for n, line in enumerate(text.splitlines(), 1) if any(w in line for w in words)]
        findings, _ = check_source(text, f"{code}.py")
        top = all_rules()[code].confidence
        below = {f.line for f in findings if f.rule == code and f.confidence not in ("high", top)}
        assert lines and set(lines) <= below, code
        assert any(f.confidence == top for f in findings if f.rule == code), code  # the rest keeps its level


def test_pp202_is_medium_on_an_in_memory_evaluation_set():
    """Reading 6 read UNet_Medical's validation and test maps over arrays held in memory debatable (a few
    dozen images once per evaluation); a training map stays `high`."""
    src = """
import tensorflow as tf

class Dataset:
    def train_fn(self):
        dataset = tf.data.Dataset.from_tensor_slices((self._train_images, self._train_masks))
        dataset = dataset.map(self._preproc_samples)
        return dataset.batch(8).prefetch(8)

    def eval_fn(self, count=1):
        dataset = tf.data.Dataset.from_tensor_slices((self._val_images, self._val_masks))
        dataset = dataset.repeat(count=count)
        dataset = dataset.map(self._preproc_eval_samples)
        return dataset.batch(8).prefetch(8)

    def test_fn(self, files):
        dataset = tf.data.Dataset.from_tensor_slices(files)
        dataset = dataset.map(self._load)
        return dataset.batch(8).prefetch(8)

    def _preproc_samples(self, inputs, labels):
        inputs = tf.image.random_flip_left_right(inputs)
        return tf.image.resize(inputs, (388, 388)), labels

    def _preproc_eval_samples(self, inputs, labels):
        inputs = tf.image.central_crop(inputs, 0.5)
        return tf.image.resize(inputs, (388, 388)), labels

    def _load(self, path):
        return tf.image.resize(tf.io.decode_png(tf.io.read_file(path)), (388, 388))
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    got = [(f.line, f.confidence) for f in findings if f.rule == "PP202"]
    # the training map (returned by `train_fn`, named for training) is high; the evaluation map low; the
    # test map, returned and never seen training or validating, low since tf-cal28 (costly maps read at
    # scale but neither trained nor validated: about 18 right in 38 over readings 15-21)
    assert got == [(7, "high"), (13, "low"), (18, "low")]


def test_pp202_is_high_on_a_pipeline_seen_training():
    """A serial map whose own code decodes or resizes images, on a pipeline seen training in its module (fit's
    data, a training loop's iterable): `high`, the default output, since tf-calibrate20 (first read over
    readings 13-18 right 48 times in 52, no reading under 83%); so on the validation data of a training
    call since tf-cal28 (read every epoch: 22 of 22 right over readings 15-21). The same map on a pipeline
    handed on and neither trained nor validated here is `low` since tf-cal28 (about 18 right in 38)."""
    src = """
import tensorflow as tf

def load(path, label):
    image = tf.io.decode_jpeg(tf.io.read_file(path), channels=3)
    return tf.image.resize(image, [224, 224]) / 255.0, label

train = tf.data.Dataset.from_tensor_slices((paths, labels)).shuffle(1000).map(load).batch(32)
val = tf.data.Dataset.from_tensor_slices((val_paths, val_labels)).map(load).batch(32)
model.fit(train, epochs=10, validation_data=val)
"""
    assert sure(src, "PP202") == [(8, "high"), (9, "high")]
    looped = src.replace(
        "model.fit(train, epochs=10, validation_data=val)",
        "for images, labels in train:\n    train_step(images, labels)\nsave(val)",
    )
    assert sure(looped, "PP202") == [(8, "high"), (9, "low")]


def test_pp202_is_high_on_validation_data_in_a_real_script(tmp_path):
    """tf-cal28, a transfer-learning script: the serial decode map of the pipeline `fit` validates on every
    epoch is `high` beside the training one (22 of 22 right as first read over readings 15-21, `medium`
    before); the test split scored once is `low`. The same script with threaded maps has no PP202."""
    fixtures = Path(__file__).parent / "fixtures" / "ppcheck" / "levels"
    for name in ("flowers", "flowers_ok"):
        shutil.copytree(fixtures / name, tmp_path / name)  # files under tests/ get no findings
    found, _, _ = check_paths([str(tmp_path / "flowers")])
    assert [(f.line, f.confidence) for f in found if f.rule == "PP202"] == [
        (22, "high"),
        (23, "high"),
        (24, "low"),
    ]
    clean, _, _ = check_paths([str(tmp_path / "flowers_ok")])
    assert clean == []


def test_pp202_is_medium_only_on_pipelines_read_at_scale():
    """Reading 7 read 11 of 13 wrong `high` PP202 in notebook demos: a pipeline built and never read, one fed
    to a few plotted examples, a toy range and a two-line CSV the notebook writes. The fixtures keep those
    `low` (or silent: the plotted take); a pipeline trained on in a later cell stays `medium` (`high` until
    tf-calibrate14)."""
    text = (Path(__file__).parent / "fixtures" / "ppcheck" / "PP202.py").read_text(encoding="utf-8")
    lines = text.splitlines()
    findings, _ = check_source(text, "PP202.py")
    level = {f.line: f.confidence for f in findings if f.rule == "PP202"}

    def at(words: str) -> str:
        return level[next(n for n, line in enumerate(lines, 1) if words in line)]

    assert at("housing = ") == "low"  # never read
    assert at("toy = toy.interleave") == "low"  # ten literal numbers
    assert at("demo = tf.data.TextLineDataset") == "low"  # a file the module writes
    assert at("reviews = ") == "high"  # fit in a later statement (cell)
    assert at("lines = files.flat_map") == "low"  # an interleave: low since tf-calibrate15 (2 of 6 right)
    # returned by `train_input`, its name says training, but its code is elsewhere: low since tf-calibrate15
    assert at("ds.map(img_augmentation)") == "low"
    assert at("ds.map(concat_inputs_targets)") == "low"  # its code is here: nothing costly


def test_pp202_evidence_of_use():
    """Handed to a method, stored on the object, returned in a tuple, read through `next` in a loop, or
    listed in a comprehension: `high` when a call or a name says training, else `low` since tf-cal28 (a
    costly map neither trained nor validated: about 18 right in 38 over readings 15-21); only printed or
    `next`-ed once: `low`."""
    src = """
import tensorflow as tf

a = tf.data.TFRecordDataset(f).map(tf.io.decode_jpeg)
trainer.train_on(a)
b = tf.data.TFRecordDataset(f).map(tf.io.decode_jpeg)
print(b)
c = tf.data.TFRecordDataset(f).map(tf.io.decode_jpeg)
it = iter(c)
for step in range(1000):
    run_step(next(it))
d = tf.data.TFRecordDataset(f).map(tf.io.decode_jpeg)
first = next(iter(d))

def make(files):
    train = tf.data.TFRecordDataset(files).map(tf.io.decode_jpeg)
    valid = tf.data.TFRecordDataset(files).map(tf.io.decode_jpeg)
    return train, valid

class Input:
    def __init__(self, files):
        self.ds = tf.data.TFRecordDataset(files).map(tf.io.decode_jpeg)

rows = [to_python(r) for r in tf.data.TFRecordDataset(f).map(tf.io.decode_jpeg)]
"""
    assert sure(src, "PP202") == [
        (4, "high"),  # handed to a call named for training
        (6, "low"),
        (8, "low"),  # read at scale, but no training step is seen
        (12, "low"),
        (16, "high"),  # named `train`
        (17, "low"),
        (22, "low"),
        (24, "low"),
    ]


def test_pp202_a_pipeline_read_once_or_element_by_element_is_low():
    """Reading 10 read 11 of 11 such maps debatable or wrong: a test split scored by one `evaluate` after
    training, and TF1 pipelines walked one element per `sess.run` (no batch, or `batch(1)`). Validation data
    (read at every epoch), an evaluation inside a loop, and a batched training stream keep their level."""
    src = """
import tensorflow as tf

def load(path):
    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), (224, 224))

train_ds = tf.data.Dataset.from_tensor_slices(train_files).map(load).batch(32)
val_ds = tf.data.Dataset.from_tensor_slices(val_files).map(load).batch(32)
test_ds = tf.data.Dataset.from_tensor_slices(test_files).map(load).batch(32)
model.fit(train_ds, epochs=50, validation_data=val_ds)
model.evaluate(test_ds)

def score_each(models, files):
    ds = tf.data.Dataset.from_tensor_slices(files).map(load).batch(32)
    for m in models:
        m.evaluate(ds)

def scan(files):
    ds = tf.data.Dataset.from_tensor_slices(files).map(load).batch(1)
    it = ds.make_one_shot_iterator()
    image = it.get_next()
    with tf.Session() as sess:
        for f in files:
            sess.run(image)

def walk(files):
    ds = tf.data.TFRecordDataset(files).map(load)
    it = ds.make_initializable_iterator()
    image = it.get_next()

def graph_training(files):
    ds = tf.data.TFRecordDataset(files).map(load)
    ds = ds.apply(tf.contrib.data.batch_and_drop_remainder(32))
    it = ds.make_one_shot_iterator()
    image = it.get_next()
"""
    assert sure(src, "PP202") == [
        (7, "high"),  # trained on
        (8, "high"),  # validation data: read at every epoch (tf-cal28)
        (9, "low"),  # one evaluate after training
        (14, "low"),  # one pass per model: read at scale, neither trained nor validated (tf-cal28)
        (19, "low"),  # batch(1), a session run per element
        (27, "low"),  # never batched: one element per run
        (32, "low"),  # batched by a transformation `apply` names; not seen training (tf-cal28)
    ]


def test_pp202_merged_pipelines_are_read_as_the_merge_is_read():
    """`Dataset.zip(a, b)` reads its parts as the zip is read: parts of a mosaic drawn once with
    `take(1)` are a peek (reading 10 read 4 of 4 such maps wrong), parts of a zip that is fitted are trained
    on. A map whose pipeline is fitted stays reported when a loop also shows a few of its elements."""
    src = """
import tensorflow as tf
import tensorflow_datasets as tfds

def load(name, split, position):
    ds = tfds.load(name, split=split)
    ds = ds.map(resize_layer)
    return ds.batch(16)

tl = load("voc", split="train", position="top_left")
br = load("voc", split="train", position="bottom_right")
for x in tf.data.Dataset.zip(tl, br).map(mosaic).take(1):
    save_gif(x)

def read(path):
    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), (224, 224))

images = tf.data.Dataset.from_tensor_slices(paths).map(read)
labels = tf.data.Dataset.from_tensor_slices(targets)
pairs = tf.data.Dataset.zip((images, labels)).batch(32)
model.fit(pairs, epochs=10)

shown = tf.data.Dataset.from_tensor_slices(paths).map(read).batch(32)
for batch in shown.take(1):
    plot(batch)
model.fit(shown, epochs=10)
"""
    assert sure(src, "PP202") == [(18, "high"), (23, "high")]


def test_pp202_one_pass_readers_and_cheap_flips():
    """A TF1 one-shot iterator over an evaluation pipeline that does not repeat reads it once (reading 10:
    debatable 5/5), as does `evaluate(x=test_ds)`; a repeated one is read again and again. A map that only
    flips or converts the dtype is too cheap for threads."""
    src = """
import tensorflow as tf

def parse(record):
    return tf.image.resize(tf.io.decode_jpeg(record), (224, 224))

def eval(files):
    ds = tf.data.TFRecordDataset(files).map(parse).batch(64)
    x, y = ds.make_one_shot_iterator().get_next()

def evaluate_forever(files):
    ds = tf.data.TFRecordDataset(files).map(parse).batch(64).repeat()
    x, y = ds.make_one_shot_iterator().get_next()

def score(model, files):
    test_ds = tf.data.TFRecordDataset(files).map(parse).batch(64)
    print(model.evaluate(x=test_ds))

flipped = tf.data.Dataset.from_tensor_slices((images, labels)).map(
    lambda x, y: (tf.image.random_flip_left_right(x), y)
)
model.fit(flipped.batch(32), epochs=10)
"""
    # the repeated evaluation is read at scale but neither trained nor validated: low since tf-cal28
    assert sure(src, "PP202") == [(8, "low"), (12, "low"), (16, "low")]


def test_pp202_a_progress_bar_around_a_pipeline_is_iterating_it():
    """`for x in tqdm(ds)` iterates the pipeline as `for x in ds` does: a training step in the loop makes it
    training data; a loop that only writes each record out (a one-off conversion, read wrong in reading 10)
    only looks at it."""
    src = """
import tensorflow as tf
from tqdm import tqdm

def load(path):
    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), (224, 224))

ds = tf.data.Dataset.from_tensor_slices(files).map(load).batch(32)
for x, y in tqdm(ds):
    train_step(x, y)
dump = tf.data.TFRecordDataset(files).map(load)
for record in tqdm(dump):
    out.write(record.numpy())
"""
    assert sure(src, "PP202") == [(8, "high"), (11, "low")]


def test_pp202_a_serial_branch_beside_a_parallel_one_is_low():
    """A serial interleave or map in one branch of an `if` whose other branch runs it on threads was chosen
    (determinism with a seed, a fallback for an old TensorFlow, an evaluation branch): reading 10 read 4 of 4
    debatable. Without a parallel sibling the serial map keeps its level."""
    src = """
import tensorflow as tf

def load(path):
    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), (224, 224))

def records(files, seed=None):
    ds = tf.data.Dataset.from_tensor_slices(files)
    if seed is not None:
        ds = ds.interleave(tf.data.TFRecordDataset, cycle_length=4)
    else:
        ds = ds.interleave(tf.data.TFRecordDataset, cycle_length=4, num_parallel_calls=tf.data.AUTOTUNE)
    return ds

def images(files, training):
    ds = tf.data.Dataset.from_tensor_slices(files)
    if training:
        ds = ds.map(load, num_parallel_calls=8)
    else:
        ds = ds.map(load)
    return ds.batch(32)

def other(files, small):
    ds = tf.data.Dataset.from_tensor_slices(files)
    if small:
        ds = ds.map(load)
    else:
        ds = ds.shuffle(100).map(load)
    return ds.batch(32)
"""
    assert sure(src, "PP202") == [(10, "low"), (20, "low"), (26, "low"), (28, "low")]
    # without a parallel sibling the serial map keeps its level: `high` when the pipeline is fitted
    fitted = dict(sure(src + "model.fit(other(files, small=flag), epochs=10)\n", "PP202"))
    assert (fitted[10], fitted[20], fitted[28]) == ("low", "low", "high")


def test_pp202_an_interleave_of_plain_readers_feeding_a_parallel_parse_is_low():
    """A serial interleave that only opens file readers whose records a later map parses on threads keeps
    only the byte reads serial: low, trained on or not (readings 10 and 11: debatable 10 times in 12). An
    interleaved function that parses or maps inside keeps its level on a training pipeline."""
    src = """
import tensorflow as tf

def parse(record):
    return tf.io.parse_single_example(record, FEATURES)

def finetune_input(files):
    d = tf.data.Dataset.from_tensor_slices(files)
    d = d.interleave(tf.data.TFRecordDataset, cycle_length=4)
    return d.map(parse, num_parallel_calls=tf.data.AUTOTUNE).batch(32)

def serial_input(files):
    d = tf.data.Dataset.from_tensor_slices(files)
    d = d.interleave(tf.data.TFRecordDataset, cycle_length=4)
    return d.batch(32)

train_ds = tf.data.Dataset.from_tensor_slices(shards).interleave(tf.data.TFRecordDataset, cycle_length=8)
model.fit(train_ds.map(parse, num_parallel_calls=8).batch(32), epochs=90)
lines = tf.data.Dataset.list_files(csvs).interleave(lambda f: tf.data.TextLineDataset(f).skip(1), 5)
model.fit(lines.map(parse, num_parallel_calls=5).batch(32), epochs=100)
parsed = tf.data.Dataset.list_files(shards).interleave(lambda f: tf.data.TFRecordDataset(f).map(parse), 8)
model.fit(parsed.map(augment, num_parallel_calls=8).batch(32), epochs=90)
"""
    # interleaves are all low since tf-calibrate15 (read right 2 times in 6 as first read)
    assert sure(src, "PP202") == [(9, "low"), (14, "low"), (17, "low"), (19, "low"), (21, "low")]


def test_conversions_and_pipelines_nothing_reads_are_low():
    """A pipeline read only by Python loops that write each element out (a CSV-to-TFRecord conversion), or
    named for training but never read (its consumer commented out), is low for PP202 and PP201 (reading
    11: wrong 10/10 at high); the same reader fitted on keeps its level."""
    src = """
import tensorflow as tf

def parse_line(line):
    return tf.io.decode_csv(line, record_defaults=[0.0] * 9)

def reader(files, n_parse_threads=5):
    ds = tf.data.Dataset.list_files(files).repeat()
    ds = ds.map(lambda f: tf.io.decode_jpeg(tf.io.read_file(f)))
    ds = ds.map(parse_line, num_parallel_calls=n_parse_threads)
    return ds.batch(32)

def to_tfrecords(base, dataset, steps):
    with tf.io.TFRecordWriter(base) as writer:
        for x_batch, y_batch in dataset.take(steps):
            for x, y in zip(x_batch, y_batch):
                writer.write(serialize_example(x, y))

train_set = reader(train_files)
to_tfrecords("train", train_set, 100)
"""
    assert sure(src, "PP202") == [(9, "low")]
    assert sure(src, "PP201") == [(10, "low")]
    unread = src.replace('to_tfrecords("train", train_set, 100)', '# to_tfrecords("train", train_set, 100)')
    assert sure(unread, "PP202") == [(9, "low")]
    assert sure(unread, "PP201") == [(10, "low")]
    fitted = src.replace('to_tfrecords("train", train_set, 100)', "model.fit(train_set, epochs=10)")
    assert sure(fitted, "PP202") == [(9, "high")]
    assert sure(fitted, "PP201") == [(10, "low")]  # `medium` until tf-fix33: PP201 is `low` throughout


def test_pp202_a_set_read_every_n_steps_is_not_training_data():
    """`next(it)` under `if step % 100 == 0:` in a training loop reads an evaluation or a picture now and
    then: not training data (low since tf-cal28 when batched, as every costly map neither trained nor
    validated), and low when one unbatched element is drawn (reading 11 read such a visualisation set
    wrong)."""
    src = """
import tensorflow as tf

def main():
    trainset = tf.data.TFRecordDataset(train_files).map(tf.io.decode_jpeg).batch(12)
    testset = tf.data.TFRecordDataset(test_files).map(tf.io.decode_jpeg).repeat(-1).batch(12)
    visset = tf.data.TFRecordDataset(test_files).map(tf.io.decode_jpeg).repeat(-1)
    test_iter = iter(testset)
    vis_iter = iter(visset)
    for images, labels in trainset:
        with tf.GradientTape() as tape:
            loss = compute_loss(model(images), labels)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        if optimizer.iterations % 100 == 0:
            images, labels = next(test_iter)
            image, boxes = next(vis_iter)
            draw(image, model(image[None]))
"""
    assert sure(src, "PP202") == [(5, "high"), (6, "low"), (7, "low")]


def test_pp202_string_splits_and_lookups_alone_are_low():
    """A training map whose only cost is splitting lines and looking tokens up (the Keras NER example's
    `tf.strings.split` and `lookup_layer(tf.strings.lower(x))`) is low (readings 5, 10 and 11: debatable 7
    times in 9 at high; readings 11 and 13: right 0 times in 9 at medium); one that decodes images stays
    high."""
    src = """
import tensorflow as tf

def to_tokens_and_tags(record):
    record = tf.strings.split(record, sep="\\t")
    length = tf.strings.to_number(record[0], out_type=tf.int32)
    return record[1 : length + 1], tf.strings.to_number(record[length + 1 :], out_type=tf.int64)

def lowercase_and_convert_to_ids(tokens):
    return lookup_layer(tf.strings.lower(tokens))

def load_image(path):
    return tf.io.decode_jpeg(tf.io.read_file(path))

train_dataset = (
    tf.data.TextLineDataset(train_file)
    .map(to_tokens_and_tags)
    .map(lambda x, y: (lowercase_and_convert_to_ids(x), y))
    .padded_batch(32)
)
model.fit(train_dataset, epochs=10)
rows = tf.data.Dataset.list_files(pattern).map(load_image).batch(32)
model.fit(rows, epochs=10)
"""
    assert sure(src, "PP202") == [(17, "low"), (18, "low"), (22, "high")]


def test_a_map_given_a_slipped_call_of_its_function_reads_that_function():
    """`train_db.map(preprocess())` of a `def preprocess(x, y)` that only casts and scales: the map means
    `preprocess`, a cheap element-wise map (reading 11 read it debatable at high twice); a factory call that
    returns an inner function is not read so."""
    src = """
import tensorflow as tf

def preprocess(x, y):
    x = tf.cast(x, dtype=tf.float32) / 255.0
    return x, tf.cast(y, dtype=tf.int32)

train_db = tf.data.Dataset.from_tensor_slices((x, y))
train_db = train_db.map(preprocess()).shuffle(10000).batch(256)
model.fit(train_db, epochs=5)
"""
    assert sure(src, "PP202") == []
    assert sure(src, "PP201") == [(9, "low")]


def test_pp202_tfds_loaded_in_batches_maps_once_per_batch():
    """`tfds.load(..., batch_size=32)` gives batches: a map after it runs once per batch, not per element
    (reading 13 read the IMDB tutorial's `map(vectorize_text)` on such a set wrong at high); the same map on
    an unbatched load keeps its level."""
    src = """
import tensorflow as tf
import tensorflow_datasets as tfds

def vectorize_text(text, label):
    return tf.io.decode_jpeg(text), label

train_ds = tfds.load("imdb_reviews", split="train", batch_size=32, as_supervised=True)
train_ds = train_ds.map(vectorize_text).prefetch(tf.data.AUTOTUNE)
model.fit(train_ds, epochs=10)
"""
    assert sure(src, "PP202") == [(9, "low")]
    plain = src.replace("batch_size=32, ", "").replace(".prefetch(", ".batch(32).prefetch(")
    assert sure(plain, "PP202") == [(9, "high")]


def test_pp202_tfds_dict_of_splits_is_followed():
    """`dataset, info = tfds.load(name, with_info=True)` with no `split` gives a dict of splits:
    `dataset["test"].map(load_image_test)` is a pipeline (reading 17 missed it at every level), read as
    the list form is; a cheap selection map on it stays silent."""
    src = """
import tensorflow as tf
import tensorflow_datasets as tfds

def load_image_test(datapoint):
    return tf.image.resize(datapoint["image"], (128, 128)), datapoint["label"]

dataset, info = tfds.load("oxford_iiit_pet:3.*.*", with_info=True)
train = dataset["train"].map(load_image_test, num_parallel_calls=tf.data.AUTOTUNE)
test = dataset["test"].map(load_image_test)
model.fit(train.batch(32), validation_data=test.batch(32), epochs=20)
"""
    assert sure(src, "PP202") == [(10, "high")]  # validation data, read every epoch (tf-cal28)
    cheap = src.replace('dataset["test"].map(load_image_test)', 'dataset["test"].map(lambda d: d["image"])')
    assert sure(cheap, "PP202") == []


def test_pp202_tfds_splits_unpacked_are_followed_to_their_cache():
    """`train_ds, val_ds = tfds.load(..., split=[...])` gives one pipeline per name: a resize that
    `cache()` follows a statement later runs in the first epoch only (the Keras fine-tuning guide, reading
    14: debatable at medium); with `with_info=True` too. Without the cache the training split stays."""
    src = """
import tensorflow as tf
import tensorflow_datasets as tfds

(train_ds, validation_ds), info = tfds.load(
    "cats_vs_dogs", split=["train[:40%]", "train[40%:50%]"], as_supervised=True, with_info=True
)
train_ds = train_ds.map(lambda x, y: (tf.image.resize(x, (150, 150)), y))
validation_ds = validation_ds.map(lambda x, y: (tf.image.resize(x, (150, 150)), y))
train_ds = train_ds.cache().batch(32).prefetch(buffer_size=10)
validation_ds = validation_ds.cache().batch(32).prefetch(buffer_size=10)
model.fit(train_ds, epochs=20, validation_data=validation_ds)
"""
    assert sure(src, "PP202") == [(8, "low"), (9, "low")]
    uncached = src.replace(".cache()", "")
    assert sure(uncached, "PP202")[0] == (8, "high")
    plain = src.replace("(train_ds, validation_ds), info", "train_ds, validation_ds")
    assert sure(plain.replace(", with_info=True", ""), "PP202") == [(8, "low"), (9, "low")]


def test_pp202_a_pipeline_read_by_a_loop_that_breaks_at_once_is_a_peek():
    """Reading 14: a lesson names its pipeline `train_dataset`, prints one record and breaks; nothing trains
    on it (wrong at medium). A loop without the `break`, and a loader returned to other modules that its
    `__main__` block checks on one batch, keep their level."""
    src = """
import tensorflow as tf

def _parse_example(example_string):
    feature_dict = tf.io.parse_single_example(example_string, feature_description)
    image = tf.io.decode_jpeg(feature_dict["image"])
    return tf.image.resize(image, [256, 256]) / 255.0, feature_dict["label"]

train_dataset = tf.data.TFRecordDataset("sub_train.tfrecords")
train_dataset = train_dataset.map(_parse_example)
for image, label in train_dataset:
    print(image, label)
    break
"""
    assert sure(src, "PP202") == [(10, "low")]
    assert sure(src.replace("    break\n", ""), "PP202") == [(10, "high")]
    loader = """
import sys
import tensorflow as tf

def parse(record):
    x = tf.io.parse_single_example(record, features)
    return tf.image.decode_jpeg(x["image/encoded"], channels=3), x["label"]

def load_tfrecord_dataset(pattern):
    dataset = tf.data.Dataset.list_files(pattern).flat_map(tf.data.TFRecordDataset)
    return dataset.map(lambda x: parse(x))

if __name__ == "__main__":
    train_ds = load_tfrecord_dataset(sys.argv[1])
    for img, label in train_ds.take(1):
        print(img.shape, label)
        break
"""
    assert sure(loader, "PP202") == [(11, "high")]


def test_pp202_a_pipeline_formatted_into_a_message_is_not_handed_on():
    """Reading 13: a TFRecord tutorial prints `"parsed: {}".format(ds)` and then ten parsed records
    (wrong at medium): the format call only shows the pipeline's repr. Handed to a function that reads it
    (`train(ds)`), it is used."""
    src = """
import tensorflow as tf

def _parse_function(example_proto):
    return tf.io.parse_single_example(example_proto, feature_description)

raw_dataset = tf.data.TFRecordDataset(["images.tfrecords"])
parsed_dataset = raw_dataset.map(_parse_function)
print("parsed_dataset: {}".format(parsed_dataset))
for parsed_record in parsed_dataset.take(10):
    print(repr(parsed_record))
"""
    assert sure(src, "PP202") == []
    handed = src.replace('print("parsed_dataset: {}".format(parsed_dataset))', "consume(parsed_dataset)")
    assert sure(handed, "PP202") == [(8, "low")]  # a record parse alone: low since tf-calibrate15
    decoded = handed.replace(
        "tf.io.parse_single_example(example_proto, feature_description)", "tf.io.decode_png(example_proto)"
    )
    assert sure(decoded, "PP202") == [(8, "low")]  # handed on, neither trained nor validated (tf-cal28)
    trained = decoded.replace("consume(parsed_dataset)", "train(parsed_dataset)")
    assert sure(trained, "PP202") == [(8, "high")]


def test_pp202_a_cast_and_crop_after_a_parallel_decode_is_low():
    """Reading 14: the decode already runs on AUTOTUNE threads and a later map only casts and random-crops
    256x256 images (debatable at medium). Alone on one thread, pad + crop + flip of CIFAR images was read
    right, but since tf-fix17 crops, flips and pads alone are no image work (such maps read right 1 time in 5
    over readings 14-16: a random crop is a slice): `low` too. A decode or resize beside them keeps `medium`."""
    src = """
import tensorflow as tf
AUTOTUNE = tf.data.AUTOTUNE

def _bytestring_to_pixels(parsed):
    image = tf.io.decode_image(parsed["image"])
    return tf.reshape(image, [256, 256, 3]), parsed["class"]

def _augment(image, label):
    image = tf.cast(image, tf.float32)
    image = tf.image.random_crop(image, size=[224, 224, 3])
    return image, label

dataset = tf.data.TFRecordDataset(files).map(_parse, num_parallel_calls=AUTOTUNE)
dataset = dataset.map(_bytestring_to_pixels, num_parallel_calls=AUTOTUNE)
train = dataset.map(_augment)
model.fit(train.batch(128), epochs=10)
"""
    assert sure(src, "PP202") == [(16, "low")]
    cifar = """
import tensorflow as tf

def preprocess(x, y):
    x = tf.pad(x, ((4, 4), (4, 4), (0, 0)))
    x = tf.image.random_crop(x, [32, 32, 3])
    x = tf.image.random_flip_left_right(x)
    return x, y

db_train = tf.data.Dataset.from_tensor_slices((train_images, train_labels))
db_train = db_train.shuffle(10000).map(preprocess).batch(128)
model.fit(db_train, epochs=200)
"""
    assert sure(cifar, "PP202") == [(11, "low")]
    resized = cifar.replace("x = tf.image.random_flip_left_right(x)", "x = tf.image.resize(x, [64, 64])")
    assert sure(resized, "PP202") == [(11, "high")]


def test_pp202_untraced_map_on_a_batched_name_runs_per_batch():
    """Reading 14: a pipeline factory maps `batch_ops` on `batch_ds = in_ds.map(...).batch(n)` (a parameter,
    so the flow cannot trace it): once per batch of 48, debatable at medium. On an unbatched name the map
    keeps its level (`low` too since tf-cal28: the pipeline is not seen training or validating)."""
    src = """
import tensorflow as tf

def batch_ops(X, y):
    X = tf.image.resize_images(X, out_size)
    return X, y

def _create_pipeline(in_ds):
    batch_ds = in_ds.map(load_ops, num_parallel_calls=4).batch(batch_size)
    return batch_ds.map(batch_ops)
"""
    assert sure(src, "PP202") == [(10, "low")]
    unbatched = src.replace(".batch(batch_size)", ".shuffle(100)")
    assert sure(unbatched, "PP202") == [(10, "low")]


def test_pp202_tf1_iterator_run_once_to_show_a_batch_is_low():
    """Readings 13 and 14: a book demo builds a serial decode pipeline, takes `get_next()` of a one-shot
    iterator and runs it in `for step in np.arange(1)` to show one batch; a sketch never runs it (wrong at
    medium). Run in a loop of many steps, or made in an input_fn another module hands to an Estimator, it
    keeps its level."""
    src = """
import numpy as np
import tensorflow as tf

def _parseone(filename, label):
    image = tf.image.decode_image(tf.read_file(filename))
    return tf.image.resize(image, [96, 96]), label

def dataset(filenames, labels, batchsize):
    ds = tf.data.Dataset.from_tensor_slices((filenames, labels))
    ds = ds.map(_parseone)
    return ds.batch(batchsize)

def getone(ds):
    iterator = ds.make_one_shot_iterator()
    return iterator.get_next()

one_element = getone(dataset(files, labels, 10))
with tf.Session() as sess:
    for step in np.arange(1):
        value = sess.run(one_element)
        showimg(step, value[1], value[0])
"""
    assert sure(src, "PP202") == [(11, "low")]
    # run in a loop of many steps it is read at scale, but neither trained nor validated: low (tf-cal28)
    assert sure(src.replace("np.arange(1)", "np.arange(1000)"), "PP202") == [(11, "low")]
    input_fn = """
import tensorflow as tf

def tfrecords_input_fn(file_paths, batch_size=100):
    def data_generate():
        dataset = tf.data.TFRecordDataset(file_paths).map(parser).batch(batch_size)
        iterator = dataset.make_one_shot_iterator()
        features, labels = iterator.get_next()
        return {"img_data": features}, labels
    def parser(record):
        x = tf.parse_single_example(record, features={"img_raw": tf.FixedLenFeature([], tf.string)})
        return tf.decode_raw(x["img_raw"], tf.uint8), x["label"]
    return data_generate
"""
    # the pipeline is returned, not seen training: low since tf-calibrate15; a serial parse is PP202's since
    # tf-fix17, and record parsing alone is `low` there, fitted or not (PP201 medium when it was fitted);
    # since tf-fix40 PP201 reports it too, `low`
    assert sure(input_fn, "PP201") == [(6, "low")] and [level for _, level in sure(input_fn, "PP202")] == [
        "low"
    ]
    fitted = input_fn.replace("    return data_generate", "    return data_generate\nmodel.fit(dataset)")
    fitted = fitted.replace(
        "        iterator = dataset", "        model.fit(dataset)\n        iterator = dataset"
    )
    assert sure(fitted, "PP201") == [(6, "low")] and [level for _, level in sure(fitted, "PP202")] == ["low"]
    threaded = fitted.replace(".map(parser)", ".map(parser, num_parallel_calls=4)")
    assert [level for _, level in sure(threaded, "PP201")] == ["low"]  # `medium` until tf-fix33
    # a loader module returns the iterator and checks one batch in its `main()` (a DeepPerf hold-out line,
    # fixed upstream): the training script imports it, so the map keeps its level
    loader = """
import tensorflow as tf

def datagenerator(image_filenames, mask_filenames, batch_size):
    dataset = tf.data.Dataset.from_tensor_slices((image_filenames, mask_filenames))
    dataset = dataset.shuffle(buffer_size=10000).repeat()
    dataset = dataset.map(_parse_function)
    dataset = dataset.batch(batch_size)
    return dataset.make_initializable_iterator()

def _parse_function(image_path, mask_path):
    image = tf.image.decode_bmp(tf.read_file(image_path))
    return tf.image.resize_images(image, [512, 512]), mask_path

def main():
    data_iterator = datagenerator(x, y, 1)
    with tf.Session() as sess:
        sess.run(data_iterator.initializer)
        image, mask = sess.run(data_iterator.get_next())

if __name__ == "__main__":
    main()
"""
    assert sure(loader, "PP202") == [(7, "low")]  # returned, neither trained nor validated (tf-cal28)


def test_pp202_a_smoke_fit_of_a_few_steps_is_not_training():
    """`fit(ds, epochs=2, steps_per_epoch=4)` reads 8 batches: the serial decode of such a tutorial copy
    costs little (reading 13: debatable at high, then at medium); since tf-fix14 such a fit reads its data
    once, as `evaluate` does: low. A real number of steps, or epochs without a step count, are `high`
    (tf-calibrate20)."""
    src = """
import tensorflow as tf

def load_and_preprocess(path, label):
    image = tf.image.decode_jpeg(tf.io.read_file(path), channels=3)
    return tf.image.resize(image, [192, 192]) / 255.0, label

ds = tf.data.Dataset.from_tensor_slices((all_image_paths, all_image_labels))
ds = ds.map(load_and_preprocess).shuffle(1000).batch(8)
model.fit(ds, epochs=2, steps_per_epoch=4)
"""
    assert sure(src, "PP202") == [(9, "low")]
    assert sure(src.replace("steps_per_epoch=4", "steps_per_epoch=400"), "PP202") == [(9, "high")]
    assert sure(src.replace(", steps_per_epoch=4", ""), "PP202") == [(9, "high")]


def test_pp202_an_interleave_feeding_a_parallel_map_and_batch_is_low():
    """handson-ml2's reader: a serial interleave of a few CSV files whose lines a parallel
    `map_and_batch` parses (reading 13: debatable 2/2 at high); low, like a later parallel map."""
    src = """
import tensorflow as tf

def csv_reader_dataset(filenames, batch_size=32, n_readers=5):
    dataset = tf.data.Dataset.list_files(filenames).repeat()
    dataset = dataset.interleave(lambda f: tf.data.TextLineDataset(f).skip(1), cycle_length=n_readers)
    dataset = dataset.shuffle(10000)
    dataset = dataset.apply(
        tf.data.experimental.map_and_batch(
            parse_csv_line, batch_size, num_parallel_calls=tf.data.experimental.AUTOTUNE
        )
    )
    return dataset.prefetch(1)

train_set = csv_reader_dataset(train_filenames)
model.fit(train_set, steps_per_epoch=len(X_train) // 32, epochs=10)
"""
    assert sure(src, "PP202") == [(6, "low")]
    serial = src.replace(", num_parallel_calls=tf.data.experimental.AUTOTUNE", "")
    assert sure(serial, "PP202") == [(6, "low")]  # an interleave: low since tf-calibrate15


def test_pp202_a_function_defined_again_later_is_read_where_the_map_runs():
    """A notebook that defines `preprocess` twice: a map between the two runs the first (a cast: silent),
    one after the second runs the second (a resize: reported); reading 13 read the first map debatable."""
    src = """
import tensorflow as tf
import tensorflow_datasets as tfds

def preprocess(features):
    return tf.cast(features["image"], tf.float32) / 255.0, features["label"]

dataset = tfds.load("mnist", split="train")
dataset = dataset.map(preprocess).batch(32)
resnet.fit(dataset, epochs=1)

def preprocess(features):
    image = tf.image.resize(features["image"], (224, 224))
    return tf.cast(image, tf.float32) / 255.0, features["label"]

dataset = tfds.load("cats_vs_dogs", split="train")
dataset = dataset.map(preprocess).batch(32)
model.fit(dataset, epochs=10)
"""
    assert sure(src, "PP202") == [(17, "high")]


def test_pp202_padding_a_small_image_is_cheap():
    """Padding a 28x28 digit into a 75x75 canvas and casting copies each pixel once: too cheap for threads
    (reading 13: debatable 2/2 at high), as a flip is."""
    src = """
import tensorflow as tf
import tensorflow_datasets as tfds

def read_image_tfds(image, label):
    xmin = tf.random.uniform((), 0, 48, dtype=tf.int32)
    ymin = tf.random.uniform((), 0, 48, dtype=tf.int32)
    image = tf.reshape(image, (28, 28, 1))
    image = tf.image.pad_to_bounding_box(image, ymin, xmin, 75, 75)
    image = tf.cast(image, tf.float32) / 255.0
    return image, tf.one_hot(label, 10)

def get_training_dataset():
    dataset = tfds.load("mnist", split="train", as_supervised=True)
    return dataset.map(read_image_tfds).shuffle(5000).repeat().batch(64)

model.fit(get_training_dataset(), steps_per_epoch=60000 // 64, epochs=10)
"""
    assert sure(src, "PP202") == []
    assert sure(src.replace("tf.image.pad_to_bounding_box", "tf.image.resize_with_pad"), "PP202") == [
        (15, "high")
    ]


def test_pp202_a_pipeline_a_module_function_returns_is_judged_by_its_callers_here():
    """A function this module alone calls (`tdataset = dataset(...)`) returns its pipeline to code seen
    here: a loop that only plots each batch is a look, not a use (reading 13: a book's lessons read wrong
    3 times at medium), even when the function's local is named like it (`dataset = dataset.map(...)`);
    the same function fitted on, or one another module may call, keeps its level."""
    src = """
import matplotlib.pyplot as plt
import tensorflow as tf

def dataset(directory, batchsize):
    def _parseone(filename, label):
        image = tf.image.decode_image(tf.io.read_file(filename))
        return tf.image.resize(image, [96, 96]), label

    dataset = tf.data.Dataset.from_tensor_slices(load_sample(directory))
    dataset = dataset.map(_parseone)
    return dataset.batch(batchsize)

tdataset = dataset("man_woman", 10)
for step, value in enumerate(tdataset):
    plt.imshow(value[0][0])
    plt.show()
"""
    assert sure(src, "PP202") == [(11, "low")]
    fitted = src.replace("for step, value in enumerate(tdataset):", "model.fit(tdataset, epochs=10)\nif 0:")
    assert sure(fitted, "PP202") == [(11, "high")]
    library = src.split("tdataset =")[0]
    assert sure(library, "PP202") == [(11, "low")]  # returned: neither trained nor validated (tf-cal28)


def test_pp202_medium_only_for_image_or_file_work_in_its_code():
    """tf-calibrate15: as first read over readings 10-15, only maps whose code decodes images, calls tf.image
    ops, reads files or calls back into Python were right at least 70% of the time in every reading (169 of
    201); a record parse alone, a cost seen only in a name and interleaves are `low`, all fitted here (the
    image maps `high` since tf-calibrate20)."""
    src = """
import tensorflow as tf

def load(path):
    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), [64, 64])

def parse(record):
    x = tf.io.parse_single_example(record, spec)
    return tf.io.decode_raw(x["img"], tf.uint8), x["label"]

images = tf.data.Dataset.from_tensor_slices(paths).map(load)
direct = tf.data.TFRecordDataset(files).map(tf.io.decode_png)
records = tf.data.TFRecordDataset(files).map(parse)
named = tf.data.TFRecordDataset(files).map(preprocess_image)
shards = tf.data.Dataset.from_tensor_slices(files).interleave(tf.data.TFRecordDataset)
model.fit(images.batch(32), epochs=10)
model.fit(direct.batch(32), epochs=10)
model.fit(records.batch(32), epochs=10)
model.fit(named.batch(32), epochs=10)
model.fit(shards.batch(32), epochs=10)
"""
    assert sure(src, "PP202") == [(11, "high"), (12, "high"), (13, "low"), (14, "low"), (15, "low")]


def test_contrib_map_with_num_threads_runs_on_threads():
    # tf.contrib.data (TF 1.2-1.4) spelled the thread count `num_threads`; `output_buffer_size` is only a buffer
    src = """
import tensorflow as tf

def _parse_function(filename, label):
    image = tf.image.decode_jpeg(tf.read_file(filename), channels=3)
    return tf.image.resize_images(image, [224, 224]), label

train_dataset = tf.contrib.data.Dataset.from_tensor_slices((train_files, train_labels))
train_dataset = train_dataset.map(_parse_function, num_threads=8, output_buffer_size=64)
train_dataset = train_dataset.shuffle(10000).batch(32)
val_dataset = tf.contrib.data.Dataset.from_tensor_slices((val_files, val_labels))
val_dataset = val_dataset.map(_parse_function, output_buffer_size=64).batch(32)
iterator = tf.contrib.data.Iterator.from_structure(train_dataset.output_types, train_dataset.output_shapes)
images, labels = iterator.get_next()
loss = model(images, labels)
for epoch in range(10):
    sess.run(iterator.make_initializer(train_dataset))
    sess.run(train_op)
    sess.run(iterator.make_initializer(val_dataset))
    sess.run(loss)
"""
    assert [(r, line) for r, line in codes(src) if r == "PP202"] == [("PP202", 12)]


def test_image_work_is_seen_through_functools_partial():
    # a CycleGAN's PNG decode handed to map as `partial(_parse, channels=...)` (reading 16)
    src = """
import functools
from functools import partial

import tensorflow as tf


def _parse(filename, channels):
    return tf.cast(tf.image.decode_png(tf.io.read_file(filename), channels=channels), tf.float32)


def _record(record, spec):
    return tf.io.parse_single_example(record, spec)


files = tf.data.Dataset.from_tensor_slices(tf.constant(names))
images = files.map(partial(_parse, channels=3)).batch(8).repeat()
model.fit(images, epochs=10)
records = tf.data.TFRecordDataset(names).map(functools.partial(_record, spec=SPEC)).batch(8)
model.fit(records, epochs=10)
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP202"] == [
        (17, "high"),  # decodes a PNG: image work, seen through the partial, fitted
        (19, "low"),  # a record parse alone stays low
    ]


def test_pp301_image_pyramid_is_not_one_batch():
    """Reading 16: MTCNN's P-Net predicts each scale of one photo, resized to a size each scale computes, so
    the inputs cannot be stacked (read wrong 2/2 at `high`): silent. The R-Net stage that resizes every crop to
    a fixed 24x24, and a per-image loop resized to a fixed size, still stack: reported."""
    src = """
import cv2
import numpy as np
from tensorflow.keras.models import load_model

class MTCNN:
    def __init__(self):
        self.Pnet = load_model("pnet.h5")
        self.Rnet = load_model("rnet.h5")

    def detect_face(self, img, scales, boxes):
        origin_h, origin_w, _ = img.shape
        out = []
        for scale in scales:
            hs = int(origin_h * scale)
            ws = int(origin_w * scale)
            scale_img = cv2.resize(img, (ws, hs))
            inputs = np.expand_dims(scale_img, 0)
            out.append(self.Pnet.predict(inputs))
        for scale in scales:
            small = cv2.resize(img, None, fx=scale, fy=scale)
            out.append(self.Pnet.predict(small[np.newaxis]))
        for box in boxes:
            crop = img[box[1] : box[3], box[0] : box[2]]
            out.append(self.Rnet.predict(np.expand_dims(cv2.resize(crop, (24, 24)), 0)))
        return out

model = load_model("classifier.h5")
for path in paths:
    image = cv2.imread(path)
    size = image.shape[0] // 2
    image = cv2.resize(image, (224, 224))
    print(model.predict(image[None]))
"""
    assert codes(src, "PP301") == [("PP301", 25), ("PP301", 33)]


def test_a_bare_builtin_format_call_does_not_stop_the_pipeline_rules():
    """Reading 18: `format(part_num, digits)`, the builtin called by name, once made the tf.data flow raise
    (it took every `format` call for `"...".format(x)`), and PP201-PP204 skipped the whole file."""
    src = """
import tensorflow as tf
ds = tf.data.TFRecordDataset(files).map(decode_jpeg_and_resize).batch(32)
name = "{:s}.tfrecords".format(format(part_num, digits))
model.fit(ds, epochs=10)
"""
    assert [rule for rule, _ in codes(src) if rule.startswith("PP2")] == ["PP202", "PP203"]


def test_pp203_parallel_assignment_and_tuple_return():
    """tf-fix21: `train_ds, test_ds = ds["train"], ds["test"]` binds each split (before, the tuple was handed
    on and the flow lost both), and a batched pipeline returned in a tuple is returned to the caller as one
    returned alone: `low`. A prefetched pair, and a pair whose names the values read (a swap), stay silent."""
    src = """
import tensorflow as tf
import tensorflow_datasets as tfds

def load(prep, bs):
    ds = tfds.load("cifar10", as_supervised=True)
    train_ds, test_ds = ds["train"], ds["test"]
    train_ds = train_ds.map(prep).batch(bs)
    test_ds = test_ds.map(prep).batch(bs).prefetch(1)
    return train_ds, test_ds

def swap(a, b):
    a, b = b, a
    return a.batch(2), b
"""
    assert sure(src, "PP203") == [(8, "low")]
    assert sure(src, "PP202") == [(8, "low"), (9, "low")]


def test_pp402_padding_to_literal_lengths_keeps_one_shape():
    """tf-fix22: `padded_batch(64, padded_shapes=([40], [40]))` pads every batch to one shape, so a
    tf.function looping over it traces once (and once more for a smaller last batch); padding to the
    longest element (`[None]`, `[-1]`, no shapes) still changes the shape."""
    src = """
import tensorflow as tf

@tf.function
def step(inp, tar):
    return inp

def train(files):
    ds = tf.data.TFRecordDataset(files)
    for inp, tar in ds.padded_batch(64, padded_shapes=([40], [40])):
        step(inp, tar)
    for inp, tar in ds.padded_batch(64, padded_shapes=([None], [-1])):
        step(inp, tar)
    for inp, tar in ds.padded_batch(64, ([40], [])):
        step(inp, tar)
    for inp, tar in ds.padded_batch(64):
        step(inp, tar)
"""
    assert [line for rule, line in codes(src) if rule == "PP402"] == [13, 17]


# ---------------------------------------------------------------- tf-fix26: the maintainer-fixed set's misses


def test_pp301_predicts_repeated_without_a_loop_are_low():
    """tf-fix26: a batch of one predicted by a per-call method (a vehicle part's `inference`) or by a def
    mapped over a collection (Spark's `rdd.map`) repeats per input where no loop shows it: `low`, a shape no
    reading has measured; the same predict in a method run once, or on a stacked batch, is silent."""
    src = """
import numpy as np
import tensorflow as tf

class Pilot:
    def inference(self, img):
        return self.model.predict(img.reshape((1,) + img.shape))
    def summary(self, img):
        return self.model.predict(img.reshape((1,) + img.shape))
    def predict_batch(self, imgs):
        return self.model.predict(np.stack(imgs))

def spark_predict(rdd, model):
    return rdd.map(lambda row: model.predict(np.expand_dims(row, 0))).collect()
"""
    assert sure(src, "PP301") == [(7, "low"), (14, "low")]


def test_pp301_first_row_kept_is_low_evidence():
    """A loop keeping only the first row of each prediction (`predict(img)[0]`) shows a batch of one made
    elsewhere: `low` even over data of unknown size, where a visible batch of one is `high`."""
    src = """
import numpy as np
import tensorflow as tf

model = tf.keras.models.load_model("m.h5")

def embed(images):
    return [model.predict(img)[0] for img in images]

def embed_visible(images):
    return [model.predict(img[None])[0] for img in images]
"""
    assert sure(src, "PP301") == [(8, "low"), (11, "high")]


def test_pp203_conditional_last_step_is_reported_where_paths_meet():
    """tf-fix26 (keras-cv's ImageNet loader): a `batch` made only under an `if` the `return` is outside of
    is reported at the `return`; one in the same branch as its `return` stays at the `batch`."""
    src = """
import tensorflow as tf

def load(files, parse, batch_size=None):
    ds = tf.data.TFRecordDataset(files).map(parse, num_parallel_calls=8)
    if batch_size is not None:
        ds = ds.batch(batch_size)
    return ds

def load_train(files, parse, training):
    ds = tf.data.TFRecordDataset(files).map(parse, num_parallel_calls=8)
    if training:
        ds = ds.shuffle(100)
        ds = ds.batch(64)
        return ds
    return ds
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    found = [(f.line, f.column, f.confidence) for f in findings if f.rule == "PP203"]
    assert found == [(8, 12, "low"), (14, 17, "low")]
    assert "runs only under the `if` at line 6" in next(f.message for f in findings if f.line == 8)


def test_a_pipeline_stored_on_self_is_seen_training_in_another_method():
    # the flow reads `self.ds` in the class's other methods as the pipeline stored there (tf-fix27): the
    # training loop over it makes the serial decode PP202's `high` and the missing prefetch PP203's `medium`,
    # as when the loop is in the storing method
    src = """
import tensorflow as tf

def parse(record):
    features = tf.io.parse_single_example(record, {"image": tf.io.FixedLenFeature([], tf.string)})
    return tf.image.resize(tf.io.decode_jpeg(features["image"]), [224, 224])

class Trainer:
    def __init__(self, files, batch_size):
        ds = tf.data.TFRecordDataset(files)
        ds = ds.map(parse)
        self.ds = ds.batch(batch_size)

    def train(self, model):
        for batch in self.ds:
            model.train_on_batch(batch)
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.rule, f.line, f.confidence) for f in findings] == [
        ("PP202", 11, "high"),
        ("PP203", 12, "high"),
    ]


# ---------------------------------------------------------------- tf-fix30: recall of readings 21 and 22


def test_pp301_a_one_sample_batch_kept_by_preprocess_input():
    """`x = np.expand_dims(x, axis=0)` then `x = preprocess_input(x)` (the keras.applications idiom) is
    still a batch of one: the loop over a folder's images is PP301 at the rule's level (tf-fix30). The
    stacked folder is not."""
    src = """
import os
import numpy as np
from tensorflow.keras.applications.resnet50 import ResNet50, preprocess_input
from tensorflow.keras.preprocessing import image

model = ResNet50(weights="imagenet")
rows = []
for name in sorted(os.listdir("test_images")):
    img = image.load_img(os.path.join("test_images", name), target_size=(224, 224))
    x = image.img_to_array(img)
    x = np.expand_dims(x, axis=0)
    x = preprocess_input(x)
    rows.append((name, model.predict(x)[0].argmax()))
"""
    assert sure(src, "PP301") == [(14, "high")]
    batched = """
import os
import numpy as np
from tensorflow.keras.applications.resnet50 import ResNet50, preprocess_input
from tensorflow.keras.preprocessing import image

model = ResNet50(weights="imagenet")
names = sorted(os.listdir("test_images"))
x = np.stack([image.img_to_array(image.load_img(os.path.join("test_images", n), target_size=(224, 224))) for n in names])
x = preprocess_input(x)
rows = list(zip(names, model.predict(x, batch_size=32).argmax(axis=1)))
"""
    assert sure(batched, "PP301") == []


def test_pp301_a_method_predicting_one_sample_called_in_a_loop_of_its_module():
    """tf-fix30: a loop of the module calls a method that makes one sample a batch and predicts it (a
    handwriting web view predicting each segmented character): PP301 at the call, `low`. A method that
    predicts a batch is no such def; one that also decodes step by step (Tacotron's `_predict`, reading
    21: one encoder call, then a decoder loop) is none either."""
    src = """
import numpy as np
from tensorflow.keras.models import load_model


class Reader:
    def __init__(self, path):
        self.model = load_model(path)

    def read_char(self, crop):
        x = crop.reshape(1, 28, 28, 1) / 255.0
        return int(np.argmax(self.model.predict(x)))

    def read_line(self, crops):
        return "".join(chr(65 + self.read_char(c)) for c in crops)

    def read_page(self, lines):
        text = []
        for crops in lines:
            for crop in crops:
                text.append(self.read_char(crop))
        return text
"""
    assert sure(src, "PP301") == [(15, "low"), (21, "low")]
    decoding = """
import numpy as np
from tensorflow.keras.models import load_model


class Synthesizer:
    def __init__(self, encoder_path, decoder_path):
        self.encoder = load_model(encoder_path)
        self.decoder = load_model(decoder_path)

    def synthesize(self, phrase, max_iter=1000):
        encoded = self.encoder.predict(np.array([phrase]))
        frames = np.zeros((1, 1, 80))
        for _ in range(max_iter):
            frame = self.decoder.predict([encoded, frames])
            frames = np.concatenate([frames, frame[:, -1:]], axis=1)
        return frames[0]

    def speak(self, phrases):
        return [self.synthesize(p) for p in phrases]
"""
    assert sure(decoding, "PP301") == []


def test_pp301_a_predict_in_a_lambda_is_no_internal_error():
    """A predict on one sample in a lambda bound to a name (not mapped over anything) stopped PP301 with an
    internal error (`runs_per_call` read the lambda's name); it is no finding (tf-fix30)."""
    src = """
import numpy as np
from tensorflow import keras

model = keras.models.load_model("model.h5")
score = lambda x: model.predict(np.expand_dims(x, 0))[0]
print(score(np.zeros(10)))
"""
    assert sure(src, "PP301") == []


def test_pp401_a_factory_run_by_a_def_the_loop_calls():
    """tf-fix30: the epoch loop calls `fit_one_epoch`, which gets its train step from a factory defining a
    new `@tf.function` on every call: PP401 `low` at the factory call (bubbliiiing's trainers). A loop in a
    `@tf.function`'s body runs once, while tracing, and a loop placing each iteration on a device of its own
    builds one copy per device: none there."""
    src = """
import tensorflow as tf


def get_train_step_fn():
    @tf.function
    def train_step(x, y, net, optimizer):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(net(x, training=True) - y))
        optimizer.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))
        return loss

    return train_step


def fit_one_epoch(net, optimizer, gen):
    train_step = get_train_step_fn()
    for x, y in gen:
        train_step(x, y, net, optimizer)


def train(net, optimizer, gen, epochs):
    for epoch in range(epochs):
        fit_one_epoch(net, optimizer, gen)
"""
    assert sure(src, "PP401") == [(17, "low")]
    traced = src.replace(
        "def train(net, optimizer, gen, epochs):\n    for epoch",
        "@tf.function\ndef train(net, optimizer, gen, epochs):\n    for epoch",
    )
    assert sure(traced, "PP401") == []
    towers = src.replace(
        "    for epoch in range(epochs):\n        fit_one_epoch(net, optimizer, gen)",
        "    for i in range(epochs):\n        with tf.device(f'/gpu:{i}'):\n            fit_one_epoch(net, optimizer, gen)",
    )
    assert towers != src and sure(towers, "PP401") == []  # one per device, built once (lingvo's replicas)


def test_pp403_a_training_helper_not_named_for_a_step():
    """tf-fix30, reading 21's seq2seq trainer: the loop calls `train(model, data, optimizer)`, which runs
    the step and returns `.numpy()` values the loop only prints every 100 steps: PP403 (the rule's `low`).
    Returning the tensors is none."""
    src = """
import tensorflow as tf


def train(model, data, optimizer):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(data["posts"]) - data["responses"])
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss.numpy()


def main(model, batches, optimizer):
    for step, data in enumerate(batches):
        loss = train(model, data, optimizer)
        if step % 100 == 0:
            print(step, loss)
"""
    assert sure(src, "PP403") == [(10, "low")]
    assert sure(src.replace("return loss.numpy()", "return loss"), "PP403") == []


def test_image_work_is_seen_in_the_def_a_factory_returns():
    # tf-fix31, reading 23's breadbread1984 YOLOv4: `map(parse_function_generator(80))` runs the def the
    # factory returns, which decodes and resizes each JPEG; a factory returning a record parse stays `low`
    src = """
import tensorflow as tf


def parser_for(num_classes, size=(608, 608)):
    def parse(serialized):
        features = tf.io.parse_single_example(serialized, SPEC)
        image = tf.image.resize(tf.io.decode_jpeg(features["image"]), size)
        return image, tf.one_hot(features["label"], num_classes)

    return parse


def record_reader(spec):
    def parse(serialized):
        return tf.io.parse_single_example(serialized, spec)

    return parse


trainset = tf.data.TFRecordDataset(files).map(parser_for(80)).shuffle(64).batch(8)
model.fit(trainset, epochs=100)
records = tf.data.TFRecordDataset(files).map(record_reader(SPEC)).shuffle(64).batch(8)
model.fit(records, epochs=100)
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP202"] == [(21, "high"), (23, "low")]


def test_pipelines_bound_by_tuple_unpacking_are_followed():
    # tf-fix31, reading 23's tonywu71: both subsets of one loader bound by `a, b = ...(subset="both")`, and a
    # def returning a training and a validation pipeline side by side: the maps on them are judged as if
    # each had been bound alone (the decode-and-resize map of the fitted one is `high`)
    src = """
import tensorflow as tf


def decode(path, label):
    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), (224, 224)), label


def make_datasets(train_files, val_files):
    train_ds = tf.data.Dataset.from_tensor_slices(train_files)
    val_ds = tf.data.Dataset.from_tensor_slices(val_files)
    return train_ds, val_ds


class Data:
    def __init__(self, folder):
        self.train_raw, self.val_raw = tf.keras.utils.image_dataset_from_directory(
            folder, batch_size=None, validation_split=0.2, subset="both", seed=0
        )
        self.train = self.train_raw.map(lambda x, y: (tf.image.resize(x, (96, 96)), y)).batch(32)


train_ds, val_ds = make_datasets(train_files, val_files)
train_ds = train_ds.map(decode).batch(32).prefetch(1)
model.fit(train_ds, epochs=10)
model.fit(Data("faces").train, epochs=10)
val_ds = val_ds.map(decode).batch(32)
model.evaluate(val_ds)
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP202"] == [
        (20, "high"),
        (24, "high"),
        (27, "low"),  # the other half, only evaluated once
    ]


def test_a_map_cached_on_one_path_only_is_not_read_as_cached():
    # tf-fix31, reading 23's carlesoctav: `if cache: dataset = dataset.cache()` under a command-line flag,
    # then fit: the decode map runs every epoch on the path without the cache (`high`); a map that every
    # fitted path caches, also when a training name is bound before the cache, stays `low`
    src = """
import tensorflow as tf


def load(path):
    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), (160, 160))


def train(model, files, cache):
    dataset = tf.data.Dataset.from_tensor_slices(files).shuffle(1024).map(load)
    dataset = dataset.batch(32).prefetch(tf.data.AUTOTUNE)
    if cache:
        dataset = dataset.cache()
    model.fit(dataset, epochs=20)


def train_cached(model, files):
    train_ds = tf.data.Dataset.from_tensor_slices(files).map(load)
    train_ds = train_ds.cache().batch(32).prefetch(tf.data.AUTOTUNE)
    model.fit(train_ds, epochs=20)
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP202"] == [(10, "high"), (18, "low")]


def test_a_pipeline_built_step_by_step_in_an_attribute_is_judged():
    # tf-fix31, reading 23's artist-duan MVSNet-TF2: `self.dataset = self.dataset.shuffle(...)`, then
    # `.batch(...)`, and no prefetch: the stores build the pipeline that other modules iterate, they do not
    # extend one the flow cannot see (reported, `low`); the same class ending in `.prefetch` is silent
    src = """
import tensorflow as tf


class DepthDataset:
    def __init__(self, batch_size, metas):
        self.metas = metas
        self.dataset = tf.data.Dataset.from_generator(self.generator, output_types=(tf.float32, tf.float32))
        self.dataset = self.dataset.shuffle(10 * batch_size)
        self.dataset = self.dataset.batch(batch_size)

    def generator(self):
        for meta in self.metas:
            yield read_views(meta), read_depth(meta)


class PrefetchedDataset:
    def __init__(self, batch_size, metas):
        self.metas = metas
        self.dataset = tf.data.Dataset.from_generator(self.generator, output_types=(tf.float32, tf.float32))
        self.dataset = self.dataset.batch(batch_size)
        self.dataset = self.dataset.prefetch(tf.data.AUTOTUNE)

    def generator(self):
        for meta in self.metas:
            yield read_views(meta), read_depth(meta)
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP203"] == [(10, "low")]


def test_a_python_callback_map_that_also_augments_images_is_low():
    # tf-fix31, reading 23's simonChoi034 YOLOv4: the map builds labels in `tf.numpy_function` and resizes
    # and colour-jitters the image with tf.image in a method it calls: threads overlap the TF ops (`low`,
    # a class without first reads); a map whose only work is the Python callback stays silent
    src = """
import tensorflow as tf


class Coco:
    def map_func(self, feature):
        boxes = tf.numpy_function(self.encode_boxes, inp=[feature["bbox"]], Tout=tf.float32)
        image = self.augment(feature["image"])
        return image, boxes

    def augment(self, image):
        image = tf.image.resize(image, (416, 416), preserve_aspect_ratio=True)
        return tf.image.random_hue(image, max_delta=0.2)

    def read_func(self, path):
        image = tf.numpy_function(self.read_with_cv2, inp=[path], Tout=tf.uint8)
        return image

    def train(self, model, ds, paths):
        model.fit(ds.map(self.map_func).batch(8).prefetch(2), epochs=50)
        files = tf.data.Dataset.from_tensor_slices(paths)
        model.fit(files.map(self.read_func).batch(8).prefetch(2), epochs=50)
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP202"] == [(20, "low")]


def test_pp101_get_next_of_a_tf1_iterator_in_a_session_loop():
    # tf-fix31, reading 23's hrnet-tf1: `sess.run(ite.get_next())` in the training loop adds a new
    # IteratorGetNext op every step; `next_batch = ite.get_next()` built once before the loop has none,
    # nor has a Python loader's own `get_next()`
    src = """
import tensorflow as tf

dataset = tf.data.TFRecordDataset(files).map(parse).batch(32)
ite = dataset.make_initializable_iterator()
next_batch = ite.get_next()
with tf.Session() as sess:
    for epoch in range(epochs):
        sess.run(ite.initializer)
        while True:
            try:
                batch = sess.run(ite.get_next())
            except tf.errors.OutOfRangeError:
                break
            sess.run(train_op, feed_dict={images: batch[0]})
    for epoch in range(epochs):
        sess.run(ite.initializer)
        for step in range(steps):
            sess.run([train_op, next_batch])
            batch = loader.get_next()
"""
    findings, _ = check_source(textwrap.dedent(src), "t.py")
    assert [(f.line, f.rule) for f in findings if f.rule == "PP101"] == [(12, "PP101")]


def test_pp203_a_prefetch_on_the_file_names_and_an_applied_batch():
    """tf-fix34, reading 25's CycleGAN: the only prefetch sits on the file names, before the shuffle and
    the decode map, and the batch is `apply(batch_and_drop_remainder(n))` (tf.contrib.data). A prefetch
    counts only after the pipeline's last map, batch or interleave, and the applied batch is a batch: the
    decoded batches the training step waits for are not prefetched. A prefetch at the end has none."""
    src = """
import tensorflow as tf
from tensorflow.contrib.data import batch_and_drop_remainder

def image_processing(filename):
    image = tf.image.decode_jpeg(tf.read_file(filename), channels=3)
    return tf.image.resize_images(image, [256, 256]) / 127.5 - 1

class CycleGAN:
    def build_model(self):
        train_a = tf.data.Dataset.from_tensor_slices(self.train_a_files)
        train_a = train_a.prefetch(self.batch_size).shuffle(1000).map(image_processing, num_parallel_calls=8).apply(batch_and_drop_remainder(self.batch_size)).repeat()
        self.domain_a = train_a.make_one_shot_iterator().get_next()
"""
    assert [line for line, _ in sure(src, "PP203")] == [12]
    fixed = src.replace(".repeat()", ".repeat().prefetch(1)")
    assert sure(fixed, "PP203") == []
    batched = src.replace(".apply(batch_and_drop_remainder(self.batch_size))", ".batch(self.batch_size)")
    assert [line for line, _ in sure(batched, "PP203")] == [12]


def test_pp101_a_summary_op_built_once_per_tag_in_a_loop():
    """tf-fix34, reading 25's summary logger: in the loop over the tags, the placeholder and the summary op
    are built only when the tag is not yet in `self.summary_ops`, and stored under it: once per tag, then
    reused. Read wrong four times at `low`; silent now. The same ops built on every pass are reported."""
    src = """
import tensorflow as tf

class Logger:
    def summarize(self, step, summaries_dict):
        summary_list = []
        for tag, value in summaries_dict.items():
            if tag not in self.summary_ops:
                self.summary_placeholders[tag] = tf.placeholder("float32", value.shape, name=tag)
                self.summary_ops[tag] = tf.summary.scalar(tag, self.summary_placeholders[tag])
            summary_list.append(self.sess.run(self.summary_ops[tag], {self.summary_placeholders[tag]: value}))
        for summary in summary_list:
            self.writer.add_summary(summary, step)
"""
    assert sure(src, "PP101") == []
    uncached = src.replace("if tag not in self.summary_ops:", "if True:")
    assert [line for line, _ in sure(uncached, "PP101")] == [9, 10]


def test_pp203_a_validation_set_read_one_batch_per_epoch():
    """tf-fix34, reading 25's BERT fine-tuning: the validation pipeline goes to fit with `validation_steps=1`,
    one batch per epoch next to hundreds of training steps; PP203 on it was read wrong twice. It is no
    longer a consumed pipeline; read for 50 steps per epoch it still is."""
    src = """
import tensorflow as tf

def train(model, parse, batch_size, steps):
    trainset = tf.data.TFRecordDataset("train.tfrecord").map(parse).repeat().batch(batch_size)
    validateset = tf.data.TFRecordDataset("dev.tfrecord").map(parse).repeat().batch(batch_size)
    model.fit(trainset, validation_data=validateset, validation_steps=1, epochs=100, steps_per_epoch=steps)
"""
    assert [line for line, _ in sure(src, "PP203")] == [5]
    longer = src.replace("validation_steps=1", "validation_steps=50")
    assert [line for line, _ in sure(longer, "PP203")] == [5, 6]


def test_pp301_per_call_predictors_one_helper_or_one_wrapper_away():
    """tf-fix34, reading 25's caption feature extractor and patch classifier. `encode_image` predicts what
    `preprocess_image` returns, and that helper adds the batch axis; a loop over the images calls
    `encode_image`. And a one-line wrapper of a per-patch predictor is submitted to a thread pool and
    awaited at once, once per patch. Both are per-call predictors run once per iteration: PP301 `low` at
    the loop's call. A helper that returns the whole folder as one batch, or submissions collected before
    any is awaited, have none."""
    helper = """
import os
import numpy as np
from keras.applications.inception_v3 import InceptionV3, preprocess_input
from keras.preprocessing import image

model = InceptionV3(weights="imagenet")

def preprocess_image(path):
    img = image.img_to_array(image.load_img(path, target_size=(299, 299)))
    img = np.expand_dims(img, axis=0)
    return preprocess_input(img)

def encode_image(path):
    img = preprocess_image(path)
    return model.predict(img)

features = {}
for name in os.listdir("images"):
    features[name] = encode_image(os.path.join("images", name))
"""
    assert sure(helper, "PP301") == [(20, "low")]
    whole = helper.replace("img = np.expand_dims(img, axis=0)", "img = np.stack([img] * 8)")
    assert sure(whole, "PP301") == []
    wrapped = """
from concurrent.futures import ThreadPoolExecutor
import cv2
from keras.models import load_model

model = load_model("model.h5")
executor = ThreadPoolExecutor(max_workers=4)

def predict_single_patch(patch, label):
    x = cv2.resize(patch, (224, 224)).reshape(1, 224, 224, 3)
    return model.predict(x), label

def threaded_prediction(patch, label):
    return predict_single_patch(patch, label)

def predict_single_img(patches, label):
    results = []
    for patch in patches:
        results.append(executor.submit(threaded_prediction, patch, label).result())
    return results
"""
    assert sure(wrapped, "PP301") == [(19, "low")]
    collected = wrapped.replace(
        "results.append(executor.submit(threaded_prediction, patch, label).result())",
        "results.append(executor.submit(threaded_prediction, patch, label))",
    )
    assert sure(collected, "PP301") == []


def test_pp202_is_medium_on_a_pipeline_a_tf1_iterator_or_an_input_function_trains():
    """tf-fix35: a serial map whose own code crops, flips or decodes images, on a pipeline a training step
    reads through code the dataset flow does not follow (`fed_steps`: the input function returns its
    iterator's tensors to a def whose session loop trains, or an estimator trains on it), is `medium`
    (read right 13 times in 15 in 8 repositories over readings 15-25; under `high`'s 20). The same input
    function called for evaluation only stays `low`."""
    src = """
import tensorflow as tf

def augment(path, label):
    image = tf.image.decode_png(tf.io.read_file(path), channels=3)
    image = tf.image.random_crop(image, [32, 32, 3])
    return tf.image.random_flip_left_right(image), label

def input_fn(paths, labels, batch_size):
    dataset = tf.data.Dataset.from_tensor_slices((paths, labels)).shuffle(50000)
    dataset = dataset.map(augment)
    dataset = dataset.batch(batch_size).prefetch(1)
    images, labels = tf.compat.v1.data.make_one_shot_iterator(dataset).get_next()
    return images, labels

def train():
    images, labels = input_fn(FLAGS.paths, FLAGS.labels, 128)
    train_op = build_model(images, labels)
    with tf.compat.v1.train.MonitoredTrainingSession() as sess:
        while not sess.should_stop():
            sess.run(train_op)
"""
    assert sure(src, "PP202") == [(11, "medium")]
    evaluated = src.replace("def train():", "def evaluate():").replace(
        "sess.run(train_op)", "print(sess.run(acc))"
    )
    assert sure(evaluated, "PP202") == [(11, "low")]


def test_pp202_reads_num_parallel_calls_bound_to_none_as_serial():
    """tf-fix37: `num_parallel_calls=None` is the default, a serial map, whether written or through a name
    the module binds once to None (reading 26: xcenternet's `autotune = None`). A later map of a pipeline
    the flow cannot trace (a loader's result) is named by the chain's root (`eval_dataset`), not by the
    call before it. The twin binds the name to AUTOTUNE: silent."""
    src = """
import tensorflow as tf

def evaluate(model, loader, batch_size):
    eval_dataset = loader.load_validation_datasets()
    autotune = None
    ds = (
        eval_dataset.map(decode, num_parallel_calls=tf.data.AUTOTUNE)
        .map(resize_and_pad, num_parallel_calls=autotune)
        .batch(batch_size)
    )
    for images, labels in ds:
        model.predict_on_batch(images)

def resize_and_pad(image, labels):
    image = tf.image.resize(image, (512, 512))
    return tf.image.pad_to_bounding_box(image, 0, 0, 544, 544), labels
"""
    assert [line for line, _ in sure(src, "PP202")] == [9]
    assert sure(src.replace("autotune = None", "autotune = tf.data.AUTOTUNE"), "PP202") == []


def test_datasets_carried_in_a_dict_literal_are_followed_by_key():
    """tf-fix37: `dataset = {"train": train_set, "test": test_set}` then `dataset["test"].map(...)` (reading
    26: JeffOnGithub's U-Net script): the validation pipeline fit reads every epoch is the one built from
    `test_set`, so its serial read/decode map is trained evidence (`high`, was `low`) and the chain's
    missing prefetch is reported. The twin reads the sets by their own names: the same findings."""
    src = """
import tensorflow as tf

def parse_image(path):
    image = tf.image.decode_jpeg(tf.io.read_file(path), channels=3)
    return tf.image.resize(image, (256, 256))

train_set = tf.data.Dataset.list_files("train/*.jpg").map(parse_image, num_parallel_calls=tf.data.AUTOTUNE)
test_set = tf.data.Dataset.list_files("val/*.jpg").map(parse_image)
dataset = {"train": train_set, "test": test_set}

train = dataset["train"].shuffle(100).batch(4).repeat().prefetch(tf.data.AUTOTUNE)
test = dataset["test"].batch(4)
model.fit(train, epochs=20, steps_per_epoch=100, validation_data=test)
"""
    direct = src.replace('dataset["train"]', "train_set").replace('dataset["test"]', "test_set")
    assert sure(direct, "PP202") == [(9, "high")]
    assert sure(src, "PP202") == sure(direct, "PP202")
    assert [line for line, _ in sure(src, "PP203")] == [line for line, _ in sure(direct, "PP203")] != []


def test_pp203_a_light_map_after_a_keras_loader_that_prefetches_is_silent():
    """tf-fix37 (reading 26: trystan-geoffre's Hurricane validation set): `image_dataset_from_directory`
    reads, decodes and resizes the files and ends with its own prefetch, so a light map after it leaves only
    the handoff unprefetched, the shape tf-fix34 keeps silent for a prefetch after the costly work (a
    debatable `low` before). The twin builds the same pipeline from file names with its decode in the map,
    after a prefetch of the names: still reported."""
    src = """
import tensorflow as tf

def normalise(image, label):
    return image / 255.0, label

train = tf.keras.utils.image_dataset_from_directory("data/train", image_size=(128, 128), batch_size=32)
val = tf.keras.utils.image_dataset_from_directory("data/val", image_size=(128, 128), batch_size=32)
train = train.map(normalise, num_parallel_calls=tf.data.AUTOTUNE).prefetch(tf.data.AUTOTUNE)
val = val.map(normalise, num_parallel_calls=tf.data.AUTOTUNE)
model.fit(train, epochs=30, validation_data=val)
"""
    assert sure(src, "PP203") == []
    files = src.replace(
        'val = tf.keras.utils.image_dataset_from_directory("data/val", image_size=(128, 128), batch_size=32)',
        'val = tf.data.Dataset.list_files("data/val/*.jpg").prefetch(64)',
    ).replace(
        "val = val.map(normalise, num_parallel_calls=tf.data.AUTOTUNE)",
        "val = val.map(load, num_parallel_calls=tf.data.AUTOTUNE).batch(32)",
    )
    files = files.replace(
        "def normalise",
        "def load(path):\n    return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), (128, 128)), 0\n\ndef normalise",
    )
    assert [line for line, _ in sure(files, "PP203")] == [13]


def test_pp202_later_maps_of_an_untraced_pipeline_that_takes_a_few_are_a_look():
    """tf-fix37: the chain-root naming of untraced maps skips a chain that takes a few elements first
    (xcenternet's `preprocess_and_show.py`: `train_dataset.take(10).map(decode).map(prepare)...`, one batch
    shown): read wrong. Without the `take` the maps are reported."""
    src = """
import tensorflow as tf

SHOW = 10
train_dataset = loader.load_train_datasets()
batch = (
    train_dataset.take(SHOW)
    .map(decode)
    .map(resize_and_pad)
    .batch(SHOW)
)

def resize_and_pad(image, labels):
    return tf.image.resize(image, (512, 512)), labels
"""
    assert sure(src, "PP202") == []
    assert [line for line, _ in sure(src.replace(".take(SHOW)", ".skip(1)"), "PP202")] == [8, 9]


def test_pp301_a_multi_input_model_fed_a_dict_of_batches_of_one():
    """tf-fix38, reading 27's SASRec evaluation: for every user, a dict of named inputs each made a batch of
    one (`np.array([seq])`, `np.expand_dims(np.array([u]), axis=-1)`) is predicted alone; the dict literal
    form too. An optional input set under a flag need not show its batch axis. The twin feeds the dict
    whole arrays of all users (one predict), or a dict whose entry is not a batch of one."""
    src = """
import numpy as np
import tensorflow as tf

def evaluate(model, users, seqs, candidates, use_cat):
    scores = []
    for u in users:
        inputs = {}
        inputs["user"] = np.expand_dims(np.array([u]), axis=-1)
        inputs["input_seq"] = np.array([seqs[u]])
        inputs["candidate"] = np.array([candidates[u]])
        if use_cat:
            inputs["input_seq_c"] = np.array(cats[u])
        scores.append(model.predict(inputs)[0])
    for u in users:
        scores.append(model.predict({"user": np.array([[u]]), "input_seq": np.array([seqs[u]])})[0])
    return scores

model = tf.keras.models.load_model("sasrec")
evaluate(model, range(10000), seqs, candidates, False)
"""
    assert sure(src, "PP301") == [(14, "high"), (16, "high")]
    clean = """
import numpy as np
import tensorflow as tf

def evaluate(model, users, seqs, candidates):
    inputs = {}
    inputs["user"] = np.array(list(users))[:, None]
    inputs["input_seq"] = np.stack([seqs[u] for u in users])
    scores = model.predict(inputs, batch_size=256)
    for u in users:
        inputs = {}
        inputs["user"] = np.array([u])
        inputs["input_seq"] = seqs
        print(model.predict(inputs))
    return scores

model = tf.keras.models.load_model("sasrec")
evaluate(model, range(10000), seqs, candidates)
"""
    assert sure(clean, "PP301") == []


def test_pp301_a_batching_helper_given_a_list_of_one():
    """tf-fix38, reading 27's BERT-NER evaluation: `ids, segments = encode([text])` (a project helper, or
    `pad_sequences([seq])`) returns a batch of one, as `np.array([x])` does; predicting it for every test
    sentence is PP301. The sentences of one example paragraph written in the module are a demo (`low`); the
    twin encodes the whole list at once."""
    src = """
import re
import numpy as np
import tensorflow as tf
from tensorflow.keras.preprocessing.sequence import pad_sequences
from train import encode

model = tf.keras.models.load_model("ner.h5")
tags = []
for sentence in test_sentences:
    ids, segments = encode([sentence])
    tags.append(np.argmax(model.predict([ids, segments])[0], axis=1))
for seq in test_sequences:
    tags.append(model.predict(pad_sequences([seq], maxlen=128))[0])
text = "First finding. Second finding. Third finding."
for part in re.split("[.]", text):
    ids, segments = encode([part])
    print(model.predict([ids, segments]))
"""
    assert sure(src, "PP301") == [(12, "high"), (14, "high"), (18, "low")]
    clean = """
import numpy as np
import tensorflow as tf
from train import encode

model = tf.keras.models.load_model("ner.h5")
ids, segments = encode(test_sentences)
tags = np.argmax(model.predict([ids, segments], batch_size=64), axis=-1)
for sentence in test_sentences:
    ids, segments = encode(sentence)
    print(model.predict([ids, segments]))
"""
    assert sure(clean, "PP301") == []


def test_pp301_a_helper_given_several_lists_of_one():
    """tf-fix41, reading 29's bert4keras evaluations: `to_array([token_ids], [segment_ids])` (each input of one
    sample in a list of one) returns batches of one, though an earlier line binds `token_ids` to the unbatched
    ids; so does `np.array(token_list)` after `token_list = sequence_padding([token_ids])`. A recognizer method
    doing so, called for every evaluation sentence, is PP301 at its call (`low`, as every call of a
    per-sample predictor), the loop's own predict as usual (`high`). The twins pad all sentences at once, or
    give the helper whole lists."""
    src = """
import numpy as np
import tensorflow as tf
from bert4keras.snippets import sequence_padding, to_array

model = tf.keras.models.load_model("ner.h5")


class Recognizer:
    def recognize(self, text):
        token_ids = tokenizer.encode(text)
        segment_ids = [0] * len(token_ids)
        token_ids, segment_ids = to_array([token_ids], [segment_ids])
        return model.predict([token_ids, segment_ids])[0]


NER = Recognizer()


def evaluate_report(texts):
    labels = []
    for text in texts:
        token_ids, segment_ids = tokenizer.encode(text)
        token_list = sequence_padding([token_ids])
        segment_list = sequence_padding([segment_ids])
        labels.append(model.predict([np.array(token_list), np.array(segment_list)]).argmax(axis=1))
    return labels


def evaluate_loop(data):
    for d in data:
        print(NER.recognize(d[0]))
"""
    assert sure(src, "PP301") == [(26, "high"), (32, "low")]
    clean = """
import numpy as np
import tensorflow as tf
from bert4keras.snippets import sequence_padding, to_array

model = tf.keras.models.load_model("ner.h5")


class Recognizer:
    def recognize(self, texts):
        token_ids = [tokenizer.encode(text) for text in texts]
        segment_ids = [[0] * len(ids) for ids in token_ids]
        token_ids, segment_ids = to_array(token_ids, segment_ids)
        return model.predict([token_ids, segment_ids])


NER = Recognizer()


def evaluate_report(texts):
    token_list = sequence_padding([tokenizer.encode(text)[0] for text in texts])
    return model.predict(np.array(token_list)).argmax(axis=1)


def evaluate_loop(data):
    for d in data:
        print(NER.recognize(d))
"""
    assert sure(clean, "PP301") == []


def test_pp202_a_dataset_subclass_built_in_new_is_a_source():
    """tf-fix38, reading 27's VQ-VAE: `class ImageLabelFilelist(tf.data.Dataset)` whose `__new__` returns
    `from_generator(...)` is a dataset source; its serial read/decode map is PP202 as on any pipeline. The twin's
    class is no dataset (a plain list of paths), so its `map` is Python's."""
    src = """
import tensorflow as tf

class ImageLabelFilelist(tf.data.Dataset):
    def _generator(root, files):
        for f in files:
            yield root + f
    def __new__(cls, root, files):
        return tf.data.Dataset.from_generator(cls._generator, output_types=tf.string, args=(root, files))

def load(path):
    return tf.image.decode_jpeg(tf.io.read_file(path))

def get_dataset(root, files):
    return ImageLabelFilelist(root, files).shuffle(1000).map(load)
"""
    assert [line for line, _ in sure(src, "PP202")] == [15]
    clean = """
import tensorflow as tf

class ImageLabelFilelist(list):
    def __new__(cls, root, files):
        return list.__new__(cls)

def load(path):
    return tf.image.decode_jpeg(tf.io.read_file(path))

def get_dataset(root, files):
    return ImageLabelFilelist(root, files).shuffle(1000).map(load)
"""
    assert sure(clean, "PP202") == []


def test_pp301_the_candidates_of_a_beam_search_are_fed_back():
    """tf-fix38: a beam search predicts each candidate of the beam, and the outer decoding loop rebuilds the
    beam from those predictions (`sequences = sorted(all_candidates)[:k]`): fed back, silent, as decoding
    loops are. The twin's outer loop walks fixed groups of captions, so the inner per-caption loop stays."""
    src = """
import numpy as np
import tensorflow as tf
from tensorflow.keras.preprocessing.sequence import pad_sequences

def beam_search(model, feature, tokenizer, max_length, k=3):
    sequences = [[["<start>"], 0.0]]
    for _ in range(max_length):
        all_candidates = []
        for seq, score in sequences:
            sequence = np.array([tokenizer(seq)])
            yhat = model.predict([np.expand_dims(feature, 0), sequence])
            for idx in np.argsort(yhat[0])[-k:]:
                all_candidates.append([seq + [idx], score + np.log(yhat[0][idx])])
        ordered = sorted(all_candidates, key=lambda t: t[1], reverse=True)
        sequences = ordered[:k]
    return sequences[0]
"""
    assert sure(src, "PP301") == []
    twin = """
import numpy as np
import tensorflow as tf
from tensorflow.keras.preprocessing.sequence import pad_sequences

def score_all(model, feature, tokenizer, groups, max_length):
    scores = []
    for group in groups:
        captions = group.captions
        for seq in captions:
            sequence = np.array([tokenizer(seq)])
            scores.append(model.predict([np.expand_dims(feature, 0), sequence]))
    return scores
"""
    assert sure(twin, "PP301") == [(12, "high")]


def test_pp202_a_training_loop_that_saves_checkpoints_is_no_conversion():
    """A training loop that saves a checkpoint or the model (`checkpoint.save(path)` every n steps,
    `net.save(path)` every n steps) writes weights, not records: its pipeline is training data (reading 28,
    OCR-tf2's CTPN decode map, was `low` as a record conversion); a loop that saves each element with
    `np.save` stays a conversion."""
    src = """
import numpy as np
import tensorflow as tf

def parse(record):
    features = tf.io.parse_single_example(record, SPEC)
    return tf.io.decode_jpeg(features["image"]), features["label"]

def main():
    trainset = tf.data.TFRecordDataset(files).map(parse).batch(1)
    checkpoint = tf.train.Checkpoint(model=net, optimizer=optimizer)
    for image, labels in trainset:
        with tf.GradientTape() as tape:
            loss = compute_loss(net(image), labels)
        optimizer.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))
        if tf.equal(optimizer.iterations % 2000, 0):
            checkpoint.save("checkpoints/ckpt")

main()
"""
    assert sure(src, "PP202") == [(10, "high")]
    periodic = src.replace('checkpoint.save("checkpoints/ckpt")', 'net.save("net.h5")')
    assert sure(periodic, "PP202") == [(10, "high")]
    converted = src.replace(
        """        with tf.GradientTape() as tape:
            loss = compute_loss(net(image), labels)
        optimizer.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))
        if tf.equal(optimizer.iterations % 2000, 0):
            checkpoint.save("checkpoints/ckpt")
""",
        """        np.save(out_path(labels), image.numpy())
""",
    )
    assert sure(converted, "PP202") == [(10, "low")]


def test_pp301_images_kept_at_their_own_sizes_are_low():
    """A per-image predict on images that keep their own sizes cannot stack them without padding: the loop
    resizes a companion image to the size it reads off an item (a bicubic baseline at the high-resolution
    image's size), or the images come from files the def opened and never resized. Reading 28 read eight
    such `high` findings debatable (super-resolution test helpers); a fixed-size input stays `high`."""
    src = """
import numpy as np
import tensorflow as tf
from PIL import Image

model = tf.keras.models.load_model("generator.h5")

def plot_test_images(loader, paths):
    imgs_lr, imgs_hr = loader.load_batch(img_paths=paths, training=False)
    imgs_bc, imgs_sr = [], []
    for i in range(len(imgs_lr)):
        pil_img = Image.fromarray(imgs_lr[i].astype("uint8"))
        hr_shape = (imgs_hr[i].shape[1], imgs_hr[i].shape[0])
        imgs_bc.append(np.array(pil_img.resize(hr_shape, resample=Image.BICUBIC)))
        imgs_sr.append(np.squeeze(model.predict(np.expand_dims(imgs_lr[i], 0)), axis=0))
    return imgs_bc, imgs_sr

def predict_folder(paths):
    imgs = []
    for path in paths:
        img = Image.open(path)
        if img.mode != "RGB":
            img = img.convert("RGB")
        imgs.append(np.array(img))
    outputs = []
    for i in range(len(paths)):
        x = imgs[i] / 255.0
        outputs.append(model.predict(np.expand_dims(x, 0))[0])
    return outputs
"""
    assert sure(src, "PP301") == [(15, "low"), (28, "low")]
    fixed = src.replace(
        "model.predict(np.expand_dims(imgs_lr[i], 0))",
        "model.predict(np.expand_dims(cv2.resize(imgs_lr[i], (96, 96)), 0))",
    ).replace("imgs.append(np.array(img))", "imgs.append(np.array(img.resize((96, 96))))")
    assert sure(fixed, "PP301") == [(15, "high"), (28, "high")]


def test_pp301_a_folder_translated_at_any_size_is_low():
    """tf-fix45: a generator rebuilt on `Input((None, None, c))` and fed each image of a folder as the loop
    reads it, never resized (reading 16's CycleGAN `generate.py`, read wrong at `high`): the images keep
    their own sizes and cannot be stacked. A fixed-size input, or a resize on the path, stays `high`."""
    src = """
import os
import cv2
import numpy as np
import tensorflow as tf

def main(checkpoint_path, files_path, output_path):
    mod = tf.keras.models.load_model(checkpoint_path)
    inp = tf.keras.layers.Input((None, None, mod.input_shape[-1]))
    mod = tf.keras.models.Model(inp, mod(inp))
    for name in os.listdir(files_path):
        bgr_img = cv2.imread(os.path.join(files_path, name), cv2.IMREAD_UNCHANGED)
        rgb_img = cv2.cvtColor(bgr_img, cv2.COLOR_BGR2RGB)
        img = (rgb_img / 127.5) - 1
        out = (mod.predict(np.expand_dims(img, axis=0)) + 1) * 127.5
        cv2.imwrite(os.path.join(output_path, name), out[0])
"""
    assert sure(src, "PP301") == [(15, "low")]
    fixed = src.replace("Input((None, None, mod.input_shape[-1]))", "Input((256, 256, mod.input_shape[-1]))")
    assert sure(fixed, "PP301") == [(15, "high")]
    resized = src.replace("rgb_img = cv2.cvtColor(bgr_img", "rgb_img = cv2.resize(bgr_img, (256, 256))  #")
    assert sure(resized, "PP301") == [(15, "high")]


def test_pp301_a_loop_over_colab_uploads_is_low():
    """tf-fix45: `uploaded = files.upload()` (google.colab), then a predict per uploaded file: an interactive
    demo of the few images a person picked (reading 31's WeedWatch, read debatable at `high`), as a short
    list literal is. A loop over a folder's files stays `high`, as does an `upload` of another library."""
    src = """
import os
import numpy as np
from google.colab import files
from tensorflow.keras.utils import load_img, img_to_array

model = load_model("weeds.h5")
uploaded = files.upload()

for fn in uploaded.keys():
    img = load_img(fn, target_size=(512, 512))
    x = np.expand_dims(img_to_array(img), axis=0)
    predictions = model.predict(np.vstack([x]), batch_size=10)
    print(fn, predictions[0])
"""
    src = "from tensorflow.keras.models import load_model\n" + src
    assert sure(src, "PP301") == [(14, "low")]
    folder = src.replace("uploaded = files.upload()", "uploaded = os.listdir('test')").replace(
        "uploaded.keys()", "uploaded"
    )
    assert sure(folder, "PP301") == [(14, "high")]
    other = src.replace("from google.colab import files", "from myapp import files")
    assert sure(other, "PP301") == [(14, "high")]


def test_pp203_a_pipeline_drawn_by_next_in_a_loop_is_consumed():
    """`it = iter(ds)`, then `next(it)` on every iteration of a training loop consumes the pipeline as a
    `for` over it does: PP203 reads it (reading 28: DETR's training pipeline was seen by PP202, not by
    PP203); one drawn every n steps only (`if step % 100 == 0: next(it)`) is not."""
    src = """
import tensorflow as tf

def main():
    trainset = tf.data.TFRecordDataset(files).map(lambda r: tf.io.decode_jpeg(r)).repeat(-1).batch(8)
    trainset_iter = iter(trainset)
    while True:
        images = next(trainset_iter)
        with tf.GradientTape() as tape:
            loss = model(images)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))

main()
"""
    assert [line for line, _ in sure(src, "PP203")] == [5]
    glimpsed = src.replace(
        "        images = next(trainset_iter)\n",
        "        if step % 100 == 0:\n            images = next(trainset_iter)\n",
    )
    assert sure(glimpsed, "PP203") == []
    # `next(trainset)` in a def whose parameter is so named draws from what its caller passes
    passed = """
import tensorflow as tf

def fill(trainset, encoder):
    keys = []
    for i in range(10):
        keys.append(encoder(next(trainset)))
    return keys

trainset = iter(tf.data.TFRecordDataset(files).map(lambda r: tf.io.decode_jpeg(r)).batch(8))
images = next(trainset)
"""
    assert sure(passed, "PP203") == []


def test_pp101_collection_reads_and_profiler_options_add_no_node():
    """tf-fix42: `tf.contrib.summary.all_summary_ops()` hands back the summary ops the graph already holds, and
    a `ProfileOptionBuilder` call builds a Python dict for the profiler (reading 30's avsr-tf1, four `medium`
    findings read wrong); a summary op built in the same loop is still reported."""
    src = """
import tensorflow as tf
from tensorflow.python.profiler import option_builder

def train(sess, model, profiler, run_meta, profiling):
    batches = 0
    while True:
        out = sess.run([model.train_op, model.loss, tf.contrib.summary.all_summary_ops()])
        if profiling:
            profiler.add_step(batches, run_meta)
            opts = option_builder.ProfileOptionBuilder.time_and_memory()
            profiler.profile_operations(options=opts)
        batches += 1
"""
    assert sure(src, "PP101") == []
    grows = src.replace("tf.contrib.summary.all_summary_ops()", "tf.summary.scalar('loss', model.loss)")
    assert sure(grows, "PP101") == [(8, "medium")]


def test_pp101_a_callee_that_builds_only_under_a_flag_the_call_leaves_off():
    """tf-fix42: a helper that builds a pipeline and iterator only `if cache:` (through a second helper it
    passes `cache=cache` to) grows nothing when the loop calls it without `cache` (reading 30's DeepSphere
    `self.evaluate(val_data, val_labels, sess)`, read wrong); called with `cache='TF'` it is reported."""
    src = """
import numpy as np
import tensorflow as tf

class Model:
    def probs(self, data, sess, cache=False):
        if cache:
            if cache is 'TF':
                it = data.get_tf_dataset(32).make_one_shot_iterator().get_next()
                return sess.run(it)
        return sess.run(self.op_probabilities, {self.ph_data: data})

    def evaluate(self, data, labels, sess=None, cache=False):
        probabilities = self.probs(data, sess, cache=cache)
        return np.mean(np.argmax(probabilities, -1) == labels)

    def fit(self, sess, train_op, val_data, val_labels, num_steps):
        for step in range(num_steps):
            sess.run(train_op)
            if step % 100 == 0:
                accuracy = self.evaluate(val_data, val_labels, sess)
"""
    assert sure(src, "PP101") == []
    cached = src.replace(
        "self.evaluate(val_data, val_labels, sess)", "self.evaluate(val_data, None, sess, cache='TF')"
    )
    assert sure(cached, "PP101") == [(21, "medium")]


def test_pp301_a_few_samples_by_slice_or_by_default_count_are_low():
    """tf-fix43: a loop over a slice of a few items with both bounds written (`iloc[1:8]`, seven word images
    shown in a notebook cell, reading 29) and a loop over `range(nb_images)` whose bound is a parameter
    defaulting to a small count that no call raises (`def main(nb_images=5)`, called as `main()`: a
    five-image spot check, reading 22) show a few samples, as `[:5]` and `range(5)` do: `low`, not `high`.
    The twins slice 500 items, or call the spot check with 1000 images: still `high`."""
    src = """
import numpy as np
import tensorflow as tf

model = tf.keras.models.load_model("crnn.h5")

def show(df):
    texts = []
    for path in df["im"].iloc[1:8]:
        img = load(path)
        texts.append(model.predict(img[np.newaxis, :, :, np.newaxis]))
    return texts

def main(nb_images=5):
    for _ in range(nb_images):
        image = pick_random_test_image()
        image_arr = np.expand_dims(image, axis=0)
        print(model.predict(image_arr))

if __name__ == "__main__":
    show(load_table())
    main()
"""
    assert sure(src, "PP301") == [(11, "low"), (18, "low")]
    many = src.replace("iloc[1:8]", "iloc[1:501]").replace("    main()", "    main(nb_images=1000)")
    assert sure(many, "PP301") == [(11, "high"), (18, "high")]
    # a count the def rebinds, or a parameter with no default, is no known few
    rebound = src.replace(
        "    for _ in range(nb_images):", "    nb_images = len(images)\n    for _ in range(nb_images):"
    )
    assert sure(rebound, "PP301")[1] == (19, "high")
    no_default = src.replace("def main(nb_images=5):", "def main(nb_images):").replace(
        "    main()", "    main(n)"
    )
    assert sure(no_default, "PP301")[1] == (18, "high")


def test_pp301_tensor_eval_with_a_positional_feed_is_a_session_run():
    """tf-fix44: `pred.eval({x: x_raw})` is TF1's `Tensor.eval(feed_dict)`, a session run fed one reshaped row
    per iteration (reading 31's Packt lessons), judged as `sess.run(pred, {x: x_raw})` is: `high`. The twin
    feeds a batch slice and stays silent."""
    src = """
import numpy as np
import tensorflow as tf

def test(pred, x, testing):
    errors = []
    for i in range(testing.shape[0]):
        x_raw = np.reshape(testing[i, :-1], (1, 2))
        errors.append(pred.eval({x: x_raw}))
    return errors
"""
    assert sure(src, "PP301") == [(9, "high")]
    assert sure(src.replace("pred.eval({x: x_raw})", "sess.run(pred, {x: x_raw})"), "PP301") == [(9, "high")]
    batched = src.replace("np.reshape(testing[i, :-1], (1, 2))", "testing[i : i + 64, :-1]")
    assert sure(batched, "PP301") == []


def test_pp301_a_training_run_that_rebinds_the_name_does_not_silence_the_test_loop():
    """tf-fix44: a parameter study trains each configuration on batches (`x_raw = train[j:j+b]` right before
    its `sess.run(train_op, ...)`), then tests one sample at a time under the same name: the training run
    reads its own batch, so the per-sample test loop is `high` (reading 31's Packt 3-3 ... 6-2). A training
    run in the outer loop that reads what the sample loop collects (an agent's rollout) still silences it."""
    src = """
import tensorflow as tf

def study(configs, data, build, epochs, b):
    for conf in configs:
        x, train_op, pred = build(conf)
        with tf.compat.v1.Session() as sess:
            for _ in range(epochs):
                for j in range(0, len(data["train"]), b):
                    x_raw = data["train"][j : j + b]
                    sess.run(train_op, feed_dict={x: x_raw})
            for i in range(len(data["test"])):
                x_raw = data["test"][i : i + 1]
                print(sess.run(pred, feed_dict={x: x_raw}))
"""
    assert sure(src, "PP301") == [(14, "high")]
    collected = """
import numpy as np
import tensorflow as tf

def rollouts(sess, x, policy, train_op, observations, episodes):
    for _ in range(episodes):
        states = []
        for obs in observations:
            s = np.expand_dims(obs, 0)
            sess.run(policy, feed_dict={x: s})
            states.append(s)
        sess.run(train_op, feed_dict={x: np.vstack(states)})
"""
    assert sure(collected, "PP301") == []


def test_pp301_a_pseudo_batch_of_one_filled_item_by_item_is_medium():
    """tf-fix44: `z = np.zeros((1, d))` filled by item (`z[0, 0] = xi`) and predicted per grid point (reading
    30's VAE), or one `np.empty((1, ...))` allocated before the loop and refilled per tile (reading 31's
    Sentinel-2 map): a new shape with two first reads, so `medium` (FILLED_BATCH_LEVEL). The twins: a row
    of points filled into one batch, and a text generator whose one-hot input encodes the sentence each
    prediction extends (fed back), stay silent."""
    from checker.rules.keras import FILLED_BATCH_LEVEL

    assert FILLED_BATCH_LEVEL == "medium"
    src = """
import numpy as np
import tensorflow as tf

decoder = tf.keras.models.load_model("decoder.h5")

def grid(grid_x, grid_y, d):
    out = []
    for yi in grid_y:
        for xi in grid_x:
            z = np.zeros((1, d))
            z[0, 0] = xi
            z[0, 1] = yi
            out.append(decoder.predict(tf.constant(z)))
    return out
"""
    assert sure(src, "PP301") == [(14, "medium")]
    rows = src.replace("np.zeros((1, d))", "np.zeros((len(grid_x), d))")
    assert sure(rows, "PP301") == []
    text = """
import numpy as np
import tensorflow as tf

model = tf.keras.models.load_model("chars.h5")

def generate(sentence, maxlen, chars, index):
    for i in range(400):
        x_pred = np.zeros((1, maxlen, len(chars)))
        for t, char in enumerate(sentence):
            x_pred[0, t, index[char]] = 1.0
        preds = model.predict(x_pred)[0]
        sentence = sentence[1:] + chars[int(np.argmax(preds))]
    return sentence
"""
    assert sure(text, "PP301") == []


def test_pp101_file_writes_of_the_graph_add_no_node():
    """tf-fix44: `tf.train.export_meta_graph` (reading 31's one wrong PP101 `medium`) and `tf.io.write_graph`
    in a training loop write the graph to a file and add no node; `tf.reduce_mean` there still does."""
    src = """
import tensorflow as tf

def train(sess, train_op, loss, episodes):
    for episode in range(episodes):
        sess.run(train_op)
        if episode % 100 == 0:
            tf.train.export_meta_graph(filename="policy.meta")
            tf.io.write_graph(sess.graph_def, "logs", "graph.pbtxt")
            print(sess.run(tf.reduce_mean(loss)))
"""
    assert [line for line, _ in sure(src, "PP101")] == [10]


def test_pp301_a_strided_slice_of_a_few_samples_is_a_spot_check():
    """(review 21 item 7) `[:10:2]` shows five images and `[2:30:7]` four, as `[:5]` does (`low`); a step that
    still leaves more than a few (`[:100:2]`, fifty) and a step given by a setting stay `high`."""
    src = """
import numpy as np
import tensorflow as tf
model = tf.keras.models.load_model("digits.h5")
(_, _), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
for image in x_test[:10:2]:
    print(model.predict(np.expand_dims(image, 0)).argmax())
for image, label in zip(x_test[2:30:7], y_test[2:30:7]):
    print(label, model.predict(image[None]).argmax())
for image in x_test[:100:2]:
    print(model.predict(np.expand_dims(image, 0)).argmax())
for image in x_test[:10:stride]:
    print(model.predict(np.expand_dims(image, 0)).argmax())
"""
    assert sure(src, "PP301") == [(7, "low"), (9, "low"), (11, "high"), (13, "high")]


def test_pp101_tensorflow_internal_non_ops_add_no_node():
    """tf-fix47: TensorFlow's own source (vendored in ryfeus/lambda-packs) imports its modules by path, so
    `training_util.global_step(sess, t)` resolves to `tensorflow.python.training.training_util.global_step`:
    `tf.train.global_step` by another name, a session read that returns an int (slim's `_wait_for_step`,
    reported `medium` at the retry loop's call, read wrong with 26 like it). A helper building a real op
    through an internal module (`math_ops.reduce_sum`) is still reported."""
    src = """
import time

from tensorflow.python.ops import math_ops
from tensorflow.python.training import training_util


def _wait_for_step(sess, global_step, step):
    while True:
        if training_util.global_step(sess, global_step) >= step:
            break
        time.sleep(1.0)


def train(train_op, sv, global_step, startup_delay_steps, number_of_steps):
    should_retry = True
    while should_retry:
        should_retry = False
        with sv.managed_session() as sess:
            _wait_for_step(sess, global_step, startup_delay_steps)
            while not sv.should_stop():
                total_loss = sess.run(train_op)
                if number_of_steps and total_loss > 0:
                    break
    return total_loss
"""
    assert sure(src, "PP101") == []
    grows = src.replace(
        "training_util.global_step(sess, global_step)", "sess.run(math_ops.reduce_sum(global_step))"
    )
    assert sure(grows, "PP101") == [(10, "low"), (20, "medium")]


def test_pp101_contrib_checkpoint_reads_and_writer_cache_lookups_add_no_node():
    """tf-fix47: contrib learn's `train()` retry loop (vendored in lambda-packs, 6 `medium` findings read wrong)
    reads the step from a checkpoint with `tf.contrib.framework.load_variable` (`tf.train.load_variable`), and
    the object detection evaluator takes its writer from `tf.summary.FileWriterCache.get` (reading 19 read
    that wrong): neither adds a node. A summary op built in the same helper is still reported."""
    src = """
import tensorflow as tf


def _train_internal(sess, train_op, output_dir):
    start = tf.contrib.framework.load_variable(output_dir, "global_step")
    writer = tf.summary.FileWriterCache.get(output_dir)
    sess.run(train_op)
    return start, writer


def train(sess, train_op, output_dir):
    while True:
        try:
            return _train_internal(sess, train_op, output_dir)
        except tf.errors.AbortedError:
            continue
"""
    assert sure(src, "PP101") == []
    grows = src.replace("tf.summary.FileWriterCache.get(output_dir)", 'tf.summary.scalar("step", start)')
    assert sure(grows, "PP101") == [(15, "medium")]


def test_pp301_a_multi_input_model_given_each_input_in_a_list_of_one_is_medium():
    """tf-fix48: reading 33's PointNetReg predicts every ROI of a patient in a comprehension, each of the
    model's three inputs a list of one sample (`[[np.array(fixed)], [np.array(moving)], [np.array(x)]]`):
    Keras stacks each into a batch of one. A new shape (two first reads in one repository), so `medium`
    (LISTED_INPUTS_LEVEL). The twins stay silent: the inputs given as lists of all ROIs, a lone `[x]` (a
    one-input model's list adds no batch axis), and a list of one holding a list (a batch written out)."""
    src = """
import numpy as np
from tensorflow.keras.models import load_model

model = load_model("pointnet_reg.h5")

def register(patients, dims):
    out = []
    for fixed, moving, rois in patients:
        rois = [np.resize(r, dims) for r in rois]
        preds = [model.predict([[np.array(fixed)], [np.array(moving)], [np.array(x)]]) for x in rois]
        out.append(preds)
    return out
"""
    assert sure(src, "PP301") == [(11, "medium")]
    stacked = src.replace(
        "[model.predict([[np.array(fixed)], [np.array(moving)], [np.array(x)]]) for x in rois]",
        "model.predict([np.array([fixed] * len(rois)), np.array([moving] * len(rois)), np.array(rois)])",
    )
    assert sure(stacked, "PP301") == []
    lone = src.replace("[[np.array(fixed)], [np.array(moving)], [np.array(x)]]", "[np.array(x)]")
    assert sure(lone, "PP301") == []
    written = src.replace("[[np.array(fixed)], [np.array(moving)], [np.array(x)]]", "[[x, fixed, moving]]")
    assert sure(written, "PP301") == []


def test_pp301_a_module_def_given_a_one_sample_slice_keeps_the_batch_of_one():
    """tf-fix48, reading 31's Packt parameter study: each test row is fed to `sess.run` as
    `thresholdvector(test_x[i:i+1])`, a def of the module that thresholds the rows in place and returns them:
    still a batch of one, as its sibling lessons' `test_x[i:i+1]` (found) is. A def given the whole test
    set, a library call given the slice (`np.sum(test_x[i:i+1])`, a scalar), and a def that returns a new
    array grown from the slice (basenji's `satmut_seqs`, every mutation of a sequence: read wrong) stay
    silent."""
    src = """
import numpy as np
import tensorflow as tf

def thresholdvector(vector):
    for i in range(vector.shape[0]):
        vector[i] = 1.0 * (vector[i] > 0)
    return vector

def test(sess, xi, eval_pred, test_x, test_y):
    good = 0
    for i in range(test_x.shape[0]):
        x_raw = thresholdvector(test_x[i:i + 1])
        pred = sess.run(eval_pred, feed_dict={xi: x_raw})
        good += int(np.argmax(pred) == np.argmax(test_y[i]))
    return good
"""
    assert sure(src, "PP301") == [(14, "high")]
    whole = src.replace("thresholdvector(test_x[i:i + 1])", "thresholdvector(test_x)")
    assert sure(whole, "PP301") == []
    library = src.replace("thresholdvector(test_x[i:i + 1])", "np.sum(test_x[i:i + 1])")
    assert sure(library, "PP301") == []
    grown = src.replace(
        "    for i in range(vector.shape[0]):\n        vector[i] = 1.0 * (vector[i] > 0)\n    return vector",
        "    out = np.repeat(vector, 64, axis=0)\n    return out",
    )
    assert grown != src
    assert sure(grown, "PP301") == []


# ---------------------------------------------------------------- tf-fix49: reading 34's misses and wrong lows

_ZIPPED = """
import tensorflow as tf
import tensorflow_datasets as tfds

AUTOTUNE = tf.data.AUTOTUNE
dataset = tfds.load("cycle_gan/horse2zebra", as_supervised=True)
train_horses, train_zebras = dataset["trainA"], dataset["trainB"]

def preprocess_image_train(image, label):
    image = tf.image.resize(image, [286, 286], method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
    image = tf.image.random_crop(image, size=[256, 256, 3])
    image = tf.image.random_flip_left_right(image)
    return tf.cast(image, tf.float32) / 127.5 - 1

train_horses = train_horses.cache().map(
    preprocess_image_train, num_parallel_calls=AUTOTUNE).shuffle(
    1000).batch(1)
train_zebras = train_zebras.cache().map(
    preprocess_image_train, num_parallel_calls=AUTOTUNE).shuffle(
    1000).batch(1)

@tf.function
def train_step(real_x, real_y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(real_x - real_y)
    return loss

for epoch in range(40):
    for image_x, image_y in tf.data.Dataset.zip((train_horses, train_zebras)):
        train_step(image_x, image_y)
"""


def test_pp203_pipelines_zipped_into_the_training_loop():
    """Reading 34 (CycleGAN): each pipeline merged by a `Dataset.zip` that the GradientTape loop iterates is
    reported at its last step, at the level it gets alone; bound to a name first too. Silent when a member
    (for that member) or the zip prefetches."""
    assert sure(_ZIPPED, "PP203") == [(17, "high"), (20, "high")]
    named = _ZIPPED.replace(
        "for epoch in range(40):",
        "both = tf.data.Dataset.zip((train_horses, train_zebras))\nfor epoch in range(40):",
    ).replace("in tf.data.Dataset.zip((train_horses, train_zebras)):", "in both:")
    assert named != _ZIPPED and sure(named, "PP203") == [(17, "high"), (20, "high")]
    zebras_prefetched = _ZIPPED.replace(
        "    1000).batch(1)\n\n@", "    1000).batch(1).prefetch(AUTOTUNE)\n\n@"
    )
    assert zebras_prefetched != _ZIPPED and sure(zebras_prefetched, "PP203") == [(17, "high")]
    zip_prefetched = _ZIPPED.replace(
        "(train_horses, train_zebras)):", "(train_horses, train_zebras)).prefetch(1):"
    )
    assert zip_prefetched != _ZIPPED and sure(zip_prefetched, "PP203") == []


_TUNED = """
import kerastuner as kt
import tensorflow as tf
import tensorflow_datasets as tfds

def convert_dataset(item):
    image, label = item["image"], item["label"]
    return tf.cast(image, tf.float32) / 255.0, label

def build_model(hp):
    model = tf.keras.Sequential([tf.keras.layers.Dense(hp.Int("units", 8, 64))])
    model.compile("adam", "sparse_categorical_crossentropy")
    return model

def main():
    mnist_train = tfds.load("mnist", split="train")
    mnist_train = mnist_train.map(convert_dataset).shuffle(1000).batch(100).repeat()
    tuner = kt.Hyperband(build_model, objective="val_accuracy", max_epochs=8)
    tuner.search(mnist_train, steps_per_epoch=600, epochs=8)

if __name__ == "__main__":
    main()
"""


def test_pp203_keras_tuner_search_trains_like_fit():
    """Reading 34 (tzom/keras-tuner-grpc): `tuner.search(ds)` fits a model per trial: the pipeline is read as
    with `model.fit(ds)` (low: no image work). A `search` on something that is not a tuner is not."""
    assert sure(_TUNED, "PP203") == [(17, "low")]
    fitted = _TUNED.replace("tuner.search(", "tuner.fit(")
    assert sure(fitted, "PP203") == sure(_TUNED, "PP203")
    from_import = _TUNED.replace("import kerastuner as kt", "from keras_tuner import RandomSearch").replace(
        "kt.Hyperband(", "RandomSearch("
    )
    assert sure(from_import, "PP203") == [(17, "low")]
    other = _TUNED.replace("kt.Hyperband(", "Index(")
    assert sure(other, "PP203") == []
    validated = _TUNED.replace(
        '    mnist_train = tfds.load("mnist", split="train")\n',
        '    mnist_train = tfds.load("mnist", split="train")\n'
        '    mnist_test = tfds.load("mnist", split="test").map(convert_dataset).batch(100)\n',
    ).replace("epochs=8)", "epochs=8, validation_data=mnist_test, validation_steps=100)")
    assert validated != _TUNED and sure(validated, "PP203") == [(17, "low"), (18, "low")]
    assert sure(validated.replace("tuner.search(", "tuner.fit("), "PP203") == sure(validated, "PP203")


def test_pp302_xrange_of_nine_is_a_few_literal_iterations():
    """Reading 34 (dishank-b `output_binary_test.py`): nine small binary models loaded one after another in
    `for i in xrange(9)` are the <= 10 literal iterations PP302 exempts, as `range(9)` is; `xrange(50)` is
    not."""
    src = """
import numpy as np
from keras.models import load_model

X_val = np.load("X_test.npy")
result_full = []
for i in xrange(9):
    model = load_model('models/binary_' + str(i) + '.h5')
    result = model.predict(X_val)
    del model
    result_full.append(result)
"""
    assert sure(src, "PP302") == []
    assert sure(src.replace("xrange(9)", "xrange(50)"), "PP302") == [(8, "low")]


def test_pp101_a_switch_off_branch_is_walked_once_whatever_its_targets(monkeypatch):
    """(review 24 item 18) `_in_self_disabling_branch` asks `_LoopStores.bound_outside` once per branch, not
    once per target of each switching assignment (`ready = built = True` walked the branch twice), and the
    answer is unchanged: the branch that switches its own test off is a one-time change."""
    import ast

    from checker.rules import graph

    tree = ast.parse(
        "for step in range(10):\n    if not built:\n        layer = make()\n        ready = built = True\n"
    )
    loop = tree.body[0]
    node = loop.body[0].body[0].value
    calls = []
    original = graph._LoopStores.bound_outside

    def counted(self, loop, branch):
        calls.append(branch)
        return original(self, loop, branch)

    monkeypatch.setattr(graph._LoopStores, "bound_outside", counted)
    assert graph._in_self_disabling_branch(loop, node, graph._LoopStores())
    assert len(calls) == 1


def test_pp301_a_def_predicting_its_parameter_again_and_again_is_a_predictor():
    """tf-fix50, reading 32's CEAL (`src/utils.py`): `compute_uncertain` predicts its `sample` 20 times over
    `range(nb_step_predictions)` (Monte Carlo dropout) and `compute_train_sets` calls it once per unlabeled
    image with `X_train[i].reshape([1, 1, rows, cols])`: PP301 at the call, `low`, naming the predict.
    A def whose loop predicts what the loop changes decodes step by step (none), and a caller handing it the
    whole set is none."""
    src = """
import numpy as np
from keras.models import Model

nb_step_predictions = 20


def compute_uncertain(sample, prediction, model):
    X = np.zeros([1, 64, 80])
    for t in range(nb_step_predictions):
        prediction = model.predict(sample, verbose=0).reshape([1, 64, 80])
        X = np.concatenate((X, prediction))
    return np.sum(np.var(X, axis=0))


def compute_train_sets(X_train, unlabeled_index, model):
    uncertain = np.zeros(len(unlabeled_index))
    for index in range(0, len(unlabeled_index)):
        sample = X_train[unlabeled_index[index]].reshape([1, 1, 64, 80])
        uncertain[index] = compute_uncertain(sample, None, model)
    return uncertain
"""
    assert sure(src, "PP301") == [(20, "low")]
    decoding = src.replace("model.predict(sample, verbose=0)", "model.predict(sample + X[-1:], verbose=0)")
    assert sure(decoding, "PP301") == []
    whole = src.replace(
        "sample = X_train[unlabeled_index[index]].reshape([1, 1, 64, 80])",
        "sample = X_train[unlabeled_index]",
    )
    assert sure(whole, "PP301") == []


def test_pp301_a_contrib_predictor_fed_one_example_per_row():
    """tf-fix50, reading 33's Wide & Deep local prediction: each CSV row is serialized to one
    `tf.train.Example` and passed alone to a `tf.contrib.predictor` (`predictor({"inputs": [model_input]})`):
    PP301, `low`. The examples collected and passed once, or the same list every row, are none."""
    src = """
import tensorflow as tf


def main():
    predictor = tf.contrib.predictor.from_saved_model(exported_path)
    with open(predictioninputfile) as inf:
        for line in inf:
            age, workclass = line.strip().split(",")
            feature_dict = {"age": _float_feature(int(age)), "workclass": _bytes_feature(workclass.encode())}
            model_input = tf.train.Example(features=tf.train.Features(feature=feature_dict))
            model_input = model_input.SerializeToString()
            output_dict = predictor({"inputs": [model_input]})
            print(output_dict["scores"])
"""
    assert sure(src, "PP301") == [(13, "low")]
    assert sure(src.replace('{"inputs": [model_input]}', '{"inputs": examples}'), "PP301") == []
    assert sure(src.replace('{"inputs": [model_input]}', '{"inputs": [warmup]}'), "PP301") == []
    assert sure(src.replace("tf.contrib.predictor.from_saved_model", "load_client"), "PP301") == []


def test_pp302_literal_loops_nested_count_together():
    """tf-fix50, reading 33's AbnerYang (`run.py`): `for valr in [0.7, 0.6, 0.5]:` around `for i in
    range(10):` builds and fits a Keras model 30 times in one graph; each loop alone runs <= 10 times, the
    pair does not. Two literal loops of 2 and 5 (10 models) stay exempt, and a loop over folds outside keeps
    its inner loop judged alone."""
    src = """
from keras.layers import Dense, Input
from keras.models import Model

for valr in [0.7, 0.6, 0.5]:
    for i in range(10):
        inputs = Input(shape=(8,))
        model = Model(inputs, Dense(1)(inputs))
        model.fit(x, y)
"""
    assert sure(src, "PP302") == [(8, "low")]
    assert sure(src.replace("[0.7, 0.6, 0.5]", "[0.7, 0.6]").replace("range(10)", "range(5)"), "PP302") == []
    assert sure(src.replace("for valr in [0.7, 0.6, 0.5]:", "for tr, va in kfold.split(x):"), "PP302") == []


def test_pp302_a_literal_loop_around_a_def_does_not_count_with_the_defs_loop():
    """Review25 item 15: a literal loop that defines a training def per setting (`for opt in [...]: def
    trial(x, y, opt=opt): for i in range(10): ...`) does not run the def's loop; the def's loop of 10 models
    is judged alone and stays exempt. The same loops in one def (30 models) are found, and so is a def's
    loop of 11 models."""
    src = """
from keras.layers import Dense, Input
from keras.models import Model

trials = {}
for opt in ["adam", "sgd", "rmsprop"]:
    def trial(x, y, opt=opt):
        for i in range(10):
            inputs = Input(shape=(8,))
            model = Model(inputs, Dense(1)(inputs))
            model.compile(optimizer=opt, loss="mse")
            model.fit(x, y)
    trials[opt] = trial
"""
    assert sure(src, "PP302") == []
    assert sure(src.replace("range(10)", "range(11)"), "PP302") == [(10, "low")]
    inline = src.replace("    def trial(x, y, opt=opt):\n", "").replace("    trials[opt] = trial\n", "")
    assert sure(inline.replace("\n        ", "\n    "), "PP302") == [(9, "low")]


def test_one_range_test_counts_range_and_xrange():
    """Review25 item 10: `is_range_call` is the one range test of the TensorFlow loop counts (PP301's
    repeated input and `literal_iterations`): `range(...)` and Python 2's `xrange(...)`, not `np.arange` or
    `six.moves.range`."""
    import ast

    from checker.rules.common import is_range_call

    def call(text):
        return ast.parse(text, mode="eval").body

    assert is_range_call(call("range(3)")) and is_range_call(call("xrange(1, 9)"))
    assert not is_range_call(call("np.arange(3)")) and not is_range_call(call("six.moves.range(3)"))
    assert not is_range_call(call("range"))


# ---------------------------------------------------------------- tf-fix51 (reading 35)


def test_pp203_a_loop_fitting_each_batch_trains_on_the_pipeline():
    """Reading 35's highredshine xDeepFM: `for batch in train_data:` calls `model.fit(x, y, ...)` on each
    batch, a training step per batch as `train_on_batch` is; the pipeline (built here, or by another module's
    helper and then repeated and batched) has no final prefetch. A fit on arrays made before the loop, in a
    loop that only looks at a few elements, is not a fit per batch."""
    built_here = """
    import tensorflow as tf
    from utils import tools

    def train(config, filenames, model, features):
        def parse(serialized):
            return tf.io.parse_example(serialized, features)
        train_data = tf.data.TFRecordDataset(filenames).map(parse).repeat(model.epochs).batch(model.batch_size)
        for batch in train_data:
            x = tools.get_x(batch, config)
            y = batch["label"]
            hist = model.fit(x, y, batch_size=model.batch_size, verbose=2)
            print(hist.history)
        return model
    """
    assert [line for line, _ in sure(built_here, "PP203")] == [8]
    helper_elsewhere = """
    import tensorflow as tf
    from utils import tools

    def train(config, train_datasets, model):
        train_data = tools.concat_datasets(train_datasets).\\
            repeat(model.epochs).\\
            batch(model.batch_size, drop_remainder=True)
        for batch in train_data:
            x = tools.get_x(batch, config)
            hist = model.fit(x, batch["label"], batch_size=model.batch_size)
        return model

    def test(model, test_datasets, config):
        test_data = tools.concat_datasets(test_datasets).batch(model.batch_size)
        for batch in test_data:
            model.evaluate(tools.get_x(batch, config), batch["label"])
    """
    assert sure(helper_elsewhere, "PP203") == [(8, "low")]
    fit_before = """
    import tensorflow as tf

    def train(files, model, train_x, train_y):
        ds = tf.data.TFRecordDataset(files).batch(32)
        for batch in ds:
            print(batch)
            model.fit(train_x, train_y, epochs=1)
    """
    assert sure(fit_before, "PP203") == []


def test_pp202_pp203_a_pipeline_returned_by_a_method_of_an_instance_is_followed():
    """Reading 35's FCN dataset classes: `dataset = VocDataset(); dataset_train =
    dataset.load_dataset(is_training=True, ...)` handed to a TF1 iterator training loop. The method's
    pipeline is followed into the caller's use as a module function's is: PP202 and PP203 `high`, as for the
    same code in a def. A name bound to instances of two classes is not followed."""
    source = """
    import tensorflow as tf

    class VocDataset:
        def parse_record(self, record):
            parsed = tf.io.parse_single_example(record, {"im": tf.io.FixedLenFeature([], tf.string)})
            return tf.image.decode_png(parsed["im"])

        def load_dataset(self, is_training, path, batch_size):
            dataset = tf.data.TFRecordDataset(path)
            dataset = dataset.prefetch(buffer_size=batch_size)
            dataset = dataset.map(self.parse_record)
            if is_training:
                dataset = dataset.shuffle(1000)
            return dataset.batch(batch_size)

    class Other(VocDataset):
        pass

    def fit_model(sess, train_op, dataset_train):
        iterator = tf.compat.v1.data.Iterator.from_structure(tf.compat.v1.data.get_output_types(dataset_train))
        train_init_op = iterator.make_initializer(dataset_train)
        for epoch in range(10):
            sess.run(train_init_op)
            while True:
                try:
                    sess.run(train_op)
                except tf.errors.OutOfRangeError:
                    break

    def main(sess, train_op, path):
        dataset = VocDataset()
        dataset_train = dataset.load_dataset(is_training=True, path=path, batch_size=8)
        fit_model(sess, train_op, dataset_train)
    """
    assert sure(source, "PP202") == [(12, "high")]
    assert sure(source, "PP203") == [(15, "high")]
    two = source.replace("    dataset = VocDataset()\n", "    dataset = VocDataset() if path else Other()\n")
    assert sure(two, "PP202") == [(12, "low")]
    assert sure(two, "PP203") == [(15, "low")]
    # a parameter is the caller's argument (a tf.data dataset here), not the module-level instance of the
    # same name: `ds.batch(32)` is tf.data's, and the method's pipeline is not the one consumed (session 26)
    parameter = """
    import tensorflow as tf

    def parse(path):
        return tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(path)), (224, 224))

    class Loader:
        def batch(self, n):
            return tf.data.Dataset.from_tensor_slices(["a.jpg"]).map(parse).batch(n)

    ds = Loader()

    def train(ds, model):
        for x in ds.batch(32):
            model.train_on_batch(x)

    train(tf.data.Dataset.from_tensor_slices([1.0]), tf.keras.Model())
    """
    assert sure(parameter, "PP203") == [(9, "low")]
    assert sure(parameter.replace("def train(ds, model):", "def train(model):"), "PP203") == [(9, "high")]


def test_pp202_a_python_callback_running_opencv_is_a_map_threads_help():
    """A map calling back into Python (`tf.numpy_function`, or `py_func` on a method) whose Python spends its
    time in OpenCV transforms, which release the GIL as its readers do (reading 35's FCN augmentation):
    PP202 reads it as image work. The same callback doing NumPy flips only stays silent (GIL-bound)."""
    source = """
    import cv2
    import numpy as np
    import tensorflow as tf

    def augment(im, gt):
        m = cv2.getRotationMatrix2D((128, 128), np.random.uniform(-10, 10), 1.0)
        return cv2.warpAffine(im, m, (256, 256)), cv2.warpAffine(gt, m, (256, 256))

    class Loader:
        def blur(self, im, gt):
            return cv2.GaussianBlur(im, (5, 5), 0), gt

        def make(self, files):
            ds = tf.data.TFRecordDataset(files).map(parse, num_parallel_calls=tf.data.AUTOTUNE)
            ds = ds.map(lambda im, gt: tf.numpy_function(augment, [im, gt], [tf.uint8, tf.uint8]))
            ds = ds.map(lambda im, gt: tuple(tf.compat.v1.py_func(self.blur, [im, gt], [tf.uint8, tf.uint8])))
            return ds.batch(8).prefetch(1)

    def parse(record):
        return tf.io.parse_single_example(record, {"im": tf.io.FixedLenFeature([], tf.string)})

    def train(model, files):
        model.fit(Loader().make(files), epochs=10)
    """
    assert [line for line, _ in sure(source, "PP202")] == [16, 17]
    numpy_only = source.replace(
        "m = cv2.getRotationMatrix2D((128, 128), np.random.uniform(-10, 10), 1.0)", "k = np.random.randint(4)"
    )
    numpy_only = numpy_only.replace(
        "cv2.warpAffine(im, m, (256, 256)), cv2.warpAffine(gt, m, (256, 256))",
        "np.rot90(im, k), np.rot90(gt, k)",
    )
    numpy_only = numpy_only.replace("cv2.GaussianBlur(im, (5, 5), 0)", "np.flip(im, 1)")
    assert sure(numpy_only, "PP202") == []


# ---------------------------------------------------------------- tf-fix52 (reading 36)


def test_pp403_np_array_of_a_step_result_in_a_method_an_instance_loop_runs():
    """Reading 36's StyleGAN: the `__main__` `while` loop calls `model.train()` on the one instance of
    `StyleGAN`; `train` runs the @tf.function `train_step` and copies its result to the host with
    `np.array(c)` every step, as `.numpy()` does. A `np.array` of a host list is no copy of the step's
    result, and a receiver bound to two classes is not followed."""
    src = """
import numpy as np
import tensorflow as tf

class StyleGAN(object):
    def __init__(self, steps=1):
        self.steps = steps
        self.gp_weight = np.array([10.0] * 16).astype("float32")

    def train(self):
        a, b, c = self.train_step(np.random.normal(size=(16, 64)), self.gp_weight)
        new_weight = 5 / (np.array(c) + 1e-7)
        self.gp_weight = self.gp_weight[0] * 0.9 + 0.1 * new_weight
        self.steps = self.steps + 1

    @tf.function
    def train_step(self, images, gp_weights):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(images) * gp_weights[0]
        return loss, loss, loss

if __name__ == "__main__":
    model = StyleGAN()
    while model.steps <= 1000001:
        model.train()
"""
    assert sure(src, "PP403") == [(12, "low")]
    host = src.replace("np.array(c)", "np.array(history)").replace(
        "        new_weight", "        history = [1.0]\n        new_weight"
    )
    assert sure(host, "PP403") == []
    two = src.replace("    model = StyleGAN()", "    model = StyleGAN() if steps else Other()")
    assert sure(two, "PP403") == []


def test_pp403_np_asarray_of_a_step_result_in_the_loop():
    src = """
import numpy as np
import tensorflow as tf

@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(x - y)
    return loss

losses = []
for x, y in dataset:
    loss = train_step(x, y)
    losses.append(np.asarray(loss))
    other = np.asarray(y)
"""
    assert sure(src, "PP403") == [(14, "low")]
    keras = src.replace("loss = train_step(x, y)", "loss = model.train_on_batch(x, y)")
    assert sure(keras, "PP403") == []


def test_pp302_a_class_whose_constructor_builds_the_model_made_per_iteration():
    """tf-fix52: `Architecture.__init__` keeps the `Sequential` it builds on `self.model`; the loop makes one
    per setting and calls `train_model()`. A constructor keeping a model handed in is silent."""
    src = """
import numpy as np
from keras.models import Sequential
from keras.layers import Dense

class Architecture(object):
    def __init__(self, layer_size):
        model = Sequential()
        model.add(Dense(layer_size, activation="relu"))
        self.model = model

    def train_model(self, x, y):
        self.model.compile(optimizer="adam", loss="mse")
        self.model.fit(x, y, epochs=5)

for size in np.arange(16, 1024, 16):
    architecture = Architecture(size)
    architecture.train_model(x, y)
"""
    assert sure(src, "PP302") == [(17, "low")]
    handed = src.replace("model = Sequential()", "model = layer_size").replace(
        "Architecture(size)", "Architecture(base)"
    )
    assert sure(handed, "PP302") == []


def test_pp301_a_session_fed_a_list_of_one_tile_per_iteration():
    """Reading 36's EDSR: `sess.run(self.out, feed_dict={self.input: [x[i*s:(i+1)*s, j*s:(j+1)*s]]})` for
    every tile: the session makes the one-item list a batch of one, as `np.expand_dims(tile, 0)`. A list of
    one constant (`{keep_prob: [1.0]}`) is no sample, and a loop that trains on each sample is left alone."""
    src = """
import numpy as np
import tensorflow as tf

class EDSR(object):
    def predict(self, x):
        s = self.img_size
        out = np.zeros([x.shape[0] * 2, x.shape[1] * 2, 3])
        for i in range(x.shape[0] // s):
            for j in range(x.shape[1] // s):
                tmp = self.sess.run(self.out, feed_dict={self.input: [x[i * s:(i + 1) * s, j * s:(j + 1) * s]]})[0]
                out[i * 2 * s:(i + 1) * 2 * s, j * 2 * s:(j + 1) * 2 * s] = tmp
        return out
"""
    assert [level for _, level in sure(src, "PP301")] == ["high"]
    constant = src.replace("{self.input: [x[i * s:(i + 1) * s, j * s:(j + 1) * s]]}", "{self.keep: [1.0]}")
    assert sure(constant, "PP301") == []
    trains = src.replace("self.sess.run(self.out,", "self.sess.run([self.out, self.train_op],")
    assert sure(trains, "PP301") == []


# ---------------------------------------------------------------- tf-fix53 (session 27 reread)


_GRID = """
import numpy as np
from keras.layers import Dense
from keras.models import Sequential


class Architecture(object):
    def __init__(self, layer_size):
        model = Sequential()
        model.add(Dense(layer_size, activation="relu"))
        self.model = model

    def train_model(self, x, y):
        self.model.compile(optimizer="adam", loss="mse")
        return self.model.fit(x, y, epochs=5)


class GridSearch(object):
    def run(self, x, y):
        for size in np.arange(16, 1024, 16):
            self.architecture = Architecture(size)
            self.architecture.train_model(x, y)


histories = []
for size in np.arange(16, 1024, 16):
    architecture, history = Architecture(size), None
    history = architecture.train_model(x, y)
    histories.append(history)
"""


def test_pp302_an_owner_made_per_iteration_on_self_or_in_a_tuple_target():
    """Session 27 reread: `_trains_owned_model` saw only `name = Owner(...)`. An instance kept on `self` in
    the loop (`self.architecture = Architecture(size)`, then `self.architecture.train_model(...)`) or bound
    as one item of a tuple target matched by a tuple trains a new model per iteration too. A tuple target
    unpacking a call (which item is the instance is unknown) and a loop training another attribute stay
    silent."""
    assert sure(_GRID, "PP302") == [(21, "low"), (27, "low")]
    unpacked = _GRID.replace("Architecture(size), None", "make(size)")
    assert sure(unpacked, "PP302") == [(21, "low")]
    other = _GRID.replace("self.architecture.train_model", "self.baseline.train_model")
    assert sure(other, "PP302") == [(27, "low")]


_EXTRACT = """
import numpy as np
from keras.applications.inception_v3 import InceptionV3, preprocess_input
from keras.preprocessing import image


class Extractor:
    def __init__(self):
        self.model = InceptionV3(weights="imagenet", include_top=False, pooling="avg")

    def extract(self, path):
        img = image.load_img(path, target_size=(299, 299))
        x = np.expand_dims(image.img_to_array(img), axis=0)
        return self.model.predict(preprocess_input(x))[0]


def features(paths):
    model = Extractor()
    return [model.extract(path) for path in paths]


model = load_model("classifier.h5")
"""


def test_pp301_a_method_of_an_instance_is_read_where_its_receiver_is_used():
    """Session 27 reread: keras' `instance_method` read a receiver module-wide, so a def binding `model =
    Extractor()` over a module-level `model = load_model(...)` ran no method, and a def's parameter `model`
    was read through the module's binding, which the dataset flow (`datasets._instance_method`) refuses.
    Both read a name as `common.values_here` does now: the def's own bindings, and for a parameter what the
    def's calls in the module hand it (not the module's binding of the same name)."""
    assert sure(_EXTRACT, "PP301") == [(19, "low")]
    handed = _EXTRACT.replace(
        "def features(paths):\n    model = Extractor()\n", "def features(model, paths):\n"
    )
    handed = handed.replace('model = load_model("classifier.h5")', "model = Extractor()")
    assert sure(handed, "PP301") == []
    module_wide = handed.replace("def features(model, paths):", "def features(paths):")
    assert sure(module_wide, "PP301") == [(18, "low")]
    # reading 35's YOLOv3: `def predict(yolov3_trainer, ...)` called as `predict(yolov3_trainer, paths)` in
    # `__main__` after `yolov3_trainer = YOLOv3Trainer()`: the parameter holds what its calls hand it
    called = handed + 'if __name__ == "__main__":\n    features(model, sorted(glob.glob("*.jpg")))\n'
    assert sure(called, "PP301") == [(18, "low")]
    other = called.replace("features(model, sorted", "features(load_model('m.h5'), sorted")
    assert sure(other, "PP301") == []


def test_keras_and_datasets_read_an_instance_receiver_alike():
    """One definition of what a name means where it is used (`common.values_here`): keras' `instance_method`
    and the dataset flow's `_instance_method` give the same method for each call in a def, a parameter
    shadowing a module-level instance included."""
    import ast

    from checker.datasets import _instance_method
    from checker.module import ModuleIndex
    from checker.rules.keras import instance_method

    src = textwrap.dedent(
        """
        class Records:
            def load(self, path):
                return path

        records = Records()

        def own():
            records = Records()
            return records.load("a")

        def handed(records):
            return records.load("b")

        def module_wide():
            return records.load("c")
        """
    )
    index = ModuleIndex.build(ast.parse(src))
    sites = [s for s in index.calls if getattr(s.node.func, "attr", None) == "load"]
    keras = [getattr(instance_method(s.node, index, s.function), "name", None) for s in sites]
    flow = [getattr(_instance_method(s.node, index, s.function), "name", None) for s in sites]
    assert keras == flow == ["load", None, "load"]


def test_pp302_a_few_literal_settings_behind_a_progress_bar_are_few_models():
    """tf-fix53 (reading 34's gregorylull, seen while PP302 followed `glunet.get_unet` on its module): `for
    dropout in tqdm([0.1], total=3)` inside `for n_filters in [16]` builds one model; a progress bar runs as
    often as its first argument, as `enumerate` does. Over a grid it does not write out, still reported."""
    src = """
from keras.layers import Dense
from keras.models import Sequential
from tqdm import tqdm

for dropout in tqdm([0.1], total=3):
    for n_filters in [16]:
        model = Sequential()
        model.add(Dense(n_filters))
        model.fit(x, y)
"""
    assert sure(src, "PP302") == []
    grid = src.replace("tqdm([0.1], total=3)", "tqdm(dropouts)")
    assert sure(grid, "PP302") == [(8, "low")]


# ---------------------------------------------------------------- tf-fix54: reading 37's misses, general forms


def test_pp403_an_eager_step_method_called_on_its_instance_whatever_its_name():
    """Reading 37's DDPG: `loss = critic.train(states, actions, yi)`, an eager method holding a GradientTape and
    `apply_gradients`, then `total_loss += np.array(loss)` every step. A def of any name holding both is a
    step (`update`); a method that only computes gradients (`q_grads`) is not."""
    src = """
import numpy as np
import tensorflow as tf

class Critic:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        self.opt = tf.keras.optimizers.Adam()

    def update(self, states, target):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((self.model(states) - target) ** 2)
        grads = tape.gradient(loss, self.model.trainable_weights)
        self.opt.apply_gradients(zip(grads, self.model.trainable_weights))
        return loss

critic = Critic()
total_loss = 0
for step in range(5000):
    loss = critic.update(states, targets)
    total_loss += np.array(loss)
"""
    assert sure(src, "PP403") == [(21, "low")]
    assert sure(src.replace("np.array(loss)", "loss.numpy()"), "PP403") == [(21, "low")]
    no_apply = src.replace("        self.opt.apply_gradients(zip(grads, self.model.trainable_weights))\n", "")
    assert sure(no_apply, "PP403") == []
    module_def = """
import numpy as np
import tensorflow as tf

def update(states, target):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(states) - target) ** 2)
    grads = tape.gradient(loss, model.trainable_weights)
    opt.apply_gradients(zip(grads, model.trainable_weights))
    return loss

for step in range(5000):
    loss = update(states, targets)
    history.append(np.array(loss))
"""
    assert sure(module_def, "PP403") == [(14, "low")]
    assert sure(module_def.replace("range(5000)", "range(30)"), "PP403") == []


def test_pp403_a_step_def_named_otherwise_returning_numpy_values():
    """Reading 37's VAE-GAN notebook: `feed(x, ...)` holds the tape and `apply_gradients` and returns
    `l_kl.numpy(), ...`; the nested `train` loops it over the dataset. A def without `apply_gradients`
    (an evaluation pass) is silent."""
    src = """
import tensorflow as tf

def make_model(encoder, decoder):
    def feed(x, optimizer):
        with tf.GradientTape() as tape:
            l_kl = tf.reduce_mean(encoder(x))
        grads = tape.gradient(l_kl, encoder.trainable_variables)
        optimizer.apply_gradients(zip(grads, encoder.trainable_variables))
        return l_kl.numpy()

    def train(dataset, optimizer):
        total = 0.0
        for x in dataset:
            total += feed(x, optimizer)
        return total

    return train
"""
    assert sure(src, "PP403") == [(10, "low")]
    evaluation = src.replace(
        "        optimizer.apply_gradients(zip(grads, encoder.trainable_variables))\n", ""
    )
    assert sure(evaluation, "PP403") == []


def test_pp403_numpy_in_a_keras_layer_call():
    """Reading 37's VAE-Tensorflow2.0: `sampling(mean, sigma)` runs `np.shape(mean.numpy())` and
    `Encoder.call` calls it: every forward pass copies to the host. A plain class's `call`, a branch, and a
    def the layer does not call are silent."""
    src = """
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

def sampling(mean, sigma):
    shape = np.shape(mean.numpy())
    return tf.random.normal(shape, mean, sigma)

def describe(x):
    return x.numpy()

class Encoder(layers.Layer):
    def __init__(self):
        super().__init__()
        self.mean = layers.Dense(16)

    def call(self, inputs):
        mean = self.mean(inputs)
        z = sampling(mean, mean)
        return mean, z

class Head(tf.keras.Model):
    def call(self, x, debug=False):
        if debug:
            print(x.numpy())
        return x.numpy() * 2
"""
    assert sure(src, "PP403") == [(7, "low"), (27, "low")]
    plain = src.replace("class Encoder(layers.Layer)", "class Encoder(object)").replace(
        "class Head(tf.keras.Model)", "class Head(object)"
    )
    assert sure(plain, "PP403") == []


@pytest.mark.parametrize(
    ("arg", "found"),
    [
        ("x_train[i].reshape(-1, 28, 28, 1)", True),
        ("np.reshape(x_train[i], (-1, 28, 28, 1))", True),
        ("x_train[i].reshape(-1, 784)", True),
        ("x_train.reshape(-1, 28, 28, 1)", False),
        ("x_train[i].reshape(-1, h, w, 1)", False),
        ("x_train[i:i + 8].reshape(-1, 28, 28, 1)", False),
        ("x_train[j].reshape(-1, 28, 28, 1)", False),
    ],
)
def test_pp301_reshape_minus_one_of_one_indexed_item(arg, found):
    """Reading 37's convolutional autoencoder `eval.py` 44: `predict(x_train[i].reshape(-1, 28, 28, 1))`
    for each of 15 images: the `-1` is a batch of one as `reshape(1, ...)` is. Not a whole array, sizes
    that are not literals, a slice, or an item not indexed by the loop."""
    src = f"""
import numpy as np
import tensorflow as tf

model = tf.keras.models.load_model("ae.h5")
j = 0
for i in range(15):
    img = model.predict({arg})
    images.append(img)
"""
    # a new shape: `medium` at most (ITEM_RESHAPE_LEVEL); `reshape(1, ...)` keeps `high`
    assert sure(src, "PP301") == ([(8, "medium")] if found else [])
    assert sure(src.replace("(-1, ", "(1, "), "PP301") == [(8, "high")]
