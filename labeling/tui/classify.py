"""`pplabel classify`: label each PP of a post with the codebook; every pick is committed when made.

Enter walks the empty fields of the current PP (symptom 1, symptom 2, root cause, introducing and exposing
stage) opening the codebook picker for each; direct keys edit one field. A post is done (``d``) once every PP has a
symptom, a root cause and both stages. Only this rater's own labels are ever read.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from rich.text import Text
from sqlalchemy.exc import SQLAlchemyError
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Static

from core.schema.labeling import PPLabel
from core.sites import PostKey
from core.text import terminal_safe
from labeling.queue import REQUIRED_LABELS, ClassifyQueue, Progress
from labeling.records import LABEL_FIELDS, delete_pp_label, set_pp_label, swap_pp_labels
from labeling.tui.common import (
    CodePicker,
    HelpScreen,
    PaceClock,
    StatusLine,
    TextPrompt,
    codebook_text,
    first_line,
    settle_memory,
)
from labeling.tui.links import open_post_link
from labeling.tui.post_view import PostReader, PostView
from mining.store import utcnow


@dataclass(frozen=True)
class Field:
    name: str  # column of pp_labels
    title: str
    dimension: str | None  # codebook dimension, None for free text
    key: str  # direct key on the main screen


FIELDS = [
    Field("symptom1", "Symptom 1", "symptom", "m"),
    Field("symptom2", "Symptom 2", "symptom", "M"),
    Field("root_cause", "Root cause", "root_cause", "r"),
    Field("introducing_stage", "Introducing stage", "stage", "i"),
    Field("exposing_stage", "Exposing stage", "stage", "e"),
    Field("part", "Part of the post", None, "p"),
    Field("note", "Comment", None, "c"),
]
GUIDED = [f.name for f in FIELDS if f.dimension]  # the fields Enter walks through
FIELD_BY_NAME = {f.name: f for f in FIELDS}

KEYS = [
    ("Enter", "label the field under the cursor; after a pick the cursor moves to the next empty field"),
    ("j / k", "move the field cursor down / up"),
    (
        " ".join(f.key for f in FIELDS),
        "edit one field: " + ", ".join(f"{f.key} {f.title.lower()}" for f in FIELDS),
    ),
    ("x", "clear the field under the cursor"),
    ("a", "add another PP to this post"),
    ("[ ]", "previous / next PP of this post"),
    ("{ }", "move this PP one place earlier / later (the order carries no meaning for agreement)"),
    ("D", "delete the last PP of this post"),
    ("o", "open the post's link in a browser (where none can be used, show the link)"),
    ("d", "done: every PP is labeled, go to the next post"),
    ("s", "skip: label later (it comes back at the end of this session)"),
    ("u", "undo the last change, skip or done"),
    ("↑ ↓ PgUp PgDn", "scroll the post"),
    ("?", "this help, with the codebook and its keys"),
    ("q", "quit (every change is already saved)"),
]


class LabelPanel(Static):
    """The current post's PPs as this rater labeled them, with the field cursor."""

    DEFAULT_CSS = "LabelPanel { width: 36%; min-width: 32; max-width: 50; height: 1fr; border-left: solid $accent; padding: 0 1; }"


class ClassifyApp(App[Progress]):
    TITLE = "pplabel classify"
    CSS = "#hints { dock: bottom; height: auto; max-height: 2; background: $boost; color: $text-muted; padding: 0 1; }"
    BINDINGS = [
        Binding("enter", "guided", "label"),
        Binding("j", "cursor(1)", "down", show=False),
        Binding("k", "cursor(-1)", "up", show=False),
        *(Binding(f.key, f"edit('{f.name}')", f.title, show=False) for f in FIELDS),
        Binding("x", "clear", "clear"),
        Binding("a", "add_pp", "add PP"),
        Binding("left_square_bracket", "switch_pp(-1)", "previous PP", show=False),
        Binding("right_square_bracket", "switch_pp(1)", "next PP", show=False),
        Binding("left_curly_bracket", "move_pp(-1)", "move PP earlier", show=False),
        Binding("right_curly_bracket", "move_pp(1)", "move PP later", show=False),
        Binding("D", "delete_pp", "delete PP"),
        Binding("o", "open_link", "link"),
        Binding("d", "done", "done"),
        Binding("s", "skip", "skip"),
        Binding("u", "undo", "undo"),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit_session", "quit"),
    ]

    def __init__(self, queue: ClassifyQueue, codebook, *, hints: bool = False) -> None:
        super().__init__()
        self.queue, self.codebook = queue, codebook
        self.hints = hints  # show ppcheck's findings (pplabel classify --hints)
        self.pps: dict[int, dict[str, str | None]] = {}  # pp_index -> field -> value, this rater's own
        self.pp = 1
        self.cursor = 0
        self._undo: list[tuple] = []
        self._shown = 0
        self.unreadable = ""  # why the current post cannot be edited (its labels could not be read)

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Horizontal():
            yield PostView(id="post")
            yield LabelPanel(Text(""), id="labels", markup=False)
        yield Static(
            Text(
                "Enter label · m M r i e p c field · a add PP · d done · s skip · u undo · o link · ? help · q quit"
            ),
            id="hints",
            markup=False,
        )

    def on_mount(self) -> None:
        view = self.query_one(PostView)
        view.focus()
        self.reader = PostReader(self.queue.store, view, hints=self.hints)
        self.clock = PaceClock(self.queue.finished_at)  # what the queue read: not read again
        self.load_current()

    # -- state --------------------------------------------------------------------------------------------

    @property
    def qid(self) -> PostKey | None:
        return self.queue.current

    def load_current(self, pp: int | None = None) -> None:
        """Read the current post and this rater's labels of it; show them."""
        qid = self.qid
        view = self.query_one(PostView)
        self.pps = {}
        self.unreadable = ""
        if qid is None:
            view.show(None, "No PP post left to label. Press q to quit (u undoes the last step).")
        else:
            try:
                post = self.reader.get(qid)
                with self.queue.store.read() as s:
                    rows = s.scalars(
                        sa.select(PPLabel)
                        .where(
                            PPLabel.rater_id == self.queue.rater_id,
                            PPLabel.site == qid.site,
                            PPLabel.question_id == qid.id,
                        )
                        .order_by(PPLabel.pp_index)
                    ).all()
            except SQLAlchemyError as exc:  # labels unknown: editing now could overwrite them, so refuse it
                self.unreadable = f"post {qid} not read: {first_line(exc)}"
                view.show(None, f"{self.unreadable}. Press s to skip, or q; everything so far is saved.")
            else:
                self.pps = {r.pp_index: {f: getattr(r, f) for f in LABEL_FIELDS} for r in rows}
                view.show(post, f"post {qid} is no longer stored: press s to skip it")
            self.set_timer(0.05, self._read_ahead)
        if not self.pps:
            self.pps = {1: dict.fromkeys(LABEL_FIELDS)}
        self.pp = pp if pp in self.pps else min(self.pps)
        self.cursor = self._first_empty()
        self.refresh_panel(self.unreadable)

    def _editable(self) -> bool:
        if self.unreadable:
            self.notify(self.unreadable, severity="error", markup=False)
        return self.qid is not None and not self.unreadable

    def _read_ahead(self) -> None:
        """While the rater reads: fetch and render the next post; now and then keep GC pauses short."""
        self.reader.warm(self.queue.upcoming)
        if self._shown % 100 == 0:
            settle_memory()
        self._shown += 1

    def _first_empty(self) -> int:
        values = self.pps[self.pp]
        for i, f in enumerate(FIELDS):
            if f.name in REQUIRED_LABELS and not values.get(f.name):
                return i
        return 0

    def _missing(self) -> list[str]:
        """What keeps the current post from being done, e.g. ['PP 2: root cause']."""
        out = []
        for pp, values in sorted(self.pps.items()):
            lacking = [FIELD_BY_NAME[f].title.lower() for f in REQUIRED_LABELS if not values.get(f)]
            if lacking:
                out.append(f"PP {pp}: {', '.join(lacking)}")
        return out

    def refresh_panel(self, problem: str = "", info: str = "") -> None:
        """Redraw the status line (``problem`` in red, ``info`` e.g. the link after `o`) and the label panel."""
        p = self.queue.progress
        extra = " · ".join(x for x in (f"post {self.qid}" if self.qid else "", info) if x)
        self.query_one(StatusLine).show(
            self.queue.rater_name, p.done, p.remaining, extra, problem, self.clock
        )
        out = Text()
        if self.qid is not None:
            tabs = Text()
            for pp in sorted(self.pps):
                tabs.append(f" PP {pp} ", style="bold reverse" if pp == self.pp else "dim")
                tabs.append(" ")
            out.append_text(tabs)
            out.append("\n\n")
            values = self.pps[self.pp]
            for i, f in enumerate(FIELDS):
                here = i == self.cursor
                out.append("▶ " if here else "  ", style="bold")
                out.append(f"[{f.key}] {f.title}", style="bold" if here else "")
                need = f.name in REQUIRED_LABELS
                out.append("\n    ")
                value = values.get(f.name)
                if not value:
                    out.append("(required)" if need else "-", style="red" if need else "dim")
                elif f.dimension:
                    out.append(self._describe(value))
                else:
                    out.append(terminal_safe(value), style="italic")
                out.append("\n")
            missing = self._missing()
            out.append("\n")
            out.append(
                "to do: " + "; ".join(missing) if missing else "complete: d for the next post", style="dim"
            )
        self.query_one(LabelPanel).update(out)

    def _describe(self, code: str) -> str:
        try:
            c = self.codebook.get(code)
        except Exception:  # noqa: BLE001 - a stored code the codebook no longer knows is shown as is
            return terminal_safe(code)
        return c.name if c.category_name in (None, "", c.name) else f"{c.category_name}: {c.name}"

    # -- writes -----------------------------------------------------------------------------------------------

    def _store(self, field: str, value: str | None) -> bool:
        """Commit one field of the current PP; remember how to undo it. False (and a message) on failure."""
        qid, pp = self.qid, self.pp
        values = self.pps[pp]
        if values.get(field) == value:
            return True
        existed = any(values.get(f) for f in LABEL_FIELDS)  # else undo deletes the row again
        try:
            with self.queue.writing_labels(qid) as (s, rater):
                set_pp_label(s, rater, qid, pp, **{field: value})
        except SQLAlchemyError as exc:
            self._failed("change", exc)
            return False
        self._undo.append(("label", qid, pp, dict(values), existed))
        values[field] = value
        self.refresh_panel()
        return True

    def _failed(self, what: str, exc: Exception) -> None:
        message = f"{what} not saved: {first_line(exc)}"
        self.notify(message, severity="error", timeout=8, markup=False)
        self.refresh_panel(message)

    # -- actions ----------------------------------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        self.cursor = (self.cursor + step) % len(FIELDS)
        self.refresh_panel()

    def action_edit(self, name: str) -> None:
        if not self._editable():
            return
        self.cursor = [f.name for f in FIELDS].index(name)
        self.refresh_panel()
        self._open(FIELDS[self.cursor], guided=False)

    def action_guided(self) -> None:
        if not self._editable():
            return
        self._open(FIELDS[self.cursor], guided=True)

    def _open(self, f: Field, guided: bool) -> None:
        current = self.pps[self.pp].get(f.name)
        title = f"PP {self.pp} · {f.title}"

        def done(value: str | None) -> None:
            if value is None:  # cancelled
                return
            if not self._store(f.name, value or None):
                return
            self._advance_guided(f.name)

        if f.dimension:
            picker = CodePicker(
                self.codebook, f.dimension, title, current, allow_clear=f.name not in REQUIRED_LABELS
            )
            self.push_screen(picker, done)
        else:
            self.push_screen(TextPrompt(title, current or ""), done)

    def _advance_guided(self, after: str) -> None:
        """After a pick, put the cursor on the next empty field (Enter opens it). The picker never opens by itself:
        keys typed after a pick belong to this screen again (``d p`` is Data Preparation, then the part)."""
        names = [f.name for f in FIELDS]
        values = self.pps[self.pp]
        for name in GUIDED[GUIDED.index(after) + 1 :] if after in GUIDED else []:
            if not values.get(name):
                self.cursor = names.index(name)
                self.refresh_panel()
                return
        self.cursor = names.index("part") if len(self.pps) > 1 and not values.get("part") else self.cursor
        self.refresh_panel()

    def action_clear(self) -> None:
        if self._editable():
            self._store(FIELDS[self.cursor].name, None)

    def action_add_pp(self) -> None:
        if not self._editable():
            return
        if not any(self.pps[max(self.pps)].values()):
            self.notify(f"PP {max(self.pps)} is still empty: label it first")
            self.pp = max(self.pps)
        else:
            self.pp = max(self.pps) + 1
            self.pps[self.pp] = dict.fromkeys(LABEL_FIELDS)
        self.cursor = 0
        self.refresh_panel()
        self._open(FIELDS[0], guided=True)

    def action_switch_pp(self, step: int) -> None:
        order = sorted(self.pps)
        self.pp = order[(order.index(self.pp) + step) % len(order)]
        self.cursor = self._first_empty()
        self.refresh_panel()

    def action_move_pp(self, step: int) -> None:
        """Exchange the current PP with its neighbour (saved at once); the cursor stays on the moved PP."""
        if not self._editable():
            return
        order = sorted(self.pps)
        here = order.index(self.pp)
        if not 0 <= here + step < len(order):
            self.notify(f"PP {self.pp} is already the {'first' if step < 0 else 'last'}")
            return
        other = order[here + step]
        try:
            with self.queue.writing_labels(self.qid) as (s, rater):
                swap_pp_labels(s, rater, self.qid, self.pp, other)
        except SQLAlchemyError as exc:
            self._failed("move", exc)
            return
        self._undo.append(("swap", self.qid, self.pp, other))
        self.pps[self.pp], self.pps[other] = self.pps[other], self.pps[self.pp]
        self.pp = other
        self.refresh_panel()

    def action_delete_pp(self) -> None:
        if not self._editable():
            return
        last = max(self.pps)
        if last == 1:
            self.notify("a PP post keeps at least PP 1 (clear its fields instead)")
            return
        values = self.pps[last]
        if any(values.values()):
            try:
                with self.queue.writing_labels(self.qid) as (s, rater):
                    delete_pp_label(s, rater, self.qid, last)
            except SQLAlchemyError as exc:
                self._failed("delete", exc)
                return
            self._undo.append(("deleted", self.qid, last, dict(values)))
        del self.pps[last]
        self.pp = min(self.pp, max(self.pps))
        self.refresh_panel()

    def action_done(self) -> None:
        if not self._editable():
            return
        missing = self._missing()
        if missing:
            last = max(self.pps)
            hint = " (D drops the empty last PP)" if last > 1 and not any(self.pps[last].values()) else ""
            self.notify("not done yet: " + "; ".join(missing) + hint, severity="warning", markup=False)
            return
        self.queue.finish()
        self.clock.tick(utcnow())
        self._undo.append(("nav",))
        self.load_current()

    def action_open_link(self) -> None:
        message = open_post_link(self.query_one(PostView).post, self.qid)
        if message:
            self.refresh_panel(self.unreadable, info=message)

    def action_skip(self) -> None:
        if self.qid is None:
            return
        before = self.qid
        if self.queue.skip() != before:
            self._undo.append(("nav",))
        self.load_current()

    def action_undo(self) -> None:
        if not self._undo:
            self.notify("nothing to undo in this session")
            return
        entry = self._undo[-1]
        try:
            if entry[0] == "nav":
                self.queue.undo_navigation()
                self._undo.pop()
                self.notify("undone: back to the post you were on")
                self.load_current()
                return
            kind, qid, pp, before = entry[:4]
            with self.queue.writing_labels(qid) as (s, rater):
                if kind == "swap":
                    swap_pp_labels(s, rater, qid, pp, before)
                elif kind == "label" and not entry[4]:
                    delete_pp_label(s, rater, qid, pp)
                else:
                    set_pp_label(s, rater, qid, pp, **before)
        except SQLAlchemyError as exc:
            self._failed("undo", exc)
            return
        self._undo.pop()
        what = {"swap": "the PP swap", "label": "the label change", "deleted": "the PP drop"}[kind]
        self.notify(f"undone: {what} on PP {qid}_{pp}")
        self.load_current(pp=pp)
        if pp not in self.pps:  # an undone first field of an added PP: keep showing it, empty
            self.pps[pp] = dict.fromkeys(LABEL_FIELDS)
            self.pp = pp
            self.refresh_panel()

    def action_help(self) -> None:
        extra = codebook_text(
            self.codebook, [("symptom", "Symptoms"), ("root_cause", "Root causes"), ("stage", "Stages")]
        )
        extra.append("In a picker, ? shows the disambiguation notes of the highlighted code.", style="dim")
        self.push_screen(HelpScreen("pplabel classify: label each PP of the post", KEYS, extra))

    def action_quit_session(self) -> None:
        self.exit(self.queue.progress)
