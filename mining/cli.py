"""`ppmine`: acquisition, matching and the scheduled job. Thin: parse flags, call the library, print."""

from __future__ import annotations

import json

import click

from mining.cli_common import emit_rows, format_option, run_cli, study_options
from mining.db import (
    Store,
    current_revision,
    database_errors,
    downgrade,
    head_revision,
    redact,
    resolve_url,
    upgrade,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(package_name="ppminer")
def cli() -> None:
    """ppminer: mine Stack Overflow for performance problems in deep-learning programs.

    The study database is --db URL, else $PPMINER_DB, else sqlite:///data/study.db in the working directory;
    every command brings a fresh database up to the current schema on first use.
    """


@cli.group()
def db() -> None:
    """Schema migrations of the study database."""


@db.command("upgrade")
@click.argument("revision", default="head")
@study_options
def db_upgrade(study, revision: str) -> None:
    """Apply migrations up to REVISION (default: head)."""
    store = Store(resolve_url(study.db_url))
    with database_errors(store.url):
        upgrade(store, revision)
    click.echo(f"{redact(store.url)}: at revision {current_revision(store.engine)}")


@db.command("downgrade")
@click.argument("revision")
@study_options
def db_downgrade(study, revision: str) -> None:
    """Revert migrations down to REVISION ('base' drops every table: all data is lost)."""
    store = Store(resolve_url(study.db_url))
    with database_errors(store.url):
        downgrade(store, revision)
    click.echo(f"{redact(store.url)}: at revision {current_revision(store.engine) or 'base'}")


@db.command("current")
@study_options
def db_current(study) -> None:
    """Show the database's schema revision and the newest one this ppminer knows."""
    store = Store(resolve_url(study.db_url))
    with database_errors(store.url):
        current, head = current_revision(store.engine), head_revision()
    state = "up to date" if current == head else "behind: run `ppmine db upgrade`"
    click.echo(f"{redact(store.url)}: revision {current or 'none'} (head {head}; {state})")


@cli.command()
@format_option("table", "json")
@study_options
def stats(study, fmt: str) -> None:
    """Counts along the study funnel: questions, answers, comments, selected, candidates, identified, PPs."""
    from mining.stats import funnel_counts

    with study.store.read() as session:
        counts = funnel_counts(session)
    if fmt == "json":
        click.echo(json.dumps(counts, indent=2))
    else:
        emit_rows([{"step": k, "count": "-" if v is None else v} for k, v in counts.items()], "table")


# Commands of the other modules register here, one line each.
# -- scrape/run (issue 3) --

# -- import-dump (issue 4) --

# -- match/candidates/explain (issue 5) --


def main() -> None:
    run_cli(cli, "ppmine")


if __name__ == "__main__":
    main()
