"""`ast.iter_child_nodes` and `ast.walk`, the same nodes in the same order, without their generator layers.

The prescan and the complexity guard walk every node of every candidate file; the stdlib walkers call
`ast.iter_fields` (a generator) per node and `ast.iter_child_nodes` (another) per node, which made walking cost
more than CPython's parser building the tree.  Here each node class's field names are read once and each node's
children come back as a list.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Callable, Iterable, Iterator

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


#: Walks already done in the file being analysed: (walker, id(roots)) -> (roots, the nodes in walk order).  The
#: lowering, the call-target finders and the brand check each ask for the nodes of the same function bodies many
#: times (a helper's body once per call site, a method's once per receiver); walking a tree again cost about a third
#: of a file's analysis.  The roots object is kept with its nodes so an `id` reused by a new object never matches.
_MEMO: dict[tuple[str, int], tuple[object, tuple[ast.AST, ...]]] = {}
#: Above this many remembered walks the memo starts again (a caller lowering many modules without `forget_walks`).
_MEMO_LIMIT = 50_000


def memoized_walk(walker: str, roots: object, walk: Callable[[], Iterable[ast.AST]]) -> tuple[ast.AST, ...]:
    """The nodes `walk()` yields for `roots`, computed once per file: the trees are not changed while one file is
    analysed (the lowering builds new nodes, it never edits the parser's), so the same roots give the same nodes.
    `walker` names the walk, since walkers differ in order and in the nodes they enter."""
    key = (walker, id(roots))
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is roots:
        return hit[1]
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    nodes = tuple(walk())
    _MEMO[key] = (roots, nodes)
    return nodes


def forget_walks() -> None:
    """Drop the remembered walks (at the end of a file, so its trees can be freed)."""
    _MEMO.clear()


def all_nodes(node: ast.AST) -> tuple[ast.AST, ...]:
    """Every node under `node` (itself included), in `ast.walk`'s order, walked once per file."""
    return memoized_walk("all", node, lambda: walk(node))
