"""What the fake API servers share: a quiet HTTP/1.1 server on 127.0.0.1 in a background thread."""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def serve(handle: Callable[[BaseHTTPRequestHandler], None]) -> ThreadingHTTPServer:
    """Start a server on a free port whose GET requests go to ``handle``; stop it with :func:`shut`."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # keep test output quiet
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            handle(self)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def shut(httpd: ThreadingHTTPServer | None) -> None:
    if httpd is not None:
        httpd.shutdown()
        httpd.server_close()
