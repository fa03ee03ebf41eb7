"""``ppmine scrape-github``: a repository's issues and comments into the study database."""

from __future__ import annotations

import os

import click

from core.cli_common import say, study_options

TOKEN_ENV = "GITHUB_TOKEN"


def github_token() -> str | None:
    """The token from ``$GITHUB_TOKEN`` (never an option: a command line is visible to every user of the machine)."""
    return os.environ.get(TOKEN_ENV) or None


def _window(date_from, date_to, config):
    if date_from and date_to and date_from > date_to:
        raise click.BadParameter(
            f"{date_from:%Y-%m-%d} is after --to {date_to:%Y-%m-%d}", param_hint="'--from'"
        )
    return (
        date_from.date() if date_from else config.date_from,
        date_to.date() if date_to else config.date_to,
    )


@click.command("scrape-github")
@click.argument("repo", metavar="OWNER/REPO")
@click.option(
    "--from",
    "date_from",
    type=click.DateTime(["%Y-%m-%d"]),
    metavar="DATE",
    help="First creation date.  [default: config's [study] from]",
)
@click.option(
    "--to",
    "date_to",
    type=click.DateTime(["%Y-%m-%d"]),
    metavar="DATE",
    help="Last creation date, inclusive.  [default: config's [study] to]",
)
@click.option(
    "--since-last",
    is_flag=True,
    help="Only what changed since the last finished run of this repository and window.",
)
@click.option(
    "--api-url", metavar="URL", help="API root.  [default: config's [github] api_url, api.github.com]"
)
@click.option("--restart", is_flag=True, help="Start afresh instead of resuming an unfinished run.")
@click.option(
    "--max-requests", type=click.IntRange(min=1), metavar="N", help="Stop (resumable) after N requests."
)
@click.option("--log-file", type=click.Path(dir_okay=False), help="Append log lines to this file.")
@click.option("-v", "--verbose", is_flag=True, help="Log retries and rate-limit waits to stderr.")
@study_options
def scrape_github_command(
    study, repo, date_from, date_to, since_last, api_url, restart, max_requests, log_file, verbose
):
    """Fetch a GitHub repository's issues (not pull requests) with their comments.

    Each issue is stored as a post of site github.com/OWNER/REPO (id: its number), each comment as an answer.
    Two list endpoints, 100 items a request, Link paging; every page is committed with the run's checkpoint, so
    the same command resumes a killed run. The token comes from $GITHUB_TOKEN (5,000 requests/hour); without it
    GitHub allows 60. Exit status: 0 done, 1 failed, 3 stopped by the rate limit or --max-requests (rerun to
    resume).
    """
    from mining.github.scrape import GitHubParams, scrape_github
    from mining.github_config import load_github, repo_name
    from mining.runjob import EXIT_QUOTA, setup_logging, sigterm_as_interrupt

    token = github_token()
    name = repo_name(repo, "OWNER/REPO")
    study.creates_database = True
    github = load_github(study.config)
    lo, hi = _window(date_from, date_to, study.config)
    params = GitHubParams(
        repo=name,
        api_url=(api_url or (github.api_url if github else "") or "https://api.github.com").rstrip("/"),
        date_from=lo,
        date_to=hi,
        since_last=since_last,
    )
    setup_logging(log_file, verbose, [token])
    if token is None:
        say(f"scrape-github: no ${TOKEN_ENV}: GitHub allows 60 requests an hour without a token", err=True)
    with sigterm_as_interrupt():
        result = scrape_github(
            study.store, params, token=token, restart=restart, show_progress=True, max_requests=max_requests
        )
    say(result.summary())
    return EXIT_QUOTA if result.status == "quota" else 0
