"""RQ4: the published benchmark's assessment of the Profiler, XLA and the documentation."""

from __future__ import annotations

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.schema.labeling import BenchmarkCase, pp_key
from core.sites import PostKey

RQ4_TOOLS = ("profiler", "xla", "documentation")
RQ4_COLUMNS = ["tool", "applied", "not_solved", "partly_solved"]
RQ4_CATEGORY_COLUMNS = ["category", "cases", "profiler_applied", "profiler_partly_solved", "xla_applied",
                        "xla_partly_solved", "documentation_applied"]  # fmt: skip


def benchmark_cases(session: Session) -> pd.DataFrame:
    """The stored benchmark cases (``pplabel import --format benchmark``), one row per reproduced PP."""
    rows = session.execute(
        sa.select(
            BenchmarkCase.site,
            BenchmarkCase.question_id,
            BenchmarkCase.pp_index,
            BenchmarkCase.profiler_status,
            BenchmarkCase.xla_status,
            BenchmarkCase.documentation_applies,
            BenchmarkCase.root_cause,
        ).order_by(BenchmarkCase.position, BenchmarkCase.id)
    ).all()
    columns = [
        "site",
        "question_id",
        "pp_index",
        "profiler_status",
        "xla_status",
        "documentation_applies",
        "root_cause",
    ]
    frame = pd.DataFrame(rows, columns=columns)
    frame.insert(
        0,
        "pp",
        [
            pp_key(PostKey(s, q), i)
            for s, q, i in zip(frame["site"], frame["question_id"], frame["pp_index"], strict=True)
        ],
    )
    return frame


def rq4_table(cases: pd.DataFrame) -> pd.DataFrame:
    """Per tool, the cases it applied to, and of those the ones it did not solve and the ones it partly solved.

    The published file records only whether the documentation applies, so its two outcome cells stay empty."""
    rows = []
    for tool in ("profiler", "xla"):
        status = cases[f"{tool}_status"].astype(int)
        rows.append([tool, int((status >= 0).sum()), int((status == 0).sum()), int((status == 1).sum())])
    rows.append(["documentation", int(cases["documentation_applies"].astype(bool).sum()), None, None])
    table = pd.DataFrame(rows, columns=RQ4_COLUMNS)
    for column in ("not_solved", "partly_solved"):
        table[column] = table[column].astype("Int64")
    return table


def rq4_by_root_cause(cases: pd.DataFrame, codebook) -> pd.DataFrame:
    """The same assessment per root-cause category (the benchmark's own labels), categories in codebook order."""
    categories = [c.name for c in codebook.categories("root_cause")]
    named = cases.assign(
        category=cases["root_cause"].map(
            lambda c: codebook.category_name(codebook.get(c, "root_cause").category) if c else "(none)"
        )
    )
    rows = []
    for name in categories + sorted(set(named["category"]) - set(categories)):
        part = named[named["category"] == name]
        if part.empty and name not in categories:
            continue
        rows.append([
            name, len(part),
            int((part["profiler_status"] >= 0).sum()), int((part["profiler_status"] == 1).sum()),
            int((part["xla_status"] >= 0).sum()), int((part["xla_status"] == 1).sum()),
            int(part["documentation_applies"].astype(bool).sum()),
        ])  # fmt: skip
    return pd.DataFrame(rows, columns=RQ4_CATEGORY_COLUMNS)
