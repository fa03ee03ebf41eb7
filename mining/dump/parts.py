"""Importing every post of a large Posts.xml in parts: worker processes parse, select and prepare, the importer
only writes.

A dump writes one ``<row .../>`` per line, so the file can be cut at line ends into parts of about ``batch_size``
lines, and a part can be parsed on its own inside the document element, as a resumed import does after its seek.
Two worker processes each take a part, parse it, build its question and answer rows and make them ready to write
(:func:`mining.dump.split_pool.prepare_posts`); the importer writes the parts in file order, each in one
transaction with the checkpoint after it. The importer's own process then neither parses the file nor builds a
row: on two cores the parse, the split and the write run side by side.

The parts are an optimistic reading of a well-formed dump. A worker gives up on a part (:func:`read_part` returns
None) whenever that part is not what it seems: a parse error, a bad value, a row not ended at the part's end, the
document element ending before the last part, anything but ``<posts>`` as the document element. The importer then
reads the rest of the file from that part's start with :class:`mining.dump.reader.DumpReader`, which says what is
wrong, where, exactly as an import that never used parts, and writes the rows before the fault as it does (a part
a worker broke on is read the same way). Used only for a fresh import of every post (no filter, the site not stored
yet, no other site stored): only then are the answers a worker prepares before anyone knows whether their question
is kept (nearly) all kept, and no stored post could make a prepared row not newer.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass

from lxml import etree

from mining.dump.rows import PostSelector, RowError, answer_row
from mining.dump.split_pool import fork_workers, prepare_posts
from mining.store import Upsert

WORKERS = 2  # processes parsing and preparing parts
AHEAD = 2 * WORKERS  # parts handed out and not written yet
FEED = 1 << 18  # bytes fed to the parser at a time (the rows of each are dropped after it: flat memory)
MAX_LINE = 1 << 20  # a longer line (a file without line breaks): the rest is read the usual way
SAMPLE = 1 << 20  # bytes of the file's start that tell how long its lines are
MIN_BYTES = 8 << 20  # a smaller file (or rest of one) is read the usual way: the workers would hardly pay off
ROOT = "posts"
_ENCODING = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([^"']*)""")


@dataclass
class Part:
    """A byte range of the file, whole lines: ``[start, end)``; ``last``: it ends the file."""

    start: int
    end: int
    last: bool


@dataclass
class ReadPart:
    """What a worker made of a part: its ``lines`` (line breaks), its ``rows`` (``<row>`` elements of the
    document), the Id of the last, the ids of its questions and each answer's ``(id, question id)``, in file order,
    and those questions and answers made ready to write."""

    lines: int
    rows: int
    last_id: str | None
    question_ids: list[int]
    answers: list[tuple[int, int]]
    prepared: tuple[Upsert, Upsert]
    root_line: int | None  # the first part's: the line of the document element's start tag


def cut(path: str, start: int, lines_per_part: int) -> Iterator[Part | None]:
    """The parts of the file from byte ``start`` on, about ``lines_per_part`` lines each (as long as that many of
    the file's first lines), each ended at a line break; None in place of the next part when a line is too long to
    cut at (the rest is then read the usual way)."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        sample = f.read(SAMPLE)
        part_bytes = max(len(sample) * lines_per_part // (sample.count(b"\n") + 1), 1)
        while start < size:
            f.seek(min(start + part_bytes, size))
            end = f.tell()
            if end < size:
                rest = f.readline(MAX_LINE)
                if len(rest) == MAX_LINE and not rest.endswith(b"\n"):
                    yield None
                    return
                end += len(rest)
            yield Part(start, end, end >= size)
            start = end


class _Refused(Exception):
    """The part is to be read the usual way."""


def read_part(path: str, part: Part, select: PostSelector) -> ReadPart | None:
    """The worker's job: parse, select and prepare one part; None when the part must be read the usual way."""
    with open(path, "rb") as f:
        f.seek(part.start)
        data = f.read(part.end - part.start)
    if len(data) != part.end - part.start:
        return None  # the file changed under the import
    if not part.last and f"</{ROOT}".encode() in data:
        return None  # the document ends before the file does: the usual way says what follows
    parser = etree.XMLPullParser(events=("end",), tag="row")
    if part.start:
        parser.feed(f"<{ROOT}>".encode())
    rows = _Rows(select, data if not part.start else None)
    try:
        for at in range(0, len(data), FEED):
            parser.feed(data[at : at + FEED])
            rows.take(parser)
        if not part.last:
            if not rows.ended(data):
                return None
            parser.feed(f"</{ROOT}>".encode())
        parser.close()  # libxml2 reports some faults only here (a missing quote): a part is whole when it closes
        rows.take(parser)
    except (etree.XMLSyntaxError, RowError, _Refused):
        return None
    last_id = rows.last.get("Id") if rows.last is not None else None
    prepared = prepare_posts(rows.questions, rows.answers, "dump")
    root_line = rows.root.sourceline if rows.root is not None and not part.start else None
    return ReadPart(
        data.count(b"\n"), rows.count, last_id, rows.question_ids, rows.pairs, prepared, root_line
    )


class _Rows:
    """The rows of one part as the parser ends them: counted, selected, questions and answers built."""

    def __init__(self, select: PostSelector, head: bytes | None):
        self.select, self.head = select, head  # head: the file's start (its prolog is checked)
        self.root = self.last = None
        self.count = 0
        self.questions: list[dict] = []
        self.answers: list[dict] = []
        self.question_ids: list[int] = []
        self.pairs: list[tuple[int, int]] = []

    def take(self, parser) -> None:
        root, select, site = self.root, self.select, self.select.site
        for _, el in parser.read_events():
            parent = el.getparent()
            if parent is not root:
                if root is not None:
                    continue  # a <row> deeper down is not a row of the dump
                if parent.tag != ROOT or len(parent.attrib) or parent.nsmap:
                    raise _Refused
                if self.head is not None and not _plain_prolog(self.head):
                    raise _Refused
                root = self.root = parent
            self.count += 1
            self.last = el
            value = select(el.attrib)
            if value is None:
                continue
            kind, ref, row = value
            if kind == "q":
                self.questions.append(row)
                self.question_ids.append(ref)
            else:
                row = answer_row(el.attrib, site, ref)
                self.answers.append(row)
                self.pairs.append((row["id"], ref))
        if root is not None and len(root) > 1:
            del root[:-1]  # the rows done: memory stays flat

    def ended(self, data: bytes) -> bool:
        """Whether the part ended after a whole row, with nothing open (so the next part starts between rows)."""
        root, last = self.root, self.last
        if root is None or last is None or root[-1] is not last:
            return False
        return data.endswith(b"\n") and data[-256:].rstrip().endswith(b">")


def _plain_prolog(data: bytes) -> bool:
    """Whether the file's start leaves the other parts to be read as UTF-8 inside ``<posts>``: the document is in
    UTF-8 and declares no DTD (whose entities or default attributes a part read on its own would not know)."""
    first_row = data.find(b"<row")
    head = data[:first_row].removeprefix(b"\xef\xbb\xbf")
    if first_row < 0 or b"<!DOCTYPE" in head:
        return False
    declared = _ENCODING.match(head)
    return declared is None or declared.group(1).lower() in (b"utf-8", b"utf8")


class PartPool:
    """The worker processes, started (forked) when made; :meth:`map` hands out parts and gives their results in
    file order."""

    def __init__(self, dialect):
        self._executor = fork_workers(WORKERS, dialect)

    def map(
        self, path: str, parts: Iterator[Part | None], select: PostSelector
    ) -> Iterator[tuple[Part, ReadPart | None]]:
        """``(part, what the worker made of it)`` in file order, with up to :data:`AHEAD` parts under way, until
        :func:`cut` gives up (the caller stops at a None result itself)."""
        pending: list[tuple[Part, Future]] = []
        for part in parts:
            if part is None:
                break
            pending.append((part, self._executor.submit(read_part, path, part, select)))
            if len(pending) >= AHEAD:
                part, future = pending.pop(0)
                yield part, _result(future)
        for part, future in pending:
            yield part, _result(future)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


def _result(future: Future) -> ReadPart | None:
    """A worker's part; None (read the usual way) when the worker broke or failed on it."""
    try:
        return future.result()
    except Exception:  # noqa: BLE001 - the usual way reads the part again, and says what is wrong with it, if anything
        return None
