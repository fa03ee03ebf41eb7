"""A local stand-in for GitHub's REST API (the issues list and the repository-wide issue comments list) on
127.0.0.1, following docs.github.com: Link pagination, ``since``/``sort``/``direction``, pull requests among the
issues, the ``x-ratelimit-*`` headers, primary and secondary limits, and faults (a 502, a dropped connection)."""

from .data import TOKEN, make_comments, make_issues
from .server import FakeGitHub

__all__ = ["FakeGitHub", "TOKEN", "make_comments", "make_issues"]
