"""Evidence across the files of one project (checker/project.py): a pipeline returned by a function that a
training script of the same project fits on is `high`; the same pipeline only evaluated stays `medium`."""

from __future__ import annotations

import shutil
from pathlib import Path

from checker import check_paths

FIXTURES = Path(__file__).parent / "fixtures" / "ppcheck" / "project"


def levels(*folders: Path) -> dict[str, str]:
    """`folder/file:line` -> confidence of each PP202 finding."""
    findings, skipped, _ = check_paths([str(f) for f in folders])
    assert not skipped, skipped
    return {
        f"{Path(f.path).parent.name}/{Path(f.path).name}:{f.line}": f.confidence
        for f in findings
        if f.rule == "PP202"
    }


def copied(tmp_path: Path, name: str) -> Path:
    # Files under tests/ get no findings (test code), so the projects are checked from a copy.
    return Path(shutil.copytree(FIXTURES / name, tmp_path / name))


def test_a_pipeline_another_module_fits_on_is_high(tmp_path):
    assert levels(copied(tmp_path, "trained")) == {"trained/records.py:14": "high"}


def test_the_module_alone_leaves_it_medium(tmp_path):
    folder = copied(tmp_path, "trained")
    findings, _, _ = check_paths([str(folder / "records.py")])
    assert [(f.rule, f.confidence) for f in findings] == [("PP202", "medium")]


def test_a_pipeline_only_evaluated_stays_medium(tmp_path):
    assert levels(copied(tmp_path, "evaluated")) == {"evaluated/records.py:14": "medium"}


def test_a_training_call_does_not_reach_another_project(tmp_path):
    """Each PATH is a project of its own: the same function name trained on in one does not lift the other."""
    trained, evaluated = copied(tmp_path, "trained"), copied(tmp_path, "evaluated")
    assert levels(trained, evaluated) == {
        "trained/records.py:14": "high",
        "evaluated/records.py:14": "medium",
    }


def test_a_module_training_on_its_own_copy_does_not_lift_another(tmp_path):
    """Lessons that each define `my_input_fn`: one trains on its own copy, which says nothing of the copy
    another lesson only registers (reading 10 read such a lift wrong)."""
    assert levels(copied(tmp_path, "copies")) == {
        "lesson1/model.py:14": "medium",
        "lesson2/model.py:12": "high",
    }


def test_only_the_half_of_a_returned_pair_that_trains_is_lifted(tmp_path):
    """`dataset_train, dataset_val = get_ds()` then training on the first: the validation pipeline the
    builder returns beside it is not lifted (reading 13 read it wrong: the GAN never reads it)."""
    assert levels(copied(tmp_path, "pair")) == {
        "pair/data_generator.py:18": "high",
        "pair/data_generator.py:21": "medium",
    }


def test_a_builder_nothing_in_the_project_calls_is_low(tmp_path):
    """A guide's input function copied into a project whose scripts never call it (reading 13: wrong 4 of
    4) is low; the one a script evaluates on stays medium. A file checked alone keeps both medium."""
    folder = copied(tmp_path, "unused")
    assert levels(folder) == {"unused/inputs.py:12": "medium", "unused/inputs.py:17": "low"}
    findings, _, _ = check_paths([str(folder / "inputs.py")])
    assert [(f.line, f.confidence) for f in findings if f.rule == "PP202"] == [(12, "medium"), (17, "medium")]
