"""One parsed module, indexed once for every rule: its calls, the loops around each call, its functions.

Loops are `for`, `while` and comprehensions, nested to any depth; a call inside a nested `def` or `lambda`
belongs to that function (it runs when called), not to the loop that defines it. Helpers are module functions
and methods of the same class called by name (`helper(x)`, `self.helper(x)`), followed a few levels deep.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from checker.resolve import Resolver

LOOP_TYPES = (ast.For, ast.AsyncFor, ast.While)
COMPREHENSION_TYPES = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
FUNCTION_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)
HELPER_DEPTH = 3
_FUNCTION_KINDS = frozenset(FUNCTION_TYPES)
_LOOP_KINDS = frozenset(LOOP_TYPES)
# Nodes _walk treats apart (scopes and loops), and nodes with no call, loop or def under them.
_SCOPES = frozenset({*FUNCTION_TYPES, ast.Lambda, ast.ClassDef, *LOOP_TYPES, *COMPREHENSION_TYPES})
_LEAVES = frozenset(
    {ast.Name, ast.Constant, ast.Load, ast.Store, ast.Del, ast.alias, ast.Pass, ast.Break, ast.Continue}
    | {ast.Global, ast.Nonlocal}
    | {*ast.operator.__subclasses__(), *ast.unaryop.__subclasses__(), *ast.cmpop.__subclasses__()}
    | {*ast.boolop.__subclasses__()}
)


@dataclass(frozen=True, slots=True)
class CallSite:
    node: ast.Call
    function: ast.AST | None  # the enclosing def (or Lambda), None at module level
    loops: tuple[ast.AST, ...]  # enclosing loops inside that function, outermost first


@dataclass
class ModuleIndex:
    tree: ast.Module
    resolver: Resolver
    calls: list[CallSite] = field(default_factory=list)
    loops: list[ast.AST] = field(default_factory=list)
    loop_calls: dict[int, list[CallSite]] = field(default_factory=dict)
    function_calls: dict[int, list[CallSite]] = field(default_factory=dict)
    module_functions: dict[str, ast.AST] = field(default_factory=dict)
    class_methods: dict[str, dict[str, ast.AST]] = field(default_factory=dict)
    function_class: dict[int, str] = field(default_factory=dict)
    function_loops: dict[int, tuple[ast.AST, ...]] = field(default_factory=dict)
    functions: list[ast.AST] = field(default_factory=list)  # every def, nested ones too
    function_parent: dict[int, ast.AST | None] = field(default_factory=dict)
    local_functions: dict[int, dict[str, list[ast.AST]]] = field(default_factory=dict)  # defs nested in a def
    loop_function: dict[int, ast.AST | None] = field(default_factory=dict)  # loop -> its def (None: module)
    imports: list[ast.AST] = field(default_factory=list)
    call_assignments: list[ast.Assign] = field(default_factory=list)  # `name = some_call(...)`
    # name -> the values `name = value` binds it to anywhere in the module, in source order
    name_values: dict[str, list[ast.expr]] = field(default_factory=dict)
    function_names: set[str] = field(default_factory=set)
    snippet: bool = (
        False  # a post's partial code (imports implied): what a function returns has no caller here
    )

    @classmethod
    def build(cls, tree: ast.Module, implicit_imports: bool = False) -> ModuleIndex:
        index = cls(tree=tree, resolver=None, snippet=implicit_imports)
        for stmt in tree.body:
            if isinstance(stmt, FUNCTION_TYPES):
                index.module_functions[stmt.name] = stmt
            elif isinstance(stmt, ast.ClassDef):
                index.class_methods[stmt.name] = {
                    s.name: s for s in stmt.body if isinstance(s, FUNCTION_TYPES)
                }
        index._walk(tree, None, None, ())
        index.resolver = Resolver(tree, index.imports, implicit=implicit_imports)
        index.function_names = {f.name for f in index.functions}
        return index

    def _walk(self, node: ast.AST, function, class_name, loops) -> None:
        """Index what is under `node` (not the node itself)."""
        self._walk_nodes(_children(node), function, class_name, loops)

    def _walk_nodes(self, nodes, function, class_name, loops) -> None:
        """Index these nodes and what is under them, in order, inside `function` (None: the module's code),
        `class_name`'s body and `loops`."""
        # Iterative would be faster, but recursion depth of real code is small and this stays readable.
        for child in nodes:
            kind = child.__class__
            if kind in _LEAVES:
                continue  # a name, a constant, a context or an operator: no call or loop inside
            if kind not in _SCOPES:
                if kind is ast.Call:
                    site = CallSite(child, function, loops)
                    self.calls.append(site)
                    self.function_calls.setdefault(id(function) if function else 0, []).append(site)
                    for loop in loops:
                        self.loop_calls[id(loop)].append(site)
                elif kind is ast.Assign:
                    if child.value.__class__ is ast.Call:
                        self.call_assignments.append(child)
                    for target in child.targets:
                        if target.__class__ is ast.Name:
                            self.name_values.setdefault(target.id, []).append(child.value)
                elif kind is ast.Import or kind is ast.ImportFrom:
                    self.imports.append(child)
                self._walk_nodes(_children(child), function, class_name, loops)
            elif kind in _FUNCTION_KINDS:
                self.functions.append(child)
                self.function_parent[id(child)] = function
                if function is not None or child.name not in self.module_functions:
                    # (key 0: a def at module level under an `if` or a `for`, `for shape in shapes: def f():`)
                    scope_key = id(function) if function is not None else 0
                    self.local_functions.setdefault(scope_key, {}).setdefault(child.name, []).append(child)
                # Decorators and default values run where the def is; the body runs when it is called.
                outer = [*child.decorator_list, *child.args.defaults, *child.args.kw_defaults]
                self._walk_nodes([n for n in outer if n is not None], function, class_name, loops)
                self.function_class[id(child)] = class_name
                self.function_loops[id(child)] = loops
                self.function_calls.setdefault(id(child), [])
                self._walk_nodes(child.body, child, class_name, ())
            elif kind is ast.Lambda:
                self.function_calls.setdefault(id(child), [])
                self._walk_nodes((child.body,), child, class_name, ())
            elif kind is ast.ClassDef:
                outer = [*child.decorator_list, *child.bases, *(k.value for k in child.keywords)]
                self._walk_nodes(outer, function, class_name, loops)
                self._walk_nodes(child.body, function, child.name, loops)
            elif kind in _LOOP_KINDS:
                self.loops.append(child)
                self.loop_function[id(child)] = function
                self.loop_calls[id(child)] = []
                inner = (*loops, child)
                if kind is ast.While:
                    self._walk_nodes((child.test,), function, class_name, inner)
                else:
                    self._walk_nodes((child.iter,), function, class_name, loops)
                    self._walk_nodes((child.target,), function, class_name, inner)
                self._walk_nodes(child.body, function, class_name, inner)
                self._walk_nodes(child.orelse, function, class_name, loops)
            else:  # a comprehension
                self.loops.append(child)
                self.loop_function[id(child)] = function
                self.loop_calls[id(child)] = []
                first, *rest = child.generators
                self._walk_nodes((first.iter,), function, class_name, loops)
                inner = (*loops, child)
                self._walk_nodes((first.target, *first.ifs), function, class_name, inner)
                for gen in rest:
                    self._walk(gen, function, class_name, inner)
                parts = (child.key, child.value) if kind is ast.DictComp else (child.elt,)
                self._walk_nodes(parts, function, class_name, inner)

    # -- helpers -------------------------------------------------------------------------------------------

    def helper_of(self, call: ast.Call, function: ast.AST | None) -> ast.AST | None:
        """The module function, same-class method or def local to an enclosing def (`def sample_noise(bs, d):`
        inside `main`) a call runs, if it is called by name."""
        func = call.func
        kind = func.__class__  # (class tests: asked of every call of a module, and again for helpers)
        if kind is ast.Name:
            scope = function
            while scope is not None and self.local_functions:
                local = self.local_functions.get(id(scope), {}).get(func.id)
                if local:
                    return _last_before(local, call.lineno)
                scope = self.function_parent.get(id(scope))
            found = self.module_functions.get(func.id)
            local = self.local_functions.get(0, {}).get(func.id) if found is None else None
            return _last_before(local, call.lineno) if local else found
        if (
            kind is ast.Attribute
            and func.value.__class__ is ast.Name
            and func.value.id in ("self", "cls")
            and function is not None
        ):
            class_name = self.function_class.get(id(function))
            if class_name:
                return self.class_methods.get(class_name, {}).get(func.attr)
        return None

    def reached_calls(
        self, sites: list[CallSite], depth: int = HELPER_DEPTH
    ) -> Iterator[tuple[CallSite, ast.Call | None]]:
        """Each call in `sites`, then the calls of the helpers they run (to `depth` levels).

        Yields (call site, the call in `sites` through which it is reached, or None when it is in `sites`).
        """
        seen: set[int] = set()
        for site in sites:
            yield site, None
            helper = self.helper_of(site.node, site.function)
            if helper is not None and depth > 0:
                yield from self._helper_calls(helper, site.node, depth, seen)

    def _helper_calls(self, helper, via, depth, seen) -> Iterator[tuple[CallSite, ast.Call]]:
        if id(helper) in seen or depth <= 0:
            return
        seen.add(id(helper))
        for site in self.function_calls.get(id(helper), []):
            yield site, via
            inner = self.helper_of(site.node, site.function)
            if inner is not None:
                yield from self._helper_calls(inner, via, depth - 1, seen)
        seen.discard(id(helper))

    def only_value(self, name: str) -> ast.expr | None:
        """The value a name is bound to when the module assigns it exactly once (`size = 4`), else None."""
        values = self.name_values.get(name, [])
        return values[0] if len(values) == 1 else None

    @functools.cached_property
    def class_defs(self) -> list[ast.ClassDef]:
        """Every class of the module (nested ones too), in `walk`'s order: listed once per index for `class_at`
        and `class_chain`, which PP503 asks of every model call (each walked the whole tree: torch-speed20, a
        sixth of a hold-out-36 run). Read it, do not change it."""
        return [c for c in statements_in(self.tree) if c.__class__ is ast.ClassDef]  # a class is a statement

    @functools.cached_property
    def classes_by_name(self) -> dict[str, ast.ClassDef]:
        """Class name -> the last class of that name in `class_defs` (`class_chain`'s table). Read it only."""
        return {c.name: c for c in self.class_defs}

    def decorators(self, function: ast.AST) -> list[str]:
        """Canonical names of a def's decorators (`tensorflow.function`), unresolved ones by their last name."""
        names = []
        for deco in getattr(function, "decorator_list", []):
            target = deco.func if isinstance(deco, ast.Call) else deco
            name = self.resolver.qualname(target)
            if name is None:
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            names.append(name)
        return names


def walk(root: ast.AST) -> list[ast.AST]:
    """Every node under `root`, itself first, in the order `ast.walk` gives them (breadth first, children in
    field order), as a list; `iter_walk`'s nodes. (Its own loop, not `list(iter_walk(root))`: the rules walk
    loop bodies and defs again and again, and resuming a generator at every node costs a third more.)"""
    found = [root]
    appenders = _CHILD_APPENDERS
    for node in found:  # (a list's iterator sees the items appended while it runs)
        appenders[node.__class__](node, found)
    return found


def iter_walk(root: ast.AST) -> Iterator[ast.AST]:
    """`ast.walk`, at about a third of its cost: the same nodes in the same order, one at a time (for a
    search that may stop at its first match; `walk` lists them all)."""
    todo = [root]
    appenders = _CHILD_APPENDERS
    for node in todo:
        appenders[node.__class__](node, todo)
        yield node


def def_scopes(tree: ast.Module) -> list[tuple[ast.AST, tuple[int, ...], list[ast.AST]]]:
    """The module and each def in it (nested ones too, async ones too): (the module or def, the ids of it and
    of the defs around it, the module's first; its own nodes). A def's own nodes are the nodes under it (its
    decorators, arguments and body) that are under no def nested in it (a nested def itself is one), less
    the contexts and what is under a leaf (`_LEAVES`: a name, a constant, an operator), which holds no call,
    statement or def. One descent for a question asked of each node's innermost def and the defs around it
    (what a walk carrying its chain of enclosing defs would say, at a fraction of its cost)."""
    scopes: list[tuple[ast.AST, tuple[int, ...], list[ast.AST]]] = [(tree, (id(tree),), [])]
    for scope, chain, own in scopes:  # (a list's iterator sees the scopes appended while it runs)
        own += _children(scope)
        for node in own:
            kind = node.__class__
            if kind in _FUNCTION_KINDS:
                scopes.append((node, (*chain, id(node)), []))
            elif kind not in _LEAVES:
                _WALKED_APPENDERS[kind](node, own)
    return scopes


_BLOCKS = ("body", "handlers", "orelse", "finalbody", "cases")  # the fields that hold statements, in order


def statements_in(root: ast.AST) -> list[ast.AST]:
    """`root` and the statements under it (nested defs' too, with except handlers and match cases), in the
    order `walk` gives them: a walk that skips expressions, which hold no statement."""
    found = [root]
    for node in found:  # (a list's iterator sees the items appended while it runs)
        for name in _BLOCKS:
            block = getattr(node, name, None)
            if block.__class__ is list:
                found += block
    return found


# The types of ASDL fields that hold no node (`Name(identifier id, expr_context ctx)`: id).
_SCALAR_TYPES = frozenset({"identifier", "string", "constant", "int"})
_SIGNATURE = re.compile(r"(\w+)\((.*)\)")
# How `_append_children` reads a field: one node or None (`expr value`, `expr? returns`), a list of nodes
# (`expr* args`), a list of nodes and None (`_SPARSE_LISTS`), or either (a class whose signature cannot be
# read).
_ONE, _MANY, _SPARSE, _EITHER = 0, 1, 2, 3
# The list fields the ast documentation lets hold None: `{**extra}`'s key, a keyword-only parameter's
# missing default.
_SPARSE_LISTS = frozenset({("Dict", "keys"), ("arguments", "kw_defaults")})


class _PerClass(dict):
    """AST class -> `make(class)`, made the first time a class is looked up. An AST class's fields never
    change, so neither does anything made from them: an entry cannot go stale, whatever the module or run."""

    def __init__(self, make) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, kind: type):
        value = self[kind] = self.make(kind)
        return value


# AST class -> ((field, how), ...): its node fields with how each holds them (`_field_plan`); and the same
# less the context field (`ctx`), for the index's walk (`_children`).
_CHILD_PLANS = _PerClass(lambda kind: _field_plan(kind))
_WALKED_PLANS = _PerClass(lambda kind: tuple(f for f in _CHILD_PLANS[kind] if f[0] != "ctx"))


def node_fields(kind: type) -> tuple[str, ...]:
    """The fields of an AST class that may hold nodes, in field order: those its ASDL signature (the class's
    docstring, `Attribute(expr value, identifier attr, expr_context ctx)`) does not declare a name, string,
    constant or number; every field when the signature cannot be read. Worked out once per class."""
    return tuple(name for name, _ in _CHILD_PLANS[kind])


def _field_plan(kind: type) -> tuple[tuple[str, int], ...]:
    """(field, how) of each field of `kind` that may hold nodes (`node_fields`), in field order."""
    fields = tuple(getattr(kind, "_fields", ()))
    match = _SIGNATURE.fullmatch((kind.__doc__ or "").strip().split("\n")[0].strip())
    if match is None or match.group(1) != kind.__name__:
        return tuple((name, _EITHER) for name in fields)
    declared = [part.split() for part in match.group(2).split(",") if part.strip()]
    if any(len(d) != 2 for d in declared) or tuple(d[1] for d in declared) != fields:
        return tuple((name, _EITHER) for name in fields)
    return tuple(
        (
            name,
            _ONE if not type_.endswith("*") else _SPARSE if (kind.__name__, name) in _SPARSE_LISTS else _MANY,
        )
        for type_, name in declared
        if type_.rstrip("?*") not in _SCALAR_TYPES
    )


def _children(node: ast.AST) -> list:
    """`child_nodes` for the index's walk, which skips leaves: the same children in the same order, less
    the contexts (`Load`, `Store`)."""
    return _WALKED_APPENDERS[node.__class__](node, [])


def child_nodes(node: ast.AST, into: list) -> list:
    """Append a node's children to `into` in ast.iter_child_nodes' order and return it (inline, not a
    generator: the parent and name searches call this on node after node)."""
    return _CHILD_APPENDERS[node.__class__](node, into)


def _append_children(node: ast.AST, plan: tuple[tuple[str, int], ...], into: list) -> list:
    """Append the nodes that `node`'s fields hold (`plan`: `_field_plan`) to `into`, in field order, and
    return it. A list field but `_SPARSE_LISTS` holds only nodes, so it is added whole (at C speed)."""
    for name, how in plan:
        value = getattr(node, name, None)
        if value is None:
            continue
        if how == _ONE:
            into.append(value)
        elif how == _MANY:
            into += value
        elif how == _SPARSE:
            into += [item for item in value if item is not None]
        elif value.__class__ is list:
            into += [item for item in value if isinstance(item, ast.AST)]
        elif isinstance(value, ast.AST):
            into.append(value)
    return into


def _appender_source(plan: tuple[tuple[str, int], ...]) -> str:
    """The source of `_append_children` unrolled for one plan: each field read by name once, then appended as
    `_append_children` would. A node missing a field (one a rule built, `ast.Name(id=...)` with no `ctx`)
    goes to `_append_children` before anything is appended, which reads a missing field as None."""
    reads = "".join(f"        v{i} = node.{name}\n" for i, (name, _) in enumerate(plan))
    adds = []
    for i, (_, how) in enumerate(plan):
        if how == _ONE:
            adds.append(f"    if v{i} is not None:\n        into.append(v{i})\n")
        elif how == _MANY:
            adds.append(f"    if v{i} is not None:\n        into += v{i}\n")
        else:  # (rare kinds: the general code, one field at a time)
            adds.append(f"    _append_children(node, (plan[{i}],), into)\n")
    return (
        "def append(node, into):\n"
        + (
            f"    try:\n{reads}    except AttributeError:\n        return _append_children(node, plan, into)\n"
            if plan
            else ""
        )
        + "".join(adds)
        + "    return into\n"
    )


def _appender(plan: tuple[tuple[str, int], ...]):
    """A function (node, into) -> into doing what `_append_children(node, plan, into)` does, without its loop
    over the plan (the walks call it millions of times per run)."""
    scope = {"_append_children": _append_children, "plan": plan}
    exec(_appender_source(plan), scope)  # noqa: S102 (source built above from an AST class's field names)
    return scope["append"]


# AST class -> its `_appender` for a table of plans (`_CHILD_PLANS`, or `_WALKED_PLANS` without the contexts).
_CHILD_APPENDERS = _PerClass(lambda kind: _appender(_CHILD_PLANS[kind]))
_WALKED_APPENDERS = _PerClass(lambda kind: _appender(_WALKED_PLANS[kind]))


def import_of(name: str, index: ModuleIndex, whole_module: bool = False) -> tuple[int, str, str] | None:
    """(level, module, original name) of `from module import original as name`; with `whole_module`, also
    `import a.b as name` as (0, "a", "b"). Modules of TensorFlow and other libraries are not the project's,
    but the caller cannot tell: the project pass finds no file for them."""
    for node in index.imports:
        for alias in node.names:
            if (alias.asname or alias.name.split(".")[0]) != name:
                continue
            if isinstance(node, ast.ImportFrom):
                return node.level, node.module or "", alias.name
            if whole_module and (alias.asname or alias.name == name):
                parent, _, last = alias.name.rpartition(".")
                return 0, parent, last
    return None


def dotted_parts(node: ast.AST) -> list[str] | None:
    """`self.opt.lr` -> ["self", "opt", "lr"]; None for anything but a name and attributes of it."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    parts.reverse()
    return parts


def dotted_name(node: ast.AST) -> str | None:
    """`tf.test.TestCase` -> "tf.test.TestCase": `dotted_parts` joined, at any depth; None for anything but a
    name and attributes of it. (`dotted_text` stops at one attribute.)"""
    parts = dotted_parts(node)
    return None if parts is None else ".".join(parts)


def dotted_text(node: ast.AST) -> str | None:
    """`flag` -> "flag", `self.flag` / `math.isnan` -> "self.flag" / "math.isnan": a name or an attribute of a
    name as written; None for anything else (deeper chains, calls, subscripts). One definition for the rules
    that match a flag or a function by its spelling (graph.py's once-only switches, torch_sync's `math` tests)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def none_tested(test: ast.AST, op: type[ast.Is] | type[ast.IsNot]) -> ast.expr | None:
    """What `x is None` (`op` ast.Is) or `x is not None` (ast.IsNot) tests, `x`; None for any other test. One
    definition for the rules that read a default left out, a gradient present or a device given."""
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], op)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return test.left
    return None


def is_main_guard(stmt: ast.AST) -> bool:
    """`if __name__ == "__main__":`: the block a script runs when started, not when imported. One public
    definition for the rules that read what a script runs at its top (a Keras script's own predict loop, a
    PyTorch toy trained on data made under the guard)."""
    test = stmt.test if isinstance(stmt, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


def builtin_call(node: ast.AST, names) -> ast.AST | None:
    """The one argument of a call of a builtin named in `names` with no keywords (`float(x)`, `int(x)`):
    the value it converts; None for any other node. One definition of the "float(x) of one argument" test
    that several rules ask (review 24 item 15)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in names
        and len(node.args) == 1
        and not node.keywords
    ):
        return node.args[0]
    return None


def sole_name_target(stmt: ast.AST) -> str | None:
    """The name an `x = ...` statement binds when its one target is a plain name; None for any other
    statement (tuple or attribute targets, chained `a = b = ...`, augmented or annotated assignments)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    return None


def assigned_names(nodes) -> set[str]:
    """Names bound anywhere in these statements/targets (assignments, loop targets, with-as, augmented)."""
    names: set[str] = set()
    for root in nodes:
        for node in walk(root):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return names


def value_bound_to(assign: ast.Assign, name: str) -> ast.AST | None:
    """The value an assignment gives `name`: the whole value for `name = ...`, the matching element for
    `a, name = x.item(), y.item()`; None when the name is not a target or is unpacked from one value
    (`a, name = f()`)."""
    for target in assign.targets:
        if isinstance(target, ast.Name) and target.id == name:
            return assign.value
        if (
            isinstance(target, ast.Tuple)
            and isinstance(assign.value, ast.Tuple)
            and len(target.elts) == len(assign.value.elts)
        ):
            for element, value in zip(target.elts, assign.value.elts, strict=True):
                if isinstance(element, ast.Name) and element.id == name:
                    return value
    return None


def bound_values(scope: ast.AST, name: str) -> list[ast.AST | None]:
    """The values assigned to the plain name `name` anywhere in `scope` (`=`, `+=`, an annotated assignment,
    whose value may be None), in the order `ast.walk` meets them."""
    return values_by_name(scope).get(name, [])


def values_by_name(scope: ast.AST) -> dict[str, list[ast.AST | None]]:
    """`bound_values` of every name `scope` assigns, from one walk: name -> its values in `ast.walk`'s order
    (a value bound to two names of one statement, `a = b = x`, is listed under each; to one name twice, once).
    For a rule asking of one scope about several names (a cached table: `torch_common.scope_values`)."""
    found: dict[str, list[ast.AST | None]] = {}
    for node in walk(scope):
        kind = node.__class__
        if kind is ast.Assign:
            targets = node.targets
        elif kind is ast.AugAssign or kind is ast.AnnAssign:
            targets = (node.target,)
        else:
            continue
        named = {t.id for t in targets if t.__class__ is ast.Name}
        for target in targets:
            if target.__class__ is ast.Name and target.id in named:
                named.discard(target.id)
                found.setdefault(target.id, []).append(node.value)
    return found


def parameter_names(function) -> set[str]:
    """The names a def's parameters bind, keyword-only included (not *args, **kwargs)."""
    a = function.args
    return {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)}


def names_in(node: ast.AST) -> set[str]:
    """The names used anywhere under `node` (itself included): the ids of its `ast.Name` nodes. (A stack, not
    `ast.walk`: asked of every value and target the rules look at.)"""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Name):
            found.add(current.id)  # (under a name there is only its context)
        else:
            child_nodes(current, stack)
    return found


def _last_before(defs: list[ast.AST], line: int) -> ast.AST:
    """The def of a name bound more than once in a scope (one per branch) that a call at `line` runs: the last
    one above it, else the first."""
    above = [d for d in defs if d.lineno < line]
    return above[-1] if above else defs[0]


def self_attribute(node: ast.AST) -> bool:
    """`self.x`: an attribute read or bound straight on `self` (not `self.a.b`'s outer attribute). One
    definition for the rules that ask it (review 26 item 19)."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def class_at(index: ModuleIndex, line: int) -> ast.ClassDef | None:
    """The innermost class of the module whose text holds `line` (the class a `self.<attr>` there is read
    on). One definition for the rules that ask it (review 26 item 13; review 27 item 4)."""
    holding = [c for c in index.class_defs if c.lineno <= line <= (c.end_lineno or c.lineno)]
    return max(holding, key=lambda c: c.lineno, default=None)


def class_chain(index: ModuleIndex, name: str) -> list[ast.ClassDef]:
    """The class of that name (top-level or nested in another class) and the bases the module itself defines
    (`LatentDiffusion(DDPM)`; a base named by its last part, `base.Model`, counts too), nearest first, four
    classes at most: what a method of the class may find on `self` in this module (review 26 item 13)."""
    classes = index.classes_by_name
    chain: list[ast.ClassDef] = []
    todo = [name]
    while todo and len(chain) < 4:
        cls = classes.get(todo.pop(0))
        if cls is None or cls in chain:
            continue
        chain.append(cls)
        todo.extend(
            b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
            for b in cls.bases
        )
    return chain


_LOOP_LEVEL_STOPS = (*LOOP_TYPES, *FUNCTION_TYPES, ast.ClassDef, ast.Lambda)
_LOOP_LEVEL_STOPS_COMPREHENSIONS = (*_LOOP_LEVEL_STOPS, *COMPREHENSION_TYPES)


def loop_level_nodes(body: list[ast.stmt], comprehensions: bool = False) -> Iterator[ast.AST]:
    """The nodes of a loop's body (or a def's) outside its inner loops and its nested defs, classes and lambdas,
    and outside its comprehensions too when `comprehensions`: such a nested node is yielded itself, its inside
    is not. (review 27 item 12: the one helper for "a loop body's own nodes"; torch_history uses it, and
    keras._own_nodes and datasets._own_nodes, which also skip the nested node itself, are near-copies the
    TensorFlow modules' owner may replace.)"""
    stops = _LOOP_LEVEL_STOPS_COMPREHENSIONS if comprehensions else _LOOP_LEVEL_STOPS
    todo = list(body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, stops):
            todo.extend(ast.iter_child_nodes(node))
