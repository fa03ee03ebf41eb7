"""Stack Exchange API 2.3 client: one gzip ``requests.Session``, filter creation, paging and the politeness policy.

Policy, in the order a request meets it:

- at most ``max_rps`` requests per second (the API's own limit is 30);
- no request to a method (``/questions``) before the ``backoff`` the API last gave for it has elapsed;
- HTTP 400 with ``error_id`` 502 (throttle_violation): wait the seconds its message names, then retry; a wait
  longer than ``max_throttle_wait`` means the daily quota is gone and raises :class:`QuotaExhausted`;
- HTTP 5xx, dropped connections, timeouts and unparsable bodies: retry with capped exponential backoff;
- but while the API has never answered (no network, a wrong host, a refused or timed-out connect), only
  ``unreachable_retries`` quick retries: an offline run says :class:`Unreachable` within seconds, not after a
  minute of backoff meant for a connection that drops in the middle of a long scrape;
- any other error payload raises :class:`ApiError` at once.

Messages name the request by its method and the parameters that tell requests apart (``filter``, ``include`` and
the key are left out: long, constant or secret).

The key never leaves this module in readable form: every message and log line goes through :meth:`ApiClient.scrub`.
No database code here.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import requests

from core.errors import PPMinerError
from mining.fetching import SessionClient, capped_backoff
from mining.fetching import first_line as _first_line
from mining.fetching import root_cause as _root_cause
from mining.fetching import short_cause as _short_cause

log = logging.getLogger("ppminer.seapi")

DEFAULT_API_URL = "https://api.stackexchange.com/2.3"
USER_AGENT = "ppminer/0.1 (+https://github.com/; research scraper)"
THROTTLE_ERROR_ID = 502
_SECONDS = re.compile(r"(\d+)\s*seconds?")
# Request parameters left out of messages: long and the same on every request, or secret.
_UNSHOWN = frozenset({"key", "filter", "include", "base", "unsafe"})


class ApiError(PPMinerError):
    """The API answered with an error payload (or never answered usefully)."""

    def __init__(
        self, message: str, *, error_id: int | None = None, error_name: str | None = None, detail: str = ""
    ):
        super().__init__(message)
        self.error_id = error_id
        self.error_name = error_name
        self.detail = detail  # the API's own error_message


class Unreachable(ApiError):
    """No answer from the API root at all (name resolution, refused or timed-out connect) before any response."""


class QuotaExhausted(ApiError):
    """The daily quota is used up (quota_remaining reached 0, or the API asks for a very long wait)."""


@dataclass
class Page:
    """One response of a list method: the wrapper fields we use plus the items as the API sent them."""

    items: list[dict[str, Any]]
    has_more: bool
    quota_remaining: int | None
    quota_max: int | None
    backoff: float | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


def parse_wrapper(payload: Any, where: str) -> Page:
    """Read the common wrapper of an API response; raise ApiError for an error payload or a wrong shape."""
    if not isinstance(payload, dict):
        raise ApiError(f"{where}: expected a JSON object, got {type(payload).__name__}")
    if "error_id" in payload:
        eid = payload.get("error_id")
        name = payload.get("error_name") or "error"
        msg = payload.get("error_message") or payload.get("description") or ""
        text = f"{where}: API error {eid} {name}: {msg}".rstrip(": ")
        raise ApiError(text, error_id=eid, error_name=name, detail=str(msg))
    items = payload.get("items")
    if not isinstance(items, list):
        raise ApiError(f"{where}: response has no 'items' list")
    backoff = payload.get("backoff")
    return Page(
        items=items,
        has_more=bool(payload.get("has_more", False)),
        quota_remaining=payload.get("quota_remaining"),
        quota_max=payload.get("quota_max"),
        backoff=float(backoff) if backoff is not None else None,
        raw=payload,
    )


class ApiClient(SessionClient):
    """A polite client for one API root. Not thread-safe beyond the rate limiter; one per job."""

    def __init__(
        self,
        api_url: str = DEFAULT_API_URL,
        *,
        site: str = "stackoverflow",
        key: str | None = None,
        max_rps: float = 30.0,
        timeout: float = 60.0,
        connect_timeout: float = 10.0,
        max_retries: int = 6,
        unreachable_retries: int = 2,
        retry_base: float = 1.0,
        retry_cap: float = 60.0,
        max_throttle_wait: float = 600.0,
        sleep: Callable[[float], None] = time.sleep,
        on_wait: Callable[[float], None] | None = None,
    ):
        self.api_url = api_url.rstrip("/")
        self.site = site
        self.secret = key or None  # the API key
        # 5% slack keeps us under the limit as the server's clock sees it, whatever the network jitter.
        self.min_interval = 1.05 / max_rps if max_rps > 0 else 0.0
        self.timeout = (connect_timeout, timeout)
        self.max_retries = max_retries
        self.unreachable_retries = unreachable_retries
        self.reached = False  # the API has answered at least once (then connection failures get full retries)
        self.retry_base = retry_base
        self.retry_cap = retry_cap
        self.max_throttle_wait = max_throttle_wait
        self._sleep = sleep
        self._on_wait = on_wait
        self._lock = threading.Lock()
        self._last_request = 0.0
        self._backoff_until: dict[str, float] = {}
        self.requests = 0
        self.quota_remaining: int | None = None
        self.quota_max: int | None = None
        self.session = requests.Session()
        self.session.headers.update({"Accept-Encoding": "gzip", "User-Agent": USER_AGENT})

    # -- secrecy (scrub() comes with SessionClient) -----------------------------------------------------------

    def describe(self, method: str, params: dict[str, Any]) -> str:
        """The request as a URL without the key, for messages."""
        shown = {k: v for k, v in params.items() if k not in _UNSHOWN and v is not None}
        return f"{self.api_url}{method}" + (f"?{urlencode(shown)}" if shown else "")

    # -- waiting ---------------------------------------------------------------------------------------------

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            if self._on_wait:
                self._on_wait(seconds)
            self._sleep(seconds)

    def _pace(self, method: str) -> None:
        """Sleep until both the global rate limit and the method's backoff allow the next request."""
        with self._lock:
            now = time.monotonic()
            due = max(self._last_request + self.min_interval, self._backoff_until.get(method, 0.0))
            if due > now:
                self._wait(due - now)
            self._last_request = time.monotonic()

    def _retry_delay(self, attempt: int) -> float:
        return capped_backoff(attempt, self.retry_base, self.retry_cap)

    # -- requests --------------------------------------------------------------------------------------------

    def call(self, method: str, params: dict[str, Any] | None = None) -> Page:
        """GET ``method`` (e.g. ``/questions``) with ``params`` (site and key added); return the parsed page."""
        params = {k: v for k, v in (params or {}).items() if v is not None}
        params.setdefault("site", self.site)
        if method.startswith("/filters"):
            params.pop("site", None)
        if self.secret:
            params["key"] = self.secret
        where = self.describe(method, params)
        attempt = throttles = 0
        while True:
            self._pace(method)
            self.requests += 1
            problem = self._attempt(method, params, where)
            if isinstance(problem, Page):
                return problem
            kind, detail, wait = problem
            if kind == "unreachable":
                if self.reached:
                    kind = "retry"  # it answered before: a dropped network gets the full retry budget
                elif attempt >= min(self.unreachable_retries, self.max_retries):
                    raise Unreachable(f"cannot reach the API at {self.api_url} ({_short_cause(detail)})")
            if kind == "throttle":
                if wait > self.max_throttle_wait:
                    raise QuotaExhausted(
                        f"{where}: throttled for {wait:.0f} s (quota exhausted?): {detail}",
                        error_id=THROTTLE_ERROR_ID,
                        error_name="throttle_violation",
                    )
                throttles += 1
                if throttles > self.max_retries * 4:
                    raise ApiError(f"{where}: still throttled after {throttles} waits: {detail}")
                log.warning("throttled by the API; waiting %.1f s", wait)
                self._wait(wait)
                continue  # a throttle wait does not use up a retry
            if attempt >= self.max_retries:
                raise ApiError(f"{where}: giving up after {attempt + 1} attempts: {detail}")
            delay = self._retry_delay(attempt)
            attempt += 1
            log.warning("%s; retry %d/%d in %.2f s", detail, attempt, self.max_retries, delay)
            self._wait(delay)

    def _attempt(self, method: str, params: dict[str, Any], where: str):
        """One HTTP request: a Page, or ``(kind, detail, wait)`` describing what went wrong and can be retried."""
        try:
            resp = self.session.get(f"{self.api_url}{method}", params=params, timeout=self.timeout)
            body = resp.content
        except requests.ConnectTimeout:
            return ("unreachable", "connection timed out", 0.0)
        except requests.Timeout:
            return ("retry", "timed out", 0.0)
        except requests.ConnectionError as exc:  # cannot resolve, refused, reset, dropped ...
            cause = self.scrub(_root_cause(exc))
            return ("unreachable", f"connection failed: {cause}" if self.reached else cause, 0.0)
        except requests.RequestException as exc:  # broken gzip, too many redirects ...
            return ("retry", f"connection failed: {self.scrub(_root_cause(exc))}", 0.0)
        self.reached = True
        try:
            payload = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            if resp.status_code >= 500:
                return ("retry", f"HTTP {resp.status_code}", 0.0)
            pos = getattr(exc, "pos", None) if isinstance(exc, json.JSONDecodeError) else exc.start
            detail = f"HTTP {resp.status_code}: invalid JSON at byte {pos}: {self.scrub(_first_line(exc))}"
            if resp.status_code >= 400:  # not the API answering (wrong --api-url?): retrying will not help
                raise ApiError(f"{where}: {detail}") from None
            return ("retry", detail, 0.0)  # a 200 cut short
        if isinstance(payload, dict):
            backoff = payload.get("backoff")
            if isinstance(backoff, int | float) and backoff > 0:
                # No further request to this method until the backoff has elapsed.
                self._backoff_until[method] = time.monotonic() + float(backoff)
            if "quota_remaining" in payload:
                self.quota_remaining = payload.get("quota_remaining")
                self.quota_max = payload.get("quota_max", self.quota_max)
            if payload.get("error_id") == THROTTLE_ERROR_ID:
                msg = self.scrub(str(payload.get("error_message", "")))
                m = _SECONDS.search(msg)
                return ("throttle", msg, float(m.group(1)) if m else self.retry_cap)
        if resp.status_code >= 500:
            return ("retry", f"HTTP {resp.status_code}", 0.0)
        try:
            return parse_wrapper(payload, where)
        except ApiError as exc:
            text, detail = self.scrub(str(exc)), self.scrub(exc.detail)
            raise ApiError(text, error_id=exc.error_id, error_name=exc.error_name, detail=detail) from None

    # -- methods ---------------------------------------------------------------------------------------------

    def create_filter(self, include: Iterable[str], base: str = "default") -> str:
        """Create a filter adding ``include`` to ``base``; return its id (filters never expire)."""
        page = self.call("/filters/create", {"include": ";".join(include), "base": base, "unsafe": "false"})
        if not page.items or not page.items[0].get("filter"):
            raise ApiError(f"{self.api_url}/filters/create: no filter id in the response")
        return str(page.items[0]["filter"])

    def questions(self, params: dict[str, Any]) -> Page:
        """One page of ``/questions``."""
        return self.call("/questions", params)
