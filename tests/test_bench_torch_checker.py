"""bench_torch_checker.py's recall count: a host-sync case on a line a PP501 finding names among its other
reads is found at that finding's level (torch-fix83)."""

from __future__ import annotations

import importlib.util
import subprocess
import types
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent


def _bench():
    spec = importlib.util.spec_from_file_location(
        "bench_torch_checker", PROJECT / "bench" / "bench_torch_checker.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_case_on_a_line_a_finding_names_among_its_other_reads_is_found(tmp_path, capsys):
    bench = _bench()
    cases = tmp_path / "cases.csv"
    cases.write_text(
        "repo,path,line,kind,found_default,found_medium,note\n"
        "o+r,models/gan.py,193,host-sync,,,\n"
        "o+r,models/gan.py,212,host-sync,,,\n"
        "o+r,models/gan.py,300,host-sync,,,\n"
    )
    message = (
        "`.item()` in the training step `train` (and 2 more reads) waits for the GPU on every step its caller "
        "runs; return the tensor detached (`loss.detach()`) and read it every N steps; the other reads are at "
        "lines 194 and 212"
    )
    found = [
        types.SimpleNamespace(
            path=str(tmp_path / "o+r" / "models" / "gan.py"),
            line=193,
            rule="PP501",
            confidence="high",
            message=message,
        )
    ]
    bench.recall_table(str(tmp_path), found, cases)
    out = capsys.readouterr().out
    assert "host-sync                    3       2      2" in out
    assert "models/gan.py:300" in out and "models/gan.py:212" not in out
    assert bench.other_read_lines("; the other read is at line 101") == {101}


def test_an_eval_case_inside_the_loop_a_pp503_finding_names_is_found(tmp_path, capsys):
    """(torch-fix87) `iterate(..., mode='val')` reported at the call names the loop of `iterate` that runs the
    model: a listed eval-without-no-grad case at the model call inside that loop counts; one after it does
    not."""
    bench = _bench()
    source = tmp_path / "o+r" / "main.py"
    source.parent.mkdir()
    source.write_text(
        "def iterate(mode, loader, model):\n"
        "    for batch in loader:\n"
        "        x = batch.cuda()\n"
        "        pred = model(x)\n"
        "    return pred\n"
        "\n"
        "\n"
        "def main(loader, model):\n"
        "    model(loader)\n"
        "    return iterate('val', loader, model)\n"
    )
    cases = tmp_path / "cases.csv"
    cases.write_text(
        "repo,path,line,kind,found_default,found_medium,note\n"
        "o+r,main.py,4,eval-without-no-grad,,,\n"
        "o+r,main.py,9,eval-without-no-grad,,,\n"
    )
    message = (
        "`iterate(..., mode='val')` runs the model in the loop at line 2 without torch.no_grad(): autograd "
        "records every activation; call it under `with torch.no_grad():` (or inference_mode)"
    )
    found = [
        types.SimpleNamespace(path=str(source), line=10, rule="PP503", confidence="medium", message=message)
    ]
    bench.recall_table(str(tmp_path), found, cases)
    out = capsys.readouterr().out
    assert "eval-without-no-grad         2       0      1" in out
    assert bench._loop_end(str(source), 2) == 4 and bench._loop_end(str(source), 9) == 9


def test_the_timing_checks_each_repository_as_its_own_project_and_keeps_the_one_project_row(tmp_path, capsys):
    """(torch-speed13) A user runs ppcheck on one repository at a time, as the precision table checks them: the
    first timed process gets one PATH per repository folder, the second ROOT as one project, and both are
    printed against the baseline."""
    bench = _bench()
    for repo in ("a+one", "b+two"):
        (tmp_path / "root" / repo).mkdir(parents=True)
        (tmp_path / "root" / repo / "train.py").write_text("import torch\n\nx = torch.zeros(3)\n")
    (tmp_path / "root" / ".cache").mkdir()
    (tmp_path / "tf").mkdir()
    (tmp_path / "tf" / "model.py").write_text("import tensorflow as tf\n\ny = tf.zeros(3)\n")
    root = str(tmp_path / "root")
    targets = bench.timing_targets(root, 4, str(tmp_path / "tf"))
    assert [(name, paths) for name, paths, _ in targets] == [
        ("pytorch", [f"{root}/a+one", f"{root}/b+two"]),
        ("ROOT as one project", [root]),
        ("baseline", [str(tmp_path / "tf")]),
    ]
    wall, cpu = bench.whole_process(targets[0][1])
    assert wall >= 0.05 and cpu >= 0.05  # a real interpreter started, imported the checker and ran
    with pytest.raises(subprocess.CalledProcessError):  # a run ppcheck refuses is no timing
        bench.whole_process([str(tmp_path / "missing")])
    bench.print_timing(
        targets,
        {"pytorch": 1.0, "ROOT as one project": 2.0, "baseline": 1.0},
        {"pytorch": 1.0, "ROOT as one project": 2.0, "baseline": 1.0},
    )
    out = capsys.readouterr().out
    assert "ROOT as one project" in out.splitlines()[2]
    assert out.splitlines()[-1] == (
        f"PyTorch lines per CPU second are {4 / targets[2][2]:.2f}x the baseline's "
        f"(one PATH per repository; ROOT as one project {2 / targets[2][2]:.2f}x)"
    )


def test_the_timed_processes_run_compiled_bytecode_unless_asked_to_compile(monkeypatch):
    """torch-speed15: with PYTHONDONTWRITEBYTECODE set (as in this project's sessions) every timed process
    compiled the checker's sources again, 0.35 CPU s of each start; the bench now times processes that run
    bytecode compiled once, in a folder of its own (not the checkout), and --compile-each-run the old way."""
    bench = _bench()
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    warm = bench.process_env()
    assert "PYTHONDONTWRITEBYTECODE" not in warm
    assert not warm["PYTHONPYCACHEPREFIX"].startswith(str(bench.PROJECT))
    cold = bench.process_env(compiled=False)
    assert cold["PYTHONDONTWRITEBYTECODE"] == "1" and "PYTHONPYCACHEPREFIX" not in cold
