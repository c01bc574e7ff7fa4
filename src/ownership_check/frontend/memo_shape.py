"""Hand-written caches, as the `ast` front end sees them: a function or method that keeps what it returns in a
container that outlives the call, under a key made of some of its parameters, and returns the kept object when
the key is there already.  Its calls are memoised calls (`core.memo`), keyed by those parameters only: two calls
that agree on them give one object, whatever the other arguments (`scratch(n, role="in")` and `scratch(n,
role="out")` of a cache keyed by `n` alone hand back one buffer).

The shapes (after an optional docstring and plain statements binding locals the key is computed from):

- `if KEY not in STORE: ...; STORE[KEY] = value; ...` then `...; return STORE[KEY]` (the other statements leave
  the store and the key's names alone: counters, logs, `self.roles[key].append(role)`; an `else:` of such
  statements, the hit's bookkeeping, too);
- `if KEY in STORE: return STORE[KEY]`, then statements ending `STORE[KEY] = v` and `return v`;
- `if (v := STORE.get(KEY)) is None: ...; v = STORE[KEY] = value; ...` (or `v = STORE.get(KEY)` first, and
  `v = value` beside `STORE[KEY] = v`), with an optional `else:` of bookkeeping (`self.hits += 1`), then
  `return v`.

`STORE` is a module-level name, a parameter whose default is a dict display (a mutable default) or an attribute
path of the receiver.  The key is *exact* when `KEY` is a parameter, an attribute path of one, or a tuple of those
(directly, or through a local bound once to one: `key = (spec.name, groups)`, where a call's token for `spec.name`
is the argument a constructor call of the module's dataclass passes for that field, `AccSpec("sum", f32)`), or a
call of a function of the module's names whose arguments are parameters, literals and module names (`cfg =
LaunchConfig1D.for_len(n, block=BLOCK)`): the call's tokens for those parameters key it.  Any other key (a
helper's result, an expression over parameters) reads parameters in ways the checker does not compare: any two
calls may share an object, a `None` token.
"""

from __future__ import annotations

import ast

#: A hand-written cache's key: the parameters it is made of, in order, and whether it is exactly them.
MemoParams = tuple[tuple[str, ...], bool]


def _body(func: ast.FunctionDef) -> list[ast.stmt]:
    body = list(func.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return body


def _store_of(node: ast.expr, receiver: str | None) -> str | None:
    """The text of a cache container expression: a name, or `self.a.b` of the receiver; else None."""
    if isinstance(node, ast.Name):
        return node.id
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == receiver and parts:
        return ".".join((node.id, *reversed(parts)))
    return None


def _lookup(node: ast.expr, key: str, receiver: str | None) -> str | None:
    """`STORE[KEY]` with the key's dump `key`: the store's text."""
    if isinstance(node, ast.Subscript) and ast.dump(node.slice) == key:
        return _store_of(node.value, receiver)
    return None


def _membership(test: ast.expr, receiver: str | None) -> tuple[ast.expr, str, bool] | None:
    """`KEY in STORE` / `KEY not in STORE`: (the key, the store's text, negated)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In | ast.NotIn)):
        return None
    store = _store_of(test.comparators[0], receiver)
    if store is None or not _simple_key(test.left):
        return None
    return test.left, store, isinstance(test.ops[0], ast.NotIn)


def _simple_key(node: ast.expr) -> bool:
    """A key made of names, attribute paths and tuples of them (what both front ends compare alike)."""
    if isinstance(node, ast.Tuple):
        return all(_simple_key(item) for item in node.elts)
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _bookkeeping(stmt: ast.stmt, store: str, receiver: str | None, names: set[str]) -> bool:
    """A statement beside a cache's store that leaves the cache and its key alone: no `return`, no `yield`, no
    binding of a name the key reads, no store into, `del` of or rebinding of the store (its one store counts as
    such a statement: `STORE[KEY] = v`)."""
    for node in ast.walk(stmt):
        if isinstance(node, ast.Return | ast.Yield | ast.YieldFrom | ast.Global | ast.Nonlocal):
            return False
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and node.id in names:
            return False
        if isinstance(node, ast.Subscript | ast.Attribute | ast.Name) and not isinstance(node.ctx, ast.Load):
            target = node.value if isinstance(node, ast.Subscript) else node
            if _store_of(target, receiver) == store and not (isinstance(node, ast.Subscript) and _is_store(stmt)):
                return False
    return True


def _is_store(stmt: ast.stmt) -> bool:
    """`STORE[KEY] = value`, the cache's own store (`_stored` tells which key)."""
    return isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript)


def _stores_into(stmt: ast.stmt, store: str, receiver: str | None) -> bool:
    """`STORE[...] = value` of the cache's store (ahead of its lookup, no bookkeeping)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript)):
        return False
    return _store_of(stmt.targets[0].value, receiver) == store


def _stored(stmt: ast.stmt, key: str, store: str, receiver: str | None) -> ast.expr | None:
    """`STORE[KEY] = value`: the value, else None."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _lookup(stmt.targets[0], key, receiver) == store:
        return stmt.value
    return None


def memo_params(
    func: ast.FunctionDef | ast.AsyncFunctionDef, method: bool, module_names: set[str]
) -> MemoParams | None:
    """The key parameters of a hand-written cache (`MemoParams`), else None.  `method`: the first parameter is
    the receiver; `module_names`: the names the module binds at its top level."""
    found = _memo_shape(func, method, module_names)
    return found[0] if found is not None else None


def cached_value(
    func: ast.FunctionDef | ast.AsyncFunctionDef, method: bool, module_names: set[str]
) -> ast.expr | None:
    """What a hand-written cache stores on a miss (`store[key] = kernel.prepare(cfg, dev)`; of the second shape,
    the value of the one assignment binding the returned name), which is what its first call for a key returns:
    a launch prepared for the kernel the call passes keeps that kernel's brand."""
    found = _memo_shape(func, method, module_names)
    return found[1] if found is not None else None


def _memo_shape(
    func: ast.FunctionDef | ast.AsyncFunctionDef, method: bool, module_names: set[str]
) -> tuple[MemoParams, ast.expr | None] | None:
    if isinstance(func, ast.AsyncFunctionDef) or func.decorator_list:
        return None
    args = func.args
    params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    receiver = params[0] if method and params else None
    body = _body(func)
    locals_bound: dict[str, ast.expr] = {}
    before: list[ast.stmt] = []  # bookkeeping ahead of the lookup (`self.requests[role] += 1`), checked below
    index = 0
    while index < len(body) and not isinstance(stmt := body[index], ast.If):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            locals_bound[stmt.targets[0].id] = stmt.value
        else:
            before.append(stmt)
        index += 1
    rest = body[index:]
    if len(rest) < 2 or not isinstance(rest[0], ast.If):
        return None
    found = _membership(rest[0].test, receiver)
    if found is None:
        return _get_shape(func, receiver, params, locals_bound, before, rest, module_names)
    key_node, store, negated = found
    key = ast.dump(key_node)
    key_names = {n.id for n in ast.walk(key_node) if isinstance(n, ast.Name)}
    if not all(_bookkeeping(stmt, store, receiver, key_names) and not _stores_into(stmt, store, receiver)
               for stmt in before):
        return None
    guarded, tail = rest[0].body, rest[1:]
    if negated:
        # `if KEY not in STORE: ...; STORE[KEY] = v; ...` then `...; return STORE[KEY]` (the statements besides
        # the store neither return nor bind the key's names or the store: bookkeeping, `self.hits[key] += 1`)
        if not isinstance(tail[-1], ast.Return) or tail[-1].value is None:
            return None
        kept = [value for stmt in guarded if (value := _stored(stmt, key, store, receiver)) is not None]
        stored = kept[0] if len(kept) == 1 else None
        if _lookup(tail[-1].value, key, receiver) != store or stored is None:
            return None
        names = {n.id for n in ast.walk(key_node) if isinstance(n, ast.Name)}
        if not all(_bookkeeping(stmt, store, receiver, names) for stmt in (*guarded, *rest[0].orelse, *tail[:-1])):
            return None  # (an `else:` of the hit counts too: `self.hits += 1`)
        if any(_stores_into(stmt, store, receiver) for stmt in rest[0].orelse):
            return None
    elif rest[0].orelse:
        return None
    else:
        # `if KEY in STORE: return STORE[KEY]`, then `...; STORE[KEY] = v; return v`
        if len(guarded) != 1 or not isinstance(guarded[0], ast.Return) or guarded[0].value is None:
            return None
        if _lookup(guarded[0].value, key, receiver) != store or len(tail) < 2:
            return None
        value = _stored(tail[-2], key, store, receiver)
        last = tail[-1]
        if value is None or not isinstance(last, ast.Return) or last.value is None:
            return None
        if ast.dump(last.value) != ast.dump(value) or not isinstance(value, ast.Name):
            return None
        made = [
            stmt.value for stmt in tail[:-2]
            if isinstance(stmt, ast.Assign) and [ast.dump(t) for t in stmt.targets] == [ast.dump(value)]
        ]
        stored = made[0] if len(made) == 1 else None
    if not _persistent(store, func, receiver, module_names):
        return None
    bound = {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    params_found = _key_params(key_node, params, receiver, locals_bound, bound)
    return (params_found, stored) if params_found is not None else None


def _missing_get(test: ast.expr, locals_bound: dict[str, ast.expr], receiver: str | None) -> tuple[
    str, ast.expr, str
] | None:
    """`(v := STORE.get(KEY)) is None`, or `v is None` of a local bound to `STORE.get(KEY)` first: (the name, the
    key, the store's text)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is)):
        return None
    if not (isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None):
        return None
    left = test.left
    if isinstance(left, ast.NamedExpr):
        name, call = left.target.id, left.value
    elif isinstance(left, ast.Name) and left.id in locals_bound:
        name, call = left.id, locals_bound[left.id]
    else:
        return None
    if not (
        isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "get"
        and len(call.args) == 1 and not call.keywords and _simple_key(call.args[0])
    ):
        return None
    store = _store_of(call.func.value, receiver)
    return (name, call.args[0], store) if store is not None else None


def _get_shape(
    func: ast.FunctionDef,
    receiver: str | None,
    params: list[str],
    locals_bound: dict[str, ast.expr],
    before: list[ast.stmt],
    rest: list[ast.stmt],
    module_names: set[str],
) -> tuple[MemoParams, ast.expr | None] | None:
    """The third shape (module docstring): a lookup by `get` whose miss stores the new value and binds the name
    the function returns."""
    guard = rest[0]
    assert isinstance(guard, ast.If)
    found = _missing_get(guard.test, locals_bound, receiver)
    if found is None or len(rest) != 2:
        return None
    name, key_node, store = found
    last = rest[1]
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Name) and last.value.id == name):
        return None
    key = ast.dump(key_node)
    key_names = {n.id for n in ast.walk(key_node) if isinstance(n, ast.Name)}
    stores = [
        stmt for stmt in guard.body
        if isinstance(stmt, ast.Assign) and any(_lookup(t, key, receiver) == store for t in stmt.targets)
    ]
    binds = [
        stmt for stmt in guard.body
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
    ]
    if len(stores) != 1 or len(binds) != 1:
        return None
    kept, bound = stores[0], binds[0]
    if kept is bound:
        stored: ast.expr = kept.value  # `v = STORE[KEY] = value`
    elif isinstance(kept.value, ast.Name) and kept.value.id == name and len(bound.targets) == 1:
        stored = bound.value  # `v = value`, `STORE[KEY] = v`
    else:
        return None
    others = [stmt for stmt in guard.body if stmt is not kept and stmt is not bound]
    if not all(_bookkeeping(stmt, store, receiver, key_names) for stmt in others):
        return None
    # an `else:` of the hit (`self.hits += 1`) leaves the store, the key and the returned name alone
    if not all(_bookkeeping(stmt, store, receiver, key_names | {name}) and not _stores_into(stmt, store, receiver)
               for stmt in guard.orelse):
        return None
    if not all(_bookkeeping(stmt, store, receiver, key_names) and not _stores_into(stmt, store, receiver)
               for stmt in before):
        return None
    if not _persistent(store, func, receiver, module_names):
        return None
    bound_names = {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    params_found = _key_params(key_node, params, receiver, locals_bound, bound_names)
    return (params_found, stored) if params_found is not None else None


def _persistent(store: str, func: ast.FunctionDef, receiver: str | None, module_names: set[str]) -> bool:
    """Whether the container outlives a call: the receiver's attribute, a module-level name the function does not
    bind, or a parameter whose default is a dict display."""
    if receiver is not None and store.startswith(receiver + "."):
        return True
    bound = {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    if store in module_names and store not in bound:
        return True
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    for param, default in zip(positional[len(positional) - len(args.defaults):], args.defaults, strict=True):
        if param.arg == store and isinstance(default, ast.Dict) and not default.keys:
            return True
    return False


def _key_params(
    key: ast.expr, params: list[str], receiver: str | None, locals_bound: dict[str, ast.expr], bound: set[str]
) -> MemoParams | None:
    key = _through_locals(key, locals_bound)
    items = [_through_locals(item, locals_bound) for item in key.elts] if isinstance(key, ast.Tuple) else [key]
    paths = [_param_path(item, params, receiver) for item in items]
    read = [n.id for i in items for n in ast.walk(i) if isinstance(n, ast.Name) and n.id in params and n.id != receiver]
    if all(path is not None for path in paths):
        return tuple(dict.fromkeys(path for path in paths if path is not None)), True
    if _made_from(key, params, receiver, bound):
        return tuple(dict.fromkeys(read)), True
    return tuple(dict.fromkeys(read)), False


def _param_path(item: ast.expr, params: list[str], receiver: str | None) -> str | None:
    """A key's item that is a parameter (`n`) or an attribute path of one (`spec.name`, `spec.dtype.__name__`),
    dotted; else None."""
    attrs: list[str] = []
    while isinstance(item, ast.Attribute):
        attrs.append(item.attr)
        item = item.value
    if not isinstance(item, ast.Name) or item.id not in params or item.id == receiver:
        return None
    return ".".join((item.id, *reversed(attrs)))


def _through_locals(node: ast.expr, locals_bound: dict[str, ast.expr]) -> ast.expr:
    """A key (or a key's item) that is a local the head binds (`kind = name`, `key = (kind, n)`): what it was
    bound to, followed through such locals (a bounded chain: `a = b` then `b = a` is no key)."""
    for _ in range(len(locals_bound)):
        if not (isinstance(node, ast.Name) and node.id in locals_bound):
            break
        node = locals_bound[node.id]
    return node


def _made_from(key: ast.expr, params: list[str], receiver: str | None, bound: set[str]) -> bool:
    """`LaunchConfig1D.for_len(n, block=BLOCK)`: a call of a function of the module's names (no parameter's
    method) whose arguments are parameters, literals and names the function does not bind (`bound`): a key the
    same arguments make again, so calls agreeing on those parameters share the cached object, as an exact key's
    do."""
    if not isinstance(key, ast.Call):
        return False
    func = key.func
    while isinstance(func, ast.Attribute):
        func = func.value
    if not isinstance(func, ast.Name) or func.id in params or func.id in bound:
        return False
    for arg in (*key.args, *(k.value for k in key.keywords)):
        if isinstance(arg, ast.Starred) or not (isinstance(arg, ast.Constant | ast.Name)):
            return False
        if isinstance(arg, ast.Name) and (arg.id == receiver or (arg.id in bound and arg.id not in params)):
            return False
    return any(isinstance(arg, ast.Name) and arg.id in params for arg in (*key.args, *(k.value for k in key.keywords)))
