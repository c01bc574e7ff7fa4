"""Hand-written caches on mypy's tree (the CLI's `frontend.memo_shape`): a function or method keeping what it
returns in a container that outlives the call, under a key made of some of its parameters."""

from __future__ import annotations

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    AssignmentExpr,
    AssignmentStmt,
    CallExpr,
    ComparisonExpr,
    DictExpr,
    Expression,
    ExpressionStmt,
    FloatExpr,
    FuncDef,
    GlobalDecl,
    IfStmt,
    IndexExpr,
    IntExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    Node,
    NonlocalDecl,
    ReturnStmt,
    StarExpr,
    Statement,
    StrExpr,
    TupleExpr,
    YieldExpr,
    YieldFromExpr,
)

from mypy_plugin import tree

#: A hand-written cache's key: the parameters it is made of, in order, and whether it is exactly them.
MemoParams = tuple[tuple[str, ...], bool]


def _store_of(node: Node, receiver: str | None) -> str | None:
    """The text of a cache container expression: a name, or `self.a.b` of the receiver; else None."""
    if isinstance(node, NameExpr):
        return node.name
    parts: list[str] = []
    while isinstance(node, MemberExpr):
        parts.append(node.name)
        node = node.expr
    if isinstance(node, NameExpr) and node.name == receiver and parts:
        return ".".join((node.name, *reversed(parts)))
    return None


def _same(a: Node, b: Node) -> bool:
    """Structural equality of two key expressions (names, attributes, tuples, calls of those)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, NameExpr) and isinstance(b, NameExpr):
        return a.name == b.name
    if isinstance(a, MemberExpr) and isinstance(b, MemberExpr):
        return a.name == b.name and _same(a.expr, b.expr)
    if isinstance(a, TupleExpr) and isinstance(b, TupleExpr):
        return len(a.items) == len(b.items) and all(_same(x, y) for x, y in zip(a.items, b.items, strict=True))
    return False


def _lookup(node: Node | None, key: Node, receiver: str | None) -> str | None:
    if isinstance(node, IndexExpr) and _same(node.index, key):
        return _store_of(node.base, receiver)
    return None


def _bookkeeping(stmt: Statement, store: str, receiver: str | None, names: set[str]) -> bool:
    """A statement beside a cache's store that leaves the cache and its key alone (the CLI's `_bookkeeping`)."""
    own = isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and isinstance(stmt.lvalues[0], IndexExpr)
    for node in tree.walk(stmt, skip_scopes=False):
        if isinstance(node, ReturnStmt | YieldExpr | YieldFromExpr | GlobalDecl | NonlocalDecl):
            return False
        for flat in tree.stored_leaves(node):
            if isinstance(flat, NameExpr) and flat.name in names:
                return False
            base = flat.base if isinstance(flat, IndexExpr) else flat
            if _store_of(base, receiver) == store and not (isinstance(flat, IndexExpr) and own):
                return False
    return True


def _stores_into(stmt: Statement, store: str, receiver: str | None) -> bool:
    """`STORE[...] = value` of the cache's store (the CLI's `_stores_into`)."""
    if not (isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and isinstance(stmt.lvalues[0], IndexExpr)):
        return False
    return _store_of(stmt.lvalues[0].base, receiver) == store


def _stored(stmt: Statement, key: Node, store: str, receiver: str | None) -> Node | None:
    if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and _lookup(stmt.lvalues[0], key, receiver) == store:
        return stmt.rvalue
    return None


def memo_params(func: FuncDef, method: bool, module_names: set[str]) -> MemoParams | None:
    """The key parameters of a hand-written cache, else None (the CLI's `memo_params`)."""
    found = _memo_shape(func, method, module_names)
    return found[0] if found is not None else None


def cached_value(func: FuncDef, method: bool, module_names: set[str]) -> Node | None:
    """What a hand-written cache stores on a miss (the CLI's `cached_value`)."""
    found = _memo_shape(func, method, module_names)
    return found[1] if found is not None else None


def _memo_shape(func: FuncDef, method: bool, module_names: set[str]) -> tuple[MemoParams, Node | None] | None:
    if func.is_coroutine or func.is_generator:
        return None
    params = [arg.variable.name for arg in func.arguments]
    receiver = params[0] if method and params else None
    body = list(func.body.body)
    if body and isinstance(body[0], ExpressionStmt) and isinstance(body[0].expr, StrExpr):
        body = body[1:]
    locals_bound: dict[str, Node] = {}
    before: list[Statement] = []  # bookkeeping ahead of the lookup (the CLI's rule)
    index = 0
    while index < len(body) and not isinstance(stmt := body[index], IfStmt):
        if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and isinstance(stmt.lvalues[0], NameExpr):
            locals_bound[stmt.lvalues[0].name] = stmt.rvalue
        else:
            before.append(stmt)
        index += 1
    rest = body[index:]
    if len(rest) < 2 or not isinstance(rest[0], IfStmt) or len(rest[0].expr) != 1:
        return None
    orelse = rest[0].else_body.body if rest[0].else_body is not None else []
    test = rest[0].expr[0]
    if not (isinstance(test, ComparisonExpr) and len(test.operators) == 1 and test.operators[0] in ("in", "not in")):
        return _get_shape(func, receiver, params, locals_bound, before, rest, module_names)
    key, store = test.operands[0], _store_of(test.operands[1], receiver)
    if store is None:
        return None
    key_names = {n.name for n in tree.walk(key) if isinstance(n, NameExpr)}
    if not all(_bookkeeping(stmt, store, receiver, key_names) and not _stores_into(stmt, store, receiver)
               for stmt in before):
        return None
    guarded, tail = rest[0].body[0].body, rest[1:]
    if test.operators[0] == "not in":
        last_stmt = tail[-1]
        if not isinstance(last_stmt, ReturnStmt) or last_stmt.expr is None:
            return None
        kept = [value for stmt in guarded if (value := _stored(stmt, key, store, receiver)) is not None]
        stored = kept[0] if len(kept) == 1 else None
        if _lookup(last_stmt.expr, key, receiver) != store or stored is None:
            return None
        names = {n.name for n in tree.walk(key) if isinstance(n, NameExpr)}
        if not all(_bookkeeping(stmt, store, receiver, names) for stmt in (*guarded, *orelse, *tail[:-1])):
            return None  # (an `else:` of the hit counts too: `self.hits += 1`)
        if any(_stores_into(stmt, store, receiver) for stmt in orelse):
            return None
    elif orelse:
        return None
    else:
        if len(guarded) != 1 or not isinstance(guarded[0], ReturnStmt):
            return None
        if _lookup(guarded[0].expr, key, receiver) != store or len(tail) < 2:
            return None
        value = _stored(tail[-2], key, store, receiver)
        last = tail[-1]
        if not isinstance(value, NameExpr) or not isinstance(last, ReturnStmt) or not isinstance(last.expr, NameExpr):
            return None
        if last.expr.name != value.name:
            return None
        made = [
            stmt.rvalue for stmt in tail[:-2]
            if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1
            and isinstance(stmt.lvalues[0], NameExpr) and stmt.lvalues[0].name == value.name
        ]
        stored = made[0] if len(made) == 1 else None
    if not _persistent(store, func, receiver, module_names):
        return None
    return _key_params(key, params, receiver, locals_bound, set(stored_names(func))), stored


def _simple_key(node: Node) -> bool:
    """A key made of names, attribute paths and tuples of them (the CLI's `_simple_key`)."""
    if isinstance(node, TupleExpr):
        return all(_simple_key(item) for item in node.items)
    while isinstance(node, MemberExpr):
        node = node.expr
    return isinstance(node, NameExpr)


def _missing_get(test: Node, locals_bound: dict[str, Node], receiver: str | None) -> tuple[str, Node, str] | None:
    """`(v := STORE.get(KEY)) is None`, or `v is None` of a local bound to `STORE.get(KEY)` first (the CLI's
    `_missing_get`)."""
    if not (isinstance(test, ComparisonExpr) and test.operators == ["is"]):
        return None
    left, right = test.operands
    if not (isinstance(right, NameExpr) and right.fullname == "builtins.None"):
        return None
    call: Node
    if isinstance(left, AssignmentExpr):
        name, call = left.target.name, left.value
    elif isinstance(left, NameExpr) and left.name in locals_bound:
        name, call = left.name, locals_bound[left.name]
    else:
        return None
    if not (
        isinstance(call, CallExpr) and isinstance(call.callee, MemberExpr) and call.callee.name == "get"
        and len(call.args) == 1 and call.arg_kinds == [ARG_POS] and _simple_key(call.args[0])
    ):
        return None
    store = _store_of(call.callee.expr, receiver)
    return (name, call.args[0], store) if store is not None else None


def _get_shape(
    func: FuncDef,
    receiver: str | None,
    params: list[str],
    locals_bound: dict[str, Node],
    before: list[Statement],
    rest: list[Statement],
    module_names: set[str],
) -> tuple[MemoParams, Node | None] | None:
    """The CLI's `_get_shape`: a lookup by `get` whose miss stores the new value and binds the returned name."""
    guard = rest[0]
    assert isinstance(guard, IfStmt)
    found = _missing_get(guard.expr[0], locals_bound, receiver)
    if found is None or len(rest) != 2:
        return None
    name, key, store = found
    last = rest[1]
    if not (isinstance(last, ReturnStmt) and isinstance(last.expr, NameExpr) and last.expr.name == name):
        return None
    key_names = {n.name for n in tree.walk(key) if isinstance(n, NameExpr)}
    guarded = guard.body[0].body
    stores = [
        stmt for stmt in guarded
        if isinstance(stmt, AssignmentStmt) and any(_lookup(t, key, receiver) == store for t in stmt.lvalues)
    ]
    binds = [
        stmt for stmt in guarded
        if isinstance(stmt, AssignmentStmt) and any(isinstance(t, NameExpr) and t.name == name for t in stmt.lvalues)
    ]
    if len(stores) != 1 or len(binds) != 1:
        return None
    kept, bound = stores[0], binds[0]
    assert isinstance(kept, AssignmentStmt) and isinstance(bound, AssignmentStmt)
    if kept is bound:
        stored: Node = kept.rvalue  # `v = STORE[KEY] = value`
    elif isinstance(kept.rvalue, NameExpr) and kept.rvalue.name == name and len(bound.lvalues) == 1:
        stored = bound.rvalue  # `v = value`, `STORE[KEY] = v`
    else:
        return None
    others = [stmt for stmt in guarded if stmt is not kept and stmt is not bound]
    if not all(_bookkeeping(stmt, store, receiver, key_names) for stmt in others):
        return None
    # an `else:` of the hit (`self.hits += 1`) leaves the store, the key and the returned name alone
    orelse = guard.else_body.body if guard.else_body is not None else []
    if not all(_bookkeeping(stmt, store, receiver, key_names | {name}) and not _stores_into(stmt, store, receiver)
               for stmt in orelse):
        return None
    if not all(_bookkeeping(stmt, store, receiver, key_names) and not _stores_into(stmt, store, receiver)
               for stmt in before):
        return None
    if not _persistent(store, func, receiver, module_names):
        return None
    return _key_params(key, params, receiver, locals_bound, set(stored_names(func))), stored


def stored_names(func: FuncDef) -> list[str]:
    """The names a function body binds or deletes, once per binding (`x[i] = v` and `x.a = v` bind no name), as
    the CLI counts `ast.Name` nodes in a store or delete context."""
    found: list[str] = []

    def names(target: Node) -> None:
        if isinstance(target, NameExpr):
            found.append(target.name)
        elif isinstance(target, TupleExpr | ListExpr):
            for item in target.items:
                names(item)
        elif isinstance(target, StarExpr):
            names(target.expr)

    for node in tree.walk(func.body, skip_scopes=False):
        for root in tree.stored_targets(node):
            names(root)
    return found


def _persistent(store: str, func: FuncDef, receiver: str | None, module_names: set[str]) -> bool:
    if receiver is not None and store.startswith(receiver + "."):
        return True
    bound = set(stored_names(func))
    if store in module_names and store not in bound:
        return True
    for arg in func.arguments:
        if arg.variable.name == store and isinstance(arg.initializer, DictExpr) and not arg.initializer.items:
            return True
    return False


def _key_params(
    key: Node, params: list[str], receiver: str | None, locals_bound: dict[str, Node], bound: set[str]
) -> MemoParams:
    key = _through_locals(key, locals_bound)
    items = [_through_locals(i, locals_bound) for i in key.items] if isinstance(key, TupleExpr) else [key]
    paths = [_param_path(item, params, receiver) for item in items]
    read = [
        n.name for i in items for n in tree.walk(i)
        if isinstance(n, NameExpr) and n.name in params and n.name != receiver
    ]
    if all(path is not None for path in paths):
        return tuple(dict.fromkeys(path for path in paths if path is not None)), True
    if _made_from(key, params, receiver, bound):
        return tuple(dict.fromkeys(read)), True
    return tuple(dict.fromkeys(read)), False


def _param_path(item: Node, params: list[str], receiver: str | None) -> str | None:
    """A key's item that is a parameter or an attribute path of one, dotted (the CLI's `_param_path`)."""
    attrs: list[str] = []
    while isinstance(item, MemberExpr):
        attrs.append(item.name)
        item = item.expr
    if not isinstance(item, NameExpr) or item.name not in params or item.name == receiver:
        return None
    return ".".join((item.name, *reversed(attrs)))


def _through_locals(node: Node, locals_bound: dict[str, Node]) -> Node:
    """The CLI's `_through_locals`: a key (or a key's item) that is a local the head binds, followed."""
    for _ in range(len(locals_bound)):
        if not (isinstance(node, NameExpr) and node.name in locals_bound):
            break
        node = locals_bound[node.name]
    return node


def _made_from(key: Node, params: list[str], receiver: str | None, bound: set[str]) -> bool:
    """The CLI's `_made_from`: a call of a function of the module's names whose arguments are parameters,
    literals and module names."""
    if not isinstance(key, CallExpr):
        return False
    func: Expression = key.callee
    while isinstance(func, MemberExpr):
        func = func.expr
    if not isinstance(func, NameExpr) or func.name in params or func.name in bound:
        return False
    for arg, kind in zip(key.args, key.arg_kinds, strict=True):
        if kind not in (ARG_POS, ARG_NAMED) or not isinstance(arg, StrExpr | IntExpr | FloatExpr | NameExpr):
            return False
        if isinstance(arg, NameExpr) and (arg.name == receiver or (arg.name in bound and arg.name not in params)):
            return False
    return any(isinstance(arg, NameExpr) and arg.name in params for arg in key.args)
