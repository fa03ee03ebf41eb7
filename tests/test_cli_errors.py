"""Failures end as one line on stderr and a meaningful exit status, never a traceback."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from mining.db import open_store


def ppmine(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mining.cli", *args], capture_output=True, text=True, **kw)


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
    out = ppmine("stats", "--db", sqlite_url)
    assert out.returncode == 1
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
