"""Words of post text and their Porter stems (NLTK's PorterStemmer: pure Python, needs no NLTK data download;
loaded by :mod:`mining.match.porter` without the rest of NLTK).

A *token* is a run of letters or digits (any script; ``_`` separates, so ``gpu_util`` is two words). Every other
symbol except the joiners ``- / ' ’`` is a *break* token, and so is a blank line: a break sits between two words
and keeps them from counting as adjacent for a two-gram ("slow. Very" is not "slow very"), while a plain space,
a line break or a hyphen does not ("GPU-utilization" gives the adjacent words "gpu", "utilization").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property

from core.errors import PPMinerError

# Group 1 is a word; anything else matched is a break.
TOKEN_RE = re.compile(r"([^\W_]+)|\n[^\S\n]*\n|[^\w\s\-/'’]")
WORD_RE = re.compile(r"[^\W_]+")

STEMMER_MODES = {
    "nltk_extensions": "NLTK_EXTENSIONS",
    "original": "ORIGINAL_ALGORITHM",
    "martin_extensions": "MARTIN_EXTENSIONS",
}
DEFAULT_STEMMER = "nltk_extensions"
BREAK = ""  # what a break token becomes in a token list


def tokens(text: str | None) -> list[str]:
    """Lowercased words of ``text`` in order, with ``BREAK`` ('') where punctuation or a blank line separates."""
    if not text:
        return []
    if text.isascii():
        return TOKEN_RE.findall(text.lower())
    # Lowercasing can change the length or letters of some non-ASCII text; lowercase each word instead, so
    # matching sees exactly the words `token_spans` shows.
    return [t.lower() for t in TOKEN_RE.findall(text)]


def token_spans(text: str | None) -> Iterator[tuple[str, int, int]]:
    """(lowercased token or BREAK, start, end) over ``text``: the same sequence as :func:`tokens`."""
    for m in TOKEN_RE.finditer(text or ""):
        word = m.group(1)
        yield (word.lower() if word else BREAK), m.start(), m.end()


class CachedStemmer:
    """NLTK's PorterStemmer in one of its modes, each distinct word stemmed once."""

    def __init__(self, mode: str = DEFAULT_STEMMER) -> None:
        if mode not in STEMMER_MODES:
            raise PPMinerError(f"unknown stemmer mode {mode!r}; choose from {sorted(STEMMER_MODES)}")
        self.mode = mode
        self._cache: dict[str, str] = {}

    @cached_property
    def _porter(self):
        from mining.match.porter import porter_stemmer_class

        PorterStemmer = porter_stemmer_class()
        return PorterStemmer(getattr(PorterStemmer, STEMMER_MODES[self.mode]))

    @property
    def irregular(self) -> dict[str, str]:
        """NLTK's table of irregular forms (word -> stem), used in nltk_extensions mode only."""
        return getattr(self._porter, "pool", {})

    @property
    def name(self) -> str:
        """e.g. ``porter:nltk_extensions``."""
        return f"porter:{self.mode}"

    def stem(self, word: str) -> str:
        stem = self._cache.get(word)
        if stem is None:
            stem = self._cache[word] = self._porter.stem(word) if word else word
        return stem

    def __len__(self) -> int:
        return len(self._cache)
