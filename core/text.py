"""Post HTML -> plain prose and code blocks; making untrusted text safe to show in a terminal.

A *code block* is the text of a ``<pre>`` element (Stack Exchange renders fenced and indented code that way).
Inline ``<code>`` stays in the prose: it is part of the sentence ("calling `fit` is slow").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from lxml import etree

_BLOCK_TAGS = frozenset(
    ("p", "li", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "br", "hr", "div", "table")
)
_NOT_TEXT = frozenset(("script", "style", "template"))  # as BeautifulSoup's get_text: not prose
_SPLIT_TAGS = ("pre", *_BLOCK_TAGS, *_NOT_TEXT)
# libxml2's HTML parser (the one BeautifulSoup's "lxml" builder uses), driven directly: ~7x faster per post.
# (Lexbor, through selectolax 1.0.2 or resiliparse, parsed the dump's bodies 2.2x slower than this, 2026-11.)
_HTML_PARSER = etree.HTMLParser(remove_comments=True, remove_pis=True)
# libxml2 refuses C0 controls other than tab/newline/CR and the noncharacters U+FFFE/U+FFFF: they travel through
# the parser as private-use stand-ins, from a block the text itself does not use (so nothing else is turned back).
_XML_UNSAFE_CODES = (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0xFFFE, 0xFFFF)
_XML_UNSAFE = re.compile("[" + "".join(re.escape(chr(c)) for c in _XML_UNSAFE_CODES) + "]")
_XML_UNSAFE_BYTES = bytes(c for c in _XML_UNSAFE_CODES if c < 0x80)
_XML_UNSAFE_UTF8 = tuple(chr(c).encode() for c in _XML_UNSAFE_CODES if c >= 0x80)
_STAND_IN_BASES = (0xE000, 0xF0000, 0x100000, 0xE100, 0xF0100, 0x100100)
# Lone surrogates cannot be encoded as UTF-8, so no database can store them: they become U+FFFD everywhere.
_SURROGATE = re.compile("[\ud800-\udfff]")
_BLANK_LINES = re.compile(r"\n\s*\n+")
_SPACE_RUN = re.compile(r" [ \t\xa0]+|[\t\xa0][ \t\xa0]*")  # becomes one space (\f, \v break lines)


@dataclass(frozen=True)
class SplitBody:
    prose: str
    code_blocks: list[str]

    @property
    def has_code(self) -> bool:
        return bool(self.code_blocks)


def split_html(html: str | None, from_xml: bool = False) -> SplitBody:
    """Separate a post body into prose (code blocks removed) and the list of its code blocks.

    Only outermost ``<pre>`` elements count (a nested one is part of its parent's block). Block elements
    become line breaks; comments, scripts and styles are not prose. ``from_xml``: ``html`` was read by an XML
    parser (a dump's Body), which refuses lone surrogates and every character libxml2 refuses, so there is nothing
    to stand in for or replace and the two scans that look are skipped.
    """
    if not html:
        return SplitBody("", [])
    if not from_xml:
        html = replace_surrogates(html)
        if has_xml_unsafe(html):
            to_stand_in = _stand_ins(html)
            back = {v: k for k, v in to_stand_in.items()}
            split = split_html(html.translate(to_stand_in))
            return SplitBody(split.prose.translate(back), [c.translate(back) for c in split.code_blocks])
    root = etree.fromstring(html, _HTML_PARSER)
    if root is None:  # nothing but whitespace or comments
        return SplitBody("", [])
    # One walk in document order: a <pre> is met before anything inside it, so its code is taken before the walk
    # marks block elements inside it; pres are removed and scripts' text dropped after the walk (as the removal
    # leaves a pre's tail in its parent's text, and a script's own text must go after that).
    code_blocks, pres, quiet = [], [], []
    for el in root.iter(_SPLIT_TAGS):
        tag = el.tag
        if tag == "pre":
            if next(el.iterancestors("pre"), None) is None:  # a nested pre is part of its parent's block
                code_blocks.append("".join(el.itertext()))
                pres.append(el)
        elif tag in _NOT_TEXT:
            quiet.append(el)
        else:  # a block: line breaks around it (each of .text/.tail read once: lxml decodes it on every read)
            text, tail = el.text, el.tail
            el.text = "\n" + text if text else "\n"
            el.tail = "\n" + tail if tail else "\n"
    for pre in pres:
        _drop_keeping_tail(pre)
    for el in quiet:
        el.text = None
    # libxml2 concatenates the text in C.
    return SplitBody(normalize_prose(etree.tostring(root, method="text", encoding="unicode")), code_blocks)


def has_xml_unsafe(text: str) -> bool:
    """Whether ``text`` holds a character libxml2 refuses (as ``_XML_UNSAFE.search``, but ~20x faster: the
    UTF-8 bytes are scanned in C by bytes.translate instead of a character class tried at every position)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data.translate(None, _XML_UNSAFE_BYTES)) != len(data):
        return True
    return not text.isascii() and any(u in data for u in _XML_UNSAFE_UTF8)


def replace_surrogates(text: str) -> str:
    """Lone surrogates (from broken JSON escapes) -> U+FFFD: they cannot be encoded, parsed or stored."""
    if text.isascii():  # most text; isascii runs in C without scanning a character class
        return text
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def _stand_ins(text: str) -> dict[int, int]:
    """code point -> private-use stand-in, from the first block of stand-ins that ``text`` does not contain."""
    used = {ord(ch) for ch in text if ord(ch) >= 0xE000}
    for base in _STAND_IN_BASES:
        mapping = {c: base + i for i, c in enumerate(_XML_UNSAFE_CODES)}
        if used.isdisjoint(mapping.values()):
            return mapping
    raise ValueError("text uses every private-use block ppminer could stand XML-unsafe characters in")


def _drop_keeping_tail(el) -> None:
    """Remove an element and its content, but not the text that follows it."""
    parent = el.getparent()
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def html_to_text(html: str | None) -> str:
    """All the text of an HTML fragment (comments, titles with entities), whitespace folded."""
    if not html:
        return ""
    html = replace_surrogates(html)
    if "<" not in html and "&" not in html:
        return normalize_prose(html)
    from bs4 import BeautifulSoup  # 0.2 s of imports: only where a fragment needs it

    return normalize_prose(BeautifulSoup(html, "lxml").get_text())


def normalize_prose(text: str) -> str:
    """Lines stripped and their runs of spaces folded to one; runs of blank lines become one blank line."""
    # str methods (C) first: a regex costs per position it tries, so it runs only where it has work to do.
    text = "\n".join([line.strip() for line in text.splitlines()])
    if "\t" in text or (not text.isascii() and "\xa0" in text):  # (isascii reads a flag: no scan)
        text = _SPACE_RUN.sub(" ", text)
    else:  # runs of plain spaces only: halving them in C beats the regex
        while "  " in text:
            text = text.replace("  ", " ")
    return _BLANK_LINES.sub("\n\n", text).strip()


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
