"""The rule docs are executable: every registered rule's `Example` fires it and its `Instead` does not, and
each TensorFlow rule's fixture files (real-code shapes, tests/fixtures/ppcheck/) give exactly the findings
their `# error: CODE` comments mark."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from checker import check_snippets, check_source
from checker.rules import all_rules

FIXTURES = Path(__file__).parent / "fixtures" / "ppcheck"
_MARK = re.compile(r"#\s*error:\s*([A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)")
TF_RULE_MODULES = ("graph", "data", "keras", "function", "invariant")


def fired(snippet: str, code: str) -> list[int]:
    """Lines where rule `code` fires on a documentation snippet (imports implied, as in posts)."""
    findings, skipped = check_snippets([snippet], "doc.py", [all_rules()[code]])
    assert not skipped, skipped
    return [f.line for f in findings if f.rule == code]


@pytest.mark.parametrize("code", sorted(all_rules()))
def test_example_fires_and_instead_does_not(code):
    rule = all_rules()[code]
    assert fired(rule.example, code), f"{code}'s Example does not trigger it"
    assert not fired(rule.instead, code), f"{code}'s Instead still triggers it"


@pytest.mark.parametrize("code", sorted(all_rules()))
def test_example_shows_the_rules_own_level(code):
    """The Example shows the shape the rule's confidence stands for (PP201's parse on a training pipeline
    is `high`), not a weaker one."""
    rule = all_rules()[code]
    findings, _ = check_snippets([rule.example], "doc.py", [rule])
    assert rule.confidence in {f.confidence for f in findings if f.rule == code}


def tf_rules() -> list[str]:
    return sorted(
        c for c, r in all_rules().items() if r.check.__module__.rsplit(".", 1)[-1] in TF_RULE_MODULES
    )


@pytest.mark.parametrize("code", tf_rules())
def test_every_tf_rule_has_fixtures(code):
    assert (FIXTURES / f"{code}.py").is_file() and (FIXTURES / f"{code}_ok.py").is_file()


def marked(text: str, code: str) -> list[int]:
    return [
        n
        for n, line in enumerate(text.splitlines(), 1)
        if (m := _MARK.search(line)) and code in re.split(r"\s*,\s*", m.group(1))
    ]


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.py")), ids=lambda p: p.name)
def test_fixture_findings_are_the_marked_lines(path):
    code = path.stem.split("_")[0]
    text = path.read_text(encoding="utf-8")
    findings, skipped = check_source(text, path.name, [all_rules()[code]])
    assert not skipped, skipped
    expected = [] if path.stem.endswith("_ok") else marked(text, code)
    assert not path.stem.endswith("_ok") or not marked(text, code)
    assert expected or path.stem.endswith("_ok"), f"{path.name} marks no line"
    assert [f.line for f in findings] == expected
