"""PP501 across modules: a training loop that reads values on the host every step, in a module that
moves nothing to a GPU itself (a trainer or agent module) while a module of the project that imports it
does (the script that places the model and batches), judged as if on the GPU, at medium; and a loop that
reads a loss through a def of another module (`epoch_loss += utils.to_scalar(loss)`)."""

from __future__ import annotations

import ast
import collections
import functools
import os
import re

from checker.findings import Finding
from checker.module import ModuleIndex
from checker.noqa import file_is_silenced, noqa_lines, silenced
from checker.project_files import import_word, module_paths
from checker.rules.torch_common import lowered_on_toys
from checker.rules.torch_sync import check_host_sync, host_readers, parameter_reads, reading_methods
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
    """The module-level defs holding a host read that read their argument (`host_readers`: `return
    x.data.cpu().numpy()`) or a parameter anywhere (`parameter_reads`: `logger.logkv_mean(key,
    values.mean().item())` over a dict of losses), each parsed alone (a def runs from its `def` at the
    margin to the next line at the margin)."""
    found, seen = set(), set()
    for match in _HOST_TEXT.finditer(text):
        start = text.rfind("\ndef ", 0, match.start()) + 1
        if start == 0 and not text.startswith("def "):
            continue
        if start in seen or _MARGIN.search(text, start + 1, match.start()):
            continue  # (a read at the margin or in a class after the def)
        seen.add(start)
        end = _MARGIN.search(text, match.end())
        index = parse_index(text[start : end.start() if end else len(text)], torch_only=False)
        if index is None:
            continue
        found |= host_readers(index)
        found |= {
            n
            for n, f in index.module_functions.items()
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and parameter_reads(f)
        }
    return found


_MARGIN = re.compile(r"^\S", re.MULTILINE)


def _reader_loops(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """PP501 findings for training loops that hand a loss or a step's tensor to code of another module that
    reads it on the host: a def returning a host read of its argument (`epoch_loss +=
    utils.to_scalar(loss)`), or a method of a project class that the loop's module makes an instance of
    (`meters = MetricLogger()`, then `meters.update(**loss_dict)`; `result = Result()`, then
    `result.evaluate(pred.data, target.data)`), where the module's own pass found no read in that loop.
    Only modules whose text reads on the host are parsed for the defs and classes, and only modules that
    name one of them and reach it by an import for the loops."""
    table: dict[str, list[tuple[str]]] = {}
    classes: dict[str, list[tuple[str]]] = {}
    for path, text in texts.items():
        if not _HOST_TEXT.search(text) or file_is_silenced(text):
            continue
        for name in _reader_defs(text):
            table.setdefault(name, []).append((path,))
        for name in _reading_class_names(text):
            classes.setdefault(name, []).append((path,))
    if not table and not classes:
        return []
    users = {
        p: t
        for p, t in texts.items()
        if TRAINS.search(t) and ("cuda" in t or "device" in t) and not file_is_silenced(t)
    }
    chosen_readers: dict[str, tuple] = {}
    if table:
        called = re.compile(r"\b(" + "|".join(map(re.escape, table)) + r")\s*\(")
        for index, chosen, path in importers(users, table, called):
            names = {n for n, entries in _loaded(chosen, texts, path).items() if entries}
            if names:
                chosen_readers[path] = (index, names)
    for path, text in users.items():  # (a def of the loop's own module: `log_loss_dict(...)`)
        own = {n for n, entries in table.items() if (path,) in entries and text.count(f"{n}(") > 1}
        if own:
            index = chosen_readers[path][0] if path in chosen_readers else parse_index(text)
            if index is not None:
                chosen_readers[path] = (index, chosen_readers.get(path, (index, set()))[1] | own)
    if classes:
        made = re.compile(r"\b(" + "|".join(map(re.escape, classes)) + r")\s*\(")
        parsed: dict[str, ModuleIndex | None] = {}
        for index, chosen, path in importers(users, classes, made):
            names = _instance_readers(index, _loaded(chosen, texts, path), texts, parsed)
            if names:
                old = chosen_readers.get(path, (index, set()))
                chosen_readers[path] = (old[0], old[1] | names)
    if not chosen_readers:
        return []
    loops = {
        (f.path, int(m.group(1)))
        for f in findings
        if f.rule == _READ_RULE and (m := _LOOP_LINE.search(f.message))
    }
    reported = {(f.path, f.line) for f in findings if f.rule == _READ_RULE}
    found = []
    for path, (index, names) in chosen_readers.items():
        check = lowered_on_toys(functools.partial(check_host_sync, readers=frozenset(names)))
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


def _loaded(chosen: dict, texts: dict[str, str], path: str) -> dict:
    """`chosen` without the entries of files the module's imports cannot load as Python would (`import
    utils` beside a utils.py of its own does not load another example's utils.py); a file of an imported
    package may be loaded by its `__init__.py` (`from tools import Logger`)."""
    loadable = _imported_paths(texts[path], path)
    packages = {os.path.dirname(p) for p in loadable if p.endswith("__init__.py")}  # (its re-exports)
    return {
        n: [e for e in entries if e[0] in loadable or os.path.dirname(e[0]) in packages]
        for n, entries in chosen.items()
    }


_HOST_TEXT = re.compile(r"\.(?:item|cpu|numpy|tolist)\(\)|\bfloat\(")
_CLASS_LINE = re.compile(r"^class\s+(\w+)", re.MULTILINE)


def _reading_class_names(text: str) -> set[str]:
    """The module-level classes whose text (from `class` at the margin to the next line at the margin)
    holds a host read: the candidates `reading_methods` parses."""
    found = set()
    for match in _CLASS_LINE.finditer(text):
        end = _MARGIN.search(text, match.end())
        if _HOST_TEXT.search(text, match.end(), end.start() if end else len(text)):
            found.add(match.group(1))
    return found


def _instance_readers(index: ModuleIndex, chosen: dict, texts: dict[str, str], parsed: dict) -> set[str]:
    """`meters.update`, `self.integrator.add_dict`: the reading methods (`reading_methods`) of the
    receivers the module binds to an instance of a project class it imports (`meters = MetricLogger(...)`,
    `self.integrator = Integrator(...)`)."""
    methods: dict[str, set[str]] = {}
    for name, entries in chosen.items():
        for (path,) in entries:
            if path not in parsed:
                parsed[path] = parse_index(texts[path], torch_only=False)
            definer = parsed[path]
            for node in definer.tree.body if definer is not None else ():
                if isinstance(node, ast.ClassDef) and node.name == name:
                    methods.setdefault(name, set()).update(reading_methods(node))
    if not any(methods.values()):
        return set()
    found = set()
    for node in ast.walk(index.tree):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        func = node.value.func
        cls = (
            func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        )
        for target in node.targets if methods.get(cls) else ():
            if isinstance(target, ast.Name) or (
                isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
            ):
                receiver = ast.unparse(target)
                found |= {f"{receiver}.{m}" for m in methods[cls]}
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


# (the names of a parenthesised import run over lines; of a plain one, to the line's end)
_FROM = re.compile(r"^\s*from\s+(\.*)([\w.]*)\s+import\s+(?:\(([\w\s,*]+)|([\w \t,*]+))", re.MULTILINE)
_IMPORT = re.compile(r"^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)", re.MULTILINE)


def _imported_paths(text: str, path: str) -> set[str]:
    """The files the module's import lines may load, as Python finds them for a script run from its own
    folder or any folder above it (`from agents.PPO import PPO` -> `<folder>/agents/PPO.py`), or relative
    to its package (`from .ppo import PPO`): checker/project_files.py's `module_paths`. A checkout of several
    projects links no two of them."""
    dotted: list[tuple[int, str]] = []
    for match in _FROM.finditer(text):
        level, module = len(match.group(1)), match.group(2)
        listed = match.group(3) or match.group(4)
        names = [n.split()[0] for n in listed.split(",") if n.strip() and n.strip() != "*"]
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
