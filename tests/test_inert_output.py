"""Post text reaches a terminal inert in every output (issue 12, case 5); files and pipes keep it exact."""

from __future__ import annotations

import csv
import io
import json
import os
import pty
import sqlite3
import subprocess
import sys

import pytest
from conftest import PROJECT, run_cli

HOSTILE = "Slow \x1b]0;PWNED\x07\x1b[31mred training\x9b2J"


def on_terminal(module: str, *args: str) -> tuple[str, str, int]:
    """Run a command with its stdout on a pseudo-terminal (as a user at a shell would); (stdout, stderr, rc)."""
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(PROJECT), "COLUMNS": "250", "TERM": "xterm"}
    proc = subprocess.Popen(
        [sys.executable, "-m", module, *args], stdout=slave, stderr=subprocess.PIPE, env=env, cwd=PROJECT
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    return b"".join(chunks).decode("utf-8", "replace"), err, proc.returncode


@pytest.fixture
def hostile_study(ai_study):
    """The ai.stackexchange study matched without filters, one candidate's title carrying terminal escapes."""
    run_cli("mining.cli", "match", "--no-filters", "--db", ai_study)
    out = run_cli("mining.cli", "candidates", "--format", "json", "--db", ai_study)
    post = json.loads(out.stdout)[0]["post_id"]
    with sqlite3.connect(ai_study.removeprefix("sqlite:///")) as conn:
        conn.execute("UPDATE questions SET title = ? WHERE id = ?", (HOSTILE, post))
    return ai_study, post


def assert_inert(text: str) -> None:
    """None of the post's own control sequences reached the terminal (rich's table styling may)."""
    for raw in ("\x1b]", "\x07", "\x1b[31m", "\x9b", "\x1b[2J"):
        assert raw not in text, repr(text[:300])


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_candidates_on_a_terminal_show_escapes_inert(hostile_study, fmt):
    db, _ = hostile_study
    out, err, rc = on_terminal("mining.cli", "candidates", "--format", fmt, "--db", db)
    assert rc == 0, err
    assert_inert(out)
    assert "PWNED" in out and "red training" in out  # visible as text, not swallowed


def test_csv_and_json_to_a_pipe_keep_the_text_exact(hostile_study):
    db, post = hostile_study
    rows = list(
        csv.DictReader(io.StringIO(run_cli("mining.cli", "candidates", "--format", "csv", "--db", db).stdout))
    )
    assert {r["post_id"]: r["title"] for r in rows}[str(post)] == HOSTILE
    data = json.loads(run_cli("mining.cli", "candidates", "--format", "json", "--db", db).stdout)
    assert {r["post_id"]: r["title"] for r in data}[post] == HOSTILE


def test_explain_and_errors_are_inert(hostile_study, tmp_path):
    db, post = hostile_study
    out, err, rc = on_terminal("mining.cli", "explain", f"ai:{post}", "--db", db)
    assert rc == 0, err
    assert_inert(out)
    assert "␛]0;PWNED" in out
    missing = tmp_path / "kw\x1b[31m.txt"
    result = run_cli("mining.cli", "match", "--keywords", str(missing), "--db", db, check=False)
    assert result.returncode != 0
    assert_inert(result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1


def test_import_summary_and_agreement_json_show_rater_names_inert(ai_study, tmp_path):
    ident = tmp_path / "ident.csv"
    ident.write_text("_id,isPB_ann\x1b[2J,isPB_bob\n1,1,0\n2,0,0\n")
    out, err, rc = on_terminal(
        "labeling.cli", "import", "--format", "identification", str(ident), "--db", ai_study
    )
    assert rc == 0, err
    assert_inert(out)
    out, err, rc = on_terminal("labeling.cli", "agreement", "--format", "json", "--db", ai_study)
    assert rc == 0, err
    assert_inert(out)
    assert "ann" in out and "[2J" in out
