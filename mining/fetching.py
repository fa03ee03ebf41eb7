"""What the web API clients (Stack Exchange in :mod:`mining.api`, GitHub in :mod:`mining.github`) share: a session
with one secret hidden from every text they emit, naming why a connection failed in one line, and the capped retry
backoff."""

from __future__ import annotations

import re
from urllib.parse import quote, quote_plus

import requests

# The value of a ``key=`` query parameter in any URL quoted in a message, however it is encoded.
_KEY_PARAM = re.compile(r"\b(key=)[^&\s'\"<>)]*", re.IGNORECASE)


def scrub_secret(text: str, secret: str | None) -> str:
    """``text`` without ``secret``: as written, percent-encoded (either way, either hex case), and without the
    value of any ``key=`` URL parameter (a request URL in a connection error carries the key encoded)."""
    if not text:
        return text
    if secret:
        forms = {
            secret,
            quote(secret, safe=""),
            quote(secret),
            quote_plus(secret),
            quote_plus(secret, safe=""),
        }
        forms |= {re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), f) for f in forms}
        for form in sorted(forms, key=len, reverse=True):
            text = text.replace(form, "***")
    return _KEY_PARAM.sub(r"\1***", text)


class SessionClient:
    """A ``requests.Session`` to close, and one secret (an API key, a token) that :meth:`scrub` takes out of every
    message the client makes."""

    session: requests.Session
    secret: str | None = None

    def scrub(self, text: str) -> str:
        """``text`` with the secret, in any encoding, replaced by ``***``."""
        return scrub_secret(text, self.secret)

    def close(self) -> None:
        self.session.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def capped_backoff(attempt: int, base: float, cap: float) -> float:
    """The wait before retry ``attempt + 1``: ``base * 2**attempt``, never more than ``cap``."""
    return min(cap, base * (2**attempt))


def root_cause(exc: BaseException) -> str:
    """The innermost reason of a requests/urllib3 failure ("Failed to resolve 'host' (...)", "Connection refused"),
    without the URL and pool wrappers that repeat what the caller already says."""
    text = first_line(exc)
    if "(Caused by " in text:
        text = text.rsplit("(Caused by ", 1)[1].rstrip(")")
        text = text.rsplit("): ", 1)[-1].strip("\"'")
    return text


def short_cause(text: str) -> str:
    """``'Failed to establish a new connection: [Errno 111] Connection refused'`` -> ``'Connection refused'``."""
    text = re.sub(r"^Failed to establish a new connection: ", "", text)
    return re.sub(r"\[Errno -?\d+\] ", "", text)


def first_line(exc: BaseException) -> str:
    """The first line of an exception's text, else its class name."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
