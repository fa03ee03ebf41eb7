"""identify's ways back to a post: the history of the rater's own decisions (``h``) and the candidate search (``/``).

Both are modal lists under an input; each returns the post to show (a :class:`PostKey`) or None (Esc). Whether a
typed post may be shown is asked of ``can_visit`` while the list is open, so a post outside the rater's scope is
refused with one line and the rater can type another.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from core.errors import PPMinerError
from core.sites import PostKey
from core.text import terminal_safe
from labeling.revisit import OwnDecision, SearchResult
from mining.lookup import parse_post_arg

HISTORY_SHOWN = 300  # rows the history lists; the filter finds older ones

LIST_CSS = """
PostListScreen { align: center middle; }
PostListScreen .list-box { width: 90%; max-width: 120; height: 90%; border: thick $accent; background: $surface;
                           padding: 0 1; }
PostListScreen .list-title { text-style: bold; }
PostListScreen Input { height: 3; }
PostListScreen OptionList { height: 1fr; border: none; padding: 0; }
PostListScreen .list-count { color: $text-muted; height: auto; }
PostListScreen .list-hint { color: $text-muted; }
"""


def _one_line(text: str | None) -> str:
    return " ".join(terminal_safe(text or "", keep_newlines=False).split())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _row(*cells: tuple[str, int | None], rest: str | Text = "", rest_style: str = "dim") -> Text:
    """A list row: fixed-width cells, then the rest cut with … at the list's edge (never wrapped)."""
    line = Text(no_wrap=True, overflow="ellipsis")
    for text, width in cells:
        line.append(text.ljust(width) if width else text)
        line.append(" ")
    line.append_text(rest) if isinstance(rest, Text) else line.append(rest, style=rest_style)
    return line


def _history_rest(decision: OwnDecision) -> Text:
    """A history row's title (or that only the id is stored), then the rater's note, dimmed."""
    rest = Text(_one_line(decision.title) if decision.title else "(title not stored)")
    if decision.note:
        rest.append(f"  note: {_one_line(decision.note)}", style="dim")
    return rest


class PostListScreen(ModalScreen[PostKey | None]):
    """An input above a list of posts; Enter on a row shows that post, ↓ moves from the input to the list."""

    DEFAULT_CSS = LIST_CSS
    BINDINGS = [Binding("escape", "cancel", "cancel"), Binding("down", "to_list", "list", show=False)]
    TITLE_TEXT = ""
    PLACEHOLDER = ""
    HINT = ""

    def __init__(self, can_visit: Callable[[PostKey], str | None]) -> None:
        """``can_visit(post)``: None when the post may be shown, else why not (one line)."""
        super().__init__()
        self.can_visit = can_visit
        self._posts: list[PostKey] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="list-box"):
            yield Static(Text(self.TITLE_TEXT), classes="list-title", markup=False)
            yield Input(placeholder=self.PLACEHOLDER, id="list-input")
            yield Static(Text(""), classes="list-count", id="list-count", markup=False)
            yield OptionList(id="list-rows")
            yield Static(Text(self.HINT), classes="list-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def say(self, message: str) -> None:
        self.query_one("#list-count", Static).update(Text(_one_line(message)))

    def show_rows(self, rows: list[tuple[PostKey, Text]]) -> None:
        self._posts = [post for post, _ in rows]
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([Option(text) for _, text in rows])
        if rows:
            options.highlighted = 0

    def go(self, post: PostKey) -> None:
        refusal = self.can_visit(post)
        if refusal:
            self.say(refusal)
        else:
            self.dismiss(post)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.go(self._posts[event.option_index])

    def action_to_list(self) -> None:
        if self._posts:
            self.query_one(OptionList).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)


class HistoryScreen(PostListScreen):
    """This rater's decisions, newest first; the input filters them by post id, Enter on an id shows that post."""

    TITLE_TEXT = "Your decisions, newest first"
    PLACEHOLDER = "post id (136, ai:136) or title words · Enter shows it"
    HINT = "↓ list · Enter shows the post, y/n decide it again · Esc back"

    def __init__(self, decisions: list[OwnDecision], can_visit: Callable[[PostKey], str | None]) -> None:
        super().__init__(can_visit)
        self.decisions = decisions

    def on_mount(self) -> None:
        super().on_mount()
        self._filter("")

    def _filter(self, typed: str) -> None:
        text = typed.strip().casefold()
        chosen = (
            [
                d
                for d in self.decisions
                if text in str(d.post).casefold() or text in (d.title or "").casefold()
            ]
            if text
            else self.decisions
        )
        rows = [
            (
                d.post,
                _row(
                    (str(d.post), 14),
                    ("PP" if d.is_pp else "not PP", 6),
                    (d.decided_at.strftime("%Y-%m-%d %H:%M"), 16),
                    rest=_history_rest(d),
                ),
            )
            for d in chosen[:HISTORY_SHOWN]
        ]
        self.show_rows(rows)
        if not self.decisions:
            self.say("no decisions yet")
        elif len(chosen) > HISTORY_SHOWN:
            self.say(
                f"{len(chosen)} decisions, the newest {HISTORY_SHOWN} shown; type an id to find older ones"
            )
        else:
            total = _plural(len(self.decisions), "decision")
            self.say(f"{len(chosen)} of {total}" if text else total)

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._filter(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        typed = event.value.strip()
        if not typed:
            options = self.query_one(OptionList)
            if options.highlighted is not None and self._posts:
                self.go(self._posts[options.highlighted])
            return
        try:
            post = parse_post_arg(typed)
        except PPMinerError as exc:
            if self._posts:  # title words: the first decision they found
                self.go(self._posts[0])
            else:
                self.say(str(exc))
            return
        self.go(post)


class SearchScreen(PostListScreen):
    """Search the rater's candidates: Enter runs the search, then ↓ and Enter show a post."""

    TITLE_TEXT = "Search your candidates: title, text, code or matched keyword"
    PLACEHOLDER = "words or a keyword, e.g. memory leak · Enter searches"
    HINT = "Enter searches · ↓ to the list · Enter shows the post · Esc back"

    def __init__(
        self, search: Callable[[str], SearchResult], can_visit: Callable[[PostKey], str | None]
    ) -> None:
        super().__init__(can_visit)
        self.search = search

    def on_mount(self) -> None:
        super().on_mount()
        self.say("undecided posts come first; ✓ marks the ones you decided")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        query = event.value.strip()
        if not query:
            return
        try:
            result = self.search(query)
        except PPMinerError as exc:
            self.say(str(exc))
            return
        self.show_rows(
            [(f.post, _row(("✓" if f.decided else " ", 1), (str(f.post), 14), rest=_one_line(f.title), rest_style=""))
             for f in result.found]
        )  # fmt: skip
        if not result.matched:
            self.say(f"no post among your candidates matches {query!r}")
        elif result.matched > len(result.found):
            self.say(
                f"{_plural(result.matched, 'post')} matched {query!r}; the first {len(result.found)} shown"
            )
        else:
            self.say(f"{_plural(result.matched, 'post')} matched {query!r}")
        if result.found:
            self.query_one(OptionList).focus()
