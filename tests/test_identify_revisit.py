"""Notes on decisions and going back to a decision (issue 13): the column and its migration, the audited write,
exports, merges, the queue's visits and undo, the search, and the priority model learning a changed decision."""

from __future__ import annotations

import sqlalchemy as sa
from test_triage_priority import FAST, screen, store_reports
from test_tui_identify import seed_candidates

from core.db import Store, current_revision, downgrade, open_store, upgrade
from core.schema.labeling import AuditEntry, Identification, Rater
from core.schema.mining import Candidate, CandidateHit, KeywordSet
from core.sites import PostKey
from labeling.io.export_study import export_file
from labeling.io.import_study import import_file
from labeling.queue import IdentifyQueue, seeded_order
from labeling.raters import merge_raters
from labeling.records import get_or_create_rater, set_identification, set_identification_note
from labeling.revisit import own_decisions, search_candidates
from labeling.triage.dataset import read_csv
from labeling.triage.priority import Priority
from mining.store import upsert_questions


def _audit(store):
    with store.read() as s:
        return s.execute(
            sa.select(AuditEntry.action, AuditEntry.before, AuditEntry.after).order_by(AuditEntry.id)
        ).all()


def test_migration_0011_adds_the_note_column_and_takes_it_away(db_url):
    store = Store(db_url)
    upgrade(store, "0010")
    assert "note" not in {c["name"] for c in sa.inspect(store.engine).get_columns("identifications")}
    upgrade(store)
    assert current_revision(store.engine) == "0011"
    store = open_store(db_url)
    seed_candidates(store, [11])
    with store.write() as s:
        set_identification(s, get_or_create_rater(s, "ann"), 11, True, note="fast on CPU")
    downgrade(store, "0010")
    columns = {c["name"] for c in sa.inspect(store.engine).get_columns("identifications")}
    assert "note" not in columns and {"is_pp", "decided_at"} <= columns
    with store.engine.connect() as conn:  # the decision itself stays
        assert conn.execute(sa.text("SELECT question_id, is_pp FROM identifications")).all() == [(11, True)]
    upgrade(store)
    with store.read() as s:
        assert s.execute(sa.select(Identification.is_pp, Identification.note)).all() == [(True, None)]


def test_a_note_belongs_to_a_decision_and_is_audited(sqlite_store):
    seed_candidates(sqlite_store, [21, 22])
    with sqlite_store.write() as s:
        ann = get_or_create_rater(s, "ann")
        assert set_identification_note(s, ann, 21, "too early") is None  # no decision: nothing stored
        set_identification(s, ann, 21, True)
        set_identification_note(s, ann, 21, "  only with batch 1 ")
        set_identification_note(s, ann, 21, "only with batch 1")  # unchanged: no entry
        set_identification(s, ann, 21, False)  # the note stays with the changed decision
        set_identification_note(s, ann, 21, "")
    assert _audit(sqlite_store) == [
        ("insert", None, {"is_pp": True}),
        ("update", {"is_pp": True}, {"is_pp": True, "note": "only with batch 1"}),
        (
            "update",
            {"is_pp": True, "note": "only with batch 1"},
            {"is_pp": False, "note": "only with batch 1"},
        ),
        ("update", {"is_pp": False, "note": "only with batch 1"}, {"is_pp": False}),
    ]


def test_identification_export_stays_the_published_shape_and_reports_notes(sqlite_store, published, tmp_path):
    import_file(sqlite_store, "identification", str(published / "kappa_identification.csv"))
    before = export_file(sqlite_store, "identification", tmp_path / "before.csv")
    assert before.warnings() == []
    with sqlite_store.read() as s:
        row = s.scalars(sa.select(Identification).limit(1)).one()
        rater_id, post = row.rater_id, row.key
    with sqlite_store.write() as s:
        set_identification_note(s, s.get(Rater, rater_id), post, "asked twice")
    after = export_file(sqlite_store, "identification", tmp_path / "after.csv")
    assert (tmp_path / "after.csv").read_bytes() == (tmp_path / "before.csv").read_bytes()
    assert after.warnings() == [
        "the 'identification' shape has no column for note: 1 values not written (--format archive keeps them)"
    ]


def test_merging_raters_keeps_their_notes(sqlite_store):
    seed_candidates(sqlite_store, [31, 32])
    with sqlite_store.write() as s:
        old, new = get_or_create_rater(s, "ann-old"), get_or_create_rater(s, "ann")
        set_identification(s, old, 31, True, note="moved with the decision")
        set_identification(s, old, 32, False, note="the target has none")
        set_identification(s, new, 32, False)
    with sqlite_store.write() as s:
        merge_raters(s, "ann-old", "ann")
    assert {d.post.id: d.note for d in own_decisions(sqlite_store, new.id)} == {
        31: "moved with the decision",
        32: "the target has none",
    }


def test_visit_redecide_and_undo_put_back_the_old_decision(sqlite_store):
    ids = [41, 42, 43, 44]
    seed_candidates(sqlite_store, ids)
    order = seeded_order(ids, 0)
    queue = IdentifyQueue(sqlite_store, "ann")
    queue.decide(True)
    queue.decide(False)
    head = queue.current
    assert queue.visit(order[0]) and queue.current == order[0] and queue.visiting
    assert not queue.visit(PostKey("stackoverflow", 999))  # not a candidate: nothing changes
    queue.decide(False)  # changed: counted once, the queue goes on where it was
    assert queue.current == head and queue.progress.done == 2
    assert {d.post: d.is_pp for d in own_decisions(sqlite_store, queue.rater_id)}[order[0]] is False
    assert queue.undo() == order[0] and queue.current == order[0]
    assert {d.post: d.is_pp for d in own_decisions(sqlite_store, queue.rater_id)}[order[0]] is True
    assert [a for a, _, _ in _audit(sqlite_store)] == ["insert", "insert", "update", "update"]
    queue.skip()  # leaves the visited post as it is
    assert queue.current == head and queue.progress.done == 2


def test_a_draft_note_is_stored_with_the_decision_and_survives_undo(sqlite_store):
    seed_candidates(sqlite_store, [51, 52])
    first = seeded_order([51, 52], 0)[0]
    queue = IdentifyQueue(sqlite_store, "ann")
    assert queue.set_note("leaks only on GPU") is False  # undecided: kept as a draft
    assert queue.draft_note(first) == "leaks only on GPU"
    queue.decide(True)
    assert queue.stored_decision(first) == (True, "leaks only on GPU")
    assert _audit(sqlite_store) == [("insert", None, {"is_pp": True, "note": "leaks only on GPU"})]
    queue.undo()
    assert queue.current == first and queue.draft_note(first) == "leaks only on GPU"


def test_search_by_text_code_and_keyword(sqlite_store):
    seed_candidates(sqlite_store, [61, 62, 63])
    with sqlite_store.write() as s:
        upsert_questions(
            s,
            [
                {"site": "stackoverflow", "id": 64, "title": "Process dies after an hour",
                 "body_html": "<p>it stops</p><pre>tf.data.Dataset.from_generator(gen)</pre>"},
                {"site": "stackoverflow", "id": 65, "title": "100% done", "body_html": "<p>under_score</p>"},
            ],
            "import",
        )  # fmt: skip
        set_id = s.scalar(sa.select(KeywordSet.id))
        for q, keyword in ((64, "memori leak"), (65, "slowli")):
            cand = Candidate(keyword_set_id=set_id, site="stackoverflow", question_id=q, matched_at=s.scalar(
                sa.select(Candidate.matched_at).limit(1)))  # fmt: skip
            cand.hits.append(CandidateHit(keyword=keyword, field="prose", count=1))
            s.add(cand)
    queue = IdentifyQueue(sqlite_store, "ann")

    def found(query):
        result = search_candidates(sqlite_store, set_id, queue.scope, queue.pending_posts, query)
        return [f.post.id for f in result.found], result.matched

    titled = [q.id for q in queue.pending_posts if q.id in (61, 62, 63)]
    assert found("TRAINING is VERY") == (titled, 3)  # any case, in queue order
    assert found("from_generator") == ([64], 1)  # code
    assert found("memory leaks") == ([64], 1)  # the keyword "memori leak", as it matches a post
    assert found("memori") == ([64], 1)  # the keyword as written
    assert found("100%") == ([65], 1) and found("r_s") == ([65], 1)  # % and _ are literal
    assert found("tensorboard") == ([], 0)
    decided = queue.current
    queue.decide(False)
    ids, matched = found("training")
    assert matched == 3 and ids[-1] == decided.id  # undecided first


def test_a_changed_decision_changes_what_the_priority_model_learns(sqlite_store, fixtures):
    data = read_csv(fixtures / "labelled_reports" / "caffe_asreview.csv")
    truth = store_reports(sqlite_store, data)
    priority = Priority(warmup=10, background=False, model=FAST)
    queue = IdentifyQueue(sqlite_store, "ann", seed=5, priority=priority)
    read = screen(queue, truth, 12)
    while not any(read):
        read += screen(queue, truth, 1)
    flipped = next(q for q in queue.ranking._decisions if truth[q])  # a PP this rater decided
    before = queue.ranking.status()
    assert queue.ranking._decisions[flipped] is True
    queue.visit(flipped)
    queue.decide(False)
    after = queue.ranking.status()
    assert (after.decisions, after.pps) == (before.decisions, before.pps - 1)
    assert queue.ranking._decisions[flipped] is False
    # a new session trains on the stored, changed decision
    again = IdentifyQueue(sqlite_store, "ann", seed=5, priority=priority)
    assert again.ranking._decisions[flipped] is False and again.ranking.status().pps == after.pps


def test_a_decision_and_its_undo_read_the_raters_row_once(sqlite_store):
    """Issue 20's hot path: each y/n/u reads the rater's stored decision once (labeling.records.identification),
    not once by hand and again inside set_identification / delete_identification."""
    from test_tui_identify import seed_candidates

    from labeling.queue import IdentifyQueue

    seed_candidates(sqlite_store, [71, 72])
    queue = IdentifyQueue(sqlite_store, "ann")
    queue.decide(True)  # the rater row exists from here on
    reads: list[str] = []

    def count(conn, cursor, statement, *args):
        own_row = "FROM identifications" in statement and "identifications.rater_id =" in statement
        if statement.lstrip().upper().startswith("SELECT") and own_row:
            reads.append(statement)

    sa.event.listen(sqlite_store.engine, "before_cursor_execute", count)
    try:
        queue.decide(False)
        assert len(reads) == 1, reads
        reads.clear()
        queue.undo()
        assert len(reads) == 1, reads
        reads.clear()
        queue.visit(queue.current)
        queue.decide(True)  # a revisit's changed decision
        assert len(reads) == 1, reads
    finally:
        sa.event.remove(sqlite_store.engine, "before_cursor_execute", count)


def test_classify_reads_its_status_once_and_progress_agrees(sqlite_store):
    """The classify queue and `pplabel progress` count from one classify_status: the queue's pace clock takes the
    finish times the queue read, and its done/remaining are progress's decided/remaining."""
    from labeling.progress import progress_report
    from labeling.queue import ClassifyQueue
    from labeling.records import get_or_create_rater, set_identification, set_pp_label
    from mining.store import upsert_questions

    full = {"symptom1": "memory.oom", "root_cause": "other", "introducing_stage": "training",
            "exposing_stage": "training"}  # fmt: skip
    with sqlite_store.write() as s:
        upsert_questions(s, [{"site": "stackoverflow", "id": q, "title": "t", "body_html": "<p>x</p>"}
                             for q in (81, 82, 83)], "import")  # fmt: skip
        ann = get_or_create_rater(s, "ann")
        for q in (81, 82, 83):
            set_identification(s, ann, q, True)
        set_pp_label(s, ann, 81, 1, **full)
        set_pp_label(s, ann, 82, 1, **{**full, "exposing_stage": None})  # half-labelled: comes first
    queue = ClassifyQueue(sqlite_store, "ann")
    assert queue.current.id == 82 and len(queue.finished_at) == 1
    with sqlite_store.read() as s:
        (row,) = progress_report(s, ["ann"], ["classify"])
    assert (row.decided, row.remaining) == (queue.progress.done, queue.progress.remaining) == (1, 2)
