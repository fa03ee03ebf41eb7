"""Files to check: the .py and .ipynb files under the given paths, read (never written) and checked."""

from __future__ import annotations

import contextlib
import fnmatch
import os
import sys
from collections.abc import Iterable, Iterator

from checker.engine import check_notebook, check_source
from checker.findings import Finding, Skipped
from checker.gc_pause import collection_paused
from checker.project import calls_across_modules, lift_trained_elsewhere, tf_module_facts
from checker.rules import RULE_ERRORS, Rule, all_rules, rule_selected
from checker.source import decode_python
from checker.torch_project import across_modules, module_facts
from checker.torch_project.common import LOADER_RULE, WORKERS_RULE, parsed_again

SUFFIXES = (".py", ".ipynb")
_SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".ipynb_checkpoints", ".venv", "venv", ".tox"})


class PathError(ValueError):
    """A PATH argument that does not exist."""


STDIN = "-"


def excluded(path: str, patterns: Iterable[str]) -> bool:
    """`--exclude` as ruff reads it: a glob matched against the path, its tail, or any one component."""
    norm = path.replace("\\", "/").removeprefix("./")
    parts = norm.split("/")
    return any(
        fnmatch.fnmatch(norm, p)
        or fnmatch.fnmatch(norm, f"*/{p}")
        or any(fnmatch.fnmatch(c, p) for c in parts)
        for p in patterns
    )


def iter_files(paths: Iterable[str], exclude: Iterable[str] = ()) -> Iterator[str]:
    """Every .py/.ipynb file named or found under a folder, in a stable order, minus `exclude` globs.

    `-` stands for standard input. Raises PathError.
    """
    exclude = list(exclude)
    for path in paths:
        if path == STDIN:
            yield path
        elif os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(
                    d for d in dirs if d not in _SKIP_DIRS and not excluded(os.path.join(root, d), exclude)
                )
                for name in sorted(files):
                    full = os.path.join(root, name)
                    if name.endswith(SUFFIXES) and not excluded(full, exclude):
                        yield full
        elif os.path.isfile(path):
            if not excluded(path, exclude):
                yield path
        else:
            raise PathError(f"{path}: no such file or directory")


def check_file(
    path: str,
    codes: tuple[str, ...] | None = None,
    data: bytes | None = None,
    sources: dict | None = None,
    known: dict | None = None,
    facts: dict | None = None,
    indexes: dict | None = None,
) -> tuple[list[Finding], list[Skipped]]:
    """Read one file (bytes, never opened for writing) and check it with the rules named by `codes`.

    `data` is the file's content when it was read already (standard input, checked as a .py file).
    `sources` and `known`, if given, receive a Python file's text and (for a module that mentions
    DataLoader) its `module_facts`, by path, for the project-wide pass (checker/torch_project/) to use
    without reading or parsing the file again; `facts`, if given, receives what the TF rules worked out of
    it (`tf_module_facts`) for checker/project.py. `indexes`, if given, receives the index of a module the
    project passes are likely to parse again (`parsed_again`: one that trains), by its text, and of other
    modules while a `KeptIndexes` has room for them (`_keeps`).

    The cyclic garbage collector is paused for the whole file: its tree and index are freed by reference
    counts before the collector is back on, so no collection ever walks them (session 15's torch-speed: a
    pause around the parse alone left each tree to the first collection after it, a fifth of the run's time).
    """
    with collection_paused():
        return _read_and_check(path, codes, data, sources, known, facts, indexes)


def _read_and_check(path, codes, data, sources, known, facts, indexes) -> tuple[list[Finding], list[Skipped]]:
    """`check_file`'s work, with the collector paused."""
    rules = _rules(codes)
    if data is None:
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as exc:
            return [], [Skipped(path, exc.strerror or str(exc))]
    try:
        text = data.decode("utf-8-sig") if path.endswith(".ipynb") else decode_python(data)
    except UnicodeDecodeError as exc:
        return [], [Skipped(path, f"byte {exc.start}: not {exc.encoding.upper()}")]
    except (LookupError, SyntaxError) as exc:
        return [], [Skipped(path, f"coding line: {exc}")]
    if path.endswith(".ipynb"):
        return check_notebook(text, path, rules)
    if sources is not None:
        sources[path] = text
    wants_facts = (
        known is not None and "DataLoader" in text and rule_selected(codes, LOADER_RULE, WORKERS_RULE)
    )

    def keep(index):
        if wants_facts:
            known[path] = module_facts(index, workers=rule_selected(codes, WORKERS_RULE))
        if facts is not None:
            facts[path] = tf_module_facts(index, text)
        if indexes is not None and _keeps(indexes, text):
            indexes[text] = index

    return check_source(
        text, path, rules, keep if wants_facts or indexes is not None or facts is not None else None
    )


def _pooled(files: list[str], codes, jobs: int, sources: dict, known: dict, indexes: dict) -> list:
    """`check_file`'s results for `files`, in their order, from a pool of `jobs` processes and this one: this
    process reads every Python file (its text goes to `sources`) and checks the modules the project passes
    will parse again (`parsed_again`) itself, keeping their indexes, while the pool checks the others and
    sends their `module_facts` back. No module is then parsed twice for the project passes (once in a
    worker, again here), as with one process."""
    mine: dict[int, bytes] = {}
    for at, path in enumerate(files):
        text = _python_text(path)
        if text is not None:
            sources[path], data = text
            if parsed_again(sources[path]):
                mine[at] = data
    rest = [path for at, path in enumerate(files) if at not in mine]
    results: list = [None] * len(files)
    from concurrent.futures import ProcessPoolExecutor  # (here: the import costs a run in one process 0.03 s)

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pooled = pool.map(_pooled_check, rest, [codes] * len(rest), chunksize=16)  # (submitted at once)
        for at, data in mine.items():
            results[at] = check_file(files[at], codes, data, sources=sources, known=known, indexes=indexes)
        pooled_at = (at for at in range(len(files)) if at not in mine)
        for at, (found, skips, facts) in zip(pooled_at, pooled, strict=True):
            results[at] = (found, skips)
            known.update(facts)
    return results


class KeptIndexes(dict):
    """Module text -> index, kept by the per-module pass for the project passes (`reusing_indexes`): every
    module that trains (`parsed_again`), and others while `room` (bytes of their source) lasts. A run in one
    process keeps one project's indexes at a time (`_checked_paths`), so the room bounds what a project
    keeps beyond its training modules, not what a whole run does."""

    def __init__(self, room: int = 0) -> None:
        super().__init__()
        self.room = room


def _keeps(indexes: dict, text: str) -> bool:
    """Whether the per-module pass keeps the index of a module of this text for the project passes (the
    room of a `KeptIndexes` is spent as it says yes)."""
    if parsed_again(text):
        return True
    room = getattr(indexes, "room", 0)
    if len(text) > room:
        return False
    indexes.room = room - len(text)
    return True


def _python_text(path: str) -> tuple[str, bytes] | None:
    """A .py file's text and bytes, as `check_file` reads them; None for a notebook, or a file that cannot be
    read or decoded (its worker reports it)."""
    if not path.endswith(".py"):
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        return decode_python(data), data
    except (OSError, UnicodeDecodeError, LookupError, SyntaxError):
        return None


def _pooled_check(path: str, codes: tuple[str, ...] | None):
    """`check_file` in a pool's worker, with the module's `module_facts` ({} or {path: facts}) for the project
    pass in the main process, which then does not parse a DataLoader module again for them."""
    known: dict = {}
    found, skips = check_file(path, codes, known=known)
    return found, skips, known


def _rules(codes) -> list[Rule]:
    rules = all_rules()
    return list(rules.values()) if codes is None else [rules[c] for c in codes]


# Below this much source (bytes, about 5,000 lines) a run asked for a process pool checks in one process: on
# repositories of 400-1,800 lines a pool of two added 0.03-0.06 CPU s and saved no time on two idle cores, at
# 3,500-7,000 lines it saved a quarter of the time for 0.06 CPU s more (torch-speed15, docs/ppcheck-evaluation.md).
POOL_FLOOR = 200_000


def check_paths(
    paths: Iterable[str],
    rules: list[Rule] | None = None,
    jobs: int = 1,
    exclude: Iterable[str] = (),
    pool_floor: int = 0,
):
    """All findings and skipped files under `paths`, sorted. `jobs` > 1 checks files in a process pool when
    they hold at least `pool_floor` bytes (the command line's `--jobs` gives POOL_FLOOR).

    The files are checked one module at a time, then read together for evidence that spans modules (a
    pipeline one module returns and another trains on: checker/project.py; a DataLoader one module returns
    and another copies to the GPU: checker/torch_project/).

    The cyclic garbage collector stays paused for the whole run: the indexes kept for the project passes
    would otherwise be walked by collection after collection (as costly as parsing them again), and a run
    makes next to no cyclic garbage (tests/test_checker_speed.py), so nothing piles up meanwhile."""
    projects = [list(iter_files([p], exclude)) for p in paths]
    with collection_paused():
        return _checked_paths(projects, rules, jobs, pool_floor)


def _source_bytes(files: list[str], enough: int) -> int:
    """The files' sizes summed, up to the first sum of at least `enough` (a file that cannot be read counts
    0: its check reports it)."""
    total = 0
    for path in files:
        if total >= enough:
            break
        with contextlib.suppress(OSError):
            total += os.path.getsize(path)
    return total


def _checked_paths(projects: list[list[str]], rules: list[Rule] | None, jobs: int, pool_floor: int = 0):
    """`check_paths`'s work, with the collector paused. In one process each project (PATH argument) is
    checked module by module and then by the project passes before the next one starts (`_batches`), so only
    one project's kept indexes are alive at a time; a pool checks every file first, as the passes need the
    facts its workers send back."""
    files = [f for project in projects for f in project]
    count = len(files)
    codes = None if rules is None else tuple(r.code for r in rules)
    findings: list[Finding] = []
    skipped: list[Skipped] = []
    if STDIN in files:
        files.remove(STDIN)
        found, skips = check_file(STDIN, codes, data=sys.stdin.buffer.read())
        findings.extend(found)
        skipped.extend(skips)
    pooled = jobs > 1 and len(files) > 1 and _source_bytes(files, pool_floor) >= pool_floor
    failed: list[Skipped] = []  # (the project passes that failed, after every file's skips, as before)
    checked: list[Finding] = []  # (the findings of the batches the passes are done with)
    for batch in [projects] if pooled else _batches(projects):
        batch_files = [f for project in batch for f in project if f != STDIN]
        # texts, DataLoader facts and kept indexes, for the project passes
        sources: dict = {}
        known: dict = {}
        facts: dict = {}
        indexes = KeptIndexes(0 if pooled else KEPT_ROOM)
        if pooled:
            results = _pooled(batch_files, codes, jobs, sources, known, indexes)
        else:
            results = [
                check_file(path, codes, sources=sources, known=known, facts=facts, indexes=indexes)
                for path in batch_files
            ]
        for found, skips in results:
            findings.extend(found)
            skipped.extend(skips)
        # (each batch's findings through the passes once, not again with every later batch's)
        checked.extend(_project_passes(findings, batch, codes, sources, known, facts, indexes, failed))
        findings = []
    skipped.extend(failed)
    return sorted(checked, key=Finding.sort_key), skipped, count


# Bytes of source whose indexes a project keeps for the project passes beyond its training modules' (about
# 10,000 lines, some 12 MB of memory): the passes then parse fewer modules again (hold-out 36 per repository:
# 193 -> 123 parses, 0.25 -> 0.11 CPU s) while the kept trees cost new memory to parse into, so the run's CPU
# moves within the noise (torch-speed16, docs/ppcheck-evaluation.md).
KEPT_ROOM = 400_000


def _batches(projects: list[list[str]]) -> list[list[list[str]]]:
    """The projects one at a time; all together when a file is in more than one (`a/ a/b.py`), whose
    findings the passes of each would otherwise see once per project."""
    seen: set[str] = set()
    for project in projects:
        if seen.intersection(project) or len(set(project)) < len(project):
            return [projects]
        seen.update(project)
    return [[project] for project in projects]


def _project_passes(findings, projects, codes, sources, known, facts, indexes, failed: list[Skipped]):
    """`findings` after the passes that read the files of each project together; a pass that fails is
    named in `failed` once (`ppcheck: skipped <name>: internal error: ...`) and the findings are kept as
    they were before it."""
    passes = (
        (
            "<TF pipelines trained in another module>",
            lambda found: lift_trained_elsewhere(found, projects, sources=sources, facts=facts, kept=indexes),
        ),
        (
            "<TF calls across modules>",
            lambda found: calls_across_modules(found, projects, codes, sources, facts, indexes),
        ),
        (
            "<PyTorch across modules>",
            lambda found: across_modules(found, projects, codes, sources, known, indexes),
        ),
    )
    for name, project_pass in passes:
        try:
            findings = project_pass(findings)
        except RULE_ERRORS as exc:  # keep what the files gave; say which pass failed
            if all(s.path != name for s in failed):
                failed.append(Skipped(name, f"internal error: {type(exc).__name__}: {exc}"))
    return findings
