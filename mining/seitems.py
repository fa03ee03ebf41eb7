"""Stack Exchange API items -> rows for :mod:`mining.store`.

Reads the shapes the API really sends (a default filter gives no bodies; our filter nests ``answers`` and
``comments``, and answers nest their own ``comments``). Titles arrive HTML-escaped and are stored unescaped.
Nested answers and comments belong to the question they are nested in.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from mining.errors import PPMinerError
from mining.models import tags_to_text


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
    """API epoch seconds -> naive UTC datetime."""
    if value is None:
        return None
    return datetime.fromtimestamp(int(value), UTC).replace(tzinfo=None)


def _owner_id(item: dict[str, Any]) -> int | None:
    owner = item.get("owner") or {}
    return owner.get("user_id")


def _comment_row(c: dict[str, Any], question_id: int, post_type: str) -> dict[str, Any]:
    row = {
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
    else:  # a filter without comment.body: keep what we know, no text
        row["body_html"] = None
        row["text"] = None
    return row


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
        q["body_html"] = item["body"]
    into.questions.append(q)
    for c in item.get("comments") or []:
        into.comments.append(_comment_row(c, qid, "question"))
    for a in answers:
        aid = int(a["answer_id"])
        row = {
            "id": aid,
            "question_id": qid,
            "score": a.get("score"),
            "owner_user_id": _owner_id(a),
            "creation_date": from_unix(a.get("creation_date")),
            "last_activity_date": from_unix(a.get("last_activity_date")),
            "last_edit_date": from_unix(a.get("last_edit_date")),
        }
        if "body" in a:
            row["body_html"] = a["body"]
        into.answers.append(row)
        for c in a.get("comments") or []:
            c = dict(c, post_id=c.get("post_id") or aid)
            into.comments.append(_comment_row(c, qid, "answer"))


def _dedupe(rows: list[dict[str, Any]], by_activity: bool) -> list[dict[str, Any]]:
    """One row per id (a statement must not touch a row twice); keep the newest activity, else the last."""
    out: dict[int, dict[str, Any]] = {}
    for row in rows:
        old = out.get(row["id"])
        if (
            old is None
            or not by_activity
            or (row.get("last_activity_date") or datetime.min)
            >= (old.get("last_activity_date") or datetime.min)
        ):
            out[row["id"]] = row
    return list(out.values())


def page_rows(items: list[dict[str, Any]], site: str, where: str = "page") -> PageRows:
    """All rows of a page of question items; a malformed item raises PPMinerError naming it."""
    rows = PageRows()
    for n, item in enumerate(items):
        try:
            question_rows(item, site, rows)
        except (KeyError, TypeError, ValueError) as exc:
            qid = item.get("question_id") if isinstance(item, dict) else None
            raise PPMinerError(
                f"{where}: item {n} (question {qid}) is malformed: {type(exc).__name__}: {exc}"
            ) from None
    rows.questions = _dedupe(rows.questions, True)
    rows.answers = _dedupe(rows.answers, True)
    rows.comments = _dedupe(rows.comments, False)
    return rows
