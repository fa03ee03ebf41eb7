"""PP506 across modules: a def of one module that returns a tensor made on the host (`def
gen_rand_noise(n): return torch.randn(n, 128)`) and a loop in another module that copies what it
returns to the device on every step (`noise = gen_rand_noise(b).to(device)`); a def that makes and
moves a tensor (`torch.randperm(n).cuda()`) called by another module's training step or `forward`; and
a method doing so (or copying a tensor its `__init__` made on the host, a DDPM scheduler's
`self.betas.to(x.device)`) that another module's training step calls on an object
(`scheduler.add_noise(x, noise, t)`)."""

from __future__ import annotations

import ast
import collections
import dataclasses
import functools
import io
import os
import re
import tokenize
from collections.abc import Mapping
from types import MappingProxyType

from checker.findings import CONFIDENCE_LEVELS, Finding
from checker.module import FUNCTION_TYPES, ModuleIndex
from checker.noqa import file_is_silenced, noqa_lines, silenced
from checker.project_files import import_lines, import_word, imported_module_words
from checker.rules import rule_selected
from checker.rules.torch_common import TORCH_JOINS, facts, is_dtype_name, lowered_on_toys
from checker.rules.torch_loop import (
    check_python_loop_over_tensor,
    device_history,
    device_placed,
    outside_parameter_places,
)
from checker.rules.torch_moves import (
    WINDOWS,
    check_created_then_moved,
    forward_callees,
    host_factories,
    step_loop_callees,
)
from checker.rules.torch_steps import FACTORIES
from checker.torch_project.common import (
    MOVES,
    TRAINS,
    checked_texts,
    import_aliases,
    importers,
    parse_index,
    project_finding,
    project_texts,
)
from checker.torch_project.movers import MOVE_METHODS, MOVE_NAMES, def_bodies, moves_in, project_movers

_FACTORY_RULE = "PP506"
# (torch-fix58) with `torch.from_numpy` (CDAN's `torch.from_numpy(np.array([[1]] * b + [[0]] * b)).cuda()` in a
# loss another module's loop calls; the module pass decides whether the array is the same every call) and the
# signal windows (`torch.hamming_window(n)`)
_FACTORY = (
    r"torch\.(?:"
    + "|".join(sorted(n[len("torch.") :] for n in {*FACTORIES, *WINDOWS, "torch.from_numpy"}))
    + r")\("
)
# (a factory's call; one whose tensor is moved in the same line)
_FACTORY_RE = re.compile(_FACTORY)
# (torch-fix61) a factory's call under any name for torch (`import torch as T`: the summariser's `get_cuda((T.rand(
# n) > 0.25))`)
_ALIASED_FACTORY = r"\w+\." + _FACTORY[len(r"torch\.") :]
_MOVED_FACTORY = re.compile(rf"{_FACTORY}.*\.{MOVE_NAMES}\(")


def factories_across_modules(
    findings: list[Finding], projects: list[list[str]], codes=None, sources: dict | None = None
) -> list[Finding]:
    """`findings` with a PP506 finding added where a loop copies to the device, every step, a tensor that
    a def of another module of the project made on the host. Only modules whose text calls a torch factory
    are parsed for such defs, and only modules that name one of them for the copies. (torch-fix50) Also
    PP509 where a def reads the rows of device tensors that another module's training loop hands it
    (`_rows_read_across_modules`)."""
    factories = rule_selected(codes, _FACTORY_RULE)
    rows = rule_selected(codes, _ROWS_RULE)
    if not (factories or rows):
        return findings
    sources = {} if sources is None else sources
    for files in projects:
        every = project_texts(files, sources)
        texts = checked_texts(every)
        if factories:
            findings = _factories_moved(texts, findings)
            findings = _unnamed_class_copies(every, files, findings)
            findings = _uncalled_def_copies(every, files, findings)
            findings = _unimported_module_copies(every, files, findings)
        if rows:
            findings = findings + _rows_read_across_modules(texts, findings)
    return findings


_CLASS = re.compile(r"^([ \t]*)class[ \t]+(\w+)", re.MULTILINE)


def _unnamed_class_copies(texts: dict[str, str], files: list[str], findings: list[Finding]) -> list[Finding]:
    """(torch-fix53) `findings` with each `high` PP506 finding inside a class that no file of the project
    (`texts`, test scripts and notebooks among them) names outside the class's own text (no instance made,
    no import, no subclass, no string naming it: SincNet's old `sinc_conv` layer, which its CNN no longer
    builds) reported at `medium`: code nothing runs. On hold-out 17's first read the unconditional
    `.cuda()` copies raised to `high` in round 1 read 12 of 15 right, the 3 others this layer's."""
    high = _high_copies(texts, findings)
    if not high:
        return findings
    lowered = list(findings)
    for path, ats in high.items():
        text = texts[path]
        for name, start, end in _class_spans(text):
            inside = [at for at in ats if start <= findings[at].line <= end]
            if inside and (
                (not _named_outside(texts, path, name, start, end) and not _in_notebooks(files, name))
                or _unimported_duplicate(texts, files, path, name)
            ):
                for at in inside:
                    lowered[at] = dataclasses.replace(findings[at], confidence="medium")
    return lowered


def _unimported_module_copies(
    texts: dict[str, str], files: list[str], findings: list[Finding]
) -> list[Finding]:
    """(torch-fix131) `findings` with each `high` PP506 finding in a library module no file of the project
    imports reported at `medium`, as `_unnamed_class_copies` does for a class: the module holds only imports,
    defs, classes and assignments (no script's top-level code, no `if __name__ == "__main__":`), no other
    file's import lines name it (a commented-out import does not count) and no notebook names it; not in a
    project that imports modules by a name it reads (`_imports_by_name`). Hold-out 44 read such copies
    debatable at `high`: Attention_ocr's `models/crnn.py` (train.py and demo.py import `crnn_lang`) and
    omni-us' three encoders imported only in commented-out lines. A script nothing imports is what a command
    line runs, so its copies keep their level (`_KEPT_COPY`'s note: DeepRL-Tutorials, self-label)."""
    high = _high_copies(texts, findings)
    if not high or any(_imports_by_name(t) for t in texts.values()):
        return findings
    lowered = list(findings)
    for path, ats in high.items():
        stem = import_word(path)
        if (
            stem == "__init__"
            or not _library_module(texts[path])
            or any(p != path and stem in imported_module_words(t) for p, t in texts.items())
            or _in_notebooks(files, stem)
        ):
            continue
        for at in ats:
            lowered[at] = dataclasses.replace(findings[at], confidence="medium")
    return lowered


_TOP_STATEMENT = re.compile(
    r"^(?![ \t#\n)\]}]|(?:from|import|def|class|async|@)\b|[\w., ]+=(?!=)|[\"']|$)", re.MULTILINE
)


# (an assignment at the margin and its continuation lines: the lines up to the next one at the margin)
_TOP_ASSIGNMENT = re.compile(r"^\w[\w., ]*=(?!=)([^\n]*(?:\n[ \t)\]}][^\n]*)*)", re.MULTILINE)


def _library_module(text: str) -> bool:
    """The module's lines at the margin are imports, defs, classes, decorators, assignments, strings and
    comments only: a library, which runs nothing when executed (no `if __name__`, no loop, no call of its
    own defs: `losses = train(model)` at the margin runs the module's `train`, a script's top level, where
    `logger = logging.getLogger(__name__)` calls a library; session 26 reread)."""
    return _TOP_STATEMENT.search(text) is None and not _calls_own_def_at_margin(text)


def _calls_own_def_at_margin(text: str) -> bool:
    """An assignment at the margin calls a def at the margin of the same text (`losses = train(model)` under
    `def train(`): not `model.train()`, a method. (review 27 item 2) Read outside strings: a docstring's
    usage example (`losses = train(loader, epochs=10)` under "Use it so:") runs nothing."""
    text = _strings_blanked(text)
    names = set(_TOP_DEF.findall(text))
    if not names:
        return False
    called = re.compile(r"(?<![\w.])(?:" + "|".join(sorted(names)) + r")[ \t]*\(")
    return any(called.search(value) for value in _TOP_ASSIGNMENT.findall(text))


_STRING_TOKENS = frozenset(
    {tokenize.STRING} | ({tokenize.FSTRING_MIDDLE} if hasattr(tokenize, "FSTRING_MIDDLE") else set())
)


def _strings_blanked(text: str) -> str:
    """The text with every string literal's characters but its line ends made spaces (lines and margins kept);
    the text as it is when the tokenizer fails on it."""
    lines = io.StringIO(text).readlines()  # split as the tokenizer splits: on line ends only
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type in _STRING_TOKENS]
    except (tokenize.TokenError, SyntaxError):
        return text
    for token in tokens:
        (first, start), (last, end) = token.start, token.end
        for row in range(first, last + 1):
            line = lines[row - 1]
            begin = start if row == first else 0
            stop = end if row == last else len(line.rstrip("\r\n"))
            lines[row - 1] = line[:begin] + " " * (stop - begin) + line[stop:]
    return "".join(lines)


def _high_copies(texts: dict[str, str], findings: list[Finding]) -> dict[str, list[int]]:
    """path -> the places in `findings` of its `high` PP506 findings outside notebook cells: the copies
    `_unnamed_class_copies` and `_uncalled_def_copies` may lower (one list for both)."""
    high = collections.defaultdict(list)
    for at, f in enumerate(findings):
        if f.rule == _FACTORY_RULE and f.confidence == "high" and f.cell is None and f.path in texts:
            high[f.path].append(at)
    return high


def _uncalled_def_copies(texts: dict[str, str], files: list[str], findings: list[Finding]) -> list[Finding]:
    """(torch-fix109) `findings` with each `high` PP506 finding inside a top-level def that nothing in the
    project runs (`_dead_def`) reported at `medium`, as `_unnamed_class_copies` does for a class: a helper no
    file names, or names only inside other such helpers (SAPNet's `Laplacian`, called only by a
    `laplacian_loss` nothing calls; DRBN's `gradient`, called only by smoothness losses its trainer never
    imports). Hold-out 33 read these debatable at `high`. Not in a project that imports modules by a name it
    reads (`_DYNAMIC_IMPORT`), whose defs may be reached by name."""
    high = _high_copies(texts, findings)
    if not high or any(_imports_by_name(t) for t in texts.values()):
        return findings
    spans = {}  # (path -> its top-level defs' spans), made as asked
    lowered = list(findings)
    for path, ats in high.items():
        for name, start, end in _top_def_spans(texts[path]):
            inside = [at for at in ats if start <= findings[at].line <= end]
            if inside and _dead_def(texts, files, spans, (path, name, start, end), set()):
                for at in inside:
                    lowered[at] = dataclasses.replace(findings[at], confidence="medium")
    return lowered


def _dead_def(
    texts: dict[str, str], files: list[str], spans: dict, span: tuple, seen: set, depth: int = 0
) -> bool:
    """The top-level def (`span`: path, name, first and last line) is named nowhere in the project's files
    outside its own lines but inside other top-level defs that are dead in turn (to three levels), and in no
    notebook: nothing runs it. A name in a string, an import, a class or module-level code keeps it live."""
    path, name, start, end = span
    if depth > 3 or _in_notebooks(files, name):
        return False
    seen = seen | {(path, name)}
    for other, line in _mentions_outside(texts, path, name, start, end):
        if other not in spans:
            spans[other] = _top_def_spans(texts[other])
        user = next((s for s in spans[other] if s[1] <= line <= s[2]), None)
        if user is None:
            return False  # (an import, a class, module-level code or another module's call)
        if (other, user[0]) not in seen and not _dead_def(
            texts, files, spans, (other, *user), seen, depth + 1
        ):
            return False
    return True


_TOP_DEF = re.compile(r"^(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)


def _top_def_spans(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of each def of the module's text at no indentation, by `_spans`."""
    return _spans(text, _TOP_DEF)


def _unimported_duplicate(texts: dict[str, str], files: list[str], path: str, name: str) -> bool:
    """(torch-fix94) The module's name marks it a kept copy (`_KEPT_COPY`: `networks_backup`, `model_old`), the
    class is defined again in another module of the project and no other file names this module at all (no
    import, no string for `importlib`): a copy that nothing loads (DeepFashion_Try_On's
    `networks_backup.py` beside the `networks.py` the model imports, whose classes `_named_outside` finds
    named in the live copy). Its copies are code nothing runs, as a class no file names is (hold-out 27 read
    both of its `high` findings debatable). Not in a project that imports modules by a name it reads
    (`importlib.import_module(cfg["module"])`: hold-out 20's speech-enhancement trainers, named only in JSON
    configurations and read right at `high`; ReChorus' `eval('{0}.{0}'.format(name))`), nor for a module a
    notebook names. Without the name, an unimported module is often what a notebook or a command line runs
    (DeepRL-Tutorials' `agents/Categorical_DQN.py`, self-label's `retrain_with_rotnet.py`, both read right at
    `high`), so the name is asked for."""
    stem = import_word(path)
    if not _KEPT_COPY.search(stem) or any(_imports_by_name(t) for t in texts.values()):
        return False
    defined = re.compile(rf"^[ \t]*class[ \t]+{re.escape(name)}\b", re.MULTILINE)
    return (
        any(p != path and name in t and defined.search(t) for p, t in texts.items())
        and not any(p != path and stem in t for p, t in texts.items())
        and not _in_notebooks(files, stem)
    )


# (a module's name that marks it a kept copy: `networks_backup`, `model_old`, `train_copy`, `loss_bak`)
_KEPT_COPY = re.compile(r"(?i)backup|_bak$|_old$|^old_|_copy$|^copy_|_orig$")
_DYNAMIC_IMPORT = re.compile(
    r"\bimport_module\(|\b__import__\(|\bimport_from_string\(|\bget_obj_from_str\(|(?<![.\w])eval\("
)
# The words `_DYNAMIC_IMPORT` matches, without the boundaries that keep re from scanning for them fast.
_DYNAMIC_WORDS = re.compile(r"(?:import_module|__import__|import_from_string|get_obj_from_str|eval)\(")


def _imports_by_name(text: str) -> bool:
    """`_DYNAMIC_IMPORT.search(text)`, at a fourteenth of its cost (0.25 of hold-out 36's 3.9 CPU s): its
    words are found by a pattern re scans for quickly, and each is tried with the boundaries where it stands
    (no word ends another, so every place `_DYNAMIC_IMPORT` matches starts one of these matches)."""
    return any(_DYNAMIC_IMPORT.match(text, m.start()) for m in _DYNAMIC_WORDS.finditer(text))


def _class_spans(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of each class of the module's text, by `_spans`."""
    return _spans(text, _CLASS)


def _spans(text: str, header: re.Pattern) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of each block whose header `header` matches (its last group the name,
    its first the indentation when it has two), by indentation: the block runs to the line before the next
    non-blank, non-comment line indented no deeper than its header."""
    lines = text.splitlines()
    spans = []
    for match in header.finditer(text):
        indent = len(match.group(1)) if header.groups > 1 else 0
        first = text.count("\n", 0, match.start()) + 1
        last = len(lines)
        for number in range(first, len(lines)):
            line = lines[number]
            stripped = line.strip()
            if stripped and not stripped.startswith("#") and len(line) - len(line.lstrip()) <= indent:
                last = number
                break
        spans.append((match.group(header.groups), first, last))
    return spans


def _in_notebooks(files: list[str], name: str) -> bool:
    """The name appears in the text of one of the project's notebooks (read raw: asked rarely)."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    for path in files:
        if path.endswith(".ipynb"):
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
                if name in text and word.search(text):  # (a substring search first: outputs run to MBs)
                    return True
            except OSError:
                continue
    return False


def _named_outside(texts: dict[str, str], path: str, name: str, start: int, end: int) -> bool:
    """The class's name appears in some file of the project outside its own lines (`start`-`end` of
    `path`). (torch-fix111) Not inside a class of the same name in another file: a copy of the class names
    itself (TransMorph's three copies of `SinusoidalPositionEmbedding` in their `super(...)` calls, none of
    them built: hold-out 30 read their six `high` copies debatable)."""
    copies = {}  # (file -> the spans of its classes of that name, made as asked)
    for other, line in _mentions_outside(texts, path, name, start, end):
        if other not in copies:
            copies[other] = [
                (first, last) for named, first, last in _class_spans(texts[other]) if named == name
            ]
        if not any(first <= line <= last for first, last in copies[other]):
            return True
    return False


def _mentions_outside(texts: dict[str, str], path: str, name: str, start: int, end: int):
    """(file, line) of each whole-word mention of `name` in the project's texts, outside lines `start`-`end`
    of `path` (where it is defined). (torch-fix111) Not on a comment line: `#self.pos_embd =
    SinusoidalPositionEmbedding().cuda()` runs nothing (TransMorph's three copies of that layer, whose
    `.cuda()` copies hold-out 30 read debatable at `high`)."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    for other, text in texts.items():
        if name not in text:
            continue
        for match in word.finditer(text):
            if _commented(text, match.start()):
                continue
            line = text.count("\n", 0, match.start()) + 1
            if other != path or not start <= line <= end:
                yield other, line


def _commented(text: str, at: int) -> bool:
    """The text before offset `at` on its line starts a comment: the line is a comment (a commented-out
    call); a trailing comment after code is left alone (its `#` may sit in a string)."""
    return text[text.rfind("\n", 0, at) + 1 : at].lstrip().startswith("#")


_ROWS_RULE = "PP509"
# (a row or element read to the host, `pred[i][0].cpu()`, and a Python loop over a range: a def whose text
# has both may read rows one by one)
_ROW_READ = re.compile(r"\w\[[^\]\n]*\][\w.\[\]()]*?\.(?:cpu|item|tolist)\(\)")
_RANGE_LOOP = re.compile(r"\bfor\b[^\n]*\bin\s+range\(")


def _reads_rows(text: str) -> bool:
    """`_ROW_READ` finds a row read in the text (which then says `.cpu()`, `.item()` or `.tolist()`)."""
    return any(w in text for w in (".cpu()", ".item()", ".tolist()")) and _ROW_READ.search(text) is not None


def _rows_read_across_modules(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """(torch-fix50) PP509 findings that need two modules: a module-level def (`iou_on_batch(masks, pred)`,
    UCTransNet's metric helper) whose loop over the batch reads each row of a parameter to the host
    (`pred[i][0].cpu()`), called on every step of another module's training loop with device tensors
    (`preds = model(images)`, `masks = masks.cuda()`). The helper's module is checked once more knowing
    which of its parameters hold device tensors (`outside_parameter_places`); only its new findings are
    kept."""
    helpers: dict[str, list[tuple[str]]] = {}
    for path, text in texts.items():
        if "torch" not in text or not _reads_rows(text) or file_is_silenced(text):
            continue
        for owner, name, body in def_bodies(text, moving=False):
            if owner is not None or name == "main" or TRAINS.search(body):
                continue  # (a training function or entry point: its own loops are the module pass's)
            if _RANGE_LOOP.search(body) and _ROW_READ.search(body):
                helpers.setdefault(name, []).append((path,))
    if not helpers:
        return []
    called = re.compile(r"\b(" + "|".join(map(re.escape, helpers)) + r")\s*\(")
    trainers = {p: t for p, t in texts.items() if _STEPS.search(t) and MOVES.search(t)}
    given: dict[str, dict[str, list]] = {}
    for index, chosen, _ in importers(trainers, helpers, called):
        for name, entries in chosen.items():
            for site in _step_loop_calls(index, name):
                for (path,) in entries[:1]:
                    given.setdefault(path, {}).setdefault(name, []).append(_handed_places(index, site))
    found = []
    reported = {(f.path, f.line) for f in findings if f.rule == _ROWS_RULE}
    for path, by_name in sorted(given.items()):
        index = parse_index(texts[path])
        if index is None:
            continue
        seeds = {}
        for name, calls in by_name.items():
            function = index.module_functions.get(name)
            if function is not None and (placed := _parameters_placed(function, calls)):
                seeds[id(function)] = placed
        if not seeds:
            continue
        outside_parameter_places(index, seeds)
        spans = [(f.lineno, f.end_lineno or f.lineno) for f in index.functions if id(f) in seeds]
        noqa = noqa_lines(texts[path])
        for raw in check_python_loop_over_tensor(index):
            if (path, raw.line) in reported or not any(a <= raw.line <= b for a, b in spans):
                continue
            if silenced(noqa.get(raw.line), _ROWS_RULE):
                continue
            reported.add((path, raw.line))
            found.append(project_finding(path, raw, _ROWS_RULE))
    return found


def _step_loop_calls(index: ModuleIndex, name: str) -> list:
    """The calls of `name` (plain or on a module, `utils.name(...)`) on every step of a training loop of the
    module (the innermost step loop's own body, outside `if step % N`)."""
    fx = facts(index)
    found = []
    for loop in fx.step_loops:
        for site in index.loop_calls[id(loop)]:
            func = site.node.func
            callee = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else None
            )
            if (
                callee == name
                and site.loops
                and site.loops[-1] is loop
                and isinstance(site.function, (*FUNCTION_TYPES, type(None)))
                and not fx.periodic(site.node, loop)
            ):
                found.append(site)
    return found


def _handed_places(index: ModuleIndex, site) -> tuple[list, dict]:
    """Where each argument of the call lives (True on the device, False on the host, None unknown), by
    position and by keyword, from the caller's own bindings."""
    call = site.node
    history = device_history(index, site.function)
    before = {}
    for name, bindings in history.items():
        for at, kind in bindings:
            if at >= call.lineno:
                break
            before[name] = kind
    places = [
        None if isinstance(a, ast.Starred) else device_placed(a, index, site.function, before)
        for a in call.args
    ]
    return places, {
        k.arg: device_placed(k.value, index, site.function, before) for k in call.keywords if k.arg
    }


def _parameters_placed(function, calls: list[tuple[list, dict]]) -> dict[str, bool]:
    """The def's parameters every call hands a device value."""
    params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    placed = None
    for positional, keywords in calls:
        here = {params[i] for i, kind in enumerate(positional) if i < len(params) and kind is True}
        here |= {name for name, kind in keywords.items() if name in params and kind is True}
        placed = here if placed is None else placed & here
    return dict.fromkeys(placed or (), True)


def _factories_moved(texts: dict[str, str], findings: list[Finding]) -> list[Finding]:
    """`findings` with the PP506 findings that need two modules: a copy of what another module's def made on
    the host (`_outside_factories`), and a copy made in a def that another module's training loop calls
    (`_stepped_defs`). Each module concerned is checked once more with that knowledge, and only its
    findings not reported before are kept, or (torch-fix135) reported before at a lower level, which they
    replace: the module pass reports Blind2Unblind's `Masker.mask` copy at `low` (a method it sees no loop
    run), the project pass at `medium` (its own training loop runs it on `masker`, `_own_instance_methods`)."""
    indexes: dict[str, ModuleIndex] = {}
    outside = _outside_factories(texts, indexes)
    movers = _movers_imported(texts, indexes)
    stepped = _stepped_defs(texts, indexes, movers)
    reported = {(f.path, f.line): f.confidence for f in findings if f.rule == _FACTORY_RULE}
    found: dict[tuple[str, int], Finding] = {}
    raised = set()
    for path in sorted(set(outside) | set(stepped) | set(movers)):
        index = indexes.get(path) or parse_index(texts[path])
        if index is None:
            continue
        check = functools.partial(
            check_created_then_moved,
            outside=outside.get(path, {}),
            stepped=frozenset(stepped.get(path, ())),
            movers=frozenset(movers.get(path, ())),
        )
        noqa = noqa_lines(texts[path])
        for raw in lowered_on_toys(check)(index):
            new = project_finding(path, raw, _FACTORY_RULE)
            old = reported.get((path, raw.line))
            if silenced(noqa.get(raw.line), _FACTORY_RULE) or not _higher(new.confidence, old):
                continue
            if old is not None:
                raised.add((path, raw.line))
            reported[(path, raw.line)] = new.confidence
            found[(path, raw.line)] = new
    kept = [f for f in findings if f.rule != _FACTORY_RULE or (f.path, f.line) not in raised]
    return kept + list(found.values())


def _higher(confidence: str, than: str | None) -> bool:
    """`confidence` is above `than` (None: nothing reported yet)."""
    return than is None or CONFIDENCE_LEVELS.index(confidence) < CONFIDENCE_LEVELS.index(than)


def _movers_imported(texts: dict[str, str], indexes: dict) -> dict[str, set[str]]:
    """(torch-fix58) {path: names}: the defs of other modules that move their first argument to the device and
    return it (the project's movers table, checker/torch_project/movers.py: ADDA's `utils.make_variable`, whose
    `.cuda()` sits under `if torch.cuda.is_available():`), for each module that imports and calls one with a
    torch factory's tensor (`make_variable(torch.ones(feat_src.size(0)).long())` in the adaptation loop). By
    the text first: only a module that calls a mover's name so and whose import lines may name it is
    parsed."""
    movers = project_movers(texts)
    if not movers.names:
        return {}
    found: dict[str, set[str]] = {}
    for path, text in texts.items():
        if not movers.may_import(text):
            continue
        aliases = import_aliases(text)  # (`from utils import make_variable as var`: `var(torch.ones(b))`)
        words = movers.names.union(*(aliases[n] for n in movers.names & aliases.keys()))
        names = {name for name in _CALLED_WITH_FACTORY.findall(text) if name in words}
        names |= _called_with_bound_factory(text, words - names)
        index = (indexes.get(path) or parse_index(text)) if names else None
        if index is None:
            continue
        names &= {name for name, returns in movers.imported(path, index).items() if returns}
        if names:
            found[path], indexes[path] = names, index
    return found


# (a call whose first argument is a torch factory's tensor, `make_variable(torch.ones(b).long())`: the name called)
_CALLED_WITH_FACTORY = re.compile(r"\b(\w+)\(\s*\(?" + _ALIASED_FACTORY)
# (torch-fix145) a name bound to a factory's tensor, `rand = torch.rand(n)`, and a call whose first argument
# starts with a name, `var_cuda(rand > p)`
_BOUND_TO_FACTORY = re.compile(r"^[ \t]*(\w+)[ \t]*=[ \t]*" + _ALIASED_FACTORY, re.MULTILINE)
_CALLED_WITH_NAME = re.compile(r"\b(\w+)\(\s*\(?(\w+)\b(?!\()")


def _called_with_bound_factory(text: str, words: set[str]) -> set[str]:
    """(torch-fix145) The names of `words` called with a name the text binds to a factory's tensor (MultiHopKG's
    `rand = torch.rand(action_dist.size())`, then `var_cuda(rand > self.action_dropout_rate)`): the module pass
    follows the name to its factory, as it does for `make_variable(torch.ones(b))`."""
    if not words:
        return set()
    bound = set(_BOUND_TO_FACTORY.findall(text))
    if not bound:
        return set()
    return {name for name, first in _CALLED_WITH_NAME.findall(text) if name in words and first in bound}


def _outside_factories(texts: dict[str, str], indexes: dict) -> dict[str, dict[str, str]]:
    """{path: {callee: factory}}: for each module, the defs of other modules it calls that return a tensor
    made on the host, imported from their module, or methods no other def of the project is named as
    (`G.sample_latent`). The parsed importers are kept in `indexes`."""
    candidates = {
        p: names for p, t in texts.items() if (names := _factory_defs(t)) and not file_is_silenced(t)
    }
    if not candidates:
        return {}
    named = set().union(*candidates.values())
    users = {p: moved for p, t in texts.items() if MOVES.search(t) and (moved := _moved_results(t, named))}
    makers: dict[str, list[tuple[str, str]]] = {}
    for path, names in candidates.items():
        if not any(n in moved for p, moved in users.items() if p != path for n in names):
            continue  # (no other module moves what they return)
        index = parse_index(texts[path])
        for name, factory in (host_factories(index, names) if index is not None else {}).items():
            makers.setdefault(name, []).append((path, factory))
    if not makers:
        return {}
    defined = collections.Counter(n for t in texts.values() for n in _DEF.findall(t) if n in makers)
    called = re.compile(r"\b(" + "|".join(map(re.escape, makers)) + r")\s*\(")
    found = {}
    movers = {p: texts[p] for p, moved in users.items() if any(n in makers for n in moved)}
    for index, chosen, path in importers(movers, makers, called):
        named = {
            n: (entries or makers[n])[0][1]
            for n, entries in chosen.items()
            if entries or (defined[n] == len(makers[n]) and _method_call(texts[path], n))
        }
        if named:
            found[path], indexes[path] = named, index
    return found


def _moved_results(text: str, names: set[str]) -> set[str]:
    """Those of `names` called on a line that moves a tensor, or whose next three lines do
    (`gen_rand_noise(b).to(device)`; `z = Variable(G.sample_latent(n))`, then `z = z.cuda()`)."""
    found = set()
    for name in names:
        at = text.find(name + "(") if name in text else -1
        while at >= 0 and name not in found:
            if at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_"):
                start = text.rfind("\n", 0, at) + 1
                end = start
                for _ in range(4):
                    end = text.find("\n", end + 1)
                    if end < 0:
                        end = len(text)
                        break
                if MOVES.search(text, start, end):
                    found.add(name)
            at = text.find(name + "(", at + 1)
    return found


def _stepped_defs(
    texts: dict[str, str], indexes: dict, movers: Mapping[str, set[str]] = MappingProxyType({})
) -> dict[str, set[str]]:
    """{path: names}: module-level defs that make a torch tensor and move one (`mixup_data`, whose
    `torch.randperm(n).cuda()` runs on every step) and that a training loop or training-step def
    (`step_loop_callees`), or a `forward` or loss def (`forward_callees`: a YOLO layer's
    `build_targets(...)`), of a module importing them calls; and methods, as `Class.method`, that do so
    or copy a tensor held on `self` (`_moving_defs`), named by no other def of the project, that a training
    loop or training-step def of another module calls on an object (`model.gradient_penalty(x, g)`).
    (torch-fix153) A def also moves when it hands a factory's tensor to a project mover the module imports
    (`movers`, `_movers_imported`: DAGMM's `to_var(torch.eye(D) * eps)` in `compute_energy`)."""
    defs: dict[str, list[tuple[str]]] = {}
    methods: dict[str, dict[str, str]] = {}
    relays: dict[tuple[str, str], set[str]] = {}
    inits: set[tuple[str, str]] = set()
    for path, text in texts.items():
        if "torch." not in text or file_is_silenced(text):
            continue
        moving, moving_methods = _moving_defs(text)
        if movers.get(path):
            more, more_methods = _mover_calling_defs(text, movers[path])
            moving, moving_methods = moving | more, moving_methods | more_methods
        for name in moving:
            defs.setdefault(name, []).append((path,))
        for name in _moving_inits(text):
            defs.setdefault(name, []).append((path,))
            inits.add((path, name))
        for owner, name in moving_methods:
            methods.setdefault(name, {})[path] = owner
        for (owner, name), callees in _relaying_defs(text, moving, moving_methods).items():
            relays[(path, name if owner is None else f"{owner}.{name}")] = callees
            if owner is None:
                defs.setdefault(name, []).append((path,))
            else:
                methods.setdefault(name, {}).setdefault(path, owner)
    found: dict[str, set[str]] = {}
    if defs:
        _stepped_module_defs(texts, defs, found)
    if methods:
        _stepped_methods(texts, methods, indexes, found)
        _own_instance_methods(texts, methods, indexes, found)
    if inits:
        found = {p: {f"{n}.__init__" if (p, n) in inits else n for n in names} for p, names in found.items()}
    return _relayed(found, relays) if relays else found


def _mover_calling_defs(text: str, names: set[str]) -> tuple[set[str], set[tuple[str, str]]]:
    """(torch-fix153) `_moving_defs`' defs and methods for a line that calls one of `names`, project movers the
    module imports, with a factory's tensor first (`cov_k = cov[i] + to_var(torch.eye(D) * eps)`), by the
    text; the same defs are left out (training functions, `main`, dunder and `_SKIPPED_METHODS`)."""
    defs: set[str] = set()
    methods: set[tuple[str, str]] = set()
    called = re.compile(
        r"(?<![\w.])(?:" + "|".join(map(re.escape, sorted(names))) + r")\(\s*\(?" + _ALIASED_FACTORY
    )
    for owner, name, body in def_bodies(text, moving=False):
        if not called.search(body) or _STEP_CALL.search(body) or name.startswith("__"):
            continue
        if owner is None and name != "main":
            defs.add(name)
        elif owner is not None and name not in _SKIPPED_METHODS:
            methods.add((owner, name))
    return defs, methods


def _relaying_defs(
    text: str, moving: set[str], moving_methods: set[tuple[str, str]]
) -> dict[tuple[str | None, str], set[str]]:
    """(torch-fix94) {(class or None, name): callees}: the defs of the module that make and move nothing by the
    text themselves but call one of its moving defs (`_moving_defs`): a module-level def calling a module-level
    one by name (BMN's `bmn_loss_func` running `pem_reg_loss_func`, whose `torch.ones(*shape).cuda()` runs on
    every loss), a method calling one of its class's own by `self.` (TRADE's `train_batch` running
    `self.encode_and_decode(...)`, which builds its word-dropout mask in NumPy and moves it). The training loop
    of another module calls the outer def, not the mover, so `_stepped_defs` asks about both and hands on the
    mover (`_relayed`). One level; training functions (backward, an optimizer step), `main`, dunder methods and
    `_SKIPPED_METHODS` are left out, as `_moving_defs` leaves them."""
    found: dict[tuple[str | None, str], set[str]] = {}
    if not moving and not moving_methods:
        return found
    plain = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, moving)) + r")\s*\(") if moving else None
    for owner, name, body in def_bodies(text, moving=False):
        if TRAINS.search(body) or name.startswith("__") or name == "main":
            continue
        if owner is None:
            callees = set(plain.findall(body)) - {name} if plain is not None and name not in moving else set()
        elif name in _SKIPPED_METHODS or (owner, name) in moving_methods:
            continue
        else:
            callees = {m for o, m in moving_methods if o == owner and m != name and f"self.{m}(" in body}
        if callees:
            found[(owner, name)] = callees
    return found


def _relayed(found: dict[str, set[str]], relays: dict[tuple[str, str], set[str]]) -> dict[str, set[str]]:
    """`found` with each stepped relaying def (`_relaying_defs`) replaced by the movers it calls (`Class.name`
    for a method's), which then run on every step too."""
    result: dict[str, set[str]] = {}
    for path, names in found.items():
        for name in names:
            callees = relays.get((path, name))
            if callees is None:
                result.setdefault(path, set()).add(name)
                continue
            owner = name.rpartition(".")[0]
            result.setdefault(path, set()).update(f"{owner}.{c}" if owner else c for c in callees)
    return result


def _stepped_module_defs(texts: dict[str, str], defs: dict[str, list[tuple[str]]], found: dict) -> None:
    """Into `found`, the defs of `defs` that a training loop, training-step def, `forward` or loss def of a
    module importing them calls."""
    called = re.compile(r"\b(" + "|".join(map(re.escape, defs)) + r")\s*\(")
    stems = {import_word(e[0]) for entries in defs.values() for e in entries}
    wanted = re.compile(r"\b(?:" + "|".join(map(re.escape, {*defs, *stems})) + r")\b")
    trainers = {
        p: t
        for p, t in texts.items()
        if any(n in t for n in defs)
        and (_STEPS.search(t) or _FORWARD.search(t))
        and wanted.search(import_lines(t))
    }
    for index, chosen, _ in importers(trainers, defs, called):
        for name in (step_loop_callees(index) | forward_callees(index)) & set(chosen):
            for (path,) in chosen[name]:
                found.setdefault(path, set()).add(name)


def _stepped_methods(texts: dict[str, str], methods: dict[str, dict[str, str]], indexes: dict, found: dict):
    """Into `found`, `Class.method` for the methods of `methods` (name -> {path: class}) that a training
    loop or training-step def of another module calls on an object (`_named_def`: the one def of that name
    nearest the caller), so `model.sample_noise(n)` runs it whatever `model` is (the object often comes in
    as a parameter, its class imported by the module that makes it, not by the one stepping)."""
    called = re.compile(r"\.(" + "|".join(map(re.escape, methods)) + r")\s*\(")
    calls = {
        path: names
        for path, text in texts.items()
        if _STEPS.search(text) and (names := set(called.findall(text))) and not file_is_silenced(text)
    }
    if not calls:
        return
    wanted = set().union(*calls.values())
    defining = re.compile(r"def[ \t]+(" + "|".join(map(re.escape, wanted)) + r")\s*\(")
    defined: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for path, text in texts.items():
        for name in defining.findall(text):
            defined[name][path] += 1
    for path, names in calls.items():
        named = {
            n: where for n in names if (where := _named_def(path, defined[n])) in methods[n] and where != path
        }
        if not named:
            continue
        index = indexes.get(path) or parse_index(texts[path])
        if index is None:
            continue
        indexes[path] = index
        for name in step_loop_callees(index) & set(named):
            found.setdefault(named[name], set()).add(f"{methods[name][named[name]]}.{name}")


def _own_instance_methods(
    texts: dict[str, str], methods: dict[str, dict[str, str]], indexes: dict, found: dict
):
    """(torch-fix135) Into `found`, `Class.method` for the moving methods (`methods`: name -> {path: class}) of a
    class of the module that its own training loop runs on an instance it makes by name (`masker =
    Masker(width=4, ...)` at the margin, then `masker.train(noisy)` every step: Blind2Unblind, hold-out 45),
    called there or one level in by `self.` (`Masker.train` running `self.mask(...)` 16 times, whose
    `torch.ones(mask.shape).to(img.device)` copies to the device), and the module's own moving defs those
    methods call by name (`interpolate_mask(img, mask, mask_inv)`, whose kernel is copied each time). The
    module pass runs a module's own defs a step loop calls by name, not methods called on an object;
    `_stepped_methods` asks only about other modules' defs."""
    owned: dict[str, dict[str, set[str]]] = {}  # (path -> class -> its moving methods)
    for name, where in methods.items():
        for path, owner in where.items():
            owned.setdefault(path, {}).setdefault(owner, set()).add(name)
    for path, classes in owned.items():
        text = texts[path]
        if not _STEPS.search(text):
            continue
        for owner, moving in classes.items():
            made = set(re.findall(rf"^[ \t]*(\w+)[ \t]*=[ \t]*{re.escape(owner)}\(", text, re.MULTILINE))
            called = {m for v in made for m in re.findall(rf"(?<![\w.]){re.escape(v)}\.(\w+)\s*\(", text)}
            if called:
                index = indexes.get(path) or parse_index(text)
                if index is not None:
                    indexes[path] = index
                    found.setdefault(path, set()).update(_run_on_instance(text, owner, moving, called, index))


def _run_on_instance(
    text: str, owner: str, moving: set[str], called: set[str], index: ModuleIndex
) -> set[str]:
    """What a step loop's calls of `called` on an instance of `owner` run (`_own_instance_methods`): the moving
    methods among them and those they call on `self`, as `Class.method`, and the module's moving defs these
    call by name."""
    called &= step_loop_callees(index)
    if not called:
        return set()
    bodies = {n: b for o, n, b in def_bodies(text, moving=False) if o == owner}
    run = called | {m for n in called for m in bodies if f"self.{m}(" in bodies.get(n, "")}
    plain, _ = _moving_defs(text)
    helpers = {
        d for n in run for d in plain if re.search(rf"(?<![\w.]){re.escape(d)}\s*\(", bodies.get(n, ""))
    }
    return {f"{owner}.{m}" for m in run & moving} | helpers


def _named_def(user: str, defined: collections.Counter) -> str | None:
    """The file of the one def of a name nearest the module at `user` (by their common path: a checked
    folder of many repositories holds other projects' defs of it too); None when the nearest files define
    it more than once (two classes' `sample`: the call may be either)."""
    if not defined:
        return None
    shared = {p: (len(os.path.commonpath([p, user])), _same_folder(p, user)) for p in defined}
    best = max(shared.values())
    nearest = [p for p in defined if shared[p] == best]
    return nearest[0] if len(nearest) == 1 and defined[nearest[0]] == 1 else None


def _same_folder(path: str, user: str) -> bool:
    """(torch-fix94) The def's file sits in the caller's own folder, where `from model import X` finds it first:
    ASTNN's `train.py` and `model.py` at the top with a copy of the model in `clone/model.py`, whose common path
    with `train.py` is as long, so `_named_def` broke the tie by leaving `init_hidden` unresolved."""
    return os.path.dirname(path) == os.path.dirname(user)


_DEF = re.compile(r"^\s*def\s+(\w+)", re.MULTILINE)
_STEPS = re.compile(r"\.backward\(|\.step\(|autograd\.grad\(")
_FORWARD = re.compile(r"^\s+def\s+forward\s*\(|^def\s+\w*loss\w*\s*\(", re.MULTILINE)


def _factory_defs(text: str) -> set[str]:
    """Names of defs that may return a factory's tensor, by the text: `return torch.randn(...)`, or `noise =
    torch.randn(...)` with a `return noise` after it, each in the nearest `def` above. (A first sieve; the
    parse decides.) `forward` is left out: a model is called, not its `forward`."""
    found = set()
    for match in _FACTORY_RE.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        head = text[start : match.start()].strip()
        name = head[:-1].strip() if head.endswith("=") else ""
        if head == "return" or (name.isidentifier() and _returns_name(text, name, match.end())):
            at = text.rfind("def ", 0, start)
            if at >= 0:
                found.add(text[at + 4 : text.find("(", at)].strip())
    found.discard("forward")
    return found


def _returns_name(text: str, name: str, start: int) -> bool:
    """A `return name` line within 2,000 characters after `start`."""
    at = text.find(f"return {name}", start, start + 2000)
    while at >= 0:
        end = text.find("\n", at)
        if not text[at + 7 + len(name) : end if end >= 0 else len(text)].strip():
            return True
        at = text.find(f"return {name}", at + 1, start + 2000)
    return False


def _moving_defs(text: str) -> tuple[set[str], set[tuple[str, str]]]:
    """Module-level defs, and (class, method) pairs of methods one level into a class at the margin, with a
    line that makes a factory's tensor and moves it (`index = torch.randperm(n).cuda()`), or that binds a
    factory's tensor to a name a later line moves (`c_t_1 = Variable(torch.zeros((b, h)))`, then `c_t_1 =
    c_t_1.cuda()` under `if use_cuda:`), by the text; a method also with a line that moves a tensor held
    on `self` (`self.betas.to(x.device)`, checked against `__init__` by the module pass). A def that steps
    an optimizer itself is a training function, not a step's helper (torch-fix103: one that only runs a backward,
    an attack's PGD loop, counts as a helper): its own loop is the
    per-module pass's; `main` (an entry point), dunder methods such as `__init__` and the methods of
    `_SKIPPED_METHODS` are left out."""
    defs: set[str] = set()
    methods: set[tuple[str, str]] = set()
    if (
        not _FACTORY_RE.search(text)
        and not _HELD_MOVE.search(text)
        and not _TYPED_MADE.search(text)
        and not _HELD_DRAW.search(text)
    ):
        return defs, methods  # (torch-fix103: a module whose only maker is `torch.Tensor([1e10])` too)
    for owner, name, body in def_bodies(text):
        if not moves_in(body):
            continue  # (nothing moves: most methods; torch-fix131: `type_as(x)` copies to `x`'s device)
        made = _FACTORY_RE.search(body) is not None
        if not made and _TYPED_MADE.search(body) is not None:  # (torch-fix94)
            body, made = _TYPED_MADE.sub("torch.zeros(", body), True
        moving = (
            (made and _MOVED_FACTORY.search(body) is not None)
            or (made and any(_moved_later(body, bound) for bound in _BOUND_FACTORY.finditer(body)))
            or (owner is not None and "self." in body and _HELD_MOVE.search(body) is not None)
            or (owner is not None and "self." in body and _HELD_DRAW.search(body) is not None)
        )
        if not moving or _STEP_CALL.search(body):
            continue
        if owner is None and name != "main":  # (a script's entry point)
            defs.add(name)
        elif owner is not None and name not in _SKIPPED_METHODS and not name.startswith("__"):
            methods.add((owner, name))
    return defs | _host_result_movers(text), methods


# (torch-fix103) any `.step(` call (an optimizer's, but also `scheduler.step()` or `env.step(action)`: the
# training words of `TRAINS` less backward): a def that runs one is a training function; one that only runs a
# backward (an attack's PGD loop, FAT's `earlystop`, called on every training step of another module) is a
# step's helper
_STEP_CALL = re.compile(r"\.step\(")


def _moving_inits(text: str) -> set[str]:
    """(torch-fix103) Plain classes (no base, or `object`) at the margin whose `__init__` makes a factory's
    tensor and moves it, by the text (`_moving_defs`' test): a value object built where it is needed, as
    Informer's and its many descendants' `TriangularCausalMask(B, L, device=queries.device)`, made with
    `torch.triu(torch.ones(shape, dtype=torch.bool), diagonal=1).to(device)` in every masked attention
    layer's `forward`. Calling the class runs `__init__`, so the class's name is followed as a def's is. An
    `nn.Module` (any base) is built once with its model and left out."""
    found = set()
    if not _FACTORY_RE.search(text):
        return found
    for owner, name, body in def_bodies(text):
        if owner is None or name != "__init__" or _STEP_CALL.search(body) or not _FACTORY_RE.search(body):
            continue
        if _MOVED_FACTORY.search(body) or any(
            _moved_later(body, bound) for bound in _BOUND_FACTORY.finditer(body)
        ):
            header = re.search(rf"^class[ \t]+{re.escape(owner)}[ \t]*(?:\(([^)]*)\))?[ \t]*:", text, re.M)
            if header is not None and (header.group(1) or "").strip() in ("", "object"):
                found.add(owner)
    return found


def _host_result_movers(text: str) -> set[str]:
    """(torch-fix61) Module-level defs with a line that calls a def of the same module returning a tensor
    made on the host (one at the margin that calls a torch factory and returns) and moves what it returns: ARFlow's `flow_warp`, whose
    `mesh_grid(B, H, W).type_as(x)` copies a host `torch.arange` grid at every pyramid level of every loss
    and model forward another module runs. By the text; the module pass decides."""
    if not moves_in(text):
        return set()
    bodies = list(def_bodies(text, moving=False))
    hosts = {n for o, n, body in bodies if o is None and "return" in body and _FACTORY_RE.search(body)}
    if not hosts:
        return set()
    moved = re.compile(r"\b(?:" + "|".join(map(re.escape, hosts)) + rf")\([^\n]*\)\.{MOVE_NAMES}\(")
    return {
        name
        for owner, name, body in def_bodies(text, moving=False)
        if owner is None
        and name != "main"
        and name not in hosts
        and moved.search(body)
        and not TRAINS.search(body)
    }


def _moved_later(body: str, bound: re.Match) -> bool:
    """The name a factory's tensor was bound to is moved further on (`z = z.cuda()`, `alpha.to(device)`; torch-fix103:
    also after casts on the way, `return mask.float().to(device)`, music-transformer's look-ahead mask)."""
    name = bound.group(1)
    if any(body.find(f"{name}.{move}(", bound.end()) >= 0 for move in MOVE_METHODS):
        return True
    if re.compile(rf"\.new_tensor\({re.escape(name)}\b").search(body, bound.end()):
        return True  # (torch-fix145) `frame = torch.arange(n).unfold(0, k, s)`, `signal.new_tensor(frame)`
    joined = re.compile(
        rf"^[ \t]*(?:(\w+)[ \t]*=[ \t]*)?[^\n]*?torch\.(?:{_JOINS})\([^\n]*(?<![\w.]){re.escape(name)}\b([^\n]*)",
        re.MULTILINE,
    )
    for join in joined.finditer(body, bound.end()):
        if _moves_in_text(join.group(2)) or _name_moved(body, join.group(1), join.end()):
            return True  # (torch-fix126) `grid = torch.stack([x_, y_], dim=0).float().to(device)`
    if f"{name}." not in body[bound.end() :]:
        return False
    cast = re.compile(rf"(?<![\w.]){re.escape(name)}(?:\.(?:{_CASTS})\([^()\n]*\))+\.(?:cuda|to)\(")
    return cast.search(body, bound.end()) is not None


_MOVE_TEXT = re.compile(r"\.(cuda|to)\(\s*(dtype\s*=|torch\.(\w+)\s*[,)])?")


def _moves_in_text(text: str) -> bool:
    """A `.cuda(` or `.to(` in the text whose first argument is no torch dtype (review25 item 17:
    `torch.stack([x_, y_]).to(torch.float32)` casts, it does not move; `.to(dtype=...)` neither)."""
    for m in _MOVE_TEXT.finditer(text):
        if m.group(1) == "cuda" or not (m.group(2) and (m.group(3) is None or is_dtype_name(m.group(3)))):
            return True
    return False


def _name_moved(body: str, name: str | None, start: int) -> bool:
    """The name a join was bound to is moved further on (`grid = torch.stack([x_, y_]).to(torch.float32)`,
    then `grid = grid.to(device)`): the joined tensor, made of host parts, is copied after all."""
    return name is not None and (
        body.find(f"{name}.cuda(", start) >= 0 or body.find(f"{name}.to(", start) >= 0
    )


# (torch-fix126: torch's joins of host parts, the moved tensor being the joined one: EAC's
# `generate_flip_grid`; and `torch.meshgrid` of them. One join set with the module rules, review25 item 6)
_JOINS = "|".join(sorted(TORCH_JOINS | {"meshgrid"}))


# (torch-fix103: the casts a host tensor may pass through before its copy, `mask.float().to(device)`)
_CASTS = "float|long|int|bool|byte|half|double|type|unsqueeze|view|reshape|expand|repeat|contiguous|detach|t"


_BOUND_FACTORY = re.compile(rf"^[ \t]+(\w+)[ \t]*=[^\n]*{_FACTORY}", re.MULTILINE)
# (torch-fix94) a typed constructor, for `_moving_defs` only: TRADE's `rand_mask = torch.Tensor(rand_mask)` of a
# NumPy word-dropout mask, `if USE_CUDA: rand_mask = rand_mask.cuda()` (the module pass decides what it holds)
_TYPED_MADE = re.compile(r"torch\.(?:Tensor|FloatTensor|LongTensor|ByteTensor|BoolTensor|tensor)\(")
_HELD_MOVE = re.compile(r"self\.\w+\.(?:to|cuda)\(")  # (no leading `\b`: a literal start searches fast)
# (torch-fix131) a draw from a distribution held on `self`, moved in the same line: MIRNet's and ShadowFormer's
# `MixUp_AUG.aug`, `lam = self.dist.rsample((bs, 1)).view(-1, 1, 1, 1).cuda()` (the module pass checks that
# `__init__` made the distribution of numbers, `_held_in_init`)
_HELD_DRAW = re.compile(r"self\.\w+\.r?sample\([^\n]*\.(?:cuda|to)\(")
# (set-up, a forward the module pass follows itself, and names torch's own objects answer to in a loop:
# `batch.to(device)`, `scheduler.step()`, `meter.update(loss)`)
_SKIPPED_METHODS = frozenset({"forward", "to", "cuda", "cpu", "step", "update", "train", "eval", "backward"})


def _method_call(text: str, name: str) -> bool:
    return re.search(rf"\w\.{name}\s*\(", text) is not None
