"""`pplabel identify`: one key per decision on each candidate post (PP or not), committed when the key is pressed.

Besides deciding: ``c`` notes the post (``n`` is "not a PP" here; ``c`` is the comment key on classify too, so a
key means one thing on every screen), ``h`` lists the rater's own decisions to go back to one, ``/`` searches the
rater's candidates, ``o`` opens the post's link. A post visited from ``h`` or ``/`` is decided again with y/n (the
change is audited, u puts the old decision back); s leaves it as it is; then the queue goes on where it was.
"""

from __future__ import annotations

import sqlalchemy as sa
from rich.text import Text
from sqlalchemy.exc import SQLAlchemyError
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from core.errors import PPMinerError
from core.schema.labeling import Identification
from core.sites import PostKey
from core.text import terminal_safe
from labeling.queue import IdentifyQueue, Progress
from labeling.revisit import SearchResult, own_decisions, search_candidates
from labeling.tui.common import HelpScreen, PaceClock, StatusLine, TextPrompt, first_line, settle_memory
from labeling.tui.links import open_post_link
from labeling.tui.post_view import PostReader, PostView
from labeling.tui.revisit import HistoryScreen, SearchScreen
from mining.store import utcnow

KEYS = [
    ("y", "the post reports a performance problem (PP)"),
    ("n", "not a PP"),
    ("s", "skip: decide later (it comes back at the end of this session)"),
    ("u", "undo the last decision or skip (a changed decision gets its old value back)"),
    ("c", "comment: a note on this post's decision (typed before y/n, it is saved with the decision)"),
    (
        "h",
        "history: your decisions, newest first; type a post id (136, ai:136) or pick a row to decide again",
    ),
    ("/", "search your candidates by words of the title, text or code, or by a matched keyword"),
    ("o", "open the post's link in a browser (or show it to copy)"),
    ("↑ ↓ PgUp PgDn Home End", "scroll the post"),
    ("?", "this help"),
    ("q", "quit (every decision is already saved)"),
]

WHAT_IS_A_PP = Text(
    "A post is a PP when the asker's program works but costs too much: it runs or starts too slowly, slows down "
    "over time or hangs, runs out of memory or leaks it, or uses the GPU/CPU abnormally (or not at all). A "
    "crash or a wrong result is not a PP unless it comes from such a cost (e.g. an out-of-memory abort). A "
    "matched keyword only made the post a candidate; decide on what the asker describes.",
    style="italic",
)


class IdentifyApp(App[Progress]):
    """Walks an :class:`IdentifyQueue`; ``app.run()`` returns the progress at exit."""

    TITLE = "pplabel identify"
    CSS = """
    #bottom { dock: bottom; height: auto; }
    #hints { height: auto; max-height: 2; background: $boost; color: $text-muted; padding: 0 1; }
    #message { height: auto; max-height: 3; padding: 0 1; background: $panel; display: none; }
    """
    HINTS = "y PP · n not PP · s skip · u undo · c note · h history · / search · o link · ? help · q quit"
    BINDINGS = [
        Binding("y", "decide(True)", "PP"),
        Binding("n", "decide(False)", "not PP"),
        Binding("s", "skip", "skip"),
        Binding("u", "undo", "undo"),
        Binding("c", "note", "note"),
        Binding("h", "history", "history"),
        Binding("slash", "search", "search"),
        Binding("o", "open_link", "link"),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit_session", "quit"),
    ]

    def __init__(self, queue: IdentifyQueue, *, hints: bool = False) -> None:
        super().__init__()
        self.queue = queue
        self.hints = hints  # show ppcheck's findings (pplabel identify --hints)
        self._shown = 0
        self.last = ""  # the rater's own last step, so they know what u will take back
        self._quit_warned = False  # q with unsaved notes warns once; the second q quits
        self._visited: tuple[bool, str | None] | None = (
            None  # stored (is_pp, note) of a post visited out of turn
        )

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield PostView(id="post")
        with Vertical(id="bottom"):
            yield Static(Text(""), id="message", markup=False)
            yield Static(Text(self.HINTS), id="hints", markup=False)

    def on_mount(self) -> None:
        view = self.query_one(PostView)
        view.focus()
        self.reader = PostReader(self.queue.store, view, self.queue.keyword_set_id, hints=self.hints)
        self.clock = PaceClock()
        try:
            with self.queue.store.read() as s:
                self.clock = PaceClock(
                    s.scalars(
                        sa.select(Identification.decided_at).where(
                            Identification.rater_id == self.queue.rater_id
                        )
                    ).all()
                )
        except SQLAlchemyError:  # no pace is no reason to stop a session
            pass
        self.show_current()

    def show_current(self) -> None:
        qid = self.queue.current
        view = self.query_one(PostView)
        self._say("")
        self._visited = None
        if qid is None:
            view.show(None, "All candidates decided. Press q to quit (u undoes the last decision).")
        else:
            problem = ""
            try:
                view.show(self.reader.get(qid), f"post {qid} is no longer stored: press s to skip it")
                if self.queue.visiting:
                    self._visited = self.queue.stored_decision(qid)
            except SQLAlchemyError as exc:
                problem = f"post {qid} not read: {first_line(exc)}"
                view.show(None, f"{problem}. Press s to skip, or u / q; your decisions so far are saved.")
            self.set_timer(0.05, self._read_ahead)
            self.show_status(problem)
            return
        self.show_status()

    def _post_context(self, qid: PostKey | None) -> str:
        """What the status line says about the post shown: visited out of turn (and the decision it holds), its
        note."""
        if qid is None:
            return ""
        parts = [f"post {qid}"]
        note = self.queue.draft_note(qid)
        if self.queue.visiting:
            if self._visited is not None:
                parts.append(
                    f"you decided {'PP' if self._visited[0] else 'not PP'}: y/n change it, s leaves it"
                )
                note = note or self._visited[1]
            else:
                parts.append("out of turn: s goes back to the queue")
        if note:
            start = " ".join(note.split())
            parts.append(f"note: {start[:40]}…" if len(start) > 40 else f"note: {start}")
        return " · ".join(parts)

    def show_status(self, problem: str = "") -> None:
        p, qid = self.queue.progress, self.queue.current
        ranked = self.queue.ranking.status().line() if self.queue.ranking is not None else ""
        extra = " · ".join(x for x in (ranked, self._post_context(qid), self.last) if x)
        self.query_one(StatusLine).show(
            self.queue.rater_name, p.done, p.remaining, extra, problem, self.clock
        )

    def _say(self, message: str) -> None:
        """A line above the key hints that stays until the next post is shown (a link to copy, a refusal)."""
        line = self.query_one("#message", Static)
        line.update(Text(terminal_safe(message, keep_newlines=False)))
        line.display = bool(message)

    def _read_ahead(self) -> None:
        """While the rater reads: fetch and render the next post; now and then keep GC pauses short."""
        self.reader.warm(self.queue.upcoming)
        if self._shown % 100 == 0:
            settle_memory()
        self._shown += 1

    def _guarded(self, what: str, step) -> None:
        """Run a database step; on failure keep the current post and say why (nothing is half-stored)."""
        try:
            step()
        except SQLAlchemyError as exc:
            message = f"{what} not saved: {first_line(exc)}"
            self.notify(message, severity="error", timeout=8, markup=False)
            self.show_status(message)
            return
        self.show_current()

    def action_decide(self, is_pp: bool) -> None:
        if self.queue.current is None:
            return
        qid = self.queue.current

        def step():
            self.queue.decide(is_pp)
            self.clock.tick(utcnow())
            self.last = f"last: {qid} {'PP' if is_pp else 'not PP'} (u undoes)"

        self._guarded("decision", step)

    def action_skip(self) -> None:
        self.queue.skip()
        self.show_current()

    def action_undo(self) -> None:
        def step():
            undone = self.queue.undo()
            self.last = f"undone: {undone}" if undone is not None else ""
            if undone is None:
                self.notify("nothing to undo")

        self._guarded("undo", step)

    # -- notes, going back, searching, the link --

    def action_note(self) -> None:
        qid = self.queue.current
        if qid is None:
            self._say("no post to note")
            return
        try:
            stored = self.queue.stored_decision(qid)
        except SQLAlchemyError as exc:
            self._say(f"note not read: {first_line(exc)}")
            return
        current = self.queue.draft_note(qid) or (stored[1] if stored else None) or ""
        when = "on your decision" if stored else "saved with your y/n"
        self.push_screen(
            TextPrompt(f"Note on post {qid} ({when}; empty clears it)", current, select=False),
            lambda text: self._save_note(qid, text),
        )

    def _save_note(self, qid: PostKey, text: str | None) -> None:
        if text is None or self.queue.current != qid:
            return
        try:
            stored = self.queue.set_note(text)
        except SQLAlchemyError as exc:
            message = f"note not saved: {first_line(exc)}"
            self.notify(message, severity="error", timeout=8, markup=False)
            self.show_status(message)
            return
        if stored and self._visited is not None:
            self._visited = (self._visited[0], text or None)
        if not text:
            self.last = f"note on {qid} cleared"
        else:
            self.last = f"note saved on {qid}" if stored else f"note on {qid} kept: y/n saves it"
        self.show_status()

    def _refusal(self, post: PostKey) -> str | None:
        """Why ``post`` cannot be shown in this session, or None when it can."""
        if self.queue.in_scope(post):
            return None
        where = "in this sample" if self.queue.sample else "of the latest keyword set"
        return f"post {post} is not one of your candidates {where}"

    def _visit(self, post: PostKey | None) -> None:
        if post is None:
            return
        if not self.queue.visit(post):
            self._say(self._refusal(post) or "")
            return
        self.show_current()

    def action_history(self) -> None:
        try:
            decisions = own_decisions(self.queue.store, self.queue.rater_id)
        except SQLAlchemyError as exc:
            self._say(f"history not read: {first_line(exc)}")
            return
        self.push_screen(HistoryScreen(decisions, self._refusal), self._visit)

    def _search(self, query: str) -> SearchResult:
        try:
            return search_candidates(
                self.queue.store,
                self.queue.keyword_set_id,
                self.queue.scope,
                self.queue.pending_posts,
                query,
            )
        except SQLAlchemyError as exc:
            raise PPMinerError(f"search failed: {first_line(exc)}") from None

    def action_search(self) -> None:
        self.push_screen(SearchScreen(self._search, self._refusal), self._visit)

    def action_open_link(self) -> None:
        qid = self.queue.current
        if qid is None:
            return
        post = self.query_one(PostView).post
        message = open_post_link(post if post is not None and post.key == qid else None, qid)
        if message:
            self._say(message)

    def action_help(self) -> None:
        self.push_screen(
            HelpScreen("pplabel identify: is this post a performance problem?", KEYS, WHAT_IS_A_PP)
        )

    def action_quit_session(self) -> None:
        unsaved = self.queue.unsaved_notes()
        if unsaved and not self._quit_warned:
            self._quit_warned = True
            posts = ", ".join(str(p) for p in unsaved[:3]) + (" ..." if len(unsaved) > 3 else "")
            self._say(f"notes on undecided posts are not saved ({posts}): decide them, or q again to quit")
            return
        self.exit(self.queue.progress)
