"""Which file of the project an import names: the one answer the project passes (checker/project.py,
checker/torch_project/) ask.

`module_paths` is the lookup Python makes: `from .utils import f` (level 1) loads utils.py or
utils/__init__.py beside the importer; `from data import parser` loads data/parser.py under the folder a
script runs from, which may be the importer's own folder or any folder above it (the project's import
root is not written down anywhere), nearest first. `names_file` asks whether an import names a given
file when the importer is no longer known (the torch passes keep only the dotted name a loader or a
def was imported by): under any folder, and any module of the package (a name a package's __init__.py
re-exports is defined in one of its modules).
"""

from __future__ import annotations

import functools
import os
import re


def module_paths(module: str, importer: str, level: int = 0) -> list[str]:
    """The files `module` may load when `importer` imports it, nearest first: for a relative import
    (`level` dots) under the package folder `level - 1` above the importer's, else under the importer's
    folder and each folder above it; `a.b` is `a/b.py` or the package `a/b/__init__.py`. The package's
    own `__init__.py` for `from . import x` (module "")."""
    roots = _roots(os.path.dirname(importer), level)
    rel = module.replace(".", os.sep)
    if not rel:
        return [_joined(root, "__init__.py") for root in roots] if level else []
    return [
        path
        for root in roots
        for path in (_joined(root, rel + ".py"), _joined(_joined(root, rel), "__init__.py"))
    ]


@functools.lru_cache(maxsize=1024)
def _roots(folder: str, level: int) -> tuple[str, ...]:
    """The folders `module_paths` looks under, nearest first, for an importer in `folder` (the same for
    every import of every module there: worked out once per folder)."""
    if level:
        for _ in range(level - 1):
            folder = os.path.dirname(folder)
        return (folder,)
    roots: list[str] = []
    while folder and folder not in roots:
        roots.append(folder)
        folder = os.path.dirname(folder)
    return tuple(roots)


def _joined(root: str, tail: str) -> str:
    """`os.path.join(root, tail)`, without its checks for the usual case (a relative tail)."""
    if tail.startswith(os.sep) or not root:
        return os.path.join(root, tail)
    return root + tail if root.endswith(os.sep) else root + os.sep + tail


def module_file(module: str, importer: str, level: int, files: set[str]) -> str | None:
    """The nearest of the checked `files` that `module` may load from `importer` (`module_paths`), None
    when none is (a library's module, or `from . import f`, whose f is no module)."""
    if not module:
        return None
    return next((path for path in module_paths(module, importer, level) if path in files), None)


def names_file(module: str, path: str) -> bool:
    """The import of `module`, from an importer the caller no longer knows (it kept only the dotted
    name), may load the file at `path`: `a.b` names .../a/b.py under any folder, and any module of the
    package .../a/b/ (a name its __init__.py re-exports is defined in one of them); a relative import of
    the package itself (module "") any file. Looser than `module_paths` on purpose: the torch passes
    match makers, handoffs and factories by it. Asked from the importer with `module_paths` instead
    (measured by torch-split33 over hold-outs 3-13 and readings 13-18), 15 PP505 findings at high went
    and 10 named another loader: modules found through a folder that is not above the importer
    (`sys.path.append('core')`, a package installed from `pkg/`), names a package re-exports."""
    tail = module.replace(".", "/").strip("/")
    return not tail or path[: -len(".py")].endswith("/" + tail) or path.rsplit("/", 1)[0].endswith("/" + tail)


def import_word(path: str) -> str:
    """The last name an import of the file ends with: its own, or its folder's for an `__init__.py`
    (`from models import resnet` loads `models/resnet.py`; `import models` loads `models/__init__.py`)."""
    name = os.path.basename(path)[: -len(".py")]
    return os.path.basename(os.path.dirname(path)) if name == "__init__" else name


_IMPORT_LINE = re.compile(r"^[ \t]*(?:from|import)[ \t][^\n]*", re.MULTILINE)
# (the same lines after the first: a regex led by a literal newline is searched for it, where `^` under
# MULTILINE was tried at every character, twice as slow over hold-out 30's texts)
_NEXT_IMPORT_LINE = re.compile(r"\n([ \t]*(?:from|import)[ \t][^\n]*)")


def import_lines(text: str) -> str:
    """The text's import statements (`from utils import mixup_data`, `import models.resnet as r`), one per
    line: what a text sieve reads before any module is parsed (the lines `_IMPORT_LINE` finds)."""
    first = _IMPORT_LINE.match(text)
    return "\n".join(([first.group()] if first else []) + _NEXT_IMPORT_LINE.findall(text))


_IMPORT_WORD = re.compile(r"\w+")


@functools.lru_cache(maxsize=512)
def import_words(text: str) -> frozenset[str]:
    """The words of the text's import statements (`import_lines`): a module whose file is `utils/validation.py`
    can be imported only by a text whose import lines name `validation` (`from utils.validation import f`,
    `from utils import validation`, `import validation`, or the first line of `from .validation import (`);
    a sieve before any module is parsed (the parsed imports settle it)."""
    return frozenset(_IMPORT_WORD.findall(import_lines(text)))


_DEF_NAME = re.compile(r"def (\w+)\(")


def defining_texts(texts: dict[str, str]) -> dict[str, list[str]]:
    """Name -> the texts of the project holding `def name(` (each once, in `texts`' order), found in one scan
    of each text: a project pass asking "which modules define `build_recorder`?" name after name would
    otherwise search every text each time (torch-speed12: 427 searches of hold-out 30's 1,000 texts, taken as
    one project, were the costliest step of its project passes). A name of word characters followed by `(`
    ends where `\\w+` does, and no `def ` falls inside another's name, so the regex finds every occurrence the
    substring test `f"def {name}(" in text` would."""
    table: dict[str, list[str]] = {}
    for text in texts.values():
        for name in dict.fromkeys(_DEF_NAME.findall(text)):
            table.setdefault(name, []).append(text)
    return table


# (an import statement with its continuation lines: a parenthesised name list, `from models import (\n
# crnn,\n)`, or lines joined by a backslash; the first at the text's start, the others after a newline, as
# `_IMPORT_LINE` and `_NEXT_IMPORT_LINE` split it for speed; a comment inside the parentheses is read to its
# line's end, so a `)` in it does not close the list: `encoder,  # (old) decoder,\n crnn)`, session 26 reread)
_STATEMENT = r"[ \t]*(?:from|import)[ \t](?:[^\n(\\]|\\\n)*(?:\((?>[^)#]+|#[^\n]*)*\))?[^\n]*"
_FIRST_IMPORT_STATEMENT = re.compile(_STATEMENT)
_NEXT_IMPORT_STATEMENT = re.compile(rf"\n({_STATEMENT})")
_IMPORT_ALIAS = re.compile(r"\bas[ \t]+\w+")
_IMPORT_COMMENT = re.compile(r"#[^\n]*")


@functools.lru_cache(maxsize=256)
def imported_module_words(text: str) -> frozenset[str]:
    """The words of the text's import statements, continuation lines included, less the names they bind
    (`import models.crnn_lang as crnn` names `crnn_lang`, not a module `crnn`) and less comments (`# ctc,`
    inside the parentheses imports nothing): which modules the text may import, where `import_words`, a
    sieve, reads first lines only and keeps aliases (review 26 items 3 and 11: a module named only on a
    continuation line of `from models import (` counted as imported by no file)."""
    first = _FIRST_IMPORT_STATEMENT.match(text)
    statements = "\n".join(([first.group()] if first else []) + _NEXT_IMPORT_STATEMENT.findall(text))
    return frozenset(_IMPORT_WORD.findall(_IMPORT_ALIAS.sub("", _IMPORT_COMMENT.sub("", statements))))
