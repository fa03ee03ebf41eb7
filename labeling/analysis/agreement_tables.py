"""pplabel's agreement figures as tables: the rows `pplabel agreement` writes (``labeling.agreement_report``)."""

from __future__ import annotations

import pandas as pd
from sqlalchemy.orm import Session

from labeling.agreement import compute_agreement
from labeling.agreement_report import report_rows


def agreement_table(session: Session, codebook, stage: str | None = None) -> pd.DataFrame:
    """pplabel's own agreement figures (``labeling.agreement``), one row per dimension."""
    return agreement_detail(session, codebook, "summary", stage)


def agreement_detail(session: Session, codebook, report: str, stage: str | None = None) -> pd.DataFrame:
    """One report of `pplabel agreement` (``summary``, ``pairwise``, ``majority``, ``confusion``, ``disputed`` or
    ``pairing``): the rows `pplabel agreement --report REPORT --format csv` writes."""
    rows, columns = report_rows(compute_agreement(session, codebook, stage=stage), report)
    return pd.DataFrame(rows, columns=list(columns))
