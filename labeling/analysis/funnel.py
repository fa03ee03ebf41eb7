"""The mining funnel as a table: from questions acquired to PPs labelled, with candidates per keyword."""

from __future__ import annotations

from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.schema.mining import Candidate, CandidateHit, KeywordSet
from mining.stats import filter_steps, funnel_counts, latest_keyword_set_id

FUNNEL_COLUMNS = ["step", "keyword", "count"]

# funnel step -> what it counts, in funnel order
FUNNEL_STEPS = {
    "questions": "questions acquired",
    "with_tag": "questions with one of the study's tags (last match run)",
    "in_scope": "of those, created in the study's date window (last match run)",
    "with_code": "of those, with a code block (last match run)",
    "selected": "questions passing the selection filters (last match run)",
    "candidates": "keyword candidates",
    "candidates_with_keyword": "candidates matching one keyword",
    "identified": "posts rated by at least one rater",
    "pp_posts": "posts finally identified as holding a PP",
    "labelled_posts": "posts with final PP labels",
    "pps_labelled": "PPs with final labels",
}


def keyword_candidates(session: Session) -> pd.DataFrame:
    """Candidates (matching ones, as ``ppmine stats`` counts them) per keyword of the keyword-set version last
    matched, in keyword-file order (zeros kept)."""
    set_id = latest_keyword_set_id(session)
    if set_id is None:
        return pd.DataFrame(columns=["keyword", "candidates"])
    keywords = list(session.scalar(sa.select(KeywordSet.keywords).where(KeywordSet.id == set_id)) or [])
    stmt = (
        sa.select(CandidateHit.keyword, sa.func.count(sa.distinct(CandidateHit.candidate_id)))
        .join(Candidate, Candidate.id == CandidateHit.candidate_id)
        .where(Candidate.keyword_set_id == set_id, Candidate.matching.is_(True))
        .group_by(CandidateHit.keyword)
    )
    counts = dict(session.execute(stmt).all())
    keywords += sorted(k for k in counts if k not in keywords)
    return pd.DataFrame({"keyword": keywords, "candidates": [int(counts.get(k, 0)) for k in keywords]})


def funnel_table(session: Session) -> pd.DataFrame:
    """The mining funnel (``FUNNEL_STEPS``); ``keyword`` is set on the per-keyword candidate rows only.
    The selection steps (``with_tag`` .. ``selected``) are empty before the first match run."""
    counts = funnel_counts(session)
    run_steps = filter_steps(session)
    values = {
        "questions": counts["questions"],
        # a GitHub study's selection has other filters: these steps are then empty
        "with_tag": run_steps.get("with_tag"),
        "in_scope": run_steps.get("in_scope"),
        "with_code": run_steps.get("with_code"),
        "selected": counts["selected"],
        "candidates": counts["candidates"],
        "identified": counts["identified"],
        "pp_posts": counts["pp_posts"],
        "labelled_posts": counts["labelled_posts"],
        "pps_labelled": counts["pps_final"],
    }
    rows: list[dict[str, Any]] = []
    for step in FUNNEL_STEPS:
        if step == "candidates_with_keyword":
            for kw in keyword_candidates(session).itertuples(index=False):
                rows.append({"step": step, "keyword": kw.keyword, "count": kw.candidates})
        else:
            rows.append({"step": step, "keyword": "", "count": values[step]})
    return pd.DataFrame(rows, columns=FUNNEL_COLUMNS).astype({"count": "Int64"})
