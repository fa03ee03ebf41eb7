"""`pplabel identify`: one key per decision on each candidate post (PP or not), committed when the key is pressed."""

from __future__ import annotations

import sqlalchemy as sa
from rich.text import Text
from sqlalchemy.exc import SQLAlchemyError
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from labeling.models import Identification
from labeling.queue import IdentifyQueue, Progress
from labeling.tui.common import HelpScreen, PaceClock, StatusLine, first_line, settle_memory
from labeling.tui.post_view import PostReader, PostView
from mining.store import utcnow

KEYS = [
    ("y", "the post reports a performance problem (PP)"),
    ("n", "not a PP"),
    ("s", "skip: decide later (it comes back at the end of this session)"),
    ("u", "undo the last decision or skip"),
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
    CSS = "#hints { dock: bottom; height: 1; background: $boost; color: $text-muted; padding: 0 1; }"
    BINDINGS = [
        Binding("y", "decide(True)", "PP"),
        Binding("n", "decide(False)", "not PP"),
        Binding("s", "skip", "skip"),
        Binding("u", "undo", "undo"),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit_session", "quit"),
    ]

    def __init__(self, queue: IdentifyQueue, *, hints: bool = False) -> None:
        super().__init__()
        self.queue = queue
        self.hints = hints  # show ppcheck's findings (pplabel identify --hints)
        self._shown = 0
        self.last = ""  # the rater's own last step, so they know what u will take back

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield PostView(id="post")
        yield Static(Text("y PP · n not PP · s skip · u undo · ? help · q quit"), id="hints", markup=False)

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
        if qid is None:
            view.show(None, "All candidates decided. Press q to quit (u undoes the last decision).")
        else:
            problem = ""
            try:
                view.show(self.reader.get(qid), f"post {qid} is no longer stored: press s to skip it")
            except SQLAlchemyError as exc:
                problem = f"post {qid} not read: {first_line(exc)}"
                view.show(None, f"{problem}. Press s to skip, or u / q; your decisions so far are saved.")
            self.set_timer(0.05, self._read_ahead)
            self.show_status(problem)
            return
        self.show_status()

    def show_status(self, problem: str = "") -> None:
        p, qid = self.queue.progress, self.queue.current
        ranked = self.queue.ranking.status().line() if self.queue.ranking is not None else ""
        extra = " · ".join(x for x in (ranked, f"post {qid}" if qid else "", self.last) if x)
        self.query_one(StatusLine).show(
            self.queue.rater_name, p.done, p.remaining, extra, problem, self.clock
        )

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

    def action_help(self) -> None:
        self.push_screen(
            HelpScreen("pplabel identify: is this post a performance problem?", KEYS, WHAT_IS_A_PP)
        )

    def action_quit_session(self) -> None:
        self.exit(self.queue.progress)
