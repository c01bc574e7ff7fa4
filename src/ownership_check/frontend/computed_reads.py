"""The CLI front end's side of `core.computed_items`: an index expression's neutral form and what a statement may
disturb, read off the `ast` tree (the mypy plugin reads the same off its own tree: `mypy_plugin.computed_reads`)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from ownership_check.core import computed_items
from ownership_check.core.computed_items import DISTURBING, IndexForm, ItemStatement

#: The builtin a callee names when no binding shadows it (`FunctionLowerer.builtin`).
Builtin = Callable[[ast.expr], "str | None"]

_OPERATORS: dict[type[ast.operator], str] = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Mod: "mod"}


def dotted(node: ast.expr) -> str | None:
    """`self.step` of a name or an attribute path of one; else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join((node.id, *reversed(parts)))


def index_form(node: ast.expr, builtin: Builtin) -> IndexForm | None:
    """The neutral form of an index expression (`computed_items.IndexForm`), or None."""
    if isinstance(node, ast.Constant):
        value = node.value
        return ("int", value) if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(node, ast.Name | ast.Attribute):
        path = dotted(node)
        return ("var", path) if path is not None else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = index_form(node.operand, builtin)
        return ("neg", inner) if inner is not None else None
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = index_form(node.left, builtin), index_form(node.right, builtin)
        if left is None or right is None:
            return None
        return (_OPERATORS[type(node.op)], left, right)
    if isinstance(node, ast.Call) and builtin(node.func) == "len" and len(node.args) == 1 and not node.keywords:
        path = dotted(node.args[0])
        return ("len", path) if path is not None else None
    return None


def _calm(node: ast.expr, builtin: Builtin) -> bool:
    """Whether evaluating `node` changes nothing a computed read depends on (names, attributes, literals,
    operators, subscripts, displays and calls of pure builtins)."""
    if isinstance(node, ast.Name | ast.Constant):
        return True
    if isinstance(node, ast.Attribute):
        return _calm(node.value, builtin)
    if isinstance(node, ast.Call):
        return (
            builtin(node.func) in computed_items.PURE_BUILTINS
            and not node.keywords
            and all(not isinstance(a, ast.Starred) and _calm(a, builtin) for a in node.args)
        )
    if isinstance(node, ast.BinOp):
        return _calm(node.left, builtin) and _calm(node.right, builtin)
    if isinstance(node, ast.UnaryOp):
        return _calm(node.operand, builtin)
    if isinstance(node, ast.BoolOp):
        return all(_calm(v, builtin) for v in node.values)
    if isinstance(node, ast.Compare):
        return _calm(node.left, builtin) and all(_calm(c, builtin) for c in node.comparators)
    if isinstance(node, ast.IfExp):
        return _calm(node.test, builtin) and _calm(node.body, builtin) and _calm(node.orelse, builtin)
    if isinstance(node, ast.Subscript):
        return _calm(node.value, builtin) and _calm(node.slice, builtin)
    if isinstance(node, ast.Slice):
        return all(part is None or _calm(part, builtin) for part in (node.lower, node.upper, node.step))
    if isinstance(node, ast.Tuple | ast.List):
        return all(not isinstance(e, ast.Starred) and _calm(e, builtin) for e in node.elts)
    return False


def item_statement(node: ast.stmt, builtin: Builtin) -> ItemStatement:
    """What `node` may disturb (`computed_items.ItemStatement`): a plain assignment to names of a calm value is
    calm; any other statement disturbs."""
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None and node.simple:
        targets, value = [node.target], node.value
    else:
        return DISTURBING
    if not all(isinstance(t, ast.Name) for t in targets) or not _calm(value, builtin):
        return DISTURBING
    stored = frozenset(t.id for t in targets if isinstance(t, ast.Name))
    return ItemStatement(True, stored, frozenset(_subscript_arms(value)))


def _subscript_arms(node: ast.expr) -> list[int]:
    """The subscripts a value may be, by node: itself, or an arm of a conditional expression (`raw if p == 0 else
    bufs[(p - 1) % 2]`), nested ones too."""
    if isinstance(node, ast.IfExp):
        return [*_subscript_arms(node.body), *_subscript_arms(node.orelse)]
    return [id(node)] if isinstance(node, ast.Subscript) else []
