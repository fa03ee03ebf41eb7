"""Database URL, engines, sessions and schema upgrades.

SQLite: WAL journal and a busy timeout so a labeling session and the scheduled job can share one file. Writes
open with ``BEGIN IMMEDIATE``: a deferred transaction that later wants to write can fail at once with "database is
locked" while another writer holds the file, whereas an immediate one waits its turn. Reads stay deferred, so a
long labeling session never blocks the scraper.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, InterfaceError, NoSuchModuleError, OperationalError
from sqlalchemy.orm import Session

from mining.errors import PPMinerError

DEFAULT_URL = "sqlite:///data/study.db"
ENV_URL = "PPMINER_DB"
BUSY_TIMEOUT_MS = 60_000
PROJECT_ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS_DIR = PROJECT_ROOT / "migrations"


def resolve_url(url: str | None = None) -> str:
    """``--db`` beats ``PPMINER_DB`` beats the default; a bare path means a SQLite file."""
    url = url or os.environ.get(ENV_URL) or DEFAULT_URL
    if "://" not in url:
        url = f"sqlite:///{url}"
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
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

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        mode = "IMMEDIATE" if conn.get_execution_options().get("ppminer_write") else "DEFERRED"
        conn.exec_driver_sql(f"BEGIN {mode}")


@cache
def make_engine(url: str) -> Engine:
    """One engine per URL per process. Creates the folder of a SQLite file."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        db = parsed.database
        if db and db != ":memory:" and not db.startswith("file:"):
            Path(db).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
        _install_sqlite_hooks(engine)
        return engine
    return create_engine(url, pool_pre_ping=True)


@dataclass
class Store:
    """The study database: an engine plus read and write sessions."""

    url: str
    engine: Engine = field(init=False)

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
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(DEFAULT_URL)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(store: Store, revision: str = "head") -> None:
    """Apply migrations up to ``revision`` in one transaction, serialised against other processes."""
    from alembic import command

    cfg = alembic_config(store.url)
    with store.write_engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(7351001)"))
        cfg.attributes["connection"] = conn
        cfg.attributes["migrate_only"] = True
        command.upgrade(cfg, revision)


def downgrade(store: Store, revision: str) -> None:
    from alembic import command

    cfg = alembic_config(store.url)
    with store.write_engine.begin() as conn:
        cfg.attributes["connection"] = conn
        cfg.attributes["migrate_only"] = True
        command.downgrade(cfg, revision)


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


def open_store(url: str | None = None, *, upgrade_schema: bool = True) -> Store:
    """Open the study database, bringing a fresh or older schema up to date first."""
    resolved = resolve_url(url)
    with database_errors(resolved):
        store = Store(resolved)
        if upgrade_schema and current_revision(store.engine) != head_revision():
            upgrade(store)
    return store
