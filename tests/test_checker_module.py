"""checker/module.py: the walks the rules share."""

import ast
import inspect

from checker.module import child_nodes, iter_walk, names_in, node_fields, statements_in, walk

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


def test_names_in_is_every_name_under_a_node():
    tree = ast.parse(_EVERY_KIND)
    for node in walk(tree):
        assert names_in(node) == {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
