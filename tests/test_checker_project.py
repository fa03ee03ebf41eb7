"""Evidence across the files of one project (checker/project.py). Since tf-cal28 a costly image map on a
pipeline its module neither trains nor validates is `low` (about 18 right in 38 over readings 15-21), and
`medium` when another module of the project calls the function returning the pipeline into training (the
class tf-calibrate14 measured at 15 right in 16, then lifted to `high`). That training would lift the map to
`high`; since tf-calibrate14 ppcheck lifts no rule (too few findings to keep at `high`), so the lift is
checked as the evidence the bench measures (bench/bench_tf_evidence.py), with PP202 named."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from checker import check_paths, project
from checker.project import LIFTED_RULES, lift_trained_elsewhere
from checker.rules import all_rules
from checker.walker import iter_files

FIXTURES = Path(__file__).parent / "fixtures" / "ppcheck" / "project"


def levels(*folders: Path, lift: bool = True) -> dict[str, str]:
    """`folder/file:line` -> confidence of each PP202 finding, with PP202 lifted by training elsewhere in the
    project (`lift`) or as ppcheck reports it."""
    findings, skipped, _ = check_paths([str(f) for f in folders])
    assert not skipped, skipped
    if lift:
        projects = [list(iter_files([str(f)])) for f in folders]
        findings = lift_trained_elsewhere(findings, projects, frozenset({"PP202"}))
    return {
        f"{Path(f.path).parent.name}/{Path(f.path).name}:{f.line}": f.confidence
        for f in findings
        if f.rule == "PP202"
    }


def copied(tmp_path: Path, name: str) -> Path:
    # Files under tests/ get no findings (test code), so the projects are checked from a copy.
    return Path(shutil.copytree(FIXTURES / name, tmp_path / name))


def test_a_pipeline_another_module_fits_on_is_lifted(tmp_path):
    assert levels(copied(tmp_path, "trained")) == {"trained/records.py:14": "high"}


def test_a_pipeline_another_module_fits_on_is_medium(tmp_path):
    """As reported, the pipeline another module fits on is `medium` (tf-cal28): no rule is lifted
    (tf-calibrate14)."""
    assert not LIFTED_RULES
    assert levels(copied(tmp_path, "trained"), lift=False) == {"trained/records.py:14": "medium"}


def test_the_module_alone_leaves_it_low(tmp_path):
    """Checked alone, the module returns its pipeline and neither trains nor validates on it: `low` since
    tf-cal28 (`medium` before)."""
    folder = copied(tmp_path, "trained")
    findings, _, _ = check_paths([str(folder / "records.py")])
    assert [(f.rule, f.confidence) for f in findings] == [("PP202", "low")]


def test_a_pipeline_only_evaluated_stays_low(tmp_path):
    """The same loader scored once by an evaluation script of the project: `low` (tf-cal28: `medium`
    before), and not lifted."""
    assert levels(copied(tmp_path, "evaluated"), lift=False) == {"evaluated/records.py:14": "low"}
    assert levels(copied(tmp_path / "again", "evaluated")) == {"evaluated/records.py:14": "low"}


def test_a_training_call_does_not_reach_another_project(tmp_path):
    """Each PATH is a project of its own: the same function name trained on in one does not lift the other."""
    trained, evaluated = copied(tmp_path, "trained"), copied(tmp_path, "evaluated")
    assert levels(trained, evaluated, lift=False) == {
        "trained/records.py:14": "medium",
        "evaluated/records.py:14": "low",
    }
    assert levels(trained, evaluated) == {
        "trained/records.py:14": "high",
        "evaluated/records.py:14": "low",
    }


def test_a_module_training_on_its_own_copy_does_not_lift_another(tmp_path):
    """Lessons that each define `my_input_fn`: one trains on its own copy (through an Estimator's
    `input_fn`), which says nothing of the copy another lesson only registers (reading 10 read such a lift
    wrong)."""
    assert levels(copied(tmp_path, "copies"), lift=False) == {
        "lesson1/model.py:14": "low",
        "lesson2/model.py:12": "medium",
    }
    assert levels(copied(tmp_path / "again", "copies")) == {
        "lesson1/model.py:14": "low",
        "lesson2/model.py:12": "high",
    }


def test_only_the_half_of_a_returned_pair_that_trains_is_lifted(tmp_path):
    """`dataset_train, dataset_val = get_ds()` then training on the first: the validation pipeline the
    builder returns beside it is not raised (reading 13 read it wrong: the GAN never reads it). The training
    half is `high` in its own module already (its name says training)."""
    assert levels(copied(tmp_path, "pair")) == {
        "pair/data_generator.py:18": "high",
        "pair/data_generator.py:21": "low",
    }


def test_a_builder_nothing_in_the_project_calls_is_low(tmp_path):
    """A guide's training input function copied into a project whose scripts never call it (reading 13:
    wrong 4 of 4) is low, though its name says training (`high` in the file alone); the evaluation one a
    script reads is low either way (neither trained nor validated, tf-cal28)."""
    folder = copied(tmp_path, "unused")
    assert levels(folder) == {"unused/inputs.py:12": "low", "unused/inputs.py:17": "low"}
    findings, _, _ = check_paths([str(folder / "inputs.py")])
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP202"] == [(12, "low"), (17, "high")]


def test_a_runner_nothing_calls_is_not_lowered(tmp_path):
    """A function that trains itself (a custom loop's apply_gradients, a fit) is a runner a script could
    start, not a copied input helper: nothing calling it does not lower its maps (reading 11 read such a
    one right); the input helper beside it that nothing calls is low."""
    assert levels(copied(tmp_path, "runner"), lift=False) == {
        "runner/runners.py:11": "high",
        "runner/runners.py:20": "high",
        "runner/runners.py:25": "low",
    }


def test_a_map_of_imported_image_code_is_read_in_its_module(tmp_path):
    """tf-fix19: a map of an imported parser class whose `__call__` reaches a JPEG decode through
    `self._parse_fn`, on a pipeline its module fits, is `medium` (the same map with its code in the module is
    `high`; the lift of imported code stays at `medium`, unmeasured: a maintainer-fixed line of
    Tensorflow-YOLACT); the module checked alone cannot see the code: `low`. `ds.map(load_images)` with
    `load_images` imported from a module that decodes PNGs (also as `image_utils.load_images`) is read the
    same way, but its pipeline is only written out once (neither trained nor validated), so it is `low` since
    tf-cal28 (images-to-tfrecords' maintainer-fixed line). A pipeline named for testing stays `low` (reading
    13: two pix2pix test sets read wrong)."""
    folder = copied(tmp_path, "imported")
    assert levels(folder, lift=False) == {
        "imported/write_records.py:9": "low",
        "imported/write_records.py:11": "low",
        "imported/write_records.py:13": "low",
        "imported/write_records.py:20": "medium",
    }
    alone, _, _ = check_paths([str(folder / "write_records.py")])
    assert {(f.line, f.confidence) for f in alone if f.rule == "PP202"} == {
        (9, "low"),
        (11, "low"),
        (13, "low"),
        (20, "low"),
    }


def test_a_map_of_imported_record_parsing_or_of_an_unknown_module_stays_low(tmp_path):
    """The imported def only parses records (the class tf-calibrate15 keeps `low`); `vendored_utils`, imported
    at the top, is not the `lib/vendored_utils.py` of a subfolder (not on the import path of `train.py`),
    whose `load_images` decodes PNGs: both stay `low`."""
    assert levels(copied(tmp_path, "imported_cheap"), lift=False) == {
        "imported_cheap/train.py:6": "low",
        "imported_cheap/train.py:8": "low",
    }


def test_a_loader_another_module_fits_is_medium_and_one_only_scored_is_low(tmp_path):
    """tf-cal28, a deblurring project: the loader whose pipeline train.py fits (`train_pairs =
    load_pairs(...)`) is `medium` (`_trained_elsewhere`); the loader evaluate.py scores once is `low` (a costly
    map neither trained nor validated); each file alone is `low` (before tf-cal28 all three were `medium`). The
    same project with threaded maps has no PP202."""
    folder = copied(tmp_path, "loaders")
    assert levels(folder, lift=False) == {"loaders/dataset.py:15": "medium", "loaders/dataset.py:21": "low"}
    alone, _, _ = check_paths([str(folder / "dataset.py")])
    assert [(f.line, f.confidence) for f in alone if f.rule == "PP202"] == [(15, "low"), (21, "low")]
    assert levels(copied(tmp_path, "loaders_ok"), lift=False) == {}


def test_a_tf1_loader_another_module_trains_on_is_high(tmp_path):
    """tf-fix29, a slow-motion GAN: `frame_triplets` returns its iterator's tensors and train.py's `def
    train()` trains on them in a session loop, so its image pipeline without prefetch is `high` (`medium`
    until tf-fix43); the clip
    loader interpolate.py renders once stays `low`, and so do both when frames.py is checked alone. With
    prefetch there is no finding."""
    folder = copied(tmp_path, "frames")

    def pp203(*paths):
        found, _, _ = check_paths([str(p) for p in paths])
        return [(f.line, f.confidence) for f in found if f.rule == "PP203"]

    assert pp203(folder) == [(15, "high"), (22, "low")]
    assert pp203(folder / "frames.py") == [(15, "low"), (22, "low")]
    assert pp203(copied(tmp_path, "frames_ok")) == []


def test_a_per_sample_predict_in_a_method_nothing_calls_is_low(tmp_path):
    """tf-cal28: PP301 in a synthesiser's `evaluate` method that nothing in the project calls (the training
    loop's `train_model.evaluate(...)` is Keras' own) is below `high` (the two such findings read over readings
    15-21 were debatable; `low` since tf-fix33, `medium` before); once a script calls it, it is `high` again,
    and so is the file checked alone."""
    folder = copied(tmp_path, "uncalled_predict")

    def pp301(*paths):
        found, _, _ = check_paths([str(p) for p in paths])
        return [(Path(f.path).name, f.line, f.confidence) for f in found if f.rule == "PP301"]

    assert pp301(folder) == [("synth.py", 23, "low")]
    assert pp301(folder / "synth.py") == [("synth.py", 23, "high")]
    main = folder / "main.py"
    main.write_text(main.read_text(encoding="utf-8") + 'print(synth.evaluate(load_rows("test.csv")))\n')
    assert pp301(folder) == [("synth.py", 23, "high")]


def test_the_project_pass_reuses_what_the_module_pass_worked_out(tmp_path, monkeypatch):
    """tf-fix30: checked in one process, the project pass reads what the per-module pass worked out of each
    module's pipelines (`pipeline_facts`: the maps and pipelines another module's training may raise) and
    runs no dataset flow again; its findings are those of a run in a pool, whose workers keep nothing, so
    that the pass works them out again."""
    folders = [str(copied(tmp_path, name)) for name in ("frames", "loaders", "imported")]
    pooled, _, _ = check_paths(folders, jobs=2)

    def again(index):
        raise AssertionError("the dataset flow ran again in the project pass")

    for name in ("untrained_image_maps", "unfed_image_pipelines", "imported_map_code"):
        monkeypatch.setattr(project, name, again)
    alone, _, _ = check_paths(folders)
    assert alone == pooled
    assert {(Path(f.path).name, f.rule, f.confidence) for f in alone} >= {
        ("frames.py", "PP203", "high"),
        ("dataset.py", "PP202", "medium"),
    }


def _found(folder: Path, rule: str) -> list[tuple[str, int, str]]:
    findings, _, _ = check_paths([str(folder)])
    return [(Path(f.path).name, f.line, f.confidence) for f in findings if f.rule == rule]


def test_a_per_sample_method_another_module_loops_over_is_low(tmp_path):
    """tf-fix30, reading 22's video classifier: `Extractor.extract` loads one frame, makes it a batch of one
    (`np.expand_dims`, then `preprocess_input`) and predicts it; extract_features.py, which imports no
    TensorFlow, calls it for every frame of every clip. PP301 at the call, `low` (a shape no reading has
    measured). Extracting a clip's frames in one predict has none."""
    assert _found(copied(tmp_path, "extractor"), "PP301") == [("extract_features.py", 18, "low")]
    assert _found(copied(tmp_path, "extractor_ok"), "PP301") == []


def test_a_wrapper_given_one_window_per_iteration_is_low(tmp_path):
    """tf-fix30, reading 21's solar forecaster: run.py reshapes each test window to a batch of one and hands
    it to `model.predict_point_by_point`, which predicts what it is given; run.py imports no Keras. PP301 at
    the call, `low`. Forecasting the whole test set in one call has none."""
    assert _found(copied(tmp_path, "forecast"), "PP301") == [("run.py", 20, "low")]
    assert _found(copied(tmp_path, "forecast_ok"), "PP301") == []


def test_a_tf_function_made_per_epoch_by_another_modules_loop_is_low(tmp_path):
    """tf-fix30, reading 22's Siamese trainer: `fit_one_epoch`, which train.py calls for every epoch, makes
    its train step with a factory that defines a new `@tf.function` on every call, so the step is traced
    every epoch. PP401 at the factory call, `low` (as a factory called in a loop of its own module is).
    Made once in train.py and handed in, there is none."""
    assert _found(copied(tmp_path, "epochs"), "PP401") == [("utils_fit.py", 21, "low")]
    assert _found(copied(tmp_path, "epochs_ok"), "PP401") == []


def test_a_module_without_tensorflow_whose_model_comes_from_the_project_is_checked_for_pp301(tmp_path):
    """tf-fix30, reading 19's sliding-window segmentation: predicting.py imports neither TensorFlow nor
    Keras (its model comes from the project's model.py), so no TF rule ran on it; its window-by-window
    predict is PP301 at `low`. Alone, without the model's module, it is not TF code; windows stacked into
    one predict have none."""
    folder = copied(tmp_path, "windows")
    assert _found(folder, "PP301") == [("predicting.py", 16, "low")]
    assert _found(folder / "predicting.py", "PP301") == []
    assert _found(copied(tmp_path, "windows_ok"), "PP301") == []


def test_a_loop_predicting_on_a_model_the_project_builds_with_keras_is_pp301(tmp_path):
    """tf-fix36, reading 26's see-- scripts: demo.py imports neither TensorFlow nor Keras (its text names
    only the project module `keras_nets`), binds its model from `DetectorNetwork`, a def of the project that
    builds and returns a Keras `Model`, and predicts one image of a glob per iteration: PP301 as in a TF
    module, at most `medium`. A def of the same name returning a client of a remote model builds no Keras
    model."""
    assert _found(copied(tmp_path, "keras_built"), "PP301") == [("demo.py", 18, "medium")]
    assert _found(copied(tmp_path, "keras_built_ok"), "PP301") == []


def test_a_noqa_silences_a_finding_of_the_project_pass(tmp_path):
    folder = copied(tmp_path, "forecast")
    run = folder / "run.py"
    run.write_text(
        run.read_text(encoding="utf-8").replace(
            "model.predict_point_by_point(window)", "model.predict_point_by_point(window)  # noqa: PP301"
        ),
        encoding="utf-8",
    )
    assert _found(folder, "PP301") == []


def test_the_project_pass_follows_the_chosen_rules(tmp_path):
    findings, _, _ = check_paths([str(copied(tmp_path, "epochs"))], [all_rules()["PP301"]])
    assert findings == []


def test_ops_a_def_builds_per_call_for_another_modules_loop_are_low(tmp_path):
    """tf-fix30, reading 18's policy-gradient agents: `calc_action` runs the session and builds `tf.exp`,
    `tf.multinomial` and `tf.reshape` on every call, and rollout.py calls it for every environment step:
    PP101 at each op, `low`. Ops built once in `__init__` and only run per call are none."""
    assert _found(copied(tmp_path, "rollout"), "PP101") == [
        ("binary_mlp.py", 15, "low"),
        ("binary_mlp.py", 16, "low"),
        ("binary_mlp.py", 17, "low"),
    ]
    assert _found(copied(tmp_path, "rollout_ok"), "PP101") == []


def test_a_keras_decoder_built_per_call_for_another_modules_loop_is_low(tmp_path):
    """tf-fix46, reading 31's CRNN: `Inference.predict` builds `keras.backend.ctc_decode` and runs it with
    `keras.backend.get_value` (standalone Keras on TF1) on every call, and metric.py calls it for every
    validation image: PP101 at the decoder, `low`. A decoder built once as a Keras function is none."""
    assert _found(copied(tmp_path, "ctc_decode"), "PP101") == [("inference.py", 18, "low")]
    assert _found(copied(tmp_path, "ctc_decode_ok"), "PP101") == []
    # review 23: the same decoder run with `keras.backend.eval` instead of `get_value`
    evaluated = copied(tmp_path / "eval", "ctc_decode") / "inference.py"
    evaluated.write_text(evaluated.read_text().replace("keras.backend.get_value(", "keras.backend.eval("))
    assert _found(evaluated.parent, "PP101") == [("inference.py", 18, "low")]


def test_ops_a_def_builds_in_a_graph_of_its_own_are_none(tmp_path):
    """A def that builds its ops in a new graph (`with tf.Graph().as_default():`) starts afresh on every
    call, so another module's loop calling it grows nothing (th13's GAN evaluation per checkpoint)."""
    folder = copied(tmp_path, "rollout")
    policy = folder / "policies" / "binary_mlp.py"
    text = policy.read_text(encoding="utf-8").replace(
        "        logits = self.sess.run(self.logits, feed_dict={self.obs: [observation]})\n",
        "        logits = self.sess.run(self.logits, feed_dict={self.obs: [observation]})\n"
        "        tf.reset_default_graph()\n",
    )
    policy.write_text(text, encoding="utf-8")
    assert _found(folder, "PP101") == []


def test_a_map_of_an_imported_factory_is_read_in_its_module(tmp_path):
    """tf-fix31, reading 23's breadbread1984 YOLOv4: `map(make_parser(80))` with `make_parser` imported from a
    module of the project runs the def the factory returns; it decodes and resizes JPEGs and its pipeline is
    fitted: `medium`, as a map of an imported def. A factory whose def only parses records stays `low`."""
    assert levels(copied(tmp_path, "factory"), lift=False) == {"factory/train.py:6": "medium"}
    assert levels(copied(tmp_path, "factory_ok"), lift=False) == {"factory_ok/train.py:6": "low"}


def test_a_test_split_beside_the_pipeline_another_module_fits_is_not_lifted(tmp_path):
    """tf-fix31, reading 23's tonywu71: a class builds its training images and a test split, another module
    fits the images; the lift to `medium` reaches the training map, not the map of the pipeline named for
    testing."""
    assert levels(copied(tmp_path, "split_test"), lift=False) == {
        "split_test/loader.py:12": "medium",
        "split_test/loader.py:14": "low",
    }


def test_a_per_sample_method_of_a_module_without_tensorflow_is_found_at_its_loop(tmp_path):
    """tf-fix31, reading 23's bubbliiiing pspnet-keras: segmenter.py imports neither TensorFlow nor Keras
    (its net comes from nets/unet.py) and predicts one letterboxed image per `get_miou_png` call, which
    get_miou.py calls for every validation image: PP301 at the call, `low` as tf-fix30's class. One call
    outside a loop has none."""
    assert _found(copied(tmp_path, "segmenter"), "PP301") == [("get_miou.py", 12, "low")]
    assert _found(copied(tmp_path, "segmenter_ok"), "PP301") == []


def test_tensorflow_known_only_through_a_star_import_is_checked(tmp_path):
    """tf-fix34, reading 25's face trainer: train.py gets `tf` only from `from model.facenet import *`, whose
    module imports TensorFlow, so no TensorFlow rule looked at it. The unbound `tf` root is now read as
    the star's TensorFlow (the guess resolve.py makes for torch and nn): the serial decode map and the
    missing prefetch of the fitted pipeline are found. With a parallel map and a prefetch, nothing."""
    found = {(f.rule, f.line) for f in check_paths([str(copied(tmp_path, "starred"))])[0]}
    assert found == {("PP202", 20), ("PP203", 20)}
    assert check_paths([str(copied(tmp_path, "starred_ok"))])[0] == []


def test_a_map_whose_own_code_calls_imported_image_helpers_is_read_in_their_module(tmp_path):
    """tf-fix37 (reading 26: LeslieZhoa's DeepLab input function): the map's code is here (a lambda calling a
    local `preprocess`), but its image work is in helpers imported from `utils.augment` (a random rescale by
    `tf.image.resize`); on a pipeline its module fits it is `medium`, as a map of an imported def is. The
    module checked alone cannot see the helpers: `low`. With helpers that only cast, it stays `low`."""
    folder = copied(tmp_path, "wrapped")
    assert levels(folder, lift=False) == {"wrapped/train.py:16": "medium"}
    alone, _, _ = check_paths([str(folder / "train.py")])
    assert [(f.line, f.confidence) for f in alone if f.rule == "PP202"] == [(16, "low")]
    assert levels(copied(tmp_path, "wrapped_cheap"), lift=False) == {"wrapped_cheap/train.py:16": "low"}


def test_a_builder_class_called_through_an_instance_and_fitted_by_a_plain_name_is_medium(tmp_path):
    """tf-fix37 (reading 26: cmb87's CenterNet `Datapipe`): main.py makes an instance of the builder class
    (`pipe = Pipe()`), calls it (`g = pipe(...)`, its `__call__` builds the pipeline) and fits `g`: the serial
    decode map is `medium`, as for a builder called by name into training, and the pipeline's missing
    prefetch is `high` (tf-fix43; `medium` before). The twin only evaluates `g`: both stay `low`."""
    folder = copied(tmp_path, "instance")
    assert levels(folder, lift=False) == {"data/pipe.py:12": "medium"}
    findings, _, _ = check_paths([str(folder)])
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP203"] == [(14, "high")]
    twin = copied(tmp_path, "instance_eval")
    assert levels(twin, lift=False) == {"data/pipe.py:12": "low"}
    findings, _, _ = check_paths([str(twin)])
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP203"] == [(14, "low")]


def test_a_loop_predicting_what_another_modules_static_helper_makes_a_batch_of_one_is_low(tmp_path):
    """tf-fix50, reading 33's OCR-CTC-Keras: `ocr_prediction.py` (no TensorFlow import) predicts, for every
    test image, `image_generator.TextImageGenerator.prepara_immagine(img, ...)`, a static method of another
    module that ends `np.expand_dims(img, axis=0)`: PP301 at the predict, `low`. The same helper without the
    batch axis, and a helper stacking a folder, are none."""
    assert _found(copied(tmp_path, "helper_elsewhere"), "PP301") == [("ocr_prediction.py", 14, "low")]
    assert _found(copied(tmp_path, "helper_elsewhere_ok"), "PP301") == []


def test_a_keras_model_built_per_round_with_a_star_imported_builder_is_pp302(tmp_path):
    """tf-fix50, reading 33's AbnerYang: `run.py` imports no TensorFlow, takes `Wide_CNN` (a def building and
    returning a Keras `Model`) with `from wide_cnn import *`, and builds and fits it 10 times for each of 3
    split ratios: PP302 at the build, `low`. Nine models, or a builder the project does not define, are
    none."""
    assert _found(copied(tmp_path, "star_models"), "PP302") == [("run.py", 14, "low")]
    assert _found(copied(tmp_path, "star_models_ok"), "PP302") == []


def test_a_model_object_handed_in_as_a_parameter_is_followed_to_its_one_class(tmp_path):
    """tf-fix50, reading 33's digengill: `App.__init__(self, model=None, ...)` keeps `self.my_model = model`,
    and `update_accuracy` calls `self.my_model.my_predict([img], ...)` for every image of a folder;
    `my_predict` (the one def of that name in the project, in `model.py`) predicts `[img]` and builds
    `K.ctc_decode` with `K.get_value` per call. PP301 at the call and PP101 at the decode, both `low`.
    When the module also binds `self.my_model` to another class's object (a remote client defining its
    own `my_predict`), neither is found."""
    folder = copied(tmp_path, "handed_model")
    assert _found(folder, "PP301") == [("app.py", 20, "low")]
    assert _found(folder, "PP101") == [("model.py", 16, "low")]
    ok = copied(tmp_path, "handed_model_ok")
    assert _found(ok, "PP301") == [] and _found(ok, "PP101") == []


def test_predicts_on_calls_elsewhere_asks_whether_each_call_returns_one_sample():
    """Review25 item 16: the callback of `predicts_on_calls_elsewhere` decides whether a call (and the place
    of the predicted name in its tuple) returns a batch of one, and is named for it (`returns_one_sample`,
    `made` before). A predict over a folder of what `prepare(...)` returns is PP301 when the callback says
    the call returns one sample, and none when it says not."""
    import ast

    from checker.module import ModuleIndex
    from checker.rules.keras import predicts_on_calls_elsewhere

    source = (
        "import os\n"
        "from keras.models import load_model\n"
        "from utils import prepare\n"
        "\n"
        'model = load_model("model.h5")\n'
        'for name in os.listdir("images"):\n'
        '    img = prepare(os.path.join("images", name))\n'
        "    print(name, model.predict(img))\n"
    )
    index = ModuleIndex.build(ast.parse(source))
    asked = []

    def says(answer):
        def returns_one_sample(call, place):
            asked.append((ast.unparse(call.func), place))
            return answer

        return returns_one_sample

    found = list(predicts_on_calls_elsewhere(index, returns_one_sample=says(True)))
    assert [raw.line for raw in found] == [8] and ("prepare", None) in asked
    assert list(predicts_on_calls_elsewhere(index, returns_one_sample=says(False))) == []


def test_a_model_object_handed_to_a_nested_def_is_read_with_that_defs_parameters(tmp_path):
    """Review25 item 8: digengill's shape with the binding in a callback nested in `__init__` (`def
    on_loaded(model): self.my_model = model`, handed to a loader): the binding is read with the parameters
    of its own def, not with those of `__init__`, so the model is handed in and PP301 and PP101 are found
    as for `handed_model`. When the callback binds a local it took out of its argument, neither is."""
    folder = copied(tmp_path, "handed_model_nested")
    assert _found(folder, "PP301") == [("app.py", 24, "low")]
    assert _found(folder, "PP101") == [("model.py", 16, "low")]
    ok = copied(tmp_path, "handed_model_nested_ok")
    assert _found(ok, "PP301") == [] and _found(ok, "PP101") == []


def test_a_model_bound_to_self_through_a_name_is_of_the_class_the_name_is_made_by(tmp_path):
    """Review25 item 8: `model = Extractor()` then `self.net = model` in `__init__`, and `save_all` calls
    `self.net.extract(frame)` for every frame of every clip: `self.net` is read from its own bindings
    (`self_bindings`), through the name to its one class, and PP301 is found at the call, `low`, as for
    `extractor`. Before, only a `self.name` spelt like the local name (`self.model = model`) was followed.
    When the name is also bound to a remote client, the class is not known: none."""
    assert _found(copied(tmp_path, "extractor_self"), "PP301") == [("extract_features.py", 23, "low")]
    assert _found(copied(tmp_path, "extractor_self_ok"), "PP301") == []


def test_dataset_class_methods_trained_elsewhere_and_their_opencv_callbacks_rise(tmp_path):
    """tf-fix51, reading 35's FCN-Segmentation: `run_loop.py` binds `dataset` to one of the dataset classes
    by a flag, trains on `dataset.load_dataset(is_training=True, ...)` through a TF1 iterator; the method
    maps `self.parse_record` (decode_png) and `py_func(self.transform_record, ...)`, a method of the base
    class (`dataset.py`) that runs `image_utils.random_transform`, whose helpers blur and warp with OpenCV.
    The parse map and the callback map are `medium`, the pipeline's missing prefetch `high` (the classes
    of a def another module trains on). With NumPy-only augmentation and a loop that only evaluates, all
    three stay `low`; the validation map's `pad_record` (NumPy padding) is never reported."""
    folder = copied(tmp_path, "fcn_classes")
    assert _found(folder, "PP202") == [("voc_dataset.py", 20, "medium"), ("voc_dataset.py", 22, "medium")]
    assert _found(folder, "PP203") == [("voc_dataset.py", 32, "high")]
    ok = copied(tmp_path, "fcn_classes_ok")
    assert _found(ok, "PP202") == [("voc_dataset.py", 20, "low"), ("voc_dataset.py", 22, "low")]
    assert _found(ok, "PP203") == [("voc_dataset.py", 32, "low")]


def test_tf_passes_reuse_the_kept_index_of_each_module(tmp_path, monkeypatch):
    """torch-speed19: the TF project passes take the index the per-module pass kept of a module rather than
    parse and index its text again (the TF calls pass parsed every module saying `fit`, 0.44 -> 0.16 CPU s on
    hold-out 36), with the same findings (tf-fix50's star_models: PP302 at run.py's build). A module with a
    line a magic may start (`!pip`) is parsed again as before (and does not parse), as its kept tree is of its
    text with that line made `pass`."""
    from checker.module import ModuleIndex

    folder = copied(tmp_path, "star_models")
    built: list[str] = []
    build = ModuleIndex.build.__func__

    def counted(cls, tree, implicit_imports=False):
        built.append(ast.unparse(tree).splitlines()[0])
        return build(cls, tree, implicit_imports)

    monkeypatch.setattr(ModuleIndex, "build", classmethod(counted))
    assert _found(folder, "PP302") == [("run.py", 14, "low")]
    assert sorted(built) == [
        "from keras.layers import Conv2D, Dense, Flatten, Input, concatenate",
        "import pandas as pd",
    ]
    run = folder / "run.py"
    run.write_text("!pip install pandas\n" + run.read_text())
    assert _found(folder, "PP302") == []  # (the project passes cannot parse run.py as written)


def test_a_class_whose_constructor_builds_a_model_made_per_iteration_is_pp302(tmp_path):
    """tf-fix52, reading 36's grid search: `Architecture.__init__` (nets/architectures.py) builds a Keras
    `Sequential` and keeps it on `self.model`; run_grid.py (and the notebook) makes an `Architecture` for every point of the
    grid and calls its `train_model()`. PP302 at the construction, `low` (the rule's level), as for a def
    returning the model. A class that keeps a model handed in, and one built per iteration but never
    trained (`describe()`), are silent."""
    assert _found(copied(tmp_path, "grid_owner"), "PP302") == [
        ("train_grid_search.ipynb", 2, "low"),
        ("run_grid.py", 11, "low"),
    ]
    assert _found(copied(tmp_path, "grid_owner_ok"), "PP302") == []


def test_a_class_of_an_imported_module_made_per_iteration_is_pp302(tmp_path):
    """Session 27 reread (tf-fix53): `_trains_owned_model` saw only `name = Owner(...)`. The grid search
    calling the class on its module (`from nets import architectures`, `architectures.Architecture(...)`;
    `import nets.architectures as arch`, `self.current = arch.Architecture(...)` in a method's nested loops)
    builds and trains a model per iteration as `Architecture(...)` does. A class keeping a model handed in,
    and one built per iteration but only described, stay silent."""
    assert sorted(_found(copied(tmp_path, "grid_module"), "PP302")) == [
        ("run_grid.py", 11, "low"),
        ("run_search.py", 14, "low"),
    ]
    assert _found(copied(tmp_path, "grid_module_ok"), "PP302") == []


def test_a_notebook_building_a_model_of_another_module_per_iteration_names_its_cell(tmp_path):
    """tf-fix52: the notebook of `grid_owner` (reading 36's `train_grid_search.ipynb` shape, importing the
    class after `sys.path.append('..')`) is read by the project pass as the per-module pass reads it, its code
    cells joined; the finding names the cell (5, the markdown cell counted) and the loop's line in it."""
    findings, _, _ = check_paths([str(copied(tmp_path, "grid_owner"))])
    found = [f for f in findings if f.rule == "PP302" and f.path.endswith(".ipynb")]
    assert [(f.cell, f.line) for f in found] == [(5, 2)]
    assert "loop at cell 5 line 1" in found[0].message


def test_a_batch_of_one_handed_to_a_plain_helper_that_predicts_it_is_pp301(tmp_path):
    """tf-fix52, reading 36's MobileFaceNet: `utils.py` imports no TensorFlow; its `calc_128_vec(model, img)`
    predicts `img` with the `model` it is given. encode_faces.py (TensorFlow) makes each face a batch of one
    (`np.expand_dims(face, axis=0)`) and hands it over once per file: PP301 at the call, `low`. Stacking the
    faces and calling once is silent, and so is a module without TensorFlow handing a row of one to the same
    helper with a pickled forest (no Keras model's predict)."""
    assert _found(copied(tmp_path, "face_helpers"), "PP301") == [("encode_faces.py", 16, "low")]
    assert _found(copied(tmp_path, "face_helpers_ok"), "PP301") == []


def test_an_equal_plain_helper_of_another_module_leaves_a_tensorflow_helpers_calls_alone(tmp_path):
    """review27 item 23: face_tf.py (TensorFlow) and a copied plain `utils.py` define the same
    `calc_128_vec(model, img)` at the same line, so their predictors are equal values. The plain one's calls
    count only from a module using TensorFlow (tf-fix52), but encode_faces.py's calls run face_tf's, so its
    one face per file is PP301 (`low`); score_rows.py handing a row of one to the plain helper with a pickled
    forest stays silent."""
    assert _found(copied(tmp_path, "face_helpers_copied"), "PP301") == [("encode_faces.py", 15, "low")]


def _grid_notebook(folder: Path, edit) -> Path:
    """grid_owner's notebook with its cells changed by `edit(cells)`."""
    import json

    path = folder / "notebooks" / "train_grid_search.ipynb"
    notebook = json.loads(path.read_text())
    edit(notebook["cells"])
    path.write_text(json.dumps(notebook))
    return path


def test_a_silenced_notebook_has_no_project_pass_finding(tmp_path):
    """review27 item 24 (a): `# ppcheck: noqa` at the top of any cell silences the whole notebook, as the
    per-module pass reads it (`engine.check_cells`), for the project pass's PP302 too; run_grid.py's stays."""
    folder = copied(tmp_path, "grid_owner")
    _grid_notebook(folder, lambda cells: cells[1]["source"].insert(0, "# ppcheck: noqa\n"))
    assert _found(folder, "PP302") == [("run_grid.py", 11, "low")]


def test_a_notebook_cell_that_does_not_parse_leaves_the_others_read(tmp_path):
    """review27 item 24 (b): a Python 2 cell (`print 'x'`) is skipped, as the per-module pass skips it, and
    the project pass still reads the other cells: PP302 in the loop's cell, now cell 6."""
    folder = copied(tmp_path, "grid_owner")
    bad = {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": [],
        "source": ["print 'x'"],
    }
    _grid_notebook(folder, lambda cells: cells.insert(2, bad))
    findings, _, _ = check_paths([str(folder)])
    found = [f for f in findings if f.rule == "PP302" and f.path.endswith(".ipynb")]
    assert [(f.cell, f.line) for f in found] == [(6, 2)]
    assert "loop at cell 6 line 1" in found[0].message


_OWNER = """from tensorflow import keras


class Agent:
    def __init__(self, n_actions):
        model = keras.Sequential()
        model.add(keras.layers.Dense(n_actions))
        self.model = model

    def train_episode(self, env):
        return self.model.fit(env.states(), env.targets())
"""

_BUILDER = """from tensorflow import keras


def Agent(n_actions):
    model = keras.Sequential()
    model.add(keras.layers.Dense(n_actions))
    return model
"""

_SEARCH = """from agents import Agent

for n_actions in range(2, 40):
    agent = Agent(n_actions)
    agent.train_episode(None)
"""


def test_pp302_owners_are_those_the_module_imports_whatever_the_order(tmp_path):
    """review27 item 25: a class keeping a Keras model it builds (dqn/agent.py's `Agent`) makes its
    instances' `train...` calls training only in a module that imports it: dqn/train.py's loop is PP302.
    baseline/search.py imports a def `Agent` returning a model and calls no Keras training: no PP302,
    whether or not dqn/train.py was read first (the owners were gathered from every module read so far)."""
    texts = {
        "dqn/agent.py": _OWNER,
        "dqn/train.py": _SEARCH,
        "baseline/agents.py": _BUILDER,
        "baseline/search.py": _SEARCH,
    }
    for name, text in texts.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(
            text.replace("from agents", "from agent") if name == "dqn/train.py" else text
        )
    files = [str(tmp_path / name) for name in texts]
    for order in (files, files[::-1]):
        found = project.calls_across_modules([], [order], ("PP302",))
        assert [(Path(f.path).parent.name, Path(f.path).name, f.line) for f in found] == [
            ("dqn", "train.py", 4)
        ]


def test_keras_model_owners_and_builders_are_worked_out_once_per_index(monkeypatch):
    """review27 items 26/27: the two project-pass lists of a module are kept on its index through one
    helper (`_per_index`), each worked out once; `instance_method` is keras.py's one name for it."""
    from checker.module import ModuleIndex
    from checker.rules import keras

    calls = []
    for name in ("_model_owners", "_model_builders"):
        original = getattr(keras, name)
        monkeypatch.setattr(keras, name, lambda index, o=original, n=name: calls.append(n) or o(index))
    index = ModuleIndex.build(ast.parse(_OWNER))
    for _ in range(2):
        assert keras.keras_model_owners(index) == {"Agent"}
        assert keras.keras_model_builders(index) == set()
    assert calls == ["_model_owners", "_model_builders"]
    assert not hasattr(keras, "_instance_method")


def test_a_notebook_finding_of_the_project_pass_counts_its_column_in_characters(tmp_path):
    """torch-speed22 (session 27 reread notes): the project pass read a notebook's cells with its own copies
    of `engine.check_cells`' helpers, which gave ast's column (UTF-8 bytes) where the engine gives
    characters; it now reads them with the engine's (`parsed_cells`, `CellLines`, `character_column`). A
    `modèle = Architecture(...)` line: the call starts at character 14 (1-based), byte 15."""
    folder = copied(tmp_path, "grid_owner")

    def renamed(cells):
        cells[4]["source"] = [line.replace("architecture", "modèle") for line in cells[4]["source"]]

    _grid_notebook(folder, renamed)
    findings, _, _ = check_paths([str(folder)])
    found = [f for f in findings if f.rule == "PP302" and f.path.endswith(".ipynb")]
    assert [(f.cell, f.line, f.column) for f in found] == [(5, 2, 14)]
    assert "loop at cell 5 line 1" in found[0].message


def test_a_line_of_a_piece_is_read_with_the_engines_guard():
    """review28 item 23: `_notebook_models` split a cell itself (`source.split("\\n")[at - 1]`); `CellLines.line`
    reads a piece's line as the engine's `_line` does, "" past the piece's end."""
    from checker.engine import CellLines

    places = CellLines([(1, "import torch\nx = 1"), (3, "y = 2")])
    assert places.place(3) == (3, 1)
    assert places.line(1, 2) == "x = 1"
    assert places.line(3, 1) == "y = 2"
    assert places.line(3, 2) == ""
    assert places.line(1, 0) == ""
