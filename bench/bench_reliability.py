"""Reliability of a study's data: a small two-site, two-rater study run through everything that used to lose or
corrupt decisions (issue 12), counting after each step how many decisions and labels are still there, unchanged.

The study: every question (``--all-questions``) of the ai.stackexchange dump (tests/fixtures/se_dumps, site
``ai``) and of a Stack Overflow dump built from the first questions of tests/fixtures/so_questions (site
``stackoverflow``), one of them carrying the id of an ai question that ann and bob decided. ann and bob each walk
the frozen sample ``--sample 30 --seed 3``, deciding every post, and label the PPs (bob types his two PPs in the
other order). Then the steps below run through the real command line; after each one the script compares every
decision and label with what was recorded and checks that the queue counts equal the database's. It prints one
line per step and exits 1 if anything was lost.

Run: python bench/bench_reliability.py [--keep DIR]
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
from xml.sax.saxutils import quoteattr

import sqlalchemy as sa

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from core.db import open_store  # noqa: E402
from core.schema.labeling import Identification, PPLabel, Rater  # noqa: E402
from core.schema.mining import Candidate, MatchRun, Question  # noqa: E402
from labeling.queue import IdentifyQueue  # noqa: E402
from labeling.records import LABEL_FIELDS, get_or_create_rater, set_pp_label  # noqa: E402

AI = PROJECT / "tests" / "fixtures" / "se_dumps" / "ai.stackexchange.com"
SO_CSV = PROJECT / "tests" / "fixtures" / "so_questions" / "sede_so_2022_questions_QueryResults.csv"
SAMPLE, SEED = 30, 3
# Every question of both dumps: import-dump keeps only the config's tags and dates unless told otherwise, and the
# ai fixture holds no tensorflow/keras question of 2018 on, so the study would be empty (nothing to sample).
ALL_AI = ("--site", "ai", "--all-questions")
ALL_SO = ("--site", "stackoverflow", "--all-questions")
PPS = (
    dict(symptom1="time.slow_execution", root_cause="api.not_batch_api", introducing_stage="training",
         exposing_stage="training", part="the training loop "),
    dict(symptom1="memory.oom", root_cause="data.improper_input", introducing_stage="data_preparation",
         exposing_stage="training", part="the input pipeline"),
)  # fmt: skip


def cli(module: str, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    out = subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"{module} {' '.join(args)}: exit {out.returncode}: {out.stderr.strip()}")
    return out.stdout


def so_dump(folder: Path, rows: int, clash_id: int) -> Path:
    """A Stack Overflow Posts.xml of the first ``rows`` fixture questions, the last one with id ``clash_id``."""
    with open(SO_CSV, newline="", encoding="utf-8") as fh:
        questions = [r for _, r in zip(range(rows), csv.DictReader(fh), strict=False)]
    questions[-1] = {**questions[-1], "Id": str(clash_id)}
    lines = ['<?xml version="1.0" encoding="utf-8"?>', "<posts>"]
    for q in questions:
        when = q["CreationDate"].replace(" ", "T")
        attrs = dict(
            Id=q["Id"], PostTypeId="1", CreationDate=when, LastActivityDate=when, Score=q["Score"],
            ViewCount=q["ViewCount"], Title=q["Title"], Body=q["Body"], Tags=q["Tags"], AnswerCount="0",
        )  # fmt: skip
        lines.append("  <row " + " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items()) + " />")
    lines.append("</posts>")
    path = folder / "stackoverflow.com" / "Posts.xml"
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


SITE_KEYED = hasattr(Identification, "site")  # posts keyed by (site, id); before that by id alone


def _post_site(s, model):
    """(site, post id) columns of a labeling table: its own site, or the site of the question it points at."""
    if SITE_KEYED:
        return model.site, model.question_id
    site = sa.select(Question.site).where(Question.id == model.question_id).scalar_subquery()
    return site, model.question_id


def snapshot(store) -> tuple[dict, dict]:
    """Every decision and label as (rater, site, post[, pp]) -> value."""
    with store.read() as s:
        decisions = {
            (r, site, q): v
            for r, site, q, v in s.execute(
                sa.select(Rater.name, *_post_site(s, Identification), Identification.is_pp).join(
                    Rater, Rater.id == Identification.rater_id
                )
            )
        }
        labels = {
            (name, site, row.question_id, row.pp_index): tuple(getattr(row, f) for f in LABEL_FIELDS)
            for row, name, site, _ in s.execute(
                sa.select(PPLabel, Rater.name, *_post_site(s, PPLabel)).join(
                    Rater, Rater.id == PPLabel.rater_id
                )
            )
        }
    return decisions, labels


def _key(post) -> tuple:
    return tuple(post) if isinstance(post, tuple) else (post,)


def orphans(store) -> int:
    """Decided posts without a candidate in the latest keyword-set version."""
    with store.read() as s:
        latest = s.scalar(sa.select(MatchRun.keyword_set_id).order_by(MatchRun.id.desc()).limit(1))
        cols = (Candidate.site, Candidate.question_id) if SITE_KEYED else (Candidate.question_id,)
        have = {tuple(r) for r in s.execute(sa.select(*cols).where(Candidate.keyword_set_id == latest))}
        ids = (
            (Identification.site, Identification.question_id) if SITE_KEYED else (Identification.question_id,)
        )
        decided = {tuple(r) for r in s.execute(sa.select(*ids).distinct())}
    return len(decided - have)


def queue_matches_database(store, rater: str) -> bool:
    """The rater's sample queue counts what the database holds: their decisions on the sample's posts."""
    q = IdentifyQueue(store, rater, SEED, SAMPLE)
    ids = (Identification.site, Identification.question_id) if SITE_KEYED else (Identification.question_id,)
    with store.read() as s:
        mine = {
            tuple(r)
            for r in s.execute(
                sa.select(*ids).join(Rater, Rater.id == Identification.rater_id).where(Rater.name == rater)
            )
        }
    done = sum(1 for post in q._in_scope if _key(post) in mine)
    return (q.progress.done, q.progress.remaining) == (done, len(q._in_scope) - done)


def label(store) -> None:
    """Both raters decide their whole sample; every third post is a PP, with two PPs (bob types them reversed)."""
    for rater in ("ann", "bob"):
        queue = IdentifyQueue(store, rater, SEED, SAMPLE)
        n = 0
        while queue.current is not None:
            qid = queue.current
            is_pp = n % 3 == 0
            queue.decide(is_pp)
            if is_pp:
                with store.write() as s:
                    r = get_or_create_rater(s, rater)
                    for index, values in enumerate(PPS if rater == "ann" else PPS[::-1], 1):
                        set_pp_label(s, r, qid, index, **values)
            n += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--keep", metavar="DIR", help="build the study in DIR and keep it (default: a temp dir)"
    )
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="ppminer-reliability-"))
    folder.mkdir(parents=True, exist_ok=True)
    db = f"sqlite:///{folder / 'study.db'}"
    ai_posts, ai_comments = str(AI / "Posts.xml"), str(AI / "Comments.xml")
    t0 = time.perf_counter()
    cli("mining.cli", "import-dump", ai_posts, "--comments", ai_comments, *ALL_AI, "--db", db)
    cli("mining.cli", "match", "--no-filters", "--db", db)
    store = open_store(db)
    label(store)
    before = snapshot(store)
    sample = sorted(IdentifyQueue(store, "ann", SEED, SAMPLE)._in_scope)
    clash = getattr(
        sample[0], "id", sample[0]
    )  # an ai post both raters decided: a Stack Overflow question with the same id follows
    so_posts = str(so_dump(folder, 200, clash))
    steps = [
        ("import the Stack Overflow dump (one id = a decided ai post)",
         ("mining.cli", "import-dump", so_posts, *ALL_SO)),
        ("plain match (the nightly job)", ("mining.cli", "match")),
        ("match --filters (scope narrowed)", ("mining.cli", "match", "--filters")),
        ("re-import the ai dump", ("mining.cli", "import-dump", ai_posts, "--comments", ai_comments, *ALL_AI)),
        ("re-import the ai dump --restart",
         ("mining.cli", "import-dump", ai_posts, *ALL_AI, "--restart")),
        ("match --no-filters --code --answers --comments (widened)",
         ("mining.cli", "match", "--no-filters", "--code", "--answers", "--comments")),
        ("match --fields title (narrowed fields)", ("mining.cli", "match", "--fields", "title")),
        ("re-import the Stack Overflow dump", ("mining.cli", "import-dump", so_posts, *ALL_SO)),
        ("plain match again", ("mining.cli", "match")),
    ]  # fmt: skip
    decisions, labels = before
    print(f"study: {len(decisions)} decisions and {len(labels)} PP labels by ann and bob on a {SAMPLE}-post "
          f"sample of the ai.stackexchange candidates ({time.perf_counter() - t0:.1f} s to build)")  # fmt: skip
    print(
        f"{'step':<62} {'decisions kept':>15} {'labels kept':>12} {'orphans':>8} {'sample':>7} {'queue=db':>9}"
    )
    lost = False
    for name, (module, *argv) in steps:
        cli(module, *argv, "--db", db)
        now_decisions, now_labels = snapshot(store)
        kept_d = sum(1 for k, v in decisions.items() if now_decisions.get(k) == v)
        kept_l = sum(1 for k, v in labels.items() if now_labels.get(k) == v)
        same_sample = sorted(IdentifyQueue(store, "bob", SEED, SAMPLE)._in_scope) == sample
        queues = all(queue_matches_database(store, r) for r in ("ann", "bob"))
        gone = orphans(store)
        lost |= kept_d < len(decisions) or kept_l < len(labels) or gone > 0 or not same_sample or not queues
        print(
            f"{name:<62} {kept_d:>7}/{len(decisions):<7} {kept_l:>5}/{len(labels):<6} {gone:>8} "
            f"{'same' if same_sample else 'MOVED':>7} {'yes' if queues else 'NO':>9}"
        )
    with store.read() as s:
        sites = s.scalars(
            sa.text("SELECT site FROM questions WHERE id = :q ORDER BY site"), {"q": clash}
        ).all()
    print(f"question id {clash} is stored for sites: {', '.join(sites)} (want ai and stackoverflow)")
    lost |= sites != ["ai", "stackoverflow"]
    print("all decisions and labels kept" if not lost else "DATA LOST: see the rows above")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
