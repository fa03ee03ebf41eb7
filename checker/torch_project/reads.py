"""PP501 across modules: a training loop that reads values on the host every step, in a module that
moves nothing to a GPU itself (a trainer or agent module) while a module of the project that imports it
does (the script that places the model and batches), judged as if on the GPU, at medium; and a loop that
reads a loss through a def of another module (`epoch_loss += utils.to_scalar(loss)`)."""

from __future__ import annotations

import collections
import functools
import re

from checker.findings import Finding
from checker.noqa import file_is_silenced, noqa_lines, silenced
from checker.project_files import import_word, module_paths
from checker.rules.torch_common import lowered_on_toys
from checker.rules.torch_sync import check_host_sync, host_readers
from checker.torch_project.common import (
    TRAINS,
    checked_texts,
    import_lines,
    importers,
    parse_index,
    project_finding,
    project_texts,
)

_READ_RULE = "PP501"
_READS = re.compile(r"\.(?:item|cpu|numpy|tolist)\(\)")
_TO_DEVICE = re.compile(r"\.to\(\s*(?:self\.|args\.|opt\.|config\.)?device\b")


def _places(text: str) -> bool:
    """The text puts tensors on a GPU: `.cuda(`, `torch.device("cuda"`, `.to(device)` (literal searches first:
    one regular expression over every module costs more)."""
    return (
        ".cuda(" in text
        or 'torch.device("cuda' in text
        or "torch.device('cuda" in text
        or (".to(" in text and _TO_DEVICE.search(text) is not None)
    )


def reads_across_modules(
    findings: list[Finding], projects: list[list[str]], codes=None, sources: dict | None = None
) -> list[Finding]:
    """`findings` with PP501 findings added for the training loops of modules that put nothing on a GPU
    themselves while a module of the project that imports them does (by its text: `.cuda(`, `.to(device`,
    `torch.device("cuda"`), and for loops that read a loss through another module's def (`_reader_loops`).
    Only modules whose text trains (backward, a step) and reads (`.item()`, `.cpu()`) are candidates, and
    one is parsed only when such a module imports it."""
    if codes is not None and _READ_RULE not in codes:
        return findings
    sources = {} if sources is None else sources
    for files in projects:
        texts = checked_texts(project_texts(files, sources))
        findings = findings + _reads_off_device(texts, findings)
        findings = findings + _reader_loops(texts, findings)
    return findings


_WORD = re.compile(r"\w+")
_READER = re.compile(r"^(?: {4}|\t)return\s+\w+[\w.()\-\[\], ]*\.(?:item|tolist|numpy)\(\)", re.MULTILINE)
_LOOP_LINE = re.compile(r"training loop at line (\d+)")


def _reader_defs(text: str) -> set[str]:
    """`host_readers` of the module-level defs holding a `_READER` line, each parsed alone (a def runs from
    its `def` at the margin to the next line at the margin)."""
    found, seen = set(), set()
    for match in _READER.finditer(text):
        start = text.rfind("\ndef ", 0, match.start()) + 1
        if start == 0 and not text.startswith("def "):
            continue
        if start in seen:
            continue
        seen.add(start)
        end = _MARGIN.search(text, match.end())
        index = parse_index(text[start : end.start() if end else len(text)], torch_only=False)
        found |= host_readers(index) if index is not None else set()
    return found


_MARGIN = re.compile(r"^\S", re.MULTILINE)


def _reader_loops(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP501 findings for training loops that call, on a loss, a def of another module returning a host
    read of its argument (`epoch_loss += utils.to_scalar(loss)`), where the module's own pass found no
    read in that loop. Only modules whose text returns such a read are parsed for the defs, and only
    modules that name one of them and reach it by an import for the loops."""
    table: dict[str, list[tuple[str]]] = {}
    for path, text in texts.items():
        if (".item()" in text or ".tolist()" in text or ".numpy()" in text) and not file_is_silenced(text):
            for name in _reader_defs(text):
                table.setdefault(name, []).append((path,))
    if not table:
        return []
    loops = {
        (f.path, int(m.group(1)))
        for f in findings
        if f.rule == _READ_RULE and (m := _LOOP_LINE.search(f.message))
    }
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    called = re.compile(r"\b(" + "|".join(map(re.escape, table)) + r")\s*\(")
    users = {
        p: t
        for p, t in texts.items()
        if TRAINS.search(t) and ("cuda" in t or "device" in t) and not file_is_silenced(t)
    }
    found = []
    for index, chosen, path in importers(users, table, called):
        readers = frozenset(n for n, entries in chosen.items() if entries)
        if not readers:
            continue
        check = lowered_on_toys(functools.partial(check_host_sync, readers=readers))
        noqa = noqa_lines(texts[path])
        for raw in check(index):
            loop = _LOOP_LINE.search(raw.message)
            if loop is None or (path, int(loop.group(1))) in loops or (path, raw.line) in reported:
                continue
            if silenced(noqa.get(raw.line), _READ_RULE):
                continue
            reported.add((path, raw.line))
            found.append(project_finding(path, raw, _READ_RULE))
    return found


def _reads_off_device(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP501 findings of `check_host_sync(device_elsewhere=True)` in the candidates a placing module imports
    (its text names the candidate's file before its imports are resolved)."""
    placing, candidates = [], []
    for p, t in texts.items():
        if _places(t):
            placing.append(p)
        elif TRAINS.search(t) and _READS.search(t) and not file_is_silenced(t):
            candidates.append(p)
    stems = {import_word(p) for p in candidates}
    by_import = collections.defaultdict(list)  # (the placing modules by the words of their import lines)
    for p in placing if candidates else ():
        for word in stems.intersection(_WORD.findall(import_lines(texts[p]))):
            by_import[word].append(p)
    if not by_import:
        return []
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    check = lowered_on_toys(functools.partial(check_host_sync, device_elsewhere=True))
    imports: dict[str, set[str]] = {}
    found = []
    for path in sorted(candidates):
        linked = [
            q for q in by_import.get(import_word(path), ()) if q != path and _linked(texts, path, q, imports)
        ]
        if not linked:
            continue
        index = parse_index(texts[path])
        if index is None:
            continue
        noqa = noqa_lines(texts[path])
        for raw in check(index):
            if (path, raw.line) in reported or silenced(noqa.get(raw.line), _READ_RULE):
                continue
            reported.add((path, raw.line))
            found.append(project_finding(path, raw, _READ_RULE))
    return found


_FROM = re.compile(r"^\s*from\s+(\.*)([\w.]*)\s+import\s+\(?([\w\s,*]+)", re.MULTILINE)
_IMPORT = re.compile(r"^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)", re.MULTILINE)


def _imported_paths(text: str, path: str) -> set[str]:
    """The files the module's import lines may load, as Python finds them for a script run from its own
    folder or any folder above it (`from agents.PPO import PPO` -> `<folder>/agents/PPO.py`), or relative
    to its package (`from .ppo import PPO`): checker/project_files.py's `module_paths`. A checkout of several
    projects links no two of them."""
    dotted: list[tuple[int, str]] = []
    for match in _FROM.finditer(text):
        level, module = len(match.group(1)), match.group(2)
        names = [n.split()[0] for n in match.group(3).split(",") if n.strip() and n.strip() != "*"]
        dotted.append((level, module))
        dotted.extend((level, f"{module}.{n}" if module else n) for n in names)
    for match in _IMPORT.finditer(text):
        dotted.extend((0, part.split()[0]) for part in match.group(1).split(","))
    return {found for level, module in dotted for found in module_paths(module, path, level)}


def _linked(texts: dict[str, str], a: str, b: str, imports: dict[str, set[str]]) -> bool:
    """Module b imports module a (the script that places the model imports the trainer or agent; a module
    that only imports a helper with GPU code may well train on the CPU)."""
    if b not in imports:
        imports[b] = _imported_paths(texts[b], b)
    return a in imports[b]
