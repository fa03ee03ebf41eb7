"""bench_torch_checker.py's recall count: a host-sync case on a line a PP501 finding names among its other
reads is found at that finding's level (torch-fix83)."""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

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
