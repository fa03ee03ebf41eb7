"""Evidence across modules reads each module as the per-module pass does: with its PEP 263 coding line.

A Latin-1 module whose names are not ASCII (`train_photos_élève`) parses only when decoded as Latin-1; read as
UTF-8 with replacement characters it is a syntax error, and the training it holds would be lost."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from checker import check_paths
from checker.project import lift_trained_elsewhere
from checker.walker import iter_files

FIXTURES = Path(__file__).parent / "fixtures" / "ppcheck" / "project"
TORCH_PROJECTS = Path(__file__).parent / "torch_cases" / "projects"
CODING = "# -*- coding: latin-1 -*-\n"


def as_latin1(path: Path, old: str, new: str) -> None:
    """Rewrite `path` in Latin-1 with a coding line, renaming `old` to the non-ASCII `new`."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_bytes((CODING + text.replace(old, new)).encode("latin-1"))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_latin1_training_script_still_lifts_the_pipeline_it_fits_on(tmp_path, jobs):
    folder = Path(shutil.copytree(FIXTURES / "trained", tmp_path / "trained"))
    as_latin1(folder / "fit_classifier.py", "train_photos", "train_photos_élève")
    findings, skipped, _ = check_paths([str(folder)], jobs=jobs)
    assert not skipped, skipped
    # ppcheck lifts no rule since tf-calibrate14; the evidence is still read, as the bench measures it
    lifted = lift_trained_elsewhere(findings, [list(iter_files([str(folder)]))], frozenset({"PP202"}))
    assert [(Path(f.path).name, f.line, f.confidence) for f in lifted if f.rule == "PP202"] == [
        ("records.py", 14, "high")
    ]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_latin1_training_script_still_shows_the_loader_it_copies_to_the_gpu(tmp_path, jobs):
    folder = Path(shutil.copytree(TORCH_PROJECTS / "global_loader", tmp_path / "global_loader"))
    as_latin1(folder / "train.py", "cifar100_training_loader", "cifar100_training_loader_élève")
    findings, skipped, _ = check_paths([str(folder)], jobs=jobs)
    assert not skipped, skipped
    assert [(Path(f.path).name, f.line) for f in findings if f.rule == "PP505"] == [("utils.py", 9)]


def test_a_helper_a_latin1_script_calls_by_a_non_ascii_name_counts_as_used(tmp_path):
    """A helper is `low` only when no file of the project uses it; the use is found in a Latin-1 script too
    (the training input function, `high` by its name, stays `high` once the script calls it)."""
    folder = Path(shutil.copytree(FIXTURES / "unused", tmp_path / "unused"))
    inputs = folder / "inputs.py"
    inputs.write_text(
        inputs.read_text(encoding="utf-8").replace("train_input_fn", "entrée_train"), encoding="utf-8"
    )
    as_latin1(folder / "evaluate.py", "eval_input_fn", "entrée_train")
    findings, skipped, _ = check_paths([str(folder)])
    assert not skipped, skipped
    assert {(Path(f.path).name, f.line): f.confidence for f in findings if f.rule == "PP202"} == {
        ("inputs.py", 12): "low",
        ("inputs.py", 17): "high",
    }
