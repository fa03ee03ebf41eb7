"""Keyword files: one keyword (a one-gram or two-gram) per line, ``#`` comments, blank lines ignored.

A keyword-set *version* is the SHA-256 of its keywords (comments and blank lines do not count) together with the
matching mode (stemmer mode and how keywords are read). Candidates are stored per version, so a changed file or
mode starts a new candidate set and leaves the old ones in place.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from core.errors import PPMinerError
from mining.match.tokenize import DEFAULT_STEMMER, STEMMER_MODES, WORD_RE

MAX_WORDS = 2
# How a keyword word is compared with a post's stems: "stem" = equal to the word as written or to its own stem
# (so "hangs" matches "hang"); "literal" = equal to the word as written only (the published procedure to the letter).
KEYWORD_READINGS = ("stem", "literal")


@dataclass(frozen=True)
class KeywordFile:
    """The keywords of one file, as written, in file order."""

    path: Path | None
    keywords: tuple[str, ...]

    @property
    def content_hash(self) -> str:
        return hashlib.sha256("\n".join(self.keywords).encode("utf-8")).hexdigest()

    @property
    def one_grams(self) -> list[str]:
        return [k for k in self.keywords if " " not in k]

    @property
    def two_grams(self) -> list[str]:
        return [k for k in self.keywords if " " in k]


def match_mode(stemmer: str = DEFAULT_STEMMER, reading: str = "stem") -> str:
    """The mode half of a version, e.g. ``porter:nltk_extensions;kw=stem`` (fits the 40-char column)."""
    if stemmer not in STEMMER_MODES:
        raise PPMinerError(f"unknown stemmer mode {stemmer!r}; choose from {sorted(STEMMER_MODES)}")
    if reading not in KEYWORD_READINGS:
        raise PPMinerError(f"unknown keyword reading {reading!r}; choose from {list(KEYWORD_READINGS)}")
    return f"porter:{stemmer};kw={reading}"


def parse_mode(mode: str) -> tuple[str, str]:
    """Inverse of :func:`match_mode`: ``(stemmer, reading)``."""
    try:
        stemmer_part, reading_part = mode.split(";", 1)
        stemmer, reading = stemmer_part.removeprefix("porter:"), reading_part.removeprefix("kw=")
    except ValueError:
        raise PPMinerError(f"unrecognised match mode {mode!r}") from None
    match_mode(stemmer, reading)  # validates
    return stemmer, reading


def parse_keywords(text: str, source: str = "<keywords>") -> tuple[str, ...]:
    """Keywords of a keyword file's text; PPMinerError naming ``source:line`` on anything malformed."""
    seen: dict[str, tuple[str, int]] = {}  # lowercased -> (as written, line)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if len(words) > MAX_WORDS:
            raise PPMinerError(f"{source}:{lineno}: {line!r} has {len(words)} words; a keyword has 1 or 2")
        for word in words:
            if WORD_RE.fullmatch(word) is None:
                raise PPMinerError(
                    f"{source}:{lineno}: {word!r} is not a single word of letters or digits "
                    "(punctuation and '_' split words in posts, so it could never match)"
                )
        keyword = " ".join(words)  # as written; matching ignores case
        if keyword.lower() in seen:
            raise PPMinerError(f"{source}:{lineno}: {keyword!r} repeats line {seen[keyword.lower()][1]}")
        seen[keyword.lower()] = (keyword, lineno)
    if not seen:
        raise PPMinerError(f"{source}: no keywords (only comments or blank lines)")
    return tuple(keyword for keyword, _ in seen.values())


def read_keywords(path: str | Path) -> KeywordFile:
    """Read a keyword file (UTF-8)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PPMinerError(f"keyword file not found: {path}") from None
    except OSError as exc:
        raise PPMinerError(f"cannot read keyword file {path}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PPMinerError(f"{path}: not UTF-8 at byte offset {exc.start}") from None
    return KeywordFile(path, parse_keywords(text, str(path)))
