"""`pplabel`: labeling sessions, agreement, reconciliation, import and export. Thin: parse, call, print."""

from __future__ import annotations

import json

import click

from core.cli_common import (
    echo_data,
    emit_rows,
    format_option,
    hints_option,
    rater_option,
    run_cli,
    say,
    say_wrapped,
    study_options,
)
from labeling.agreement_report import REPORTS as REPORT_CHOICES
from labeling.vocabulary import AGREEMENT_MIN_RATERS


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(package_name="ppminer")
def cli() -> None:
    """pplabel: label candidate posts with the study's codebook, measure agreement, reconcile, import/export.

    Works on the same study database as ppmine: every command takes --db URL (else $PPMINER_DB, else
    sqlite:///data/study.db) and --config FILE (else $PPMINER_CONFIG, else ppminer's data/study.toml).

    Exit status: 0 done, 1 failed (one line on stderr), 2 usage error, 130 interrupted (committed work kept).
    """


# -- identify/classify (issue 6) --
@cli.command()
@rater_option()
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the post order and of --sample."
)
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    metavar="N",
    help="A frozen sample: the first N candidates of the --seed order, drawn once and stored; every rater "
    "asking for --sample N --seed S later gets exactly those posts, whatever is matched since "
    "(`pplabel samples` lists them).",
)
@hints_option
@click.option(
    "--order",
    type=click.Choice(["seeded", "priority", "sample"]),
    default="seeded",
    show_default=True,
    help="seeded: the --seed order; priority: most likely PP first, by a model of your own decisions (after "
    "--warmup posts in seeded order); sample: the undecided posts in seeded order as the random sample "
    "`pplabel triage status` tests for stopping.",
)
@click.option(
    "--warmup",
    type=click.IntRange(min=0),
    metavar="N",
    help="priority: decisions in seeded order before the model ranks.  [default: 20]",
)
@study_options
def identify(
    study, rater: str, seed: int, sample: int | None, hints: bool, order: str, warmup: int | None
) -> None:
    """Decide for each candidate post whether it is a PP: y PP, n not, s skip, u undo, ? help, q quit.

    Each decision is saved when its key is pressed. Raters who label the same sample use the same --seed.
    """
    from labeling.tui.session import run_identify

    if warmup is not None and order != "priority":
        raise click.UsageError("--warmup goes with --order priority")
    run_identify(
        study.store,
        rater,
        seed,
        sample,
        hints,
        **_order_options(study.store, rater, order, warmup, seed, sample),
    )


@cli.command()
@rater_option()
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the post order.")
@hints_option
@study_options
def classify(study, rater: str, seed: int, hints: bool) -> None:
    """Label the PPs of each post you (or the reconciliation) found to be a PP with the codebook.

    Per PP: symptoms, root cause, introducing and exposing stage, part and comment; each saved when picked.
    """
    from labeling.tui.session import run_classify

    run_classify(study.store, study.config.codebook_file, rater, seed, hints)


# -- agreement/import/export (issue 7) --

PUBLISHED_FORMATS = ("study", "identification", "labels", "benchmark")
IO_FORMATS = (*PUBLISHED_FORMATS, "archive")  # archive: the whole study (labeling.io.archive)


def _names(value: str | None) -> list[str] | None:
    return None if value is None else [n.strip() for n in value.split(",")]


@cli.command("agreement")
@click.option(
    "--stage",
    type=click.Choice(["identify", "classify"]),
    help="Only the identification decisions (identify) or only the label dimensions (classify). [default: all]",
)
@click.option(
    "--top",
    type=click.IntRange(0),
    default=5,
    show_default=True,
    help="Disagreement pairs listed per dimension.",
)
@click.option(
    "--report",
    type=click.Choice(REPORT_CHOICES),
    default="summary",
    show_default=True,
    help="Which table: summary (one row per dimension; as a table also kappa per rater pair, agreement with the "
    "majority and the top disagreements), pairwise, majority, confusion (directed, with item ids), disputed, "
    "pairing (which of each rater's own PPs every aligned PP is).",
)
@format_option("table", "json", "csv")
@study_options
def agreement(study, stage: str | None, top: int, report: str, fmt: str) -> None:
    """Inter-rater agreement per dimension: identification, symptom, root_cause, introducing_stage,
    exposing_stage, and the category level symptom_category, root_cause_category.

    For each: items rated by at least two raters, the raters, observed agreement (mean share of agreeing rater
    pairs per item), Cohen's kappa (exactly two raters, else null), Light's kappa (the mean of the pairwise
    Cohen's kappas: any number of raters; mean_pairwise_kappa in JSON and CSV), Fleiss' kappa and
    Krippendorff's alpha (nominal; they allow more raters and missing ratings), and the most frequent
    disagreement pairs. Labels of different raters are paired by the part of the post they name, else by best
    label match (README; --report pairing shows the pairs). A PP's two symptoms are compared as ONE unordered
    set (symptom1 + symptom2), so {a, b} agrees with {b, a} but not with {a}; empty labels count as missing.

    Per rater: Cohen's kappa for every rater pair (pairwise), each rater's agreement with the majority of the
    other raters (majority; a careless rater stands out), the directed confusion counts (rater A said X while
    rater B said Y, with the item ids) and the disputed items with every rater's value. --format json gives all
    of it per dimension (keys pairwise, majority, confusion, disputed, pairing beside the statistics) unless
    --report names one table; --format csv writes the --report table (summary: one row per dimension).
    """
    from labeling.agreement import compute_agreement
    from labeling.agreement_report import blocks
    from labeling.codebook import load_codebook

    codebook = load_codebook(study.config.codebook_file)
    with study.store.read() as session:
        result = compute_agreement(session, codebook, stage=stage, top=top)
    for block in blocks(result, report, fmt, top):
        if block.data is not None:
            echo_data(block.data)
        elif block.note is not None:
            click.echo(block.note)
        elif block.paragraph is not None:
            say_wrapped(block.paragraph)
        else:
            emit_rows(block.rows, fmt, block.columns, title=block.title)


@cli.command("import")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(IO_FORMATS),
    required=True,
    help="study: final labels (empirical_study.csv); identification: raters' PP decisions plus merge "
    "(kappa_identification.csv); labels: two raters' labels in the older vocabulary (kappa_label.csv); "
    "benchmark: the reproduced PPs with their RQ4 assessment (benchmark.csv); archive: a whole study as "
    "`export --format archive` writes it (rows already stored are skipped; a differing one refuses the archive).",
)
@click.option(
    "--raters",
    metavar="A,B",
    help="labels format only (an error with the others: study holds final labels, identification names its "
    "raters in its isPB_<rater> columns): names of the file's first (symptom1, root casue, ...) and second "
    "(symptom2, root casue 2, ...) rater. The file names none and cannot tell them apart; the default follows "
    "the column order of kappa_identification.csv. [default: cjm,longjie]",
)
@click.argument("source", metavar="PATH_OR_URL")
@study_options
def import_cmd(study, fmt: str, raters: str | None, source: str) -> None:
    """Import a published study file, or a study archive, from a path or an http(s) URL, in one transaction.

    Labels are mapped through the codebook's aliases; one unknown label or malformed row rejects the whole file
    (the error names the line and value) and nothing is stored. A row needs a cell for every named column
    (trailing unnamed columns may be left out); a file with no data rows, another shape's header (the error
    names the right --format), a web page or a non-UTF-8 file is refused too. Posts not in the database get a
    stub (id, link, and title and creation date when the file has them). Final labels and decisions are
    recorded as "imported"; the study file's free-text comment column becomes the PP's "part". A benchmark
    file's cases are stored per PP id with the Profiler, XLA and documentation assessment (RQ4). An archive is
    checked whole before the database opens (a bad line is named by file and line); rows it holds that are
    stored already change nothing, and one that differs from the stored row refuses the archive, naming it.
    """
    from labeling.codebook import load_codebook
    from labeling.io.import_study import import_file, plan_import

    names = _names(raters)
    if names is not None and fmt != "labels":
        raise click.BadParameter(
            "only for --format labels (a study file holds final labels; an identification file names its "
            "raters in its isPB_<rater> columns)",
            param_hint="--raters",
        )
    if names is not None and len(names) != 2:
        raise click.BadParameter("give two names, e.g. --raters cjm,longjie", param_hint="--raters")
    study.creates_database = True  # but only for a file that reads well: it is read before the database opens
    if fmt == "archive":
        from labeling.io.archive import import_archive, read_archive

        archive = read_archive(source, load_codebook(study.config.codebook_file))
        say(import_archive(study.store, archive).summary())
        return
    codebook = load_codebook(study.config.codebook_file) if fmt != "identification" else None
    if fmt == "benchmark":
        from labeling.io.benchmark import import_benchmark, plan_benchmark

        plan = plan_benchmark(source, codebook)
        click.echo(import_benchmark(study.store, source, codebook, plan=plan).summary())
        return
    plan = plan_import(fmt, source, codebook, tuple(names) if names else None)
    result = import_file(study.store, fmt, source, codebook, tuple(names) if names else None, plan=plan)
    say(result.summary())


@cli.command("export")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(IO_FORMATS),
    required=True,
    help="study: final labels; identification: one isPB_<rater> column per rater plus merge when reconciled; "
    "labels: two raters' labels in the older vocabulary; benchmark: the reproduced PPs and their RQ4 "
    "assessment, byte for byte as published; archive: the whole study, every field, as a zip of JSON Lines "
    "files (README: the study archive).",
)
@click.option(
    "--raters",
    metavar="A,B",
    help="identification: the raters' columns, in order [default: every rater with decisions]; labels: the two "
    "raters [default: the two raters with labels]; not for study or archive.",
)
@click.argument("out", metavar="OUT", type=click.Path(dir_okay=False, allow_dash=True))
@study_options
def export_cmd(study, fmt: str, raters: str | None, out: str) -> None:
    """Write the study database in one of the published CSV shapes, or whole as an archive, readable by
    `pplabel import`.

    OUT is replaced atomically and gets the permissions a new file of yours gets (your umask; an existing
    file keeps its own); - writes a CSV to standard output (the summary then goes to standard error).

    Codes are written in the published spellings. Fields a shape has no column for (e.g. a rater's second
    symptom in the labels shape) are counted on stderr; the archive keeps them. The labels shape pairs the two
    raters' PPs as agreement does. A shape with no rows to write is refused (import refuses a bare header).
    """
    from labeling.io.export_study import export_file

    if raters is not None and fmt in ("study", "archive"):
        raise click.BadParameter(
            f"not for --format {fmt} (it holds every rater)"
            if fmt == "archive"
            else "not for --format study (it holds final labels)",
            param_hint="--raters",
        )
    if fmt == "archive":
        from labeling.io.archive import export_archive

        say(export_archive(study.store, out).summary())
        return
    if fmt == "benchmark":
        from labeling.io.benchmark import export_benchmark

        if raters is not None:
            raise click.BadParameter(
                "not for --format benchmark (it holds no rater labels)", param_hint="--raters"
            )
        click.echo(f"{out}: wrote {export_benchmark(study.store, out)} rows", err=out == "-")
        return
    result = export_file(study.store, fmt, out, _names(raters))
    for warning in result.warnings():
        say(f"pplabel: warning: {warning}", err=True)
    say(result.summary(), err=out == "-")


# -- reconcile (issue 7, reconciliation) --
@cli.command()
@click.option(
    "--adjudicator",
    metavar="NAME",
    help="Who settles the disagreements; recorded with every adjudicated final (registered with the first decision). "
    "Required unless --auto-only.",
)
@click.option(
    "--min-raters",
    type=click.IntRange(min=1),
    default=AGREEMENT_MIN_RATERS,
    show_default=True,
    help="Raters an item needs (for labels: raters who completely labelled the post) before it is reconciled.",
)
@click.option(
    "--auto-only",
    is_flag=True,
    help="Only make the items all raters agree on final and report what is left to adjudicate; no UI.",
)
@study_options
def reconcile(study, adjudicator: str | None, min_raters: int, auto_only: bool) -> None:
    """Reconcile the raters: agreed items become final at once (method "agreement"); then walk the disputed
    identifications (y/n) and the disputed labels of PP posts, the raters' answers side by side with the post.

    Labels: 1-9 takes that rater's value, Enter picks from the codebook; s skip, u undo, ? help, q quit. Every
    decision is saved when made (method "adjudicated", with the adjudicator). Adjudicated and imported finals
    are never overwritten; agreement finals follow the raters if they change their answers.
    """
    if auto_only:
        from labeling.reconcile import finalize

        lines = finalize(study.store, min_raters).lines()
    elif not (adjudicator or "").strip():
        raise click.UsageError("give --adjudicator NAME (or --auto-only)")
    else:
        from labeling.tui.reconcile import run_reconcile

        lines = run_reconcile(study.store, study.config.codebook_file, adjudicator, min_raters)
    for line in lines:
        say(line)


# -- progress (issue 13) --
@cli.command("progress")
@rater_option("Only this rater (repeatable). [default: every rater]", multiple=True)
@click.option("--stage", type=click.Choice(["identify", "classify"]), help="Only this stage. [default: both]")
@click.option("--seed", type=int, default=0, show_default=True, help="identify: the --seed of the sample.")
@click.option(
    "--sample", type=click.IntRange(min=1), metavar="N", help="identify: the --sample the raters label."
)
@format_option("table", "json")
@study_options
def progress_cmd(
    study, raters: tuple[str, ...], stage: str | None, seed: int, sample: int | None, fmt: str
) -> None:
    """Per rater and stage: posts decided, remaining, labeling rate and the time left at that rate (ETA).

    identify counts the candidates of the latest keyword-set version (the --seed/--sample the raters use);
    classify counts the posts that are PPs for the rater, done when every PP has its four labels. The rate is
    decisions per hour of active labeling (gaps over 10 minutes are breaks), the ETA hours of labeling at that
    rate; both are ? until a rater has timed decisions (imported ones are not). JSON: a list of {rater, stage,
    decided, remaining, total, rate_per_hour, eta_seconds, last_decision}.
    """
    from labeling.progress import STAGES, progress_report

    with study.store.read() as session:
        rows = progress_report(session, list(raters) or None, (stage,) if stage else STAGES, seed, sample)
    if fmt == "json":
        click.echo(json.dumps([r.as_dict() for r in rows], indent=2, ensure_ascii=False))
    elif not rows:
        click.echo("no rater has decided anything yet")
    else:
        emit_rows([r.table_row() for r in rows], fmt, title="Labeling progress")


# -- raters (issue 12) --
@cli.group("raters", invoke_without_command=True)
@format_option("table", "json", "csv")
@study_options
@click.pass_context
def raters_cmd(ctx, study, fmt: str) -> None:
    """List the raters with what each has decided; `rename` and `merge` them (both audited).

    A rater is one person whatever the case or spaces of the name ("Ann " is "ann"), shown as first written,
    and exists once they decided something (opening a labeling screen registers nobody).
    """
    if ctx.invoked_subcommand is not None:
        return
    from labeling.raters import RATER_COLUMNS, list_raters

    with study.store.read() as session:
        rows = list_raters(session)
    emit_rows(rows, fmt, RATER_COLUMNS, title="Raters")


@raters_cmd.command("rename")
@click.argument("old", metavar="NAME")
@click.argument("new", metavar="NEW_NAME")
@study_options
def raters_rename(study, old: str, new: str) -> None:
    """Show rater NAME as NEW_NAME from now on (refused if NEW_NAME is another rater: merge them instead)."""
    from labeling.raters import rename_rater

    with study.store.write() as session:
        before, after = rename_rater(session, old, new)
    say(f"rater {before!r} is now {after!r}" if before != after else f"rater {after!r} unchanged")


@raters_cmd.command("merge")
@click.argument("source", metavar="FROM")
@click.argument("target", metavar="INTO")
@study_options
def raters_merge(study, source: str, target: str) -> None:
    """Move every decision, label and adjudication of rater FROM to rater INTO, then remove FROM.

    Posts both decided must have the same decision and the same labels (duplicates are dropped); any other
    overlap refuses the merge, naming the posts, and changes nothing. One transaction, every move audited.
    """
    from labeling.raters import merge_raters

    with study.store.write() as session:
        moved = merge_raters(session, source, target)
    say(
        f"merged {source.strip()!r} into {target.strip()!r}: moved {moved['identifications']} identifications, "
        f"{moved['pp_labels']} PP labels, {moved['finals']} adjudicated finals"
    )


# -- samples (issue 12) --
@cli.command("samples")
@format_option("table", "json", "csv")
@study_options
def samples_cmd(study, fmt: str) -> None:
    """List the frozen samples: seed, size, posts, how many candidates and which keyword set and match run they
    were drawn from, by whom and when."""
    from labeling.samples import SAMPLE_COLUMNS, list_samples

    with study.store.read() as session:
        rows = list_samples(session)
    emit_rows(rows, fmt, SAMPLE_COLUMNS, title="Samples")


# -- triage: screening by priority (issue 14) --
def _order_options(store, rater: str, order: str, warmup: int | None, seed: int, sample: int | None) -> dict:
    """identify's --order: the queue's priority hook, or the start of a stopping sample."""
    if order == "priority":
        from labeling.triage.priority import DEFAULT_WARMUP, Priority

        return {"priority": Priority(warmup=DEFAULT_WARMUP if warmup is None else warmup)}
    if order == "sample":
        from labeling.triage.stopping import start_sample

        if sample is not None:
            raise click.UsageError("--order sample walks every undecided candidate: leave out --sample")
        start_sample(store, rater, seed)
    return {}


@cli.group()
def triage() -> None:
    """Screening by priority: replay screenings on labelled data, and when to stop an identify session."""


@triage.command("simulate")
@click.argument("dataset", metavar="[DATASET]", required=False, type=click.Path(dir_okay=False))
@click.option(
    "--seed",
    "seeds",
    type=int,
    multiple=True,
    metavar="N",
    help="Seed of one replay (its priors); repeat for more.  [default: 1 2 3 4 5]",
)
@click.option(
    "--prior-included",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Relevant priors per seed.",
)
@click.option(
    "--prior-excluded",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Irrelevant priors per seed.",
)
@click.option(
    "--model",
    metavar="NAME",
    help="<classifier>-<features>: nb, logistic or svm over plain or fields (e.g. svm-plain); join several "
    "with + to sum their standardised scores.  [default: svm-fields+svm-plain+logistic-plain, the measured best]",
)
@format_option("table", "json")
@click.option(
    "--plot", "plot_out", metavar="OUT.png", type=click.Path(dir_okay=False), help="Write the recall curve."
)
@study_options
def triage_simulate(study, dataset, seeds, prior_included, prior_excluded, model, fmt, plot_out) -> None:
    """Replay a screening by priority on labelled data and measure the reading it saves.

    DATASET is a CSV in ASReview's shape: title, abstract (or body), label_included (0/1), optional record_id.
    Without DATASET, the study database's final identifications are the labels (--db or $PPMINER_DB).
    Per seed: priors drawn at random, then always the top-ranked unread record, retraining as identify does.
    Metrics per seed and their mean: wss95, wss100 (work saved over random reading at 95% / 100% recall:
    records never read / N - (1 - r) when recall r is first reached), recall10, recall25 (recall after 10% /
    25% of the records are read) and read95 (records read to reach 95% recall). --format json adds every
    run's reading order (record ids, priors first).
    """
    from core.progress import progress
    from labeling.triage import dataset as ds
    from labeling.triage.models import DEFAULT_MODEL
    from labeling.triage.simulate import DEFAULT_SEEDS, METRICS, mean_metrics, simulate, to_json_obj

    if dataset is None and study.db_url is None:
        raise click.UsageError(
            "give a DATASET (CSV) or --db URL (the study database's final identifications)"
        )
    model = model or DEFAULT_MODEL
    seeds = tuple(seeds) or DEFAULT_SEEDS
    data = ds.read_csv(dataset) if dataset is not None else ds.from_database(study.store)
    where = str(dataset) if dataset is not None else "the study database"
    with progress(f"simulating {data.name}", total=len(seeds)) as bar:
        runs = simulate(
            data, seeds, prior_included, prior_excluded, model, where, on_run=lambda _r: bar.advance()
        )
    if plot_out:
        from labeling.triage.plot import plot_recall

        plot_recall(plot_out, data.labels, runs, f"{data.name}: {model}, {len(data)} records")
    if fmt == "json":
        click.echo(json.dumps(to_json_obj(data, runs, model)))
        return
    rows = [{"seed": r.seed, **r.metrics} for r in runs]
    rows.append({"seed": "mean", **mean_metrics(runs)})
    title = f"{data.name}: {len(data)} records, {data.positives} relevant, model {model}"
    emit_rows(rows, fmt, ["seed", *METRICS], title=title)


@triage.command("status")
@rater_option("The rater whose screening to assess.")
@click.option(
    "--recall",
    "target",
    type=click.FloatRange(0, 1, min_open=True),
    default=0.95,
    show_default=True,
    help="Target recall the test is about.",
)
@click.option(
    "--confidence",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
    help="Confidence of the test (it rejects at p < 1 - confidence).",
)
@format_option("table", "json")
@study_options
def triage_status(study, rater: str, target: float, confidence: float, fmt: str) -> None:
    """When may this rater stop identifying? A stopping estimate with its method and what it guarantees.

    Method: Callaghan & Müller-Hansen (2020). After reading by priority, read the undecided posts in random
    order (`pplabel identify --rater NAME --order sample`); the test asks whether the PPs found in that random
    sample are few enough to reject "recall < --recall" at --confidence (hypergeometric, exact). When it rejects,
    your recall among the candidates (your own decisions as truth) is at least --recall with that confidence.
    It says nothing before a sample is read, nor about posts never matched as candidates or other raters'
    decisions. JSON: the figures as one object (method, decided, pps, pool, sample, sample_pps, p_value, stop, ...).
    """
    from labeling.triage.stopping import estimate

    result = estimate(study.store, rater, target, confidence)
    if fmt == "json":
        click.echo(result.to_json())
    else:
        for line in result.lines():
            click.echo(line)


def main() -> None:
    run_cli(cli, "pplabel")


if __name__ == "__main__":
    main()
