"""Run records: one JSON file per measured process and one per case verdict, the same JSON in the study database.

Layout under ``--out``: ``<session>/<case>/<variant>-<repeat>.json`` (warm-up runs are not recorded),
``<session>/<case>/result.json``, and the runs' output logs beside them. A record is self-describing
(``schema``), carries the case's description and the platform it ran on, so records from different machines can
be compared without anything else.
"""

from __future__ import annotations

import json
import os
import secrets
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa

from core.db import Store
from core.schema.bench import BenchResult, BenchRun
from core.sites import parse_pp_key
from ppbench.case import Case
from ppbench.stats import CONFIDENCE, Verdict

RUN_SCHEMA = "ppbench.run/1"
RESULT_SCHEMA = "ppbench.result/1"


def new_session_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + "-" + secrets.token_hex(3)


def write_json(path: Path, record: dict) -> None:
    """Atomically: a temporary file renamed over ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(record, fh, indent=2, ensure_ascii=False, default=str)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def case_description(case: Case | None, name: str, folder: Path) -> dict:
    return case.summary() | {"folder": str(case.folder)} if case else {"name": name, "folder": str(folder)}


def run_record(session: str, case: dict, run: dict, platform: dict) -> dict:
    return {"schema": RUN_SCHEMA, "session": session, "case": case, **run, "platform": platform}


def result_record(
    session: str, case: dict, verdict: Verdict, runs: list[dict], platform: dict, error: str | None = None
) -> dict:
    def values(variant):
        return [r["measurements"] for r in runs if r["variant"] == variant]

    return {
        "schema": RESULT_SCHEMA,
        "session": session,
        "case": case,
        "status": verdict.status,
        "reproduced": verdict.reproduced,
        "metric": case.get("metric"),
        "ratio": verdict.ratio,
        "ci": [verdict.ci_low, verdict.ci_high] if verdict.ratio is not None else None,
        "confidence": CONFIDENCE,
        "buggy_median": verdict.buggy_median,
        "fixed_median": verdict.fixed_median,
        "reason": verdict.reason or None,
        "error": error,
        "runs": {"buggy": len(values("buggy")), "fixed": len(values("fixed"))},
        "finished_at": datetime.now(UTC).replace(tzinfo=None).isoformat(timespec="milliseconds"),
        "platform": platform,
    }


def _pp(case: dict) -> tuple[str | None, int | None, int | None, list[str]]:
    """(site, post id, PP number) of the case's first PP, and all its PP ids."""
    ids = list(case.get("pp_ids") or [])
    if not ids:
        return None, None, None, []
    post, index = parse_pp_key(ids[0])
    return post.site, post.id, index, ids


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text)


def store_case(store: Store, runs: list[dict], result: dict) -> None:
    """One case's run records and verdict in one transaction."""
    site, question_id, pp_index, pp_ids = _pp(result["case"])
    with store.write() as session:
        for record in runs:
            m = record.get("measurements") or {}
            session.add(BenchRun(
                session_id=record["session"], case_name=record["case"]["name"], site=site, question_id=question_id,
                pp_index=pp_index, pp_ids=pp_ids, variant=record["variant"], repeat=record["repeat"],
                status=record["status"], started_at=_when(record["started_at"]), wall_s=m.get("wall_s"),
                cpu_s=m.get("cpu_s"), peak_rss_bytes=m.get("peak_rss_bytes"), record=record,
            ))  # fmt: skip
        session.add(BenchResult(
            session_id=result["session"], case_name=result["case"]["name"], site=site, question_id=question_id,
            pp_index=pp_index, pp_ids=pp_ids, symptom=result["case"].get("symptom") or "",
            metric=result.get("metric"), status=result["status"], reproduced=result["reproduced"],
            ratio=_finite(result["ratio"]), ci_low=_finite((result["ci"] or [None])[0]),
            ci_high=_finite((result["ci"] or [None, None])[1]), started_at=_when(result["finished_at"]),
            record=result,
        ))  # fmt: skip


def _finite(value: float | None) -> float | None:
    if value is None or value != value or value in (float("inf"), float("-inf")):
        return None
    return value


RESULT_COLUMNS = ["id", "session", "case", "pp", "symptom", "metric", "status", "ratio", "ci_low", "ci_high",
                  "buggy_runs", "fixed_runs", "when"]  # fmt: skip


def result_rows(store: Store, case: str | None = None, limit: int | None = None) -> list[dict]:
    """Stored verdicts, newest first."""
    with store.read() as session:
        query = sa.select(BenchResult).order_by(BenchResult.id.desc())
        if case:
            query = query.where(BenchResult.case_name == case)
        if limit:
            query = query.limit(limit)
        return [_row(r) for r in session.scalars(query)]


def _row(r: BenchResult) -> dict:
    runs = (r.record or {}).get("runs") or {}
    return {
        "id": r.id, "session": r.session_id, "case": r.case_name, "pp": ", ".join(r.pp_ids or []),
        "symptom": r.symptom, "metric": r.metric, "status": r.status, "ratio": r.ratio, "ci_low": r.ci_low,
        "ci_high": r.ci_high, "buggy_runs": runs.get("buggy"), "fixed_runs": runs.get("fixed"),
        "when": r.started_at.isoformat(timespec="seconds"),
    }  # fmt: skip


def find_result(store: Store, key: str) -> tuple[dict, list[dict]] | None:
    """A verdict and its run records: by result id, else the newest of a case name."""
    with store.read() as session:
        result = session.get(BenchResult, int(key)) if key.isdigit() else None
        if result is None:
            result = session.scalars(
                sa.select(BenchResult)
                .where(BenchResult.case_name == key)
                .order_by(BenchResult.id.desc())
                .limit(1)
            ).first()
        if result is None:
            return None
        runs = session.scalars(
            sa.select(BenchRun)
            .where(BenchRun.session_id == result.session_id, BenchRun.case_name == result.case_name)
            .order_by(BenchRun.id)
        ).all()
        return result.record, [r.record for r in runs]
