"""Database URL, engines, sessions and schema upgrades.

SQLite: WAL journal and a busy timeout so a labeling session and the scheduled job can share one file. Writes
open with ``BEGIN IMMEDIATE``: a deferred transaction that later wants to write can fail at once with "database is
locked" while another writer holds the file, whereas an immediate one waits its turn. Reads stay deferred, so a
long labeling session never blocks the scraper.
"""

from __future__ import annotations

import ast
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, InterfaceError, NoSuchModuleError, OperationalError
from sqlalchemy.orm import Session

from core.errors import PPMinerError
from core.paths import PROJECT_ROOT

DEFAULT_URL = "sqlite:///data/study.db"
ENV_URL = "PPMINER_DB"
BUSY_TIMEOUT_MS = 60_000
MIGRATIONS_DIR = PROJECT_ROOT / "migrations"
SUPPORTED_BACKENDS = ("sqlite", "postgresql")


def resolve_url(url: str | None = None) -> str:
    """``--db`` beats ``PPMINER_DB`` beats the default; a bare path means a SQLite file."""
    url = url or os.environ.get(ENV_URL) or DEFAULT_URL
    if "://" not in url:
        url = f"sqlite:///{url}"
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    backend = url.split("://", 1)[0].split("+", 1)[0]
    if backend not in SUPPORTED_BACKENDS:
        raise PPMinerError(
            f"cannot open database {redact(url)}: {backend} is not supported; use sqlite:///FILE or "
            "postgresql://USER@HOST/DBNAME"
        )
    return url


def redact(url: str) -> str:
    """The URL with any password hidden, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - a message must never fail
        return "<database URL>"


def _install_sqlite_hooks(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):
        # Let SQLAlchemy's "begin" event below decide how transactions start.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.close()

    @event.listens_for(engine, "handle_error")
    def _name_read_only_file(context):
        # SQLite says "attempt to write a readonly database" without saying which: name the file and the fix.
        orig = context.original_exception
        if isinstance(orig, sqlite3.OperationalError) and "readonly database" in str(orig):
            path = (context.engine.url.database or "").removeprefix("file:")
            raise OperationalError(
                context.statement,
                context.parameters,
                sqlite3.OperationalError(
                    f"{path}: the database is read-only for you ({orig}): make the file and its folder writable"
                ),
            ) from orig

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        mode = "IMMEDIATE" if conn.get_execution_options().get("ppminer_write") else "DEFERRED"
        conn.exec_driver_sql(f"BEGIN {mode}")


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for another backend or an in-memory database)."""
    parsed = make_url(url)
    db = parsed.database
    if parsed.get_backend_name() != "sqlite" or not db or db == ":memory:" or db.startswith("file:"):
        return None
    return Path(db)


@cache
def make_engine(url: str) -> Engine:
    """One engine per URL per process. A SQLite file's folder must exist (a typo in --db creates no folders)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
        _install_sqlite_hooks(engine)
        return engine
    return create_engine(url, pool_pre_ping=True)


@dataclass
class Store:
    """The study database: an engine plus read and write sessions."""

    url: str
    engine: Engine = field(init=False)
    created: bool = field(default=False, init=False)  # open_store made the SQLite file just now

    @property
    def sqlite_path(self) -> Path | None:
        return sqlite_path(self.url)

    def __post_init__(self) -> None:
        self.engine = make_engine(self.url)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @property
    def write_engine(self) -> Engine:
        return self.engine.execution_options(ppminer_write=True)

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session for reading; nothing it does is committed."""
        with Session(self.engine, expire_on_commit=False) as session:
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        with Session(self.write_engine, expire_on_commit=False) as session, session.begin():
            yield session

    def settle(self) -> None:
        """Leave everything committed in the database file itself and close the pooled connections.

        SQLite in WAL mode keeps recent commits in the ``-wal`` file until a checkpoint copies them in; a process
        that keeps its engine open (a cron job, a CLI run in-process) may leave them there, where a plain copy of
        the database file misses them. One full checkpoint copies them in, and closing the pool drops any
        per-connection setting a caller raised (such as ``wal_autocheckpoint``). A no-op on other databases."""
        if not self.is_sqlite:
            return
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        self.engine.dispose()

    def session(self) -> Session:
        """A long-lived session for interactive use (labeling): call ``begin()``/``commit()`` yourself.

        On SQLite its transactions start IMMEDIATE, so every commit it makes waits for other writers.
        """
        return Session(self.write_engine, expire_on_commit=False)


def alembic_config(url: str):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str | None:
    """The newest migration: the revision no other migration names as its ``down_revision``.

    Every command asks this on opening the database, so it reads the two assignments from the migration files
    rather than loading alembic's script directory (which imports alembic and every migration). Anything but a
    single head is left to alembic to report."""
    revisions, downs = set(), set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        values = _module_constants(path, ("revision", "down_revision"))
        revisions.add(values.get("revision"))
        down = values.get("down_revision")
        downs.update(down if isinstance(down, tuple | list) else (down,))
    heads = revisions - downs - {None}
    if len(heads) == 1 and None not in revisions:
        return heads.pop()
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(DEFAULT_URL)).get_current_head()


def _module_constants(path: Path, names: tuple[str, ...]) -> dict:
    """Module-level ``NAME = <literal>`` (or ``NAME: T = <literal>``) assignments of a Python file."""
    out = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        target = node.target if isinstance(node, ast.AnnAssign) else target
        if isinstance(target, ast.Name) and target.id in names and node.value is not None:
            try:
                out[target.id] = ast.literal_eval(node.value)
            except ValueError:
                continue
    return out


def current_revision(engine: Engine) -> str | None:
    """The schema revision alembic stamped (None on an empty database). Read with one query rather than
    through alembic's migration context, whose import is a good part of a command's start."""
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one_or_none()


@contextmanager
def _migration(store: Store) -> Iterator[Connection]:
    """One transaction for a schema change, serialised against other processes.

    SQLite changes a table's keys by rebuilding it, and dropping the old table would cascade into every table that
    points at it: foreign keys are off for the migration (the pragma only works outside a transaction), every key is
    checked before the commit, and they are on again afterwards.
    """
    with store.write_engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        raw = conn.connection.driver_connection if sqlite else None
        if sqlite:
            raw.execute("PRAGMA foreign_keys = OFF")
        try:
            with conn.begin():
                if not sqlite:
                    conn.execute(text("SELECT pg_advisory_xact_lock(7351001)"))
                yield conn
                if sqlite:
                    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        table, rowid, parent, _ = broken[0]
                        raise PPMinerError(
                            f"migration left {len(broken)} rows pointing at missing rows "
                            f"(first: {table} row {rowid} -> {parent}); nothing was changed"
                        )
        finally:
            if sqlite:
                raw.execute("PRAGMA foreign_keys = ON")


def upgrade(store: Store, revision: str = "head") -> None:
    """Apply migrations up to ``revision`` in one transaction, serialised against other processes."""
    from alembic import command

    cfg = alembic_config(store.url)
    with _migration(store) as conn:
        cfg.attributes["connection"] = conn
        cfg.attributes["migrate_only"] = True
        command.upgrade(cfg, revision)


def downgrade(store: Store, revision: str) -> None:
    """Revert migrations down to ``revision`` in one transaction. A migration that refuses (e.g. 0004 while one
    post id is stored for two sites) or an unknown revision is a PPMinerError; nothing is changed then."""
    from alembic import command
    from alembic.util import CommandError

    cfg = alembic_config(store.url)
    try:
        with _migration(store) as conn:
            cfg.attributes["connection"] = conn
            cfg.attributes["migrate_only"] = True
            command.downgrade(cfg, revision)
    except (CommandError, RuntimeError) as exc:
        raise PPMinerError(f"downgrade to {revision}: {exc}") from None


@contextmanager
def database_errors(url: str) -> Iterator[None]:
    """Turn driver failures (refused connection, unreadable file, ...) into one-line PPMinerErrors."""
    try:
        yield
    except PPMinerError:
        raise
    except (OperationalError, InterfaceError, NoSuchModuleError, ArgumentError, ImportError, OSError) as exc:
        detail = str(getattr(exc, "orig", None) or exc).strip()
        first = detail.splitlines()[0] if detail else type(exc).__name__
        raise PPMinerError(f"cannot open database {redact(url)}: {first}") from exc


def check_exists(url: str, create: bool) -> bool:
    """Whether ``url`` names a SQLite file that is still to be made. A missing file is refused unless ``create``
    (a typo in --db must not look like an empty study); a missing folder always is."""
    path = sqlite_path(url)
    if path is None or path.exists():
        return False
    if not create:
        raise PPMinerError(
            f"cannot open database {redact(url)}: {path} does not exist (check --db; "
            "`ppmine import-dump`, `ppmine scrape` or `pplabel import` create a new one)"
        )
    if not path.parent.is_dir():
        raise PPMinerError(
            f"cannot open database {redact(url)}: folder {path.parent} does not exist (create it first, or check --db)"
        )
    return True


def open_store(url: str | None = None, *, upgrade_schema: bool = True, create: bool = True) -> Store:
    """Open the study database, bringing a fresh or older schema up to date first. ``create=False`` refuses a
    SQLite file that does not exist; ``store.created`` tells whether this call made it."""
    resolved = resolve_url(url)
    with database_errors(resolved):
        created = check_exists(resolved, create)
        store = Store(resolved)
        if upgrade_schema and current_revision(store.engine) != head_revision():
            upgrade(store)
    store.created = created
    return store
