"""The scrape job: per-tag queries of ``/questions``, one transaction per page with its checkpoint, resumption.

Paging is by key, not by page number: each request asks ``sort=<field>&order=asc&min=<cursor>`` and the cursor
moves to the last value seen, so posts that move while we page (new activity) are never skipped, and a resumed run
asks exactly where the dead one stopped. ``min`` is inclusive: the few posts at the cursor come twice and upsert
to one row. A full run sorts by creation date inside the ``--from``/``--to`` window; ``--since-last`` sorts by
activity from the high-water mark of the last finished run that covers the same site, API, tags and window (else
it fetches the whole window), so new questions, edits and new answers all come back.

The API's ``tagged=a;b`` on ``/questions`` means a AND b, so each tag is its own query. Tag 1 comes from
``/questions``; tag k > 1 from ``/search/advanced`` (same filter, sorts, ``min`` and dates) with ``nottagged`` = the
tags before it, so questions with several study tags are fetched once (the upsert would dedupe them anyway, but
each duplicate costs quota).
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from core.db import Store
from core.errors import PPMinerError
from core.progress import progress
from core.schema.mining import AcquisitionRun, Setting
from mining.api.client import ApiClient, ApiError, QuotaExhausted, Unreachable
from mining.api.items import page_rows
from mining.fetching import first_line as _first_line
from mining.joblock import Lock
from mining.runs import (
    close_dead_runs,
    find_resumable,
    mark,
    new_run,
    record_failure,
    record_stop,
    scrape_parts,
    window_covers,
)
from mining.runs import last_high_water as runs_last_high_water
from mining.store import upsert_answers, upsert_comments, upsert_questions, utcnow

log = logging.getLogger("ppminer.scrape")

FILTER_BASE = "default"
# Added to the default filter: bodies, and answers and comments nested in each question (one request per page).
FILTER_INCLUDE = (
    "question.body",
    "question.answers",
    "question.comments",
    "answer.body",
    "answer.comments",
    "comment.body",
    "comment.post_type",
)
# The next high-water mark stays this far behind the run's start: the API may show activity a little late.
HIGH_WATER_MARGIN = timedelta(minutes=10)


def tag_method(index: int) -> str:
    """The first tag is read from ``/questions``; each later one from ``/search/advanced`` with ``nottagged`` set
    to the earlier tags, so a question carrying several study tags costs one fetch, not several."""
    return "/questions" if index == 0 else "/search/advanced"


@dataclass(frozen=True)
class ScrapeParams:
    """What a scrape asks for. Two runs with equal params are the same job: the later one resumes the earlier."""

    tags: tuple[str, ...]
    site: str = "stackoverflow"
    api_url: str = "https://api.stackexchange.com/2.3"
    date_from: date | None = None
    date_to: date | None = None
    since_last: bool = False
    page_size: int = 100

    def as_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["tags"] = list(self.tags)
        d["date_from"] = self.date_from.isoformat() if self.date_from else None
        d["date_to"] = self.date_to.isoformat() if self.date_to else None
        return d


@dataclass
class ScrapeResult:
    run_id: int
    status: str
    questions: int = 0
    changed: int = 0
    requests: int = 0
    quota_remaining: int | None = None
    high_water: datetime | None = None
    resumed: bool = False
    mode: str = "full"
    message: str | None = None
    tags: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = [
            f"scrape run {self.run_id} {self.status}",
            f"{self.questions} questions fetched, {self.changed} new or updated",
            f"{self.requests} requests",
            f"quota left {self.quota_remaining if self.quota_remaining is not None else '?'}",
            f"mode {self.mode}{' (resumed)' if self.resumed else ''}",
        ]
        if self.high_water:
            parts.append(f"high-water {self.high_water:%Y-%m-%dT%H:%M:%S}")
        if self.message and self.status != "done":
            parts.append(self.message)
        return "; ".join(parts)


def _unix(dt: datetime) -> int:
    return int(dt.replace(tzinfo=UTC).timestamp())


def _window(params: ScrapeParams) -> tuple[int | None, int | None]:
    """The creation window as API epoch seconds, both ends inclusive."""
    lo = _unix(datetime.combine(params.date_from, time())) if params.date_from else None
    hi = _unix(datetime.combine(params.date_to + timedelta(days=1), time())) - 1 if params.date_to else None
    return lo, hi


# -- filter cache --------------------------------------------------------------------------------------------


def filter_setting_key(include=FILTER_INCLUDE, base=FILTER_BASE) -> str:
    return f"se_filter:{base}:{';'.join(include)}"


def get_filter(
    store: Store, client: ApiClient, include=FILTER_INCLUDE, base=FILTER_BASE, *, refresh: bool = False
) -> str:
    """The filter id for ``include``: from the settings table, else created once and cached there.

    ``refresh`` creates a new one even if one is cached (the API rejected the cached id).
    """
    key = filter_setting_key(include, base)
    with store.read() as s:
        row = s.get(Setting, key)
        if row is not None and not refresh:
            try:
                cached = json.loads(row.value)
            except json.JSONDecodeError:
                cached = {}
            if cached.get("api_url") == client.api_url and cached.get("filter"):
                return cached["filter"]
    filter_id = client.create_filter(include, base)
    with store.write() as s:
        value = json.dumps({"api_url": client.api_url, "filter": filter_id})
        row = s.get(Setting, key)
        if row is None:
            s.add(Setting(key=key, value=value, updated_at=utcnow()))
        else:
            row.value, row.updated_at = value, utcnow()
    return filter_id


# -- runs ----------------------------------------------------------------------------------------------------


def covers(earlier: dict[str, Any], params: ScrapeParams) -> bool:
    """Whether a finished run with ``earlier`` params fetched everything ``params`` asks for, up to its high-water
    mark: same site and API, all of the tags, and a creation window that contains the one asked for."""
    if earlier.get("site") != params.site:
        return False
    if (earlier.get("api_url") or "").rstrip("/") != params.api_url.rstrip("/"):
        return False
    if not set(params.tags) <= set(earlier.get("tags") or ()):
        return False
    return window_covers(earlier, params.date_from, params.date_to)


def last_high_water(store: Store, params: ScrapeParams) -> datetime | None:
    """High-water mark of the newest finished scrape that covers ``params`` (see :func:`covers`).

    A narrower or other run's mark would skip, for good, the quiet questions it never fetched.
    """
    return runs_last_high_water(store, "scrape", lambda earlier: covers(earlier, params))


def _find_resumable(store: Store, params: ScrapeParams) -> AcquisitionRun | None:
    return find_resumable(store, "scrape", params.as_json())


def _new_run(store: Store, params: ScrapeParams) -> AcquisitionRun:
    base = last_high_water(store, params) if params.since_last else None
    mode = "incremental" if base is not None else "full"
    checkpoint = {
        "mode": mode,
        "sort": "activity" if mode == "incremental" else "creation",
        "base_cursor": _unix(base) if base is not None else None,
        "tag_index": 0,
        "cursor": _unix(base) if base is not None else None,
        "page": 1,
        "max_activity": None,
    }
    return new_run(store, "scrape", params.as_json(), checkpoint)


# -- the job -------------------------------------------------------------------------------------------------


def scrape(
    store: Store,
    params: ScrapeParams,
    *,
    key: str | None = None,
    client: ApiClient | None = None,
    lock: Lock | None = None,
    restart: bool = False,
    show_progress: bool = False,
    max_rps: float = 30.0,
    max_requests: int | None = None,
) -> ScrapeResult:
    """Run (or resume) one scrape. Takes the scrape lock unless ``lock`` is held by the caller already.

    ``max_requests`` caps the API requests of this invocation (a share of the daily quota); reaching it stops
    like an exhausted quota, resumable. Returns the result for status done or quota; raises PPMinerError after
    recording status failed.
    """
    if not params.tags:
        raise PPMinerError("no tags to scrape: give --tag or set [study] tags in the config")
    with scrape_parts(
        store, lock, client, lambda: ApiClient(params.api_url, site=params.site, key=key, max_rps=max_rps)
    ) as (lock, client):
        return _scrape_locked(store, params, client, lock, restart, show_progress, max_requests)


def _scrape_locked(store, params, client, lock, restart, show_progress, max_requests) -> ScrapeResult:
    run = None if restart else _find_resumable(store, params)
    close_dead_runs(store, "scrape", run.id if run is not None else None)
    resumed = run is not None
    if run is None:
        run = _new_run(store, params)
    elif run.status != "running":
        mark(store, run.id, "running")
    if resumed:
        log.info("resuming scrape run %d at %s", run.id, run.checkpoint)
    cp = dict(run.checkpoint)
    result = ScrapeResult(
        run_id=run.id, status="running", resumed=resumed, mode=cp["mode"], tags=list(params.tags)
    )
    base_requests, start_requests = run.requests or 0, client.requests
    started_at = run.started_at
    # What is being worked on, for a failure message: the request (without the key) and its questions.
    where, page_ids = f"{client.api_url}/filters/create", []

    def requests_so_far() -> int:
        return base_requests + client.requests - start_requests

    try:
        with progress("scrape", enabled=show_progress) as bar:
            filter_id, refreshed = get_filter(store, client), False
            lo, hi = _window(params)
            while cp["tag_index"] < len(params.tags):
                if max_requests is not None and client.requests - start_requests >= max_requests:
                    raise QuotaExhausted(f"the budget of {max_requests} requests for this run is spent")
                tag = params.tags[cp["tag_index"]]
                query = {
                    "tagged": tag,
                    "sort": cp["sort"],
                    "order": "asc",
                    "min": cp["cursor"],
                    "fromdate": lo,
                    "todate": hi,
                    "page": cp["page"],
                    "pagesize": params.page_size,
                    "filter": filter_id,
                }
                method = tag_method(cp["tag_index"])
                if cp["tag_index"] > 0:
                    query["nottagged"] = ";".join(params.tags[: cp["tag_index"]])
                where, page_ids = client.describe(method, dict(query, site=params.site)), []
                try:
                    page = client.call(method, query)
                except ApiError as exc:
                    if refreshed or exc.error_name != "bad_parameter" or exc.detail != "filter":
                        raise
                    log.warning("the API rejected the cached filter %s; creating a new one", filter_id)
                    filter_id, refreshed = get_filter(store, client, refresh=True), True
                    continue
                page_ids = [it.get("question_id") for it in page.items if isinstance(it, dict)]
                rows = page_rows(_unseen(cp, page.items), params.site, where)
                cp = _advance(cp, page, rows)
                result.questions += len(rows.questions)
                with store.write() as s:
                    result.changed += upsert_questions(s, rows.questions, "api")
                    upsert_answers(s, rows.answers, "api")
                    upsert_comments(s, rows.comments, "api")
                    r = s.get(AcquisitionRun, run.id)
                    r.checkpoint = dict(cp)
                    r.items = (r.items or 0) + len(rows.questions)
                    r.requests = requests_so_far()
                    r.quota_remaining = client.quota_remaining
                    r.updated_at = utcnow()
                    lock.heartbeat(s)
                bar.set(text=f"scrape {tag}: {result.questions} questions, {requests_so_far()} requests")
                if page.quota_remaining == 0 and cp["tag_index"] < len(params.tags):
                    raise QuotaExhausted(f"quota_remaining reached 0 after {where}")
    except QuotaExhausted as exc:
        msg = record_stop(
            store, run.id, exc, log, requests=requests_so_far(), quota_remaining=client.quota_remaining
        )
        result.status, result.message = "quota", msg
        return _finish(result, client, requests_so_far())
    except KeyboardInterrupt:
        mark(store, run.id, "interrupted", "interrupted", requests=requests_so_far())
        raise
    except Exception as exc:  # noqa: BLE001 - whatever breaks, the run ends failed with a one-line reason
        text = client.scrub(_failure_text(exc, where, page_ids))
        text = record_failure(
            store, run.id, exc, text, log, requests=requests_so_far(), quota_remaining=client.quota_remaining
        )
        if isinstance(exc, Unreachable):
            raise PPMinerError(f"{text}: check the network (or --api-url), then rerun to resume") from None
        raise PPMinerError(f"scrape run {run.id} failed (rerun the same command to resume): {text}") from None

    high_water = _high_water(cp, started_at)
    mark(
        store,
        run.id,
        "done",
        None,
        high_water=high_water,
        requests=requests_so_far(),
        quota_remaining=client.quota_remaining,
    )
    result.status, result.high_water = "done", high_water
    _finish(result, client, requests_so_far())
    log.info(result.summary())
    return result


def _failure_text(exc: BaseException, where: str, page_ids: list) -> str:
    """One line saying what failed: our own errors name their place already; anything else gets the page and
    the question ids it carried."""
    if isinstance(exc, PPMinerError):
        return _first_line(exc)
    ids = [i for i in page_ids if isinstance(i, int)]
    if len(ids) == 1:
        on = f" (question {ids[0]})"
    elif ids:
        on = f" ({len(ids)} questions, ids {min(ids)}..{max(ids)})"
    else:
        on = ""
    detail = type(exc).__name__
    if str(exc).strip():
        detail += f": {_first_line(exc)}"
    return f"{where}{on}: {detail}"


def _finish(result: ScrapeResult, client: ApiClient, requests: int) -> ScrapeResult:
    result.requests = requests
    result.quota_remaining = client.quota_remaining
    return result


def _sort_key(cp: dict[str, Any]) -> str:
    return "last_activity_date" if cp["sort"] == "activity" else "creation_date"


def _unseen(cp: dict[str, Any], items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``items`` without the ones the previous page already gave at the cursor value (``min`` is inclusive)."""
    seen = set(cp.get("seen_at_cursor") or ())
    if not seen or cp["cursor"] is None:
        return items
    key = _sort_key(cp)
    return [it for it in items if not (it.get("question_id") in seen and it.get(key) == cp["cursor"])]


def _advance(cp: dict[str, Any], page, rows) -> dict[str, Any]:
    """The checkpoint after ``page``: move the cursor, or the page number while the cursor cannot move."""
    cp = dict(cp)
    key = _sort_key(cp)
    keyed = [(int(it[key]), it.get("question_id")) for it in page.items if it.get(key) is not None]
    if rows.max_activity is not None:
        seen = _unix(rows.max_activity)
        cp["max_activity"] = max(cp["max_activity"] or seen, seen)
    if not page.has_more or not keyed:
        if page.has_more:  # no sortable item on a page that claims more: step on by page number
            cp["page"] += 1
        else:
            cp.update(tag_index=cp["tag_index"] + 1, cursor=cp["base_cursor"], page=1, seen_at_cursor=[])
        return cp
    top = max(k for k, _ in keyed)
    at_top = sorted({qid for k, qid in keyed if k == top})
    if cp["cursor"] is not None and top == cp["cursor"]:
        # A whole page at the cursor value: the cursor cannot move, so the page number does.
        cp.update(
            page=cp["page"] + 1, seen_at_cursor=sorted(set(cp.get("seen_at_cursor") or ()) | set(at_top))
        )
    elif len(at_top) == len(keyed):
        # Every item of this first page shares one value: ``min=top`` page 1 is this very page.
        cp.update(cursor=top, page=2, seen_at_cursor=at_top)
    else:
        cp.update(cursor=top, page=1, seen_at_cursor=at_top)
    return cp


def _high_water(cp: dict[str, Any], started_at: datetime) -> datetime | None:
    """Where the next --since-last run starts: the newest activity seen, but never after start - margin."""
    if cp.get("max_activity") is None:
        base = cp.get("base_cursor")
        return datetime.fromtimestamp(base, UTC).replace(tzinfo=None) if base is not None else None
    seen = datetime.fromtimestamp(cp["max_activity"], UTC).replace(tzinfo=None)
    return min(seen, started_at - HIGH_WATER_MARGIN)


__all__ = ["ScrapeParams", "ScrapeResult", "scrape", "get_filter", "ApiError"]
