"""`pplabel triage simulate` on the real labelled issue reports: datasets, metrics, JSON shape, bad input, --db."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from conftest import run_cli

from core.db import open_store
from core.errors import PPMinerError
from labeling.records import set_final_identification
from labeling.triage import dataset as ds
from labeling.triage.metrics import read_to_recall, recall_after, screening_metrics, wss
from labeling.triage.models import DEFAULT_MODEL, parse_model
from labeling.triage.ranker import EARLY, MAX_LAG, Ranker
from labeling.triage.simulate import draw_priors, replay, simulate
from mining.store import upsert_questions

REPORTS = "labelled_reports"


class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


@pytest.fixture
def pplabel(capsys, monkeypatch):
    """pplabel's real entry point (run_cli: exit codes, one-line errors) in this process (sklearn loads once)."""
    from labeling.cli import main

    def run(*args):
        monkeypatch.setattr(sys, "argv", ["pplabel", *args])
        capsys.readouterr()
        with pytest.raises(SystemExit) as exc:
            main()
        out = capsys.readouterr()
        return Result(exc.value.code, out.out, out.err)

    return run


# -- datasets: ASReview's shape, the APSEC originals, the converter --


def test_reads_the_asreview_copies_with_their_counts(fixtures):
    keras = ds.read_csv(fixtures / REPORTS / "keras_asreview.csv")
    caffe = ds.read_csv(fixtures / REPORTS / "caffe_asreview.csv")
    assert (len(keras), keras.positives) == (668, 135)
    assert (len(caffe), caffe.positives) == (286, 33)
    assert keras.record_ids[:3] == [0, 1, 2]  # record_id is the row number of the APSEC file
    assert keras.fields["title"][0].startswith("Improve performance (GPU utilization)")


def test_converter_reproduces_the_committed_copies(fixtures, tmp_path):
    sys.path.insert(0, str(fixtures / REPORTS))
    try:
        from to_asreview import convert
    finally:
        sys.path.pop(0)
    for name in ("keras", "caffe"):
        out = tmp_path / f"{name}.csv"
        convert(fixtures / REPORTS / f"{name}.csv", out)
        assert out.read_bytes() == (fixtures / REPORTS / f"{name}_asreview.csv").read_bytes()


def test_the_apsec_shape_is_refused_naming_the_missing_column(fixtures):
    with pytest.raises(PPMinerError, match=r"keras\.csv:1: no label_included column"):
        ds.read_csv(fixtures / REPORTS / "keras.csv")


def test_body_is_accepted_for_abstract_and_markdown_code_is_split(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(
        'title,body,label_included\nSlow fit,"It is slow:\n\n    model.fit(x)\n\nwhy?",1\nCrash,"```\nboom\n```",0\n'
    )
    data = ds.read_csv(path)
    assert data.record_ids == [0, 1] and data.labels.tolist() == [1, 0]
    assert "model.fit(x)" in data.fields["code"][0] and "model.fit" not in data.fields["prose"][0]
    assert "boom" in data.fields["code"][1]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("title,abstract\na,b\n", r"d\.csv:1: no label_included column"),
        (
            "title,abstract,label_included\na,b,1\nc,d,2\n",
            r"d\.csv:3: label_included must be 0 or 1, not '2'",
        ),
        ("title,abstract,label_included\na,b,yes\n", r"d\.csv:2: label_included must be 0 or 1, not 'yes'"),
        ("title,abstract,label_included\n", r"d\.csv: empty dataset"),
        ("", r"d\.csv: empty dataset"),
        ("record_id,title,label_included\n7,a,1\n7,b,0\n", r"d\.csv:3: record_id '7' appears twice"),
    ],
)
def test_bad_datasets_name_file_and_line(tmp_path, text, message):
    path = tmp_path / "d.csv"
    path.write_text(text)
    with pytest.raises(PPMinerError, match=message):
        ds.read_csv(path)


# -- metrics, computed by hand --


def test_metrics_on_a_known_order():
    order = np.array([1, 0, 1, 0, 0, 0, 0, 0, 0, 0])  # N 10, 2 relevant, both found after 3 read
    assert (
        read_to_recall(order, 1.0) == 3
        and read_to_recall(order, 0.95) == 3
        and read_to_recall(order, 0.5) == 1
    )
    assert wss(order, 1.0) == pytest.approx(0.7)
    assert wss(order, 0.95) == pytest.approx(0.65)
    assert recall_after(order, 0.10) == 0.5 and recall_after(order, 0.25) == 1.0
    late = np.array([0] * 19 + [1] + [1] * 19 + [0] * 61)  # 20 relevant: 95% (19) reached at record 38
    m = screening_metrics(late)
    assert m["read95"] == 38 and m["wss95"] == pytest.approx(62 / 100 - 0.05)
    assert m["wss100"] == pytest.approx(61 / 100) and m["recall10"] == 0.0 and m["recall25"] == 0.3


# -- the simulation on real data --


@pytest.mark.slow
def test_simulate_json_on_caffe_is_recomputable_and_beats_random_reading(fixtures):
    path = fixtures / REPORTS / "caffe_asreview.csv"
    result = run_cli("labeling.cli", "triage", "simulate", str(path), "--seed", "1", "--seed", "7", "--format", "json",
                     check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    data = ds.read_csv(path)
    label_of = dict(zip(data.record_ids, data.labels.tolist(), strict=True))
    assert [r["seed"] for r in out["runs"]] == [1, 7]
    for run in out["runs"]:
        order = run["order"]
        assert sorted(order) == sorted(data.record_ids)  # every record read once
        assert [label_of[order[0]], label_of[order[1]]] == [1, 0]  # priors first: one relevant, one not
        recomputed = screening_metrics([label_of[r] for r in order])
        assert {k: run[k] for k in recomputed} == recomputed
        assert run["wss95"] > 0.25  # random reading saves 0 on average
    assert out["runs"][0]["order"][:2] != out["runs"][1]["order"][:2]  # priors drawn per seed
    assert out["mean"]["wss95"] == pytest.approx(np.mean([r["wss95"] for r in out["runs"]]), abs=1e-4)
    assert set(out["mean"]) == {"wss95", "wss100", "recall10", "recall25", "read95"}


def test_replay_refits_at_most_two_decisions_apart_until_the_last_relevant_record(fixtures):
    data = ds.read_csv(fixtures / REPORTS / "caffe_asreview.csv")
    ranker = Ranker.build(data.fields, parse_model(DEFAULT_MODEL))
    fitted_on, fit = [], ranker.scores

    def counting(rows, labels):
        fitted_on.append(len(rows))
        return fit(rows, labels)

    ranker.scores = counting
    order = replay(ranker, data.labels, draw_priors(data.labels, 1, 1, 1))
    assert sorted(order.tolist()) == list(range(len(data)))
    last_relevant = int(np.flatnonzero(data.labels[order] == 1).max()) + 1  # records read when it was found
    gaps = np.diff(fitted_on)
    assert all(gap == 1 for gap, read in zip(gaps, fitted_on[1:], strict=True) if read <= EARLY)
    assert gaps.max() == MAX_LAG  # the ranking in use is at most two decisions old
    # after the last relevant record no refit can change a figure, so none is made
    assert fitted_on[-1] < last_relevant <= fitted_on[-1] + MAX_LAG


def test_table_and_plot(pplabel, fixtures, tmp_path):
    png = tmp_path / "recall.png"
    path = fixtures / REPORTS / "caffe_asreview.csv"
    result = pplabel(
        "triage", "simulate", str(path), "--seed", "3", "--model", "nb-plain", "--plot", str(png)
    )
    assert result.returncode == 0, result.stderr
    assert "mean" in result.stdout and "wss95" in result.stdout and "nb-plain" in result.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_every_model_ranks_better_than_random_on_keras(fixtures):
    data = ds.read_csv(fixtures / REPORTS / "keras_asreview.csv")
    for model in ("nb-fields", "logistic-plain", "svm-plain"):
        (run,) = simulate(data, [2], model=model)
        assert run.metrics["recall25"] > 0.45, model  # random reading finds 25% after 25%


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--prior-included", "0"], "no relevant record among the priors"),
        (["--prior-excluded", "0"], "no irrelevant record among the priors"),
        (
            ["--prior-included", "40"],
            "33 relevant records (label_included 1), fewer than --prior-included 40",
        ),
        (["--model", "forest-plain"], "--model: unknown model 'forest-plain'"),
    ],
)
def test_bad_priors_and_models_are_one_line_errors(pplabel, fixtures, args, message):
    path = fixtures / REPORTS / "caffe_asreview.csv"
    result = pplabel("triage", "simulate", str(path), *args)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert result.stderr.startswith(f"pplabel: error: {path}: ") or "--model" in message


def test_no_relevant_record_in_the_dataset(pplabel, tmp_path):
    path = tmp_path / "none.csv"
    path.write_text("title,abstract,label_included\na,b,0\nc,d,0\n")
    result = pplabel("triage", "simulate", str(path))
    assert result.returncode == 1
    assert (
        result.stderr
        == f"pplabel: error: {path}: 0 relevant records (label_included 1), fewer than --prior-included 1\n"
    )


def test_without_dataset_or_db_it_is_a_usage_error(pplabel, monkeypatch):
    monkeypatch.delenv("PPMINER_DB", raising=False)
    result = pplabel("triage", "simulate")
    assert result.returncode == 2 and "give a DATASET (CSV) or --db URL" in result.stderr


# -- the study database as the dataset --


def test_db_final_identifications_are_the_dataset(pplabel, db_url, fixtures):
    data = ds.read_csv(fixtures / REPORTS / "caffe_asreview.csv")
    store = open_store(db_url)
    with store.write() as s:
        upsert_questions(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": rid,
                    "title": t,
                    "body_html": f"<p>{b}</p>",
                    "tags": "|caffe|",
                }
                for rid, t, b in zip(data.record_ids, data.fields["title"], data.fields["prose"], strict=True)
            ],
            "import",
        )
        for rid, label in zip(data.record_ids, data.labels.tolist(), strict=True):
            set_final_identification(s, rid, bool(label), "imported")
    study = ds.from_database(store)
    assert (len(study), study.positives) == (286, 33)
    assert sorted(post.id for post in study.record_ids) == sorted(data.record_ids)
    result = pplabel("triage", "simulate", "--db", db_url, "--seed", "1", "--format", "json")
    assert result.returncode == 0, result.stderr
    run = json.loads(result.stdout)["runs"][0]
    assert sorted(run["order"]) == sorted(data.record_ids) and run["wss95"] > 0.25
    from labeling.analysis import screening_curve

    curve, metrics, note = screening_curve(store, seeds=(1,))  # the notebook's table: the same replay
    assert len(curve) == 286 and curve["recall"].iloc[-1] == 1.0 and curve["recall"].is_monotonic_increasing
    assert metrics.iloc[0]["wss95"] == run["wss95"] and "286 posts with final identifications, 33 PP" in note


def test_db_without_final_identifications_says_so(pplabel, sqlite_url):
    open_store(sqlite_url)  # an empty study (a missing file is refused before anything else)
    result = pplabel("triage", "simulate", "--db", sqlite_url)
    assert result.returncode == 1 and "no final identifications yet" in result.stderr
    from labeling.analysis import screening_curve

    curve, metrics, note = screening_curve(open_store(sqlite_url))
    assert curve.empty and metrics.empty and "no final identifications yet" in note
