"""`ppmine import-dump`: a data dump's Posts.xml (and Comments.xml) into the study database, resumably.

Questions carrying any of the wanted tags (all questions without a tag filter) inside the creation-date window
are kept; answers whose question is kept (in this run or stored already) and comments on kept posts follow them.
Posts are written through :mod:`mining.store` with source ``"dump"`` (newer ``LastActivityDate`` wins), in
batches committed together with the run's checkpoint, so an interrupted import resumes where it stopped and a
second import of the same file changes nothing. A dump lists posts by id, so a question precedes its answers.

Memory stays flat however large the file or the database: whether an answer's question (or a comment's post) is
kept is asked of the database once per batch, for the batch's ids only, just before the batch is written.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from core.db import Store
from core.errors import PPMinerError
from core.progress import progress
from core.schema.labeling import AuditEntry
from core.schema.mining import AcquisitionRun, Answer, Comment, Question
from core.sites import post_ref, question_link
from mining.dump import parts
from mining.dump.reader import STDIN, DumpReader, Row, SafePoint
from mining.dump.rows import (
    ANSWER_DATES,
    QUESTION_DATES,
    DumpFilter,
    PostSelector,
    RowError,
    answer_row,
    comment_row,
    dump_date,
    dump_dates,
    select_comment,
)
from mining.dump.split_pool import MIN_ROWS, SplitPool, take_prepared, worker_wanted
from mining.joblock import Lock
from mining.store import (
    chunks,
    upsert_answers,
    upsert_comments,
    upsert_questions,
    utcnow,
    without_ids,
    write_upsert,
)

KIND = "dump"
LOCK_NAME = "import-dump"  # one dump import per database at a time
CHECKPOINT_BYTES = 64 << 20  # checkpoint at least this often while scanning rows nobody wants
# SQLite: copy the write-ahead log into the database once it holds this many pages (default 1000)
WAL_CHECKPOINT_PAGES = 32768
# ... and while the writer thread writes behind the reading: its checkpoints cost the reading nothing, and the last
# one, which the import waits for when it ends, has less to copy (bench_dump's 100 MB: 0.05 s instead of 0.2 s)
WAL_CHECKPOINT_PAGES_BEHIND = 8192
YOUNG_OBJECTS = 10_000  # new objects between two passes of the cycle collector while importing


@dataclass
class FileCounts:
    """What one file gave: rows read, rows kept per kind, rows actually written (new or newer)."""

    file: str = ""
    rows: int = 0
    questions: int = 0
    answers: int = 0
    comments: int = 0
    written: int = 0
    resumed: str | None = None


@dataclass
class ImportResult:
    run_id: int
    site: str
    posts: FileCounts
    comments: FileCounts | None = None
    moved: int = 0  # questions an earlier import had filed under another site, moved to this one
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class DumpImport:
    """One run of the importer over a Posts file and an optional Comments file."""

    def __init__(
        self,
        store: Store,
        posts: str,
        comments: str | None = None,
        filt: DumpFilter | None = None,
        site: str = "stackoverflow",
        batch_size: int = 2000,
        restart: bool = False,
        progress: bool | None = None,
        split_worker: bool | None = None,
    ):
        if posts == STDIN and comments == STDIN:
            raise PPMinerError("only one of POSTS and --comments can be standard input")
        self.store = store
        self.posts_path, self.comments_path = posts, comments
        self.filt = filt or DumpFilter()
        self.site = site
        self.batch_size = batch_size
        self.restart = restart
        self.show_progress = progress is not False  # None: a bar whenever stderr is a terminal
        self._lock: Lock | None = None
        self.moved = 0
        self.other_sites: list[str] = []  # sites stored when the run began: where misfiled questions can be
        self._site_was_empty = False  # no post of the site stored when the run began
        # None: as PPMINER_DUMP_WORKER says, or when a core is free to run it (split_pool.worker_wanted)
        self.split_worker = worker_wanted() if split_worker is None else split_worker
        self._writer_thread: ThreadPoolExecutor | None = None  # writes held batches while the worker runs

    def run(self) -> ImportResult:
        try:
            with _old_objects_left_alone(), Lock(self.store, LOCK_NAME) as lock:
                self._lock = lock
                self._splitter = SplitPool(self.split_worker, self.store.engine.dialect)
                try:
                    return self._run()
                finally:
                    # a write under way ends first: it carries its own checkpoint
                    if self._writer_thread is not None:
                        self._writer_thread.shutdown(wait=True)
                        self._writer_thread = None
                    self._splitter.close()
        finally:
            # the batches raised the WAL's checkpoint size on their connections (WAL_CHECKPOINT_PAGES): fold the
            # last ones into the file and drop those connections, however the import ended
            self.store.settle()

    def _writer(self) -> ThreadPoolExecutor | None:
        """The thread that writes held batches, started once the worker process runs (it is forked first: a fork
        copies only the calling thread), never without one (on a busy machine a thread shortens nothing)."""
        if self._writer_thread is None and self._splitter.started:
            self._writer_thread = ThreadPoolExecutor(1, thread_name_prefix="import-dump-write")
        return self._writer_thread

    def _run(self) -> ImportResult:
        started = time.perf_counter()
        posts_reader = DumpReader.open(self.posts_path, "posts")
        comments_reader = DumpReader.open(self.comments_path, "comments") if self.comments_path else None
        try:
            params = {
                "posts": posts_reader.identity,
                "comments": comments_reader.identity if comments_reader else None,
                "site": self.site,
                **self.filt.params(),
            }
            run_id, checkpoint = self._start_run(params)
            with self.store.read() as s:  # once: the per-batch lookups then go by primary key (site, id)
                sites = list(s.scalars(sa.select(Question.site).distinct()))
            self.other_sites = [site for site in sites if site != self.site]
            # None of this site's posts stored when the run began (answers need their question): any stored since
            # were written by this run (or a scrape meanwhile), which the upsert's own test compares, so a held
            # batch's posts are not looked up first to drop those not newer
            self._site_was_empty = self.site not in sites
            result = ImportResult(run_id, self.site, FileCounts(posts_reader.name))
            try:
                selector = PostSelector(self.filt, self.site)
                self._import_file(posts_reader, "posts", selector, checkpoint, result.posts, run_id)
                if comments_reader:
                    result.comments = FileCounts(comments_reader.name)
                    self._import_file(
                        comments_reader, "comments", select_comment, checkpoint, result.comments, run_id
                    )
            except KeyboardInterrupt as exc:
                _let_go(exc)
                self._finish(run_id, "interrupted", "interrupted; resume by running the same command again")
                raise
            except PPMinerError as exc:
                self._finish(run_id, "failed", str(exc))
                raise
            result.moved = self.moved
            result.seconds = time.perf_counter() - started
            self._finish(run_id, "done", _summary(result))
            return result
        finally:
            posts_reader.close()
            if comments_reader:
                comments_reader.close()

    # -- runs and checkpoints --

    def _start_run(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """Resume the newest unfinished run with the same files and filters, else start a new one."""
        now = utcnow()
        with self.store.write() as s:
            unfinished = s.scalars(
                sa.select(AcquisitionRun)
                .where(AcquisitionRun.kind == KIND, AcquisitionRun.status != "done")
                .order_by(AcquisitionRun.id.desc())
            ).all()
            same = [run for run in unfinished if run.params == params]
            if same and not self.restart:
                run = same[0]
                run.status, run.updated_at, run.finished_at = "running", now, None
                return run.id, dict(run.checkpoint or {})
            run = AcquisitionRun(
                kind=KIND, status="running", params=params, checkpoint={}, started_at=now, updated_at=now
            )
            s.add(run)
            s.flush()
            for old in same:  # --restart: the unfinished runs of this import will never be resumed
                old.status, old.updated_at, old.finished_at = "failed", now, now
                old.message = f"abandoned: --restart began run {run.id}"
            return run.id, {}

    def _finish(self, run_id: int, status: str, message: str) -> None:
        now = utcnow()
        with self.store.write() as s:
            run = s.get(AcquisitionRun, run_id)
            # Every end counts (done, failed, interrupted), as for scrape runs; a resume clears it again.
            run.status, run.message, run.updated_at, run.finished_at = status, message, now, now

    # -- one file --

    def _import_file(
        self,
        reader: DumpReader,
        key: str,
        select: Callable,
        checkpoint: dict[str, Any],
        counts: FileCounts,
        run_id: int,
    ) -> None:
        state = checkpoint.get(key) or {}
        if state.get("done"):
            counts.resumed = "already done"
            counts.rows = state.get("rows", 0)
            return
        if state.get("at"):
            counts.resumed = reader.resume(SafePoint(**state["at"]))
        label = os.path.basename(reader.name)
        with progress(label, reader.size, unit="bytes", enabled=self.show_progress) as bar:
            bar.set(reader.offset)
            if key == "posts" and self._in_parts(reader, select):
                rest = self._stream_parts(reader, select, state, counts, run_id, bar)
                if rest is None:
                    return
                reader.resume(rest)  # (where the parts stopped: the usual way says why, or reads on)
            self._stream(reader, key, select, state, counts, run_id, bar)

    def _in_parts(self, reader: DumpReader, select) -> bool:
        """Whether the posts are imported in parts (:mod:`mining.dump.parts`): with the workers wanted, from a
        file large enough, every post kept, and no post of the site (nor of another site) stored as the run began,
        so that every answer's question is in the file or nowhere."""
        filt = self.filt
        return (
            self.split_worker
            and reader.path != STDIN
            and isinstance(select, PostSelector)
            and filt.tags is None
            and filt.date_from is None
            and filt.date_to is None
            and self._site_was_empty
            and not self.other_sites
            and self.batch_size >= MIN_ROWS
            and (reader.size or 0) - reader.offset >= parts.MIN_BYTES
        )

    def _stream_parts(self, reader, select, state, counts, run_id, bar) -> SafePoint | None:
        """The posts from the reader's position on, a part of about ``batch_size`` lines at a time, each parsed
        and made ready to write in a worker and written here, in file order, with the checkpoint after it. Returns
        None when the file is done, else the safe point after the last part written, where the usual way goes on (a
        part the workers would not read, or a line too long to cut at)."""
        at = state.get("at") or {}
        point = SafePoint(reader.offset, reader.line, reader.rows, at.get("last_id"), at.get("root_line"))
        pool = parts.PartPool(self.store.engine.dialect)
        try:
            pieces = parts.cut(reader.path, point.offset, self.batch_size)
            for part, read in pool.map(reader.path, pieces, select):
                if read is None:
                    break
                rows = point.rows + read.rows
                root_line = point.root_line or read.root_line
                end = SafePoint(
                    part.end, point.line + read.lines, rows, read.last_id or point.last_id, root_line
                )
                state_now = {**state, "at": asdict(end), "rows": rows, "done": part.last}
                counts.written += self._write_part(read, run_id, state_now, counts)
                state.update(state_now)
                point = end
                bar.set(part.end)
                if part.last:
                    counts.rows = rows
                    return None
        finally:
            pool.close()
        return point

    def _write_part(self, read: parts.ReadPart, run_id: int, state: dict, counts: FileCounts) -> int:
        """One transaction: a part's posts (but answers whose question is neither in the part nor stored) and the
        checkpoint after it."""
        with self.store.write() as s:
            if self.store.is_sqlite:
                s.connection().exec_driver_sql(f"PRAGMA wal_autocheckpoint = {WAL_CHECKPOINT_PAGES_BEHIND}")
            questions, answers = read.prepared
            asked = {question for _, question in read.answers}.difference(read.question_ids)
            orphans: set[int] = set()
            if asked:
                stored = _stored_questions(s, self.site, asked)
                orphans = {
                    answer
                    for answer, question in read.answers
                    if question in asked and question not in stored
                }
                if orphans:
                    answers = without_ids(answers, orphans, s.get_bind().dialect)
            written = write_upsert(s, questions) + write_upsert(s, answers)
            self._record(s, run_id, "posts", state, written)
        counts.questions += len(read.question_ids)
        counts.answers += sum(answer not in orphans for answer, _ in read.answers)
        return written

    def _record(self, session, run_id: int, key: str, state: dict, written: int) -> None:
        """The import's part of a batch's transaction: the lock's heartbeat and the run's checkpoint."""
        if self._lock is not None:
            self._lock.heartbeat(session)
        run = session.get(AcquisitionRun, run_id)
        run.checkpoint = {**(run.checkpoint or {}), key: state}
        run.items = (run.items or 0) + written
        run.updated_at = utcnow()

    def _stream(self, reader, key, select, state, counts, run_id, bar) -> None:
        """Rows of one file into the database, batch by batch, each batch with its checkpoint
        (:class:`_FileStream`)."""
        _FileStream(self, reader, key, select, state, counts, run_id, bar).run()

    def _write(
        self,
        batch: _Batch,
        run_id: int,
        key: str,
        state: dict,
        old_state: dict,
        decided: tuple | None = None,
        prepared: tuple | None = None,
        behind: bool = False,
    ) -> int:
        """One transaction: the batch's posts and the checkpoint that says they are done. A bad value met while
        building the batch's answers or comments: the rows before it are written, the checkpoint stays at
        ``old_state``, and the error is raised after the commit. ``decided``: a held batch's questions and answers,
        rows not newer than the stored ones dropped already (any stored since are refused by the upsert's own
        test, which is the same test); ``prepared``: those made ready to write by the worker (None: here); ``behind``:
        written by the writer thread."""
        written = 0
        with self.store.write() as s:
            if self.store.is_sqlite:
                # A batch writes megabytes: with SQLite's default (1000 pages) every commit also copies the WAL
                # back into the database and syncs it. Fewer, larger checkpoints; each commit is as durable.
                pages = WAL_CHECKPOINT_PAGES_BEHIND if behind else WAL_CHECKPOINT_PAGES
                s.connection().exec_driver_sql(f"PRAGMA wal_autocheckpoint = {pages}")
            batch.resolve(s)
            fault = batch.fault
            if fault is not None:
                state = old_state
            # A repeated id (a broken or concatenated dump) is fine: the upsert keeps the newest version.
            questions, answers, comments = batch.by_kind()
            if self.other_sites:
                self.moved += _move_misfiled(s, self.site, self.other_sites, questions)
            if decided is not None:  # a pair of lists, truthy even when both are empty
                questions, answers = decided
            else:
                questions = _newer_only(s, Question, self.site, questions)
                answers = _newer_only(s, Answer, self.site, answers)
            # Dump text comes from an XML parser: it holds no NUL and no lone surrogate.
            if prepared is not None:
                written += write_upsert(s, prepared[0]) + write_upsert(s, prepared[1])
            else:
                if questions:
                    written += upsert_questions(s, dump_dates(questions, QUESTION_DATES), KIND, from_xml=True)
                if answers:
                    written += upsert_answers(s, dump_dates(answers, ANSWER_DATES), KIND, from_xml=True)
            if comments:
                written += upsert_comments(s, _not_from_api(s, self.site, comments), KIND)
            self._record(s, run_id, key, state, written)
        if fault is not None:
            raise fault
        return written


class _FileStream:
    """One file's rows into the database, batch by batch, each batch with its checkpoint.

    A full batch of posts is *held* rather than written at once: its rows are made ready to write (HTML split,
    values converted) in the worker process (:mod:`mining.dump.split_pool`) while the next batch is read, and it
    is written, in its own transaction with its own checkpoint, when the next batch is full (or before anything
    else is written). Once the worker runs, that write happens in a thread of this process (the database's own
    work lets go of the interpreter) while the next batch is read. Batches are written in file order, one at a
    time, and every way out writes the batches held first, so what is committed, and where a resumed import
    starts, is what it would be without holding."""

    def __init__(
        self, job: DumpImport, reader, key: str, select, state: dict, counts: FileCounts, run_id, bar
    ):
        self.job, self.reader, self.key, self.select = job, reader, key, select
        self.state, self.counts, self.run_id, self.bar = state, counts, run_id, bar
        self.batch = _Batch(reader.name, counts, job.site)
        self.held: list[_Held] = []  # decided batches not written yet, in file order
        self.writing: Future | None = None  # the writer thread's write of held[0]
        self.last_point: SafePoint | None = None
        self.checkpointed_at = reader.offset

    def run(self) -> None:
        reader, job = self.reader, self.job
        shown = reader.offset
        try:
            for rows, point in reader.chunks(self._select):
                self.batch.add(rows)
                if (
                    len(self.batch.pending) >= job.batch_size
                ):  # hold few rows: decide on them now, write later
                    with job.store.read() as s:
                        self.batch.resolve(s, *(h.batch.question_ids for h in self.held))
                    if self.batch.fault is not None:
                        self._flush(None)  # writes the rows before the bad one, then raises
                if point is not None:
                    self.last_point = point
                    if len(self.batch.kept) >= job.batch_size and self.key == "posts":
                        self._hold(point)
                    elif (
                        len(self.batch.kept) >= job.batch_size
                        or reader.offset - self.checkpointed_at >= CHECKPOINT_BYTES
                    ):
                        self._flush(point)
                elif len(self.batch.kept) >= 4 * job.batch_size:
                    # No safe point for long (no line breaks?): write anyway, the checkpoint stays behind.
                    self._flush(self.last_point)
                if reader.offset - shown >= 1 << 20:
                    shown = reader.offset
                    self.bar.set(shown)
        except (PPMinerError, KeyboardInterrupt) as exc:
            stopped = exc
        else:
            self.counts.rows = reader.rows
            end = SafePoint(reader.offset, reader.line, reader.rows)
            if self.key == "posts" and self.batch and job._splitter.started:
                # the last posts too are made ready in the worker while the batch before them is written (not here,
                # with the worker idle), then both are written; no worker is started for them alone
                self._hold(end, done=True)
                self._write_held()
            else:
                self._flush(end, done=True)
            return
        # A fault in the input, or Ctrl-C: every complete row before it is good, so keep them (the checkpoint stays
        # at the last safe point, and rows after it are simply written again on resume).
        if isinstance(stopped, KeyboardInterrupt):
            _let_go(stopped)
        if self.batch:
            self._flush(self.last_point)
        else:
            self._write_held()
        self.counts.rows = reader.rows
        raise stopped

    def _select(self, attrib):
        """The row's kept form (the import's selector), a bad value named by file, line and post Id."""
        try:
            return self.select(attrib)
        except RowError as exc:
            post = attrib.get("Id", "?")
            raise PPMinerError(f"{self.reader.name}:{self.reader.row_line}: row Id={post}: {exc}") from None

    def _write_one(self, first: _Held, behind: bool = False) -> int:
        prepared = take_prepared(first.prepared)
        first.prepared = None  # (a second try, after a failure or an interrupt, prepares the rows here)
        return self.job._write(
            first.batch, self.run_id, self.key, first.state, self.state, first.posts, prepared, behind
        )

    def _first_written(self, written: int) -> None:
        self.counts.written += written
        self.state.update(self.held.pop(0).state)

    def _settle_write(self) -> None:
        """Wait for the writer thread's write; a failed one stays first in line (the way out tries it again).
        Ctrl-C while waiting leaves it in hand: the way out waits again (the thread cannot be stopped)."""
        if self.writing is None:
            return
        try:
            written = self.writing.result()
        except KeyboardInterrupt:
            raise
        except BaseException:
            self.writing = None
            raise
        self.writing = None
        self._first_written(written)

    def _write_held(self) -> None:
        self._settle_write()
        while self.held:  # (each batch is let go only once written: an interrupt leaves it for the way out)
            self._first_written(self._write_one(self.held[0]))

    def _state_at(self, point: SafePoint | None, done: bool) -> dict[str, Any]:
        state_now = dict(self.state)
        if point is not None:
            state_now["at"] = asdict(point)
            state_now["rows"] = point.rows
        state_now["done"] = done
        return state_now

    def _flush(self, point: SafePoint | None, done: bool = False) -> None:
        self._write_held()
        state_now = self._state_at(point, done)
        try:
            self.counts.written += self.job._write(self.batch, self.run_id, self.key, state_now, self.state)
        finally:  # written (after a bad value, the rows before it), or rolled back: done with either way
            self.batch = _Batch(self.reader.name, self.counts, self.job.site)
        self.state.update(state_now)
        self._checkpointed()

    def _checkpointed(self) -> None:
        self.checkpointed_at = self.reader.offset
        self.bar.set(self.reader.offset)

    def _hold(self, point: SafePoint, done: bool = False) -> None:
        """Decide the batch's rows now, send the posts it will write to the worker, write the batch held before
        (in the writer thread once the worker runs, else here)."""
        job, batch = self.job, self.batch
        with job.store.read() as s:
            batch.resolve(s, *(h.batch.question_ids for h in self.held))
            if batch.fault is None:
                questions, answers, _ = batch.by_kind()
                posts = (
                    (questions, answers)
                    if job._site_was_empty
                    else (
                        _newer_only(s, Question, job.site, questions),
                        _newer_only(s, Answer, job.site, answers),
                    )
                )
        if batch.fault is not None:
            self._flush(None)  # writes the rows before the bad one, then raises
        prepared = job._splitter.submit(*posts, KIND)
        self._settle_write()
        writer = job._writer()
        if writer is None:
            self._write_held()
        elif self.held:
            self.writing = writer.submit(self._write_one, self.held[0], True)
        self.held.append(_Held(batch, self._state_at(point, done), posts, prepared))
        self.batch = _Batch(self.reader.name, self.counts, job.site)
        self._checkpointed()


@dataclass
class _Held:
    """A batch decided and waiting to be written: its checkpoint state, the questions and answers it will write
    (the batch's own dicts) and the worker's pending preparation of them (None: prepared when written)."""

    batch: _Batch
    state: dict[str, Any]
    posts: tuple[list[dict[str, Any]], list[dict[str, Any]]]
    prepared: Any


class _Batch:
    """The rows read since the last write, in file order: kept questions, and answers and comments whose
    question or post is not known yet (*pending*: the row's live attributes, kept until :meth:`resolve`)."""

    def __init__(self, file: str, counts: FileCounts, site: str):
        self.file, self.counts, self.site = file, counts, site
        self.kept: list[tuple[str, dict[str, Any]]] = []
        self.question_ids: set[int] = set()  # questions kept in this batch, not stored yet
        self.pending: list[tuple[str, int, Any, int]] = []  # (kind, question or post id, attributes, line)
        self.fault: PPMinerError | None = None  # a bad value met by resolve(); nothing after it is kept

    def __len__(self) -> int:
        return len(self.kept) + len(self.pending)

    def add(self, rows: list[Row]) -> None:
        for row in rows:
            kind, ref, value = row.value
            if kind == "q":
                self.kept.append(("q", value))
                self.question_ids.add(ref)
                self.counts.questions += 1
            else:
                self.pending.append((kind, ref, value, row.line))

    def resolve(self, session, *held_questions: set[int]) -> None:
        """Keep the pending answers whose question, and comments whose post, is kept in this batch, in the batches
        held (``held_questions``: kept, not written yet) or stored. A row with a bad value sets :attr:`fault` (the
        rows before it are kept)."""
        if not self.pending:
            return
        questions = self.question_ids.union(*held_questions)
        answers: dict[int, int] = {}
        refs = sorted({ref for _, ref, _, _ in self.pending} - questions)
        with_comments = any(kind == "c" for kind, _, _, _ in self.pending)
        site = self.site
        for part in chunks(refs):
            questions.update(
                session.scalars(
                    sa.select(Question.id).where(Question.site == site, _among(session, Question.id, part))
                )
            )
            if with_comments:
                query = sa.select(Answer.id, Answer.question_id).where(
                    Answer.site == site, _among(session, Answer.id, part)
                )
                answers.update({answer_id: question_id for answer_id, question_id in session.execute(query)})
        counts, kept = self.counts, self.kept
        pending, self.pending = self.pending, []  # the rows are freed with this list
        for kind, ref, attrib, line in pending:
            try:
                if kind == "a":
                    if ref in questions:
                        kept.append(("a", answer_row(attrib, site, ref)))
                        counts.answers += 1
                elif ref in questions or ref in answers:
                    post_type, question_id = (
                        ("question", ref) if ref in questions else ("answer", answers[ref])
                    )
                    kept.append(("c", comment_row(attrib, site, post_type, question_id)))
                    counts.comments += 1
            except RowError as exc:
                self.fault = PPMinerError(f"{self.file}:{line}: row Id={attrib.get('Id', '?')}: {exc}")
                return

    def by_kind(self) -> tuple[list[dict[str, Any]], ...]:
        rows: dict[str, list[dict[str, Any]]] = {"q": [], "a": [], "c": []}
        for kind, row in self.kept:
            rows[kind].append(row)
        return rows["q"], rows["a"], rows["c"]


def _among(session, column, ids):
    """``column IN ids``, with the ids as one parameter where the backend can: on PostgreSQL as ``= ANY(array)``
    (psycopg caches the conversion of a short statement, but parses one with a thousand placeholders again on every
    call: 15% of a tag-filtered import), on SQLite as ``IN (SELECT value FROM json_each(array))`` (SQLAlchemy
    otherwise renders and binds a thousand placeholders one by one for every lookup: a tenth of importing every
    post)."""
    dialect = session.get_bind().dialect
    if dialect.name == "postgresql":
        return column == sa.any_(sa.bindparam("ids", list(ids), type_=postgresql.ARRAY(sa.BigInteger)))
    if dialect.name == "sqlite" and dialect.dbapi.sqlite_version_info >= (3, 38):  # JSON built in
        values = sa.func.json_each(sa.bindparam("ids", json.dumps(list(ids)))).table_valued("value")
        return column.in_(sa.select(values.c.value))
    return column.in_(ids)


def _stored_questions(session, site: str, ids: set[int]) -> set[int]:
    """Which of the question ids ``ids`` the site has stored."""
    found: set[int] = set()
    for part in chunks(sorted(ids)):
        found.update(
            session.scalars(
                sa.select(Question.id).where(Question.site == site, _among(session, Question.id, part))
            )
        )
    return found


def _newer_only(session, model, site: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drop the rows the upsert would not apply anyway (stored with the same or newer activity), before their
    HTML is split: a second import of a file, or a resume that re-reads rows, costs little more than a parse."""
    if not rows:
        return rows
    stored = {}
    for part in chunks(rows):
        ids = [r["id"] for r in part]
        query = sa.select(model.id, model.last_activity_date).where(
            model.site == site, _among(session, model.id, ids)
        )
        stored.update({post_id: activity for post_id, activity in session.execute(query)})
    if not stored:
        return rows
    return [
        r
        for r in rows
        if r["id"] not in stored
        or stored[r["id"]] is None
        or (r["last_activity_date"] is not None and dump_date(r["last_activity_date"]) > stored[r["id"]])
    ]


_audit_log = AuditEntry.__table__


def _move_misfiled(session, site: str, other_sites: list[str], questions: list[dict[str, Any]]) -> int:
    """Questions of this dump that an earlier dump import filed under another site (before the site was taken from
    the dump, a dump imported without ``--site`` went in as the study's site): the same id with the same creation
    date and title. They are moved to this site, with their answers, comments, candidates, decisions and labels
    (the keys cascade), their link corrected and an audit entry each; a different post with the same id is left
    alone. Returns how many were moved."""
    if not questions:
        return 0
    wanted = {q["id"]: q for q in questions}
    moved = 0
    for part in chunks(list(wanted)):
        stored = session.execute(
            sa.select(
                Question.site, Question.id, Question.creation_date, Question.title, Question.link
            ).where(
                Question.site.in_(other_sites), Question.source == KIND, _among(session, Question.id, part)
            )
        ).all()
        if not stored:
            continue
        present = set(
            session.scalars(
                sa.select(Question.id).where(Question.site == site, _among(session, Question.id, part))
            )
        )
        for old_site, qid, created, title, link in stored:
            row = wanted[qid]
            if qid in present or (created, title) != (dump_date(row["creation_date"]), row["title"]):
                continue
            new_link = question_link(qid, site)
            session.execute(
                sa.update(Question)
                .where(Question.site == old_site, Question.id == qid)
                .values(site=site, link=new_link)
            )
            session.execute(
                sa.insert(_audit_log).values(
                    at=utcnow(), actor="import-dump", entity="questions", entity_key=post_ref(site, qid),
                    action="update", before={"site": old_site, "link": link}, after={"site": site, "link": new_link},
                )
            )  # fmt: skip
            present.add(qid)
            moved += 1
    return moved


def _not_from_api(session, site: str, comments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Comments stored from the API keep their HTML: a dump (plain text, no edit date) never replaces them."""
    from_api = set()
    for part in chunks(comments):
        ids = [c["id"] for c in part]
        from_api.update(
            session.scalars(
                sa.select(Comment.id).where(
                    Comment.site == site, _among(session, Comment.id, ids), Comment.source != KIND
                )
            )
        )
    return [c for c in comments if c["id"] not in from_api] if from_api else comments


@contextlib.contextmanager
def _old_objects_left_alone() -> Iterator[None]:
    """While the import runs, the objects alive when it began (modules, the engine: most of the process) are left
    out of the cycle collector's passes, and a pass starts after 10,000 new objects rather than 700. An import makes
    many rows that live for a batch or two; they started a full pass every few batches, and each full pass walked
    everything (a tenth of the import's own time). The worker process forked meanwhile also shares those objects'
    memory pages instead of copying them."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(threshold[0], YOUNG_OBJECTS), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def _let_go(interrupt: KeyboardInterrupt) -> None:
    """Drop what an interrupt holds before anything is written after it. Ctrl-C inside a database call leaves that
    call's SQLite cursor in the traceback's frames; SQLAlchemy closes the connection, but SQLite keeps a connection
    with a live statement open (and its transaction, with the write lock) until the statement goes, so the writes
    that record the interrupt would wait for a lock this very process holds."""
    interrupt.__traceback__ = interrupt.__context__ = None
    gc.collect()


def _summary(result: ImportResult) -> str:
    p = result.posts
    text = f"{p.file}: {p.rows} rows, {p.questions} questions, {p.answers} answers"
    if result.comments:
        c = result.comments
        text += f"; {c.file}: {c.rows} rows, {c.comments} comments"
    return text


def run_import_dump(study, posts, comments, tags, date_from, date_to, site, batch_size, restart, fmt) -> None:
    """The `ppmine import-dump` command: build the import from its flags, run it, print what it did."""
    import click

    from core.cli_common import check_window, emit_rows
    from mining.dump.site import dump_site

    filt = DumpFilter(
        tags=frozenset(t.strip().lower() for t in tags if t.strip()) or None,
        date_from=date_from.date() if date_from else None,
        date_to=date_to.date() if date_to else None,
    )
    check_window(date_from, date_to)
    site = dump_site(site, posts, comments)  # before the database is opened: a refusal creates nothing
    result = DumpImport(
        study.store,
        posts,
        comments,
        filt,
        site=site,
        batch_size=batch_size,
        restart=restart,
    ).run()
    if fmt == "json":
        click.echo(json.dumps(result.as_dict(), indent=2))
        return
    table = []
    for counts in (result.posts, result.comments):
        if counts is not None:
            row = {k: v for k, v in asdict(counts).items() if k != "resumed"}
            table.append({**row, "file": os.path.basename(counts.file), "resumed": counts.resumed or ""})
    emit_rows(table, "table")
    if result.moved:
        click.echo(
            f"{result.moved} questions an earlier import had filed under another site now belong to "
            f"{result.site}, with everything recorded about them"
        )
    click.echo(f"run {result.run_id} ({result.site}) done in {result.seconds:.1f} s")
