"""The fake API server: a ThreadingHTTPServer in a background thread, with a fault queue and a request log."""

from __future__ import annotations

import copy
import gzip
import json
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from local_http import serve, shut

THROTTLE_MSG = "too many requests from this IP, more requests available in {} seconds"


@dataclass
class Fault:
    """What to do instead of (or besides) a normal answer to one ``/questions`` or ``/search/advanced`` request.

    kind: ``backoff`` (normal page plus ``backoff: value``), ``throttle`` (400, error_id 502, wait ``value`` s),
    ``status`` (HTTP ``value``, HTML body), ``drop`` (close the connection unanswered), ``error`` (400 with the
    error payload ``value`` = (id, name, message)), ``invalid_json`` (200 with a truncated body), ``hang`` (sleep
    ``value`` s first, then answer normally).
    """

    kind: str
    value: Any = None


@dataclass
class Seen:
    at: float
    path: str
    params: dict[str, str]
    accept_encoding: str


@dataclass
class FakeApi:
    questions: list[dict[str, Any]]
    quota_max: int = 10_000
    delay: float = 0.0
    faults: deque = field(default_factory=deque)
    log: list[Seen] = field(default_factory=list)
    filters: dict[str, list[str]] = field(default_factory=dict)
    hold_after: int | None = None  # list requests beyond this many wait until ``release()``

    def __post_init__(self) -> None:
        self.quota_remaining = self.quota_max
        self._lock = threading.Lock()
        self._released = threading.Event()
        self.holding = threading.Event()  # set once a request is being held
        self._httpd: ThreadingHTTPServer | None = None

    # -- lifecycle -------------------------------------------------------------------------------------------

    def start(self) -> FakeApi:
        self._httpd = serve(self._handle)
        return self

    def stop(self) -> None:
        self._released.set()
        shut(self._httpd)

    def __enter__(self) -> FakeApi:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/2.3"

    def requests_to(self, path: str) -> list[Seen]:
        return [s for s in self.log if s.path.endswith(path)]

    def release(self) -> None:
        """Let held requests (and all later ones) through."""
        self.hold_after = None
        self._released.set()

    def listings(self) -> list[Seen]:
        """Requests for question lists (``/questions`` and ``/search/advanced``)."""
        return [s for s in self.log if s.path.endswith(("/questions", "/search/advanced"))]

    # -- responses -------------------------------------------------------------------------------------------

    def _send(
        self, h: BaseHTTPRequestHandler, status: int, payload: Any, *, raw: bytes | None = None
    ) -> None:
        body = raw if raw is not None else json.dumps(payload).encode()
        ctype = "application/json; charset=utf-8"
        if "gzip" in h.headers.get("Accept-Encoding", ""):
            body = gzip.compress(body)
            h.send_response(status)
            h.send_header("Content-Encoding", "gzip")
        else:
            h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def _error(self, h, eid: int, name: str, message: str) -> None:
        self._send(h, 400, {"error_id": eid, "error_name": name, "error_message": message})

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(h.path)
        params = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        with self._lock:
            self.log.append(Seen(time.monotonic(), parts.path, params, h.headers.get("Accept-Encoding", "")))
            listing = parts.path.endswith(("/questions", "/search/advanced"))
            fault = self.faults.popleft() if listing and self.faults else None
            hold = listing and self.hold_after is not None and len(self.listings()) > self.hold_after
            exhausted = self.quota_remaining <= 0
            if not exhausted:
                self.quota_remaining -= 1
            quota = self.quota_remaining
        if hold:
            self.holding.set()
            self._released.wait(60)
        if self.delay:
            time.sleep(self.delay)
        if exhausted:
            return self._error(h, 502, "throttle_violation", THROTTLE_MSG.format(86_400))
        if fault is not None:
            if fault.kind == "hang":
                time.sleep(fault.value)
            elif fault.kind == "throttle":
                return self._error(h, 502, "throttle_violation", THROTTLE_MSG.format(fault.value))
            elif fault.kind == "status":
                return self._send(h, fault.value, None, raw=b"<html><body>Service Unavailable</body></html>")
            elif fault.kind == "drop":
                h.close_connection = True
                h.connection.shutdown(socket.SHUT_RDWR)
                return None
            elif fault.kind == "error":
                return self._error(h, *fault.value)
            elif fault.kind == "invalid_json":
                return self._send(h, 200, None, raw=b'{"items": [{"question_id": 1, "title": "trunc')
        if parts.path.endswith("/filters/create"):
            return self._filters_create(h, params, quota)
        if parts.path.endswith("/questions"):
            return self._questions(h, params, quota, fault, any_tag=False)
        if parts.path.endswith("/search/advanced"):
            return self._questions(h, params, quota, fault, any_tag=True)
        return self._send(
            h, 404, {"error_id": 404, "error_name": "no_method", "error_message": "no such method"}
        )

    def _wrapper(self, items: list, has_more: bool, quota: int, **extra) -> dict[str, Any]:
        return {
            "items": items,
            "has_more": has_more,
            "quota_max": self.quota_max,
            "quota_remaining": quota,
            **extra,
        }

    def _filters_create(self, h, params: dict[str, str], quota: int) -> None:
        include = [f for f in params.get("include", "").split(";") if f]
        with self._lock:
            fid = f"!fake{len(self.filters) + 1}"
            self.filters[fid] = include
        item = {"filter": fid, "filter_type": "safe", "included_fields": include}
        self._send(h, 200, self._wrapper([item], False, quota))

    def _questions(self, h, params: dict[str, str], quota: int, fault: Fault | None, any_tag: bool) -> None:
        """``/questions`` (tagged = all of) or ``/search/advanced`` (tagged = any of, nottagged = none of)."""
        fid = params.get("filter", "default")
        if fid != "default" and fid not in self.filters:
            return self._error(h, 400, "bad_parameter", "filter")
        sort = params.get("sort", "activity")
        if sort not in ("activity", "creation"):
            return self._error(h, 400, "bad_parameter", "sort")
        key = "last_activity_date" if sort == "activity" else "creation_date"
        try:
            page = int(params.get("page", 1))
            size = int(params.get("pagesize", 30))
            lo, hi = int(params.get("fromdate", 0)), int(params.get("todate", 2**62))
            mn, mx = int(params.get("min", -(2**62))), int(params.get("max", 2**62))
        except ValueError:
            return self._error(h, 400, "bad_parameter", "a number was expected")
        if size > 100 or size < 0 or page < 1:
            return self._error(h, 400, "bad_parameter", "pagesize")
        wanted = [t for t in params.get("tagged", "").split(";") if t]
        unwanted = [t for t in params.get("nottagged", "").split(";") if t]
        match_tags = any if any_tag and wanted else all
        with self._lock:
            pool = list(self.questions)
        hits = [
            q
            for q in pool
            if match_tags(t in q["tags"] for t in wanted)
            and not any(t in q["tags"] for t in unwanted)
            and lo <= q["creation_date"] <= hi
            and mn <= q[key] <= mx
        ]
        hits.sort(key=lambda q: (q[key], q["question_id"]), reverse=params.get("order", "desc") == "desc")
        chunk = hits[(page - 1) * size : page * size]
        include = set(self.filters.get(fid, []))
        items = [self._shape(q, include) for q in chunk]
        extra = {"backoff": fault.value} if fault is not None and fault.kind == "backoff" else {}
        self._send(h, 200, self._wrapper(items, page * size < len(hits), quota, **extra))

    @staticmethod
    def _shape(q: dict[str, Any], include: set[str]) -> dict[str, Any]:
        """What a filter made of the default plus ``include`` lets through."""
        q = copy.deepcopy(q)
        if "question.body" not in include:
            q.pop("body", None)
        if "question.answers" not in include:
            q.pop("answers", None)
        if "question.comments" not in include:
            q.pop("comments", None)
        for a in q.get("answers", []):
            if "answer.body" not in include:
                a.pop("body", None)
            if "answer.comments" not in include:
                a.pop("comments", None)
        for c in q.get("comments", []) + [c for a in q.get("answers", []) for c in a.get("comments", [])]:
            if "comment.body" not in include:
                c.pop("body", None)
            if "comment.post_type" not in include:
                c.pop("post_type", None)
        return q

    # -- test helpers ----------------------------------------------------------------------------------------

    def touch(self, question_id: int, when: int, **changes) -> None:
        """Give a question new activity (an edit or a new answer) at epoch ``when``."""
        with self._lock:
            for q in self.questions:
                if q["question_id"] == question_id:
                    q.update(changes, last_activity_date=when)
                    return
        raise KeyError(question_id)
