"""`pplabel identify --order priority` and `pplabel triage status` on the real labelled caffe reports stored as
candidate posts: the model's order, blindness to other raters, the status line, background retraining, the test."""

from __future__ import annotations

import asyncio
import html
import json
import math
import re
import sys
import time
from datetime import datetime

import pytest
import sqlalchemy as sa

from core.db import open_store
from core.errors import PPMinerError
from core.schema.mining import Candidate, CandidateHit, KeywordSet
from core.sites import PostKey
from labeling.queue import IdentifyQueue, seeded_order
from labeling.records import get_or_create_rater, set_identification
from labeling.triage.dataset import read_csv
from labeling.triage.priority import Priority
from labeling.triage.ranker import EARLY, MAX_LAG
from labeling.triage.stopping import estimate, p_value, start_sample
from labeling.tui.common import screen_text
from labeling.tui.identify import IdentifyApp
from mining.store import upsert_questions

FAST = "svm-plain"  # one fit per retrain keeps the many synchronous refits quick; the status line uses the default


@pytest.fixture(scope="module")
def caffe(fixtures):
    return read_csv(fixtures / "labelled_reports" / "caffe_asreview.csv")


def store_reports(store, data, first_id=1000):
    """The reports as questions (id first_id + record_id) and candidates; returns {question id: label}."""
    ids = [first_id + r for r in data.record_ids]
    with store.write() as s:
        upsert_questions(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": q,
                    "title": t,
                    "body_html": f"<p>{html.escape(b)}</p>",
                    "tags": "|caffe|",
                }
                for q, t, b in zip(ids, data.fields["title"], data.fields["prose"], strict=True)
            ],
            "import",
        )
        ks = KeywordSet(
            content_hash="h", stemmer_mode="porter", keywords=["slow"], created_at=datetime(2024, 1, 1)
        )
        s.add(ks)
        s.flush()
        for q in ids:
            cand = Candidate(
                keyword_set_id=ks.id, site="stackoverflow", question_id=q, matched_at=datetime(2024, 1, 1)
            )
            cand.hits.append(CandidateHit(keyword="slow", field="prose", count=1))
            s.add(cand)
    return dict(zip((PostKey("stackoverflow", q) for q in ids), data.labels.tolist(), strict=True))


def screen(queue, truth, n):
    """Decide the next ``n`` posts as the labels say; returns the labels read."""
    read = []
    for _ in range(n):
        qid = queue.current
        read.append(truth[qid])
        queue.decide(bool(truth[qid]))
    return read


def test_priority_finds_pps_sooner_than_the_seeded_order(store, caffe):
    truth = store_reports(store, caffe)
    queue = IdentifyQueue(store, "ann", seed=3, priority=Priority(warmup=15, background=False, model=FAST))
    warm = screen(queue, truth, 15)
    assert [truth[q] for q in seeded_order(truth, 3)[:15]] == warm  # the warm-up is the seeded order
    ranked = screen(queue, truth, 45)
    seeded = [truth[q] for q in seeded_order(truth, 3)[15:60]]
    # caffe: 33 of 286 are PPs (12%); the model's next 45 hold far more than the seeded order's next 45
    assert sum(ranked) >= 2 * max(1, sum(seeded)) and sum(ranked) >= 12, (sum(ranked), sum(seeded))
    status = queue.ranking.status()
    assert (status.decisions, status.pps, status.recent, status.recent_pps) == (
        60,
        sum(warm) + sum(ranked),
        50,
        sum((warm + ranked)[-50:]),
    )
    assert status.unread_estimate is not None and 0 < status.unread_estimate < 286 - 60


def test_the_ranking_in_use_is_at_most_two_decisions_old(store, caffe):
    truth = store_reports(store, caffe)
    queue = IdentifyQueue(store, "ann", seed=2, priority=Priority(warmup=5, background=False, model=FAST))
    lags = []
    for _ in range(80):
        queue.decide(bool(truth[queue.current]))
        lags.append((queue.ranking.status().decisions, queue.ranking.lag))
    fitted = [(n, lag) for n, lag in lags if lag is not None]
    assert fitted and all(lag == 0 for n, lag in fitted if n < EARLY)
    assert (
        max(lag for _, lag in fitted) == MAX_LAG - 1
    )  # the refit comes with the decision that would make it 2


def test_other_raters_never_change_this_raters_order(store, caffe):
    truth = store_reports(store, caffe)
    ann = IdentifyQueue(store, "ann", seed=1, priority=Priority(warmup=10, background=False, model=FAST))
    screen(ann, truth, 25)
    before = list(
        IdentifyQueue(
            store, "ann", seed=1, priority=Priority(warmup=10, background=False, model=FAST)
        )._pending
    )
    with store.write() as s:  # bob decides every post, half of them against the labels
        bob = get_or_create_rater(s, "bob")
        for i, (q, label) in enumerate(truth.items()):
            set_identification(s, bob, q, bool(label) if i % 2 else not label)
    after = list(
        IdentifyQueue(
            store, "ann", seed=1, priority=Priority(warmup=10, background=False, model=FAST)
        )._pending
    )
    assert after == before and len(after) == 286 - 25
    assert after != seeded_order(set(after), 1)  # it is the model's order, not the seeded one


def test_skipped_posts_stay_last_and_undo_forgets(sqlite_store, caffe):
    truth = store_reports(sqlite_store, caffe)
    queue = IdentifyQueue(
        sqlite_store, "ann", seed=2, priority=Priority(warmup=5, background=False, model=FAST)
    )
    screen(queue, truth, 20)
    skipped = queue.current
    queue.skip()
    screen(queue, truth, 3)
    assert queue._pending[-1] == skipped
    n = queue.ranking.status().decisions
    queue.undo()
    assert queue.ranking.status().decisions == n - 1


def test_background_trainer_publishes_a_ranking(sqlite_store, caffe):
    truth = store_reports(sqlite_store, caffe)
    queue = IdentifyQueue(sqlite_store, "ann", seed=4, priority=Priority(warmup=10))
    try:
        read = screen(queue, truth, 10)
        while sum(read) == 0:  # the model needs a PP and a non-PP
            read += screen(queue, truth, 1)
        deadline = time.monotonic() + 60
        while queue.ranking.status().unread_estimate is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert queue.ranking.status().unread_estimate is not None
        queue.decide(bool(truth[queue.current]))  # the next decision uses the published scores
        assert list(queue._pending) != [q for q in seeded_order(truth, 4) if q in set(queue._pending)]
    finally:
        queue.ranking.close()
        queue.ranking._thread.join(timeout=10)
    assert not queue.ranking._thread.is_alive()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_status_line_shows_the_screening_figures(sqlite_store, caffe, size):
    truth = store_reports(sqlite_store, caffe)
    queue = IdentifyQueue(sqlite_store, "ann", seed=5, priority=Priority(warmup=4, background=False))
    keys = ["y" if truth[q] else "n" for q in seeded_order(truth, 5)[:4]]
    pps = sum(truth[q] for q in seeded_order(truth, 5)[:4])

    async def go():
        app = IdentifyApp(queue)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            return screen_text(app)

    text = asyncio.run(go())
    # The status line takes one row, or two when it is longer than the screen is wide (a fast test rater's rate,
    # e.g. 34798/h, makes it so at 80 columns): read both rows as one line.
    top = " ".join(" ".join(text.splitlines()[:2]).split())
    assert f"PP {pps}/4" in top and f"last 4: {pps}" in top, top
    if pps:  # the model needs a PP and a non-PP to estimate
        assert re.search(r"≈\d+ left", top), top


# -- when to stop --


def _hypergeom_cdf(k, pool, pps, n):
    total = math.comb(pool, n)
    return sum(math.comb(pps, i) * math.comb(pool - pps, n - i) for i in range(k + 1)) / total


def test_p_value_is_the_hypergeometric_tail_of_the_null():
    # 50 found before; 0 PPs in a sample of 100 from a pool of 400: H0 needs >= floor(50/0.95 - 50) + 1 = 3
    k_min, p = p_value(400, 50, 100, 0, 0.95)
    assert k_min == 3 and p == pytest.approx(_hypergeom_cdf(0, 400, 3, 100))
    k_min, p = p_value(400, 50, 100, 1, 0.95)  # one PP in the sample: 51 found, K >= 4
    assert k_min == 4 and p == pytest.approx(_hypergeom_cdf(1, 400, 4, 100))
    assert p_value(2, 100, 0, 0, 0.95) == (6, 0.0)  # the pool cannot hold enough PPs for H0


def test_status_before_and_after_a_random_sample(store, caffe, capsys, monkeypatch):
    truth = store_reports(store, caffe)
    queue = IdentifyQueue(store, "ann", seed=0, priority=Priority(warmup=20, background=False, model=FAST))
    screen(queue, truth, 150)
    first = estimate(store, "ann")
    assert first.sample_started is None and first.decided == 150 and first.more_without_pp > 0
    start_sample(store, "ann")
    with pytest.raises(PPMinerError, match="with --seed 0; use the same"):
        start_sample(store, "ann", seed=9)
    pool = [q for q in seeded_order(truth, 0) if q in set(queue._pending)]
    sample = IdentifyQueue(store, "ann", seed=0)  # --order sample: the undecided posts in seeded order
    assert list(sample._pending) == pool
    read = screen(sample, truth, 60)
    result = estimate(store, "ann")
    found_before = first.pps
    k_min = math.floor((found_before + sum(read)) / 0.95 - found_before) + 1
    assert (result.pool, result.sample, result.sample_pps, result.h0_min_pool_pps) == (
        136,
        60,
        sum(read),
        k_min,
    )
    assert result.p_value == pytest.approx(_hypergeom_cdf(sum(read), 136, k_min, 60))
    assert result.stop == (result.p_value < 0.05)
    from labeling.cli import main

    monkeypatch.setattr(sys, "argv", ["pplabel", "triage", "status", "--rater", "ann", "--db", store.url,
                                      "--format", "json"])  # fmt: skip
    with pytest.raises(SystemExit) as exc:
        main()
    out = json.loads(capsys.readouterr().out)
    assert exc.value.code == 0 and out["method"].startswith("Callaghan & Müller-Hansen (2020)")
    assert out["p_value"] == pytest.approx(result.p_value) and out["sample"] == 60


def test_status_text_names_method_and_guarantee(sqlite_store, caffe, capsys, monkeypatch):
    store_reports(sqlite_store, caffe)
    from labeling.cli import main

    monkeypatch.setattr(
        sys, "argv", ["pplabel", "triage", "status", "--rater", "ann", "--db", sqlite_store.url]
    )
    with pytest.raises(SystemExit) as exc:
        main()
    out = capsys.readouterr().out
    assert exc.value.code == 0
    assert "Callaghan & Müller-Hansen (2020)" in out and "guarantees:" in out and "It does not cover" in out
    assert "--order sample" in out


def test_warmup_needs_priority_order(sqlite_store, capsys, monkeypatch):
    from labeling.cli import main

    monkeypatch.setattr(sys, "argv", ["pplabel", "identify", "--rater", "ann", "--warmup", "5",
                                      "--db", sqlite_store.url])  # fmt: skip
    with pytest.raises(SystemExit) as exc:
        main()
    assert exc.value.code == 2 and "--warmup goes with --order priority" in capsys.readouterr().err


def test_a_store_without_candidates_is_one_line_error(sqlite_url):
    store = open_store(sqlite_url)
    with pytest.raises(PPMinerError, match="no candidates yet"):
        estimate(store, "ann")
    with store.read() as s:
        assert s.scalar(sa.select(sa.func.count()).select_from(Candidate)) == 0


def _drain(fd, until: bytes, timeout: float = 60.0) -> bytes:
    import os
    import select

    out, end = b"", time.monotonic() + timeout
    while until not in out:
        assert time.monotonic() < end, (
            f"timed out waiting for {until!r}; terminal output so far: {out[-400:]!r}"
        )
        if select.select([fd], [], [], 0.2)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    return out


@pytest.mark.parametrize("order", ["priority", "sample"])
def test_identify_orders_in_a_real_terminal(sqlite_url, caffe, order):
    """`pplabel identify --order priority|sample` in a pseudo-terminal: the status line, a decision, q."""
    import fcntl
    import os
    import pty
    import struct
    import termios

    store = open_store(sqlite_url)
    store_reports(store, caffe)
    extra = ["--warmup", "1"] if order == "priority" else []
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        cmd = [sys.executable, "-m", "labeling.cli", "identify", "--rater", "ann", "--order", order, *extra,
               "--db", sqlite_url]  # fmt: skip
        # the size is the terminal's: a COLUMNS/LINES left in the environment would override it
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        os.execvpe(sys.executable, cmd, dict(env, TERM="xterm-256color"))
    try:
        _drain(fd, b"model warming up" if order == "priority" else b"remaining 286")
        os.write(fd, b"n")
        _drain(fd, b"PP 0/1" if order == "priority" else b"remaining 285")
        os.write(fd, b"q")
        out = _drain(fd, b"remaining (all saved)")
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0 and b"ann: 1 decided, 285 remaining (all saved)" in out
    started = estimate(store, "ann").sample_started
    assert (started is not None) == (order == "sample")
