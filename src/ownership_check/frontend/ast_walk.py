"""`ast.iter_child_nodes` and `ast.walk`, the same nodes in the same order, without their generator layers.

The prescan and the complexity guard walk every node of every candidate file; the stdlib walkers call
`ast.iter_fields` (a generator) per node and `ast.iter_child_nodes` (another) per node, which made walking cost
more than CPython's parser building the tree.  Here each node class's field names are read once and each node's
children come back as a list.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator

_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """The direct children of `node`, as `ast.iter_child_nodes` yields them."""
    kind = type(node)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(kind._fields)
    out: list[ast.AST] = []
    for name in names:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            out.extend(item for item in value if isinstance(item, ast.AST))
    return out


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under `node` (itself included), breadth first, as `ast.walk` yields them."""
    todo = deque([node])
    while todo:
        cur = todo.popleft()
        todo.extend(child_nodes(cur))
        yield cur
