"""Issue 12, case 1, replayed on the ai.stackexchange dump: a match never orphans decisions, the queue's counts
are what the database holds, and `ppmine match` remembers its scope per keyword-set version."""

from __future__ import annotations

import json

import sqlalchemy as sa
from conftest import run_cli

from core.db import open_store
from labeling.queue import IdentifyQueue


def queue_counts(store, rater):
    q = IdentifyQueue(store, rater)
    return q.progress.done, q.progress.remaining


def db_counts(store, rater):
    """What the database holds: this rater's decisions on the version's candidates, and the matching
    candidates they have not decided."""
    with store.read() as s:
        set_id = s.execute(sa.text("SELECT keyword_set_id FROM match_runs ORDER BY id DESC LIMIT 1")).scalar()
        mine = (
            "SELECT question_id FROM identifications i JOIN raters r ON r.id = i.rater_id WHERE r.name = :r"
        )
        done = s.execute(
            sa.text(f"SELECT count(*) FROM candidates WHERE keyword_set_id = :k AND question_id IN ({mine})"),
            {"k": set_id, "r": rater},
        ).scalar()
        remaining = s.execute(
            sa.text(
                "SELECT count(*) FROM candidates WHERE keyword_set_id = :k AND matching "
                f"AND question_id NOT IN ({mine})"
            ),
            {"k": set_id, "r": rater},
        ).scalar()
    return done, remaining


def match(db, *flags):
    out = run_cli("mining.cli", "match", *flags, "--db", db)
    return out.stdout, out.stderr


def candidates(db):
    return json.loads(run_cli("mining.cli", "candidates", "--format", "json", "--db", db).stdout)


def test_decided_candidates_survive_every_match_and_the_scope_is_remembered(ai_study):
    db = ai_study
    out, _ = match(db, "--no-filters")
    assert "43 candidates (43 new" in out
    store = open_store(db)
    for rater, offset in (("ann", 0), ("bob", 5)):
        queue = IdentifyQueue(store, rater, seed=offset)
        for n in range(10):
            queue.decide(n % 3 == 0)
    with store.read() as s:
        decisions = s.execute(sa.text("SELECT count(*) FROM identifications")).scalar()
        decided_posts = s.execute(sa.text("SELECT count(DISTINCT question_id) FROM identifications")).scalar()
    assert decisions == 20
    assert queue_counts(store, "ann") == db_counts(store, "ann") == (10, 33)

    # The nightly job's plain match: the remembered scope (no filters), nothing removed, nothing said.
    out, err = match(db)
    assert "43 candidates" in out and "0 removed" in out and err == ""
    assert queue_counts(store, "ann") == db_counts(store, "ann") == (10, 33)

    # Switching the filters back on says so loudly, and keeps every decided candidate, marked not matching.
    out, err = match(db, "--filters")
    assert err.startswith("ppmine: warning: keyword set 1: the match scope changes from [filters off")
    assert len(err.strip().splitlines()) == 1
    rows = candidates(db)
    assert len(rows) == decided_posts and not any(r["matching"] for r in rows)
    assert f"{decided_posts} decided ones kept as no longer matching" in out
    assert queue_counts(store, "ann") == db_counts(store, "ann") == (10, 0)
    assert queue_counts(store, "bob") == db_counts(store, "bob") == (10, 0)

    # Widening again: all 43 match once more, the decided ones among them.
    out, err = match(db, "--no-filters", "--answers", "--comments", "--code")
    assert "scope changes" in err
    rows = candidates(db)
    assert all(r["matching"] for r in rows) and len(rows) >= 43
    done, remaining = queue_counts(store, "ann")
    assert (done, remaining) == db_counts(store, "ann") and done == 10 and remaining == len(rows) - 10
    with store.read() as s:
        assert s.execute(sa.text("SELECT count(*) FROM identifications")).scalar() == decisions
    wrong = run_cli("mining.cli", "match", "--fields", "title,body", "--db", db, check=False)
    assert wrong.returncode == 2 and "unknown fields ['body']" in wrong.stderr


def test_a_decided_candidate_is_kept_then_matches_again_on_both_backends(store):
    from test_match_db import seed

    from core.config import load_config
    from labeling.records import get_or_create_rater, set_identification
    from mining.match.candidates import list_candidates
    from mining.match.run import run_match

    config = load_config()
    seed(store)
    run_match(store, config, apply_filters=False)
    with store.write() as s:
        set_identification(s, get_or_create_rater(s, "ann"), 3, True)  # out of the study's selection
    narrow = run_match(store, config, apply_filters=True)
    assert (narrow.removed_candidates, narrow.kept_candidates) == (3, 1)
    with store.read() as s:
        assert {c["post_id"]: c["matching"] for c in list_candidates(s)} == {1: True, 3: False}
    wide = run_match(store, config, apply_filters=False, rematch_all=True)
    assert wide.kept_candidates == 0
    with store.read() as s:
        assert {c["post_id"]: c["matching"] for c in list_candidates(s)} == {
            1: True,
            3: True,
            4: True,
            5: True,
            6: True,
        }
    # Narrowing the fields: post 2 matched only in an answer; decided, it stays (checked in the batch path).
    run_match(store, config, apply_filters=True, fields=["title", "prose", "answers"])
    with store.write() as s:
        set_identification(s, get_or_create_rater(s, "bob"), 2, False)
    back = run_match(store, config, fields=["title", "prose"])
    assert (
        back.kept_candidates == 1
        and "fields title,prose,answers] to [filters on, fields title,prose]" in (back.scope_change or "")
    )
    with store.read() as s:
        assert {c["post_id"]: c["matching"] for c in list_candidates(s)} == {1: True, 2: False, 3: False}
