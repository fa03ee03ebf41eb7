"""When to stop: Callaghan & Müller-Hansen's (2020) hypothesis test on a random sample of the unread posts.

After screening by priority, the rater reads the posts still undecided in random order (`pplabel identify
--order sample`, the seeded order of the pool). The first such session records when the sample started; the pool
is the rater's in-scope candidates undecided at that moment, the sample the longest run of the pool, in its
seeded order, that the rater has decided since (a prefix of a random permutation is a uniform random sample,
however the posts came to be decided). With ``found`` PPs decided before the sample and ``k`` in a sample of
``n`` from a pool of ``N``, the null hypothesis "recall is below the target r" means the pool held at least
``K = floor((found + k) / r - found) + 1`` PPs; the p-value is the hypergeometric P(X <= k) for ``n`` draws from
``N`` with ``K`` PPs (the largest p over every K that makes H0 true). p below 1 - confidence rejects H0: stop.

What it guarantees: if the test says stop, the rater's recall among the candidates (their own decisions counted as
truth) is at least the target, with the stated confidence. What it does not: it says nothing before a sample is
read; it does not cover posts the keyword match never made candidates, other raters or the reconciled labels;
it assumes the sample posts were decided as read (skipping sample posts selectively breaks the randomness), and
the PPs found outside the sample after it started are not counted (which only makes the test stricter).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from datetime import datetime

import numpy as np
import sqlalchemy as sa
from scipy.stats import hypergeom

from core.errors import PPMinerError
from core.schema.labeling import Identification, rater_display, rater_key
from core.schema.mining import Setting
from core.sites import PostKey
from labeling.queue import identify_scope, open_rater
from mining.stats import latest_keyword_set_id
from mining.store import utcnow

METHOD = "Callaghan & Müller-Hansen (2020): hypothesis test on a random sample of the unread posts"
KEY = "triage.sample/{rater}"  # per rater_key: the sample may start before the rater's first decision


@dataclass(frozen=True)
class StoppingEstimate:
    rater: str
    candidates: int
    decided: int
    pps: int
    target_recall: float
    confidence: float
    sample_started: str | None = None
    pool: int = 0  # undecided when the sample started
    pps_before: int = 0  # found before the sample
    sample: int = 0
    sample_pps: int = 0
    h0_min_pool_pps: int | None = None  # K: PPs the pool must hold for recall < target
    p_value: float | None = None
    stop: bool = False
    more_without_pp: int | None = None  # sample posts without a PP that would make the test say stop

    def as_dict(self) -> dict:
        return {"method": METHOD, **asdict(self)}

    def lines(self) -> list[str]:
        tr, cf = f"{self.target_recall:.0%}", f"{self.confidence:.0%}"
        out = [
            f"{self.rater}: {self.decided} of {self.candidates} candidates decided, {self.pps} PPs found",
            f"stopping method: {METHOD}; target recall {tr}, confidence {cf}",
        ]
        if self.sample_started is None:
            out.append(
                "no random sample yet: read the undecided posts in random order with `pplabel identify "
                f"--rater {self.rater} --order sample`; then this test can say when recall >= {tr}"
            )
            if self.more_without_pp is not None:
                out.append(f"  if no PP turns up, {self.more_without_pp} sample posts would be enough")
        else:
            out.append(
                f"sample since {self.sample_started}: {self.sample} of {self.pool} then-undecided posts read in "
                f"random order, {self.sample_pps} PPs among them ({self.pps_before} found before)"
            )
            verdict = (
                f"reject: you may stop; recall >= {tr} with {cf} confidence"
                if self.stop
                else "keep reading the sample"
                + (
                    f" (about {self.more_without_pp} more posts without a PP would be enough)"
                    if self.more_without_pp is not None
                    else " (the pool is exhausted before the test can reject)"
                )
            )
            out.append(
                f'H0 "recall < {tr}" (the pool held >= {self.h0_min_pool_pps} PPs): p = {self.p_value:.4f}: {verdict}'
            )
        out.append(
            "guarantees: when it says stop, your recall among the candidates (your decisions as truth) is at least "
            f"{tr} with {cf} confidence. It does not cover posts never matched as candidates, other raters or "
            "the reconciled labels, and assumes sample posts are decided in the order shown (no selective skips)."
        )
        return out

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), ensure_ascii=False)


def p_value(pool: int, found_before: int, sample: int, sample_pps: int, target: float) -> tuple[int, float]:
    """(K, p): the fewest pool PPs under H0 "recall < target", and P(X <= sample_pps) with that K."""
    found = found_before + sample_pps
    k_min = math.floor(found / target - found_before) + 1
    if k_min > pool:  # the pool cannot hold that many PPs: H0 is impossible
        return k_min, 0.0
    return k_min, float(hypergeom.cdf(sample_pps, pool, k_min, sample))


def more_needed(pool: int, found_before: int, sample: int, sample_pps: int, target: float, alpha: float):
    """Sample posts without a PP still to read before p < alpha (None if the pool runs out first)."""
    if pool - sample <= 0:
        return None
    n = np.arange(sample + 1, pool + 1)
    found = found_before + sample_pps
    k_min = math.floor(found / target - found_before) + 1
    if k_min > pool:
        return 0
    p = hypergeom.cdf(sample_pps, pool, k_min, n)
    hit = np.flatnonzero(p < alpha)
    return int(n[hit[0]] - sample) if len(hit) else None


def _scope(session, rater_id: int, seed: int) -> list[int]:
    set_id = latest_keyword_set_id(session)
    if set_id is None:
        raise PPMinerError("no candidates yet: run `ppmine match` first")
    return identify_scope(session, set_id, rater_id, seed)


def start_sample(store, rater_name: str, seed: int = 0) -> dict:
    """Record that this rater's random sample starts now (once: later sessions continue it, with the same
    --seed, or the order would not be the sample's). Returns the record."""
    key = KEY.format(rater=rater_key(rater_name))
    with store.write() as s:
        row = s.get(Setting, key)
        if row is None:
            started = utcnow()
            value = {"started": started.isoformat(), "seed": seed}
            s.add(Setting(key=key, value=json.dumps(value), updated_at=started))
            return value
    value = json.loads(row.value)
    if value.get("seed") != seed:
        raise PPMinerError(
            f"--order sample: your sample started {value['started']} with --seed {value.get('seed')}; use the same"
        )
    return value


def estimate(store, rater_name: str, target: float = 0.95, confidence: float = 0.95) -> StoppingEstimate:
    if not 0 < target <= 1:
        raise PPMinerError(f"--recall: must be in (0, 1], not {target}")
    if not 0 < confidence < 1:
        raise PPMinerError(f"--confidence: must be in (0, 1), not {confidence}")
    rater = open_rater(store, rater_name)
    rater_id = rater.id if rater is not None else -1
    alpha = 1 - confidence
    with store.read() as s:
        setting = s.get(Setting, KEY.format(rater=rater_key(rater_name)))
        meta = json.loads(setting.value) if setting is not None else {"seed": 0}
        scope = _scope(s, rater_id, meta.get("seed", 0))
        in_scope = set(scope)
        own = {
            q: (bool(pp), at)
            for site, qid, pp, at in s.execute(
                sa.select(
                    Identification.site,
                    Identification.question_id,
                    Identification.is_pp,
                    Identification.decided_at,
                ).where(Identification.rater_id == rater_id)
            )
            if (q := PostKey(site, qid)) in in_scope
        }
    pps = sum(pp for pp, _ in own.values())
    base = dict(rater=rater.name if rater is not None else rater_display(rater_name), candidates=len(scope), decided=len(own), pps=pps, target_recall=target,
                confidence=confidence)  # fmt: skip
    if setting is None:
        pool = len(scope) - len(own)
        return StoppingEstimate(**base, more_without_pp=more_needed(pool, pps, 0, 0, target, alpha))
    started = datetime.fromisoformat(meta["started"])
    before = {q for q, (_, at) in own.items() if at < started}
    found_before = sum(own[q][0] for q in before)
    pool_order = [q for q in scope if q not in before]
    n = 0
    while n < len(pool_order) and pool_order[n] in own:
        n += 1
    k = sum(own[q][0] for q in pool_order[:n])
    k_min, p = p_value(len(pool_order), found_before, n, k, target)
    return StoppingEstimate(
        **base, sample_started=meta["started"], pool=len(pool_order), pps_before=found_before, sample=n,
        sample_pps=k, h0_min_pool_pps=k_min, p_value=p, stop=p < alpha,
        more_without_pp=None if p < alpha else more_needed(len(pool_order), found_before, n, k, target, alpha),
    )  # fmt: skip
