"""`pplabel reconcile` driven by key presses: agreed items final without a visit, adjudicated finals stored."""

from __future__ import annotations

import asyncio
import os
import pty
import signal
import subprocess
import sys
import threading
import time

import pytest
import sqlalchemy as sa
from conftest import run_cli

from core.schema.labeling import AuditEntry, FinalIdentification, FinalLabel, Rater
from labeling.codebook import load_codebook
from labeling.reconcile import ReconcileSession
from labeling.records import get_or_create_rater, set_identification, set_pp_label
from labeling.tui.common import CodePicker, HelpScreen, screen_text
from labeling.tui.reconcile import ReconcileApp
from mining.store import upsert_questions

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIELDS = ("symptom1", "symptom2", "root_cause", "introducing_stage", "exposing_stage")


@pytest.fixture(scope="module")
def codebook():
    return load_codebook()


def seed(store, rater_b="bob"):
    """Posts 1 (PP by agreement), 2 (not PP by agreement), 3 (disputed); PP 1_1 agreed, 1_2 and 3_1 disputed."""
    with store.write() as s:
        upsert_questions(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": q,
                    "title": f"Keras fit is slow {q}",
                    "body_html": f"<p>body of post {q}</p>",
                }
                for q in (1, 2, 3)
            ],
            "import",
        )
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, rater_b)
        for q, a, b in ((1, True, True), (2, False, False), (3, True, False)):
            set_identification(s, ann, q, a)
            set_identification(s, bob, q, b)
        common = dict(introducing_stage="model_building")
        for r in (ann, bob):
            set_pp_label(s, r, 1, 1, symptom1="memory.oom", root_cause="api.not_batch_api",
                         exposing_stage="training", **common)  # fmt: skip
        set_pp_label(s, ann, 1, 2, symptom1="time.slow_execution", root_cause="model.inefficient_structure",
                     exposing_stage="training", **common)  # fmt: skip
        set_pp_label(s, bob, 1, 2, symptom1="time.slow_execution", root_cause="model.improper_model_parameter",
                     exposing_stage="prediction", **common)  # fmt: skip
        set_pp_label(s, ann, 3, 1, symptom1="processor.not_using_gpu", symptom2="time.slow_execution",
                     root_cause="hardware.library_mismatch", exposing_stage="training", **common)  # fmt: skip
        set_pp_label(s, bob, 3, 1, symptom1="time.slow_execution",
                     root_cause="hardware.library_mismatch", exposing_stage="training", **common)  # fmt: skip


def finals(store):
    with store.read() as s:
        names = dict(s.execute(sa.select(Rater.id, Rater.name)).all())
        ids = {
            r.question_id: (r.is_pp, r.method, names.get(r.decided_by))
            for r in s.scalars(sa.select(FinalIdentification))
        }
        labels = {
            f"{r.question_id}_{r.pp_index}": (
                *(getattr(r, f) for f in FIELDS),
                r.method,
                names.get(r.decided_by),
            )
            for r in s.scalars(sa.select(FinalLabel))
        }
    return ids, labels


async def _drive(app, keys, probe=None):
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        seen = []
        for key in keys:
            if key == "SCREEN":
                seen.append(screen_text(app))
                continue
            await pilot.press(key)
        await pilot.pause()
        seen.append(probe(app) if probe else screen_text(app))
        return seen


def run(app, *keys, probe=None):
    """Press ``keys`` ("SCREEN" records the screen at that point); returns the recorded screens, last at exit."""
    return asyncio.run(_drive(app, keys, probe))


def test_adjudicate_identification_then_labels(store, codebook):
    seed(store)
    session = ReconcileSession(store, "judge")
    # Agreed items are final before anything is shown.
    ids, labels = finals(store)
    assert ids == {1: (True, "agreement", None), 2: (False, "agreement", None)}
    assert labels == {
        "1_1": ("memory.oom", None, "api.not_batch_api", "model_building", "training", "agreement", None)
    }
    app = ReconcileApp(session, codebook)
    screens = run(
        app,
        "SCREEN",
        "y",  # post 3 is a PP
        "SCREEN",
        "2",  # 1_2 root cause: bob's
        "enter", "v",  # 1_2 exposing stage: evaluation, from the codebook (neither rater's)
        "SCREEN",
        "1", "minus",  # 3_1 symptoms: ann's first, no second
    )  # fmt: skip
    first, labels_screen, third, last = screens
    assert "post 3" in first and "ann: PP" in first and "bob: not PP" in first and "judge" in first
    assert "PP 1_2" in labels_screen and "1 ann" in labels_screen and "2 bob" in labels_screen
    assert "Prediction" in labels_screen and "Training" in labels_screen  # the exposing stages, side by side
    # the codebook's note on the two root causes the raters gave
    assert "note: Structure is the number of layers" in labels_screen
    assert "PP 3_1" in third and "done 2" in third
    assert "Nothing left to reconcile" in last
    ids, labels = finals(store)
    assert ids[3] == (True, "adjudicated", "judge")
    assert labels["1_2"] == (
        "time.slow_execution",
        None,
        "model.improper_model_parameter",
        "model_building",
        "evaluation",
        "adjudicated",
        "judge",
    )
    assert labels["3_1"] == (
        "processor.not_using_gpu",
        None,
        "hardware.library_mismatch",
        "model_building",
        "training",
        "adjudicated",
        "judge",
    )
    with store.read() as s:
        audited = s.scalars(
            sa.select(AuditEntry.entity_key).where(AuditEntry.actor == "judge").order_by(AuditEntry.id)
        ).all()
    assert audited == ["3", "1_2", "3_1"]
    assert ReconcileSession(store, "judge").pending == []  # a new session finds nothing left


def test_skip_undo_and_quit(sqlite_store, codebook):
    seed(sqlite_store)
    app = ReconcileApp(ReconcileSession(sqlite_store, "judge"), codebook)
    screens = run(
        app,
        "s",  # skip post 3: 1_2 comes first, 3 at the end
        "SCREEN",
        "u",  # undo the skip: post 3 again
        "y",
        "u",  # undo the decision: no final for post 3, its labels leave the queue
        "n",  # post 3 is not a PP: 3_1 is never asked
        "2",
        "u",  # undo a pick of the current PP (nothing committed yet)
        "1",
        "SCREEN",
        "j",
        "q",
    )
    skipped, picked, _ = screens
    assert "PP 1_2" in skipped and "remaining 2" in skipped
    assert "exposing stage" in picked  # the cursor moved on to the next open field
    ids, labels = finals(sqlite_store)
    assert ids[3] == (False, "adjudicated", "judge")
    assert "1_2" not in labels and "3_1" not in labels
    outcome = app.return_value
    assert (outcome.decided, outcome.remaining) == (1, 1)
    with sqlite_store.read() as s:
        actions = s.execute(
            sa.select(AuditEntry.entity_key, AuditEntry.action)
            .where(AuditEntry.actor == "judge")
            .order_by(AuditEntry.id)
        ).all()
    assert [tuple(a) for a in actions] == [("3", "insert"), ("3", "delete"), ("3", "insert")]


def test_help_picker_and_inert_rater_names(sqlite_store, codebook):
    seed(sqlite_store, rater_b="bob\x1b[31m[bold]")

    def stack(app):
        return [type(s) for s in app.screen_stack], screen_text(app)

    app = ReconcileApp(ReconcileSession(sqlite_store, "judge"), codebook)
    first, (kinds, help_screen) = run(app, "SCREEN", "question_mark", probe=stack)
    assert "bob␛[31m[bold]: not PP" in first
    assert kinds[-1] is HelpScreen and "1-9" in help_screen and "[t1]" in help_screen
    app = ReconcileApp(ReconcileSession(sqlite_store, "judge"), codebook)
    [(kinds, picker)] = run(app, "y", "enter", "escape", "enter", probe=stack)
    assert kinds[-1] is CodePicker and "Root cause" in picker
    ids, labels = finals(sqlite_store)
    assert "1_2" not in labels  # Esc picked nothing


def test_cli_auto_only_usage_and_terminal(sqlite_url):
    from core.db import open_store

    seed(open_store(sqlite_url))

    def pplabel(*args):
        return run_cli("labeling.cli", "reconcile", "--db", sqlite_url, *args, check=False)

    auto = pplabel("--auto-only")
    assert auto.returncode == 0, auto.stderr
    assert "identification: 2 made final on agreement, 1 to adjudicate" in auto.stdout
    assert "labels: 1 PPs made final on agreement, 1 to adjudicate" in auto.stdout
    assert pplabel().returncode == 2
    assert pplabel("--min-raters", "0", "--auto-only").returncode == 2
    no_tty = pplabel("--adjudicator", "judge")
    assert no_tty.returncode == 1
    assert no_tty.stderr.startswith("pplabel: error:") and no_tty.stderr.count("\n") == 1
    assert "--auto-only" in no_tty.stderr


def _wait_for(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_killed_cli_session_keeps_every_decision(sqlite_url):
    """The real command in a real terminal (pty): decisions stored as made survive SIGKILL; a new session resumes."""
    from core.db import open_store

    store = open_store(sqlite_url)
    seed(store)
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="140", LINES="40")
    proc = subprocess.Popen(
        [sys.executable, "-m", "labeling.cli", "reconcile", "--adjudicator", "judge", "--db", sqlite_url],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=PROJECT,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    output = bytearray()
    reader = threading.Thread(target=_drain, args=(master, output), daemon=True)
    reader.start()
    try:
        assert _wait_for(lambda: b"post 3" in output), output[-500:]
        os.write(master, b"y")
        assert _wait_for(lambda: 3 in finals(store)[0]), output[-500:]
        shown = len(output)
        os.write(master, b"2")  # a pick of PP 1_2, not yet a decision
        assert _wait_for(lambda: len(output) > shown), output[-500:]  # the screen shows the pick
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    ids, labels = finals(store)
    assert ids[3] == (True, "adjudicated", "judge") and "1_2" not in labels
    assert [i.key for i in ReconcileSession(store, "judge").pending] == ["1_2", "3_1"]


def _drain(fd, sink: bytearray) -> None:
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return
        if not chunk:
            return
        sink.extend(chunk)


def test_item_decided_by_another_adjudicator_is_dropped_with_a_message(sqlite_store, codebook):
    seed(sqlite_store)
    app = ReconcileApp(ReconcileSession(sqlite_store, "judge"), codebook)
    ReconcileSession(sqlite_store, "jury").decide_identification(False)
    [screen] = run(app, "y")
    assert "decided meanwhile by jury" in screen and "PP 1_2" in screen and "q quit" in screen
    assert finals(sqlite_store)[0][3] == (False, "adjudicated", "jury")
    assert app.session.decided == 0


def test_a_digit_on_the_identification_screen_takes_that_raters_decision(store, codebook):
    seed(store)
    app = ReconcileApp(ReconcileSession(store, "judge"), codebook)
    [first, _] = run(app, "SCREEN", "2")  # post 3: 1 ann (PP), 2 bob (not PP)
    assert " 2  bob: not PP" in first
    ids, _ = finals(store)
    assert ids[3] == (False, "adjudicated", "judge")
