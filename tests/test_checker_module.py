"""checker/module.py: the walks the rules share."""

import ast
import inspect

from checker.module import child_nodes, def_scopes, iter_walk, names_in, node_fields, statements_in, walk

_SOURCE = """
def outer(x):
    for i in range(3):
        try:
            y = [lambda: 1 for _ in x]
        except ValueError as exc:
            return exc
        else:
            global g
        finally:
            pass
    match x:
        case [a, *_] if a:
            return a
        case _:
            pass
    class Inner:
        def method(self):
            return (yield 1)
    while x:
        x -= 1
    else:
        return None
    return x
"""


def test_statements_in_gives_walks_statements_in_walks_order():
    function = ast.parse(_SOURCE).body[0]
    kinds = (ast.stmt, ast.excepthandler, ast.match_case)
    expected = [n for n in walk(function) if isinstance(n, kinds)]
    assert statements_in(function) == expected
    assert [type(n).__name__ for n in statements_in(function)][:4] == [
        "FunctionDef",
        "For",
        "Match",
        "ClassDef",
    ]
    assert len([n for n in statements_in(function) if isinstance(n, ast.Return)]) == 5


def test_walk_is_ast_walk_as_a_list():
    tree = ast.parse(_SOURCE)
    assert walk(tree) == list(ast.walk(tree))


_EVERY_KIND = """
import a.b as c
from .x import (y as z, w)
async def f(p, /, q: int = 1, *r, s, t=2, **u) -> "T":
    global g
    nonlocal_ = lambda v=3: v
    async with h() as (i, j), k:
        async for l in m:
            yield from n
    x = f"{p!r:>{q}} {s=}"
    merged = {**u, "k": 1, **u}
    del x[1:2, ::3]
    assert p, "q"
    try:
        raise ValueError from None
    except* (TypeError, KeyError) as e:
        pass
    match p:
        case {"k": 1, **rest} | [1, *others] if rest:
            pass
        case Point(x=0, y=b) | None | True:
            pass
        case str() as text:
            print(text)
    return {a: b for a, b in c if a} | {*d} or (e := not -f) @ g[h, ...] if i else j
class K(B, metaclass=M):
    @d.e(f)
    def m(self): ...
"""


def test_the_walks_give_ast_walks_nodes_in_its_order():
    """`walk`, `iter_walk` and `child_nodes` skip the fields an AST class declares as names, strings and
    constants (`node_fields`): on every kind of node they give what `ast.walk` and `ast.iter_child_nodes`
    give, in the same order."""
    trees = [ast.parse(_SOURCE), ast.parse(_EVERY_KIND), ast.parse(inspect.getsource(ast))]
    for tree in trees:
        assert walk(tree) == list(ast.walk(tree)) == list(iter_walk(tree))
        for node in walk(tree):
            assert child_nodes(node, []) == list(ast.iter_child_nodes(node))
    assert node_fields(ast.Name) == ("ctx",) and node_fields(ast.Constant) == ()
    assert node_fields(ast.Call) == ("func", "args", "keywords")
    # (the list fields that may hold None, `{**u}`'s key and `s`'s missing default, give no None)
    assert all(n is not None for n in walk(ast.parse(_EVERY_KIND)))


def test_unrolled_appenders_give_the_plans_children_and_read_missing_fields_as_none():
    """The per-class appenders the walks use (`_CHILD_APPENDERS`, `_WALKED_APPENDERS`) append what the general
    `_append_children` appends for the class's plan, on every kind of node; a node a rule built without some
    field (`ast.Name(id=...)`, no `ctx`) reads it as None, as the general code does."""
    from checker.module import (
        _CHILD_APPENDERS,
        _CHILD_PLANS,
        _WALKED_APPENDERS,
        _WALKED_PLANS,
        _append_children,
    )

    for tree in (ast.parse(_SOURCE), ast.parse(_EVERY_KIND)):
        for node in ast.walk(tree):
            for appenders, plans in ((_CHILD_APPENDERS, _CHILD_PLANS), (_WALKED_APPENDERS, _WALKED_PLANS)):
                into = [tree]
                assert appenders[node.__class__](node, into) is into
                assert into == _append_children(node, plans[node.__class__], [tree])
    built = ast.Call(func=ast.Name(id="f"), args=[ast.Name(id="x")], keywords=[])
    assert walk(built) == [built, built.func, built.args[0]]
    item = ast.Subscript(value=ast.Name(id="m"), slice=ast.Constant(1))
    assert child_nodes(item, []) == [item.value, item.slice]


def test_names_in_is_every_name_under_a_node():
    tree = ast.parse(_EVERY_KIND)
    for node in walk(tree):
        assert names_in(node) == {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _scopes_by_walk(tree: ast.Module) -> dict[int, tuple[tuple[int, ...], set[int]]]:
    """id(scope) -> (its chain of enclosing defs, the ids of the call, statement and def nodes whose innermost
    def it is): a stack walk carrying each node's chain, as `_calls_bound_as_modules` was written."""
    found: dict[int, tuple[tuple[int, ...], set[int]]] = {id(tree): ((id(tree),), set())}
    stack = [(tree, (id(tree),))]
    while stack:
        node, chain = stack.pop()
        if node is not tree and isinstance(node, ast.Call | ast.stmt):
            found[chain[-1]][1].add(id(node))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            chain = (*chain, id(node))
            found[id(node)] = (chain, set())
        stack.extend((child, chain) for child in ast.iter_child_nodes(node))
    return found


def test_def_scopes_gives_each_nodes_innermost_def_and_the_defs_around_it():
    """`def_scopes` lists the module and every def with its chain of enclosing defs, and under each the calls,
    statements and defs (decorators and defaults included) whose innermost def it is, as a walk carrying the
    chain says; a def's own nodes are listed under the def around it."""
    for source in (_SOURCE, _EVERY_KIND, inspect.getsource(ast)):
        tree = ast.parse(source)
        expected = _scopes_by_walk(tree)
        scopes = def_scopes(tree)
        assert len(scopes) == len(expected)
        for scope, chain, nodes in scopes:
            assert chain[-1] == id(scope)
            want_chain, want_nodes = expected[id(scope)]
            assert chain == want_chain
            kept = [n for n in nodes if isinstance(n, ast.Call | ast.stmt)]
            assert len(kept) == len({id(n) for n in kept})  # (no node twice)
            assert {id(n) for n in kept} == want_nodes
            assert not any(isinstance(n, ast.expr_context) for n in nodes)


def test_module_nodes_are_the_walk_of_the_module_asked_and_change_with_it():
    """`module_nodes` (torch_common) lists a module's nodes once, in its TorchFacts: the list is `walk`'s of
    the module asked, and asking of another module (or after `forget_facts`) gives that module's, never the
    list of a module checked before."""
    from checker.module import ModuleIndex
    from checker.rules.torch_common import forget_facts, module_nodes

    first = ModuleIndex.build(ast.parse("import torch\nx = torch.zeros(2)\n"))
    second = ModuleIndex.build(ast.parse("import torch\nfor i in range(3):\n    y = torch.ones(i)\n"))
    try:
        nodes = module_nodes(first)
        assert nodes == walk(first.tree)
        assert module_nodes(first) is nodes  # listed once
        assert module_nodes(second) == walk(second.tree)
        forget_facts()
        assert module_nodes(first) == walk(first.tree)
        assert module_nodes(first) is not nodes  # made again for a module taken up again
    finally:
        forget_facts()


def test_values_by_name_is_bound_values_of_every_name():
    """`values_by_name` gives, for each name a scope assigns, what the old one-name walk gave: every `=`,
    `+=` and annotated value bound to the plain name, in `ast.walk`'s order, once per statement (`a = a = x`)."""
    from checker.module import values_by_name

    tree = ast.parse(_SOURCE + "\nz = w = z2 = 1\nz += 2\nq: int\nq: int = 3\nz, v = 4, 5\nz = z = 6\n")

    def one_walk(scope, name):  # the walk `bound_values` made per name before the table
        return [
            node.value
            for node in walk(scope)
            if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign)
            and any(
                isinstance(t, ast.Name) and t.id == name
                for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
            )
        ]

    names = {n.id for n in walk(tree) if isinstance(n, ast.Name)}
    for scope in [tree, *(n for n in walk(tree) if isinstance(n, ast.FunctionDef))]:
        table = values_by_name(scope)
        assert table.keys() <= names
        for name in names:
            assert table.get(name, []) == one_walk(scope, name), name
    assert len(values_by_name(tree)["z"]) == 3 and values_by_name(tree)["q"][0] is None


def test_scope_values_are_the_scope_asked_and_change_with_the_module():
    """`scope_values` (torch_common) keeps one table per scope in the module's TorchFacts: a def's table is
    that def's, the module's is the module's, and another module (or one taken up again after
    `forget_facts`) gets its own, never a table of a module checked before."""
    from checker.module import ModuleIndex, values_by_name
    from checker.rules.torch_common import forget_facts, scope_values

    source = "import torch\nlayers = [1]\ndef f(m):\n    layers = list(m.children())\n    return layers\n"
    first = ModuleIndex.build(ast.parse(source))
    second = ModuleIndex.build(ast.parse(source.replace("children", "modules")))
    try:
        function = first.functions[0]
        table = scope_values(first, function)
        assert table == values_by_name(function) and scope_values(first, function) is table  # made once
        assert scope_values(first, first.tree)["layers"][0].__class__ is ast.List  # the module's own
        other = scope_values(second, second.functions[0])
        assert other["layers"][0].args[0].func.attr == "modules"  # the second module's def, not the first's
        forget_facts()
        again = scope_values(first, function)
        assert again is not table and again["layers"][0].args[0].func.attr == "children"
    finally:
        forget_facts()


def test_the_classes_are_listed_once_per_index_in_walk_order(monkeypatch):
    """(torch-speed20) `class_chain` and `class_at` walked the whole tree at every call (PP503 asks
    `class_chain` of every model call: a sixth of a hold-out-36 run). The index lists its classes once
    (`class_defs`, from its statements: a class is a statement), in `walk`'s order, so that a name bound to two
    classes still means the one `walk` meets last (a def's nested class after the module's)."""
    import checker.module as module

    source = (
        "def make():\n"
        "    class Net:\n"
        "        pass\n"
        "    return Net\n"
        "class Net(Base):\n"
        "    class Head:\n"
        "        pass\n"
        "try:\n"
        "    class Base:\n"
        "        pass\n"
        "except ImportError:\n"
        "    class Base(object):\n"
        "        pass\n"
    )
    tree = ast.parse(source)
    index = module.ModuleIndex.build(tree)
    assert index.class_defs == [n for n in walk(tree) if isinstance(n, ast.ClassDef)]
    assert [c.lineno for c in index.class_defs] == [5, 2, 6, 9, 12]
    monkeypatch.setattr(module, "walk", lambda root: (_ for _ in ()).throw(AssertionError("walked again")))
    assert [c.lineno for c in module.class_chain(index, "Net")] == [2]
    assert [c.lineno for c in module.class_chain(index, "Base")] == [12]
    assert module.class_at(index, 7).name == "Head"
    assert module.class_at(index, 1) is None
