"""Conventions shared by the labeling apps (identify, classify, reconcile): status line, help, pickers, prompts.

Key conventions: ``?`` help, ``q`` quit, ``u`` undo, ``s`` skip; arrows / PgUp / PgDn / Home / End scroll the post.
Every modal here returns its answer through ``dismiss``: ``None`` always means "cancelled, change nothing".

Stable API::

    StatusLine(id=...).show(rater, done, remaining, extra="", problem="")
    HelpScreen(title, keys=[(key, what), ...], extra=Text | None)       # closes on Esc, q or ?
    CodePicker(codebook, dimension, title, current=None, allow_clear=False)  # -> code | "" (cleared) | None
    TextPrompt(title, value="")                                          # -> str | None
    fuzzy_score(query, text) -> int | None; screen_text(app) -> str (what the screen shows, for tests/benchmarks)
    settle_memory()                 # call while the rater reads: keeps garbage-collection pauses off key presses
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from mining.text import terminal_safe

MODAL_CSS = """
HelpScreen, TextPrompt, CodePicker { align: center middle; }
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


def fuzzy_score(query: str, text: str) -> int | None:
    """How well ``query`` matches ``text`` (higher is better), or None.

    Every word of the query must occur in the text in order, as a substring (best) or as a subsequence of
    characters (e.g. "gpu mem" finds "Abnormal GPU memory", "oom" finds "Out of memory" via its alias "OOM").
    """
    text = text.lower()
    score = 0
    for word in query.lower().split():
        pos = text.find(word)
        if pos >= 0:
            score += 100 - min(pos, 50) + (20 if pos == 0 or not text[pos - 1].isalnum() else 0)
            continue
        i, gaps, last = 0, 0, -1
        for ch in word:
            i = text.find(ch, last + 1)
            if i < 0:
                return None
            gaps += i - last - 1 if last >= 0 else 0
            last = i
        score += max(1, 40 - gaps)
    return score


class StatusLine(Static):
    """One line: rater, progress (done / remaining) and a short context hint."""

    DEFAULT_CSS = "StatusLine { dock: top; height: 1; background: $boost; padding: 0 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text(""), id=id, markup=False)

    def show(self, rater: str, done: int, remaining: int, extra: str = "", problem: str = "") -> None:
        """``problem``: what just failed (e.g. a decision the database refused), shown until the next show()."""
        line = Text()
        line.append(terminal_safe(rater, keep_newlines=False), style="bold")
        line.append(f"  done {done} · remaining {remaining}")
        if extra:
            line.append("  ")
            line.append(terminal_safe(extra, keep_newlines=False), style="dim")
        if problem:
            line.append("  ")
            line.append(f" {terminal_safe(problem, keep_newlines=False)} ", style="bold white on red")
        self.update(line, layout=False)


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
        body = Text()
        width = max((len(k) for k, _ in self._keys), default=0)
        for key, what in self._keys:
            body.append(f"{key:>{width}}  ", style="bold")
            body.append(f"{what}\n")
        if self._extra is not None:
            body.append("\n")
            body.append_text(self._extra)
        with VerticalScroll(classes="modal-box"):
            yield Static(Text(self._title), classes="modal-title", markup=False)
            yield Static(body, markup=False)
            yield Static(Text("Esc, q or ? closes"), classes="modal-hint", markup=False)

    def action_close(self) -> None:
        self.dismiss(None)


class TextPrompt(ModalScreen[str | None]):
    """One line of free text (a PP's part, a comment). Enter keeps it, Esc cancels."""

    DEFAULT_CSS = MODAL_CSS
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, title: str, value: str = "") -> None:
        super().__init__()
        self._title, self._value = title, value

    def compose(self) -> ComposeResult:
        with Vertical(classes="modal-box"):
            yield Static(Text(self._title), classes="modal-title", markup=False)
            yield Input(value=self._value, id="prompt-input")
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
    """Pick one code of a codebook dimension: type its keys (category key, then code key: ``t1``), or ``/`` and
    type to filter, then Enter. After a category key the list narrows to that category; Backspace widens it again.

    Returns the code, ``""`` when the value is cleared (``-``, only with ``allow_clear``), or None on Esc.
    ``?`` shows the disambiguation notes of the highlighted code.
    """

    DEFAULT_CSS = (
        MODAL_CSS
        + """
    CodePicker OptionList { height: auto; max-height: 24; }
    CodePicker Input { display: none; }
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
        hint = "key picks · / filter · ↑↓ Enter · ? notes · Esc cancel" + (
            " · - clear" if self.allow_clear else ""
        )
        with Vertical(classes="modal-box"):
            yield Static(Text(self._title), classes="modal-title", markup=False)
            yield Input(placeholder="filter…", id="picker-filter")
            yield OptionList(*self._options(self.codes), id="picker-options")
            yield Static(Text(hint), classes="modal-hint", markup=False)

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        if self.current:
            for i, c in enumerate(self._shown):
                if c.code == self.current:
                    options.highlighted = i

    def _options(self, codes) -> list[Option]:
        return [
            Option(
                code_label(c, keys=self._keys[c.code])
                + (Text("  (current)", style="italic") if c.code == self.current else Text()),
                id=c.code,
            )
            for c in codes
        ]

    def _haystack(self, c) -> str:
        return " ".join([c.code, c.name or "", c.category_name or "", *(c.aliases or [])])

    def on_input_changed(self, event: Input.Changed) -> None:
        query = event.value.strip()
        if query:
            scored = [(fuzzy_score(query, self._haystack(c)), i, c) for i, c in enumerate(self.codes)]
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

    def on_key(self, event: events.Key) -> None:
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
    """A compact listing of the codebook (for help screens): one line per code with its key."""
    out = Text()
    for dim, title in dimensions:
        out.append(f"{title}\n", style="bold underline")
        for c in codebook.codes(dim):
            out.append_text(code_label(c, with_definition=False, keys=code_keys(codebook, c)))
            out.append("\n")
        out.append("\n")
    return out
