"""PP501 (torch-fix91): the host reads of a def a training loop runs every step that `_step_called_reads`
(reads.py) judged out of reach, because they sit where its first pass looked for none: in a loop or
comprehension over the def's own arguments (`{k: t.item() for k, t in tensor_dict.items()}`, IRR's
`tensor2float_dict`; `for k in topk: ... .item()`, GT-RIPL's `accuracy`; `for key, value in
loss_components.items()`, bet's `log_append`), under a test of an argument's type (`if isinstance(loss,
torch.Tensor): loss = loss.item()`, TAPE's `MetricsAccumulator.update`; GwcNet's `tensor2float`), under a
test of such a loop's key (`if 'loss' in key:`, HandMesh's `board_scalar`), as `float()` of a tensor
reduction (`self.mse = float((torch.pow(abs_diff, 2)).mean())`, the `Result.evaluate` of PENet and
self-supervised-depth-completion), or in a metric method named for evaluation that runs no loop of its own
(that same `evaluate`). Each is a sub-shape new to the rule: its findings are `medium` until first reads
show them right often enough to raise."""

from __future__ import annotations

import ast
import re

from checker.module import iter_walk, none_tested, parameter_names
from checker.rules.torch_common import method_name

# (`float(x.mean())`: the reductions whose `float()` reads one device number)
_REDUCTIONS = frozenset({"mean", "sum", "max", "min", "norm", "std", "var", "prod", "median", "amax", "amin"})
# (an argument a loop runs over that is a stream of batches, not a handful of loss terms)
_STREAM = re.compile(r"(?i)loader|dataset|batches|iterator|^data$|^dl$|queue|stream|generator")
_ITEM_VIEWS = frozenset({"items", "values", "keys"})
_WRAPPERS = frozenset({"enumerate", "zip", "sorted", "list", "tuple", "reversed"})
_LOOPLESS_EVAL = re.compile(r"(?i)^eval")
_LOOP_LINE = re.compile(r"^[ \t]+(?:for|while)\b", re.MULTILINE)
# (defs named for work that is no training step: reads.py adds `eval` for the callees it follows)
NOT_STEP_WORDS = "test|valid|save|checkpoint|visual|plot|sample|summar|__init__"
_OTHER_SKIP = re.compile(rf"(?i){NOT_STEP_WORDS}")


def float_read(call: ast.Call) -> bool:
    """`float(t.mean())`, `float(torch.pow(d, 2).mean())`: the builtin `float` of a tensor reduction, which
    copies the number to the host (not `float(n)` of a plain name, nor `float(len(x))`)."""
    if not (isinstance(call.func, ast.Name) and call.func.id == "float" and len(call.args) == 1):
        return False
    arg = call.args[0]
    return isinstance(arg, ast.Call) and not arg.args and method_name(arg) in _REDUCTIONS


def float_loss_read(call: ast.Call, function) -> bool:
    """(torch-fix140) `float(loss)` of a name for a loss the def computes (`loss = self.loss_fun(pred, y)`,
    `pt_loss += ...`; MultiHopKG's `loss` and `loss` of its policy gradient, hold-out 47): the builtin `float`
    of a tensor, which copies it to the host. Not of an argument of the def (a caller may hand it a number),
    nor of a name the def binds only to constants or host numbers (`loss = 0.0`, `loss = l.item()`; a total
    started at `0.0` that adds a loss, `loss += self.crit(x)`, holds a tensor: review 27 item 7), nor one
    whose number a test of the def needs (`_tested_later`)."""
    if not (isinstance(call.func, ast.Name) and call.func.id == "float" and len(call.args) == 1):
        return False
    arg = call.args[0]
    if not isinstance(arg, ast.Name) or "loss" not in arg.id.lower() or arg.id in parameters(function):
        return False
    values = [
        value
        for node in _own_scope(function)
        if isinstance(node, ast.Assign | ast.AugAssign)
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if (value := _bound_value(t, node.value, arg.id)) is not None
    ]
    if all(_host_value(v) for v in values):
        return False
    return not _tested_later(call, function)


def _bound_value(target: ast.AST, value: ast.AST, name: str) -> ast.AST | None:
    """The value an assignment gives `name` through `target`: itself for the name, the matching element of a
    tuple value for a tuple target (`(a, b), loss = (1, 2), 3`), the whole value otherwise (`loss, logits =
    crit(out, y)`: a tensor as far as anyone knows; session 27 reread note, torch-fix147). None when the
    target does not bind the name."""
    if isinstance(target, ast.Name):
        return value if target.id == name else None
    if not isinstance(target, ast.Tuple | ast.List):
        return None
    paired = isinstance(value, ast.Tuple | ast.List) and len(value.elts) == len(target.elts)
    for i, element in enumerate(target.elts):
        inner = value.elts[i] if paired else value
        if isinstance(element, ast.Starred):
            element, inner = element.value, value
        if (found := _bound_value(element, inner, name)) is not None:
            return found
    return None


def _own_scope(function):
    """The nodes of a def outside its nested defs, lambdas and classes: a nested `closure()` that binds `loss` to
    a tensor says nothing of the def's own `loss = 0.0` (session 27 reread)."""
    todo = list(ast.iter_child_nodes(function))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            todo.extend(ast.iter_child_nodes(node))


def _tested_later(call: ast.Call, function) -> bool:
    """The call's value, bound to a name, reaches an `if` or `while` test of the def (`loss = float(orig_loss)`,
    then `if abs(loss - prev_loss) < tolerance_change: break`, an L-BFGS `step`'s convergence test, hold-out
    38), or the call lies in such a test itself (`if abs(float(orig_loss) - self.prev) < tol:`, review 27
    item 9): the def's own logic needs the number on the host."""
    tests = [node.test for node in ast.walk(function) if isinstance(node, ast.If | ast.While)]
    if any(n is call for test in tests for n in ast.walk(test)):
        return True
    names = {
        t.id
        for node in ast.walk(function)
        if isinstance(node, ast.Assign) and node.value is call
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    return bool(names) and any(
        isinstance(n, ast.Name) and n.id in names for test in tests for n in ast.walk(test)
    )


def _host_value(value: ast.AST) -> bool:
    """A value computed on the host: a constant, `.item()`, `float(...)`, `len(...)`, or arithmetic of them."""
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.BinOp):
        return _host_value(value.left) and _host_value(value.right)
    if isinstance(value, ast.Call):
        func = value.func
        name = (
            func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        )
        return name in ("item", "float", "int", "len") and isinstance(func, ast.Name) == (name != "item")
    return False


def parameters(function) -> set[str]:
    """The names of the def's arguments, `*args` and `**kwargs` included, but `self` and `cls`."""
    starred = {s.arg for s in (function.args.vararg, function.args.kwarg) if s is not None}
    return (parameter_names(function) | starred) - {"self", "cls"}


def _over_arguments(iterable: ast.AST, params: set[str]) -> bool:
    """The iterable is one of the def's arguments or a view of one (`losses`, `losses.items()`,
    `enumerate(losses)`, `zip(a, b)`, `model.instruments`, `range(len(topk))`), not a stream of batches."""
    if isinstance(iterable, ast.Call):
        func = iterable.func
        if isinstance(func, ast.Name) and func.id in _WRAPPERS:
            return bool(iterable.args) and all(_over_arguments(a, params) for a in iterable.args)
        if isinstance(func, ast.Name) and func.id == "range":
            return (
                len(iterable.args) == 1
                and isinstance(iterable.args[0], ast.Call)
                and isinstance(iterable.args[0].func, ast.Name)
                and iterable.args[0].func.id == "len"
                and len(iterable.args[0].args) == 1
                and _over_arguments(iterable.args[0].args[0], params)
            )
        if method_name(iterable) in _ITEM_VIEWS and not iterable.args:
            return _over_arguments(func.value, params)
        return False
    if isinstance(iterable, ast.Attribute):
        return isinstance(iterable.value, ast.Name) and _over_arguments(iterable.value, params)
    return isinstance(iterable, ast.Name) and iterable.id in params and not _STREAM.search(iterable.id)


def argument_loop(loop: ast.AST, params: set[str]) -> bool:
    """A `for` over the def's arguments (`_over_arguments`): it runs a few times on every call."""
    return isinstance(loop, ast.For) and _over_arguments(loop.iter, params)


def runs_per_argument(loop: ast.AST, params: set[str]) -> bool:
    """A `for` loop or comprehension over the def's arguments."""
    return argument_loop(loop, params) or argument_comprehension(loop, params)


def argument_comprehension(node: ast.AST, params: set[str]) -> bool:
    """A comprehension whose every generator runs over the def's arguments (`_over_arguments`)."""
    if isinstance(node, ast.comprehension):
        return _over_arguments(node.iter, params)
    generators = getattr(node, "generators", None)
    return bool(generators) and all(_over_arguments(g.iter, params) for g in generators)


def loop_targets(function, params: set[str]) -> set[str]:
    """The names bound by the def's loops and comprehensions over its arguments (`key`, `value` of `for
    key, value in losses.items()`)."""
    found = set()
    for node in iter_walk(function):
        if isinstance(node, ast.For | ast.comprehension) and _over_arguments(node.iter, params):
            found |= {n.id for n in iter_walk(node.target) if isinstance(n, ast.Name)}
    return found


def type_switch(branch: ast.If, node: ast.AST, names: set[str]) -> bool:
    """`if isinstance(loss, torch.Tensor): loss = loss.item()` (the read in the branch a tensor takes), or
    `if isinstance(v, float): return v` with the read in its `else` (`elif isinstance(v, torch.Tensor)`):
    a test of an argument's (or a loop target's) type, which a training step's tensor passes."""
    test = branch.test
    if not (
        type_test(test)
        and len(test.args) == 2
        and isinstance(test.args[0], ast.Name)
        and test.args[0].id in names
    ):
        return False
    tensor = "Tensor" in ast.unparse(test.args[1])
    taken = branch.body if tensor else branch.orelse
    return any(n is node for stmt in taken for n in iter_walk(stmt))


def type_test(test: ast.AST) -> bool:
    """`isinstance(x, ...)`."""
    return isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"


def key_filter(test: ast.AST, targets: set[str]) -> bool:
    """`if 'loss' in key:` over a loop of the def's arguments: a test of the loop's own key against a
    constant, which picks loss terms, not steps."""
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.In | ast.NotIn | ast.Eq | ast.NotEq)
        and isinstance(test.left, ast.Constant)
        and isinstance(test.comparators[0], ast.Name)
        and test.comparators[0].id in targets
    ) or (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Name)
        and test.left.id in targets
        and isinstance(test.comparators[0], ast.Constant)
    )


def loopless_eval_method(name: str, body: str) -> bool:
    """A method named for evaluation (`evaluate`, `eval_metrics`) with no loop of its own: a metric it
    computes for the batch it is given (`Result.evaluate(output, target)`), not an evaluation pass."""
    return bool(_LOOPLESS_EVAL.search(name)) and not _OTHER_SKIP.search(name) and not _LOOP_LINE.search(body)


_HOST_CALLS = frozenset({"item", "tolist", "numpy", "float", "int", "len", "round", "str"})


def hands_step_value(call: ast.Call, bound: dict) -> bool:
    """The call hands the def a value the loop computed that is not already a host number: a name the loop
    binds (`bound`, name -> values) to anything but a read (`loss_value = loss.item()`), or an expression of
    one (`loss.detach()`, `**loss_dict`), not only constants, reads (`loss=loss.item()`) and names from
    outside the loop (`lr=lr`). A read under a type test of its argument runs only for such a value: the
    detection references' `MetricLogger.update` reads `v.item()` only when handed a tensor (ALBEF and BLIP
    hand it `loss.item()`)."""
    values = [a.value if isinstance(a, ast.Starred) else a for a in call.args]
    values += [k.value for k in call.keywords]
    return any(_step_value(v, bound) for v in values)


def _step_value(node: ast.AST, bound: dict) -> bool:
    """A value of the step: a name the loop binds to anything but a host read, or an expression of one that
    is not itself a read."""
    if isinstance(node, ast.Constant) or (isinstance(node, ast.Call) and _host_read(node)) or _setting(node):
        return False
    if isinstance(node, ast.Name):
        return node.id in bound and not all(
            v is not None and (_host_read(v) or _setting(v)) for v in bound[node.id]
        )
    return any(_step_value(c, bound) for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr))


def _setting(node: ast.AST) -> bool:
    """`optimizer.param_groups[0]["lr"]`: an optimizer's setting, a host number."""
    return isinstance(node, ast.Subscript | ast.Attribute) and "param_groups" in ast.unparse(node)


def _host_read(node: ast.AST) -> bool:
    """`x.item()`, `float(x)`, `len(x)`: a call whose value is a host number."""
    if not isinstance(node, ast.Call):
        return False
    name = method_name(node) or (node.func.id if isinstance(node.func, ast.Name) else None)
    return name in _HOST_CALLS


def gradient_test(test: ast.AST, targets: set[str]) -> bool:
    """`if p.grad is not None:` (or `if p.requires_grad:`) of a loop target over the def's arguments (a
    gradient-norm helper's `for p in params: if p.grad is not None: total += p.grad.norm().item() ** 2`,
    which the step calls after backward): every trained parameter passes it, so the read in its body runs
    once per parameter on every call."""
    if isinstance(test, ast.Attribute):
        return test.attr == "requires_grad" and isinstance(test.value, ast.Name) and test.value.id in targets
    tested = none_tested(test, ast.IsNot)
    return (
        isinstance(tested, ast.Attribute)
        and tested.attr == "grad"
        and isinstance(tested.value, ast.Name)
        and tested.value.id in targets
    )
