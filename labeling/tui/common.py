"""Conventions shared by the labeling apps (identify, classify, reconcile): status line, help, pickers, prompts.

Key conventions: ``?`` help, ``q`` quit, ``u`` undo, ``s`` skip; arrows / PgUp / PgDn / Home / End scroll the post.
Every modal here returns its answer through ``dismiss``: ``None`` always means "cancelled, change nothing".

Stable API::

    StatusLine(id=...).show(rater, done, remaining, extra="", problem="", pace=None)  # pace: a PaceClock
    HelpScreen(title, keys=[(key, what), ...], extra=Text | None)       # closes on Esc, q or ?
    CodePicker(codebook, dimension, title, current=None, allow_clear=False)  # -> code | "" (cleared) | None
    TextPrompt(title, value="", select=True)  # -> str | None; select=False: the cursor after the value, to add
    prefix_score(query, spellings) -> int | None; screen_text(app) -> str (what the screen shows, for tests/benchmarks)
    settle_memory()                 # call while the rater reads: keeps garbage-collection pauses off key presses
"""

from __future__ import annotations

import gc
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from core.text import terminal_safe
from labeling.progress import eta, format_duration, labeling_rate

MODAL_CSS = """
HelpScreen { align: center middle; }
HelpScreen .help-box { height: 90%; }
HelpScreen .help-body { height: 1fr; }
TextPrompt { align: center bottom; background: transparent; }
TextPrompt .modal-box { width: 100%; max-width: 100%; }
.modal-box { width: 90%; max-width: 120; height: auto; max-height: 90%; border: thick $accent;
             background: $surface; padding: 0 1; }
.modal-title { text-style: bold; }
.modal-hint { color: $text-muted; }
"""


def settle_memory() -> None:
    """Collect garbage, then exempt every object alive now from future collections (``gc.freeze``).

    A labeling app holds a few hundred thousand long-lived objects (Textual, SQLAlchemy, Pygments); without this,
    each full collection walks them all and freezes the UI for 50-300 ms at random key presses. Call it while the
    rater reads (after showing a post), once at start and again every hundred posts or so.
    """
    gc.collect()
    gc.freeze()


def first_line(exc: BaseException) -> str:
    """The first line of a (database) error, driver message preferred, for a one-line status."""
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def screen_text(app: App) -> str:
    """The characters the app's current screen shows, one line per row (no styles, no control sequences)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def prefix_score(query: str, spellings: Sequence[str]) -> int | None:
    """How well ``query`` names a code (higher is better), or None when it does not.

    Every word of the query must begin a word of one of the code's spellings (name, category name, aliases):
    "/oom" finds "Out of Memory" by its alias "OOM", "/gpu mem" finds "Abnormal GPU Memory Usage", and "/batch"
    finds only the code with "Batch" in a name, never one that merely contains b-a-t-c-h somewhere.
    """
    words = re.findall(r"\w+", query.lower())
    if not words:
        return None
    best = None
    for spelling in spellings:
        text = spelling.lower()
        own = re.findall(r"\w+", text)
        if not all(any(w.startswith(q) for w in own) for q in words):
            continue
        score = 2 if text.startswith(query.lower().strip()) else 1
        best = score if best is None else max(best, score)
    return best


class PaceClock:
    """A rater's decision times (the stored ones, then this session's), for the status line's rate and ETA: the
    numbers of `pplabel progress` (``labeling.progress``), kept up to date without a query per key press."""

    def __init__(self, times: Sequence[datetime] = ()) -> None:
        self.times = list(times)

    def tick(self, at: datetime) -> None:
        self.times.append(at)

    def text(self, remaining: int) -> str:
        """``55/h · ETA 31m`` (``?/h · ETA ?`` until two decisions were timed)."""
        rate = labeling_rate(self.times)
        return f"{rate:.0f}/h · ETA {format_duration(eta(remaining, rate))}" if rate else "?/h · ETA ?"


class StatusLine(Static):
    """One line: rater, progress (done / remaining) and a short context hint."""

    _two_rows = False

    DEFAULT_CSS = "StatusLine { dock: top; height: auto; max-height: 2; background: $boost; padding: 0 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text(""), id=id, markup=False)

    def show(
        self,
        rater: str,
        done: int,
        remaining: int,
        extra: str = "",
        problem: str = "",
        pace: PaceClock | None = None,
    ) -> None:
        """``problem``: what just failed (e.g. a decision the database refused), shown until the next show().
        ``pace``: the rater's decision times, for the rate and the time left at that rate."""
        line = Text()
        line.append(terminal_safe(rater, keep_newlines=False), style="bold")
        line.append(f"  done {done} · remaining {remaining}")
        if pace is not None:
            line.append(f" · {pace.text(remaining)}")
        if extra:
            line.append("  ")
            line.append(terminal_safe(extra, keep_newlines=False), style="dim")
        if problem:
            line.append("  ")
            line.append(f" {terminal_safe(problem, keep_newlines=False)} ", style="bold white on red")
        # One row normally; a longer line wraps to a second row (re-layout only when the row count changes).
        two_rows = len(line.plain) + 2 > self.size.width > 0
        self.update(line, layout=two_rows != self._two_rows)
        self._two_rows = two_rows


class HelpScreen(ModalScreen[None]):
    """Keys of the current app plus optional extra text (codebook, disambiguation notes)."""

    DEFAULT_CSS = MODAL_CSS
    BINDINGS = [
        Binding("escape", "close", "close"),
        Binding("q", "close", "close", show=False),
        Binding("question_mark", "close", "close", show=False),
    ]

    def __init__(self, title: str, keys: Sequence[tuple[str, str]] = (), extra: Text | None = None) -> None:
        super().__init__()
        self._title, self._keys, self._extra = title, list(keys), extra

    def compose(self) -> ComposeResult:
        keys = Table.grid(padding=(0, 2))
        keys.add_column(style="bold", no_wrap=True, justify="right")
        keys.add_column(overflow="fold")  # descriptions wrap, never cut
        for key, what in self._keys:
            keys.add_row(key, what)
        body = Group(keys, Text(""), self._extra) if self._extra is not None else keys
        with Vertical(classes="modal-box help-box"):
            yield Static(Text(self._title), classes="modal-title", markup=False)
            with VerticalScroll(classes="help-body"):
                yield Static(body, markup=False)
            yield Static(Text("↑↓ PgUp PgDn scroll · Esc, q or ? closes"), classes="modal-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one(".help-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class TextPrompt(ModalScreen[str | None]):
    """One line of free text (a PP's part, a comment). Enter keeps it, Esc cancels."""

    DEFAULT_CSS = MODAL_CSS
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, title: str, value: str = "", select: bool = True) -> None:
        """``select``: the value starts selected (typing replaces it); False puts the cursor after it."""
        super().__init__()
        self._title, self._value, self._select = title, value, select

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box"):
            yield Static(Text(self._title), classes="modal-title", markup=False)
            yield Input(value=self._value, id="prompt-input", select_on_focus=self._select)
            yield Static(Text("Enter keeps, Esc cancels"), classes="modal-hint", markup=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


def code_keys(codebook: Any, code: Any) -> str:
    """The key presses that pick a code in its picker (category key then code key, e.g. ``t1``)."""
    keys_for = getattr(codebook, "keys_for", None)
    return "".join(keys_for(code.code, code.dimension)) if keys_for else str(code.key or "")


def code_label(code: Any, with_definition: bool = True, keys: str | None = None) -> Text:
    """``[t1] Category: Name  definition`` for one codebook code."""
    keys = code.key if keys is None else keys
    line = Text()
    line.append(f"[{keys}] " if keys else "     ", style="bold")
    name = code.name if code.category_name in (None, "", code.name) else f"{code.category_name}: {code.name}"
    line.append(name)
    if with_definition and code.definition:
        line.append(f"  {code.definition}", style="dim")
    return line


class CodePicker(ModalScreen[str | None]):
    """Pick one code of a codebook dimension: a distinct mode, shown as a panel at the bottom of the screen (the
    post stays in view above it; PgUp/PgDn scroll the post) with a prompt naming the field being picked.

    Type a code's keys (category key, then code key: ``t1``), or ``/`` and type to filter by name or alias prefix,
    then Enter. After a category key the list narrows to that category; Backspace widens it again. The picker closes
    after one pick and never opens the next field by itself, so the keys typed after a pick mean what they mean on
    the screen below (``d p``: Data Preparation, then the PP's part).

    Returns the code, ``""`` when the value is cleared (``-``, only with ``allow_clear``), or None on Esc (in the
    filter, the first Esc leaves the filter and the second the picker).
    ``?`` shows the disambiguation notes of the highlighted code.
    """

    DEFAULT_CSS = (
        MODAL_CSS
        + """
    CodePicker { align: center bottom; background: transparent; }
    CodePicker .picker-box { width: 100%; height: auto; border: thick $accent; background: $surface;
                             padding: 0 1; }
    CodePicker .picker-prompt { background: $accent; color: $text; text-style: bold; }
    CodePicker OptionList, CodePicker OptionList:focus { height: auto; max-height: 40vh; border: none; padding: 0; }
    CodePicker .picker-definition { height: auto; max-height: 2; color: $text-muted; }
    CodePicker Input, CodePicker Input:focus { display: none; border: none; height: 1; padding: 0 1;
                                               background: $boost; }
    CodePicker.filtering Input { display: block; }
    """
    )
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(
        self,
        codebook: Any,
        dimension: str,
        title: str,
        current: str | None = None,
        allow_clear: bool = False,
    ) -> None:
        super().__init__()
        self.codebook, self.dimension, self._title = codebook, dimension, title
        self.current, self.allow_clear = current, allow_clear
        self.codes = list(codebook.codes(dimension))
        self._keys = {c.code: code_keys(codebook, c).lower() for c in self.codes}
        self._by_keys = {k: code for code, k in self._keys.items() if k}
        self._typed = ""
        self._shown = list(self.codes)

    def compose(self) -> ComposeResult:
        example = next(iter(self._by_keys), "?")
        hint = f"keys pick (e.g. {example}) · / filter · Enter · ? notes · PgUp/PgDn post · Esc back"
        prompt = f"PICK {self._title}" + (" (- for none)" if self.allow_clear else "")
        with Vertical(classes="picker-box"):
            yield Static(Text(prompt), classes="picker-prompt", markup=False)
            yield Input(placeholder="name or alias…", id="picker-filter")
            yield OptionList(*self._options(self.codes), id="picker-options")
            yield Static(Text(""), classes="picker-definition", markup=False)
            yield Static(Text(hint), classes="modal-hint", markup=False)

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        if self.current:
            for i, c in enumerate(self._shown):
                if c.code == self.current:
                    options.highlighted = i
        self._define()

    def _options(self, codes) -> list[Option]:
        return [
            Option(
                code_label(c, with_definition=False, keys=self._keys[c.code])
                + (Text("  (current)", style="italic") if c.code == self.current else Text()),
                id=c.code,
            )
            for c in codes
        ]

    def _define(self) -> None:
        """Show the definition of the highlighted code under the list."""
        options = self.query_one(OptionList)
        code = self._shown[options.highlighted] if options.highlighted is not None and self._shown else None
        self.query_one(".picker-definition", Static).update(Text(code.definition or "" if code else ""))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._define()

    def _spellings(self, c) -> list[str]:
        return [c.name or "", c.category_name or "", *(c.aliases or [])]

    def on_input_changed(self, event: Input.Changed) -> None:
        query = event.value.strip()
        if query:
            scored = [(prefix_score(query, self._spellings(c)), i, c) for i, c in enumerate(self.codes)]
            shown = [
                c for s, _, c in sorted((x for x in scored if x[0] is not None), key=lambda x: (-x[0], x[1]))
            ]
        else:
            shown = list(self.codes)
        self._show_codes(shown)

    def _show_codes(self, shown: list) -> None:
        self._shown = shown
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options(self._options(self._shown))
        if self._shown:
            options.highlighted = 0
        self._define()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._pick_highlighted()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def _pick_highlighted(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is not None and self._shown:
            self.dismiss(self._shown[options.highlighted].code)

    def _scroll_post(self, key: str) -> bool:
        """PgUp / PgDn scroll the post shown under the picker."""
        if key not in ("pageup", "pagedown") or len(self.app.screen_stack) < 2:
            return False
        for view in self.app.screen_stack[-2].query("PostView"):
            view.scroll_page_up() if key == "pageup" else view.scroll_page_down()
        return True

    def on_key(self, event: events.Key) -> None:
        if self._scroll_post(event.key):
            event.stop()
            return
        filtering = self.has_class("filtering")
        if filtering:
            if event.key in ("up", "down"):
                event.stop()
                options = self.query_one(OptionList)
                options.action_cursor_up() if event.key == "up" else options.action_cursor_down()
            return
        char = (event.character or "").lower()
        if event.key == "slash":
            event.stop()
            self.add_class("filtering")
            self.query_one(Input).focus()
        elif event.key == "question_mark":
            event.stop()
            self._show_notes()
        elif char == "-" and self.allow_clear:
            event.stop()
            self.dismiss("")
        elif event.key == "backspace" and self._typed:
            event.stop()
            self._type(self._typed[:-1])
        elif char and char.isprintable() and any(k.startswith(self._typed + char) for k in self._by_keys):
            event.stop()
            self._type(self._typed + char)

    def _type(self, typed: str) -> None:
        """Follow the typed keys: pick on a full match, else narrow the list to the codes they lead to."""
        self._typed = typed
        if typed in self._by_keys:
            self.dismiss(self._by_keys[typed])
            return
        self._show_codes([c for c in self.codes if self._keys[c.code].startswith(typed)])

    def _show_notes(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is None or not self._shown:
            return
        code = self._shown[options.highlighted]
        self.app.push_screen(HelpScreen(f"Notes: {code.name}", [], notes_text(self.codebook, code.code)))

    def action_cancel(self) -> None:
        """Esc leaves the filter first (back to the whole list), and only then the picker."""
        if self.has_class("filtering"):
            self.remove_class("filtering")
            filter_input = self.query_one(Input)
            filter_input.value = ""
            self._show_codes(list(self.codes))
            self.query_one(OptionList).focus()
            return
        self.dismiss(None)


def notes_text(codebook: Any, code: str) -> Text:
    """The definition of a code and the disambiguation notes that concern it."""
    c = codebook.get(code)
    out = code_label(c, with_definition=False, keys=code_keys(codebook, c))
    out.append("\n")
    out.append(c.definition or "", style="italic")
    notes = codebook.notes_for(code)
    out.append("\n\n")
    if not notes:
        out.append("No disambiguation notes for this code.", style="dim")
    for note in notes:
        names = ", ".join(codebook.name(x) for x in note.codes)
        out.append(f"• {names}\n", style="bold")
        out.append(f"  {note.text}\n")
    return out


def codebook_text(codebook: Any, dimensions: Sequence[tuple[str, str]]) -> Text:
    """A compact listing of the codebook (for help screens): one paragraph per category, each code with its
    keys (``Time: [t1] Slow Execution Time · [t2] ...``), so it fits a small terminal and wraps on any width."""
    out = Text()
    for dim, title in dimensions:
        out.append(f"{title}\n", style="bold underline")
        groups: dict[str, list] = {}
        for c in codebook.codes(dim):
            groups.setdefault(c.category_name or c.name, []).append(c)
        for category, codes in groups.items():
            single = len(codes) == 1 and codes[0].name == category
            if not single:
                out.append(f"{category}: ", style="bold")
            for i, c in enumerate(codes):
                out.append(" · " if i else "")
                out.append(f"[{code_keys(codebook, c)}] ", style="bold")
                out.append(c.name)
            out.append("\n")
        out.append("\n")
    return out
