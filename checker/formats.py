"""Output formats: flake8-style text, a JSON array, SARIF 2.1.0. All three are stable (see README)."""

from __future__ import annotations

import json

from checker.findings import Finding, Skipped
from checker.notebook import file_lines
from checker.rules import Rule

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_URI = "https://github.com/ppminer/ppminer#ppcheck"
# SARIF `rank` (0-100, how sure the tool is of a result) for each confidence level; code scanning reads the
# rule's `properties.precision` (very-high, high, medium, low) the same way.
RANK = {"high": 90.0, "medium": 60.0, "low": 30.0}


def help_uri(code: str) -> str:
    """The rule's row in README's ppcheck table (each row carries an anchor named after its code)."""
    return f"https://github.com/ppminer/ppminer#{code.lower()}"


def _inert(text: str) -> str:
    """Control characters in paths (from odd file names) shown as \\xNN so a terminal never acts on them."""
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in text)


def text(findings: list[Finding]) -> str:
    lines = []
    for f in findings:
        where = f"{_inert(f.path)}:cell {f.cell}:" if f.cell is not None else f"{_inert(f.path)}:"
        lines.append(f"{where}{f.line}:{f.column}: {f.rule} {f.message}")
    return "\n".join(lines) + ("\n" if lines else "")


def json_array(findings: list[Finding]) -> str:
    return json.dumps([f.as_dict() for f in findings], indent=2) + "\n"


def _notebook_line(f: Finding, tables: dict[str, tuple[dict, bool]]) -> int | None:
    """The line of the .ipynb file that holds a notebook finding: the file is read again (once) here, so that
    only SARIF output pays for the scan of every notebook with findings."""
    if f.path not in tables:
        try:
            with open(f.path, "rb") as handle:
                text = handle.read().decode("utf-8-sig")
            tables[f.path] = (file_lines(text), "\n" not in text.strip())
        except (OSError, UnicodeDecodeError):
            tables[f.path] = ({}, False)
    lines, one_line = tables[f.path]
    return lines.get((f.cell, f.line)) or (1 if one_line else None)


def sarif(findings: list[Finding], skipped: list[Skipped], rules: list[Rule], version: str) -> str:
    rule_index = {r.code: i for i, r in enumerate(rules)}
    results = []
    tables: dict[str, tuple[dict, bool]] = {}
    for f in findings:
        # In a notebook the region is the .ipynb file's line (its columns are JSON's); the cell's own line and
        # column are properties.
        file_line = _notebook_line(f, tables) if f.cell is not None and f.path.endswith(".ipynb") else None
        region = {"startLine": file_line} if file_line else {"startLine": f.line, "startColumn": f.column}
        result = {
            "ruleId": f.rule,
            "ruleIndex": rule_index[f.rule],
            "level": "warning",
            "message": {"text": f.message},
            "locations": [
                {"physicalLocation": {"artifactLocation": {"uri": _uri(f.path)}, "region": region}}
            ],
            "rank": RANK[f.confidence],
            "properties": {"root_cause": f.root_cause, "confidence": f.confidence},
        }
        if f.cell is not None:
            result["properties"]["cell"] = f.cell
            result["properties"]["cellLine"] = f.line
            result["properties"]["cellColumn"] = f.column
        results.append(result)
    run = {
        "tool": {
            "driver": {
                "name": "ppcheck",
                "version": version,
                "informationUri": TOOL_URI,
                "rules": [
                    {
                        "id": r.code,
                        "name": r.name,
                        "shortDescription": {"text": r.summary},
                        "fullDescription": {"text": r.why},
                        "help": {"text": r.explain()},
                        "helpUri": help_uri(r.code),
                        "properties": {
                            "root_cause": r.root_cause,
                            "false_alarm_risk": r.risk,
                            "precision": r.confidence,
                            "problem.severity": "warning",
                            "tags": ["performance"],
                        },
                    }
                    for r in rules
                ],
            }
        },
        "results": results,
        "invocations": [
            {
                "executionSuccessful": True,
                "toolExecutionNotifications": [
                    {
                        "level": "note",
                        "message": {"text": f"skipped: {s.reason}"},
                        "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(s.path)}}}],
                    }
                    for s in skipped
                ],
            }
        ],
    }
    doc = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(doc, indent=2) + "\n"


def _uri(path: str) -> str:
    from urllib.parse import quote

    return quote(path.replace("\\", "/").removeprefix("./"))
