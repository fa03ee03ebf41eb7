"""What every ppmine/pplabel command shares: --db/--config, lazy store and config, output formats, errors.

`labeling.cli` imports this too, so both programs behave the same way.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import click
from sqlalchemy.exc import SQLAlchemyError

from mining.config import StudyConfig, load_config
from mining.db import Store, open_store, resolve_url
from mining.errors import PPMinerError


@dataclass
class StudyContext:
    """The database and study config one command works on, opened on first use."""

    db_url: str | None = None
    config_path: str | None = None
    _store: Store | None = field(default=None, repr=False)
    _config: StudyConfig | None = field(default=None, repr=False)

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = open_store(self.db_url)
        return self._store

    @property
    def config(self) -> StudyConfig:
        if self._config is None:
            self._config = load_config(self.config_path)
        return self._config


def _db_option(func: Callable) -> Callable:
    return click.option(
        "--db",
        "db_url",
        envvar="PPMINER_DB",
        metavar="URL",
        help="Database URL (sqlite:///FILE or postgresql://...).  [env: PPMINER_DB; default: sqlite:///data/study.db]",
    )(func)


def study_options(func: Callable) -> Callable:
    """Add ``--db`` and ``--config`` to a command and hand it a :class:`StudyContext` as ``study``."""

    @click.option(
        "--config",
        "config_path",
        envvar="PPMINER_CONFIG",
        type=click.Path(dir_okay=False),
        help="Study config file.  [env: PPMINER_CONFIG; default: data/study.toml of ppminer]",
    )
    @_db_option
    @functools.wraps(func)
    def wrapper(*args, db_url=None, config_path=None, **kwargs):
        return func(*args, study=StudyContext(db_url, config_path), **kwargs)

    return wrapper


def db_options(func: Callable) -> Callable:
    """Add ``--db`` only (commands that read no study config) and hand the resolved URL as ``db_url``."""

    @_db_option
    @functools.wraps(func)
    def wrapper(*args, db_url=None, **kwargs):
        return func(*args, db_url=resolve_url(db_url), **kwargs)

    return wrapper


def format_option(*choices: str, default: str = "table") -> Callable:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(choices),
        default=default,
        show_default=True,
        help="Output format.",
    )


def emit_rows(
    rows: Sequence[dict[str, Any]], fmt: str, columns: Sequence[str] | None = None, title: str = ""
) -> None:
    """Print rows as a table (human), JSON array, or CSV."""
    columns = list(columns or (rows[0].keys() if rows else []))
    if fmt == "json":
        click.echo(json.dumps(list(rows), indent=2, default=str, ensure_ascii=False))
    elif fmt == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _csv_cell(row.get(k)) for k in columns})
        click.echo(buf.getvalue(), nl=False)
    else:
        from rich.console import Console
        from rich.table import Table

        from mining.text import terminal_safe

        table = Table(title=title or None, show_edge=False, header_style="bold")
        for col in columns:
            table.add_column(col)
        for row in rows:
            table.add_row(*(terminal_safe(_table_cell(row.get(c)), keep_newlines=False) for c in columns))
        Console(soft_wrap=False).print(table)


def _csv_cell(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return ";".join(str(v) for v in value)
    return value


def _table_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def run_cli(group: click.Group, prog: str) -> None:
    """Run a click group. Every failure is one line on stderr: exit 1 for errors (PPMinerError, database, files),
    2 for usage errors, 130 for Ctrl-C/SIGTERM (committed work kept). (A closed stdout pipe is click's: a quiet exit 1.)"""
    try:
        rv = group.main(prog_name=prog, standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except (click.exceptions.Abort, KeyboardInterrupt):  # click turns Ctrl-C into Abort
        click.echo(f"{prog}: interrupted; everything committed so far is kept", err=True)
        sys.exit(130)
    except PPMinerError as exc:
        click.echo(f"{prog}: error: {exc}", err=True)
        sys.exit(1)
    except SQLAlchemyError as exc:  # a lost connection, a lock held past the busy timeout, ...
        click.echo(f"{prog}: error: database: {_first_line(getattr(exc, 'orig', None) or exc)}", err=True)
        sys.exit(1)
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        click.echo(f"{prog}: error: {exc.strerror or _first_line(exc)}{where}", err=True)
        sys.exit(1)
    sys.exit(rv if isinstance(rv, int) else 0)


def _first_line(exc: object) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
