"""Agreement per dimension: checked against scikit-learn on the published files and against hand computations."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from sklearn.metrics import cohen_kappa_score

from labeling.agreement import (
    DIMENSIONS,
    agreement_of,
    compute_agreement,
    disagreements,
    fleiss_kappa,
    item_ratings,
)
from labeling.agreement_report import table_rows, to_json
from labeling.alignment import NO_PP
from labeling.codebook import load_codebook
from labeling.io.import_study import import_file
from labeling.records import get_or_create_rater, set_identification, set_pp_label
from mining.store import upsert_questions


@pytest.fixture(scope="module")
def codebook():
    return load_codebook()


def _csv(path):
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return [r for r in csv.DictReader(fh) if any(v.strip() for v in r.values() if v)]


def _posts(session, *ids):
    upsert_questions(
        session,
        [{"site": "stackoverflow", "id": i, "title": f"post {i}", "body_html": "<p>x</p>"} for i in ids],
        "import",
    )


def test_identification_kappa_equals_sklearn_on_the_file(store, published, codebook):
    path = published / "kappa_identification.csv"
    rows = _csv(path)
    raters = [c for c in rows[0] if c.startswith("isPB_")]
    expected = cohen_kappa_score([r[raters[0]] for r in rows], [r[raters[1]] for r in rows])
    import_file(store, "identification", str(path), codebook)
    with store.read() as s:
        result = compute_agreement(s, codebook, stage="identify")
    assert list(result) == ["identification"]
    ident = result["identification"]
    assert ident.cohen_kappa == pytest.approx(expected, abs=1e-12)
    assert ident.items == len(rows)
    assert ident.raters == sorted(c.removeprefix("isPB_") for c in raters)
    agree = sum(r[raters[0]] == r[raters[1]] for r in rows) / len(rows)
    assert ident.observed_agreement == pytest.approx(agree)
    assert sum(d["count"] for d in ident.disagreements) == len(rows) - round(agree * len(rows))


def test_every_dimension_reported_after_label_import(store, published, codebook):
    path = published / "kappa_label.csv"
    rows = _csv(path)
    import_file(store, "labels", str(path), codebook, raters=("ann", "bob"))
    with store.read() as s:
        result = compute_agreement(s, codebook)
    assert list(result) == list(DIMENSIONS)
    assert result["identification"].items == 0 and result["identification"].cohen_kappa is None
    for dim in DIMENSIONS[1:]:
        a = result[dim]
        assert a.items == len(rows), dim
        assert a.raters == ["ann", "bob"]
        for stat in (a.observed_agreement, a.cohen_kappa, a.fleiss_kappa, a.krippendorff_alpha):
            assert stat is not None and 0 < stat <= 1, dim
    # The file's own spellings differ only in letter case for the same label, so kappa on lower-cased raw
    # cells must equal kappa on the codes.
    for dim, (col_a, col_b) in {
        "symptom": ("symptom1", "symptom2"),
        "root_cause": ("root casue", "root casue 2"),
        "introducing_stage": ("root stage", "root stage 2"),
        "exposing_stage": ("expose stage", "expose stage 2"),
    }.items():
        raw = cohen_kappa_score([r[col_a].lower() for r in rows], [r[col_b].lower() for r in rows])
        assert result[dim].cohen_kappa == pytest.approx(raw, abs=1e-12), dim
    data = json.loads(to_json(result))
    for dim in DIMENSIONS:
        assert {"items", "raters", "observed_agreement", "cohen_kappa"} <= set(data[dim])


def test_symptoms_compare_as_unordered_sets_and_an_unmatched_pp_is_a_disagreement(sqlite_store, codebook):
    with sqlite_store.write() as s:
        _posts(s, 10, 11)
        ann, bob, cal = (get_or_create_rater(s, n) for n in ("ann", "bob", "cal"))
        # complete labels (a label in progress is no rating); one root cause and stage throughout
        done = {"root_cause": "other", "introducing_stage": "training", "exposing_stage": "training"}
        set_pp_label(s, ann, 10, 1, symptom1="time.slow_execution", symptom2="memory.leak", **done)
        set_pp_label(s, bob, 10, 1, symptom1="memory.leak", symptom2="time.slow_execution", **done)
        set_pp_label(s, cal, 10, 1, symptom1="time.slow_execution", **done)
        set_pp_label(s, ann, 10, 2, symptom1="memory.oom", **done)  # only ann found it: the others "(no PP)"
        set_pp_label(s, bob, 11, 1, symptom1="time.hang", **done)
        set_pp_label(s, cal, 11, 1, symptom1="time.slow_execution", symptom2="time.hang", **done)
    with sqlite_store.read() as s:
        result = compute_agreement(s, codebook, stage="classify")
        ratings = {i.item: i.ratings for i in item_ratings(s, codebook, "symptom")}
        open_items = [i.item for i in disagreements(s, codebook, "symptom")]
    assert "identification" not in result
    assert ratings["10_1"]["ann"] == ratings["10_1"]["bob"] == "memory.leak+time.slow_execution"
    assert ratings["10_2"] == {"ann": "memory.oom", "bob": NO_PP, "cal": NO_PP}
    symptom = result["symptom"]
    assert symptom.items == 3 and symptom.raters == ["ann", "bob", "cal"]
    # 10_1: 1 of 3 rater pairs agree; 10_2: bob and cal agree only on not having it (1 of 3); 11_1: 0 of 1.
    assert symptom.observed_agreement == pytest.approx((1 / 3 + 1 / 3 + 0) / 3)
    assert symptom.cohen_kappa is None  # three raters
    assert open_items == ["10_1", "10_2", "11_1"]
    # Category level: {memory, time} vs {time} on 10_1; the unmatched PP; {time} vs {time} on 11_1.
    assert result["symptom_category"].observed_agreement == pytest.approx((1 / 3 + 1 / 3 + 1) / 3)
    # One root cause throughout: 10_1 and 11_1 agree; on 10_2 only bob and cal agree (on "(no PP)").
    assert result["root_cause"].items == 3
    assert result["root_cause"].observed_agreement == pytest.approx((1 + 1 / 3 + 1) / 3)
    assert result["root_cause"].cohen_kappa is None
    stage = result["introducing_stage"]
    assert (stage.items, stage.observed_agreement) == (3, result["root_cause"].observed_agreement)


def test_fleiss_and_alpha_with_missing_ratings_match_hand_computation():
    # item 1: a a a; item 2: a a b; item 3: b b (third rater missing)
    from labeling.agreement import ItemRatings

    items = [
        ItemRatings("x", "1", 1, None, {"r1": "a", "r2": "a", "r3": "a"}),
        ItemRatings("x", "2", 2, None, {"r1": "a", "r2": "a", "r3": "b"}),
        ItemRatings("x", "3", 3, None, {"r1": "b", "r2": "b"}),
        ItemRatings("x", "4", 4, None, {"r3": "b"}),  # a single rating is not pairable: ignored
    ]
    a = agreement_of("x", items)
    # Fleiss: P = (1 + 1/3 + 1)/3 = 7/9; pooled a 5/8, b 3/8 -> Pe = 34/64; kappa = (7/9 - 17/32)/(15/32).
    assert a.observed_agreement == pytest.approx(7 / 9)
    assert a.fleiss_kappa == pytest.approx((7 / 9 - 17 / 32) / (15 / 32))
    # Krippendorff (nominal): coincidences o_ab + o_ba = 2 of n = 8 -> Do = 1/4; De = 2*5*3/(8*7); alpha = 8/15.
    assert a.krippendorff_alpha == pytest.approx(8 / 15)
    assert a.items == 3 and a.cohen_kappa is None
    assert a.disagreements == [{"labels": ["a", "b"], "count": 2}]


def test_two_raters_complete_agree_with_sklearn_and_scott():
    first = ["a", "a", "b", "c", "b", "a", "c", "c"]
    second = ["a", "b", "b", "c", "b", "a", "a", "c"]
    from labeling.agreement import ItemRatings

    items = [
        ItemRatings("x", str(i), i, None, {"p": f, "q": s})
        for i, (f, s) in enumerate(zip(first, second, strict=True))
    ]
    a = agreement_of("x", items, top=None)
    assert a.cohen_kappa == pytest.approx(cohen_kappa_score(first, second))
    observed, fleiss = fleiss_kappa([[f, s] for f, s in zip(first, second, strict=True)])
    assert observed == pytest.approx(6 / 8)
    assert a.fleiss_kappa == pytest.approx(fleiss)
    assert {tuple(d["labels"]): d["count"] for d in a.disagreements} == {("a", "b"): 1, ("a", "c"): 1}


def test_identification_with_three_raters_and_gaps(sqlite_store, codebook):
    with sqlite_store.write() as s:
        _posts(s, 1, 2, 3)
        ann, bob, cal = (get_or_create_rater(s, n) for n in ("ann", "bob", "cal"))
        for rater, decisions in ((ann, (1, 1, 0)), (bob, (1, 0, 0)), (cal, (1, None, None))):
            for post, d in zip((1, 2, 3), decisions, strict=True):
                if d is not None:
                    set_identification(s, rater, post, bool(d))
    with sqlite_store.read() as s:
        ident = compute_agreement(s, codebook, stage="identify")["identification"]
    assert ident.items == 3 and ident.raters == ["ann", "bob", "cal"] and ident.cohen_kappa is None
    assert ident.observed_agreement == pytest.approx((1 + 0 + 1) / 3)
    assert ident.fleiss_kappa is not None and ident.krippendorff_alpha is not None
    assert ident.disagreements == [{"labels": ["not_pp", "pp"], "count": 1}]
    # Light's kappa: the mean of the defined pairwise kappas (ann-cal and bob-cal share one post, one class).
    assert [p["cohen_kappa"] is None for p in ident.pairwise] == [False, True, True]
    assert ident.mean_pairwise_kappa == pytest.approx(cohen_kappa_score([1, 1, 0], [1, 0, 0]))


def test_light_kappa_is_the_mean_of_every_pairs_kappa(sqlite_store, codebook):
    """Four raters, two of them careless: the summary still has a kappa, and it is the mean of the six pairs."""
    truth = (1, 0, 1, 1, 0, 0, 1, 0)
    votes = {"ann": truth, "bob": truth[:-1] + (1,), "junk1": (1,) * 8, "junk2": (0, 1, 0, 1, 0, 1, 0, 1)}
    with sqlite_store.write() as s:
        _posts(s, *range(1, 9))
        for name, decisions in votes.items():
            rater = get_or_create_rater(s, name)
            for post, d in zip(range(1, 9), decisions, strict=True):
                set_identification(s, rater, post, bool(d))
    with sqlite_store.read() as s:
        ident = compute_agreement(s, codebook, stage="identify")["identification"]
    names = sorted(votes)
    expected = [cohen_kappa_score(votes[a], votes[b]) for i, a in enumerate(names) for b in names[i + 1 :]]
    assert ident.cohen_kappa is None and len(ident.pairwise) == 6
    assert ident.mean_pairwise_kappa == pytest.approx(sum(expected) / 6, abs=1e-12)
    assert (
        table_rows({"identification": ident})[0]["light κ"] == ident.mean_pairwise_kappa
    )  # one kappa column


def test_cli_agreement_json_and_csv(sqlite_url, published):
    from click.testing import CliRunner

    from labeling.cli import cli

    path = str(published / "kappa_identification.csv")

    def run(*args):
        return CliRunner().invoke(cli, [*args, "--db", sqlite_url])

    done = run("import", "--format", "identification", path)
    assert done.exit_code == 0, done.output
    out = run("agreement", "--stage", "identify", "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    rows = _csv(path)
    assert data["identification"]["cohen_kappa"] == pytest.approx(
        cohen_kappa_score([r["isPB_cjm"] for r in rows], [r["isPB_longjie"] for r in rows])
    )
    out = run("agreement", "--format", "csv", "--top", "1")
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("dimension,items,raters,observed_agreement,cohen_kappa")
    assert len(lines) == 1 + len(DIMENSIONS)
    table = run("agreement", "--stage", "identify")
    assert "Most frequent disagreements" in table.stdout and "not_pp" in table.stdout
    assert run("agreement", "--stage", "everything").exit_code == 2
    helptext = run("agreement", "--help").stdout
    assert "unordered set" in helptext and "--stage" in helptext and "--top" in helptext
    # The installed entry point: a real process, exit 0.
    proc = subprocess.run(
        [sys.executable, "-m", "labeling.cli", "agreement", "--format", "json", "--db", sqlite_url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["identification"]["items"] == len(rows)


# -- PP alignment (issue 12, case 4): PPs are paired by what they are, not by the order they were typed in -----

SECOND_RATER = ("symptom2", "root casue 2", "root stage 2", "expose stage 2")


def _swap_second_rater(rows: list[dict]) -> list[dict]:
    """The published rows with the second rater's PPs of every multi-PP post in reverse order (labels unchanged)."""
    posts: dict[str, list[int]] = {}
    for n, row in enumerate(rows):
        posts.setdefault(row["_id"].split("_")[0], []).append(n)
    out = [dict(r) for r in rows]
    for members in posts.values():
        for n, m in zip(members, reversed(members), strict=True):
            for col in SECOND_RATER:
                out[n][col] = rows[m][col]
    return out


def _write(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_swapping_one_raters_pp_order_in_the_published_file_changes_no_agreement(
    db_url, published, codebook, tmp_path
):
    from core.db import open_store

    rows = _csv(published / "kappa_label.csv")
    swapped = _swap_second_rater(rows)
    assert swapped != rows, "the published file has posts with several PPs"
    _write(tmp_path / "swapped.csv", swapped)
    results = []
    for source, url in (
        (published / "kappa_label.csv", db_url),
        (tmp_path / "swapped.csv", f"sqlite:///{tmp_path / 'b.db'}"),
    ):
        store = open_store(url)
        import_file(store, "labels", str(source), codebook)
        with store.read() as s:
            results.append(compute_agreement(s, codebook, stage="classify", top=None))
    original, reordered = results
    for dim in original:
        # Only how the second rater numbered their PPs differs; every statistic and value is the same.
        before, after = original[dim].as_dict(), reordered[dim].as_dict()
        assert {k: v for k, v in after.items() if k != "pairing"} == {
            k: v for k, v in before.items() if k != "pairing"
        }, dim
        assert [(p["item"], p["pps"]["cjm"]) for p in after["pairing"]] == [
            (p["item"], p["pps"]["cjm"]) for p in before["pairing"]
        ], dim
    renumbered = [
        (a["pps"]["longjie"], b["pps"]["longjie"])
        for a, b in zip(original["symptom"].pairing, reordered["symptom"].pairing, strict=True)
        if a["pps"]["longjie"] != b["pps"]["longjie"]
    ]
    assert renumbered and all(old.split("_")[0] == new.split("_")[0] for old, new in renumbered)
    # Pairing by row (typing order) would have changed: the test can tell the two rules apart.
    by_row = cohen_kappa_score(
        [r["root casue"].lower() for r in swapped], [r["root casue 2"].lower() for r in swapped]
    )
    assert by_row != pytest.approx(original["root_cause"].cohen_kappa)


def test_the_part_of_the_post_decides_before_the_labels(sqlite_store, codebook):
    with sqlite_store.write() as s:
        _posts(s, 20)
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        stages = dict(introducing_stage="training", exposing_stage="training")
        set_pp_label(s, ann, 20, 1, symptom1="time.slow_execution", root_cause="api.not_batch_api",
                     part="first paragraph", **stages)  # fmt: skip
        set_pp_label(s, ann, 20, 2, symptom1="memory.oom", root_cause="data.improper_input",
                     part="The code block", **stages)  # fmt: skip
        # bob's PP 1 has ann's PP 1 labels but points at the code block; his PP 2 points at the first paragraph
        set_pp_label(s, bob, 20, 1, symptom1="time.slow_execution", root_cause="api.not_batch_api",
                     part="the code  block", **stages)  # fmt: skip
        set_pp_label(s, bob, 20, 2, symptom1="memory.leak", root_cause="data.improper_input",
                     part="First paragraph", **stages)  # fmt: skip
    with sqlite_store.read() as s:
        items = {i.item: i for i in item_ratings(s, codebook, "root_cause")}
    assert items["20_1"].pps == {"ann": 1, "bob": 2} and items["20_2"].pps == {"ann": 2, "bob": 1}
    assert items["20_1"].ratings == {"ann": "api.not_batch_api", "bob": "data.improper_input"}


def test_best_label_match_pairs_and_an_extra_pp_is_a_disagreement(sqlite_store, codebook):
    with sqlite_store.write() as s:
        _posts(s, 30)
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        set_pp_label(
            s,
            ann,
            30,
            1,
            symptom1="memory.oom",
            root_cause="data.improper_input",
            exposing_stage="training",
            introducing_stage="training",
        )
        set_pp_label(
            s,
            bob,
            30,
            1,
            symptom1="time.hang",
            root_cause="other",
            exposing_stage="prediction",
            introducing_stage="training",
        )
        set_pp_label(s, bob, 30, 2, symptom1="memory.oom", root_cause="api.not_batch_api",
                     exposing_stage="training", introducing_stage="training")  # fmt: skip
    with sqlite_store.read() as s:
        result = compute_agreement(s, codebook, stage="classify", top=None)
        items = {i.item: i for i in item_ratings(s, codebook, "symptom")}
    assert items["30_1"].pps == {
        "ann": 1,
        "bob": 2,
    }  # 2 of 4 labels agree with bob's PP 2, none with his PP 1
    assert items["30_2"].ratings == {"ann": NO_PP, "bob": "time.hang"}
    assert result["symptom"].items == 2 and result["symptom"].observed_agreement == pytest.approx(0.5)
    assert result["exposing_stage"].disagreements == [{"labels": [NO_PP, "prediction"], "count": 1}]
    # The pairing is reported as it was made: ann's PP 1 is bob's PP 2; bob's PP 1 has no partner in ann's PPs.
    assert result["symptom"].pairing == [
        {"item": "30_1", "pps": {"ann": "30_1", "bob": "30_2"}},
        {"item": "30_2", "pps": {"ann": None, "bob": "30_1"}},
    ]
    assert result["root_cause"].pairing == result["symptom"].pairing


def test_cli_pairing_report(sqlite_url, codebook):
    from click.testing import CliRunner

    from core.db import open_store
    from labeling.cli import cli

    store = open_store(sqlite_url)
    with store.write() as s:
        _posts(s, 40)
        stages = {"introducing_stage": "training", "exposing_stage": "training"}
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        set_pp_label(s, ann, 40, 1, symptom1="memory.oom", root_cause="data.improper_input", **stages)
        set_pp_label(s, bob, 40, 1, symptom1="time.hang", root_cause="other", **stages)
        set_pp_label(s, bob, 40, 2, symptom1="memory.oom", root_cause="data.improper_input", **stages)
    runner = CliRunner()
    out = runner.invoke(cli, ["agreement", "--db", sqlite_url, "--report", "pairing", "--format", "csv"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines() == [
        "item,rater,rater_pp", "40_1,ann,40_1", "40_1,bob,40_2", "40_2,ann,(no PP)", "40_2,bob,40_1"
    ]  # fmt: skip
    table = runner.invoke(cli, ["agreement", "--db", sqlite_url])
    assert "PPs paired across raters: 2 (--report pairing" in table.output
    ident = runner.invoke(
        cli, ["agreement", "--db", sqlite_url, "--stage", "identify", "--report", "pairing"]
    )
    assert ident.exit_code == 0 and "40_1" not in ident.output


def test_the_kappa_chart_names_the_statistic_it_shows():
    from labeling.agreement import chart_kappa

    assert chart_kappa([None, None], [0.346, 0.2]) == (
        [0.346, 0.2],
        "Fleiss' kappa per dimension",
    )  # 3 raters
    assert chart_kappa([0.5, float("nan")], [0.4, 0.3]) == (
        [0.5, 0.3],
        "Cohen's (two raters) or Fleiss' kappa per dimension",
    )
    assert chart_kappa([0.5], [0.4])[1] == "Cohen's kappa per dimension"


def test_the_cli_and_the_notebooks_show_the_same_agreement_rows(sqlite_url, published, codebook):
    """Issue 19: the agreement output is built once (labeling.agreement_report). Every report the CLI writes as
    CSV is, cell for cell, the DataFrame the notebooks read; the JSON summary is the per-dimension result."""
    import io

    from core.db import open_store
    from labeling.agreement_report import REPORTS
    from labeling.analysis import agreement_detail
    from labeling.cli import cli

    store = open_store(sqlite_url)
    import_file(store, "labels", str(published / "kappa_label.csv"), codebook, raters=("ann", "bob"))
    for report in REPORTS:
        out = CliRunner().invoke(
            cli, ["agreement", "--report", report, "--format", "csv", "--db", sqlite_url]
        )
        assert out.exit_code == 0, out.output
        with store.read() as s:
            frame = agreement_detail(s, codebook, report)
        assert len(frame) > 0, report
        shown = list(csv.DictReader(io.StringIO(out.stdout)))
        assert list(shown[0]) == list(frame.columns), report

        def cell(v):  # as CSV writes a value: no value for None (NaN in pandas), a list joined by ';'
            return ";".join(v) if isinstance(v, list) else "" if v is None or v != v else str(v)

        expected = [{c: cell(v) for c, v in row.items()} for row in frame.to_dict("records")]
        assert [dict(r) for r in shown] == expected, report
    out = CliRunner().invoke(cli, ["agreement", "--format", "json", "--db", sqlite_url])
    with store.read() as s:
        assert json.loads(out.stdout) == json.loads(to_json(compute_agreement(s, codebook)))
