"""Reconciliation speed: auto-finalising agreed items, opening an adjudicator's session, one decision and its undo.

Builds a SQLite study of N posts (default 5,000) rated by two raters (about 80% agree; posts both call a PP get
1-2 PPs labelled by both, each dimension agreeing about 80% of the time), written through labeling.records. Then
times ``finalize_agreements`` on first use (it writes the agreement finals) and again (nothing left to write),
opening a ``ReconcileSession``, and adjudicating / undoing items one at a time, each in its own transaction.

Run: python bench/bench_reconcile.py [--posts N] [--decisions K] [--db URL]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from core.db import open_store
from labeling.reconcile import (
    IdentificationItem,
    ReconcileSession,
    finalize_agreements,
)
from labeling.records import get_or_create_rater, set_identification, set_pp_label
from mining.store import upsert_questions

SYMPTOMS = ["time.slow_execution", "memory.oom", "memory.leak", "processor.not_using_gpu"]
CAUSES = ["api.not_batch_api", "api.inefficient_usage", "model.inefficient_structure", "data.improper_input"]
STAGES = ["data_preparation", "model_building", "training", "prediction"]


def build(url: str, posts: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    store = open_store(url)
    with store.write() as s:
        upsert_questions(
            s,
            [
                {"site": "stackoverflow", "id": q, "title": f"post {q}", "body_html": "<p>slow</p>"}
                for q in range(1, posts + 1)
            ],
            "import",
        )
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        for q in range(1, posts + 1):
            a = rng.random() < 0.5
            b = a if rng.random() < 0.8 else not a
            set_identification(s, ann, q, a)
            set_identification(s, bob, q, b)
            if not (a and b):
                continue
            for pp in range(1, rng.choice((1, 1, 2)) + 1):
                base = {
                    "symptom1": rng.choice(SYMPTOMS),
                    "root_cause": rng.choice(CAUSES),
                    "introducing_stage": rng.choice(STAGES),
                    "exposing_stage": rng.choice(STAGES),
                }
                other = {k: (v if rng.random() < 0.8 else rng.choice(pool)) for (k, v), pool in
                         zip(base.items(), (SYMPTOMS, CAUSES, STAGES, STAGES), strict=True)}  # fmt: skip
                set_pp_label(s, ann, q, pp, **base)
                set_pp_label(s, bob, q, pp, **other)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=5000, help="posts in the synthetic study")
    parser.add_argument("--decisions", type=int, default=100, help="adjudicated decisions timed")
    parser.add_argument("--db", help="database URL (default: a SQLite file in a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        t = time.perf_counter()
        build(url, args.posts)
        print(f"built {args.posts} posts x 2 raters in {time.perf_counter() - t:.1f} s")
        store = open_store(url)

        t = time.perf_counter()
        with store.write() as s:
            first = finalize_agreements(s)
        first_s = time.perf_counter() - t
        t = time.perf_counter()
        with store.write() as s:
            finalize_agreements(s)
        again_s = time.perf_counter() - t
        items = args.posts + first.labels_agreed + first.labels_open
        print(
            f"finalize_agreements: {first.identifications_agreed} identifications + {first.labels_agreed} PPs "
            f"made final, {first.identifications_open} + {first.labels_open} open"
        )
        print(f"  first run  {first_s:.2f} s  ({items / first_s:,.0f} items/s)")
        print(
            f"  rerun      {again_s:.2f} s  ({items / again_s:,.0f} items/s; first/rerun {first_s / again_s:.1f}x)"
        )

        t = time.perf_counter()
        session = ReconcileSession(store, "judge")
        print(f"open session: {time.perf_counter() - t:.2f} s ({session.remaining} items queued)")

        times = []
        for _ in range(min(args.decisions, session.remaining)):
            item = session.current
            t = time.perf_counter()
            if isinstance(item, IdentificationItem):
                session.decide_identification(True)
            else:
                session.decide_label({f: (item.ratings[next(iter(item.ratings))] or {}).get(f) or "unknown"
                                      for f in item.open_fields})  # fmt: skip
            times.append(time.perf_counter() - t)
        undo_times = []
        for _ in range(min(20, len(times))):
            t = time.perf_counter()
            session.undo()
            undo_times.append(time.perf_counter() - t)
        times.sort()
        undo_times.sort()
        print(
            f"decision (own transaction): median {times[len(times) // 2] * 1000:.1f} ms, "
            f"max {times[-1] * 1000:.1f} ms over {len(times)}"
        )
        if undo_times:
            print(f"undo: median {undo_times[len(undo_times) // 2] * 1000:.1f} ms over {len(undo_times)}")


if __name__ == "__main__":
    main()
