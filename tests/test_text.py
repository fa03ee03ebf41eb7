"""HTML bodies -> prose and code blocks; untrusted text made inert for terminals."""

from core.text import html_to_text, split_html, terminal_safe


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
