"""ppbench with TensorFlow (the `bench` extra): shipped cases really run and reproduce, the profiler trace, and the
framework facts. Skipped without TensorFlow, required in CI. Kept to one short case with few repeats: the whole
benchmark (`ppbench run ppbench/cases/*`) is measured by hand and reported, not run in the suite."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ppbench.case import shipped_cases
from ppbench.env import framework_facts

pytestmark = [pytest.mark.tensorflow, pytest.mark.usefixtures("tensorflow_installed")]
CASES = {p.name: p for p in shipped_cases()}


def test_a_shipped_case_reproduces_from_the_cli_with_a_profile_trace_beside_its_record(tmp_path):
    """One real TensorFlow case end to end (each run a fresh process importing TensorFlow, so one case only)."""
    done = subprocess.run(
        [sys.executable, "-m", "ppbench.cli", "run", str(CASES["tf_function_retraced"]), "--repeat", "2",
         "--warmup", "0", "--profile", "--no-db", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("tf_function_retraced: reproduced"), done.stdout
    [result_file] = Path(tmp_path).glob("*/tf_function_retraced/result.json")
    result = json.loads(result_file.read_text())
    assert result["status"] == "reproduced" and result["ci"][1] < 1 and result["ratio"] < 0.5, result
    tf = result["platform"]["frameworks"]["tensorflow"]
    assert tf["tensorflow"] and {"type": "CPU", "name": "/physical_device:CPU:0"} in tf["devices"]
    records = sorted(Path(tmp_path).glob("*/tf_function_retraced/buggy-0.json"))
    record = json.loads(records[0].read_text())
    trace = Path(record["profile"])
    assert trace.is_dir() and any(p.name.endswith(".xplane.pb") for p in trace.rglob("*")), record["profile"]


def test_framework_facts_name_the_build_and_devices():
    facts = framework_facts("tensorflow")
    assert "error" not in facts, facts
    assert facts["built_with_cuda"] is False or facts["cuda"]
    assert facts["onednn"] in (True, False, None)
    assert any(d["type"] == "CPU" for d in facts["devices"])
