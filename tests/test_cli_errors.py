"""Failures end as one line on stderr and a meaningful exit status, never a traceback."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest
from conftest import run_cli, run_process

from core.db import open_store


def ppmine(*args: str, **kw) -> subprocess.CompletedProcess:
    return run_cli("mining.cli", *args, check=False, **kw)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        (
            "mysql://nobody@localhost/none",
            "ppmine: error: cannot open database mysql://nobody@localhost/none: ",
        ),
        (
            "sqlite:////proc/no-such-dir/study.db",
            "ppmine: error: cannot open database sqlite:////proc/no-such-dir",
        ),
    ],
)
@pytest.mark.parametrize("command", [["stats"], ["db", "upgrade"], ["db", "current"]])
def test_unusable_database_is_one_line(url, message, command):
    out = ppmine(*command, "--db", url)
    assert out.returncode == 1
    assert out.stderr.startswith(message), out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_database_failure_after_opening_is_one_line(sqlite_url):
    open_store(sqlite_url)
    with sqlite3.connect(sqlite_url.removeprefix("sqlite:///")) as conn:
        conn.execute("DROP TABLE comments")  # a damaged database the schema version cannot see
    for out in (
        ppmine("stats", "--db", sqlite_url),
        run_process("mining.cli", "stats", "--db", sqlite_url, check=False),
    ):
        assert out.returncode == 1  # in a real process too
        assert out.stderr == "ppmine: error: database: no such table: comments\n"


def test_reader_closing_the_pipe_ends_quietly(sqlite_url):
    open_store(sqlite_url)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mining.cli", "stats", "--format", "json", "--db", sqlite_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.close()  # like `| head -c0`: gone before anything is written
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1  # click's convention for EPIPE: quiet, non-zero
    assert err == b""


def test_config_option_is_refused_where_it_means_nothing():
    out = ppmine("db", "current", "--config", "x.toml")
    assert out.returncode == 2 and "No such option '--config'" in out.stderr


def pplabel(*args: str, **kw) -> subprocess.CompletedProcess:
    return run_cli("labeling.cli", *args, check=False, **kw)


@pytest.mark.parametrize("url", ["mysql://nobody@localhost/none", "oracle+cx://u:pw@h/db"])
def test_an_unsupported_database_names_the_supported_ones(url):
    out = ppmine("stats", "--db", url)
    assert out.returncode == 1
    backend = url.split("://")[0].split("+")[0]
    assert out.stderr.endswith(
        f": {backend} is not supported; use sqlite:///FILE or postgresql://USER@HOST/DBNAME\n"
    )
    assert "pw" not in out.stderr and "No module" not in out.stderr and len(out.stderr.splitlines()) == 1


def test_a_read_only_database_is_named(sqlite_url, published):
    path = sqlite_url.removeprefix("sqlite:///")
    open_store(sqlite_url)
    read_only = f"sqlite:///file:{path}?mode=ro&uri=true"  # a real read-only connection (root ignores chmod)
    assert ppmine("stats", "--db", read_only).returncode == 0  # reading is fine
    out = pplabel("import", "--format", "study", str(published / "empirical_study.csv"), "--db", read_only)
    assert out.returncode == 1
    assert out.stderr == (
        f"pplabel: error: database: {path}: the database is read-only for you (attempt to write a readonly "
        "database): make the file and its folder writable\n"
    )
