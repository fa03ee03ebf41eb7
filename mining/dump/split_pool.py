"""Making a batch of posts ready to write (HTML split into prose and code, values converted for the database) in a
worker process while the importer reads and writes.

The split (:func:`core.text.split_html`) is the largest single cost of importing every post; it, and the rest of
:func:`mining.store.prepare_questions` (stamping, one row per id, the values as the database driver takes them),
depend on nothing but the rows. So the importer hands a batch's decided questions and answers to one worker
process and goes on reading the next batch and writing the one before; when it writes the batch, the rows are
ready. The worker runs the very same functions on the very same rows, so what is stored does not depend on where
they ran. Whenever the worker cannot answer (no spare core, too few rows to be worth a trip, a broken worker),
:meth:`SplitPool.submit` or :func:`take_prepared` gives None and the rows are prepared in the importer's own
process at write time, as before.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from core.errors import PPMinerError
from mining.dump.rows import ANSWER_DATES, QUESTION_DATES, dump_dates
from mining.store import Upsert, prepare_answers, prepare_questions

_PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h): a signal for this process when its parent dies
MIN_ROWS = 256  # fewer rows than this: the trip to the worker and back is not worth it
ENV_WORKER = "PPMINER_DUMP_WORKER"


def worker_wanted() -> bool:
    """``PPMINER_DUMP_WORKER=1`` always splits in a worker, ``0`` never; unset, when a core is free (:func:`spare_core`)."""
    value = os.environ.get(ENV_WORKER, "").strip()
    if value not in ("", "0", "1"):
        raise PPMinerError(
            f"{ENV_WORKER}={value!r}: use 1 (split HTML in a worker), 0 (never) or leave it unset"
        )
    return value == "1" if value else spare_core()


def spare_core() -> bool:
    """Whether a worker would get a core of its own: two or more cores this process may use, and a load (the last
    minute's average of runnable processes) leaving one of them idle. On a busy machine a worker only adds the cost
    of the trip (some 15% more CPU in all) and shortens nothing."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:  # not known here: assume the machine is ours
        load = 0.0
    # A fork copies only the calling thread: a lock another thread holds at that moment stays held in the child
    # for ever, so a process that runs other threads (a test runner's, a notebook kernel client's) forks no worker.
    return cores > 1 and load <= cores - 1 and threading.active_count() == 1


_dialect = None  # the worker's: the importer's database dialect, inherited when the worker starts


def prepare_posts(
    questions: list[dict[str, Any]], answers: list[dict[str, Any]], source: str
) -> tuple[Upsert, Upsert]:
    """The worker's job: a batch's questions and answers (dicts of :mod:`mining.dump.rows`, dates as text) made
    ready to write."""
    return (
        prepare_questions(dump_dates(questions, QUESTION_DATES), source, _dialect, from_xml=True),
        prepare_answers(dump_dates(answers, ANSWER_DATES), source, _dialect, from_xml=True),
    )


def fork_workers(count: int, dialect) -> ProcessPoolExecutor:
    """``count`` worker processes for the importer, forked when the first job is submitted: a fork starts at once
    and imports nothing. Each lives and dies with the importer (:func:`_worker_start`) and holds copies of its
    database connections, which it never touches (it ends with os._exit: it does not close them either)."""
    return ProcessPoolExecutor(
        count,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_worker_start,
        initargs=(os.getpid(), dialect),
    )


def _worker_start(parent: int, dialect) -> None:
    """The worker lives and dies with the importer: killed with it (even by SIGKILL, which leaves no chance to
    clean up), holding none of its standard streams (a pipe reading the importer's output must see its end), and
    deaf to Ctrl-C (which reaches the whole process group: the importer decides what an interrupt means, and still
    writes the batches it holds with the rows this worker finishes)."""
    global _dialect
    _dialect = dialect
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Linux only: elsewhere the end of the pipe to the importer tells the worker
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the importer died before the line above
        os._exit(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


class SplitPool:
    """One worker process, started on the first batch large enough to send it; ``enabled=False`` never starts it.
    ``dialect``: the database's SQLAlchemy dialect, which the rows are prepared for."""

    def __init__(self, enabled: bool, dialect):
        self.enabled = enabled
        self.dialect = dialect
        self._executor: ProcessPoolExecutor | None = None

    @property
    def started(self) -> bool:
        """Whether the worker process has been forked (and is still in use)."""
        return self.enabled and self._executor is not None

    def submit(
        self, questions: list[dict[str, Any]], answers: list[dict[str, Any]], source: str
    ) -> Future | None:
        """Start preparing a batch's posts (:func:`prepare_posts`); None when they are prepared at write time."""
        if not self.enabled or len(questions) + len(answers) < MIN_ROWS:
            return None
        try:
            if self._executor is None:
                self._executor = fork_workers(1, self.dialect)
            return self._executor.submit(prepare_posts, questions, answers, source)
        except (
            OSError,
            RuntimeError,
        ):  # cannot start a process, or the worker broke: prepare here from now on
            self.enabled = False
            return None

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def take_prepared(future: Future | None) -> tuple[Upsert, Upsert] | None:
    """The worker's prepared questions and answers; None if it failed, and they are prepared at write time (where a
    body that cannot be split raises its error just as it always did)."""
    if future is None:
        return None
    try:
        return future.result()
    except Exception:  # noqa: BLE001 - a broken worker or a row it could not prepare: the write path tries again
        return None
