"""Issue 12, case 3, replayed on the ai.stackexchange dump: `--sample N --seed S` is drawn once and stored, and
every rater of it sees exactly those posts, whatever is matched later."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from core.db import open_store
from core.errors import PPMinerError
from labeling.queue import IdentifyQueue


def walk(store, rater, **kw):
    """Open the rater's queue and list its posts: done ones are read from the stored sample."""
    q = IdentifyQueue(store, rater, **kw)
    return q, list(q._in_scope)


def test_a_sample_is_frozen_for_every_rater_whatever_is_matched_later(ai_study):
    db = ai_study
    run_cli("mining.cli", "match", "--no-filters", "--db", db)
    store = open_store(db)
    ann, posts = walk(store, "ann", seed=7, sample=10)
    assert ann.sample_drawn and ann.progress.total == 10
    while ann.current is not None:
        ann.decide(True)
    assert IdentifyQueue(store, "ann", seed=7, sample=10).progress == ann.progress  # done 10, remaining 0

    # The match is widened: more candidates, some ahead of the sample's posts in the seeded order.
    run_cli("mining.cli", "match", "--no-filters", "--answers", "--comments", "--code", "--db", db)
    widened = json.loads(run_cli("mining.cli", "candidates", "--format", "json", "--db", db).stdout)
    assert len(widened) > 43
    again = IdentifyQueue(store, "ann", seed=7, sample=10)
    assert (again.progress.done, again.progress.remaining) == (10, 0) and not again.sample_drawn
    # bob starts another day, after the widening, and gets exactly ann's posts
    bob, bob_posts = walk(store, "bob", seed=7, sample=10)
    assert set(bob_posts) == set(posts) and (bob.progress.done, bob.progress.remaining) == (0, 10)
    order = []
    while bob.current is not None:
        order.append(bob.current)
        bob.decide(False)
    assert sorted(order) == sorted(posts)  # every post of the sample once
    # The filters come back on: the sample still holds its posts.
    run_cli("mining.cli", "match", "--filters", "--db", db)
    carol = IdentifyQueue(store, "carol", seed=7, sample=10)
    assert set(carol._in_scope) == set(posts) and carol.progress.remaining == 10

    (sample,) = json.loads(run_cli("labeling.cli", "samples", "--format", "json", "--db", db).stdout)
    assert (sample["seed"], sample["size"], sample["posts"], sample["drawn_from"]) == (7, 10, 10, 43)
    assert sample["drawn_by"] == "ann" and sample["keyword_set_id"] == 1 and sample["match_run_id"] == 1
    # another size or seed is another sample, drawn from today's candidates: none match now, and an empty
    # sample is never stored
    with pytest.raises(PPMinerError, match="no matching candidates"):
        IdentifyQueue(store, "bob", seed=7, sample=5)
    assert len(json.loads(run_cli("labeling.cli", "samples", "--format", "json", "--db", db).stdout)) == 1
