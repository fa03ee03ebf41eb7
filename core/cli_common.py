"""What every ppmine/pplabel/ppbench command shares: the options named on several commands (--db, --config,
--rater, --hints, --tag/--from/--to, --format), the lazily opened store and config, output formats, errors.

Every CLI imports this module before it can print ``--help``, so it loads no SQLAlchemy: the database modules
are imported when a command first opens the database.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import click

from core.config import StudyConfig, load_config
from core.errors import PPMinerError

if TYPE_CHECKING:
    from core.db import Store


@dataclass
class StudyContext:
    """The database and study config one command works on, opened on first use."""

    db_url: str | None = None
    config_path: str | None = None
    _store: Store | None = field(default=None, repr=False)
    _config: StudyConfig | None = field(default=None, repr=False)
    #: Commands that acquire data set this: a missing SQLite file is then created (and said so) instead of refused.
    creates_database: bool = False

    @property
    def store(self) -> Store:
        if self._store is None:
            from core.db import open_store

            self._store = open_store(self.db_url, create=self.creates_database)
            if self._store.created:
                say_created(self._store)
        return self._store

    @property
    def config(self) -> StudyConfig:
        if self._config is None:
            self._config = load_config(self.config_path)
        return self._config


def say_created(store: Store) -> None:
    """The one line a command prints when it made a new database file."""
    prog = click.get_current_context(silent=True)
    name = prog.find_root().info_name if prog is not None else "ppmine"
    click.echo(f"{name}: created a new study database {store.sqlite_path}", err=True)


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
        from core.db import resolve_url

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


RATER_HELP = 'Your rater name (any case or spacing: "Ann " is ann); registered with your first decision.'


def rater_option(help: str = RATER_HELP, *, multiple: bool = False) -> Callable:
    """``--rater NAME``: required and handed as ``rater``, or with ``multiple`` optional, repeatable and handed
    as ``raters``."""
    if multiple:
        return click.option("--rater", "raters", multiple=True, metavar="NAME", help=help)
    return click.option("--rater", required=True, metavar="NAME", help=help)


def hints_option(func: Callable) -> Callable:
    """``--hints``: show ppcheck's findings beside a post while labelling."""
    return click.option(
        "--hints",
        is_flag=True,
        help="Show ppcheck's findings on the post's code (from `ppmine check`); off by default, hints may bias "
        "raters.",
    )(func)


DAY = click.DateTime(["%Y-%m-%d"])


def question_filter_options(until: str = "no limit") -> Callable:
    """``--tag``/``--from``/``--to``: which questions, by tag and creation date (handed as ``tags``,
    ``date_from``, ``date_to``; each defaults to the study config's, and ``--to`` without one to ``until``).
    Refuses --from after --to."""

    def decorate(func: Callable) -> Callable:
        @click.option(
            "--tag",
            "tags",
            metavar="TAG",
            multiple=True,
            help="Questions carrying TAG (repeat, or a,b: any of them).  [default: config's [study] tags]",
        )
        @click.option(
            "--from",
            "date_from",
            metavar="DATE",
            type=DAY,
            help="Questions created on/after DATE.  [default: config's [study] from, else no limit]",
        )
        @click.option(
            "--to",
            "date_to",
            metavar="DATE",
            type=DAY,
            help=f"Questions created on/before DATE.  [default: config's [study] to, else {until}]",
        )
        @functools.wraps(func)
        def wrapper(*args, date_from=None, date_to=None, **kwargs):
            check_window(date_from, date_to)
            return func(*args, date_from=date_from, date_to=date_to, **kwargs)

        return wrapper

    return decorate


def check_window(date_from: datetime | None, date_to: datetime | None) -> None:
    """The one check of a creation-date window, from the flags or the config: a usage error naming both."""
    if date_from and date_to and date_from > date_to:
        raise click.BadParameter(
            f"{date_from:%Y-%m-%d} is after --to {date_to:%Y-%m-%d}", param_hint="'--from'"
        )


def stdout_is_terminal() -> bool:
    """Whether standard output is a terminal (then post text must be shown inert, whatever the format)."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed or replaced stream
        return False


def say(text: str, err: bool = False) -> None:
    """Print a human line (summaries, warnings): any text from posts, files or names in it is made inert."""
    from core.text import terminal_safe

    click.echo(terminal_safe(text), err=err)


def say_wrapped(text: str) -> None:
    """Print a human paragraph (a summary under a table) wrapped between words to the terminal's width (80 off a
    terminal), continuation lines indented."""
    import shutil
    import textwrap

    width = shutil.get_terminal_size((80, 24)).columns
    say(textwrap.fill(text, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False))


def echo_data(text: str) -> None:
    """Print machine output (CSV, JSON): exact when it goes to a file or pipe, inert when it reaches a terminal."""
    if stdout_is_terminal():
        from core.text import terminal_safe

        text = terminal_safe(text)
    # color=True: click would strip "ANSI codes" from a pipe, corrupting data
    click.echo(text, nl=False, color=True)


def emit_rows(
    rows: Sequence[dict[str, Any]],
    fmt: str,
    columns: Sequence[str] | None = None,
    title: str = "",
    full: Sequence[str] = (),
    optional: Sequence[str] = (),
) -> None:
    """Print rows as a table (human), JSON array, or CSV.

    CSV and JSON keep post text exactly as stored when written to a file or pipe (the data is the point); on a
    terminal they show it inert (``core.text.terminal_safe``), as the table always does.

    The table fits the terminal without cutting a word: ids, sites, dates and codes are single words, so they are
    never cut; text wraps between words. Columns named in ``full`` (e.g. a link to click) never wrap. Columns named
    in ``optional`` are left out, last first, when the table could not fit otherwise, and a closing line says so
    (``--format csv``/``json`` always has every column).
    """
    columns = list(columns or (rows[0].keys() if rows else []))
    if fmt == "json":
        echo_data(json.dumps(list(rows), indent=2, default=str, ensure_ascii=False) + "\n")
    elif fmt == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _csv_cell(row.get(k)) for k in columns})
        echo_data(buf.getvalue())
    else:
        _print_table(rows, columns, title, full, optional)


#: What a table spends between two cells: a space of padding each side and the rule.
_CELL_GAP = 3
#: A column of running text (a title: this many words a cell on average) is not made narrower than
#: _READABLE_TEXT characters: one word a line is not readable.
_TEXT_WORDS = 4
_READABLE_TEXT = 20


def _print_table(rows, columns, title, full, optional) -> None:
    from rich.console import Console

    from core.text import terminal_safe

    console = Console(soft_wrap=False)
    cells = {
        c: [terminal_safe(_table_cell(row.get(c)), keep_newlines=False) for row in rows] for c in columns
    }
    shown = list(columns)
    dropped: list[str] = []
    widths = _fit_widths(shown, cells, full, console.width)
    for col in reversed(list(optional)):
        if widths is not None:
            break
        if col in shown:
            shown.remove(col)
            dropped.insert(0, col)
            widths = _fit_widths(shown, cells, full, console.width)
    if widths is None:
        _print_records(console, rows, shown, cells, title)
    else:
        _print_grid(console, rows, shown, cells, title, widths)
    if dropped:
        console.print(
            f"({', '.join(dropped)} left out to fit {console.width} columns: see --format csv or json)"
        )


def _fit_widths(columns, cells, full, width: int) -> dict[str, int] | None:
    """Column widths that fit ``width`` without cutting a word, or None when the words alone are too wide.

    Each column starts at its widest cell (or header); while the table is too wide, headers wider than their cells
    wrap first, then the widest column that can still give way loses a character. A column gives way down to its longest word (running text down to
    ``_READABLE_TEXT``), a ``full`` column not at all.
    """
    natural = {c: max([len(c), *(len(v) for v in cells[c])]) for c in columns}
    least = {}
    for c in columns:
        if c in full:
            least[c] = max([0, *(len(w) for w in c.split()), *(len(v) for v in cells[c])])
        else:
            longest = max(len(w) for v in [c, *cells[c]] for w in v.split() or [""])
            words = sum(len(v.split()) for v in cells[c])
            running_text = bool(cells[c]) and words >= _TEXT_WORDS * len(cells[c])
            least[c] = max(longest, min(natural[c], _READABLE_TEXT)) if running_text else longest
    room = width - _CELL_GAP * (len(columns) - 1)
    if sum(least.values()) > room:
        return None
    widths = dict(natural)
    excess = sum(widths.values()) - room
    # First let headers wrap: a header over two lines costs one line, a cell over two lines costs one a row.
    for c in columns:
        if excess <= 0:
            break
        body = max([least[c], *(len(v) for v in cells[c])])
        give = min(excess, max(widths[c] - body, 0))
        widths[c] -= give
        excess -= give
    while excess > 0:
        col = max((c for c in columns if widths[c] > least[c]), key=lambda c: widths[c])
        widths[col] -= 1
        excess -= 1
    return widths


def _print_grid(console, rows, columns, cells, title, widths) -> None:
    from rich.table import Table

    table = Table(title=title or None, show_edge=False, pad_edge=False, header_style="bold")
    for col in columns:
        table.add_column(col, width=widths[col], overflow="fold")
    for i in range(len(rows)):
        table.add_row(*(cells[c][i] for c in columns))
    console.print(table)


def _print_records(console, rows, columns, cells, title) -> None:
    """The expanded layout (as psql's ``\\x``) for a table whose words cannot fit side by side: one block a row,
    one line a column, values wrapped between words."""
    import textwrap

    label = max(len(c) for c in columns) + 2
    room = max(console.width - label, 20)
    if title:
        console.print(title, style="bold", markup=False, highlight=False)
    if not rows:
        console.print("(none)")
    for i in range(len(rows)):
        console.print(f"-[ {i + 1} ]".ljust(min(console.width, 40), "-"), markup=False, highlight=False)
        for c in columns:
            lines = textwrap.wrap(cells[c][i], room, break_long_words=True, break_on_hyphens=False) or [""]
            for n, line in enumerate(lines):
                console.print((c if n == 0 else "").ljust(label) + line, markup=False, highlight=False)


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


def split_tags(values: Sequence[str], option: str = "--tag") -> tuple[str, ...]:
    """Tags from repeated and comma-separated options (``--tag a,b --tag c``), lowercased, in order, once each.
    An empty piece (``--tag a,,b``, ``--tag ''``) is a usage error."""
    tags: list[str] = []
    for value in values:
        for piece in value.split(","):
            tag = piece.strip().lower()
            if not tag or any(c.isspace() for c in tag):
                raise click.BadParameter(
                    f"{value!r} is not a tag list: give tags as {option} a --tag b or {option} a,b",
                    param_hint=f"'{option}'",
                )
            if tag not in tags:
                tags.append(tag)
    return tuple(tags)


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
        click.echo(
            f"{prog}: interrupted; everything committed so far is kept (run the same command again to resume)",
            err=True,
        )
        sys.exit(130)
    except PPMinerError as exc:
        click.echo(f"{prog}: error: {_inert(str(exc))}", err=True)
        sys.exit(exc.exit_code)
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        click.echo(f"{prog}: error: {_inert(f'{exc.strerror or _first_line(exc)}{where}')}", err=True)
        sys.exit(1)
    except Exception as exc:
        if not _is_database_error(exc):
            raise
        # a lost connection, a lock held past the busy timeout, ...
        detail = _first_line(getattr(exc, "orig", None) or exc)
        click.echo(f"{prog}: error: database: {_inert(detail)}", err=True)
        sys.exit(1)
    sys.exit(rv if isinstance(rv, int) else 0)


def _is_database_error(exc: Exception) -> bool:
    """Whether ``exc`` is SQLAlchemy's; read without importing SQLAlchemy (if no command loaded it, none of its
    errors can have been raised)."""
    errors = sys.modules.get("sqlalchemy.exc")
    return errors is not None and isinstance(exc, errors.SQLAlchemyError)


def _inert(text: str) -> str:
    from core.text import terminal_safe

    return terminal_safe(text, keep_newlines=False)


def _first_line(exc: object) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
