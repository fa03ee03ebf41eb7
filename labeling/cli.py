"""`pplabel`: labeling sessions, agreement, reconciliation, import and export. Thin: parse, call, print."""

from __future__ import annotations

import click

from mining.cli_common import run_cli


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(package_name="ppminer")
def cli() -> None:
    """pplabel: label candidate posts with the study's codebook, measure agreement, reconcile, import/export.

    Works on the same study database as ppmine (--db URL, else $PPMINER_DB, else sqlite:///data/study.db).
    """


# Commands of the other modules register here, one line each.
# -- identify/classify (issue 6) --

# -- agreement/import/export (issue 7) --

# -- reconcile (issue 7, reconciliation) --


def main() -> None:
    run_cli(cli, "pplabel")


if __name__ == "__main__":
    main()
