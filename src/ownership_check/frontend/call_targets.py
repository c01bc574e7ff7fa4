"""Which function or method of this module a call runs (CLI front end), and its call summary.

The rules are syntactic and the mypy plugin applies the same ones (`mypy_plugin/call_targets.py`), so both report
the same: a callee is a plain (non-async, non-generator) function of this module or of the calling body, called
by its name, undecorated or wrapped only by decorators of the module that forward the call (`forwards_calls`), or
a lambda or a factory's function bound once to the name (`ast_lowering.find_callables`); or a method of a class
defined at the module's top level, called on a name that is `self` in one of that class's methods, a parameter
annotated with the class, or a local name bound only by `name = Class(...)`; or a `@staticmethod` of such a class
called on the class's name (`Ops.add_into(a, a, b)`).  A method is looked up along
the class's method resolution order (`class_order`), up to a class of another module.  A function of
the module's top level called there (or one `map`
applies) reads the caller's values of the names it does not bind (`_module_names`).  A name or a dict display's
entry bound only to such functions runs one of them (`function_choices`); a generator function of the module runs
where an item is taken from its call (`ModuleClasses.runs_when_iterated`).  Anything else (calls through
other variables, callables from other modules, other decorated functions, `async def`, generators) stays an
ordinary call: see docs/checker.md.
"""

from __future__ import annotations

import ast
import builtins
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from ownership_check.core import callables, calls, class_order, ir, reaching
from ownership_check.core.call_effects import (
    AppliedSummary,
    CallSummary,
    GeneratedInit,
    SummaryMemo,
    apply_summary,
    bind_parameters,
    dispatched,
    factory_captures,
    field_summary,
    spread_items,
    spread_keywords,
    star_count,
    star_items,
    with_post_init,
    with_receiver_moves,
)
from ownership_check.core.identity_memo import IdentityMemo
from ownership_check.core.stdlib_flow import forwarding_decorator, namespace_summary
from ownership_check.core.summarize import call_summary
from ownership_check.diagnostics import Span
from ownership_check.frontend.ast_walk import all_nodes, memoized_walk
from safekernels.ownership_model import MOVING_METHODS, SIMT_LAUNCH_METHODS

if TYPE_CHECKING:
    from ownership_check.frontend.ast_lowering import FunctionLowerer
    from ownership_check.frontend.prescan import KernelSummary

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _walk_body(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of a body, not entering nested functions, classes or lambdas (once per file:
    `ast_walk.memoized_walk`)."""
    return iter(memoized_walk("call-targets-body", body, lambda: _body_walk(body)))


def _body_walk(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """`_walk_body`, walking."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _runs_when_called(node: ast.AST, forwards: Callable[[ast.expr], bool] = lambda d: False) -> bool:
    """A plain function whose body runs at the call (not `async def`, not a generator), undecorated or wrapped
    only by decorators that forward every call to it (`forwards`: `ModuleClasses.forwards`)."""
    if not isinstance(node, ast.FunctionDef):
        return False
    if not all(forwards(d) for d in node.decorator_list):
        return False
    return not any(isinstance(sub, ast.Yield | ast.YieldFrom | ast.Await) for sub in _walk_body(node.body))


def _is_wraps(decorator: ast.expr, wrapped: str) -> bool:
    """`@functools.wraps(fn)` (or `@wraps(fn)`) of the wrapped function `fn`: it copies names, runs nothing."""
    if not (isinstance(decorator, ast.Call) and len(decorator.args) == 1 and not decorator.keywords):
        return False
    func, arg = decorator.func, decorator.args[0]
    named = (isinstance(func, ast.Name) and func.id == "wraps") or (
        isinstance(func, ast.Attribute) and func.attr == "wraps" and isinstance(func.value, ast.Name)
        and func.value.id == "functools"
    )
    return named and isinstance(arg, ast.Name) and arg.id == wrapped


def forwards_calls(decorator: ast.AST) -> bool:
    """A decorator of this module whose wrapper hands every call on to the function it wraps, unchanged:
    `def logged(fn)` defining `def wrapper(*args, **kwargs)` (optionally `@functools.wraps(fn)`) that does
    `return fn(*args, **kwargs)` once and nothing else with `fn`'s arguments, and returning `wrapper` on every
    path.  A function it decorates keeps its call summary; any other decorator hides what a call runs."""
    return forwarding_shape(decorator) != FORWARDS_NOT


#: `forwarding_shape`: not a forwarding decorator; one whose wrapper calls the function once; one whose wrapper's
#: call of it is in a loop (`for attempt in range(times): try: return fn(*args, **kwargs)`), so it may run again
#: with the same arguments (`AppliedSummary.repeats`).
FORWARDS_NOT, FORWARDS_ONCE, FORWARDS_AGAIN = 0, 1, 2


def forwarding_factory(factory: ast.AST) -> int:
    """`def retry(times)` that defines one decorator forwarding calls (`forwarding_shape`) and returns it on every
    path: `@retry(3)` is that decorator.  Its `forwarding_shape`, else `FORWARDS_NOT`."""
    if not isinstance(factory, ast.FunctionDef) or factory.decorator_list:
        return FORWARDS_NOT
    inner = {s.name: s for s in factory.body if isinstance(s, ast.FunctionDef)}
    returned = {r.value.id if isinstance(r.value, ast.Name) else "" for r in _walk_body(factory.body)
                if isinstance(r, ast.Return)}
    if len(returned) != 1 or (name := returned.pop()) not in inner:
        return FORWARDS_NOT
    return forwarding_shape(inner[name])


def forwarding_shape(decorator: ast.AST) -> int:
    """`forwards_calls`, telling whether the wrapper's one call of the function is in a loop (`FORWARDS_AGAIN`)."""
    if not isinstance(decorator, ast.FunctionDef) or decorator.decorator_list:
        return FORWARDS_NOT
    args = decorator.args
    if len(args.args) != 1 or args.posonlyargs or args.kwonlyargs or args.vararg or args.kwarg:
        return FORWARDS_NOT
    wrapped = args.args[0].arg
    if _returns_its_parameter(decorator, wrapped):
        return FORWARDS_ONCE  # `def deco(fn): PASSES[name] = fn; return fn`: the decorated name is the function
    wrappers = {s.name: s for s in decorator.body if isinstance(s, ast.FunctionDef)}
    returned = {r.value.id if isinstance(r.value, ast.Name) else "" for r in _walk_body(decorator.body)
                if isinstance(r, ast.Return)}
    if len(returned) != 1 or (name := returned.pop()) not in wrappers:
        return FORWARDS_NOT
    wrapper = wrappers[name]
    params = wrapper.args
    if params.args or params.posonlyargs or params.kwonlyargs or params.vararg is None or params.kwarg is None:
        return FORWARDS_NOT
    if not all(_is_wraps(d, wrapped) for d in wrapper.decorator_list):
        return FORWARDS_NOT
    star, double = params.vararg.arg, params.kwarg.arg
    body = list(_walk_body(wrapper.body))
    if any(isinstance(n, ast.Yield | ast.YieldFrom | ast.Await) for n in body):
        return FORWARDS_NOT
    calls_of = [n for n in body if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == wrapped]
    forwarded = [
        r for r in body
        if isinstance(r, ast.Return) and isinstance(call := r.value, ast.Call) and call in calls_of
        and len(call.args) == 1 and isinstance(call.args[0], ast.Starred)
        and isinstance(call.args[0].value, ast.Name) and call.args[0].value.id == star
        and len(call.keywords) == 1 and call.keywords[0].arg is None
        and isinstance(call.keywords[0].value, ast.Name) and call.keywords[0].value.id == double
    ]
    mentions = [n for n in body if isinstance(n, ast.Name) and n.id in (star, double)]
    if not (len(calls_of) == 1 and len(forwarded) == 1 and len(mentions) == 2):
        return FORWARDS_NOT
    looped = {id(n) for loop in body if isinstance(loop, ast.For | ast.While) for n in _walk_body(loop.body)}
    return FORWARDS_AGAIN if id(forwarded[0]) in looped else FORWARDS_ONCE


def forwarding_class_shape(cls: ast.AST) -> int:
    """A class used as a decorator that hands every call on to the function it wraps (`forwarding_shape`'s rule for
    a class): `__init__(self, fn)` stores `fn` on one attribute (`self.fn = fn`, also `functools.update_wrapper(self,
    fn)`) and nothing else reads it; `__call__(self, *args, **kwargs)` (or `*args` alone) returns `self.fn(*args,
    **kwargs)` once and does nothing else with its arguments; no other method stores that attribute.  A function it
    decorates keeps its call summary (`FORWARDS_AGAIN` when the call is in a loop)."""
    if not isinstance(cls, ast.ClassDef) or cls.decorator_list or cls.bases or cls.keywords:
        return FORWARDS_NOT
    methods = {s.name: s for s in cls.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)}
    init, call = methods.get("__init__"), methods.get("__call__")
    if not isinstance(init, ast.FunctionDef) or not isinstance(call, ast.FunctionDef):
        return FORWARDS_NOT
    if init.decorator_list or call.decorator_list:
        return FORWARDS_NOT
    params = init.args
    if len(params.args) != 2 or params.posonlyargs or params.kwonlyargs or params.vararg or params.kwarg:
        return FORWARDS_NOT
    me, wrapped = params.args[0].arg, params.args[1].arg
    stores = [
        t.attr for stmt in _walk_body(init.body) if isinstance(stmt, ast.Assign)
        for t in stmt.targets if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me
        and isinstance(stmt.value, ast.Name) and stmt.value.id == wrapped
    ]
    uses = [n for n in _walk_body(init.body) if isinstance(n, ast.Name) and n.id == wrapped]
    wrapping = [n for n in _walk_body(init.body) if isinstance(n, ast.Call) and _dotted(n.func) in _UPDATE_WRAPPER]
    if len(stores) != 1 or len(uses) != 1 + len(wrapping):
        return FORWARDS_NOT
    attr = stores[0]
    stored_elsewhere = [
        t for m in methods.values() if m is not init for n in _walk_body(m.body)
        if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign)
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Attribute) and t.attr == attr
    ]
    args = call.args
    if stored_elsewhere or len(args.args) != 1 or args.posonlyargs or args.kwonlyargs or args.vararg is None:
        return FORWARDS_NOT
    this, star = args.args[0].arg, args.vararg.arg
    double = args.kwarg.arg if args.kwarg is not None else None
    body = list(_walk_body(call.body))
    if any(isinstance(n, ast.Yield | ast.YieldFrom | ast.Await) for n in body):
        return FORWARDS_NOT
    calls_of = [
        n for n in body if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == attr
        and isinstance(n.func.value, ast.Name) and n.func.value.id == this
    ]
    forwarded = [
        r for r in body
        if isinstance(r, ast.Return) and isinstance(c := r.value, ast.Call) and c in calls_of
        and len(c.args) == 1 and isinstance(c.args[0], ast.Starred)
        and isinstance(c.args[0].value, ast.Name) and c.args[0].value.id == star
        and (
            not c.keywords if double is None
            else len(c.keywords) == 1 and c.keywords[0].arg is None
            and isinstance(c.keywords[0].value, ast.Name) and c.keywords[0].value.id == double
        )
    ]
    mentions = [n for n in body if isinstance(n, ast.Name) and n.id in (star, double)]
    if not (len(calls_of) == 1 and len(forwarded) == 1 and len(mentions) == (1 if double is None else 2)):
        return FORWARDS_NOT
    looped = {id(n) for loop in body if isinstance(loop, ast.For | ast.While) for n in _walk_body(loop.body)}
    return FORWARDS_AGAIN if id(forwarded[0]) in looped else FORWARDS_ONCE


#: `functools.update_wrapper(self, fn)` in a class decorator's `__init__` copies names, and calls nothing.
_UPDATE_WRAPPER = frozenset({"functools.update_wrapper", "update_wrapper"})


def _returns_its_parameter(decorator: ast.FunctionDef, param: str) -> bool:
    """A decorator that hands back the function it is given, unchanged and uncalled (`def deco(fn): PASSES[name] =
    fn; return fn`): its last statement and every `return` give the parameter, which it neither calls nor rebinds."""
    body = list(_walk_body(decorator.body))
    returns = [n for n in body if isinstance(n, ast.Return)]
    return (
        bool(decorator.body) and isinstance(decorator.body[-1], ast.Return)
        and all(isinstance(r.value, ast.Name) and r.value.id == param for r in returns)
        and not any(isinstance(n, ast.Yield | ast.YieldFrom | ast.Await) for n in body)
        and not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == param for n in body)
        and not any(isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Store) for n in body)
    )


def _stored_into(node: ast.AST) -> tuple[str, ast.expr] | None:
    """A statement or call that stores a value into a container named by a module name: `R[k] = v`, `R.append(v)`,
    `R[k].append(v)` (also `add`, `insert`'s second argument, `setdefault`'s second) as `(R, v)`, else None."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
        root: ast.expr = node.targets[0]
        while isinstance(root, ast.Subscript):
            root = root.value
        return (root.id, node.value) if isinstance(root, ast.Name) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords:
        position = calls.STORING_METHODS.get(node.func.attr, 0 if node.func.attr == "add" else -1)
        if position < 0 or len(node.args) <= position:
            return None
        root = node.func.value
        while isinstance(root, ast.Subscript):
            root = root.value
        return (root.id, node.args[position]) if isinstance(root, ast.Name) else None
    return None


def module_registries(module: ast.Module, classes: ModuleClasses) -> dict[str, tuple[ast.FunctionDef, ...]]:
    """Module-level containers that hold only functions of the module (`callables.registry_union`): bound once at the
    top level to an empty display, and everything stored into them anywhere in the module is a top-level function,
    or the function a decorator hands back (`def deco(fn): PASSES[name] = fn; return fn`, also returned by a factory,
    `@register("double")`): then each function decorated with it is stored there."""
    functions = {s.name: s for s in module.body if isinstance(s, ast.FunctionDef) and classes.plain(s)}
    bound: dict[str, int] = {}
    empty: list[str] = []
    for stmt in module.body:
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                if isinstance(target, ast.Name):
                    bound[target.id] = bound.get(target.id, 0) + 1
                    if (isinstance(stmt.value, ast.Dict) and not stmt.value.keys) or (
                        isinstance(stmt.value, ast.List) and not stmt.value.elts
                    ):
                        empty.append(target.id)
    decorated_stores: set[int] = set()
    storing: dict[int, str] = {}  # an identity decorator (by id) -> the registry it stores its parameter into
    for func in all_nodes(module):
        if not isinstance(func, ast.FunctionDef) or len(func.args.args) != 1 or func.decorator_list:
            continue
        param = func.args.args[0].arg
        if not _returns_its_parameter(func, param):
            continue
        held = set()
        for node in _walk_body(func.body):
            found = _stored_into(node)
            if found is not None and isinstance(found[1], ast.Name) and found[1].id == param:
                decorated_stores.add(id(node))
                held.add(found[0])
        if len(held) == 1:
            storing[id(func)] = held.pop()
    stores: list[tuple[str, ast.FunctionDef | None]] = []  # (registry, the function stored, None for anything else)
    for node in all_nodes(module):
        if isinstance(node, ast.Global):
            for name in node.names:
                bound[name] = bound.get(name, 0) + 2  # rebound from a function: no registry
        found = _stored_into(node)
        if found is not None and id(node) not in decorated_stores:
            stores.append((found[0], functions.get(found[1].id) if isinstance(found[1], ast.Name) else None))
    decorators: dict[str, str] = {}  # a top-level decorator or decorator factory's name -> its registry
    for stmt in module.body:
        if isinstance(stmt, ast.FunctionDef):
            for func in (stmt, *stmt.body):
                if isinstance(func, ast.FunctionDef) and id(func) in storing:
                    decorators[stmt.name] = storing[id(func)]
    decorated: list[tuple[str, ast.FunctionDef | None]] = []
    for stmt in module.body:
        if isinstance(stmt, ast.FunctionDef):
            for decorator in stmt.decorator_list:
                callee = decorator.func if isinstance(decorator, ast.Call) else decorator
                if isinstance(callee, ast.Name) and callee.id in decorators:
                    decorated.append((decorators[callee.id], stmt if classes.plain(stmt) else None))
    return callables.registry_union([name for name in empty if bound.get(name) == 1], [*stores, *decorated])


def _attribute_root(node: ast.expr) -> str | None:
    """The attribute a store reaches below its subscripts (`self.hooks[k]` -> `hooks`), else None."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node.attr if isinstance(node, ast.Attribute) else None


def attribute_registries(
    module: ast.Module, classes: ModuleClasses
) -> dict[tuple[str, str], tuple[ast.FunctionDef, ...]]:
    """Attributes that hold only functions of the module (`callables.attribute_registry_union`), by (class,
    attribute): bound once, by `self.<attr> = []` (or `{}`, or a display of functions) in a method of the class, and
    everything stored into an attribute of that name anywhere in the module (`x.<attr>.append(v)`, `.extend([...])`,
    `x.<attr>[k] = v`) is a top-level function, or a parameter of the storing method that every call of that
    method in the module (`runner.register_hook(fn)`, also `@runner.register_hook`) passes a top-level function
    for.  The plugin's `attribute_registries` is the same rule over mypy's tree."""
    functions = {s.name: s for s in module.body if isinstance(s, ast.FunctionDef) and classes.plain(s)}

    def function(value: ast.expr) -> ast.FunctionDef | None:
        return functions.get(value.id) if isinstance(value, ast.Name) else None

    owners: dict[int, tuple[ast.ClassDef, ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    for cls in classes.classes.values():
        for method in cls.body:
            if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
                for node in _walk_body(method.body):
                    owners[id(node)] = (cls, method)
    bindings: list[tuple[str, str | None]] = []
    stores: list[tuple[str, ast.FunctionDef | None]] = []
    parameter_stores: list[tuple[str, str, int, str]] = []  # (attribute, method, position after self, parameter)
    for node in all_nodes(module):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target] if not isinstance(node, ast.AnnAssign) or node.value is not None else []
        elif isinstance(node, ast.Delete):
            targets = node.targets
        for target in targets:
            for element in all_nodes(target):
                if isinstance(element, ast.Attribute) and isinstance(element.ctx, ast.Store | ast.Del):
                    owner = owners.get(id(node))
                    value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
                    params = _param_names_in_order(owner[1]) if owner is not None else []
                    own = (
                        owner is not None and target is element and isinstance(element.value, ast.Name)
                        and bool(params) and element.value.id == params[0]
                    )
                    if own and isinstance(value, ast.List | ast.Tuple | ast.Dict) and owner is not None:
                        bindings.append((element.attr, owner[0].name))
                        items = value.values if isinstance(value, ast.Dict) else value.elts
                        stores.extend((element.attr, function(item)) for item in items)
                    else:
                        bindings.append((element.attr, None))
        found: tuple[str, list[ast.expr]] | None = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript):
            attribute = _attribute_root(node.targets[0])
            found = (attribute, [node.value]) if attribute is not None else None
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords:
            attribute = _attribute_root(node.func.value)
            position = calls.STORING_METHODS.get(node.func.attr, 0 if node.func.attr == "add" else -1)
            if attribute is not None and node.func.attr == "extend" and len(node.args) == 1:
                value = node.args[0]
                items = list(value.elts) if isinstance(value, ast.List | ast.Tuple) else [value]
                found = (attribute, items)
            elif attribute is not None and 0 <= position < len(node.args):
                found = (attribute, [node.args[position]])
        if found is None:
            continue
        attribute, values = found
        owner = owners.get(id(node))
        params = _param_names_in_order(owner[1]) if owner is not None else []
        for value in values:
            if function(value) is None and owner is not None and isinstance(value, ast.Name) and value.id in params[1:]:
                rebound = any(isinstance(n, ast.Name) and n.id == value.id and isinstance(n.ctx, ast.Store | ast.Del)
                              for n in _walk_body(owner[1].body))
                if not rebound and isinstance(owner[1], ast.FunctionDef) and not owner[1].decorator_list:
                    parameter_stores.append((attribute, owner[1].name, params.index(value.id) - 1, value.id))
                    continue
            stores.append((attribute, function(value)))
    if parameter_stores:
        used: dict[int, ast.AST] = {}  # `.method` nodes read as a call's callee or a decorator
        passed: dict[str, list[tuple[ast.Call | None, ast.FunctionDef | None]]] = {}
        for node in all_nodes(module):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                used[id(node.func)] = node
                passed.setdefault(node.func.attr, []).append((node, None))
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for decorator in node.decorator_list:
                    if isinstance(decorator, ast.Attribute):
                        used[id(decorator)] = node
                        plain = node if isinstance(node, ast.FunctionDef) and node in functions.values() else None
                        passed.setdefault(decorator.attr, []).append((None, plain))
        methods = {storing for _, storing, _, _ in parameter_stores}
        escaped = {n.attr for n in all_nodes(module) if isinstance(n, ast.Attribute) and n.attr in methods
                   and id(n) not in used}
        escaped.update(n.id for n in all_nodes(module) if isinstance(n, ast.Name) and n.id in methods)
        for attribute, storing, position, param in parameter_stores:
            if storing in escaped:
                stores.append((attribute, None))  # the method is passed around or shadowed: its callers unknown
                continue
            for call, decorated in passed.get(storing, []):
                if call is None:
                    stores.append((attribute, decorated))
                    continue
                keyword = [k.value for k in call.keywords if k.arg == param]
                starred = any(isinstance(a, ast.Starred) for a in call.args[: position + 1])
                given = call.args[position] if len(call.args) > position and not starred else None
                value = given if given is not None else keyword[0] if keyword else None
                if value is not None or starred or any(k.arg is None for k in call.keywords):
                    stores.append((attribute, function(value) if value is not None else None))
    return callables.attribute_registry_union(bindings, stores)


def _param_names_in_order(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """A function's positional parameters, in order (a method's receiver first)."""
    return [p.arg for p in (*node.args.posonlyargs, *node.args.args)]


def _imported_names(module: ast.Module) -> dict[str, str]:
    """The names the module's top-level imports bind, with the qualified name each is bound to (`import functools
    as ft`: `ft` -> `functools`; `from functools import cache`: `cache` -> `functools.cache`)."""
    found: dict[str, str] = {}
    for stmt in module.body:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname is not None:
                    found[alias.asname] = alias.name
                else:
                    head = alias.name.split(".", 1)[0]
                    found[head] = head
        elif isinstance(stmt, ast.ImportFrom) and stmt.module is not None and not stmt.level:
            for alias in stmt.names:
                if alias.name != "*":
                    found[alias.asname or alias.name] = f"{stmt.module}.{alias.name}"
    return found


class ModuleClasses:
    """The module's top-level classes and the owner of each of their methods (built once per file)."""

    def __init__(self, module: ast.Module) -> None:
        self.classes: dict[str, ast.ClassDef] = {}
        self.owner: dict[int, ast.ClassDef] = {}
        # each method's own item changes and the methods it calls on its receiver (`item_changes.changed_items`)
        self.item_changes: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
        for stmt in module.body:
            if isinstance(stmt, ast.ClassDef):
                self.classes[stmt.name] = stmt
                for sub in stmt.body:
                    if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                        self.owner[id(sub)] = stmt
        self.memo = SummaryMemo()
        self._runs: IdentityMemo[ast.AST, bool] = IdentityMemo()
        self._instances: IdentityMemo[ast.AST, dict[str, ast.ClassDef | None]] = IdentityMemo()
        self._bindings: IdentityMemo[ast.AST, BindingIndex] = IdentityMemo()
        self._loops: IdentityMemo[ast.AST, dict[str, tuple[ast.ClassDef, ...]]] = IdentityMemo()
        self.generated: dict[int, GeneratedInit | None] = {}  # `generated_fields`, by class
        # the module's top-level decorators that forward every call to the function they wrap (`forwards_calls`)
        shapes = {s.name: forwarding_shape(s) for s in module.body if isinstance(s, ast.FunctionDef)}
        shapes.update((s.name, forwarding_class_shape(s)) for s in module.body if isinstance(s, ast.ClassDef))
        self.forwarding = frozenset(name for name, shape in shapes.items() if shape != FORWARDS_NOT)
        # the decorator factories (`@retry(3)`), and the decorators of either kind whose wrapper may call again
        factories = {s.name: forwarding_factory(s) for s in module.body if isinstance(s, ast.FunctionDef)}
        self.factories = frozenset(name for name, shape in factories.items() if shape != FORWARDS_NOT)
        self.again = frozenset(name for name, shape in (*shapes.items(), *factories.items()) if shape == FORWARDS_AGAIN)
        self._imported = _imported_names(module)  # for the standard library's forwarding decorators
        self._free: IdentityMemo[ast.AST, list[str]] = IdentityMemo()
        self._orders: dict[str, tuple[tuple[str, ...], bool]] = {}
        self._module = module
        self._class_values: dict[tuple[str, str], ast.expr | None] = {}
        self._getters: dict[tuple[int, str], ast.FunctionDef | None] = {}
        self._sequences: IdentityMemo[ast.AST, frozenset[str]] = IdentityMemo()

    @functools.cached_property
    def method_names(self) -> frozenset[str]:
        """The names of every method the module's classes define: `obj.get(k, default)` is read as `dict.get`
        only where no class of the module could be running a `get` of its own."""
        return frozenset(
            s.name for cls in self.classes.values() for s in cls.body
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
        )

    def free_names(self, callee: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
        """`_module_names`, once per function."""
        known = self._free.get(callee)
        if known is None:
            known = self._free[callee] = _module_names(callee)
        return known

    @functools.cached_property
    def with_views(self) -> bool:
        """Whether some class of the module has a property or an `__iter__` the checker reads as a view of its
        own attributes (`attribute_view`, `iterated_attributes`): otherwise no place needs the class lookup."""
        return any(_attribute_property(s) is not None or _iterated_attributes(s) is not None
                   or _property_returns(s) is not None
                   or _accessor_path(s, self.sequences(cls)) is not None or _item_path(s) is not None
                   for cls in self.classes.values() for s in cls.body)

    def accessor(self, cls: ast.ClassDef, name: str) -> tuple[str, ...] | None:
        """The attribute path the method `name` of `cls` (as `method` finds it: an override first) returns from
        its receiver, when that is all it does (`def target(self): return self.out`): `obj.target()` is then the
        place `obj.out`."""
        found = self.method(cls, name)
        return _accessor_path(found, self.sequences(self.owner.get(id(found), cls))) if found is not None else None

    def accessor_makes_new(self, cls: ast.ClassDef, name: str) -> bool:
        """Whether the accessor `name` of `cls` (`accessor`) may return a new value instead (`_peek_makes_new`)."""
        found = self.method(cls, name)
        return found is not None and _peek_makes_new(found, self.sequences(self.owner.get(id(found), cls)))

    def sequences(self, cls: ast.ClassDef) -> frozenset[str]:
        """`_sequence_attributes` of a class, computed once."""
        found = self._sequences.get(cls)
        if found is None:
            found = self._sequences[cls] = _sequence_attributes(cls)
        return found

    @functools.cached_property
    def peeked(self) -> frozenset[str]:
        """The attribute names some accessor of the module peeks at (`calls.peeked_path`): a method call changing
        a place ending in one of them forgets its peeked items (`calls.MethodCall.receiver_peeked`)."""
        return frozenset(
            path[-2]
            for cls in self.classes.values()
            for s in cls.body
            if (path := _accessor_path(s, self.sequences(cls))) is not None and path[-1].startswith(calls.PEEKED_PREFIX)
        )

    def item_accessor(self, cls: ast.ClassDef, name: str = "__getitem__") -> tuple[str, ...] | None:
        """The attribute path whose item the `__getitem__` of `cls` (as `method` finds it) returns, when that is
        all it does (`def __getitem__(self, name): return self._bufs[name]`): `obj["y"]` is then the item under
        `"y"` of `obj._bufs` (a `**kwargs` dict `__init__` stored there has one per keyword).  With `name`, the
        method of that name (`obj.get("y")` of a keyed getter, `_item_path`)."""
        found = self.method(cls, name)
        return _item_path(found) if found is not None else None

    def subclasses(self, cls: ast.ClassDef) -> list[ast.ClassDef]:
        """The module's classes whose method resolution order reaches `cls` (not `cls` itself)."""
        return [c for c in self.classes.values() if c is not cls and any(b is cls for b in self._chain(c))]

    def attribute_view(self, cls: ast.ClassDef, name: str) -> tuple[str, ...] | None:
        """The attribute path a `@property` `name` of `cls` (or of a class along its `_chain`) returns from its
        receiver (`return self._out`), when that is all it does and nothing else of the class binds `name` (no
        setter, no deleter): `obj.name` is then the place `obj._out`."""
        for current in self._chain(cls):
            bound = [s for s in current.body if _binds_name(s, name)]
            if bound:
                found = _attribute_property(bound[0]) if len(bound) == 1 else None
                return found[1] if found is not None and found[0] == name else None
        return None

    def property_returns(self, cls: ast.ClassDef, name: str) -> tuple[tuple[tuple[str, ...], ...], bool] | None:
        """What a property `name` of `cls` (or of a class along its `_chain`) that only tests and returns gives
        (`_property_returns`: its receiver's attribute paths, and whether a return gives a new value), when nothing
        else of the class binds `name`."""
        for current in self._chain(cls):
            bound = [s for s in current.body if _binds_name(s, name)]
            if bound:
                return _property_returns(bound[0]) if len(bound) == 1 else None
        return None

    def iterated(self, cls: ast.ClassDef) -> tuple[tuple[str, ...], ...] | None:
        """The attribute paths, in order, an `__iter__` of `cls` (or of a class along its `_chain`) gives when it
        only returns `iter((self.a, self.b))` or yields `self.a` then `self.b` (`a, b = pair`)."""
        for current in self._chain(cls):
            bound = [s for s in current.body if _binds_name(s, "__iter__")]
            if bound:
                return _iterated_attributes(bound[0]) if len(bound) == 1 else None
        return None

    def own_iter(self, cls: ast.ClassDef) -> bool:
        """Whether `cls`, a class along its `_chain` or a subclass of the module defines `__iter__`: iterating an
        instance then runs it, not the iteration over its fields a `NamedTuple` gives (`iterated_fields`)."""
        return any(_binds_name(s, "__iter__") for c in (*self._chain(cls), *self.subclasses(cls)) for s in c.body)

    def init_chain(
        self, cls: ast.ClassDef
    ) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, tuple[ast.ClassDef, ...]] | None:
        """The `__init__` an instance of `cls` runs: its own, or, when it defines none, the one it inherits along
        its method resolution order in the module (no decorator on the way, as `@dataclass` writes an `__init__`);
        with that chain's known classes, whose methods all run on the instance and may bind its attributes. A
        subclass's methods then start with what the inherited `__init__` leaves on `self` (as mypy types
        `self.prepared` in a subclass from its base's `__init__`)."""
        chain = tuple(self._chain(cls))
        for current in chain:
            init = next((s for s in current.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
                         and s.name == "__init__"), None)
            if init is not None:
                return init, chain
            if not all(self.keeps_class(d) for d in current.decorator_list) or any(
                _binds_name(s, "__init__") for s in current.body
            ):
                return None
        return None

    def keeps_class(self, decorator: ast.expr) -> bool:
        """A class decorator that gives the class itself back (`@register("rmsnorm")` of a registry): a function of
        the module, or a call of one, whose every `return` gives its first parameter, or a function it defines that
        does.  Any other (`@dataclass`) may write an `__init__` or give another class."""
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        func = self._functions.get(target.id) if isinstance(target, ast.Name) else None
        if func is None:
            return False
        if _returns_first_parameter(func):
            return not isinstance(decorator, ast.Call)
        if not isinstance(decorator, ast.Call):
            return False
        inner = {s.name: s for s in func.body if isinstance(s, ast.FunctionDef)}
        returned = [r.value for r in _own_returns(func)]
        return bool(returned) and all(
            isinstance(v, ast.Name) and v.id in inner and _returns_first_parameter(inner[v.id]) for v in returned
        )

    @functools.cached_property
    def _functions(self) -> dict[str, ast.FunctionDef]:
        return {s.name: s for s in self._module.body if isinstance(s, ast.FunctionDef) and not s.decorator_list}

    def init_statements(self, cls: ast.ClassDef) -> list[tuple[str, ast.stmt]]:
        """The top-level statements of the `__init__` an object of `cls` runs (`init_chain`), in order, each with the
        receiver name of the `__init__` it is in: a statement `super().__init__(...)` stands for the statements of
        the `__init__` the next class along the order runs, so what a base's `__init__` stores when a subclass's
        calls it is what the subclass's stores."""
        found = self.init_chain(cls)
        out: list[tuple[str, ast.stmt]] = []
        if found is not None:
            self._init_statements(found[0], found[1], out)
        return out

    def _init_statements(
        self,
        init: ast.FunctionDef | ast.AsyncFunctionDef,
        chain: tuple[ast.ClassDef, ...],
        out: list[tuple[str, ast.stmt]],
    ) -> None:
        positional = [*init.args.posonlyargs, *init.args.args]
        if not positional:
            return
        owner = next((i for i, c in enumerate(chain) if any(s is init for s in c.body)), None)
        for stmt in init.body:
            base = self.init_chain(chain[owner + 1]) if owner is not None and owner + 1 < len(chain) else None
            if base is not None and _calls_super_init(stmt):
                self._init_statements(base[0], base[1], out)
            else:
                out.append((positional[0].arg, stmt))

    def factory_method(self, cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
        """The `@classmethod` `name` along `cls`'s method resolution order when its every `return` is `cls(...)` of
        its own first parameter, which it never rebinds (`def allocate(cls, n): return cls(sk.zeros(n), n)`):
        `Class.name(...)` makes an object of `Class` exactly, as `Class(...)` does; else None."""
        found: ast.AST | None = None
        for current in self._chain(cls):
            for stmt in current.body:
                if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.Assign | ast.AnnAssign) and (
                    getattr(stmt, "name", None) == name or any(
                        isinstance(t, ast.Name) and t.id == name
                        for t in (stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)])
                    )
                ):
                    found = stmt
            if found is not None:
                break
        if not isinstance(found, ast.FunctionDef) or not found.args.args:
            return None
        decorators = found.decorator_list
        if len(decorators) != 1 or not (isinstance(decorators[0], ast.Name) and decorators[0].id == "classmethod"):
            return None
        me = found.args.args[0].arg
        inner = list(_walk_body(found.body))
        returned = [n.value for n in inner if isinstance(n, ast.Return)]
        if not returned or any(isinstance(n, ast.Yield | ast.YieldFrom) for n in inner):
            return None
        if any(isinstance(n, ast.Name) and n.id == me and not isinstance(n.ctx, ast.Load) for n in inner):
            return None
        made = all(isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == me for v in returned)
        return found if made else None

    def _chain(self, cls: ast.ClassDef) -> Iterator[ast.ClassDef]:
        """`cls`, then the module's classes along its method resolution order, up to the first class the module
        does not define (`class_order.linearized`)."""
        yield cls
        for name in self.order(cls)[0][1:]:
            yield self.classes[name]

    def order(self, cls: ast.ClassDef) -> tuple[tuple[str, ...], bool]:
        """The names of `cls`'s method resolution order the module defines, and whether that is all of it."""
        known = self._orders.get(cls.name)
        if known is None:
            known = self._orders[cls.name] = class_order.linearized(cls.name, self._bases_of)
        return known

    def complete_chain(self, cls: ast.ClassDef) -> list[ast.ClassDef] | None:
        """`_chain` when every class of the method resolution order is the module's (no base of another module
        may define a name the lookup misses), else None."""
        return list(self._chain(cls)) if self.order(cls)[1] else None

    def _bases_of(self, name: str) -> tuple[str, ...] | None:
        cls = self.classes.get(name)
        if cls is None:
            return None
        bases = [
            b.id if isinstance(b, ast.Name) else class_order.UNKNOWN_BASE
            for b in cls.bases
            if not (isinstance(b, ast.Name) and b.id == "object")
        ]
        return (*bases, class_order.UNKNOWN_BASE) if cls.keywords else tuple(bases)

    def runs_when_called(self, node: ast.AST) -> bool:
        """`_runs_when_called`, once per function (a call site asks again for every call of it)."""
        known = self._runs.get(node)
        if known is None:
            known = self._runs[node] = _runs_when_called(node, self.forwards)
        return known

    def runs_when_awaited(self, node: ast.AST) -> bool:
        """An `async def` of the module (not an async generator), undecorated or wrapped only by decorators that
        forward its calls: awaiting a call of it runs its body there (`callables.lower_gathered`)."""
        if not isinstance(node, ast.AsyncFunctionDef):
            return False
        if not all(self.forwards(d) for d in node.decorator_list):
            return False
        return not any(isinstance(sub, ast.Yield | ast.YieldFrom) for sub in _walk_body(node.body))

    def runs_when_iterated(self, node: ast.AST) -> bool:
        """A generator function of the module (an async one too; no `yield from`), undecorated or wrapped only by
        decorators that forward its calls: taking an item of a call of it (`next(gen(...))`, `for op in
        gen(...)`, `async for op in agen(...)`) runs its body there (`callables.iterated_call`)."""
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            return False
        if not all(self.forwards(d) for d in node.decorator_list):
            return False
        inner = list(_walk_body(node.body))
        return any(isinstance(sub, ast.Yield) for sub in inner) and not any(
            isinstance(sub, ast.YieldFrom) for sub in inner
        )

    def forwards(self, decorator: ast.expr) -> bool:
        """A decorator that hands every call on to the function it wraps and returns its result: one of the
        module's own (`forwards_calls`), or one of the standard library's (`stdlib_flow.FORWARDING_DECORATORS`:
        `@functools.cache`, `@functools.lru_cache(maxsize=None)`), named through the module's imports."""
        if isinstance(decorator, ast.Name) and decorator.id in self.forwarding:
            return True
        if isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Name):
            if decorator.func.id in self.factories:
                return True  # `@retry(3)`: the decorator the module's factory returns
        called = isinstance(decorator, ast.Call)
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        parts: list[str] = []
        while isinstance(target, ast.Attribute):
            parts.append(target.attr)
            target = target.value
        if not isinstance(target, ast.Name) or target.id not in self._imported:
            return False
        qualified = ".".join([self._imported[target.id], *reversed(parts)])
        return forwarding_decorator(qualified, called)

    def repeats(self, node: ast.AST) -> bool:
        """A function wrapped by a forwarding decorator of the module whose wrapper may call it again with the same
        arguments (`FORWARDS_AGAIN`: `@retry(3)`, `@retrying`)."""
        return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
            (d.func.id if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) else getattr(d, "id", None))
            in self.again
            for d in node.decorator_list
        )

    def plain(self, node: ast.AST) -> bool:
        """A function whose decorators (if any) all forward calls to it: its name calls its own body."""
        return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and all(
            self.forwards(d) for d in node.decorator_list
        )

    def instances(self, body_owner: ast.AST, body: list[ast.stmt]) -> dict[str, ast.ClassDef | None]:
        """`_instance_classes` of one body, walked once however many method calls it makes."""
        known = self._instances.get(body_owner)
        if known is None:
            known = self._instances[body_owner] = _instance_classes(body, self)
        return known

    def binding_index(self, body_owner: ast.AST, body: list[ast.stmt]) -> BindingIndex:
        """`_binding_index` of one body, built once."""
        known = self._bindings.get(body_owner)
        if known is None:
            known = self._bindings[body_owner] = _binding_index(body, self)
        return known

    def super_method(self, func: ast.AST, name: str, receiver: ast.ClassDef | None = None) -> ast.FunctionDef | None:
        """The method `super().name` runs inside `func`, a method of one of the module's classes: `name` as the
        classes after the method's own class along the method resolution order of the receiver's class
        (`receiver`, a subclass the method runs for; else the method's own class) find it."""
        owner = self.owner.get(id(func))
        chain = list(self._chain(receiver if receiver is not None else owner)) if owner is not None else []
        return self._lookup(chain[chain.index(owner) + 1:], name) if owner in chain else None

    def loop_instances(self, body_owner: ast.AST, body: list[ast.stmt]) -> dict[str, tuple[ast.ClassDef, ...]]:
        """`_loop_classes` of one body, walked once."""
        known = self._loops.get(body_owner)
        if known is None:
            known = self._loops[body_owner] = _loop_classes(body, self)
        return known

    def method(self, cls: ast.ClassDef, name: str, iterated: bool = False) -> ast.FunctionDef | None:
        """The method `name` an instance of `cls` runs (along its method resolution order), when it is a plain
        function the checker follows (with `iterated`, a generator method too: the caller takes its items)."""
        return self._lookup(self._chain(cls), name, iterated)

    def definition(self, cls: ast.ClassDef, name: str) -> ast.AST | None:
        """The statement that defines `name` for an instance of `cls`: the first class along its method resolution
        order whose body defines or binds it (a decorated method too: a property's getter)."""
        for current in self._chain(cls):
            found: ast.AST | None = None
            for stmt in current.body:
                if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and stmt.name == name:
                    found = stmt
                elif isinstance(stmt, ast.Assign | ast.AnnAssign) and any(
                    isinstance(t, ast.Name) and t.id == name
                    for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                ):
                    found = stmt
            if found is not None:
                return found
        return None

    def class_value(self, cls: ast.ClassDef, name: str) -> ast.expr | None:
        """The expression `obj.name` reads for an object of `cls` that has no attribute `name` of its own: the one
        assignment `name = value` of the first class along its method resolution order whose body binds `name`
        (an annotation without a value binds nothing), when every class of that order is the module's and nothing
        in the module stores or deletes an attribute `name` (`obj.kernel = ...` would shadow it) or calls
        `setattr`; else None."""
        key = (cls.name, name)
        if key not in self._class_values:
            self._class_values[key] = self._class_value(cls, name)
        return self._class_values[key]

    def _class_value(self, cls: ast.ClassDef, name: str) -> ast.expr | None:
        chain = self.complete_chain(cls)
        if chain is None or name in self._stored_attributes or "setattr" in self._stored_attributes:
            return None
        for current in chain:
            bindings = [s for s in current.body if _class_body_binds(s, name)]
            if not bindings:
                continue
            stmt = bindings[0]
            if len(bindings) == 1 and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                return stmt.value if isinstance(stmt.targets[0], ast.Name) else None
            if len(bindings) == 1 and isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                return stmt.value
            return None
        return None

    @functools.cached_property
    def _stored_attributes(self) -> frozenset[str]:
        """The attribute names the module stores or deletes anywhere (`obj.kernel = k`), and `setattr` when it
        names that function."""
        found = {n.attr for n in all_nodes(self._module) if isinstance(n, ast.Attribute)
                 and isinstance(n.ctx, ast.Store | ast.Del)}
        if any(isinstance(n, ast.Name) and n.id == "setattr" for n in all_nodes(self._module)):
            found.add("setattr")
        return frozenset(found)

    @functools.cached_property
    def has_getters(self) -> bool:
        """Whether some class of the module defines a `@property` (else no attribute read runs a getter)."""
        return any(
            isinstance(stmt, ast.FunctionDef)
            and any(isinstance(d, ast.Name) and d.id == "property" for d in stmt.decorator_list)
            for cls in self.classes.values()
            for stmt in cls.body
        )

    @functools.cached_property
    def view_getter_names(self) -> frozenset[str]:
        """The names of the `@property` getters of the module's classes whose every `return` is written as a view
        (`return self.buf.view(HEADER, HEADER + self.n)`, `return self.buf[a:b]`): the cheap test before a read of
        such a name is followed as the views it gives (`view_receiver_classes`)."""
        found: set[str] = set()
        for cls in self.classes.values():
            for stmt in cls.body:
                if not isinstance(stmt, ast.FunctionDef) or [ast.dump(d) for d in stmt.decorator_list] != [_PROPERTY]:
                    continue
                returned = [r.value for r in all_nodes(stmt) if isinstance(r, ast.Return)]
                if returned and all(_written_as_view(value) for value in returned):
                    found.add(stmt.name)
        return frozenset(found)

    def getter(self, cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
        """The getter of a `@property` `name` an instance of `cls` reads (the first class along its method
        resolution order whose body binds `name`), when that binding is a function decorated `@property` alone."""
        key = (id(cls), name)
        if key not in self._getters:
            self._getters[key] = self._getter(cls, name)
        return self._getters[key]

    def plain_getter(self, cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
        """`getter`, when nothing else of the class binds `name` (no setter, no deleter): reading the property then
        always runs that getter on the object's own attributes."""
        for current in self._chain(cls):
            bound = [s for s in current.body if _class_body_binds(s, name)]
            if bound:
                return self.getter(cls, name) if len(bound) == 1 else None
        return None

    @functools.cached_property
    def computed_attribute_names(self) -> frozenset[str]:
        """The names of the module's methods decorated `@property` or `@functools.cached_property` alone: the
        cheap test before a read of an attribute looks for what its getter returns (`computed_attribute`).  A name
        the module also stores or deletes on some object (`grid.launch = ...`, `setattr`) is left out: the stored
        value is read then."""
        if "setattr" in self._stored_attributes:
            return frozenset()
        return frozenset(self._computed_names - self._stored_attributes)

    @functools.cached_property
    def _computed_names(self) -> frozenset[str]:
        return frozenset(
            stmt.name for cls in self.classes.values() for stmt in cls.body
            if isinstance(stmt, ast.FunctionDef) and len(stmt.decorator_list) == 1
            and _dotted(stmt.decorator_list[0]) in PROPERTY_DECORATORS
        )

    def computed_attribute(self, cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
        """The function a read of `name` on an instance of `cls` runs when the one binding of `name` along its
        method resolution order is a method decorated `@property` or `@functools.cached_property` alone (no
        setter): the read's value is what that function returns (a cached property's first read stores it)."""
        for current in self._chain(cls):
            bound = [s for s in current.body if _class_body_binds(s, name)]
            if not bound:
                continue
            only = bound[0] if len(bound) == 1 else None
            if isinstance(only, ast.FunctionDef) and len(only.decorator_list) == 1 and (
                _dotted(only.decorator_list[0]) in PROPERTY_DECORATORS
            ):
                return only
            return None
        return None

    def _getter(self, cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
        for current in self._chain(cls):
            bindings = [stmt for stmt in current.body if _class_body_binds(stmt, name)]
            if not bindings:
                continue
            first = bindings[0]
            decorators = first.decorator_list if isinstance(first, ast.FunctionDef) else []
            plain = len(decorators) == 1 and isinstance(decorators[0], ast.Name) and decorators[0].id == "property"
            return first if plain and isinstance(first, ast.FunctionDef) else None
        return None

    def unbound_method(self, cls: ast.ClassDef, name: str) -> tuple[ast.FunctionDef, str] | None:
        """The `@staticmethod` or `@classmethod` `name` an instance of `cls` finds along its method resolution
        order, with that decorator's name (`plain_unbound`): a call on the instance (`self.lanes(buf, n)`) runs it
        with no receiver, or with the class as its first parameter; None when the first class binding `name`
        binds something else."""
        for current in self._chain(cls):
            bound = [s for s in current.body if _class_body_binds(s, name)]
            if bound:
                return plain_unbound(bound[-1])
        return None

    def _lookup(self, chain: Iterable[ast.ClassDef], name: str, iterated: bool = False) -> ast.FunctionDef | None:
        for current in chain:
            found: ast.AST | None = None
            for stmt in current.body:
                if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name == name:
                    found = stmt
                elif isinstance(stmt, ast.Assign | ast.AnnAssign) and any(
                    isinstance(t, ast.Name) and t.id == name
                    for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                ):
                    found = stmt
            if found is not None:
                runs = isinstance(found, ast.FunctionDef) and (
                    self.runs_when_called(found) or (iterated and self.runs_when_iterated(found))
                )
                return found if runs and isinstance(found, ast.FunctionDef) else None
        return None


def _own_returns(func: ast.FunctionDef) -> list[ast.Return]:
    """The `return` statements of `func`'s own body (not of the functions and classes it defines)."""
    found: list[ast.Return] = []
    stack: list[ast.AST] = list(func.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            found.append(node)
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    return found


def _returns_first_parameter(func: ast.FunctionDef) -> bool:
    positional = [*func.args.posonlyargs, *func.args.args]
    returned = [r.value for r in _own_returns(func)]
    return bool(positional) and bool(returned) and all(
        isinstance(v, ast.Name) and v.id == positional[0].arg for v in returned
    )


def _calls_super_init(stmt: ast.stmt) -> bool:
    """`super().__init__(...)` as a statement."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    func = call.func if isinstance(call, ast.Call) else None
    return (
        isinstance(func, ast.Attribute) and func.attr == "__init__" and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name) and func.value.func.id == "super" and not func.value.args
    )


def _class_body_binds(stmt: ast.stmt, name: str) -> bool:
    """Whether a statement of a class body binds `name` in the class's namespace: a definition, an assignment
    with a value (a bare annotation binds nothing), or any other statement storing, deleting or importing it."""
    if isinstance(stmt, ast.AnnAssign) and stmt.value is None:
        return False
    if _binds_name(stmt, name):
        return True
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return False
    if isinstance(stmt, ast.Import | ast.ImportFrom):
        return any((a.asname or a.name.split(".")[0]) == name for a in stmt.names)
    return any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) for n in ast.walk(stmt))


def _binds_name(stmt: ast.stmt, name: str) -> bool:
    """Whether a statement of a class body binds `name` (a method, a property's setter, an assignment)."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return stmt.name == name
    if isinstance(stmt, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
    if isinstance(stmt, ast.AnnAssign):
        return isinstance(stmt.target, ast.Name) and stmt.target.id == name
    return False


def receiver_path(node: ast.expr | None, receiver: str) -> tuple[str, ...] | None:
    """`self.a.b` as `("a", "b")` when rooted at the parameter `receiver`."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == receiver and parts:
        return tuple(reversed(parts))
    return None


def _only_statements(func: ast.FunctionDef) -> list[ast.stmt]:
    """A function's statements without its docstring."""
    body = func.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return body


def _receiver_param(func: ast.FunctionDef) -> str | None:
    """The one parameter of a method taking only its receiver."""
    args = func.args
    if len(args.args) != 1 or args.posonlyargs or args.kwonlyargs or args.vararg or args.kwarg:
        return None
    return args.args[0].arg


def _attribute_property(stmt: ast.stmt) -> tuple[str, tuple[str, ...]] | None:
    """`@property def name(self): return self.a.b` as `(name, ("a", "b"))`."""
    if not isinstance(stmt, ast.FunctionDef) or len(stmt.decorator_list) != 1:
        return None
    decorator = stmt.decorator_list[0]
    receiver = _receiver_param(stmt)
    if not (isinstance(decorator, ast.Name) and decorator.id == "property") or receiver is None:
        return None
    body = _only_statements(stmt)
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return None
    path = receiver_path(body[0].value, receiver)
    return (stmt.name, path) if path is not None else None


#: The decorators that make a method a read-only attribute computed from its receiver (`_property_returns`).
PROPERTY_DECORATORS = frozenset({"property", "cached_property", "functools.cached_property"})
#: Calls a property's tests and returned expressions may make (besides calls of another module's names).
_HARMLESS_BUILTINS = frozenset({"len", "min", "max", "int", "float", "bool", "isinstance", "str", "range"})
_OWNERSHIP_METHODS = MOVING_METHODS | SIMT_LAUNCH_METHODS | {"launch", "launch_async", "sync", "then", "prepare"}


def _harmless(node: ast.expr | None, receiver: str) -> bool:
    """An expression that only reads: its calls are of a builtin that reads or of another module's name
    (`sk.zeros(self.n, f32, self.stream)`), none a method the ownership table knows or one of the receiver's."""
    if node is None:
        return True
    for sub in all_nodes(node):
        if isinstance(sub, ast.NamedExpr | ast.Await | ast.Yield | ast.YieldFrom | ast.Lambda):
            return False
        if isinstance(sub, ast.Call):
            func = sub.func
            if isinstance(func, ast.Name):
                if func.id not in _HARMLESS_BUILTINS:
                    return False
            elif isinstance(func, ast.Attribute):
                root = _dotted(func)
                if root is None or root.split(".")[0] == receiver or func.attr in _OWNERSHIP_METHODS:
                    return False
            else:
                return False
    return True


def _property_returns(stmt: ast.stmt) -> tuple[tuple[tuple[str, ...], ...], bool] | None:
    """A `@property` (or `@functools.cached_property`) `def name(self)` whose body only tests and returns (`if`
    statements and `return`s): the receiver's attribute paths its returns may give (also through `a if c else b`
    and `a or b`), and whether some return gives anything else (a new value); None for any other body."""
    if not isinstance(stmt, ast.FunctionDef) or len(stmt.decorator_list) != 1:
        return None
    receiver = _receiver_param(stmt)
    if _dotted(stmt.decorator_list[0]) not in PROPERTY_DECORATORS or receiver is None:
        return None
    paths: list[tuple[str, ...]] = []
    fresh = False

    def value(node: ast.expr | None) -> bool:
        nonlocal fresh
        if isinstance(node, ast.IfExp):
            return _harmless(node.test, receiver) and value(node.body) and value(node.orelse)
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            return all(value(v) for v in node.values)
        path = receiver_path(node, receiver)
        if path is not None:
            paths.append(path)
            return True
        if node is not None and _harmless(node, receiver):
            fresh = True
            return True
        return False

    def block(body: list[ast.stmt]) -> bool:
        for sub in body:
            if isinstance(sub, ast.Return):
                if not value(sub.value):
                    return False
            elif isinstance(sub, ast.If):
                if not (_harmless(sub.test, receiver) and block(sub.body) and block(sub.orelse)):
                    return False
            elif not isinstance(sub, ast.Pass):
                return False
        return True

    if not block(_only_statements(stmt)) or not paths:
        return None
    return tuple(dict.fromkeys(paths)), fresh


def _accessor_path(stmt: ast.stmt, sequences: frozenset[str] = frozenset()) -> tuple[str, ...] | None:
    """`def target(self): return self.a.b` (undecorated, taking only its receiver) as `("a", "b")`.  Also a peek
    at a deque or list attribute (`sequences`, `_sequence_attributes`) at a literal index (`return self.free[0]`,
    `self.free[-1]`: `calls.peeked_path`), after guards that raise or return a new value (`if not self.free:
    return sk.zeros(...)`, `_peek_makes_new`), through one name bound to it right before the return (`buf =
    self.free[0]; return buf`)."""
    if not isinstance(stmt, ast.FunctionDef) or stmt.decorator_list:
        return None
    receiver = _receiver_param(stmt)
    body = _only_statements(stmt)
    if receiver is None or len(body) != 1 or not isinstance(body[0], ast.Return):
        return None if receiver is None or not sequences else _peek_path(body, receiver, sequences)
    found = receiver_path(body[0].value, receiver)
    return found if found is not None or not sequences else _peek_path(body, receiver, sequences)


def _peek_makes_new(stmt: ast.stmt, sequences: frozenset[str]) -> bool:
    """Whether an accessor peeking at a sequence (`_accessor_path`) returns a new value from one of its guards
    (`if not self.free: return sk.zeros(...)`): its call is then that item or a new value."""
    receiver = _receiver_param(stmt) if isinstance(stmt, ast.FunctionDef) else None
    if receiver is None or not isinstance(stmt, ast.FunctionDef) or _accessor_path(stmt, sequences) is None:
        return False
    return any(isinstance(g, ast.If) and isinstance(g.body[-1], ast.Return) for g in _only_statements(stmt)[:-1])


def _peek_path(body: list[ast.stmt], receiver: str, sequences: frozenset[str]) -> tuple[str, ...] | None:
    """The peeked path a method body of guards, a binding and a return gives (`_accessor_path`), else None.  A
    guard is an `if` with no `else` whose test only reads and whose body raises, or returns a new value that only
    reads to be made (`return sk.zeros(self.n, f32, self.stream)`)."""
    if not body or not isinstance(body[-1], ast.Return):
        return None
    returned, guards = body[-1].value, body[:-1]
    if (
        isinstance(returned, ast.Name)
        and guards
        and isinstance(bound := guards[-1], ast.Assign)
        and len(bound.targets) == 1
        and isinstance(bound.targets[0], ast.Name)
        and bound.targets[0].id == returned.id
    ):
        returned, guards = bound.value, guards[:-1]
    if not all(
        isinstance(g, ast.If) and not g.orelse and _harmless(g.test, receiver) and len(g.body) == 1
        and (
            isinstance(g.body[0], ast.Raise)
            or (isinstance(g.body[0], ast.Return) and isinstance(g.body[0].value, ast.Call)
                and _harmless(g.body[0].value, receiver))
        )
        for g in guards
    ):
        return None
    if not isinstance(returned, ast.Subscript):
        return None
    index = _index_literal(returned.slice)
    base = receiver_path(returned.value, receiver)
    if base is None or base[-1] not in sequences or index is None:
        return None
    return calls.peeked_path(base, index)


def _index_literal(node: ast.expr) -> int | None:
    """An integer literal index, negative ones included (`-1` is a unary minus of `1` in the tree)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _index_literal(node.operand)
        return -inner if inner is not None else None
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


#: Calls that make a new, empty sequence a peek may read once it is filled (`_sequence_attributes`).
_SEQUENCE_FACTORIES: Final[frozenset[str]] = frozenset({"deque", "collections.deque", "list"})


def _sequence_attributes(cls: ast.ClassDef) -> frozenset[str]:
    """The attributes a method of `cls` binds on its receiver to a `deque(...)` call (`self.free = deque(...)`,
    also annotated, `collections.deque(...)`) or to a new list (`[]`, `list()`), and the fields its body declares
    with such a default (`free: list[Buf] = field(default_factory=list)`): the sequences whose items an accessor
    may peek at (`_accessor_path`).  A list bound to a display of items is left to the rules for stored items."""

    def new_sequence(value: ast.expr | None) -> bool:
        if isinstance(value, ast.List):
            return not value.elts
        if not isinstance(value, ast.Call):
            return False
        name = _dotted(value.func)
        if name in _SEQUENCE_FACTORIES:
            return name != "list" or not value.args
        return name in ("field", "dataclasses.field") and any(
            k.arg == "default_factory" and _dotted(k.value) in _SEQUENCE_FACTORIES for k in value.keywords
        )

    found: set[str] = set()
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and new_sequence(stmt.value):
            found.add(stmt.target.id)  # a dataclass field
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) or not method.args.args:
            continue
        receiver = method.args.args[0].arg
        for node in ast.walk(method):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AnnAssign) else []
            value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
            if not new_sequence(value):
                continue
            for target in targets:
                path = receiver_path(target, receiver)
                if path is not None and len(path) == 1:
                    found.add(path[0])
    return frozenset(found)


def _item_path(stmt: ast.stmt) -> tuple[str, ...] | None:
    """`def __getitem__(self, key): return self.a.b[key]` (undecorated) as `("a", "b")`; also any method of that
    shape (`def get(self, key)`), and a memoizing one that first stores a new item under a missing key (`if key
    not in self.a.b: self.a.b[key] = sk.zeros(...)`): either way the call returns the object stored under its key,
    the same one at each call with that key (what the store evaluates is not followed)."""
    if not isinstance(stmt, ast.FunctionDef) or stmt.decorator_list:
        return None
    args = stmt.args
    if len(args.args) != 2 or args.posonlyargs or args.kwonlyargs or args.vararg or args.kwarg:
        return None
    body = _only_statements(stmt)
    key, receiver = args.args[1].arg, args.args[0].arg
    stored: tuple[str, ...] | None = None  # the memoizing store's path, which the return must read
    if len(body) == 2 and isinstance(memo := body[0], ast.If) and not memo.orelse and len(memo.body) == 1:
        test, store = memo.test, memo.body[0]
        if not (
            isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == key
            and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotIn)
            and isinstance(store, ast.Assign) and len(store.targets) == 1
            and isinstance(target := store.targets[0], ast.Subscript)
            and isinstance(target.slice, ast.Name) and target.slice.id == key
            and (stored := receiver_path(test.comparators[0], receiver)) is not None
            and receiver_path(target.value, receiver) == stored
        ):
            return None
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Subscript):
        return None
    value = body[0].value
    if not (isinstance(value.slice, ast.Name) and value.slice.id == key):
        return None
    found = receiver_path(value.value, receiver)
    return found if stored is None or found == stored else None


def _iterated_attributes(stmt: ast.stmt) -> tuple[tuple[str, ...], ...] | None:
    """`def __iter__(self): return iter((self.a, self.b))` (a tuple or list display) or `yield self.a` /
    `yield self.b` statements: the receiver's attribute paths it gives, in order."""
    if not isinstance(stmt, ast.FunctionDef) or stmt.name != "__iter__" or stmt.decorator_list:
        return None
    receiver = _receiver_param(stmt)
    body = _only_statements(stmt)
    if receiver is None or not body:
        return None
    items: list[ast.expr | None] = []
    if len(body) == 1 and isinstance(body[0], ast.Return):
        value = body[0].value
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "iter"
                and len(value.args) == 1 and not value.keywords and isinstance(value.args[0], ast.Tuple | ast.List)):
            return None
        items = list(value.args[0].elts)
    elif all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Yield) for s in body):
        items = [s.value.value for s in body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Yield)]
    else:
        return None
    paths = tuple(receiver_path(item, receiver) for item in items)
    if not paths or any(p is None for p in paths):
        return None
    return tuple(p for p in paths if p is not None)


def static_method(
    lowerer: FunctionLowerer, owner: str, name: str, classes: ModuleClasses, kind: str | None = "staticmethod"
) -> ast.FunctionDef | None:
    """`Class.name` of a top-level class not shadowed here, when its body defines `name` as a plain function
    whose only decorator is `@staticmethod` (`kind`; or `@classmethod`, whose first parameter the class binds;
    None: either): its body runs at the call, with no receiver."""
    cls = classes.classes.get(owner)
    if cls is None or (owner in lowerer.local_names and lowerer.unit.kind != "module"):
        return None
    found = classes.unbound_method(cls, name)
    return found[0] if found is not None and kind in (None, found[1]) else None


def plain_unbound(stmt: ast.AST) -> tuple[ast.FunctionDef, str] | None:
    """`stmt` with its decorator's name when it is a plain function whose only decorator is `@staticmethod` or
    `@classmethod` and whose body does not suspend (a generator or coroutine runs later, not at the call)."""
    if not isinstance(stmt, ast.FunctionDef) or len(stmt.decorator_list) != 1:
        return None
    decorator = stmt.decorator_list[0]
    if not (isinstance(decorator, ast.Name) and decorator.id in ("staticmethod", "classmethod")):
        return None
    suspends = any(isinstance(sub, ast.Yield | ast.YieldFrom | ast.Await) for sub in _walk_body(stmt.body))
    return None if suspends else (stmt, decorator.id)


def _plain_method(lowerer: FunctionLowerer, owner: str, name: str, classes: ModuleClasses) -> ast.FunctionDef | None:
    """The undecorated method `name` of the top-level class `owner` (not shadowed here) that builds its objects
    plainly (no metaclass, no `__new__`), found along its chain of bases of this module."""
    cls = classes.classes.get(owner)
    if cls is None or cls.keywords or (owner in lowerer.local_names and lowerer.unit.kind != "module"):
        return None
    if any(isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == "__new__" for s in cls.body):
        return None
    found = classes.method(cls, name)
    if found is None or found.decorator_list or not (found.args.posonlyargs or found.args.args):
        return None
    return found


def _assigned_class(targets: Sequence[ast.expr], value: ast.expr | None, classes: ModuleClasses) -> ast.ClassDef | None:
    """The class of the module whose object `name = value` binds (one target): `Class(...)`, or a classmethod
    returning `cls(...)` (`planar = Planar.allocate(n, stream)`); else None."""
    if len(targets) != 1 or not isinstance(value, ast.Call):
        return None
    if isinstance(value.func, ast.Name):
        return classes.classes.get(value.func.id)
    if (
        isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Name)
        and (owner := classes.classes.get(value.func.value.id)) is not None
        and classes.factory_method(owner, value.func.attr) is not None
    ):
        return owner
    return None


@dataclass(frozen=True)
class BindingIndex:
    """Where a body binds each name, for `reaching.reaching`: each statement's path (by `id`), each name's bindings
    (its path, and the class of the module the binding makes an object of, or None), the loops' paths."""

    paths: dict[int, reaching.Path]
    bindings: dict[str, list[tuple[reaching.Path, ast.ClassDef | None]]]
    loops: frozenset[reaching.Path]


def _binding_index(body: list[ast.stmt], classes: ModuleClasses) -> BindingIndex:
    """The `BindingIndex` of a function's body (not entering nested functions and classes)."""
    paths: dict[int, reaching.Path] = {}
    bindings: dict[str, list[tuple[reaching.Path, ast.ClassDef | None]]] = {}
    loops: set[reaching.Path] = set()

    def visit(stmts: list[ast.stmt], prefix: reaching.Path, block: int) -> None:
        for index, stmt in enumerate(stmts):
            path = (*prefix, (block, index))
            paths[id(stmt)] = path
            for name, cls in _statement_bindings(stmt, classes):
                bindings.setdefault(name, []).append((path, cls))
            if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
                loops.add(path)
            if isinstance(stmt, _SCOPES):
                continue
            for number, (child, caught) in enumerate(_statement_blocks(stmt)):
                if caught is not None:  # `except E as caught:` binds at the start of its handler
                    bindings.setdefault(caught, []).append(((*path, (number, -1)), None))
                visit(child, path, number)

    visit(body, (), 0)
    return BindingIndex(paths, bindings, frozenset(loops))


def _statement_blocks(stmt: ast.stmt) -> Iterator[tuple[list[ast.stmt], str | None]]:
    """The statement lists of a compound statement in source order, each with the name its `except` binds."""
    for field in stmt._fields:
        value = getattr(stmt, field, None)
        if field in ("body", "orelse", "finalbody") and isinstance(value, list):
            yield value, None
        elif field == "handlers" and isinstance(value, list):
            for handler in value:
                yield handler.body, handler.name
        elif field == "cases" and isinstance(value, list):
            for case in value:
                yield case.body, None


def _statement_bindings(stmt: ast.stmt, classes: ModuleClasses) -> list[tuple[str, ast.ClassDef | None]]:
    """The names `stmt` itself binds (not the statements nested in it), each with the class of the module whose
    object it binds (`_assigned_class`, a `with Class(...) as name:` entering its receiver) or None."""
    out: list[tuple[str, ast.ClassDef | None]] = []
    if isinstance(stmt, ast.Assign | ast.AnnAssign):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        cls = _assigned_class(targets, stmt.value, classes)
        for target in targets:
            out.extend((name, cls if isinstance(target, ast.Name) else None) for name in sorted(_stored(target)))
    elif isinstance(stmt, ast.With | ast.AsyncWith):
        for item in stmt.items:
            if item.optional_vars is None:
                continue
            entered = _entered_class(item.context_expr, classes) if isinstance(item.optional_vars, ast.Name) else None
            out.extend((name, entered) for name in sorted(_stored(item.optional_vars)))
    elif isinstance(stmt, ast.AugAssign | ast.For | ast.AsyncFor | ast.Delete):
        out.extend((name, None) for bound in _binding_targets(stmt) for name in sorted(_stored(bound)))
    elif isinstance(stmt, _SCOPES) and not isinstance(stmt, ast.Lambda):
        out.append((stmt.name, None))
    elif isinstance(stmt, ast.Import | ast.ImportFrom):
        out.extend((a.asname or a.name.split(".")[0], None) for a in stmt.names)
    elif isinstance(stmt, ast.Global | ast.Nonlocal):
        out.extend((name, None) for name in stmt.names)
    elif isinstance(stmt, ast.Match):
        for case in stmt.cases:
            out.extend((name, None) for name in sorted(_pattern_names(case.pattern)))
    for child in ast.iter_child_nodes(stmt):
        if isinstance(child, ast.stmt | ast.ExceptHandler | ast.match_case):
            continue
        for node in ast.walk(child):
            if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
                out.append((node.target.id, None))
    return out


def _pattern_names(pattern: ast.pattern) -> set[str]:
    """The names a `match` pattern captures."""
    found: set[str] = set()
    for node in ast.walk(pattern):
        if isinstance(node, ast.MatchAs | ast.MatchStar) and node.name is not None:
            found.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest is not None:
            found.add(node.rest)
    return found


def _instance_classes(body: list[ast.stmt], classes: ModuleClasses) -> dict[str, ast.ClassDef | None]:
    """For every name the body binds, the class it is an instance of when the body binds it only by
    `name = Class(...)` (one class), else None: one walk answers every name."""
    found: dict[str, ast.ClassDef | None] = {}
    poisoned: set[str] = set()
    for sub in _walk_body(body):
        if isinstance(sub, ast.Assign | ast.AnnAssign):
            targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
            cls = _assigned_class(targets, sub.value, classes)
            for t in targets:
                if isinstance(t, ast.Name):
                    previous = found.get(t.id)
                    if cls is None or (previous is not None and previous.name != cls.name):
                        poisoned.add(t.id)
                    else:
                        found[t.id] = cls
                else:
                    poisoned.update(_stored(t))
        elif isinstance(sub, ast.With):
            for item in sub.items:
                entered = _entered_class(item.context_expr, classes)
                if entered is not None and isinstance(item.optional_vars, ast.Name):
                    # `with Overlap(s) as ov:` of an `__enter__` returning its receiver: `ov` is that object
                    previous = found.get(item.optional_vars.id)
                    if previous is not None and previous.name != entered.name:
                        poisoned.add(item.optional_vars.id)
                    found[item.optional_vars.id] = entered
                elif item.optional_vars is not None:
                    poisoned.update(_stored(item.optional_vars))
        elif isinstance(sub, ast.AugAssign | ast.For | ast.AsyncFor | ast.NamedExpr | ast.Delete):
            for bound in _binding_targets(sub):
                poisoned.update(_stored(bound))
        elif isinstance(sub, ast.ExceptHandler) and sub.name is not None:
            poisoned.add(sub.name)
        elif isinstance(sub, _SCOPES) and not isinstance(sub, ast.Lambda):
            poisoned.add(sub.name)
        elif isinstance(sub, ast.Import | ast.ImportFrom):
            poisoned.update(a.asname or a.name.split(".")[0] for a in sub.names)
    return {name: (None if name in poisoned else cls) for name, cls in found.items()}


def _entered_class(node: ast.expr, classes: ModuleClasses) -> ast.ClassDef | None:
    """The class of `Class(...)`, a class of the module whose `__enter__` gives back its receiver on every path and
    which has an `__exit__`: what `with Class(...) as name:` binds `name` to is then an object of that class."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    cls = classes.classes.get(node.func.id)
    if cls is None:
        return None
    enter = classes.method(cls, "__enter__")
    if enter is None or classes.method(cls, "__exit__") is None or not _returns_receiver(enter):
        return None
    return cls


def _constructed_classes(node: ast.expr | None, classes: ModuleClasses) -> tuple[ast.ClassDef, ...] | None:
    """The classes of a list or tuple display whose every item is `Class(...)` of a class of the module."""
    if not isinstance(node, ast.List | ast.Tuple) or not node.elts:
        return None
    found: list[ast.ClassDef] = []
    for item in node.elts:
        cls = (
            classes.classes.get(item.func.id)
            if isinstance(item, ast.Call) and isinstance(item.func, ast.Name)
            else None
        )
        if cls is None:
            return None
        found.append(cls)
    return tuple(dict.fromkeys(found))


def _class_objects(node: ast.expr | None, classes: ModuleClasses) -> tuple[ast.ClassDef, ...] | None:
    """The classes of a list or tuple display whose every item names a class of the module (`[Fresh, InPlace]`):
    the class objects a `for` over it takes, each called to make an object of exactly that class."""
    if not isinstance(node, ast.List | ast.Tuple) or not node.elts:
        return None
    found = [classes.classes.get(item.id) if isinstance(item, ast.Name) else None for item in node.elts]
    return tuple(dict.fromkeys(c for c in found if c is not None)) if all(found) else None


def _loop_items(target: ast.expr, iterable: ast.expr) -> list[tuple[str, ast.expr]]:
    """The names a `for` target takes from whole items of a display: the target name itself, or each name of a
    tuple target over `zip(a, b)` (the name at position i takes `a`'s items when i is 0; `strict=` changes no item)
    or `enumerate(a)` (the second name)."""
    if isinstance(target, ast.Name):
        return [(target.id, iterable)]
    if not (isinstance(target, ast.Tuple) and all(isinstance(t, ast.Name) for t in target.elts)
            and isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name)
            and all(k.arg == "strict" for k in iterable.keywords)
            and not any(isinstance(a, ast.Starred) for a in iterable.args)):
        return []
    names = [t.id for t in target.elts if isinstance(t, ast.Name)]
    if iterable.func.id == "zip" and len(iterable.args) == len(names):
        return list(zip(names, iterable.args, strict=True))
    if iterable.func.id == "enumerate" and len(iterable.args) == 1 and len(names) == 2:
        return [(names[1], iterable.args[0])]
    return []


def _loop_classes(body: list[ast.stmt], classes: ModuleClasses) -> dict[str, tuple[ast.ClassDef, ...]]:
    """For every name the body binds only as the target of one `for` over a display of constructor calls of the
    module's classes (`for stage in [Fresh(...), InPlace(...)]`, or over a name the body binds only to such a
    display), the classes its object may be an instance of (each exactly).  Also a name the body binds only by
    `stage = kind(...)`, `kind` bound only by one `for` over a display of the module's classes themselves
    (`for kind, bias in zip([Fresh, InPlace], biases)`): an object of each of them, each exactly."""
    count: dict[str, int] = {}
    displays: dict[str, tuple[ast.ClassDef, ...] | None] = {}
    kinds: dict[str, tuple[ast.ClassDef, ...] | None] = {}
    made: list[tuple[str, str]] = []
    loops: list[tuple[str, ast.expr]] = []
    for sub in _walk_body(body):
        bound: set[str] = set()
        if isinstance(sub, ast.Assign | ast.AnnAssign):
            targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
            for t in targets:
                bound.update(_stored(t))
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                displays[targets[0].id] = _constructed_classes(sub.value, classes)
                kinds[targets[0].id] = _class_objects(sub.value, classes)
                if isinstance(sub.value, ast.Call) and isinstance(sub.value.func, ast.Name):
                    made.append((targets[0].id, sub.value.func.id))
        elif isinstance(sub, ast.AugAssign | ast.For | ast.AsyncFor | ast.NamedExpr | ast.Delete | ast.With):
            for target in _binding_targets(sub):
                bound.update(_stored(target))
            if isinstance(sub, ast.For):
                loops.extend(_loop_items(sub.target, sub.iter))
        elif isinstance(sub, ast.ExceptHandler) and sub.name is not None:
            bound.add(sub.name)
        elif isinstance(sub, _SCOPES) and not isinstance(sub, ast.Lambda):
            bound.add(sub.name)
        elif isinstance(sub, ast.Import | ast.ImportFrom):
            bound.update(a.asname or a.name.split(".")[0] for a in sub.names)
        for name in bound:
            count[name] = count.get(name, 0) + 1
    found: dict[str, tuple[ast.ClassDef, ...]] = {}
    called: dict[str, tuple[ast.ClassDef, ...]] = {}
    for name, iterable in loops:
        if count.get(name) != 1:
            continue
        if isinstance(iterable, ast.Name):
            once = count.get(iterable.id) == 1
            each = displays.get(iterable.id) if once else None
            kind = kinds.get(iterable.id) if once else None
        else:
            each, kind = _constructed_classes(iterable, classes), _class_objects(iterable, classes)
        if each is not None:
            found[name] = each
        if kind is not None:
            called[name] = kind
    for name, func in made:
        if count.get(name) == 1 and func in called:
            found[name] = called[func]
    return found


def _bound_only_to_class(lowerer: FunctionLowerer, name: str, classes: ModuleClasses) -> ast.ClassDef | None:
    """The class `name` is an instance of when this body binds it only by `name = Class(...)`, or where the
    statement being lowered is reached only by such a binding (`reaching.reaching`: `held = Holder(...)` before
    a later `with ... as held:`)."""
    if not classes.classes:
        return None  # no class of this module to be an instance of: no need to walk the body
    node = lowerer.unit.node
    found = classes.instances(node, node.body).get(name)
    statement = lowerer.current_statement
    if found is not None or statement is None:
        return found
    index = classes.binding_index(node, node.body)
    use = index.paths.get(id(statement))
    bindings = index.bindings.get(name)
    return reaching.reaching(bindings, use, index.loops) if use is not None and bindings else None


def _binding_targets(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor | ast.NamedExpr):
        return [node.target]
    if isinstance(node, ast.Delete):
        return list(node.targets)
    if isinstance(node, ast.With):
        return [i.optional_vars for i in node.items if i.optional_vars is not None]
    return []


def _stored(target: ast.AST) -> set[str]:
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Tuple | ast.List):
        return set().union(*(_stored(e) for e in target.elts)) if target.elts else set()
    if isinstance(target, ast.Starred):
        return _stored(target.value)
    return set()


def _receiver_class(lowerer: FunctionLowerer, name: str, classes: ModuleClasses) -> ast.ClassDef | None:
    node = lowerer.unit.node
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        owner = classes.owner.get(id(node))
        if owner is not None and positional and positional[0].arg == name and not node.decorator_list:
            # a summary for a receiver of a subclass: `self` is one of it (the overrides it runs are its own)
            chosen = lowerer.unit.receiver_class
            return classes.classes.get(chosen, owner) if chosen is not None else owner
        for param in [*positional, *args.kwonlyargs]:
            if param.arg == name:
                note = param.annotation
                text = note.id if isinstance(note, ast.Name) else None
                if isinstance(note, ast.Constant) and isinstance(note.value, str):
                    text = note.value
                if text is not None and text in classes.classes:
                    return classes.classes[text]
                return None
        if args.vararg is not None and args.vararg.arg == name:
            return None
        if args.kwarg is not None and args.kwarg.arg == name:
            return None
    return _bound_only_to_class(lowerer, name, classes)


def receiver_classes(lowerer: FunctionLowerer, name: str) -> tuple[ast.ClassDef, ...] | None:
    """The classes of this module whose methods a call on `name` may run here: its class when that is exact
    (`self`, a name bound only by `name = Class(...)`), that class and every subclass of the module when `name` is
    a parameter annotated with it, and each class of a display a `for` takes `name` from (`_loop_classes`)."""
    classes = lowerer.ctx.classes
    cls = _receiver_class(lowerer, name, classes)
    if cls is not None:
        return (cls,) if _exact_receiver(lowerer, name, classes) else (cls, *classes.subclasses(cls))
    if not classes.classes or name in _param_names_of(lowerer.unit.node):
        return None
    node = lowerer.unit.node
    return classes.loop_instances(node, node.body).get(name)


def _param_names_of(node: ast.AST) -> set[str]:
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return set()
    args = node.args
    found = {p.arg for p in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    found.update(p.arg for p in (args.vararg, args.kwarg) if p is not None)
    return found


def _applied_method(
    lowerer: FunctionLowerer,
    name: str,
    method: str,
    receiver: calls.Operand[ast.expr],
    args: tuple[calls.Operand[ast.expr], ...],
    span: Span,
    candidates: tuple[ast.ClassDef, ...] | None = None,
    iterated: bool = False,
) -> AppliedSummary[ast.expr] | None:
    """The summary of `name.method(...)` (also `name(...)`, with `method` `__call__`): the method of the first
    class `receiver_classes` gives, with every other class's override it may run instead as `others` (the call
    may run any of them).  With `iterated`, a generator method too (the caller takes its items)."""
    if candidates is None:
        candidates = receiver_classes(lowerer, name) or _classes_defining(lowerer, name, method, receiver)
    if not candidates:
        return None
    applied = _method_applied(lowerer, candidates[0], method, receiver, args, span, iterated)
    if applied is None:
        return None
    others: list[AppliedSummary[ast.expr]] = []
    for cls in candidates[1:]:
        other = _method_applied(lowerer, cls, method, receiver, args, span, iterated)
        if other is not None and other.summary != applied.summary and all(o.summary != other.summary
                                                                         for o in others):
            others.append(other)
    return replace(applied, others=tuple(others)) if others else applied


def _method_applied(
    lowerer: FunctionLowerer,
    cls: ast.ClassDef,
    method: str,
    receiver: calls.Operand[ast.expr],
    args: tuple[calls.Operand[ast.expr], ...],
    span: Span,
    iterated: bool,
) -> AppliedSummary[ast.expr] | None:
    """The summary of the method `method` an object of `cls` runs at the call: a plain one on the object, a
    `@staticmethod` with no receiver (its first parameter takes the first argument), a `@classmethod` with the
    object standing for its class."""
    classes = lowerer.ctx.classes
    found = classes.method(cls, method, iterated)
    if found is not None:
        return _applied(lowerer, found, receiver, False, args, span, receiver_class=cls)
    unbound = classes.unbound_method(cls, method)
    if unbound is None:
        return None
    function, kind = unbound
    return _applied(lowerer, function, receiver if kind == "classmethod" else None, False, args, span)


def property_summary(lowerer: FunctionLowerer, node: ast.Attribute) -> AppliedSummary[ast.expr] | None:
    """The summary of the getter `farm.total_power` runs, a `@property` of the class of `farm` (`receiver_classes`,
    the first one: `ModuleClasses.getter`): reading the attribute calls it, so its launches, borrows and moves
    happen there, as a call of a method would."""
    classes = lowerer.ctx.classes
    if lowerer.kernel_body or not classes.has_getters or not isinstance(node.value, ast.Name):
        return None
    candidates = receiver_classes(lowerer, node.value.id) or _getter_classes(lowerer, node.value.id, node.attr)
    getter = classes.getter(candidates[0], node.attr) if candidates else None
    if getter is None or candidates is None:
        return None
    receiver = lowerer.operand(node.value, with_view=False)
    return _applied(lowerer, getter, receiver, False, (), lowerer.span(node), receiver_class=candidates[0])


def _getter_classes(lowerer: FunctionLowerer, name: str, attr: str) -> tuple[ast.ClassDef, ...]:
    """The class whose getter `name.attr` runs on an object of a class the checker does not know (a name a loop
    rebinds to a helper's result): the one class of the module defining a `@property` `attr`, as a method call on
    such an object dispatches by name (`_classes_defining`); none when several classes define it, or the receiver is
    a class, an imported name or a device value."""
    classes = lowerer.ctx.classes
    if name in classes.classes or name in lowerer.ctx.summary.imports:
        return ()
    defining = [cls for cls in classes.classes.values() if classes.getter(cls, attr) is not None]
    if len(defining) != 1 or not callables.dispatches_by_name(attr, lowerer.operand(ast.Name(name, ast.Load()))):
        return ()
    return (defining[0],)


def _held_callable(
    lowerer: FunctionLowerer, func: ast.Attribute, name: str, args: tuple[calls.Operand[ast.expr], ...], span: Span
) -> AppliedSummary[ast.expr] | None:
    """`self.residual(x, out)` where the receiver's class (known, and known to its root) defines no method
    `residual` but stores `self.residual = ...`: the attribute holds a callable object, whose class's `__call__`
    runs (dispatch by name, `_classes_defining`)."""
    classes = lowerer.ctx.classes
    candidates = receiver_classes(lowerer, name)
    if not candidates:
        return None
    for cls in candidates:
        chain = classes.complete_chain(cls)
        if chain is None:
            return None  # a base of another module may define it
        if any(isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == func.attr for c in chain
               for s in c.body):
            return None
        if not any(func.attr in _assigned_attributes(c) for c in chain):
            return None
    held = lowerer.operand(func, with_view=False)
    defining = _classes_defining(lowerer, name, "__call__", held)
    return _applied_method(lowerer, name, "__call__", held, args, span, defining)


def _assigned_attributes(cls: ast.ClassDef) -> set[str]:
    """The attribute names an assignment in the class's methods binds (`self.residual = Residual(...)`)."""
    out: set[str] = set()
    for stmt in all_nodes(cls):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
            stmt, ast.AnnAssign
        ) else []
        for target in targets:
            for t in target.elts if isinstance(target, ast.Tuple | ast.List) else [target]:
                if isinstance(t, ast.Attribute):
                    out.add(t.attr)
    return out


def _enum_member_class(node: ast.expr, classes: ModuleClasses) -> tuple[ast.ClassDef, ...]:
    """`(Mode,)` for `Mode.FAST` of a class of the module derived from an enum base (`callables.ENUM_BASES`): its
    members are instances of it, so `Mode.FAST.run(x)` runs `Mode.run`; `()` for anything else."""
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        return ()
    cls = classes.classes.get(node.value.id)
    bases = [b.attr if isinstance(b, ast.Attribute) else b.id if isinstance(b, ast.Name) else "" for b in (
        cls.bases if cls is not None else ()
    )]
    return (cls,) if cls is not None and any(b in callables.ENUM_BASES for b in bases) else ()


def _root_name(node: ast.expr) -> str | None:
    """The name an attribute chain starts from (`self` of `self.norm`), or None when it starts elsewhere."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def called_classes(lowerer: FunctionLowerer, receiver: ast.Name, method: str) -> tuple[ast.ClassDef, ...] | None:
    """The classes whose `method` `receiver.method(...)` may run, as a call there dispatches (`_applied_method`):
    the receiver's classes where they are known, else each class of the module defining the method."""
    found = receiver_classes(lowerer, receiver.id)
    if found:
        return found
    operand = lowerer.operand(receiver, with_view=False)
    return _classes_defining(lowerer, receiver.id, method, operand) or None


def _builtin_reference(lowerer: FunctionLowerer, name: str) -> bool:
    """Whether `name` can only be Python's builtin of that name (`sorted`, `print`, `zip`): no function, class,
    import or assignment of the module, nor the function or those it is nested in, binds it.  mypy resolves such a
    name to `builtins` itself; the CLI must not read it as an object whose `__call__` may run."""
    ctx = lowerer.ctx
    return (
        name in _BUILTIN_NAMES
        and name not in lowerer.enclosing_names()
        and name not in ctx.toplevel
        and name not in ctx.module_bound()
        and name not in ctx.summary.imports
    )


_BUILTIN_NAMES: Final[frozenset[str]] = frozenset(vars(builtins))


def _classes_defining(
    lowerer: FunctionLowerer, name: str, method: str, receiver: calls.Operand[ast.expr]
) -> tuple[ast.ClassDef, ...]:
    """The classes of the module whose `method` a call on `name`, an object of a class the checker does not know,
    may run (`callables.dispatches_by_name`): each top-level class that defines it (or inherits it from a class
    of the module), one per definition; none when `name` is a class of the module or a name the file imports."""
    classes = lowerer.ctx.classes
    if name in classes.classes or name in lowerer.ctx.summary.imports or not callables.dispatches_by_name(
        method, receiver
    ):
        return ()
    if _bound_to_class(lowerer.unit.node, name, classes):
        return ()  # `for made in (Base, Sub): made(dev, s)` constructs objects, it runs no `__call__`
    found: dict[int, ast.ClassDef] = {}
    for cls in classes.classes.values():
        definition = classes.method(cls, method)
        if definition is not None:
            found.setdefault(id(definition), cls)
    return tuple(found.values())


def _bound_to_class(unit: ast.AST, name: str, classes: ModuleClasses) -> bool:
    """Whether the unit binds `name` to a class of the module: `made = Base`, or a `for` over a display naming one
    (`for made in (Base, Sub):`)."""

    def names_class(node: ast.expr) -> bool:
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(names_class(e) for e in node.elts)
        return isinstance(node, ast.Name) and node.id in classes.classes

    for sub in _walk_body(getattr(unit, "body", [])):
        if isinstance(sub, ast.For | ast.AsyncFor) and isinstance(sub.target, ast.Name) and sub.target.id == name:
            if names_class(sub.iter):
                return True
        elif isinstance(sub, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in sub.targets):
            if names_class(sub.value):
                return True
    return False


def held_object_method(lowerer: FunctionLowerer, func: ast.Attribute) -> tuple[ast.ClassDef, ast.FunctionDef] | None:
    """`self.workspace.get` of an object an attribute holds: the one class of the module defining the method and its
    definition, when exactly one does (the by-name dispatch `_classes_defining` follows), else None."""
    root = _root_name(func.value)
    classes = lowerer.ctx.classes
    if root is None or root in classes.classes or root in lowerer.ctx.summary.imports:
        return None
    if not callables.dispatched_method_name(func.attr):
        return None
    found = {id(d): (cls, d) for cls in classes.classes.values() if (d := classes.method(cls, func.attr)) is not None}
    return next(iter(found.values())) if len(found) == 1 else None


_PROPERTY: Final[str] = ast.dump(ast.Name("property", ast.Load()))


def _written_as_view(node: ast.expr | None) -> bool:
    """Whether an expression is spelled as a view of something (`x[a:b]`, `x.view(a, b)`)."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Slice)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == calls.VIEW_METHOD


def view_receiver_classes(
    lowerer: FunctionLowerer, func: ast.Attribute, getter: bool
) -> tuple[str, tuple[ast.ClassDef, ...]] | None:
    """Who answers `obj.name(...)` (or, with `getter`, the read `obj.name` of a `@property`) when following the
    views it returns (`method_returned_views`): this caller's spelling of `obj` and the classes whose method (or
    getter) may run.  `obj` a name: each class `receiver_classes` gives.  `obj` an attribute path of a name
    (`self.arena.tension`, an object a field holds): the one class of the module defining `name`, as a call on an
    object of unknown class dispatches by name (`held_object_method`); none when several do.  A getter must be a
    plain `@property` (`ModuleClasses.plain_getter`: no setter) of a name `view_getter_names` lists."""
    classes = lowerer.ctx.classes
    if not classes.classes or (getter and func.attr not in classes.view_getter_names):
        return None
    if isinstance(func.value, ast.Name):
        candidates = receiver_classes(lowerer, func.value.id)
        return (func.value.id, candidates) if candidates else None
    parts: list[str] = []
    cur: ast.expr = func.value
    while isinstance(cur, ast.Attribute):
        parts.append(cur.attr)
        cur = cur.value
    if not isinstance(cur, ast.Name) or cur.id in classes.classes or cur.id in lowerer.ctx.summary.imports:
        return None
    if not getter and not callables.dispatched_method_name(func.attr):
        return None
    defining = {
        id(found): cls
        for cls in classes.classes.values()
        if (found := classes.plain_getter(cls, func.attr) if getter else classes.method(cls, func.attr)) is not None
    }
    if len(defining) != 1:
        return None
    return ".".join((cur.id, *reversed(parts))), tuple(defining.values())


def receiver_property(
    lowerer: FunctionLowerer, name: str, attr: str
) -> tuple[tuple[tuple[str, ...], ...], bool] | None:
    """What `name.attr` may be when `attr` is a property of each class `receiver_classes` gives that only tests
    and returns (`ModuleClasses.property_returns`) and one of them may give more than one attribute path or a new
    value (`return self._scratch if self._scratch is not None else self.act`; `@cached_property` returning
    `self.out` on one branch): the attribute paths of `name` it may be, and whether it may be a new value.  None
    when some class has no such property, and for a property that is one attribute (`place` makes it that one)."""
    classes = lowerer.ctx.classes
    candidates = receiver_classes(lowerer, name) if classes.with_views else None
    if not candidates:
        return None
    paths: list[tuple[str, ...]] = []
    fresh = False
    for cls in candidates:
        found = classes.property_returns(cls, attr)
        if found is None:
            return None
        paths.extend(found[0])
        fresh = fresh or found[1]
    unique = tuple(dict.fromkeys(paths))
    return (unique, fresh) if len(unique) > 1 or fresh else None


def receiver_accessors(
    lowerer: FunctionLowerer, name: str, method: str
) -> tuple[tuple[tuple[str, ...], ...], bool] | None:
    """The attribute paths `name.method()` may return from `name` (`ModuleClasses.accessor`): the override its
    class runs when that class is exact (`self`, a name bound only by `name = Class(...)`), and every override in
    the module when it is not (a parameter annotated with the class may be given any subclass's object); and
    whether one of them may return a new value instead (`accessor_makes_new`).  None when one is no accessor."""
    classes = lowerer.ctx.classes
    cls = _receiver_class(lowerer, name, classes) if classes.with_views else None
    if cls is None:
        return None
    candidates = [cls] if _exact_receiver(lowerer, name, classes) else [cls, *classes.subclasses(cls)]
    return _accessors_of(classes, candidates, method)


def held_accessors(
    lowerer: FunctionLowerer, func: ast.Attribute
) -> tuple[tuple[tuple[str, ...], ...], bool] | None:
    """`receiver_accessors` for `self.pool.acquire()`, a method of an object an attribute holds, or of a name whose
    class is not known here: the accessor of the one class of the module defining the method (`held_object_method`,
    the by-name dispatch calls follow)."""
    held = held_object_method(lowerer, func) if lowerer.ctx.classes.with_views else None
    return _accessors_of(lowerer.ctx.classes, [held[0]], func.attr) if held is not None else None


def _accessors_of(
    classes: ModuleClasses, candidates: list[ast.ClassDef], method: str
) -> tuple[tuple[tuple[str, ...], ...], bool] | None:
    paths = [classes.accessor(c, method) for c in candidates]
    found = [p for p in paths if p is not None]
    if len(found) != len(paths):
        return None
    return tuple(dict.fromkeys(found)), any(classes.accessor_makes_new(c, method) for c in candidates)


def receiver_items(
    lowerer: FunctionLowerer, name: str, method: str = "__getitem__"
) -> tuple[tuple[str, ...], ...] | None:
    """The attribute paths whose item `name[key]` (or `name.method(key)`) may be (`ModuleClasses.item_accessor`),
    by the rule of `receiver_accessors`: each override of the method the object may run; None when one is no such
    method."""
    classes = lowerer.ctx.classes
    cls = _receiver_class(lowerer, name, classes) if classes.with_views else None
    if cls is None:
        return None
    candidates = [cls] if _exact_receiver(lowerer, name, classes) else [cls, *classes.subclasses(cls)]
    paths = [classes.item_accessor(c, method) for c in candidates]
    found = [p for p in paths if p is not None]
    return tuple(dict.fromkeys(found)) if len(found) == len(paths) else None


def _exact_receiver(lowerer: FunctionLowerer, name: str, classes: ModuleClasses) -> bool:
    """Whether `name`'s class (`_receiver_class`) is exactly its object's: not a parameter annotated with it
    (`self` of a method is its own class's object, or the subclass's a summary is for)."""
    node = lowerer.unit.node
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return True
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    if classes.owner.get(id(node)) is not None and positional and positional[0].arg == name:
        return not node.decorator_list
    return all(p.arg != name for p in [*positional, *args.kwonlyargs])


def class_kernel(lowerer: FunctionLowerer, node: ast.expr) -> KernelSummary | None:
    """The module's kernel `obj.kernel` is when every class a call on `obj` may run a method of
    (`receiver_classes`) reads that name from one class body binding it to that kernel (`kernel = relu`,
    `ModuleClasses.class_value`): `self.kernel.launch(...)` in a method a subclass inherits launches the kernel of
    the receiver's class (a call summary dispatching on a subclass has that class's).  A method checked on its own
    may run for an object of any subclass (whose `__init__` may prepare a launch for `self.kernel` too): there,
    its receiver's classes are its own and every subclass."""
    classes = lowerer.ctx.classes
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)) or not classes.classes:
        return None
    candidates = receiver_classes(lowerer, node.value.id)
    if not candidates:
        return None
    method = lowerer.unit.node
    if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) and lowerer.unit.receiver_class is None:
        positional = [*method.args.posonlyargs, *method.args.args]
        if classes.owner.get(id(method)) is not None and positional and positional[0].arg == node.value.id:
            candidates = (*candidates, *classes.subclasses(candidates[0]))
    values = [classes.class_value(cls, node.attr) for cls in candidates]
    first = values[0]
    if first is None or any(v is not first for v in values):
        return None
    found = lowerer.ctx.kernel(first)
    return found[1] if found is not None else None


def subclass_kernels(lowerer: FunctionLowerer, node: ast.expr) -> tuple[KernelSummary, ...]:
    """`self.kernel` in a method checked on its own whose class's subclasses bind `kernel` to other kernels (where
    `class_kernel` gives none): the kernels of its class and of each subclass that runs this very method with the
    prepared launches its `__init__` stores for the class (`FunctionLowerer.init_brands` equal), since an object of
    such a subclass launches its own kernel with them; () unless there are two or more, each a kernel."""
    classes = lowerer.ctx.classes
    method = lowerer.unit.node
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)) or lowerer.unit.receiver_class:
        return ()
    owner = classes.owner.get(id(method)) if isinstance(method, ast.FunctionDef) else None
    positional = [*method.args.posonlyargs, *method.args.args] if isinstance(method, ast.FunctionDef) else []
    if owner is None or not positional or positional[0].arg != node.value.id or not isinstance(method, ast.FunctionDef):
        return ()
    brands = lowerer.init_brands(owner)
    found: dict[str, KernelSummary] = {}
    for cls in (owner, *classes.subclasses(owner)):
        if cls is not owner and (classes.method(cls, method.name) is not method or lowerer.init_brands(cls) != brands):
            continue
        value = classes.class_value(cls, node.attr)
        kernel = lowerer.ctx.kernel(value) if value is not None else None
        if kernel is None:
            return ()
        found.setdefault(kernel[1].name, kernel[1])
    return tuple(found.values()) if len(found) > 1 else ()


def receiver_class(lowerer: FunctionLowerer, name: str) -> ast.ClassDef | None:
    """The class of this module `name` is an instance of here (`self`, a parameter annotated with the class, a
    name bound only by `name = Class(...)`), the rule method calls follow."""
    return _receiver_class(lowerer, name, lowerer.ctx.classes)


def applied_summary(
    lowerer: FunctionLowerer,
    node: ast.Call,
    method: calls.MethodCall[ast.expr] | None,
    args: tuple[calls.Operand[ast.expr], ...],
    func: ast.expr | None = None,
) -> AppliedSummary[ast.expr] | None:
    """The summary of the function or method `node` calls (`func`: what it calls, when not `node.func`: the
    target of a partial), with its parameters bound, when the checker sees it."""
    if lowerer.kernel_body:
        return None
    func = node.func if func is None else func
    classes = lowerer.ctx.classes
    receiver: calls.Operand[ast.expr] | None = None
    if isinstance(func, ast.Name) and func.id in classes.classes:
        return constructor_summary(lowerer, func, args)
    namespace = namespace_summary(lowerer.stdlib_name(func), args)
    if namespace is not None:  # `SimpleNamespace(src=a, dst=a)`: a constructor call whose fields are its keywords
        return namespace
    choices = function_choices(lowerer, func)
    if choices is not None:
        # `fn(x)` of `for fn in (run_a, run_b)`, `passes["a"](x)`: each function it may run, one arm each
        return callables.any_of([_applied(lowerer, f, None, f in lowerer.helpers.values(), args, lowerer.span(node))
                                 for f in choices])
    if isinstance(func, ast.Name):
        callee = lowerer.helper(func.id)
        if callee is None and method is None:
            if _builtin_reference(lowerer, func.id):
                return None  # `sorted(self.names)`: Python's own function, never an object of the module's class
            # `scaler(b, b)` of an object of the module's class: its `__call__` runs, on that object
            receiver = lowerer.operand(func, with_view=False)
            return _applied_method(lowerer, func.id, "__call__", receiver, args, lowerer.span(node))
        if callee is None or not (
            classes.runs_when_called(callee)
            or (id(node) in lowerer.awaited and classes.runs_when_awaited(callee))
            or (id(node) in lowerer.iterated and classes.runs_when_iterated(callee))
        ):
            return None
        nested = func.id in lowerer.helpers
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and method is not None:
        if method.receiver_kernel is not None or method.receiver_is_safekernels:
            return None
        made = lowerer.generators.get(func.value.id) if func.attr in callables.SENDING_METHODS else None
        if made is not None and len(args) == 1 and isinstance(made.func, ast.Name):
            # `gen.send(x)`: the body resumes with `x` as its `yield`'s value (`callables.sent_into`)
            generator = lowerer.helper(made.func.id)
            if generator is None:
                return None
            sent = _applied(lowerer, generator, None, made.func.id in lowerer.helpers, (), lowerer.span(node))
            return callables.sent_into(sent, args[0])
        static = static_method(lowerer, func.value.id, func.attr, classes)
        if static is not None:
            callee, nested = static, False
            return _applied(lowerer, callee, None, nested, args, lowerer.span(node))
        built_by_class = static_method(lowerer, func.value.id, func.attr, classes, "classmethod")
        if built_by_class is not None:
            # `Cls.build(a, b)` of a `@classmethod`: the class binds its first parameter, the arguments the rest
            return _applied(lowerer, built_by_class, method.receiver, False, args, lowerer.span(node))
        unbound = _plain_method(lowerer, func.value.id, func.attr, classes)
        if unbound is not None and args and not args[0].star and args[0].keyword is None:
            # `Layer.forward(self, x)`: the class's method run on the object the call passes first
            return _unbound_applied(lowerer, classes.classes[func.value.id], unbound, args, lowerer.span(node))
        # a parameter annotated with the class: its object may be one of any subclass, running its overrides
        applied = _applied_method(
            lowerer, func.value.id, func.attr, method.receiver, args, lowerer.span(node),
            iterated=id(node) in lowerer.iterated,
        )
        if applied is None:
            applied = _held_callable(lowerer, func, func.value.id, args, lowerer.span(node))
        return applied
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute) and method is not None:
        # `self.norm.forward(x, out)`: a method of an object an attribute holds, whose class the checker does not
        # track: the module's methods of that name (`callables.dispatches_by_name`)
        root = _root_name(func.value)
        if root is None or method.receiver_kernel is not None or method.receiver_is_safekernels:
            return None
        # (`Mode.FAST.run(x)` of an enum class's member runs that class's method)
        defining = _enum_member_class(func.value, classes) or _classes_defining(
            lowerer, root, func.attr, method.receiver
        )
        return _applied_method(lowerer, root, func.attr, method.receiver, args, lowerer.span(node), defining)
    elif isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id in classes.classes:
        # `Scaler(prep, s)(a, b)`: the `__call__` of the object a constructor call of the module builds right there
        built_class = classes.classes[func.func.id]
        call_method = _plain_method(lowerer, func.func.id, "__call__", classes)
        if call_method is None:
            return None
        receiver = lowerer.operand(func, with_view=False)
        return _applied(lowerer, call_method, receiver, False, args, lowerer.span(node), receiver_class=built_class)
    elif isinstance(func, ast.Attribute) and _plain_super(func.value):
        # `super().forward(x)` in a method: the next class's method, run on this method's own receiver
        return _super_applied(lowerer, func.attr, args, lowerer.span(func.value))
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and method is not None:
        # `Holder(a, c).run()`: a method of the object a followed constructor call builds right there
        built = func.value.func
        if not (isinstance(built, ast.Name) and built.id in classes.classes):
            return _method_on_choices(lowerer, method, func.attr, args, lowerer.span(node))
        if not lowerer.constructs(func.value):
            # `Runner().go(a, b)` of a class whose initializer binds nothing the checker follows: the method still
            # runs with the caller's arguments (what it does to its receiver's fields is the new object's own)
            plain = _plain_method(lowerer, built.id, func.attr, classes)
            return _applied(lowerer, plain, method.receiver, False, args, lowerer.span(node)) if plain else None
        found = classes.method(classes.classes[built.id], func.attr)
        if found is None:
            return None
        applied = _applied(
            lowerer, found, method.receiver, False, args, lowerer.span(node), receiver_class=classes.classes[built.id]
        )
        return replace(applied, built_receiver=built.id) if applied is not None else None
    elif isinstance(func, ast.Attribute) and method is not None:
        # `(a if hot else b).flush()`: the method of each object the receiver may be
        return _method_on_choices(lowerer, method, func.attr, args, lowerer.span(node))
    else:
        return None
    # a function a factory returned (`acc = make_acc(total)`): the factory's parameters it reads are the call's
    captured = _factory_captures(lowerer, callee, func.id, lowerer.span(node)) if isinstance(func, ast.Name) else ()
    return _applied(lowerer, callee, receiver, nested, args, lowerer.span(node), captured=captured)


def _method_on_choices(
    lowerer: FunctionLowerer,
    method: calls.MethodCall[ast.expr],
    name: str,
    args: tuple[calls.Operand[ast.expr], ...],
    span: Span,
) -> AppliedSummary[ast.expr] | None:
    """`guard.upload(t, h).start()` of a method giving back its receiver (the receiver's `choices`): `start` as
    called on each object the receiver expression may be (`callables.on_each_receiver`), each dispatched as a call
    on a name or an attribute path is."""
    if method.receiver_kernel is not None or method.receiver_is_safekernels:
        return None

    def on(option: calls.Operand[ast.expr]) -> AppliedSummary[ast.expr] | None:
        receiver = lowerer.operand(option.node, with_view=False)  # (a choice is device-like by default)
        if receiver.place is None:
            return None
        root = receiver.place.root
        defining = _classes_defining(lowerer, root, name, receiver) if receiver.place.attrs else None
        return _applied_method(lowerer, root, name, receiver, args, span, defining)

    return callables.on_each_receiver(method.receiver, on)


def _plain_super(node: ast.expr) -> bool:
    """`super()`, without arguments."""
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
        and not node.args and not node.keywords
    )


def _super_applied(
    lowerer: FunctionLowerer, name: str, args: tuple[calls.Operand[ast.expr], ...], span: Span
) -> AppliedSummary[ast.expr] | None:
    """The summary of `super().name(...)` (`span`: the `super()` call's) in an undecorated method of the module's
    classes: the method the classes after the method's own class find along the receiver's method resolution
    order, with this method's receiver bound to its first parameter and dispatching on the receiver's class, so
    the attributes this method bound on `self` before the call (`self._out = x`) are the ones it launches with,
    and its `self.output` runs the receiver class's override."""
    node = lowerer.unit.node
    classes = lowerer.ctx.classes
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or classes.owner.get(id(node)) is None:
        return None
    positional = [*node.args.posonlyargs, *node.args.args]
    if not positional or node.decorator_list:
        return None
    receiver = positional[0].arg
    cls = _receiver_class(lowerer, receiver, classes)
    found = classes.super_method(node, name, cls)
    if found is None or cls is None:
        return None
    operand: calls.Operand[ast.expr] = calls.Operand(ast.Name(receiver), span, lowerer.dotted_place(receiver), False)
    return _applied(lowerer, found, operand, False, args, span, receiver_class=cls)


def _unbound_applied(
    lowerer: FunctionLowerer,
    cls: ast.ClassDef,
    found: ast.FunctionDef,
    args: tuple[calls.Operand[ast.expr], ...],
    span: Span,
) -> AppliedSummary[ast.expr] | None:
    """The summary of `Class.method(obj, ...)` of a plain method (`found`, as `Class` finds it): run on `obj`, the
    call's first argument bound to the receiver parameter, dispatching on `obj`'s class when that is exactly one
    class, `Class` or one of its subclasses (`self` of a subclass's method: `Layer.forward(self, x)` in an override
    runs the base's `forward` with this object's overrides and attributes), else on `Class`."""
    classes = lowerer.ctx.classes
    first = args[0]
    dispatch = cls
    if isinstance(first.node, ast.Name):
        candidates = receiver_classes(lowerer, first.node.id)
        if candidates and len(candidates) == 1 and (candidates[0] is cls or candidates[0] in classes.subclasses(cls)):
            dispatch = candidates[0]
    return _applied(lowerer, found, first, False, args[1:], span, receiver_class=dispatch)


def _factory_captures(
    lowerer: FunctionLowerer, callee: ast.AST, name: str, span: Span
) -> tuple[tuple[str, calls.Operand[ast.expr]], ...]:
    """The factory parameters the function bound to `name` by a factory call of this body reads, bound to that
    call's operands (`call_effects.factory_captures`)."""
    from ownership_check.frontend.ast_lowering import _param_names, _stable_names, call_args  # it imports this

    call = lowerer.factory_calls.get(name)
    if call is None or lowerer.made.get(name) is not callee or not isinstance(call.func, ast.Name):
        return ()
    factory = lowerer.helper(call.func.id)
    if not isinstance(factory, ast.FunctionDef | ast.AsyncFunctionDef) or not isinstance(callee, ast.FunctionDef):
        return ()
    params = [p.arg for p in _param_names(factory.args)]
    kept = _stable_names(factory.body, params)  # a parameter the factory rebinds is not the call's operand
    captured = {n for n in lowerer.ctx.classes.free_names(callee) if n in params and n in kept}
    if not captured:
        return ()
    positional = [p.arg for p in (*factory.args.posonlyargs, *factory.args.args)]
    operands = tuple(lowerer.operand(a.value, a.keyword, bool(a.star)) for a in call_args(call))
    bound = bind_parameters(positional, [p.arg for p in factory.args.kwonlyargs], operands, None)
    return factory_captures(
        bound, captured, lambda op: isinstance(op.node, ast.Name) and lowerer.view_bound(op.node) == op.node.id, span
    )


def function_choices(lowerer: FunctionLowerer, func: ast.expr) -> tuple[ast.FunctionDef, ...] | None:
    """The functions of the module a callable value may be (`FunctionLowerer.find_function_values`): a name bound
    only to them, or a subscript of a dict display of them (`callables.registry_choice`); None for anything else."""
    found: tuple[ast.FunctionDef | ast.AsyncFunctionDef, ...] | None = None
    if isinstance(func, ast.Name) and lowerer.helper(func.id) is None:
        found = lowerer.function_choices.get(func.id)
    elif isinstance(func, ast.Subscript) and isinstance(func.value, ast.Name):
        registry = lowerer.function_registries.get(func.value.id)
        if registry is not None and not isinstance(func.slice, ast.Slice):
            key = func.slice.value if isinstance(func.slice, ast.Constant) else None
            found = callables.registry_choice(registry, key if type(key) in (str, int) else None)
    if found is None or not all(isinstance(f, ast.FunctionDef) for f in found):
        return None
    return tuple(f for f in found if isinstance(f, ast.FunctionDef))


def applied_callee(
    lowerer: FunctionLowerer,
    callee: ast.FunctionDef,
    nested: bool,
    args: tuple[calls.Operand[ast.expr], ...],
    call_span: Span,
) -> AppliedSummary[ast.expr] | None:
    """The summary of the plain function `callee` (a lambda `map` applies), with `args` bound to its parameters."""
    if lowerer.kernel_body:
        return None
    return _applied(lowerer, callee, None, nested, args, call_span, captures=nested)


def _module_names(callee: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The names a function reads and never binds itself: in a function of the module's top level, the module's
    names (`scale(Z, X)` in `def run(): global Z, X ...`, or `lambda src: scale(z, src)`).  A name it binds (also
    through `global`) is left out: what it refers to after the call is not the caller's value."""
    params = {p.arg for p in (*callee.args.posonlyargs, *callee.args.args, *callee.args.kwonlyargs)}
    params.update(p.arg for p in (callee.args.vararg, callee.args.kwarg) if p is not None)
    loaded: dict[str, None] = {}
    stored: set[str] = set()
    for node in _walk_body(callee.body):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                loaded.setdefault(node.id, None)
            else:
                stored.add(node.id)
        elif isinstance(node, _SCOPES) and not isinstance(node, ast.Lambda):
            stored.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            stored.update(a.asname or a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name is not None:
            stored.add(node.name)
    return sorted(n for n in loaded if n not in params and n not in stored)


#: Decorators and bases that make a class's `__init__` from its annotated fields (`GeneratedInit`).
DATACLASS_DECORATOR = "dataclasses.dataclass"
NAMED_TUPLE_BASES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
DATACLASS_FIELD = "dataclasses.field"
#: The annotation after which a dataclass's fields are keyword-only parameters.
_KW_ONLY = "KW_ONLY"
#: Methods that make a generated initializer do more than bind the fields.
_OWN_INITIALIZERS = frozenset({"__init__", "__post_init__", "__new__"})


def _annotation_head(annotation: ast.expr) -> str | None:
    """The last name of an annotation's outermost type (`ClassVar` of `typing.ClassVar[int]`, also in a string)."""
    node = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        head = re.match(r"\s*([\w.]+)", node.value)
        return head.group(1).rsplit(".", 1)[-1] if head is not None else None
    text = _dotted(node)
    return text.rsplit(".", 1)[-1] if text is not None else None


def _dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join((node.id, *reversed(parts))) if isinstance(node, ast.Name) else None


def _keyword_flag(call: ast.Call, name: str) -> bool | str | None:
    """A keyword argument of a call: its `True`/`False` literal, None when absent, `"?"` when it is no literal
    (or `**kwargs` may give it)."""
    for keyword in call.keywords:
        if keyword.arg is None:
            return "?"
        if keyword.arg == name:
            value = keyword.value
            return value.value if isinstance(value, ast.Constant) and isinstance(value.value, bool) else "?"
    return None


def generated_fields(cls: ast.ClassDef, qualify: Callable[[ast.AST], str | None]) -> GeneratedInit | None:
    """The `__init__` that `@dataclass` or a `NamedTuple` base generates for `cls` (None: neither): its annotated
    fields in order, without `ClassVar` ones and `field(init=False)` ones, keyword-only after `KW_ONLY` or with
    `kw_only=True`; not followed for a class of another base or decorator, one whose initializer does more
    (`InitVar`, `__post_init__`, `__new__`, its own `__init__`) or a flag that is no literal.  The mypy plugin
    reads the same rules off its tree (`mypy_plugin.call_targets.generated_fields`)."""
    named_tuple = len(cls.bases) == 1 and not cls.keywords and qualify(cls.bases[0]) in NAMED_TUPLE_BASES
    decorator: ast.expr | None = None
    for dec in cls.decorator_list:
        if qualify(dec.func if isinstance(dec, ast.Call) else dec) == DATACLASS_DECORATOR:
            decorator = dec
    if decorator is None and not named_tuple:
        return None
    unfollowed = GeneratedInit(followed=False)
    if decorator is not None and (cls.bases or cls.keywords or len(cls.decorator_list) != 1):
        return unfollowed
    everything_keyword = False
    if isinstance(decorator, ast.Call):
        init, kw_only = _keyword_flag(decorator, "init"), _keyword_flag(decorator, "kw_only")
        if decorator.args or init not in (None, True) or kw_only == "?":
            return unfollowed
        everything_keyword = kw_only is True
    positional: list[str] = []
    keyword_only: list[str] = []
    after_marker = False
    post_init = False
    for stmt in cls.body:
        if decorator is not None and _plain_post_init(stmt):
            post_init = True  # run last by the generated `__init__` (`call_effects.with_post_init`)
            continue
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef) and stmt.name in _OWN_INITIALIZERS:
            return unfollowed
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        head = _annotation_head(stmt.annotation)
        if head == _KW_ONLY and decorator is not None:
            after_marker = True
            continue
        if head == "InitVar":
            return unfollowed  # a parameter the generated `__init__` hands to `__post_init__`
        if head == "ClassVar":
            continue
        keyword = everything_keyword or after_marker
        value = stmt.value
        if isinstance(value, ast.Call) and decorator is not None and qualify(value.func) == DATACLASS_FIELD:
            init_flag, kw_flag = _keyword_flag(value, "init"), _keyword_flag(value, "kw_only")
            if init_flag == "?" or kw_flag == "?":
                return unfollowed
            if init_flag is False:
                continue
            keyword = keyword if kw_flag is None else bool(kw_flag)
        (keyword_only if keyword else positional).append(stmt.target.id)
    return GeneratedInit(tuple(positional), tuple(keyword_only), iterated=named_tuple, post_init=post_init)


def _plain_post_init(stmt: ast.stmt) -> bool:
    """`def __post_init__(self)`, undecorated, taking nothing but the object (no `InitVar` handed to it)."""
    if not isinstance(stmt, ast.FunctionDef) or stmt.name != "__post_init__" or stmt.decorator_list:
        return False
    args = stmt.args
    return (len(args.posonlyargs) + len(args.args) == 1 and not args.kwonlyargs and args.vararg is None
            and args.kwarg is None)


def constructor_summary(
    lowerer: FunctionLowerer, func: ast.Name, args: tuple[calls.Operand[ast.expr], ...]
) -> AppliedSummary[ast.expr] | None:
    """`Cls(...)` of a top-level class of this module not shadowed here: the summary of its `__init__` (its own,
    or one along its method resolution order in this module, or the one `@dataclass` / `NamedTuple` generates), with
    the call's arguments bound to its parameters after the receiver, which is the new object
    (`AppliedSummary.constructs`).  None when the class builds its objects otherwise (`__new__`, a metaclass) or
    its initializer binds nothing the checker follows."""
    classes = lowerer.ctx.classes
    cls = classes.classes[func.id]
    if func.id in lowerer.local_names and lowerer.unit.kind != "module":
        return None
    if id(cls) not in classes.generated:
        classes.generated[id(cls)] = generated_fields(cls, lowerer.ctx.qualify)
    generated = classes.generated[id(cls)]
    if generated is not None:
        if not generated.followed:
            return None
        summary = with_post_init(
            field_summary(cls.name, [*generated.positional, *generated.keyword_only]),
            _post_init_summary(lowerer, cls) if generated.post_init else None,
        )
        if summary is None:
            return None
        bound = bind_parameters(generated.positional, generated.keyword_only, args, None)
        return AppliedSummary(summary, bound, True)
    if cls.keywords or any(isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == "__new__"
                           for s in cls.body):
        return None
    init = classes.method(cls, "__init__")
    if init is None:
        return None
    positional = [p.arg for p in (*init.args.posonlyargs, *init.args.args)]
    keyword_only = [p.arg for p in init.args.kwonlyargs]
    if not positional:
        return None
    receiver = positional[0]
    # a `**kwargs` parameter: its dict's items are the objects passed by the keywords no other parameter takes
    spread = [init.args.kwarg.arg] if init.args.kwarg is not None else []

    def compute() -> CallSummary | None:
        plain = frozenset(p for p in (*positional, *keyword_only) if p != receiver)
        unit = type(lowerer.unit)(f"{init.name} (call summary)", init, "function", plain, {})
        function = type(lowerer)(lowerer.ctx, unit).lower()
        return call_summary(function, [*positional, *keyword_only, *spread], receiver, init.name)

    initializer = classes.memo.get(id(init), compute)
    if initializer is not None:
        initializer = dispatched(initializer, initializer)  # its conflicts are its own check's
    if initializer is None or initializer.empty:
        return None
    bound = bind_parameters(positional[1:], keyword_only, args, None, *spread)
    return AppliedSummary(initializer, bound, True)


def _post_init_summary(lowerer: FunctionLowerer, cls: ast.ClassDef) -> CallSummary | None:
    """The summary of a dataclass's own `__post_init__(self)` (`_plain_post_init`), its receiver the object."""
    found = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and _plain_post_init(s)), None)
    if found is None:
        return None
    method = found
    receiver = method.args.args[0].arg if method.args.args else method.args.posonlyargs[0].arg

    def compute() -> CallSummary | None:
        unit = type(lowerer.unit)(f"{method.name} (call summary)", method, "function", frozenset(), {})
        function = type(lowerer)(lowerer.ctx, unit).lower()
        return call_summary(function, [receiver], receiver, method.name)

    return lowerer.ctx.classes.memo.get(id(method), compute)


def _applied(
    lowerer: FunctionLowerer,
    callee: ast.AST,
    receiver: calls.Operand[ast.expr] | None,
    nested: bool,
    args: tuple[calls.Operand[ast.expr], ...],
    call_span: Span | None = None,
    captures: bool = False,
    receiver_class: ast.ClassDef | None = None,
    captured: tuple[tuple[str, calls.Operand[ast.expr]], ...] = (),
) -> AppliedSummary[ast.expr] | None:
    """The summary of `callee`, with the call's operands bound to its parameters (`receiver` to the first) and,
    with `captures` (or when the callee and the caller are both the module's top level), the names it reads without
    binding them to the caller's places of those names (`_module_names`).  A method's summary is the one for its
    receiver's class (`receiver_class`, a subclass of the method's own: the overrides `self.target()` runs are the
    subclass's), with the conflicts inside it that its own class's summary lacks (`call_effects.dispatched`)."""
    classes = lowerer.ctx.classes
    assert isinstance(callee, ast.FunctionDef | ast.AsyncFunctionDef)  # an `async def` when awaited
    positional = [p.arg for p in (*callee.args.posonlyargs, *callee.args.args)]
    keyword_only = [p.arg for p in callee.args.kwonlyargs]
    receiver_param = positional[0] if receiver is not None and positional else None
    device = frozenset(lowerer.device) if nested else frozenset()
    kernels = dict(lowerer.kernels) if nested else {}
    # the names it reads are the caller's values: a function defined in the calling body applied by `map`, or one of
    # the module's top level called there (a nested function's direct call applies its captures as `closures`)
    captures = captures or (receiver is None and nested and lowerer.unit.kind == "module")
    free = classes.free_names(callee) if receiver is None else []

    owner = classes.owner.get(id(callee)) if receiver is not None else None
    dispatch = receiver_class.name if receiver_class is not None and owner is not None else None
    # the `*args` tuple's items, one parameter each, when the call tells how many (`call_effects.star_items`)
    star = callee.args.vararg.arg if callee.args.vararg is not None else None
    count = star_count(positional, args, receiver is not None) if star is not None else 0
    items = star_items(star, count) if star is not None else ()
    # ... and the `**kwargs` dict's items, one parameter each, by the keywords the call passes into it
    spread = callee.args.kwarg.arg if callee.args.kwarg is not None else None
    keys = spread_keywords(positional, keyword_only, args) if spread is not None else ()
    items += spread_items(spread, keys) if spread is not None else ()
    bound = bind_parameters(
        positional, keyword_only, args, receiver, star=star if count else None,
        spread_keys=(spread, keys) if spread is not None and keys else None,
    )
    # ... and the parameters the call binds to a kernel of the module (`run(mix, ...)`): that kernel there
    handed = _kernel_arguments(lowerer, callee, bound)
    kernels.update(handed)
    shape = (count, keys, tuple((name, kernel.name) for name, kernel in handed)) if keys or handed else count

    def compute(dispatch: str | None = dispatch) -> CallSummary | None:
        # every parameter but the receiver counts as a device value (see `CallSummary`)
        plain = frozenset(p for p in (*positional, *keyword_only, *items) if p != receiver_param)
        # a method starts, as when it is checked itself, with the prepared launches `__init__` stored on `self` and
        # the attribute aliases it made (as the plugin's lowering of a method starts)
        # (not for a receiver of a subclass: its kernels may be others, so its launches check the caller's brands)
        own_class = dispatch is None or (owner is not None and dispatch == owner.name)
        brands = {attr: (kernel,) for attr, kernel in lowerer.init_brands(owner).items()} if (
            owner is not None and own_class and callee.name != "__init__"
        ) else {}
        aliases = lowerer.init_aliases(owner) if owner is not None and callee.name != "__init__" else ()
        # ... and the displays of prepared launches `__init__` stored (`init_items`), as the plugin's does
        stored = lowerer.init_items(owner) if owner is not None and callee.name != "__init__" else {}
        item_keys = lowerer.init_item_keys(owner, stored) if stored and owner is not None else {}
        name = f"{callee.name} (call summary)"
        unit = type(lowerer.unit)(
            name, callee, "function", device | plain, kernels, class_brands=brands, class_aliases=aliases,
            receiver_class=dispatch, star_items=count, class_items=lowerer.method_items(stored, callee),
            class_item_keys=item_keys, spread_keys=keys, summarizing=True,
        )
        function = type(lowerer)(lowerer.ctx, unit).lower()
        params = [*positional, *keyword_only, *items, *(n for n in free if n not in (*positional, *keyword_only))]
        found = call_summary(function, params, receiver_param, callee.name)
        if receiver_param is not None and _moves_receiver_attributes(callee, receiver_param):
            # once more with the receiver's attributes as device values, for the moves only that makes
            outer = device | plain | {receiver_param}
            again = f"{callee.name} (call summary, device attributes)"
            unit = type(lowerer.unit)(
                again, callee, "function", outer, kernels, class_brands=brands, class_aliases=aliases,
                receiver_class=dispatch, star_items=count, spread_keys=keys,
            )
            assuming = type(lowerer)(lowerer.ctx, unit).lower()
            found = with_receiver_moves(found, call_summary(assuming, params, receiver_param, callee.name))
        return found

    own = classes.memo.get((id(callee), shape) if shape else id(callee), lambda: compute(None))
    summary = own if dispatch is None or owner is None or dispatch == owner.name else classes.memo.get(
        (id(callee), dispatch, shape) if shape else (id(callee), dispatch), compute
    )
    if summary is None or own is None:
        return None
    summary = dispatched(summary, own)
    bound += captured  # `_factory_captures`: free names, never parameters
    if captures and not summary.empty:
        taken = {name for name, _ in bound}
        span = call_span if call_span is not None else lowerer.span(callee)
        bound += tuple(
            (name, calls.Operand(ast.Name(name), span, lowerer.dotted_place(name), name in lowerer.device))
            for name in free
            if name not in taken and name not in positional and name not in keyword_only
        )
    return AppliedSummary(
        summary,
        bound,
        device_paths=_device_paths(lowerer, receiver, summary, receiver_class or owner),
        repeats=classes.repeats(callee),
        returns_op=lowerer.returns_op(callee) or summary.returns_op,
        op_built=summary.op_built if summary.returns_op else lowerer.returned_op_site(callee),
    )


def method_summaries(lowerer: FunctionLowerer, cls: ast.ClassDef) -> list[CallSummary]:
    """The call summaries of a class's own methods but `__init__` (plain `def`s taking a receiver, no
    `@staticmethod` / `@classmethod`): what each may do to `self`'s attributes when it runs
    (`init_state.init_facts` reads which of them a method moves and binds anew)."""
    found: list[CallSummary] = []
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef) or method.name == "__init__" or not method.args.args:
            continue
        if any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in method.decorator_list):
            continue
        receiver = method.args.args[0].arg
        span = lowerer.span(method)
        node: ast.expr = ast.Name(receiver)
        operand = calls.Operand(node, span, lowerer.dotted_place(receiver), False)
        applied = _applied(lowerer, method, operand, False, (), span)
        if applied is not None:
            found.append(applied.summary)
    return found


def context_methods(
    lowerer: FunctionLowerer, candidates: tuple[ast.ClassDef, ...] | None, node: ast.expr, span: Span
) -> tuple[Callable[[ir.Place], None], Callable[[ir.Place], None]] | None:
    """`with Prefetcher(raw) as pf:` / `with pf:` of an object of one of `candidates` (the classes of the module its
    methods may be, `receiver_classes`), each of which has an `__enter__` returning its receiver on every path
    (`_returns_receiver`) and an `__exit__`, both plain methods of the module: what applies each one's call summary
    to the object a `with` statement holds for its block, given its place (`calls.WithItem.methods`); None
    otherwise (the target is then a new value, as for any context manager the checker does not follow)."""
    if not candidates:
        return None
    classes = lowerer.ctx.classes
    for cls in candidates:
        enter = classes.method(cls, "__enter__")
        if enter is None or classes.method(cls, "__exit__") is None or not _returns_receiver(enter):
            return None
    found = candidates

    def run(method: str) -> Callable[[ir.Place], None]:
        def apply(place: ir.Place) -> None:
            receiver = calls.Operand(node, span, place)
            applied = _applied_method(lowerer, place.root, method, receiver, (), span, found)
            if applied is not None:
                apply_summary(applied, node, span, lowerer)

        return apply

    return run("__enter__"), run("__exit__")


def _returns_receiver(method: ast.FunctionDef) -> bool:
    """Whether `method` gives back its receiver on every path (`return self` ends its body, every `return` is one,
    it never rebinds the name, it is no generator): the object `with C(...) as t:` binds `t` to is then the
    context manager itself."""
    params = [*method.args.posonlyargs, *method.args.args]
    if method.decorator_list or not params or not method.body or not isinstance(method.body[-1], ast.Return):
        return False
    receiver = params[0].arg
    for node in _walk_body(method.body):
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return False
        if isinstance(node, ast.Return) and not (isinstance(node.value, ast.Name) and node.value.id == receiver):
            return False
        if isinstance(node, ast.Name) and node.id == receiver and not isinstance(node.ctx, ast.Load):
            return False
    return True


def phase_summary(
    lowerer: FunctionLowerer,
    phase: ast.FunctionDef,
    args: tuple[calls.Operand[ast.expr], ...],
    span: Span,
    receiver: calls.Operand[ast.expr] | None = None,
) -> AppliedSummary[ast.expr] | None:
    """The summary of one part of a `@contextlib.contextmanager` generator of the module (`calls.with_phases`: a
    function of its parameters), with a `with` item's call operands bound to them (a method's `receiver` to its
    first one)."""
    return _applied(lowerer, phase, receiver, False, args, span)


def _kernel_arguments(
    lowerer: FunctionLowerer,
    callee: ast.FunctionDef | ast.AsyncFunctionDef,
    bound: Iterable[tuple[str, calls.Operand[ast.expr]]],
) -> tuple[tuple[str, KernelSummary], ...]:
    """The parameters a call binds to a kernel (`run_effect(mix, ...)` of `def run_effect(kernel, ...)`, `mix` a
    kernel of the module or of the calling body) that the callee never binds itself: its call summary's lowering
    knows the parameter as that kernel (`Unit.outer_kernels`), so `kernel.launch(prep, s, a, b)` there is a launch
    with the kernel's parameter modes and the caller's buffers conflicting in them are reported at the call."""
    found = [
        (name, kernel)
        for name, operand in bound
        if isinstance(operand.node, ast.Name) and not operand.star and "$" not in name
        and (kernel := lowerer.kernel_of(operand.node)) is not None
    ]
    if not found:
        return ()
    stored = {
        node.id for node in ast.walk(callee) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del)
    }
    return tuple((name, kernel) for name, kernel in found if name not in stored)


def _moves_receiver_attributes(func: ast.FunctionDef | ast.AsyncFunctionDef, receiver: str) -> bool:
    """Whether a method calls a moving method on an attribute of its receiver (`self.w.to(dev, s)`), which moves
    only a device value (`call_effects.with_receiver_moves`)."""
    for node in _walk_body(func.body):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MOVING_METHODS:
            target = node.func.value
            if isinstance(target, ast.Attribute) and (_dotted(target) or "").split(".")[0] == receiver:
                return True
    return False


def _device_paths(
    lowerer: FunctionLowerer,
    receiver: calls.Operand[ast.expr] | None,
    summary: CallSummary,
    cls: ast.ClassDef | None = None,
) -> frozenset[tuple[str, ...]]:
    """The receiver attribute paths of a summary's `assumed` moves that the caller knows are device values: a
    device place here, or an attribute the receiver's class `cls` binds to a new device value (`self.soc =
    sk.to_device(...)`, `binds_device`), whatever the caller did to the object since."""
    text = _dotted(receiver.node) if receiver is not None else None
    if text is None or not any(m.assumed for m in summary.moves):
        return frozenset()
    return frozenset(
        m.path[1]
        for m in summary.moves
        if m.assumed and (
            lowerer.is_device_text(".".join((text, *m.path[1])))
            or (cls is not None and len(m.path[1]) == 1 and lowerer.binds_device(cls, m.path[1][0]))
        )
    )
