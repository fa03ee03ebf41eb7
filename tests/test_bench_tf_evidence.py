"""bench_tf_evidence.py: the evidence classes it counts for PP103 and PP202 findings, on the shapes of the code
they were asked about (DexiNed's per-output loss, lucid's attack loop that evaluates the graph, indrnn's
layer loop, tensorflow-coder's dataset loaded into a list)."""

from __future__ import annotations

import textwrap

from bench.bench_tf_evidence import pp103_evidence, read_by_python
from checker import check_source


def evidence(source: str, op: str, rule: str = "PP103") -> set[str]:
    """The evidence of the `rule` finding on `op` in `source` (which must make one)."""
    source = textwrap.dedent(source)
    findings, _ = check_source(source, "t.py")
    found = [f for f in findings if f.rule == rule and f"`{op}`" in f.message]
    assert found, [f.message for f in findings]
    return pp103_evidence(source, found[0].line, found[0].message)


def test_a_loss_over_model_outputs_is_per_step_and_casts_a_parameter():
    src = """
    import tensorflow as tf

    def binary_cross_entropy_loss(bc_loss, outputs, label):
        y = label
        loss = 0
        for tmp_p in outputs:
            tmp_y = tf.cast(y, dtype=tf.float32)
            loss += bc_loss(tmp_y, tf.sigmoid(tmp_p))
        return loss
    """
    found = evidence(src, "tf.cast")
    assert {"per-step def (loss, step, call)", "cast/compare of a parameter"} <= found
    assert {"per-step, cast/compare of param", "loop over outputs/layers/levels"} <= found
    assert "loop also runs the graph" not in found


def test_a_loop_that_evaluates_the_graph_is_told_apart():
    src = """
    import tensorflow as tf

    def attack(score, labels, t_input, img):
        for i in range(100):
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=score))
            grad = tf.gradients(loss, t_input)[0].eval({t_input: img})
            img = img - 0.01 * grad
        return img
    """
    # (tf-fix44: `tensor.eval(feed)` runs the session, so the op built in the loop is graph growth, PP101)
    found = evidence(src, "tf.reduce_mean", rule="PP101")
    assert "loop also runs the graph" in found
    assert "per-step def (loss, step, call)" not in found


def test_a_layer_loop_that_builds_the_graph_once():
    src = """
    import tensorflow as tf

    def build_rnn(inputs, phase, num_layers):
        out = inputs
        for layer in range(num_layers):
            out = tf.layers.dense(out, 128)
            is_training = tf.logical_or(tf.equal(phase, 1), tf.equal(phase, 2))
            out = tf.layers.batch_normalization(out, training=is_training)
        return out
    """
    found = evidence(src, "tf.logical_or")
    assert "loop builds layers/cells" in found and "loop over range" in found
    assert "per-step def (loss, step, call)" not in found
    assert "loop over outputs/layers/levels" in found  # range(num_layers): a few trips, one per layer
    assert "loop over data (batches, epochs)" not in found


def test_a_dataset_walked_whole_by_python_code():
    src = textwrap.dedent(
        """
        import tensorflow as tf

        def load_data(filenames):
            dataset = tf.data.TFRecordDataset(filenames)
            dataset = dataset.map(parse_example)
            return [as_python(example) for example in dataset]

        def input_fn(filenames):
            dataset = tf.data.TFRecordDataset(filenames)
            dataset = dataset.map(parse_example)
            return dataset.batch(32)
        """
    )
    assert read_by_python(src, 6)
    assert not read_by_python(src, 11)
