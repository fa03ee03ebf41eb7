"""`ppbench`: run PP benchmark cases buggy against fixed, read the stored records, check the machine. Thin."""

from __future__ import annotations

import json
from pathlib import Path

import click

from core.cli_common import db_options, emit_rows, format_option, run_cli

DEFAULT_OUT = "ppbench-records"


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(package_name="ppminer")
def cli() -> None:
    """ppbench: reproduce performance problems (PPs) as benchmark cases, a buggy and a fixed program measured
    against each other, each run in a fresh process, every run kept as a JSON record with the platform.

    A case is a folder with case.toml, buggy.py and fixed.py (the shipped ones: `ppbench list --cases`).
    Records go to --out and to the study database (--db URL, else $PPMINER_DB, else sqlite:///data/study.db).

    Exit status: 0 done, 1 a case failed or an error (one line on stderr), 2 usage error, 130 interrupted.
    """


@cli.command()
@click.argument("case_dirs", metavar="CASE_DIR...", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--repeat", type=click.IntRange(min=2), metavar="N",
              help="Measured runs per variant.  [default: the case's repeats]")  # fmt: skip
@click.option("--warmup", type=click.IntRange(min=0), metavar="N",
              help="Unrecorded runs per variant first.  [default: the case's warmup]")  # fmt: skip
@click.option("--profile", is_flag=True,
              help="Save a TensorFlow Profiler trace of each measured run's section beside its record "
              "(when the case imports TensorFlow).")  # fmt: skip
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_OUT, show_default=True,
              help="Folder for the records: <session>/<case>/<variant>-<repeat>.json, result.json, run logs.")  # fmt: skip
@click.option("--no-db", is_flag=True, help="Keep the records as files only.")
@db_options
def run(case_dirs, repeat, warmup, profile, out, no_db, db_url) -> None:
    """Run each case: buggy and fixed alternately (ABBA), each run a fresh process, and judge the PP.

    Measures wall time, CPU time and peak memory of every run, the section and per-step times and memory the
    case reports (ppbench.probe), and GPU memory and utilisation through NVML where a GPU exists. Prints per case
    the fixed/buggy ratio of medians with its 95% bootstrap interval and whether the PP reproduced by the case's
    symptom: time or memory (the interval lies below 1), memory growth (memory grows across the buggy steps and
    the interval of the growth ratio lies below 1), oom (buggy runs run out of memory, fixed ones finish).
    A case that cannot run ends with one line on stderr and a failure record; the others still run.
    """
    from core.db import open_store
    from ppbench.bench import run_cases

    store = None if no_db else open_store(db_url)
    failed = 0

    def report(outcome) -> None:
        nonlocal failed
        if outcome.failed:
            failed += 1
            click.echo(f"ppbench: error: {outcome.line()}", err=True)
        else:
            click.echo(outcome.line())

    outcomes = run_cases(list(case_dirs), out, store, repeat, warmup, profile, on_case=report)
    session = outcomes[0].folder.parent if outcomes else out
    click.echo(f"records: {session}")
    if failed:
        raise SystemExit(1)


@cli.command("list")
@click.option("--cases", "cases", is_flag=True, help="List the cases shipped with ppbench instead.")
@click.option("--case", "case_name", metavar="NAME", help="Only this case's results.")
@click.option(
    "--limit", type=click.IntRange(min=1), default=50, show_default=True, help="Newest results shown."
)
@format_option("table", "json", "csv")
@db_options
def list_cmd(cases, case_name, limit, fmt, db_url) -> None:
    """The stored verdicts, newest first (or, with --cases, the shipped cases with their PPs and ppcheck rules)."""
    if cases:
        from ppbench.case import load_case, shipped_cases

        rows = []
        for folder in shipped_cases():
            c = load_case(folder)
            # A table shows the folder as typed from here (it fits 80 columns); machine output keeps it absolute.
            shown = str(c.folder) if fmt != "table" else shown_path(c.folder)
            rows.append({"case": c.name, "pp": list(c.pp_ids), "symptom": c.symptom, "metric": c.metric,
                         "root_cause": c.root_cause, "ppcheck": list(c.ppcheck), "folder": shown,
                         "title": c.title})  # fmt: skip
        emit_rows(rows, fmt, title="ppbench cases")
        return
    from core.db import open_store
    from ppbench.records import RESULT_COLUMNS, result_rows

    emit_rows(result_rows(open_store(db_url), case_name, limit), fmt, RESULT_COLUMNS, title="ppbench results")


@cli.command()
@click.argument("key", metavar="ID_OR_CASE")
@format_option("table", "json")
@db_options
def show(key, fmt, db_url) -> None:
    """One stored verdict (by result id, or the newest of a case) with its runs; --format json: the records."""
    from core.db import open_store
    from core.errors import PPMinerError
    from ppbench.records import find_result

    found = find_result(open_store(db_url), key)
    if found is None:
        raise PPMinerError(f"no ppbench result with id or case name {key!r} (see `ppbench list`)")
    result, runs = found
    if fmt == "json":
        click.echo(json.dumps({"result": result, "runs": runs}, indent=2, default=str, ensure_ascii=False))
        return
    from core.text import terminal_safe

    case = result["case"]
    ci = result.get("ci") or [None, None]
    lines = [
        f"case       {case.get('name')}: {case.get('title', '')}",
        f"pp         {', '.join(case.get('pp_ids') or [])}  root cause {case.get('root_cause', '-')}",
        f"symptom    {case.get('symptom', '-')} by {result.get('metric') or '-'}",
        f"status     {result['status']}" + (f" ({result['reason']})" if result.get("reason") else ""),
    ]
    if result.get("error"):
        lines.append(f"error      {result['error']}")
    if result.get("ratio") is not None:
        lines.append(f"ratio      {result['ratio']:.4g} fixed/buggy, 95% CI {ci[0]:.4g}-{ci[1]:.4g}")
    platform = result.get("platform") or {}
    lines.append(f"platform   {platform.get('host')}, {(platform.get('cpu') or {}).get('model')}, "
                 f"{platform.get('python')}")  # fmt: skip
    lines.append(f"session    {result['session']}")
    for line in lines:
        click.echo(terminal_safe(line, keep_newlines=False))
    rows = [{"variant": r["variant"], "repeat": r["repeat"], "status": r["status"],
             "wall_s": r["measurements"].get("wall_s"), "section_s": r["measurements"].get("section_s"),
             "cpu_s": r["measurements"].get("cpu_s"),
             "peak_rss_mib": (r["measurements"].get("peak_rss_bytes") or 0) / 2**20 or None}
            for r in runs]  # fmt: skip
    if rows:
        emit_rows(rows, "table", title="runs")


@cli.command()
@format_option("table", "json")
def env(fmt) -> None:
    """What a performance investigation checks first on this machine: the devices TensorFlow and PyTorch see,
    whether their GPU builds, CUDA/cuDNN, MKL and oneDNN are in use, their thread settings, CPU instruction sets,
    memory and load, and other processes on the GPU (NVML). The same facts go into every run record."""
    from ppbench.env import FRAMEWORK_DISTRIBUTIONS, checklist, platform_facts

    facts = platform_facts(set(FRAMEWORK_DISTRIBUTIONS))
    if fmt == "json":
        click.echo(json.dumps(facts, indent=2, default=str))
        return
    emit_rows([{"check": k, "finding": v} for k, v in checklist(facts)], "table")


def shown_path(folder: Path) -> str:
    """A folder as typed from the current directory when it lies below it, else absolute."""
    try:
        return str(folder.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(folder)


def main() -> None:
    run_cli(cli, "ppbench")


if __name__ == "__main__":
    main()
