"""The GitHub scrape job: a repository's issues, then its issue comments, one transaction per page with its
checkpoint, resumable after ``kill -9`` by running the same command again.

Two list endpoints, never a request per issue: ``/repos/{o}/{r}/issues?state=all`` (issues and pull requests; the
latter have a ``pull_request`` key and are skipped) and the repository-wide ``/repos/{o}/{r}/issues/comments``
(comments on both; those of issues not stored are skipped). Paging follows the ``Link`` header; the checkpoint keeps
the ``next`` link, so a resumed run asks exactly where the dead one stopped.

Orders are chosen so that posts moving while we page are seen twice rather than skipped:

- a full run sorts by creation, ascending, with ``since`` = the window's first day (an issue created inside the
  window was updated inside it too); new posts join the end, and the issue list stops at the first issue created
  after the window;
- ``--since-last`` sorts by update, newest first, with ``since`` = the high-water mark of the last finished run of
  the same repository, API and window; a post updated meanwhile jumps to the front, and the next run sees it.

The high-water mark is the run's start less a margin: whatever changed after it comes back next time.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

import sqlalchemy as sa

from core.db import Store
from core.errors import PPMinerError
from core.progress import progress
from core.schema.mining import AcquisitionRun, Question
from core.sites import GITHUB_HOST
from mining.fetching import first_line
from mining.github.client import (
    DEFAULT_API_URL,
    TOKEN_LIMIT,
    UNAUTHENTICATED_LIMIT,
    GitHubClient,
    RateLimited,
)
from mining.github.items import (
    comment_issue_number,
    comment_row,
    from_iso,
    is_pull_request,
    issue_row,
    rows_of,
    to_iso,
)
from mining.joblock import Lock
from mining.runs import (
    close_dead_runs,
    find_resumable,
    last_high_water,
    mark,
    new_run,
    record_failure,
    record_stop,
    scrape_parts,
    window_covers,
)
from mining.store import upsert_answers, upsert_questions, utcnow

log = logging.getLogger("ppminer.github")

KIND = "github"
HIGH_WATER_MARGIN = timedelta(minutes=10)
COUNTS = ("issues", "pull_requests", "outside_window", "comments", "other_comments")


@dataclass(frozen=True)
class GitHubParams:
    """What a GitHub scrape asks for. Two runs with equal params are the same job: the later resumes the earlier."""

    repo: str  # owner/repo, lower case
    api_url: str = DEFAULT_API_URL
    date_from: date | None = None
    date_to: date | None = None
    since_last: bool = False
    page_size: int = 100

    @property
    def site(self) -> str:
        return f"{GITHUB_HOST}/{self.repo}"

    def as_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["date_from"] = self.date_from.isoformat() if self.date_from else None
        d["date_to"] = self.date_to.isoformat() if self.date_to else None
        return d

    def window(self) -> tuple[datetime | None, datetime | None]:
        """The creation window as [start, end) in naive UTC."""
        lo = datetime.combine(self.date_from, time()) if self.date_from else None
        hi = datetime.combine(self.date_to + timedelta(days=1), time()) if self.date_to else None
        return lo, hi


@dataclass
class GitHubResult:
    run_id: int
    status: str
    repo: str
    counts: dict[str, int]
    changed: int = 0
    requests: int = 0
    remaining: int | None = None
    authenticated: bool = False
    high_water: datetime | None = None
    resumed: bool = False
    mode: str = "full"
    message: str | None = None

    def summary(self) -> str:
        c = self.counts
        parts = [
            f"github {self.repo} run {self.run_id} {self.status}",
            f"{c['issues']} issues, {c['comments']} comments ({self.changed} new or updated issues)",
            f"{c['pull_requests']} pull requests skipped",
            f"{self.requests} requests",
            f"rate limit left {self.remaining if self.remaining is not None else '?'}",
            f"mode {self.mode}{' (resumed)' if self.resumed else ''}",
        ]
        if not self.authenticated:
            parts.append(f"no GITHUB_TOKEN: {UNAUTHENTICATED_LIMIT} requests/hour, not {TOKEN_LIMIT}")
        if self.message and self.status != "done":
            parts.append(self.message)
        return "; ".join(parts)


def covers(earlier: dict[str, Any], params: GitHubParams) -> bool:
    """Whether a finished run with ``earlier`` params fetched everything ``params`` asks for (up to its mark)."""
    if earlier.get("repo") != params.repo:
        return False
    if (earlier.get("api_url") or "").rstrip("/") != params.api_url.rstrip("/"):
        return False
    return window_covers(earlier, params.date_from, params.date_to)


def _new_checkpoint(store: Store, params: GitHubParams) -> dict[str, Any]:
    base = last_high_water(store, KIND, lambda e: covers(e, params)) if params.since_last else None
    lo, _ = params.window()
    since = base if base is not None else lo
    return {
        "mode": "incremental" if base is not None else "full",
        "since": to_iso(since) if since is not None else None,
        "phase": "issues",
        "next": None,
        "counts": dict.fromkeys(COUNTS, 0),
    }


def _first_url(client: GitHubClient, params: GitHubParams, cp: dict[str, Any]) -> str:
    """The first page of the current phase (later pages come from the Link header)."""
    incremental = cp["mode"] == "incremental"
    order = (
        {"sort": "updated", "direction": "desc"} if incremental else {"sort": "created", "direction": "asc"}
    )
    query = {**order, "since": cp["since"], "per_page": params.page_size}
    if cp["phase"] == "issues":
        return client.url(f"/repos/{params.repo}/issues", {"state": "all", **query})
    return client.url(f"/repos/{params.repo}/issues/comments", query)


def scrape_github(
    store: Store,
    params: GitHubParams,
    *,
    token: str | None = None,
    client: GitHubClient | None = None,
    lock: Lock | None = None,
    restart: bool = False,
    show_progress: bool = False,
    max_requests: int | None = None,
) -> GitHubResult:
    """Run (or resume) one repository's scrape. Takes the scrape lock unless the caller holds ``lock``.

    Returns the result for status done, or quota (a rate-limit wait beyond the client's limit, or ``max_requests``
    spent: resumable); raises PPMinerError after recording status failed.
    """

    def make_client() -> GitHubClient:
        return GitHubClient(params.api_url, token=token)

    with scrape_parts(store, lock, client, make_client) as (lock, client):
        return _scrape_locked(store, params, client, lock, restart, show_progress, max_requests)


def _scrape_locked(store, params, client, lock, restart, show_progress, max_requests) -> GitHubResult:
    # Only a run of this repository is resumed here (another repository's may have run since).
    def same_repo(earlier: dict[str, Any]) -> bool:
        return earlier.get("repo") == params.repo

    run = None if restart else find_resumable(store, KIND, params.as_json(), same_repo)
    close_dead_runs(store, KIND, run.id if run is not None else None)
    resumed = run is not None
    if run is None:
        run = new_run(store, KIND, params.as_json(), _new_checkpoint(store, params))
    elif run.status != "running":
        mark(store, run.id, "running")
    cp = dict(run.checkpoint)
    result = GitHubResult(
        run_id=run.id,
        status="running",
        repo=params.repo,
        counts=dict(cp["counts"]),
        resumed=resumed,
        mode=cp["mode"],
        authenticated=client.authenticated,
    )
    if not client.authenticated:
        log.warning("no GITHUB_TOKEN: GitHub allows %d requests an hour without one", UNAUTHENTICATED_LIMIT)
    job = _Job(store, params, client, lock, run.id, run.requests or 0, client.requests)
    where = f"{params.site} ({cp['phase']})"

    try:
        with progress("scrape-github", enabled=show_progress) as bar:
            while cp["phase"] != "done":
                if max_requests is not None and client.requests - job.start_requests >= max_requests:
                    raise RateLimited(f"the budget of {max_requests} requests for this run is spent")
                url = cp["next"] or _first_url(client, params, cp)
                where = client.scrub(url)
                page = client.page(url)
                cp, changed = job.store_page(cp, page, where)
                result.changed += changed
                result.counts = dict(cp["counts"])
                c = cp["counts"]
                bar.set(text=f"{params.repo}: {c['issues']} issues, {c['comments']} comments")
    except RateLimited as exc:
        msg = record_stop(store, run.id, exc, log, requests=job.requests(), quota_remaining=client.remaining)
        result.status, result.message = "quota", msg
        return _finish(result, client, job.requests())
    except KeyboardInterrupt:
        mark(store, run.id, "interrupted", "interrupted", requests=job.requests())
        raise
    except Exception as exc:  # noqa: BLE001 - whatever breaks, the run ends failed with a one-line reason
        text = client.scrub(
            first_line(exc) if isinstance(exc, PPMinerError) else f"{where}: {first_line(exc)}"
        )
        text = record_failure(
            store, run.id, exc, text, log, requests=job.requests(), quota_remaining=client.remaining
        )
        raise PPMinerError(f"github run {run.id} failed (rerun the same command to resume): {text}") from None
    high_water = run.started_at - HIGH_WATER_MARGIN
    mark(
        store,
        run.id,
        "done",
        None,
        high_water=high_water,
        requests=job.requests(),
        quota_remaining=client.remaining,
    )
    result.status, result.high_water = "done", high_water
    _finish(result, client, job.requests())
    log.info(result.summary())
    return result


def _finish(result: GitHubResult, client: GitHubClient, requests: int) -> GitHubResult:
    result.requests, result.remaining = requests, client.remaining
    return result


@dataclass
class _Job:
    """One invocation's working parts: where pages are written and how many requests the run has made."""

    store: Store
    params: GitHubParams
    client: GitHubClient
    lock: Lock
    run_id: int
    base_requests: int  # made by the run before this invocation (a resumed run)
    start_requests: int  # the client's count when this invocation began

    def requests(self) -> int:
        return self.base_requests + self.client.requests - self.start_requests

    def store_page(self, cp: dict[str, Any], page, where: str) -> tuple[dict[str, Any], int]:
        """Write one page's rows and the checkpoint after it in one transaction; return (checkpoint, issues
        changed)."""
        params = self.params
        cp = {**cp, "counts": dict(cp["counts"])}
        counts, changed, next_url = cp["counts"], 0, page.next_url
        with self.store.write() as s:
            if cp["phase"] == "issues":
                keep, past_window = _issues_in_window(page.items, params, cp, counts)
                rows = rows_of(keep, params.site, issue_row, where)
                changed = upsert_questions(s, rows, "api")
                counts["issues"] += len(rows)
                if past_window:
                    next_url = None  # sorted by creation: every later issue is after the window too
            else:
                rows = rows_of(page.items, params.site, comment_row, where)
                stored = _stored_issues(s, params.site, {r["question_id"] for r in rows})
                kept = [r for r in rows if r["question_id"] in stored]
                upsert_answers(s, kept, "api")
                counts["comments"] += len(kept)
                counts["other_comments"] += len(rows) - len(kept)
            cp["next"] = next_url
            if next_url is None:
                cp["phase"] = "comments" if cp["phase"] == "issues" else "done"
            r = s.get(AcquisitionRun, self.run_id)
            r.checkpoint = dict(cp)
            r.items = counts["issues"] + counts["comments"]
            r.requests = self.requests()
            r.quota_remaining = self.client.remaining
            r.updated_at = utcnow()
            self.lock.heartbeat(s)
        return cp, changed


def _issues_in_window(items, params, cp, counts) -> tuple[list[dict[str, Any]], bool]:
    """The page's issues created inside the window (pull requests counted and dropped), and whether the page
    went past the window's end (only meaningful in creation order)."""
    lo, hi = params.window()
    keep, past = [], False
    for item in items:
        if isinstance(item, dict) and is_pull_request(item):
            counts["pull_requests"] += 1
            continue
        created = from_iso(item.get("created_at")) if isinstance(item, dict) else None
        if created is not None and ((lo is not None and created < lo) or (hi is not None and created >= hi)):
            counts["outside_window"] += 1
            past = past or (hi is not None and created >= hi and cp["mode"] == "full")
            continue
        keep.append(item)
    return keep, past


def _stored_issues(session, site: str, numbers: set[int]) -> set[int]:
    if not numbers:
        return set()
    found = session.scalars(
        sa.select(Question.id).where(Question.site == site, Question.id.in_(sorted(numbers)))
    )
    return set(found)


__all__ = ["GitHubParams", "GitHubResult", "scrape_github", "comment_issue_number"]
