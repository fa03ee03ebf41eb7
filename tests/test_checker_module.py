"""checker/module.py: the walks the rules share."""

import ast

from checker.module import statements_in, walk

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
