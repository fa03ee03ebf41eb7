"""`ppmine import-dump` of every post in parts (mining/dump/parts.py): worker processes parse, select and prepare
parts of the file, the importer writes them. What is stored, what is said about a bad file, and where an
interrupted import resumes must be what the usual import (one reader in the importer's process) gives."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
import sqlalchemy as sa
from test_dump import AI, _many, answer, count, question, snapshot, write_dump

from core.db import open_store
from core.errors import PPMinerError
from core.schema.mining import AcquisitionRun, Answer, Question
from mining.dump import parts
from mining.dump.importer import DumpImport
from mining.dump.reader import DumpReader
from mining.dump.rows import DumpFilter

BATCH = 256  # lines per part (the least batch size that reads in parts)


@pytest.fixture
def spied(monkeypatch):
    """Parts for any file size; counts the parts written and the rows read the usual way."""
    calls = {"parts": 0, "usual": 0}
    monkeypatch.setattr(parts, "MIN_BYTES", 0)
    real_write, real_chunks = DumpImport._write_part, DumpReader.chunks

    def write_part(self, *args, **kwargs):
        calls["parts"] += 1
        return real_write(self, *args, **kwargs)

    def chunks(self, select=dict):
        for rows, point in real_chunks(self, select):
            if self.root == "posts":
                calls["usual"] += len(rows)
            yield rows, point

    monkeypatch.setattr(DumpImport, "_write_part", write_part)
    monkeypatch.setattr(DumpReader, "chunks", chunks)
    return calls


def usual(tmp_path, posts, comments=None, name="usual.db", **kwargs):
    """The usual import (no workers) of the same file into a database of its own, with its error if any."""
    store = open_store(f"sqlite:///{tmp_path / name}")
    try:
        result = DumpImport(store, str(posts), comments, progress=False, split_worker=False, **kwargs).run()
    except PPMinerError as exc:
        return store, None, str(exc)
    return store, result, None


def test_real_dump_in_parts_stores_what_the_usual_import_stores(store, fixtures, tmp_path, spied):
    posts, comments = fixtures / AI / "Posts.xml", str(fixtures / AI / "Comments.xml")
    got = DumpImport(
        store, str(posts), comments, site="ai", batch_size=BATCH, progress=False, split_worker=True
    ).run()
    assert spied["parts"] >= 5 and spied["usual"] == 0
    reference, want, _ = usual(tmp_path, posts, comments, site="ai", batch_size=BATCH)
    assert got.posts == want.posts and got.comments == want.comments
    assert snapshot(store, skip=("refreshed_at",)) == snapshot(reference, skip=("refreshed_at",))
    with store.read() as s:
        run = s.scalars(sa.select(AcquisitionRun)).one()
    assert (
        run.status == "done"
        and run.checkpoint["posts"]["done"]
        and run.items == got.posts.written + got.comments.written
    )


def _rows() -> list[dict]:
    """600 rows (300 questions, each followed by its answer), plus answers far from their question and one whose
    question is in no file."""
    rows = _many(300)
    rows.insert(450, answer(5001, 2))  # its question is in the first part
    rows.insert(500, answer(5003, 4999))  # an orphan
    return rows


def _line(data: bytes, n: int) -> tuple[int, int]:
    """Start and end (without the line break) of the 1-based line ``n``."""
    start = 0
    for _ in range(n - 1):
        start = data.index(b"\n", start) + 1
    return start, data.index(b"\r\n", start)


def _replace_in_line(data: bytes, n: int, old: bytes, new: bytes) -> bytes:
    start, end = _line(data, n)
    assert old in data[start:end], (n, data[start:end])
    return data[:start] + data[start:end].replace(old, new, 1) + data[end:]


def _cut_in_line(data: bytes, n: int) -> bytes:
    start, _ = _line(data, n)
    return data[: start + 30]


def _ends_at(data: bytes, n: int) -> bytes:
    start, _ = _line(data, n)
    return data[:start] + b"</posts>\r\n" + data[start:]


# what is done to the file, and whether that is a fault
BROKEN = {
    "unquoted attribute": (lambda d: _replace_in_line(d, 400, b'Score="', b"Score=x"), True),
    "bad value": (lambda d: _replace_in_line(d, 401, b'Score="3"', b'Score="three"'), True),
    "missing post type": (lambda d: _replace_in_line(d, 401, b'PostTypeId="1" ', b""), True),
    "bad parent": (lambda d: _replace_in_line(d, 402, b'ParentId="', b'ParentId="x'), True),
    "cut in the last part": (lambda d: _cut_in_line(d, 590), True),
    "cut at a line break": (lambda d: d[: _line(d, 2 * BATCH)[1] + 2], True),
    "document ends early": (lambda d: _ends_at(d, 300), True),
    "row not ended": (lambda d: _replace_in_line(d, 400, b" />", b">"), True),  # (libxml2 names its line)
    "other document element": (lambda d: d.replace(b"posts>", b"comments>"), True),
    "element before the rows": (lambda d: _replace_in_line(d, 2, b"<posts>", b"<posts><x/>"), False),
    "nested row": (lambda d: _replace_in_line(d, 300, b" />", b"><row Id='1' PostTypeId='1'/></row>"), False),
}


@pytest.mark.parametrize("change", list(BROKEN), ids=list(BROKEN))
def test_a_part_the_workers_refuse_is_read_the_usual_way(sqlite_store, tmp_path, spied, change):
    """Whatever is wrong with the file, the import in parts says what the usual import says and stores what it
    stores (the parts before the fault, then the rows before it read the usual way)."""
    posts = write_dump(tmp_path / "Posts.xml", "posts", _rows())
    broken, fault = BROKEN[change]
    posts.write_bytes(broken(posts.read_bytes()))
    pieces = list(parts.cut(str(posts), 0, BATCH))
    assert len(pieces) >= 2
    try:
        got = DumpImport(sqlite_store, str(posts), batch_size=BATCH, progress=False, split_worker=True).run()
        error = None
    except PPMinerError as exc:
        got, error = None, str(exc)
    in_parts = spied["parts"]
    assert in_parts < len(pieces) if fault else in_parts == len(pieces)
    reference, want, want_error = usual(tmp_path, posts, batch_size=BATCH)
    assert (want_error is not None) == fault
    assert error == want_error
    assert (got and got.posts) == (want and want.posts)
    assert snapshot(sqlite_store, skip=("refreshed_at",)) == snapshot(reference, skip=("refreshed_at",))
    with sqlite_store.read() as s:
        run = s.scalars(sa.select(AcquisitionRun)).one()
    assert run.message == (want_error or run.message) and run.items == count(sqlite_store, Question) + count(
        sqlite_store, Answer
    )


def test_answers_far_from_their_question_and_orphans(sqlite_store, tmp_path, spied):
    posts = write_dump(tmp_path / "Posts.xml", "posts", _rows())
    got = DumpImport(sqlite_store, str(posts), batch_size=BATCH, progress=False, split_worker=True).run()
    assert spied["parts"] == len(list(parts.cut(str(posts), 0, BATCH))) >= 3 and spied["usual"] == 0
    reference, want, _ = usual(tmp_path, posts, batch_size=BATCH)
    assert got.posts == want.posts and got.posts.answers == 301
    assert snapshot(sqlite_store, skip=("refreshed_at",)) == snapshot(reference, skip=("refreshed_at",))
    with sqlite_store.read() as s:
        assert s.get(Answer, ("stackoverflow", 5001)) is not None
        assert s.get(Answer, ("stackoverflow", 5003)) is None


def test_an_interrupted_import_in_parts_resumes_where_its_checkpoint_says(
    sqlite_store, tmp_path, monkeypatch
):
    """Ctrl-C while the second part is written: the first part stays, with its checkpoint; the rows stored are
    exactly those before it, and resuming gives what one import gives."""
    monkeypatch.setattr(parts, "MIN_BYTES", 0)
    real_write, written = DumpImport._write_part, []

    def interrupted(self, *args, **kwargs):
        if written:
            raise KeyboardInterrupt
        written.append(1)
        return real_write(self, *args, **kwargs)

    monkeypatch.setattr(DumpImport, "_write_part", interrupted)
    posts = write_dump(tmp_path / "Posts.xml", "posts", _rows())
    with pytest.raises(KeyboardInterrupt):
        DumpImport(sqlite_store, str(posts), batch_size=BATCH, progress=False, split_worker=True).run()
    with sqlite_store.read() as s:
        run = s.scalars(sa.select(AcquisitionRun)).one()
        at = run.checkpoint["posts"]["rows"]
        stored = set(s.scalars(sa.select(Question.id))) | set(s.scalars(sa.select(Answer.id)))
    assert run.status == "interrupted" and 100 < at < 500
    before = [r.attrib for r in list(ET.parse(posts).getroot())[:at]]
    assert stored == {int(r["Id"]) for r in before}

    monkeypatch.setattr(DumpImport, "_write_part", real_write)
    resumed = DumpImport(sqlite_store, str(posts), batch_size=BATCH, progress=False, split_worker=True).run()
    assert resumed.posts.resumed.startswith("seek to byte")
    reference, _, _ = usual(tmp_path, posts, batch_size=BATCH)
    assert snapshot(sqlite_store, skip=("refreshed_at",)) == snapshot(reference, skip=("refreshed_at",))


def test_only_a_fresh_import_of_every_post_goes_in_parts(sqlite_store, tmp_path, spied):
    posts = write_dump(tmp_path / "Posts.xml", "posts", _rows() + [question(9001, "|rare|")])
    DumpImport(
        sqlite_store, str(posts), filt=DumpFilter(tags=frozenset({"rare"})), batch_size=BATCH, progress=False,
        split_worker=True,
    ).run()  # fmt: skip
    assert spied["parts"] == 0 and count(sqlite_store, Question) == 1
    DumpImport(sqlite_store, str(posts), batch_size=BATCH, progress=False, split_worker=True).run()
    assert spied["parts"] == 0  # the site has posts stored: the usual way compares them
    fresh = open_store(f"sqlite:///{tmp_path / 'fresh.db'}")
    DumpImport(fresh, str(posts), batch_size=BATCH - 1, progress=False, split_worker=True).run()
    assert spied["parts"] == 0  # parts too small to be worth the trips
    DumpImport(fresh, str(posts), batch_size=BATCH, progress=False, split_worker=False).run()
    assert spied["parts"] == 0  # no workers wanted


def test_a_part_a_worker_fails_on_is_read_the_usual_way(sqlite_store, tmp_path, spied, monkeypatch):
    real = parts.prepare_posts

    def failing(questions, answers, source):
        if any(q["id"] == 400 for q in questions):
            raise RuntimeError("a worker's bug")
        return real(questions, answers, source)

    monkeypatch.setattr(parts, "prepare_posts", failing)  # (the workers are forked after this)
    posts = write_dump(tmp_path / "Posts.xml", "posts", _rows())
    got = DumpImport(sqlite_store, str(posts), batch_size=BATCH, progress=False, split_worker=True).run()
    assert 0 < spied["parts"] < len(list(parts.cut(str(posts), 0, BATCH))) and spied["usual"] > 0
    reference, want, _ = usual(tmp_path, posts, batch_size=BATCH)
    assert got.posts == want.posts
    assert snapshot(sqlite_store, skip=("refreshed_at",)) == snapshot(reference, skip=("refreshed_at",))
