"""`ppbench run`: run cases buggy against fixed, judge each, and keep every record (files and database).

Per case: warm-up runs (unrecorded), then ``repeats`` measured pairs in ABBA order (buggy-fixed, fixed-buggy,
...) so a drift of the machine's speed during the run weighs on both variants alike. A case that cannot run (bad
case.toml, a missing script, a framework not installed, a crash or timeout of a run its symptom does not expect)
ends with one line and a failure record; the other cases still run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.db import Store
from core.errors import PPMinerError
from core.progress import progress
from ppbench import records
from ppbench.case import Case, load_case, missing_scripts, unmet_requirement
from ppbench.env import platform_facts
from ppbench.runner import run_once
from ppbench.stats import Verdict, judge


@dataclass
class CaseOutcome:
    name: str
    result: dict
    folder: Path

    @property
    def failed(self) -> bool:
        return self.result["status"] == "failed"

    def line(self) -> str:
        """The one line a person reads per case."""
        r, case = self.result, self.result["case"]
        name = case.get("name", self.name)
        if r["status"] == "failed":
            return f"{name}: FAILED: {r['error'] or r['reason']}"
        runs = f"{r['runs']['buggy']}+{r['runs']['fixed']} runs"
        if r["ratio"] is None:
            return f"{name}: {r['status']} ({case.get('symptom')}: {r['reason']}; {runs})"
        low, high = r["ci"]
        return (
            f"{name}: {r['status']}: fixed/buggy {r['metric']} {r['ratio']:.3g} "
            f"(95% CI {low:.3g}-{high:.3g}; medians {_fmt(r['buggy_median'], r['metric'])} -> "
            f"{_fmt(r['fixed_median'], r['metric'])}; {runs})"
        )


def _fmt(value: float | None, metric: str) -> str:
    if value is None:
        return "-"
    if metric in ("peak_rss",):
        return f"{value / 2**20:.0f} MiB"
    if metric == "rss_growth":
        return f"{value / 2**10:.0f} KiB/step"
    return f"{value:.3g} s"


def _order(repeats: int) -> list[tuple[str, int]]:
    pairs = []
    for i in range(repeats):
        first, second = ("buggy", "fixed") if i % 2 == 0 else ("fixed", "buggy")
        pairs += [(first, i), (second, i)]
    return pairs


def run_cases(
    folders: list[str | Path],
    out: Path,
    store: Store | None,
    repeat: int | None = None,
    warmup: int | None = None,
    profile: bool = False,
    on_case: Callable[[CaseOutcome], None] | None = None,
) -> list[CaseOutcome]:
    """Run every case folder; returns each case's outcome (also passed to ``on_case`` as it finishes)."""
    session = records.new_session_id()
    loaded: list[tuple[str, Path, Case | None, str | None]] = []
    for folder in folders:
        folder = Path(folder)
        try:
            case = load_case(folder)
            problem = None
            missing = missing_scripts(case)
            if missing:
                problem = f"{case.folder / missing[0]}: missing (a case needs buggy.py and fixed.py)"
            else:
                problem = unmet_requirement(case)
            loaded.append((case.name, folder, case, problem))
        except PPMinerError as exc:
            loaded.append((folder.resolve().name, folder, None, str(exc)))
    frameworks = {c.framework for _, _, c, problem in loaded if c is not None and problem is None}
    platform = platform_facts(frameworks)
    outcomes = []
    for name, folder, case, problem in loaded:
        target = out / session / name
        description = records.case_description(case, name, folder)
        if problem is not None or case is None:
            outcome = _finish(
                store, session, target, description, [], platform, Verdict("failed", None), problem
            )
        else:
            outcome = _run_case(case, session, target, description, platform, store, repeat, warmup, profile)
        outcomes.append(outcome)
        if on_case is not None:
            on_case(outcome)
    return outcomes


def _run_case(case, session, target, description, platform, store, repeat, warmup, profile) -> CaseOutcome:
    repeats = repeat if repeat is not None else case.repeats
    warmups = warmup if warmup is not None else case.warmup
    description = description | {"repeats": repeats, "warmup": warmups}
    runs: list[dict] = []
    expected_failure = "oom" if case.symptom == "oom" else None
    with progress(f"{case.name}", 2 * (repeats + warmups)) as bar:
        for i in range(warmups):
            for variant in ("buggy", "fixed"):
                run = run_once(case, variant, -(i + 1), target)
                bar.advance()
                error = _unexpected(run, expected_failure)
                if error:
                    return _finish(store, session, target, description, [], platform, Verdict("failed", None),
                                   f"warm-up {error}")  # fmt: skip
        for variant, i in _order(repeats):
            run = run_once(case, variant, i, target, profile=profile)
            bar.advance()
            runs.append(run)
            error = _unexpected(run, expected_failure)
            if error:
                return _finish(
                    store, session, target, description, runs, platform, Verdict("failed", None), error
                )
    verdict = judge(case.symptom, case.metric, [r for r in runs if r["variant"] == "buggy"],
                    [r for r in runs if r["variant"] == "fixed"])  # fmt: skip
    return _finish(store, session, target, description, runs, platform, verdict, None)


def _unexpected(run: dict, expected: str | None) -> str | None:
    """A run status that ends the case: anything but ok, except the buggy variant's expected failure."""
    if run["status"] == "ok" or (run["variant"] == "buggy" and run["status"] == expected):
        return None
    if run["status"] == "missing":
        return run["error"]
    where = f"{run['variant']}.py"
    return f"{where} {run['status']}" + (f": {run['error']}" if run["error"] else "")


def _finish(store, session, target, description, runs, platform, verdict, error) -> CaseOutcome:
    run_records = [records.run_record(session, description, run, platform) for run in runs]
    result = records.result_record(session, description, verdict, runs, platform, error)
    for record in run_records:
        records.write_json(target / f"{record['variant']}-{record['repeat']}.json", record)
    records.write_json(target / "result.json", result)
    if store is not None:
        records.store_case(store, run_records, result)
    return CaseOutcome(description["name"], result, target)
