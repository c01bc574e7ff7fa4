"""Which of the receiver's containers a method may change the items of (the CLI's side; the mypy plugin reads the
same off its own tree: `mypy_plugin.item_changes`).

A method starts with the items of the displays `__init__` stored on `self` as objects of their own, one per item
(`init_state.stored_items`), so `self.buffers["freqs"]` read twice is one buffer.  That holds only while nothing in
the method changes those items: a store or `del` under a key, a method other than the reading ones
(`init_state.READING_METHODS`) called on the container, or the container handed on as a value (to a call, to a
name, returned), after which another object may sit under the key.  Such a container's items are new values in
that method, as before the rule existed.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Final

from ownership_check.core import init_state, keyed_items
from ownership_check.core.keyed_items import READING_METHODS
from ownership_check.frontend.computed_reads import dotted

#: What `changed_items` gives when the receiver itself is handed on (`register(self)`): every attribute may change.
EVERY: Final[str] = "*"

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def changed_items(
    method: FunctionNode, methods: Mapping[str, FunctionNode], memo: dict[int, init_state.OwnChanges]
) -> frozenset[str]:
    """The attributes of its receiver whose items `method` may change (see the module docstring), also through the
    methods of its class it calls on the receiver (`methods`, by name: `self.rotate()` swapping two items), or
    `EVERY` when it hands the receiver itself on (`init_state.changed_items`)."""
    return init_state.changed_items(
        method, methods, memo, lambda m: _own_changes(m, m.args.args[0].arg, methods) if m.args.args else None
    )


def _own_changes(
    method: FunctionNode, receiver: str, methods: Mapping[str, FunctionNode]
) -> tuple[frozenset[str], frozenset[str]]:
    """What `method`'s own body changes (`changed_items`) and the names of the class's methods it calls on
    `receiver`."""
    parents: dict[int, ast.AST] = {}
    changed: set[str] = set()
    called: set[str] = set()
    for node in ast.walk(method):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    for node in ast.walk(method):
        parent = parents.get(id(node))
        if isinstance(node, ast.Name) and node.id == receiver and not isinstance(parent, ast.Attribute | ast.Return):
            changed.add(EVERY)  # `register(self)`, `other = self` (not `return self`: the method is over then)
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == receiver):
            continue
        if node.attr in methods and isinstance(parent, ast.Call) and parent.func is node:
            called.add(node.attr)
        elif isinstance(node.ctx, ast.Store | ast.Del) or not _reads_only(node, parent):
            changed.add(node.attr)
    return frozenset(changed), frozenset(called)


def _reads_only(node: ast.Attribute, parent: ast.AST | None) -> bool:
    if isinstance(parent, ast.Subscript) and parent.value is node:
        return isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.Attribute) and parent.value is node:
        return parent.attr in READING_METHODS
    if isinstance(parent, ast.Call) and node in parent.args:
        callee = parent.func.id if isinstance(parent.func, ast.Name) else dotted(parent.func)
        return keyed_items.reading_call(callee)
    if isinstance(parent, ast.Compare | ast.For | ast.comprehension):
        return not (isinstance(parent, ast.For) and parent.target is node)
    return False

