"""Every table ppmine, pplabel and ppbench print is readable in an 80x24 terminal.

Readable means: no line is wider than 80 columns, nothing is cut with an ellipsis, and every id, site and date the
command reports (read back from its `--format json`) stands whole in the table. A table whose words cannot stand
side by side is printed one block a row (as psql's expanded display), never cut.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from labeling.cli import cli as pplabel
from mining.cli import cli as ppmine
from ppbench.cli import cli as ppbench

WIDTH = {"COLUMNS": "80", "LINES": "24"}


def invoke(group, *args: str, db: str | None = None):
    env = dict(WIDTH, **({"PPMINER_DB": db} if db else {}))
    result = CliRunner().invoke(group, list(args), env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def study(tmp_path_factory, fixtures, published) -> str:
    """The ai.stackexchange dump, matched without filters, with the three published files imported."""
    db = f"sqlite:///{tmp_path_factory.mktemp('tables') / 'study.db'}"
    dump = fixtures / "se_dumps" / "ai.stackexchange.com"
    invoke(ppmine, "import-dump", str(dump / "Posts.xml"), "--comments", str(dump / "Comments.xml"),
           "--all-questions", db=db)  # fmt: skip
    for fmt, name in (
        ("study", "empirical_study.csv"),
        ("identification", "kappa_identification.csv"),
        ("labels", "kappa_label.csv"),
    ):
        invoke(pplabel, "import", "--format", fmt, str(published / name), db=db)
    invoke(ppmine, "match", "--no-filters", db=db)
    return db


def words_of(rows: list[dict], keys: tuple[str, ...]) -> set[str]:
    """The single-word text values (ids, sites, dates, codes) of these keys in JSON rows (numbers are rounded in a
    table, so they are not among them)."""
    found = set()
    for row in rows:
        for key in keys:
            value = row.get(key)
            if isinstance(value, str) and value and " " not in value:
                found.add(str(value))
    return found


def assert_readable(table: str, whole: set[str] = frozenset()) -> None:
    lines = table.splitlines()
    assert lines, "no output"
    too_wide = [line for line in lines if len(line) > 80]
    assert not too_wide, f"{len(too_wide)} lines over 80 columns, e.g. {too_wide[0]!r}"
    assert "…" not in table, table
    cut = sorted(w for w in whole if not re.search(rf"(?<![\w.-]){re.escape(w)}(?![\w.-])", table))
    assert not cut, f"not shown whole: {cut[:5]}\n{table}"


def test_candidates_show_ids_and_sites_whole_and_say_what_is_left_out(study):
    table = invoke(ppmine, "candidates", db=study)
    rows = json.loads(invoke(ppmine, "candidates", "--format", "json", db=study))
    assert rows
    assert_readable(table, words_of(rows, ("post_id", "site")))
    assert "link left out to fit 80 columns" in table
    # titles wrap between words, never one word a line
    body = [line.split("│")[2] for line in table.splitlines() if line.count("│") >= 4]
    assert min(len(cell.strip()) for cell in body if cell.strip()) > 0
    assert max(len(cell) for cell in body) >= 20
    wide = CliRunner().invoke(ppmine, ["candidates"], env={"COLUMNS": "160", "PPMINER_DB": study}).stdout
    assert "https://ai.stackexchange.com/questions/70" in wide and "left out" not in wide


def test_keyword_set_versions(study):
    rows = json.loads(invoke(ppmine, "candidates", "--versions", "--format", "json", db=study))
    assert_readable(
        invoke(ppmine, "candidates", "--versions", db=study), words_of(rows, ("content_hash", "mode"))
    )


def test_stats(study):
    data = json.loads(invoke(ppmine, "stats", "--format", "json", db=study))
    table = invoke(ppmine, "stats", db=study)
    assert_readable(table)
    assert "questions" in table and str(data["questions"] if isinstance(data, dict) else "") in table


@pytest.mark.parametrize("report", [None, "pairwise", "majority", "confusion", "disputed", "pairing"])
def test_agreement_tables(study, report):
    args = ["agreement", *(["--report", report] if report else [])]
    table = invoke(pplabel, *args, db=study)
    if report is None:
        whole = {"identification", "root_cause_category", "introducing_stage", "exposing_stage"}
    else:
        rows = json.loads(invoke(pplabel, *args, "--format", "json", db=study))
        assert rows
        whole = words_of(rows[:30], tuple(k for k in rows[0] if k not in ("items", "count")))
    assert_readable(table, whole)


def test_agreement_disagreements_keep_codes_whole(study):
    table = invoke(pplabel, "agreement", db=study)
    assert_readable(
        table, {"time.slow_execution", "time.increasing_over_time", "processor.abnormal_gpu_util"}
    )


def test_progress_raters_and_samples(study):
    invoke(pplabel, "progress", db=study)
    for args, keys in (
        (("progress",), ("rater", "stage")),
        (("raters",), ("rater", "first", "last")),
        (("samples",), ("seed", "drawn_at")),
    ):
        table = invoke(pplabel, *args, db=study)
        rows = json.loads(invoke(pplabel, *args, "--format", "json", db=study))
        assert_readable(table, words_of(rows, keys))
    assert "2026" in invoke(pplabel, "raters", db=study) or "20" in invoke(pplabel, "raters", db=study)


def test_ppbench_tables(tmp_path):
    db = f"sqlite:///{tmp_path / 'bench.db'}"
    table = invoke(ppbench, "list", "--cases")
    rows = json.loads(invoke(ppbench, "list", "--cases", "--format", "json"))
    assert rows
    # The table shows each folder as typed from the working directory; the JSON keeps it absolute.
    assert all(Path(row["folder"]).is_absolute() for row in rows)
    for row in rows:
        row["folder"] = os.path.relpath(row["folder"])
    assert_readable(table, words_of(rows, ("case", "root_cause", "folder")))
    assert_readable(invoke(ppbench, "env"))
    assert_readable(invoke(ppbench, "list", "--db", db))
