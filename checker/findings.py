"""What a check produces: findings, and files (or notebook cells) it could not read."""

from __future__ import annotations

from dataclasses import dataclass

# Most to least sure. `high`: the default output (measured right >= 90% of the time); `medium`: shown with
# --min-confidence medium; `low`: with --min-confidence low, the evidence hand readings found mostly negligible.
CONFIDENCE_LEVELS = ("high", "medium", "low")


def at_least(confidence: str, minimum: str) -> bool:
    """Whether a finding of this confidence is shown when `minimum` is asked for."""
    return CONFIDENCE_LEVELS.index(confidence) <= CONFIDENCE_LEVELS.index(minimum)


@dataclass(frozen=True, slots=True)
class Finding:
    path: str
    line: int  # 1-based; inside its cell for a notebook
    column: int  # 1-based, as flake8 and ruff print it
    rule: str  # e.g. "PP301"
    message: str
    root_cause: str  # the codebook code the rule stands for, e.g. "api.not_batch_api"
    cell: int | None = None  # 1-based code-cell number in a notebook, else None
    confidence: str = "high"  # high | medium | low (CONFIDENCE_LEVELS)

    def sort_key(self):
        return (self.path, self.cell or 0, self.line, self.column, self.rule)

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "rule": self.rule,
            "message": self.message,
            "root_cause": self.root_cause,
            "cell": self.cell,
            "confidence": self.confidence,
        }


@dataclass(frozen=True, slots=True)
class Skipped:
    path: str
    reason: str  # e.g. "line 3: invalid syntax (Python 2?)"


@dataclass(frozen=True, slots=True)
class RawFinding:
    """A rule's finding before it is placed in a file: a node position and a message."""

    rule: str
    line: int
    col: int  # 0-based, as ast gives it
    message: str
    confidence: str | None = None  # None: the rule's own confidence
