"""Screening by priority: effort saved beside ASReview LAB, the model comparison, and simulation speed.

1. Mean WSS@95 over seeds 1-5 (priors 1 + 1) of every model on the two labelled sets (ASReview-shaped copies in
   tests/fixtures/labelled_reports/), printed beside ASReview LAB 3.0.8's default (elas_u4) measured on the same
   title + abstract and priors: keras 0.475, caffe 0.408. Also recall10, recall25 and read95 of the default.
2. Speed: a full simulation of 2,000 records x 5 seeds with the default model and its retraining schedule (the
   two labelled sets plus the real Stack Overflow questions of tests/fixtures/so_questions/ as irrelevant
   records, repeated up to 2,000, so the matrices are the size of a real 2,000-record screening), and the same replay with a refit
   after every decision (the plain loop), both on caffe with seed 1, as the ratio against that baseline.

3. Interactive: `pplabel identify --order priority`'s queue on a SQLite study with 20,000 candidates (the texts
   above, repeated), the trainer in its background thread: the time to store a decision and draw the next post,
   p50/p95/max over 300 decisions, beside the seeded order's queue on the same database (the baseline).

Run: python bench/bench_triage.py [--quick] [--candidates N] (--quick: the default model only, no comparison)
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np

from core.text import split_html
from labeling.triage import ranker as ranker_mod
from labeling.triage.dataset import Dataset, read_csv
from labeling.triage.models import DEFAULT_MODEL, MODEL_NAMES, parse_model
from labeling.triage.simulate import draw_priors, mean_metrics, replay, simulate

PROJECT = Path(__file__).resolve().parent.parent
REPORTS = PROJECT / "tests" / "fixtures" / "labelled_reports"
SO = PROJECT / "tests" / "fixtures" / "so_questions" / "sede_so_2022_questions_QueryResults.csv"
ASREVIEW_WSS95 = {"keras": 0.475, "caffe": 0.408}  # ASReview LAB 3.0.8 elas_u4, seeds 1-5, priors 1 + 1


def so_questions() -> Dataset:
    csv.field_size_limit(sys.maxsize)
    with SO.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    split = [split_html(r["Body"]) for r in rows]
    return Dataset(
        "so",
        [f"so{r['Id']}" for r in rows],
        np.zeros(len(rows), dtype=np.int8),
        {"title": [r["Title"] for r in rows], "prose": [s.prose for s in split],
         "code": ["\n".join(s.code_blocks) for s in split]},
    )  # fmt: skip


def concat(parts: list[Dataset], n: int) -> Dataset:
    """``n`` records from ``parts`` in turn, repeated as needed (a repeat gets new ids: its text is real)."""
    ids, labels, fields = [], [], {f: [] for f in ("title", "prose", "code")}
    rounds = 0
    while len(ids) < n:
        for p in parts:
            for i in range(len(p)):
                if len(ids) == n:
                    break
                ids.append(f"{rounds}:{p.name}:{p.record_ids[i]}")
                labels.append(p.labels[i])
                for f in fields:
                    fields[f].append(p.fields[f][i])
        rounds += 1
    return Dataset("mixed", ids, np.array(labels, dtype=np.int8), fields)


def compare(datasets: dict[str, Dataset], models: list[str]) -> None:
    print("mean WSS@95, seeds 1-5, priors 1 + 1 (ASReview LAB 3.0.8 elas_u4 beside)")
    print(f"{'model':40} " + " ".join(f"{name:>16}" for name in datasets))
    print(f"{'ASReview LAB elas_u4':40} " + " ".join(f"{ASREVIEW_WSS95[n]:16.3f}" for n in datasets))
    for model in models:
        cells = []
        for name, data in datasets.items():
            wss = mean_metrics(simulate(data, model=model))["wss95"]
            cells.append(f"{wss:.3f} ({wss - ASREVIEW_WSS95[name]:+.3f})")
        mark = "  <- default" if model == DEFAULT_MODEL else ""
        print(f"{model:40} " + " ".join(f"{c:>16}" for c in cells) + mark, flush=True)


def default_detail(datasets: dict[str, Dataset]) -> None:
    print(f"\ndefault model {DEFAULT_MODEL}: per seed and mean")
    for name, data in datasets.items():
        runs = simulate(data)
        for run in runs:
            print(f"  {name:6} seed {run.seed}: " + "  ".join(f"{k} {v}" for k, v in run.metrics.items()))
        print(f"  {name:6} mean  : " + "  ".join(f"{k} {v}" for k, v in mean_metrics(runs).items()))
        print(f"  {name:6} WSS@95 {mean_metrics(runs)['wss95']:.3f} vs ASReview {ASREVIEW_WSS95[name]:.3f}")


def timing(datasets: dict[str, Dataset]) -> None:
    mixed = concat([datasets["keras"], datasets["caffe"], so_questions()], 2000)
    start = time.perf_counter()
    simulate(mixed, seeds=(1, 2, 3, 4, 5))
    full = time.perf_counter() - start
    print(f"\nspeed: {len(mixed)} records x 5 seeds, {DEFAULT_MODEL}: {full:.1f} s (target < 60 s)")

    caffe = datasets["caffe"]
    ranker = ranker_mod.Ranker.build(caffe.fields, parse_model(DEFAULT_MODEL))
    priors = draw_priors(caffe.labels, 1, 1, 1)
    start = time.perf_counter()
    replay(ranker, caffe.labels, priors)
    scheduled = time.perf_counter() - start
    original = ranker_mod.retrain_due
    ranker_mod_sim = sys.modules["labeling.triage.simulate"]
    ranker_mod_sim.retrain_due = lambda decisions, since_fit: since_fit >= 1
    try:
        start = time.perf_counter()
        replay(ranker, caffe.labels, priors)
        every = time.perf_counter() - start
    finally:
        ranker_mod_sim.retrain_due = original
    print(
        f"caffe, seed 1: refit after every decision {every:.2f} s (baseline), retraining schedule "
        f"{scheduled:.2f} s: {every / scheduled:.1f}x faster"
    )


def interactive(datasets: dict[str, Dataset], candidates: int, decisions: int = 300) -> None:
    import html
    import tempfile
    from datetime import datetime

    from core.db import open_store
    from core.schema.mining import Candidate, KeywordSet
    from core.sites import PostKey
    from labeling.queue import IdentifyQueue
    from labeling.triage.priority import Priority
    from mining.store import upsert_questions

    parts = [datasets["keras"], datasets["caffe"], so_questions()]
    texts = [
        (t, p, int(y))
        for d in parts
        for t, p, y in zip(d.fields["title"], d.fields["prose"], d.labels, strict=True)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{tmp}/study.db")
        truth = {}
        start = time.perf_counter()
        with store.write() as s:
            ks = KeywordSet(
                content_hash="b", stemmer_mode="porter", keywords=["slow"], created_at=datetime.now()
            )
            s.add(ks)
            s.flush()
            for lo in range(0, candidates, 2000):
                rows = []
                for q in range(lo + 1, min(candidates, lo + 2000) + 1):
                    title, prose, label = texts[q % len(texts)]
                    rows.append(
                        {
                            "site": "stackoverflow",
                            "id": q,
                            "title": title,
                            "body_html": f"<p>{html.escape(prose)}</p>",
                            "tags": "",
                        }  # fmt: skip
                    )
                    truth[PostKey("stackoverflow", q)] = label
                upsert_questions(s, rows, "import")
                s.add_all(
                    Candidate(
                        keyword_set_id=ks.id,
                        site="stackoverflow",
                        question_id=r["id"],
                        matched_at=datetime.now(),
                    )  # fmt: skip
                    for r in rows
                )
        print(f"\ninteractive: {candidates} candidates stored in {time.perf_counter() - start:.0f} s")

        def session(rater: str, priority) -> tuple[np.ndarray, np.ndarray]:
            queue = IdentifyQueue(store, rater, seed=1, priority=priority)
            total, draw = [], []
            if queue.ranking is not None:  # warm up until the first ranking is published, then time
                start = time.perf_counter()
                while queue.ranking.status().unread_estimate is None:
                    if (
                        queue.ranking.status().decisions < queue.ranking.warmup
                        or not queue.ranking.status().pps
                    ):
                        queue.decide(bool(truth[queue.current]))
                    else:
                        time.sleep(0.1)
                print(f"  first ranking published {time.perf_counter() - start:.1f} s after the session started "
                      f"(texts read, vectorisers fitted; the seeded order is used meanwhile)")  # fmt: skip
            try:
                if queue.ranking is not None:  # time the re-rank inside each decision
                    arrange = queue.ranking.arrange

                    def timed(*args):
                        t = time.perf_counter()
                        out = arrange(*args)
                        draw.append(time.perf_counter() - t)
                        return out

                    queue.ranking.arrange = timed
                for _ in range(decisions):
                    qid = queue.current
                    t0 = time.perf_counter()
                    queue.decide(bool(truth[qid]))
                    _ = queue.current
                    total.append(time.perf_counter() - t0)
                    time.sleep(0.02)  # a (very fast) rater: the trainer gets the time between keys
            finally:
                if queue.ranking is not None:
                    queue.ranking.close()
            return np.array(total) * 1000, np.array(draw or [0.0]) * 1000

        base, _ = session("seeded", None)
        prio, draw = session("priority", Priority())

        def pct(a):
            return f"p50 {np.percentile(a, 50):6.1f} ms  p95 {np.percentile(a, 95):6.1f} ms  max {a.max():6.1f} ms"

        print(f"  seeded order (baseline), decide + next: {pct(base)}")
        print(
            f"  priority order,          decide + next: {pct(prio)}  (p95 {np.percentile(prio, 95) / np.percentile(base, 95):.1f}x the baseline; target < 100 ms)"
        )
        print(f"  priority order, the re-rank within it:   {pct(draw)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the default model only")
    parser.add_argument("--candidates", type=int, default=20000, help="candidates of the interactive part")
    parser.add_argument("--only-interactive", action="store_true", help="only part 3")
    parser.add_argument("--only-speed", action="store_true", help="only part 2")
    args = parser.parse_args()
    datasets = {name: read_csv(REPORTS / f"{name}_asreview.csv") for name in ("keras", "caffe")}
    for data in datasets.values():
        data.name = data.name.removesuffix("_asreview")
    if args.only_speed:
        timing(datasets)
        return
    if not args.only_interactive:
        if not args.quick:
            compare(datasets, [*MODEL_NAMES, DEFAULT_MODEL])
        default_detail(datasets)
        timing(datasets)
    interactive(datasets, args.candidates)


if __name__ == "__main__":
    main()
