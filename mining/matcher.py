"""Matching a keyword set against text: a one-gram matches one word's stem, a two-gram the stems of two adjacent words.

Speed: each distinct word is stemmed once per matcher, and a text none of whose words stems to a keyword word is
rejected with set operations alone (C speed), so the Python loop runs only over the few texts that may match.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mining.keywords import KeywordFile, match_mode
from mining.tokenize import DEFAULT_STEMMER, CachedStemmer, token_spans, tokens


@dataclass(frozen=True)
class Hit:
    """One occurrence of a keyword: characters ``start:end`` of the text."""

    keyword: str
    start: int
    end: int


class Matcher:
    """A keyword set compiled for one stemmer mode and keyword reading (see :mod:`mining.keywords`)."""

    def __init__(self, keywords: KeywordFile, stemmer: str = DEFAULT_STEMMER, reading: str = "stem") -> None:
        self.mode = match_mode(stemmer, reading)
        self.keyword_file = keywords
        self.stemmer = CachedStemmer(stemmer)
        self._unigrams: dict[str, list[str]] = {}
        self._bigrams: dict[tuple[str, str], list[str]] = {}
        for keyword in keywords.keywords:
            alternatives = [self._accepted_stems(word, reading) for word in keyword.split()]
            if len(alternatives) == 1:
                for stem in alternatives[0]:
                    self._unigrams.setdefault(stem, []).append(keyword)
            else:
                for first in alternatives[0]:
                    for second in alternatives[1]:
                        self._bigrams.setdefault((first, second), []).append(keyword)
        self._wanted = set(self._unigrams) | {s for pair in self._bigrams for s in pair}
        self._seen: set[str] = set()  # every token classified so far
        self._relevant: dict[str, str] = {}  # token -> its stem, for tokens whose stem is a keyword word
        self._relevant_set: set[str] = set()

    def _accepted_stems(self, word: str, reading: str) -> set[str]:
        return {word} if reading == "literal" else {word, self.stemmer.stem(word)}

    def _learn(self, new_tokens: Iterable[str]) -> None:
        for token in new_tokens:
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
        if distinct.isdisjoint(self._relevant_set):
            return {}
        counts: dict[str, int] = {}
        for keyword, _, _ in self._scan((t, 0, 0) for t in toks):
            counts[keyword] = counts.get(keyword, 0) + 1
        return counts

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
