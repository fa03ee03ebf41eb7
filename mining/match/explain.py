"""`ppmine explain POST_ID`: a post's matched text with every keyword hit marked, and which keyword it is.

Hits are shown inline as ``[[matched words]]{keyword}``; overlapping hits merge into one mark listing each
keyword. Post text is untrusted, so every piece of it passes through :func:`core.text.terminal_safe`.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from core.errors import PPMinerError
from core.schema.mining import Candidate, KeywordSet, MatchRun, Question
from core.sites import PostKey, as_post
from core.text import terminal_safe
from mining.lookup import find_question
from mining.match.candidates import link_of
from mining.match.keywords import KeywordFile, parse_mode
from mining.match.matcher import Hit, Matcher


@dataclass
class Part:
    """One matched text: its field, a label (e.g. ``answer 123``) and its hits."""

    field: str
    label: str
    text: str
    hits: list[Hit]


def _parts(question: Question, fields: tuple[str, ...]) -> list[tuple[str, str, str]]:
    parts = []
    if "title" in fields:
        parts.append(("title", "title", question.title or ""))
    if "prose" in fields:
        parts.append(("prose", "question", question.prose or ""))
    if "code" in fields:
        parts += [("code", f"code block {i}", c or "") for i, c in enumerate(question.code_blocks or [], 1)]
    if "answers" in fields:
        parts += [("answers", f"answer {a.id}", a.prose or "") for a in question.answers]
    if "comments" in fields:
        parts += [("comments", f"comment {c.id}", c.text or "") for c in question.comments]
    return parts


def matcher_for_version(session: Session, keyword_set_id: int) -> tuple[Matcher, tuple[str, ...]]:
    """The matcher of a stored keyword-set version, and the fields its last match run used."""
    kset = session.get(KeywordSet, keyword_set_id)
    if kset is None:
        raise PPMinerError(f"no keyword set {keyword_set_id}; `ppmine candidates --versions` lists them")
    stemmer, reading = parse_mode(kset.stemmer_mode)
    last = session.scalar(
        sa.select(MatchRun).where(MatchRun.keyword_set_id == kset.id).order_by(MatchRun.id.desc()).limit(1)
    )
    fields = tuple((last.selection or {}).get("fields", ())) if last else ()
    return Matcher(KeywordFile(None, tuple(kset.keywords)), stemmer, reading), fields or ("title", "prose")


def explain_post(
    session: Session, post: str, matcher: Matcher, fields: tuple[str, ...]
) -> tuple[Question, list[Part]]:
    """``post`` as typed: ``ai:136``, ``65160023`` (Stack Overflow) or a link (see mining.lookup)."""
    question = find_question(session, post)
    return question, [Part(f, label, text, matcher.hits(text)) for f, label, text in _parts(question, fields)]


def mark(text: str, hits: list[Hit]) -> str:
    """The text with hit spans wrapped as ``[[...]]{keyword}``, terminal-safe."""
    spans: list[list] = []  # [start, end, [keywords]] merged where hits overlap
    for hit in sorted(hits, key=lambda h: (h.start, h.end)):
        if spans and hit.start < spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], hit.end)
            if hit.keyword not in spans[-1][2]:
                spans[-1][2].append(hit.keyword)
        else:
            spans.append([hit.start, hit.end, [hit.keyword]])
    out, pos = [], 0
    for start, end, keywords in spans:
        out.append(terminal_safe(text[pos:start]))
        out.append(f"[[{terminal_safe(text[start:end])}]]{{{'|'.join(keywords)}}}")
        pos = end
    out.append(terminal_safe(text[pos:]))
    return "".join(out)


def stored_status(session: Session, post: PostKey | int, matcher: Matcher) -> str:
    """Whether the post is a stored candidate of this keyword-set version."""
    post = as_post(post)
    kset = session.scalar(
        sa.select(KeywordSet).filter_by(
            content_hash=matcher.keyword_file.content_hash, stemmer_mode=matcher.mode
        )
    )
    if kset is None:
        return "this keyword-set version has not been run yet (ppmine match)"
    stored = session.scalar(
        sa.select(Candidate.id).filter_by(keyword_set_id=kset.id, site=post.site, question_id=post.id)
    )
    return f"stored candidate of keyword set {kset.id}: {'yes' if stored else 'no'}"


def render(question: Question, parts: list[Part], matcher: Matcher, status: str) -> str:
    title = terminal_safe(question.title, keep_newlines=False)
    lines = [f"post {question.key} ({question.site}): {title}", f"link: {link_of(question)}"]
    lines.append(f"keyword set {matcher.keyword_file.content_hash[:12]} {matcher.mode}; {status}")
    total: dict[tuple[str, str], int] = {}
    for part in parts:
        lines += ["", f"--- {part.label} ({len(part.hits)} hit{'s' if len(part.hits) != 1 else ''}) ---"]
        lines.append(mark(part.text, part.hits) if part.text else "(empty)")
        for hit in part.hits:
            total[hit.keyword, part.field] = total.get((hit.keyword, part.field), 0) + 1
    lines.append("")
    if total:
        lines.append("hits: " + "; ".join(f"{kw!r} in {field} x{n}" for (kw, field), n in total.items()))
    else:
        lines.append("hits: none (not a candidate with these fields)")
    return "\n".join(lines)
