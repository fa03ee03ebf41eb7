"""A named lock row in the study database, so two scheduled jobs never work on one database at once.

A lock may be taken over when its holder is a dead process on this host, or when its heartbeat is older than
``stale_after`` (a holder on another machine that vanished). The holder refreshes the heartbeat as it works: at
each checkpoint of its own, or from a background thread (:meth:`Lock.kept_alive`) around work without any.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import sqlalchemy as sa

from core.db import Store
from core.errors import PPMinerError
from core.schema.mining import JobLock
from mining.store import utcnow

STALE_AFTER = timedelta(minutes=30)
BEATS_PER_STALE = 6  # a background heartbeat comes this many times within ``stale_after``

log = logging.getLogger("ppminer.joblock")


def this_holder() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _is_stale(lock: JobLock, now, stale_after: timedelta) -> str | None:
    """Why ``lock`` may be taken over, or None while its holder looks alive."""
    host, _, pid = lock.holder.rpartition(":")
    if host == socket.gethostname() and pid.isdigit() and not _pid_alive(int(pid)):
        return f"process {pid} is gone"
    if now - lock.heartbeat_at > stale_after:
        return f"no heartbeat since {lock.heartbeat_at:%Y-%m-%d %H:%M:%S} UTC"
    return None


class JobLockHeld(PPMinerError):
    """Another live job holds the lock."""


class Lock:
    """``with Lock(store, "scrape"):`` acquire at entry (or raise JobLockHeld), release at exit."""

    def __init__(self, store: Store, name: str, *, stale_after: timedelta = STALE_AFTER):
        self.store = store
        self.name = name
        self.stale_after = stale_after
        self.holder = this_holder()
        self.took_over: str | None = None

    def acquire(self) -> None:
        now = utcnow()
        try:
            with self.store.write() as s:
                lock = s.get(JobLock, self.name, with_for_update=True)
                if lock is None:
                    s.add(JobLock(name=self.name, holder=self.holder, acquired_at=now, heartbeat_at=now))
                    return
                why = _is_stale(lock, now, self.stale_after)
                if why is None:
                    raise JobLockHeld(
                        f"another {self.name} job is running on this database (held by {lock.holder} since "
                        f"{lock.acquired_at:%Y-%m-%d %H:%M:%S} UTC, heartbeat "
                        f"{lock.heartbeat_at:%H:%M:%S}); try again when it has finished"
                    )
                self.took_over = why
                lock.holder, lock.acquired_at, lock.heartbeat_at = self.holder, now, now
        except sa.exc.IntegrityError:
            # Another process inserted the row between our read and our insert (PostgreSQL).
            raise JobLockHeld(
                f"another {self.name} job is starting on this database; try again later"
            ) from None

    def heartbeat(self, session) -> None:
        """Refresh the heartbeat inside the caller's transaction; raise if the lock was taken from us."""
        res = session.execute(
            sa.update(JobLock)
            .where(JobLock.name == self.name, JobLock.holder == self.holder)
            .values(heartbeat_at=utcnow())
        )
        if res.rowcount != 1:
            raise PPMinerError(f"lost the {self.name} lock to another process; stopping")

    @contextmanager
    def kept_alive(self, every: float | None = None) -> Iterator[None]:
        """Refresh the heartbeat every ``every`` seconds from a thread while the block runs (for work such as
        keyword matching that has no checkpoint of ours). Raises PPMinerError after the block if the lock was
        taken meanwhile; a heartbeat that fails on a database error is retried at the next beat."""
        every = every if every is not None else self.stale_after.total_seconds() / BEATS_PER_STALE
        stop = threading.Event()
        lost: list[str] = []

        def beat() -> None:
            while not stop.wait(every):
                try:
                    with self.store.write() as s:
                        self.heartbeat(s)
                except PPMinerError as exc:
                    lost.append(str(exc))
                    return
                except sa.exc.SQLAlchemyError as exc:
                    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                    log.warning("could not refresh the %s lock's heartbeat: %s", self.name, first)

        thread = threading.Thread(target=beat, name=f"{self.name}-lock-heartbeat", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()
        if lost:
            raise PPMinerError(lost[0])

    def release(self) -> None:
        with self.store.write() as s:
            s.execute(sa.delete(JobLock).where(JobLock.name == self.name, JobLock.holder == self.holder))

    def __enter__(self) -> Lock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()
