"""Stack Exchange sites and post references: a post is identified by (site, id), never by its id alone.

A site is named as the Stack Exchange API names it: ``stackoverflow``, ``ai``, ``superuser``, ``meta.ai``.
Host names (``ai.stackexchange.com``, ``stackoverflow.com``) and links are turned into that name.

A post reference written for people and files is ``SITE:ID`` (``ai:136``); a bare id (``65160023``) means a
Stack Overflow post, which is how the study's published files spell their ids. :func:`post_ref` writes the bare
form for Stack Overflow so those files, exports and older audit keys keep their spelling.

A GitHub repository's issues are the site ``github.com/OWNER/REPO`` (lower case, as GitHub treats names), an issue
is ``github.com/OWNER/REPO:123``, and its URL ``https://github.com/OWNER/REPO/issues/123`` is accepted as well.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from core.errors import PPMinerError

DEFAULT_SITE = "stackoverflow"

# Sites served from their own .com domain rather than <site>.stackexchange.com.
OWN_DOMAIN_SITES = frozenset(
    {"stackoverflow", "serverfault", "superuser", "askubuntu", "mathoverflow", "stackapps"}
)
_SITE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)?$")
_HOST = re.compile(r"(?:https?://)?([a-z0-9.-]+\.(?:com|net))(?:[/:]|$)", re.IGNORECASE)
GITHUB_HOST = "github.com"
# GitHub's owner and repository names: letters, digits, '-', '_' and '.' (never '.' or '..' alone).
_GITHUB_NAME = re.compile(r"^[a-z0-9_.-]+$")


class PostKey(NamedTuple):
    """A question's identity: its site and its Stack Exchange id. ``str()`` gives :func:`post_ref`."""

    site: str
    id: int

    def __str__(self) -> str:
        return post_ref(self.site, self.id)


def site_from_host(host: str) -> str | None:
    """``ai.stackexchange.com`` -> ``ai``; ``stackoverflow.com`` -> ``stackoverflow``; ``meta.stackoverflow.com``
    -> ``meta.stackoverflow``; ``ai.meta.stackexchange.com`` -> ``meta.ai``; anything else -> None."""
    host = host.lower().strip().rstrip(".")
    if host.startswith("www."):
        host = host[4:]
    parts = host.split(".")
    if host.endswith(".stackexchange.com") and len(parts) in (3, 4):
        if len(parts) == 4:
            return f"meta.{parts[0]}" if parts[1] == "meta" else None
        return parts[0] if parts[0] != "meta" else "meta"
    if len(parts) in (2, 3) and parts[-1] == "com" and parts[-2] in OWN_DOMAIN_SITES:
        if len(parts) == 3:
            return f"meta.{parts[-2]}" if parts[0] == "meta" else None
        return parts[-2]
    return None


def github_repo(site: str | None) -> str | None:
    """``github.com/owner/repo`` -> ``owner/repo``; None for a site that is not a GitHub repository."""
    host, slash, repo = (site or "").partition("/")
    return repo if slash and host == GITHUB_HOST else None


def github_site(text: str) -> str | None:
    """``OWNER/REPO``, ``github.com/OWNER/REPO`` or its URL (``.git`` and a trailing ``/`` allowed) ->
    ``github.com/owner/repo``; None if ``text`` is not such a name."""
    parts = _github_parts(text)
    return f"{GITHUB_HOST}/{parts[0]}/{parts[1]}" if parts is not None and len(parts) == 2 else None


def _github_parts(text: str) -> list[str] | None:
    """The path segments after ``github.com/`` (or of a bare ``OWNER/REPO``), lower case; None if not GitHub."""
    raw = (text or "").strip().lower()
    for scheme in ("https://", "http://"):
        raw = raw.removeprefix(scheme)
    raw = raw.removeprefix("www.")
    if raw.startswith(GITHUB_HOST + "/"):
        raw = raw[len(GITHUB_HOST) + 1 :]
    elif raw.count("/") != 1 or "." in raw.split("/")[0]:
        return None  # a bare OWNER/REPO has one slash and an owner without dots (hosts have them)
    parts = raw.rstrip("/").split("/")
    if len(parts) < 2:
        return None
    parts[1] = parts[1].removesuffix(".git")
    if not all(_GITHUB_NAME.match(p) and p not in (".", "..") for p in parts[:2]):
        return None
    return parts


def github_issue(text: str) -> PostKey | None:
    """``https://github.com/OWNER/REPO/issues/123`` (or without the scheme, or ``#...``/``?...`` after it) ->
    ``PostKey('github.com/owner/repo', 123)``; None for anything else."""
    raw = (text or "").strip()
    for mark in ("#", "?"):
        raw = raw.partition(mark)[0]
    parts = _github_parts(raw) if GITHUB_HOST + "/" in raw.lower() else None
    if parts is None or len(parts) != 4 or parts[2] != "issues" or not parts[3].isdigit():
        return None
    return PostKey(f"{GITHUB_HOST}/{parts[0]}/{parts[1]}", int(parts[3]))


def normalize_site(name: str) -> str:
    """A site as given by a user or config (``ai``, ``ai.stackexchange.com``, ``https://stackoverflow.com``,
    ``github.com/owner/repo``) -> the API's name for it. Raises PPMinerError for something that is not a site."""
    raw = (name or "").strip()
    lowered = raw.lower()
    if lowered.startswith((GITHUB_HOST + "/", "https://github.com/", "http://github.com/")):
        site = github_site(lowered)
        if site is None:
            raise PPMinerError(f"{raw!r} is not a GitHub repository (write github.com/OWNER/REPO)")
        return site
    found = _HOST.match(lowered)
    if found:
        site = site_from_host(found.group(1))
        if site:
            return site
    if _SITE_NAME.match(lowered) and not lowered.endswith((".com", ".net")):
        return lowered
    raise PPMinerError(f"{raw!r} is not a Stack Exchange site (e.g. stackoverflow, ai, ai.stackexchange.com)")


def site_host(site: str | None) -> str:
    """The host serving a site: ``ai`` -> ``ai.stackexchange.com``, ``stackoverflow`` -> ``stackoverflow.com``."""
    site = site or DEFAULT_SITE
    if github_repo(site):
        return site
    if "." in site and not site.startswith("meta."):
        return site  # already a host name (a config written before sites were normalised)
    if site.startswith("meta."):
        base = site[5:]
        return f"meta.{base}.com" if base in OWN_DOMAIN_SITES else f"{base}.meta.stackexchange.com"
    return f"{site}.com" if site in OWN_DOMAIN_SITES else f"{site}.stackexchange.com"


def question_link(question_id: int, site: str | None = DEFAULT_SITE) -> str:
    """The canonical link of a question when the source gave none (dumps, published files)."""
    if github_repo(site):
        return f"https://{site}/issues/{question_id}"
    return f"https://{site_host(site)}/questions/{question_id}"


def post_ref(site: str, post_id: int) -> str:
    """How a post is written for people and files: ``65160023`` on Stack Overflow, ``ai:136`` elsewhere."""
    return str(post_id) if site == DEFAULT_SITE else f"{site}:{post_id}"


def parse_post_ref(text: str) -> PostKey:
    """``'ai:136'`` -> ``PostKey('ai', 136)``; ``'136'`` -> ``PostKey('stackoverflow', 136)``; a GitHub issue as
    ``github.com/OWNER/REPO:123`` or by its URL. ValueError if bad."""
    raw = str(text).strip()
    issue = github_issue(raw)
    if issue is not None:
        return issue
    site, sep, number = raw.rpartition(":")
    if not sep:
        site = DEFAULT_SITE
    elif not site:
        raise ValueError(f"{raw!r}: no site before ':'")
    if not number.isdigit():
        raise ValueError(f"{raw!r} is not a post id (write ID or SITE:ID, e.g. 65160023 or ai:136)")
    return PostKey(normalize_site(site) if sep else site, int(number))


def parse_pp_key(key: str) -> tuple[PostKey, int]:
    """``'65160023_2'`` -> ``(PostKey('stackoverflow', 65160023), 2)``; ``'ai:136'`` -> ``(PostKey('ai', 136), 1)``
    (a bare post id means PP 1). ValueError if it is not a PP id."""
    text = str(key).strip()
    head, sep, tail = text.rpartition("_")
    # The PP number follows the last '_' after the post id; a '_' in a GitHub owner or repository name is no PP.
    post, index = (head, tail) if sep and ":" not in tail and "/" not in tail else (text, "")
    if index and not index.isdigit():
        raise ValueError(f"{key!r}: PP number {index!r} is not a number")
    return parse_post_ref(post), int(index or 1)


def as_post(value: PostKey | tuple[str, int] | str | int) -> PostKey:
    """A post reference in any of its forms; a bare int or digit string means Stack Overflow (see module doc)."""
    if isinstance(value, PostKey):
        return value
    if isinstance(value, tuple):
        site, post_id = value
        return PostKey(str(site), int(post_id))
    if isinstance(value, int):
        return PostKey(DEFAULT_SITE, value)
    return parse_post_ref(value)
