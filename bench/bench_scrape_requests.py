"""How many API requests a scrape spends per 1,000 questions (with all answers and comments), against the local
fake API. The floor is 10 (100 questions a page); the issue's budget is 11.

    python bench/bench_scrape_requests.py [--questions 3000]

Scenarios: one tag; the study's two tags where a third of the questions carry both (tag 2 is asked with
nottagged=tag 1, so those are fetched once); two disjoint tags; and, for each, the next incremental run when
nothing changed.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(PROJECT), str(PROJECT / "tests")]  # the fake API lives with the tests

from fake_api import FakeApi, make_questions  # noqa: E402

from core.db import open_store  # noqa: E402
from mining.api.scrape import ScrapeParams, scrape  # noqa: E402

FLOOR = 10.0
BUDGET = 11.0


def slug(name: str) -> str:
    """A file name for a scenario's database: ``two tags, 1/3 carry both`` -> ``two-tags-1-3-carry-both`` (no
    comma to be quoted in the database URL, no slash to name a folder)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def run(name: str, questions: list[dict], tags: tuple[str, ...], db_dir: Path) -> None:
    store = open_store(f"sqlite:///{db_dir / (slug(name) + '.db')}")
    with FakeApi(questions) as api:
        t0 = time.perf_counter()
        first = scrape(store, ScrapeParams(tags=tags, api_url=api.url))
        seconds = time.perf_counter() - t0
        full_requests = len(api.log)
        again = scrape(store, ScrapeParams(tags=tags, api_url=api.url, since_last=True))
    per_k = 1000 * full_requests / len(questions)
    print(
        f"{name:<28} {len(questions):>6} questions  {full_requests:>4} requests  "
        f"{per_k:6.2f} per 1,000  ratio to floor {per_k / FLOOR:5.3f}  "
        f"({'within' if per_k <= BUDGET else 'OVER'} budget {BUDGET:g})  {len(questions) / seconds:7.0f} q/s  "
        f"| next incremental run: {again.requests} requests"
    )
    assert first.status == "done"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=3000)
    args = ap.parse_args()
    fixtures = PROJECT / "tests" / "fixtures"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        n = args.questions
        run("one tag", make_questions(n, fixtures, tags=(("tensorflow",),)), ("tensorflow",), tmp)
        mixed = make_questions(n, fixtures, tags=(("tensorflow",), ("keras",), ("tensorflow", "keras")))
        run("two tags, 1/3 carry both", mixed, ("tensorflow", "keras"), tmp)
        disjoint = make_questions(n, fixtures, tags=(("tensorflow",), ("keras",)))
        run("two tags, disjoint", disjoint, ("tensorflow", "keras"), tmp)


if __name__ == "__main__":
    main()
