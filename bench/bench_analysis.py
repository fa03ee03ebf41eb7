"""Analysis speed: the notebooks' tables over a study N times the published one, and a headless notebook run.

Builds a SQLite study with the published 224 final labels copied N times (default 20: 4,480 PPs), written through
labeling.records, then times each table of labeling.analysis and prints PPs per second. With --notebooks it also
runs `jupyter nbconvert --execute` over every notebook on that database and prints the wall time.

Run: python bench/bench_analysis.py [--copies N] [--notebooks] [DLPERF_DIR (default data/published)]
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from core.db import open_store
from core.sites import parse_pp_key
from labeling import analysis
from labeling.codebook import load_codebook
from labeling.records import set_final_identification, set_final_label
from mining.store import upsert_questions

PROJECT = Path(__file__).resolve().parent.parent
FIELDS = {
    "symptom1": ("symptom1", "symptom"),
    "symptom2": ("symptom2", "symptom"),
    "root cause": ("root_cause", "root_cause"),
    "introducing stage": ("introducing_stage", "stage"),
    "exposing stage": ("exposing_stage", "stage"),
}


def build(url: str, dlperf: Path, copies: int) -> int:
    cb = load_codebook()
    with (dlperf / "empirical_study.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    store = open_store(url)
    with store.write() as session:
        for copy in range(copies):
            offset = copy * 10**9
            posts = {parse_pp_key(r["id"])[0].id + offset for r in rows}
            upsert_questions(session, [{"site": "stackoverflow", "id": q} for q in posts], source="import")
            for r in rows:
                post, pp = parse_pp_key(r["id"])
                post = post.id
                values = {f: cb.resolve(dim, r[col]) for col, (f, dim) in FIELDS.items()}
                set_final_identification(session, post + offset, True, "imported")
                set_final_label(session, post + offset, pp, "imported", **values)
    return len(rows) * copies


def timed(label: str, func, pps: int, rounds: int = 3) -> None:
    start = time.perf_counter()
    for _ in range(rounds):
        func()
    took = (time.perf_counter() - start) / rounds
    print(f"{label:<14} {took * 1000:8.1f} ms   {pps / took:12,.0f} PPs/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dlperf", nargs="?", default=str(PROJECT / "data" / "published"))
    parser.add_argument("--copies", type=int, default=20, help="copies of the published PPs (default 20)")
    parser.add_argument("--notebooks", action="store_true", help="also time a headless run of every notebook")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        start = time.perf_counter()
        pps = build(url, Path(args.dlperf), args.copies)
        print(f"built {pps:,} PPs in {time.perf_counter() - start:.1f} s")
        study = analysis.open_study(url, out=Path(tmp) / "out")
        timed("final_labels", study.labels, pps)
        timed("symptoms", study.symptoms, pps)
        timed("root_causes", study.root_causes, pps)
        timed("stages", study.stages, pps)
        timed("stage_matrix", study.stage_matrix, pps)
        timed("funnel", study.funnel, pps)
        timed("replication", study.replication, pps)
        if args.notebooks:
            env = dict(os.environ, PPMINER_DB=url, PPMINER_OUT=str(Path(tmp) / "out"))
            notebooks = sorted(str(p) for p in (PROJECT / "notebooks").glob("[0-9]*.ipynb"))
            cmd = ["jupyter", "nbconvert", "--to", "notebook", "--execute", "--output-dir", f"{tmp}/executed"]
            start = time.perf_counter()
            subprocess.run([*cmd, *notebooks], env=env, check=True, capture_output=True)
            print(f"nbconvert --execute, {len(notebooks)} notebooks: {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
