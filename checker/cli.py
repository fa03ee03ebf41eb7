"""`ppcheck`: find performance problems in TensorFlow/Keras and PyTorch code (.py files and notebook code cells)."""

from __future__ import annotations

import argparse
import os
import sys

from checker import __version__
from checker.findings import CONFIDENCE_LEVELS, at_least
from checker.formats import json_array, sarif, text
from checker.rules import all_rules, select_rules
from checker.walker import POOL_FLOOR, PathError, check_paths

EPILOG = """\
exit status: 0 no findings, 1 findings, 2 usage error (unknown code, path).
Files that do not parse are listed on stderr as skipped and the run goes on.
Checked files are only read. PATH `-` reads a Python source from stdin.
`# noqa` on a line silences every rule there, `# noqa: PP301` only that one;
`# ppcheck: noqa` on a line of its own silences the whole file.
`ppcheck --explain CODE` documents a rule; `ppcheck --list` lists them all."""


def _globs(value: str) -> list[str]:
    return [g.strip() for g in value.split(",") if g.strip()]


def _codes(value: str) -> list[str]:
    return [c.strip().upper() for c in value.split(",") if c.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ppcheck",
        description=__doc__.split(":", 1)[1].strip().replace(" (.py", "\n(.py"),
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (.py, .ipynb); - for standard input"
    )
    parser.add_argument(
        "--format", choices=("text", "json", "sarif"), default="text", help="output (default text)"
    )
    parser.add_argument(
        "--select", type=_codes, metavar="CODES", help="only these rules (codes or prefixes, comma-separated)"
    )
    parser.add_argument("--ignore", type=_codes, metavar="CODES", help="skip these rules (codes or prefixes)")
    parser.add_argument(
        "--exclude",
        type=_globs,
        default=[],
        metavar="GLOBS",
        help="skip files and folders matching these globs (comma-separated, e.g. 'tests,*_pb2.py')",
    )
    parser.add_argument(
        "--min-confidence",
        choices=CONFIDENCE_LEVELS,
        default="high",
        help="report findings at least this sure (default high; medium adds the less certain ones, low the "
        "ones mostly read negligible)",
    )
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    parser.add_argument("--explain", metavar="CODE", help="show a rule's documentation and exit")
    parser.add_argument(
        "--list", action="store_true", help="list the rules (code, confidence, root cause, name) and exit"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="check files in N processes (default 1; 0 = one per CPU; runs under about 5,000 lines "
        "stay in one process, where a pool costs more than it saves)",
    )
    parser.add_argument("--version", action="version", version=f"ppcheck {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    rules = all_rules()
    if args.explain:
        rule = rules.get(args.explain.strip().upper())
        if rule is None:
            parser.error(f"unknown rule code {args.explain!r} (known: {', '.join(rules)})")
        print(rule.explain())
        return 0
    if args.list:
        for r in rules.values():
            print(f"{r.code}  {r.confidence:<6} {r.root_cause:<33} {r.name}")
        return 0
    if not args.paths:
        parser.error("at least one PATH is required")
    if args.jobs < 0:
        parser.error("--jobs must be 0 or more")
    try:
        chosen = select_rules(args.select, args.ignore)
    except ValueError as exc:
        parser.error(str(exc))
    jobs = args.jobs or os.cpu_count() or 1
    try:
        findings, skipped, _ = check_paths(
            args.paths, chosen, jobs=jobs, exclude=args.exclude, pool_floor=POOL_FLOOR
        )
    except PathError as exc:
        parser.error(str(exc))
    findings = [f for f in findings if at_least(f.confidence, args.min_confidence)]
    for s in skipped:
        print(f"ppcheck: skipped {s.path}: {s.reason}", file=sys.stderr)
    if args.format == "json":
        sys.stdout.write(json_array(findings))
    elif args.format == "sarif":
        sys.stdout.write(sarif(findings, skipped, chosen, __version__))
    else:
        sys.stdout.write(text(findings))
    return 1 if findings and not args.exit_zero else 0


def run() -> None:
    try:
        code = main()
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:
        code = 0
    exit_now(code)


def exit_now(code: int) -> None:
    """End the process with `code` once the output is flushed, without tearing the interpreter down: the
    modules, rule tables and caches a run leaves would be freed one object at a time and collected once
    more, for nothing (0.15-0.25 CPU s of a 5 s run over hold-out 36, 0.05 of tensorpack's; torch-speed18).
    A stream that cannot be flushed (a closed pipe) leaves the ordinary exit to report it, as before."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(code)
    os._exit(code)


if __name__ == "__main__":
    run()
