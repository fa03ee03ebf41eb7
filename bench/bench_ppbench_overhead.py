"""ppbench harness overhead: a 1-second case run through the harness against the same script run bare.

The case is pure Python (a busy loop calibrated to about 1 s on this machine; no TensorFlow), so only the
harness differs. Bare: ``subprocess.run([python, script])`` in a new session, as the harness starts its runs (with
the kernel's autogroup scheduling a new session gets its own CPU share, so a bare run in the caller's session
would compete with whatever else that session runs and the comparison would measure scheduling, not ppbench). Harness: everything ppbench does per run — the
launcher process, fork/exec, the probe's report file, wait4 accounting, the JSON record written with the
platform facts. Runs alternate (bare, harness, harness, bare, ...) so drift weighs on both alike; reported are
the medians, their difference per run, and the overhead as a percentage of the bare run. Target: under 5%.

Run: python bench/bench_ppbench_overhead.py [ROUNDS (default 8)] [SECONDS (default 1.0)]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ppbench import records
from ppbench.case import load_case
from ppbench.env import platform_facts
from ppbench.runner import child_env, run_once

SCRIPT = """
from ppbench import probe
n = probe.count({n})
with probe.section():
    total = 0
    for i in range(n):
        total += i * i
"""


def _calibrate(seconds: float) -> int:
    """Loop iterations that take about ``seconds`` here (measured in this process, the same loop)."""
    n = 200_000
    while True:
        start = time.perf_counter()
        total = 0
        for i in range(n):
            total += i * i
        took = time.perf_counter() - start
        if took > 0.2:
            return int(n * seconds / took)
        n *= 2


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    n = _calibrate(seconds)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "one_second"
        folder.mkdir()
        for variant in ("buggy", "fixed"):
            (folder / f"{variant}.py").write_text(SCRIPT.format(n=n), encoding="utf-8")
        (folder / "case.toml").write_text(
            'title = "one second"\npp_ids = ["1"]\nsymptom = "time"\nroot_cause = "api.not_efficient_api"\n',
            encoding="utf-8",
        )
        case = load_case(folder)
        platform = platform_facts(set())
        description = records.case_description(case, case.name, folder)
        out = Path(tmp) / "out"
        env = child_env()

        def bare() -> float:
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, str(case.script("buggy"))],
                cwd=folder,
                env=env,
                check=True,
                start_new_session=True,
            )
            return time.perf_counter() - start

        def harness(i: int) -> float:
            start = time.perf_counter()
            run = run_once(case, "buggy", i, out)
            records.write_json(
                out / f"buggy-{i}.json", records.run_record("bench", description, run, platform)
            )
            took = time.perf_counter() - start
            assert run["status"] == "ok", run
            return took

        bare(), harness(-1)  # warm the file cache for both
        plain, timed = [], []
        for i in range(rounds):
            if i % 2 == 0:
                plain.append(bare())
                timed.append(harness(i))
            else:
                timed.append(harness(i))
                plain.append(bare())
    b, h = statistics.median(plain), statistics.median(timed)
    print(f"case: a {seconds:g}-second pure-Python loop ({n} iterations), {rounds} runs each, alternating")
    print(f"bare subprocess.run: median {b:.3f} s (min {min(plain):.3f}, max {max(plain):.3f})")
    print(f"ppbench run_once + record: median {h:.3f} s (min {min(timed):.3f}, max {max(timed):.3f})")
    print(
        f"overhead: {(h - b) * 1000:+.1f} ms per run = {(h / b - 1) * 100:+.2f}% of the bare run (target < 5%)"
    )


if __name__ == "__main__":
    main()
