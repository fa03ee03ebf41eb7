"""`pplabel reconcile`: an adjudicator settles what the raters disagree on, seeing their answers side by side.

Disputed identifications come first (y / n), then the disputed labels of PP posts: for each PP the fields the
raters differ on are decided one after the other, by taking a rater's value (its column number) or picking a
code from the codebook (Enter); the PP's final labels are committed when its last open field is decided. Items the
raters agree on were made final when the session opened. The adjudicator is not blind: rater names are shown.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from rich.text import Text
from sqlalchemy.exc import SQLAlchemyError
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from core.errors import PPMinerError
from core.text import terminal_safe
from labeling.reconcile import (
    CODEBOOK_DIMENSION,
    CODED_FIELDS,
    AlreadyDecided,
    IdentificationItem,
    LabelItem,
    ReconcileSession,
    Summary,
    standing,
)
from labeling.tui.common import CodePicker, HelpScreen, StatusLine, codebook_text
from labeling.tui.links import open_post_link
from labeling.tui.post_view import PostView, load_post
from labeling.vocabulary import AGREEMENT_MIN_RATERS

TITLES = {
    "symptom1": "Symptom 1",
    "symptom2": "Symptom 2",
    "root_cause": "Root cause",
    "introducing_stage": "Introducing stage",
    "exposing_stage": "Exposing stage",
    "part": "Part of the post",
    "note": "Comment",
}
MAX_RATERS = 9  # raters are picked by the digits 1-9

KEYS = [
    ("y / n", "identification: the post is a PP / is not a PP"),
    ("1-9", "labels: take that rater's value for the field under the cursor"),
    ("Enter", "labels: pick the field's code from the codebook (its keys, e.g. t1, or / to filter)"),
    ("-", "labels: no second symptom"),
    ("j / k", "labels: move to the next / previous field to decide"),
    ("s", "skip: decide later (it comes back at the end of this session)"),
    ("u", "undo the last pick, decision or skip"),
    ("o", "open the post's link in a browser (or show it to copy)"),
    ("↑ ↓ PgUp PgDn Home End", "scroll the post"),
    ("?", "this help, with the codebook and its keys"),
    ("q", "quit (every decision is already saved)"),
]


@dataclass(frozen=True)
class Outcome:
    """What a session did, for the command's closing line."""

    summary: Summary
    decided: int
    remaining: int


class HangingLines:
    """Text whose wrapped lines continue under their value, not at the panel's edge: ``   1 ann   API: Not
    Using`` goes on under ``API``. A line's value starts after its label (two or more spaces, or ``: ``)."""

    _LABEL = re.compile(r"^(\s*\S.*?(?:  +|: ))\S")

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console, options):
        width = options.max_width
        for line in self.text.split("\n", allow_blank=True):
            found = self._LABEL.match(line.plain)
            hang = len(found.group(1)) if found else 0
            if not hang or hang > width // 2 or line.cell_len <= width:
                yield from line.wrap(console, width)
                continue
            label, value = line[:hang], line[hang:]
            for n, piece in enumerate(value.wrap(console, width - hang)):
                yield Text.assemble(label if n == 0 else " " * hang, piece)


class RatingsPanel(Static):
    """The raters' answers for the current item side by side, and the final being built."""

    DEFAULT_CSS = "RatingsPanel { width: 1fr; height: auto; padding: 0 1; }"


class ReconcileApp(App[Outcome]):
    TITLE = "pplabel reconcile"
    CSS = """
    #hints { dock: bottom; height: auto; max-height: 2; background: $boost; color: $text-muted; padding: 0 1; }
    #ratings-scroll { width: 1fr; height: 1fr; border-left: solid $accent; }
    #message { height: auto; max-height: 3; color: $warning; padding: 0 1; display: none; }
    PostView { width: 1fr; }
    """
    BINDINGS = [
        Binding("y", "identify(True)", "PP"),
        Binding("n", "identify(False)", "not PP"),
        *(Binding(str(n), f"take({n})", f"rater {n}", show=False) for n in range(1, MAX_RATERS + 1)),
        Binding("enter", "pick", "pick from the codebook"),
        Binding("minus", "clear", "no symptom 2", show=False),
        Binding("j", "cursor(1)", "next field", show=False),
        Binding("k", "cursor(-1)", "previous field", show=False),
        Binding("s", "skip", "skip"),
        Binding("u", "undo", "undo"),
        Binding("o", "open_link", "link"),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit_session", "quit"),
    ]

    def __init__(self, session: ReconcileSession, codebook) -> None:
        super().__init__()
        self.session, self.codebook = session, codebook
        self.chosen: dict[str, str | None] = {}  # picks for the current PP, committed when complete
        self.cursor = 0  # index into the current PP's open fields
        self._shown_key: str | None = None

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        with Horizontal():
            yield PostView(id="post")
            with VerticalScroll(id="ratings-scroll", can_focus=False):
                yield RatingsPanel(Text(""), id="ratings", markup=False)
        yield Static(Text(""), id="message", markup=False)
        yield Static(Text(""), id="hints", markup=False)

    def on_mount(self) -> None:
        self.query_one(PostView).focus()
        s = self.session.summary
        if s.identifications_agreed or s.labels_agreed:
            self.notify(
                f"made final on agreement: {s.identifications_agreed} identifications, {s.labels_agreed} PPs' labels"
            )
        self.show_current()

    # -- display ----------------------------------------------------------------------------------------------

    @property
    def item(self) -> IdentificationItem | LabelItem | None:
        return self.session.current

    def show_current(self) -> None:
        """Show the current item; load its post only when the item changed (picks keep the scroll position)."""
        item = self.item
        key = None if item is None else f"{type(item).__name__}:{item.key}"
        if key != self._shown_key:
            self._shown_key = key
            self.chosen, self.cursor = {}, 0
            view = self.query_one(PostView)
            if item is None:
                view.show(None, "Nothing left to reconcile. Press q to quit (u undoes the last decision).")
            else:
                with self.session.store.read() as s:
                    post = load_post(s, item.question_id)
                view.show(
                    post, f"post {item.question_id} is not stored (an import stub?): decide from the labels"
                )
        self.refresh_panel()

    def refresh_panel(self) -> None:
        item = self.item
        if isinstance(item, IdentificationItem):
            where, body, hints = (
                f"identification · post {item.question_id}",
                self._identification(item),
                "y PP · n not PP · 1-9 rater's",
            )
        elif isinstance(item, LabelItem):
            field = self._field()
            where = (
                f"labels · PP {item.key} · {TITLES[field].lower()}" if field else f"labels · PP {item.key}"
            )
            body, hints = self._labels(item), "1-9 take rater's · Enter codebook · - none · j k field"
        else:
            where, body, hints = "", self._finished(), ""
        self.query_one(StatusLine).show(
            f"adjudicator {self.session.adjudicator_name}",
            self.session.decided,
            self.session.remaining,
            where,
        )
        self.query_one(RatingsPanel).update(HangingLines(body))
        common = "s skip · u undo · o link · ? help · q quit"
        self.query_one("#hints", Static).update(Text(f"{hints} · {common}" if hints else common))

    def _raters(self, names) -> list[tuple[int, str]]:
        return list(enumerate(names, 1))

    def _identification(self, item: IdentificationItem) -> Text:
        out = Text()
        out.append(f"Is post {item.question_id} a performance problem?", style="bold")
        out.append("  the raters disagree\n\n", style="dim")
        for n, name in self._raters(item.votes):
            out.append(f" {n} ", style="bold reverse")
            out.append(f" {terminal_safe(name, keep_newlines=False)}: ")
            out.append(
                "PP" if item.votes[name] else "not PP", style="bold green" if item.votes[name] else "bold red"
            )
            out.append("\n")
        if item.final_method:
            stored = "PP" if item.final else "not PP"
            out.append(
                f"\nstored final: {stored} ({item.final_method}; the raters changed since)\n", style="yellow"
            )
        out.append("\ny: it is a PP   n: it is not   1-9: as that rater decided\n", style="dim")
        return out

    def _field(self) -> str | None:
        item = self.item
        if not isinstance(item, LabelItem) or not item.open_fields:
            return None
        return item.open_fields[min(self.cursor, len(item.open_fields) - 1)]

    def _describe(self, field: str, code: str | None) -> Text:
        if not code:
            return Text("-", style="dim")
        try:
            c = self.codebook.get(code, CODEBOOK_DIMENSION[field])
            name = c.name if c.category_name in (None, "", c.name) else f"{c.category_name}: {c.name}"
        except PPMinerError:  # a code the codebook no longer has is shown as stored
            name = code
        return Text(terminal_safe(name, keep_newlines=False))

    def _notes(self, item: LabelItem, field: str | None) -> Text:
        """The codebook's disambiguation notes between the codes the raters gave for ``field``."""
        given = {r.get(field) for r in item.ratings.values() if r is not None and field} - {None}
        out = Text()
        if len(given) < 2:
            return out
        for note in self.codebook.notes:
            if len(given & set(note.codes)) >= 2:
                out.append("\nnote: ", style="bold")
                out.append(note.text, style="italic")
        return out

    def _value(self, field: str, value: str | None) -> Text:
        if field in CODED_FIELDS:
            return self._describe(field, value)
        return Text(terminal_safe(value or "-", keep_newlines=False), style="" if value else "dim")

    def _labels(self, item: LabelItem) -> Text:
        """Field by field, never a table: every value is shown in full and wraps at any width. A field the raters
        agree on is one line; one they differ on lists each rater's value and the final being built."""
        names = list(item.ratings)
        out = Text()
        out.append(f"PP {item.key}", style="bold")
        differ = ", ".join(TITLES.get(f, f).lower() for f in item.disagreements)
        out.append(f": the raters differ on {differ}\n", style="")
        agreed = item.agreed_values()
        current = self._field()
        width = max((len(terminal_safe(n, keep_newlines=False)) for n in names), default=0) + 3
        fields = (*CODED_FIELDS, "part", "note")
        for field in [f for f in fields if f in item.open_fields]:  # what is to decide first, then the rest
            here = field == current
            given = {("value", r.get(field)) if r is not None else ("no PP",) for r in item.ratings.values()}
            out.append("\n")
            out.append("▶ " if here else "≠ " if len(given) > 1 else "  ", style="bold yellow")
            out.append(f"{TITLES[field]}\n", style="bold" if here else "")
            for n, name in self._raters(names):
                label = f"{n} {terminal_safe(name, keep_newlines=False)}"
                out.append(f"   {label:<{width}} ", style="bold" if here else "")
                rating = item.ratings[name]
                if rating is None:
                    out.append(f"no PP {item.pp_index}", style="italic dim")
                else:
                    out.append_text(self._value(field, rating.get(field)))
                out.append("\n")
            out.append(f"   {'final':<{width}} ", style="bold")
            if field in self.chosen:
                final = self._value(field, self.chosen[field])
                final.stylize("bold green")
                out.append_text(final)
            else:
                out.append("?", style="bold yellow")
            out.append("\n")
        out.append("\nagreed:\n", style="dim")
        for field in [f for f in fields if f not in item.open_fields]:
            out.append(f"  {TITLES[field]}: ", style="dim")
            out.append_text(self._value(field, agreed.get(field)))
            out.append("\n")
        out.append_text(self._notes(item, current))
        return out

    def _finished(self) -> Text:
        s = self.session.summary
        out = Text("Nothing left to reconcile in this session.\n\n", style="bold")
        out.append(f"decided now: {self.session.decided}\n")
        out.append(
            f"made final on agreement: {s.identifications_agreed} identifications, {s.labels_agreed} PPs\n"
        )
        out.append(
            f"waiting for more raters: {s.identifications_pending} posts, {s.labels_pending} PPs\n",
            style="dim",
        )
        return out

    # -- actions ----------------------------------------------------------------------------------------------

    def _guarded(self, what: str, step) -> bool:
        """Run a database step; on failure keep the item as it was and say why (nothing is half-stored)."""
        try:
            step()
        except AlreadyDecided as exc:
            self._say(str(exc))
            self._shown_key = None
            return False
        except SQLAlchemyError as exc:
            first = (str(getattr(exc, "orig", None) or exc).strip().splitlines() or ["?"])[0]
            self._say(f"{what} not saved: {first}")
            return False
        self._say("")
        return True

    def _say(self, message: str, warn: bool = True) -> None:
        """A line that stays on screen (above the key hints) until the next decision is saved."""
        line = self.query_one("#message", Static)
        line.update(Text(terminal_safe(message, keep_newlines=False)))
        line.display = bool(message)
        if message and warn:
            self.notify(message, severity="warning", timeout=8)

    def action_open_link(self) -> None:
        item = self.item
        message = open_post_link(
            self.query_one(PostView).post, item.question_id if item is not None else None
        )
        if message:
            self._say(message, warn=False)

    def action_identify(self, is_pp: bool) -> None:
        if not isinstance(self.item, IdentificationItem):
            return
        self._guarded("decision", lambda: self.session.decide_identification(is_pp))
        self.show_current()

    def action_take(self, n: int) -> None:
        item, field = self.item, self._field()
        if isinstance(item, IdentificationItem):  # the numbered raters: take that rater's decision
            names = list(item.votes)
            if n > len(names):
                self.notify(f"there are only {len(names)} raters")
                return
            self.action_identify(item.votes[names[n - 1]])
            return
        if not isinstance(item, LabelItem) or field is None:
            return
        names = list(item.ratings)
        if n > len(names):
            self.notify(f"there are only {len(names)} raters")
            return
        rating = item.ratings[names[n - 1]]
        if rating is None:
            self.notify(f"{names[n - 1]} did not label PP {item.key}")
            return
        self._choose(field, rating.get(field))

    def action_pick(self) -> None:
        item, field = self.item, self._field()
        if not isinstance(item, LabelItem) or field is None:
            return

        def done(code: str | None) -> None:
            if code is not None:  # None: cancelled
                self._choose(field, code or None)

        title = f"PP {item.key} · {TITLES[field]}"
        current = self.chosen.get(field)
        self.push_screen(
            CodePicker(
                self.codebook, CODEBOOK_DIMENSION[field], title, current, allow_clear=field == "symptom2"
            ),
            done,
        )

    def action_clear(self) -> None:
        if self._field() == "symptom2":
            self._choose("symptom2", None)

    def _choose(self, field: str, value: str | None) -> None:
        """Record one pick; move to the next undecided field, or commit the PP's final labels when none is left."""
        item = self.item
        assert isinstance(item, LabelItem)
        if value is None and field != "symptom2":
            self.notify(f"{TITLES[field]} needs a code")
            return
        self.chosen[field] = value
        undecided = [f for f in item.open_fields if f not in self.chosen]
        if undecided:
            self.cursor = item.open_fields.index(undecided[0])
            self.refresh_panel()
            return
        if self._guarded("labels", lambda: self.session.decide_label(dict(self.chosen))):
            self.show_current()
        else:
            self.refresh_panel()

    def action_cursor(self, step: int) -> None:
        item = self.item
        if isinstance(item, LabelItem) and item.open_fields:
            self.cursor = (self.cursor + step) % len(item.open_fields)
            self.refresh_panel()

    def action_skip(self) -> None:
        if self.item is not None:
            self.session.skip()
            self._shown_key = None
            self.show_current()

    def action_undo(self) -> None:
        """A pick of the current PP first; else the last committed decision or skip."""
        if self.chosen:
            last = list(self.chosen)[-1]
            del self.chosen[last]
            item = self.item
            if isinstance(item, LabelItem):
                self.cursor = item.open_fields.index(last)
            self.refresh_panel()
            return
        result: list = []
        if self._guarded("undo", lambda: result.append(self.session.undo())) and result[0] is None:
            self.notify("nothing to undo in this session")
        self._shown_key = None
        self.show_current()

    def action_help(self) -> None:
        extra = codebook_text(
            self.codebook, [("symptom", "Symptoms"), ("root_cause", "Root causes"), ("stage", "Stages")]
        )
        extra.append("In a picker, ? shows the disambiguation notes of the highlighted code.", style="dim")
        self.push_screen(HelpScreen("pplabel reconcile: settle the raters' disagreements", KEYS, extra))

    def action_quit_session(self) -> None:
        self.exit(Outcome(self.session.summary, self.session.decided, self.session.remaining))


def run_reconcile(
    store, codebook_file, adjudicator: str, min_raters: int = AGREEMENT_MIN_RATERS
) -> list[str]:
    """Finalise the agreed items, then let the adjudicator walk the rest; returns the lines to print."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise PPMinerError(
            "pplabel reconcile is interactive: run it in a terminal (or use --auto-only to only finalise agreed items)"
        )
    from labeling.codebook import load_codebook

    codebook = load_codebook(codebook_file)
    session = ReconcileSession(store, adjudicator, min_raters)
    outcome = ReconcileApp(session, codebook).run()
    return closing_lines(session, outcome)


def closing_lines(session: ReconcileSession, outcome: Outcome | None) -> list[str]:
    """What the command prints at exit: the agreement summary with what is left to adjudicate NOW (not when the
    session opened), then what this adjudicator decided."""
    with session.store.read() as s:  # the counts --auto-only gives, from the database as it is now
        lines = standing(s, session.min_raters, session.summary).lines()
    if outcome is not None:
        lines.append(
            f"{session.adjudicator_name}: {outcome.decided} decided, {outcome.remaining} left (all saved)"
        )
    return lines
