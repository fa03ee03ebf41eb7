"""ppbench with PyTorch (the `bench-torch` extra): a shipped PyTorch case really runs and reproduces, and the
records carry torch's facts. Skipped without torch, required in CI. One short case with few repeats: the whole
benchmark (`ppbench run ppbench/cases/torch_*`) is measured by hand and reported in README.md."""

from __future__ import annotations

import pytest

from ppbench.bench import run_cases
from ppbench.case import load_case, shipped_cases
from ppbench.env import checklist, framework_facts

pytestmark = [pytest.mark.torch, pytest.mark.usefixtures("torch_installed")]
CASES = {p.name: p for p in shipped_cases()}


def test_a_shipped_pytorch_case_reproduces_and_its_records_name_torch(sqlite_store, tmp_path):
    case = CASES["torch_tensor_built_every_step"]
    assert load_case(case).framework == "torch"
    [outcome] = run_cases([case], tmp_path / "out", sqlite_store, repeat=2, warmup=0)
    result = outcome.result
    assert result["status"] == "reproduced", outcome.line()
    assert result["ci"][1] < 1 and result["ratio"] < 0.6
    torch_facts = result["platform"]["frameworks"]["torch"]
    assert torch_facts["torch"].startswith("2.") and torch_facts["intra_op_threads"] >= 1
    assert "tensorflow" not in result["platform"]["frameworks"]  # only the frameworks the cases need


def test_torch_facts_name_the_build_threads_and_libraries():
    facts = framework_facts("torch")
    assert "error" not in facts, facts
    assert facts["built_with_cuda"] is (facts["cuda"] is not None)
    assert facts["mkl"] in (True, False) and facts["onednn"] in (True, False)
    assert {"name": "cpu", "type": "CPU"} in facts["devices"]
    rows = dict(checklist({"cpu": {"model": "x", "logical_cores": 1, "usable_cores": 1, "instruction_sets": {}},
                           "host": "h", "os": "o", "python": "p", "memory": {"total_bytes": 1, "available_bytes": 1},
                           "load_average": [0.0], "thread_settings": {}, "gpu": None,
                           "frameworks": {"torch": facts}}))  # fmt: skip
    assert rows["torch"] == facts["torch"] and rows["torch threads"].startswith("intra-op ")
    assert rows["tensorflow"].startswith("not installed")
