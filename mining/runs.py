"""Acquisition-run records shared by the scrapers (Stack Exchange and GitHub): find the run to resume, open a new
one, mark how it ended, and close runs whose process died. A run's ``kind`` tells the scrapers apart; its
``params`` (never a secret) decide which later run resumes it."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from typing import Any, TypeVar

import sqlalchemy as sa

from core.db import Store
from core.errors import PPMinerError
from core.schema.mining import AcquisitionRun
from mining.fetching import first_line
from mining.joblock import Lock
from mining.store import utcnow

C = TypeVar("C")  # a scraper's API client (anything with close())
LOCK_NAME = "scrape"  # one acquisition at a time per database, whichever the source
RESUMABLE = ("running", "interrupted", "quota", "failed")
ENDED = ("done", "failed", "quota", "interrupted")


@contextmanager
def scrape_parts(
    store: Store, lock: Lock | None, client: C | None, make_client: Callable[[], C]
) -> Iterator[tuple[Lock, C]]:
    """The scrape lock (taken here unless the caller holds ``lock``) and a client (made here unless ``client`` is
    given); what was taken or made here is released on the way out."""
    own_lock, own_client = lock is None, client is None
    if own_lock:
        lock = Lock(store, LOCK_NAME)
        lock.acquire()
    try:
        if own_client:
            client = make_client()
        try:
            yield lock, client
        finally:
            if own_client:
                client.close()
    finally:
        if own_lock:
            lock.release()


def find_resumable(
    store: Store, kind: str, params: dict[str, Any], same_job: Callable[[dict[str, Any]], bool] | None = None
) -> AcquisitionRun | None:
    """The newest run of ``kind`` (among those ``same_job`` accepts: e.g. the same repository) if it is unfinished
    and asked for exactly ``params``; an older unfinished one was superseded and is never resumed."""
    with store.read() as s:
        runs = s.scalars(
            sa.select(AcquisitionRun).where(AcquisitionRun.kind == kind).order_by(AcquisitionRun.id.desc())
        )
        run = next((r for r in runs if same_job is None or same_job(r.params or {})), None)
        if run is not None and run.status in RESUMABLE and run.params == params:
            return run
    return None


def new_run(store: Store, kind: str, params: dict[str, Any], checkpoint: dict[str, Any]) -> AcquisitionRun:
    """A new run of ``kind``, status running, committed."""
    now = utcnow()
    run = AcquisitionRun(
        kind=kind,
        status="running",
        params=params,
        checkpoint=checkpoint,
        items=0,
        requests=0,
        started_at=now,
        updated_at=now,
    )
    with store.write() as s:
        s.add(run)
    return run


def mark(store: Store, run_id: int, status: str, message: str | None = None, **values) -> None:
    """Set a run's status and message (and any other columns given); an ended status stamps finished_at."""
    with store.write() as s:
        run = s.get(AcquisitionRun, run_id)
        run.status, run.message, run.updated_at = status, message, utcnow()
        if status in ENDED:
            run.finished_at = utcnow()
        for k, v in values.items():
            setattr(run, k, v)


def record_stop(store: Store, run_id: int, reason: BaseException, log: logging.Logger, **values) -> str:
    """The run stopped early (a used-up quota or rate limit, a request budget): status quota, resumable. Returns
    the message said to the user."""
    msg = f"stopped early ({reason}); rerun the same command to resume"
    mark(store, run_id, "quota", msg, **values)
    log.warning("run %d: %s", run_id, msg)
    return msg


def record_failure(
    store: Store, run_id: int, exc: BaseException, text: str, log: logging.Logger, **values
) -> str:
    """Record a run failed with the one-line ``text`` (called while handling ``exc``: a surprise also logs its
    traceback, which the log filter scrubs). Returns the text, saying so when even the record failed."""
    if not isinstance(exc, PPMinerError | sa.exc.SQLAlchemyError | OSError):
        log.error("run %d: unexpected error", run_id, exc_info=True)
    try:
        mark(store, run_id, "failed", text, **values)
    except sa.exc.SQLAlchemyError as mark_exc:
        text += f" (and the run could not be marked failed: {first_line(mark_exc)})"
    log.error("run %d failed: %s", run_id, text)
    return text


def close_dead_runs(store: Store, kind: str, keep: int | None) -> None:
    """Runs of ``kind`` still marked running while we hold the scrape lock belong to a process that died."""
    with store.write() as s:
        s.execute(
            sa.update(AcquisitionRun)
            .where(
                AcquisitionRun.kind == kind,
                AcquisitionRun.status == "running",
                AcquisitionRun.id != (keep if keep is not None else -1),
            )
            .values(
                status="interrupted",
                message="its process died (still marked running when the next scrape started)",
                finished_at=utcnow(),
            )
        )


def window_covers(earlier: dict[str, Any], date_from: date | None, date_to: date | None) -> bool:
    """Whether the creation window of a run with ``earlier`` params contains ``date_from``..``date_to``."""
    try:
        start, end = (
            date.fromisoformat(d) if d else None for d in (earlier.get("date_from"), earlier.get("date_to"))
        )
    except (TypeError, ValueError):  # not a window we wrote: trust it with nothing
        return False
    if start is not None and (date_from is None or date_from < start):
        return False
    return end is None or (date_to is not None and date_to <= end)


def last_high_water(store: Store, kind: str, covers: Callable[[dict[str, Any]], bool]) -> datetime | None:
    """High-water mark of the newest finished run of ``kind`` whose params ``covers`` accepts.

    A narrower or other run's mark would skip, for good, the quiet posts it never fetched.
    """
    with store.read() as s:
        runs = s.scalars(
            sa.select(AcquisitionRun)
            .where(
                AcquisitionRun.kind == kind,
                AcquisitionRun.status == "done",
                AcquisitionRun.high_water.is_not(None),
            )
            .order_by(AcquisitionRun.id.desc())
        )
        for run in runs:
            if covers(run.params or {}):
                return run.high_water
    return None
