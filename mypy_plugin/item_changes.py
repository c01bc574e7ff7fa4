"""Which of the receiver's containers a method may change the items of (the CLI's `frontend.item_changes`, read
off mypy's tree)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Final

from mypy.nodes import (
    CallExpr,
    ComparisonExpr,
    DictionaryComprehension,
    Expression,
    ForStmt,
    FuncDef,
    GeneratorExpr,
    IndexExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    Node,
    ReturnStmt,
    StarExpr,
    TupleExpr,
)

from mypy_plugin import tree
from ownership_check.core import init_state, keyed_items
from ownership_check.core.keyed_items import READING_METHODS

#: What `changed_items` gives when the receiver itself is handed on (the CLI's `EVERY`).
EVERY: Final[str] = "*"



def changed_items(
    method: FuncDef, methods: Mapping[str, FuncDef], memo: dict[int, init_state.OwnChanges]
) -> frozenset[str]:
    """The attributes of its receiver whose items `method` may change (the CLI's `changed_items`)."""
    return init_state.changed_items(
        method, methods, memo,
        lambda m: _own_changes(m, m.arguments[0].variable.name, methods) if m.arguments else None,
    )


def _own_changes(
    method: FuncDef, receiver: str, methods: Mapping[str, FuncDef]
) -> tuple[frozenset[str], frozenset[str]]:
    """What `method`'s own body changes and the methods of its class it calls on `receiver` (the CLI's)."""
    parents: dict[int, Node] = {}
    stored: set[int] = set()
    nodes = list(tree.walk(method, skip_scopes=False))
    for node in nodes:
        for child in tree.children(node):
            parents[id(child)] = node
        for target in tree.stored_targets(node):
            stored.update(id(t) for t in _flat(target))
    changed: set[str] = set()
    called: set[str] = set()
    for node in nodes:
        parent = parents.get(id(node))
        if isinstance(node, NameExpr) and node.name == receiver and not (
            isinstance(parent, MemberExpr) and parent.expr is node
        ) and id(node) not in stored and not isinstance(parent, ReturnStmt):
            changed.add(EVERY)  # `register(self)`, `other = self` (not `return self`: the method is over then)
        if not (isinstance(node, MemberExpr) and isinstance(node.expr, NameExpr) and node.expr.name == receiver):
            continue
        if node.name in methods and isinstance(parent, CallExpr) and parent.callee is node:
            called.add(node.name)
        elif id(node) in stored or not _reads_only(node, parent, stored):
            changed.add(node.name)
    return frozenset(changed), frozenset(called)


def _flat(target: Expression) -> Iterator[Expression]:
    yield target
    if isinstance(target, TupleExpr | ListExpr):
        for item in target.items:
            yield from _flat(item)
    elif isinstance(target, StarExpr):
        yield from _flat(target.expr)


def _reads_only(node: MemberExpr, parent: Node | None, stored: set[int]) -> bool:
    if isinstance(parent, IndexExpr) and parent.base is node:
        return id(parent) not in stored
    if isinstance(parent, MemberExpr) and parent.expr is node:
        return parent.name in READING_METHODS
    if isinstance(parent, CallExpr) and any(a is node for a in parent.args):
        callee = parent.callee.name if isinstance(parent.callee, NameExpr) else tree.dotted(parent.callee)
        return keyed_items.reading_call(callee)
    if isinstance(parent, ForStmt):
        return parent.expr is node
    if isinstance(parent, GeneratorExpr | DictionaryComprehension):
        return any(s is node for s in parent.sequences)
    return isinstance(parent, ComparisonExpr)
