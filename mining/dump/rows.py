"""Data-dump rows -> the post and comment dicts :mod:`mining.store` writes; which rows the study keeps.

Attribute values arrive decoded by the XML parser. Dump dates are ISO 8601 without a zone, in UTC; ids and
counts are integers; optional attributes may be missing and unknown ones are ignored. A bad value raises
:class:`RowError`, which the importer turns into a message naming the file, line and post id.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from core.schema.mining import question_link, tags_to_text
from core.text import normalize_prose


@dataclass(frozen=True)
class DumpFilter:
    """Which questions to keep: any of ``tags`` (None: all) created in [date_from, date_to] (whole days)."""

    tags: frozenset[str] | None = None
    date_from: date | None = None
    date_to: date | None = None

    def params(self) -> dict[str, Any]:
        return {
            "tags": sorted(self.tags) if self.tags else None,
            "from": self.date_from.isoformat() if self.date_from else None,
            "to": self.date_to.isoformat() if self.date_to else None,
        }


def parse_tags(raw: str | None) -> list[str]:
    """Both dump formats: ``<a><b>`` (before 2024; the XML attribute holds ``&lt;a&gt;``) and ``|a|b|``."""
    if not raw:
        return []
    raw = raw.strip()
    if raw.startswith("<"):
        return [t for t in raw[1:-1].split("><") if t] if raw.endswith(">") else []
    return [t for t in raw.split("|") if t]


class RowError(Exception):
    """A bad attribute value; turned into a PPMinerError with file and line by the importer."""


def _int(attrib, key: str, required: bool = False) -> int | None:
    value = attrib.get(key)
    if value is None or value == "":
        if required:
            raise RowError(f"missing {key}")
        return None
    try:
        return int(value)
    except ValueError:
        raise RowError(f"{key}={value!r} is not an integer") from None


def _date(attrib, key: str) -> datetime | None:
    """Dump dates are ISO 8601 without a zone, in UTC."""
    value = attrib.get(key)
    if not value:
        return None
    try:
        return dump_date(value)
    except ValueError:
        raise RowError(f"{key}={value!r} is not an ISO date") from None


def _date_text(attrib, key: str) -> str | None:
    """The date as the dump writes it, once :func:`_date` has found it good (None when empty)."""
    _date(attrib, key)
    return attrib.get(key) or None


def dump_date(value: datetime | str | None) -> datetime | None:
    """A post row's date (:data:`QUESTION_DATES`, :data:`ANSWER_DATES`) as a naive UTC datetime."""
    if value.__class__ is not str:
        return value
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(UTC).replace(tzinfo=None)
    return parsed


# The dates post rows carry as the dump's text, checked but not converted: the import's worker process converts
# them (dump_dates), which spares the reading process making datetimes and sending them over (a tenth of its work).
QUESTION_DATES = ("creation_date", "last_activity_date", "last_edit_date", "closed_date")
ANSWER_DATES = ("creation_date", "last_activity_date", "last_edit_date")


def dump_dates(rows: list[dict[str, Any]], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """``rows`` with their dates ``keys`` as datetimes (:func:`dump_date`), changed in place."""
    for row in rows:
        for key in keys:
            value = row[key]
            if value.__class__ is str:
                row[key] = dump_date(value)
    return rows


fromisoformat = datetime.fromisoformat


class PostSelector:
    """Classifies Posts.xml rows as they stream by, as ``(kind, key, value)``.

    A kept question is ``("q", id, post dict)``, its dates as text (:data:`QUESTION_DATES`). An answer is ``("a", question id, attributes)``: whether its
    question is kept is known only later (this run may still be writing it, or it may be stored already), so the
    importer looks the questions of a whole batch up at once and builds only the answers it keeps
    (:func:`answer_row`). Holding the live attributes costs no copy; the row is freed once they are dropped.
    """

    def __init__(self, filt: DumpFilter, site: str):
        self.filt = filt
        self.site = site
        self._from = datetime.combine(filt.date_from, datetime.min.time()) if filt.date_from else None
        self._to = (
            datetime.combine(filt.date_to + timedelta(days=1), datetime.min.time()) if filt.date_to else None
        )
        self._link = question_link(0, site)[:-1]  # the link of question 0 without its id

    def __call__(self, attrib) -> tuple[str, int, Any] | None:
        kind = attrib.get("PostTypeId")
        if kind == "2":
            try:
                return "a", int(attrib.get("ParentId")), attrib
            except (TypeError, ValueError):  # missing or bad: the checked way names it
                return "a", _int(attrib, "ParentId", required=True), attrib
        if kind == "1":
            question = self._question(attrib)
            return None if question is None else ("q", question["id"], question)
        if kind is None:
            raise RowError("missing PostTypeId")
        return None  # wiki excerpts, moderator nominations, ...: not part of the study

    def _question(self, attrib) -> dict[str, Any] | None:
        get = attrib.get
        tags = parse_tags(get("Tags"))
        if self.filt.tags is not None and not any(t.lower() in self.filt.tags for t in tags):
            return None
        created = _date(attrib, "CreationDate")
        if (self._from and (created is None or created < self._from)) or (
            self._to and (created is None or created >= self._to)
        ):
            return None
        try:  # the common case in one step; a bad value goes the checked way below, which names it
            post_id = int(get("Id"))
            row = {
                "id": post_id,
                "site": self.site,
                "title": get("Title"),
                "body_html": get("Body"),
                "tags": tags_to_text(tags),
                "score": int(v) if (v := get("Score")) else None,
                "view_count": int(v) if (v := get("ViewCount")) else None,
                "answer_count": int(v) if (v := get("AnswerCount")) else None,
                "accepted_answer_id": int(v) if (v := get("AcceptedAnswerId")) else None,
                "owner_user_id": int(v) if (v := get("OwnerUserId")) else None,
                "link": self._link + str(post_id),
                "creation_date": get("CreationDate") or None,  # (checked above)
                # (the text, once fromisoformat found it good: a datetime is always true)
                "last_activity_date": v if (v := get("LastActivityDate")) and fromisoformat(v) else None,
                "last_edit_date": v if (v := get("LastEditDate")) and fromisoformat(v) else None,
                "closed_date": v if (v := get("ClosedDate")) and fromisoformat(v) else None,
            }
            return row
        except (TypeError, ValueError):
            pass
        return {
            "id": (post_id := _int(attrib, "Id", required=True)),
            "site": self.site,
            "title": get("Title"),
            "body_html": get("Body"),
            "tags": tags_to_text(tags),
            "score": _int(attrib, "Score"),
            "view_count": _int(attrib, "ViewCount"),
            "answer_count": _int(attrib, "AnswerCount"),
            "accepted_answer_id": _int(attrib, "AcceptedAnswerId"),
            "owner_user_id": _int(attrib, "OwnerUserId"),
            "link": question_link(post_id, self.site),
            "creation_date": get("CreationDate") or None,
            "last_activity_date": _date_text(attrib, "LastActivityDate"),
            "last_edit_date": _date_text(attrib, "LastEditDate"),
            "closed_date": _date_text(attrib, "ClosedDate"),
        }


def answer_row(attrib, site: str, question_id: int) -> dict[str, Any]:
    """The answer dict of a Posts.xml row whose question is kept (its dates as text: :data:`ANSWER_DATES`)."""
    get = attrib.get
    try:  # the common case in one step; a bad value goes the checked way below, which names it
        return {
            "site": site,
            "id": int(get("Id")),
            "question_id": question_id,
            "body_html": get("Body"),
            "score": int(v) if (v := get("Score")) else None,
            "owner_user_id": int(v) if (v := get("OwnerUserId")) else None,
            "creation_date": v if (v := get("CreationDate")) and fromisoformat(v) else None,
            "last_activity_date": v if (v := get("LastActivityDate")) and fromisoformat(v) else None,
            "last_edit_date": v if (v := get("LastEditDate")) and fromisoformat(v) else None,
        }
    except (TypeError, ValueError):
        pass
    return {
        "site": site,
        "id": _int(attrib, "Id", required=True),
        "question_id": question_id,
        "body_html": get("Body"),
        "score": _int(attrib, "Score"),
        "owner_user_id": _int(attrib, "OwnerUserId"),
        "creation_date": _date_text(attrib, "CreationDate"),
        "last_activity_date": _date_text(attrib, "LastActivityDate"),
        "last_edit_date": _date_text(attrib, "LastEditDate"),
    }


def select_comment(attrib) -> tuple[str, int, Any]:
    """A Comments.xml row as ``("c", post id, attributes)``: kept when its post is (looked up batch by batch)."""
    return "c", _int(attrib, "PostId", required=True), attrib


def comment_row(attrib, site: str, post_type: str, question_id: int) -> dict[str, Any]:
    """The comment dict of a Comments.xml row on a kept question or answer."""
    return {
        "site": site,
        "id": _int(attrib, "Id", required=True),
        "post_id": _int(attrib, "PostId", required=True),
        "post_type": post_type,
        "question_id": question_id,
        "text": normalize_prose(attrib.get("Text") or ""),
        "score": _int(attrib, "Score"),
        "owner_user_id": _int(attrib, "UserId"),
        "creation_date": _date(attrib, "CreationDate"),
    }
