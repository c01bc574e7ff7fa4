"""Generic, read-only traversal of mypy AST nodes without subclassing mypy's visitors.

Compiled mypy (the wheel everyone installs) refuses interpreted subclasses of `TraverserVisitor`/`NodeVisitor`
("interpreted classes cannot inherit from compiled traits", mypy#19456), so the adapter walks nodes itself.
Most forms are handled explicitly in `lowering`; this module gives the generic fallback: the direct syntactic
children of a node (expressions, statements, blocks, patterns), in source order, found through the attribute
lists mypyc records on native classes (`__mypyc_attrs__`) or the `__slots__` of interpreted mypy.  Attributes
that *refer* to other nodes rather than contain them (`RefExpr.node`, `info`, types) are never followed, so a
walk never leaves the function it started in.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from mypy.nodes import (
    AssignmentExpr,
    AssignmentStmt,
    Block,
    BreakStmt,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    ContinueStmt,
    Decorator,
    DelStmt,
    DictionaryComprehension,
    Expression,
    ExpressionStmt,
    FloatExpr,
    ForStmt,
    FuncDef,
    GeneratorExpr,
    IfStmt,
    IndexExpr,
    IntExpr,
    LambdaExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    Node,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    PassStmt,
    ReturnStmt,
    StarExpr,
    Statement,
    StrExpr,
    TupleExpr,
    WhileStmt,
    WithStmt,
)
from mypy.patterns import Pattern

#: Attributes that point elsewhere (symbol references, analysis results) instead of holding children.
_NOT_CHILDREN = frozenset(
    {
        "node", "def_var", "info", "type", "unanalyzed_type", "analyzed", "analyzed_types", "definition",
        "method_type", "method_types", "callee_type", "index_type", "inferred_item_type", "inferred_iterator_type",
        "subject_dummy", "original_decorators", "var", "arguments", "variable", "type_args", "expanded",
        "original_def", "def_or_infer_vars", "impl", "deco_line",
    }
)

_FIELDS: dict[type, tuple[str, ...]] = {}

SCOPES = (FuncDef, Decorator, OverloadedFuncDef, ClassDef, LambdaExpr)


def _fields(cls: type) -> tuple[str, ...]:
    found = _FIELDS.get(cls)
    if found is None:
        names: list[str] = []
        mypyc = getattr(cls, "__mypyc_attrs__", None)
        if mypyc:
            names.extend(mypyc)
        else:
            for klass in reversed(cls.__mro__):
                slots = klass.__dict__.get("__slots__", ())
                names.extend([slots] if isinstance(slots, str) else slots)
        found = tuple(n for n in dict.fromkeys(names) if n not in _NOT_CHILDREN and not n.startswith("_"))
        _FIELDS[cls] = found
    return found


def _flatten(value: object) -> Iterator[Node]:
    if isinstance(value, Expression | Statement | Block | Pattern):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _flatten(item)


def _fast_children(node: Node) -> list[Node] | None:
    """Children of the most common forms without introspection (the walk's hot path); None for the rest."""
    if isinstance(node, NameExpr | IntExpr | StrExpr | FloatExpr | PassStmt | BreakStmt | ContinueStmt):
        return []
    if isinstance(node, MemberExpr):
        return [node.expr]
    if isinstance(node, CallExpr):
        return [node.callee, *node.args]
    if isinstance(node, ExpressionStmt):
        return [node.expr]
    if isinstance(node, AssignmentStmt):
        return [*node.lvalues, node.rvalue]
    if isinstance(node, Block):
        return list(node.body)
    if isinstance(node, TupleExpr | ListExpr):
        return list(node.items)
    if isinstance(node, ReturnStmt):
        return [node.expr] if node.expr is not None else []
    if isinstance(node, OpExpr):
        return [node.left, node.right]
    if isinstance(node, ComparisonExpr):
        return list(node.operands)
    if isinstance(node, IndexExpr):
        return [node.base, node.index]
    if isinstance(node, IfStmt):
        out: list[Node] = []
        for cond, body in zip(node.expr, node.body, strict=True):
            out.append(cond)
            out.append(body)
        if node.else_body is not None:
            out.append(node.else_body)
        return out
    if isinstance(node, ForStmt):
        return [node.index, node.expr, node.body] + ([node.else_body] if node.else_body is not None else [])
    if isinstance(node, WhileStmt):
        return [node.expr, node.body] + ([node.else_body] if node.else_body is not None else [])
    return None


def children(node: Node) -> Iterator[Node]:
    """Direct syntactic children of `node` in source order (by position, as mypy stores fields by kind)."""
    fast = _fast_children(node)
    if fast is not None:
        return iter(fast)
    found: list[Node] = []
    for name in _fields(type(node)):
        found.extend(_flatten(getattr(node, name, None)))
    found.sort(key=lambda n: (n.line, n.column))
    return iter(found)


def walk(node: Node, skip_scopes: bool = True) -> Iterator[Node]:
    """Pre-order walk below `node` (which is entered even if it is a function); with `skip_scopes`, nested
    functions, lambdas and classes are yielded but not entered."""
    yield node
    yield from _walk(list(children(node)), skip_scopes)


def walk_many(nodes: Sequence[Node], skip_scopes: bool = True) -> Iterator[Node]:
    """Pre-order walk of a statement list (a body): scopes among `nodes` themselves are not entered either.
    Each walk is done once per lowering (`forget_walks`): the prepass and the finders of one unit, and every call
    site of a helper, walk the same bodies again."""
    roots = tuple(nodes)
    key = (skip_scopes, tuple(map(id, roots)))
    hit = _MEMO.get(key)
    if hit is not None and len(hit[0]) == len(roots) and all(a is b for a, b in zip(hit[0], roots, strict=True)):
        return iter(hit[1])
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    found = tuple(_walk(list(roots), skip_scopes))
    _MEMO[key] = (roots, found)  # the roots are kept, so their ids cannot be reused while the entry lives
    return iter(found)


#: `walk_many` results of the lowering under way: (skip_scopes, ids of the roots) -> (the roots, the nodes).
_MEMO: dict[tuple[bool, tuple[int, ...]], tuple[tuple[Node, ...], tuple[Node, ...]]] = {}
_MEMO_LIMIT = 20_000


def forget_walks() -> None:
    """Drop remembered walks: called as each lowering starts, so a tree mypy changed in place since (the daemon
    merges a re-parsed module into the old nodes) is walked afresh."""
    _MEMO.clear()


#: Node classes without children (checked by exact class first: most nodes a walk meets are names).
_LEAVES = frozenset({NameExpr, IntExpr, StrExpr, FloatExpr, PassStmt, BreakStmt, ContinueStmt})


def _walk(roots: list[Node], skip_scopes: bool) -> Iterator[Node]:
    stack: list[Node] = list(reversed(roots))
    pop, extend = stack.pop, stack.extend
    leaves = _LEAVES
    while stack:
        current = pop()
        yield current
        if type(current) in leaves or (skip_scopes and isinstance(current, SCOPES)):
            continue
        found = _fast_children(current)
        if found is None:
            found = list(children(current))
        if found:
            found.reverse()
            extend(found)


def dotted(expr: Node) -> str | None:
    """`a.b.c` as text (for names rooted at a name), else None."""
    parts: list[str] = []
    while isinstance(expr, MemberExpr):
        parts.append(expr.name)
        expr = expr.expr
    if isinstance(expr, NameExpr):
        parts.append(expr.name)
        return ".".join(reversed(parts))
    return None


def callee_text(expr: Node) -> str | None:
    """How a message names a callee: `Runner.build`, or `Runner().launch` with a call in the chain as `()`; None
    for anything else (a subscript, a lambda)."""
    if isinstance(expr, CallExpr):
        inner = callee_text(expr.callee)
        return None if inner is None else inner + "()"
    if isinstance(expr, MemberExpr):
        base = callee_text(expr.expr)
        return None if base is None else f"{base}.{expr.name}"
    return expr.name if isinstance(expr, NameExpr) else None


def stored_targets(node: Node) -> list[Expression]:
    """The target expressions one node stores to: assignment, augmented assignment, `for`, `del`, walrus and
    `with` targets, and the indices of a generator expression or dict comprehension (a list or set comprehension's
    are those of the generator expression it holds)."""
    if isinstance(node, AssignmentStmt):
        return list(node.lvalues)
    if isinstance(node, OperatorAssignmentStmt):
        return [node.lvalue]
    if isinstance(node, ForStmt):
        return [node.index]
    if isinstance(node, DelStmt):
        return [node.expr]
    if isinstance(node, AssignmentExpr):
        return [node.target]
    if isinstance(node, WithStmt):
        return [t for t in node.target if t is not None]
    if isinstance(node, GeneratorExpr | DictionaryComprehension):
        return list(node.indices)
    return []


def flat_targets(target: Expression) -> list[Expression]:
    """The targets an assignment target binds, through tuple/list/star targets."""
    if isinstance(target, TupleExpr | ListExpr):
        return [t for item in target.items for t in flat_targets(item)]
    if isinstance(target, StarExpr):
        return flat_targets(target.expr)
    return [target]


def stored_leaves(node: Node) -> list[Expression]:
    """`stored_targets` of one node, each flattened (`flat_targets`): the names, attributes and subscripts it binds."""
    return [leaf for root in stored_targets(node) for leaf in flat_targets(root)]
