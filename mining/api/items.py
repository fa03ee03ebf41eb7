"""Stack Exchange API items -> rows for :mod:`mining.store`.

Reads the shapes the API really sends (a default filter gives no bodies; our filter nests ``answers`` and
``comments``, and answers nest their own ``comments``). Titles arrive HTML-escaped and are stored unescaped.
Nested answers and comments belong to the question they are nested in. Bodies are split into prose and code here,
item by item, so a body the parser cannot take is reported with its question id.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from core.errors import PPMinerError
from core.schema.mining import tags_to_text
from core.text import html_to_text, split_html
from mining.store import newest_per_id


@dataclass
class PageRows:
    """The rows of one page, deduplicated by id (the newest activity wins)."""

    questions: list[dict[str, Any]] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)
    comments: list[dict[str, Any]] = field(default_factory=list)

    @property
    def max_activity(self) -> datetime | None:
        dates = [q["last_activity_date"] for q in self.questions if q.get("last_activity_date")]
        return max(dates) if dates else None


def from_unix(value: Any) -> datetime | None:
    """API epoch seconds -> naive UTC datetime; ValueError for a value that is no date (e.g. out of range)."""
    if value is None:
        return None
    try:
        return datetime.fromtimestamp(int(value), UTC).replace(tzinfo=None)
    except (OverflowError, OSError) as exc:  # beyond what the platform's time_t or datetime can hold
        raise ValueError(f"timestamp {value!r} is out of range ({exc})") from None


def _owner_id(item: dict[str, Any]) -> int | None:
    owner = item.get("owner") or {}
    return owner.get("user_id")


def _comment_row(c: dict[str, Any], site: str, question_id: int, post_type: str) -> dict[str, Any]:
    row = {
        "site": site,
        "id": int(c["comment_id"]),
        "post_id": int(c.get("post_id") or question_id),
        "post_type": c.get("post_type") or post_type,
        "question_id": question_id,
        "score": c.get("score"),
        "owner_user_id": _owner_id(c),
        "creation_date": from_unix(c.get("creation_date")),
    }
    if "body" in c:
        row["body_html"] = c["body"]
        row["text"] = html_to_text(c["body"])
    else:  # a filter without comment.body: keep what we know, no text
        row["body_html"] = None
        row["text"] = None
    return row


def _with_body(row: dict[str, Any], body: str | None) -> None:
    split = split_html(body)
    row["body_html"], row["prose"], row["code_blocks"] = body, split.prose, split.code_blocks


def question_rows(item: dict[str, Any], site: str, into: PageRows) -> None:
    """Append the rows of one question item (with nested answers/comments) to ``into``."""
    qid = int(item["question_id"])
    answers = item.get("answers") or []
    accepted = item.get("accepted_answer_id")
    if accepted is None:
        accepted = next((a.get("answer_id") for a in answers if a.get("is_accepted")), None)
    q = {
        "id": qid,
        "site": site,
        "title": html.unescape(item.get("title") or ""),
        "tags": tags_to_text(item.get("tags") or []),
        "score": item.get("score"),
        "view_count": item.get("view_count"),
        "answer_count": item.get("answer_count"),
        "accepted_answer_id": accepted,
        "owner_user_id": _owner_id(item),
        "link": item.get("link") or None,
        "creation_date": from_unix(item.get("creation_date")),
        "last_activity_date": from_unix(item.get("last_activity_date")),
        "last_edit_date": from_unix(item.get("last_edit_date")),
        "closed_date": from_unix(item.get("closed_date")),
    }
    if "body" in item:
        _with_body(q, item["body"])
    into.questions.append(q)
    for c in item.get("comments") or []:
        into.comments.append(_comment_row(c, site, qid, "question"))
    for a in answers:
        aid = int(a["answer_id"])
        row = {
            "site": site,
            "id": aid,
            "question_id": qid,
            "score": a.get("score"),
            "owner_user_id": _owner_id(a),
            "creation_date": from_unix(a.get("creation_date")),
            "last_activity_date": from_unix(a.get("last_activity_date")),
            "last_edit_date": from_unix(a.get("last_edit_date")),
        }
        if "body" in a:
            _with_body(row, a["body"])
        into.answers.append(row)
        for c in a.get("comments") or []:
            c = dict(c, post_id=c.get("post_id") or aid)
            into.comments.append(_comment_row(c, site, qid, "answer"))


def page_rows(items: list[dict[str, Any]], site: str, where: str = "page") -> PageRows:
    """All rows of a page of question items; an item that cannot be read raises PPMinerError naming it."""
    rows = PageRows()
    for n, item in enumerate(items):
        try:
            question_rows(item, site, rows)
        except Exception as exc:  # noqa: BLE001 - whatever an odd item breaks, name the item
            qid = item.get("question_id") if isinstance(item, dict) else None
            shape = isinstance(exc, KeyError | TypeError | ValueError | AttributeError)
            what = "is malformed" if shape else "could not be processed"
            detail = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise PPMinerError(
                f"{where}: item {n} (question {qid}) {what}: {type(exc).__name__}: {detail}"
            ) from None
    # One row per id, so the counts are of distinct posts (the upsert would keep the same one).
    rows.questions = newest_per_id(rows.questions)
    rows.answers = newest_per_id(rows.answers)
    rows.comments = newest_per_id(rows.comments)
    return rows
