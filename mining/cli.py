"""`ppmine`: acquisition, matching and the scheduled job. Thin: parse flags, call the library, print."""

from __future__ import annotations

import json
import sys
from datetime import datetime

import click

from core.cli_common import (
    db_options,
    emit_rows,
    format_option,
    question_filter_options,
    run_cli,
    say,
    say_created,
    split_tags,
    study_options,
)
from core.errors import UsageError

# Command bodies import what they run (SQLAlchemy, the API client, the matcher): `ppmine --help` and a command's
# own start load only click and the shared options.


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
    """Apply migrations up to REVISION (default: head). Creates a new SQLite file (never its folder)."""
    from core.db import Store, check_exists, current_revision, database_errors, redact, upgrade

    with database_errors(db_url):
        created = check_exists(db_url, create=True)
        store = Store(db_url)
        if created:
            store.created = True
            say_created(store)
        upgrade(store, revision)
        click.echo(f"{redact(store.url)}: at revision {current_revision(store.engine)}")


@db.command("downgrade")
@click.argument("revision")
@click.option("--yes", is_flag=True, help="Do not ask (for scripts); the backup is made all the same.")
@db_options
def db_downgrade(db_url: str, revision: str, yes: bool) -> int:
    """Revert migrations down to REVISION ('base' drops every table: all data is lost).

    Asks first (--yes for scripts), then backs the database up before changing anything: a SQLite file is copied
    beside itself (FILE.before-downgrade-REV-TIME.bak); PostgreSQL is dumped with pg_dump into the working
    directory (DB.before-downgrade-REV-TIME.dump, restore with pg_restore --clean -d URL FILE). Without pg_dump it
    refuses unless --yes, and then says that no backup was made.
    """
    from core.db import Store, check_exists, current_revision, database_errors, downgrade, redact
    from mining.backup import back_up, can_back_up

    with database_errors(db_url):
        check_exists(db_url, create=False)
        store = Store(db_url)
        current = current_revision(store.engine)
    where = redact(store.url)
    what = (
        "drops every table: ALL DATA IS LOST" if revision == "base" else f"reverts the schema to {revision}"
    )
    no_backup = can_back_up(store)
    if not yes:
        if no_backup:
            raise UsageError(f"{where}: {no_backup}: back it up yourself, then run again with --yes")
        if not sys.stdin.isatty():
            raise UsageError(f"{where}: downgrade {what}; it asks first: run it in a terminal, or pass --yes")
        if not click.confirm(
            f"{where} is at revision {current or 'base'}; this {what}. Back up and continue?"
        ):
            click.echo("ppmine: nothing changed", err=True)
            return 1
    if no_backup:
        click.echo(f"ppmine: no backup made ({no_backup})", err=True)
    else:
        click.echo(f"backup: {back_up(store, current)}")
    with database_errors(db_url):
        downgrade(store, revision)
        click.echo(f"{where}: at revision {current_revision(store.engine) or 'base'}")
    return 0


@db.command("current")
@db_options
def db_current(db_url: str) -> None:
    """Show the database's schema revision and the newest one this ppminer knows."""
    from core.db import Store, check_exists, current_revision, database_errors, head_revision, redact

    with database_errors(db_url):
        check_exists(db_url, create=False)
        store = Store(db_url)
        current, head = current_revision(store.engine), head_revision()
    state = "up to date" if current == head else "behind: run `ppmine db upgrade`"
    click.echo(f"{redact(store.url)}: revision {current or 'none'} (head {head}; {state})")


@cli.command()
@format_option("table", "json")
@study_options
def stats(study, fmt: str) -> None:
    """Counts along the study funnel: questions, answers, comments, selected, candidates, identified, PPs.

    Between questions and selected: how many questions each selection filter removed in the last match run, in
    order (tags, window, code, answers); JSON keys removed_by_tags, removed_by_window, removed_by_code,
    removed_by_answers (null before the first run). A GitHub study's filters instead: removed_by_repos, _labels,
    _dropped_labels, _closed, _window, _code, _comments.
    """
    from mining.stats import funnel_counts

    with study.store.read() as session:
        counts = funnel_counts(session)
    if fmt == "json":
        click.echo(json.dumps(counts, indent=2))
    else:
        emit_rows(
            [{"step": _step_name(k), "count": "-" if v is None else v} for k, v in counts.items()], "table"
        )


def _step_name(key: str) -> str:
    return f"  - {key.removeprefix('removed_by_')} filter" if key.startswith("removed_by_") else key


# -- scrape/run (issue 3) --
def _scrape_options(func):
    """Options shared by `scrape` and `run`."""
    options = [
        question_filter_options(until="now"),
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
    from core.sites import github_repo, normalize_site
    from mining.api.scrape import ScrapeParams

    cfg = study.config
    if github_repo(normalize_site(site or cfg.site)):
        raise click.BadParameter(
            "a GitHub repository: use `ppmine scrape-github OWNER/REPO`", param_hint="'--site'"
        )
    return ScrapeParams(
        tags=split_tags(tags) or cfg.tags,
        site=normalize_site(site or cfg.site),
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
    from mining.api.scrape import scrape as run_scrape
    from mining.runjob import EXIT_QUOTA, setup_logging, sigterm_as_interrupt

    study.creates_database = True
    params = _scrape_params(study, tags, date_from, date_to, site, api_url, since_last)
    setup_logging(log_file, verbose, [key])
    rps = study.config.max_requests_per_second
    with sigterm_as_interrupt():
        result = run_scrape(
            study.store,
            params,
            key=key,
            restart=restart,
            show_progress=True,
            max_rps=rps,
            max_requests=max_requests,
        )
    say(result.summary())
    return EXIT_QUOTA if result.status == "quota" else 0


@cli.command()
@_scrape_options
@study_options
def run(study, tags, date_from, date_to, site, api_url, key, restart, max_requests, log_file, verbose) -> int:
    """The scheduled job: an incremental scrape (--since-last), then keyword matching.

    A config with [github] repositories scrapes those (token from $GITHUB_TOKEN) instead of Stack Exchange,
    or as well when its [study] tags are written out.

    On a database without a finished scrape the first run fetches the whole window. No prompts; prints one
    summary line. Exit status: 0 done, 1 failed, 3 stopped by the API quota (matching still ran; the next run
    resumes the scrape).
    """
    from mining.github.cli import github_token
    from mining.runjob import run_job, setup_logging, sigterm_as_interrupt

    study.creates_database = True
    params = _scrape_params(study, tags, date_from, date_to, site, api_url, True)
    token = github_token()
    setup_logging(log_file, verbose, [key, token])
    with sigterm_as_interrupt():
        job = run_job(
            study.store,
            study.config,
            params,
            key=key,
            github_token=token,
            restart=restart,
            max_requests=max_requests,
            show_progress=True,
        )
    say(job.summary())
    return job.exit_code


# -- scrape-github (issue 23) --
def _register_github() -> None:
    from mining.github.cli import scrape_github_command

    cli.add_command(scrape_github_command)


_register_github()


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
@question_filter_options()
@click.option(
    "--all-questions",
    is_flag=True,
    help="Keep every question: no tag or date filter (not with --tag/--from/--to).",
)
@click.option(
    "--site",
    metavar="NAME",
    help="Site the dump comes from (stackoverflow, ai, ai.stackexchange.com, ...).  [default: the site its "
    "path names, e.g. .../ai.stackexchange.com/Posts.xml; required for standard input or a path naming none]",
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
def import_dump(
    study, posts, comments, tags, date_from, date_to, all_questions, site, batch_size, restart, fmt
) -> None:
    """Stream a data dump's Posts.xml (POSTS, or - for standard input) into the study database.

    Keeps the questions with any --tag created in the --from/--to window (each defaults to the study config's,
    so the dump holds what `ppmine match` selects from; --all-questions keeps all), the answers to kept (or already
    stored) questions and, with --comments, the comments on kept posts. Commits in batches with a checkpoint:
    the same command again after an interruption resumes; importing a file twice changes nothing. A malformed
    or truncated file keeps every row before the fault and exits 1 naming its line and byte offset.

    \b
    Example, without unpacking to disk:
      7z x -so stackoverflow.com-Posts.7z | ppmine import-dump - --tag tensorflow --tag keras
    """
    from mining.dump.importer import run_import_dump

    study.creates_database = True
    if all_questions and (tags or date_from or date_to):
        raise click.UsageError("--all-questions keeps every question: leave out --tag, --from and --to")
    if not all_questions:
        cfg = study.config
        tags = split_tags(tags) or cfg.tags
        date_from = date_from or _midnight(cfg.date_from)
        date_to = date_to or _midnight(cfg.date_to)
    if fmt == "table":
        click.echo(f"keeping {_dump_filter_text(tags, date_from, date_to)}")
    run_import_dump(study, posts, comments, tags, date_from, date_to, site, batch_size, restart, fmt)


def _dump_filter_text(tags, date_from, date_to) -> str:
    """``'questions tagged tensorflow or keras created 2018-01-01 .. now'``."""
    text = f"questions tagged {' or '.join(tags)}" if tags else "every question"
    if date_from or date_to:
        start = f"{date_from:%Y-%m-%d}" if date_from else "the start"
        end = f"{date_to:%Y-%m-%d}" if date_to else "now"
        text += f" created {start} .. {end}"
    return text


def _midnight(day):
    return None if day is None else datetime.combine(day, datetime.min.time())


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
    "--filters/--no-filters",
    "filters",
    default=None,
    help="Apply the config's selection (tags, window, code and answer filters) or match every acquired "
    "question.  [default: as the last run of this keyword set, else --filters]",
)
@click.option(
    "--fields",
    "fields_list",
    metavar="LIST",
    help="Fields to match, comma-separated (title,prose,code,answers,comments); replaces the remembered ones.  "
    "[default: as the last run of this keyword set, else the config's [match] fields]",
)
@_match_options
@study_options
def match(
    study,
    rematch_all,
    filters,
    fields_list,
    keywords_file,
    stemmer,
    literal_keywords,
    add_code,
    add_answers,
    add_comments,
) -> None:
    """Select questions per the study config and match the keyword set; store versioned candidates.

    The scope (--filters/--no-filters and the fields) is remembered per keyword-set version: a run without them
    (the nightly `ppmine run` too) uses what the last run used; a run that changes it says so on stderr.
    --code, --answers and --comments add fields, --fields replaces them. Only questions new or changed since the
    last run are checked. Candidates someone has decided are never dropped: a match that no longer selects them
    keeps them, marked as no longer matching.
    """
    from mining.match.run import run_match

    extra = [f for f, on in (("code", add_code), ("answers", add_answers), ("comments", add_comments)) if on]
    fields = [f.strip() for f in fields_list.split(",") if f.strip()] if fields_list is not None else None
    if fields is not None:
        from core.config import MATCH_FIELDS

        unknown = [f for f in fields if f not in MATCH_FIELDS]
        if unknown or not fields:
            raise click.BadParameter(
                f"unknown fields {unknown or '(none)'}; choose from {','.join(MATCH_FIELDS)}",
                param_hint="--fields",
            )
    result = run_match(
        study.store,
        study.config,
        rematch_all=rematch_all,
        apply_filters=filters,
        keywords_file=keywords_file,
        fields=fields,
        add_fields=extra,
        show_progress=True,
        stemmer=stemmer,
        keyword_reading="literal" if literal_keywords else "stem",
    )
    if result.scope_change:
        say(f"ppmine: warning: {result.scope_change}", err=True)
    say(result.summary())


@cli.command()
@click.option(
    "--keyword-set", "keyword_set_id", type=int, help="Keyword-set version id.  [default: the last run's]"
)
@click.option("--versions", is_flag=True, help="List the stored keyword-set versions instead.")
@format_option("table", "csv", "json")
@study_options
def candidates(study, keyword_set_id, versions, fmt) -> None:
    """List the candidate posts of a keyword-set version (JSON: post_id, keywords, hits, ...).

    The table shows the whole link, without the title slug a Stack Exchange link may carry (it opens the same post;
    CSV and JSON keep the link as stored), where the terminal is wide enough; at 80 columns the link gives way to
    the id, site and title, and a closing line says so. CSV: hits reads `effici (title 1, prose 2); gpu util (prose 1)`, each
    keyword as the keyword file writes it with its hit count per field.
    """
    from mining.match.candidates import (
        CANDIDATE_COLUMNS,
        CANDIDATE_CSV_COLUMNS,
        VERSION_COLUMNS,
        hits_text,
        list_candidates,
        list_versions,
        short_link,
    )

    with study.store.read() as session:
        if versions:
            emit_rows(list_versions(session), fmt, VERSION_COLUMNS)
            return
        rows = list_candidates(session, keyword_set_id)
    if fmt == "csv":
        rows = [{**r, "hits": hits_text(r["hits"])} for r in rows]
    elif fmt == "table":
        rows = [{**r, "link": short_link(r["link"])} for r in rows]
    emit_rows(
        rows,
        fmt,
        CANDIDATE_COLUMNS if fmt == "table" else CANDIDATE_CSV_COLUMNS,
        full=("link",),
        optional=("link",),
    )


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
@click.argument("post_id", metavar="POST")
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
    """Show POST's matched text with each keyword hit marked [[...]]{keyword}.

    POST is SITE:ID (ai:136), a bare ID for a Stack Overflow question (65160023), or the question's link.

    By default with the keyword file, stemmer and fields `ppmine match` would use now; --keyword-set takes all
    three from a stored version instead, so it cannot be combined with the options that set them.
    """
    from mining.check import findings_text
    from mining.match.explain import explain_post, matcher_for_version, render, stored_status
    from mining.match.keywords import read_keywords
    from mining.match.matcher import Matcher
    from mining.match.run import check_fields

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
        click.echo(render(question, parts, matcher, stored_status(session, question.key, matcher)))
        click.echo()
        click.echo(findings_text(session, question.site, question.id))


# -- check: ppcheck on the code blocks of stored questions (issue 15) --
@cli.command()
@click.option(
    "--all", "recheck_all", is_flag=True, help="Check every question again, not only new or changed ones."
)
@format_option("table", "json")
@study_options
def check(study, recheck_all: bool, fmt: str) -> None:
    """Run ppcheck's rules on the code blocks of stored questions and keep the findings per post.

    A question's blocks are checked joined when that parses, else block by block; a question none of whose
    blocks parses is recorded as skipped. Only questions that are new or changed since their last check are
    checked (all of them when the rules changed, or with --all). `ppmine explain POST_ID` shows a post's findings.
    """
    from mining.check import run_check

    summary = run_check(study.store, recheck_all=recheck_all)
    if fmt == "json":
        click.echo(json.dumps(summary.as_dict(), indent=2))
        return
    total = sum(summary.findings.values())
    click.echo(
        f"check: {summary.questions} questions checked ({summary.skipped} skipped: no code block parses), "
        f"{summary.unchanged} unchanged; {total} finding{'s' if total != 1 else ''}"
    )
    for rule, count in sorted(summary.findings.items()):
        click.echo(f"  {rule} {count}")


def main() -> None:
    run_cli(cli, "ppmine")


if __name__ == "__main__":
    main()
