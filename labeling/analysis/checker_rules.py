"""ppcheck's findings on the labelled posts (`ppmine check`) beside the raters' final root causes."""

from __future__ import annotations

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.orm import Session

from checker import all_rules
from core.schema.mining import CheckedPost, CheckFinding
from labeling.analysis.labels import final_labels, percent


def checker_rule_table(session: Session) -> pd.DataFrame:
    """Per ppcheck rule: the labelled PP posts it fires on, and how often its root cause is the raters' final one.

    Columns: ``rule``, ``root_cause`` (the codebook code the rule stands for), ``posts`` (labelled PP posts whose
    code was checked and on which the rule fires), ``pps`` (their final PPs), ``root_cause_match`` (of those posts,
    the ones where a final PP has the rule's root cause), ``match_percent``, ``category_match`` (a final PP in the
    rule's root-cause category, e.g. ``api``), and ``checked_pp_posts`` (labelled PP posts checked at all).
    """
    labels = final_labels(session)
    labels = labels.assign(post=list(zip(labels["site"], labels["question_id"], strict=True)))
    pp_posts = set(labels["post"])
    checked = {
        (site, qid)
        for site, qid in session.execute(
            sa.select(CheckedPost.site, CheckedPost.question_id).where(CheckedPost.status == "checked")
        )
        if (site, qid) in pp_posts
    }
    fired: dict[str, set[tuple[str, int]]] = {}
    query = sa.select(CheckFinding.rule, CheckFinding.site, CheckFinding.question_id).distinct()
    for rule, site, qid in session.execute(query):
        if (site, qid) in checked:
            fired.setdefault(rule, set()).add((site, qid))
    causes = labels.groupby("post")["root_cause"].apply(lambda s: {c for c in s if c})
    rows = []
    for code, rule in all_rules().items():
        posts = fired.get(code, set())
        category = rule.root_cause.split(".")[0]
        match = sum(1 for q in posts if rule.root_cause in causes.get(q, set()))
        in_category = sum(1 for q in posts if any(c.split(".")[0] == category for c in causes.get(q, set())))
        rows.append(
            {
                "rule": code,
                "root_cause": rule.root_cause,
                "posts": len(posts),
                "pps": int(labels["post"].isin(posts).sum()),
                "root_cause_match": match,
                "match_percent": percent(match, len(posts)),
                "category_match": in_category,
                "checked_pp_posts": len(checked),
            }
        )
    return pd.DataFrame(rows)
