"""Agreement per rater: pairwise kappa, agreement with the majority, directed confusion, disputed items.

Four raters decide 20 posts: ann, bob and cat follow one truth (cat misses two), zed answers against it on most
posts. The report must single zed out and say which way every disagreement goes.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess

import pytest
from conftest import run_cli
from sklearn.metrics import cohen_kappa_score

from core.db import open_store
from labeling.agreement import compute_agreement
from labeling.records import get_or_create_rater, set_identification
from mining.store import upsert_questions

POSTS = list(range(101, 121))
TRUTH = {q: q % 3 == 0 for q in POSTS}
CAT_MISSES = {102, 103}
ZED_RIGHT = {101, 104, 105}


def _answers():
    return {
        "ann": dict(TRUTH),
        "bob": dict(TRUTH),
        "cat": {q: (not v) if q in CAT_MISSES else v for q, v in TRUTH.items()},
        "zed": {q: v if q in ZED_RIGHT else not v for q, v in TRUTH.items()},
    }


def _fill(store):
    with store.write() as s:
        posts = [{"site": "stackoverflow", "id": q, "title": f"p{q}", "body_html": "<p>x</p>"} for q in POSTS]
        upsert_questions(s, posts, "import")
        for name, answers in _answers().items():
            rater = get_or_create_rater(s, name)
            for q, is_pp in answers.items():
                set_identification(s, rater, q, is_pp)


def pplabel(*args: str) -> subprocess.CompletedProcess:
    return run_cli("labeling.cli", *args, check=False)


def test_four_raters_pairwise_majority_confusion_disputed(store):
    _fill(store)
    with store.read() as s:
        ident = compute_agreement(s, stage="identify")["identification"]
    answers = _answers()
    label = {True: "pp", False: "not_pp"}
    pairs = {(p["rater_a"], p["rater_b"]): p for p in ident.pairwise}
    assert sorted(pairs) == [
        ("ann", "bob"), ("ann", "cat"), ("ann", "zed"), ("bob", "cat"), ("bob", "zed"), ("cat", "zed")
    ]  # fmt: skip
    for (a, b), p in pairs.items():
        first = [label[answers[a][q]] for q in POSTS]
        second = [label[answers[b][q]] for q in POSTS]
        assert p["items"] == 20
        assert p["cohen_kappa"] == pytest.approx(cohen_kappa_score(first, second))
        assert p["observed_agreement"] == sum(x == y for x, y in zip(first, second, strict=True)) / 20
    assert pairs["ann", "bob"]["cohen_kappa"] == 1.0 and pairs["ann", "zed"]["cohen_kappa"] < 0

    majority = {m["rater"]: m for m in ident.majority}
    # ann's others (bob, cat, zed): a strict majority on every post except where cat misses (1-1-1 cannot tie
    # with 3 raters and 2 values; cat+zed outvote bob there), so ann agrees on 18 of 20
    assert majority["ann"]["items"] == 20 and majority["ann"]["agreement_with_majority"] == 18 / 20
    # zed's others always hold the truth as majority: zed agrees only where zed is right
    assert majority["zed"]["agreement_with_majority"] == len(ZED_RIGHT) / 20
    assert min(ident.majority, key=lambda m: m["agreement_with_majority"])["rater"] == "zed"
    assert majority["cat"]["agreement_with_majority"] == 18 / 20

    cells = {(c["rater_a"], c["rater_b"], c["label_a"], c["label_b"]): c for c in ident.confusion}
    said = [q for q in POSTS if TRUTH[q] and q not in ZED_RIGHT]
    assert cells["ann", "zed", "pp", "not_pp"]["items"] == [str(q) for q in said]
    assert cells["ann", "zed", "pp", "not_pp"]["count"] == len(said)
    for a, b in pairs:  # each pair's cells add up to its items
        assert sum(c["count"] for k, c in cells.items() if k[:2] == (a, b)) == 20

    disputed = {d["item"]: d["ratings"] for d in ident.disputed}
    assert sorted(disputed) == [str(q) for q in POSTS if answers["zed"][q] != TRUTH[q] or q in CAT_MISSES]
    assert disputed["102"] == {"ann": "pp", "bob": "pp", "cat": "not_pp", "zed": "not_pp"}  # 102 is a PP


def test_cli_reports_json_keys_csv_and_table(sqlite_url):
    store = open_store(sqlite_url)
    _fill(store)
    out = pplabel("agreement", "--stage", "identify", "--format", "json", "--db", sqlite_url)
    assert out.returncode == 0, out.stderr
    ident = json.loads(out.stdout)["identification"]
    for key in ("items", "raters", "observed_agreement", "cohen_kappa", "fleiss_kappa", "krippendorff_alpha"):
        assert key in ident  # the existing keys stay
    assert len(ident["pairwise"]) == 6 and len(ident["majority"]) == 4
    assert {d["item"] for d in ident["disputed"]} >= {"102", "103"}

    out = pplabel("agreement", "--report", "pairwise", "--format", "csv", "--db", sqlite_url)
    assert out.returncode == 0, out.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert list(rows[0]) == ["dimension", "rater_a", "rater_b", "items", "observed_agreement", "cohen_kappa"]
    assert [(r["rater_a"], r["rater_b"]) for r in rows if r["dimension"] == "identification"][0] == (
        "ann",
        "bob",
    )
    assert float(rows[0]["cohen_kappa"]) == 1.0

    out = pplabel("agreement", "--report", "disputed", "--format", "csv", "--db", sqlite_url)
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert {"dimension": "identification", "item": "102", "rater": "zed", "value": "not_pp"} in rows

    out = pplabel("agreement", "--report", "confusion", "--format", "csv", "--db", sqlite_url)
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    cell = next(
        r
        for r in rows
        if (r["rater_a"], r["rater_b"], r["label_a"], r["label_b"]) == ("ann", "cat", "not_pp", "pp")
    )
    assert cell["count"] == "1" and cell["items"] == "103"  # cat called the not-PP 103 a PP

    table = run_cli(
        "labeling.cli",
        "agreement",
        "--stage",
        "identify",
        "--db",
        sqlite_url,
        check=False,
        env={"COLUMNS": "120"},
    )
    assert table.returncode == 0, table.stderr
    assert "ann–zed" in table.stdout and "Agreement with the other raters' majority" in table.stdout
    assert (
        "ann: pp" in table.stdout
        and "zed: not_pp" in table.stdout
        and "102, 108, 111, 114, 117 (+1)" in table.stdout
    )
    assert "disputed items: identification " in table.stdout
