"""Post HTML -> plain prose and code blocks; making untrusted text safe to show in a terminal.

A *code block* is the text of a ``<pre>`` element (Stack Exchange renders fenced and indented code that way).
Inline ``<code>`` stays in the prose: it is part of the sentence ("calling `fit` is slow").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from bs4 import BeautifulSoup

_BLOCK_TAGS = ("p", "li", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "br", "hr", "div", "table")
_SPACES = re.compile(r"[ \t\f\v\xa0]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")


@dataclass(frozen=True)
class SplitBody:
    prose: str
    code_blocks: list[str]

    @property
    def has_code(self) -> bool:
        return bool(self.code_blocks)


def split_html(html: str | None) -> SplitBody:
    """Separate a post body into prose (code blocks removed) and the list of its code blocks."""
    if not html:
        return SplitBody("", [])
    soup = BeautifulSoup(html, "lxml")
    code_blocks = []
    for pre in soup.find_all("pre"):
        code_blocks.append(pre.get_text())
        pre.decompose()
    for tag in soup.find_all(_BLOCK_TAGS):
        tag.insert_before("\n")
        tag.insert_after("\n")
    return SplitBody(normalize_prose(soup.get_text()), code_blocks)


def html_to_text(html: str | None) -> str:
    """All the text of an HTML fragment (comments, titles with entities), whitespace folded."""
    if not html:
        return ""
    if "<" not in html and "&" not in html:
        return normalize_prose(html)
    return normalize_prose(BeautifulSoup(html, "lxml").get_text())


def normalize_prose(text: str) -> str:
    lines = (_SPACES.sub(" ", line).strip() for line in text.splitlines())
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


_ESCAPE_SEQ = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]            # CSI ... final byte
    | \x1b\][^\x07\x1b]*(?:\x07|\x1b\\)? # OSC ... BEL or ST
    | \x1b[PX^_][^\x1b]*(?:\x1b\\)?      # DCS / SOS / PM / APC ... ST
    | \x1b.?                             # any other ESC sequence
    | \x9b[0-?]*[ -/]*[@-~]             # 8-bit CSI
    """,
    re.VERBOSE,
)


def terminal_safe(text: str | None, *, keep_newlines: bool = True) -> str:
    """Make untrusted text inert for a terminal: escape sequences and control characters become visible marks.

    ESC becomes the visible ``␛`` followed by the rest of the sequence as plain text; other C0/C1 controls become
    their Unicode control-picture or ``\\xNN``. Tabs and (optionally) newlines survive.
    """
    if not text:
        return ""

    def _mark_sequence(m: re.Match[str]) -> str:
        return "␛" + _controls_visible(m.group(0)[1:])

    return _controls_visible(_ESCAPE_SEQ.sub(_mark_sequence, text), keep_newlines)


def _controls_visible(text: str, keep_newlines: bool = True) -> str:
    out = []
    for ch in text:
        if ch == "\t" or (ch == "\n" and keep_newlines):
            out.append(ch)
        elif ord(ch) < 0x20:
            out.append(chr(0x2400 + ord(ch)))  # control pictures block
        elif ch == "\x7f":
            out.append("␡")
        elif 0x80 <= ord(ch) < 0xA0 or unicodedata.category(ch) in ("Cf",) and ch not in "\u200d\u200c":
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)
