"""The keyword matcher on plain text: the study's 24 keywords, tokenising, stemming modes, keyword files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from core.errors import PPMinerError
from mining.match.keywords import KeywordFile, match_mode, parse_keywords, read_keywords
from mining.match.matcher import Matcher
from mining.match.tokenize import BREAK, STEMMER_MODES, CachedStemmer, token_spans, tokens

PROJECT = Path(__file__).resolve().parent.parent
STUDY_KEYWORDS = PROJECT / "data" / "keywords.txt"


@pytest.fixture(scope="module")
def study() -> Matcher:
    return Matcher(read_keywords(STUDY_KEYWORDS))


def test_study_file_is_the_published_set(published):
    ours = read_keywords(STUDY_KEYWORDS)
    theirs = read_keywords(published / "keywords_set.txt")
    assert ours.keywords == theirs.keywords
    assert ours.content_hash == theirs.content_hash  # comments do not change the version
    assert (len(ours.one_grams), len(ours.two_grams)) == (11, 13)


# One sentence per keyword, as a user would write it. Each must hit exactly that keyword.
SENTENCES = {
    "hangs": "My training hangs forever after the first epoch.",
    "slowli": "The model trains slowly on my laptop.",
    "slower": "Inference is slower on the GPU than on the CPU.",
    "slowest": "Which layer is the slowest part of the network?",
    "faster": "How can I make model.fit faster?",
    "fastest": "What is the fastest way to load images?",
    "speed": "How do I speed up data loading?",
    "oom": "I get an OOM error when allocating a tensor.",
    "throughput": "The throughput of my input pipeline is low.",
    "effici": "Is there an efficient way to compute pairwise distances?",
    "overhead": "There is a lot of overhead when calling predict in a loop.",
    "gpu util": "GPU utilization stays at 0% during training.",
    "extrem slow": "Training is extremely slow with a batch size of 1.",
    "take longer": "Each epoch takes longer than the previous one.",
    "run slow": "My Keras model runs slow on Colab.",
    "very slow": "Prediction is very slow.",
    "cpu ram": "The script eats all my CPU RAM.",
    "gpu ram": "How much GPU RAM does this model need?",
    "memori leak": "There seems to be a memory leak in my training loop.",
    "cpu time": "Most of the CPU time is spent in data augmentation.",
    "per second": "I only get 10 images per second.",
    # Quirk: "slowi" is the stem of "slowy" (a misspelling of "slowly"; "slowly" stems to "slowli").
    "slowi tri": "The network learns slowy tried every optimizer.",
    "take long": "Why does it take long to load the saved model?",
    "perform issu": "I have a performance issue with tf.data.",
}


def test_every_keyword_has_a_sentence(study):
    assert set(SENTENCES) == set(study.keywords)


@pytest.mark.parametrize("keyword", list(SENTENCES))
def test_keyword_matches_ordinary_english(study, keyword):
    assert study.count(SENTENCES[keyword]) == {keyword: 1}


def test_near_miss_is_no_match(study):
    assert study.count("I run the model and it is slow") == {}
    assert study.count("It takes a long time; the speedometer broke; it was hung") == {}


def test_inflections(study):
    text = "It hanged, it is hanging, speeds, speeding, takes longer, taking longer, memory leaks, leaking memory"
    assert study.count(text) == {"hangs": 2, "speed": 2, "take longer": 2, "memori leak": 1}
    assert study.count("efficiency and efficiently and inefficient") == {
        "effici": 2
    }  # "ineffici" is another stem


def test_case_and_punctuation(study):
    assert study.count("VERY SLOW!!! (Very, slow) very-slow") == {"very slow": 2}
    assert study.count("Out of memory: OOM; oom. 'oom'") == {"oom": 3}
    assert study.count("It is very. Slow") == {}  # a full stop separates the two words


def test_two_gram_across_a_line_break(study):
    assert study.count("the loop is extremely\nslow") == {"extrem slow": 1}
    assert study.count("the loop is extremely\n\nslow") == {}  # a blank line ends the paragraph


def test_non_ascii_text(study):
    text = "Naïve training in Zürich is very slow — 🚀 GPU utilisation? 非常に遅い GPU utilization"
    assert study.count(text) == {"very slow": 1, "gpu util": 1}
    hits = study.hits(text)
    assert [text[h.start : h.end] for h in hits] == ["very slow", "GPU utilization"]


def test_empty_bodies(study):
    assert study.count(None) == {} and study.count("") == {} and study.count("  \n ") == {}
    assert study.hits(None) == []


def test_underscores_split_words(study):
    assert study.count("print(images_per_second)") == {"per second": 1}


def test_hits_agree_with_counts(study, fixtures):
    text = (fixtures / "labelled_reports" / "keras.csv").read_text(encoding="utf-8")
    counts = study.count(text)
    assert len(counts) >= 10  # real Keras issue reports, many about slow training and memory
    assert Counter(h.keyword for h in study.hits(text)) == Counter(counts)


def test_tokens_and_spans_agree():
    text = "İstanbul's GPU-util: x_y\n\nz"
    assert [t for t, _, _ in token_spans(text)] == tokens(text)
    assert BREAK in tokens(text)


def test_stemmer_is_cached_and_modes_differ():
    nltk, original = CachedStemmer("nltk_extensions"), CachedStemmer("original")
    assert nltk.stem("trying") == "tri" and original.stem("trying") == "try"
    nltk.stem("trying")
    assert len(nltk) == 1
    with pytest.raises(PPMinerError, match="unknown stemmer mode"):
        CachedStemmer("snowball")


def test_literal_reading_is_the_published_procedure_to_the_letter():
    literal = Matcher(read_keywords(STUDY_KEYWORDS), reading="literal")
    # "hangs" and "very" are not stems (hangs -> hang, very -> veri): read literally they can never match.
    assert literal.count(SENTENCES["hangs"]) == {}
    assert literal.count(SENTENCES["very slow"]) == {}
    assert literal.count(SENTENCES["extrem slow"]) == {"extrem slow": 1}
    assert literal.mode != Matcher(read_keywords(STUDY_KEYWORDS)).mode


def test_slowy_try_depends_on_the_stemmer_mode():
    kf = KeywordFile(None, ("slowi tri",))
    assert Matcher(kf, "nltk_extensions").count("it runs slowy try this") == {"slowi tri": 1}
    assert Matcher(kf, "original").count("it runs slowy try this") == {}
    assert Matcher(kf, "original").count("it runs slowy tried this") == {"slowi tri": 1}


def test_version_is_content_hash_plus_mode():
    a = KeywordFile(None, parse_keywords("# one\nslow\nvery slow\n"))
    b = KeywordFile(None, parse_keywords("# other comment\n\n  slow\nvery   slow"))
    c = KeywordFile(None, parse_keywords("slow\n"))
    d = KeywordFile(None, parse_keywords("SLOW\nVery Slow\n"))
    assert a.content_hash == b.content_hash != c.content_hash
    assert d.keywords == ("SLOW", "Very Slow") and d.content_hash != a.content_hash  # kept as written
    assert Matcher(d).count("so slow, very SLOW") == {"SLOW": 2, "Very Slow": 1}
    assert match_mode("original", "literal") == "porter:original;kw=literal"
    assert all(
        len(match_mode(s, r)) <= 40
        for s in ("nltk_extensions", "martin_extensions")
        for r in ("stem", "literal")
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("slow\nfar too slow\n", r"kw\.txt:2: 'far too slow' has 3 words"),
        ("# c\nslow\n\nSlow\n", r"kw\.txt:4: 'Slow' repeats line 2"),
        ("gpu-util\n", r"kw\.txt:1: 'gpu-util' is not a single word"),
        ("# nothing\n\n", r"kw\.txt: no keywords"),
    ],
)
def test_malformed_keyword_file(tmp_path, text, message):
    path = tmp_path / "kw.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PPMinerError, match=message):
        read_keywords(path)


def test_keyword_file_not_utf8_or_missing(tmp_path):
    path = tmp_path / "kw.txt"
    path.write_bytes(b"slow\nsl\xffow\n")
    with pytest.raises(PPMinerError, match=r"not UTF-8 at byte offset 7"):
        read_keywords(path)
    with pytest.raises(PPMinerError, match="keyword file not found"):
        read_keywords(tmp_path / "missing.txt")


_SUFFIX_TEXT = """s es ed ing ly er est ness ation ational ization ize izer ful fulness ity ities ence ency ent ently ical
ically ative ism ist ive iveness ment ments able ability ibly ous ously e y ies ied ying ion ional alli"""
SUFFIXES = _SUFFIX_TEXT.split()


@pytest.fixture(scope="module")
def vocabulary(fixtures) -> set[str]:
    """Real words (a Stack Exchange dump, SO questions, Keras issue reports) plus inflections of the keyword words."""
    import html

    sources = [fixtures / "se_dumps" / "ai.stackexchange.com" / "Posts.xml"]
    sources += [fixtures / "so_questions" / "sede_so_2022_questions_QueryResults.csv"]
    sources += [fixtures / "labelled_reports" / "keras.csv"]
    words = set()
    for path in sources:
        words.update(t for t in tokens(html.unescape(path.read_text(encoding="utf-8"))) if t.isalpha())
    base = {w for k in read_keywords(STUDY_KEYWORDS).keywords for w in k.split()}
    base |= {"slow", "long", "fast", "effic"}
    words.update(w + s for w in base for s in SUFFIXES)
    return words


@pytest.mark.parametrize("mode", ["nltk_extensions", "original", "martin_extensions"])
def test_prefix_filter_never_skips_a_word_that_stems_to_a_wanted_stem(vocabulary, mode):
    """The matcher skips stemming words that cannot stem to a keyword word; check that claim on real words, for
    the study's keywords and for 1,500 other stems drawn from the vocabulary."""
    import random
    import re

    from mining.match.matcher import stem_prefixes

    stemmer = CachedStemmer(mode)
    stems = {w: stemmer.stem(w) for w in vocabulary}
    study = Matcher(read_keywords(STUDY_KEYWORDS), mode)
    random_stems = set(random.Random(5).sample(sorted(set(stems.values())), 1500))
    for wanted in (study._wanted, random_stems):
        prefixes = stem_prefixes(wanted)
        may_stem = re.compile("|".join(map(re.escape, sorted(prefixes, key=len, reverse=True)))).match
        missed = [w for w, s in stems.items() if s in wanted and not (may_stem(w) or w in stemmer.irregular)]
        assert missed == []
    assert len(vocabulary) > 10_000
    # and the filter does its job: most words need no stemming for the study's set
    skipped = sum(1 for w in vocabulary if not study._may_stem_to_keyword(w))
    assert skipped > 0.7 * len(vocabulary)


@pytest.mark.parametrize("mode", ["nltk_extensions", "original", "martin_extensions"])
def test_stems_equal_nltk_on_the_fixtures_vocabulary(vocabulary, mode):
    """ppminer loads NLTK's porter module on its own (mining.match.porter); over every word of the real fixtures
    (> 10,000), its stems equal those of PorterStemmer imported the ordinary way, with the whole of NLTK."""
    from nltk.stem.porter import PorterStemmer

    porter = PorterStemmer(getattr(PorterStemmer, STEMMER_MODES[mode]))
    ours = CachedStemmer(mode)
    words = sorted(vocabulary)
    assert len(words) > 10_000
    assert [ours.stem(w) for w in words] == [porter.stem(w) for w in words]
    assert ours.irregular == getattr(porter, "pool", {})


def test_stemming_does_not_import_the_nltk_package(tmp_path):
    """The point of mining.match.porter: a process that stems never runs nltk/__init__ (1.5 s of imports)."""
    import os
    import subprocess
    import sys

    code = (
        "import sys; from mining.match.tokenize import CachedStemmer; "
        "print(CachedStemmer().stem('generously'), sorted(m for m in sys.modules if m.startswith('nltk')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, check=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
    )  # fmt: skip
    assert out.stdout.split(" ", 1) == ["gener", "[]\n"]


# -- the matcher's shortcuts against plain stemming of every word -----------------------------------------------
@pytest.fixture(scope="module")
def real_texts(fixtures) -> list[str]:
    """Titles and prose of the 352 real SO questions and of every post in the ai.stackexchange dump."""
    import csv

    from lxml import etree

    from core.text import split_html

    texts = []
    with (fixtures / "so_questions" / "sede_so_2022_questions_QueryResults.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            texts += [row["Title"], split_html(row["Body"]).prose]
    for _, row in etree.iterparse(
        str(fixtures / "se_dumps" / "ai.stackexchange.com" / "Posts.xml"), tag="row"
    ):
        texts += [row.get("Title") or "", split_html(row.get("Body")).prose]
        row.clear()
    return [t for t in texts if t]


def plain_counter(keywords: tuple[str, ...], stem, reading: str):
    """Keyword counts with every word of a text stemmed, no shortcut: a one-gram is one word whose stem is the
    keyword or its stem; a two-gram two adjacent words (no break token between) of which the same holds."""
    one: dict[str, list[str]] = {}
    two: dict[tuple[str, str], list[str]] = {}
    for keyword in keywords:
        alts = [{w} if reading == "literal" else {w, stem(w)} for w in keyword.lower().split()]
        for a in alts[0]:
            if len(alts) == 1:
                one.setdefault(a, []).append(keyword)
            for b in alts[1] if len(alts) == 2 else ():
                two.setdefault((a, b), []).append(keyword)

    def count(text: str) -> Counter:
        stems = [stem(t) if t else None for t in tokens(text)]
        found = Counter()
        for i, s in enumerate(stems):
            found.update(one.get(s, ()))
            if i and s is not None and stems[i - 1] is not None:
                found.update(two.get((stems[i - 1], s), ()))
        return found

    return count


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["nltk_extensions", "original", "martin_extensions"])
def test_matcher_equals_plain_stemming_on_real_posts(real_texts, mode):
    """Matcher.count and Matcher.hits skip stemming words that (by Porter's rules as NLTK has them) cannot stem to
    a keyword word. Compare both with stemming every word, over ~4,000 real posts (352 SO questions, the
    ai.stackexchange dump): for the study's keywords, every stem that is not the start of its word, NLTK's
    irregular stems, and 900 random one- and two-grams of the same words. An NLTK change that breaks the
    shortcut fails here."""
    import random

    from nltk.stem.porter import PorterStemmer

    porter = PorterStemmer(getattr(PorterStemmer, STEMMER_MODES[mode]))  # NLTK itself, no cache of ours
    cache: dict[str, str] = {}

    def stem(word: str) -> str:
        if word not in cache:
            cache[word] = porter.stem(word)
        return cache[word]

    irregular_forms = " ".join(
        getattr(porter, "pool", {})
    )  # NLTK's table of irregular words, e.g. skies -> sky
    real_texts = [*real_texts, irregular_forms]
    words = sorted({t for text in real_texts for t in tokens(text) if t})
    assert len(words) > 12_000
    rng = random.Random(mode)
    drawn = rng.sample(words, 600) + [
        f"{a} {b}" for a, b in zip(rng.sample(words, 300), rng.sample(words, 300), strict=True)
    ]
    # the stems a word does not start with: only the shortcut's suffix rule (or NLTK's irregular table) finds them
    unlike_their_words = tuple(sorted({stem(w) for w in words if not w.startswith(stem(w))}))
    assert len(unlike_their_words) > 500
    irregular = tuple(sorted({stem(w) for w in getattr(porter, "pool", {})})) or ("sky",)
    sets = [
        (unlike_their_words, "literal"),
        (irregular, "literal"),
        (read_keywords(STUDY_KEYWORDS).keywords, "stem"),
        (tuple(dict.fromkeys(drawn)), "stem"),
        (tuple(dict.fromkeys(drawn)), "literal"),
    ]
    for keywords, reading in sets:
        matcher = Matcher(KeywordFile(None, keywords), mode, reading)
        plain, matched = plain_counter(keywords, stem, reading), 0
        for text in real_texts:
            expected = plain(text)
            assert matcher.count(text) == expected, text[:80]
            assert Counter(h.keyword for h in matcher.hits(text)) == expected, text[:80]
            matched += bool(expected)
        assert matched > 5  # every set does match real text
