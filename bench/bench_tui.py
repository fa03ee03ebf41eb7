"""How long a rater waits for the next post: key press -> next post rendered, with 100k candidates in SQLite.

Builds a study database (real Stack Overflow bodies from tests/fixtures, cycled), then drives the identify and
classify apps headless through Textual's pilot and times each key press until the screen shows the next post.
Prints median / p95 / max in ms and the ratio to the 100 ms budget. Run: ``python bench/bench_tui.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from core.db import open_store  # noqa: E402
from core.schema.labeling import Identification  # noqa: E402
from core.schema.mining import Answer, Candidate, CandidateHit, Comment, KeywordSet, Question  # noqa: E402
from core.text import split_html  # noqa: E402
from labeling.queue import ClassifyQueue, IdentifyQueue  # noqa: E402
from labeling.records import get_or_create_rater  # noqa: E402
from labeling.tui.common import screen_text  # noqa: E402

BODIES = PROJECT / "tests" / "fixtures" / "so_questions" / "sede_so_2022_questions_QueryResults.csv"
BUDGET_MS = 100.0
KEYWORDS = ["slowli", "faster", "speed", "oom", "memori leak", "gpu util", "take long"]

SO = "stackoverflow"


def real_posts() -> list[tuple[str, str, list[str], str]]:
    """(title, prose, code blocks, body HTML) of the real questions in the fixture sample."""
    csv.field_size_limit(10_000_000)
    with BODIES.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out = []
    for r in rows:
        split = split_html(r["Body"])
        out.append((r["Title"], split.prose, split.code_blocks, r["Body"]))
    return out


def build(url: str, n: int) -> None:
    store = open_store(url)
    posts = real_posts()
    now = datetime(2024, 1, 1)
    chunk = 10_000
    with store.write() as s:
        # A rater exists once they decided something: the classify rater's 2,000 decisions below.
        rater = get_or_create_rater(s, "classifier")
        ks = KeywordSet(content_hash="bench", stemmer_mode="porter", keywords=KEYWORDS, created_at=now)
        s.add(ks)
        s.flush()
        for start in range(1, n + 1, chunk):
            ids = range(start, min(start + chunk, n + 1))
            q_rows, a_rows, c_rows, cand_rows, hit_rows = [], [], [], [], []
            for q in ids:
                title, prose, code, html = posts[q % len(posts)]
                answer_title, answer_prose, answer_code, answer_html = posts[(q * 7) % len(posts)]
                q_rows.append(
                    dict(site=SO, id=q, title=title, body_html=html, prose=prose, code_blocks=code, has_code=bool(code), tags="|keras|",
                         score=q % 20, accepted_answer_id=q * 10, source="import", refreshed_at=now,
                         creation_date=now)
                )  # fmt: skip
                a_rows.append(
                    dict(site=SO, id=q * 10, question_id=q, body_html=answer_html, prose=answer_prose, code_blocks=answer_code, score=3,
                         source="import", refreshed_at=now)
                )  # fmt: skip
                for k in range(2):
                    c_rows.append(
                        dict(site=SO, id=q * 100 + k, post_id=q if k == 0 else q * 10, post_type="question" if k == 0 else
                             "answer", question_id=q, text=f"did you try a smaller batch? {answer_title}",
                             source="import", refreshed_at=now)
                    )  # fmt: skip
                cand_rows.append(dict(id=q, keyword_set_id=ks.id, site=SO, question_id=q, matched_at=now))
                hit_rows.append(
                    dict(candidate_id=q, keyword=KEYWORDS[q % len(KEYWORDS)], field="prose", count=1)
                )
            for model, rows in (
                (Question, q_rows),
                (Answer, a_rows),
                (Comment, c_rows),
                (Candidate, cand_rows),
                (CandidateHit, hit_rows),
            ):
                s.execute(sa.insert(model), rows)
        # 2,000 posts the classify rater found to be PPs.
        s.execute(
            sa.insert(Identification),
            [
                dict(rater_id=rater.id, site=SO, question_id=q, is_pp=True, decided_at=now)
                for q in range(1, 2001)
            ],
        )


async def time_presses(
    app, keys: list[str], think: float = 0.0
) -> tuple[list[float], list[float], list[float]]:
    """Per key: ms until the first rendered frame shows the post the app moved to, the CPU ms this process spent
    meanwhile (wall minus CPU is waiting: the frame timer, or other processes on a busy machine), and ms of
    ``pilot.press``.

    The pilot sends each key as the terminal driver would. Textual computes every frame (the compositor update)
    before handing it to the driver, also headless; wrapping that hand-over marks when the new post was drawn.
    ``pilot.press`` itself adds idle-detection sleeps, so its time is an upper bound, reported for reference.
    ``think`` seconds pass before each key, as a rater reads the post before deciding.
    """
    frames: list[tuple[float, float, int | None]] = []
    display = app._display

    def record(screen, renderable):
        if renderable is not None:
            frames.append((time.perf_counter(), time.process_time(), app.queue.current))
        return display(screen, renderable)

    app._display = record
    to_frame, round_trip, cpu = [], [], []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for key in keys:
            await asyncio.sleep(
                think
            )  # the rater reads the post (the app reads the next one ahead meanwhile)
            before = app.queue.current
            frames.clear()
            t0, c0 = time.perf_counter(), time.process_time()
            await pilot.press(key)
            t1 = time.perf_counter()
            drawn = next((f for f in frames if f[2] != before), None)
            while drawn is None:  # not drawn yet: wait for the frame
                await asyncio.sleep(0.001)
                drawn = next((f for f in frames if f[2] != before), None)
            to_frame.append((drawn[0] - t0) * 1000)
            cpu.append((drawn[1] - c0) * 1000)
            round_trip.append((t1 - t0) * 1000)
            current = app.queue.current
            assert current is None or f"post {current}" in screen_text(app), (
                f"screen does not show post {current}"
            )
    return to_frame, cpu, round_trip


def report(name: str, measured: tuple[list[float], list[float], list[float]]) -> None:
    to_frame, cpu, round_trip = measured
    line(f"{name}: key -> post drawn", to_frame)
    line(f"{name}:   of which CPU time", cpu)
    line(f"{name}:   pilot.press round trip", round_trip)


def line(name: str, ms: list[float]) -> None:
    ms = sorted(ms)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    print(
        f"{name:<52} n={len(ms):<4} median {statistics.median(ms):6.1f} ms  p95 {p95:6.1f} ms  "
        f"max {ms[-1]:6.1f} ms  p95/budget {p95 / BUDGET_MS:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=100_000, help="candidate posts in the database")
    parser.add_argument("--presses", type=int, default=100, help="key presses timed per measurement")
    parser.add_argument("--think", type=float, default=0.2, help="seconds a rater reads before each key")
    parser.add_argument("--db", help="SQLite file to build (default: a temporary one)")
    args = parser.parse_args()

    from labeling.codebook import load_codebook
    from labeling.tui.classify import ClassifyApp
    from labeling.tui.identify import IdentifyApp

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.db) if args.db else Path(tmp) / "bench.db"
        path.unlink(missing_ok=True)
        url = f"sqlite:///{path}"
        t0 = time.perf_counter()
        build(url, args.candidates)
        print(
            f"built {args.candidates:,} candidates in {time.perf_counter() - t0:.1f} s ({path.stat().st_size >> 20} MiB)"
        )
        store = open_store(url)

        t0 = time.perf_counter()
        queue = IdentifyQueue(store, "bench-rater")
        print(
            f"identify queue of {queue.progress.remaining:,} opened in {(time.perf_counter() - t0) * 1000:.0f} ms"
        )
        n = args.presses
        report(
            "identify: y/n (commit + next post)",
            asyncio.run(time_presses(IdentifyApp(queue), ["y", "n"] * (n // 2), args.think)),
        )
        report(
            "identify: s (skip, next post)",
            asyncio.run(time_presses(IdentifyApp(IdentifyQueue(store, "other")), ["s"] * n, args.think)),
        )
        report(
            "identify: u (undo, previous post)",
            asyncio.run(
                time_presses(IdentifyApp(IdentifyQueue(store, "bench-rater")), ["u"] * n, args.think)
            ),
        )
        classify = ClassifyApp(ClassifyQueue(store, "classifier"), load_codebook())
        report("classify: s (skip, next post)", asyncio.run(time_presses(classify, ["s"] * n, args.think)))


if __name__ == "__main__":
    main()
