"""`pplabel progress`: decided / remaining / rate / ETA per rater, from real decisions in a real database."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime, timedelta

import sqlalchemy as sa
from conftest import run_cli

from core.db import open_store
from core.schema.labeling import Identification, PPLabel, Rater
from core.schema.mining import Candidate, KeywordSet
from labeling.progress import eta, format_duration, labeling_rate, progress_report, status_text
from labeling.records import get_or_create_rater, set_identification, set_pp_label
from mining.store import upsert_questions

T0 = datetime(2024, 3, 1, 9, 0, 0)
FULL = {"symptom1": "time.slow_execution", "root_cause": "api.not_batch_api", "introducing_stage": "training"}


def pplabel(*args: str) -> subprocess.CompletedProcess:
    return run_cli("labeling.cli", *args, check=False)


def test_rate_counts_active_time_only():
    minute = timedelta(minutes=1)
    times = [
        T0,
        T0 + minute,
        T0 + 2 * minute,
        T0 + 3 * timedelta(hours=1),
        T0 + 3 * timedelta(hours=1) + minute / 2,
    ]
    # 3 timed gaps in 2.5 minutes; the 3-hour pause is a break
    assert labeling_rate(reversed(times)) == 3 / (2.5 / 60)
    assert labeling_rate([T0] * 50) is None  # an import writes every row at once: no pace
    assert labeling_rate([T0]) is None
    assert eta(36, 72.0) == timedelta(minutes=30)
    assert eta(0, None) == timedelta(0) and eta(5, None) is None
    assert [format_duration(d) for d in (timedelta(minutes=125), timedelta(seconds=20), None)] == [
        "2h 05m",
        "<1m",
        "?",
    ]
    assert status_text(12, 28, 56.0) == "12/40 · 28 left · 56/h · ETA 30m"


def _study(store, n=10):
    with store.write() as s:
        upsert_questions(
            s,
            [
                {"site": "stackoverflow", "id": q, "title": f"post {q}", "body_html": "<p>x</p>"}
                for q in range(1, n + 1)
            ],
            "import",
        )
        ks = KeywordSet(content_hash="h", stemmer_mode="porter", keywords=["slow"], created_at=T0)
        s.add(ks)
        s.flush()
        s.add_all(
            Candidate(keyword_set_id=ks.id, site="stackoverflow", question_id=q, matched_at=T0)
            for q in range(1, n + 1)
        )


def _decide(store, rater, posts, start, step, is_pp=False):
    with store.write() as s:
        r = get_or_create_rater(s, rater)
        for i, q in enumerate(posts):
            set_identification(s, r, q, is_pp(q) if callable(is_pp) else is_pp)
            s.execute(
                sa.update(Identification)
                .where(Identification.rater_id == r.id, Identification.question_id == q)
                .values(decided_at=start + i * step)
            )


def test_progress_per_rater_and_stage(store):
    _study(store)
    _decide(store, "ann", [1, 2, 3, 4, 5], T0, timedelta(minutes=1), is_pp=lambda q: q <= 2)
    _decide(store, "bob", [1], T0, timedelta(minutes=1))
    with store.write() as s:
        ann = s.scalar(sa.select(Rater).where(Rater.name == "ann"))
        set_pp_label(s, ann, 1, 1, **FULL, exposing_stage="training")
        set_pp_label(s, ann, 2, 1, **FULL)  # no exposing stage yet: not finished
        s.execute(sa.update(PPLabel).values(labeled_at=T0 + timedelta(minutes=10)))
    with store.read() as s:
        rows = {(r.rater, r.stage): r for r in progress_report(s)}
    assert sorted(rows) == [
        ("ann", "classify"),
        ("ann", "identify"),
        ("bob", "classify"),
        ("bob", "identify"),
    ]
    ident = rows["ann", "identify"]
    assert (ident.decided, ident.remaining, ident.total) == (5, 5, 10)
    assert ident.rate_per_hour == 60.0 and ident.eta == timedelta(minutes=5)
    assert ident.last_decision == T0 + timedelta(minutes=4)
    assert (rows["bob", "identify"].decided, rows["bob", "identify"].rate_per_hour) == (1, None)
    cls = rows["ann", "classify"]
    assert (cls.decided, cls.remaining, cls.rate_per_hour) == (1, 1, None)
    assert (rows["bob", "classify"].decided, rows["bob", "classify"].remaining) == (0, 0)
    with store.read() as s:
        sample = progress_report(s, ["ann"], ("identify",), seed=0, sample=3)
    assert sample[0].total == 3 and sample[0].decided == len({1, 2, 3, 4, 5} & set(_first(3)))


def _first(n):
    from labeling.queue import seeded_order

    return [post.id for post in seeded_order(range(1, 11), 0, n)]


def test_progress_command_table_and_json(sqlite_url):
    store = open_store(sqlite_url)
    _study(store, 6)
    _decide(store, "ann", [1, 2, 3], T0, timedelta(seconds=30))
    out = pplabel("progress", "--stage", "identify", "--format", "json", "--db", sqlite_url)
    assert out.returncode == 0, out.stderr
    (row,) = json.loads(out.stdout)
    assert row == {
        "rater": "ann",
        "stage": "identify",
        "decided": 3,
        "remaining": 3,
        "total": 6,
        "rate_per_hour": 120.0,
        "eta_seconds": 90,
        "last_decision": "2024-03-01T09:01:00",
    }
    table = pplabel("progress", "--db", sqlite_url)
    assert table.returncode == 0, table.stderr
    line = next(x for x in table.stdout.splitlines() if "identify" in x).split()
    assert line[:6] == ["ann", "│", "identify", "│", "3", "│"] and "120/h" in line and "2m" in line
    missing = pplabel("progress", "--rater", "zed", "--db", sqlite_url)
    assert missing.returncode == 1
    assert missing.stderr == "pplabel: error: --rater: no rater named zed (raters: ann)\n"
