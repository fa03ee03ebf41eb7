"""What a case script tells ppbench: the timed section, per-step times and memory (standard library only).

A case script imports this and wraps the code that shows the PP::

    from ppbench import probe

    with probe.section():                 # the measured section (setup and imports stay outside)
        for i in probe.steps(100):         # times each step and notes the process's memory after it
            ...

Under ``ppbench run`` the reports go as JSON lines to the file named by ``PPBENCH_REPORT``; run by hand, a script
behaves the same and reports nothing. ``probe.count(default)`` is the number of steps the case asks for
(``steps`` in case.toml, passed as ``PPBENCH_STEPS``). With ``--profile``, ``section()`` records a TensorFlow
Profiler trace into ``PPBENCH_PROFILE_DIR`` when the script has imported TensorFlow.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator

REPORT_ENV = "PPBENCH_REPORT"
STEPS_ENV = "PPBENCH_STEPS"
PROFILE_ENV = "PPBENCH_PROFILE_DIR"

_path = os.environ.get(REPORT_ENV)
_out = open(_path, "a", encoding="utf-8", buffering=1) if _path else None  # noqa: SIM115 (kept for the process)
_page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def emit(**fields) -> None:
    """Write one report line (nothing when not run by ppbench)."""
    if _out is not None:
        _out.write(json.dumps(fields) + "\n")


def rss_bytes() -> int | None:
    """The process's resident memory now (Linux /proc; None elsewhere)."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _page
    except (OSError, IndexError, ValueError):
        return None


def count(default: int) -> int:
    """The number of steps to run: case.toml's ``steps`` under ppbench, else ``default``."""
    value = os.environ.get(STEPS_ENV)
    return int(value) if value and value.isdigit() and int(value) > 0 else default


def steps(n: int) -> Iterator[int]:
    """``range(n)`` that reports each step's wall time and the memory after it."""
    clock = time.perf_counter
    for i in range(n):
        start = clock()
        yield i
        emit(step=i, seconds=clock() - start, rss=rss_bytes())


@contextlib.contextmanager
def _profiled():
    folder = os.environ.get(PROFILE_ENV)
    tf = sys.modules.get("tensorflow")
    if not folder or tf is None:
        yield
        return
    tf.profiler.experimental.start(folder)
    try:
        yield
    finally:
        tf.profiler.experimental.stop()


@contextlib.contextmanager
def section():
    """Time the enclosed code (wall and CPU) and report it with the memory at its end."""
    with _profiled():
        wall, cpu = time.perf_counter(), time.process_time()
        yield
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    emit(section=wall, cpu=cpu, rss=rss_bytes())
