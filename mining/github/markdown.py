"""GitHub-flavoured Markdown -> the HTML every post body is stored as, so prose and code split the same way for
GitHub issues as for Stack Overflow posts (:func:`core.text.split_html`).

markdown-it-py parses the Markdown (CommonMark plus GitHub's tables and strikethrough): fenced and indented code
become ``<pre>`` blocks, inline code ``<code>`` inside the prose, and HTML written inside the Markdown passes
through as HTML, so a ``<pre>`` typed by hand is a code block too and ``<details>`` text stays prose. No regular
expressions: the parser decides what is code.
"""

from __future__ import annotations

from markdown_it import MarkdownIt

from core.text import SplitBody, split_html

# One parser: building it compiles its rules, and render() keeps no state between calls.
_PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def markdown_to_html(text: str | None) -> str:
    """The HTML of a Markdown body ('' for none)."""
    return _PARSER.render(text) if text else ""


def split_markdown(text: str | None) -> SplitBody:
    """A Markdown body's prose (code blocks removed, inline code kept) and its code blocks."""
    return split_html(markdown_to_html(text))
