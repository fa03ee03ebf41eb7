"""Finding a stored question from what a person typed: ``ai:136``, ``65160023``, or a question's link."""

from __future__ import annotations

import re

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.errors import PPMinerError
from core.schema.mining import Question
from core.sites import DEFAULT_SITE, PostKey, parse_post_ref, post_ref, site_from_host

_LINK = re.compile(r"^(?:https?://)?([^/\s]+)/(?:questions|q)/(\d+)(?:[/?#].*)?$", re.IGNORECASE)


def parse_post_arg(text: str) -> PostKey:
    """``ai:136``, ``136`` (Stack Overflow) or ``https://ai.stackexchange.com/questions/136/...`` -> PostKey.
    PPMinerError naming the value if it is none of those."""
    raw = str(text).strip()
    link = _LINK.match(raw)
    if link:
        site = site_from_host(link.group(1))
        if site is None:
            raise PPMinerError(f"{raw!r}: {link.group(1)} is not a Stack Exchange site")
        return PostKey(site, int(link.group(2)))
    try:
        return parse_post_ref(raw)
    except (ValueError, PPMinerError) as exc:
        raise PPMinerError(str(exc)) from None


def find_question(session: Session, text: str) -> Question:
    """The stored question ``text`` names. A bare id means Stack Overflow; if only other sites hold that id, the
    error says how to write it."""
    key = parse_post_arg(text)
    question = session.get(Question, (key.site, key.id))
    if question is not None:
        return question
    others = session.scalars(
        sa.select(Question.site).where(Question.id == key.id).order_by(Question.site)
    ).all()
    if others and key.site == DEFAULT_SITE and ":" not in str(text):
        spelled = " or ".join(post_ref(site, key.id) for site in others)
        raise PPMinerError(f"post {key.id} is not a stored Stack Overflow question; did you mean {spelled}?")
    if session.scalar(sa.select(Question.id).where(Question.site == key.site).limit(1)) is None:
        sites = session.scalars(sa.select(Question.site).distinct().order_by(Question.site)).all()
        held = f"posts of {', '.join(sites)}" if sites else "no posts yet"
        raise PPMinerError(f"{str(text).strip()!r}: unknown site {key.site!r}: the database holds {held}")
    raise PPMinerError(f"post {key} is not a question in the database (acquire it first)")
