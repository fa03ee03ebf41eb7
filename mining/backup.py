"""A copy of the study database taken before a destructive schema change (``ppmine db downgrade``).

SQLite: the file is copied with SQLite's own backup API (a consistent copy even with a WAL and other readers),
beside the original. PostgreSQL: ``pg_dump --format=custom`` into the working directory when pg_dump is installed;
restore with ``pg_restore --clean -d URL FILE``.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import make_url

from core.db import Store, sqlite_path
from core.errors import PPMinerError


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


def can_back_up(store: Store) -> str | None:
    """None if :func:`back_up` can copy this database, else why not (one line)."""
    if store.is_sqlite:
        return None
    if store.engine.dialect.name == "postgresql" and shutil.which("pg_dump"):
        return None
    return f"no backup tool for {store.engine.dialect.name} (pg_dump is not installed)"


def back_up(store: Store, revision: str | None) -> Path:
    """Copy the database now; returns the backup's path. PPMinerError if the copy cannot be made (then nothing
    else should happen)."""
    label = f"{revision or 'base'}-{_stamp()}"
    if store.is_sqlite:
        source = sqlite_path(store.url)
        if source is None:
            raise PPMinerError("an in-memory database cannot be backed up")
        target = source.with_name(f"{source.name}.before-downgrade-{label}.bak")
        src, dst = sqlite3.connect(source), sqlite3.connect(target)
        try:
            src.backup(dst)
        except sqlite3.Error as exc:
            dst.close()
            target.unlink(missing_ok=True)
            raise PPMinerError(f"backup of {source} to {target} failed: {exc}") from None
        finally:
            src.close()
            dst.close()
        return target
    reason = can_back_up(store)
    if reason:
        raise PPMinerError(reason)
    url = make_url(store.url).set(drivername="postgresql")
    target = Path.cwd() / f"{url.database}.before-downgrade-{label}.dump"
    done = subprocess.run(
        ["pg_dump", "--format=custom", f"--file={target}", url.render_as_string(hide_password=False)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        target.unlink(missing_ok=True)
        detail = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise PPMinerError(f"pg_dump failed, nothing was changed: {detail}")
    return target
