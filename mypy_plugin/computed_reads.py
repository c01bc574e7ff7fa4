"""The mypy plugin's side of `core.computed_items`: an index expression's neutral form and what a statement may
disturb, read off mypy's tree (the CLI reads the same off `ast`: `ownership_check.frontend.computed_reads`)."""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import (
    ARG_POS,
    AssignmentStmt,
    BytesExpr,
    CallExpr,
    ComparisonExpr,
    ComplexExpr,
    ConditionalExpr,
    EllipsisExpr,
    Expression,
    FloatExpr,
    IndexExpr,
    IntExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    SliceExpr,
    Statement,
    StrExpr,
    TempNode,
    TupleExpr,
    UnaryExpr,
)

from ownership_check.core import computed_items
from ownership_check.core.computed_items import DISTURBING, IndexForm, ItemStatement

#: The builtin a callee names when no binding shadows it (`FunctionLowerer.builtin`).
Builtin = Callable[[Expression], "str | None"]

_OPERATORS: dict[str, str] = {"+": "add", "-": "sub", "*": "mul", "%": "mod"}

#: Names `ast` reads as constants.
_CONSTANTS: frozenset[str] = frozenset({"True", "False", "None"})


def dotted(expr: Expression) -> str | None:
    """`self.step` of a name or an attribute path of one; else None."""
    parts: list[str] = []
    while isinstance(expr, MemberExpr):
        parts.append(expr.name)
        expr = expr.expr
    if not isinstance(expr, NameExpr) or expr.name in _CONSTANTS:
        return None
    return ".".join((expr.name, *reversed(parts)))


def index_form(expr: Expression, builtin: Builtin) -> IndexForm | None:
    """The neutral form of an index expression (`computed_items.IndexForm`), or None."""
    if isinstance(expr, IntExpr):
        return ("int", expr.value)
    if isinstance(expr, NameExpr | MemberExpr):
        path = dotted(expr)
        return ("var", path) if path is not None else None
    if isinstance(expr, UnaryExpr) and expr.op == "-":
        inner = index_form(expr.expr, builtin)
        return ("neg", inner) if inner is not None else None
    if isinstance(expr, OpExpr) and expr.op in _OPERATORS:
        left, right = index_form(expr.left, builtin), index_form(expr.right, builtin)
        if left is None or right is None:
            return None
        return (_OPERATORS[expr.op], left, right)
    if isinstance(expr, CallExpr) and builtin(expr.callee) == "len" and expr.arg_kinds == [ARG_POS]:
        path = dotted(expr.args[0])
        return ("len", path) if path is not None else None
    return None


def _calm(expr: Expression | None, builtin: Builtin) -> bool:
    """Whether evaluating `expr` changes nothing a computed read depends on (names, attributes, literals,
    operators, subscripts, displays and calls of pure builtins)."""
    if expr is None or isinstance(expr, NameExpr | IntExpr | StrExpr | BytesExpr | FloatExpr | ComplexExpr):
        return True
    if isinstance(expr, EllipsisExpr):
        return True
    if isinstance(expr, MemberExpr):
        return _calm(expr.expr, builtin)
    if isinstance(expr, CallExpr):
        return (
            builtin(expr.callee) in computed_items.PURE_BUILTINS
            and all(kind == ARG_POS for kind in expr.arg_kinds)
            and all(_calm(a, builtin) for a in expr.args)
        )
    if isinstance(expr, OpExpr):
        return _calm(expr.left, builtin) and _calm(expr.right, builtin)
    if isinstance(expr, UnaryExpr):
        return _calm(expr.expr, builtin)
    if isinstance(expr, ComparisonExpr):
        return all(_calm(o, builtin) for o in expr.operands)
    if isinstance(expr, ConditionalExpr):
        return _calm(expr.cond, builtin) and _calm(expr.if_expr, builtin) and _calm(expr.else_expr, builtin)
    if isinstance(expr, IndexExpr):
        return _calm(expr.base, builtin) and _calm(expr.index, builtin)
    if isinstance(expr, SliceExpr):
        return all(_calm(part, builtin) for part in (expr.begin_index, expr.end_index, expr.stride))
    if isinstance(expr, TupleExpr | ListExpr):
        return all(_calm(e, builtin) for e in expr.items)
    return False


def item_statement(node: Statement, builtin: Builtin) -> ItemStatement:
    """What `node` may disturb (`computed_items.ItemStatement`): a plain assignment to names of a calm value is
    calm; any other statement disturbs."""
    if not isinstance(node, AssignmentStmt) or isinstance(node.rvalue, TempNode):
        return DISTURBING
    targets, value = node.lvalues, node.rvalue
    if not all(isinstance(t, NameExpr) for t in targets) or not _calm(value, builtin):
        return DISTURBING
    stored = frozenset(t.name for t in targets if isinstance(t, NameExpr))
    return ItemStatement(True, stored, frozenset(_subscript_arms(value)))


def _subscript_arms(node: Expression) -> list[int]:
    """The subscripts a value may be, by node (the CLI's `_subscript_arms`)."""
    if isinstance(node, ConditionalExpr):
        return [*_subscript_arms(node.if_expr), *_subscript_arms(node.else_expr)]
    return [id(node)] if isinstance(node, IndexExpr) else []
