"""The analysis notebooks and their query module `labeling.analysis`.

The end-to-end test imports the published dataset with `pplabel import`, executes every notebook headless with
nbclient (python3 kernel, as `jupyter nbconvert --execute` does) and checks the CSV tables against counts computed
here straight from the published CSV with pandas. The others check the queries on both backends.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import nbformat
import pandas as pd
import pytest
from conftest import run_cli

from core.errors import PPMinerError
from core.schema.mining import Candidate, CandidateHit, KeywordSet, MatchRun
from labeling import analysis
from labeling.codebook import load_codebook
from labeling.records import set_final_identification, set_final_label
from mining.store import upsert_questions, utcnow

PROJECT = Path(__file__).resolve().parent.parent
NOTEBOOKS = PROJECT / "notebooks"
FIGURE_FILES = ("png", "pdf", "svg")  # every figure: a bitmap and two vector files


def _figures(*stems: str) -> list[str]:
    return [f"{stem}.{ext}" for stem in stems for ext in FIGURE_FILES]


EXPECTED_NOTEBOOKS = {
    "01_funnel.ipynb": [
        "funnel.csv",
        *_figures("funnel"),
    ],  # no keyword chart: the published files hold no hits
    "02_symptoms.ipynb": ["symptoms.csv", *_figures("symptoms")],
    "03_root_causes.ipynb": ["root_causes.csv", *_figures("root_causes")],
    "04_stages.ipynb": ["stages.csv", "stage_matrix.csv", *_figures("stages", "stage_matrix")],
    "05_agreement.ipynb": [
        "agreement.csv",
        "agreement_pairwise.csv",
        "agreement_majority.csv",
        *_figures("agreement"),
    ],  # fmt: skip
    "06_replication.ipynb": ["replication.csv", *_figures("replication_symptoms")],
    "07_rq4.ipynb": ["rq4_assessment.csv", "rq4_root_causes.csv", *_figures("rq4_assessment")],
    "08_checker.ipynb": ["checker_rules.csv", *_figures("checker_rules")],
    "09_screening.ipynb": ["screening.csv", "screening_metrics.csv", *_figures("screening")],
}


@pytest.fixture(scope="module")
def codebook():
    return load_codebook()


def _pplabel(*args: str) -> subprocess.CompletedProcess:
    return run_cli("labeling.cli", *args, check=False)


def _write_finals(store, rows: list[dict], not_pp: tuple[int, ...] = ()) -> None:
    """Final labels written the way reconciliation writes them: through labeling.records, with codebook codes."""
    with store.write() as session:
        posts = sorted({r["question_id"] for r in rows} | set(not_pp))
        upsert_questions(
            session,
            [{"site": "stackoverflow", "id": q, "title": f"post {q}"} for q in posts],
            source="import",
        )
        for r in rows:
            set_final_identification(session, r["question_id"], True, "imported")
            values = {k: v for k, v in r.items() if k not in ("question_id", "pp_index")}
            set_final_label(session, r["question_id"], r.get("pp_index", 1), "imported", **values)
        for q in not_pp:
            set_final_identification(session, q, False, "imported")


def _row(table: pd.DataFrame, category: str, subcategory: str = "") -> pd.Series:
    hit = table[(table["category"] == category) & (table["subcategory"] == subcategory)]
    assert len(hit) == 1, f"no single row {category!r}/{subcategory!r} in\n{table}"
    return hit.iloc[0]


# --- the committed notebooks ------------------------------------------------------------------------------------


def test_committed_notebooks_are_stripped_and_import_only_the_analysis_module():
    # `jupyter nbconvert --execute` without --output-dir leaves executed copies (*.nbconvert.ipynb) beside them
    found = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb") if not p.name.endswith(".nbconvert.ipynb"))
    assert found == sorted(EXPECTED_NOTEBOOKS)
    for name in found:
        nb = nbformat.read(NOTEBOOKS / name, as_version=4)
        nbformat.validate(nb)
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            assert cell.outputs == [] and cell.execution_count is None, f"{name}: outputs not stripped"
            assert "execution" not in cell.metadata, f"{name}: execution timings not stripped"
            imports = [ln for ln in cell.source.splitlines() if ln.lstrip().startswith(("import ", "from "))]
            assert all("labeling" in ln and "analysis" in ln for ln in imports), f"{name}: {imports}"


# --- queries on both backends -----------------------------------------------------------------------------------


def test_tables_count_pps_once_per_category_and_under_each_code(store, codebook):
    _write_finals(
        store,
        [
            # two Time symptoms: Time counts once, both subcategories count
            dict(
                question_id=1,
                pp_index=1,
                symptom1="time.slow_execution",
                symptom2="time.hang",
                root_cause="api.not_batch_api",
                introducing_stage="data_preparation",
                exposing_stage="training",
            ),
            # two categories: counts under Time and Memory
            dict(
                question_id=1,
                pp_index=2,
                symptom1="memory.leak",
                symptom2="time.slow_execution",
                root_cause="other",
                introducing_stage="model_building",
                exposing_stage="training",
            ),
            dict(
                question_id=2,
                pp_index=1,
                symptom1="unknown",
                root_cause="api.not_batch_api",
                introducing_stage="unknown",
                exposing_stage="unknown",
            ),
            # a post finally judged not a PP: its leftover label is not counted
            dict(
                question_id=3,
                pp_index=1,
                symptom1="memory.oom",
                root_cause="data.improper_input",
                introducing_stage="training",
                exposing_stage="training",
            ),
        ],  # fmt: skip
    )
    with store.write() as session:
        set_final_identification(session, 3, False, "adjudicated")
    with store.read() as session:
        labels = analysis.final_labels(session)
    assert len(labels) == 3

    symptoms = analysis.symptom_table(labels, codebook)
    assert list(symptoms.columns) == ["category", "subcategory", "count", "percent"]
    time, memory, unknown = (codebook.category_name(c) for c in ("time", "memory", "unknown"))
    assert _row(symptoms, time)["count"] == 2
    assert _row(symptoms, time)["percent"] == analysis.percent(2, 3) == 66.7
    assert _row(symptoms, memory)["count"] == 1
    assert _row(symptoms, unknown)["count"] == 1
    assert _row(symptoms, time, codebook.name("time.slow_execution"))["count"] == 2
    assert _row(symptoms, time, codebook.name("time.hang"))["count"] == 1
    assert _row(symptoms, memory, codebook.name("memory.oom"))["count"] == 0  # offered codes always listed
    assert (symptoms["category"] == unknown).sum() == 1  # unknown has no subcategory row
    first_sub = symptoms.index[symptoms["subcategory"] != ""][0]
    assert (symptoms.loc[: first_sub - 1, "subcategory"] == "").all()  # category rows come first

    causes = analysis.root_cause_table(labels, codebook)
    assert _row(causes, codebook.category_name("api"))["count"] == 2
    assert _row(causes, codebook.category_name("other"))["count"] == 1  # legacy code shown because used
    assert _row(causes, codebook.category_name("data"))["count"] == 0

    stages = analysis.stage_table(labels, codebook).set_index("stage")
    assert list(stages.index) == [c.name for c in codebook.codes("stage")]
    assert stages.loc[codebook.get("training", "stage").name, "exposing"] == 2
    assert stages["introducing"].sum() == stages["exposing"].sum() == 3
    matrix = analysis.stage_matrix(labels, codebook)
    assert matrix.to_numpy().sum() == 3
    assert matrix.loc[codebook.name("model_building"), codebook.name("training")] == 1


def test_root_cause_without_legacy_use_hides_legacy_category(sqlite_store, codebook):
    _write_finals(sqlite_store, [dict(question_id=5, root_cause="api.not_batch_api")])
    with sqlite_store.read() as session:
        causes = analysis.root_cause_table(analysis.final_labels(session), codebook)
    legacy = {c.category_name for c in codebook.codes("root_cause", include_legacy=True) if c.legacy}
    assert legacy and not legacy & set(causes["category"])


def test_a_code_the_codebook_does_not_know_names_the_pp(sqlite_store, codebook):
    _write_finals(sqlite_store, [dict(question_id=77, pp_index=2, symptom1="time.warp_speed")])
    with sqlite_store.read() as session:
        labels = analysis.final_labels(session)
    with pytest.raises(PPMinerError, match=r"77_2.*time\.warp_speed"):
        analysis.symptom_table(labels, codebook)


def test_funnel_counts_candidates_per_keyword(store):
    now = utcnow()
    with store.write() as session:
        upsert_questions(
            session,
            [{"site": "stackoverflow", "id": q, "title": f"q{q}"} for q in range(10, 16)],
            source="import",
        )
        kws = KeywordSet(content_hash="x" * 64, stemmer_mode="porter", keywords=["slow", "oom", "gpu util"],
                         created_at=now)  # fmt: skip
        session.add(kws)
        session.flush()
        steps = {
            "questions": 6,
            "with_tag": 6,
            "in_scope": 6,
            "with_code": 5,
            "with_good_answer": 5,
            "selected": 5,
        }
        session.add(MatchRun(keyword_set_id=kws.id, funnel=steps, started_at=now, finished_at=now))
        for q, words in {10: ["slow"], 11: ["slow", "oom"], 12: ["oom"]}.items():
            cand = Candidate(keyword_set_id=kws.id, site="stackoverflow", question_id=q, matched_at=now)
            # the same keyword hit in two fields still counts the candidate once
            cand.hits = [CandidateHit(keyword=w, field=f, count=1) for w in words for f in ("title", "prose")]
            session.add(cand)
    _write_finals(store, [dict(question_id=10, symptom1="time.slow_execution")], not_pp=(12,))
    with store.read() as session:
        funnel = analysis.funnel_table(session)
    steps = funnel[funnel["keyword"] == ""].set_index("step")["count"]
    assert list(steps.index) == [s for s in analysis.FUNNEL_STEPS if s != "candidates_with_keyword"]
    assert (steps["questions"], steps["selected"], steps["candidates"]) == (6, 5, 3)
    assert (steps["with_tag"], steps["in_scope"], steps["with_code"]) == (6, 6, 5)
    assert (steps["pp_posts"], steps["labelled_posts"], steps["pps_labelled"]) == (1, 1, 1)
    per_kw = funnel[funnel["step"] == "candidates_with_keyword"].set_index("keyword")["count"]
    assert per_kw.to_dict() == {"slow": 2, "oom": 2, "gpu util": 0}


# --- replication and parameters ---------------------------------------------------------------------------------


def test_replication_marks_exactly_the_differences(sqlite_store, codebook, tmp_path):
    rows = [dict(question_id=q, symptom1="time.hang", root_cause="api.not_batch_api",
                 introducing_stage="training", exposing_stage="training") for q in (1, 2)]  # fmt: skip
    _write_finals(sqlite_store, rows)
    published = tmp_path / "published.yaml"
    published.write_text(
        "funnel:\n  pps_labelled: 2\n  candidates: 9\n"
        "symptoms:\n  categories: {time: 2}\n  subcategories: {time.hang: 1}\n"
        "stages:\n  introducing: {training: 2}\n  exposing: {training: 2}\n"
        "kappa:\n  identification: 0.5\n",
        encoding="utf-8",
    )
    study = analysis.open_study(sqlite_store.url, out=tmp_path / "out")
    table = analysis.replication_table(
        analysis.load_published(published),
        {
            "symptoms": study.symptoms(),
            "root_causes": study.root_causes(),
            "stages": study.stages(),
            "funnel": study.funnel(),
            "agreement": study.agreement(),
        },  # fmt: skip
        codebook,
    )
    status = table.set_index(["section", "item"])["status"].to_dict()
    hang = f"{codebook.category_name('time')} / {codebook.name('time.hang')}"
    assert status.pop(("symptoms", hang)) == "DIFFERS"
    assert status.pop(("funnel", "candidates")) == "DIFFERS"
    assert status.pop(("kappa", "identification")) == "MISSING"  # nobody rated: no kappa
    assert set(status.values()) == {"same"}
    assert table.set_index("item").loc[hang, "difference"] == 1


def test_parameters_and_bad_inputs(tmp_path, monkeypatch):
    monkeypatch.setenv("PPMINER_DB", str(tmp_path / "nothing-here.db"))
    with pytest.raises(PPMinerError, match="no study database at .*nothing-here.db"):
        analysis.open_study()
    # relative: from the folder the command started in ($PWD, which a kernel in notebooks/ inherits), as
    # nbconvert's --output-dir; the kernel's own working directory does not matter
    monkeypatch.setenv("PPMINER_OUT", "results/figures")
    monkeypatch.setenv("PWD", str(tmp_path))
    monkeypatch.chdir(NOTEBOOKS)
    assert analysis.output_dir() == tmp_path / "results" / "figures"
    monkeypatch.delenv("PWD")
    monkeypatch.chdir(tmp_path / "results")
    assert (
        analysis.output_dir() == tmp_path / "results" / "results" / "figures"
    )  # no $PWD: the working directory
    monkeypatch.setenv("PWD", str(tmp_path))
    monkeypatch.setenv("PPMINER_DB", "sqlite:///nothing.db")
    with pytest.raises(PPMinerError, match=f"no study database at sqlite:///{tmp_path}/nothing.db"):
        analysis.open_study()
    monkeypatch.setenv("PPMINER_OUT", str(tmp_path / "elsewhere"))
    assert analysis.output_dir().is_dir()
    broken = tmp_path / "published.yaml"
    broken.write_text("kappa:\n  symptom: 0.9\n  - oops\n", encoding="utf-8")
    with pytest.raises(PPMinerError, match=r"published.yaml:3: not valid YAML"):
        analysis.load_published(broken)


# --- end to end: the published dataset through every notebook ---------------------------------------------------


def _expected_from_csv(path: Path, codebook) -> dict[str, pd.DataFrame]:
    """The tables computed straight from empirical_study.csv with pandas (codebook aliases for the spellings)."""
    raw = pd.read_csv(path, encoding="utf-8-sig", dtype=str).fillna("")
    s1 = raw["symptom1"].map(lambda v: codebook.resolve("symptom", v))
    s2 = raw["symptom2"].map(lambda v: codebook.resolve("symptom", v))
    rc = raw["root cause"].map(lambda v: codebook.resolve("root_cause", v))
    intro = raw["introducing stage"].map(lambda v: codebook.resolve("stage", v))
    expo = raw["exposing stage"].map(lambda v: codebook.resolve("stage", v))
    total = len(raw)

    def table(code_lists: list[pd.Series], dimension: str) -> pd.DataFrame:
        long = pd.concat([pd.DataFrame({"pp": raw["id"], "code": c}) for c in code_lists]).dropna()
        long = long.drop_duplicates()
        long["category"] = long["code"].map(codebook.category)
        rows = []
        for cat, n in long.drop_duplicates(["pp", "category"])["category"].value_counts().items():
            rows.append((codebook.category_name(cat), "", n))
        for code, n in long["code"].value_counts().items():
            if code != codebook.category(code):
                c = codebook.get(code, dimension)
                rows.append((c.category_name, c.name, n))
        frame = pd.DataFrame(rows, columns=["category", "subcategory", "count"])
        frame["percent"] = (frame["count"] * 1000 / total + 0.5).astype(int) / 10  # halves up, as the paper
        return frame

    stage_names = {c.code: c.name for c in codebook.codes("stage")}
    return {
        "symptoms": table([s1, s2], "symptom"),
        "root_causes": table([rc], "root_cause"),
        "introducing": intro.map(stage_names).value_counts(),
        "exposing": expo.map(stage_names).value_counts(),
        "matrix": pd.crosstab(intro.map(stage_names), expo.map(stage_names)),
        "posts": raw["id"].str.split("_").str[0].nunique(),
        "pps": total,
    }


def _execute_notebooks(names: list[str]) -> list:
    """Execute the notebooks as `jupyter nbconvert --execute` does (python3 kernel, cwd notebooks/), but in one
    kernel whose namespace is reset before each notebook: one kernel start instead of six keeps the test quick.
    Returns the executed notebooks."""
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    km = KernelManager(kernel_name="python3")
    km.start_kernel(cwd=str(NOTEBOOKS))
    executed = []
    try:
        for name in names:
            nb = nbformat.read(NOTEBOOKS / name, as_version=4)
            nb.cells.insert(0, nbformat.v4.new_code_cell("%reset -f"))
            NotebookClient(nb, km=km, timeout=120).execute()
            executed.append(nb)
    finally:
        km.shutdown_kernel(now=True)
    return executed


def _printed(nb) -> str:
    """Everything an executed notebook printed."""
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def _nonzero(table: pd.DataFrame) -> pd.DataFrame:
    return table[table["count"] > 0].sort_values(["category", "subcategory"]).reset_index(drop=True)


@pytest.mark.slow
def test_notebooks_regenerate_the_published_tables(published, codebook, tmp_path, monkeypatch):
    from sklearn.metrics import cohen_kappa_score

    dlperf = published  # data/published
    url = f"sqlite:///{tmp_path / 'study.db'}"
    for fmt, name in (("study", "empirical_study.csv"), ("identification", "kappa_identification.csv"),
                      ("labels", "kappa_label.csv")):  # fmt: skip
        done = _pplabel("import", "--db", url, "--format", fmt, str(dlperf / name))
        assert done.returncode == 0, done.stderr
    out = tmp_path / "out"
    monkeypatch.setenv("PPMINER_DB", url)
    monkeypatch.setenv("PPMINER_OUT", str(out))
    monkeypatch.delenv("MPLBACKEND", raising=False)
    _execute_notebooks(list(EXPECTED_NOTEBOOKS))
    for files in EXPECTED_NOTEBOOKS.values():
        for f in files:
            assert (out / f).stat().st_size > 0, f
    # figures a paper can use: official names (not codes) and every value as text in the vector files
    funnel_svg = (out / "funnel.svg").read_text(encoding="utf-8")
    for label in analysis.FUNNEL_LABELS.values():  # every stage, selected included
        assert f">{label}<" in funnel_svg, label
    assert "pps_labelled" not in funnel_svg and ">224<" in funnel_svg.replace(" ", "")
    agreement_svg = (out / "agreement.svg").read_text(encoding="utf-8")
    assert "Root-cause category" in agreement_svg and "root_cause" not in agreement_svg
    assert (out / "stages.pdf").read_bytes().startswith(b"%PDF")

    expected = _expected_from_csv(dlperf / "empirical_study.csv", codebook)
    for name in ("symptoms", "root_causes"):
        got = pd.read_csv(out / f"{name}.csv", keep_default_na=False)
        assert list(got.columns) == ["category", "subcategory", "count", "percent"]
        pd.testing.assert_frame_equal(_nonzero(got), _nonzero(expected[name]), check_dtype=False)
    time = _row(pd.read_csv(out / "symptoms.csv", keep_default_na=False), codebook.category_name("time"))
    assert (time["count"], time["percent"]) == (126, 56.3)  # the paper's sentence

    stages = pd.read_csv(out / "stages.csv").set_index("stage")
    assert list(stages.columns) == ["introducing", "exposing"]
    for role in ("introducing", "exposing"):
        pd.testing.assert_series_equal(
            stages[role][stages[role] > 0].sort_index(), expected[role].sort_index(), check_names=False
        )
    matrix = pd.read_csv(out / "stage_matrix.csv", index_col=0)
    want = expected["matrix"].reindex(index=matrix.index, columns=matrix.columns, fill_value=0)
    assert (matrix.to_numpy() == want.to_numpy()).all()

    funnel = pd.read_csv(out / "funnel.csv", keep_default_na=False)
    steps = funnel[funnel["keyword"] == ""].set_index("step")["count"]
    assert int(steps["labelled_posts"]) == expected["posts"] and int(steps["pps_labelled"]) == expected["pps"]
    ident = pd.read_csv(dlperf / "kappa_identification.csv")
    assert int(steps["identified"]) == ident["_id"].nunique()
    # the identification file's reconciled PPs plus the study's posts (all PPs by definition)
    study_posts = set(
        pd.read_csv(dlperf / "empirical_study.csv", encoding="utf-8-sig")["id"]
        .str.split("_")
        .str[0]
        .astype(int)
    )
    assert int(steps["pp_posts"]) == len(set(ident.loc[ident["merge"] == 1, "_id"]) | study_posts)

    raters = [c for c in ident.columns if c.startswith("isPB_")]
    agreement = pd.read_csv(out / "agreement.csv").set_index("dimension")
    assert agreement.loc["identification", "cohen_kappa"] == pytest.approx(
        cohen_kappa_score(ident[raters[0]], ident[raters[1]])
    )
    assert agreement["cohen_kappa"].notna().all()

    replication = pd.read_csv(out / "replication.csv", keep_default_na=False)
    counts = replication[replication["section"].isin(["symptoms", "root_causes", "introducing stage",
                                                      "exposing stage"])]  # fmt: skip
    assert len(counts) > 0 and (counts["status"] == "same").all(), counts[counts["status"] != "same"]
    kappa = replication[replication["section"] == "kappa"].set_index("item")
    for dim, row in kappa.iterrows():
        differs = abs(float(row["database"]) - float(row["published"])) > 0.0005
        assert row["status"] == ("DIFFERS" if differs else "same"), dim
    assert (
        replication.set_index("item").loc["questions", "status"] == "DIFFERS"
    )  # only the 210 imported posts


# --- a study without published figures (a new study, e.g. data/studies/*.toml) -----------------------------------

_A_PP = dict(
    question_id=5,
    symptom1="time.slow_execution",
    root_cause="api.not_batch_api",
    introducing_stage="data_preparation",
    exposing_stage="training",
)


def _study_config(tmp_path: Path, published: str | None) -> Path:
    """A study config whose ``published`` file is absent (None) or holds ``published``."""
    if published is not None:
        (tmp_path / "figures.yaml").write_text(published, encoding="utf-8")
    config = tmp_path / "study.toml"
    codebook = PROJECT / "data" / "codebook.yaml"
    config.write_text(f'[files]\ncodebook = "{codebook}"\npublished = "figures.yaml"\n', encoding="utf-8")
    return config


@pytest.mark.parametrize("published", [None, "", "# no figures yet\n"])
def test_a_study_without_published_figures_has_nothing_to_compare(
    sqlite_store, sqlite_url, tmp_path, published
):
    _write_finals(sqlite_store, [_A_PP])
    study = analysis.open_study(
        db=sqlite_url, out=tmp_path / "out", config=_study_config(tmp_path, published)
    )
    assert study.published() == {}
    replication = study.replication()
    assert replication.empty and list(replication.columns) == analysis.REPLICATION_COLUMNS
    assert study.replication_note(replication).startswith("nothing to compare: this study has no published")
    assert _row(study.symptoms(), "Time")["count"] == 1
    # a study with figures compares them
    (tmp_path / "figures.yaml").write_text("symptoms:\n  categories:\n    time: 1\n", encoding="utf-8")
    replication = study.replication()
    assert list(replication["status"]) == ["same"]
    assert "1 published figures from" in study.replication_note(replication)


@pytest.mark.slow
def test_notebooks_run_on_a_study_without_published_figures(sqlite_store, sqlite_url, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _write_finals(sqlite_store, [_A_PP])
    monkeypatch.setenv("PPMINER_DB", sqlite_url)
    monkeypatch.setenv("PPMINER_OUT", str(out))
    monkeypatch.setenv("PPMINER_CONFIG", str(_study_config(tmp_path, None)))
    monkeypatch.delenv("MPLBACKEND", raising=False)
    names = ["02_symptoms.ipynb", "06_replication.ipynb", "07_rq4.ipynb"]
    replication_nb = _execute_notebooks(names)[1]
    assert "nothing to compare: this study has no published figures" in _printed(replication_nb)
    assert pd.read_csv(out / "replication.csv").empty
    assert not (out / "replication_symptoms.png").exists()
    # the other tables are made as usual
    symptoms = pd.read_csv(out / "symptoms.csv", keep_default_na=False)
    assert _row(symptoms, "Time")["count"] == 1
    for f in ["rq4_assessment.csv", *_figures("symptoms", "rq4_assessment")]:
        assert (out / f).stat().st_size > 0, f
