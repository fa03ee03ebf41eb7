"""How far each rater is: decided, remaining, labeling rate and time to finish (``pplabel progress``, status lines).

The rate counts only active labeling time: the gaps between a rater's consecutive decisions, leaving out gaps
longer than :data:`BREAK` (a pause, a night) and gaps of zero (rows written at once by an import). So a rater who
labels 30 posts in 20 minutes every morning has a rate of about 90 per hour, not 30 per day, and the ETA is hours
of labeling at that pace. Fewer than two timed decisions give no rate (and no ETA).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.errors import PPMinerError
from core.schema.labeling import Identification, PPLabel, Rater, rater_key
from core.sites import PostKey
from labeling.queue import classify_status
from labeling.queue import identify_scope as queue_scope
from mining.stats import latest_keyword_set_id

BREAK = timedelta(minutes=10)
STAGES = ("identify", "classify")


def labeling_rate(times: Iterable[datetime], pause: timedelta = BREAK) -> float | None:
    """Decisions per hour of active labeling, from the decisions' timestamps (any order); None if unknown."""
    ordered = sorted(times)
    active, counted = timedelta(0), 0
    for before, after in zip(ordered, ordered[1:], strict=False):
        gap = after - before
        if timedelta(0) < gap <= pause:
            active += gap
            counted += 1
    if counted == 0 or active <= timedelta(0):
        return None
    return counted / (active.total_seconds() / 3600)


def eta(remaining: int, rate_per_hour: float | None) -> timedelta | None:
    """Labeling time left at this rate: zero when nothing remains, None when the rate is unknown."""
    if remaining <= 0:
        return timedelta(0)
    if not rate_per_hour:
        return None
    return timedelta(hours=remaining / rate_per_hour)


def format_duration(span: timedelta | None) -> str:
    """``'2h 05m'``, ``'12m'``, ``'<1m'``, or ``'?'`` for unknown."""
    if span is None:
        return "?"
    minutes = round(span.total_seconds() / 60)
    if span > timedelta(0) and minutes == 0:
        return "<1m"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m" if hours else f"{minutes}m"


def status_text(decided: int, remaining: int, rate_per_hour: float | None) -> str:
    """One short line for a status bar: ``'12/40 · 28 left · 55/h · ETA 31m'``."""
    total = decided + remaining
    rate = f"{rate_per_hour:.0f}/h" if rate_per_hour else "?/h"
    return f"{decided}/{total} · {remaining} left · {rate} · ETA {format_duration(eta(remaining, rate_per_hour))}"


@dataclass(frozen=True)
class RaterProgress:
    rater: str
    stage: str  # identify | classify
    decided: int
    remaining: int
    rate_per_hour: float | None
    last_decision: datetime | None

    @property
    def total(self) -> int:
        return self.decided + self.remaining

    @property
    def eta(self) -> timedelta | None:
        return eta(self.remaining, self.rate_per_hour)

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape: counts, rate (decisions per active hour), ETA in seconds (null when unknown)."""
        out = asdict(self)
        out["total"] = self.total
        out["rate_per_hour"] = None if self.rate_per_hour is None else round(self.rate_per_hour, 2)
        span = self.eta
        out["eta_seconds"] = None if span is None else round(span.total_seconds())
        out["last_decision"] = (
            self.last_decision.isoformat(timespec="seconds") if self.last_decision else None
        )
        return out

    def table_row(self) -> dict[str, Any]:
        return {
            "rater": self.rater,
            "stage": self.stage,
            "decided": self.decided,
            "remaining": self.remaining,
            "rate": f"{self.rate_per_hour:.0f}/h" if self.rate_per_hour else "?",
            "ETA": format_duration(self.eta),
            "last decision": self.last_decision.strftime("%Y-%m-%d %H:%M") if self.last_decision else "",
        }


# -- per stage ------------------------------------------------------------------------------------------------


def identify_scope(
    session: Session, seed: int = 0, sample: int | None = None, rater_id: int = -1
) -> list[PostKey]:
    """The posts identify walks for a rater: as their queue does (``labeling.queue.identify_scope``)."""
    # a frozen sample is its stored posts; before anyone drew it, what a draw would take
    if sample is not None:
        from labeling.samples import sample_posts, stored_sample

        stored = stored_sample(session, seed, sample)
        if stored is not None:
            return sample_posts(session, stored)
    set_id = latest_keyword_set_id(session)
    if set_id is None:
        return []
    if sample is not None:
        return queue_scope(session, set_id, -1, seed)[:sample]
    return queue_scope(session, set_id, rater_id, seed)


def identify_progress(session: Session, rater: Rater, scope: Sequence[PostKey]) -> RaterProgress:
    in_scope = set(scope)
    rows = session.execute(
        sa.select(Identification.site, Identification.question_id, Identification.decided_at).where(
            Identification.rater_id == rater.id
        )
    ).all()
    times = [at for site, qid, at in rows if (site, qid) in in_scope]
    return RaterProgress(
        rater.name,
        "identify",
        len(times),
        len(in_scope) - len(times),
        labeling_rate(times),
        max(times, default=None),
    )


def classify_progress(session: Session, rater: Rater) -> RaterProgress:
    status = classify_status(session, rater.id)
    times = list(status.finished.values())
    return RaterProgress(
        rater.name,
        "classify",
        len(status.finished),
        len(status.pp_posts) - len(status.finished),
        labeling_rate(times),
        max(times, default=None),
    )


# -- every rater ----------------------------------------------------------------------------------------------


def progress_report(
    session: Session,
    raters: Sequence[str] | None = None,
    stages: Sequence[str] = STAGES,
    seed: int = 0,
    sample: int | None = None,
) -> list[RaterProgress]:
    """One row per (rater, stage). Default raters: everyone with a decision or a label; a named rater who does
    not exist is an error."""
    if raters:
        keys = [rater_key(n) for n in raters]  # "Ann " is rater ann
        found = {r.name_key: r for r in session.scalars(sa.select(Rater).where(Rater.name_key.in_(keys)))}
        missing = [n for n, k in zip(raters, keys, strict=True) if k not in found]
        if missing:
            known = ", ".join(session.scalars(sa.select(Rater.name).order_by(Rater.name))) or "none yet"
            raise PPMinerError(f"--rater: no rater named {', '.join(missing)} (raters: {known})")
        chosen = [found[k] for k in keys]
    else:
        active = sa.union(sa.select(Identification.rater_id), sa.select(PPLabel.rater_id)).subquery()
        chosen = list(
            session.scalars(sa.select(Rater).where(Rater.id.in_(sa.select(active))).order_by(Rater.name))
        )
    out = []
    for rater in chosen:
        if "identify" in stages:
            out.append(identify_progress(session, rater, identify_scope(session, seed, sample, rater.id)))
        if "classify" in stages:
            out.append(classify_progress(session, rater))
    return out
