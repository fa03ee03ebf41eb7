"""GitHub REST API client: one ``requests.Session``, Link-header paging and GitHub's documented rate-limit rules.

The rules, in the order a request meets them (docs.github.com, "Rate limits for the REST API"):

- no request before the time the API last named: ``x-ratelimit-reset`` once ``x-ratelimit-remaining`` is 0
  (primary limit), or ``retry-after`` seconds after a 403/429 that carries it (secondary limit);
- a 403/429 without ``retry-after``: at ``x-ratelimit-reset`` if ``x-ratelimit-remaining`` is 0, else after at least
  a minute, doubling with each further one (secondary limit without a hint);
- 5xx, dropped connections, timeouts and cut-short bodies: retried with capped exponential backoff;
- but while the API has never answered (offline, a wrong ``--api-url``), only ``unreachable_retries`` quick
  retries, then :class:`GitHubError` "cannot reach the API";
- a wait longer than ``max_rate_wait`` raises :class:`RateLimited` (the run stops resumable, exit status 3).

The token goes in the ``Authorization`` header only, never in a URL; every message passes :meth:`scrub`. A
``next`` link that leaves the API root is refused, so the token is never sent elsewhere.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import requests

from core.errors import PPMinerError
from mining.fetching import SessionClient, capped_backoff, first_line, root_cause, short_cause
from mining.github_config import DEFAULT_API_URL

log = logging.getLogger("ppminer.github")

API_VERSION = "2022-11-28"
USER_AGENT = "ppminer/0.1 (research scraper)"
UNAUTHENTICATED_LIMIT = 60  # requests an hour per IP address without a token
TOKEN_LIMIT = 5000  # requests an hour with a personal access token
SECONDARY_MIN_WAIT = 60.0  # GitHub: without retry-after, wait at least a minute


class GitHubError(PPMinerError):
    """The API answered with an error, or never answered usefully."""


class RateLimited(GitHubError):
    """The API asks for a longer wait than this run may spend: stop, resumable."""


@dataclass
class Page:
    """One page of a list endpoint: its items and the ``next`` link (None on the last page)."""

    items: list[Any]
    next_url: str | None


class GitHubClient(SessionClient):
    """A polite client for one API root. One per job; not thread-safe."""

    def __init__(
        self,
        api_url: str = DEFAULT_API_URL,
        *,
        token: str | None = None,
        timeout: float = 60.0,
        connect_timeout: float = 10.0,
        max_retries: int = 6,
        unreachable_retries: int = 2,
        retry_base: float = 1.0,
        retry_cap: float = 60.0,
        secondary_min_wait: float = SECONDARY_MIN_WAIT,
        max_rate_wait: float = 3700.0,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.api_url = api_url.rstrip("/")
        self.secret = token or None  # the token: only ever in the Authorization header
        self.timeout = (connect_timeout, timeout)
        self.max_retries = max_retries
        self.unreachable_retries = unreachable_retries
        self.reached = False  # the API has answered at least once (then connection failures get full retries)
        self.retry_base, self.retry_cap = retry_base, retry_cap
        self.secondary_min_wait = secondary_min_wait
        self.max_rate_wait = max_rate_wait
        self._clock, self._sleep = clock, sleep
        self.not_before = 0.0  # epoch seconds: no request before this
        self._secondary_waits = 0  # secondary limits without retry-after so far: each doubles the next wait
        self.requests = 0
        self.remaining: int | None = None
        self.limit: int | None = None
        self.session = requests.Session()
        self.session.headers.update(
            {
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": API_VERSION,
                "User-Agent": USER_AGENT,
            }
        )
        if self.secret:
            self.session.headers["Authorization"] = f"Bearer {self.secret}"

    @property
    def authenticated(self) -> bool:
        return self.secret is not None

    def url(self, path: str, params: dict[str, Any] | None = None) -> str:
        """The URL of ``path`` under the API root with ``params`` (None values left out)."""
        shown = {k: v for k, v in (params or {}).items() if v is not None}
        return f"{self.api_url}{path}" + (f"?{urlencode(shown)}" if shown else "")

    # -- waiting ---------------------------------------------------------------------------------------------

    def _wait_until(self, moment: float) -> None:
        """Sleep until the clock reads ``moment`` (sleep may wake early: check again)."""
        while (left := moment - self._clock()) > 0:
            self._sleep(left)

    def _hold(self, until: float, why: str) -> None:
        """No request before ``until``."""
        wait = until - self._clock()
        if wait > 0:
            log.warning("%s; waiting %.0f s", why, wait)
        self.not_before = max(self.not_before, until)

    def _wait_for_turn(self) -> None:
        """Sleep until the next request may go; a wait beyond ``max_rate_wait`` stops the run instead."""
        wait = self.not_before - self._clock()
        if wait > self.max_rate_wait:
            raise RateLimited(f"the API asks for a wait of {wait:.0f} s")
        self._wait_until(self.not_before)

    def _read_limits(self, resp: requests.Response) -> None:
        headers = resp.headers
        try:
            if "x-ratelimit-remaining" in headers:
                self.remaining = int(headers["x-ratelimit-remaining"])
            if "x-ratelimit-limit" in headers:
                self.limit = int(headers["x-ratelimit-limit"])
        except ValueError:
            return
        if self.remaining == 0 and resp.status_code < 400:
            self._hold(self._reset_time(resp), "primary rate limit used up")

    def _reset_time(self, resp: requests.Response) -> float:
        try:
            return float(resp.headers["x-ratelimit-reset"])
        except (KeyError, ValueError):
            return self._clock() + self.secondary_min_wait

    # -- requests --------------------------------------------------------------------------------------------

    def page(self, url: str) -> Page:
        """GET one page of a list endpoint (``url`` from :meth:`url` or a ``next`` link); retried as documented."""
        if not url.startswith(self.api_url + "/"):
            raise GitHubError(f"refusing to follow {self.scrub(url)}: it is not under {self.api_url}")
        attempt = limited = 0
        while True:
            self._wait_for_turn()
            self.requests += 1
            outcome = self._attempt(url)
            if isinstance(outcome, Page):
                self._secondary_waits = 0
                return outcome
            kind, detail = outcome
            if kind == "limited":
                limited += 1
                if limited > self.max_retries * 4:
                    raise GitHubError(
                        f"{self.scrub(url)}: still rate limited after {limited} waits: {detail}"
                    )
                continue
            if kind == "unreachable" and not self.reached and attempt >= self.unreachable_retries:
                raise GitHubError(
                    f"cannot reach the API at {self.api_url} ({detail}): check the network or --api-url"
                )
            if attempt >= self.max_retries:
                raise GitHubError(f"{self.scrub(url)}: giving up after {attempt + 1} attempts: {detail}")
            delay = capped_backoff(attempt, self.retry_base, self.retry_cap)
            attempt += 1
            log.warning("%s; retry %d/%d in %.2f s", detail, attempt, self.max_retries, delay)
            self._hold(self._clock() + delay, detail)

    def _attempt(self, url: str):
        """One request: a Page, or ``(kind, detail)`` for what went wrong and may be retried."""
        try:
            resp = self.session.get(url, timeout=self.timeout)
            body = resp.content
        except requests.ConnectTimeout:
            return ("unreachable", "connection timed out")
        except requests.Timeout:
            return ("retry", "timed out")
        except requests.RequestException as exc:  # refused, reset, dropped mid-body, broken chunking ...
            return ("unreachable", f"connection failed: {short_cause(self.scrub(root_cause(exc)))}")
        self.reached = True
        self._read_limits(resp)
        status = resp.status_code
        if status in (403, 429) and self._is_rate_limit(resp):
            self._secondary_or_primary(resp)
            return ("limited", f"HTTP {status} rate limited")
        if status >= 500:
            return ("retry", f"HTTP {status}")
        if status >= 400:
            raise GitHubError(f"{self.scrub(url)}: HTTP {status}: {self._message(body)}")
        try:
            items = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            return (
                "retry",
                f"HTTP {status}: invalid JSON ({self.scrub(first_line(exc))})",
            )  # a body cut short
        if not isinstance(items, list):
            raise GitHubError(f"{self.scrub(url)}: expected a JSON list, got {type(items).__name__}")
        return Page(items, (resp.links.get("next") or {}).get("url"))

    def _is_rate_limit(self, resp: requests.Response) -> bool:
        """A 403/429 is a rate limit when it says so: retry-after, remaining 0, or the documented message."""
        if "retry-after" in resp.headers or resp.headers.get("x-ratelimit-remaining") == "0":
            return True
        return "rate limit" in self._message(resp.content).lower()

    def _secondary_or_primary(self, resp: requests.Response) -> None:
        """Set the earliest time of the next request after a rate-limit answer, as GitHub documents it."""
        now = self._clock()
        try:
            retry_after = float(resp.headers["retry-after"])
        except (KeyError, ValueError):
            retry_after = None
        if retry_after is not None:
            self._hold(now + retry_after, f"secondary rate limit (retry-after {retry_after:.0f} s)")
        elif resp.headers.get("x-ratelimit-remaining") == "0":
            self._hold(self._reset_time(resp), "primary rate limit used up")
        else:
            self._secondary_waits += 1
            wait = min(
                self.secondary_min_wait * 2 ** (self._secondary_waits - 1), 16 * self.secondary_min_wait
            )
            self._hold(now + wait, "secondary rate limit")

    def _message(self, body: bytes) -> str:
        try:
            payload = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError):
            return "no JSON body"
        text = payload.get("message") if isinstance(payload, dict) else None
        return self.scrub(str(text or "no message").splitlines()[0])
