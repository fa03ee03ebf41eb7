"""Issue 12, case 6: a `--db` typo never looks like an empty study, and `db downgrade` asks and backs up first."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest
import sqlalchemy as sa
from conftest import run_cli

from core.db import Store, current_revision, head_revision, open_store
from core.schema.mining import Question

AI_POSTS = "se_dumps/ai.stackexchange.com/Posts.xml"


def run(prog: str, *args: str, cwd=None, env=None, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    module = "mining.cli" if prog == "ppmine" else "labeling.cli"
    if stdin is subprocess.DEVNULL:  # in this process; a terminal on stdin needs a real one
        return run_cli(module, *args, check=False, cwd=cwd or os.getcwd(), env=env)
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        stdin=stdin,
        timeout=300,
    )


@pytest.mark.parametrize(
    "command",
    [
        ("ppmine", "stats"),
        ("ppmine", "candidates"),
        ("ppmine", "explain", "ai:136"),
        ("ppmine", "db", "current"),
        ("pplabel", "agreement"),
        ("pplabel", "export", "--format", "identification", "out.csv"),
    ],
    ids=lambda c: " ".join(c[:2]),
)
@pytest.mark.parametrize("db", ["x.db", "sqlite:///no_such_dir/x.db"])
def test_read_only_commands_refuse_a_database_that_does_not_exist(tmp_path, command, db):
    res = run(*command, "--db", db, cwd=tmp_path)
    assert res.returncode == 1 and res.stdout == ""
    assert res.stderr.count("\n") == 1, res.stderr
    assert res.stderr.startswith(f"{command[0]}: error: cannot open database sqlite:///")
    assert "does not exist (check --db;" in res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no file, no folder


def test_commands_that_acquire_data_say_once_that_they_created_the_database(tmp_path, fixtures, published):
    posts = str(fixtures / AI_POSTS)
    res = run("ppmine", "import-dump", posts, "--tag", "definitions", "--db", "new.db", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stderr == "ppmine: created a new study database new.db\n"
    again = run("ppmine", "import-dump", posts, "--tag", "definitions", "--db", "new.db", cwd=tmp_path)
    assert again.returncode == 0 and again.stderr == ""
    # ... never its folder
    res = run("ppmine", "import-dump", posts, "--db", "sqlite:///no_such_dir/x.db", cwd=tmp_path)
    assert res.returncode == 1 and res.stderr.count("\n") == 1
    assert "folder no_such_dir does not exist (create it first, or check --db)" in res.stderr
    assert not (tmp_path / "no_such_dir").exists()
    ident = str(published / "kappa_identification.csv")
    res = run("pplabel", "import", "--format", "identification", ident, "--db", "labels.db", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stderr == "pplabel: created a new study database labels.db\n"
    res = run("ppmine", "db", "upgrade", "--db", "sqlite:///fresh.db", cwd=tmp_path)
    assert res.returncode == 0 and res.stderr == "ppmine: created a new study database fresh.db\n"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [
        "fresh.db", "labels.db", "new.db"]  # fmt: skip


def _study(url: str, fixtures) -> int:
    """A database holding the ai.stackexchange questions tagged 'definitions'; how many there are."""
    from mining.dump.importer import DumpImport
    from mining.dump.rows import DumpFilter

    store = open_store(url)
    DumpImport(store, str(fixtures / AI_POSTS), filt=DumpFilter(frozenset({"definitions"})), site="ai",
               progress=False).run()  # fmt: skip
    with store.read() as s:
        return s.scalar(sa.select(sa.func.count()).select_from(Question))


def test_downgrade_asks_and_backs_a_sqlite_file_up_first(tmp_path, fixtures):
    db = tmp_path / "study.db"
    url = f"sqlite:///{db}"
    questions = _study(url, fixtures)
    assert questions > 0
    # Not from a terminal: refused, pointing at --yes; nothing changes.
    res = run("ppmine", "db", "downgrade", "base", "--db", url)
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert (
        "drops every table: ALL DATA IS LOST; it asks first: run it in a terminal, or pass --yes"
        in res.stderr
    )
    # From a terminal, answering no: nothing changes either.
    master, slave = os.openpty()
    try:
        os.write(master, b"n\n")
        res = run("ppmine", "db", "downgrade", "base", "--db", url, stdin=slave)
    finally:
        os.close(master)
        os.close(slave)
    assert res.returncode == 1 and res.stderr.endswith("ppmine: nothing changed\n")
    assert "Back up and continue?" in res.stdout
    assert current_revision(Store(url).engine) == head_revision()
    assert [p.name for p in tmp_path.iterdir() if ".bak" in p.name] == []
    # --yes: the backup is made first and named; then the tables go.
    res = run("ppmine", "db", "downgrade", "base", "--yes", "--db", url)
    assert res.returncode == 0, res.stderr
    first = res.stdout.splitlines()[0]
    assert first.startswith(f"backup: {db}.before-downgrade-{head_revision()}-")
    backup = first.removeprefix("backup: ")
    with sqlite3.connect(backup) as copy:
        assert copy.execute("SELECT count(*) FROM questions").fetchone() == (questions,)
        assert copy.execute("SELECT version_num FROM alembic_version").fetchone() == (head_revision(),)
    assert current_revision(Store(url).engine) is None
    assert set(sa.inspect(Store(url).engine).get_table_names()) <= {"alembic_version"}


def test_downgrade_on_postgresql_dumps_with_pg_dump_or_needs_yes(pg_url, fixtures, tmp_path):
    _study(pg_url, fixtures)
    # Without pg_dump on the PATH: refused unless --yes (then said plainly that no backup was made).
    bare = {**os.environ, "PATH": str(tmp_path / "nothing-here")}
    res = run("ppmine", "db", "downgrade", "0008", "--db", pg_url, env=bare)
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "pg_dump is not installed): back it up yourself, then run again with --yes" in res.stderr
    assert current_revision(Store(pg_url).engine) == head_revision()
    if not any(os.access(os.path.join(d, "pg_dump"), os.X_OK) for d in os.environ["PATH"].split(os.pathsep)):
        pytest.skip("pg_dump is not installed here")
    res = run("ppmine", "db", "downgrade", "0008", "--yes", "--db", pg_url, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    name = sa.engine.make_url(pg_url).database
    first = res.stdout.splitlines()[0]
    assert first.startswith(
        f"backup: {tmp_path / name}.before-downgrade-{head_revision()}-"
    ) and first.endswith(".dump")
    listing = subprocess.run(
        ["pg_restore", "--list", first.removeprefix("backup: ")], capture_output=True, text=True
    )
    assert listing.returncode == 0 and "TABLE DATA public questions" in listing.stdout
    assert current_revision(Store(pg_url).engine) == "0008"
