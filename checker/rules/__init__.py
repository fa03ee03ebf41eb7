"""The rule registry: every rule's code, codebook root cause, documentation and check function.

A rule module defines `Rule` objects with `register`; a rule's `check(index)` yields `RawFinding`s for one
parsed module. Codes: PP1xx graph and session, PP2xx tf.data pipelines, PP3xx Keras usage, PP4xx tf.function
and host synchronisation, PP5xx PyTorch (`torch_*` modules).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from checker.findings import Finding, RawFinding

# What a rule's code may raise on a module it was not written for: the run reports it as an internal error
# for that file (or pass) and goes on. RuntimeError covers RecursionError and a bare `next()` that runs dry
# inside a generator (PEP 479 turns its StopIteration into a RuntimeError); StopIteration a plain function's.
RULE_ERRORS = (ValueError, TypeError, AttributeError, KeyError, IndexError, RuntimeError, StopIteration)


@dataclass(frozen=True)
class Rule:
    code: str
    name: str  # kebab-case, ruff style
    root_cause: str  # codebook code
    summary: str  # one line: what it finds
    why: str  # why it is slow
    example: str  # code that triggers it
    instead: str  # what to write instead
    false_alarms: str  # when it is wrong, and what keeps it quiet then
    check: Callable[..., Iterable[RawFinding]]
    confidence: str = "high"  # high: default output; medium/low: shown with --min-confidence medium/low

    @property
    def risk(self) -> str:
        """The false-alarm risk: the other face of the confidence, which is set from hand readings (high =
        right at least 90% of the time, medium about 70%, low less)."""
        return _RISK[self.confidence]

    def explain(self) -> str:
        return "\n".join(
            [
                f"{self.code} {self.name}",
                f"root cause: {self.root_cause}",
                f"false-alarm risk: {self.risk}    confidence: {self.confidence}",
                "",
                "What it finds",
                _wrapped(self.summary),
                "",
                "Why it is slow",
                _wrapped(self.why),
                "",
                "Example",
                *("  " + line for line in self.example.strip("\n").splitlines()),
                "",
                "Instead",
                *("  " + line for line in self.instead.strip("\n").splitlines()),
                "",
                "False alarms",
                _wrapped(self.false_alarms),
            ]
        )


_RISK = {"high": "low", "medium": "medium", "low": "high"}


def _wrapped(text: str) -> str:
    return textwrap.fill(text, width=78, initial_indent="  ", subsequent_indent="  ")


RULES: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    if rule.code in RULES:
        raise ValueError(f"duplicate rule code {rule.code}")
    RULES[rule.code] = rule
    return rule


def all_rules() -> dict[str, Rule]:
    """Every rule, by code (importing the rule modules registers them)."""
    from checker.rules import (  # noqa: F401
        data,
        function,
        graph,
        invariant,
        keras,
        torch_data,
        torch_graph,
        torch_history,
        torch_loop,
        torch_moves,
        torch_sync,
        torch_wait,
    )

    return dict(sorted(RULES.items()))


def finding(
    path: str,
    line: int,
    col: int,
    code: str,
    message: str,
    confidence: str | None = None,
    cell: int | None = None,
) -> Finding:
    """A finding of rule `code`: `col` 0-based as rules report it, the rule's root cause, and the rule's own
    confidence when the finding names none."""
    rule = all_rules()[code]
    return Finding(path, line, col + 1, code, message, rule.root_cause, cell, confidence or rule.confidence)


def select_rules(select: Iterable[str] | None, ignore: Iterable[str] | None) -> list[Rule]:
    """Rules whose code starts with a selected prefix (all if none) and with no ignored prefix.

    Raises ValueError naming a prefix that matches no rule.
    """
    rules = all_rules()
    for prefix in [*(select or []), *(ignore or [])]:
        if not any(code.startswith(prefix) for code in rules):
            raise ValueError(f"unknown rule code {prefix!r} (known: {', '.join(rules)})")
    chosen = [r for c, r in rules.items() if not select or any(c.startswith(p) for p in select)]
    return [r for r in chosen if not any(r.code.startswith(p) for p in ignore or [])]


def rule_selected(codes: Iterable[str] | None, *rules: str) -> bool:
    """Whether any of `rules` runs (`codes` None: every rule). A project pass, or facts only a rule's project
    pass reads (PP504's `workerless`), are not worked out for a run without that rule (review 24 item 13: the
    one spelling of a test the walker, the project passes and their callers each wrote out)."""
    return codes is None or any(rule in codes for rule in rules)
