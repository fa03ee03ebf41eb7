"""Streaming reader for Stack Exchange data-dump files (Posts.xml, Comments.xml): rows in constant memory.

The file is fed to lxml's pull parser in blocks of whole lines, so the reader always knows the byte offset and line
number it has reached. After a block that ends between two rows, everything before that offset has been handed out:
that is a *safe point*, where an import can checkpoint and later resume by seeking there (a regular file) or by
re-reading and skipping the rows already done (standard input). Only ``end`` events of ``<row>`` elements reach
Python, and the finished rows are dropped once per block, so memory stays flat.

Parse errors become :class:`PPMinerError` naming the file, line, column and byte offset.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, NamedTuple

from lxml import etree

from core.errors import PPMinerError

BLOCK = 1 << 18  # bytes read per block (then up to the end of the line)
MAX_FEED = 1 << 20  # at most this much more to finish a line (a dump line is one row, usually a few KB)
HEAD_BYTES = 1 << 20  # bytes hashed to recognise a file again (also through a pipe)
STDIN = "-"
_NAMED_LINE = re.compile(r"(\S+) line (\d+)")  # a tag and its line, as libxml2 names them inside its reason


@dataclass(frozen=True)
class SafePoint:
    """A position between rows: ``rows`` rows lie before byte ``offset``, which starts line ``line``; the last
    of them has Id ``last_id`` (checked when a pipe is re-read, since a pipe's size is unknown). ``root_line``: the
    line of the document element's start tag, which a resumed parser only knows from here."""

    offset: int
    line: int
    rows: int
    last_id: str | None = None
    root_line: int | None = None  # where the document element began (libxml2's messages name it)


class Row(NamedTuple):
    """What the caller's ``select`` made of one ``<row>`` (by default a dict of its attributes), and its line.
    (A tuple: one is made for every row kept, and a tuple is the cheapest to make.)"""

    value: Any
    line: int


class _HeadThenRest:
    """A stream that replays the bytes already read for hashing, then continues with the real stream."""

    def __init__(self, head: bytes, rest: BinaryIO):
        self._head = io.BytesIO(head)
        self._rest = rest

    def read1(self, size: int = -1) -> bytes:
        return self._head.read1(size) or self._rest.read1(size)

    def readline(self, limit: int = -1) -> bytes:
        return self._head.readline(limit) or self._rest.readline(limit)


def describe(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def file_identity(path: str, head: bytes) -> dict:
    """What recognises the same dump file on a later run: its size (when known) and a hash of its first MiB."""
    ident = {"name": os.path.basename(describe(path)), "head_sha256": hashlib.sha256(head).hexdigest()}
    ident["size"] = None if path == STDIN else os.path.getsize(path)
    return ident


class DumpReader:
    """Rows of one dump file, with safe points for checkpoints.

    ``root`` is the expected document element (``posts`` or ``comments``). Open with :meth:`open`; iterate
    :meth:`chunks` for ``(rows, safe_point_or_None)`` pairs, one per block fed.
    """

    def __init__(self, path: str, root: str, stream: BinaryIO, head: bytes, size: int | None):
        self.path = path
        self.name = describe(path)
        self.root = root
        self.size = size
        self.identity = file_identity(path, head)
        self._stream: BinaryIO = _HeadThenRest(head, stream)  # type: ignore[assignment]
        self._raw = stream
        self.offset = 0  # bytes of the file consumed so far
        self.line = 1  # line number at self.offset
        self.rows = 0  # <row> elements completed so far
        self._skip_rows = 0
        self._expect_id: str | None = None  # Id of the last row skipped on a re-read pipe
        self._line_shift = 0  # file line = parser line + shift (after a resume seek)
        self._prefix = b""
        self._root = None  # the document element, once a row has shown it
        self._closing_tag = f"</{root}".encode()
        self._closed = False
        self._last_row = None
        self.row_line = 0  # line of the row being selected (for the caller's error messages)
        self.root_line: int | None = None  # line of the document element's start tag, once known

    @classmethod
    def open(cls, path: str, root: str) -> DumpReader:
        if path == STDIN and sys.stdin.isatty():
            raise PPMinerError(
                "- names standard input, but it is a terminal: pipe the dump in (... | ppmine import-dump -)"
            )
        # A buffer as large as a block, so read1() hands out whole blocks (the default 8 KiB costs ~15%).
        buffering = max(BLOCK, io.DEFAULT_BUFFER_SIZE)
        try:
            if path == STDIN:
                stream = open(sys.stdin.fileno(), "rb", buffering=buffering, closefd=False)  # noqa: SIM115
            else:
                stream = open(path, "rb", buffering=buffering)  # noqa: SIM115 - closed in close()
        except OSError as exc:
            raise PPMinerError(f"cannot read {describe(path)}: {exc.strerror}") from None
        head = stream.read(HEAD_BYTES)
        size = None if path == STDIN else os.fstat(stream.fileno()).st_size
        return cls(path, root, stream, head, size)

    def close(self) -> None:
        self._raw.close()  # standard input's descriptor stays open (closefd=False)

    def resume(self, point: SafePoint) -> str:
        """Continue after ``point``: seek to it in a file, or re-read and skip its rows on a pipe. Returns how."""
        if self.path != STDIN and point.offset > 0:
            self._raw.seek(point.offset)
            self._stream = self._raw
            self.offset, self.line, self.rows = point.offset, point.line, point.rows
            # The parser starts afresh inside the document element; its line 1 is the file's line point.line.
            self._prefix = f"<{self.root}>".encode()
            self._line_shift = point.line - 1
            self.root_line = point.root_line
            return f"seek to byte {point.offset}"
        self._skip_rows, self._expect_id = point.rows, point.last_id
        return f"skip {point.rows} rows"

    def chunks(self, select: Callable[[Any], Any] = dict) -> Iterator[tuple[list[Row], SafePoint | None]]:
        """Feed the file in blocks of whole lines; yield each block's rows and, when it ends between rows, the
        safe point after it. ``select(attrib)`` sees each row's attributes while they are live and returns what
        to keep, or None to drop the row cheaply (no copy of the attributes)."""
        parser = etree.XMLPullParser(events=("end",), tag="row")  # libxml2 limits stay on
        if self._prefix:
            parser.feed(self._prefix)
        read, readline = self._stream.read1, self._stream.readline
        previous = None
        while True:
            data = read(BLOCK)
            if not data:
                break
            if not data.endswith(b"\n"):
                data += readline(MAX_FEED)  # whole lines only, so a block can end at a safe point
            block = (self.line, self.offset, data)
            rows: list[Row] = []
            try:
                parser.feed(data)
            except etree.XMLSyntaxError as exc:
                self._take_events(parser, rows, select, failed=True)  # rows before the fault are good
                if rows:
                    yield rows, None
                raise self._error(exc, (previous, block)) from None
            self.offset += len(data)
            self.line += data.count(b"\n")
            try:
                self._take_events(parser, rows, select)
            except PPMinerError:  # a bad row (select refused it): the rows before it are good
                if rows:
                    yield rows, None
                raise
            point = None
            if self._between_rows(data):
                last_id = self._last_row.get("Id") if self._last_row is not None else None
                point = SafePoint(self.offset, self.line, self.rows, last_id, self.root_line)
            yield rows, point
            previous = block
        try:
            root = parser.close()
        except etree.XMLSyntaxError as exc:
            raise self._error(exc, (previous,), at_end=True) from None
        if self._root is None and not self._prefix:
            self._check_root(root)

    def _check_root(self, root) -> None:
        if root.tag != self.root:
            raise PPMinerError(
                f"{self.name}:{root.sourceline}: document element is <{root.tag}>, expected <{self.root}>"
            )

    def _take_events(self, parser, rows: list[Row], select, failed: bool = False) -> None:
        root = self._root
        try:
            for _, el in parser.read_events():
                parent = el.getparent()
                if parent is not root:
                    if root is not None:
                        continue  # a <row> deeper down is not a row of the dump
                    self._check_root(parent)
                    root = self._root = parent
                    if not self._prefix:
                        self.root_line = parent.sourceline
                self.rows += 1
                self._last_row = el
                if self._skip_rows:
                    self._skip_rows -= 1
                    if (
                        not self._skip_rows
                        and self._expect_id is not None
                        and el.get("Id") != self._expect_id
                    ):
                        raise PPMinerError(
                            f"{self.name}:{el.sourceline}: row {self.rows} has Id={el.get('Id')}, but the "
                            f"interrupted import stopped after Id={self._expect_id}: not the same input; "
                            "start over with --restart"
                        )
                    continue
                self.row_line = (el.sourceline or 0) + self._line_shift
                value = select(el.attrib)
                if value is not None:
                    rows.append(Row(value, self.row_line))
        except etree.XMLSyntaxError:
            if not failed:
                raise

    def _between_rows(self, data: bytes) -> bool:
        """After a block: free the rows done (constant memory), then tell whether the block ended between rows."""
        root = self._root
        if root is None:
            return False
        last = root[-1] if len(root) else None
        del root[:-1]
        if self._closing_tag in data:
            self._closed = True  # nothing to resume after the document element has ended
        if self._closed or not data.endswith(b"\n"):
            return False
        if last is not None and last is not self._last_row:
            return False  # a row (or another element) has started and not ended
        # A start tag cut by the block's end is no element yet: only a block ending in ">" is safe.
        return data.rstrip().endswith(b">")

    def _error(self, exc: etree.XMLSyntaxError, blocks, at_end: bool = False) -> PPMinerError:
        """The one-line message: file, line, column and byte offset of the fault."""
        reason = self._file_lines((exc.msg or str(exc)).split(", line ")[0])
        # A fault libxml2 only reports at the end (a missing quote) still names its own line: only a fault on
        # the last line is the end of the input.
        before_end = exc.position and exc.position[0] + self._line_shift < self.line
        if at_end and not before_end:
            # Whatever libxml2 calls it, the input stopped before the document did: the fault is the end.
            line, offset = self.line, self.offset
            start = self._line_start(blocks, line)
            column = offset - start + 1 if start is not None else 0
            return PPMinerError(
                f"{self.name}:{line}: column {column}, byte offset {offset}: unexpected end of file ({reason})"
            )
        line, column = exc.position if exc.position else (0, 0)
        line += self._line_shift
        start = self._line_start(blocks, line)
        if start is None and at_end:  # the line is in a block long gone: its offset is not known
            return PPMinerError(f"{self.name}:{line}: column {column}: {reason}")
        offset = start + max(column - 1, 0) if start is not None else self.offset
        return PPMinerError(f"{self.name}:{line}: column {column}, byte offset {offset}: {reason}")

    def _file_lines(self, reason: str) -> str:
        """libxml2's reason with the lines it names (``in tag posts line 2``) as lines of the file: after a resume,
        the parser's line 1 is the document element's start tag fed again, and its line n is the file's n + shift.
        """
        if not self._prefix:
            return reason

        def file_line(match: re.Match) -> str:
            tag, line = match.group(1), int(match.group(2))
            if line == 1 and tag == self.root:
                return f"{tag} line {self.root_line}" if self.root_line else match.group(0)
            return f"{tag} line {line + self._line_shift}"

        return _NAMED_LINE.sub(file_line, reason)

    @staticmethod
    def _line_start(blocks, line: int) -> int | None:
        """Byte offset where ``line`` starts, if it lies in one of the recent blocks."""
        for block in blocks:
            if block is None:
                continue
            first_line, offset, data = block
            if not first_line <= line <= first_line + data.count(b"\n"):
                continue
            pos = 0
            for _ in range(line - first_line):
                pos = data.index(b"\n", pos) + 1
            return offset + pos
        return None
