"""Stack Exchange sites and post references: a post is identified by (site, id), never by its id alone.

A site is named as the Stack Exchange API names it: ``stackoverflow``, ``ai``, ``superuser``, ``meta.ai``.
Host names (``ai.stackexchange.com``, ``stackoverflow.com``) and links are turned into that name.

A post reference written for people and files is ``SITE:ID`` (``ai:136``); a bare id (``65160023``) means a
Stack Overflow post, which is how the study's published files spell their ids. :func:`post_ref` writes the bare
form for Stack Overflow so those files, exports and older audit keys keep their spelling.
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


def normalize_site(name: str) -> str:
    """A site as given by a user or config (``ai``, ``ai.stackexchange.com``, ``https://stackoverflow.com``) ->
    the API's name for it. Raises PPMinerError for something that is not a site name."""
    raw = (name or "").strip()
    lowered = raw.lower()
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
    if "." in site and not site.startswith("meta."):
        return site  # already a host name (a config written before sites were normalised)
    if site.startswith("meta."):
        base = site[5:]
        return f"meta.{base}.com" if base in OWN_DOMAIN_SITES else f"{base}.meta.stackexchange.com"
    return f"{site}.com" if site in OWN_DOMAIN_SITES else f"{site}.stackexchange.com"


def question_link(question_id: int, site: str | None = DEFAULT_SITE) -> str:
    """The canonical link of a question when the source gave none (dumps, published files)."""
    return f"https://{site_host(site)}/questions/{question_id}"


def post_ref(site: str, post_id: int) -> str:
    """How a post is written for people and files: ``65160023`` on Stack Overflow, ``ai:136`` elsewhere."""
    return str(post_id) if site == DEFAULT_SITE else f"{site}:{post_id}"


def parse_post_ref(text: str) -> PostKey:
    """``'ai:136'`` -> ``PostKey('ai', 136)``; ``'136'`` -> ``PostKey('stackoverflow', 136)``. ValueError if bad."""
    raw = str(text).strip()
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
    post, _, index = str(key).strip().partition("_")
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
