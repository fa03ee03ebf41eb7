"""Labeling screens at 80x24: folded code and links are marked, history rows have titles, ≠ only where raters
differ, Esc in a picker's filter goes back one step, undo says what it undid, unsaved notes are not lost silently."""

from __future__ import annotations

import asyncio
import re

from rich.text import Text
from test_tui_classify import LABEL_ONE, pp_posts
from test_tui_identify import seed_candidates, seeded_order
from test_tui_reconcile import seed as seed_disputes
from textual.content import Content

from labeling.codebook import load_codebook
from labeling.queue import ClassifyQueue, IdentifyQueue
from labeling.reconcile import ReconcileSession
from labeling.tui.classify import ClassifyApp
from labeling.tui.common import CodePicker, screen_text
from labeling.tui.identify import IdentifyApp
from labeling.tui.post_view import CODE_CONTINUATION, _code, code_line_numbers, wrap_post
from labeling.tui.reconcile import ReconcileApp

SIZE = (80, 24)
LONG_CALL = (
    "model.fit(train_images, train_labels, epochs=100, batch_size=32, validation_split=0.2, verbose=2)"
)


def drive(app, *steps):
    """Press keys; "SCREEN" records the screen text there, "NOTES" the notifications shown so far."""

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            seen = []
            for step in steps:
                if step in ("SCREEN", "NOTES"):
                    await pilot.pause()
                    seen.append(
                        screen_text(app)
                        if step == "SCREEN"
                        else " | ".join(n.message for n in app._notifications)  # noqa: SLF001
                    )
                else:
                    await pilot.press(step)
            await pilot.pause()
            return seen, app.return_value

    return asyncio.run(go())


def test_a_folded_code_line_is_marked_and_prose_is_not():
    text = Text("A question whose prose is long enough to wrap at thirty columns\n")
    text.append_text(_code(f"x = 1\n{LONG_CALL}\ny = 2"))
    lines = [line.plain for line in wrap_post(Content.from_rich_text(text), code_line_numbers(text), 30)]
    assert lines[:3] == ["A question whose prose is long", "enough to wrap at thirty", "columns"]
    assert lines[3] == "x = 1" and lines[-1] == "y = 2"
    folded = lines[4:-1]
    assert len(folded) >= 3 and folded[0] == LONG_CALL[:30]
    assert all(line.startswith(CODE_CONTINUATION) for line in folded[1:])
    assert "".join(line.removeprefix(CODE_CONTINUATION) for line in folded) == LONG_CALL
    assert all(len(line) <= 30 for line in lines)


def test_classify_marks_folded_code_and_undo_says_what_it_undid(store):
    ids = [31, 32]
    seed_candidates(store, ids, body=f"<p>Slow fit:</p><pre><code>{LONG_CALL}</code></pre>")
    pp_posts(store, "ann", ids)
    app = ClassifyApp(ClassifyQueue(store, "ann"), load_codebook())
    (screen, notes), _ = drive(app, "SCREEN", *LABEL_ONE, "u", "NOTES")
    code = [line for line in screen.splitlines() if "model.fit(" in line or CODE_CONTINUATION in line]
    assert len(code) >= 2, screen
    assert any(CODE_CONTINUATION.strip() in line for line in code[1:])
    first = seeded_order(ids, 0)[0]
    assert f"undone: the label change on PP {first}_1" in notes


def test_history_rows_show_titles_and_title_words_find_a_decision(sqlite_store):
    ids = [41, 42, 43]
    seed_candidates(sqlite_store, ids, title="Keras predict is slow")
    order = seeded_order(ids, 0)
    app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"))
    keys = ["y", "n", "h", "SCREEN", *"slow " + str(order[0].id), "SCREEN", "enter", "SCREEN"]
    (history, filtered, shown), _ = drive(app, *[{" ": "space"}.get(k, k) for k in keys])
    rows = [line for line in history.splitlines() if re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", line)]
    assert len(rows) == 2 and all("Keras predict is slow" in row for row in rows), history
    assert f"Keras predict is slow {order[0].id}" in filtered and f"slow {order[1].id}" not in filtered
    assert f"post {order[0]}" in " ".join(shown.split()) and "you decided PP" in " ".join(shown.split())


def test_quitting_with_a_note_on_an_undecided_post_warns_once(sqlite_store):
    seed_candidates(sqlite_store, [51, 52])
    app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"))
    (warned,), result = drive(app, "c", *"why", "enter", "q", "SCREEN", "q")
    first = seeded_order([51, 52], 0)[0]
    assert "notes on undecided posts are not saved" in " ".join(warned.split())
    assert str(first) in warned
    assert result is not None  # the second q quit


def test_escape_leaves_the_pickers_filter_first_then_the_picker(store):
    seed_candidates(store, [61])
    pp_posts(store, "ann", [61])
    app = ClassifyApp(ClassifyQueue(store, "ann"), load_codebook())

    async def go():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("enter", "slash", "o", "o", "m")
            await pilot.pause()
            picker = app.screen
            assert isinstance(picker, CodePicker) and picker.has_class("filtering")
            narrowed = len(picker._shown)  # noqa: SLF001
            await pilot.press("escape")
            await pilot.pause()
            after_one = (app.screen is picker, picker.has_class("filtering"), len(picker._shown))  # noqa: SLF001
            await pilot.press("escape")
            await pilot.pause()
            return narrowed, after_one, isinstance(app.screen, CodePicker)

    narrowed, (still_open, filtering, shown), after_two = asyncio.run(go())
    assert narrowed < shown
    assert still_open and not filtering
    assert not after_two


def test_reconcile_marks_only_fields_the_raters_differ_on_and_keeps_links_whole(store):
    seed_disputes(store)
    app = ReconcileApp(ReconcileSession(store, "judge"), load_codebook())
    (screen,), _ = drive(app, "SCREEN")
    for line in screen.splitlines():
        if "≠" in line:
            field = line.split("≠", 1)[1].split("│")[0].strip()
            assert field not in ("Symptom 2", "Part of the post", "Comment"), screen
    assert "stackoverflow.com/questions/" in screen
    link_lines = [line for line in screen.splitlines() if "stackoverflow.com/questions/" in line]
    assert all("/questions/" in line and line.split("/questions/")[1][:1].isdigit() for line in link_lines)
