"""HTML bodies -> prose and code blocks; untrusted text made inert for terminals."""

import re

from core.text import SplitBody, html_to_text, normalize_prose, split_html, terminal_safe


def test_split_html_separates_code_blocks_and_keeps_inline_code():
    html = (
        "<p>My <code>model.fit</code> call is <em>very slow</em>.</p>\n"
        "<pre><code>for x in data:\n    model.predict(x)\n</code></pre>\n"
        "<ul><li>TF 2.3</li><li>GPU &amp; CUDA 10</li></ul>"
        "<pre class='lang-py'><code>import tensorflow as tf</code></pre>"
    )
    split = split_html(html)
    assert split.code_blocks == ["for x in data:\n    model.predict(x)\n", "import tensorflow as tf"]
    assert split.has_code
    assert split.prose == "My model.fit call is very slow.\n\nTF 2.3\n\nGPU & CUDA 10"
    assert "predict" not in split.prose


def test_split_html_empty_and_plain():
    assert split_html(None).prose == "" and split_html("").code_blocks == []
    assert not split_html("<p>no code here</p>").has_code


def test_html_to_text_decodes_entities():
    assert html_to_text("use <code>tf.data</code> &amp; prefetch &lt;3") == "use tf.data & prefetch <3"
    assert html_to_text("plain text") == "plain text"


def test_terminal_safe_neutralises_escape_sequences_and_controls():
    hostile = "ok\x1b[2J\x1b]0;pwned\x07 red\x1b[31m!\x9b1m\rbell\x07 \u202egnp.exe\ttab\nline"
    safe = terminal_safe(hostile)
    assert "\x1b" not in safe and "\x07" not in safe and "\r" not in safe and "\x9b" not in safe
    assert "\u202e" not in safe
    assert safe.startswith("ok␛[2J␛]0;pwned␇ red␛[31m!")
    assert "\ttab\nline" in safe
    assert "\n" not in terminal_safe("a\nb", keep_newlines=False)
    assert terminal_safe("naïve 日本語 emoji 🚀") == "naïve 日本語 emoji 🚀"


def test_split_html_keeps_control_characters_for_later_neutralising():
    split = split_html("<p>red\x1b[31m text\x07</p><pre>a\x0cb\x00</pre>")
    assert split.prose == "red\x1b[31m text\x07"
    assert split.code_blocks == ["a\x0cb\x00"]
    assert terminal_safe(split.prose) == "red␛[31m text␇"


def test_split_html_survives_noncharacters_and_lone_surrogates():
    split = split_html("<p>a\ud800b \uffff c\x07 kept\ue007</p><pre>x\ufffey\ue000</pre>")
    assert (
        split.prose == "a\ufffdb \uffff c\x07 kept\ue007"
    )  # genuine private-use characters stay as they are
    assert split.code_blocks == ["x\ufffey\ue000"]
    assert html_to_text("<i>a\udfffb</i>") == "a\ufffdb"


# -- the fast prose normalisation against the plain line-by-line one ----------------------------------------------
def line_by_line_normalize(text: str) -> str:
    """The plain reading of normalize_prose: each line's space runs folded and the line stripped, blank runs cut."""
    lines = (re.sub(r"[ \t\f\v\xa0]+", " ", line).strip() for line in text.splitlines())
    return re.sub(r"\n\s*\n+", "\n\n", "\n".join(lines)).strip()


def test_normalize_prose_equals_line_by_line_on_every_whitespace():
    """normalize_prose works on the whole text with str methods; every Unicode line break and space, mixed."""
    import random

    spaces = [chr(c) for c in range(0x110000) if chr(c).isspace()]
    assert len(spaces) > 25
    alphabet = [*spaces, "a", "b", " ", "\r\n", "\xa0\t"]
    rng = random.Random(19)
    for _ in range(50_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert normalize_prose(text) == line_by_line_normalize(text), repr(text)


def real_bodies(fixtures) -> list[str]:
    """Every post body and comment of the ai.stackexchange dump and every SO question of the fixtures."""
    import csv

    from lxml import etree

    bodies = []
    for name in ("Posts.xml", "Comments.xml"):
        path = fixtures / "se_dumps" / "ai.stackexchange.com" / name
        for _, row in etree.iterparse(str(path), tag="row"):
            bodies.append(row.get("Body") or row.get("Text") or "")
            row.clear()
    with (fixtures / "so_questions" / "sede_so_2022_questions_QueryResults.csv").open(encoding="utf-8") as f:
        bodies += [row["Body"] for row in csv.DictReader(f)]
    return bodies


def test_split_html_unchanged_on_every_real_post(fixtures, monkeypatch):
    """The prose/code split of every real post equals the split with the line-by-line normalisation."""
    import core.text

    bodies = real_bodies(fixtures)
    assert len(bodies) > 3_500
    fast = [split_html(body) for body in bodies]
    monkeypatch.setattr(core.text, "normalize_prose", line_by_line_normalize)
    assert [split_html(body) for body in bodies] == fast
    assert sum(bool(s.code_blocks) for s in fast) > 300
    assert sum(bool(s.prose) for s in fast) > 3_000


def test_the_fast_xml_unsafe_check_equals_the_character_class():
    """has_xml_unsafe scans bytes; the plain definition is the regex over every character libxml2 refuses."""
    import random

    from core.text import _XML_UNSAFE, _XML_UNSAFE_CODES, has_xml_unsafe

    alphabet = [chr(c) for c in (*range(0x20), 0x7F, 0x85, 0xFFFD, 0xFFFE, 0xFFFF, 0xD800, 0x1F600)] + [
        "a",
        "é",
    ]
    rng = random.Random(19)
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))) for _ in range(20_000)]
    texts += [f"x{chr(c)}y" for c in _XML_UNSAFE_CODES]
    assert [has_xml_unsafe(t) for t in texts] == [_XML_UNSAFE.search(t) is not None for t in texts]
    assert sum(map(has_xml_unsafe, texts)) > 5_000


# -- the one-walk split against the plain three-walk reading ------------------------------------------------------
def three_walk_split(html: str) -> tuple[str, list[str]]:
    """The plain reading of split_html: take out the outermost pres (keeping their tails), then put line breaks
    around every block element, then drop the own text of scripts, styles and templates; normalise the text."""
    from lxml import etree

    import core.text as text

    html = text.replace_surrogates(html)
    if text.has_xml_unsafe(html):
        to_stand_in = text._stand_ins(html)
        back = {v: k for k, v in to_stand_in.items()}
        prose, code = three_walk_split(html.translate(to_stand_in))
        return prose.translate(back), [c.translate(back) for c in code]
    root = etree.fromstring(html, etree.HTMLParser(remove_comments=True, remove_pis=True))
    if root is None:
        return "", []
    code = []
    for pre in list(root.iter("pre")):
        if any(a.tag == "pre" for a in pre.iterancestors()):
            continue
        code.append("".join(pre.itertext()))
        parent, prev = pre.getparent(), pre.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + (pre.tail or "")
        else:
            parent.text = (parent.text or "") + (pre.tail or "")
        parent.remove(pre)
    for el in root.iter(*text._BLOCK_TAGS):
        el.text = "\n" + (el.text or "")
        el.tail = "\n" + (el.tail or "")
    for el in root.iter(*text._NOT_TEXT):
        el.text = None
    return line_by_line_normalize(etree.tostring(root, method="text", encoding="unicode")), code


TRICKY_HTML = [
    "<pre>a<pre>b</pre>c</pre>d",  # a nested pre is part of the outer block
    "<div><pre>1</pre>tail<pre>2</pre>t2</div>",  # tails of removed pres stay
    "<pre><p>a</p><br>b<script>c</script></pre>t<p>u</p>",  # blocks and scripts inside code are code
    "<p>a<pre>b<div>c</div></pre>d</p>e",
    "<template>a<pre>x</pre>b<pre>y</pre>c<p>d</p>e</template>",  # a pre's tail joins the template's own text
    "<template><pre>x</pre>t<p>y</p></template>",
    "<div><template><br>x</template>y</div>",
    "<p>x<script>s<p>q</p></script>t</p>",
    "<style>x</style>y<template>t<b>u</b>v</template>",
    "<ul><li>a<pre>c</pre>b</li></ul><blockquote><pre>q</pre></blockquote>z",
    "<PRE>X</PRE>y<svg:pre>z</svg:pre>",
    "<table><tr><td>1</td><td>2</td></tr></table>a<br>b<hr>c",
    "<p>  a  \xa0 b\t c    d</p>\n\n\n<p>e</p>",
    "<pre>",
    "</pre>x",
    "<![CDATA[x]]>y<!-- c --><?pi x?>",
]


def test_split_html_equals_the_three_walk_reading_on_real_and_tricky_posts(fixtures):
    """split_html walks the tree once; on every real body and on nested, scripted and template cases it gives
    exactly what the plain reading (one walk per job, in the order the jobs must happen) gives."""
    bodies = [b for b in real_bodies(fixtures) if b] + TRICKY_HTML
    got = [split_html(body) for body in bodies]
    assert [(s.prose, s.code_blocks) for s in got] == [three_walk_split(body) for body in bodies]
    # the tricky cases do reach the orders that matter: a kept tail, a dropped one, code with blocks inside
    assert split_html(TRICKY_HTML[1]) == SplitBody("tailt2", ["1", "2"])
    assert split_html(TRICKY_HTML[4]) == SplitBody("d\ne", ["x", "y"])
    assert split_html(TRICKY_HTML[2]) == SplitBody("t\nu", ["abc"])


def test_text_read_by_an_xml_parser_skips_the_stand_ins_safely(fixtures):
    """split_html(from_xml=True) skips the scans for lone surrogates and characters libxml2 refuses: a dump's XML
    parser refuses every one of them, raw or as a character reference, so its text never holds one; and every real
    body splits the same either way."""
    import pytest
    from lxml import etree

    from core.text import _XML_UNSAFE_CODES

    for code in (*_XML_UNSAFE_CODES, 0xD800, 0xDBFF, 0xDC00, 0xDFFF):
        for char in (chr(code), f"&#x{code:X};", f"&#{code};"):
            parser = etree.XMLPullParser(events=("end",), tag="row")
            with pytest.raises(etree.XMLSyntaxError):
                parser.feed(f'<posts>\n<row Body="a{char}b" />\n</posts>\n'.encode("utf-8", "surrogatepass"))
                parser.close()
    bodies = [b for b in real_bodies(fixtures) if b]
    assert [split_html(b, from_xml=True) for b in bodies] == [split_html(b) for b in bodies]
