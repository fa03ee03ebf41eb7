"""Speed of `pplabel import`, `export` and `agreement` on the published files.

Imports the three published CSVs into a fresh SQLite file (and a fresh PostgreSQL database when
PPMINER_TEST_PG_URL names a server), then exports them and computes agreement, printing rows per second.
Agreement is also timed on a synthetic study N times the published one (three raters, some gaps), to show how it
scales. Imports write row by row through labeling.records (one audited write per decision), which dominates.

Run: python bench/bench_agreement_io.py [--copies N] [DLPERF_DIR (default data/published)]
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
import uuid
from pathlib import Path

import sqlalchemy as sa

from core.db import make_engine, open_store
from labeling.agreement import compute_agreement
from labeling.codebook import load_codebook
from labeling.io.export_study import export_file
from labeling.io.import_study import import_file, plan_import
from labeling.records import get_or_create_rater, set_identification, set_pp_label
from mining.store import upsert_questions

PROJECT = Path(__file__).resolve().parent.parent
FILES = (
    ("identification", "kappa_identification.csv"),
    ("labels", "kappa_label.csv"),
    ("study", "empirical_study.csv"),
)


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def bench_backend(label: str, url: str, dlperf: Path, codebook, out_dir: Path) -> None:
    store = open_store(url)
    for fmt, name in FILES:
        path = str(dlperf / name)
        plan, t_parse = _timed(lambda path=path, fmt=fmt: plan_import(fmt, path, codebook))
        writes = len(plan.identifications) + len(plan.final_identifications)
        writes += len(plan.pp_labels) + len(plan.final_labels)
        _, t_all = _timed(lambda path=path, fmt=fmt: import_file(store, fmt, path, codebook))
        print(
            f"{label:10} import {fmt:14} {writes:5d} writes  parse {t_parse * 1000:6.1f} ms  "
            f"total {t_all:6.2f} s  {writes / t_all:8.0f} writes/s"
        )
    for fmt, _ in FILES:
        result, t = _timed(lambda fmt=fmt: export_file(store, fmt, out_dir / f"{label}-{fmt}.csv"))
        print(
            f"{label:10} export {fmt:14} {result.rows:5d} rows    {t * 1000:8.1f} ms  {result.rows / t:8.0f} rows/s"
        )
    with store.read() as s:
        compute_agreement(s, codebook)  # warm-up: the first call imports scikit-learn and krippendorff
        _, t = _timed(lambda: compute_agreement(s, codebook))
    print(f"{label:10} agreement (7 dimensions, published files) {t * 1000:8.1f} ms")


def bench_scaled_agreement(copies: int, codebook, folder: Path) -> None:
    """A synthetic study: 740*copies posts rated by three raters with 10% gaps, 238*copies PPs labelled."""
    store = open_store(f"sqlite:///{folder / 'scaled.db'}")
    rng = random.Random(7)
    symptoms = [c.code for c in codebook.codes("symptom")]
    causes = [c.code for c in codebook.codes("root_cause")]
    stages = [c.code for c in codebook.codes("stage")]
    posts = list(range(1, 740 * copies + 1))
    with store.write() as s:
        upsert_questions(
            s,
            [{"site": "stackoverflow", "id": p, "title": f"p{p}", "body_html": ""} for p in posts],
            "import",
        )
        raters = [get_or_create_rater(s, n) for n in ("ann", "bob", "cal")]
        for p in posts:
            truth = rng.random() < 0.4
            for r in raters:
                if rng.random() < 0.9:
                    set_identification(s, r, p, truth if rng.random() < 0.9 else not truth)
            if p % 3 == 0:
                sym, cause, stage = rng.choice(symptoms), rng.choice(causes), rng.choice(stages)
                for r in raters:
                    if rng.random() < 0.9:
                        set_pp_label(
                            s, r, p, 1,
                            symptom1=sym if rng.random() < 0.9 else rng.choice(symptoms),
                            root_cause=cause if rng.random() < 0.8 else rng.choice(causes),
                            introducing_stage=stage, exposing_stage=rng.choice(stages),
                        )  # fmt: skip
    with store.read() as s:
        n_ids = s.scalar(sa.text("select count(*) from identifications"))
        n_labels = s.scalar(sa.text("select count(*) from pp_labels"))
        result, t = _timed(lambda: compute_agreement(s, codebook))
    ratings = n_ids + n_labels
    print(
        f"scaled x{copies}: agreement over {n_ids} decisions + {n_labels} labels (3 raters, gaps) "
        f"{t:6.2f} s  {ratings / t:8.0f} ratings/s  (identification alpha {result['identification'].krippendorff_alpha:.3f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dlperf", nargs="?", default=str(PROJECT / "data" / "published"))
    parser.add_argument("--copies", type=int, default=10, help="size of the synthetic study (x 740 posts)")
    args = parser.parse_args()
    codebook = load_codebook()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bench_backend("sqlite", f"sqlite:///{folder / 'bench.db'}", Path(args.dlperf), codebook, folder)
        admin = os.environ.get("PPMINER_TEST_PG_URL")
        if admin:
            admin_url = admin.replace("postgresql://", "postgresql+psycopg://", 1)
            name = f"ppminer_bench_{uuid.uuid4().hex[:10]}"
            engine = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
            with engine.connect() as conn:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
            url = sa.engine.make_url(admin_url).set(database=name).render_as_string(hide_password=False)
            try:
                bench_backend("postgresql", url, Path(args.dlperf), codebook, folder)
            finally:
                make_engine(url).dispose()
                with engine.connect() as conn:
                    conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                engine.dispose()
        bench_scaled_agreement(args.copies, codebook, folder)


if __name__ == "__main__":
    main()
