"""The fake GitHub API: a ThreadingHTTPServer in a background thread with a request log, a fault queue and GitHub's
primary and secondary rate limits. It records every request that arrives before a time it named (``early``)."""

from __future__ import annotations

import json
import math
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from local_http import serve, shut

from .data import TOKEN

DOCS = "https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api"


@dataclass
class Fault:
    """Instead of the next list answer: ``status`` (HTTP ``value``, an HTML body, as a proxy sends), ``drop``
    (close the connection unanswered), ``secondary`` (403 with ``retry-after: value``), ``secondary_429``
    (the same as a 429)."""

    kind: str
    value: Any = None


@dataclass
class Seen:
    at: float  # time.time() when it arrived
    path: str
    params: dict[str, str]
    authorization: str | None


@dataclass
class FakeGitHub:
    repo: str
    issues: list[dict[str, Any]]
    comments: list[dict[str, Any]]
    limit: int = 5000  # primary limit per window (60 without a token)
    window: float = 3600.0  # seconds until the primary limit resets
    faults: deque = field(default_factory=deque)
    log: list[Seen] = field(default_factory=list)
    early: list[Seen] = field(default_factory=list)  # requests sent before a reset or retry-after it answered
    hold_after: int | None = None  # list requests beyond this many wait until release()

    def __post_init__(self) -> None:
        self.remaining = self.limit
        self.reset = math.ceil(time.time() + self.window)
        self.not_before = 0.0
        self._lock = threading.Lock()
        self._released = threading.Event()
        self.holding = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None

    def start(self) -> FakeGitHub:
        self._httpd = serve(self._handle)
        return self

    def stop(self) -> None:
        self._released.set()
        shut(self._httpd)

    def __enter__(self) -> FakeGitHub:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def release(self) -> None:
        self.hold_after = None
        self._released.set()

    def exhaust(self, reset_in: float) -> None:
        """Use up the primary limit; it resets ``reset_in`` seconds from now (rounded up to a whole second)."""
        with self._lock:
            self.remaining = 0
            self.reset = math.ceil(time.time() + reset_in)

    # -- responses -------------------------------------------------------------------------------------------

    def _send(self, h, status: int, payload: Any, headers: dict[str, str], raw: bytes | None = None) -> None:
        body = raw if raw is not None else json.dumps(payload).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json; charset=utf-8")
        h.send_header("Content-Length", str(len(body)))
        for k, v in headers.items():
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(body)

    def _limit_headers(self) -> dict[str, str]:
        return {
            "x-ratelimit-limit": str(self.limit),
            "x-ratelimit-remaining": str(self.remaining),
            "x-ratelimit-used": str(self.limit - self.remaining),
            "x-ratelimit-reset": str(self.reset),
            "x-ratelimit-resource": "core",
        }

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(h.path)
        params = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        now = time.time()
        seen = Seen(now, parts.path, params, h.headers.get("Authorization"))
        with self._lock:
            self.log.append(seen)
            if now < self.not_before:
                self.early.append(seen)
            if now >= self.reset:
                self.remaining, self.reset = self.limit, math.ceil(now + self.window)
            fault = self.faults.popleft() if self.faults else None
            hold = self.hold_after is not None and len(self.log) > self.hold_after
            limited = self.remaining == 0
            if not limited:
                self.remaining -= 1
            headers = self._limit_headers()
            # What this answer tells the client: nothing before the reset once none remain, or retry-after.
            if self.remaining == 0:
                self.not_before = max(self.not_before, self.reset)
            if fault is not None and fault.kind.startswith("secondary"):
                self.not_before = max(self.not_before, now + fault.value)
        if hold:
            self.holding.set()
            self._released.wait(60)
        auth = seen.authorization
        if auth is not None and auth != f"Bearer {TOKEN}":
            return self._send(h, 401, {"message": "Bad credentials", "documentation_url": DOCS}, {})
        if limited:
            msg = {"message": "API rate limit exceeded for user ID 1001.", "documentation_url": DOCS}
            return self._send(h, 403, msg, headers)
        if fault is not None:
            if fault.kind == "status":
                return self._send(h, fault.value, None, {}, raw=b"<html><body>502 Bad Gateway</body></html>")
            if fault.kind == "drop":
                h.close_connection = True
                h.connection.shutdown(socket.SHUT_RDWR)
                return None
            if fault.kind.startswith("secondary"):
                msg = {"message": "You have exceeded a secondary rate limit.", "documentation_url": DOCS}
                status = 429 if fault.kind == "secondary_429" else 403
                return self._send(h, status, msg, {**headers, "retry-after": str(fault.value)})
        base = f"/repos/{self.repo}"
        if parts.path == f"{base}/issues":
            return self._list(h, parts.path, params, self._issues(params), headers)
        if parts.path == f"{base}/issues/comments":
            return self._list(h, parts.path, params, self._comments(params), headers)
        return self._send(h, 404, {"message": "Not Found", "documentation_url": DOCS}, headers)

    def _issues(self, params: dict[str, str]) -> list[dict[str, Any]]:
        state = params.get("state", "open")
        items = [i for i in self.issues if state == "all" or i["state"] == state]
        return _ordered(items, params, default_sort="created", default_direction="desc")

    def _comments(self, params: dict[str, str]) -> list[dict[str, Any]]:
        if "sort" not in params:  # documented: ascending ID, and direction ignored without sort
            return _since(sorted(self.comments, key=lambda c: c["id"]), params)
        return _ordered(self.comments, params, default_sort="created", default_direction="desc")

    def _list(self, h, path: str, params: dict[str, str], items: list, headers: dict[str, str]) -> None:
        per_page = min(int(params.get("per_page", 30)), 100)
        page = int(params.get("page", 1))
        last = max(1, math.ceil(len(items) / per_page))
        chunk = items[(page - 1) * per_page : page * per_page]
        links = []

        def link(n: int, rel: str) -> str:
            query = urlencode({**params, "page": n})
            return f'<{self.url}{path}?{query}>; rel="{rel}"'

        if page < last:
            links += [link(page + 1, "next"), link(last, "last")]
        if page > 1:
            links += [link(1, "first"), link(page - 1, "prev")]
        extra = {"Link": ", ".join(links)} if links else {}
        self._send(h, 200, chunk, {**headers, **extra})


def _time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _since(items: list[dict[str, Any]], params: dict[str, str]) -> list[dict[str, Any]]:
    if "since" not in params:
        return items
    since = _time(params["since"])
    return [i for i in items if _time(i["updated_at"]) >= since]


def _ordered(items, params, *, default_sort: str, default_direction: str) -> list[dict[str, Any]]:
    sort = params.get("sort", default_sort)
    key = {"created": "created_at", "updated": "updated_at", "comments": "comments"}[sort]
    desc = params.get("direction", default_direction) == "desc"
    ordered = sorted(items, key=lambda i: (i[key], i.get("number", i["id"])), reverse=desc)
    return _since(ordered, params)
