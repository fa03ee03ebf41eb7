"""A DataLoader one module returns and another copies to the GPU (checker/torch_project/): PP505 at the
maker's DataLoader, marked `# expect: PP505` in the projects under tests/torch_cases/projects."""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import pytest

from checker import check_paths
from checker.rules import all_rules
from checker.torch_project.reads import HANDED_STEPPER_LEVEL

PROJECTS = Path(__file__).parent / "torch_cases" / "projects"
_EXPECT = re.compile(r"#\s*expect:\s*(PP\d+)")


def checked_copy(tmp_path: Path, name: str, rules=None):
    """(root, findings, skipped) of a copy of project `name`: files under tests/ get no findings (test code),
    so the projects are checked from a copy."""
    root = Path(shutil.copytree(PROJECTS / name, tmp_path / name))
    findings, skipped, _ = check_paths([str(root)], rules)
    return root, findings, skipped


def levels_of(findings, rule: str) -> dict[tuple[str, int], str]:
    """{(file name, line): confidence} of `rule`'s findings: what the level tests compare."""
    return {(Path(f.path).name, f.line): f.confidence for f in findings if f.rule == rule}


def found_and_marked(tmp_path: Path, name: str, rules=None):
    root, findings, skipped = checked_copy(tmp_path, name, rules)
    assert not skipped, skipped
    found = sorted(
        (str(Path(f.path).relative_to(root)), f.line, f.rule) for f in findings if f.rule.startswith("PP5")
    )
    marked = sorted(
        (str(path.relative_to(root)), n, m.group(1))
        for path in root.rglob("*.py")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        for m in _EXPECT.finditer(line)
    )
    return found, marked


@pytest.mark.parametrize("name", sorted(p.name for p in PROJECTS.iterdir() if p.is_dir()))
def test_project_reports_exactly_the_marked_lines(tmp_path, name):
    found, marked = found_and_marked(tmp_path, name)
    assert found == marked


def test_the_maker_is_reported_where_it_makes_the_loader(tmp_path):
    found, _ = found_and_marked(tmp_path, "factory")
    assert found == [("data_provider/data_factory.py", 13, "PP505"), ("datasets.py", 7, "PP505")]


def test_each_module_alone_says_nothing(tmp_path):
    root = Path(shutil.copytree(PROJECTS / "global_loader", tmp_path / "global_loader"))
    for path in root.glob("*.py"):
        findings, _, _ = check_paths([str(path)])
        assert not [f for f in findings if f.rule == "PP505"], path


def test_rules_not_asked_for_are_not_run_across_modules(tmp_path):
    found, _ = found_and_marked(tmp_path, "global_loader", [all_rules()["PP504"]])
    assert found == []


def test_a_loader_found_across_modules_reports_at_high(tmp_path):
    """torch-calibrate31: the loaders this pass finds read right 67 of 69 as first read over hold-outs 4-13
    (no hold-out with five or more under 83%), so they report at the default level. torch-fix88: at the
    default only over a data set that decodes each item, here a class another module of the project defines
    (`flow_datasets.FlyingChairs`, `decoding_classes_raised`); the time-series windows of `data_dict[...]`
    are `medium`. (The fixture writes `pin_memory=False` out, as RAFT does; the loader is taken here
    without it: see the next test.)"""
    root = Path(shutil.copytree(PROJECTS / "factory", tmp_path / "factory"))
    source = root / "datasets.py"
    source.write_text(source.read_text().replace("        pin_memory=False,\n", ""))
    findings, _, _ = check_paths([str(root)], None)
    levels = {
        (str(Path(f.path).relative_to(root)), f.line): f.confidence for f in findings if f.rule == "PP505"
    }
    assert levels == {("data_provider/data_factory.py", 13): "medium", ("datasets.py", 7): "high"}


def test_a_loader_that_writes_pin_memory_false_out_reports_below_the_default(tmp_path):
    """(session 21, `pinning_turned_off`) The factory project's loader writes `pin_memory=False` out, as
    RAFT's does: an author's choice, reported at `medium` across modules as in one module (the test above
    takes the same loader without it: `high`)."""
    root, findings, _ = checked_copy(tmp_path, "factory")
    levels = {
        (str(Path(f.path).relative_to(root)), f.line): f.confidence for f in findings if f.rule == "PP505"
    }
    assert levels == {("data_provider/data_factory.py", 13): "medium", ("datasets.py", 7): "medium"}


def test_a_loader_of_token_ids_or_data_in_memory_found_across_modules_stays_at_medium(tmp_path):
    """torch-calibrate31: loaders of the kinds PP505 itself reports at low (token ids, from a tokenizer made
    in the def that makes the loader; a TensorDataset held in memory, NRI's `load_data`) were most of what
    this pass's loaders read not right: they stay off the default output; since torch-fix96 at `low`, as the
    module pass reports them (`pinned_copy_negligible`)."""
    root, findings, _ = checked_copy(tmp_path, "token_factory")
    levels = {
        (str(Path(f.path).relative_to(root)), f.line): f.confidence for f in findings if f.rule == "PP505"
    }
    assert levels == {("previous_chapters.py", 26): "low", ("previous_chapters.py", 36): "low"}


def test_a_loader_of_a_dataset_made_from_a_whole_load_or_from_features_stays_at_medium(tmp_path):
    """torch-fix34: a dataset made in the loader's def from `pickle.load(f)` (ESIM's NLIDataset) or from
    BERT-style features (`processor.create_dataset(features)`, a TensorDataset of token ids made in another
    module) is held in memory: medium, as in hold-outs 11-14 these read debatable. An ImageFolder loader of
    the same project stays at high."""
    root, findings, _ = checked_copy(tmp_path, "loaded_factory")
    levels = {
        (str(Path(f.path).relative_to(root)), f.line): f.confidence for f in findings if f.rule == "PP505"
    }
    assert levels == {("train.py", 15): "medium", ("train.py", 26): "medium", ("train.py", 34): "high"}


def test_copies_in_a_class_no_module_names_drop_below_the_default(tmp_path):
    """torch-fix53: SincNet's old `sinc_conv` layer, which no module of the project names any more, made
    three of the `high` `.cuda()` copies hold-out 17 read debatable (code nothing runs): a class named
    nowhere outside itself reports its copies at medium; the layer the model builds, and the scorer only a
    test script builds (End-to-end-ASR's `CTCBeamDecoder`, built by `bin/test_asr.py`), stay at high."""
    root, findings, _ = checked_copy(tmp_path, "unnamed_layer")
    levels = levels_of(findings, "PP506")
    assert levels == {
        ("layers.py", 15): "high",
        ("layers.py", 26): "medium",
        ("layers.py", 27): "medium",
        ("layers.py", 38): "high",
    }


def test_copies_in_a_class_named_only_by_its_copies_or_comments_drop_below_the_default(tmp_path):
    """torch-fix111: TransMorph's `SinusoidalPositionEmbedding`, kept in three model files and built only in a
    commented-out line, made six `high` copies hold-out 30 read debatable: a class named only inside its
    copies (their `super(...)` calls) and on comment lines is code nothing runs, at medium; the block the
    training script builds stays at high."""
    root, findings, _ = checked_copy(tmp_path, "copied_layer")
    levels = levels_of(findings, "PP506")
    assert levels == {
        ("layers.py", 14): "medium",
        ("layers.py", 25): "high",
        ("layers_affine.py", 13): "medium",
    }


def test_copies_in_a_forward_and_its_helpers_are_high(tmp_path):
    """torch-fix111: a copy in a `forward` (any `if` over it: AgentFormer's prior under an option) or outside any
    `if` in a def a forward calls (ECN's `smooth_hot`) runs on every pass: 72 of 74 `medium` read right over
    hold-outs 29-35, now `high`; the helper's copy under an option stays `medium`, and a grid in a
    preprocessing def no step follows is `medium`, no longer `high` (LaneGCN's `preprocess_data.py`)."""
    root, findings, _ = checked_copy(tmp_path, "forward_copies")
    levels = levels_of(findings, "PP506")
    assert levels == {
        ("fwd.py", 16): "high",
        ("fwd.py", 17): "high",
        ("fwd.py", 22): "medium",
        ("fwd.py", 39): "high",
        ("fwd.py", 41): "high",
        ("prep.py", 7): "medium",
    }


def test_copies_in_defs_a_training_loop_calls_are_high(tmp_path):
    """torch-fix115: a copy outside any `if` of a def a training loop calls every step, in its own module (a
    protonets `prepare_batch`) or another (a shake-shake block's `get_alpha_beta`), runs once per step: 28 of 30
    `medium` read right over hold-outs 29-37, now `high`; the copy under the def's own `if` stays `medium`, and
    a def an epoch loop calls (Handwriting-synthesis' `generate_sequence`, loading the saved model once per
    epoch) is no per-step def, so its copy is not reported."""
    root, findings, _ = checked_copy(tmp_path, "step_called_copies")
    levels = levels_of(findings, "PP506")
    assert levels == {
        ("shake.py", 5): "high",
        ("shake.py", 11): "medium",
        ("train.py", 12): "high",
    }


def test_held_draws_and_type_as_copies_in_defs_the_step_runs_are_high(tmp_path):
    """torch-fix131 (hold-out 45, listed): MIRNet's and ShadowFormer's `MixUp_AUG.aug` draws `lam` from a Beta of
    numbers held on `self` and moves it `.cuda()` (a method another module's loop calls on a new object,
    `utils.MixUp_AUG().aug(...)`); Deep-Exemplar's `vgg_preprocess` copies literal means with `type_as(tensor)`,
    run by a `forward` under `if preprocess:` with `preprocess=True` by default. Both run once per step. With
    the distribution's numbers on the device and the flag off by default, nothing is reported (the `_clean`
    project)."""
    _, findings, _ = checked_copy(tmp_path, "held_draws_and_typed_helpers")
    assert levels_of(findings, "PP506") == {("utils.py", 11): "high", ("utils.py", 18): "high"}


def test_a_def_called_by_a_method_that_steps_an_optimizer_runs_every_step(tmp_path):
    """torch-fix131 (hold-out 45, listed): DoveNet's model class steps `self.optimizer_D` in
    `optimize_parameters`, which calls `self.backward_D()`, which calls `networks.cal_gradient_penalty(...)`
    (`from . import networks`); its `torch.ones(...).to(device)` runs on every discriminator step. A method no
    optimizer-stepping method calls is not tied to the step (the `_clean` project)."""
    _, findings, _ = checked_copy(tmp_path, "optimizer_step_methods")
    assert levels_of(findings, "PP506") == {("networks.py", 11): "high"}


def test_a_method_that_steps_an_optimizer_inside_its_own_loop_runs_once(tmp_path):
    """Review 26 item 1: a trainer's `train` steps `self.optimizer` inside its own epoch loop, so it runs once
    per run and the mask it builds before the loop (`utils.build_mask(64)`, `torch.ones(n, n).cuda()`) is no
    per-step copy; before the fix any method calling `self.optim*.step()` counted as one step and the helper
    reported `high`. The one-step shape (`optimize_parameters`) is the project above."""
    _, findings, _ = checked_copy(tmp_path, "optimizer_stepped_in_own_loop")
    assert levels_of(findings, "PP506") == {}
    _, findings, _ = checked_copy(tmp_path, "optimizer_step_methods")
    assert levels_of(findings, "PP506") == {("networks.py", 11): "high"}


def test_copies_in_a_library_module_nothing_imports_drop_below_the_default(tmp_path):
    """torch-fix131 (hold-out 44, read debatable at `high`): Attention_ocr's `models/crnn.py` is imported by no
    file (train.py imports `models.crnn_lang as crnn`: the alias is no import of `crnn.py`), so its decoder's
    per-forward copy is code nothing runs and reports at `medium` (`_unimported_module_copies`); the live
    copy stays `high`."""
    _, findings, _ = checked_copy(tmp_path, "unimported_module")
    assert levels_of(findings, "PP506") == {("crnn.py", 12): "medium", ("crnn_lang.py", 12): "high"}


def test_a_module_named_on_a_continuation_line_of_an_import_is_imported(tmp_path):
    """Review 26 item 3: `from models import (\n    crnn,\n    crnn_lang,\n)` imports both modules, so their
    live copies stay `high`; only the first line of the import was read, and both dropped to `medium` as if
    nothing imported them. A module named only in a commented-out line inside the parentheses (`# ctc,`) is
    still imported by no file and drops."""
    _, findings, _ = checked_copy(tmp_path, "parenthesised_import")
    assert levels_of(findings, "PP506") == {
        ("crnn.py", 12): "high",
        ("crnn_lang.py", 12): "high",
        ("ctc.py", 12): "medium",
    }


def test_a_script_whose_margin_assigns_a_call_of_its_own_def_keeps_its_copies(tmp_path):
    """Session 26 reread: `losses = train(model, loader, epochs=10)` at the margin runs the module's own
    `train`, so the file is a script a command line runs, not a library nothing imports; its forward's copy
    stayed `high` only while `_library_module` read every `name = ...` line as a definition."""
    _, findings, _ = checked_copy(tmp_path, "script_by_assignment")
    assert levels_of(findings, "PP506") == {("run_decoder.py", 12): "high"}


def test_library_module_reads_a_margin_assignment_that_calls_its_own_def_as_code():
    """Session 26 reread: an assignment at the margin whose value calls a def of the same text runs code; an
    assignment calling a library (`logger = logging.getLogger(__name__)`) keeps the module a library."""
    from checker.torch_project.factories import _library_module

    script = (
        "import torch\nfrom net import Net\n\ndef train(m, epochs):\n    return m\n\nmodel = Net().cuda()\n"
    )
    assert not _library_module(script + "losses = train(model, epochs=10)\n")
    assert not _library_module(script + "losses, acc = (\n    train(model, 1))\n")
    assert _library_module(script + "logger = logging.getLogger(__name__)\n")
    assert _library_module(script + "trainer = train\n")


def test_a_usage_example_in_a_docstring_does_not_make_a_library_a_script(tmp_path):
    """(review 27 item 2) `_calls_own_def_at_margin` read the text inside strings: a module docstring's
    "Use it so:" example `losses = train(loader, epochs=10)` at the margin made a library (the
    script_by_assignment case without its last two lines) a script, and its copy stayed `high`. Strings are
    blanked first; the real assignment at the margin still makes it a script."""
    from checker.torch_project.factories import _library_module

    script = (PROJECTS / "script_by_assignment" / "run_decoder.py").read_text()
    library = script.replace(
        '\n\n\nloader = torch.load("batches.pt")\nlosses = train(loader, epochs=10)\n', "\n"
    )
    assert library != script
    documented = (
        '"""The decoder and its training loop. Use it so:\n\nlosses = train(loader, epochs=10)\n"""\n'
    )
    assert _library_module(documented + library)
    assert not _library_module(documented + script)
    folder = tmp_path / "documented"
    folder.mkdir()
    (folder / "run_decoder.py").write_text(documented + library)
    findings, _, _ = check_paths([str(folder)])
    assert levels_of(findings, "PP506") == {("run_decoder.py", 16): "medium"}


def test_a_helper_a_forward_runs_under_a_test_of_its_default_mode_copies_every_step(tmp_path):
    """torch-fix141 (hold-out 46, UniMatch's `normalize_img`): `forward(self, img, task="flow")` runs
    `normalize_img(img)` under `if task == "flow":`, the branch a call leaving the mode at its default takes, so
    the helper's `torch.tensor([...]).to(img.device)` is copied on every training forward; the `elif task ==
    "depth":` helper runs only when a caller asks for depth and stays silent."""
    _, findings, _ = checked_copy(tmp_path, "forward_default_branch")
    assert levels_of(findings, "PP506") == {("utils.py", 5): "high"}


def test_default_branch_is_one_helper_for_the_moves_and_the_reads():
    """(review 27 item 3) torch_moves and the cross-module reads each had a `_default_branch` ("a parameter
    compared with a constant; is the node in the branch its default takes") and a defaults table: one public
    `default_branch(test, in_body, function)` with `parameter_defaults` in torch_common serves both. Equal is
    the same type and value; `is`/`is not` compare the object (a `None` default)."""
    import ast

    from checker.rules import torch_common, torch_moves
    from checker.torch_project import reads

    assert torch_moves.default_branch is torch_common.default_branch is reads.default_branch
    assert not hasattr(torch_moves, "_default_branch") and not hasattr(torch_moves, "_parameter_defaults")
    function = ast.parse("def f(x, task='flow', mask=None, *, scale=1): pass").body[0]
    assert set(torch_common.parameter_defaults(function)) == {"task", "mask", "scale"}

    def taken(test: str, in_body: bool) -> bool:
        return torch_common.default_branch(ast.parse(test).body[0].value, in_body, function)

    assert taken("task == 'flow'", True) and not taken("task == 'flow'", False)
    assert taken("task != 'flow'", False) and not taken("task != 'flow'", True)
    assert taken("task == 'depth'", False) and not taken("task == 'depth'", True)
    assert taken("mask is None", True) and taken("mask is not None", False)
    assert taken("scale == 1.0", False) and not taken("scale == 1.0", True)
    assert not taken("x == 1", True) and not taken("x == 1", False)
    assert not taken("task in ('flow',)", True)


def test_copies_in_a_def_nothing_runs_drop_below_the_default(tmp_path):
    """torch-fix109: SAPNet's `Laplacian`, called only by a `laplacian_loss` nothing calls, made a `high` copy
    hold-out 33 read debatable (code nothing runs): a top-level def named only inside such defs reports its
    copies at medium; the edge helper whose loss the trainer imports stays at high."""
    root, findings, _ = checked_copy(tmp_path, "uncalled_helper")
    levels = levels_of(findings, "PP506")
    assert levels == {("losses.py", 12): "medium", ("losses.py", 23): "high"}


def test_reads_in_defs_a_training_loop_runs_from_elsewhere_are_medium(tmp_path):
    """torch-fix57: a def reading on the host that a training loop of another class or module runs every
    step (an instance's `process`, a subclass's `_compute_loss`, a helper's helper) is reported in the def,
    at medium, naming the loop; the clean twin (called every N steps, read under a logging switch, a loop
    with no training step) stays silent."""
    root, findings, _ = checked_copy(tmp_path, "step_called")
    reads = sorted((Path(f.path).name, f.line, f.confidence) for f in findings if f.rule == "PP501")
    assert reads == [("base.py", 33, "high"), ("models.py", 17, "medium"), ("pod.py", 15, "medium")]
    assert all("runs on every step" in f.message for f in findings if f.rule == "PP501")


def test_one_movers_table_per_project_run():
    """(torch-fix64) The loader pass (PP505) and the factory pass (PP506) each build the project's texts and get
    the same table of imported movers, each module parsed for its movers once; a changed text makes a new one."""
    from checker.torch_project.movers import project_movers

    helper = "def as_gpu(tensor):\n    tensor = tensor.cuda()\n    return tensor\n"
    user = "import torch\nfrom gpu import as_gpu\n"
    texts = {"/p/gpu.py": helper, "/p/train.py": user}
    table = project_movers(texts)
    assert project_movers(dict(texts)) is table
    assert table.names == {"as_gpu"}
    assert project_movers({**texts, "/p/gpu.py": helper + "\n"}) is not table


def test_the_text_passes_share_one_list_of_move_methods():
    """Review 26 item 12: the move methods (`.cuda(`, `.to(`, `.type_as(`) were spelled four times across
    movers.py and factories.py; they are one list, `MOVE_METHODS`, which `def_bodies`' test and the factory
    pass's patterns are built from, so a helper that only `type_as`-copies is found by both."""
    from checker.torch_project import factories
    from checker.torch_project.movers import MOVE_METHODS, MOVE_NAMES, def_bodies, moves_in

    assert MOVE_METHODS == ("cuda", "to", "type_as")
    assert factories._MOVED_FACTORY.pattern.endswith(rf".*\.{MOVE_NAMES}\(")
    typed = "def grid(h, w, x):\n    return torch.arange(h * w).type_as(x)\n"
    assert moves_in(typed) and [name for _, name, _ in def_bodies(typed)] == ["grid"]
    host = typed.replace(".type_as(x)", ".cpu()")
    assert not moves_in(host) and list(def_bodies(host)) == []


def test_imported_module_words_read_whole_import_statements():
    """Review 26 items 3 and 11: the words of a text's import statements with their continuation lines, less
    aliases and comments, from project_files (factories.py kept a near-copy of `import_words` that dropped
    aliases and read first lines only)."""
    from checker.project_files import imported_module_words

    text = (
        "import os\nfrom models import (\n    crnn,\n    # ctc,\n    lang as language,\n)\n"
        "from utils.box import \\\n    iou\nimport models.crnn_lang as crnn_model\n\nx = 1\n"
    )
    words = imported_module_words(text)
    assert {"os", "models", "crnn", "lang", "utils", "box", "iou", "crnn_lang"} <= words
    assert not {"ctc", "language", "crnn_model", "x"} & words


def test_imported_module_words_read_past_a_parenthesis_in_a_comment():
    """Session 26 reread: a `)` inside a comment of a parenthesised import ended the statement, so a module
    named after it (`crnn`) counted as imported by no file and its live `high` copies dropped to `medium`."""
    from checker.project_files import imported_module_words

    text = "x = 1\nfrom models import (\n    encoder,  # (old) decoder,\n    crnn)\ny = 2\n"
    words = imported_module_words(text)
    assert {"models", "encoder", "crnn"} <= words
    assert not {"old", "decoder", "y"} & words


def test_a_read_under_a_test_of_its_own_key_runs_on_every_step(tmp_path):
    """(torch-fix67) A method the training loop calls every step reads each loss of the step's dict under a
    test that the dict holds that key (`if "loss_sup" in cur_losses.keys():`, CCT's `_update_losses`): reported
    in the method at medium; the clean twin (a test of another key, or of another container) stays silent."""
    root, findings, _ = checked_copy(tmp_path, "key_tested")
    reads = [(Path(f.path).name, f.line, f.confidence) for f in findings if f.rule == "PP501"]
    assert reads == [("trainer.py", 36, "high")]
    assert "(and 1 more reads)" in next(f.message for f in findings if f.rule == "PP501")
    clean, findings, _ = checked_copy(tmp_path, "key_tested_clean")
    assert [f for f in findings if f.rule == "PP501"] == []


def test_a_read_in_the_forward_of_a_module_the_training_loop_calls_is_medium(tmp_path):
    """(torch-fix71) A torch module's `forward` reads a device value on the host (not a loss by name, so the
    module pass leaves it), and a training loop of another module calls an instance of the class every step
    (`loss = overlap(outputs, labels)` with `overlap = Overlap(4)`): reported in the forward at medium; the
    clean twin (the read in a method called every 100 steps, and the `forward` of a plain class whose instance
    call runs `__call__`) stays silent."""
    root, findings, _ = checked_copy(tmp_path, "forward_read")
    reads = [(Path(f.path).name, f.line, f.confidence) for f in findings if f.rule == "PP501"]
    assert reads == [("losses.py", 16, "medium")]
    assert "runs on every step" in next(f.message for f in findings if f.rule == "PP501")
    clean, findings, _ = checked_copy(tmp_path, "forward_read_clean")
    assert [f for f in findings if f.rule == "PP501"] == []


def test_a_factory_loader_without_workers_reports_at_the_module_level(tmp_path):
    """(torch-fix70) A DataLoader without workers that a factory def returns to a module copying its batches
    to the GPU gets PP504 at the level the module's own pass gives the shape: high over a data set that
    decodes each item (ImageFolder here)."""
    root, findings, _ = checked_copy(tmp_path, "workerless_factory")
    levels = {
        (str(Path(f.path).relative_to(root)), f.line): f.confidence for f in findings if f.rule == "PP504"
    }
    assert levels == {("data/loaders.py", 11): "high", ("data/loaders.py", 22): "high"}


def test_a_loader_of_another_modules_indexing_dataset_class_reports_at_low(tmp_path):
    """torch-fix79: a Dataset class of another module whose `__getitem__` only indexes arrays it holds
    (TabNet's `PredictDataset` of utils.py, hold-out 21) batches data already in memory: its loaders' PP505
    findings go to `low`, as for such a class of the loader's own module; a class that opens a file per
    item stays at the default."""
    root, findings, _ = checked_copy(tmp_path, "indexing_dataset")
    levels = {
        (str(Path(f.path).relative_to(root)), f.line): f.confidence for f in findings if f.rule == "PP505"
    }
    assert levels == {("model.py", 14): "low", ("model.py", 23): "high"}


def test_reads_in_a_def_the_training_loop_of_its_own_module_runs_are_high(tmp_path):
    """torch-fix83: a def of the module whose own training loop runs it every step (`... which the training
    loop at line 13 of this module runs`; the loop, the call and the reads in one file) reports at the
    default (first reads of hold-outs 13-22: 20 of 20 right in 11 repositories); a def a loop of another
    module runs stays medium. A finding that counts more reads names their lines (`the other read is at line
    38`), so each can be found."""
    root, findings, _ = checked_copy(tmp_path, "step_called")
    levels = levels_of(findings, "PP501")
    assert levels[("base.py", 33)] == "high" and levels[("models.py", 17)] == "medium"
    root, findings, _ = checked_copy(tmp_path, "key_tested")
    found = next(f for f in findings if f.rule == "PP501")
    assert found.confidence == "high" and "of this module runs" in found.message
    assert found.message.endswith("; the other read is at line 38")


def test_a_loader_of_a_data_set_placed_on_the_device_in_another_module_is_not_reported(tmp_path):
    """torch-fix81: DDU (hold-out 22) keeps FastMNIST's tensors on the GPU from `__init__`, makes the sets in a
    def of another module and hands them to its loaders through `Subset`, `ConcatDataset` and a wrapper's
    attribute: pinning CUDA tensors fails, so its `pin_memory=False` loaders get no PP505. The host twin (a
    class whose `__getitem__` reads nothing moved) keeps its finding at the default, and a host TensorDataset
    made from indices computed from the placed set (`np.random.permutation(len(train_set))`) keeps its own
    (at `medium` since torch-fix88: its items are slices of tensors held in host memory, nothing decoded)."""
    root, findings, _ = checked_copy(tmp_path, "placed_dataset")
    levels = {
        (str(Path(f.path).relative_to(root)), f.line): f.confidence for f in findings if f.rule == "PP505"
    }
    assert levels == {("train.py", 36): "low", ("train.py", 49): "medium"}


def test_a_def_returning_a_loader_makers_result_hands_its_loaders_on(tmp_path):
    """torch-fix81: DeepHash-pytorch's `get_data` (hold-out 22) returns `cifar_dataset(config)` as it is; the
    unpinned training loader of that maker, copied to the GPU by the module that calls `get_data`, is
    reported at its line. The other maker's loader is pinned: silent."""
    root, findings, _ = checked_copy(tmp_path, "returned_maker")
    levels = {
        (str(Path(f.path).relative_to(root)), f.line): f.confidence for f in findings if f.rule == "PP505"
    }
    assert levels == {("utils/tools.py", 9): "high"}


def test_a_library_data_set_named_as_a_placed_project_class_keeps_its_finding(tmp_path):
    """torch-fix81: a project class `MNIST(datasets.MNIST)` that keeps its tensors on the device does not make
    another script's torchvision `MNIST` (imported from torchvision) a placed data set: its loader is reported."""
    root, findings, _ = checked_copy(tmp_path, "placed_dataset_clean")
    levels = {
        (str(Path(f.path).relative_to(root)), f.line): f.confidence for f in findings if f.rule == "PP505"
    }
    assert levels == {("train.py", 11): "high"}


def test_a_loader_over_a_factory_of_a_class_decoding_through_an_imported_helper_reports_at_high(tmp_path):
    """torch-fix89: `get_training_set(root)` (data.py) returns a `FolderPairs` (dataset.py) whose `__getitem__`
    calls `load_img` of utils.py, which opens each image with PIL (hold-out 25's pix2pix-pytorch and HandMesh
    shapes): `high`, but not its `batch_size=1` loader (hold-out 25's DRIT test loaders, read debatable; since
    torch-fix96 `low`, no training loop taking it). The clean twin's `load_img` only looks an array up in
    memory: `medium`."""
    for name, level in (("decoding_helpers", "high"), ("decoding_helpers_clean", "medium")):
        _, findings, _ = checked_copy(tmp_path, name)
        assert sorted((Path(f.path).name, f.line, f.confidence) for f in findings if f.rule == "PP505") == [
            ("train.py", 10, level),
            ("train.py", 11, "low"),
        ], name


def test_a_loader_of_one_item_batches_by_default_over_another_modules_decoding_class_is_not_high(tmp_path):
    """torch-fix98: an evaluation script's loader over another module's decoding class whose batch size is 1
    by default (no `batch_size`, or `batch_size=args.batch_size` with the option's `default=1`: hold-out 28's
    ERFNet evaluation scripts, read debatable at `high`) is not raised to `high`, and feeding no training loop
    it goes to `low` as a `batch_size=1` one does; the twin whose option defaults to 8 stays `high`, and so
    does the training script's loader whose option defaults to 1 (overridden when a training run is started:
    hold-outs 18 and 23's Medical-Transformer and GANet, recorded right)."""
    _, findings, _ = checked_copy(tmp_path, "default_batch_eval")
    assert sorted((Path(f.path).name, f.line, f.confidence) for f in findings if f.rule == "PP505") == [
        ("eval_iou.py", 11, "low"),
        ("eval_many.py", 11, "high"),
        ("predict.py", 11, "low"),
        ("train.py", 12, "high"),
    ]


def test_reads_in_loops_type_tests_and_floats_of_called_defs_are_medium(tmp_path):
    """torch-fix91: a def the training loop runs every step reads where `_callee_reads` looked for none
    before: `float()` of a reduction in a loopless `evaluate` method, a read under a type test of its
    argument, a read in a comprehension over its argument's items. Each is reported in the def at medium (a
    sub-shape new to the rule); the clean twin (an `evaluate` running its own loop over a loader, `float()`
    of a plain count, a type test the read is not under, a loop over a loader argument, the helper called
    every 100 steps) stays silent."""
    root, findings, _ = checked_copy(tmp_path, "wide_reads")
    levels = levels_of(findings, "PP501")
    assert levels == {
        ("metrics.py", 15): "medium",
        ("metrics.py", 25): "medium",
        ("metrics.py", 32): "medium",
        ("train.py", 19): "high",
    }
    evaluate = next(f for f in findings if f.line == 15)
    assert (
        "`float()` in `evaluate`" in evaluate.message and "of train.py runs on every step" in evaluate.message
    )
    clean, findings, _ = checked_copy(tmp_path, "wide_reads_clean")
    assert [f for f in findings if f.rule == "PP501"] == []


def test_returned_loaders_over_tensor_datasets_are_low_as_in_their_own_module(tmp_path):
    """torch-fix96: loaders a def returns over TensorDatasets it makes from patches it cuts (hold-out 27's
    A2S2K-ResNet `generate_iter`), copied in another module's training loop, are reported by the project
    pass at `low`, as the module pass reports such a loader (`pinned_copy_negligible`); the twin, a returned
    loader over a data set handed in (a shard set loading a file per item), stays at `medium`."""
    _, findings, _ = checked_copy(tmp_path, "returned_tensor_loaders")
    levels = sorted((Path(f.path).name, f.line, f.confidence) for f in findings if f.rule == "PP505")
    assert levels == [("cubes.py", 19, "low"), ("cubes.py", 20, "low"), ("cubes.py", 25, "medium")]


def test_copies_in_a_kept_copy_of_a_module_nothing_imports_drop_below_the_default(tmp_path):
    """torch-fix94: DeepFashion_Try_On's `networks_backup.py`, a copy of the `networks.py` the model imports,
    named by no file: hold-out 27 read its two `high` copies debatable (code nothing runs). Its classes are
    named in the live copy, so `_named_outside` kept them; a class defined again elsewhere in a module no
    file names reports its copies at medium, and the live copy stays at high."""
    root, findings, _ = checked_copy(tmp_path, "backup_module")
    levels = levels_of(findings, "PP506")
    assert levels == {("networks.py", 15): "high", ("networks_backup.py", 14): "medium"}


def test_a_mover_a_stepped_def_of_its_module_runs_is_followed(tmp_path):
    """torch-fix94: BMN's training loop calls `bmn_loss_func`, which runs `pem_reg_loss_func`, the def that
    makes `torch.ones(*shape).cuda()`: the mover is followed through the def the loop calls (`relayed_mover`,
    `high`); the clean twin makes its tensors on the device."""
    root, findings, _ = checked_copy(tmp_path, "relayed_mover")
    levels = sorted((Path(f.path).name, f.line, f.confidence) for f in findings if f.rule == "PP506")
    assert levels == [("losses.py", 15, "high"), ("losses.py", 18, "high")]


def test_a_method_the_loop_calls_is_found_in_the_callers_own_folder_first(tmp_path):
    """torch-fix94: ASTNN's `train.py` calls `model.init_hidden()`; `clone/model.py` defines it too, as far by
    common path, so the call was left unresolved; the def in the caller's own folder is the one it runs."""
    root, findings, _ = checked_copy(tmp_path, "same_folder_model")
    levels = sorted((str(Path(f.path).relative_to(root)), f.line, f.confidence) for f in findings)
    assert levels == [("model.py", 19, "high")]


def test_reads_of_the_global_loader_batch_in_a_called_def_are_host_reads(tmp_path):
    """torch-fix93: ACGPN's `changearm` (hold-out 27) thresholds `data['label']`, the module-global batch of the
    loop over the loader, through NumPy; the label map stays on the host, so the def's reads are no finding and
    the loop is reported at its `add_scalar` of the CUDA loss. When the loop moves the label map by key first,
    the def's reads copy a device tensor back and stay reported."""
    _, findings, _ = checked_copy(tmp_path, "global_batch_item")
    assert {(Path(f.path).name, f.line) for f in findings if f.rule == "PP501"} == {("train.py", 30)}
    _, findings, _ = checked_copy(tmp_path, "global_batch_item_moved")
    assert {(Path(f.path).name, f.line) for f in findings if f.rule == "PP501"} == {
        ("train.py", 18),
        ("train.py", 30),
    }


def test_reads_of_what_a_handed_in_trainer_steps_are_at_its_level(tmp_path):
    """torch-fix101: `train_util.train_step(...)` on a parameter (the trainer made in another module) and
    `out = model.step(x, optimizer)` read per key: `HANDED_STEPPER_LEVEL` (high); `.detach()` sums, a periodic read and an
    `env.step(action)` whose arguments do not fit the project's `step` stay silent."""
    root, findings, _ = checked_copy(tmp_path, "handed_stepper")
    reads = [(Path(f.path).name, f.line, f.confidence) for f in findings if f.rule == "PP501"]
    assert HANDED_STEPPER_LEVEL == "high"
    assert reads == [("fit.py", 15, "high"), ("fit.py", 28, "high")]
    clean, findings, _ = checked_copy(tmp_path, "handed_stepper_clean")
    assert not [f for f in findings if f.rule == "PP501"]


def test_a_workerless_loader_over_another_modules_decoding_class_is_high(tmp_path):
    """torch-fix106: PP504 on a worker-less training loader over a Dataset class of another module whose
    `__getitem__` opens an image (Context-Aware-Crowd-Counting's and CSRNet's `dataset.listDataset`) is
    raised to `high`, as PP505 on such a loader is, also when PP504 is the only rule selected; the loader
    over another module's class that only slices an in-memory series stays `medium`."""
    for rules in (None, [all_rules()["PP504"]]):
        _, findings, _ = checked_copy(tmp_path / str(bool(rules)), "workerless_decoding", rules)
        assert sorted((Path(f.path).name, f.line, f.confidence) for f in findings if f.rule == "PP504") == [
            ("train.py", 8, "high"),
            ("train.py", 25, "medium"),
        ]


def test_module_facts_are_read_by_field_name():
    """Review item 15: `module_facts` gives a `LoaderFacts` read by name, not an 8-tuple read by position:
    the workerless_factory project's two worker-less factories are its `workerless` entries and nothing
    else; a module without torch gives None."""
    import ast

    from checker.module import ModuleIndex
    from checker.torch_project.loaders import LoaderFacts, module_facts

    text = (PROJECTS / "workerless_factory" / "data" / "loaders.py").read_text()
    facts = module_facts(ModuleIndex.build(ast.parse(text)))
    assert isinstance(facts, LoaderFacts)
    assert [entry[:3] for entry in facts.workerless] == [
        ("make_loader", 11, 11),
        ("make_paired_loaders", 22, 20),
    ]
    assert facts.makers == facts.handoffs == facts.held == facts.batches == facts.methods == []
    assert module_facts(ModuleIndex.build(ast.parse("import numpy as np\n"))) is None


def test_a_no_grad_decorator_of_the_same_module_guards_the_def(tmp_path):
    """torch-fix108: `@make_nograd_func`, defined in the module that uses it (one file, so no other module to
    import it from), runs `test_sample` under no_grad: neither its forward nor its call in `test()`'s loop is
    a finding; `probe_sample`, only timed, keeps its finding."""
    root = Path(shutil.copytree(PROJECTS / "nograd_decorator", tmp_path / "nograd_decorator"))
    helpers = (root / "utils.py").read_text().split('"""', 2)[2].replace("import time\n\nimport torch\n", "")
    train = re.sub(
        r"from utils import \*.*\n", lambda _: "import time\n" + helpers, (root / "train.py").read_text()
    )
    (root / "utils.py").unlink()
    (root / "train.py").write_text(train)
    findings, _, _ = check_paths([str(root / "train.py")])
    assert [(f.rule, "probe_sample" in f.message) for f in findings if f.rule == "PP503"] == [("PP503", True)]


def test_a_no_grad_decorator_is_found_in_a_text_with_crlf_line_ends(tmp_path):
    """torch-fix108: PatchmatchNet's `train_dtu.py` has CRLF line ends; its `@make_nograd_func` line is a
    decorator all the same."""
    root = Path(shutil.copytree(PROJECTS / "nograd_decorator", tmp_path / "nograd_decorator"))
    train = root / "train.py"
    train.write_bytes(train.read_bytes().replace(b"\n", b"\r\n"))
    findings, _, _ = check_paths([str(root)])
    assert [(f.line, "probe_sample" in f.message) for f in findings if f.rule == "PP503"] == [(60, True)]


PARTITIONED_LOADER = """import torch
import torchvision
import torchvision.transforms as transforms


class Partition(object):
    def __init__(self, data, index):
        self.data = data
        self.index = index

    def __len__(self):
        return len(self.index)

    def __getitem__(self, i):
        return self.data[self.index[i]]


class DataPartitioner(object):
    def __init__(self, data, sizes):
        self.data = data
        self.partitions = [list(range(len(data)))[: int(s * len(data))] for s in sizes]

    def use(self, partition):
        return Partition(self.data, self.partitions[partition])


def partition_dataset(rank, size, args):
    transform_train = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.ToTensor()])
    trainset = torchvision.datasets.CIFAR10(root=args.datapath, train=True, transform=transform_train)
    partition = DataPartitioner(trainset, [1.0 / size for _ in range(size)])
    partition = partition.use(rank)
    train_loader = torch.utils.data.DataLoader(partition, batch_size=args.bs, shuffle=True, pin_memory=True)
    return train_loader
"""

PARTITIONED_TRAINER = """import torch
import util


def train(model, optimizer, loader):
    for data, target in loader:
        data, target = data.cuda(non_blocking=True), target.cuda(non_blocking=True)
        loss = torch.nn.functional.cross_entropy(model(data), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def run(rank, size, args, model, optimizer):
    train_loader = util.partition_dataset(rank, size, args)
    for epoch in range(args.epochs):
        train(model, optimizer, train_loader)
"""


def test_loader_over_a_partition_of_a_data_set_the_factory_makes_is_workerless(tmp_path):
    """torch-fix120: FedNova's `partition_dataset()` (hold-out 39, listed) returns a CIFAR-10 training loader
    over `DataPartitioner(trainset, sizes).use(rank)`, the distributed tutorial's partitioner, with no
    workers; the trainer module imports it. A partitioner method that returns a list is not a made data set."""
    (tmp_path / "util.py").write_text(PARTITIONED_LOADER)
    (tmp_path / "train.py").write_text(PARTITIONED_TRAINER)
    findings, _, _ = check_paths([str(tmp_path)])
    assert ("util.py", 32) in {(Path(f.path).name, f.line) for f in findings if f.rule == "PP504"}
    (tmp_path / "util.py").write_text(
        PARTITIONED_LOADER.replace("return Partition(self.data, self.partitions[partition])", "return [1, 2]")
    )
    findings, _, _ = check_paths([str(tmp_path)])
    assert "PP504" not in {f.rule for f in findings}


BRANCH_MAKERS = """from torch.utils.data import DataLoader
from torchvision.datasets import ImageFolder


def get_train_loader(data_dir, batch_size, num_workers=4):
    train_set = ImageFolder(data_dir + "/train")
    train_loader = DataLoader(train_set, batch_size=batch_size, shuffle=True, num_workers=num_workers)
    return train_loader


def get_test_loader(data_dir, batch_size, num_workers=4):
    test_set = ImageFolder(data_dir + "/test")
    test_loader = DataLoader(test_set, batch_size=batch_size, num_workers=num_workers)
    return test_loader
"""

BRANCH_MAIN = """from data_loader import get_train_loader, get_test_loader
from trainer import Trainer


def run(config):
    if config.is_train:
        data_loader = get_train_loader(config.data_dir, config.batch_size)
    else:
        data_loader = get_test_loader(config.data_dir, config.batch_size)
    trainer = Trainer(config, data_loader)
    trainer.train()
"""

BRANCH_TRAINER = """import torch


class Trainer:
    def __init__(self, config, data_loader):
        self.model = torch.nn.Linear(8, 2).cuda()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)
        self.train_loader = data_loader

    def train(self):
        for epoch in range(10):
            self.train_one_epoch(self.train_loader)

    def train_one_epoch(self, data_loader):
        for images, target in data_loader:
            loss = torch.nn.functional.cross_entropy(self.model(images.cuda()), target.cuda())
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
"""


def test_a_name_each_branch_binds_to_another_maker_hands_on_both_loaders(tmp_path):
    """torch-fix120: ETH-XGaze's main.py binds `data_loader` to `get_train_loader(...)` or, in the `else:`,
    `get_test_loader(...)` and hands it to `Trainer`, whose loop copies its batches; only the last binding
    (the test loader) was followed, so the listed training loader (hold-out 36) was missed."""
    (tmp_path / "data_loader.py").write_text(BRANCH_MAKERS)
    (tmp_path / "main.py").write_text(BRANCH_MAIN)
    (tmp_path / "trainer.py").write_text(BRANCH_TRAINER)
    findings, _, _ = check_paths([str(tmp_path)])
    pinned = {(Path(f.path).name, f.line) for f in findings if f.rule == "PP505"}
    assert {("data_loader.py", 7), ("data_loader.py", 13)} <= pinned


def test_one_test_says_whether_a_rule_runs():
    """(review 24 item 13) `rule_selected` is the one spelling of "this rule runs" (`codes` None: all of them):
    the walker and the project passes call it rather than writing `codes is None or RULE in codes` out."""
    from checker.rules import rule_selected

    assert rule_selected(None, "PP504")
    assert rule_selected(("PP501", "PP505"), "PP504", "PP505")
    assert not rule_selected(("PP501",), "PP504", "PP505")
    package = Path(__file__).parent.parent / "checker"
    for name in (
        "walker",
        "project",
        "torch_project/loaders",
        "torch_project/factories",
        "torch_project/reads",
    ):
        assert "codes is None or" not in (package / f"{name}.py").read_text(), name


def test_the_loader_rules_share_one_lookup_of_a_name_last_bound_to_a_call():
    """(review 24 items 10 and 11) `_last_bound_call` is the one lookup `_dataset_value` and `_part_of_made`
    make (the call a def last bound a name to before a call), and a top-level `with` is found among the
    module's cached statements (no second walker of them)."""
    import ast

    from checker.module import ModuleIndex
    from checker.rules import torch_data

    tree = ast.parse(
        "def train(folder):\n"
        "    ds = Plain(folder)\n"
        "    ds = Dataset(folder)\n"
        "    loader = DataLoader(ds)\n"
        "    other = Later(folder)\n"
        "ds = Outside()\n"
    )
    index = ModuleIndex.build(tree)
    loader = tree.body[0].body[2].value
    assert ast.unparse(torch_data._last_bound_call(index, "ds", loader)) == "Dataset(folder)"
    assert torch_data._last_bound_call(index, "other", loader) is None
    assert not hasattr(torch_data, "_top_level_walk")


SPLIT_DEVICE_DATASET = """import torch
from torch.utils.data import Dataset


class listDataset(Dataset):
    def __init__(self, root, transform=None, train=False):
        self.lines, self.transform, self.train = root, transform, train

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, index):
        img = self.transform(self.lines[index]["img"])
        gt_count = self.lines[index]["gt_count"]
        if self.train == True:
            return img, gt_count
        else:
            img_return = img[:, :384, :384].cuda().unsqueeze(0)
            return img_return, gt_count
"""

SPLIT_DEVICE_TRAINER = """import torch
from torchvision import transforms
import dataset


def train(pre_data, model, optimizer):
    train_loader = torch.utils.data.DataLoader(
        dataset.listDataset(pre_data, transform=transforms.ToTensor(), train=True), batch_size=8
    )
    model.train()
    for i, (img, gt_count) in enumerate(train_loader):
        img = img.cuda()
        loss = (model(img).sum() - gt_count.cuda().float().sum()).abs()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_a_dataset_that_moves_only_its_test_items_keeps_the_training_loaders_finding(tmp_path):
    """torch-fix128: TransCrowd's `listDataset.__getitem__` crops test images onto the GPU under `else:` and
    returns the training item from the CPU under `if self.train == True:` (h42 train.py:143, listed): the
    training loader's batches are pageable, so its PP505 stays. A dataset whose every return is moved still
    drops it (pinning CUDA tensors fails)."""
    (tmp_path / "dataset.py").write_text(SPLIT_DEVICE_DATASET)
    (tmp_path / "train.py").write_text(SPLIT_DEVICE_TRAINER)
    findings, _, _ = check_paths([str(tmp_path)])
    assert ("train.py", 7) in levels_of(findings, "PP505")
    (tmp_path / "dataset.py").write_text(
        SPLIT_DEVICE_DATASET.replace("return img, gt_count", "return img.cuda(), gt_count")
    )
    findings, _, _ = check_paths([str(tmp_path)])
    assert ("train.py", 7) not in levels_of(findings, "PP505")


def test_a_name_moved_only_in_the_else_branch_keeps_the_training_loaders_finding(tmp_path):
    """(session 25 reread note) `__getitem__` returns `img` from the CPU under `if self.train`, and rebinds
    `img = img.cuda()` only under `else:`: "moved" is read from the name's binding before each `return`
    (line by line), not from any binding of the name, so the training loader's PP505 stays."""
    (tmp_path / "dataset.py").write_text(
        SPLIT_DEVICE_DATASET.replace(
            "img_return = img[:, :384, :384].cuda().unsqueeze(0)\n            return img_return, gt_count",
            "img = img[:, :384, :384].cuda().unsqueeze(0)\n            return img, gt_count",
        )
    )
    (tmp_path / "train.py").write_text(SPLIT_DEVICE_TRAINER)
    findings, _, _ = check_paths([str(tmp_path)])
    assert ("train.py", 7) in levels_of(findings, "PP505")


LOCAL_LOADER_DEVICE_DATASET = """import numpy as np
import torch
from torch.utils.data import Dataset


class GpuDataset(Dataset):
    def __init__(self, paths, labels):
        self.paths, self.labels = paths, labels

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        def load(path):
            return np.load(path)

        img = torch.from_numpy(load(self.paths[index])).cuda()
        return img, self.labels[index]
"""

LOCAL_LOADER_TRAINER = """import torch
import dataset


def train(paths, labels, model, optimizer):
    train_loader = torch.utils.data.DataLoader(dataset.GpuDataset(paths, labels), batch_size=8)
    model.train()
    for i, (img, target) in enumerate(train_loader):
        img = img.cuda()
        loss = (model(img).sum() - target.cuda().float().sum()).abs()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


def test_a_local_loader_def_in_getitem_does_not_hide_a_device_dataset(tmp_path):
    """review25 item 3: a `__getitem__` with a small local `def load(path): return np.load(path)` and a moved
    return still yields CUDA items: only the def's own returns count, so no PP505 asks to pin them (pinning
    CUDA tensors fails). The twin whose `__getitem__` returns the loaded item from the CPU keeps PP505."""
    (tmp_path / "dataset.py").write_text(LOCAL_LOADER_DEVICE_DATASET)
    (tmp_path / "train.py").write_text(LOCAL_LOADER_TRAINER)
    findings, _, _ = check_paths([str(tmp_path)])
    assert ("train.py", 6) not in levels_of(findings, "PP505")
    (tmp_path / "dataset.py").write_text(
        LOCAL_LOADER_DEVICE_DATASET.replace("(self.paths[index])).cuda()", "(self.paths[index]))")
    )
    findings, _, _ = check_paths([str(tmp_path)])
    assert ("train.py", 6) in levels_of(findings, "PP505")


def test_a_grid_stacked_from_host_aranges_in_a_helper_the_step_calls_is_reported(tmp_path):
    """torch-fix126: EAC's `generate_flip_grid` (hold-out 42, listed), in `utils.py` that the training script
    star-imports, binds two `torch.arange(...)` views and moves `torch.stack([x_, y_], dim=0).float().to(device)`:
    the text sieve (`_moved_later`) now follows a bound factory into a torch join that is moved, so the
    project pass knows the def is stepped (`high`). The twin builds the grid once before the loop: silent."""
    _, findings, _ = checked_copy(tmp_path, "stacked_flip_grid")
    assert levels_of(findings, "PP506") == {("utils.py", 12): "high"}
    _, findings, _ = checked_copy(tmp_path, "stacked_flip_grid_clean")
    assert levels_of(findings, "PP506") == {}


def test_one_join_set_for_the_factory_sieve_and_the_pp506_rule():
    """review25 item 6: torch's joins were written three times with different members (torch_data's
    `{"cat", "stack", "concat"}`, torch_moves' `{"torch.cat", "torch.stack"}`, factories' regex string); now
    torch_common's `TORCH_JOINS`, which factories' text sieve extends with `meshgrid`."""
    from checker.rules import torch_moves
    from checker.rules.torch_common import TORCH_JOINS
    from checker.torch_project import factories

    assert set(factories._JOINS.split("|")) == TORCH_JOINS | {"meshgrid"}
    assert not hasattr(torch_moves, "_JOINS")


_FLIP_GRID = (
    "def generate_flip_grid(w, h, device):\n"
    "    x_ = torch.arange(w).view(1, -1).expand(h, -1)\n"
    "    y_ = torch.arange(h).view(-1, 1).expand(-1, w)\n"
    "    grid = torch.stack([x_, y_], dim=0){tail}\n"
    "    return grid\n"
)


@pytest.mark.parametrize(
    ("tail", "moved"),
    [
        (".float().to(device)", True),
        (".to(device, dtype=torch.float32)", True),
        (".to(torch.float32)\n    grid = grid.to(device)", True),
        (".to(torch.float32)", False),
        (".to(dtype=torch.float32)", False),
        (".to(torch.int64).float()", False),
    ],
)
def test_a_join_cast_to_a_dtype_is_no_move_in_the_factory_sieve(tail, moved):
    """review25 item 17: the project pass's text sieve (`_moved_later`) took any `.to(` after a torch join of a
    bound factory as a move, so `torch.stack([x_, y_]).to(torch.float32)` (a cast) counted. A dtype argument is
    no move now; a join bound to a name that is moved further on still is."""
    from checker.torch_project import factories

    body = _FLIP_GRID.format(tail=tail)
    bound = next(b for b in factories._BOUND_FACTORY.finditer(body) if b.group(1) == "x_")
    assert factories._moved_later(body, bound) is moved


def test_a_helper_a_stepped_def_runs_outside_its_ifs_is_stepped_too(tmp_path):
    """torch-fix126: Mem2Seq's `masked_cross_entropy`, which another module's training step calls, runs
    `sequence_mask(...)`, a def of its own module making `torch.arange(0, max_len)` and moving it `.cuda()` on
    every loss call (`_stepped_callees`: what a stepped def runs outside its ifs is stepped too, `high`). In the
    twin the helper runs only under an `if` of the loss: silent."""
    _, findings, _ = checked_copy(tmp_path, "stepped_loss_helper")
    assert levels_of(findings, "PP506") == {("masked.py", 9): "high"}
    _, findings, _ = checked_copy(tmp_path, "stepped_loss_helper_clean")
    assert levels_of(findings, "PP506") == {}


_LOSS_DEF = (
    "import torch\nimport torch.nn.functional as F\n\n\n"
    "def compute_loss(model, x, y):\n"
    "    loss = F.mse_loss(model(x), y)\n"
    '    return loss, {"loss": loss.item()}\n'
)
_TRAIN = (
    "import torch\nfrom losses import compute_loss\n\n"
    "model = torch.nn.Linear(4, 1){move}\n"
    "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n\n\n"
    "def train(loader):\n"
    "    for x, y in loader:\n"
    "        loss, logs = compute_loss(model, x{move}, y{move})\n"
    "        optimizer.zero_grad()\n"
    "        loss.backward()\n"
    "        optimizer.step()\n"
)


def test_a_loss_defs_reads_drop_where_no_module_places_tensors_on_a_gpu(tmp_path):
    """torch-fix127: the medium read of a loss def in a module that places nothing (`_loss_def_reads`) is
    dropped where no module of the project places tensors on a GPU and kept where one does; the project
    pass finds it by its place (`loss_def_read_places`), not by its message's words."""
    from checker.rules.torch_sync import loss_def_read_places
    from checker.torch_project.common import parse_index

    assert loss_def_read_places(parse_index(_LOSS_DEF)) == {(7, 27)}
    levels = {}
    for name, move in (("cpu", ""), ("gpu", ".cuda()")):
        root = tmp_path / name
        root.mkdir()
        (root / "losses.py").write_text(_LOSS_DEF)
        (root / "train.py").write_text(_TRAIN.format(move=move))
        findings, _, _ = check_paths([str(root)])
        levels[name] = levels_of(findings, "PP501")
    assert levels == {"cpu": {}, "gpu": {("losses.py", 7): "medium"}}


def test_a_loss_defs_read_is_dropped_by_its_place_not_by_its_messages_words(tmp_path):
    """(review-mend12, review25 item 18) Where the two ways of picking a loss def's medium read disagree, the
    project pass goes by place: in a project that places nothing on a GPU, the read at the loss def's
    place is dropped though its message is reworded, and another medium read of the module, at another
    place, stays though its message holds the loss-def words (`` ` in the loss ` ``). Words-based picking
    (before torch-fix127) did the opposite in both cases."""
    from checker import check_source
    from checker.torch_project import reads_across_modules

    losses, train = tmp_path / "losses.py", tmp_path / "train.py"
    losses.write_text(_LOSS_DEF)
    train.write_text(_TRAIN.format(move=""))
    findings, _ = check_source(_LOSS_DEF, str(losses))
    [read] = [f for f in findings if f.rule == "PP501"]
    assert (read.line, read.column, read.confidence) == (7, 27, "medium")
    assert "` in the loss `compute_loss`" in read.message
    reworded = dataclasses.replace(read, message="`.item()` waits for the GPU on every training step")
    elsewhere = dataclasses.replace(read, line=6, column=5)
    kept = reads_across_modules([reworded, elsewhere], [[str(losses), str(train)]])
    assert kept == [elsewhere]


GUARDED_CALLEE_MODEL = """import torch
import torch.nn as nn


class ExpandNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, x):
        return self.net(x)

    def predict(self, x, patch_size):
        with torch.no_grad():
            if x.dim() == 3:
                x = x.unsqueeze(0)
            result = self.net(x)
        return result


class Pix2PixModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.netG = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, data, mode):
        image = data["image"].cuda()
        if mode == "generator":
            return self.netG(image).mean()
        elif mode == "inference":
            with torch.no_grad():
                fake_image = self.netG(image)
            return fake_image
        else:
            raise ValueError("|mode| is invalid")
"""

GUARDED_CALLEE_TEST = """import torch
from model import ExpandNet, Pix2PixModel


def run(images, loader, save):
    net = ExpandNet()
    net.load_state_dict(torch.load("weights.pth"))
    net.eval()
    net.cuda()
    for image in images:
        save(net.predict(image.cuda(), 384).cpu())
    model = Pix2PixModel()
    model.eval()
    for i, data_i in enumerate(loader):
        generated = model(data_i, mode="inference")
        save(generated.cpu())
"""


def test_a_callee_that_turns_autograd_off_itself_drops_the_eval_finding(tmp_path):
    """torch-fix134: ExpandNet's `net.predict(...)`, whose body is `with torch.no_grad():` (h45 expand.py 209),
    and Bringing Old Photos' `model(data_i, mode="inference")`, whose forward runs its inference branch under
    `torch.no_grad()` (h45 test_face.py 36), were read wrong at `high`. A callee that runs with autograd on
    (the `mode="generator"` branch, a `predict` without the `with`) keeps the findings."""
    (tmp_path / "model.py").write_text(GUARDED_CALLEE_MODEL)
    (tmp_path / "test.py").write_text(GUARDED_CALLEE_TEST)
    findings, _, _ = check_paths([str(tmp_path)])
    assert not {k for k in levels_of(findings, "PP503") if k[0] == "test.py"}
    (tmp_path / "model.py").write_text(
        GUARDED_CALLEE_MODEL.replace(
            "with torch.no_grad():\n            if", "if True:\n            if"
        ).replace('elif mode == "inference":', 'elif mode == "other":')
    )
    findings, _, _ = check_paths([str(tmp_path)])
    assert {("test.py", 11), ("test.py", 15)} <= set(levels_of(findings, "PP503"))
    # (session 26 reread) a second forward taking `mode` with no such branch, in a file that never spells
    # "inference", runs the call with autograd on: the finding stays
    (tmp_path / "model.py").write_text(GUARDED_CALLEE_MODEL)
    (tmp_path / "other.py").write_text(
        "import torch.nn as nn\n\n\nclass Other(nn.Module):\n    def forward(self, data, mode):\n"
        '        if mode == "train":\n            return data\n        return data * 2\n'
    )
    findings, _, _ = check_paths([str(tmp_path)])
    assert ("test.py", 15) in set(levels_of(findings, "PP503"))


def test_a_name_imported_on_a_continuation_line_reaches_its_def(tmp_path):
    """torch-fix135 (hold-out 45, listed): Deep-Exemplar's train.py imports `tensor_lab2rgb` on the second line
    of `from utils.util import (...,\\n tensor_lab2rgb, ...)` and calls it every step; its
    `torch.from_numpy(rgb_from_xyz).type_as(xyz)` copies a module-level array each call (`medium`, as every
    copy of a module constant). `reaches` read only the
    import's first line. Called only outside the loop, nothing is reported (the `_clean` project)."""
    _, findings, _ = checked_copy(tmp_path, "continued_import")
    assert levels_of(findings, "PP506") == {("util.py", 13): "medium"}
    _, findings, _ = checked_copy(tmp_path, "continued_import_clean")
    assert levels_of(findings, "PP506") == {}


def test_reaches_reads_every_line_of_a_parenthesised_or_continued_import():
    from checker.torch_project.common import reaches

    assert reaches("from util import (a,\n    tensor_lab2rgb)\n", "tensor_lab2rgb")
    assert reaches("from util import a, \\\n    tensor_lab2rgb\n", "tensor_lab2rgb")
    assert not reaches("from util import (a,\n    b)\nx = (c,\n    tensor_lab2rgb)\n", "tensor_lab2rgb")
    assert not reaches("from util import a\nx = (b,\n    tensor_lab2rgb)\n", "tensor_lab2rgb")


def test_a_def_of_a_sibling_module_imported_from_the_package_is_resolved(tmp_path):
    """torch-fix135: `from . import utils`, then `utils.to_scalar(loss)` every step (a package module's way,
    pix2pix's `from . import networks`): `imported_from` named no module for a relative import of the package, so
    no project pass found the def. The read is reported at the call, as for `import model.utils as utils`; the
    other utils.py outside the package is not taken; read every N steps, nothing (the `_clean` project)."""
    _, findings, _ = checked_copy(tmp_path, "sibling_reader")
    assert levels_of(findings, "PP501") == {("trainer.py", 20): "high"}
    _, findings, _ = checked_copy(tmp_path, "sibling_reader_clean")
    assert levels_of(findings, "PP501") == {}


def test_methods_run_on_a_module_level_instance_by_its_own_loop_are_per_step(tmp_path):
    """torch-fix135 (hold-out 45, listed): Blind2Unblind makes `masker = Masker(...)` at the margin and its training
    loop calls `masker.train(noisy)`, which runs `self.mask(...)` 16 times, whose `torch.ones(mask.shape).to(...)`
    and `interpolate_mask` kernel `torch.Tensor(kernel).to(device)` are copied each time. The module pass saw no
    loop run the method (its copy at `low`) nor the helper; the project pass now raises the copy and finds the
    helper's. Run only after the epoch, on a validation batch, the copy stays at `low` (the `_clean` project)."""
    _, findings, _ = checked_copy(tmp_path, "instance_methods")
    assert levels_of(findings, "PP506") == {("train_b2u.py", 13): "high", ("train_b2u.py", 27): "high"}
    _, findings, _ = checked_copy(tmp_path, "instance_methods_clean")
    assert levels_of(findings, "PP506") == {("train_b2u.py", 27): "low"}


TEST_LOADER_MAKER = """from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def get_dataloader(args):
    train_loader = DataLoader(
        datasets.CIFAR10(args.data_root, train=True, download=True, transform=transforms.ToTensor()),
        batch_size=args.batch_size, shuffle=True, num_workers=2)
    test_loader = DataLoader(
        datasets.CIFAR10(args.data_root, train=False, download=True, transform=transforms.ToTensor()),
        batch_size=args.batch_size, shuffle=True, num_workers=2)
    return train_loader, test_loader
"""

TEST_LOADER_USER = """import torch
from dataloader import get_dataloader


def train(args, model, optimizer, train_loader):
    model.train()
    for data, target in train_loader:
        data, target = data.to(args.device), target.to(args.device)
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(data), target)
        loss.backward()
        optimizer.step()


def test(args, model, test_loader):
    model.eval()
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(args.device), target.to(args.device)
            print(model(data).argmax(1).eq(target).sum().item())


def main(args, model, optimizer):
    train_loader, test_loader = get_dataloader(args)
    for epoch in range(args.epochs):
        train(args, model, optimizer, train_loader)
        test(args, model, test_loader)
"""


def test_a_test_loader_with_workers_a_factory_returns_is_below_medium(tmp_path):
    """torch-fix137: hold-out 47's VainF Data-Free-Adversarial-Distillation `get_dataloader` returns a
    training and a test loader, each with two workers and no `pin_memory`; the training script copies the
    batches of both. The seven test loaders were read debatable at `high` ("lacking only pin_memory"): the
    project pass lowers them to `medium` as the module pass does (`evaluation_loaders_lowered`); the
    training loader stays `high`. torch-fix154: a `medium` evaluation loader goes on to `low`
    (`evaluation_medium_lowered`)."""
    (tmp_path / "dataloader.py").write_text(TEST_LOADER_MAKER)
    (tmp_path / "train.py").write_text(TEST_LOADER_USER)
    findings, _, _ = check_paths([str(tmp_path)])
    assert levels_of(findings, "PP505") == {("dataloader.py", 6): "high", ("dataloader.py", 9): "low"}


GUARDED_CALLEE_TESTER = """import torch
from model import Pix2PixModel


class Tester:
    def __init__(self):
        self.model = Pix2PixModel()
        self.model.eval()

    def run(self, loader, save):
        for i, data_i in enumerate(loader):
            generated = self.model(data_i, mode="inference")
            save(generated.cpu())
"""


def test_a_guarded_mode_called_on_an_attribute_drops_the_eval_finding(tmp_path):
    """(review 26 item 9) `self.model(data_i, mode="inference")` in a Tester class runs the same guarded
    inference branch as the plain `model(data_i, mode="inference")`. A call of a project method by that
    keyword (`self.evaluate(data_i, mode="inference")`, no forward) and the unguarded branch keep it."""
    (tmp_path / "model.py").write_text(GUARDED_CALLEE_MODEL)
    (tmp_path / "test.py").write_text(GUARDED_CALLEE_TESTER)
    findings, _, _ = check_paths([str(tmp_path)])
    assert not {k for k in levels_of(findings, "PP503") if k[0] == "test.py"}
    method = GUARDED_CALLEE_TESTER.replace("self.model(data_i", "self.evaluate(data_i").replace(
        "    def run(", "    def evaluate(self, data, mode):\n        return self.model(data)\n\n    def run("
    )
    assert method != GUARDED_CALLEE_TESTER
    (tmp_path / "test.py").write_text(method)
    findings, _, _ = check_paths([str(tmp_path)])
    assert ("test.py", 15) in set(levels_of(findings, "PP503"))
    (tmp_path / "test.py").write_text(GUARDED_CALLEE_TESTER)
    (tmp_path / "model.py").write_text(
        GUARDED_CALLEE_MODEL.replace('elif mode == "inference":', 'elif mode == "other":')
    )
    findings, _, _ = check_paths([str(tmp_path)])
    assert ("test.py", 12) in set(levels_of(findings, "PP503"))


def test_the_held_stepper_pass_keeps_the_index_it_parses(tmp_path, monkeypatch):
    """(session 26 reread note, torch-fix140) `_held_stepper_reads` parsed the trainer module (which need not
    import torch) and dropped the index, where the other project passes keep theirs in `indexes`: asked
    again with the same `indexes`, the module is parsed once, and the findings are the same."""
    from checker.torch_project import common, reads

    root = Path(shutil.copytree(PROJECTS / "held_stepper_duck", tmp_path / "held_stepper_duck"))
    texts = {str(p): p.read_text() for p in sorted(root.rglob("*.py"))}
    engine = str(root / "engine.py")
    parses = []
    parsed = common._parsed
    monkeypatch.setattr(common, "_parsed", lambda text: parses.append(text) or parsed(text))
    indexes: dict = {}
    first = reads._held_stepper_reads(texts, [], indexes)
    assert first and indexes.get(engine) is not None
    again = reads._held_stepper_reads(texts, [], indexes)
    assert [(f.path, f.line, f.message) for f in again] == [(f.path, f.line, f.message) for f in first]
    assert parses.count(texts[engine]) == 1


def test_float_of_a_loss_is_a_read_unless_the_def_needs_the_number():
    """(torch-fix140) `float(loss)` of a loss the def computes copies it to the host; not of an argument, a
    name bound only to host numbers, nor one a test of the def needs (an L-BFGS step's convergence test)."""
    import ast

    from checker.torch_project import wide_reads

    def reads(source: str) -> list[bool]:
        function = ast.parse(source).body[0]
        return [
            wide_reads.float_loss_read(n, function)
            for n in ast.walk(function)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "float"
        ]

    assert reads("def f(self, b):\n    loss = self.crit(b)\n    return float(loss)\n") == [True]
    assert reads("def f(self, loss):\n    return float(loss)\n") == [False]
    assert reads("def f(self, b):\n    loss = 0.0\n    loss += b.item()\n    return float(loss)\n") == [False]
    stepping = "def step(self, closure):\n    orig_loss = closure()\n    loss = float(orig_loss)\n"
    assert reads(stepping) == [True]
    assert reads(stepping + "    if abs(loss - self.prev) < 1e-9:\n        return loss\n") == [False]
    # (review 27 item 7) a total started at a constant that adds a loss holds a tensor
    summed = "def f(self, b):\n    loss = 0.0\n    for x in b:\n        loss += self.crit(x)\n    return float(loss)\n"
    assert reads(summed) == [True]
    assert reads(summed.replace("self.crit(x)", "self.crit(x).item()")) == [False]
    # (review 27 item 9) the float inside the test itself is needed by the def as much as one bound first
    inline = "def step(self, closure):\n    orig_loss = closure()\n    if abs(float(orig_loss) - self.prev) < 1e-9:\n"
    assert reads(inline + "        return orig_loss\n") == [False]
    assert reads(inline.replace("if abs(", "print(abs(").replace("< 1e-9:", "< 1e-9)") + "") == [True]


def test_a_numpy_after_a_host_copy_is_no_bare_numpy():
    """(review 27 item 6) `x.cpu().detach().numpy()`, `.cpu().data.numpy()` and `.to("cpu").numpy()` copy a
    device tensor to the host; only a `.numpy()` whose receiver chain moves nothing marks a CPU module."""
    from checker.torch_project.reads import _bare_numpy

    assert _bare_numpy("lrisks = lrisks.numpy()\n")
    assert _bare_numpy("y = np.array(f(a.cpu(), b).numpy())\n")
    assert not _bare_numpy("return self.table(e1).cpu().detach().numpy()\n")
    assert not _bare_numpy("x = a.cpu().data.numpy()\ny = b.to('cpu').numpy()\n")


def test_held_def_words_are_no_module_wide_cache():
    """(review 27 item 11) the held names are found once per text in the pass's own dict, not in a module-wide
    cache that keeps earlier projects' whole texts alive."""
    from checker.torch_project import reads

    found: dict = {}
    text = "class T:\n    def __init__(self):\n        self.loss_fn = loss_small\n"
    assert reads._held_def_words(text, found) == frozenset({"loss_small"}) and list(found) == [text]
    assert not hasattr(reads._held_def_words, "cache_info")


SETTINGS_DEVICE = """\
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
"""

SETTINGS_TRAINER = """\
import torch.nn.functional as F


def train(model, optimizer, train_iter, writer):
    model.train()
    for step, batch in enumerate(train_iter):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(batch.src), batch.trg)
        loss.backward()
        optimizer.step()
        writer.add_scalar("loss", loss.item(), step)
"""

SETTINGS_SCRIPT = """\
from torch.optim import Adam

import hyperparams as hp
from models import Net
from utils import train

net = Net()
net.to(hp.device)
train(net, Adam(net.parameters()), None, None)
"""


def test_a_script_moving_its_model_to_a_settings_modules_device_places_tensors(tmp_path):
    """torch-fix144 (hold-out 47's minimal-nmt: `seq2seq.to(hp.device)` with `import hyperparams as hp`, whose
    `device = torch.device("cuda" ...)`): the script places tensors on a GPU, so the trainer module it imports
    (which places nothing) has its per-step `.item()` reported at medium. `x.to(pred.device)` of a tensor
    read off a name no import binds does not place."""
    (tmp_path / "hyperparams.py").write_text(SETTINGS_DEVICE)
    (tmp_path / "utils.py").write_text(SETTINGS_TRAINER)
    (tmp_path / "train.py").write_text(SETTINGS_SCRIPT)
    findings, skipped, _ = check_paths([str(tmp_path)])
    assert not skipped, skipped
    assert levels_of(findings, "PP501") == {("utils.py", 11): "medium"}
    (tmp_path / "train.py").write_text(SETTINGS_SCRIPT.replace("import hyperparams as hp\n", ""))
    findings, _, _ = check_paths([str(tmp_path)])
    assert levels_of(findings, "PP501") == {}


def test_copies_a_step_reaches_through_chains_and_spellings_are_high(tmp_path):
    """torch-fix145 (hold-outs 46 and 47): a base method a subclass's forward reaches through another base method
    (`split_feature` -> `pad_segment`, DPRNN) with `.type(input.type())`, a nested def a forward calls with a
    mover of the project (`var_cuda(rand > p)`, MultiHopKG), `torch.cuda.comm.broadcast(torch.arange(n), ...)`
    (EpipolarPose) and `signal.new_tensor(torch.arange(n).unfold(...))` in another module's def a forward runs
    (Conv-TasNet's `overlap_and_add`): each copies a host tensor on every forward, at `high`."""
    _, findings, skipped = checked_copy(tmp_path, "step_reached_copies")
    assert not skipped, skipped
    assert levels_of(findings, "PP506") == {
        ("model.py", 15): "high",
        ("model.py", 31): "high",
        ("model.py", 35): "high",
        ("utils.py", 9): "high",
    }


def test_a_device_built_in_place_is_no_settings_module_device():
    """(session 27 reread) `x.to(torch.device("cpu"))` passed the "module imported whole" test with `torch`
    itself, so a CPU-only project was taken for one that uses a GPU; `seq2seq.to(hp.device)` still counts."""
    from checker.torch_project.reads import _to_module_device

    assert not _to_module_device('import torch\n\nx = x.to(torch.device("cpu"))\n')
    assert not _to_module_device("import torch\nimport settings as hp\n\nx = x.to(hp.device())\n")
    assert _to_module_device("import torch\nimport hyperparams as hp\n\nmodel = model.to(hp.device)\n")


def test_an_indented_assignment_is_not_at_the_margin():
    """(session 27 reread) `_TOP_ASSIGNMENT` allowed a leading space, so `losses = train(m)` inside a def
    made a library whose defs call each other a script, and its `high` copies were not lowered."""
    from checker.torch_project.factories import _library_module

    library = "def train(model):\n    return model\n\n\ndef run(model):\n    losses = train(model)\n    return losses\n"
    assert _library_module(library)
    assert not _library_module(library + "\nlosses = train(None)\n")


def test_strings_are_blanked_on_the_tokenizer_lines():
    """(session 27 reread) `_strings_blanked` split lines with `splitlines`, which also splits inside a string
    at U+2028, so the blanked rows were one off from the tokenizer's: a docstring's usage line stayed as code."""
    from checker.torch_project.factories import _library_module

    text = (
        'import torch\nSEP = "\u2028"\n\n\ndef train(m):\n    return m\n\n\n'
        'def usage():\n    """Use it so:\n\n    x = 1\nlosses = train(loader)\n"""\n'
    )
    assert _library_module(text)


def test_a_nested_def_binding_the_loss_says_nothing_of_the_defs_own():
    """(session 27 reread) `float_loss_read` walked nested defs too: a `closure()` binding `loss` to a tensor
    made the def's own `loss = 0.0`, read with `float(loss)`, count as a host read."""
    import ast

    from checker.torch_project.wide_reads import float_loss_read

    source = (
        "def step(self, x):\n    def closure():\n        loss = self.crit(x)\n        return loss\n"
        "    loss = 0.0\n    return float(loss)\n"
    )
    function = ast.parse(source).body[0]
    call = function.body[-1].value
    assert not float_loss_read(call, function)
    own = "def step(self, x):\n    loss = self.crit(x)\n    return float(loss)\n"
    function = ast.parse(own).body[0]
    assert float_loss_read(function.body[-1].value, function)


def test_a_numpy_call_in_a_comment_says_nothing_of_where_tensors_live():
    """(session 27 reread) `_bare_numpy` scanned the text, so a comment naming `.numpy()` switched off every
    `float(loss)` read of the module; it judges the parsed calls now (`torch_sync.numpy_of_host_tensor`)."""
    from checker.torch_project.reads import _bare_numpy

    assert not _bare_numpy(
        "import torch\n\n# keep loss.numpy() out of the step\nx = y.cpu().detach().numpy()\n"
    )
    assert _bare_numpy("import torch\n\nlrisks = lrisks.numpy()\n")


def _written(tmp_path: Path, files: dict[str, str]) -> list:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    findings, _, _ = check_paths([str(tmp_path)])
    return sorted((Path(f.path).name, f.line) for f in findings if f.rule == "PP501")


_HELD_TRAINER = (
    "import torch\nfrom {module} import {name}\n\n\nclass Trainer:\n    def __init__(self):\n"
    "        self.model = torch.nn.Linear(2, 1).cuda()\n"
    "        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)\n        {held}\n\n"
    "    def train(self, loader):\n        for x, y in loader:\n            self.opt.zero_grad()\n"
    "            loss = self.loss_fn(self.model(x.cuda()), y.cuda())\n            loss.backward()\n"
    "            self.opt.step()\n"
)


def test_a_held_plain_def_shadows_a_subclass_method_whatever_the_preset(tmp_path):
    """(session 27 reread note, torch-fix147) `_step_called_reads` preset an empty `_held_defs` when no held
    name of the text reads, so `self.loss_fn = plain_fn` (an instance attribute, which shadows a subclass's
    reading `def loss_fn`) was ignored and the subclass's `.item()` reported; without the preset it was not."""
    files = {
        "plain.py": "def plain_fn(o, y):\n    return ((o - y) ** 2).mean()\n",
        "mine.py": (
            "import torch\nfrom train import Trainer\n\n\nclass MyTrainer(Trainer):\n"
            "    def loss_fn(self, out, y):\n        loss = ((out - y) ** 2).mean()\n"
            "        print(loss.item())\n        return loss\n"
        ),
        "train.py": _HELD_TRAINER.format(module="plain", name="plain_fn", held="self.loss_fn = plain_fn"),
    }
    assert _written(tmp_path, files) == []


@pytest.mark.parametrize(
    "held", ["self.loss_fn = loss_jocor; self.n = 0", "if True: self.loss_fn = loss_jocor", "self.n = 0"]
)
def test_a_def_held_on_a_line_with_more_is_held(tmp_path, held):
    """(session 27 reread note, torch-fix147) `_HELD_DEF` matched only a line that is exactly `self.x = name`:
    `self.loss_fn = loss_jocor; self.n = 0` or `if c: self.loss_fn = loss_jocor` ran nothing."""
    files = {
        "losses.py": (
            "import torch\n\n\ndef loss_jocor(out, y):\n    loss = torch.nn.functional.mse_loss(out, y)\n"
            "    print(loss.item())\n    return loss\n"
        ),
        "train.py": _HELD_TRAINER.format(module="losses", name="loss_jocor", held=held),
    }
    assert _written(tmp_path, files) == ([] if held == "self.n = 0" else [("losses.py", 6)])


def test_a_loss_bound_in_a_tuple_is_a_binding():
    """(session 27 reread note, torch-fix147) `float_loss_read` saw no binding in `loss, logits = crit(...)`,
    and `all([])` made the name a host number; a tuple of constants stays host."""
    import ast

    from checker.torch_project.wide_reads import float_loss_read

    for source, read in (
        ("def step(self, x, y):\n    loss, logits = self.crit(x, y)\n    return float(loss)\n", True),
        ("def step(self, x, y):\n    (a, b), loss = self.crit(x, y)\n    return float(loss)\n", True),
        ("def step(self, x, y):\n    (a, b), loss = (1, 2), 3\n    return float(loss)\n", False),
        ("def step(self, x, y):\n    loss, n = 0.0, self.crit(x)\n    return float(loss)\n", False),
    ):
        function = ast.parse(source).body[0]
        assert float_loss_read(function.body[-1].value, function) is read, source


def test_a_method_moving_through_a_project_mover_is_stepped_through_its_relay(tmp_path):
    """(torch-fix153) DAGMM's `compute_energy` copies `to_var(torch.eye(D) * eps)` per mixture component; its
    only `.cuda()` is in `utils.to_var`, and the training loop of another module runs it through
    `self.dagmm.loss_function(...)`. The project pass found no move in the method's text and left the copy at
    `low`, a loop that steps nothing; a factory handed to an imported project mover now counts as a move."""
    _, findings, _ = checked_copy(tmp_path, "stepped_mover_relay")
    assert levels_of(findings, "PP506") == {("model.py", 19): "medium"}  # (toy data: `high` lowered)
    _, findings, _ = checked_copy(tmp_path, "stepped_mover_relay_clean")
    assert levels_of(findings, "PP506") == {}


def test_an_evaluation_loader_found_at_medium_drops_to_low(tmp_path):
    """(torch-fix154) PP505 `medium` on a loader named for evaluation (`val_loader`, returned by a factory
    of another module) goes to `low`: first reads over hold-outs 29-51, 46 right of 190; the training loader
    beside it keeps its level."""
    _, findings, _ = checked_copy(tmp_path, "evaluation_loader_lowered")
    assert levels_of(findings, "PP505") == {("data.py", 18): "medium", ("data.py", 19): "low"}


def test_the_with_grad_caller_test_is_asked_once_per_def(tmp_path, monkeypatch):
    """review28 item 19: `_called_with_grad_elsewhere` does not depend on the caller, yet it ran once for
    each module calling the def under no_grad (each a parse of every importer)."""
    from checker.torch_project import graph_callers

    root = Path(shutil.copytree(PROJECTS / "split_callers_clean", tmp_path / "split_callers_twice"))
    (root / "report.py").write_text((root / "evaluate.py").read_text())
    asked = []
    real = graph_callers._called_with_grad_elsewhere

    def counted(texts, name, def_path):
        asked.append((name, def_path))
        return real(texts, name, def_path)

    monkeypatch.setattr(graph_callers, "_called_with_grad_elsewhere", counted)
    findings, skipped, _ = check_paths([str(root)])
    assert not skipped
    assert not [f for f in findings if f.rule == "PP503"]
    assert len(asked) == 1
