"""`pplabel identify` driven by key presses: what is stored, order, blindness, inert text, concurrent raters."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from datetime import datetime

import pytest
import sqlalchemy as sa
from conftest import run_cli

from core.db import open_store
from core.errors import PPMinerError
from core.schema.labeling import AuditEntry, Identification, Rater
from core.schema.mining import Candidate, CandidateHit, KeywordSet
from labeling.queue import IdentifyQueue, seeded_order
from labeling.records import get_or_create_rater, set_identification
from labeling.tui.common import screen_text
from labeling.tui.identify import IdentifyApp
from labeling.tui.post_view import PostView, keyword_spans
from mining.store import upsert_answers, upsert_comments, upsert_questions

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def seed_candidates(
    store, ids, *, title="Training is very slow", body="<p>fit() runs slowly</p>", keyword="slowli", text=None
):
    """Questions ``ids`` (each with an accepted answer and a comment), candidates of one keyword-set version.

    ``text=(prose, code_blocks)`` stores those as they are instead of deriving them from ``body``.
    """
    split = {} if text is None else {"prose": text[0], "code_blocks": text[1]}
    with store.write() as s:
        upsert_questions(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": q,
                    "title": f"{title} {q}",
                    "body_html": body,
                    "tags": "|keras|",
                    "accepted_answer_id": q * 10,
                }
                | split
                for q in ids
            ],
            "import",
        )
        upsert_answers(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": q * 10,
                    "question_id": q,
                    "body_html": f"<p>answer of {q}</p>",
                    "score": 3,
                }
                for q in ids
            ],
            "import",
        )
        upsert_comments(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": q * 100,
                    "post_id": q,
                    "post_type": "question",
                    "question_id": q,
                    "text": "same here",
                }
                for q in ids
            ],
            "import",
        )
        ks = s.scalar(sa.select(KeywordSet).limit(1))
        if ks is None:
            ks = KeywordSet(
                content_hash="h", stemmer_mode="porter", keywords=[keyword], created_at=datetime(2024, 1, 1)
            )
            s.add(ks)
            s.flush()
        for q in ids:
            cand = Candidate(
                keyword_set_id=ks.id, site="stackoverflow", question_id=q, matched_at=datetime(2024, 1, 1)
            )
            cand.hits.append(CandidateHit(keyword=keyword, field="prose", count=1))
            s.add(cand)


def decisions(store, rater):
    with store.read() as s:
        rows = s.scalars(
            sa.select(Identification)
            .join(Rater, Rater.id == Identification.rater_id)
            .where(Rater.name == rater)
        ).all()
    return {row.key: row.is_pp for row in rows}


async def _drive(app, *keys, size=(100, 40)):
    """Run ``app`` headless, press ``keys``; returns the screen text seen before quitting."""
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        return screen_text(app)


def run(app, *keys):
    return asyncio.run(_drive(app, *keys))


def test_keys_store_each_decision_and_undo(store):
    ids = [101, 102, 103, 104, 105]
    seed_candidates(store, ids)
    order = seeded_order(ids, seed=0)
    app = IdentifyApp(IdentifyQueue(store, "ann"))
    screen = run(app, "y", "n", "s", "y", "u")
    # y, n decided the first two; s skipped the third; y decided the fourth; u took that back.
    assert decisions(store, "ann") == {order[0]: True, order[1]: False}
    assert app.queue.current == order[3]
    assert "done 2 · remaining 3" in screen
    assert f"post {order[3]}" in screen and f"undone: {order[3]}" in screen
    with store.read() as s:
        actions = s.scalars(sa.select(AuditEntry.action).order_by(AuditEntry.id)).all()
    assert actions == ["insert", "insert", "insert", "delete"]

    # A new session resumes: only undecided posts, and u takes back the latest stored decision.
    app = IdentifyApp(IdentifyQueue(store, "ann"))
    assert app.queue.progress.done == 2 and app.queue.current == order[2]
    run(app, "u")
    assert decisions(store, "ann") == {order[0]: True}
    assert app.queue.current == order[1]


def test_order_is_seeded_and_sample_is_shared(sqlite_store):
    ids = list(range(1, 41))
    seed_candidates(sqlite_store, ids)
    a = IdentifyQueue(sqlite_store, "ann", seed=7, sample=10)
    b = IdentifyQueue(sqlite_store, "bob", seed=7, sample=10)
    c = IdentifyQueue(sqlite_store, "cy", seed=8, sample=10)
    assert list(a._pending) == list(b._pending) == seeded_order(ids, 7)[:10]
    assert list(c._pending) != list(a._pending)
    # More candidates later do not reshuffle the posts already there.
    assert [q for q in seeded_order([*ids, 99, 98], 7) if q.id in ids] == seeded_order(ids, 7)
    assert a.progress.remaining == 10
    with pytest.raises(PPMinerError, match="--sample"):
        IdentifyQueue(sqlite_store, "ann", sample=0)


def test_no_candidates_is_one_line_error(sqlite_url):
    store = open_store(sqlite_url)
    with pytest.raises(PPMinerError, match="ppmine match"):
        IdentifyQueue(store, "ann")
    result = run_cli("labeling.cli", "identify", "--rater", "ann", "--db", sqlite_url, check=False)
    assert result.returncode == 1
    assert result.stderr.startswith("pplabel: error:") and result.stderr.count("\n") == 1
    usage = run_cli("labeling.cli", "identify", "--rater", "ann", "--sample", "0", check=False)
    assert usage.returncode == 2


def test_escape_sequences_and_markup_show_inert(sqlite_store):
    # As a data dump or an API body can deliver them (raw controls, which no HTML parser is asked to keep).
    prose = "[bold]loud[/bold] \x1b[31mred\x1b[0m bell\x07 \x1b]0;pwned\x07 runs slowly"
    seed_candidates(sqlite_store, [7], title="Title \x1b[5m[red]blink[/red]", text=(prose, ["x = 1 \x1b[2J"]))
    with sqlite_store.write() as s:
        upsert_comments(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": 71,
                    "post_id": 7,
                    "post_type": "question",
                    "question_id": 7,
                    "text": "c \x1b[1mX",
                }
            ],
            "import",
        )
    app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"))

    async def go():
        async with app.run_test(size=(120, 50)) as pilot:
            await pilot.pause()
            strips = app.screen._compositor.render_strips()
            return screen_text(app), [seg.text for strip in strips for seg in strip]

    screen, segments = asyncio.run(go())
    assert "[bold]loud[/bold]" in screen and "[red]blink[/red]" in screen  # markup shown, not applied
    assert "␛[31mred␛[0m" in screen and "bell␇" in screen and "␛]0;pwned␇" in screen
    assert "␛[2J" in screen and "␛[5m" in screen and "c ␛[1mX" in screen
    assert not any("\x1b" in t or "\x07" in t or "\x9b" in t for t in segments)


def test_matched_keywords_are_found_by_stem():
    text = "It runs extremely slow, slowly; an OOM and memory leaks. It hangs, very slow."
    spans = keyword_spans(text, ["extrem slow", "slowli", "oom", "memori leak", "hangs", "very slow"])
    assert [text[a:b] for a, b in spans] == [
        "extremely slow", "slowly", "OOM", "memory leaks", "hangs", "very slow"
    ]  # fmt: skip
    literal = "porter:nltk_extensions;kw=literal"  # the published procedure to the letter
    assert [text[a:b] for a, b in keyword_spans(text, ["hangs", "slowli"], literal)] == ["slowly"]


def test_blind_to_other_raters(store):
    ids = [201, 202, 203]
    seed_candidates(store, ids)
    with store.write() as s:
        bob = get_or_create_rater(s, "bob-the-other")
        for q in ids:
            set_identification(s, bob, q, True)
    app = IdentifyApp(IdentifyQueue(store, "ann"))
    screen = run(app)
    assert "done 0 · remaining 3" in screen
    assert "bob" not in screen
    assert app.queue.current == seeded_order(ids, 0)[0]


DRIVER = textwrap.dedent(
    """
    import asyncio, sys, time
    from labeling.queue import IdentifyQueue
    from labeling.tui.identify import IdentifyApp
    from core.db import open_store

    url, rater, keys, hold = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "hold"

    async def main():
        app = IdentifyApp(IdentifyQueue(open_store(url), rater))
        async with app.run_test() as pilot:
            for key in keys:
                await pilot.press(key)
            print("pressed", flush=True)
            if hold:
                time.sleep(60)

    asyncio.run(main())
    """
)


def _session(url, rater, keys, hold=False):
    return subprocess.Popen(
        [sys.executable, "-c", DRIVER, url, rater, keys, "hold" if hold else "go"],
        cwd=PROJECT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_raters_at_once(db_url):
    """Two processes, one database (a SQLite WAL file, or PostgreSQL): every decision of both is stored."""
    store = open_store(db_url)
    ids = list(range(300, 312))
    seed_candidates(store, ids)
    keys_ann, keys_bob = "yn" * 6, "ny" * 6
    procs = [_session(db_url, "ann", keys_ann), _session(db_url, "bob", keys_bob)]
    for p in procs:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
    order = seeded_order(ids, 0)
    assert decisions(store, "ann") == {q: k == "y" for q, k in zip(order, keys_ann, strict=True)}
    assert decisions(store, "bob") == {q: k == "y" for q, k in zip(order, keys_bob, strict=True)}
    with store.read() as s:
        assert s.scalar(sa.select(sa.func.count()).select_from(AuditEntry)) == 24


def test_killed_session_keeps_every_decision_made(sqlite_url):
    store = open_store(sqlite_url)
    ids = [401, 402, 403, 404]
    seed_candidates(store, ids)
    proc = _session(sqlite_url, "ann", "yny", hold=True)
    try:
        assert proc.stdout.readline().strip() == "pressed"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        proc.kill()
    order = seeded_order(ids, 0)
    assert decisions(store, "ann") == {order[0]: True, order[1]: False, order[2]: True}
    resumed = IdentifyQueue(store, "ann")
    assert resumed.current == order[3] and resumed.progress.done == 3


def _read_until(fd, done, timeout=30.0, required=True) -> bytes:
    """Read a pty until ``done(output)`` or EOF; after ``timeout`` seconds fail (or just return if not required)."""
    import select

    out = b""
    end = time.monotonic() + timeout
    while not done(out):
        if time.monotonic() > end:
            if not required:
                return out
            raise AssertionError(f"timed out; terminal output so far: {out[-500:]!r}")
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
    return out


def test_cli_session_in_a_real_terminal(sqlite_url):
    """`pplabel identify` in a pseudo-terminal: a key stores a decision, q quits with a one-line summary."""
    import fcntl
    import pty
    import struct
    import termios

    store = open_store(sqlite_url)
    ids = [501, 502, 503]
    seed_candidates(store, ids)
    pid, fd = pty.fork()
    if pid == 0:  # the child: a 120x40 terminal running the real command
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        # the size is the terminal's: a COLUMNS/LINES left in the environment would override it
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env = dict(env, TERM="xterm-256color")
        cmd = [sys.executable, "-m", "labeling.cli", "identify", "--rater", "ann", "--db", sqlite_url]
        os.chdir(PROJECT)
        os.execvpe(sys.executable, cmd, env)
    try:
        _read_until(fd, lambda out: b"remaining 3" in out)
        os.write(fd, b"n")
        end = time.monotonic() + 20
        while not decisions(store, "ann") and time.monotonic() < end:
            _read_until(fd, lambda out: False, timeout=0.5, required=False)  # keep the terminal drained
        assert decisions(store, "ann") == {seeded_order(ids, 0)[0]: False}
        os.write(fd, b"q")
        out = _read_until(fd, lambda out: b"remaining (all saved)" in out)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
    assert b"ann: 1 decided, 2 remaining (all saved)" in out


def test_failed_write_keeps_the_post_and_says_why(sqlite_store):
    """A decision the database refuses is not counted: the post stays, the rater is told, a retry stores it."""
    ids = [601, 602]
    seed_candidates(sqlite_store, ids)
    first = seeded_order(ids, 0)[0]
    with sqlite_store.write() as s:
        s.execute(
            sa.text(
                "CREATE TRIGGER refuse BEFORE INSERT ON identifications "
                "BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END"
            )
        )
    app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"))

    async def go():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
            seen = screen_text(app)
            with sqlite_store.write() as s:
                s.execute(sa.text("DROP TRIGGER refuse"))
            await pilot.press("y")
            return seen

    seen = asyncio.run(go())
    assert "decision not saved: refused by test trigger" in seen
    assert f"post {first}" in seen and "done 0 · remaining 2" in seen
    assert decisions(sqlite_store, "ann") == {first: True}


def test_post_shows_everything_scrolls_and_highlights_keywords(sqlite_store):
    long_prose = "\n\n".join(f"paragraph {i}: the epoch runs slowly" for i in range(80))
    seed_candidates(sqlite_store, [701, 702], text=(long_prose, ["model.fit(x)"]))
    with sqlite_store.write() as s:  # a second, not accepted answer with a comment of its own
        upsert_answers(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": 7011,
                    "question_id": 701,
                    "body_html": "<p>other idea</p>",
                    "score": 9,
                }
            ],
            "import",
        )
        upsert_answers(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": 7021,
                    "question_id": 702,
                    "body_html": "<p>other idea</p>",
                    "score": 9,
                }
            ],
            "import",
        )
        upsert_comments(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": 70111,
                    "post_id": 7011,
                    "post_type": "answer",
                    "question_id": 701,
                    "text": "nice",
                }
            ],
            "import",
        )
        upsert_comments(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": 70211,
                    "post_id": 7021,
                    "post_type": "answer",
                    "question_id": 702,
                    "text": "nice",
                }
            ],
            "import",
        )
    app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"))

    async def go():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            view = app.query_one(PostView)
            top = screen_text(app)
            segments = [seg for strip in app.screen._compositor.render_strips() for seg in strip if seg.style]
            plain_bg = next(seg.style.bgcolor for seg in segments if "tags:" in seg.text)
            highlighted = [seg.text for seg in segments if seg.style.bgcolor not in (None, plain_bg)]
            await pilot.press("end")
            await pilot.pause()
            scrolled, bottom = view.scroll_y, screen_text(app)
            await pilot.press("s")
            await pilot.pause()
            return top, highlighted, scrolled, bottom, view.scroll_y, view.lines

    top, highlighted, scrolled, bottom, after_skip, lines = asyncio.run(go())
    assert "tags: keras" in top and "stackoverflow.com/questions/" in top and "keywords: slowli" in top
    assert "slowly" in highlighted and "slowli" in highlighted  # in the text and in the keyword list
    assert not any("paragraph" in t for t in highlighted)
    assert scrolled > 0 and "paragraph 79" in bottom and "paragraph 0:" not in bottom
    assert after_skip == 0  # the next post starts at its top
    text = "\n".join(lines)
    # The accepted answer comes first and is marked; the other answer follows with its comment.
    assert text.index("✔ accepted") < text.index("other idea") < text.index("💬 nice")
    assert "model.fit(x)" in text and "same here" in text


def test_code_blocks_show_where_the_asker_put_them(sqlite_store):
    body = "<p>Below is my model:</p><pre><code>model = build()\n</code></pre><p>and the loop:</p><pre>for x in d: fit(x)</pre><p>Why slow?</p>"
    seed_candidates(sqlite_store, [801], body=body)
    app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"))

    async def go():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            return app.query_one(PostView).lines

    text = "\n".join(asyncio.run(go()))
    order = [
        "Below is my model:",
        "── code 1 ──",
        "model = build()",
        "and the loop:",
        "── code 2 ──",
        "fit(x)",
        "Why slow?",
    ]
    positions = [text.index(piece) for piece in order]
    assert positions == sorted(positions)


def test_post_rewraps_when_the_terminal_narrows(sqlite_store):
    seed_candidates(sqlite_store, [901], text=(" ".join(["throughput"] * 60), []))
    app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"))

    async def go():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            view = app.query_one(PostView)
            wide = list(view.lines)
            await pilot.resize_terminal(50, 30)
            await pilot.pause()
            return wide, list(view.lines), view.scrollable_content_region.width

    wide, narrow, width = asyncio.run(go())
    assert len(narrow) > len(wide)
    assert max(len(line) for line in narrow) <= width < 50


# -- notes, history, revisiting, search, the link (issue 13) ------------------------------------------------------

SIZES = [(80, 24), (120, 40)]
KEY_NAMES = {" ": "space", "/": "slash", ":": "colon", "%": "percent_sign"}


def typed(text: str) -> list[str]:
    """The key presses that type ``text``."""
    return [KEY_NAMES.get(c, c) for c in text]


def drive(app, *steps, size):
    """Press the keys of ``steps`` ("SCREEN" records the screen there); returns the records, the last at exit."""

    async def go():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            seen = []
            for step in steps:
                if step == "SCREEN":
                    await pilot.pause()
                    seen.append(screen_text(app))
                else:
                    await pilot.press(step)
            await pilot.pause()
            seen.append(screen_text(app))
            return seen

    return asyncio.run(go())


def flat(text: str) -> str:
    return " ".join(text.split())


def identifications(store, rater="ann"):
    with store.read() as s:
        rows = s.execute(
            sa.select(
                Identification.site, Identification.question_id, Identification.is_pp, Identification.note
            )
            .join(Rater, Rater.id == Identification.rater_id)
            .where(Rater.name == rater)
        ).all()
    return {(site, qid): (is_pp, note) for site, qid, is_pp, note in rows}


def audit(store):
    with store.read() as s:
        return s.execute(
            sa.select(AuditEntry.action, AuditEntry.before, AuditEntry.after).order_by(AuditEntry.id)
        ).all()


@pytest.mark.parametrize("size", SIZES)
def test_note_is_saved_with_the_decision_and_shown_again_on_revisit(sqlite_store, size):
    ids = [1101, 1102, 1103]
    seed_candidates(sqlite_store, ids)
    first, second = seeded_order(ids, 0)[:2]
    app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"))
    prompt, drafted, revisited, prefilled, _ = drive(
        app,
        "c", "SCREEN", *typed("slow only on batch 1"), "enter", "SCREEN",
        "y", "n", "h", "down", "down", "enter", "SCREEN",
        "c", "SCREEN", *typed(" (checked)"), "enter",
        size=size,
    )  # fmt: skip
    assert f"Note on post {first}" in prompt
    assert f"note on {first} kept: y/n saves it" in flat(drafted)  # undecided: saved with the decision
    assert audit(sqlite_store)[0] == ("insert", None, {"is_pp": True, "note": "slow only on batch 1"})
    assert identifications(sqlite_store)[("stackoverflow", second.id)] == (False, None)
    # h, the older row: the post is back with its decision and note on the status line
    assert "Training is very slow" in revisited and f"post {first}" in flat(revisited)
    assert "you decided PP" in flat(revisited) and "note: slow only on batch 1" in flat(revisited)
    assert "slow only on batch 1" in prefilled  # c opens with the stored note
    assert identifications(sqlite_store)[("stackoverflow", first.id)] == (
        True,
        "slow only on batch 1 (checked)",
    )
    assert audit(sqlite_store)[-1] == (
        "update",
        {"is_pp": True, "note": "slow only on batch 1"},
        {"is_pp": True, "note": "slow only on batch 1 (checked)"},
    )


@pytest.mark.parametrize("size", SIZES)
def test_history_lists_only_own_decisions_and_a_flip_is_audited(sqlite_store, size):
    ids = [1201, 1202, 1203, 1204]
    seed_candidates(sqlite_store, ids)
    order = seeded_order(ids, 0)
    with sqlite_store.write() as s:
        bob = get_or_create_rater(s, "bob")
        set_identification(s, bob, order[3], True, note="bob's secret")
    app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"))
    history, flipped, undone, back = drive(
        app, "y", "n", "h", "SCREEN", "down", "down", "enter", "n", "SCREEN", "u", "SCREEN", "s", size=size
    )
    rows = [line for line in history.splitlines() if re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", line)]
    assert len(rows) == 2
    assert str(order[1]) in rows[0] and "not PP" in rows[0]  # newest first
    assert str(order[0]) in rows[1]
    assert str(order[3]) not in history and "bob" not in history and "secret" not in history
    assert "2 decisions" in history
    # the older decision (PP) changed to not PP: stored, audited, not counted twice; the queue goes on
    assert "done 2 · remaining 2" in flipped and f"post {order[2]}" in flipped
    assert audit(sqlite_store)[3] == ("update", {"is_pp": True}, {"is_pp": False})  # [0] is bob's
    # u puts the old decision back and shows that post again; s leaves it, back to the queue
    assert identifications(sqlite_store)[("stackoverflow", order[0].id)] == (True, None)
    assert audit(sqlite_store)[4] == ("update", {"is_pp": False}, {"is_pp": True})
    assert f"post {order[0]}" in flat(undone) and "you decided PP" in flat(undone)
    assert f"post {order[2]}" in back and "done 2 · remaining 2" in back


@pytest.mark.parametrize("size", SIZES)
def test_history_jumps_to_a_typed_post_id(sqlite_store, size):
    ids = [1301, 1302, 1303]
    seed_candidates(sqlite_store, ids)
    order = seeded_order(ids, 0)
    app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"))
    outside, garbage, jumped, after = drive(
        app,
        "h", *typed("999"), "enter", "SCREEN",
        *["backspace"] * 3, *typed("x:y"), "enter", "SCREEN",
        *["backspace"] * 3, *typed(str(order[2])), "enter", "SCREEN",
        "y",
        size=size,
    )  # fmt: skip
    assert "post 999 is not one of your candidates" in flat(outside)
    assert "Your decisions" in garbage and "x:y" in garbage  # a one-line message, the list stays open
    assert "'x:y' is not a post id" in flat(garbage)
    # an undecided post, not in the history: shown out of turn, decided, and the queue goes on where it was
    assert f"post {order[2]}" in flat(jumped) and "out of turn" in flat(jumped)
    assert identifications(sqlite_store) == {("stackoverflow", order[2].id): (True, None)}
    assert f"post {order[0]}" in after and "done 1 · remaining 2" in after


@pytest.mark.parametrize("size", SIZES)
def test_search_finds_by_title_word_and_keyword_and_says_when_nothing_matches(sqlite_store, size):
    seed_candidates(sqlite_store, [1401, 1402])
    seed_candidates(sqlite_store, [1403], title="GPU Memory leak in loop", body="<p>it grows</p>")
    with sqlite_store.write() as s:
        cand = s.scalar(sa.select(Candidate).where(Candidate.question_id == 1402))
        cand.hits.append(CandidateHit(keyword="oom", field="prose", count=1))
    app = IdentifyApp(IdentifyQueue(sqlite_store, "ann"))
    by_title, shown, by_keyword, missed = drive(
        app,
        "slash", *typed("memory LEAK"), "enter", "SCREEN", "enter", "SCREEN",
        "slash", *typed("OOM"), "enter", "SCREEN",
        "escape", "slash", *typed("tensorboard"), "enter",
        size=size,
    )  # fmt: skip
    assert "1 post matched 'memory LEAK'" in flat(by_title) and "1403" in by_title
    assert "GPU Memory leak in loop" in by_title
    assert "GPU Memory leak in loop 1403" in shown and "post 1403" in flat(shown)
    assert "1 post matched 'OOM'" in flat(by_keyword) and "1402" in by_keyword
    assert "no post among your candidates matches 'tensorboard'" in flat(missed)


def test_o_reports_the_link_in_a_headless_session(sqlite_store, monkeypatch):
    seed_candidates(sqlite_store, [1501])
    for name in ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    for size in SIZES:
        [screen] = drive(IdentifyApp(IdentifyQueue(sqlite_store, "ann")), "o", size=size)
        assert "no browser here; the link: https://stackoverflow.com/questions/1501" in flat(screen)


@pytest.mark.parametrize("size", SIZES)
def test_help_and_hints_name_the_new_keys(sqlite_store, size):
    seed_candidates(sqlite_store, [1601])
    screen, helped = drive(
        IdentifyApp(IdentifyQueue(sqlite_store, "ann")), "SCREEN", "question_mark", size=size
    )
    assert "c note · h history · / search · o link" in flat(screen)
    for what in (
        "comment: a note",
        "history: your decisions",
        "search your candidates",
        "open the post's link",
    ):
        assert what in flat(helped)
