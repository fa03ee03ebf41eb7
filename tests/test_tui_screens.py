"""The labeling screens at 80x24 and 120x40, driven by key presses: nothing cut, the picker a mode of its own that
never hides the post, prefix filters, full values in reconcile and its exit lines."""

from __future__ import annotations

import asyncio
import re
import sys

import pytest
from test_tui_classify import SO, labels, pp_posts
from test_tui_identify import seed_candidates
from test_tui_reconcile import seed as seed_disputes

from labeling.codebook import load_codebook
from labeling.io.import_study import import_file
from labeling.queue import ClassifyQueue
from labeling.reconcile import ReconcileSession
from labeling.tui.classify import ClassifyApp
from labeling.tui.common import CodePicker, TextPrompt, screen_text
from labeling.tui.reconcile import ReconcileApp, closing_lines

SIZES = [(80, 24), (120, 40)]


@pytest.fixture(scope="module")
def codebook():
    return load_codebook()


async def _drive(app, keys, size, probe):
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        seen = []
        for key in keys:
            if key == "SCREEN":
                seen.append(probe(app))
                continue
            await pilot.press(key)
        await pilot.pause()
        seen.append(probe(app))
        return seen


def run(app, *keys, size=(80, 24), probe=screen_text):
    """Press ``keys`` ("SCREEN" records what the probe sees at that point); returns every record, the last at exit."""
    return asyncio.run(_drive(app, keys, size, probe))


def flat(text: str) -> str:
    """Screen text as one line with runs of spaces folded (a value wrapped over two rows reads whole)."""
    return re.sub(r"\s+", " ", text)


def column(screen: str, right: bool = True) -> str:
    """One column of a screen split by the vertical rule │ (the label / ratings panel, or the post), flattened."""
    parts = [line.split("│", 1) for line in screen.splitlines()]
    return flat(" ".join(p[1] if right else p[0] for p in parts if len(p) == 2))


def assert_nothing_cut(screen: str) -> None:
    assert "…" not in screen, screen


@pytest.mark.parametrize("size", SIZES)
def test_classify_screen_picker_and_help_fit(sqlite_store, codebook, size):
    seed_candidates(sqlite_store, [21])
    pp_posts(sqlite_store, "ann", [21])
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    # Hardware and Library Mismatch is the longest root cause name.
    picked, picker, helped = run(app, "m", "t", "1", "r", "h", "1", "SCREEN", "i", "SCREEN", "escape",
                                 "question_mark", size=size)  # fmt: skip
    for screen in (picked, picker, helped):
        assert_nothing_cut(screen)
    panel = column(picked)
    assert "Time: Slow Execution Time" in panel
    assert "Hardware: Hardware and Library Mismatch" in panel
    assert "Enter label" in flat(picked) and "q quit" in flat(picked)
    # The picker is a panel at the bottom: the post is still on screen above it, and the prompt names the mode.
    assert "Training is very slow 21" in picker and "#21" in picker
    assert "PICK PP 1 · Introducing stage" in picker
    for code in codebook.codes("stage"):
        assert code.name in picker  # every stage, in full
    assert "PgUp/PgDn post" in flat(picker)
    assert "a add another PP" in flat(helped)


@pytest.mark.parametrize("size", SIZES)
def test_reconcile_shows_full_values_wrapping(store, codebook, size):
    seed_disputes(store)
    app = ReconcileApp(ReconcileSession(store, "judge"), codebook)
    ident, labels_screen, picker = run(app, "SCREEN", "y", "SCREEN", "enter", size=size)
    for screen in (ident, labels_screen, picker):
        assert_nothing_cut(screen)
    assert "1 ann: PP" in flat(ident) and "2 bob: not PP" in flat(ident)
    panel = column(labels_screen)
    assert "1 ann Model: Inefficient Model Structure" in panel
    assert "2 bob Model: Improper Model Parameter" in panel
    assert "1 ann Training" in panel and "2 bob Prediction" in panel and "final ?" in panel
    assert "Symptom 1: Time: Slow Execution Time" in panel  # agreed: one line
    assert "Keras fit is slow 1" in picker and "PICK PP 1_2 · Root cause" in picker


def test_d_then_p_never_records_a_stage(sqlite_store, codebook):
    """The issue's case: "Data Preparation, then part" picks the introducing stage and opens the part prompt."""
    seed_candidates(sqlite_store, [31])
    pp_posts(sqlite_store, "ann", [31])
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    keys = ("enter", "t", "1", "enter", "minus", "enter", "a", "3", "enter", "d", "p")

    def probe(app):
        return type(app.screen), screen_text(app)

    [(top, screen)] = run(app, *keys, probe=probe)
    stored = labels(sqlite_store, "ann")[(SO(31), 1)]
    assert stored[3] == "data_preparation" and stored[4] is None  # introducing set, exposing NOT recorded
    assert top is TextPrompt and "PP 1 · Part of the post" in screen
    # ... and the part typed there is stored as the part.
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    run(app, "p", *"loader", "enter")
    assert labels(sqlite_store, "ann")[(SO(31), 1)][3:6] == ("data_preparation", None, "loader")


def test_picker_filter_is_by_name_and_alias_prefix(sqlite_store, codebook):
    seed_candidates(sqlite_store, [41])
    pp_posts(sqlite_store, "ann", [41])

    def shown(app):
        assert isinstance(app.screen, CodePicker)
        return [c.code for c in app.screen._shown], screen_text(app)

    [(batch, screen)] = run(ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook), "r", "slash", *"batch",
                            probe=shown)  # fmt: skip
    assert batch == ["api.not_batch_api"] and "Mismatched Library Version" not in screen
    [(oom, _)] = run(
        ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook), "m", "slash", *"oom", probe=shown
    )
    assert oom == ["memory.oom"]
    [(gpu_mem, _)] = run(ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook), "m", "slash", *"gpu mem",
                         probe=shown)  # fmt: skip
    assert gpu_mem == ["memory.abnormal_gpu_memory"]
    [(memory, _)] = run(ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook), "m", "slash", *"mem",
                        probe=shown)  # fmt: skip
    assert set(memory) == {c.code for c in codebook.codes("symptom") if c.category == "memory"}


def test_reconcile_exit_lines_are_current(store, codebook):
    seed_disputes(store)
    session = ReconcileSession(store, "judge")
    assert "1 to adjudicate" in session.summary.lines()[0]
    app = ReconcileApp(session, codebook)
    run(app, "y", "2", "enter", "v", "1", "minus", "q")
    lines = closing_lines(session, app.return_value)
    assert "identification: 2 made final on agreement, 0 to adjudicate" in lines[0]
    assert ", 0 to adjudicate" in lines[1]
    assert lines[-1] == "judge: 3 decided, 0 left (all saved)"
    # the closing summary and --auto-only right after count from the same query (issue 20, point 5)
    from labeling.reconcile import finalize

    assert finalize(store).lines()[:2] == lines[:2]


def test_o_opens_the_link_or_shows_it(sqlite_store, codebook, tmp_path, monkeypatch):
    """$BROWSER names the browser (here a script that records what it was asked to open); with none usable here,
    the full link is shown to copy and nothing is opened."""
    opened = tmp_path / "opened.txt"
    script = tmp_path / "browser.py"
    script.write_text(f"import sys\nopen({str(opened)!r}, 'a').write(sys.argv[1] + '\\n')\n")
    seed_disputes(sqlite_store)
    monkeypatch.setenv("BROWSER", f"{sys.executable} {script} %s")
    [screen] = run(ReconcileApp(ReconcileSession(sqlite_store, "judge"), codebook), "o")
    assert opened.read_text() == "https://stackoverflow.com/questions/3\n"
    assert "opened in your browser: https://stackoverflow.com/questions/3" in flat(screen)
    for name in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    [screen] = run(ReconcileApp(ReconcileSession(sqlite_store, "judge"), codebook), "o")
    assert "no browser here; the link: https://stackoverflow.com/questions/3" in flat(screen)
    assert opened.read_text().count("\n") == 1  # nothing more was opened


def test_o_on_the_classify_screen(sqlite_store, codebook, tmp_path, monkeypatch):
    opened = tmp_path / "opened.txt"
    script = tmp_path / "browser.py"
    script.write_text(f"import sys\nopen({str(opened)!r}, 'a').write(sys.argv[1] + '\\n')\n")
    seed_candidates(sqlite_store, [21])
    pp_posts(sqlite_store, "ann", [21])
    monkeypatch.setenv("BROWSER", f"{sys.executable} {script} %s")
    [screen] = run(ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook), "o")
    assert opened.read_text() == "https://stackoverflow.com/questions/21\n"
    assert "opened in your browser: https://stackoverflow.com/questions/21" in flat(screen)


@pytest.mark.parametrize("size", SIZES)
def test_a_post_known_only_from_the_published_files_says_so(sqlite_store, codebook, published, size):
    """Imported raters' posts are stubs (id and link): the screen says what is missing and how to read the post,
    instead of empty tags, keywords and 'No answers'."""
    import_file(sqlite_store, "identification", str(published / "kappa_identification.csv"), codebook)
    import_file(sqlite_store, "labels", str(published / "kappa_label.csv"), codebook)
    queue = ClassifyQueue(sqlite_store, "cjm")
    first = queue.current
    [screen] = run(ClassifyApp(queue, codebook), size=size)
    post = flat(" ".join(line.split("│", 1)[0] for line in screen.splitlines()))
    assert f"#{first}" in post
    assert "Only this post's id and link are stored" in post and "Press o to open it" in post
    assert "No answers" not in post and "tags: -" not in post
    assert_nothing_cut(screen)
