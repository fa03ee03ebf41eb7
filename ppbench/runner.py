"""Run one variant of a case once, in a fresh process, and measure it.

Each run is its own Python process (nothing cached from an earlier run), started in a new session so a timeout
kills it with its children. A tiny launcher (``LAUNCHER``, Python without site packages) forks and execs the
script and reaps it: a process forked from the harness itself would inherit the harness's resident memory as the
floor of its peak, so the launcher's small footprint keeps the peak the script's own. The kernel's accounting for
that one process (``os.wait4``) gives CPU time (user + system) and peak resident memory; the launcher takes wall
time around fork and reap; the script's own reports
(``ppbench.probe``: the timed section, per-step times and memory) come through a file named in its environment;
GPU memory and utilisation are sampled through NVML while it runs, where a GPU exists.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from core.paths import PROJECT_ROOT
from ppbench.case import Case
from ppbench.probe import PROFILE_ENV, REPORT_ENV, STEPS_ENV
from ppbench.stats import slope

OOM_MARKS = (
    "MemoryError",
    "ResourceExhaustedError",
    "std::bad_alloc",
    "OOM when allocating",
    "out of memory",
)
GPU_SAMPLE_S = 0.05


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a case process: ours, ppminer importable (for ppbench.probe), TensorFlow's C++ log
    quieter unless asked otherwise."""
    env = dict(os.environ)
    path = env.get("PYTHONPATH", "")
    env["PYTHONPATH"] = str(PROJECT_ROOT) + (os.pathsep + path if path else "")
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env.update(extra or {})
    return env


def _read_reports(path: Path) -> list[dict]:
    reports = []
    with contextlib.suppress(FileNotFoundError), open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            with contextlib.suppress(ValueError):
                item = json.loads(line)
                if isinstance(item, dict):
                    reports.append(item)
    return reports


def _read_usage(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _last_line(path: Path) -> str:
    try:
        data = path.read_bytes()[-8192:].decode("utf-8", "replace")
    except OSError:
        return ""
    lines = [ln.strip() for ln in data.splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def _has_oom_mark(path: Path) -> bool:
    try:
        data = path.read_bytes()[-65536:].decode("utf-8", "replace")
    except OSError:
        return False
    return any(mark in data for mark in OOM_MARKS)


class GpuSampler:
    """Polls NVML in a thread while a run goes: peak memory of the run's process, mean and peak utilisation."""

    def __init__(self, pid: int):
        self.pid, self.samples, self.peak_memory = pid, [], 0
        self._stop = threading.Event()
        self._thread = None
        try:
            import pynvml

            pynvml.nvmlInit()
            self._nvml = pynvml
            self._handles = [pynvml.nvmlDeviceGetHandleByIndex(i) for i in range(pynvml.nvmlDeviceGetCount())]
        except Exception:  # no module, no driver or no GPU
            self._nvml = None
            self._handles = []

    @property
    def active(self) -> bool:
        return bool(self._handles)

    def start(self) -> GpuSampler:
        if self.active:
            self._thread = threading.Thread(target=self._loop, daemon=True)
            self._thread.start()
        return self

    def _loop(self) -> None:
        nvml = self._nvml
        while not self._stop.wait(GPU_SAMPLE_S):
            try:
                for handle in self._handles:
                    self.samples.append(nvml.nvmlDeviceGetUtilizationRates(handle).gpu)
                    for proc in nvml.nvmlDeviceGetComputeRunningProcesses(handle):
                        if proc.pid == self.pid and proc.usedGpuMemory:
                            self.peak_memory = max(self.peak_memory, proc.usedGpuMemory)
            except Exception:  # the device went away mid-run: keep what was sampled
                return

    def stop(self) -> dict | None:
        if not self.active:
            return None
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with contextlib.suppress(Exception):
            self._nvml.nvmlShutdown()
        util = self.samples
        return {
            "peak_memory_bytes": self.peak_memory,
            "utilization_mean_percent": sum(util) / len(util) if util else None,
            "utilization_peak_percent": max(util) if util else None,
            "samples": len(util),
        }


# argv: script, usage file, address-space limit in bytes (0: none). Writes the script's rusage as JSON; exits
# with the script's status (128 + signal when a signal ended it).
LAUNCHER = """
import json, os, resource, sys, time
script, usage_path, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.execv(sys.executable, [sys.executable, script])
    except BaseException as exc:
        sys.stderr.write("ppbench launcher: cannot start %s: %s\\n" % (script, exc))
    os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - start
code = os.waitstatus_to_exitcode(status)
with open(usage_path, "w") as fh:
    json.dump({"wall": wall, "user": ru.ru_utime, "system": ru.ru_stime, "maxrss_kib": ru.ru_maxrss,
               "code": code}, fh)
sys.exit(code if code >= 0 else 128 - code)
"""


def run_once(case: Case, variant: str, repeat: int, folder: Path, profile: bool = False) -> dict:
    """Run ``<variant>.py`` once; returns the run's status and measurements (no platform facts: see records).

    ``folder`` receives the run's output log (and the profiler trace with ``profile``). Status: ``ok``,
    ``oom`` (MemoryError / ResourceExhaustedError / killed by the OOM killer), ``crashed``, ``timeout``, or
    ``missing`` (no script)."""
    stem = f"{variant}-{repeat}" if repeat >= 0 else f"{variant}-warmup{-repeat}"
    script = case.script(variant)
    started = datetime.now(UTC).replace(tzinfo=None)
    result = {"variant": variant, "repeat": repeat, "started_at": started.isoformat(timespec="milliseconds"),
              "status": "missing", "exit_code": None, "error": None, "measurements": {}, "log": None,
              "profile": None}  # fmt: skip
    if not script.is_file():
        result["error"] = f"{script.name} missing"
        return result
    folder.mkdir(parents=True, exist_ok=True)
    report, log, usage_file = (folder / f"{stem}.{kind}" for kind in ("report.jsonl", "log", "usage.json"))
    report.unlink(missing_ok=True)
    usage_file.unlink(missing_ok=True)
    extra = {REPORT_ENV: str(report)}
    if case.steps:
        extra[STEPS_ENV] = str(case.steps)
    if profile:
        extra[PROFILE_ENV] = str(folder / f"{stem}.trace")
        result["profile"] = extra[PROFILE_ENV]
    timed_out = threading.Event()
    with open(log, "wb") as out:
        start = time.perf_counter()
        limit = str(case.memory_limit_mb * 2**20)
        proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", LAUNCHER, str(script), str(usage_file), limit], cwd=case.folder,
            env=child_env(extra), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        gpu = GpuSampler(proc.pid).start()

        def kill() -> None:
            timed_out.set()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)

        timer = threading.Timer(case.timeout_s, kill)
        timer.start()
        try:
            _, wait_status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(wait_status)  # reaped here: keep Popen from waiting again
        gpu_stats = gpu.stop()
    with contextlib.suppress(ProcessLookupError):  # children the script left behind
        os.killpg(proc.pid, signal.SIGKILL)
    code = proc.returncode
    reports = _read_reports(report)
    usage_of_script = _read_usage(usage_file)
    report.unlink(missing_ok=True)
    usage_file.unlink(missing_ok=True)
    if usage_of_script is not None:  # the script's own accounting (absent when a timeout killed the launcher)
        code = usage_of_script["code"]
        wall = usage_of_script["wall"]
        user, system, maxrss = (
            usage_of_script["user"],
            usage_of_script["system"],
            usage_of_script["maxrss_kib"],
        )
    else:
        user, system, maxrss = usage.ru_utime, usage.ru_stime, usage.ru_maxrss
    steps = [r for r in reports if "step" in r]
    section = next((r for r in reversed(reports) if "section" in r), None)
    rss = [r["rss"] for r in steps if r.get("rss") is not None]
    result["measurements"] = {
        "wall_s": wall,
        "cpu_s": user + system,
        "user_s": user,
        "system_s": system,
        "peak_rss_bytes": maxrss * 1024,  # Linux reports KiB
        "section_s": section.get("section") if section else None,
        "section_cpu_s": section.get("cpu") if section else None,
        "steps": {"count": len(steps), "seconds": [r.get("seconds") for r in steps], "rss": rss}
        if steps
        else None,
        "rss_growth_bytes_per_step": slope(rss),
        "gpu": gpu_stats,
    }
    result["exit_code"], result["log"] = code, str(log)
    if timed_out.is_set():
        result["status"], result["error"] = "timeout", f"killed after the {case.timeout_s:g} s timeout"
    elif code == 0:
        result["status"] = "ok"
    elif _has_oom_mark(log) or code == -signal.SIGKILL:
        result["status"], result["error"] = "oom", _last_line(log) or "killed (out of memory)"
    else:
        result["status"] = "crashed"
        result["error"] = _last_line(log) or f"exit status {code}"
    return result
