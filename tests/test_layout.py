"""The layout holds: no import cycles, the layering rules, and one declaration of the schema.

The import graph is read from the source (an AST walk), so it sees imports inside functions as well as at the
top of a module; imports under ``if TYPE_CHECKING:`` are left out (they never run).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "mining", "labeling", "checker", "ppbench")

# A package whose __init__ imports its own submodules inside a function (a registry loaded on first use) is not
# a cycle in the sense that matters: nothing half-initialised is ever read.
#
# Cycles tolerated for now, each to be removed by the change that breaks it (the test fails when one is gone,
# so the list cannot go stale). None are left.
KNOWN_CYCLES: list[set[str]] = []


@cache
def project_modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in (PROJECT / pkg).rglob("*.py"):
            if "cases" in path.parts:  # ppbench's case programs run as scripts, not as modules
                continue
            parts = path.relative_to(PROJECT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST):
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            yield from (n for child in node.orelse for n in _import_nodes_of(child))
            continue
        yield from _import_nodes_of(node)


def _import_nodes_of(node: ast.AST):
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    else:
        yield from _import_nodes(node)


def imported_modules(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports (absolute names; ``from a import b`` is ``a.b`` when that is a module)."""
    modules = project_modules()
    out = set()
    for node in _import_nodes(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, base] if base else package)
        for alias in node.names:
            full = f"{base}.{alias.name}"
            out.add(full if full in modules else base)
    return out


@cache
def import_graph() -> dict[str, frozenset[str]]:
    modules = project_modules()
    graph = {}
    for name, path in modules.items():
        targets = {m for m in imported_modules(name, path) if m in modules and m != name}
        # the registry case: a package importing its own submodules
        graph[name] = frozenset(t for t in targets if not t.startswith(name + "."))
    return graph


def cycles(graph: dict[str, frozenset[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"})}
    assert cycles(graph) == [{"a", "b", "c"}]
    assert cycles({"a": frozenset({"b"}), "b": frozenset()}) == []


def test_no_import_cycles():
    found = cycles(import_graph())
    unknown = [sorted(c) for c in found if c not in KNOWN_CYCLES]
    assert not unknown, f"import cycles: {unknown}"
    gone = [sorted(c) for c in KNOWN_CYCLES if c not in found]
    assert not gone, f"these cycles are gone, remove them from KNOWN_CYCLES: {gone}"


def _importers(package: str, *forbidden: str) -> list[str]:
    """``module -> import`` for each import of a forbidden module (or package) by a module of ``package``."""
    return [
        f"{name} -> {target}"
        for name, path in project_modules().items()
        if name == package or name.startswith(package + ".")
        for target in sorted(imported_modules(name, path))
        if any(target == f or target.startswith(f + ".") for f in forbidden)
    ]


def test_layering():
    # checker stays pure: it runs on code alone, without the study's database or packages
    assert (
        _importers("checker", "mining", "labeling", "ppbench", "core.db", "core.schema", "sqlalchemy") == []
    )
    # mining must not import labeling (labeling builds on mining)
    assert _importers("mining", "labeling") == []
    # the core builds on nothing of the project
    assert _importers("core", "mining", "labeling", "checker", "ppbench") == []
    assert _importers("ppbench", "labeling") == []


def _table_calls(tree: ast.AST) -> list[int]:
    """Lines that build a table by name with SQLAlchemy (``sa.table(...)``, ``Table(...)``)."""
    sqlalchemy_aliases = {"sqlalchemy"}
    table_names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            sqlalchemy_aliases.update(a.asname or a.name for a in node.names if a.name == "sqlalchemy")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
            table_names.update(a.asname or a.name for a in node.names if a.name in ("table", "Table"))
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        by_name = isinstance(func, ast.Name) and func.id in table_names
        by_module = (
            isinstance(func, ast.Attribute)
            and func.attr in ("table", "Table")
            and isinstance(func.value, ast.Name)
            and func.value.id in sqlalchemy_aliases
        )
        if by_name or by_module:
            lines.append(node.lineno)
    return lines


def test_the_table_finder_sees_a_table_by_name():
    source = 'import sqlalchemy as sa\nfrom sqlalchemy import table\nt = sa.table("x")\nu = table("y")\n'
    assert _table_calls(ast.parse(source)) == [3, 4]


def test_tables_are_declared_only_in_the_schema():
    """A table written out by name beside the models is a second schema that can drift from the migrations."""
    shadows = [
        f"{path.relative_to(PROJECT)}:{line}"
        for name, path in project_modules().items()
        if not name.startswith("core.schema")
        for line in _table_calls(ast.parse(path.read_text()))
    ]
    assert shadows == []
