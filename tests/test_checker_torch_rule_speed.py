"""What the per-module PyTorch rules leave unasked (torch-speed17): a table or a walk that a cheaper question
shows would answer nothing is not made. Each test counts the calls of the costly step on a module in the shape
of real code, and checks that the finding it guards is still found where the step does answer."""

from __future__ import annotations

import ast
import sys
import textwrap

from checker import check_source
from checker.module import ModuleIndex
from checker.rules import torch_common, torch_graph, torch_loop
from checker.torch_project import graph_callers


def _found(source: str, path: str = "train.py") -> list[tuple[str, int]]:
    findings, skipped = check_source(textwrap.dedent(source), path)
    assert not skipped, skipped
    return sorted((f.rule, f.line) for f in findings)


def _counting(monkeypatch, module, name: str, callers: bool = False) -> list:
    """Replace `module.name` by a wrapper that records each call's first argument (or its caller's name)."""
    calls: list = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(sys._getframe(1).f_code.co_name if callers else args[0] if args else None)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


# a training script: top-level defs, an evaluation loop after the model's `.eval()`, no `global`
_EVALUATED = """
import torch
from torch import nn

model = nn.Linear(4, 2).cuda()


def evaluate(loader):
    model.eval()
    total = 0
    for x, y in loader:
        out = model(x.cuda())
        total += (out.argmax(1) == y.cuda()).sum().item()
    return total


def log(step, value):
    print(step, value)
"""

# the same loop, the model taken through a bound forward (`forward = self.net.forward`: SR-LSTM's `val_epoch`)
_BOUND_FORWARD = """
import torch
from torch import nn


class Runner:
    def __init__(self):
        self.net = nn.Linear(4, 2).cuda()

    def val_epoch(self, loader):
        self.net.eval()
        forward = self.net.forward
        for x, y in loader:
            out = forward(x.cuda())
            print(out.sum().item())
"""


def test_a_module_without_forward_bindings_lists_no_def_statements_for_them(monkeypatch):
    calls = _counting(monkeypatch, torch_graph, "_own_statements", callers=True)
    assert ("PP503", 12) in _found(_EVALUATED)
    # (no `name = x.forward`: `_bound_forwards` lists no def's statements)
    assert "bound" not in calls, calls


def test_a_bound_forward_is_still_followed():
    assert ("PP503", 14) in _found(_BOUND_FORWARD)


def test_a_module_with_no_eval_in_a_def_lists_no_global_names(monkeypatch):
    calls = _counting(monkeypatch, torch_graph, "_declared_global")
    _found(_EVALUATED.replace("    model.eval()\n", ""))
    assert calls == []


def test_a_helper_returning_a_model_is_walked_once_however_often_it_is_called(monkeypatch):
    source = """
    import torch
    from torch import nn


    def setup():
        net = nn.Linear(4, 2).cuda()
        net.eval()
        return net


    def other():
        return nn.Linear(4, 2)


    a = setup()
    b = setup()
    c = other()
    for x in range(10):
        print(a(torch.randn(1, 4).cuda()).sum().item())
    """
    calls = _counting(monkeypatch, torch_graph, "_returns_in_eval")
    _found(source)
    assert [f.name for f in calls] == ["setup", "other"]  # (one verdict a helper, not one a call)


def test_a_loop_without_a_name_subscript_makes_no_sequence_names(monkeypatch):
    source = """
    import torch

    def train(model, loader, optimizer):
        for x, y in loader:
            loss = model(x.cuda()).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    """
    calls = _counting(monkeypatch, torch_loop, "_sequence_names")
    _found(source)
    assert calls == []


def test_a_host_list_indexed_by_a_device_element_is_still_found():
    # (`names[label[k]]`: `_sequence_names` is made at the loop's first `name[i]`)
    source = """
    import torch

    def evaluate(model, loader, names):
        model.eval()
        counts = [0] * 10
        with torch.no_grad():
            for x, label in loader:
                x, label = x.cuda(), label.cuda()
                out = model(x)
                for k in range(label.size(0)):
                    counts[label[k]] += 1
        return counts
    """
    assert ("PP509", 11) in _found(source)


class _Text(str):
    """A module text that counts the pattern searches made in it."""


def test_the_volatile_pattern_is_asked_only_of_texts_saying_volatile(monkeypatch):
    searched = []

    class Pattern:
        def search(self, text):
            searched.append(text)
            return None

    monkeypatch.setattr(graph_callers, "_VOLATILE", Pattern())
    texts = {"a.py": "import torch\nx = 1\n", "b.py": "v = Variable(x, volatile=True)\n"}
    assert graph_callers._volatile_elsewhere(texts, {"a.py": {2}}) == set()
    assert searched == [texts["b.py"]]


def test_a_loop_body_is_listed_once_while_its_module_facts_live(monkeypatch):
    """(torch-speed21) PP509 walked a loop's body anew for each of its questions (341k walks on hold-out 36):
    the body's nodes are now listed once per module's TorchFacts, in `ast.walk`'s order statement by
    statement, and the step loops are found only when a rule asks for them."""
    source = textwrap.dedent(
        """
        import torch
        for batch in loader:
            x = batch.cuda()
            if x.sum() > 0:
                total += x[0].item()
            loss = model(x).mean()
            loss.backward()
        """
    )
    index = ModuleIndex.build(ast.parse(source))
    steps = _counting(monkeypatch, torch_common.TorchFacts, "_steps")
    fx = torch_common.facts(index)
    assert steps == []  # (not made with the facts)
    loop = index.loops[0]
    try:
        walks = _counting(monkeypatch, torch_common, "walk")
        first = torch_common.body_nodes(loop.body)
        assert first == [n for stmt in loop.body for n in ast.walk(stmt)]
        assert torch_common.body_nodes(loop.body) is first
        assert walks == loop.body  # (one walk per statement, the second answer from the list)
        assert fx.step_loops == [loop] and len(steps) == 1
    finally:
        torch_common.forget_facts(index)
    assert torch_common.body_nodes(loop.body) == first  # (no facts: listed afresh)


def test_the_module_facts_keep_one_cache_that_keeps_what_it_is_for():
    """(torch-speed22) `body_nodes` kept its lists in a table of its own beside `loop_cache`; both are one
    cache now. A value asked twice is made once; an entry keeps the object it was made for, so an object
    that took a dead one's id (a body list made for the question) gets its own value, not the dead one's
    (main's `loop_cache` keyed on the id alone)."""
    index = ModuleIndex.build(ast.parse("import torch\nfor x in xs:\n    y = x.cuda()\n"))
    fx = torch_common.facts(index)
    try:
        made = []
        first = fx.loop_cache("probe", index.loops[0], lambda: made.append(1) or "value")
        assert fx.loop_cache("probe", index.loops[0], lambda: made.append(1) or "other") == first
        assert made == [1]
        loop = index.loops[0]
        body = torch_common.body_nodes(loop.body)
        assert fx.loop_cache("body_nodes", loop.body, lambda: None) is body  # (one cache)
        answers = []
        for n in range(50):  # (a list freed each round: CPython soon hands its id to the next one)
            key = [n]
            answers.append(fx.loop_cache("temporary", key, lambda key=key: key[0]))
            del key
        assert answers == list(range(50))
    finally:
        torch_common.forget_facts(index)


def test_the_module_nodes_of_a_kind_are_listed_once_per_module_facts(monkeypatch):
    """(torch-speed22) `module_nodes_of`: the module's nodes of some classes, in `ast.walk`'s order, listed
    once from the module's node list for every rule that asks (none walks the tree for them again)."""
    index = ModuleIndex.build(ast.parse("import torch\nx = f(1)\nfor a in b:\n    y = g(a).cuda()\n"))
    try:
        walks = _counting(monkeypatch, torch_common, "walk")
        calls = torch_common.module_nodes_of(index, ast.Call)
        assert calls == [n for n in ast.walk(index.tree) if isinstance(n, ast.Call)]
        assert torch_common.module_nodes_of(index, ast.Call) is calls
        both = torch_common.module_nodes_of(index, ast.Assign, ast.Call)
        assert both == [n for n in ast.walk(index.tree) if isinstance(n, ast.Assign | ast.Call)]
        assert torch_common.module_nodes_of(index, ast.Call, ast.Assign) is both
        assert len(walks) == 1  # (the module's nodes, listed once)
    finally:
        torch_common.forget_facts(index)


def test_module_nodes_of_two_classes_of_one_name_are_two_lists():
    """review28 item 21: the key joined the classes' `__name__`s, so a class named `Call` of another module
    was given the list of `ast.Call` nodes."""
    index = ModuleIndex.build(ast.parse("import torch\nx = f(1)\n"))
    other = type("Call", (ast.expr,), {"__module__": "elsewhere"})
    try:
        assert len(torch_common.module_nodes_of(index, ast.Call)) == 1
        assert torch_common.module_nodes_of(index, other) == []
    finally:
        torch_common.forget_facts(index)


def test_a_comprehension_bounded_by_each_length_leaves_no_body_list_in_the_cache():
    """(review 28 item 18) `_sliced_by_element` listed a comprehension's element with `body_nodes([elt])`: a
    list made for the call, so its cache entry could never be hit again and kept the list alive until the
    facts went. The element is walked directly now: every `body_nodes` entry is a statement list of the tree.
    The finding (Angular-Penalty's `wf[i, :y]` per label in a loss forward) is still made."""
    source = textwrap.dedent(
        """
        import torch

        def train(net, loader, opt):
            for batch in loader:
                clean, seq_len = batch[0].cuda(), batch[1].cuda()
                wf = net(clean)
                excl = torch.cat([torch.cat((wf[i, :y], wf[i, y + 1 :])) for i, y in enumerate(seq_len)])
                loss = excl.sum()
                opt.zero_grad()
                loss.backward()
                opt.step()
        """
    )
    index = ModuleIndex.build(ast.parse(source))
    fx = torch_common.facts(index)
    try:
        comp = next(loop for loop in index.loops if isinstance(loop, ast.ListComp))
        finding = torch_loop._sliced_by_element(comp, index)
        assert finding is not None and finding.line == 8
        bodies = {
            id(getattr(node, field))
            for node in ast.walk(index.tree)
            for field in ("body", "orelse")
            if isinstance(getattr(node, field, None), list)
        }
        kept = [entry[0] for (key, _), entry in fx._per_loop.items() if key == "body_nodes"]
        assert all(id(listed) in bodies for listed in kept)
    finally:
        torch_common.forget_facts(index)
