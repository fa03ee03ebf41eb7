"""Shared fixtures: real SQLite files, a real PostgreSQL server, the real test material and the published data.

PostgreSQL tests use the server named by PPMINER_TEST_PG_URL (an admin URL; each test gets a database of its
own). Without it they skip, except in CI (CI=true), where a missing server is a failure; a named server that
cannot be reached is always a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

from core.db import make_engine, open_store

PROJECT = Path(__file__).resolve().parent.parent
FIXTURES = PROJECT / "tests" / "fixtures"
PUBLISHED = PROJECT / "data" / "published"
PG_ENV = "PPMINER_TEST_PG_URL"

# Checker fixtures are code to read, never to run: a project fixture may hold a `test_*.py` script (the
# checker counts names in test scripts), which pytest must not collect and import.
collect_ignore_glob = ["torch_cases/*", "fixtures/*"]


@pytest.fixture(scope="session")
def fixtures() -> Path:
    """Real material copied into the project for the tests (see tests/fixtures/*/PROVENANCE.md)."""
    return FIXTURES


@pytest.fixture(scope="session")
def published() -> Path:
    """The study's published data, shipped with ppminer (data/published/PROVENANCE.md)."""
    return PUBLISHED


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


# -- a small real study: the ai.stackexchange dump imported once per session (SQLite), copied per test ----------


PROGS = {"mining.cli": "ppmine", "labeling.cli": "pplabel", "ppbench.cli": "ppbench"}


def run_cli(
    module: str,
    *args: str,
    check: bool = True,
    env: dict | None = None,
    input=None,
    cwd=None,
    text: bool = True,
    **_ignored,
) -> subprocess.CompletedProcess:
    """Run a command line of ppmine (module mining.cli), pplabel (labeling.cli) or ppbench (ppbench.cli) IN THIS
    PROCESS, through the same entry point as the console script (exit codes, one-line errors), with click's
    CliRunner isolating stdin/stdout/stderr and the environment (``env``: variables to set; None removes one).

    It returns what :func:`run_process` does, without paying a new interpreter's imports (~1.3 s). Use
    run_process where a real process is the point: signals, kill -9, a terminal, memory, stdin from a pipe.
    The working directory is the checkout (as for run_process) unless ``cwd`` says otherwise; ``text=False``
    gives stdout and stderr as bytes."""
    import importlib
    import logging
    import signal
    import traceback

    from click.testing import CliRunner

    main = importlib.import_module(module).main
    env = {
        "COLUMNS": "80",
        **(env or {}),
    }  # help text wraps as in a pipe, whatever the terminal running pytest
    logger = logging.getLogger("ppminer")
    handlers, sigterm, old_cwd, old_argv = (
        list(logger.handlers),
        signal.getsignal(signal.SIGTERM),
        os.getcwd(),
        sys.argv,
    )
    runner = CliRunner()
    code = 0
    try:
        os.chdir(cwd or PROJECT)
        with runner.isolation(input=input, env=env) as (out, err, _):
            sys.argv = [PROGS[module], *args]
            try:
                main()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except Exception:  # a bug, not a handled error: a real process would print it and exit 1
                sys.stderr.write(traceback.format_exc())
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
            stdout, stderr = out.getvalue(), err.getvalue()
    finally:
        os.chdir(old_cwd)
        sys.argv = old_argv
        for handler in set(logger.handlers) - set(handlers):  # what `ppmine run --log-file` added
            logger.removeHandler(handler)
            handler.close()
        signal.signal(signal.SIGTERM, sigterm)
    if text:
        stdout, stderr = stdout.decode(), stderr.decode()
    done = subprocess.CompletedProcess([PROGS[module], *args], code, stdout, stderr)
    if check and code != 0:
        raise AssertionError(f"{module} {' '.join(args)} exited {code}: {stderr!s}")
    return done


def run_process(module: str, *args: str, check: bool = True, **kw) -> subprocess.CompletedProcess:
    """Run `python -m module args` as a real process in this checkout (``env``: variables added)."""
    env = {**os.environ, "PYTHONPATH": str(PROJECT), **kw.pop("env", {})}
    out = subprocess.run(
        [sys.executable, "-m", module, *args], capture_output=True, text=True, env=env, cwd=PROJECT, **kw
    )
    if check and out.returncode != 0:
        raise AssertionError(f"{module} {' '.join(args)} exited {out.returncode}: {out.stderr}")
    return out


@pytest.fixture(scope="session")
def ai_dump_db(tmp_path_factory) -> Path:
    """The ai.stackexchange dump (tests/fixtures/se_dumps) imported with its comments into a SQLite file."""
    path = tmp_path_factory.mktemp("ai_dump") / "ai.db"
    dump = FIXTURES / "se_dumps" / "ai.stackexchange.com"
    run_cli(
        "mining.cli", "import-dump", str(dump / "Posts.xml"), "--comments", str(dump / "Comments.xml"),
        "--site", "ai", "--all-questions", "--db", f"sqlite:///{path}",
    )  # fmt: skip
    return path


@pytest.fixture
def ai_study(ai_dump_db, tmp_path) -> str:
    """A fresh copy of the imported ai.stackexchange dump: its SQLite URL."""
    import shutil

    copy = tmp_path / "ai.db"
    shutil.copyfile(ai_dump_db, copy)
    return f"sqlite:///{copy}"


@pytest.fixture(scope="session")
def tensorflow_installed() -> None:
    """Tests that run TensorFlow (the `bench` extra): skipped without it, except in CI (CI=true), where a missing
    TensorFlow is a failure (.ci/run installs `.[dev,bench]`)."""
    import importlib.util

    if importlib.util.find_spec("tensorflow") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but TensorFlow is not installed: .ci/run must install the bench extra")
        pytest.skip("TensorFlow not installed: pip install -e '.[bench]' to run the TensorFlow tests")


@pytest.fixture(scope="session")
def torch_installed() -> None:
    """Tests that run PyTorch (the `bench-torch` extra): skipped without it, a failure in CI (CI=true)."""
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but PyTorch is not installed: .ci/run must install the bench-torch extra")
        pytest.skip("PyTorch not installed: pip install -e '.[bench-torch]' to run the PyTorch tests")
