"""pplabel's agreement figures as tables (``labeling.agreement``, ``labeling.rater_agreement``)."""

from __future__ import annotations

import pandas as pd
from sqlalchemy.orm import Session

from labeling import agreement, rater_agreement


def agreement_table(session: Session, codebook, stage: str | None = None) -> pd.DataFrame:
    """pplabel's own agreement figures (``labeling.agreement``), one row per dimension."""
    result = agreement.compute_agreement(session, codebook, stage=stage)
    return pd.DataFrame(agreement.to_rows(result), columns=list(agreement.ROW_COLUMNS))


def agreement_detail(session: Session, codebook, report: str, stage: str | None = None) -> pd.DataFrame:
    """One per-rater table of ``labeling.rater_agreement`` (``pairwise``, ``majority``, ``confusion`` or
    ``disputed``), the rows `pplabel agreement --report REPORT --format csv` writes."""
    rows_of, columns = rater_agreement.ROWS[report]
    result = agreement.compute_agreement(session, codebook, stage=stage)
    return pd.DataFrame(rows_of(result), columns=list(columns))
