"""Codebook speed: cold load of data/codebook.yaml and label resolutions per second over the published labels.

Run: python bench/bench_codebook.py [DLPERF_DIR (default data/published)]
"""

from __future__ import annotations

import csv
import sys
import time
from pathlib import Path

from labeling.codebook import load_codebook, parse_codebook

PROJECT = Path(__file__).resolve().parent.parent
COLUMNS = {
    "symptom1": "symptom",
    "symptom2": "symptom",
    "root cause": "root_cause",
    "root casue": "root_cause",
}


def main() -> None:
    dlperf = Path(sys.argv[1]) if len(sys.argv) > 1 else PROJECT / "data" / "published"
    path = PROJECT / "data" / "codebook.yaml"
    text = path.read_text(encoding="utf-8")
    start = time.perf_counter()
    for _ in range(20):
        parse_codebook(path, text)
    print(f"load+validate: {(time.perf_counter() - start) / 20 * 1000:.1f} ms")
    cb = load_codebook(path)
    labels = []
    for name in ("empirical_study.csv", "kappa_label.csv"):
        with (dlperf / name).open(encoding="utf-8-sig", newline="") as fh:
            for row in csv.DictReader(fh):
                labels += [(dim, row[col]) for col, dim in COLUMNS.items() if row.get(col)]
    rounds = 200
    start = time.perf_counter()
    for _ in range(rounds):
        for dim, value in labels:
            cb.resolve(dim, value)
    elapsed = time.perf_counter() - start
    print(
        f"resolve: {len(labels) * rounds / elapsed:,.0f} labels/s ({len(labels)} published labels x {rounds})"
    )


if __name__ == "__main__":
    main()
