"""Shared fixtures: real SQLite files and a real PostgreSQL server, and the read-only ../shared materials.

PostgreSQL tests use the server named by PPMINER_TEST_PG_URL (an admin URL; each test gets a database of its
own). Without it they skip, except in CI (CI=true), where a missing server is a failure; a named server that
cannot be reached is always a failure.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

from mining.db import make_engine, open_store

PROJECT = Path(__file__).resolve().parent.parent
SHARED = PROJECT.parent / "shared"
PG_ENV = "PPMINER_TEST_PG_URL"


@pytest.fixture(scope="session")
def shared() -> Path:
    """The read-only study materials beside the checkout."""
    if not SHARED.is_dir():
        pytest.fail(f"{SHARED} is missing: the tests read the study materials from ../shared")
    return SHARED


def _pg_admin_url() -> str | None:
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {PG_ENV} is not set: .ci/run must start PostgreSQL")
        pytest.skip(f"no PostgreSQL server: set {PG_ENV} to run the PostgreSQL tests")
    return url.replace("postgresql://", "postgresql+psycopg://", 1)


@pytest.fixture
def pg_url():
    """URL of a fresh, empty PostgreSQL database, dropped after the test."""
    admin_url = _pg_admin_url()
    name = f"ppminer_test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    except sa.exc.OperationalError as exc:  # a server was named: not reaching it is a failure, not a skip
        pytest.fail(f"PostgreSQL at {PG_ENV} is not reachable: {exc.orig}")
    url = sa.engine.make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    yield url
    make_engine(url).dispose()
    make_engine.cache_clear()
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.dispose()


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'study.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    """Runs the test once on a SQLite file and once on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'study.db'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def store(db_url):
    """An upgraded study database on each backend."""
    return open_store(db_url)


@pytest.fixture
def sqlite_store(sqlite_url):
    return open_store(sqlite_url)
