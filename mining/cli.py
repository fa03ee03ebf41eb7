"""`ppmine`: acquisition, matching and the scheduled job. Thin: parse flags, call the library, print."""

from __future__ import annotations

import json

import click

from mining.cli_common import db_options, emit_rows, format_option, run_cli, study_options
from mining.db import (
    Store,
    current_revision,
    database_errors,
    downgrade,
    head_revision,
    redact,
    upgrade,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(package_name="ppminer")
def cli() -> None:
    """ppminer: mine Stack Overflow for performance problems in deep-learning programs.

    Every command takes --db URL (else $PPMINER_DB, else sqlite:///data/study.db in the working directory) and
    brings a fresh database up to the current schema on first use; study commands also take --config FILE
    (else $PPMINER_CONFIG, else ppminer's data/study.toml).

    Exit status: 0 done, 1 failed (one line on stderr), 2 usage error, 3 stopped by the API quota (resumable),
    130 interrupted (committed work kept).
    """


@cli.group()
def db() -> None:
    """Schema migrations of the study database."""


@db.command("upgrade")
@click.argument("revision", default="head")
@db_options
def db_upgrade(db_url: str, revision: str) -> None:
    """Apply migrations up to REVISION (default: head)."""
    with database_errors(db_url):
        store = Store(db_url)
        upgrade(store, revision)
        click.echo(f"{redact(store.url)}: at revision {current_revision(store.engine)}")


@db.command("downgrade")
@click.argument("revision")
@db_options
def db_downgrade(db_url: str, revision: str) -> None:
    """Revert migrations down to REVISION ('base' drops every table: all data is lost)."""
    with database_errors(db_url):
        store = Store(db_url)
        downgrade(store, revision)
        click.echo(f"{redact(store.url)}: at revision {current_revision(store.engine) or 'base'}")


@db.command("current")
@db_options
def db_current(db_url: str) -> None:
    """Show the database's schema revision and the newest one this ppminer knows."""
    with database_errors(db_url):
        store = Store(db_url)
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
def _scrape_options(func):
    """Options shared by `scrape` and `run`."""
    day = click.DateTime(["%Y-%m-%d"])
    options = [
        click.option("--tag", "tags", multiple=True, help="Tag (repeat: ANY of them).  [default: config]"),
        click.option(
            "--from",
            "date_from",
            type=day,
            metavar="DATE",
            help="First creation date.  [default: config's [study] from, else no limit]",
        ),
        click.option(
            "--to",
            "date_to",
            type=day,
            metavar="DATE",
            help="Last creation date, inclusive.  [default: config's [study] to, else now]",
        ),
        click.option("--site", help="Stack Exchange site.  [default: config, stackoverflow]"),
        click.option("--api-url", metavar="URL", help="API root.  [default: config, api.stackexchange.com]"),
        click.option("--key", envvar="SE_API_KEY", help="API key (a larger daily quota).  [env: SE_API_KEY]"),
        click.option("--restart", is_flag=True, help="Start afresh instead of resuming an unfinished run."),
        click.option(
            "--max-requests",
            type=click.IntRange(min=1),
            metavar="N",
            help="Stop (resumable) after N API requests.",
        ),
        click.option("--log-file", type=click.Path(dir_okay=False), help="Append log lines to this file."),
        click.option("-v", "--verbose", is_flag=True, help="Log retries and throttling to stderr."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _scrape_params(study, tags, date_from, date_to, site, api_url, since_last):
    from mining.scrape import ScrapeParams

    if date_from and date_to and date_from > date_to:
        raise click.BadParameter(
            f"{date_from:%Y-%m-%d} is after --to {date_to:%Y-%m-%d}", param_hint="'--from'"
        )
    cfg = study.config
    return ScrapeParams(
        tags=tuple(tags) or cfg.tags,
        site=site or cfg.site,
        api_url=(api_url or cfg.api_url).rstrip("/"),
        date_from=date_from.date() if date_from else cfg.date_from,
        date_to=date_to.date() if date_to else cfg.date_to,
        since_last=since_last,
        page_size=cfg.page_size,
    )


@cli.command()
@_scrape_options
@click.option("--since-last", is_flag=True, help="Incremental: only activity since the last finished scrape.")
@study_options
def scrape(
    study, tags, date_from, date_to, site, api_url, key, restart, max_requests, log_file, verbose, since_last
):
    """Fetch questions with all their answers and comments from the Stack Exchange API.

    One query per tag, 100 questions per request; each page is committed with the run's checkpoint, so a killed
    run resumes where it stopped when the same command is run again. Exit status: 0 done, 1 failed, 3 stopped
    by the API quota (rerun later to resume).
    """
    from mining.runjob import EXIT_QUOTA, setup_logging, stop_on_sigterm
    from mining.scrape import scrape as run_scrape

    params = _scrape_params(study, tags, date_from, date_to, site, api_url, since_last)
    setup_logging(log_file, verbose, [key])
    stop_on_sigterm()
    rps = study.config.max_requests_per_second
    result = run_scrape(
        study.store,
        params,
        key=key,
        restart=restart,
        show_progress=True,
        max_rps=rps,
        max_requests=max_requests,
    )
    click.echo(result.summary())
    return EXIT_QUOTA if result.status == "quota" else 0


@cli.command()
@_scrape_options
@study_options
def run(study, tags, date_from, date_to, site, api_url, key, restart, max_requests, log_file, verbose) -> int:
    """The scheduled job: an incremental scrape (--since-last), then keyword matching.

    On a database without a finished scrape the first run fetches the whole window. No prompts; prints one
    summary line. Exit status: 0 done, 1 failed, 3 stopped by the API quota (matching still ran; the next run
    resumes the scrape).
    """
    from mining.runjob import run_job, setup_logging, stop_on_sigterm

    params = _scrape_params(study, tags, date_from, date_to, site, api_url, True)
    setup_logging(log_file, verbose, [key])
    stop_on_sigterm()
    job = run_job(
        study.store,
        study.config,
        params,
        key=key,
        restart=restart,
        max_requests=max_requests,
        show_progress=True,
    )
    click.echo(job.summary())
    return job.exit_code


# -- import-dump (issue 4) --
@cli.command("import-dump")
@click.argument("posts", metavar="POSTS", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option(
    "--comments",
    "comments",
    metavar="COMMENTS_XML",
    type=click.Path(exists=True, dir_okay=False, allow_dash=True),
    help="The dump's Comments.xml: comments on the kept questions and answers are imported too.",
)
@click.option(
    "--tag",
    "tags",
    metavar="TAG",
    multiple=True,
    help="Keep questions carrying TAG (repeat: any of them).  [default: all]",
)
@click.option(
    "--from",
    "date_from",
    metavar="DATE",
    type=click.DateTime(["%Y-%m-%d"]),
    help="Keep questions created on/after DATE.",
)
@click.option(
    "--to",
    "date_to",
    metavar="DATE",
    type=click.DateTime(["%Y-%m-%d"]),
    help="Keep questions created on/before DATE.",
)
@click.option(
    "--site",
    metavar="NAME",
    help="Site the dump comes from (stackoverflow, ai, ...).  [default: the study config's]",
)
@click.option(
    "--batch-size",
    metavar="N",
    default=2000,
    show_default=True,
    type=click.IntRange(1),
    help="Posts per committed batch; also how many answers (comments) are held until one lookup of "
    "their questions (posts).",
)
@click.option(
    "--restart", is_flag=True, help="Start over instead of resuming an unfinished import of the same file."
)
@format_option("table", "json")
@study_options
def import_dump(study, posts, comments, tags, date_from, date_to, site, batch_size, restart, fmt) -> None:
    """Stream a data dump's Posts.xml (POSTS, or - for standard input) into the study database.

    Keeps the questions with any --tag created in the --from/--to window, the answers to kept (or already
    stored) questions and, with --comments, the comments on kept posts. Commits in batches with a checkpoint:
    the same command again after an interruption resumes; importing a file twice changes nothing. A malformed
    or truncated file keeps every row before the fault and exits 1 naming its line and byte offset.

    \b
    Example, without unpacking to disk:
      7z x -so stackoverflow.com-Posts.7z | ppmine import-dump - --tag tensorflow --tag keras
    """
    from mining.dump_import import run_import_dump

    run_import_dump(study, posts, comments, tags, date_from, date_to, site, batch_size, restart, fmt)


# -- match/candidates/explain (issue 5) --
_STEMMERS = click.Choice(["nltk_extensions", "original", "martin_extensions"])


def _match_options(func):
    """Options shared by match and explain: which keyword set, stemmer and fields."""
    for opt in reversed(
        [
            click.option(
                "--keywords",
                "keywords_file",
                type=click.Path(dir_okay=False),
                help="Keyword file (one "
                "or two words a line, '#' comments).  [default: [files] keywords of the config]",
            ),
            click.option(
                "--stemmer",
                type=_STEMMERS,
                default="nltk_extensions",
                show_default=True,
                help="Mode of NLTK's PorterStemmer (part of the keyword-set version).",
            ),
            click.option(
                "--literal-keywords",
                is_flag=True,
                help="Compare stems with keyword words only as "
                "written (the published procedure to the letter: 'hangs' and 'very slow' never match).",
            ),
            click.option("--code", "add_code", is_flag=True, help="Also match the question's code blocks."),
            click.option("--answers", "add_answers", is_flag=True, help="Also match the answers' prose."),
            click.option(
                "--comments",
                "add_comments",
                is_flag=True,
                help="Also match comments on the question and its answers.",
            ),
        ]
    ):
        func = opt(func)
    return func


def _fields(config, add_code: bool, add_answers: bool, add_comments: bool) -> list[str]:
    extra = [f for f, on in (("code", add_code), ("answers", add_answers), ("comments", add_comments)) if on]
    return list(config.match_fields) + [f for f in extra if f not in config.match_fields]


@cli.command()
@click.option(
    "--all",
    "rematch_all",
    is_flag=True,
    help="Rematch every selected question, not only new or changed ones.",
)
@click.option(
    "--no-filters",
    is_flag=True,
    help="Match every acquired question (skip tags, window, code and answer filters of the config).",
)
@_match_options
@study_options
def match(
    study,
    rematch_all,
    no_filters,
    keywords_file,
    stemmer,
    literal_keywords,
    add_code,
    add_answers,
    add_comments,
) -> None:
    """Select questions per the study config and match the keyword set; store versioned candidates.

    Matched by default: [match] fields of the config (title and question prose in the study); --code,
    --answers and --comments add fields. Only questions new or changed since the last run are checked.
    """
    from mining.match import run_match

    result = run_match(
        study.store,
        study.config,
        rematch_all=rematch_all,
        apply_filters=not no_filters,
        keywords_file=keywords_file,
        fields=_fields(study.config, add_code, add_answers, add_comments),
        show_progress=True,
        stemmer=stemmer,
        keyword_reading="literal" if literal_keywords else "stem",
    )
    click.echo(result.summary())


@cli.command()
@click.option(
    "--keyword-set", "keyword_set_id", type=int, help="Keyword-set version id.  [default: the last run's]"
)
@click.option("--versions", is_flag=True, help="List the stored keyword-set versions instead.")
@format_option("table", "csv", "json")
@study_options
def candidates(study, keyword_set_id, versions, fmt) -> None:
    """List the candidate posts of a keyword-set version (JSON: post_id, keywords, hits, ...)."""
    from mining.candidates import (
        CANDIDATE_COLUMNS,
        CANDIDATE_CSV_COLUMNS,
        VERSION_COLUMNS,
        list_candidates,
        list_versions,
    )

    with study.store.read() as session:
        if versions:
            emit_rows(list_versions(session), fmt, VERSION_COLUMNS)
            return
        rows = list_candidates(session, keyword_set_id)
    if fmt == "csv":
        rows = [{**r, "hits": [f"{h['keyword']}@{h['field']}x{h['count']}" for h in r["hits"]]} for r in rows]
    emit_rows(rows, fmt, CANDIDATE_COLUMNS if fmt == "table" else CANDIDATE_CSV_COLUMNS)


def _refuse_with_keyword_set(ctx: click.Context) -> None:
    """Usage error when explain got --keyword-set and any option a stored version fixes itself."""
    fixed = [p for p in ctx.command.params if p.name in _VERSION_FIXES]
    given = [
        p.opts[0] for p in fixed if ctx.get_parameter_source(p.name) != click.core.ParameterSource.DEFAULT
    ]
    if given:
        raise click.UsageError(
            f"--keyword-set cannot be combined with {', '.join(given)}: "
            "a stored version brings its own keywords, stemmer mode and fields"
        )


_VERSION_FIXES = ("keywords_file", "stemmer", "literal_keywords", "add_code", "add_answers", "add_comments")


@cli.command()
@click.argument("post_id", type=int)
@click.option(
    "--keyword-set",
    "keyword_set_id",
    type=int,
    help="Explain with a stored keyword-set version (its keywords, mode and last fields) instead of the files; "
    "not with --keywords, --stemmer, --literal-keywords, --code, --answers or --comments.",
)
@_match_options
@study_options
def explain(
    study,
    post_id,
    keyword_set_id,
    keywords_file,
    stemmer,
    literal_keywords,
    add_code,
    add_answers,
    add_comments,
) -> None:
    """Show POST_ID's matched text with each keyword hit marked [[...]]{keyword}.

    By default with the keyword file, stemmer and fields `ppmine match` would use now; --keyword-set takes all
    three from a stored version instead, so it cannot be combined with the options that set them.
    """
    from mining.explain import explain_post, matcher_for_version, render, stored_status
    from mining.keywords import read_keywords
    from mining.match import check_fields
    from mining.matcher import Matcher

    if keyword_set_id is not None:
        _refuse_with_keyword_set(click.get_current_context())
    config = study.config
    with study.store.read() as session:
        if keyword_set_id is not None:
            matcher, fields = matcher_for_version(session, keyword_set_id)
        else:
            reading = "literal" if literal_keywords else "stem"
            matcher = Matcher(read_keywords(keywords_file or config.keywords_file), stemmer, reading)
            fields = check_fields(_fields(config, add_code, add_answers, add_comments))
        question, parts = explain_post(session, post_id, matcher, fields)
        click.echo(render(question, parts, matcher, stored_status(session, post_id, matcher)))


def main() -> None:
    run_cli(cli, "ppmine")


if __name__ == "__main__":
    main()
