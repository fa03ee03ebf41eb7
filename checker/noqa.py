"""`# noqa` comments: `# noqa` silences every rule on its line, `# noqa: PP101, PP203` only those;
`# ppcheck: noqa` on its own line silences the file."""

from __future__ import annotations

import io
import re
import tokenize

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
ALL = frozenset({"*"})
# `# ppcheck: noqa` on a line of its own, anywhere in the file, silences the whole file, as ruff's file-level noqa does.
_FILE_NOQA = re.compile(r"^\s*#\s*ppcheck\s*:\s*noqa\s*$", re.IGNORECASE | re.MULTILINE)


def file_is_silenced(source: str) -> bool:
    return "ppcheck" in source and _FILE_NOQA.search(source) is not None


def noqa_lines(source: str) -> dict[int, frozenset[str]]:
    """Line number -> codes silenced there (ALL for a bare `# noqa`); only real comments count, not strings."""
    if "noqa" not in source.lower():
        return {}
    found: dict[int, frozenset[str]] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                match = _NOQA.search(tok.string)
                if match:
                    codes = match.group("codes")
                    found[tok.start[0]] = (
                        frozenset(c.upper() for c in re.split(r"[\s,]+", codes) if c) if codes else ALL
                    )
    except (tokenize.TokenError, SyntaxError):
        pass
    return found


def silenced(codes: frozenset[str] | None, rule: str) -> bool:
    return codes is not None and (codes is ALL or rule in codes)


def silenced_at(source: str, line: int, rule: str) -> bool:
    """A `# noqa` on `line` of the source silences `rule` (for one finding; `noqa_lines` once for many)."""
    return silenced(noqa_lines(source).get(line), rule)
