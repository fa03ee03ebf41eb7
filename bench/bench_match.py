"""Benchmark: keyword matching against the bare cost of reading and tokenising the same texts.

Builds a SQLite study database of N questions (default 100,000) by replicating the real Stack Overflow questions
in tests/fixtures (each copy gets a few words of its own, so the vocabulary keeps growing as in a real
corpus), then times, over title + question prose:

  bare     read the texts from the database and tokenise them
  match    read, tokenise, stem (cached) and match the study's keyword set
  new      ppmine match end to end (selection SQL, matching, storing checks and candidates) on a fresh database
  --all    ppmine match --all over the same, unchanged questions (best of --repeat)

and prints posts per CPU-second of this process (bare and match: best of --repeat, interleaved), the ratios to
bare (target: match and ppmine match <= 2x bare), and the wall clock of the runs (a database server's own work).

    python bench/bench_match.py [--posts 100000] [--db sqlite:///PATH | postgresql://...]
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from core.config import load_config  # noqa: E402
from core.db import open_store  # noqa: E402
from core.schema.mining import Question  # noqa: E402
from core.sites import DEFAULT_SITE  # noqa: E402
from core.text import split_html  # noqa: E402
from mining.match.keywords import read_keywords  # noqa: E402
from mining.match.matcher import Matcher  # noqa: E402
from mining.match.run import run_match  # noqa: E402
from mining.match.tokenize import tokens  # noqa: E402
from mining.store import utcnow  # noqa: E402

REAL = PROJECT / "tests" / "fixtures" / "so_questions" / "sede_so_2022_questions_QueryResults.csv"
WORDS = [
    "tensor",
    "keras",
    "layer",
    "batch",
    "epoch",
    "gradient",
    "shape",
    "dense",
    "conv",
    "loss",
    "metric",
    "callback",
    "dataset",
]


def novel_word(i: int) -> str:
    """A word seen in one post only (letters), so every post brings one more word to stem."""
    letters = []
    while True:
        i, r = divmod(i, 26)
        letters.append("abcdefghijklmnopqrstuvwxyz"[r])
        if not i:
            return "qu" + "".join(letters) + "ing"


def build(store, n: int) -> None:
    with REAL.open(encoding="utf-8") as f:
        real = [(r["Title"], split_html(r["Body"])) for r in csv.DictReader(f)]
    rng = random.Random(5)
    now, created = utcnow(), datetime(2020, 1, 1)
    with store.write() as session:
        for start in range(0, n, 5000):
            rows = []
            for qid in range(start + 1, min(n, start + 5000) + 1):
                title, body = real[qid % len(real)]
                extra = f" {rng.choice(WORDS)}{qid % 9973} v{qid} {novel_word(qid)}"
                rows.append(
                    dict(
                        site=DEFAULT_SITE,  # the study's site (data/study.toml); posts are keyed by (site, id)
                        id=qid,
                        title=title,
                        prose=body.prose + extra,
                        code_blocks=body.code_blocks,
                        has_code=True,
                        tags="|keras|tensorflow|",
                        accepted_answer_id=qid,
                        creation_date=created,
                        last_activity_date=created,
                        source="import",
                        refreshed_at=now,
                    )
                )
            session.execute(sa.insert(Question), rows)


def read_texts(store):
    with store.read() as session:
        yield from session.execute(
            sa.select(Question.id, Question.title, Question.prose).order_by(Question.site, Question.id)
        )


def bare(store) -> int:
    n = 0
    for _, title, prose in read_texts(store):
        tokens(title)
        tokens(prose)
        n += 1
    return n


def match(store, config) -> int:
    matcher = Matcher(read_keywords(config.keywords_file))
    hits = 0
    for _, title, prose in read_texts(store):
        hits += bool(matcher.count(title)) | bool(matcher.count(prose))
    return hits


def timed(fn, *args, **kwargs):
    """(result, CPU seconds of this process): other jobs on a shared machine barely move it, unlike wall time."""
    t0 = time.process_time()
    out = fn(*args, **kwargs)
    return out, time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=100_000, help="questions to generate (default 100000)")
    parser.add_argument("--db", help="an EMPTY database to fill (default: a temporary SQLite file)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement, best kept (default 3)")
    args = parser.parse_args()
    tmp = tempfile.TemporaryDirectory()
    store = open_store(args.db or f"sqlite:///{tmp.name}/bench.db")
    config = load_config(PROJECT / "data" / "study.toml")
    _, t_build = timed(build, store, args.posts)
    print(f"built {args.posts:,} questions in {t_build:.1f}s ({store.engine.dialect.name})")

    Matcher(read_keywords(config.keywords_file))  # import NLTK once (~1 s) outside the timings
    bare(store)  # warm the database pages once, so both timings read from the same cache
    # Best of --repeat runs each (a shared machine is noisy); every match run starts with a cold stem cache.
    t_bare = t_match = float("inf")
    for _ in range(args.repeat):  # interleaved, so a burst of load hits both alike
        n, t = timed(bare, store)
        t_bare = min(t_bare, t)
        candidates, t = timed(match, store, config)
        t_match = min(t_match, t)
    wall = time.perf_counter()
    result, t_run = timed(run_match, store, config)
    wall = time.perf_counter() - wall
    t_all, wall_all = float("inf"), float("inf")
    for _ in range(args.repeat):
        w = time.perf_counter()
        again, t = timed(run_match, store, config, rematch_all=True)
        t_all, wall_all = min(t_all, t), min(wall_all, time.perf_counter() - w)
    assert result.funnel["selected"] == n and result.funnel["candidates"] == candidates
    assert again.checked == n and again.funnel["candidates"] == candidates
    print(f"bare read+tokenise : {n / t_bare:10,.0f} posts/s  ({t_bare:.2f}s)")
    print(
        f"read+match         : {n / t_match:10,.0f} posts/s  ({t_match:.2f}s)  ratio {t_match / t_bare:.2f}x bare"
    )
    print(
        f"ppmine match (new) : {n / t_run:10,.0f} posts/s  ({t_run:.2f}s)  ratio {t_run / t_bare:.2f}x bare"
        f"  [{wall:.2f}s wall clock, database server included]"
    )
    print(
        f"ppmine match --all : {n / t_all:10,.0f} posts/s  ({t_all:.2f}s)  ratio {t_all / t_bare:.2f}x bare"
        f"  [{wall_all:.2f}s wall clock]"
    )
    print(f"candidates: {candidates:,} of {n:,} posts")
    wall = time.perf_counter()
    again = run_match(store, config)
    print(
        f"ppmine match again (nothing changed): {time.perf_counter() - wall:.2f}s wall, checked {again.checked}"
    )
    tmp.cleanup()


if __name__ == "__main__":
    main()
