"""Streaming reader for Stack Exchange data-dump files (Posts.xml, Comments.xml): rows in constant memory.

The file is fed to lxml's pull parser one line at a time (at most ``MAX_FEED`` bytes), so the reader always knows
the byte offset and line number it has reached. After a line that leaves no ``<row>`` open, everything before that
offset has been handed out: that is a *safe point*, where an import can checkpoint and later resume by seeking
there (a regular file) or by re-reading and skipping the rows already done (standard input).

Parse errors become :class:`PPMinerError` naming the file, line, column and byte offset.
"""

from __future__ import annotations

import hashlib
import io
import os
import sys
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from lxml import etree

from mining.errors import PPMinerError

MAX_FEED = 1 << 20  # bytes fed per call at most (a dump line is one row, usually a few KB)
HEAD_BYTES = 1 << 20  # bytes hashed to recognise a file again (also through a pipe)
STDIN = "-"


@dataclass(frozen=True)
class SafePoint:
    """A position between rows: ``rows`` rows lie before byte ``offset``, which starts line ``line``."""

    offset: int
    line: int
    rows: int


@dataclass(frozen=True)
class Row:
    """What the caller's ``select`` made of one ``<row>`` (by default a dict of its attributes), and its line."""

    value: Any
    line: int


class _HeadThenRest:
    """A stream that replays the bytes already read for hashing, then continues with the real stream."""

    def __init__(self, head: bytes, rest: BinaryIO):
        self._head = io.BytesIO(head)
        self._rest = rest

    def readline(self, limit: int = -1) -> bytes:
        line = self._head.readline(limit)
        if line:
            return line
        return self._rest.readline(limit)


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
    :meth:`chunks` for ``(rows, safe_point_or_None)`` pairs, one per line fed.
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
        self._line_shift = 0  # file line = parser line + shift (after a resume seek)
        self._prefix = b""

    @classmethod
    def open(cls, path: str, root: str) -> DumpReader:
        try:
            stream = sys.stdin.buffer if path == STDIN else open(path, "rb")  # noqa: SIM115 - closed in close()
        except OSError as exc:
            raise PPMinerError(f"cannot read {describe(path)}: {exc.strerror}") from None
        head = stream.read(HEAD_BYTES)
        size = None if path == STDIN else os.fstat(stream.fileno()).st_size
        return cls(path, root, stream, head, size)

    def close(self) -> None:
        if self.path != STDIN:
            self._raw.close()

    def resume(self, point: SafePoint) -> str:
        """Continue after ``point``: seek to it in a file, or re-read and skip its rows on a pipe. Returns how."""
        if self.path != STDIN and point.offset > 0:
            self._raw.seek(point.offset)
            self._stream = self._raw
            self.offset, self.line, self.rows = point.offset, point.line, point.rows
            # The parser starts afresh inside the document element; its line 1 is the file's line point.line.
            self._prefix = f"<{self.root}>".encode()
            self._line_shift = point.line - 1
            return f"seek to byte {point.offset}"
        self._skip_rows = point.rows
        return f"skip {point.rows} rows"

    def chunks(self, select: Callable[[Any], Any] = dict) -> Iterator[tuple[list[Row], SafePoint | None]]:
        """Feed the file line by line. ``select(attrib)`` sees each row's attributes while they are live and
        returns what to keep, or None to drop the row cheaply (no copy of the attributes)."""
        parser = etree.XMLPullParser(events=("start", "end"), huge_tree=True)
        recent: deque[tuple[int, int]] = deque(maxlen=64)  # (line, byte offset of its start)
        depth, saw_root, open_row = 0, bool(self._prefix), False
        if self._prefix:
            parser.feed(self._prefix)
            for _ in parser.read_events():  # the synthetic root
                pass
            depth = 1
        readline = self._stream.readline
        while True:
            data = readline(MAX_FEED)
            if not data:
                break
            recent.append((self.line, self.offset))
            rows: list[Row] = []
            try:
                parser.feed(data)
            except etree.XMLSyntaxError as exc:
                self._drain(parser, rows, depth, select)
                if rows:
                    yield rows, None
                raise self._error(exc, recent) from None
            self.offset += len(data)
            ends_line = data.endswith(b"\n")
            for event, el in parser.read_events():
                if event == "start":
                    depth += 1
                    if depth == 1:
                        saw_root = True
                        if el.tag != self.root:
                            raise PPMinerError(
                                f"{self.name}:{self.line}: document element is <{el.tag}>, expected <{self.root}>"
                            )
                    elif depth == 2 and el.tag == "row":
                        open_row = True
                    continue
                depth -= 1
                if depth == 1 and el.tag == "row":
                    open_row = False
                    self.rows += 1
                    if self._skip_rows:
                        self._skip_rows -= 1
                    else:
                        value = select(el.attrib)
                        if value is not None:
                            rows.append(Row(value, self.line))
                if depth == 1:  # constant memory: empty the row, drop the ones before it
                    el.clear()
                    parent = el.getparent()
                    if parent is not None and el.getprevious() is not None:
                        del parent[:-1]
            if ends_line:
                self.line += 1
            safe = ends_line and not open_row and saw_root and depth == 1
            yield rows, SafePoint(self.offset, self.line, self.rows) if safe else None
        try:
            parser.close()
        except etree.XMLSyntaxError as exc:
            raise self._error(exc, recent, at_end=True) from None
        if not saw_root:
            raise PPMinerError(f"{self.name}: empty file, no <{self.root}> element")

    def _drain(self, parser, rows: list[Row], depth: int, select) -> None:
        """Rows completed in the line that failed, before the fault, are still good."""
        try:
            events = list(parser.read_events())
        except etree.XMLSyntaxError:
            return
        for event, el in events:
            depth += 1 if event == "start" else -1
            if event == "end" and depth == 1 and el.tag == "row":
                self.rows += 1
                if self._skip_rows:
                    self._skip_rows -= 1
                elif (value := select(el.attrib)) is not None:
                    rows.append(Row(value, self.line))

    def _error(self, exc: etree.XMLSyntaxError, recent, at_end: bool = False) -> PPMinerError:
        reason = (exc.msg or str(exc)).split(", line ")[0]
        if at_end:
            # Whatever libxml2 calls it, the input stopped before the document did: the fault is the end.
            line, offset = self.line, self.offset
            starts = [start for number, start in recent if number == line]
            column = offset - starts[0] + 1 if starts else 0
            return PPMinerError(
                f"{self.name}:{line}: column {column}, byte offset {offset}: unexpected end of file ({reason})"
            )
        line, column = exc.position if exc.position else (0, 0)
        line += self._line_shift
        offset = next((start + max(column - 1, 0) for number, start in recent if number == line), self.offset)
        return PPMinerError(f"{self.name}:{line}: column {column}, byte offset {offset}: {reason}")
