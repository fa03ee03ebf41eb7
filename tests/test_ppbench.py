"""ppbench's harness on small pure-Python cases that really run (no TensorFlow needed): verdicts by symptom,
records as files and in the database, bad cases, the case reader, the statistics and the CLI."""

from __future__ import annotations

import csv
import json
import subprocess
import textwrap
from datetime import datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from conftest import run_cli

from core.db import open_store
from core.errors import PPMinerError
from core.schema.bench import BenchResult, BenchRun
from ppbench.bench import run_cases
from ppbench.case import load_case, shipped_cases
from ppbench.stats import bootstrap_ratio, judge, slope

PROJECT = Path(__file__).resolve().parent.parent

# buggy: a Python loop; fixed: the same count of multiplications done by the builtin sum over a quarter of them
LOOP = """
from ppbench import probe
n = probe.count(1000)
with probe.section():
    total = 0
    for i in range(n):
        total += i * i
"""
FAST = """
from ppbench import probe
n = probe.count(1000)
with probe.section():
    total = sum(i * i for i in range(0, n, 8))
"""


def make_case(root: Path, name: str, buggy: str | None, fixed: str | None, **toml) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    fields = {"title": f"case {name}", "pp_ids": ["57354698"], "symptom": "time",
              "root_cause": "api.not_efficient_api", "steps": 100000, "repeats": 3, "warmup": 0} | toml  # fmt: skip
    lines = [f"{k} = {json.dumps(v)}" for k, v in fields.items() if v is not None]
    (folder / "case.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for variant, code in (("buggy", buggy), ("fixed", fixed)):
        if code is not None:
            (folder / f"{variant}.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return folder


def _ppbench(*args: str, cwd: Path = PROJECT) -> subprocess.CompletedProcess:
    return run_cli("ppbench.cli", *args, check=False, cwd=cwd)  # in this process; the cases run in their own


def test_run_judges_a_speedup_and_keeps_records_as_files_and_in_the_database(db_url, tmp_path):
    folder = make_case(tmp_path, "loop_sum", LOOP, FAST, pp_ids=["55409283_2", "57354698"])
    store = open_store(db_url)
    [outcome] = run_cases([folder], tmp_path / "out", store)
    result = outcome.result
    assert result["status"] == "reproduced" and result["reproduced"] is True
    low, high = result["ci"]
    assert low <= result["ratio"] <= high < 1
    assert result["fixed_median"] < result["buggy_median"]
    assert "reproduced: fixed/buggy section" in outcome.line()
    # one JSON record per measured run, alternating ABBA, with the platform and the case
    files = sorted(outcome.folder.glob("*-*.json"))
    assert [f.name for f in files] == [f"{v}-{i}.json" for v in ("buggy", "fixed") for i in range(3)]
    run_records = [json.loads(f.read_text()) for f in files]
    order = [(r["variant"], r["repeat"]) for r in sorted(run_records, key=lambda r: r["started_at"])]
    assert order == [("buggy", 0), ("fixed", 0), ("fixed", 1), ("buggy", 1), ("buggy", 2), ("fixed", 2)]
    first = run_records[0]
    assert first["schema"] == "ppbench.run/1" and first["status"] == "ok" and first["exit_code"] == 0
    m = first["measurements"]
    assert m["section_s"] > 0 and m["wall_s"] > m["section_s"] and m["cpu_s"] > 0
    assert 5 * 2**20 < m["peak_rss_bytes"] < 60 * 2**20  # the script's own peak, not the harness's
    assert m["gpu"] is None  # no GPU here
    platform = first["platform"]
    assert platform["host"] and platform["python"].startswith("CPython") and platform["cpu"]["logical_cores"]
    assert platform["memory"]["total_bytes"] > 0 and "frameworks" in platform
    assert first["case"]["pp_ids"] == ["55409283_2", "57354698"]
    saved = json.loads((outcome.folder / "result.json").read_text())
    assert saved["schema"] == "ppbench.result/1" and saved["ratio"] == result["ratio"]
    with store.read() as s:
        runs = s.scalars(sa.select(BenchRun).order_by(BenchRun.id)).all()
        [stored] = s.scalars(sa.select(BenchResult)).all()
        assert len(runs) == 6 and {(r.site, r.question_id, r.pp_index) for r in runs} == {
            ("stackoverflow", 55409283, 2)
        }
        assert (stored.site, stored.question_id, stored.pp_index, stored.status) == (
            "stackoverflow", 55409283, 2, "reproduced"
        )  # fmt: skip
        assert stored.ratio == pytest.approx(result["ratio"]) and stored.ci_high < 1
        assert runs[0].record["measurements"]["section_s"] == pytest.approx(m["section_s"])


def test_a_pp_of_another_site_is_stored_under_its_site(sqlite_store, tmp_path):
    """A case may reproduce a PP from ai.stackexchange (ai:136_1): its runs are not filed under Stack Overflow 136."""
    folder = make_case(tmp_path, "ai_case", FAST, FAST, pp_ids=["ai:136_1"], repeats=2)
    [outcome] = run_cases([folder], tmp_path / "out", sqlite_store)
    assert outcome.result["case"]["pp_ids"] == ["ai:136_1"]
    with sqlite_store.read() as s:
        runs = s.scalars(sa.select(BenchRun)).all()
        [stored] = s.scalars(sa.select(BenchResult)).all()
    assert {(r.site, r.question_id, r.pp_index) for r in runs} == {("ai", 136, 1)}
    assert (stored.site, stored.question_id) == ("ai", 136)


def test_a_fix_that_is_slower_does_not_reproduce(sqlite_store, tmp_path):
    folder = make_case(tmp_path, "backwards", FAST, LOOP)
    [outcome] = run_cases([folder], tmp_path / "out", sqlite_store)
    assert outcome.result["status"] == "not reproduced" and outcome.result["reproduced"] is False
    assert outcome.result["ci"][0] > 1


def test_memory_verdicts_peak_growth_and_oom(tmp_path):
    peak = make_case(
        tmp_path, "peak", "block = bytearray(300 * 2**20)\n",
        "for _ in range(10):\n    block = bytearray(30 * 2**20)\n    del block\n",
        symptom="memory", steps=None, repeats=2,
    )  # fmt: skip
    growth = make_case(
        tmp_path, "growth",
        "from ppbench import probe\nkeep = []\nfor i in probe.steps(12):\n    keep.append(bytearray(4 * 2**20))\n",
        "from ppbench import probe\nfor i in probe.steps(12):\n    block = bytearray(4 * 2**20)\n",
        symptom="memory_growth", steps=None, repeats=2,
    )  # fmt: skip
    oom = make_case(
        tmp_path, "oom", "data = bytearray(2 * 2**30)\n",
        "for _ in range(8):\n    data = bytearray(2**28)\n    del data\n",
        symptom="oom", steps=None, repeats=2, memory_limit_mb=1024,
    )  # fmt: skip
    outcomes = {o.name: o.result for o in run_cases([peak, growth, oom], tmp_path / "out", None)}
    assert outcomes["peak"]["status"] == "reproduced", outcomes["peak"]
    assert outcomes["peak"]["buggy_median"] > 300 * 2**20 > 100 * 2**20 > outcomes["peak"]["fixed_median"]
    assert outcomes["growth"]["status"] == "reproduced", outcomes["growth"]
    assert outcomes["growth"]["buggy_median"] == pytest.approx(4 * 2**20, rel=0.25)  # bytes per step
    assert outcomes["oom"]["status"] == "reproduced", outcomes["oom"]
    buggy = json.loads((tmp_path / "out").glob("*/oom/buggy-0.json").__next__().read_text())
    assert buggy["status"] == "oom" and "MemoryError" in buggy["error"]


def test_bad_cases_end_with_one_line_each_and_the_others_still_run(tmp_path):
    cases = tmp_path / "cases"
    make_case(cases, "a_missing", LOOP, None)
    make_case(cases, "b_crash", LOOP, "import sys\nraise ValueError('boom at step 3')\n")
    make_case(cases, "c_timeout", LOOP, "import time\ntime.sleep(60)\n", timeout_s=1)
    (cases / "d_badtoml").mkdir()
    (cases / "d_badtoml" / "case.toml").write_text('title = "x"\nsymptom = time\n', encoding="utf-8")
    make_case(cases, "e_good", LOOP, FAST, repeats=2)
    db = f"sqlite:///{tmp_path / 'study.db'}"
    done = _ppbench(
        "run", *sorted(str(p) for p in cases.iterdir()), "--out", str(tmp_path / "out"), "--db", db
    )
    assert done.returncode == 1
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 4, done.stderr
    assert errors[0].startswith("ppbench: error: a_missing: FAILED: ") and "fixed.py: missing" in errors[0]
    assert errors[1] == "ppbench: error: b_crash: FAILED: fixed.py crashed: ValueError: boom at step 3"
    assert errors[2] == "ppbench: error: c_timeout: FAILED: fixed.py timeout: killed after the 1 s timeout"
    assert (
        errors[3].startswith("ppbench: error: d_badtoml: FAILED: ")
        and "case.toml:2: not valid TOML" in errors[3]
    )
    assert done.stdout.startswith("e_good: reproduced")
    store = open_store(db)
    with store.read() as s:
        status = dict(s.execute(sa.select(BenchResult.case_name, BenchResult.status)).all())
        crashed = s.scalars(sa.select(BenchRun).where(BenchRun.status == "crashed")).one()
    assert status == {"a_missing": "failed", "b_crash": "failed", "c_timeout": "failed", "d_badtoml": "failed",
                      "e_good": "reproduced"}  # fmt: skip
    assert crashed.case_name == "b_crash" and crashed.record["exit_code"] == 1
    result = json.loads(next((tmp_path / "out").glob("*/c_timeout/result.json")).read_text())
    assert result["status"] == "failed" and "timeout" in result["error"]


def test_cli_list_show_env_and_usage_errors(tmp_path):
    folder = make_case(tmp_path, "listed", LOOP, FAST, repeats=2)
    db = f"sqlite:///{tmp_path / 'study.db'}"
    assert _ppbench("run", str(folder), "--out", str(tmp_path / "out"), "--db", db).returncode == 0
    listed = json.loads(_ppbench("list", "--db", db, "--format", "json").stdout)
    assert [(r["case"], r["status"], r["buggy_runs"]) for r in listed] == [("listed", "reproduced", 2)]
    shown = json.loads(_ppbench("show", "listed", "--db", db, "--format", "json").stdout)
    assert shown["result"]["case"]["name"] == "listed" and len(shown["runs"]) == 4
    text = _ppbench("show", str(listed[0]["id"]), "--db", db)
    assert text.returncode == 0 and "status     reproduced" in text.stdout
    missing = _ppbench("show", "nothing", "--db", db)
    assert missing.returncode == 1 and missing.stderr.strip().splitlines() == [
        "ppbench: error: no ppbench result with id or case name 'nothing' (see `ppbench list`)"
    ]
    usage = _ppbench("run", str(folder), "--repeat", "1", "--no-db")
    assert usage.returncode == 2 and "--repeat" in usage.stderr
    assert _ppbench("run", "--no-db").returncode == 2
    shipped = json.loads(_ppbench("list", "--cases", "--format", "json").stdout)
    assert len(shipped) >= 8


def test_env_lists_the_checks(tmp_path):
    done = _ppbench("env", "--format", "json")
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout)
    assert facts["cpu"]["model"] and facts["cpu"]["usable_cores"] >= 1
    assert set(facts["cpu"]["instruction_sets"]) >= {"avx", "avx2"}
    table = _ppbench("env")
    for check in (
        "cpu instruction sets",
        "thread settings",
        "tensorflow",
        "torch",
        "nvidia gpus (nvml)",
        "load average",
    ):
        assert check in table.stdout, check


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('title = "x"\nsymptom = \n', r"case.toml:2: not valid TOML"),
        ('title = "x"\npp_ids = ["1"]\nsymptom = "slow"\nroot_cause = "x"\n', r"unknown symptom 'slow'"),
        ('title = "x"\npp_ids = ["12_a"]\nsymptom = "time"\nroot_cause = "x"\n', r"pp_ids must be study PP ids"),
        ('title = "x"\npp_ids = [":12_1"]\nsymptom = "time"\nroot_cause = "x"\n', r"or 'ai:136_1', not \[':12_1'\]"),
        ('title = "x"\npp_ids = ["1"]\nsymptom = "time"\nroot_cause = "x"\nmetric = "peak_rss"\n',
         r"metric 'peak_rss' does not judge symptom 'time'"),
        ('title = "x"\npp_ids = ["1"]\nsymptom = "time"\nroot_cause = "x"\nrepeat = 3\n', r"unknown keys \['repeat'\]"),
        ('pp_ids = ["1"]\nsymptom = "time"\nroot_cause = "x"\n', r"case.toml: missing 'title'"),
        ('title = "x"\npp_ids = ["1"]\nsymptom = "time"\nroot_cause = "x"\nrepeats = 1\n', r"need repeats >= 2"),
    ],
)  # fmt: skip
def test_case_reader_names_the_file_and_problem(tmp_path, text, message):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "case.toml").write_text(text, encoding="utf-8")
    with pytest.raises(PPMinerError, match=message):
        load_case(tmp_path / "c")


def test_statistics():
    same = [1.0, 1.1, 0.9, 1.05, 0.95]
    ratio, low, high = bootstrap_ratio(same, same)
    assert ratio == 1 and low < 1 < high
    ratio, low, high = bootstrap_ratio(same, [x / 4 for x in same])
    assert ratio == pytest.approx(0.25) and low <= 0.25 <= high < 1
    assert bootstrap_ratio(same, same, seed=1) == bootstrap_ratio(same, same, seed=1)  # seeded: repeatable
    assert slope([0, 2, 4, 6]) == pytest.approx(2) and slope([1, 2]) is None
    runs = [{"variant": "buggy", "repeat": 0, "status": "ok", "measurements": {"section_s": None}}]
    verdict = judge("time", "section", runs, runs)
    assert verdict.status == "failed" and "did not report 'section'" in verdict.reason


def test_shipped_cases_name_real_pps_codebook_root_causes_and_known_rules(published):
    from core.config import DEFAULT_CONFIG, load_config
    from core.sites import parse_pp_key
    from labeling.codebook import load_codebook

    # TensorFlow cases reproduce PPs of the published study; PyTorch cases PPs of the PyTorch study (nothing
    # published yet: their ids are its Stack Overflow posts) and root causes of its codebook
    pytorch_study = DEFAULT_CONFIG.parent / "studies" / "pytorch.toml"
    codebooks = {
        "tensorflow": load_codebook(load_config(DEFAULT_CONFIG).codebook_file),
        "torch": load_codebook(load_config(pytorch_study).codebook_file),
    }
    with open(published / "empirical_study.csv", encoding="utf-8-sig", newline="") as fh:
        study = {parse_pp_key(row["id"]) for row in csv.DictReader(fh)}
    try:  # the static checker (ppcheck): each rule a case names finds its buggy.py and not its fixed.py
        from checker import check_source
    except ImportError:
        check_source = None
    folders = shipped_cases()
    assert len(folders) >= 8
    for folder in folders:
        case = load_case(folder)
        assert case.script("buggy").is_file() and case.script("fixed").is_file(), case.name
        assert case.framework in codebooks and case.steps, case.name
        assert codebooks[case.framework].resolve("root_cause", case.root_cause) == case.root_cause, case.name
        if case.framework == "tensorflow":
            assert all(parse_pp_key(p) in study for p in case.pp_ids), case.name
        if check_source is not None:
            for variant, expected in (("buggy", set(case.ppcheck)), ("fixed", set())):
                path = case.script(variant)
                findings, _ = check_source(path.read_text(encoding="utf-8"), str(path))
                assert {f.rule for f in findings} & set(case.ppcheck) == expected, (case.name, variant)
    assert sum(bool(load_case(f).ppcheck) for f in folders) >= 4
    assert sum(load_case(f).framework == "torch" for f in folders) >= 6


def test_migration_0010_files_older_runs_under_stack_overflow_and_downgrade_keeps_other_sites(db_url):
    from core.db import Store, downgrade, upgrade

    store = Store(db_url)
    upgrade(store, "0009")
    runs = sa.table("bench_runs", *map(sa.column, ("session_id", "case_name", "question_id", "pp_index", "variant",
                                                     "repeat", "status", "started_at")),
                    sa.column("pp_ids", sa.JSON), sa.column("record", sa.JSON))  # fmt: skip
    row = {"session_id": "s1", "case_name": "c", "pp_index": 1, "variant": "buggy", "repeat": 0, "status": "ok",
           "started_at": datetime(2026, 1, 2), "record": {}}  # fmt: skip
    with store.engine.begin() as c:
        c.execute(sa.insert(runs).values(question_id=55409283, pp_ids=["55409283_1"], **row))
        c.execute(sa.insert(runs).values(question_id=None, pp_ids=[], **row))
    upgrade(store)
    with store.engine.connect() as c:
        sites = c.execute(sa.text("SELECT question_id, site FROM bench_runs ORDER BY question_id")).all()
    assert sorted(sites, key=str) == sorted([(55409283, "stackoverflow"), (None, None)], key=str)
    with store.engine.begin() as c:
        c.execute(sa.text("UPDATE bench_runs SET site = 'ai' WHERE question_id IS NOT NULL"))
    with pytest.raises(PPMinerError, match="1 bench_runs rows name a PP of another site"):
        downgrade(store, "0009")
    with store.engine.connect() as c:  # refused before anything changed
        assert c.execute(sa.text("SELECT count(*) FROM bench_runs WHERE site = 'ai'")).scalar() == 1
