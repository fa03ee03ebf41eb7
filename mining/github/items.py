"""GitHub issue and issue-comment objects (REST API, ``application/vnd.github+json``) -> rows for :mod:`mining.store`.

An issue becomes a question of site ``github.com/OWNER/REPO`` whose id is its number: title, Markdown body (stored
as HTML, split into prose and code by the store), labels as tags, author, created/updated/closed times and link.
GitHub's ``state`` is ``closed`` exactly when ``closed_at`` is set, so ``closed_date`` keeps it. A comment becomes an
answer of its issue. Pull requests (issues-list items with a ``pull_request`` key) are never rows.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from core.errors import PPMinerError
from core.schema.mining import tags_to_text
from mining.github.markdown import markdown_to_html
from mining.store import newest_per_id


def from_iso(value: Any) -> datetime | None:
    """GitHub's ``2024-01-31T12:00:00Z`` -> naive UTC datetime; ValueError for anything else."""
    if value in (None, ""):
        return None
    parsed = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return parsed.astimezone(UTC).replace(tzinfo=None) if parsed.tzinfo else parsed


def to_iso(value: datetime) -> str:
    """Naive UTC datetime -> the ISO 8601 form GitHub's ``since`` takes."""
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")


def is_pull_request(item: dict[str, Any]) -> bool:
    return "pull_request" in item


def _score(item: dict[str, Any]) -> int | None:
    """Thumbs up minus thumbs down, when the object carries its reactions."""
    reactions = item.get("reactions")
    if not isinstance(reactions, dict):
        return None
    return int(reactions.get("+1") or 0) - int(reactions.get("-1") or 0)


def _user_id(item: dict[str, Any]) -> int | None:
    user = item.get("user") or {}
    return user.get("id")


def issue_row(item: dict[str, Any], site: str) -> dict[str, Any]:
    """The question row of one issue object."""
    labels = [lab["name"] if isinstance(lab, dict) else str(lab) for lab in item.get("labels") or []]
    return {
        "site": site,
        "id": int(item["number"]),
        "title": item.get("title") or "",
        "body_html": markdown_to_html(item.get("body")),
        "tags": tags_to_text(labels),
        "score": _score(item),
        "view_count": None,
        "answer_count": item.get("comments"),
        "accepted_answer_id": None,
        "owner_user_id": _user_id(item),
        "link": item.get("html_url") or None,
        "creation_date": from_iso(item.get("created_at")),
        "last_activity_date": from_iso(item.get("updated_at")),
        "last_edit_date": None,
        "closed_date": from_iso(item.get("closed_at")),
    }


def comment_issue_number(item: dict[str, Any]) -> int:
    """The number of the issue (or pull request) a comment belongs to, from its ``issue_url``."""
    tail = str(item["issue_url"]).rstrip("/").rsplit("/", 1)[-1]
    if not tail.isdigit():
        raise ValueError(f"issue_url {item['issue_url']!r} does not end in an issue number")
    return int(tail)


def comment_row(item: dict[str, Any], site: str) -> dict[str, Any]:
    """The answer row of one issue comment object."""
    updated = from_iso(item.get("updated_at"))
    return {
        "site": site,
        "id": int(item["id"]),
        "question_id": comment_issue_number(item),
        "body_html": markdown_to_html(item.get("body")),
        "score": _score(item),
        "owner_user_id": _user_id(item),
        "creation_date": from_iso(item.get("created_at")),
        "last_activity_date": updated,
        "last_edit_date": updated if updated != from_iso(item.get("created_at")) else None,
    }


def rows_of(items: list[Any], site: str, make, where: str) -> list[dict[str, Any]]:
    """``make(item, site)`` for each item, one row per id; an item that cannot be read raises PPMinerError
    naming the page, its position and its number or id."""
    rows = []
    for n, item in enumerate(items):
        try:
            rows.append(make(item, site))
        except Exception as exc:  # noqa: BLE001 - whatever an odd item breaks, name the item
            ident = (item.get("number") or item.get("id")) if isinstance(item, dict) else None
            detail = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise PPMinerError(
                f"{where}: item {n} ({ident}) is malformed: {type(exc).__name__}: {detail}"
            ) from None
    return newest_per_id(rows)
