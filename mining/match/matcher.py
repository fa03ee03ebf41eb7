"""Matching a keyword set against text: a one-gram matches one word's stem, a two-gram the stems of two adjacent words.

Speed: each distinct word is stemmed once per matcher, and a text none of whose words stems to a keyword word is
rejected with set operations alone (C speed), so the Python loop runs only over the few texts that may match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from core.errors import PPMinerError
from mining.match.keywords import KeywordFile, match_mode, parse_mode
from mining.match.tokenize import DEFAULT_STEMMER, CachedStemmer, token_spans, tokens

# Every rule of Porter's algorithm (in all three NLTK modes) rewrites only the end of a word, so the stem of a word w
# is w[:j] + x, x being empty or a prefix of one of these replacement strings (later rules only cut inside x).
# NLTK's table of irregular forms (e.g. dying -> die) is the one exception; those words are always stemmed.
PORTER_REPLACEMENTS = (
    "ss", "i", "ie", "ee", "e", "ate", "ble", "ize", "able", "tion", "ence", "ance",
    "al", "ent", "ous", "ive", "ful", "log", "less", "ic", "l",
)  # fmt: skip
_APPENDED = {r[:k] for r in PORTER_REPLACEMENTS for k in range(len(r) + 1)}


def stem_prefixes(stems: Iterable[str]) -> set[str]:
    """Prefixes, one of which starts every word whose Porter stem is in ``stems`` (``''``: any word may)."""
    return {stem[: len(stem) - len(x)] for stem in stems for x in _APPENDED if stem.endswith(x)}


@dataclass(frozen=True)
class Hit:
    """One occurrence of a keyword: characters ``start:end`` of the text."""

    keyword: str
    start: int
    end: int


class Matcher:
    """A keyword set compiled for one stemmer mode and keyword reading (see :mod:`mining.match.keywords`)."""

    def __init__(self, keywords: KeywordFile, stemmer: str = DEFAULT_STEMMER, reading: str = "stem") -> None:
        self.mode = match_mode(stemmer, reading)
        self.keyword_file = keywords
        self.stemmer = CachedStemmer(stemmer)
        self._unigrams: dict[str, list[str]] = {}
        self._bigrams: dict[tuple[str, str], list[str]] = {}
        for keyword in keywords.keywords:
            alternatives = [self._accepted_stems(word.lower(), reading) for word in keyword.split()]
            if len(alternatives) == 1:
                for stem in alternatives[0]:
                    self._unigrams.setdefault(stem, []).append(keyword)
            else:
                for first in alternatives[0]:
                    for second in alternatives[1]:
                        self._bigrams.setdefault((first, second), []).append(keyword)
        self._wanted = set(self._unigrams) | {s for pair in self._bigrams for s in pair}
        self._followers: dict[str, set[str]] = {}  # first stem of a two-gram -> its possible second stems
        for first, second in self._bigrams:
            self._followers.setdefault(first, set()).add(second)
        # Porter only rewrites alphabetic suffixes, so a word with a digit keeps it in its stem: when no keyword
        # word has a digit, such words (numbers, versions, ids) cannot match and are not stemmed at all.
        self._alpha_only = all(s.isalpha() for s in self._wanted)
        # Only a word starting with one of these prefixes can stem to a keyword word: the others (most new words)
        # are never stemmed. Longest first, so the regex tries specific prefixes before short ones.
        prefixes = sorted(stem_prefixes(self._wanted), key=len, reverse=True)
        self._may_stem_to_keyword = re.compile("|".join(map(re.escape, prefixes))).match
        self._seen: set[str] = set()  # every token classified so far
        self._relevant: dict[str, str] = {}  # token -> its stem, for tokens whose stem is a keyword word
        self._relevant_set: set[str] = set()

    def _accepted_stems(self, word: str, reading: str) -> set[str]:
        return {word} if reading == "literal" else {word, self.stemmer.stem(word)}

    def _learn(self, new_tokens: Iterable[str]) -> None:
        alpha_only, may_stem, irregular = self._alpha_only, self._may_stem_to_keyword, self.stemmer.irregular
        for token in new_tokens:
            if (alpha_only and not token.isalpha()) or (not may_stem(token) and token not in irregular):
                continue
            stem = self.stemmer.stem(token)
            if stem in self._wanted:
                self._relevant[token] = stem
                self._relevant_set.add(token)
        self._seen.update(new_tokens)

    @property
    def keywords(self) -> tuple[str, ...]:
        return self.keyword_file.keywords

    # -- counting (the fast path) -----------------------------------------------------------------------------
    def count(self, text: str | None) -> dict[str, int]:
        """keyword -> number of occurrences in ``text`` (only keywords that occur)."""
        toks = tokens(text)
        if not toks:
            return {}
        distinct = set(toks)
        new = distinct - self._seen
        if new:
            self._learn(new)
        present = distinct & self._relevant_set
        if not present or not self._may_match({self._relevant[t] for t in present}):
            return {}
        return self._count_present(toks, present)

    def _count_present(self, toks: list[str], present: set[str]) -> dict[str, int]:
        """Count keywords, visiting only the positions of ``present`` tokens (list.count/index run in C)."""
        relevant, unigrams, bigrams, followers = (
            self._relevant,
            self._unigrams,
            self._bigrams,
            self._followers,
        )
        counts: dict[str, int] = {}
        last = len(toks) - 1
        for token in present:
            stem = relevant[token]
            for keyword in unigrams.get(stem, ()):
                counts[keyword] = counts.get(keyword, 0) + toks.count(token)
            if stem not in followers:
                continue
            i = -1
            while True:
                try:
                    i = toks.index(token, i + 1)
                except ValueError:
                    break
                if i < last:
                    second = relevant.get(toks[i + 1])
                    if second is not None:
                        for keyword in bigrams.get((stem, second), ()):
                            counts[keyword] = counts.get(keyword, 0) + 1
        return counts

    def _may_match(self, stems: set[str]) -> bool:
        """Whether a text with these keyword-word stems can hold a keyword (a two-gram needs both its stems)."""
        if not stems.isdisjoint(self._unigrams):
            return True
        followers = self._followers
        return any(not stems.isdisjoint(followers[s]) for s in stems if s in followers)

    def count_fields(self, texts: Mapping[str, Iterable[str | None]]) -> dict[tuple[str, str], int]:
        """(keyword, field) -> count over field -> texts; texts of a field are matched one by one."""
        out: dict[tuple[str, str], int] = {}
        for field, field_texts in texts.items():
            for text in field_texts:
                for keyword, n in self.count(text).items():
                    out[keyword, field] = out.get((keyword, field), 0) + n
        return out

    # -- hits with positions (for explain) --------------------------------------------------------------------
    def hits(self, text: str | None) -> list[Hit]:
        """Every keyword occurrence with its character span, in text order."""
        spans = list(token_spans(text))
        self._learn({t for t, _, _ in spans} - self._seen)
        return [Hit(k, start, end) for k, start, end in self._scan(spans)]

    def _scan(self, spans: Iterable[tuple[str, int, int]]):
        """Yield (keyword, start, end) over (token, start, end); the one loop both paths share."""
        relevant, unigrams, bigrams = self._relevant, self._unigrams, self._bigrams
        prev_stem, prev_start = None, 0
        for token, start, end in spans:
            stem = relevant.get(token)
            if stem is None:
                prev_stem = None
                continue
            for keyword in unigrams.get(stem, ()):
                yield keyword, start, end
            if prev_stem is not None:
                for keyword in bigrams.get((prev_stem, stem), ()):
                    yield keyword, prev_start, end
            prev_stem, prev_start = stem, start


@lru_cache(maxsize=16)
def keyword_matcher(keywords: tuple[str, ...], mode: str = "") -> Matcher:
    """The matcher of a stored keyword-set version (``mode`` as stored, e.g. ``porter:nltk_extensions;kw=stem``),
    for marking and finding what that version matched; a mode this ppminer does not write reads the default way."""
    try:
        stemmer, reading = parse_mode(mode)
    except PPMinerError:
        stemmer, reading = DEFAULT_STEMMER, "stem"
    return Matcher(KeywordFile(None, keywords), stemmer, reading)
