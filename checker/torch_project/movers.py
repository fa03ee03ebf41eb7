"""The project's movers: defs of one module that copy their first argument to the device (`moves_first_parameter`:
ADDA's `utils.make_variable(tensor)`, DiffAb's `recursive_to(obj, device)`), as the modules importing them
name them. One table per project run, read by both passes that follow such a def into its callers:
loaders.py (PP505: `batch = recursive_to(next(it), device)` copies a loader's batches) and factories.py
(PP506: `make_variable(torch.ones(b).long())` copies a tensor made on the host every step, where the def
also returns what it moved).

Each module is parsed for its movers at most once per project and each importer's imports resolved once,
whichever pass asks first."""

from __future__ import annotations

import ast
import collections
import re

from checker.module import ModuleIndex
from checker.project_files import import_lines, import_word, import_words, module_file
from checker.rules.torch_moves import argument_movers
from checker.torch_project.common import margin_starts, parse_index


class ProjectMovers:
    """The movers of one project's texts (path -> text). A module's defs are candidates when they sit at the
    margin and their own text copies something (`.cuda(`, `.to(`: factories.py's `def_bodies`); only the
    modules an importer asks about are parsed."""

    def __init__(self, texts: dict[str, str]):
        self.texts = texts
        self._files = set(texts)
        self._candidates = {
            path: names for path, text in texts.items() if (names := _moving_candidates(text))
        }
        self._modules = {import_word(path) for path in self._candidates}
        self.names = frozenset().union(*self._candidates.values())
        self._defined: dict[str, dict[str, bool]] = {}
        self._imported: dict[str, dict[str, bool]] = {}

    def may_import(self, text: str) -> bool:
        """The text's import lines name a module with a candidate, and the candidate or everything (`from
        diffab.utils.train import *`): a sieve before the importer is parsed."""
        words = import_words(text)
        return bool(words & self._modules) and bool(words & self.names or "*" in import_lines(text))

    def imported(self, path: str, index: ModuleIndex) -> dict[str, bool]:
        """{name: returns}: the names under which the module at `path` imports (`from m import f as g`, `from
        m import *`) a mover of another module of the project, each with whether the def also returns what it
        moved (`argument_movers`)."""
        if path not in self._imported:
            self._imported[path] = self._resolve(path, index)
        return self._imported[path]

    def _resolve(self, path: str, index: ModuleIndex) -> dict[str, bool]:
        found: dict[str, bool] = {}
        for node in index.imports:
            if not isinstance(node, ast.ImportFrom) or not node.module:
                continue
            source = module_file(node.module, path, node.level, self._files)
            if source is None or source == path or source not in self._candidates:
                continue
            movers = self._movers_of(source)
            for alias in node.names:
                if alias.name == "*":
                    found.update(movers)
                elif alias.name in movers:
                    found[alias.asname or alias.name] = movers[alias.name]
        return found

    def _movers_of(self, source: str) -> dict[str, bool]:
        if source not in self._defined:
            index = parse_index(self.texts[source], torch_only=False)  # (`.cuda()` needs no torch import)
            names = self._candidates[source]
            self._defined[source] = (
                {} if index is None else {n: r for n, r in argument_movers(index).items() if n in names}
            )
        return self._defined[source]


def _moving_candidates(text: str) -> set[str]:
    """The module-level defs whose own text copies something to the device, by the text alone."""
    if ".cuda(" not in text and ".to(" not in text:
        return set()
    return {name for owner, name, _ in def_bodies(text) if owner is None}


_KEPT = 4  # (projects: one per PATH argument; the passes ask about each in turn)
_RECENT: collections.OrderedDict[tuple[str, ...], ProjectMovers] = collections.OrderedDict()


def project_movers(texts: dict[str, str]) -> ProjectMovers:
    """The movers table of the project whose checked texts are `texts`, made once per run: the loader pass
    and the factory pass each build their texts (the same paths and strings) and get the same table."""
    key = tuple(texts)
    table = _RECENT.get(key)
    if table is None or table.texts != texts:  # (the same strings: compared by identity first)
        table = ProjectMovers(texts)
        _RECENT[key] = table
        while len(_RECENT) > _KEPT:
            _RECENT.popitem(last=False)
    _RECENT.move_to_end(key)
    return table


# The methods that copy a tensor to the device, one list for the text passes (review 26 item 12: factories.py
# spelled it three more times); torch-fix131: `t.type_as(x)` copies `t` to `x`'s device, Deep-Exemplar's
# `torch.Tensor([...]).type_as(tensor)`
MOVE_METHODS = ("cuda", "to", "type_as")
# (their calls as they appear in a text, `.cuda(`, and a regex group matching one of their names)
# (torch-fix145: also `.new_tensor(`, which copies its argument to its receiver's device)
MOVE_CALLS = (*(f".{move}(" for move in MOVE_METHODS), ".new_tensor(")
MOVE_NAMES = "(?:" + "|".join(MOVE_METHODS) + ")"


def moves_in(text: str, start: int = 0, stop: int | None = None) -> bool:
    """Whether `text[start:stop]` calls one of `MOVE_METHODS` (`.cuda(`, `.to(`, `.type_as(`): the cheap test
    of the text passes before they parse or search further."""
    return any(text.find(call, start, stop) >= 0 for call in MOVE_CALLS)


def def_bodies(text: str, moving: bool = True):
    """(None, name, body) for each def at the margin and (class, name, body) for each method one level into a
    class at the margin: the text after the `def` line up to the next line at the margin (or the class's next
    method); with `moving`, only those of the defs and classes whose text moves something (`.cuda(`, `.to(`)."""
    margins = margin_starts(text) + [len(text)]
    for start, stop in zip(margins, margins[1:], strict=False):
        if moving and not moves_in(text, start, stop):
            continue
        if text.startswith("def ", start):
            yield None, text[start + 4 : text.find("(", start)].strip(), text[_line_end(text, start) : stop]
        elif text.startswith("class ", start):
            owner = re.split(r"[(:]", text[start + 6 : _line_end(text, start)], maxsplit=1)[0].strip()
            heads = list(_METHOD.finditer(text, start, stop))
            if not heads:
                continue
            heads = [h for h in heads if len(h.group(1)) == len(heads[0].group(1))]
            ends = [h.start() for h in heads[1:]] + [stop]
            for head, end in zip(heads, ends, strict=True):
                yield owner, head.group(2), text[head.end() : end]


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


_METHOD = re.compile(r"^([ \t]+)(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)
