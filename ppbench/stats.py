"""The numbers a verdict rests on: per-run metric values, the fixed/buggy ratio of medians with a bootstrap
confidence interval, and whether the PP reproduced by the case's symptom."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np

BOOTSTRAP_SAMPLES = 4000
CONFIDENCE = 0.95


def slope(values: list[float]) -> float | None:
    """Least-squares slope of values over their index (e.g. bytes of RSS per step); None for fewer than 3."""
    if len(values) < 3:
        return None
    x = np.arange(len(values), dtype=float)
    return float(np.polyfit(x, np.asarray(values, dtype=float), 1)[0])


def metric_value(metric: str, measured: dict) -> float | None:
    """One run's value of ``metric`` from its measurements (None when the run did not report it)."""
    if metric == "section":
        return measured.get("section_s")
    if metric == "wall":
        return measured.get("wall_s")
    if metric == "cpu":
        return measured.get("cpu_s")
    if metric == "steps":
        seconds = (measured.get("steps") or {}).get("seconds") or []
        return float(sum(seconds)) if seconds else None
    if metric == "peak_rss":
        return measured.get("peak_rss_bytes")
    if metric == "rss_growth":
        return measured.get("rss_growth_bytes_per_step")
    raise ValueError(f"unknown metric {metric!r}")


def bootstrap_ratio(
    buggy: list[float], fixed: list[float], samples: int = BOOTSTRAP_SAMPLES, confidence: float = CONFIDENCE,
    seed: int = 0,
) -> tuple[float, float, float]:  # fmt: skip
    """median(fixed) / median(buggy) and its percentile bootstrap interval (both groups resampled apart)."""
    b, f = np.asarray(buggy, dtype=float), np.asarray(fixed, dtype=float)
    if len(b) == 0 or len(f) == 0:
        raise ValueError("need values of both variants")
    rng = np.random.default_rng(seed)
    mb = np.median(b[rng.integers(0, len(b), (samples, len(b)))], axis=1)
    mf = np.median(f[rng.integers(0, len(f), (samples, len(f)))], axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratios = mf / mb
    ratios = ratios[np.isfinite(ratios)]
    point = float(np.median(f) / np.median(b)) if np.median(b) else float("inf")
    if len(ratios) == 0:
        return point, float("nan"), float("nan")
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(ratios, [tail, 100 - tail])
    return point, float(low), float(high)


@dataclass
class Verdict:
    status: str  # reproduced | not reproduced | failed
    reproduced: bool | None
    ratio: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    buggy_median: float | None = None
    fixed_median: float | None = None
    reason: str = ""


def judge(symptom: str, metric: str, buggy: list[dict], fixed: list[dict]) -> Verdict:
    """The verdict from the measured runs (dicts with ``status`` and ``measurements``) of both variants.

    time / memory: the fixed version's metric is lower, its interval entirely below 1. memory_growth: the buggy
    version's memory grows across steps (median slope above 0) and the fixed/buggy slope ratio's interval is
    below 1. oom: every buggy run ran out of memory and every fixed run finished.
    """
    if symptom == "oom":
        b_oom = sum(r["status"] == "oom" for r in buggy)
        f_ok = sum(r["status"] == "ok" for r in fixed)
        ok = b_oom == len(buggy) and f_ok == len(fixed)
        return Verdict(
            "reproduced" if ok else "not reproduced", ok,
            reason=f"{b_oom} of {len(buggy)} buggy runs ran out of memory, {f_ok} of {len(fixed)} fixed runs finished",
        )  # fmt: skip
    bad = [r for r in buggy + fixed if r["status"] != "ok"]
    if bad:
        first = bad[0]
        return Verdict("failed", None, reason=f"{first['variant']} run {first['repeat']}: {first['status']}")
    values = {}
    for name, runs in (("buggy", buggy), ("fixed", fixed)):
        got = [metric_value(metric, r["measurements"]) for r in runs]
        if any(v is None for v in got):
            return Verdict("failed", None, reason=f"{name}.py did not report {metric!r} (use ppbench.probe)")
        values[name] = got
    ratio, low, high = bootstrap_ratio(values["buggy"], values["fixed"])
    b_med, f_med = statistics.median(values["buggy"]), statistics.median(values["fixed"])
    ok = bool(high < 1)
    if symptom == "memory_growth" and b_med <= 0:
        ok = False
    return Verdict(
        "reproduced" if ok else "not reproduced", ok, ratio, low, high, b_med, f_med,
        reason="" if ok else f"the {int(CONFIDENCE * 100)}% interval of fixed/buggy reaches 1 or above",
    )  # fmt: skip
