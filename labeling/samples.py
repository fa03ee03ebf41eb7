"""Frozen samples: `--sample N --seed S` is drawn once from the candidates and stored (who, when, from which
candidate version); from then on every rater asking for that sample gets exactly its posts, in its order, whatever
is matched later. A sample is named by its seed and size: `--sample 300 --seed 0` is always the same posts.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from core.db import Store
from core.errors import PPMinerError
from core.schema.labeling import Sample, SamplePost
from core.schema.mining import MatchRun
from core.sites import PostKey
from mining.store import utcnow


def stored_sample(session: Session, seed: int, size: int) -> Sample | None:
    return session.scalar(sa.select(Sample).where(Sample.seed == seed, Sample.size == size))


def sample_posts(session: Session, sample: Sample) -> list[PostKey]:
    """The sample's posts in their stored order."""
    return [
        PostKey(*row)
        for row in session.execute(
            sa.select(SamplePost.site, SamplePost.question_id)
            .where(SamplePost.sample_id == sample.id)
            .order_by(SamplePost.position)
        )
    ]


def draw_sample(
    session: Session, seed: int, size: int, keyword_set_id: int, order: list[PostKey], drawn_by: str
) -> Sample:
    """Store the first ``size`` posts of ``order`` (the seeded order of the candidates) as the sample."""
    chosen = order[:size]
    sample = Sample(
        seed=seed,
        size=size,
        keyword_set_id=keyword_set_id,
        match_run_id=session.scalar(
            sa.select(MatchRun.id)
            .where(MatchRun.keyword_set_id == keyword_set_id)
            .order_by(MatchRun.id.desc())
        ),
        candidates=len(order),
        drawn_by=drawn_by,
        drawn_at=utcnow(),
    )
    session.add(sample)
    session.flush()
    session.add_all(
        SamplePost(sample_id=sample.id, position=n, site=post.site, question_id=post.id)
        for n, post in enumerate(chosen, 1)
    )
    session.flush()
    return sample


def frozen_sample(
    store: Store, seed: int, size: int, keyword_set_id: int, order: list[PostKey], drawn_by: str
):
    """The stored sample (seed, size), drawn now from ``order`` if there is none; returns (its posts, sample
    facts, whether it was drawn now). Two sessions drawing at once: the second reads the first one's."""
    for attempt in (1, 2):
        try:
            with store.write() as s:
                sample = stored_sample(s, seed, size)
                fresh = sample is None
                if fresh:
                    if not order:  # an empty sample would stay empty forever
                        raise PPMinerError(
                            f"--sample {size} --seed {seed}: no matching candidates to draw it from; "
                            "run `ppmine match` first"
                        )
                    sample = draw_sample(s, seed, size, keyword_set_id, order, drawn_by)
                return sample_posts(s, sample), describe(sample), fresh
        except IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def describe(sample: Sample) -> dict[str, Any]:
    return {
        "sample": sample.id,
        "seed": sample.seed,
        "size": sample.size,
        "keyword_set_id": sample.keyword_set_id,
        "match_run_id": sample.match_run_id,
        "drawn_from": sample.candidates,
        "drawn_by": sample.drawn_by,
        "drawn_at": sample.drawn_at.isoformat(timespec="seconds"),
    }


def list_samples(session: Session) -> list[dict[str, Any]]:
    counts = dict(
        session.execute(sa.select(SamplePost.sample_id, sa.func.count()).group_by(SamplePost.sample_id)).all()
    )
    return [
        {**describe(s), "posts": counts.get(s.id, 0)}
        for s in session.scalars(sa.select(Sample).order_by(Sample.id))
    ]


SAMPLE_COLUMNS = (
    "sample", "seed", "size", "posts", "drawn_from", "keyword_set_id", "match_run_id", "drawn_by", "drawn_at",
)  # fmt: skip
