"""Kernels a launch may run when its receiver is chosen from a collection, on mypy's tree (the CLI's
`frontend.kernel_choices`): a subscript of a module-level dict display of kernels, a name bound only to such a
subscript or to the items of a display of kernels."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    ConditionalExpr,
    DelStmt,
    DictExpr,
    Expression,
    ForStmt,
    GlobalDecl,
    IndexExpr,
    IntExpr,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    NonlocalDecl,
    OperatorAssignmentStmt,
    SliceExpr,
    StarExpr,
    Statement,
    StrExpr,
    TupleExpr,
)

from mypy_plugin import tree
from mypy_plugin.resolve import KernelInfo
from ownership_check.core import static_rows
from ownership_check.core.static_rows import Row

#: A dict display of kernels: each literal key's kernel, in order.
KernelTable = dict[object, KernelInfo]

_READING = ("get", "keys", "values", "items")


def _literal(node: Node) -> object:
    if isinstance(node, StrExpr | IntExpr):
        return node.value
    return None


def kernel_tables(module: MypyFile, kernel_of: Callable[[Expression], KernelInfo | None]) -> dict[str, KernelTable]:
    """Module-level names bound once to a dict display of kernels under literal keys and never changed in place
    (the CLI's `kernel_tables`)."""
    bound: dict[str, int] = {}
    displays: dict[str, DictExpr] = {}
    for stmt in module.defs:
        if isinstance(stmt, AssignmentStmt):
            for target in stmt.lvalues:
                if isinstance(target, NameExpr):
                    bound[target.name] = bound.get(target.name, 0) + 1
                    if isinstance(stmt.rvalue, DictExpr) and stmt.rvalue.items:
                        displays[target.name] = stmt.rvalue
    changed: set[str] = set()
    for node in tree.walk_many(module.defs, skip_scopes=False):
        stored: list[Node] = []
        if isinstance(node, AssignmentStmt):
            stored = list(node.lvalues)
        elif isinstance(node, OperatorAssignmentStmt):
            stored = [node.lvalue]
        elif isinstance(node, DelStmt):
            stored = [node.expr]
        for lvalue in stored:
            for part in tree.walk(lvalue):
                if isinstance(part, IndexExpr) and isinstance(part.base, NameExpr):
                    changed.add(part.base.name)
        if isinstance(node, MemberExpr) and isinstance(node.expr, NameExpr) and node.name not in _READING:
            changed.add(node.expr.name)
        elif isinstance(node, GlobalDecl | NonlocalDecl):
            changed.update(node.names)
    tables: dict[str, KernelTable] = {}
    for name, display in displays.items():
        if bound.get(name) != 1 or name in changed:
            continue
        table: KernelTable = {}
        for key, value in display.items:
            kernel = kernel_of(value) if isinstance(value, NameExpr) else None
            if key is None or _literal(key) is None or kernel is None:
                break
            table[_literal(key)] = kernel
        else:
            tables[name] = table
    return tables


def subscript_choices(node: Node, tables: dict[str, KernelTable], local: set[str]) -> tuple[KernelInfo, ...]:
    """The kernels `TABLE[key]` may be (the CLI's `subscript_choices`)."""
    if not (isinstance(node, IndexExpr) and isinstance(node.base, NameExpr)) or isinstance(node.index, SliceExpr):
        return ()
    table = tables.get(node.base.name)
    if table is None or node.base.name in local:
        return ()
    key = _literal(node.index)
    if key is not None and key in table:
        return (table[key],)
    return _unique(table.values())


def keyed_rows(
    node: Expression, tables: dict[str, KernelTable], local: set[str]
) -> tuple[str, tuple[tuple[object, KernelInfo], ...]] | None:
    """`TABLE[name]` of a name: the name and each of the table's keys with its kernel (the CLI's `keyed_rows`)."""
    if not (isinstance(node, IndexExpr) and isinstance(node.base, NameExpr) and isinstance(node.index, NameExpr)):
        return None
    table = tables.get(node.base.name)
    if table is None or node.base.name in local or len(table) < 2:
        return None
    return node.index.name, tuple(table.items())


def value_choices(
    node: Expression,
    tables: dict[str, KernelTable],
    local: set[str],
    kernel_of: Callable[[Expression], KernelInfo | None],
) -> tuple[KernelInfo, ...]:
    """The kernels an assigned value may be (the CLI's `value_choices`): a table's item, a kernel's own name, or a
    conditional expression whose arms are such."""
    if isinstance(node, ConditionalExpr):
        body = value_choices(node.if_expr, tables, local, kernel_of)
        orelse = value_choices(node.else_expr, tables, local, kernel_of)
        return _unique((*body, *orelse)) if body and orelse else ()
    if isinstance(node, NameExpr):
        kernel = kernel_of(node) if node.name not in local else None
        return (kernel,) if kernel is not None else ()
    return subscript_choices(node, tables, local)


def _tuple_arms(node: Expression, length: int) -> list[list[Expression]] | None:
    """The items of each tuple display a value may be (the CLI's `_tuple_arms`)."""
    if isinstance(node, ConditionalExpr):
        body, orelse = _tuple_arms(node.if_expr, length), _tuple_arms(node.else_expr, length)
        return body + orelse if body is not None and orelse is not None else None
    if isinstance(node, TupleExpr) and len(node.items) == length:
        return None if any(isinstance(e, StarExpr) for e in node.items) else [list(node.items)]
    return None


def name_choices(
    body: list[Statement],
    tables: dict[str, KernelTable],
    local: set[str],
    kernel_of: Callable[[Expression], KernelInfo | None],
    rows_of: Callable[[Expression], list[Row[Expression]] | None] = lambda _expr: None,
) -> dict[str, tuple[KernelInfo, ...]]:
    """The names of a function body bound only to kernels chosen from a table or a display (the CLI's
    `name_choices`, with a `for` over an iterable the source lists, `rows_of`)."""
    found: dict[str, list[KernelInfo]] = {}
    stores: dict[str, int] = {}
    recognised: dict[str, int] = {}

    def bind(target: Node, kernels: tuple[KernelInfo, ...]) -> None:
        if isinstance(target, NameExpr) and kernels:
            found.setdefault(target.name, []).extend(kernels)
            recognised[target.name] = recognised.get(target.name, 0) + 1

    for node in tree.walk_many(body):
        for root in tree.stored_targets(node):
            for name in _names(root):
                stores[name] = stores.get(name, 0) + 1
        if isinstance(node, AssignmentStmt) and len(node.lvalues) == 1:
            target, value = node.lvalues[0], node.rvalue
            arms = _tuple_arms(value, len(target.items)) if isinstance(target, TupleExpr) else None
            if isinstance(target, TupleExpr) and arms is not None:
                for index, t in enumerate(target.items):
                    each = [value_choices(arm[index], tables, local, kernel_of) for arm in arms]
                    bind(t, _unique(k for one in each for k in one) if all(each) else ())
            else:
                bind(target, value_choices(value, tables, local, kernel_of))
        elif isinstance(node, ForStmt):
            kernels = _iterated_kernels(node.expr, tables, local, kernel_of)
            rows = rows_of(node.expr) if not kernels else None
            if rows:
                for name, listed in static_rows.column_kernels(
                    _target_names(node.index), rows, _display_items, kernel_of
                ).items():
                    bind(NameExpr(name), _unique(listed))
            else:
                bind(node.index, kernels)
    return {
        name: _unique(kernels)
        for name, kernels in found.items()
        if stores.get(name) == recognised.get(name)
    }


def _target_names(target: Expression) -> list[str | None]:
    if isinstance(target, TupleExpr | ListExpr):
        return [e.name if isinstance(e, NameExpr) else None for e in target.items]
    return [target.name if isinstance(target, NameExpr) else None]


def _display_items(expr: Expression) -> list[Expression] | None:
    return list(expr.items) if isinstance(expr, TupleExpr | ListExpr) else None


def _names(target: Node) -> list[str]:
    if isinstance(target, NameExpr):
        return [target.name]
    if isinstance(target, TupleExpr | ListExpr):
        return [n for item in target.items for n in _names(item)]
    return []


def _iterated_kernels(
    node: Expression,
    tables: dict[str, KernelTable],
    local: set[str],
    kernel_of: Callable[[Expression], KernelInfo | None],
) -> tuple[KernelInfo, ...]:
    if isinstance(node, TupleExpr | ListExpr) and node.items:
        kernels = [kernel_of(e) if isinstance(e, NameExpr) else None for e in node.items]
        return _unique(k for k in kernels if k is not None) if all(k is not None for k in kernels) else ()
    if (
        isinstance(node, CallExpr) and isinstance(node.callee, MemberExpr) and node.callee.name == "values"
        and isinstance(node.callee.expr, NameExpr) and not node.args and node.callee.expr.name not in local
    ):
        table = tables.get(node.callee.expr.name)
        return _unique(table.values()) if table is not None else ()
    return ()


def _unique(kernels: Iterable[KernelInfo]) -> tuple[KernelInfo, ...]:
    out: dict[str, KernelInfo] = {}
    for kernel in kernels:
        out.setdefault(kernel.name, kernel)
    return tuple(out.values())
