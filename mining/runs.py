"""Acquisition-run records shared by the scrapers (Stack Exchange and GitHub): find the run to resume, open a new
one, mark how it ended, and close runs whose process died. A run's ``kind`` tells the scrapers apart; its
``params`` (never a secret) decide which later run resumes it."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from mining.db import Store
from mining.models import AcquisitionRun
from mining.store import utcnow

RESUMABLE = ("running", "interrupted", "quota", "failed")
ENDED = ("done", "failed", "quota", "interrupted")


def find_resumable(store: Store, kind: str, params: dict[str, Any]) -> AcquisitionRun | None:
    """The newest run of ``kind`` if it is unfinished and asked for exactly ``params``; an older unfinished one
    was superseded and is never resumed."""
    with store.read() as s:
        run = s.scalars(
            sa.select(AcquisitionRun)
            .where(AcquisitionRun.kind == kind)
            .order_by(AcquisitionRun.id.desc())
            .limit(1)
        ).first()
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
