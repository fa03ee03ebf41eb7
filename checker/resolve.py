"""Which library a name in a module stands for: imports and aliases, reduced to one canonical spelling.

`tf.compat.v1.Session`, `from tensorflow.compat.v1 import Session`, `keras.layers.Dense` and
`from tensorflow.python.keras import layers` all resolve to one dotted name under `tensorflow.`, so every rule
matches a single spelling (`tensorflow.Session`, `tensorflow.keras.layers.Dense`).
"""

from __future__ import annotations

import ast
import re

# Longest prefix first: each maps a spelling onto the canonical one.
_CANONICAL_PREFIXES = (
    ("tensorflow.compat.v1.", "tensorflow."),
    ("tensorflow.compat.v2.", "tensorflow."),
    ("tensorflow.python.keras.", "tensorflow.keras."),
    ("tensorflow.contrib.keras.", "tensorflow.keras."),
    ("tf_keras.", "tensorflow.keras."),
    ("keras.", "tensorflow.keras."),
)
_CANONICAL_EXACT = {
    "tensorflow.compat.v1": "tensorflow",
    "tensorflow.compat.v2": "tensorflow",
    "tensorflow.python.keras": "tensorflow.keras",
    "tensorflow.contrib.keras": "tensorflow.keras",
    "tf_keras": "tensorflow.keras",
    "keras": "tensorflow.keras",
}
# Modules whose names the rules care about; other imports are not recorded.
_TRACKED_ROOTS = frozenset(
    {"tensorflow", "keras", "tf_keras", "tensorflow_datasets", "numpy", "sklearn", "torch", "torchvision"}
)


IMPLICIT_IMPORTS = {
    "tf": "tensorflow",
    "np": "numpy",
    "keras": "tensorflow.keras",
    "K": "tensorflow.keras.backend",
    "tfds": "tensorflow_datasets",
    "torch": "torch",
    "nn": "torch.nn",
    "F": "torch.nn.functional",
}


_ANY_PREFIX = tuple(prefix for prefix, _ in _CANONICAL_PREFIXES)


def canonical(dotted: str) -> str:
    """The one spelling rules match against (`tensorflow.compat.v1.Session` -> `tensorflow.Session`)."""
    if dotted in _CANONICAL_EXACT:
        return _CANONICAL_EXACT[dotted]
    if not dotted.startswith(_ANY_PREFIX):  # (most names: one test instead of one per prefix)
        return dotted
    for prefix, replacement in _CANONICAL_PREFIXES:
        if dotted.startswith(prefix):
            return canonical(replacement + dotted[len(prefix) :])
    return dotted


def _star_from_own_module(node: ast.AST) -> bool:
    """`from x import *` (or `from .x import *`) of a module that is none of the tracked libraries."""
    return (
        isinstance(node, ast.ImportFrom)
        and any(a.name == "*" for a in node.names)
        and (not node.module or node.level > 0 or node.module.split(".")[0] not in _TRACKED_ROOTS)
    )


def _star_frameworks(tree: ast.Module, known: dict[str, str]) -> dict[str, str]:
    """The framework aliases a module that imports `*` from one of its own modules (which imported the
    framework) uses without binding them: `torch` and `nn` (`torch.zeros(...)`/`nn.Linear(...)`, with
    `torch` itself among them), and `tf` (`tf.data.Dataset...` after `from model.net import *` whose module
    did `import tensorflow as tf`, tf-fix34). Names the module's own imports (`known`) bind are kept: `import
    torch.nn as nn` beside `from utils.utils import *` still leaves `torch` to the star. A guess, as the
    star's module is not read: a root used and bound nowhere in the module can only come from the star.
    (One walk by a stack of nodes, names and contexts not opened: ast.walk's generators cost three times
    as much.)"""
    bound, roots = set(), set()
    stack: list = [tree]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node = pop()
        kind = node.__class__
        if kind is ast.Name:
            if node.ctx.__class__ is not ast.Load:
                bound.add(node.id)
            continue
        if kind is ast.alias:
            bound.add(node.asname or node.name.split(".")[0])
            continue
        if kind is ast.Attribute:
            if node.value.__class__ is ast.Name:
                roots.add(node.value.id)
        elif kind in _DEFS:
            bound.add(node.name)
        elif kind is ast.arg:
            bound.add(node.arg)
        for field in node._fields:
            value = getattr(node, field, None)
            if value.__class__ is list:
                extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST) and not isinstance(value, _NO_NAMES):
                push(value)
    unbound = roots - bound
    found = {}
    if "torch" not in known:
        torch = {name: IMPLICIT_IMPORTS[name] for name in _STAR_TORCH if name in unbound}
        found.update(torch if "torch" in torch else {})
    found.update({name: IMPLICIT_IMPORTS[name] for name in _STAR_TF if name in unbound and name not in known})
    return found


# The aliases a star import of a project module may hand over, by framework.
_STAR_TORCH = ("torch", "nn")
_STAR_TF = ("tf",)


_DEFS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
# (nodes with no name under them: a context, an operator)
_NO_NAMES = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def may_use_tensorflow(text: str) -> bool:
    """False only when the module of this text cannot use TensorFlow (`Resolver.uses_tensorflow`): a name
    resolves to TensorFlow only through an import whose text names `tensorflow` or `keras` (`tf_keras` too),
    or through `tf` used after a `*` import (`_star_frameworks`). A sieve a project pass asks before it
    parses another module only to learn whether it uses TensorFlow (most PyTorch projects have none)."""
    if "tensorflow" in text or "keras" in text:
        return True
    if "*" not in text or "tf" not in text:
        return False
    return not text.isascii() or (_STAR_IMPORT.search(text) is not None and _names_tf(text))


def _names_tf(text: str) -> bool:
    """The ASCII text holds `tf` as a whole word (a name `tf` is one)."""
    for match in _TF_END.finditer(text):
        at = match.start()
        if at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_"):
            return True
    return False


# `from x import *` (the tokens `import` and `*` with only blanks or a joined line between them) and the name
# `tf`: what `tf` after a `*` import needs in a module's text, while `*` and `tf` alone are in most PyTorch
# modules (`a * b`, `*args`; `getfloat`, `stft`). A text that is not ASCII keeps the loose sieve (identifiers
# are NFKC-normalized: fullwidth letters spell `tf` too). (Patterns led by a literal: re searches for it
# first; one led by `\b` is tried at every character, twenty times slower.)
_STAR_IMPORT = re.compile(r"import[ \t\f\\\r\n]*\*")
_TF_END = re.compile(r"tf\b")


def may_use_a_framework(text: str) -> bool:
    """False only when the module of this text can use neither PyTorch nor TensorFlow, so no rule judges it: a
    name resolves to torch only through an import or a `*` guess whose text names `torch` (`torchvision`
    too), and to TensorFlow as `may_use_tensorflow` says. (Without implicit imports: a snippet's `nn` or
    `tf` needs no import.)"""
    return "torch" in text or may_use_tensorflow(text)


class Resolver:
    """Local names of one module -> the canonical dotted names they are bound to by imports or aliases."""

    def __init__(self, tree: ast.Module, imports: list[ast.AST] | None = None, implicit: bool = False):
        # Snippets from posts often leave out their imports: the conventional aliases stand in for them.
        self.names: dict[str, str] = dict(IMPLICIT_IMPORTS) if implicit else {}
        if imports is None:
            imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
        star = False
        for node in imports:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] not in _TRACKED_ROOTS:
                        continue
                    if alias.asname:
                        self.names[alias.asname] = canonical(alias.name)
                    else:
                        root = alias.name.split(".")[0]
                        self.names[root] = canonical(root)
            elif _star_from_own_module(node):
                star = True  # `from modeling.deeplab import *`: may hand over torch and nn, or tf
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] not in _TRACKED_ROOTS:
                    continue
                for alias in node.names:
                    if alias.name != "*":
                        self.names[alias.asname or alias.name] = canonical(f"{node.module}.{alias.name}")
        if star and ("torch" not in self.names or "tf" not in self.names):
            for name, target in _star_frameworks(tree, self.names).items():
                self.names.setdefault(name, target)
        # Module-level aliases such as `tf = tf.compat.v1` or `Dataset = tf.data.Dataset`, in order.
        for stmt in tree.body:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Name | ast.Attribute)
            ):
                target = self.qualname(stmt.value)
                if target is not None:
                    self.names[stmt.targets[0].id] = target

    @property
    def uses_tensorflow(self) -> bool:
        return any(v == "tensorflow" or v.startswith("tensorflow.") for v in self.names.values())

    def qualname(self, node: ast.AST) -> str | None:
        """`tf.data.Dataset` -> `tensorflow.data.Dataset`; None when the root is not an imported module."""
        root = node
        while root.__class__ is ast.Attribute:  # (class tests: asked of every call by several rules)
            root = root.value
        # (the root first: three names in four asked about are no import, `self.x`, a local: torch-speed22)
        if root.__class__ is not ast.Name or (base := self.names.get(root.id)) is None:
            return None
        parts = []
        while node.__class__ is ast.Attribute:
            parts.append(node.attr)
            node = node.value
        parts.append(base)
        return canonical(".".join(reversed(parts)))

    def call_name(self, call: ast.Call) -> str | None:
        return self.qualname(call.func)
