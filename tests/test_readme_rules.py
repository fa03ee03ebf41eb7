"""The README's rule table is the registry's: one row per rule, with its anchor (SARIF's helpUri points there),
its own confidence level and its codebook root cause."""

from __future__ import annotations

import re
from pathlib import Path

from checker.formats import help_uri
from checker.rules import all_rules

README = Path(__file__).resolve().parent.parent / "README.md"
_ROW = re.compile(
    r'^\| <a id="(?P<anchor>[a-z0-9]+)"></a>(?P<code>PP\d+) \| (?P<level>\w+) \| .* \| `(?P<cause>[\w.]+)` \|$'
)


def readme_rule_rows(text: str) -> dict[str, dict[str, str]]:
    """The rows of the README's rule table, by code."""
    return {m["code"]: m.groupdict() for m in map(_ROW.match, text.splitlines()) if m}


def test_every_rule_has_its_row_with_its_level_and_root_cause():
    rows = readme_rule_rows(README.read_text(encoding="utf-8"))
    rules = all_rules()
    assert sorted(rows) == sorted(rules)
    for code, rule in rules.items():
        row = rows[code]
        assert (row["level"], row["cause"]) == (rule.confidence, rule.root_cause), code
        assert help_uri(code).endswith("#" + row["anchor"]), code


def test_a_stale_row_is_found():
    row = '| <a id="pp501"></a>PP501 | medium | host reads | `data.inefficient_transmission` |'
    found = readme_rule_rows(row)["PP501"]
    assert found["level"] != all_rules()["PP501"].confidence
