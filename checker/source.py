"""Python source bytes as text, the one way every pass of ppcheck reads a module."""

from __future__ import annotations

import io
import re
import tokenize


def decode_python(data: bytes) -> str:
    """Source bytes as text, honouring a BOM and a PEP 263 coding line (`# -*- coding: latin-1 -*-`).

    Raises UnicodeDecodeError or LookupError (an unknown coding) / SyntaxError (a bad coding line).
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        if not re.match(rb"\A(\xef\xbb\xbf)?([^\n]*\n)?[^\n]*coding[:=]", data):
            encoding = "utf-8"  # no coding line, just bytes that are not UTF-8: say so below
        else:
            raise
    return data.decode("utf-8-sig" if encoding == "utf-8-sig" else encoding)


def read_python(path: str) -> str | None:
    """The text of the Python file at `path`, or None when it cannot be read or decoded (the per-module
    pass has already reported such a file as skipped)."""
    try:
        with open(path, "rb") as handle:
            return decode_python(handle.read())
    except (OSError, UnicodeDecodeError, LookupError, SyntaxError):
        return None
