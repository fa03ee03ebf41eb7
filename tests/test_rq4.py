"""RQ4: the published benchmark's cases and assessment through `pplabel import/export --format benchmark`, the
queries in labeling.analysis, the replication check and notebook 07, checked against counts computed here
straight from data/published/benchmark.csv."""

from __future__ import annotations

import functools
import http.server
import subprocess
import threading
from pathlib import Path

import pandas as pd
import pytest
import sqlalchemy as sa
from conftest import run_cli

from core.errors import PPMinerError
from core.schema.labeling import AuditEntry, BenchmarkCase, FinalLabel
from core.schema.mining import Question
from core.sites import parse_pp_key
from labeling import analysis
from labeling.codebook import load_codebook
from labeling.io.benchmark import export_benchmark, import_benchmark
from labeling.io.import_study import import_file

PROJECT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def codebook():
    return load_codebook()


def _published_frame(published) -> pd.DataFrame:
    return pd.read_csv(published / "benchmark.csv", encoding="utf-8-sig", dtype=str, keep_default_na=False)


def _expected_rq4(published) -> dict[str, dict[str, int]]:
    raw = _published_frame(published)
    out = {}
    for tool in ("profiler", "xla"):
        status = raw[f"{tool}_status"].astype(int)
        out[tool] = {
            "applied": int((status != -1).sum()),
            "not_solved": int((status == 0).sum()),
            "partly_solved": int((status == 1).sum()),
        }
    out["documentation"] = {"applied": int((raw["performance_modified"].astype(int) == 1).sum())}
    return out


def _pplabel(*args: str) -> subprocess.CompletedProcess:
    return run_cli("labeling.cli", *args, check=False)


def _counts(store) -> tuple[int, int, int]:
    with store.read() as s:
        return tuple(
            s.scalar(sa.select(sa.func.count()).select_from(t)) for t in (BenchmarkCase, Question, AuditEntry)
        )


def test_import_links_every_case_to_its_pp_and_export_is_byte_exact(store, published, codebook, tmp_path):
    if (
        store.is_sqlite
    ):  # the study's PPs first, so the cases can be checked against them (slow on PostgreSQL)
        import_file(store, "study", str(published / "empirical_study.csv"), codebook)
    result = import_benchmark(store, str(published / "benchmark.csv"), codebook)
    raw = _published_frame(published)
    assert result.cases == len(raw) == 58
    with store.read() as s:
        cases = {(c.question_id, c.pp_index): c for c in s.scalars(sa.select(BenchmarkCase))}
        assert len(cases) == 58
        first = cases[(65160023, 1)]
        assert (first.profiler_status, first.xla_status, first.documentation_applies) == (0, -1, False)
        assert first.root_cause == "model.improper_model_parameter"
        bare = cases[(64246466, 1)]  # published as a bare post id: PP 1
        assert bare.published_id == "64246466" and bare.documentation_applies
        if store.is_sqlite:
            finals = set(s.execute(sa.select(FinalLabel.question_id, FinalLabel.pp_index)).all())
            assert set(cases) <= finals  # every case is one of the study's PPs
        audited = s.scalar(
            sa.select(sa.func.count()).select_from(AuditEntry).where(AuditEntry.entity == "benchmark_cases")
        )
        assert audited == 58
    out = tmp_path / "benchmark.csv"
    assert export_benchmark(store, out) == 58
    assert out.read_bytes() == (published / "benchmark.csv").read_bytes()
    before = _counts(store)
    import_benchmark(store, str(out), codebook)  # the same file again changes nothing
    assert _counts(store) == before


def test_cli_round_trip_from_a_url(published, tmp_path):
    handler = functools.partial(_Quiet, directory=str(published))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/benchmark.csv"
        db = f"sqlite:///{tmp_path / 'study.db'}"
        done = _pplabel("import", "--db", db, "--format", "benchmark", url)
        assert done.returncode == 0, done.stderr
        assert "imported 58 benchmark cases" in done.stdout
    finally:
        server.shutdown()
        server.server_close()
    done = _pplabel("export", "--db", db, "--format", "benchmark", str(tmp_path / "out.csv"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.csv").read_bytes() == (published / "benchmark.csv").read_bytes()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _broken(published, tmp_path, line: int, column: str, value: str) -> Path:
    """benchmark.csv with one cell of data line ``line`` (1 = first row after the header) replaced."""
    raw = _published_frame(published)
    raw.loc[line - 1, column] = value
    path = tmp_path / "broken.csv"
    raw.to_csv(path, index=False, encoding="utf-8-sig", lineterminator="\r\n")
    return path


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("profiler_status", "2", r"broken.csv:5: bad profiler_status '2' \(want -1 not applied"),
        ("xla_status", "yes", r"broken.csv:5: bad xla_status 'yes'"),
        ("xla_status", " 1", r"broken.csv:5: bad xla_status ' 1'"),
        ("performance_modified", "01", r"broken.csv:5: bad performance_modified '01'"),
        ("performance_modified", "-1", r"broken.csv:5: bad performance_modified '-1'"),
        (
            "root cause1",
            "API: magic",
            r"broken.csv:5: unknown root_cause label 'API: magic' in column 'root cause1'",
        ),
        ("_id", "abc_1", r"broken.csv:5: bad id 'abc_1' in column '_id'"),
        ("_id", "65160023_1", r"broken.csv:5: PP 65160023_1 already given on line 2"),
        ("creation_date", "yesterday", r"broken.csv:5: bad creation_date 'yesterday'"),
    ],
)
def test_a_bad_value_rejects_the_whole_file_naming_line_and_value(
    sqlite_store, published, codebook, tmp_path, column, value, message
):
    import_benchmark(sqlite_store, str(published / "benchmark.csv"), codebook)
    before = _counts(sqlite_store)
    with pytest.raises(PPMinerError, match=message):
        import_benchmark(sqlite_store, str(_broken(published, tmp_path, 4, column, value)), codebook)
    assert _counts(sqlite_store) == before


def test_cli_errors_are_one_line_and_name_the_right_format(published, tmp_path):
    db = f"sqlite:///{tmp_path / 'study.db'}"
    done = _pplabel("import", "--db", db, "--format", "study", str(published / "benchmark.csv"))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"pplabel: error: {published / 'benchmark.csv'}:1: the header of a 'benchmark' file, not of a 'study' one: "
        "import it with --format benchmark"
    ]
    done = _pplabel("import", "--db", db, "--format", "benchmark", str(published / "empirical_study.csv"))
    assert done.returncode == 1 and "import it with --format study" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    broken = _broken(published, tmp_path, 10, "xla_status", "7")
    done = _pplabel("import", "--db", db, "--format", "benchmark", str(broken))
    assert (
        done.returncode == 1
        and done.stderr.strip()
        == f"pplabel: error: {broken}:11: bad xla_status '7' "
        + ("(want -1 not applied, 0 applied, not solved, 1 partly solved)")
    )
    done = _pplabel("export", "--db", db, "--format", "benchmark", "--raters", "a,b", str(tmp_path / "x.csv"))
    assert done.returncode == 2 and "--raters" in done.stderr


def test_rq4_tables_count_the_published_file(sqlite_store, published, codebook):
    import_benchmark(sqlite_store, str(published / "benchmark.csv"), codebook)
    with sqlite_store.read() as s:
        cases = analysis.benchmark_cases(s)
    table = analysis.rq4_table(cases)
    assert list(table.columns) == ["tool", "applied", "not_solved", "partly_solved"]
    assert list(table["tool"]) == ["profiler", "xla", "documentation"]
    expected = _expected_rq4(published)
    for tool, figures in expected.items():
        row = table.set_index("tool").loc[tool]
        assert {k: int(row[k]) for k in figures} == figures, tool
    assert pd.isna(table.set_index("tool").loc["documentation", "not_solved"])

    by_cause = analysis.rq4_by_root_cause(cases, codebook)
    raw = _published_frame(published)
    category = raw["root cause1"].map(lambda v: codebook.category(codebook.resolve("root_cause", v)))
    names = {c.code: c.name for c in codebook.categories("root_cause")}
    for code, part in raw.groupby(category):
        row = by_cause.set_index("category").loc[names[code]]
        assert row["cases"] == len(part)
        assert row["xla_applied"] == (part["xla_status"].astype(int) >= 0).sum()
        assert row["profiler_partly_solved"] == (part["profiler_status"].astype(int) == 1).sum()
        assert row["documentation_applied"] == (part["performance_modified"] == "1").sum()
    assert by_cause["cases"].sum() == 58


def test_published_yaml_holds_the_figures_the_csv_gives(published):
    figures = analysis.load_published(PROJECT / "data" / "published.yaml")["rq4"]
    assert figures.pop("cases") == len(_published_frame(published))
    assert figures == _expected_rq4(published)


def test_replication_lists_rq4_and_marks_differences(sqlite_store, published, codebook):
    empty = analysis.rq4_replication_rows({"cases": 58, "xla": {"applied": 24}}, None)
    assert [r["status"] for r in empty] == ["MISSING", "MISSING"]
    import_benchmark(sqlite_store, str(published / "benchmark.csv"), codebook)
    with sqlite_store.read() as s:
        cases = analysis.benchmark_cases(s)
    rows = analysis.rq4_replication_rows(
        {"cases": 58, "profiler": {"applied": 15, "partly_solved": 3}, "documentation": {"applied": 12}},
        cases,
    )
    status = {r["item"]: (r["status"], r["difference"]) for r in rows}
    assert status == {
        "cases": ("same", 0),
        "profiler applied": ("same", 0),
        "profiler partly solved": ("DIFFERS", -1),
        "documentation applied": ("same", 0),
    }


@pytest.mark.slow
def test_notebook_writes_the_rq4_assessment(published, codebook, tmp_path, monkeypatch):
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    url = f"sqlite:///{tmp_path / 'study.db'}"
    done = _pplabel("import", "--db", url, "--format", "benchmark", str(published / "benchmark.csv"))
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    monkeypatch.setenv("PPMINER_DB", url)
    monkeypatch.setenv("PPMINER_OUT", str(out))
    monkeypatch.delenv("MPLBACKEND", raising=False)
    km = KernelManager(kernel_name="python3")
    km.start_kernel(cwd=str(PROJECT / "notebooks"))
    try:
        nb = nbformat.read(PROJECT / "notebooks" / "07_rq4.ipynb", as_version=4)
        NotebookClient(nb, km=km, timeout=120).execute()
    finally:
        km.shutdown_kernel(now=True)
    got = pd.read_csv(out / "rq4_assessment.csv", keep_default_na=False)
    assert list(got.columns) == ["tool", "applied", "not_solved", "partly_solved"]
    expected = _expected_rq4(published)
    for _, row in got.iterrows():
        want = expected[row["tool"]]
        assert {k: int(row[k]) for k in want} == want
    assert list(got["tool"]) == ["profiler", "xla", "documentation"]
    assert (out / "rq4_root_causes.csv").stat().st_size > 0 and (
        out / "rq4_assessment.png"
    ).stat().st_size > 0
    replication = analysis.open_study(url, out=tmp_path / "again").replication()
    rq4 = replication[replication["section"] == "rq4"]
    assert len(rq4) == 8 and (rq4["status"] == "same").all(), rq4
    assert {(post.id, pp) for post, pp in map(parse_pp_key, _published_frame(published)["_id"])} == {
        tuple(k) for k in analysis.open_study(url).benchmark_cases()[["question_id", "pp_index"]].to_numpy()
    }
