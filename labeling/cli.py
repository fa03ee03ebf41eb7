"""`pplabel`: labeling sessions, agreement, reconciliation, import and export. Thin: parse, call, print."""

from __future__ import annotations

import click

from mining.cli_common import run_cli, study_options


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(package_name="ppminer")
def cli() -> None:
    """pplabel: label candidate posts with the study's codebook, measure agreement, reconcile, import/export.

    Works on the same study database as ppmine: every command takes --db URL (else $PPMINER_DB, else
    sqlite:///data/study.db) and --config FILE (else $PPMINER_CONFIG, else ppminer's data/study.toml).

    Exit status: 0 done, 1 failed (one line on stderr), 2 usage error, 130 interrupted (committed work kept).
    """


# Commands of the other modules register here, one line each.
# -- identify/classify (issue 6) --
@cli.command()
@click.option("--rater", required=True, metavar="NAME", help="Your rater name (created on first use).")
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Seed of the post order and of --sample."
)
@click.option(
    "--sample", type=click.IntRange(min=1), metavar="N", help="Only the first N candidates of the order."
)
@study_options
def identify(study, rater: str, seed: int, sample: int | None) -> None:
    """Decide for each candidate post whether it is a PP: y PP, n not, s skip, u undo, ? help, q quit.

    Each decision is saved when its key is pressed. Raters who label the same sample use the same --seed.
    """
    from labeling.tui.session import run_identify

    run_identify(study.store, rater, seed, sample)


@cli.command()
@click.option("--rater", required=True, metavar="NAME", help="Your rater name (created on first use).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the post order.")
@study_options
def classify(study, rater: str, seed: int) -> None:
    """Label the PPs of each post you (or the reconciliation) found to be a PP with the codebook.

    Per PP: symptoms, root cause, introducing and exposing stage, part and comment; each saved when picked.
    """
    from labeling.tui.session import run_classify

    run_classify(study.store, study.config.codebook_file, rater, seed)


# -- agreement/import/export (issue 7) --
from mining.cli_common import emit_rows, format_option, study_options  # noqa: E402

PUBLISHED_FORMATS = ("study", "identification", "labels")


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
@format_option("table", "json", "csv")
@study_options
def agreement(study, stage: str | None, top: int, fmt: str) -> None:
    """Inter-rater agreement per dimension: identification, symptom, root_cause, introducing_stage,
    exposing_stage, and the category level symptom_category, root_cause_category.

    For each: items rated by at least two raters, the raters, observed agreement (mean share of agreeing rater
    pairs per item), Cohen's kappa (exactly two raters, else null), Fleiss' kappa and Krippendorff's alpha
    (nominal; they allow more raters and missing ratings), and the most frequent disagreement pairs. Labels of
    different raters are matched by post and PP index. A PP's two symptoms are compared as ONE unordered set
    (symptom1 + symptom2), so {a, b} agrees with {b, a} but not with {a}; empty labels count as missing.
    """
    from labeling.agreement import (
        ROW_COLUMNS,
        compute_agreement,
        disagreement_rows,
        table_rows,
        to_json,
        to_rows,
    )
    from labeling.codebook import load_codebook

    codebook = load_codebook(study.config.codebook_file)
    with study.store.read() as session:
        result = compute_agreement(session, codebook, stage=stage, top=top)
    if fmt == "json":
        click.echo(to_json(result))
    elif fmt == "csv":
        emit_rows(to_rows(result), fmt, ROW_COLUMNS)
    else:
        emit_rows(table_rows(result), fmt, title="Inter-rater agreement")
        if top:
            emit_rows(disagreement_rows(result), fmt, title="Most frequent disagreements")


@cli.command("import")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(PUBLISHED_FORMATS),
    required=True,
    help="study: final labels (empirical_study.csv); identification: raters' PP decisions plus merge "
    "(kappa_identification.csv); labels: two raters' labels in the older vocabulary (kappa_label.csv).",
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
    """Import a published study file from a path or an http(s) URL, in one transaction.

    Labels are mapped through the codebook's aliases; one unknown label or malformed row rejects the whole file
    (the error names the line and value) and nothing is stored. A row needs a cell for every named column
    (trailing unnamed columns may be left out); a file with no data rows, another shape's header (the error
    names the right --format), a web page or a non-UTF-8 file is refused too. Posts not in the database get a
    stub (id, link, and title and creation date when the file has them). Final labels and decisions are
    recorded as "imported"; the study file's free-text comment column becomes the PP's "part".
    """
    from labeling.codebook import load_codebook
    from labeling.import_study import import_file

    names = _names(raters)
    if names is not None and fmt != "labels":
        raise click.BadParameter(
            "only for --format labels (a study file holds final labels; an identification file names its "
            "raters in its isPB_<rater> columns)",
            param_hint="--raters",
        )
    if names is not None and len(names) != 2:
        raise click.BadParameter("give two names, e.g. --raters cjm,longjie", param_hint="--raters")
    codebook = load_codebook(study.config.codebook_file) if fmt != "identification" else None
    result = import_file(study.store, fmt, source, codebook, tuple(names) if names else None)
    click.echo(result.summary())


@cli.command("export")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(PUBLISHED_FORMATS),
    required=True,
    help="study: final labels; identification: one isPB_<rater> column per rater plus merge when reconciled; "
    "labels: two raters' labels in the older vocabulary.",
)
@click.option(
    "--raters",
    metavar="A,B",
    help="identification: the raters' columns, in order [default: every rater with decisions]; labels: the two "
    "raters [default: the two raters with labels]; not for study.",
)
@click.argument("out", metavar="OUT.csv", type=click.Path(dir_okay=False))
@study_options
def export_cmd(study, fmt: str, raters: str | None, out: str) -> None:
    """Write the study database in one of the published CSV shapes, readable by `pplabel import`.

    Codes are written in the published spellings. Fields a shape has no column for (e.g. a rater's second
    symptom in the labels shape) are reported on stderr.
    """
    from labeling.export_study import export_file

    if raters is not None and fmt == "study":
        raise click.BadParameter("not for --format study (it holds final labels)", param_hint="--raters")
    result = export_file(study.store, fmt, out, _names(raters))
    for warning in result.warnings():
        click.echo(f"pplabel: warning: {warning}", err=True)
    click.echo(result.summary())


# -- reconcile (issue 7, reconciliation) --
@cli.command()
@click.option(
    "--adjudicator",
    metavar="NAME",
    help="Who settles the disagreements; recorded with every adjudicated final (created on first use). "
    "Required unless --auto-only.",
)
@click.option(
    "--min-raters",
    type=click.IntRange(min=1),
    default=2,
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
        click.echo(line)


def main() -> None:
    run_cli(cli, "pplabel")


if __name__ == "__main__":
    main()
