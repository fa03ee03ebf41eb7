"""`ppmine import-dump`: the real ai.stackexchange dump, generated dumps (new tag format, BOM, odd entities,
truncation, malformed rows), standard input through a real pipe, resume after a killed process, API precedence."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from bs4 import BeautifulSoup
from click.testing import CliRunner
from conftest import run_cli, run_process

from core.db import open_store
from core.errors import PPMinerError
from core.schema.mining import AcquisitionRun, Answer, Comment, Question
from core.text import _BLOCK_TAGS, SplitBody, normalize_prose, split_html
from mining.cli import cli
from mining.dump import reader as dump_reader
from mining.dump.importer import DumpImport
from mining.dump.reader import DumpReader
from mining.dump.rows import (
    ANSWER_DATES,
    QUESTION_DATES,
    DumpFilter,
    PostSelector,
    RowError,
    answer_row,
    dump_dates,
    parse_tags,
)
from mining.store import upsert_answers, upsert_comments, upsert_questions

AI = Path("se_dumps/ai.stackexchange.com")
PPMINE = [sys.executable, "-c", "from mining.cli import main; main()"]


# -- helpers -------------------------------------------------------------------------------------------------


def _attr(value) -> str:
    """Escape a value the way the dump does (newlines as &#xA;)."""
    text = str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return text.replace("\n", "&#xA;").replace("\r", "&#xD;").replace("\t", "&#x9;")


def write_dump(path: Path, root: str, rows: list[dict], bom: bool = True) -> Path:
    lines = ['<?xml version="1.0" encoding="utf-8"?>', f"<{root}>"]
    for row in rows:
        attrs = " ".join(f'{k}="{_attr(v)}"' for k, v in row.items() if v is not None)
        lines.append(f"  <row {attrs} />")
    lines.append(f"</{root}>")
    data = ("\r\n".join(lines) + "\r\n").encode("utf-8")
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    return path


def question(pid: int, tags: str, activity: str = "2024-05-01T10:00:00.000", **extra) -> dict:
    row = {
        "Id": pid,
        "PostTypeId": 1,
        "CreationDate": "2024-04-01T09:30:00.123",
        "Score": 3,
        "ViewCount": 40,
        "Body": f"<p>Question {pid} is <b>slow</b></p>\n<pre><code>model.fit(x)  # {pid}\n</code></pre>",
        "OwnerUserId": 7,
        "LastActivityDate": activity,
        "Title": f"Why is training {pid} slow?",
        "Tags": tags,
        "AnswerCount": 1,
        "CommentCount": 0,
    }
    row.update(extra)
    return row


def answer(pid: int, parent: int, activity: str = "2024-05-02T10:00:00.000", **extra) -> dict:
    row = {
        "Id": pid,
        "PostTypeId": 2,
        "ParentId": parent,
        "CreationDate": "2024-04-02T09:30:00",
        "Score": 5,
        "Body": f"<p>Use tf.data for {pid}</p>",
        "OwnerUserId": 8,
        "LastActivityDate": activity,
    }
    row.update(extra)
    return row


def comment(cid: int, post: int, text: str = "which GPU?") -> dict:
    return {
        "Id": cid,
        "PostId": post,
        "Score": 1,
        "Text": text,
        "CreationDate": "2024-04-03T00:00:00.5",
        "UserId": 9,
    }


def snapshot(store, skip: tuple[str, ...] = ()) -> dict:
    """Every post and comment column (but ``skip``), to prove a second import changes nothing."""
    out = {}
    with store.read() as s:
        for model in (Question, Answer, Comment):
            cols = [c for c in model.__table__.columns if c.name not in skip]
            out[model.__tablename__] = sorted(tuple(r) for r in s.execute(sa.select(*cols)).all())
    return out


def count(store, model) -> int:
    with store.read() as s:
        return s.scalar(sa.select(sa.func.count()).select_from(model))


def ppmine(*args, **kw) -> subprocess.CompletedProcess:
    run = run_process if "-" in args else run_cli  # a dump on standard input: read from a real pipe
    return run("mining.cli", *args, check=False, **kw)


# -- the real dump ---------------------------------------------------------------------------------------------


def test_real_ai_dump_posts_and_comments(store, fixtures):
    posts, comments = fixtures / AI / "Posts.xml", fixtures / AI / "Comments.xml"
    # What the dump holds, read independently with the standard library.
    prows = [r.attrib for r in ET.parse(posts).getroot()]
    qids = {int(r["Id"]) for r in prows if r["PostTypeId"] == "1"}
    aids = {
        int(r["Id"]): int(r["ParentId"])
        for r in prows
        if r["PostTypeId"] == "2" and int(r["ParentId"]) in qids
    }
    crows = [r.attrib for r in ET.parse(comments).getroot()]
    cids = {int(r["Id"]) for r in crows if int(r["PostId"]) in qids or int(r["PostId"]) in aids}

    result = DumpImport(store, str(posts), str(comments), site="ai", progress=False).run()
    assert (result.posts.rows, result.posts.questions, result.posts.answers) == (
        len(prows),
        len(qids),
        len(aids),
    )
    assert result.comments.comments == len(cids) and result.posts.written == len(qids) + len(aids)
    assert count(store, Question) == len(qids) and count(store, Answer) == len(aids)
    assert count(store, Comment) == len(cids)

    first = next(r for r in prows if r["PostTypeId"] == "1")
    with store.read() as s:
        q = s.get(Question, ("ai", int(first["Id"])))
        assert q.title == first["Title"] and q.source == "dump" and q.site == "ai"
        assert q.tags == "|" + first["Tags"][1:-1].replace("><", "|") + "|"
        assert q.creation_date == datetime.fromisoformat(first["CreationDate"])
        assert q.accepted_answer_id == int(first["AcceptedAnswerId"])
        assert q.prose == split_html(first["Body"]).prose and q.prose
        assert q.link == f"https://ai.stackexchange.com/questions/{first['Id']}"
        on_answer = next(r for r in crows if int(r["PostId"]) in aids)
        c = s.get(Comment, ("ai", int(on_answer["Id"])))
        assert (c.post_type, c.question_id) == ("answer", aids[int(on_answer["PostId"])])
        assert c.text == normalize_prose(on_answer["Text"]) and c.body_html is None
        run = s.scalars(sa.select(AcquisitionRun)).one()
        assert (run.kind, run.status) == ("dump", "done") and run.checkpoint["posts"]["done"]

    before = snapshot(store)
    again = DumpImport(store, str(posts), str(comments), site="ai", progress=False).run()
    assert again.posts.written == 0 and again.comments.written == 0
    assert snapshot(store) == before


def test_splitting_in_the_worker_stores_what_splitting_here_stores(store, fixtures, tmp_path, monkeypatch):
    """Held batches have their HTML split in a worker process; every stored value equals an import that splits
    every body in its own process, and most bodies really were split elsewhere."""
    import mining.store

    here = []

    def counted(html, *args, split=mining.store.split_html):
        here.append(html)
        return split(html, *args)

    monkeypatch.setattr(mining.store, "split_html", counted)
    posts, comments = str(fixtures / AI / "Posts.xml"), str(fixtures / AI / "Comments.xml")
    kept = DumpImport(
        store, posts, comments, site="ai", batch_size=300, progress=False, split_worker=True
    ).run()
    bodies = kept.posts.questions + kept.posts.answers
    assert bodies > 1000 and len(here) < bodies / 3  # (the last batch, and any too small to send, split here)
    reference = open_store(f"sqlite:///{tmp_path / 'here.db'}")
    here.clear()
    DumpImport(
        reference, posts, comments, site="ai", batch_size=300, progress=False, split_worker=False
    ).run()
    assert len(here) == bodies
    assert snapshot(store, skip=("refreshed_at",)) == snapshot(reference, skip=("refreshed_at",))


def test_batches_written_by_the_writer_thread_stop_and_resume_in_order(
    store, fixtures, tmp_path, monkeypatch
):
    """With the worker running, held batches are written by a thread while the next is read. Ctrl-C in the middle
    (here: raised by the reader) still writes every batch read before it, in file order, with their checkpoints;
    the rows stored are exactly those before the checkpoint, and resuming gives what one import gives."""
    import mining.dump.importer as importer
    import mining.dump.split_pool as split_pool

    writers, interrupt_after = [], 60
    real_write, real_chunks = importer.DumpImport._write, DumpReader.chunks

    def recorded(self, batch, *args, **kwargs):
        writers.append(threading.current_thread().name)
        return real_write(self, batch, *args, **kwargs)

    def interrupted(self, select):
        for n, chunk in enumerate(real_chunks(self, select)):
            if n == interrupt_after:
                raise KeyboardInterrupt
            yield chunk

    monkeypatch.setattr(importer.DumpImport, "_write", recorded)
    monkeypatch.setattr(DumpReader, "chunks", interrupted)
    monkeypatch.setattr(dump_reader, "BLOCK", 1 << 14)  # many blocks, so the interrupt falls mid-file
    monkeypatch.setattr(split_pool, "MIN_ROWS", 1)  # every batch goes to the worker
    posts = str(fixtures / AI / "Posts.xml")
    with pytest.raises(KeyboardInterrupt):
        DumpImport(store, posts, site="ai", batch_size=100, progress=False, split_worker=True).run()
    assert any(name.startswith("import-dump-write") for name in writers), writers
    with store.read() as s:
        run = s.scalars(sa.select(AcquisitionRun)).one()
        at = run.checkpoint["posts"]["rows"]
        stored_q = set(s.scalars(sa.select(Question.id)))
        stored_a = set(s.scalars(sa.select(Answer.id)))
    assert run.status == "interrupted"
    before = [r.attrib for r in list(ET.parse(posts).getroot())[:at]]
    assert stored_q == {int(r["Id"]) for r in before if r["PostTypeId"] == "1"} and len(stored_q) > 200
    assert stored_a == {int(r["Id"]) for r in before if r["PostTypeId"] == "2"}

    monkeypatch.setattr(DumpReader, "chunks", real_chunks)
    resumed = DumpImport(store, posts, site="ai", batch_size=100, progress=False, split_worker=True).run()
    assert resumed.posts.resumed.startswith("seek to byte")
    reference = open_store(f"sqlite:///{tmp_path / 'one.db'}")
    DumpImport(reference, posts, site="ai", batch_size=100, progress=False, split_worker=False).run()
    assert snapshot(store, skip=("refreshed_at",)) == snapshot(reference, skip=("refreshed_at",))


def test_stored_bytes_equal_sqlalchemys_own_write_of_the_dump(fixtures, tmp_path, monkeypatch):
    """Every stored byte of an import of the real dump (rows built in one step, dates carried as text, made ready in
    the worker, handed to SQLite's executemany as tuples) equals what SQLAlchemy's own executemany stores for the
    same posts read independently with the standard library (refreshed_at aside: the time of the write)."""
    import sqlite3

    import mining.store

    posts = fixtures / AI / "Posts.xml"
    imported = tmp_path / "imported.db"
    DumpImport(open_store(f"sqlite:///{imported}"), str(posts), site="ai", batch_size=300, progress=False,
               split_worker=True).run()  # fmt: skip

    def number(value):
        return int(value) if value else None

    def date(value):
        return datetime.fromisoformat(value) if value else None

    questions, answers = [], []
    for r in (row.attrib for row in ET.parse(posts).getroot()):
        if r["PostTypeId"] == "1":
            questions.append({
                "site": "ai", "id": int(r["Id"]), "title": r.get("Title"), "body_html": r.get("Body"),
                "tags": "|" + r["Tags"][1:-1].replace("><", "|") + "|", "score": number(r.get("Score")),
                "view_count": number(r.get("ViewCount")), "answer_count": number(r.get("AnswerCount")),
                "accepted_answer_id": number(r.get("AcceptedAnswerId")),
                "owner_user_id": number(r.get("OwnerUserId")), "link": f"https://ai.stackexchange.com/questions/{r['Id']}",
                "creation_date": date(r.get("CreationDate")), "last_activity_date": date(r.get("LastActivityDate")),
                "last_edit_date": date(r.get("LastEditDate")), "closed_date": date(r.get("ClosedDate")),
            })  # fmt: skip
        elif r["PostTypeId"] == "2":
            answers.append({
                "site": "ai", "id": int(r["Id"]), "question_id": int(r["ParentId"]), "body_html": r.get("Body"),
                "score": number(r.get("Score")), "owner_user_id": number(r.get("OwnerUserId")),
                "creation_date": date(r.get("CreationDate")), "last_activity_date": date(r.get("LastActivityDate")),
                "last_edit_date": date(r.get("LastEditDate")),
            })  # fmt: skip
    kept = {q["id"] for q in questions}
    answers = [a for a in answers if a["question_id"] in kept]
    monkeypatch.setattr(mining.store, "_sqlite_params", lambda *args: None)  # SQLAlchemy binds every value
    reference = tmp_path / "reference.db"
    with open_store(f"sqlite:///{reference}").write() as s:
        upsert_questions(s, questions, "dump")
        upsert_answers(s, answers, "dump")

    def stored(path):
        with contextlib.closing(sqlite3.connect(path)) as con:
            out = {}
            for table in ("questions", "answers"):
                names = [c[1] for c in con.execute(f"PRAGMA table_info({table})") if c[1] != "refreshed_at"]
                out[table] = con.execute(
                    f"SELECT {', '.join(names)} FROM {table} ORDER BY site, id"
                ).fetchall()
            return out

    got, want = stored(imported), stored(reference)
    assert len(got["questions"]) == len(kept) > 100 and len(got["answers"]) == len(answers) > 100
    assert got == want


def test_an_import_leaves_every_committed_row_in_the_database_file(tmp_path, fixtures):
    """The process keeps its engine (and its pooled connections) after the import, as the cron job and in-process
    CLI runs do: a copy of the database file alone, without its -wal file, still holds every imported post."""
    db = tmp_path / "kept.db"
    store = open_store(f"sqlite:///{db}")
    posts = str(fixtures / AI / "Posts.xml")
    result = DumpImport(
        store, posts, None, site="ai", batch_size=300, progress=False, split_worker=False
    ).run()
    copy = tmp_path / "copy.db"
    copy.write_bytes(db.read_bytes())
    with open_store(f"sqlite:///{copy}").read() as s:
        assert s.scalar(sa.select(sa.func.count()).select_from(Question)) == result.posts.questions > 0


def test_the_worker_setting_is_read_and_checked(tmp_path, fixtures, monkeypatch):
    from mining.dump.split_pool import worker_wanted

    for value, wanted in (("1", True), (" 0 ", False)):
        monkeypatch.setenv("PPMINER_DUMP_WORKER", value)
        assert worker_wanted() is wanted
    monkeypatch.setenv("PPMINER_DUMP_WORKER", "yes")
    db = f"sqlite:///{tmp_path / 'w.db'}"
    res = ppmine("import-dump", str(fixtures / AI / "Posts.xml"), "--db", db)
    assert res.returncode == 1, res.stderr
    assert res.stderr.strip().splitlines()[-1] == (
        "ppmine: error: PPMINER_DUMP_WORKER='yes': use 1 (split HTML in a worker), 0 (never) or leave it unset"
    )


def test_real_dump_tag_and_date_filter(sqlite_store, fixtures):
    posts = fixtures / AI / "Posts.xml"
    prows = [r.attrib for r in ET.parse(posts).getroot()]
    want = {
        int(r["Id"])
        for r in prows
        if r["PostTypeId"] == "1"
        and "<definitions>" in r["Tags"]
        and "2016-08-02" <= r["CreationDate"][:10] <= "2016-08-31"
    }
    assert want  # the filter must select something, and not everything
    filt = DumpFilter(
        tags=frozenset({"definitions"}),
        date_from=datetime(2016, 8, 2).date(),
        date_to=datetime(2016, 8, 31).date(),
    )
    DumpImport(sqlite_store, str(posts), filt=filt, progress=False).run()
    with sqlite_store.read() as s:
        assert set(s.scalars(sa.select(Question.id))) == want
        parents = set(s.scalars(sa.select(Answer.question_id)))
    assert parents and parents <= want


# -- generated dumps -------------------------------------------------------------------------------------------


def test_new_tag_format_bom_odd_entities_unknown_and_missing_attributes(store, tmp_path):
    odd = question(
        10,
        "|tensorflow|keras|",
        Title='Tabs\tand "quotes" & <angles> \U0001f680 caf\u00e9',
        Body="<p>a &amp;lt; b &nbsp;x</p>\n<p>line\r\ntwo</p>",
        FancyNewAttribute="ignored",
    )
    del odd["ViewCount"], odd["OwnerUserId"]
    rows = [
        odd,
        question(11, "|pytorch|"),
        answer(12, 10, ContentLicense="CC BY-SA 4.0"),
        answer(13, 11),
        {"Id": 14, "PostTypeId": 5, "Body": "<p>tag wiki</p>", "LastActivityDate": "2024-01-01T00:00:00"},
        answer(15, 999),  # its question is nowhere
    ]
    posts = write_dump(tmp_path / "Posts.xml", "posts", rows)
    comments = write_dump(
        tmp_path / "Comments.xml",
        "comments",
        [
            comment(100, 10, "is it the GPU?\n  or <CPU> &amp; more"),
            comment(101, 12),
            comment(102, 13),
            comment(103, 11),
        ],
        bom=False,
    )
    filt = DumpFilter(tags=frozenset({"keras"}))
    result = DumpImport(store, str(posts), str(comments), filt=filt, progress=False).run()
    assert (result.posts.questions, result.posts.answers, result.comments.comments) == (1, 1, 2)
    with store.read() as s:
        q = s.get(Question, ("stackoverflow", 10))
        assert q.title == odd["Title"]
        assert q.tags == "|tensorflow|keras|" and q.view_count is None and q.owner_user_id is None
        assert q.prose == "a &lt; b x\n\nline\ntwo"
        assert q.creation_date == datetime(2024, 4, 1, 9, 30, 0, 123000)
        assert {c.id: (c.post_type, c.question_id) for c in s.scalars(sa.select(Comment))} == {
            100: ("question", 10),
            101: ("answer", 10),
        }
        assert s.get(Comment, ("stackoverflow", 100)).text == "is it the GPU?\nor <CPU> &amp; more"
        assert s.get(Answer, ("stackoverflow", 15)) is None and s.get(Question, ("stackoverflow", 11)) is None


def test_parse_tags_both_formats():
    assert parse_tags("<python><tensorflow-2.0>") == ["python", "tensorflow-2.0"]
    assert parse_tags("|python|c++|") == ["python", "c++"]
    assert parse_tags("") == [] and parse_tags(None) == []


def test_row_values_in_every_form_a_dump_may_hold():
    """Questions and answers are built in one step when their values are plain, and value by value otherwise (which
    names a bad value). Dates stay the dump's text until dump_dates converts them: a zoned date to UTC without its
    zone, an empty or missing one to None."""
    plain = {"Id": "7", "PostTypeId": "1", "Tags": "|a|", "Score": "3", "ViewCount": "", "AnswerCount": " 2 ",
             "CreationDate": "2024-01-01T10:00:00.5", "LastActivityDate": "2024-01-02T00:00:00",
             "ClosedDate": "2024-01-03T01:02:03+02:00", "Title": "t", "Body": "<p>b</p>"}  # fmt: skip
    kind, post_id, row = PostSelector(DumpFilter(), "ai")(plain)
    assert (kind, post_id) == ("q", 7)
    assert row == {
        "id": 7, "site": "ai", "title": "t", "body_html": "<p>b</p>", "tags": "|a|", "score": 3, "view_count": None,
        "answer_count": 2, "accepted_answer_id": None, "owner_user_id": None,
        "link": "https://ai.stackexchange.com/questions/7", "creation_date": "2024-01-01T10:00:00.5",
        "last_activity_date": "2024-01-02T00:00:00", "last_edit_date": None, "closed_date": "2024-01-03T01:02:03+02:00",
    }  # fmt: skip
    dump_dates([row], QUESTION_DATES)
    assert [row[key] for key in QUESTION_DATES] == [
        datetime(2024, 1, 1, 10, 0, 0, 500000), datetime(2024, 1, 2), None, datetime(2024, 1, 2, 23, 2, 3)
    ]  # fmt: skip
    assert dump_dates([dict(row)], QUESTION_DATES) == [row]  # (datetimes stay as they are)
    assert PostSelector(DumpFilter(), "stackoverflow")({**plain, "ClosedDate": ""})[2]["closed_date"] is None
    answer_attrib = {"Id": "8", "Score": "-1", "CreationDate": "2024-01-01T10:00:00Z", "OwnerUserId": "5"}
    answer = answer_row(answer_attrib, "ai", 7)
    assert answer == {
        "site": "ai", "id": 8, "question_id": 7, "body_html": None, "score": -1, "owner_user_id": 5,
        "creation_date": "2024-01-01T10:00:00Z", "last_activity_date": None, "last_edit_date": None,
    }  # fmt: skip
    assert dump_dates([answer], ANSWER_DATES)[0]["creation_date"] == datetime(2024, 1, 1, 10)
    with pytest.raises(RowError, match="^missing Id$"):
        answer_row({**answer_attrib, "Id": ""}, "ai", 7)
    with pytest.raises(RowError, match="^LastEditDate='soon' is not an ISO date$"):
        answer_row({**answer_attrib, "LastEditDate": "soon"}, "ai", 7)
    with pytest.raises(RowError, match="^ClosedDate='2024-13-01' is not an ISO date$"):
        PostSelector(DumpFilter(), "ai")({**plain, "ClosedDate": "2024-13-01"})


def test_api_post_with_newer_activity_is_not_overwritten(store, tmp_path):
    with store.write() as s:
        upsert_questions(
            s,
            [
                {"site": "stackoverflow", "id": 1, "title": "API title", "body_html": "<p>api</p>", "tags": "|keras|",
                 "last_activity_date": datetime(2025, 1, 1)},
                {"site": "stackoverflow", "id": 2, "title": "old API title", "body_html": "<p>api</p>", "tags": "|keras|",
                 "last_activity_date": datetime(2020, 1, 1)},
                {"site": "stackoverflow", "id": 3, "title": "API only, not in the tag filter", "body_html": "<p>api</p>", "tags": "|r|",
                 "last_activity_date": datetime(2020, 1, 1)},
            ],
            "api",
        )  # fmt: skip
        upsert_comments(
            s,
            [
                {
                    "site": "stackoverflow",
                    "id": 50,
                    "post_id": 1,
                    "post_type": "question",
                    "question_id": 1,
                    "body_html": "<b>api</b> note",
                }
            ],
            "api",
        )
    rows = [
        question(1, "|keras|", activity="2024-05-01T00:00:00"),
        question(2, "|keras|", activity="2024-05-01T00:00:00"),
        answer(4, 3),  # answer to a question stored from the API, though the dump filter would not take it
    ]
    posts = write_dump(tmp_path / "Posts.xml", "posts", rows)
    comments = write_dump(
        tmp_path / "Comments.xml", "comments", [comment(50, 1, "dump text"), comment(51, 4)]
    )
    DumpImport(
        store, str(posts), str(comments), filt=DumpFilter(tags=frozenset({"keras"})), progress=False
    ).run()
    with store.read() as s:
        assert (
            s.get(Question, ("stackoverflow", 1)).title,
            s.get(Question, ("stackoverflow", 1)).source,
        ) == ("API title", "api")
        assert (
            s.get(Question, ("stackoverflow", 2)).title,
            s.get(Question, ("stackoverflow", 2)).source,
        ) == ("Why is training 2 slow?", "dump")
        assert s.get(Answer, ("stackoverflow", 4)).question_id == 3
        assert (
            s.get(Comment, ("stackoverflow", 50)).body_html,
            s.get(Comment, ("stackoverflow", 50)).source,
        ) == ("<b>api</b> note", "api")
        assert (
            s.get(Comment, ("stackoverflow", 51)).post_type,
            s.get(Comment, ("stackoverflow", 51)).question_id,
        ) == ("answer", 3)


def test_repeated_ids_keep_the_newest_version(store, tmp_path, monkeypatch):
    rows = [
        question(1, "|keras|", activity="2024-05-03T00:00:00", Title="newest"),
        question(1, "|keras|", activity="2024-05-01T00:00:00", Title="older"),
        answer(2, 1),
        answer(2, 1, activity="2024-06-01T00:00:00", Body="<p>edited</p>"),
    ]
    posts = write_dump(tmp_path / "Posts.xml", "posts", rows)
    DumpImport(store, str(posts), progress=False).run()
    # one row per batch: each version of a post in a batch of its own, held and written after the one before
    monkeypatch.setattr(dump_reader, "BLOCK", 1)  # one line per block: a safe point after every row
    apart = open_store(f"sqlite:///{tmp_path / 'apart.db'}")
    DumpImport(apart, str(posts), batch_size=1, progress=False).run()
    for db in (store, apart):
        with db.read() as s:
            assert (
                s.get(Question, ("stackoverflow", 1)).title == "newest"
                and s.get(Answer, ("stackoverflow", 2)).prose == "edited"
            )


# -- bad input -------------------------------------------------------------------------------------------------


def _many(n: int, start: int = 1) -> list[dict]:
    rows = []
    for i in range(start, start + n):
        rows += [question(2 * i, "|keras|"), answer(2 * i + 1, 2 * i)]
    return rows


def test_truncated_file_keeps_rows_before_the_fault(store, tmp_path):
    full = write_dump(tmp_path / "full.xml", "posts", _many(60)).read_bytes()
    lines = full.split(b"\n")
    cut_line = 80  # 1-based line number holding the 79th row (line 1 declaration, line 2 <posts>)
    cut_at = sum(len(x) + 1 for x in lines[: cut_line - 1]) + 40
    posts = tmp_path / "Posts.xml"
    posts.write_bytes(full[:cut_at])
    with pytest.raises(PPMinerError) as err:
        DumpImport(store, str(posts), batch_size=7, progress=False).run()
    message = str(err.value)
    assert message.startswith(f"{posts}:{cut_line}:") and "unexpected end of file" in message
    assert f"byte offset {cut_at}" in message and "\n" not in message
    assert count(store, Question) + count(store, Answer) == cut_line - 3  # every complete row before the cut
    with store.read() as s:
        run = s.scalars(sa.select(AcquisitionRun)).one()
        assert run.status == "failed" and run.message == message
        assert run.finished_at is not None and run.finished_at >= run.started_at


@pytest.mark.parametrize("broken", [b'Id="103', b'Id=103"'])
def test_a_missing_quote_is_named_at_its_line_not_at_the_end(sqlite_store, fixtures, tmp_path, broken):
    """libxml2 reports these faults only when the input ends; the message still names line 101."""
    lines = (fixtures / "se_dumps" / "ai.stackexchange.com" / "Posts.xml").read_bytes().split(b"\n")
    assert b'Id="103"' in lines[100]
    lines[100] = lines[100].replace(b'Id="103"', broken, 1)
    posts = tmp_path / "Posts.xml"
    posts.write_bytes(b"\n".join(lines))
    with pytest.raises(PPMinerError) as err:
        DumpImport(sqlite_store, str(posts), progress=False).run()
    message = str(err.value)
    assert message.startswith(f"{posts}:101: column ") and "end of file" not in message


def test_malformed_row_names_line_and_byte_offset(sqlite_store, tmp_path):
    posts = write_dump(tmp_path / "Posts.xml", "posts", _many(10))
    data = posts.read_bytes().split(b"\r\n")
    data[6] = data[6].replace(b'Score="3"', b"Score=3")  # line 7: unquoted attribute
    posts.write_bytes(b"\r\n".join(data))
    with pytest.raises(PPMinerError) as err:
        DumpImport(sqlite_store, str(posts), batch_size=2, progress=False).run()
    message = str(err.value)
    line_start = sum(len(x) + 2 for x in data[:6])
    offset = int(message.split("byte offset ")[1].split(":")[0])
    assert message.startswith(f"{posts}:7:") and line_start <= offset < line_start + len(data[6])
    assert count(sqlite_store, Question) + count(sqlite_store, Answer) == 4  # lines 3-6

    with pytest.raises(
        PPMinerError, match=":7: "
    ):  # the same command resumes the same run, meets the same fault
        DumpImport(sqlite_store, str(posts), batch_size=2, progress=False).run()
    with pytest.raises(PPMinerError, match=":7: "):
        DumpImport(sqlite_store, str(posts), batch_size=2, restart=True, progress=False).run()
    with sqlite_store.read() as s:
        runs = s.scalars(sa.select(AcquisitionRun).order_by(AcquisitionRun.id)).all()
    assert [r.status for r in runs] == ["failed", "failed"]
    assert all(r.finished_at is not None for r in runs)
    assert runs[0].message == "abandoned: --restart began run 2" and runs[1].message.startswith(f"{posts}:7:")


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ({"Id": 5, "PostTypeId": 1, "Score": "many"}, "row Id=5: Score='many' is not an integer"),
        (
            {"Id": 6, "PostTypeId": 1, "CreationDate": "yesterday"},
            "row Id=6: CreationDate='yesterday' is not",
        ),
        ({"Id": 7, "PostTypeId": 2}, "row Id=7: missing ParentId"),
        ({"Id": 9, "PostTypeId": 2, "ParentId": 2, "Score": "x"}, "row Id=9: Score='x' is not an integer"),
        ({"Id": 8}, "row Id=8: missing PostTypeId"),
    ],
)
def test_bad_values_are_named(sqlite_store, tmp_path, row, expected):
    posts = write_dump(tmp_path / "Posts.xml", "posts", [question(2, "|a|"), row])
    with pytest.raises(PPMinerError, match="^" + re.escape(f"{posts}:4: {expected}")):
        DumpImport(sqlite_store, str(posts), progress=False).run()
    assert count(sqlite_store, Question) == 1


@pytest.mark.parametrize("batch_size", [3, 1000])
def test_bad_value_found_when_a_batch_is_decided(store, tmp_path, monkeypatch, batch_size):
    """An answer (comment) is checked once its question (post) is known to be kept, batch by batch: the rows before
    a bad one are stored, the checkpoint stays before it, and the message names its line."""
    monkeypatch.setattr(dump_reader, "BLOCK", 1)  # a safe point after every line
    rows = [*_many(20), answer(1001, 2, Score="lots"), *_many(5, start=21)]
    posts = write_dump(tmp_path / "Posts.xml", "posts", rows)
    with pytest.raises(PPMinerError) as err:
        DumpImport(store, str(posts), batch_size=batch_size, progress=False).run()
    assert str(err.value) == f"{posts}:43: row Id=1001: Score='lots' is not an integer"
    assert count(store, Answer) == 20 and count(store, Question) >= 20
    bad_offset = posts.read_bytes().index(b'Id="1001"')
    with store.read() as s:
        run = s.scalars(sa.select(AcquisitionRun)).one()
    assert run.status == "failed" and run.checkpoint["posts"].get("at", {}).get("offset", 0) < bad_offset

    good = write_dump(tmp_path / "Posts2.xml", "posts", _many(3))
    comments = write_dump(
        tmp_path / "Comments.xml", "comments", [comment(1, 2), comment(2, 3), {**comment(3, 4), "Score": "-"}]
    )
    with pytest.raises(
        PPMinerError, match=f"^{re.escape(str(comments))}:5: row Id=3: Score='-' is not an integer$"
    ):
        DumpImport(store, str(good), str(comments), batch_size=batch_size, progress=False).run()
    assert count(store, Comment) == 2


def test_cli_errors_are_one_line(tmp_path, fixtures):
    db = f"sqlite:///{tmp_path / 's.db'}"
    open_store(db)
    res = ppmine("import-dump", str(fixtures / AI / "Comments.xml"), "--db", db)
    assert res.returncode == 1 and res.stderr.count("\n") == 1
    assert "document element is <comments>, expected <posts>" in res.stderr
    bad_entity = tmp_path / "Posts.xml"
    bad_entity.write_text('<posts>\n<row Id="1" PostTypeId="1" Body="&nbsp;" />\n</posts>\n')
    res = ppmine("import-dump", str(bad_entity), "--site", "stackoverflow", "--db", db)
    assert res.returncode == 1 and f"{bad_entity}:2: column" in res.stderr and "nbsp" in res.stderr
    runner = CliRunner()
    assert runner.invoke(cli, ["import-dump", str(tmp_path / "missing.xml"), "--db", db]).exit_code == 2
    reversed_window = [
        "import-dump",
        str(bad_entity),
        "--db",
        db,
        "--from",
        "2024-02-01",
        "--to",
        "2024-01-01",
    ]
    assert runner.invoke(cli, reversed_window).exit_code == 2
    help_text = runner.invoke(cli, ["import-dump", "--help"]).output
    for flag in (
        "--comments",
        "--tag",
        "--from",
        "--to",
        "--site",
        "--batch-size",
        "--restart",
        "--format",
        "--db",
    ):
        assert flag in help_text


# -- standard input and resume ---------------------------------------------------------------------------------


def test_stdin_through_a_real_pipe(tmp_path, fixtures):
    db = f"sqlite:///{tmp_path / 's.db'}"
    posts = fixtures / AI / "Posts.xml"
    cat = subprocess.Popen(["cat", str(posts)], stdout=subprocess.PIPE)
    res = ppmine("import-dump", "-", "--site", "ai", "--tag", "definitions", "--from", "2010-01-01", "--db", db,
                 "--format", "json", stdin=cat.stdout)  # fmt: skip
    cat.wait()
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)["posts"]
    assert (out["file"], out["rows"]) == ("<stdin>", 1735)
    want = sum(1 for r in ET.parse(posts).getroot() if "<definitions>" in (r.get("Tags") or ""))
    assert count(open_store(db), Question) == want


def _stderr_of_import(posts: Path, db: str, terminal: bool) -> str:
    """Run an import with stderr on a pseudo-terminal (or a pipe); what it wrote there."""
    open_store(db)  # made beforehand, so the import has nothing to say about creating it
    master, slave = os.openpty() if terminal else os.pipe()[::-1]
    proc = subprocess.Popen([*PPMINE, "import-dump", str(posts), "--site", "stackoverflow", "--db", db, "--all-questions"], stdout=subprocess.DEVNULL,
                            stderr=slave)  # fmt: skip
    os.close(slave)
    out = b""
    with contextlib.suppress(OSError):  # a pty's master reads EIO once the child has gone
        while data := os.read(master, 65536):
            out += data
    os.close(master)
    assert proc.wait(timeout=60) == 0
    return out.decode(errors="replace")


def test_progress_bar_only_on_a_terminal(tmp_path):
    posts = write_dump(tmp_path / "Posts.xml", "posts", _many(300))
    shown = _stderr_of_import(posts, f"sqlite:///{tmp_path / 'a.db'}", terminal=True)
    size = f"{posts.stat().st_size / 1e3:.1f}"
    assert "Posts.xml" in shown and f"{size}/{size} kB" in shown  # a byte-counting bar, run to the end
    assert _stderr_of_import(posts, f"sqlite:///{tmp_path / 'b.db'}", terminal=False) == ""


def _send(pipe, data: bytes) -> None:
    with contextlib.suppress(BrokenPipeError):  # the reader gets killed
        pipe.write(data)
        pipe.flush()


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for_checkpoint(store, proc, timeout=30.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with store.read() as s:
            run = s.scalars(sa.select(AcquisitionRun)).first()
            if run is not None and (run.checkpoint or {}).get("posts", {}).get("at"):
                return run.checkpoint["posts"]
        assert proc.poll() is None, "the import ended before it could be killed"
        time.sleep(0.01)
    raise AssertionError("no checkpoint appeared")


def _fresh_import(tmp_path, posts: Path) -> dict:
    other = open_store(f"sqlite:///{tmp_path / 'reference.db'}")
    DumpImport(other, str(posts), progress=False).run()
    return snapshot(other, skip=("refreshed_at",))


@pytest.mark.parametrize(
    ("through_pipe", "sig", "group"),
    [
        (False, signal.SIGKILL, False),
        (True, signal.SIGKILL, False),
        (False, signal.SIGINT, False),
        (False, signal.SIGINT, True),
    ],
    ids=["killed-file-seek", "killed-stdin-skip", "ctrl-c-file-seek", "ctrl-c-process-group"],
)
def test_stopped_import_resumes(tmp_path, monkeypatch, through_pipe, sig, group):
    """``group``: the signal goes to the whole process group, as Ctrl-C in a terminal does (the HTML split worker,
    used whatever the machine's load, gets it too)."""
    monkeypatch.setenv("PPMINER_DUMP_WORKER", "1")
    posts = write_dump(tmp_path / "Posts.xml", "posts", _many(3000))  # ~1.6 MB: more than the hashed head
    data = posts.read_bytes()
    db = f"sqlite:///{tmp_path / 's.db'}"
    store = open_store(db)
    args = [
        "import-dump",
        "-" if through_pipe else str(posts),
        "--site",
        "stackoverflow",
        "--db",
        db,
        "--all-questions",
        "--batch-size",
        "3",
    ]
    # Ctrl-C reaches the import as a terminal sends it, whatever started the tests: a shell that ran them in the
    # background (`cmd &` in a script) hands its children SIGINT ignored, and Python keeps it ignored.
    proc = subprocess.Popen([*PPMINE, *args], stdin=subprocess.PIPE if through_pipe else None,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=group,
                            preexec_fn=_sigint_default)  # fmt: skip
    if (
        through_pipe
    ):  # a writer that sends 3/4 of the file, then leaves the pipe open: the import blocks there
        threading.Thread(target=_send, args=(proc.stdin, data[: len(data) * 3 // 4]), daemon=True).start()
    point = _wait_for_checkpoint(store, proc)
    (os.killpg if group else os.kill)(proc.pid, sig)
    _, err = proc.communicate(timeout=30)
    with store.read() as s:  # where it really stopped: it may have committed more batches before the kill
        run = s.scalars(sa.select(AcquisitionRun)).one()
        point = run.checkpoint["posts"]
    if sig == signal.SIGINT:  # Ctrl-C: the batch in hand is committed, the run marked, one line, exit 130
        assert proc.returncode == 130 and run.status == "interrupted" and run.finished_at is not None
        assert (
            err.decode().strip().splitlines()[-1]
            == "ppmine: interrupted; everything committed so far is kept (run the same command again to resume)"
        )
    assert 0 < point["rows"] < 6000 and count(store, Question) > 0

    args[-1] = "500"  # the batch size is no part of what identifies the import
    res = ppmine(*args, "--format", "json", input=data.decode() if through_pipe else None)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)["posts"]
    assert out["resumed"] == (
        f"skip {point['rows']} rows" if through_pipe else f"seek to byte {point['at']['offset']}"
    )
    assert out["rows"] == 6000
    with store.read() as s:
        run = s.scalars(sa.select(AcquisitionRun)).one()  # the same run, finished
        assert run.status == "done" and run.finished_at == run.updated_at
    assert snapshot(store, skip=("refreshed_at",)) == _fresh_import(tmp_path, posts)


def test_every_safe_point_resumes_exactly(tmp_path, monkeypatch):
    """Pretty-printed rows (attributes on their own lines, explicit end tags) read one line per block: a
    checkpoint never falls inside a start tag or an open row, and resuming from each one gives exactly the rest."""
    monkeypatch.setattr(dump_reader, "BLOCK", 1)  # read1(1), then the rest of the line: one line per block
    rows = [question(i, "|a|") for i in range(1, 12)]
    text = write_dump(tmp_path / "flat.xml", "posts", rows).read_text(encoding="utf-8-sig")
    text = text.replace('" ', '"\n     ').replace("<row ", "<row\n  ").replace("/>", ">\n  </row>")
    posts = tmp_path / "Posts.xml"
    posts.write_text(text, encoding="utf-8")
    reader = DumpReader.open(str(posts), "posts")
    points = [p for _, p in reader.chunks() if p is not None]
    reader.close()
    assert sorted({p.rows for p in points}) == list(range(1, len(rows) + 1))  # after each row, nowhere inside
    for point in points:
        again = DumpReader.open(str(posts), "posts")
        again.resume(point)
        ids = [int(r.value["Id"]) for chunk, _ in again.chunks() for r in chunk]
        again.close()
        assert ids == list(range(point.rows + 1, len(rows) + 1)), point


def test_file_without_line_breaks_is_still_written_in_batches(sqlite_store, tmp_path, monkeypatch):
    monkeypatch.setattr(dump_reader, "BLOCK", 2000)
    monkeypatch.setattr(dump_reader, "MAX_FEED", 2000)  # blocks never end a line: no safe point until the end
    flat = write_dump(tmp_path / "flat.xml", "posts", _many(200)).read_bytes().replace(b"\r\n", b"")
    posts = tmp_path / "Posts.xml"
    posts.write_bytes(flat[: len(flat) // 2])  # and it is cut in the middle
    with pytest.raises(PPMinerError, match="unexpected end of file"):
        DumpImport(sqlite_store, str(posts), batch_size=5, progress=False).run()
    with sqlite_store.read() as s:
        run = s.scalars(sa.select(AcquisitionRun)).one()
    stored = count(sqlite_store, Question) + count(sqlite_store, Answer)
    assert stored > 150 and run.items == stored and "at" not in run.checkpoint["posts"]


def test_pipe_resume_refuses_different_input(tmp_path):
    """On a pipe the rows done are skipped by count; the Id of the last one proves it is the same input."""
    posts = write_dump(tmp_path / "Posts.xml", "posts", _many(20))

    def reread(point):
        stream = open(posts, "rb")  # noqa: SIM115 - the reader closes it
        reader = DumpReader(dump_reader.STDIN, "posts", stream, b"", None)  # as if piped: no seeking
        assert reader.resume(point) == f"skip {point.rows} rows"
        try:
            return [int(r.value["Id"]) for chunk, _ in reader.chunks() for r in chunk]
        finally:
            reader.close()

    assert reread(dump_reader.SafePoint(0, 1, 10, last_id="11"))[:2] == [12, 13]
    with pytest.raises(
        PPMinerError, match=r"row 10 has Id=11, but the interrupted import stopped after Id=9"
    ):
        reread(dump_reader.SafePoint(0, 1, 10, last_id="9"))


_MAX_RSS = """
import resource, sys
from mining.dump.reader import DumpReader
reader = DumpReader.open(sys.argv[1], "posts")
rows = sum(len(chunk) for chunk, _ in reader.chunks())
print(rows, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def test_reader_memory_does_not_grow_with_the_file(tmp_path):
    """Constant memory: a 10x larger file (~25 MB, ~200 MB as an lxml tree) barely moves the peak."""
    small = write_dump(tmp_path / "small.xml", "posts", _many(4000))
    large = write_dump(tmp_path / "large.xml", "posts", _many(40000))
    one_line = tmp_path / "one_line.xml"  # no line breaks at all: blocks never end a line
    one_line.write_bytes(large.read_bytes().replace(b"\r\n", b""))
    peaks = []
    for path, rows in ((small, 8000), (large, 80000), (one_line, 80000)):
        out = subprocess.run(
            [sys.executable, "-c", _MAX_RSS, str(path)], capture_output=True, text=True, check=True
        )
        count, peak_kb = map(int, out.stdout.split())
        assert count == rows
        peaks.append(peak_kb)
    assert large.stat().st_size > 20e6
    assert max(peaks[1:]) - peaks[0] < 10_000, peaks  # KiB


_IMPORT_MAX_RSS = """
import resource, sys
from core.db import open_store
from mining.dump.importer import DumpImport
result = DumpImport(open_store(sys.argv[1]), sys.argv[2], sys.argv[3], progress=False).run()
print(result.posts.answers, result.comments.comments, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _stored_posts(store, n: int, first_id: int) -> None:
    """n stored questions, each with one answer (ids from first_id on), made by SQL itself: a large database."""
    ids = f"WITH RECURSIVE k(i) AS (SELECT {first_id} UNION ALL SELECT i + 2 FROM k WHERE i < {first_id + 2 * n - 2})"
    stamp = "'api', '2024-01-01 00:00:00'"
    with store.write() as s:
        s.execute(
            sa.text(
                "INSERT INTO questions (id, site, tags, code_blocks, has_code, source, refreshed_at) "
                f"{ids} SELECT i, 'stackoverflow', '', '[]', 0, {stamp} FROM k"
            )
        )
        s.execute(
            sa.text(
                "INSERT INTO answers (site, id, question_id, code_blocks, source, refreshed_at) "
                f"{ids} SELECT 'stackoverflow', i + 1, i, '[]', {stamp} FROM k"
            )
        )


def test_import_memory_does_not_grow_with_the_database(tmp_path):
    """Constant memory: what is stored already is looked up batch by batch, never loaded whole."""
    posts = write_dump(tmp_path / "Posts.xml", "posts", [*_many(50), answer(10**7 + 1, 10**7)])
    comments = write_dump(
        tmp_path / "Comments.xml", "comments", [comment(10**8, 2), comment(10**8 + 1, 10**7 + 1)]
    )
    peaks = []
    for name, stored in (("empty", 0), ("large", 300_000)):
        db = f"sqlite:///{tmp_path / name}.db"
        if stored:
            _stored_posts(open_store(db), stored, first_id=10**7)  # answer 10**7 + 1 is on a stored question
        out = subprocess.run([sys.executable, "-c", _IMPORT_MAX_RSS, db, str(posts), str(comments)],
                             capture_output=True, text=True, check=True)  # fmt: skip
        answers, kept_comments, peak_kb = map(int, out.stdout.split())
        assert (answers, kept_comments) == (50 + bool(stored), 1 + bool(stored))
        peaks.append(peak_kb)
    assert peaks[1] - peaks[0] < 15_000, peaks  # KiB; loading every stored id took ~100 MB here


# -- the faster split_html stays faithful ----------------------------------------------------------------------


def _split_with_beautifulsoup(html: str) -> SplitBody:
    """The reference implementation split_html replaced (top-level <pre> only)."""
    soup = BeautifulSoup(html, "lxml")
    code = []
    for pre in soup.find_all("pre"):
        if pre.find_parent("pre") is None and pre.parent is not None:
            code.append(pre.get_text())
            pre.decompose()
    for tag in soup.find_all(list(_BLOCK_TAGS)):
        tag.insert_before("\n")
        tag.insert_after("\n")
    return SplitBody(normalize_prose(soup.get_text()), code)


def test_split_html_matches_beautifulsoup_on_real_bodies(fixtures):
    bodies = [r.get("Body") for r in ET.parse(fixtures / AI / "Posts.xml").getroot() if r.get("Body")]
    bodies += ["<!-- lang-py --><p>a</p>", "a<pre>x<pre>y</pre>z</pre>b", "<pre>c</pre>tail", "<p>x<br>y</p>"]
    mismatches = [b[:80] for b in bodies if split_html(b) != _split_with_beautifulsoup(b)]
    assert not mismatches
    assert sum(bool(split_html(b).code_blocks) for b in bodies) > 40


# -- tags and window from the config ---------------------------------------------------------------------------


def test_cli_takes_tags_and_window_from_the_config_and_splits_tag_lists(tmp_path, fixtures):
    posts = str(fixtures / AI / "Posts.xml")
    rows = ET.parse(posts).getroot()

    def wanted(*tags, since="2010"):
        return sum(
            1
            for r in rows
            if r.get("PostTypeId") == "1"
            and any(f"<{t}>" in (r.get("Tags") or "") for t in tags)
            and r.get("CreationDate") >= since
        )

    db = f"sqlite:///{tmp_path / 'config.db'}"
    res = ppmine("import-dump", posts, "--site", "ai", "--db", db)  # the config: tensorflow/keras from 2018
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("keeping questions tagged tensorflow or keras created 2018-01-01 .. now\n")
    assert count(open_store(db), Question) == wanted("tensorflow", "keras", since="2018") == 0

    db = f"sqlite:///{tmp_path / 'split.db'}"
    res = ppmine("import-dump", posts, "--site", "ai", "--tag", "Definitions, neural-networks", "--from",
                 "2016-06-01", "--db", db)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "keeping questions tagged definitions or neural-networks created 2016-06-01 .. now" in res.stdout
    want = wanted("definitions", "neural-networks", since="2016-06-01")
    assert want > 0 and count(open_store(db), Question) == want

    db = f"sqlite:///{tmp_path / 'all.db'}"
    res = ppmine("import-dump", posts, "--site", "ai", "--all-questions", "--db", db)
    assert res.returncode == 0, res.stderr
    assert count(open_store(db), Question) == sum(1 for r in rows if r.get("PostTypeId") == "1")

    for bad in (["--tag", "a,,b"], ["--all-questions", "--tag", "keras"]):
        res = ppmine("import-dump", posts, "--db", db, *bad)
        assert res.returncode == 2 and res.stderr.strip().splitlines()[-1].startswith("Error: "), res.stderr
        assert "--tag" in res.stderr.strip().splitlines()[-1]
