"""One post as a rater sees it: title, tags, link, matched keywords, question, answers and comments.

Two parts: :func:`load_post` reads a post into plain data (no label of any rater is read: sessions stay blind),
and :class:`PostView` shows it, scrollable. Everything that comes from a post passes through
``core.text.terminal_safe`` and is assembled as a Rich ``Text`` (never parsed as markup), so ``[bold]`` or an
escape sequence in a post shows literally and nothing reaches the terminal as a control sequence.

Stable API (used by the identify, classify and reconcile apps)::

    post = load_post(session, question_id)        # PostData, or None if the question is not stored
    view = PostView(id="post"); view.show(post)   # view.post -> the PostData shown (or None)
    view.prepare(next_post)                       # optional: render ahead; a later show(next_post) is instant
    reader = PostReader(store, view); reader.warm(next_id); view.show(reader.get(current_id))  # both at once
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime

import sqlalchemy as sa
from lxml import etree
from rich.syntax import Syntax
from rich.text import Text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session
from textual import events
from textual.content import Content
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from core.schema.mining import Answer, Candidate, CandidateHit, Comment, KeywordSet, Question, tags_from_text
from core.sites import DEFAULT_SITE, PostKey, as_post, question_link
from core.text import split_html, terminal_safe
from mining.match.matcher import keyword_matcher
from mining.stats import latest_keyword_set_id

STYLE_TITLE = "bold"
STYLE_META = "dim"
STYLE_NOTICE = "bold yellow"
STUB_NOTICE = (
    "Only this post's id and link are stored: it came from a published file, not from a dump or the API. "
    "Press o to open it in a browser (or to print its link), or import the site's dump (ppmine import-dump) "
    "or scrape its tags and dates (ppmine scrape) to read it here."
)
STYLE_HEADING = "bold reverse"
STYLE_ACCEPTED = "bold green"
STYLE_KEYWORD = "bold black on yellow"
STYLE_CODE_BG = "on #262626"
CODE_THEME = "monokai"


@dataclass(frozen=True)
class CommentData:
    id: int
    text: str
    score: int | None = None


@dataclass(frozen=True)
class AnswerData:
    id: int
    prose: str
    code_blocks: list[str]
    score: int | None = None
    is_accepted: bool = False
    comments: list[CommentData] = field(default_factory=list)
    blocks: list[tuple[str, str]] = field(default_factory=list)  # ("prose" | "code", text) in body order


@dataclass(frozen=True)
class PostData:
    """A question with everything a rater reads; raw (untrusted) strings, made safe only when rendered."""

    question_id: int
    title: str
    tags: list[str]
    link: str
    prose: str
    code_blocks: list[str]
    score: int | None = None
    creation_date: datetime | None = None
    keywords: list[str] = field(default_factory=list)  # matched keywords, as written in the keyword file
    keyword_mode: str = ""  # stemmer mode of their keyword-set version
    answers: list[AnswerData] = field(default_factory=list)
    comments: list[CommentData] = field(default_factory=list)  # comments on the question itself
    blocks: list[tuple[str, str]] = field(default_factory=list)  # ("prose" | "code", text) in body order
    hints: list[str] = field(default_factory=list)  # ppcheck findings, read only when asked (--hints)
    site: str = DEFAULT_SITE
    stub: bool = False  # created from a published file: only the id and link (maybe the title) are stored

    @property
    def key(self) -> PostKey:
        return PostKey(self.site, self.question_id)


def load_post(
    session: Session, post: PostKey | int, keyword_set_id: int | None = None, hints: bool = False
) -> PostData | None:
    """Read one question with its answers (accepted first), comments and matched keywords.

    ``keyword_set_id`` defaults to the latest keyword-set version; a question that is not a candidate of it just
    has no keywords.
    """
    site, question_id = as_post(post)
    q = session.get(Question, (site, question_id))
    if q is None:
        return None
    if keyword_set_id is None:
        keyword_set_id = latest_keyword_set_id(session)
    keyword_mode = (
        session.scalar(sa.select(KeywordSet.stemmer_mode).where(KeywordSet.id == keyword_set_id)) or ""
    )
    keywords = session.scalars(
        sa.select(CandidateHit.keyword)
        .join(Candidate, Candidate.id == CandidateHit.candidate_id)
        .where(
            Candidate.site == site,
            Candidate.question_id == question_id,
            Candidate.keyword_set_id == keyword_set_id,
        )
        .distinct()
        .order_by(CandidateHit.keyword)
    ).all()
    comments = session.execute(
        sa.select(Comment.id, Comment.post_id, Comment.post_type, Comment.text, Comment.score)
        .where(Comment.site == site, Comment.question_id == question_id)
        .order_by(Comment.creation_date, Comment.id)
    ).all()
    by_post: dict[tuple[str, int], list[CommentData]] = {}
    for c in comments:
        by_post.setdefault((c.post_type, c.post_id), []).append(CommentData(c.id, c.text or "", c.score))
    answers = session.execute(
        sa.select(Answer.id, Answer.prose, Answer.code_blocks, Answer.score, Answer.body_html).where(
            Answer.site == site, Answer.question_id == question_id
        )
    ).all()
    answer_data = [
        AnswerData(
            a.id,
            a.prose or "",
            list(a.code_blocks or []),
            a.score,
            a.id == q.accepted_answer_id,
            by_post.get(("answer", a.id), []),
            body_blocks(a.body_html, a.prose or "", list(a.code_blocks or [])),
        )
        for a in answers
    ]
    answer_data.sort(key=lambda a: (not a.is_accepted, -(a.score or 0), a.id))
    return PostData(
        question_id=q.id,
        site=q.site,
        title=q.title or "",
        tags=tags_from_text(q.tags),
        link=q.link or question_link(q.id, q.site),
        prose=q.prose or "",
        code_blocks=list(q.code_blocks or []),
        score=q.score,
        creation_date=q.creation_date,
        keywords=list(keywords),
        keyword_mode=keyword_mode,
        answers=answer_data,
        comments=by_post.get(("question", q.id), []),
        blocks=body_blocks(q.body_html, q.prose or "", list(q.code_blocks or [])),
        hints=_checker_hints(session, q) if hints else [],
        stub=q.source == "import" and not (q.prose or q.code_blocks or q.body_html),
    )


def _checker_hints(session: Session, question: Question) -> list[str]:
    from mining.check import finding_lines

    return finding_lines(session, question.site, question.id)


def body_blocks(html: str | None, prose: str, code_blocks: list[str]) -> list[tuple[str, str]]:
    """The body as ("prose" | "code", text) blocks in the order the asker wrote them.

    The stored prose has its code blocks cut out ("Below is my code:" then nothing); a reader needs each block
    where it was. Each outermost ``<pre>`` becomes a marker paragraph, ``split_html`` makes the prose, and the
    markers are swapped back for the code. Without HTML (or if it cannot be parsed): prose, then the code.
    """
    fallback = ([("prose", prose)] if prose else []) + [("code", c) for c in code_blocks]
    if not html or "<pre" not in html:
        return fallback
    try:
        root = etree.fromstring(html, etree.HTMLParser())
        if root is None:
            return fallback
        nonce = secrets.token_hex(6)
        codes = []
        for pre in list(root.iter("pre")):
            if any(a.tag == "pre" for a in pre.iterancestors()) or pre.getparent() is None:
                continue
            marker = etree.Element("p")
            marker.text = f"CODE{nonce}:{len(codes)}:"
            marker.tail = pre.tail
            codes.append("".join(pre.itertext()))
            pre.getparent().replace(pre, marker)
        marked = split_html(etree.tostring(root, encoding="unicode", method="html")).prose
    except Exception:  # noqa: BLE001 - a body lxml cannot take is still shown, just not interleaved
        return fallback
    blocks = []
    for i, piece in enumerate(re.split(rf"CODE{nonce}:(\d+):", marked)):
        if i % 2:
            blocks.append(("code", codes[int(piece)]))
        elif piece.strip():
            blocks.append(("prose", piece.strip()))
    return blocks


# -- keyword highlighting: the same matcher as `ppmine match`, so what is marked is what matched ----------------


def keyword_spans(text: str, keywords: list[str], mode: str = "") -> list[tuple[int, int]]:
    """Character spans of ``text`` where one of ``keywords`` (as written in the keyword file) matches."""
    if not keywords or not text:
        return []
    return [(h.start, h.end) for h in keyword_matcher(tuple(keywords), mode).hits(text)]


# -- rendering ----------------------------------------------------------------------------------------------------


def safe(text: str | None, style: str = "") -> Text:
    """Untrusted text as an inert Rich ``Text`` (controls and escape sequences made visible, no markup)."""
    return Text(terminal_safe(text), style=style)


Highlight = tuple[list[str], str]  # the post's matched keywords and its keyword-set version's mode


def _prose(text: str, highlight: Highlight, style: str = "") -> Text:
    out = safe(text, style)
    for start, end in keyword_spans(out.plain, *highlight):
        out.stylize(STYLE_KEYWORD, start, end)
    return out


KEEP_POSTS = 4  # posts kept read and rendered: the next one and the last few shown
SYNTAX_LIMIT = 20_000  # longer code blocks are shown without syntax colours (lexing them would stall the UI)


def _code(code: str) -> Text:
    code = terminal_safe(code).rstrip("\n")
    if len(code) > SYNTAX_LIMIT:
        return Text(code, style=STYLE_CODE_BG)
    out = Syntax(code, "python", theme=CODE_THEME, background_color="#262626").highlight(code)
    out.rstrip()
    out.stylize(STYLE_CODE_BG)
    return out


def _body(blocks: list[tuple[str, str]], highlight: Highlight) -> list[Text]:
    parts, n = [], 0
    for kind, text in blocks:
        if kind == "code":
            n += 1
            parts.append(Text.assemble((f"── code {n} ──\n", STYLE_META), _code(text)))
        else:
            parts.append(_prose(text, highlight))
    return parts


def _blocks(item: PostData | AnswerData) -> list[tuple[str, str]]:
    if item.blocks:
        return item.blocks
    return ([("prose", item.prose)] if item.prose else []) + [("code", c) for c in item.code_blocks]


def _comments(comments: list[CommentData], highlight: Highlight) -> list[Text]:
    parts = []
    for c in comments:
        line = Text("  💬 ", style=STYLE_META)
        if c.score:
            line.append(f"[{c.score}] ", style=STYLE_META)
        line.append_text(_prose(c.text, highlight))
        parts.append(line)
    return parts


def render_post(post: PostData) -> Text:
    """The whole post as one ``Text``: cheap to render and to scroll."""
    kw = (post.keywords, post.keyword_mode)
    header = _prose(post.title, kw, STYLE_TITLE)
    header.append("\n")
    header.append(f"#{post.key}", style=STYLE_META)
    if post.score is not None:
        header.append(f"  score {post.score}", style=STYLE_META)
    if post.creation_date:
        header.append(f"  asked {post.creation_date:%Y-%m-%d}", style=STYLE_META)
    header.append("\n")
    header.append_text(
        safe(post.link, STYLE_META)
    )  # a line of its own: wrap_post never breaks it between words
    if post.stub:
        parts = [header, Text(STUB_NOTICE, style=STYLE_NOTICE)]
        return Text("\n\n").join(parts)
    header.append("\ntags: ", style=STYLE_META)
    header.append_text(safe(" ".join(post.tags) or "-"))
    header.append("   keywords: ", style=STYLE_META)
    for i, k in enumerate(post.keywords):
        header.append(" " if i else "")
        header.append_text(safe(k, STYLE_KEYWORD))
    if not post.keywords:
        header.append("-")
    parts: list[Text] = [header]
    if post.hints:
        parts.append(Text(" Checker hints (ppcheck) ", style=STYLE_HEADING))
        parts.append(Text("\n").join(safe(h, STYLE_META) for h in post.hints))
    parts.append(Text(" Question ", style=STYLE_HEADING))
    parts.extend(_body(_blocks(post), kw))
    parts.extend(_comments(post.comments, kw))
    for n, a in enumerate(post.answers, 1):
        head = Text(f" Answer {n}/{len(post.answers)} ", style=STYLE_HEADING)
        head.append(f"  #{a.id}  score {a.score if a.score is not None else '-'}", style=STYLE_META)
        if a.is_accepted:
            head.append("  ✔ accepted", style=STYLE_ACCEPTED)
        parts.append(head)
        parts.extend(_body(_blocks(a), kw))
        parts.extend(_comments(a.comments, kw))
    if not post.answers:
        parts.append(Text(" No answers ", style=STYLE_HEADING))
    return Text("\n\n").join(parts)


#: Starts the continuation of a code line, a link or a long word where it is folded, so that a folded line is
#: never read as two lines.
CODE_CONTINUATION = "↪ "
_LINK_LINE = re.compile(r"^(?:https?://)?[\w.-]+\.\w+/\S*$")


def code_line_numbers(text: Text) -> frozenset[int]:
    """The lines of a rendered post that are code (they get CODE_CONTINUATION where they wrap)."""
    plain = text.plain
    lines: set[int] = set()
    for span in text.spans:
        if span.style == STYLE_CODE_BG and span.end > span.start:
            first = plain.count("\n", 0, span.start)
            lines.update(range(first, first + plain.count("\n", span.start, span.end - 1) + 1))
    return frozenset(lines)


def wrap_post(content: Content, code_lines: frozenset[int], width: int) -> list[Content]:
    """``content`` wrapped to ``width``: prose between words; a code line, a link or one long word that does not
    fit folded with its continuation lines marked (a link that does not fit is shown without ``https://``
    first: ``o`` gives it whole)."""
    out: list[Content] = []
    mark = Content.styled(CODE_CONTINUATION, STYLE_META)
    for n, line in enumerate(content.split("\n", allow_blank=True)):
        if line.cell_length > width and _LINK_LINE.match(line.plain):
            line = line[line.plain.index("//") + 2 :]  # a narrow pane shows a link without https://
        folded = n in code_lines or _LINK_LINE.match(line.plain) or " " not in line.plain
        if not folded or line.cell_length <= width or width <= len(CODE_CONTINUATION) + 1:
            out.extend(line.wrap(width) or [line])
            continue
        out.append(line[:width])
        rest = line[width:]
        room = width - len(CODE_CONTINUATION)
        while rest.cell_length:
            out.append(Content.assemble(mark, rest[:room]))
            rest = rest[room:]
    return out


class PostReader:
    """Reads posts for a view, one ahead: ``warm(next_id)`` while the rater reads, ``get(current_id)`` on a key.

    Only the post data and its rendering are kept (a few posts): never labels, so the view stays blind.
    """

    def __init__(self, store, view: PostView, keyword_set_id: int | None = None, hints: bool = False) -> None:
        self.store, self.view, self.keyword_set_id, self.hints = store, view, keyword_set_id, hints
        self._posts: dict[PostKey, PostData] = {}

    def _load(self, question_id: PostKey) -> PostData | None:
        with self.store.read() as s:
            return load_post(s, question_id, self.keyword_set_id, self.hints)

    def _keep(self, post: PostData) -> None:
        self._posts.pop(post.key, None)
        if len(self._posts) >= KEEP_POSTS:
            self._posts.pop(next(iter(self._posts)))
        self._posts[post.key] = post

    def get(self, question_id: PostKey) -> PostData | None:
        """The post, read ahead or now. Recent posts stay at hand, so undo shows the previous post at once."""
        post = self._posts.get(question_id)
        if post is None:
            post = self._load(question_id)
        if post is not None:
            self._keep(post)
        return post

    def warm(self, question_id: PostKey | None) -> None:
        """Read and render a post ahead. Best effort: a database error here just means no head start."""
        if question_id is None or question_id in self._posts:
            return
        try:
            post = self._load(question_id)
        except SQLAlchemyError:
            return
        if post is not None:
            self._keep(post)
            self.view.prepare(post)


def _rendered(post: PostData) -> tuple[Content, frozenset[int]]:
    text = render_post(post)
    return Content.from_rich_text(text), code_line_numbers(text)


class PostView(ScrollView, can_focus=True):
    """A scrollable view of one post. ``show(None)`` shows a placeholder.

    Line-based: the post is wrapped once per width and only the visible lines are turned into strips, so moving
    to the next post costs the same for a ten-line post as for one with pages of code.
    """

    DEFAULT_CSS = "PostView { height: 1fr; overflow-x: hidden; overflow-y: scroll; padding: 0 1; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._post: PostData | None = None
        self._content: tuple[Content, frozenset[int]] = (Content("no post"), frozenset())
        self._lines: list[Content] = []
        self._strips: dict[int, Strip] = {}
        self._wrapped_width = 0
        self._prepared: dict[PostKey, tuple[PostData, tuple[Content, frozenset[int]]]] = {}

    @property
    def post(self) -> PostData | None:
        return self._post

    @property
    def lines(self) -> list[str]:
        """The wrapped lines as plain text (what scrolling walks through)."""
        return [line.plain for line in self._lines]

    def _remember(self, post: PostData, content: tuple[Content, frozenset[int]]) -> None:
        self._prepared.pop(post.key, None)
        if len(self._prepared) >= KEEP_POSTS:
            self._prepared.pop(next(iter(self._prepared)))
        self._prepared[post.key] = (post, content)

    def prepare(self, post: PostData) -> None:
        """Render ``post`` ahead of time (e.g. the next one in the queue) so that showing it is instant."""
        self._remember(post, _rendered(post))

    def show(self, post: PostData | None, placeholder: str = "no post") -> None:
        """Show ``post`` from its top."""
        self._post = post
        prepared = self._prepared.get(post.key) if post is not None else None
        if prepared is not None and prepared[0] is post:
            self._content = prepared[1]
        elif post is not None:
            self._content = _rendered(post)
        else:
            self._content = (Content.from_rich_text(Text(placeholder, style=STYLE_META)), frozenset())
        if post is not None:
            self._remember(post, self._content)  # recent posts stay rendered: undo goes back at once
        self._wrap()
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    def _wrap(self) -> None:
        width = self.scrollable_content_region.width
        self._wrapped_width = width
        self._strips.clear()
        self._lines = wrap_post(*self._content, width) if width > 0 else []
        self.virtual_size = Size(width, len(self._lines))

    def on_resize(self, event: events.Resize) -> None:
        if self.scrollable_content_region.width != self._wrapped_width:
            self._wrap()
            self.refresh()

    def render_line(self, y: int) -> Strip:
        _, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        if index >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        strip = self._strips.get(index)
        if strip is None:
            segments = self._lines[index].render_segments(self.visual_style)
            strip = Strip(segments).crop_extend(0, width, self.rich_style)
            self._strips[index] = strip
        return strip.apply_offsets(0, index)
