"""`pplabel classify` driven by key presses: labels stored per PP, undo/skip/resume, which posts, blindness."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa
from test_tui_identify import seed_candidates

from core.schema.labeling import PPLabel, Rater
from core.sites import PostKey
from labeling.codebook import load_codebook
from labeling.queue import ClassifyQueue, seeded_order
from labeling.records import get_or_create_rater, set_final_identification, set_identification, set_pp_label
from labeling.tui.classify import ClassifyApp
from labeling.tui.common import CodePicker, HelpScreen, screen_text

COLUMNS = ("symptom1", "symptom2", "root_cause", "introducing_stage", "exposing_stage", "part", "note")


def SO(post_id: int) -> PostKey:  # noqa: N802 - reads like the post it names
    return PostKey("stackoverflow", post_id)


@pytest.fixture(scope="module")
def codebook():
    return load_codebook()


def pp_posts(store, rater, ids, is_pp=True):
    with store.write() as s:
        r = get_or_create_rater(s, rater)
        for q in ids:
            set_identification(s, r, q, is_pp)


def labels(store, rater):
    with store.read() as s:
        rows = s.scalars(
            sa.select(PPLabel).join(Rater, Rater.id == PPLabel.rater_id).where(Rater.name == rater)
        ).all()
    return {(r.key, r.pp_index): tuple(getattr(r, c) for c in COLUMNS) for r in rows}


async def _drive(app, keys, probe=None):
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        return probe(app) if probe else screen_text(app)


def run(app, *keys, probe=None):
    return asyncio.run(_drive(app, keys, probe))


# Enter opens the field under the cursor; each pick moves the cursor to the next empty field:
# symptom 1 (t1), symptom 2 (- none), root cause (a3), introducing (m), exposing (t).
LABEL_ONE = ("enter", "t", "1", "enter", "minus", "enter", "a", "3", "enter", "m", "enter", "t")


def test_guided_keys_label_a_pp_and_done_moves_on(store, codebook):
    ids = [11, 12, 13]
    seed_candidates(store, ids)
    pp_posts(store, "ann", ids)
    order = seeded_order(ids, 0)
    app = ClassifyApp(ClassifyQueue(store, "ann"), codebook)
    screen = run(app, *LABEL_ONE, "p", *"fit loop", "enter", "d")
    assert labels(store, "ann") == {
        (order[0], 1): (
            "time.slow_execution",
            None,
            "api.inefficient_usage",
            "model_building",
            "training",
            "fit loop",
            None,
        )
    }
    assert app.queue.current == order[1]
    assert "done 1 · remaining 2" in screen


def test_several_pps_done_needs_every_pp_complete(sqlite_store, codebook):
    seed_candidates(sqlite_store, [21])
    pp_posts(sqlite_store, "ann", [21])
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    # PP 1 complete; `a` adds PP 2 and opens its symptom picker: m1 (OOM), then Esc stops; d must refuse.
    screen = run(app, *LABEL_ONE, "a", "m", "1", "escape", "d")
    assert app.queue.current == ("stackoverflow", 21)
    assert labels(sqlite_store, "ann")[(SO(21), 2)][0] == "memory.oom"
    assert "PP 2" in screen and "(required)" in screen
    # Finish PP 2 by direct keys: root cause r -> h3, stages i -> d, e -> t; then done.
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    run(app, "right_square_bracket", "r", "h", "3", "i", "d", "e", "t", "c", *"see answer", "enter", "d")
    assert labels(sqlite_store, "ann")[(SO(21), 2)] == (
        "memory.oom",
        None,
        "hardware.improper_configuration",
        "data_preparation",
        "training",
        None,
        "see answer",
    )
    assert app.queue.current is None and app.queue.progress.done == 1


def test_undo_reverts_picks_and_done(sqlite_store, codebook):
    ids = [31, 32]
    seed_candidates(sqlite_store, ids)
    pp_posts(sqlite_store, "ann", ids)
    first = seeded_order(ids, 0)[0]
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    # label, done, then undo the done (back to the post) and the last pick (exposing stage).
    run(app, *LABEL_ONE, "d", "u", "u")
    assert app.queue.current == first
    assert labels(sqlite_store, "ann")[(first, 1)][:5] == (
        "time.slow_execution",
        None,
        "api.inefficient_usage",
        "model_building",
        None,
    )
    # A changed field is restored; the first pick of a new PP, undone, deletes its row again.
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    run(app, "M", "p", "1", "u", "a", "t", "2", "escape", "u")
    stored = labels(sqlite_store, "ann")
    assert stored[(first, 1)][1] is None and stored[(first, 1)][0] == "time.slow_execution"
    assert (first, 2) not in stored


def test_skip_and_resume_half_labeled_post_first(sqlite_store, codebook):
    ids = [41, 42, 43]
    seed_candidates(sqlite_store, ids)
    pp_posts(sqlite_store, "ann", ids)
    order = seeded_order(ids, 0)
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    run(app, "s", "enter", "t", "1", "escape", "q")
    assert app.queue.current == order[1]
    resumed = ClassifyQueue(sqlite_store, "ann")
    assert resumed.current == order[1]  # half labeled: first in the next session
    assert resumed.progress.done == 0 and resumed.progress.remaining == 3


def test_which_posts_reconciled_decision_wins(sqlite_store, codebook):
    ids = [51, 52, 53, 54]
    seed_candidates(sqlite_store, ids)
    pp_posts(sqlite_store, "ann", [51, 52])
    pp_posts(sqlite_store, "ann", [53], is_pp=False)
    pp_posts(sqlite_store, "bob", [54])  # bob's PP is not ann's work
    with sqlite_store.write() as s:
        set_final_identification(s, 52, False, "agreement")
        set_final_identification(s, 53, True, "adjudicated")
    queue = ClassifyQueue(sqlite_store, "ann")
    assert sorted(queue._pending) == [("stackoverflow", 51), ("stackoverflow", 53)]


def test_blind_to_other_raters_labels(store, codebook):
    seed_candidates(store, [61])
    pp_posts(store, "ann", [61])
    pp_posts(store, "bob", [61])
    with store.write() as s:
        bob = get_or_create_rater(s, "bob")
        set_pp_label(
            s,
            bob,
            61,
            1,
            symptom1="processor.not_using_gpu",
            root_cause="library.mismatched_version",
            introducing_stage="hyper_parameter_tuning",
            exposing_stage="evaluation",
            part="BOBS-PART",
        )
    app = ClassifyApp(ClassifyQueue(store, "ann"), codebook)
    screen = run(app)
    for shown in ("Not Using GPU", "Mismatched", "Hyper Parameter Tuning", "Evaluation", "BOBS-PART", "bob"):
        assert shown.lower() not in screen.lower()
    assert screen.count("(required)") == 4


def test_fuzzy_filter_help_and_notes(sqlite_store, codebook):
    seed_candidates(sqlite_store, [71])
    pp_posts(sqlite_store, "ann", [71])
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    run(app, "r", "slash", *"batch", "enter")
    assert labels(sqlite_store, "ann")[(SO(71), 1)][2] == "api.not_batch_api"

    def stack(app):
        return [type(s) for s in app.screen_stack], screen_text(app)

    kinds, screen = run(
        ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook), "question_mark", probe=stack
    )
    assert kinds[-1] is HelpScreen and "[a2]" in screen and codebook.name("api.not_batch_api") in screen
    # In the symptom picker, `?` shows the disambiguation notes of the highlighted code (Slow Execution Time).
    kinds, screen = run(
        ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook), "m", "question_mark", probe=stack
    )
    assert kinds[-2:] == [CodePicker, HelpScreen]
    note = codebook.notes_for("time.slow_execution")[0].text
    assert note.split()[0] in screen and "Notes:" in screen


def test_delete_last_pp_and_undo_restores_it(sqlite_store, codebook):
    seed_candidates(sqlite_store, [81])
    pp_posts(sqlite_store, "ann", [81])
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    # PP 2 (m2) deleted; D again refuses to delete PP 1; a new PP 2 (p2) deleted, then undone.
    run(app, *LABEL_ONE, "a", "m", "2", "escape", "D", "D", "a", "p", "2", "escape", "D", "u")
    stored = labels(sqlite_store, "ann")
    assert set(stored) == {(SO(81), 1), (SO(81), 2)}
    assert (
        stored[(SO(81), 1)][0] == "time.slow_execution"
        and stored[(SO(81), 2)][0] == "processor.not_using_gpu"
    )


def test_refused_pick_is_not_shown_as_stored(sqlite_store, codebook):
    seed_candidates(sqlite_store, [91])
    pp_posts(sqlite_store, "ann", [91])
    with sqlite_store.write() as s:
        s.execute(
            sa.text(
                "CREATE TRIGGER refuse BEFORE INSERT ON pp_labels "
                "BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END"
            )
        )
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    screen = run(app, "m", "t", "1")
    assert "change not saved: refused by test trigger" in screen
    assert app.pps[1]["symptom1"] is None and labels(sqlite_store, "ann") == {}


def test_cli_without_pp_posts_is_one_line_error(sqlite_url):
    import os
    import pty
    import subprocess
    import sys

    from core.db import open_store

    seed_candidates(open_store(sqlite_url), [95])
    primary, secondary = pty.openpty()  # a terminal, so only the missing PP posts can be the problem
    try:
        result = subprocess.run(
            [sys.executable, "-m", "labeling.cli", "classify", "--rater", "ann", "--db", sqlite_url],
            stdin=secondary,
            stdout=secondary,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(primary)
        os.close(secondary)
    assert result.returncode == 1
    assert (
        result.stderr
        == "pplabel: error: no PP posts for rater 'ann' yet: mark some with `pplabel identify --rater ann`\n"
    )


def test_braces_reorder_pps_and_agreement_does_not_change(sqlite_store, codebook):
    from labeling.agreement import compute_agreement

    seed_candidates(sqlite_store, [31])
    pp_posts(sqlite_store, "ann", [31])
    pp_posts(sqlite_store, "bob", [31])
    first = dict(symptom1="time.slow_execution", root_cause="api.not_batch_api", introducing_stage="training",
                 exposing_stage="training", part="the loop")  # fmt: skip
    second = dict(symptom1="memory.oom", root_cause="data.improper_input", introducing_stage="data_preparation",
                  exposing_stage="training", part="the input pipeline")  # fmt: skip
    with sqlite_store.write() as s:
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        set_pp_label(s, ann, 31, 1, **first)
        set_pp_label(
            s, ann, 31, 2, **{**second, "exposing_stage": None}
        )  # unfinished: the post is in her queue
        set_pp_label(s, bob, 31, 1, **second)
        set_pp_label(s, bob, 31, 2, **{**first, "root_cause": "api.inefficient_usage"})

    def agreement():
        with sqlite_store.read() as s:
            result = {d: a.as_dict() for d, a in compute_agreement(s, codebook, stage="classify").items()}
        # item ids follow the first rater's PP numbering, which a reorder changes: compare without them
        for stats in result.values():
            stats["confusion"] = sorted(
                (c["rater_a"], c["rater_b"], c["label_a"], c["label_b"], c["count"])
                for c in stats["confusion"]
            )
            stats["disputed"] = sorted(sorted(d["ratings"].items()) for d in stats["disputed"])
            stats["pairing"] = len(
                stats["pairing"]
            )  # which PP ids were paired is exactly what a reorder renumbers
        return result

    before = agreement()
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    moved = run(app, "right_curly_bracket", probe=lambda a: (a.pp, labels(sqlite_store, "ann")))
    assert moved[0] == 2  # the cursor follows the moved PP
    assert moved[1][(SO(31), 1)][0] == "memory.oom" and moved[1][(SO(31), 2)][0] == "time.slow_execution"
    assert moved[1][(SO(31), 2)][5] == "the loop"  # every label, part included, moved with its PP
    assert agreement() == before
    app = ClassifyApp(ClassifyQueue(sqlite_store, "ann"), codebook)
    undone = run(
        app, "right_curly_bracket", "u", "left_curly_bracket", probe=lambda a: labels(sqlite_store, "ann")
    )
    assert undone[(SO(31), 1)][0] == "memory.oom"  # moved, undone, then PP 1 cannot move earlier: unchanged
    assert agreement() == before
