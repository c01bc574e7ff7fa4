"""Which function or method of this module a call runs (mypy plugin), and its call summary.

The same syntactic rules as the CLI front end (`ownership_check.frontend.call_targets`, where they are described),
read off mypy's tree, so both front ends apply the same summaries: a plain function of this module or of the
calling body called by its name, a method of a top-level class of this module called on `self`, on a parameter
annotated with the class, or on a local name bound only by `name = Class(...)`, or a `@staticmethod` of such a
class called on the class's name.  mypy knows more types than that
(`job = make_job()`), but a summary the CLI cannot apply would make the two report differently.

Summaries are memoized on the `FileContext`, which lives for one analysis within one checking pass: nothing is kept
across hooks (dmypy re-checks edited modules in the same process).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, Final

from mypy.nodes import (
    ARG_NAMED,
    ARG_NAMED_OPT,
    ARG_OPT,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    AssignmentExpr,
    AssignmentStmt,
    AwaitExpr,
    Block,
    CallExpr,
    ClassDef,
    ComparisonExpr,
    ConditionalExpr,
    Decorator,
    DelStmt,
    DictExpr,
    DictionaryComprehension,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    FuncItem,
    GeneratorExpr,
    GlobalDecl,
    IfStmt,
    Import,
    ImportAll,
    ImportFrom,
    IndexExpr,
    IntExpr,
    LambdaExpr,
    ListExpr,
    Lvalue,
    MatchStmt,
    MemberExpr,
    MypyFile,
    NameExpr,
    Node,
    NonlocalDecl,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    PassStmt,
    RaiseStmt,
    ReturnStmt,
    SetExpr,
    SliceExpr,
    StarExpr,
    Statement,
    StrExpr,
    SuperExpr,
    TempNode,
    TryStmt,
    TupleExpr,
    UnaryExpr,
    Var,
    WhileStmt,
    WithStmt,
    YieldExpr,
    YieldFromExpr,
)
from mypy.patterns import AsPattern, MappingPattern, Pattern, StarredPattern

from mypy_plugin import tree
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
from safekernels.ownership_model import MOVING_METHODS, SIMT_LAUNCH_METHODS

if TYPE_CHECKING:
    from mypy_plugin.lowering import FunctionLowerer, Unit
    from mypy_plugin.resolve import KernelInfo

_POSITIONAL = (ARG_POS, ARG_OPT)
_KEYWORD_ONLY = (ARG_NAMED, ARG_NAMED_OPT)


def _runs_when_called(func: FuncItem, forwarded: AbstractSet[int] = frozenset()) -> bool:
    """A plain function whose body runs at the call (not `async def`, not a generator), undecorated or wrapped
    only by decorators of the module that forward every call to it (`forwarded`: ids of such functions)."""
    if not isinstance(func, FuncDef | LambdaExpr) or func.is_coroutine or func.is_generator:
        return False
    if isinstance(func, FuncDef) and func.is_decorated and id(func) not in forwarded:
        return False
    return not any(isinstance(n, AwaitExpr | YieldExpr | YieldFromExpr) for n in tree.walk_many(func.body.body))


def _stdlib_forwarding(decorator: Expression) -> bool:
    """A standard-library decorator that forwards every call and returns its result (`@functools.cache`,
    `@functools.lru_cache(maxsize=None)`: `stdlib_flow.FORWARDING_DECORATORS`, the CLI's `ModuleClasses.forwards`)."""
    called = isinstance(decorator, CallExpr)
    target = decorator.callee if isinstance(decorator, CallExpr) else decorator
    return isinstance(target, NameExpr | MemberExpr) and forwarding_decorator(target.fullname, called)


def _is_wraps(decorator: Expression, wrapped: str) -> bool:
    """`@functools.wraps(fn)` (or `@wraps(fn)`) of the wrapped function `fn` (the CLI's `_is_wraps`)."""
    if not (isinstance(decorator, CallExpr) and len(decorator.args) == 1 and decorator.arg_kinds == [ARG_POS]):
        return False
    func, arg = decorator.callee, decorator.args[0]
    named = (isinstance(func, NameExpr) and func.name == "wraps") or (
        isinstance(func, MemberExpr) and func.name == "wraps" and isinstance(func.expr, NameExpr)
        and func.expr.name == "functools"
    )
    return named and isinstance(arg, NameExpr) and arg.name == wrapped


def forwards_calls(decorator: Node) -> bool:
    """A decorator of this module whose wrapper hands every call on to the function it wraps, unchanged (the
    CLI's `forwards_calls`: `def logged(fn)` returning `wrapper(*args, **kwargs)` that does `return fn(*args,
    **kwargs)` once and nothing else with its arguments)."""
    return forwarding_shape(decorator) != FORWARDS_NOT


#: The CLI's `forwarding_shape` results: not forwarding; the wrapper calls once; its call is in a loop.
FORWARDS_NOT, FORWARDS_ONCE, FORWARDS_AGAIN = 0, 1, 2


def forwarding_factory(factory: Node) -> int:
    """`def retry(times)` defining one forwarding decorator and returning it on every path (the CLI's
    `forwarding_factory`): that decorator's `forwarding_shape`, else `FORWARDS_NOT`."""
    if not isinstance(factory, FuncDef) or factory.is_decorated:
        return FORWARDS_NOT
    inner = {stmt.name: stmt for stmt in factory.body.body if isinstance(stmt, FuncDef)}
    returned = {
        r.expr.name if isinstance(r.expr, NameExpr) else ""
        for r in tree.walk_many(factory.body.body)
        if isinstance(r, ReturnStmt)
    }
    if len(returned) != 1 or (name := returned.pop()) not in inner:
        return FORWARDS_NOT
    return forwarding_shape(inner[name])


def forwarding_shape(decorator: Node) -> int:
    """`forwards_calls`, telling whether the wrapper's call of the function is in a loop (the CLI's)."""
    if not isinstance(decorator, FuncDef) or decorator.is_decorated:
        return FORWARDS_NOT
    kinds = [a.kind for a in decorator.arguments]
    if kinds != [ARG_POS]:
        return False
    wrapped = decorator.arguments[0].variable.name
    if _returns_its_parameter(decorator, wrapped):
        return FORWARDS_ONCE  # `def deco(fn): PASSES[name] = fn; return fn`: the decorated name is the function
    wrappers: dict[str, FuncDef] = {}
    for stmt in decorator.body.body:
        if isinstance(stmt, FuncDef):
            wrappers[stmt.name] = stmt
        elif isinstance(stmt, Decorator):
            if all(_is_wraps(d, wrapped) for d in stmt.original_decorators):
                wrappers[stmt.name] = stmt.func
    returned = {
        r.expr.name if isinstance(r.expr, NameExpr) else ""
        for r in tree.walk_many(decorator.body.body)
        if isinstance(r, ReturnStmt)
    }
    if len(returned) != 1 or (name := returned.pop()) not in wrappers:
        return False
    wrapper = wrappers[name]
    if [a.kind for a in wrapper.arguments] != [ARG_STAR, ARG_STAR2]:
        return False
    star, double = (a.variable.name for a in wrapper.arguments)
    body = list(tree.walk_many(wrapper.body.body))
    if wrapper.is_coroutine or wrapper.is_generator or any(isinstance(n, AwaitExpr | YieldExpr | YieldFromExpr)
                                                           for n in body):
        return False
    calls_of = [
        n for n in body if isinstance(n, CallExpr) and isinstance(n.callee, NameExpr) and n.callee.name == wrapped
    ]
    forwarded = [
        r for r in body
        if isinstance(r, ReturnStmt) and isinstance(call := r.expr, CallExpr) and call in calls_of
        and call.arg_kinds == [ARG_STAR, ARG_STAR2]
        and all(isinstance(a, NameExpr) for a in call.args)
        and [a.name for a in call.args if isinstance(a, NameExpr)] == [star, double]
    ]
    mentions = [n for n in body if isinstance(n, NameExpr) and n.name in (star, double)]
    if not (len(calls_of) == 1 and len(forwarded) == 1 and len(mentions) == 2):
        return FORWARDS_NOT
    looped = {
        id(n) for loop in body if isinstance(loop, ForStmt | WhileStmt) for n in tree.walk_many(loop.body.body)
    }
    return FORWARDS_AGAIN if id(forwarded[0]) in looped else FORWARDS_ONCE


def forwarding_class_shape(cls: Node) -> int:
    """A class used as a decorator that hands every call on to the function it wraps (the CLI's
    `forwarding_class_shape`)."""
    if not isinstance(cls, ClassDef) or cls.decorators or cls.base_type_exprs or cls.removed_base_type_exprs:
        return FORWARDS_NOT
    if cls.keywords or cls.metaclass is not None:
        return FORWARDS_NOT
    methods = {s.name: s for s in cls.defs.body if isinstance(s, FuncDef | Decorator | OverloadedFuncDef)}
    init, call = methods.get("__init__"), methods.get("__call__")
    if not isinstance(init, FuncDef) or not isinstance(call, FuncDef) or init.is_coroutine:
        return FORWARDS_NOT
    if [a.kind for a in init.arguments] != [ARG_POS, ARG_POS]:
        return FORWARDS_NOT
    me, wrapped = (a.variable.name for a in init.arguments)
    init_body = list(tree.walk_many(init.body.body))
    stores = [
        t.name for stmt in init_body if isinstance(stmt, AssignmentStmt)
        for t in stmt.lvalues if isinstance(t, MemberExpr) and isinstance(t.expr, NameExpr) and t.expr.name == me
        and isinstance(stmt.rvalue, NameExpr) and stmt.rvalue.name == wrapped
    ]
    uses = [n for n in init_body if isinstance(n, NameExpr) and n.name == wrapped]
    wrapping = [n for n in init_body if isinstance(n, CallExpr) and _callee_text(n.callee) in _UPDATE_WRAPPER]
    if len(stores) != 1 or len(uses) != 1 + len(wrapping):
        return FORWARDS_NOT
    attr = stores[0]
    stored_elsewhere = [
        t for m in methods.values() if m is not init and isinstance(m, FuncDef)
        for n in tree.walk_many(m.body.body) if isinstance(n, AssignmentStmt | OperatorAssignmentStmt)
        for t in (n.lvalues if isinstance(n, AssignmentStmt) else [n.lvalue])
        if isinstance(t, MemberExpr) and t.name == attr
    ]
    kinds = [a.kind for a in call.arguments]
    if stored_elsewhere or kinds not in ([ARG_POS, ARG_STAR], [ARG_POS, ARG_STAR, ARG_STAR2]):
        return FORWARDS_NOT
    this, star = call.arguments[0].variable.name, call.arguments[1].variable.name
    double = call.arguments[2].variable.name if len(kinds) == 3 else None
    body = list(tree.walk_many(call.body.body))
    if call.is_coroutine or call.is_generator or any(isinstance(n, AwaitExpr | YieldExpr | YieldFromExpr)
                                                     for n in body):
        return FORWARDS_NOT
    calls_of = [
        n for n in body if isinstance(n, CallExpr) and isinstance(n.callee, MemberExpr) and n.callee.name == attr
        and isinstance(n.callee.expr, NameExpr) and n.callee.expr.name == this
    ]
    expected = [ARG_STAR] if double is None else [ARG_STAR, ARG_STAR2]
    forwarded = [
        r for r in body
        if isinstance(r, ReturnStmt) and isinstance(c := r.expr, CallExpr) and c in calls_of
        and c.arg_kinds == expected and all(isinstance(a, NameExpr) for a in c.args)
        and [a.name for a in c.args if isinstance(a, NameExpr)] == [star, *([double] if double else [])]
    ]
    mentions = [n for n in body if isinstance(n, NameExpr) and n.name in (star, double)]
    if not (len(calls_of) == 1 and len(forwarded) == 1 and len(mentions) == len(expected)):
        return FORWARDS_NOT
    looped = {
        id(n) for loop in body if isinstance(loop, ForStmt | WhileStmt) for n in tree.walk_many(loop.body.body)
    }
    return FORWARDS_AGAIN if id(forwarded[0]) in looped else FORWARDS_ONCE


#: The CLI's `_UPDATE_WRAPPER`.
_UPDATE_WRAPPER = frozenset({"functools.update_wrapper", "update_wrapper"})


def _callee_text(node: Expression) -> str | None:
    if isinstance(node, NameExpr):
        return node.name
    if isinstance(node, MemberExpr) and isinstance(node.expr, NameExpr):
        return f"{node.expr.name}.{node.name}"
    return None


def _returns_its_parameter(decorator: FuncDef, param: str) -> bool:
    """A decorator that hands back the function it is given, unchanged and uncalled (the CLI's
    `_returns_its_parameter`)."""
    body = list(tree.walk_many(decorator.body.body))
    returns = [n for n in body if isinstance(n, ReturnStmt)]
    return (
        bool(decorator.body.body) and isinstance(decorator.body.body[-1], ReturnStmt)
        and all(isinstance(r.expr, NameExpr) and r.expr.name == param for r in returns)
        and not any(isinstance(n, YieldExpr | YieldFromExpr | AwaitExpr) for n in body)
        and not any(isinstance(n, CallExpr) and isinstance(n.callee, NameExpr) and n.callee.name == param
                    for n in body)
        and not any(isinstance(n, AssignmentStmt) and any(isinstance(lv, NameExpr) and lv.name == param
                                                          for lv in n.lvalues) for n in body)
    )


def _stored_into(node: Node) -> tuple[str, Expression] | None:
    """A statement or call that stores a value into a container named by a module name (the CLI's `_stored_into`):
    `R[k] = v`, `R.append(v)`, `R[k].append(v)`, `add`, `insert`, `setdefault` as `(R, v)`, else None."""
    root: Expression
    if isinstance(node, AssignmentStmt) and len(node.lvalues) == 1 and isinstance(node.lvalues[0], IndexExpr):
        root = node.lvalues[0]
        while isinstance(root, IndexExpr):
            root = root.base
        return (root.name, node.rvalue) if isinstance(root, NameExpr) else None
    if isinstance(node, CallExpr) and isinstance(node.callee, MemberExpr) and all(k == ARG_POS for k in node.arg_kinds):
        position = calls.STORING_METHODS.get(node.callee.name, 0 if node.callee.name == "add" else -1)
        if position < 0 or len(node.args) <= position:
            return None
        root = node.callee.expr
        while isinstance(root, IndexExpr):
            root = root.base
        return (root.name, node.args[position]) if isinstance(root, NameExpr) else None
    return None


def module_registries(module: MypyFile, classes: ModuleClasses) -> dict[str, tuple[FuncDef, ...]]:
    """Module-level containers that hold only functions of the module (the CLI's `module_registries`), by name."""
    functions: dict[str, FuncDef] = {}
    for d in module.defs:
        func = classes.plain(d) if isinstance(d, FuncDef | Decorator) else None
        if func is not None:
            functions[func.name] = func
    bound: dict[str, int] = {}
    empty: list[str] = []
    for stmt in module.defs:
        if isinstance(stmt, AssignmentStmt):
            for target in stmt.lvalues:
                if isinstance(target, NameExpr):
                    bound[target.name] = bound.get(target.name, 0) + 1
                    if (isinstance(stmt.rvalue, DictExpr) and not stmt.rvalue.items) or (
                        isinstance(stmt.rvalue, ListExpr) and not stmt.rvalue.items
                    ):
                        empty.append(target.name)
    decorated_stores: set[int] = set()
    storing: dict[int, str] = {}  # an identity decorator (by id) -> the registry it stores its parameter into
    for item in tree.walk(module, skip_scopes=False):
        if not isinstance(item, FuncDef) or item.is_decorated or [a.kind for a in item.arguments] != [ARG_POS]:
            continue
        param = item.arguments[0].variable.name
        if not _returns_its_parameter(item, param):
            continue
        held = set()
        for node in tree.walk_many(item.body.body):
            found = _stored_into(node)
            if found is not None and isinstance(found[1], NameExpr) and found[1].name == param:
                decorated_stores.add(id(node))
                held.add(found[0])
        if len(held) == 1:
            storing[id(item)] = held.pop()
    stores: list[tuple[str, FuncDef | None]] = []  # (registry, the function stored, None for anything else)
    for node in tree.walk(module, skip_scopes=False):
        if isinstance(node, GlobalDecl):
            for name in node.names:
                bound[name] = bound.get(name, 0) + 2  # rebound from a function: no registry
        found = _stored_into(node)
        if found is not None and id(node) not in decorated_stores:
            stores.append((found[0], functions.get(found[1].name) if isinstance(found[1], NameExpr) else None))
    decorators: dict[str, str] = {}  # a top-level decorator or decorator factory's name -> its registry
    for stmt in module.defs:
        if isinstance(stmt, FuncDef):
            candidates: list[Node] = [stmt, *stmt.body.body]
            for inner in candidates:
                if isinstance(inner, FuncDef) and id(inner) in storing:
                    decorators[stmt.name] = storing[id(inner)]
    decorated: list[tuple[str, FuncDef | None]] = []
    for stmt in module.defs:
        if isinstance(stmt, Decorator):
            for decorator in stmt.original_decorators:
                callee = decorator.callee if isinstance(decorator, CallExpr) else decorator
                if isinstance(callee, NameExpr) and callee.name in decorators:
                    decorated.append((decorators[callee.name], classes.plain(stmt)))
    return callables.registry_union([name for name in empty if bound.get(name) == 1], [*stores, *decorated])


def _attribute_root(node: Expression) -> str | None:
    """The attribute a store reaches below its subscripts (`self.hooks[k]` -> `hooks`), else None."""
    while isinstance(node, IndexExpr):
        node = node.base
    return node.name if isinstance(node, MemberExpr) else None


def _stored_attributes(target: Expression) -> Iterator[MemberExpr]:
    """The attributes an assignment's (or `del`'s) target binds, inside tuple and starred targets too."""
    if isinstance(target, MemberExpr):
        yield target
    elif isinstance(target, TupleExpr | ListExpr):
        for item in target.items:
            yield from _stored_attributes(item)
    elif isinstance(target, StarExpr):
        yield from _stored_attributes(target.expr)


def bound_targets(node: Node) -> Iterator[Node]:
    """The targets a statement or expression binds or deletes (an assignment's, `for`'s, `del`'s, a walrus)."""
    if isinstance(node, AssignmentStmt):
        for lvalue in node.lvalues:
            yield from tree.walk(lvalue)
    elif isinstance(node, OperatorAssignmentStmt):
        yield node.lvalue
    elif isinstance(node, ForStmt):
        yield from tree.walk(node.index)
    elif isinstance(node, DelStmt):
        yield from tree.walk(node.expr)
    elif isinstance(node, AssignmentExpr):
        yield node.target
    elif isinstance(node, WithStmt):
        for target in node.target:
            if target is not None:
                yield from tree.walk(target)


def attribute_registries(module: MypyFile, classes: ModuleClasses) -> dict[tuple[str, str], tuple[FuncDef, ...]]:
    """Attributes that hold only functions of the module, by (class, attribute) (the CLI's `attribute_registries`:
    bound once by a display in a method of the class, every store into an attribute of that name a function of the
    module or a parameter every call of the storing method passes one for)."""
    functions: dict[str, FuncDef] = {}
    for d in module.defs:
        func = classes.plain(d) if isinstance(d, FuncDef | Decorator) else None
        if func is not None:
            functions[func.name] = func

    def function(value: Expression) -> FuncDef | None:
        return functions.get(value.name) if isinstance(value, NameExpr) else None

    owners: dict[int, tuple[ClassDef, FuncDef]] = {}
    for cls in classes.classes.values():
        for sub in cls.defs.body:
            method = sub.func if isinstance(sub, Decorator) else sub
            if isinstance(method, FuncDef):
                for node in tree.walk_many(method.body.body):
                    owners[id(node)] = (cls, method)
    bindings: list[tuple[str, str | None]] = []
    stores: list[tuple[str, FuncDef | None]] = []
    parameter_stores: list[tuple[str, str, int, str]] = []  # (attribute, method, position after self, parameter)
    for node in tree.walk(module, skip_scopes=False):
        targets: list[Expression] = []
        if isinstance(node, AssignmentStmt):
            targets = list(node.lvalues)
        elif isinstance(node, OperatorAssignmentStmt):
            targets = [node.lvalue]
        elif isinstance(node, DelStmt):
            targets = [node.expr]
        for target in targets:
            for element in _stored_attributes(target):
                owner = owners.get(id(node))
                value = node.rvalue if isinstance(node, AssignmentStmt) else None
                params = [a.variable.name for a in owner[1].arguments if a.kind in (ARG_POS, ARG_OPT)] if owner else []
                own = (
                    owner is not None and target is element and isinstance(element.expr, NameExpr)
                    and bool(params) and element.expr.name == params[0]
                )
                if own and isinstance(value, ListExpr | TupleExpr | DictExpr) and owner is not None:
                    bindings.append((element.name, owner[0].name))
                    items = [v for _, v in value.items] if isinstance(value, DictExpr) else list(value.items)
                    stores.extend((element.name, function(item)) for item in items)
                else:
                    bindings.append((element.name, None))
        found: tuple[str, list[Expression]] | None = None
        if isinstance(node, AssignmentStmt) and len(node.lvalues) == 1 and isinstance(node.lvalues[0], IndexExpr):
            attribute = _attribute_root(node.lvalues[0])
            found = (attribute, [node.rvalue]) if attribute is not None else None
        elif (
            isinstance(node, CallExpr) and isinstance(node.callee, MemberExpr)
            and all(k == ARG_POS for k in node.arg_kinds)
        ):
            attribute = _attribute_root(node.callee.expr)
            position = calls.STORING_METHODS.get(node.callee.name, 0 if node.callee.name == "add" else -1)
            if attribute is not None and node.callee.name == "extend" and len(node.args) == 1:
                arg = node.args[0]
                found = (attribute, list(arg.items) if isinstance(arg, ListExpr | TupleExpr) else [arg])
            elif attribute is not None and 0 <= position < len(node.args):
                found = (attribute, [node.args[position]])
        if found is None:
            continue
        attribute, values = found
        owner = owners.get(id(node))
        params = [a.variable.name for a in owner[1].arguments if a.kind in (ARG_POS, ARG_OPT)] if owner else []
        for value in values:
            parameter = isinstance(value, NameExpr) and value.name in params[1:]
            if function(value) is None and owner is not None and parameter and isinstance(value, NameExpr):
                rebound = any(
                    isinstance(t, NameExpr) and t.name == value.name
                    for n in tree.walk_many(owner[1].body.body)
                    for t in bound_targets(n)
                )
                if not rebound and not owner[1].is_decorated and not owner[1].is_coroutine:
                    parameter_stores.append((attribute, owner[1].name, params.index(value.name) - 1, value.name))
                    continue
            stores.append((attribute, function(value)))
    if parameter_stores:
        used: set[int] = set()  # `.method` nodes read as a call's callee or a decorator
        passed: dict[str, list[tuple[CallExpr | None, FuncDef | None]]] = {}
        for node in tree.walk(module, skip_scopes=False):
            if isinstance(node, CallExpr) and isinstance(node.callee, MemberExpr):
                used.add(id(node.callee))
                passed.setdefault(node.callee.name, []).append((node, None))
            elif isinstance(node, Decorator):
                for decorator in node.original_decorators:
                    if isinstance(decorator, MemberExpr):
                        used.add(id(decorator))
                        plain = classes.plain(node)
                        passed.setdefault(decorator.name, []).append(
                            (None, plain if plain is not None and plain in functions.values() else None)
                        )
        methods = {storing for _, storing, _, _ in parameter_stores}
        escaped: set[str] = set()
        for node in tree.walk(module, skip_scopes=False):
            if isinstance(node, MemberExpr) and node.name in methods and id(node) not in used:
                escaped.add(node.name)
            elif isinstance(node, NameExpr) and node.name in methods:
                escaped.add(node.name)
        for attribute, storing, position, param in parameter_stores:
            if storing in escaped:
                stores.append((attribute, None))  # the method is passed around or shadowed: its callers unknown
                continue
            for call, decorated in passed.get(storing, []):
                if call is None:
                    stores.append((attribute, decorated))
                    continue
                kinds = call.arg_kinds
                ordered = [(a, k) for a, k in zip(call.args, kinds, strict=True) if k in (ARG_POS, ARG_STAR)]
                starred = any(k == ARG_STAR for _, k in ordered[: position + 1])
                keyword = [a for a, k, n in zip(call.args, kinds, call.arg_names, strict=True)
                           if k == ARG_NAMED and n == param]
                given = ordered[position][0] if len(ordered) > position and not starred else None
                value = given if given is not None else keyword[0] if keyword else None
                if value is not None or starred or ARG_STAR2 in kinds:
                    stores.append((attribute, function(value) if value is not None else None))
    return callables.attribute_registry_union(bindings, stores)


class _ModuleShape:
    """What `ModuleClasses` reads of a module's top level: its classes by name, each method's class, and the
    decorators that forward calls.  The plugin analyses one function at a time and used to rebuild this for each
    (walking the body of every one-parameter top-level function for `forwards_calls`: ~15% of a re-check); it is
    now built once per module *tree* and reused while the tree is the same.

    The same tree: the same module object with the same top-level statements, each with the same body objects
    (`key`).  A fresh parse (a cold or incremental run) gives new objects; dmypy's AST merge keeps a module's,
    function's or class's object across an edit but gives it new blocks, so any edit of the module changes the key
    and the shape is built again.  Nothing here depends on types or on other modules, and the cached dicts are
    never mutated by their readers.
    """

    _last: ClassVar[dict[int, _ModuleShape]] = {}

    def __init__(self, module: MypyFile, key: tuple[object, ...]) -> None:
        self.module = module
        self.key = key
        self.classes: dict[str, ClassDef] = {d.name: d for d in module.defs if isinstance(d, ClassDef)}
        self.owner: dict[int, ClassDef] = {
            id(sub): cls for cls in self.classes.values() for sub in cls.defs.body if isinstance(sub, FuncDef)
        }
        shapes: dict[str, tuple[FuncDef | ClassDef, int]] = {
            d.name: (d, forwarding_shape(d)) for d in module.defs if isinstance(d, FuncDef)
        }
        shapes.update((d.name, (d, forwarding_class_shape(d))) for d in module.defs if isinstance(d, ClassDef))
        self.forwarding = {name: d for name, (d, shape) in shapes.items() if shape != FORWARDS_NOT}
        # decorator factories (`@retry(3)`), and the decorators of either kind whose wrapper may call again
        factories = {d.name: (d, forwarding_factory(d)) for d in module.defs if isinstance(d, FuncDef)}
        self.factories = {name: d for name, (d, shape) in factories.items() if shape != FORWARDS_NOT}
        self.again = frozenset(
            name for name, (_, shape) in (*shapes.items(), *factories.items()) if shape == FORWARDS_AGAIN
        )

    @staticmethod
    def _key(module: MypyFile) -> tuple[object, ...]:
        parts: list[object] = [module.defs]
        for d in module.defs:
            parts.append(d)
            if isinstance(d, ClassDef):
                parts += (d.defs, d.defs.body)
            elif isinstance(d, FuncDef):
                parts += (d.body, d.body.body, d.arguments)
        return tuple(parts)

    @classmethod
    def of(cls, module: MypyFile) -> _ModuleShape:
        key = cls._key(module)
        found = cls._last.get(id(module))
        if (
            found is None or found.module is not module or len(found.key) != len(key)
            or any(a is not b for a, b in zip(found.key, key, strict=True))
        ):
            if len(cls._last) > 256:
                cls._last.clear()
            found = cls._last[id(module)] = _ModuleShape(module, key)
        return found


class ModuleClasses:
    """The module's top-level classes, by name (built once per `FileContext`)."""

    def __init__(self, module: MypyFile) -> None:
        self.module = module
        # `classes`, `owner`, `forwarding`: read from the module's tree alone, so shared by every analysis of the
        # same tree (`_ModuleShape`); the memos below are this analysis's own
        shape = _ModuleShape.of(module)
        self.classes: dict[str, ClassDef] = shape.classes
        self.owner: dict[int, ClassDef] = shape.owner
        # each method's own item changes and the methods it calls on its receiver (`item_changes.changed_items`)
        self.item_changes: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
        self.memo = SummaryMemo()
        self._runs: IdentityMemo[Node, bool] = IdentityMemo()
        self.generated: dict[int, GeneratedInit | None] = {}  # `generated_fields`, by class
        self._instances: IdentityMemo[Node, dict[str, ClassDef | None]] = IdentityMemo()
        self._bindings: IdentityMemo[Node, BindingIndex] = IdentityMemo()
        self._loops: IdentityMemo[Node, dict[str, tuple[ClassDef, ...]]] = IdentityMemo()
        # the module's top-level decorators that forward every call to the function they wrap (`forwards_calls`)
        self.forwarding = shape.forwarding
        self.factories = shape.factories
        self.again = shape.again
        self._forwarded: set[int] = set()
        self.repeated: set[int] = set()  # functions whose decorator may call them again (`AppliedSummary.repeats`)
        self._free: IdentityMemo[Node, list[str]] = IdentityMemo()
        self._orders: dict[str, tuple[tuple[str, ...], bool]] = {}
        self._class_values: dict[tuple[str, str], Expression | None] = {}
        self._getters: dict[tuple[int, str], FuncDef | None] = {}
        self._sequences: IdentityMemo[Node, frozenset[str]] = IdentityMemo()

    @functools.cached_property
    def method_names(self) -> frozenset[str]:
        """The names of every method the module's classes define (the CLI's `method_names`)."""
        return frozenset(
            s.name for cls in self.classes.values() for s in cls.defs.body
            if isinstance(s, FuncDef | Decorator | OverloadedFuncDef)
        )

    def free_names(self, callee: FuncItem) -> list[str]:
        """`_module_names`, once per function."""
        known = self._free.get(callee)
        if known is None:
            known = self._free[callee] = _module_names(callee)
        return known

    def runs_when_called(self, func: FuncItem) -> bool:
        """`_runs_when_called`, once per function (a call site asks again for every call of it)."""
        known = self._runs.get(func)
        if known is None:
            known = self._runs[func] = _runs_when_called(func, self._forwarded)
        return known

    def runs_when_awaited(self, func: FuncItem) -> bool:
        """An `async def` of the module (not an async generator), undecorated or wrapped only by decorators that
        forward its calls: awaiting a call of it runs its body there (the CLI's `runs_when_awaited`)."""
        if not isinstance(func, FuncDef) or not func.is_coroutine or func.is_async_generator:
            return False
        if func.is_decorated and id(func) not in self._forwarded:
            return False
        return not any(isinstance(n, YieldExpr | YieldFromExpr) for n in tree.walk_many(func.body.body))

    def runs_when_iterated(self, func: FuncItem) -> bool:
        """A generator function of the module (an async one too; no `yield from`), undecorated or wrapped only by
        decorators that forward its calls: taking an item of a call of it runs its body there (the CLI's
        `runs_when_iterated`)."""
        if not isinstance(func, FuncDef):
            return False
        if func.is_decorated and id(func) not in self._forwarded:
            return False
        inner = list(tree.walk_many(func.body.body))
        return any(isinstance(n, YieldExpr) for n in inner) and not any(isinstance(n, YieldFromExpr) for n in inner)

    def plain(self, node: Node | None) -> FuncDef | None:
        """The function a name defined by `node` calls: an undecorated function, or one whose decorators all
        forward calls to it (the module's own, `forwards_calls`); else None."""
        if isinstance(node, FuncDef):
            return None if node.is_decorated else node
        if not isinstance(node, Decorator) or not node.original_decorators:
            return None
        again = False
        for dec in node.original_decorators:
            if _stdlib_forwarding(dec):
                continue
            if isinstance(dec, CallExpr) and isinstance(dec.callee, NameExpr):
                factory = self.factories.get(dec.callee.name)
                if factory is None or dec.callee.node is not factory:
                    return None
                again = again or dec.callee.name in self.again  # `@retry(3)`: the decorator the factory returns
                continue
            forwarding = self.forwarding.get(dec.name) if isinstance(dec, NameExpr) else None
            defined = forwarding.info if isinstance(forwarding, ClassDef) else forwarding  # a class: its TypeInfo
            if forwarding is None or not isinstance(dec, NameExpr) or dec.node is not defined:
                return None
            again = again or dec.name in self.again
        if again:
            self.repeated.add(id(node.func))
        if id(node.func) not in self._forwarded:
            self._forwarded.add(id(node.func))
            self._runs.pop(node.func)
        return node.func

    def instances(self, body_owner: Node, body: list[Statement]) -> dict[str, ClassDef | None]:
        """`_instance_classes` of one body, walked once however many method calls it makes."""
        known = self._instances.get(body_owner)
        if known is None:
            known = self._instances[body_owner] = _instance_classes(body, self)
        return known

    def binding_index(self, body_owner: Node, body: list[Statement]) -> BindingIndex:
        """`_binding_index` of one body, built once."""
        known = self._bindings.get(body_owner)
        if known is None:
            known = self._bindings[body_owner] = _binding_index(body, self)
        return known

    def super_method(self, func: Node, name: str, receiver: ClassDef | None = None) -> FuncDef | None:
        """The method `super().name` runs inside `func`, a method of one of the module's classes, for a receiver
        of class `receiver` (else the method's own class; the CLI's `super_method`)."""
        owner = self.owner.get(id(func))
        chain = list(self._chain(receiver if receiver is not None else owner)) if owner is not None else []
        return self._lookup(chain[chain.index(owner) + 1:], name) if owner in chain else None

    def loop_instances(self, body_owner: Node, body: list[Statement]) -> dict[str, tuple[ClassDef, ...]]:
        """`_loop_classes` of one body, walked once."""
        known = self._loops.get(body_owner)
        if known is None:
            known = self._loops[body_owner] = _loop_classes(body, self)
        return known

    @functools.cached_property
    def with_views(self) -> bool:
        """Whether some class of the module has a property or an `__iter__` read as a view of its attributes
        (the CLI front end's `ModuleClasses.with_views`)."""
        return any(_attribute_property(s) is not None or _iterated_attributes(s) is not None
                   or _property_returns(s) is not None
                   or _accessor_path(s, self.sequences(cls)) is not None or _item_path(s) is not None
                   for cls in self.classes.values() for s in cls.defs.body)

    def accessor(self, cls: ClassDef, name: str) -> tuple[str, ...] | None:
        """The attribute path the method `name` of `cls` (an override first) returns from its receiver, when that
        is all it does (the CLI front end's rule)."""
        found = self.method(cls, name)
        return _accessor_path(found, self.sequences(self.owner.get(id(found), cls))) if found is not None else None

    def accessor_makes_new(self, cls: ClassDef, name: str) -> bool:
        """Whether the accessor `name` of `cls` may return a new value instead (the CLI's)."""
        found = self.method(cls, name)
        return found is not None and _peek_makes_new(found, self.sequences(self.owner.get(id(found), cls)))

    def sequences(self, cls: ClassDef) -> frozenset[str]:
        """`_sequence_attributes` of a class, computed once."""
        found = self._sequences.get(cls)
        if found is None:
            found = self._sequences[cls] = _sequence_attributes(cls)
        return found

    @functools.cached_property
    def peeked(self) -> frozenset[str]:
        """The attribute names some accessor of the module peeks at (the CLI front end's `peeked`)."""
        return frozenset(
            path[-2]
            for cls in self.classes.values()
            for s in cls.defs.body
            if (path := _accessor_path(s, self.sequences(cls))) is not None and path[-1].startswith(calls.PEEKED_PREFIX)
        )

    def item_accessor(self, cls: ClassDef, name: str = "__getitem__") -> tuple[str, ...] | None:
        """The attribute path whose item the `__getitem__` of `cls` (or its method `name`) returns, when that is
        all it does (the CLI front end's rule)."""
        found = self.method(cls, name)
        return _item_path(found) if found is not None else None

    def subclasses(self, cls: ClassDef) -> list[ClassDef]:
        """The module's classes whose method resolution order reaches `cls` (not `cls` itself)."""
        return [c for c in self.classes.values() if c is not cls and any(b is cls for b in self._chain(c))]

    def attribute_view(self, cls: ClassDef, name: str) -> tuple[str, ...] | None:
        """The attribute path a `@property` `name` of `cls` returns from its receiver, when that is all it does
        and nothing else binds `name` (the CLI front end's rule)."""
        for current in self._chain(cls):
            bound = [s for s in current.defs.body if _binds_name(s, name)]
            if bound:
                found = _attribute_property(bound[0]) if len(bound) == 1 else None
                return found[1] if found is not None and found[0] == name else None
        return None

    def property_returns(self, cls: ClassDef, name: str) -> tuple[tuple[tuple[str, ...], ...], bool] | None:
        """What a property `name` of `cls` that only tests and returns gives (the CLI's `property_returns`)."""
        for current in self._chain(cls):
            bound = [s for s in current.defs.body if _binds_name(s, name)]
            if bound:
                return _property_returns(bound[0]) if len(bound) == 1 else None
        return None

    def iterated(self, cls: ClassDef) -> tuple[tuple[str, ...], ...] | None:
        """The attribute paths an `__iter__` of `cls` gives, in order (the CLI front end's rule)."""
        for current in self._chain(cls):
            bound = [s for s in current.defs.body if _binds_name(s, "__iter__")]
            if bound:
                return _iterated_attributes(bound[0]) if len(bound) == 1 else None
        return None

    def own_iter(self, cls: ClassDef) -> bool:
        """Whether `cls`, a class along its `_chain` or a subclass of the module defines `__iter__` (the CLI's
        `own_iter`)."""
        return any(_binds_name(s, "__iter__") and _user_written(c, s)
                   for c in (*self._chain(cls), *self.subclasses(cls)) for s in c.defs.body)

    def init_chain(self, cls: ClassDef) -> tuple[FuncDef, tuple[ClassDef, ...]] | None:
        """The `__init__` an instance of `cls` runs, its own or the one it inherits along its method resolution order
        in the module (no decorator on the way), with that chain's known classes (the CLI's `init_chain`)."""
        chain = tuple(self._chain(cls))
        for current in chain:
            init = next((d for d in current.defs.body if isinstance(d, FuncDef) and d.name == "__init__"), None)
            if init is not None:
                return init, chain
            if not all(self.keeps_class(d) for d in current.decorators) or any(
                _binds_name(s, "__init__") for s in current.defs.body
            ):
                return None
        return None

    def keeps_class(self, decorator: Expression) -> bool:
        """A class decorator that gives the class itself back (the CLI's `keeps_class`)."""
        target = decorator.callee if isinstance(decorator, CallExpr) else decorator
        func = self._functions.get(target.name) if isinstance(target, NameExpr) else None
        if func is None:
            return False
        if _returns_first_parameter(func):
            return not isinstance(decorator, CallExpr)
        if not isinstance(decorator, CallExpr):
            return False
        inner = {s.name: s for s in func.body.body if isinstance(s, FuncDef)}
        returned = [r.expr for r in _own_returns(func)]
        return bool(returned) and all(
            isinstance(v, NameExpr) and v.name in inner and _returns_first_parameter(inner[v.name]) for v in returned
        )

    @functools.cached_property
    def _functions(self) -> dict[str, FuncDef]:
        return {s.name: s for s in self.module.defs if isinstance(s, FuncDef)}

    def init_statements(self, cls: ClassDef) -> list[tuple[str, Statement]]:
        """The top-level statements of the `__init__` an object of `cls` runs, in order, each with the receiver name
        of the `__init__` it is in, a `super().__init__(...)` statement standing for the next one's (the CLI's)."""
        found = self.init_chain(cls)
        out: list[tuple[str, Statement]] = []
        if found is not None:
            self._init_statements(found[0], found[1], out)
        return out

    def _init_statements(self, init: FuncDef, chain: tuple[ClassDef, ...], out: list[tuple[str, Statement]]) -> None:
        if not init.arguments:
            return
        owner = next((i for i, c in enumerate(chain) if any(s is init for s in c.defs.body)), None)
        for stmt in init.body.body:
            base = self.init_chain(chain[owner + 1]) if owner is not None and owner + 1 < len(chain) else None
            if base is not None and _calls_super_init(stmt):
                self._init_statements(base[0], base[1], out)
            else:
                out.append((init.arguments[0].variable.name, stmt))

    def factory_method(self, cls: ClassDef, name: str) -> FuncDef | None:
        """The `@classmethod` `name` along `cls`'s method resolution order whose every `return` is `cls(...)` of its
        own first parameter, never rebound (the CLI's `factory_method`)."""
        found: Node | None = None
        for current in self._chain(cls):
            for stmt in current.defs.body:
                if isinstance(stmt, FuncDef | Decorator | OverloadedFuncDef) and stmt.name == name:
                    found = stmt
                elif isinstance(stmt, AssignmentStmt) and any(
                    isinstance(t, NameExpr) and t.name == name for t in stmt.lvalues
                ):
                    found = stmt
            if found is not None:
                break
        if not isinstance(found, Decorator) or len(found.original_decorators) != 1:
            return None
        decorator = found.original_decorators[0]
        func = found.func
        if not (isinstance(decorator, NameExpr) and decorator.name == "classmethod") or not func.arguments:
            return None
        if func.is_generator or func.is_coroutine:
            return None
        me = func.arguments[0].variable.name
        inner = list(tree.walk_many(func.body.body))
        returned = [n.expr for n in inner if isinstance(n, ReturnStmt)]
        stored: set[str] = set()
        for n in inner:
            if isinstance(n, AssignmentStmt):
                stored.update(*(_stored(t) for t in n.lvalues))
            elif isinstance(n, OperatorAssignmentStmt):
                stored.update(_stored(n.lvalue))
            elif isinstance(n, ForStmt):
                stored.update(_stored(n.index))
            elif isinstance(n, AssignmentExpr):
                stored.update(_stored(n.target))
            elif isinstance(n, DelStmt):
                stored.update(_stored(n.expr))
            elif isinstance(n, WithStmt):
                stored.update(*(_stored(t) for t in n.target if t is not None))
        if not returned or me in stored:
            return None
        made = all(
            isinstance(v, CallExpr) and isinstance(v.callee, NameExpr) and v.callee.name == me for v in returned
        )
        return func if made else None

    def _chain(self, cls: ClassDef) -> Iterator[ClassDef]:
        """`cls`, then the module's classes along its method resolution order (the CLI's `_chain`)."""
        yield cls
        for name in self.order(cls)[0][1:]:
            yield self.classes[name]

    def order(self, cls: ClassDef) -> tuple[tuple[str, ...], bool]:
        """The names of `cls`'s method resolution order the module defines, and whether that is all of it."""
        known = self._orders.get(cls.name)
        if known is None:
            known = self._orders[cls.name] = class_order.linearized(cls.name, self._bases_of)
        return known

    def complete_chain(self, cls: ClassDef) -> list[ClassDef] | None:
        """`_chain` when every class of the method resolution order is the module's (the CLI's)."""
        return list(self._chain(cls)) if self.order(cls)[1] else None

    def _bases_of(self, name: str) -> tuple[str, ...] | None:
        cls = self.classes.get(name)
        if cls is None:
            return None
        bases = [
            b.name if isinstance(b, NameExpr) else class_order.UNKNOWN_BASE
            for b in cls.base_type_exprs + cls.removed_base_type_exprs
            if not (isinstance(b, NameExpr) and b.name == "object")
        ]
        unknown = bool(cls.keywords) or cls.metaclass is not None
        return (*bases, class_order.UNKNOWN_BASE) if unknown else tuple(bases)

    def method(self, cls: ClassDef, name: str, iterated: bool = False) -> FuncDef | None:
        """The method `name` an instance of `cls` runs (the CLI's `method`; with `iterated`, a generator method
        too)."""
        return self._lookup(self._chain(cls), name, iterated)

    def definition(self, cls: ClassDef, name: str) -> Node | None:
        """The statement that defines `name` for an instance of `cls`, a decorated method too (the CLI's)."""
        for current in self._chain(cls):
            found: Node | None = None
            for stmt in current.defs.body:
                if isinstance(stmt, FuncDef | Decorator | OverloadedFuncDef | ClassDef) and stmt.name == name:
                    found = stmt
                elif isinstance(stmt, AssignmentStmt) and any(
                    isinstance(t, NameExpr) and t.name == name for t in stmt.lvalues
                ):
                    found = stmt
            if found is not None:
                return found
        return None

    def class_value(self, cls: ClassDef, name: str) -> Expression | None:
        """The expression `obj.name` reads for an object of `cls` that has no attribute `name` of its own (the
        CLI's `class_value`)."""
        key = (cls.name, name)
        if key not in self._class_values:
            self._class_values[key] = self._class_value(cls, name)
        return self._class_values[key]

    def _class_value(self, cls: ClassDef, name: str) -> Expression | None:
        chain = self.complete_chain(cls)
        if chain is None or name in self._stored_attributes or "setattr" in self._stored_attributes:
            return None
        for current in chain:
            bindings = [s for s in current.defs.body if _class_body_binds(s, name)]
            if not bindings:
                continue
            stmt = bindings[0]
            if len(bindings) == 1 and isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1:
                return stmt.rvalue if isinstance(stmt.lvalues[0], NameExpr) else None
            return None
        return None

    @functools.cached_property
    def _stored_attributes(self) -> frozenset[str]:
        """The attribute names the module stores or deletes anywhere, and `setattr` when it names that function
        (the CLI's `_stored_attributes`)."""

        found: set[str] = set()
        for node in tree.walk_many(self.module.defs, skip_scopes=False):
            if isinstance(node, NameExpr) and node.name == "setattr":
                found.add("setattr")
            for target in tree.stored_targets(node):
                found |= _stored_members(target)
        return frozenset(found)

    @functools.cached_property
    def has_getters(self) -> bool:
        """Whether some class of the module defines a `@property` (the CLI's)."""
        return any(
            (isinstance(stmt, Decorator) and stmt.func.is_property)
            or (isinstance(stmt, OverloadedFuncDef) and stmt.is_property)
            for cls in self.classes.values()
            for stmt in cls.defs.body
        )

    @functools.cached_property
    def view_getter_names(self) -> frozenset[str]:
        """The names of the `@property` getters whose every `return` is written as a view (the CLI's)."""
        found: set[str] = set()
        for cls in self.classes.values():
            for stmt in cls.defs.body:
                if not (isinstance(stmt, Decorator) and len(stmt.original_decorators) == 1):
                    continue
                decorator = stmt.original_decorators[0]
                if not (isinstance(decorator, NameExpr) and decorator.name == "property"):
                    continue
                returned = [r.expr for r in tree.walk_many(stmt.func.body.body) if isinstance(r, ReturnStmt)]
                if returned and all(_written_as_view(value) for value in returned):
                    found.add(stmt.func.name)
        return frozenset(found)

    def getter(self, cls: ClassDef, name: str) -> FuncDef | None:
        """The getter of a `@property` `name` an instance of `cls` reads, decorated `@property` alone (the CLI's
        `getter`; a property with a setter is an overloaded definition whose first item is the getter)."""
        key = (id(cls), name)
        if key not in self._getters:
            self._getters[key] = self._getter(cls, name)
        return self._getters[key]

    def plain_getter(self, cls: ClassDef, name: str) -> FuncDef | None:
        """`getter`, when nothing else of the class binds `name` (the CLI's `plain_getter`: a property with a
        setter is an overloaded definition here)."""
        for current in self._chain(cls):
            bound = [s for s in current.defs.body if _class_body_binds(s, name)]
            if bound:
                single = len(bound) == 1 and not isinstance(bound[0], OverloadedFuncDef)
                return self.getter(cls, name) if single else None
        return None

    @functools.cached_property
    def computed_attribute_names(self) -> frozenset[str]:
        """The names of the module's methods decorated `@property` or `@functools.cached_property` alone (the
        CLI's: a name the module also stores or deletes is left out)."""
        if "setattr" in self._stored_attributes:
            return frozenset()
        return frozenset(self._computed_names - self._stored_attributes)

    @functools.cached_property
    def _computed_names(self) -> frozenset[str]:
        return frozenset(
            stmt.name for cls in self.classes.values() for stmt in cls.defs.body
            if isinstance(stmt, Decorator) and len(stmt.original_decorators) == 1
            and tree.dotted(stmt.original_decorators[0]) in PROPERTY_DECORATORS
        )

    def computed_attribute(self, cls: ClassDef, name: str) -> FuncDef | None:
        """The function a read of `name` on an instance of `cls` runs, when the one binding of `name` along its
        method resolution order is a method decorated `@property` or `@functools.cached_property` alone (the
        CLI's)."""
        for current in self._chain(cls):
            bound = [s for s in current.defs.body if _class_body_binds(s, name)]
            if not bound:
                continue
            only = bound[0] if len(bound) == 1 else None
            if isinstance(only, Decorator) and len(only.original_decorators) == 1 and (
                tree.dotted(only.original_decorators[0]) in PROPERTY_DECORATORS
            ):
                return only.func
            return None
        return None

    def _getter(self, cls: ClassDef, name: str) -> FuncDef | None:
        for current in self._chain(cls):
            bindings = [stmt for stmt in current.defs.body if _class_body_binds(stmt, name)]
            if not bindings:
                continue
            first: Node = bindings[0]
            if isinstance(first, OverloadedFuncDef) and first.items:
                first = first.items[0]
            if not isinstance(first, Decorator) or len(first.original_decorators) != 1:
                return None
            decorator = first.original_decorators[0]
            plain = isinstance(decorator, NameExpr) and decorator.name == "property"
            return first.func if plain else None
        return None

    def unbound_method(self, cls: ClassDef, name: str) -> tuple[FuncDef, str] | None:
        """The `@staticmethod` or `@classmethod` `name` an instance of `cls` finds along its method resolution
        order, with that decorator's name (the CLI's `ModuleClasses.unbound_method`)."""
        for current in self._chain(cls):
            bound = [s for s in current.defs.body if _class_body_binds(s, name)]
            if bound:
                return plain_unbound(bound[-1])
        return None

    def _lookup(self, chain: Iterable[ClassDef], name: str, iterated: bool = False) -> FuncDef | None:
        for current in chain:
            found: Node | None = None
            for stmt in current.defs.body:
                if isinstance(stmt, FuncDef | Decorator | OverloadedFuncDef) and stmt.name == name:
                    found = stmt
                elif isinstance(stmt, AssignmentStmt) and any(
                    isinstance(t, NameExpr) and t.name == name for t in stmt.lvalues
                ):
                    found = stmt
            if found is not None:
                plain = self.plain(found) if isinstance(found, FuncDef | Decorator) else None
                runs = plain is not None and (
                    self.runs_when_called(plain) or (iterated and self.runs_when_iterated(plain))
                )
                return plain if runs else None
        return None


def _own_returns(func: FuncDef) -> list[ReturnStmt]:
    """The `return` statements of `func`'s own body (not of the functions and classes it defines)."""
    return [n for n in tree.walk_many(func.body.body) if isinstance(n, ReturnStmt)]


def _returns_first_parameter(func: FuncDef) -> bool:
    positional = [a for a in func.arguments if a.kind in _POSITIONAL]
    returned = [r.expr for r in _own_returns(func)]
    return bool(positional) and bool(returned) and all(
        isinstance(v, NameExpr) and v.name == positional[0].variable.name for v in returned
    )


def _calls_super_init(stmt: Statement) -> bool:
    """`super().__init__(...)` as a statement (the CLI's)."""
    call = stmt.expr if isinstance(stmt, ExpressionStmt) else None
    return isinstance(call, CallExpr) and isinstance(call.callee, SuperExpr) and call.callee.name == "__init__" and (
        not call.callee.call.args
    )


def _class_body_binds(stmt: Statement, name: str) -> bool:
    """Whether a statement of a class body binds `name` in the class's namespace (the CLI's `_class_body_binds`):
    a bare annotation binds nothing."""

    if isinstance(stmt, AssignmentStmt) and isinstance(stmt.rvalue, TempNode) and stmt.rvalue.no_rhs:
        return False
    if _binds_name(stmt, name):
        return True
    if isinstance(stmt, FuncDef | Decorator | OverloadedFuncDef | ClassDef):
        return False
    if isinstance(stmt, Import):
        return any((alias or module.split(".")[0]) == name for module, alias in stmt.ids)
    if isinstance(stmt, ImportFrom):
        return any((alias or imported) == name for imported, alias in stmt.names)
    if isinstance(stmt, ImportAll):
        return True
    return any(name in _stored(t) for node in tree.walk(stmt) for t in tree.stored_targets(node))


def _stored_members(target: Expression) -> set[str]:
    """The attribute names an assignment target stores (`obj.kernel` of `obj.kernel, n = ...`)."""
    if isinstance(target, MemberExpr):
        return {target.name}
    if isinstance(target, TupleExpr | ListExpr):
        return set().union(*(_stored_members(e) for e in target.items)) if target.items else set()
    if isinstance(target, StarExpr):
        return _stored_members(target.expr)
    return set()


def _binds_name(stmt: Statement, name: str) -> bool:
    """Whether a statement of a class body binds `name` (a method, a property with its setter, an assignment)."""
    if isinstance(stmt, FuncDef | Decorator | OverloadedFuncDef | ClassDef):
        return stmt.name == name
    if isinstance(stmt, AssignmentStmt):
        return any(isinstance(t, NameExpr) and t.name == name for t in stmt.lvalues)
    return False


def receiver_path(expr: Expression | None, receiver: str) -> tuple[str, ...] | None:
    """`self.a.b` as `("a", "b")` when rooted at the parameter `receiver`."""
    parts: list[str] = []
    while isinstance(expr, MemberExpr):
        parts.append(expr.name)
        expr = expr.expr
    if isinstance(expr, NameExpr) and expr.name == receiver and parts:
        return tuple(reversed(parts))
    return None


def _only_statements(func: FuncDef) -> list[Statement]:
    """A function's statements without its docstring."""
    body = func.body.body
    if body and isinstance(body[0], ExpressionStmt) and isinstance(body[0].expr, StrExpr):
        body = body[1:]
    return body


def _receiver_param(func: FuncDef) -> str | None:
    """The one parameter of a method taking only its receiver."""
    if len(func.arguments) != 1 or func.arguments[0].kind != ARG_POS:
        return None
    return func.arguments[0].variable.name


def _attribute_property(stmt: Statement) -> tuple[str, tuple[str, ...]] | None:
    """`@property def name(self): return self.a.b` as `(name, ("a", "b"))`."""
    if not isinstance(stmt, Decorator) or len(stmt.original_decorators) != 1:
        return None
    decorator = stmt.original_decorators[0]
    receiver = _receiver_param(stmt.func)
    if not (isinstance(decorator, NameExpr) and decorator.name == "property") or receiver is None:
        return None
    body = _only_statements(stmt.func)
    if len(body) != 1 or not isinstance(body[0], ReturnStmt):
        return None
    path = receiver_path(body[0].expr, receiver)
    return (stmt.name, path) if path is not None else None


#: The decorators that make a method a read-only attribute computed from its receiver (the CLI's names).
PROPERTY_DECORATORS = frozenset({"property", "cached_property", "functools.cached_property"})
_HARMLESS_BUILTINS = frozenset({"len", "min", "max", "int", "float", "bool", "isinstance", "str", "range"})
_OWNERSHIP_METHODS = MOVING_METHODS | SIMT_LAUNCH_METHODS | {"launch", "launch_async", "sync", "then", "prepare"}


def _harmless(expr: Expression | None, receiver: str) -> bool:
    """An expression that only reads (the CLI's `_harmless`)."""
    if expr is None:
        return True
    for sub in tree.walk_many([expr]):
        if isinstance(sub, AssignmentExpr | AwaitExpr | YieldExpr | YieldFromExpr | LambdaExpr):
            return False
        if isinstance(sub, CallExpr):
            func = sub.callee
            if isinstance(func, NameExpr):
                if func.name not in _HARMLESS_BUILTINS:
                    return False
            elif isinstance(func, MemberExpr):
                root = tree.dotted(func)
                if root is None or root.split(".")[0] == receiver or func.name in _OWNERSHIP_METHODS:
                    return False
            else:
                return False
    return True


def _property_returns(stmt: Statement) -> tuple[tuple[tuple[str, ...], ...], bool] | None:
    """A `@property` (or `@functools.cached_property`) whose body only tests and returns: the receiver's
    attribute paths its returns may give, and whether some return gives a new value (the CLI's
    `_property_returns`)."""
    if not isinstance(stmt, Decorator) or len(stmt.original_decorators) != 1:
        return None
    receiver = _receiver_param(stmt.func)
    if tree.dotted(stmt.original_decorators[0]) not in PROPERTY_DECORATORS or receiver is None:
        return None
    paths: list[tuple[str, ...]] = []
    fresh = False

    def value(expr: Expression | None) -> bool:
        nonlocal fresh
        if isinstance(expr, ConditionalExpr):
            return _harmless(expr.cond, receiver) and value(expr.if_expr) and value(expr.else_expr)
        if isinstance(expr, OpExpr) and expr.op == "or":
            return value(expr.left) and value(expr.right)
        path = receiver_path(expr, receiver)
        if path is not None:
            paths.append(path)
            return True
        if expr is not None and _harmless(expr, receiver):
            fresh = True
            return True
        return False

    def block(body: list[Statement]) -> bool:
        for sub in body:
            if isinstance(sub, ReturnStmt):
                if not value(sub.expr):
                    return False
            elif isinstance(sub, IfStmt):
                if not all(_harmless(test, receiver) for test in sub.expr):
                    return False
                if not all(block(b.body) for b in sub.body):
                    return False
                if sub.else_body is not None and not block(sub.else_body.body):
                    return False
            elif not isinstance(sub, PassStmt):
                return False
        return True

    if not block(_only_statements(stmt.func)) or not paths:
        return None
    return tuple(dict.fromkeys(paths)), fresh


def _accessor_path(stmt: Statement, sequences: frozenset[str] = frozenset()) -> tuple[str, ...] | None:
    """`def target(self): return self.a.b` (undecorated, taking only its receiver) as `("a", "b")`; also a peek at
    a deque or list attribute at a literal index after guards that raise or return a new value, through one name
    (the CLI front end's rule)."""
    if not isinstance(stmt, FuncDef) or stmt.is_decorated:
        return None
    receiver = _receiver_param(stmt)
    body = _only_statements(stmt)
    if receiver is None or len(body) != 1 or not isinstance(body[0], ReturnStmt):
        return None if receiver is None or not sequences else _peek_path(body, receiver, sequences)
    found = receiver_path(body[0].expr, receiver)
    return found if found is not None or not sequences else _peek_path(body, receiver, sequences)


def _peek_makes_new(stmt: Statement, sequences: frozenset[str]) -> bool:
    """Whether a peeking accessor returns a new value from one of its guards (the CLI's `_peek_makes_new`)."""
    if not isinstance(stmt, FuncDef) or _accessor_path(stmt, sequences) is None:
        return False
    return any(
        isinstance(g, IfStmt) and isinstance(g.body[0].body[-1], ReturnStmt) for g in _only_statements(stmt)[:-1]
    )


def _peek_path(body: list[Statement], receiver: str, sequences: frozenset[str]) -> tuple[str, ...] | None:
    """The peeked path a method body of guards, a binding and a return gives (the CLI front end's `_peek_path`)."""
    if not body or not isinstance(body[-1], ReturnStmt):
        return None
    returned, guards = body[-1].expr, body[:-1]
    if (
        isinstance(returned, NameExpr)
        and guards
        and isinstance(bound := guards[-1], AssignmentStmt)
        and len(bound.lvalues) == 1
        and isinstance(bound.lvalues[0], NameExpr)
        and bound.lvalues[0].name == returned.name
    ):
        returned, guards = bound.rvalue, guards[:-1]
    for g in guards:
        if not (isinstance(g, IfStmt) and g.else_body is None and len(g.expr) == 1 and _harmless(g.expr[0], receiver)):
            return None
        block = g.body[0].body
        if len(block) != 1:
            return None
        made = block[0].expr if isinstance(block[0], ReturnStmt) else None
        if not isinstance(block[0], RaiseStmt) and not (isinstance(made, CallExpr) and _harmless(made, receiver)):
            return None
    if not isinstance(returned, IndexExpr):
        return None
    index = _index_literal(returned.index)
    base = receiver_path(returned.base, receiver)
    if base is None or base[-1] not in sequences or index is None:
        return None
    return calls.peeked_path(base, index)


def _index_literal(expr: Expression) -> int | None:
    """An integer literal index, negative ones included (the CLI's `_index_literal`)."""
    if isinstance(expr, UnaryExpr) and expr.op == "-":
        inner = _index_literal(expr.expr)
        return -inner if inner is not None else None
    return expr.value if isinstance(expr, IntExpr) else None


#: Calls that make a new, empty sequence a peek may read once it is filled (the CLI's).
_SEQUENCE_FACTORIES: Final[frozenset[str]] = frozenset({"deque", "collections.deque", "list"})


def _sequence_attributes(cls: ClassDef) -> frozenset[str]:
    """The attributes a method of `cls` binds on its receiver to a `deque(...)` call or a new list, and the fields
    its body declares with such a default (the CLI's rule)."""

    def new_sequence(value: Expression) -> bool:
        if isinstance(value, ListExpr):
            return not value.items
        if not isinstance(value, CallExpr):
            return False
        name = tree.dotted(value.callee)
        if name in _SEQUENCE_FACTORIES:
            return name != "list" or not value.args
        return name in ("field", "dataclasses.field") and any(
            keyword == "default_factory" and tree.dotted(arg) in _SEQUENCE_FACTORIES
            for arg, keyword in zip(value.args, value.arg_names, strict=True)
        )

    found: set[str] = set()
    for stmt in cls.defs.body:
        if (
            isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and isinstance(stmt.lvalues[0], NameExpr)
            and new_sequence(stmt.rvalue)
        ):
            found.add(stmt.lvalues[0].name)  # a dataclass field
    for method in cls.defs.body:
        func = method.func if isinstance(method, Decorator) else method
        if not isinstance(func, FuncDef) or not func.arguments:
            continue
        receiver = func.arguments[0].variable.name
        for node in tree.walk(func.body):
            if not isinstance(node, AssignmentStmt) or not new_sequence(node.rvalue):
                continue
            for target in node.lvalues:
                path = receiver_path(target, receiver)
                if path is not None and len(path) == 1:
                    found.add(path[0])
    return frozenset(found)


def _item_path(stmt: Statement) -> tuple[str, ...] | None:
    """`def __getitem__(self, key): return self.a.b[key]` (undecorated) as `("a", "b")`; also any method of that
    shape, and a memoizing one storing a new item under a missing key first (the CLI front end's rule)."""
    if not isinstance(stmt, FuncDef) or stmt.is_decorated:
        return None
    if len(stmt.arguments) != 2 or any(a.kind != ARG_POS for a in stmt.arguments):
        return None
    body = _only_statements(stmt)
    key, receiver = stmt.arguments[1].variable.name, stmt.arguments[0].variable.name
    stored: tuple[str, ...] | None = None  # the memoizing store's path, which the return must read
    if len(body) == 2 and isinstance(memo := body[0], IfStmt) and memo.else_body is None and len(memo.expr) == 1:
        test, block = memo.expr[0], memo.body[0].body
        if not (
            isinstance(test, ComparisonExpr) and test.operators == ["not in"]
            and isinstance(test.operands[0], NameExpr) and test.operands[0].name == key
            and len(block) == 1 and isinstance(store := block[0], AssignmentStmt) and len(store.lvalues) == 1
            and isinstance(target := store.lvalues[0], IndexExpr)
            and isinstance(target.index, NameExpr) and target.index.name == key
            and (stored := receiver_path(test.operands[1], receiver)) is not None
            and receiver_path(target.base, receiver) == stored
        ):
            return None
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ReturnStmt) or not isinstance(body[0].expr, IndexExpr):
        return None
    value = body[0].expr
    if not (isinstance(value.index, NameExpr) and value.index.name == key):
        return None
    found = receiver_path(value.base, receiver)
    return found if stored is None or found == stored else None


def _iterated_attributes(stmt: Statement) -> tuple[tuple[str, ...], ...] | None:
    """`def __iter__(self): return iter((self.a, self.b))` or `yield self.a` / `yield self.b` statements: the
    receiver's attribute paths it gives, in order (the CLI front end's rule)."""
    if not isinstance(stmt, FuncDef) or stmt.name != "__iter__" or stmt.is_decorated:
        return None
    receiver = _receiver_param(stmt)
    body = _only_statements(stmt)
    if receiver is None or not body:
        return None
    items: list[Expression | None] = []
    if len(body) == 1 and isinstance(body[0], ReturnStmt):
        value = body[0].expr
        if not (
            isinstance(value, CallExpr)
            and isinstance(value.callee, NameExpr)
            and value.callee.name == "iter"
            and value.arg_kinds == [ARG_POS]
            and isinstance(value.args[0], TupleExpr | ListExpr)
        ):
            return None
        items = list(value.args[0].items)
    elif all(isinstance(s, ExpressionStmt) and isinstance(s.expr, YieldExpr) for s in body):
        items = [s.expr.expr for s in body if isinstance(s, ExpressionStmt) and isinstance(s.expr, YieldExpr)]
    else:
        return None
    paths = tuple(receiver_path(item, receiver) for item in items)
    if not paths or any(p is None for p in paths):
        return None
    return tuple(p for p in paths if p is not None)


def _stored(target: Expression) -> set[str]:
    if isinstance(target, NameExpr):
        return {target.name}
    if isinstance(target, TupleExpr | ListExpr):
        return set().union(*(_stored(e) for e in target.items)) if target.items else set()
    if isinstance(target, StarExpr):
        return _stored(target.expr)
    return set()


def static_method(
    lowerer: FunctionLowerer, owner: NameExpr, name: str, classes: ModuleClasses, kind: str | None = "staticmethod"
) -> FuncDef | None:
    """`Class.name` of a top-level class not shadowed here, when its body defines `name` as a plain function whose
    only decorator is `@staticmethod` (`kind`; or `@classmethod`; None: either) (the CLI's rule)."""
    cls = classes.classes.get(owner.name)
    if cls is None or owner.node is not cls.info:
        return None
    found = classes.unbound_method(cls, name)
    return found[0] if found is not None and kind in (None, found[1]) else None


def plain_unbound(stmt: Node) -> tuple[FuncDef, str] | None:
    """`stmt`'s function with its decorator's name when its only decorator is `@staticmethod` or `@classmethod`
    and its body does not suspend (the CLI's `plain_unbound`)."""
    if not isinstance(stmt, Decorator) or len(stmt.original_decorators) != 1:
        return None
    decorator = stmt.original_decorators[0]
    if not (isinstance(decorator, NameExpr) and decorator.name in ("staticmethod", "classmethod")):
        return None
    func = stmt.func
    if func.is_coroutine or func.is_generator:
        return None
    suspends = any(isinstance(n, AwaitExpr | YieldExpr | YieldFromExpr) for n in tree.walk_many(func.body.body))
    return None if suspends else (func, decorator.name)


def _plain_method(owner: NameExpr, name: str, classes: ModuleClasses) -> FuncDef | None:
    """The undecorated method `name` of the top-level class `owner` (not shadowed here) that builds its objects
    plainly (no metaclass, no `__new__`), found along its chain of bases of this module (the CLI's rule)."""
    cls = classes.classes.get(owner.name)
    if cls is None or owner.node is not cls.info or cls.keywords:
        return None
    if any(isinstance(s, FuncDef | Decorator | OverloadedFuncDef) and s.name == "__new__" for s in cls.defs.body):
        return None
    found = classes.method(cls, name)
    if found is None or found.is_decorated or not found.arguments:
        return None
    return found


def _assigned_class(lvalues: list[Lvalue], value: Expression, classes: ModuleClasses) -> ClassDef | None:
    """The class of the module whose object `name = value` binds (the CLI's `_assigned_class`)."""
    if len(lvalues) != 1 or not isinstance(value, CallExpr):
        return None
    if isinstance(value.callee, NameExpr):
        return classes.classes.get(value.callee.name)
    if (
        isinstance(value.callee, MemberExpr)
        and isinstance(value.callee.expr, NameExpr)
        and (owner := classes.classes.get(value.callee.expr.name)) is not None
        and classes.factory_method(owner, value.callee.name) is not None
    ):
        return owner
    return None


@dataclass(frozen=True)
class BindingIndex:
    """Where a body binds each name, for `reaching.reaching` (the CLI's `BindingIndex`)."""

    paths: dict[int, reaching.Path]
    bindings: dict[str, list[tuple[reaching.Path, ClassDef | None]]]
    loops: frozenset[reaching.Path]


def _binding_index(body: list[Statement], classes: ModuleClasses) -> BindingIndex:
    """The `BindingIndex` of a function's body (the CLI's `_binding_index`)."""
    paths: dict[int, reaching.Path] = {}
    bindings: dict[str, list[tuple[reaching.Path, ClassDef | None]]] = {}
    loops: set[reaching.Path] = set()

    def visit(stmts: list[Statement], prefix: reaching.Path, block: int) -> None:
        for index, stmt in enumerate(stmts):
            path = (*prefix, (block, index))
            paths[id(stmt)] = path
            for name, cls in _statement_bindings(stmt, classes):
                bindings.setdefault(name, []).append((path, cls))
            if isinstance(stmt, ForStmt | WhileStmt):
                loops.add(path)
            if isinstance(stmt, FuncDef | Decorator | OverloadedFuncDef | ClassDef):
                continue
            for number, child, caught in _statement_blocks(stmt):
                if caught is not None:  # `except E as caught:` binds at the start of its handler
                    bindings.setdefault(caught, []).append(((*path, (number, -1)), None))
                visit(child.body, path, number)

    visit(body, (), 0)
    return BindingIndex(paths, bindings, frozenset(loops))


def _statement_blocks(stmt: Statement) -> list[tuple[int, Block, str | None]]:
    """The blocks of a compound statement numbered as the CLI's `_statement_blocks` numbers Python's statement
    lists (an `if`'s body 0 and `else` 1; a `try`'s body 0, handlers 1.., `else`, `finally`), each with the name
    its `except` binds."""
    out: list[tuple[int, Block, str | None]] = []
    if isinstance(stmt, IfStmt):
        out.extend((i, b, None) for i, b in enumerate(stmt.body))
        if stmt.else_body is not None:
            out.append((len(stmt.body), stmt.else_body, None))
    elif isinstance(stmt, ForStmt | WhileStmt):
        out.append((0, stmt.body, None))
        if stmt.else_body is not None:
            out.append((1, stmt.else_body, None))
    elif isinstance(stmt, WithStmt):
        out.append((0, stmt.body, None))
    elif isinstance(stmt, TryStmt):
        out.append((0, stmt.body, None))
        handlers = enumerate(zip(stmt.handlers, stmt.vars, strict=True))
        out.extend((1 + i, b, v.name if v is not None else None) for i, (b, v) in handlers)
        if stmt.else_body is not None:
            out.append((1 + len(stmt.handlers), stmt.else_body, None))
        if stmt.finally_body is not None:
            out.append((2 + len(stmt.handlers), stmt.finally_body, None))
    elif isinstance(stmt, MatchStmt):
        out.extend((i, b, None) for i, b in enumerate(stmt.bodies))
    elif isinstance(stmt, Block):
        out.append((0, stmt, None))
    return out


def _statement_bindings(stmt: Statement, classes: ModuleClasses) -> list[tuple[str, ClassDef | None]]:
    """The names `stmt` itself binds, each with its class (the CLI's `_statement_bindings`)."""
    out: list[tuple[str, ClassDef | None]] = []
    if isinstance(stmt, AssignmentStmt):
        cls = _assigned_class(stmt.lvalues, stmt.rvalue, classes)
        for target in stmt.lvalues:
            out.extend((name, cls if isinstance(target, NameExpr) else None) for name in sorted(_stored(target)))
    elif isinstance(stmt, WithStmt):
        for expr, item in zip(stmt.expr, stmt.target, strict=True):
            if item is None:
                continue
            entered = _entered_class(expr, classes) if isinstance(item, NameExpr) and not stmt.is_async else None
            out.extend((name, entered) for name in sorted(_stored(item)))
    elif isinstance(stmt, OperatorAssignmentStmt):
        out.extend((name, None) for name in sorted(_stored(stmt.lvalue)))
    elif isinstance(stmt, ForStmt):
        out.extend((name, None) for name in sorted(_stored(stmt.index)))
    elif isinstance(stmt, DelStmt):
        out.extend((name, None) for name in sorted(_stored(stmt.expr)))
    elif isinstance(stmt, FuncDef | Decorator | OverloadedFuncDef | ClassDef):
        out.append((stmt.name, None))
    elif isinstance(stmt, Import | ImportFrom | ImportAll):
        out.extend((name, None) for name in sorted(_imported(stmt)))
    elif isinstance(stmt, GlobalDecl | NonlocalDecl):
        out.extend((name, None) for name in stmt.names)
    elif isinstance(stmt, MatchStmt):
        for pattern in stmt.patterns:
            out.extend((name, None) for name in sorted(_pattern_names(pattern)))
    for child in tree.children(stmt):
        if isinstance(child, Block | Statement):
            continue
        for node in tree.walk(child):
            if isinstance(node, AssignmentExpr) and isinstance(node.target, NameExpr):
                out.append((node.target.name, None))
    return out


def _pattern_names(pattern: Pattern) -> set[str]:
    """The names a `match` pattern captures (the CLI's `_pattern_names`)."""
    found: set[str] = set()
    for node in tree.walk(pattern):
        if isinstance(node, AsPattern) and node.name is not None:
            found.add(node.name.name)
        elif isinstance(node, StarredPattern) and node.capture is not None:
            found.add(node.capture.name)
        elif isinstance(node, MappingPattern) and node.rest is not None:
            found.add(node.rest.name)
    return found


def _instance_classes(body: list[Statement], classes: ModuleClasses) -> dict[str, ClassDef | None]:
    """For every name the body binds, the class it is an instance of when the body binds it only by
    `name = Class(...)` (one class), else None: one walk answers every name."""
    found: dict[str, ClassDef | None] = {}
    poisoned: set[str] = set()
    for sub in tree.walk_many(body):
        if isinstance(sub, AssignmentStmt):
            cls = _assigned_class(sub.lvalues, sub.rvalue, classes)
            for t in sub.lvalues:
                if isinstance(t, NameExpr):
                    previous = found.get(t.name)
                    if cls is None or (previous is not None and previous.name != cls.name):
                        poisoned.add(t.name)
                    else:
                        found[t.name] = cls
                else:
                    poisoned.update(_stored(t))
        elif isinstance(sub, OperatorAssignmentStmt):
            poisoned.update(_stored(sub.lvalue))
        elif isinstance(sub, ForStmt):
            poisoned.update(_stored(sub.index))
        elif isinstance(sub, AssignmentExpr):
            poisoned.update(_stored(sub.target))
        elif isinstance(sub, DelStmt):
            poisoned.update(_stored(sub.expr))
        elif isinstance(sub, WithStmt):
            for expr, item in zip(sub.expr, sub.target, strict=True):
                entered = _entered_class(expr, classes) if not sub.is_async else None
                if entered is not None and isinstance(item, NameExpr):
                    # `with Overlap(s) as ov:` of an `__enter__` returning its receiver (the CLI's rule)
                    previous = found.get(item.name)
                    if previous is not None and previous.name != entered.name:
                        poisoned.add(item.name)
                    found[item.name] = entered
                elif item is not None:
                    poisoned.update(_stored(item))
        elif isinstance(sub, TryStmt):
            poisoned.update(v.name for v in sub.vars if v is not None)
        elif isinstance(sub, FuncDef | Decorator | OverloadedFuncDef | ClassDef):
            poisoned.add(sub.name)
        elif isinstance(sub, Import | ImportFrom | ImportAll):
            poisoned.update(_imported(sub))
    return {name: (None if name in poisoned else cls) for name, cls in found.items()}


def _entered_class(expr: Expression, classes: ModuleClasses) -> ClassDef | None:
    """The class of `Class(...)` whose `__enter__` gives back its receiver and which has an `__exit__` (the CLI's
    `_entered_class`)."""
    if not (isinstance(expr, CallExpr) and isinstance(expr.callee, NameExpr)):
        return None
    cls = classes.classes.get(expr.callee.name)
    if cls is None:
        return None
    enter = classes.method(cls, "__enter__")
    if enter is None or classes.method(cls, "__exit__") is None or not _returns_receiver(enter):
        return None
    return cls


def _constructed_classes(expr: Expression | None, classes: ModuleClasses) -> tuple[ClassDef, ...] | None:
    """The classes of a list or tuple display whose every item is `Class(...)` of a class of the module (the
    CLI's `_constructed_classes`)."""
    if not isinstance(expr, ListExpr | TupleExpr) or not expr.items:
        return None
    found: list[ClassDef] = []
    for item in expr.items:
        cls = (
            classes.classes.get(item.callee.name)
            if isinstance(item, CallExpr) and isinstance(item.callee, NameExpr)
            else None
        )
        if cls is None:
            return None
        found.append(cls)
    return tuple(dict.fromkeys(found))


def _class_objects(expr: Expression | None, classes: ModuleClasses) -> tuple[ClassDef, ...] | None:
    """The classes of a list or tuple display whose every item names a class of the module (the CLI's
    `_class_objects`)."""
    if not isinstance(expr, ListExpr | TupleExpr) or not expr.items:
        return None
    found = [classes.classes.get(item.name) if isinstance(item, NameExpr) else None for item in expr.items]
    return tuple(dict.fromkeys(c for c in found if c is not None)) if all(found) else None


def _loop_items(target: Expression, iterable: Expression) -> list[tuple[str, Expression]]:
    """The names a `for` target takes from whole items of a display (the CLI's `_loop_items`: the name, or each
    name of a tuple target over `zip(a, b)` or the second over `enumerate(a)`)."""
    if isinstance(target, NameExpr):
        return [(target.name, iterable)]
    if not (isinstance(target, TupleExpr) and all(isinstance(t, NameExpr) for t in target.items)
            and isinstance(iterable, CallExpr) and isinstance(iterable.callee, NameExpr)
            and all(k == ARG_POS or n == "strict"
                    for k, n in zip(iterable.arg_kinds, iterable.arg_names, strict=True))):
        return []
    names = [t.name for t in target.items if isinstance(t, NameExpr)]
    positional = [a for a, k in zip(iterable.args, iterable.arg_kinds, strict=True) if k == ARG_POS]
    if iterable.callee.name == "zip" and len(positional) == len(names):
        return list(zip(names, positional, strict=True))
    if iterable.callee.name == "enumerate" and len(positional) == 1 and len(names) == 2:
        return [(names[1], positional[0])]
    return []


def _loop_classes(body: list[Statement], classes: ModuleClasses) -> dict[str, tuple[ClassDef, ...]]:
    """The classes a name the body binds only as one `for`'s target over a display of constructor calls (or a
    name bound only to one) may be an instance of, and a name bound only by `stage = kind(...)` of a `kind` one
    `for` takes from a display of the module's classes (the CLI's `_loop_classes`)."""
    count: dict[str, int] = {}
    displays: dict[str, tuple[ClassDef, ...] | None] = {}
    kinds: dict[str, tuple[ClassDef, ...] | None] = {}
    made: list[tuple[str, str]] = []
    loops: list[tuple[str, Expression]] = []
    for sub in tree.walk_many(body):
        bound: set[str] = set()
        if isinstance(sub, AssignmentStmt):
            for t in sub.lvalues:
                bound.update(_stored(t))
            if len(sub.lvalues) == 1 and isinstance(sub.lvalues[0], NameExpr):
                displays[sub.lvalues[0].name] = _constructed_classes(sub.rvalue, classes)
                kinds[sub.lvalues[0].name] = _class_objects(sub.rvalue, classes)
                if isinstance(sub.rvalue, CallExpr) and isinstance(sub.rvalue.callee, NameExpr):
                    made.append((sub.lvalues[0].name, sub.rvalue.callee.name))
        elif isinstance(sub, OperatorAssignmentStmt):
            bound.update(_stored(sub.lvalue))
        elif isinstance(sub, ForStmt):
            bound.update(_stored(sub.index))
            if not sub.is_async:
                loops.extend(_loop_items(sub.index, sub.expr))
        elif isinstance(sub, AssignmentExpr):
            bound.update(_stored(sub.target))
        elif isinstance(sub, DelStmt):
            bound.update(_stored(sub.expr))
        elif isinstance(sub, WithStmt):
            for item in sub.target:
                if item is not None:
                    bound.update(_stored(item))
        elif isinstance(sub, TryStmt):
            bound.update(v.name for v in sub.vars if v is not None)
        elif isinstance(sub, FuncDef | Decorator | OverloadedFuncDef | ClassDef):
            bound.add(sub.name)
        elif isinstance(sub, Import | ImportFrom | ImportAll):
            bound.update(_imported(sub))
        for name in bound:
            count[name] = count.get(name, 0) + 1
    found: dict[str, tuple[ClassDef, ...]] = {}
    called: dict[str, tuple[ClassDef, ...]] = {}
    for name, iterable in loops:
        if count.get(name) != 1:
            continue
        if isinstance(iterable, NameExpr):
            once = count.get(iterable.name) == 1
            each = displays.get(iterable.name) if once else None
            kind = kinds.get(iterable.name) if once else None
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


def _bound_only_to_class(lowerer: FunctionLowerer, name: str, classes: ModuleClasses) -> ClassDef | None:
    if not classes.classes:
        return None  # no class of this module to be an instance of: no need to walk the body
    node = lowerer.unit.node
    body = list(node.defs if isinstance(node, MypyFile) else node.body.body)
    found = classes.instances(node, body).get(name)
    statement = lowerer.current_statement
    if found is not None or statement is None:
        return found
    index = classes.binding_index(node, body)
    use = index.paths.get(id(statement))
    bindings = index.bindings.get(name)
    return reaching.reaching(bindings, use, index.loops) if use is not None and bindings else None


def _imported(node: Import | ImportFrom | ImportAll) -> set[str]:
    if isinstance(node, Import):
        return {alias or module.split(".")[0] for module, alias in node.ids}
    if isinstance(node, ImportFrom):
        return {alias or original for original, alias in node.names}
    return set()


def _receiver_class(lowerer: FunctionLowerer, name: str, classes: ModuleClasses) -> ClassDef | None:
    node = lowerer.unit.node
    if isinstance(node, FuncDef):
        owner = classes.owner.get(id(node))
        arguments = node.arguments
        if (
            owner is not None
            and not node.is_decorated
            and arguments
            and arguments[0].kind in _POSITIONAL
            and arguments[0].variable.name == name
        ):
            # a summary for a receiver of a subclass: `self` is one of it (the overrides it runs are its own)
            chosen = lowerer.unit.receiver_class
            return classes.classes.get(chosen, owner) if chosen is not None else owner
        for arg in arguments:
            if arg.variable.name == name:
                note = arg.type_annotation
                if arg.kind in (*_POSITIONAL, *_KEYWORD_ONLY) and note is not None:
                    text = getattr(note, "name", None)
                    if isinstance(text, str) and text in classes.classes and not getattr(note, "args", ()):
                        return classes.classes[text]
                return None
    elif isinstance(node, LambdaExpr):
        return None
    return _bound_only_to_class(lowerer, name, classes)


#: Decorators and bases that make a class's `__init__` from its annotated fields (the CLI front end's names).
DATACLASS_DECORATOR = "dataclasses.dataclass"
DATACLASS_FIELD = "dataclasses.field"
NAMED_TUPLE_BASES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
_KW_ONLY = "KW_ONLY"
_OWN_INITIALIZERS = frozenset({"__init__", "__post_init__", "__new__"})


def _keyword_flag(call: CallExpr, name: str) -> bool | str | None:
    """A keyword argument of a call: its `True`/`False` literal, None when absent, `"?"` when it is no literal
    (or `**kwargs` may give it)."""
    for value, kind, keyword in zip(call.args, call.arg_kinds, call.arg_names, strict=True):
        if kind == ARG_STAR2:
            return "?"
        if keyword == name:
            if isinstance(value, NameExpr) and value.fullname in ("builtins.True", "builtins.False"):
                return value.fullname == "builtins.True"
            return "?"
    return None


def _user_written(cls: ClassDef, stmt: Node) -> bool:
    """A statement the class's source has (mypy's dataclass plugin adds its generated `__init__` on the class's
    own line, where no method can be written)."""
    return stmt.line != cls.line


def generated_fields(lowerer: FunctionLowerer, cls: ClassDef) -> GeneratedInit | None:
    """The `__init__` that `@dataclass` or a `NamedTuple` base generates for `cls` (None: neither), by the CLI
    front end's rules (`ownership_check.frontend.call_targets.generated_fields`), read off mypy's tree."""
    names = lowerer.ctx.names
    bases = cls.base_type_exprs + cls.removed_base_type_exprs
    named_tuple = len(bases) == 1 and not cls.keywords and bool(NAMED_TUPLE_BASES.intersection(names(bases[0])))
    decorator: Expression | None = None
    for dec in cls.decorators:
        if DATACLASS_DECORATOR in names(dec.callee if isinstance(dec, CallExpr) else dec):
            decorator = dec
    if decorator is None and not named_tuple:
        return None
    unfollowed = GeneratedInit(followed=False)
    if decorator is not None and (bases or cls.keywords or len(cls.decorators) != 1):
        return unfollowed
    everything_keyword = False
    if isinstance(decorator, CallExpr):
        init, kw_only = _keyword_flag(decorator, "init"), _keyword_flag(decorator, "kw_only")
        if any(kind != ARG_NAMED for kind in decorator.arg_kinds) or init not in (None, True) or kw_only == "?":
            return unfollowed
        everything_keyword = kw_only is True
    positional: list[str] = []
    keyword_only: list[str] = []
    after_marker = False
    post_init = False
    for stmt in cls.defs.body:
        if not _user_written(cls, stmt):
            continue
        if decorator is not None and _plain_post_init(stmt):
            post_init = True  # run last by the generated `__init__` (the CLI's rule)
            continue
        if isinstance(stmt, FuncDef | Decorator | OverloadedFuncDef) and stmt.name in _OWN_INITIALIZERS:
            return unfollowed
        if not (
            isinstance(stmt, AssignmentStmt)
            and stmt.new_syntax
            and len(stmt.lvalues) == 1
            and isinstance(stmt.lvalues[0], NameExpr)
        ):
            continue
        annotation = stmt.unanalyzed_type
        head = getattr(annotation, "name", None)
        head = head.rsplit(".", 1)[-1] if isinstance(head, str) else None
        if head == _KW_ONLY and decorator is not None:
            after_marker = True
            continue
        if head == "InitVar":
            return unfollowed  # a parameter the generated `__init__` hands to `__post_init__`
        if head == "ClassVar":
            continue
        keyword = everything_keyword or after_marker
        value = stmt.rvalue
        if isinstance(value, CallExpr) and decorator is not None and DATACLASS_FIELD in names(value.callee):
            init_flag, kw_flag = _keyword_flag(value, "init"), _keyword_flag(value, "kw_only")
            if init_flag == "?" or kw_flag == "?":
                return unfollowed
            if init_flag is False:
                continue
            keyword = keyword if kw_flag is None else bool(kw_flag)
        (keyword_only if keyword else positional).append(stmt.lvalues[0].name)
    return GeneratedInit(tuple(positional), tuple(keyword_only), iterated=named_tuple, post_init=post_init)


def _plain_post_init(stmt: Node) -> bool:
    """`def __post_init__(self)`, undecorated, taking nothing but the object (the CLI's `_plain_post_init`)."""
    return (
        isinstance(stmt, FuncDef) and stmt.name == "__post_init__" and not stmt.is_decorated
        and len(stmt.arguments) == 1 and stmt.arguments[0].kind in _POSITIONAL
    )


def _post_init_summary(lowerer: FunctionLowerer, cls: ClassDef) -> CallSummary | None:
    """The summary of a dataclass's own `__post_init__(self)` (the CLI's `_post_init_summary`)."""
    found = next((s for s in cls.defs.body if isinstance(s, FuncDef) and _plain_post_init(s)), None)
    if found is None:
        return None
    method = found
    receiver = method.arguments[0].variable.name

    def compute() -> CallSummary | None:
        unit = type(lowerer.unit)(method, "function", frozenset, None, f"{method.name} (call summary)")
        function = type(lowerer)(lowerer.ctx, unit).lower()
        return call_summary(function, [receiver], receiver, method.name)

    return lowerer.ctx.classes.memo.get(id(method), compute)


def constructor_summary(
    lowerer: FunctionLowerer, func: NameExpr, args: tuple[calls.Operand[Expression], ...]
) -> AppliedSummary[Expression] | None:
    """`Cls(...)` of a top-level class of this module: the summary of its initializer with the call's arguments
    bound after the receiver, the new object (the CLI front end's `constructor_summary`)."""
    classes = lowerer.ctx.classes
    cls = classes.classes[func.name]
    if func.node is not cls.info:
        return None
    if id(cls) not in classes.generated:
        classes.generated[id(cls)] = generated_fields(lowerer, cls)
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
    if cls.keywords or any(
        isinstance(s, FuncDef | Decorator | OverloadedFuncDef) and s.name == "__new__" for s in cls.defs.body
    ):
        return None
    init = classes.method(cls, "__init__")
    if init is None:
        return None
    positional = [a.variable.name for a in init.arguments if a.kind in _POSITIONAL]
    keyword_only = [a.variable.name for a in init.arguments if a.kind in _KEYWORD_ONLY]
    if not positional:
        return None
    receiver = positional[0]
    # a `**kwargs` parameter: its dict's items are the objects passed by the keywords no other parameter takes
    spread = [a.variable.name for a in init.arguments if a.kind == ARG_STAR2]

    def compute() -> CallSummary | None:
        plain = frozenset(p for p in (*positional, *keyword_only) if p != receiver)
        unit = type(lowerer.unit)(init, "function", lambda: plain, None, f"{init.name} (call summary)")
        function = type(lowerer)(lowerer.ctx, unit).lower()
        return call_summary(function, [*positional, *keyword_only, *spread], receiver, init.name)

    initializer = classes.memo.get(id(init), compute)
    if initializer is not None:
        initializer = dispatched(initializer, initializer)  # its conflicts are its own check's
    if initializer is None or initializer.empty:
        return None
    bound = bind_parameters(positional[1:], keyword_only, args, None, *spread)
    return AppliedSummary(initializer, bound, True)


def receiver_classes(lowerer: FunctionLowerer, name: str) -> tuple[ClassDef, ...] | None:
    """The classes of this module whose methods a call on `name` may run here (the CLI's `receiver_classes`)."""
    classes = lowerer.ctx.classes
    cls = _receiver_class(lowerer, name, classes)
    if cls is not None:
        return (cls,) if _exact_receiver(lowerer, name, classes) else (cls, *classes.subclasses(cls))
    node = lowerer.unit.node
    if not classes.classes or isinstance(node, LambdaExpr):
        return None
    if isinstance(node, FuncDef) and any(a.variable.name == name for a in node.arguments):
        return None
    body = node.defs if isinstance(node, MypyFile) else node.body.body
    return classes.loop_instances(node, list(body)).get(name)


def _applied_method(
    lowerer: FunctionLowerer,
    name: str,
    method: str,
    receiver: calls.Operand[Expression],
    args: tuple[calls.Operand[Expression], ...],
    span: Span,
    candidates: tuple[ClassDef, ...] | None = None,
    iterated: bool = False,
) -> AppliedSummary[Expression] | None:
    """The summary of `name.method(...)` (also `name(...)`, with `method` `__call__`) over every class
    `receiver_classes` gives (the CLI's `_applied_method`)."""
    if candidates is None:
        candidates = receiver_classes(lowerer, name) or _classes_defining(lowerer, name, method, receiver)
    if not candidates:
        return None
    applied = _method_applied(lowerer, candidates[0], method, receiver, args, span, iterated)
    if applied is None:
        return None
    others: list[AppliedSummary[Expression]] = []
    for cls in candidates[1:]:
        other = _method_applied(lowerer, cls, method, receiver, args, span, iterated)
        if other is not None and other.summary != applied.summary and all(o.summary != other.summary
                                                                         for o in others):
            others.append(other)
    return replace(applied, others=tuple(others)) if others else applied


def _method_applied(
    lowerer: FunctionLowerer,
    cls: ClassDef,
    method: str,
    receiver: calls.Operand[Expression],
    args: tuple[calls.Operand[Expression], ...],
    span: Span,
    iterated: bool,
) -> AppliedSummary[Expression] | None:
    """The summary of the method `method` an object of `cls` runs at the call (the CLI's `_method_applied`)."""
    classes = lowerer.ctx.classes
    found = classes.method(cls, method, iterated)
    if found is not None:
        return _applied(lowerer, found, receiver, False, args, span, receiver_class=cls)
    unbound = classes.unbound_method(cls, method)
    if unbound is None:
        return None
    function, kind = unbound
    return _applied(lowerer, function, receiver if kind == "classmethod" else None, False, args, span)


def _bound_by_import(module: MypyFile, name: str) -> bool:
    """Whether the module's top level binds `name` by an import (a module, or a name another module defines)."""
    symbol = module.names.get(name)
    if symbol is None or symbol.node is None:
        return False
    node = symbol.node
    if isinstance(node, MypyFile) or (isinstance(node, Var) and node.is_suppressed_import):
        return True
    return bool(node.fullname) and node.fullname != f"{module.fullname}.{name}"


def property_summary(lowerer: FunctionLowerer, node: MemberExpr) -> AppliedSummary[Expression] | None:
    """The summary of the getter a read of a `@property` runs (the CLI's `property_summary`)."""
    from mypy_plugin.lowering import span_of  # it imports this module

    classes = lowerer.ctx.classes
    if lowerer.kernel_body or not classes.has_getters or not isinstance(node.expr, NameExpr):
        return None
    candidates = receiver_classes(lowerer, node.expr.name) or _getter_classes(lowerer, node.expr, node.name)
    getter = classes.getter(candidates[0], node.name) if candidates else None
    if getter is None or candidates is None:
        return None
    receiver = lowerer.operand(node.expr, with_view=False)
    return _applied(lowerer, getter, receiver, False, (), span_of(node), receiver_class=candidates[0])


def _getter_classes(lowerer: FunctionLowerer, receiver: NameExpr, attr: str) -> tuple[ClassDef, ...]:
    """The one class of the module defining a `@property` `attr`, for a read on an object of a class the checker
    does not know (the CLI's `_getter_classes`)."""
    classes = lowerer.ctx.classes
    if receiver.name in classes.classes or _bound_by_import(classes.module, receiver.name):
        return ()
    defining = [cls for cls in classes.classes.values() if classes.getter(cls, attr) is not None]
    if len(defining) != 1 or not callables.dispatches_by_name(attr, lowerer.operand(receiver)):
        return ()
    return (defining[0],)


def _held_callable(
    lowerer: FunctionLowerer, func: MemberExpr, name: str, args: tuple[calls.Operand[Expression], ...], span: Span
) -> AppliedSummary[Expression] | None:
    """`self.residual(x, out)` of an attribute holding a callable object (the CLI's `_held_callable`)."""
    classes = lowerer.ctx.classes
    candidates = receiver_classes(lowerer, name)
    if not candidates:
        return None
    for cls in candidates:
        chain = classes.complete_chain(cls)
        if chain is None:
            return None  # a base of another module may define it
        if any(isinstance(s, FuncDef | Decorator | OverloadedFuncDef) and s.name == func.name for c in chain
               for s in c.defs.body):
            return None
        if not any(func.name in _assigned_attributes(c) for c in chain):
            return None
    held = lowerer.operand(func, with_view=False)
    defining = _classes_defining(lowerer, name, "__call__", held)
    return _applied_method(lowerer, name, "__call__", held, args, span, defining)


def _assigned_attributes(cls: ClassDef) -> set[str]:
    """The attribute names an assignment in the class's methods binds (the CLI's `_assigned_attributes`)."""
    out: set[str] = set()
    for stmt in tree.walk_many(cls.defs.body, skip_scopes=False):
        if isinstance(stmt, AssignmentStmt):
            for target in stmt.lvalues:
                for t in target.items if isinstance(target, TupleExpr | ListExpr) else [target]:
                    if isinstance(t, MemberExpr):
                        out.add(t.name)
    return out


def _enum_member_class(node: Expression, classes: ModuleClasses) -> tuple[ClassDef, ...]:
    """`(Mode,)` for `Mode.FAST` of a class of the module derived from an enum base (the CLI's rule)."""
    if not (isinstance(node, MemberExpr) and isinstance(node.expr, NameExpr)):
        return ()
    cls = classes.classes.get(node.expr.name)
    bases = [b.name if isinstance(b, NameExpr | MemberExpr) else "" for b in (
        cls.base_type_exprs + cls.removed_base_type_exprs if cls is not None else []
    )]
    return (cls,) if cls is not None and any(b in callables.ENUM_BASES for b in bases) else ()


def _root_name(node: Expression) -> str | None:
    """The name an attribute chain starts from (the CLI's `_root_name`)."""
    while isinstance(node, MemberExpr):
        node = node.expr
    return node.name if isinstance(node, NameExpr) else None


def called_classes(lowerer: FunctionLowerer, receiver: NameExpr, method: str) -> tuple[ClassDef, ...] | None:
    """The classes whose `method` `receiver.method(...)` may run, as a call there dispatches (`_applied_method`):
    the receiver's classes where they are known, else each class of the module defining the method."""
    found = receiver_classes(lowerer, receiver.name)
    if found:
        return found
    operand = lowerer.operand(receiver, with_view=False)
    return _classes_defining(lowerer, receiver.name, method, operand) or None


def _classes_defining(
    lowerer: FunctionLowerer, name: str, method: str, receiver: calls.Operand[Expression]
) -> tuple[ClassDef, ...]:
    """The classes of the module whose `method` a call on `name`, an object of a class the checker does not know,
    may run (the CLI's `_classes_defining`, `callables.dispatches_by_name`)."""
    classes = lowerer.ctx.classes
    if name in classes.classes or _bound_by_import(classes.module, name) or not callables.dispatches_by_name(
        method, receiver
    ):
        return ()
    if _bound_to_class(lowerer.unit.node, name, classes):
        return ()  # `for made in (Base, Sub): made(dev, s)` constructs objects, it runs no `__call__`
    found: dict[int, ClassDef] = {}
    for cls in classes.classes.values():
        definition = classes.method(cls, method)
        if definition is not None:
            found.setdefault(id(definition), cls)
    return tuple(found.values())


def _bound_to_class(unit: Node, name: str, classes: ModuleClasses) -> bool:
    """The CLI's `_bound_to_class`: whether the unit binds `name` to a class of the module (`made = Base`, or a
    `for` over a display naming one)."""

    def names_class(node: Node) -> bool:
        if isinstance(node, TupleExpr | ListExpr | SetExpr):
            return any(names_class(e) for e in node.items)
        return isinstance(node, NameExpr) and node.name in classes.classes

    for sub in tree.walk(unit):
        if isinstance(sub, ForStmt) and isinstance(sub.index, NameExpr) and sub.index.name == name:
            if names_class(sub.expr):
                return True
        elif isinstance(sub, AssignmentStmt) and any(isinstance(t, NameExpr) and t.name == name for t in sub.lvalues):
            if names_class(sub.rvalue):
                return True
    return False


def held_object_method(lowerer: FunctionLowerer, func: MemberExpr) -> tuple[ClassDef, FuncDef] | None:
    """`self.workspace.get` of an object an attribute holds: the one class defining the method and its definition
    (the CLI's `held_object_method`)."""
    root = _root_name(func.expr)
    classes = lowerer.ctx.classes
    if root is None or root in classes.classes or _bound_by_import(classes.module, root):
        return None
    if not callables.dispatched_method_name(func.name):
        return None
    found = {id(d): (cls, d) for cls in classes.classes.values() if (d := classes.method(cls, func.name)) is not None}
    return next(iter(found.values())) if len(found) == 1 else None


def _written_as_view(node: Expression | None) -> bool:
    """Whether an expression is spelled as a view of something (the CLI's `_written_as_view`)."""
    if isinstance(node, IndexExpr):
        return isinstance(node.index, SliceExpr)
    return isinstance(node, CallExpr) and isinstance(node.callee, MemberExpr) and node.callee.name == calls.VIEW_METHOD


def view_receiver_classes(
    lowerer: FunctionLowerer, func: MemberExpr, getter: bool
) -> tuple[str, tuple[ClassDef, ...]] | None:
    """Who answers `obj.name(...)` (or, with `getter`, the read `obj.name` of a `@property`) when following the
    views it returns: this caller's spelling of `obj` and the classes whose method or getter may run (the CLI's
    `view_receiver_classes`)."""
    classes = lowerer.ctx.classes
    if not classes.classes or (getter and func.name not in classes.view_getter_names):
        return None
    if isinstance(func.expr, NameExpr):
        candidates = receiver_classes(lowerer, func.expr.name)
        return (func.expr.name, candidates) if candidates else None
    parts: list[str] = []
    cur: Expression = func.expr
    while isinstance(cur, MemberExpr):
        parts.append(cur.name)
        cur = cur.expr
    if not isinstance(cur, NameExpr) or cur.name in classes.classes or _bound_by_import(classes.module, cur.name):
        return None
    if not getter and not callables.dispatched_method_name(func.name):
        return None
    defining = {
        id(found): cls
        for cls in classes.classes.values()
        if (found := classes.plain_getter(cls, func.name) if getter else classes.method(cls, func.name)) is not None
    }
    if len(defining) != 1:
        return None
    return ".".join((cur.name, *reversed(parts))), tuple(defining.values())


def receiver_property(
    lowerer: FunctionLowerer, name: str, attr: str
) -> tuple[tuple[tuple[str, ...], ...], bool] | None:
    """What `name.attr` may be when `attr` is a property that only tests and returns (the CLI's
    `receiver_property`)."""
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
    """The attribute paths `name.method()` may return from `name` (the CLI front end's rule): its class's
    override when that class is exact, every override in the module when `name` is a parameter annotated with it;
    and whether one may return a new value instead."""
    classes = lowerer.ctx.classes
    cls = _receiver_class(lowerer, name, classes) if classes.with_views else None
    if cls is None:
        return None
    candidates = [cls] if _exact_receiver(lowerer, name, classes) else [cls, *classes.subclasses(cls)]
    return _accessors_of(classes, candidates, method)


def held_accessors(
    lowerer: FunctionLowerer, func: MemberExpr
) -> tuple[tuple[tuple[str, ...], ...], bool] | None:
    """`receiver_accessors` for a method of an object an attribute holds, or of a name whose class is not known
    (the CLI's `held_accessors`)."""
    held = held_object_method(lowerer, func) if lowerer.ctx.classes.with_views else None
    return _accessors_of(lowerer.ctx.classes, [held[0]], func.name) if held is not None else None


def _accessors_of(
    classes: ModuleClasses, candidates: list[ClassDef], method: str
) -> tuple[tuple[tuple[str, ...], ...], bool] | None:
    paths = [classes.accessor(c, method) for c in candidates]
    found = [p for p in paths if p is not None]
    if len(found) != len(paths):
        return None
    return tuple(dict.fromkeys(found)), any(classes.accessor_makes_new(c, method) for c in candidates)


def receiver_items(
    lowerer: FunctionLowerer, name: str, method: str = "__getitem__"
) -> tuple[tuple[str, ...], ...] | None:
    """The attribute paths whose item `name[key]` (or `name.method(key)`) may be (the CLI front end's rule)."""
    classes = lowerer.ctx.classes
    cls = _receiver_class(lowerer, name, classes) if classes.with_views else None
    if cls is None:
        return None
    candidates = [cls] if _exact_receiver(lowerer, name, classes) else [cls, *classes.subclasses(cls)]
    paths = [classes.item_accessor(c, method) for c in candidates]
    found = [p for p in paths if p is not None]
    return tuple(dict.fromkeys(found)) if len(found) == len(paths) else None


def _exact_receiver(lowerer: FunctionLowerer, name: str, classes: ModuleClasses) -> bool:
    """Whether `name`'s class is exactly its object's: not a parameter annotated with it (the CLI's rule)."""
    node = lowerer.unit.node
    if not isinstance(node, FuncDef):
        return True
    arguments = node.arguments
    if (
        classes.owner.get(id(node)) is not None
        and arguments
        and arguments[0].kind in _POSITIONAL
        and arguments[0].variable.name == name
    ):
        return not node.is_decorated
    return all(a.variable.name != name for a in arguments if a.kind in (*_POSITIONAL, *_KEYWORD_ONLY))


def class_kernel(lowerer: FunctionLowerer, node: Expression) -> KernelInfo | None:
    """The module's kernel `obj.kernel` is when every class a call on `obj` may run a method of reads that name
    from one class body binding it to that kernel (`kernel = relu`; the CLI's `class_kernel`, with every subclass
    for the receiver of a method checked on its own)."""
    classes = lowerer.ctx.classes
    if not (isinstance(node, MemberExpr) and isinstance(node.expr, NameExpr)) or not classes.classes:
        return None
    candidates = receiver_classes(lowerer, node.expr.name)
    if not candidates:
        return None
    method = lowerer.unit.node
    if isinstance(method, FuncDef) and lowerer.unit.receiver_class is None and id(method) in classes.owner:
        param = method.arguments[0] if method.arguments else None
        if param is not None and param.kind in _POSITIONAL and param.variable.name == node.expr.name:
            candidates = (*candidates, *classes.subclasses(candidates[0]))
    values = [classes.class_value(cls, node.name) for cls in candidates]
    first = values[0]
    if first is None or any(v is not first for v in values):
        return None
    return lowerer.ctx.kernel(first)


def subclass_kernels(lowerer: FunctionLowerer, node: Expression) -> tuple[KernelInfo, ...]:
    """`self.kernel` in a method checked on its own whose class's subclasses bind `kernel` to other kernels: the
    kernels of its class and of each subclass that runs this very method with the prepared launches its `__init__`
    stores for the class (the CLI's `subclass_kernels`)."""
    classes = lowerer.ctx.classes
    method = lowerer.unit.node
    if not (isinstance(node, MemberExpr) and isinstance(node.expr, NameExpr)) or lowerer.unit.receiver_class:
        return ()
    owner = classes.owner.get(id(method)) if isinstance(method, FuncDef) else None
    param = method.arguments[0] if isinstance(method, FuncDef) and method.arguments else None
    if owner is None or param is None or param.kind not in _POSITIONAL or param.variable.name != node.expr.name:
        return ()
    assert isinstance(method, FuncDef)
    brands = lowerer.class_brands(owner)
    found: dict[str, KernelInfo] = {}
    for cls in (owner, *classes.subclasses(owner)):
        if cls is not owner and (classes.method(cls, method.name) is not method or lowerer.class_brands(cls) != brands):
            continue
        value = classes.class_value(cls, node.name)
        kernel = lowerer.ctx.kernel(value) if value is not None else None
        if kernel is None:
            return ()
        found.setdefault(kernel.name, kernel)
    return tuple(found.values()) if len(found) > 1 else ()


def receiver_class(lowerer: FunctionLowerer, name: str) -> ClassDef | None:
    """The class of this module `name` is an instance of here, the rule method calls follow."""
    return _receiver_class(lowerer, name, lowerer.ctx.classes)


def applied_summary(
    lowerer: FunctionLowerer,
    node: CallExpr,
    method: calls.MethodCall[Expression] | None,
    args: tuple[calls.Operand[Expression], ...],
    call_span: Span,
    func: Expression | None = None,
) -> AppliedSummary[Expression] | None:
    """The summary of the function or method `node` calls (at `call_span`; `func`: what it calls, when not
    `node.callee`: the target of a partial), with its parameters bound, when the checker sees it."""
    if lowerer.kernel_body:
        return None
    func = node.callee if func is None else func
    classes = lowerer.ctx.classes
    receiver: calls.Operand[Expression] | None = None
    nested = False
    if isinstance(func, NameExpr) and func.name in classes.classes:
        return constructor_summary(lowerer, func, args)
    namespace = next((n for name in lowerer.ctx.names(func) if (n := namespace_summary(name, args)) is not None), None)
    if namespace is not None:  # `SimpleNamespace(src=a, dst=a)`: a constructor call whose fields are its keywords
        return namespace
    choices = function_choices(lowerer, func)
    if choices is not None:
        # `fn(x)` of `for fn in (run_a, run_b)`, `passes["a"](x)`: each function it may run, one arm each
        return callables.any_of(
            [_applied(lowerer, f, None, id(f) in lowerer.helpers, args, call_span) for f in choices]
        )
    if isinstance(func, NameExpr):
        found = lowerer.helper(func)
        if found is None and method is None:
            if func.fullname.startswith("builtins."):
                return None  # `sorted(self.names)`: Python's own function, never an object of the module's class
            # `scaler(b, b)` of an object of the module's class: its `__call__` runs, on that object
            receiver = lowerer.operand(func, with_view=False)
            return _applied_method(lowerer, func.name, "__call__", receiver, args, call_span)
        if found is None or not (
            classes.runs_when_called(found)
            or (id(node) in lowerer.awaited and classes.runs_when_awaited(found))
            or (id(node) in lowerer.iterated and classes.runs_when_iterated(found))
        ):
            return None
        callee = found
        nested = id(found) in lowerer.helpers or id(found) in lowerer.lambdas  # defined in the calling body
    elif isinstance(func, MemberExpr) and isinstance(func.expr, NameExpr) and method is not None:
        if method.receiver_kernel is not None or method.receiver_is_safekernels:
            return None
        made = lowerer.generators.get(func.expr.name) if func.name in callables.SENDING_METHODS else None
        if made is not None and len(args) == 1 and isinstance(made.callee, NameExpr):
            # `gen.send(x)`: the body resumes with `x` as its `yield`'s value (`callables.sent_into`)
            generator = lowerer.helper(made.callee)
            if generator is None:
                return None
            nested_generator = id(generator) in lowerer.helpers or id(generator) in lowerer.lambdas
            sent = _applied(lowerer, generator, None, nested_generator, (), call_span)
            return callables.sent_into(sent, args[0])
        static = static_method(lowerer, func.expr, func.name, classes)
        if static is not None:
            return _applied(lowerer, static, None, False, args, call_span)
        built_by_class = static_method(lowerer, func.expr, func.name, classes, "classmethod")
        if built_by_class is not None:
            # `Cls.build(a, b)` of a `@classmethod`: the class binds its first parameter, the arguments the rest
            return _applied(lowerer, built_by_class, method.receiver, False, args, call_span)
        unbound = _plain_method(func.expr, func.name, classes)
        if unbound is not None and args and not args[0].star and args[0].keyword is None:
            # `Layer.forward(self, x)`: the class's method run on the object the call passes first
            return _unbound_applied(lowerer, classes.classes[func.expr.name], unbound, args, call_span)
        # a parameter annotated with the class: its object may be one of any subclass, running its overrides
        applied = _applied_method(
            lowerer, func.expr.name, func.name, method.receiver, args, call_span, iterated=id(node) in lowerer.iterated
        )
        if applied is None:
            applied = _held_callable(lowerer, func, func.expr.name, args, call_span)
        return applied
    elif isinstance(func, MemberExpr) and isinstance(func.expr, MemberExpr) and method is not None:
        # `self.norm.forward(x, out)`: a method of an object an attribute holds, whose class the checker does not
        # track: the module's methods of that name (`callables.dispatches_by_name`)
        root = _root_name(func.expr)
        if root is None or method.receiver_kernel is not None or method.receiver_is_safekernels:
            return None
        # (`Mode.FAST.run(x)` of an enum class's member runs that class's method)
        defining = _enum_member_class(func.expr, classes) or _classes_defining(
            lowerer, root, func.name, method.receiver
        )
        return _applied_method(lowerer, root, func.name, method.receiver, args, call_span, defining)
    elif isinstance(func, CallExpr) and isinstance(func.callee, NameExpr) and func.callee.name in classes.classes:
        # `Scaler(prep, s)(a, b)`: the `__call__` of the object a constructor call of the module builds right there
        built_class = classes.classes[func.callee.name]
        call_method = _plain_method(func.callee, "__call__", classes)
        if call_method is None:
            return None
        receiver = lowerer.operand(func, with_view=False)
        return _applied(lowerer, call_method, receiver, False, args, call_span, receiver_class=built_class)
    elif isinstance(func, SuperExpr) and not func.call.args:
        # `super().forward(x)` in a method: the next class's method, run on this method's own receiver
        return _super_applied(lowerer, func.name, args, func.call)
    elif isinstance(func, MemberExpr) and isinstance(func.expr, CallExpr) and method is not None:
        # `Holder(a, c).run()`: a method of the object a followed constructor call builds right there
        built = func.expr.callee
        if not (isinstance(built, NameExpr) and built.name in classes.classes):
            return _method_on_choices(lowerer, method, func.name, args, call_span)
        if not lowerer.constructs(func.expr):
            # `Runner().go(a, b)` of a class whose initializer binds nothing the checker follows: the method still
            # runs with the caller's arguments (what it does to its receiver's fields is the new object's own)
            plain = _plain_method(built, func.name, classes)
            return _applied(lowerer, plain, method.receiver, False, args, call_span) if plain else None
        method_def = classes.method(classes.classes[built.name], func.name)
        if method_def is None:
            return None
        applied = _applied(
            lowerer, method_def, method.receiver, False, args, call_span, receiver_class=classes.classes[built.name]
        )
        return replace(applied, built_receiver=built.name) if applied is not None else None
    elif isinstance(func, MemberExpr) and method is not None:
        # `(a if hot else b).flush()`: the method of each object the receiver may be
        return _method_on_choices(lowerer, method, func.name, args, call_span)
    else:
        return None
    # a function a factory returned (`acc = make_acc(total)`): the factory's parameters it reads are the call's
    captured = _factory_captures(lowerer, callee, func.name, call_span) if isinstance(func, NameExpr) else ()
    return _applied(lowerer, callee, receiver, nested, args, call_span, captured=captured)


def _method_on_choices(
    lowerer: FunctionLowerer,
    method: calls.MethodCall[Expression],
    name: str,
    args: tuple[calls.Operand[Expression], ...],
    span: Span,
) -> AppliedSummary[Expression] | None:
    """`guard.upload(t, h).start()` of a method giving back its receiver (the receiver's `choices`): `start` as
    called on each object the receiver expression may be (`callables.on_each_receiver`), each dispatched as a call
    on a name or an attribute path is."""
    if method.receiver_kernel is not None or method.receiver_is_safekernels:
        return None

    def on(option: calls.Operand[Expression]) -> AppliedSummary[Expression] | None:
        receiver = lowerer.operand(option.node, with_view=False)  # (a choice is device-like by default)
        if receiver.place is None:
            return None
        root = receiver.place.root
        defining = _classes_defining(lowerer, root, name, receiver) if receiver.place.attrs else None
        return _applied_method(lowerer, root, name, receiver, args, span, defining)

    return callables.on_each_receiver(method.receiver, on)


def _super_applied(
    lowerer: FunctionLowerer, name: str, args: tuple[calls.Operand[Expression], ...], call: CallExpr
) -> AppliedSummary[Expression] | None:
    """The summary of `super().name(...)` (`call`: the `super()` call) in an undecorated method of the module's
    classes, run on this method's receiver and dispatching on its class (the CLI's `_super_applied`)."""
    from mypy_plugin.lowering import span_of  # it imports this module

    node = lowerer.unit.node
    classes = lowerer.ctx.classes
    if not isinstance(node, FuncDef) or classes.owner.get(id(node)) is None or node.is_decorated:
        return None
    if not node.arguments or node.arguments[0].kind not in _POSITIONAL:
        return None
    receiver = node.arguments[0].variable.name
    cls = _receiver_class(lowerer, receiver, classes)
    found = classes.super_method(node, name, cls)
    if found is None or cls is None:
        return None
    span = span_of(call)
    node_of: Expression = NameExpr(receiver)
    operand = calls.Operand(node_of, span, lowerer.dotted_place(receiver), False)
    return _applied(lowerer, found, operand, False, args, span, receiver_class=cls)


def _unbound_applied(
    lowerer: FunctionLowerer,
    cls: ClassDef,
    found: FuncDef,
    args: tuple[calls.Operand[Expression], ...],
    span: Span,
) -> AppliedSummary[Expression] | None:
    """The summary of `Class.method(obj, ...)` of a plain method, run on `obj` (the CLI's `_unbound_applied`)."""
    classes = lowerer.ctx.classes
    first = args[0]
    dispatch = cls
    if isinstance(first.node, NameExpr):
        candidates = receiver_classes(lowerer, first.node.name)
        if candidates and len(candidates) == 1 and (candidates[0] is cls or candidates[0] in classes.subclasses(cls)):
            dispatch = candidates[0]
    return _applied(lowerer, found, first, False, args[1:], span, receiver_class=dispatch)


def _factory_captures(
    lowerer: FunctionLowerer, callee: FuncItem, name: str, span: Span
) -> tuple[tuple[str, calls.Operand[Expression]], ...]:
    """The factory parameters the function bound to `name` by a factory call of this body reads, bound to that
    call's operands (the CLI's `_factory_captures`)."""
    from mypy_plugin.lowering import _params, _stable_names  # it imports this module

    call = lowerer.factory_calls.get(name)
    if call is None or lowerer.named.get(name) is not callee or not isinstance(call.callee, NameExpr):
        return ()
    factory = lowerer.helper(call.callee)
    if factory is None:
        return ()
    params = _params(factory)
    kept = _stable_names(factory.body.body, params)  # a parameter the factory rebinds is not the call's operand
    captured = {n for n in lowerer.ctx.classes.free_names(callee) if n in params and n in kept}
    if not captured:
        return ()
    operands = tuple(
        lowerer.operand(arg, keyword if kind == ARG_NAMED else None, kind in (ARG_STAR, ARG_STAR2))
        for arg, kind, keyword in zip(call.args, call.arg_kinds, call.arg_names, strict=True)
    )
    positional = [a.variable.name for a in factory.arguments if a.kind in _POSITIONAL]
    keyword_only = [a.variable.name for a in factory.arguments if a.kind in _KEYWORD_ONLY]
    bound = bind_parameters(positional, keyword_only, operands, None)
    return factory_captures(
        bound,
        captured,
        lambda op: isinstance(op.node, NameExpr) and lowerer.view_bound(op.node) == op.node.name,
        span,
    )


def function_choices(lowerer: FunctionLowerer, func: Expression) -> tuple[FuncItem, ...] | None:
    """The functions of the module a callable value may be (the CLI's `function_choices`): a name bound only to
    them, or a subscript of a dict display of them (`callables.registry_choice`); None for anything else."""
    if isinstance(func, NameExpr) and lowerer.helper(func) is None:
        return lowerer.function_choices.get(func.name)
    if isinstance(func, IndexExpr) and isinstance(func.base, NameExpr):
        registry = lowerer.function_registries.get(func.base.name)
        if registry is not None and not isinstance(func.index, SliceExpr):
            key: object = None
            if isinstance(func.index, StrExpr):
                key = func.index.value
            elif isinstance(func.index, IntExpr):
                key = func.index.value
            return callables.registry_choice(registry, key)
    return None


def applied_callee(
    lowerer: FunctionLowerer,
    callee: FuncItem,
    nested: bool,
    args: tuple[calls.Operand[Expression], ...],
    call_span: Span,
) -> AppliedSummary[Expression] | None:
    """The summary of the plain function `callee` (a lambda `map` applies), with `args` bound to its parameters."""
    if lowerer.kernel_body:
        return None
    return _applied(lowerer, callee, None, nested, args, call_span, captures=nested)


def _module_names(callee: FuncItem) -> list[str]:
    """The names a function reads and never binds itself (the CLI's `_module_names`): in a function of the
    module's top level, the module's names."""
    params = {a.variable.name for a in callee.arguments}
    loaded = dict.fromkeys(node.name for node in tree.walk_many(callee.body.body) if isinstance(node, NameExpr))
    stored = _bound_names(callee)
    return sorted(n for n in loaded if n not in params and n not in stored)


def _bound_names(callee: FuncItem) -> set[str]:
    """The names a function's body binds (assigns, loops over, deletes, defines, imports), nested scopes' too."""
    stored: set[str] = set()
    for node in tree.walk_many(callee.body.body):
        if isinstance(node, AssignmentStmt):
            for lvalue in node.lvalues:
                stored.update(_stored(lvalue))
        elif isinstance(node, OperatorAssignmentStmt):
            stored.update(_stored(node.lvalue))
        elif isinstance(node, ForStmt):
            stored.update(_stored(node.index))
        elif isinstance(node, AssignmentExpr):
            stored.update(_stored(node.target))
        elif isinstance(node, DelStmt):
            stored.update(_stored(node.expr))
        elif isinstance(node, WithStmt):
            for item in node.target:
                if item is not None:
                    stored.update(_stored(item))
        elif isinstance(node, TryStmt):
            stored.update(v.name for v in node.vars if v is not None)
        elif isinstance(node, GeneratorExpr | DictionaryComprehension):
            for index in node.indices:
                stored.update(_stored(index))
        elif isinstance(node, FuncDef | Decorator | OverloadedFuncDef | ClassDef):
            stored.add(node.name)
        elif isinstance(node, Import | ImportFrom | ImportAll):
            stored.update(_imported(node))
    return stored


def _kernel_arguments(
    lowerer: FunctionLowerer, callee: FuncItem, bound: Iterable[tuple[str, calls.Operand[Expression]]]
) -> tuple[tuple[Var, Decorator], ...]:
    """The parameters a call binds to a kernel of the module that the callee never binds itself (the CLI's
    `_kernel_arguments`), as (the parameter's variable, the kernel's definition): while its call summary's body
    is lowered, the parameter is known as that kernel (`FileContext.factory_vars`)."""
    variables = {a.variable.name: a.variable for a in callee.arguments}
    found = [
        (variables[name], kernel)
        for name, operand in bound
        if name in variables and isinstance(operand.node, NameExpr) and not operand.star
        and (kernel := lowerer.kernel_decorator(operand.node)) is not None
    ]
    if not found:
        return ()
    stored = _bound_names(callee)
    return tuple((var, kernel) for var, kernel in found if var.name not in stored)


def _applied(
    lowerer: FunctionLowerer,
    callee: FuncItem,
    receiver: calls.Operand[Expression] | None,
    nested: bool,
    args: tuple[calls.Operand[Expression], ...],
    call_span: Span,
    captures: bool = False,
    receiver_class: ClassDef | None = None,
    captured: tuple[tuple[str, calls.Operand[Expression]], ...] = (),
) -> AppliedSummary[Expression] | None:
    """The summary of `callee`, with the call's operands bound to its parameters (`receiver` to the first) and,
    with `captures` (or when the callee and the caller are both the module's top level), the names it reads without
    binding them to the caller's places of those names; a method's for its receiver's class (`receiver_class`),
    with the conflicts its own class's summary lacks (the CLI's `_applied`)."""
    classes = lowerer.ctx.classes
    positional = [a.variable.name for a in callee.arguments if a.kind in _POSITIONAL]
    keyword_only = [a.variable.name for a in callee.arguments if a.kind in _KEYWORD_ONLY]
    receiver_param = positional[0] if receiver is not None and positional else None
    device = frozenset(lowerer.device) if nested else frozenset()
    # the names it reads are the caller's values: a function defined in the calling body applied by `map`, or one of
    # the module's top level called there (a nested function's direct call applies its captures as `closures`)
    captures = captures or (receiver is None and nested and isinstance(lowerer.unit.node, MypyFile))
    free = classes.free_names(callee) if receiver is None else []

    owner = classes.owner.get(id(callee)) if receiver is not None else None
    dispatch = receiver_class.name if receiver_class is not None and owner is not None else None
    # the `*args` tuple's items, one parameter each, when the call tells how many (`call_effects.star_items`)
    star = next((a.variable.name for a in callee.arguments if a.kind == ARG_STAR), None)
    count = star_count(positional, args, receiver is not None) if star is not None else 0
    items = star_items(star, count) if star is not None else ()
    # ... and the `**kwargs` dict's items, one parameter each, by the keywords the call passes into it
    spread = next((a.variable.name for a in callee.arguments if a.kind == ARG_STAR2), None)
    keys = spread_keywords(positional, keyword_only, args) if spread is not None else ()
    items += spread_items(spread, keys) if spread is not None else ()
    bound = bind_parameters(
        positional, keyword_only, args, receiver, star=star if count else None,
        spread_keys=(spread, keys) if spread is not None and keys else None,
    )
    # ... and the parameters the call binds to a kernel of the module (`run(mix, ...)`): that kernel there
    handed = _kernel_arguments(lowerer, callee, bound)
    shape = (count, keys, tuple((v.name, k.fullname) for v, k in handed)) if keys or handed else count
    made = lowerer.ctx.factory_vars

    def lowered(unit: Unit) -> ir.Function:
        """`unit`'s IR, with the handed kernels' parameters known as those kernels while it is lowered."""
        before = {id(var): made.get(id(var)) for var, _ in handed}
        made.update((id(var), (var, kernel)) for var, kernel in handed)
        try:
            return type(lowerer)(lowerer.ctx, unit).lower()
        finally:
            for key, shadowed in before.items():
                if shadowed is None:
                    made.pop(key, None)
                else:
                    made[key] = shadowed

    def compute(dispatch: str | None = dispatch) -> CallSummary | None:
        # every parameter but the receiver counts as a device value (see `CallSummary`)
        plain = frozenset(p for p in (*positional, *keyword_only, *items) if p != receiver_param)
        outer = device | plain
        unit = type(lowerer.unit)(
            callee, "function", lambda: outer, None, f"{callee.name} (call summary)", receiver_class=dispatch,
            star_items=count, spread_keys=keys,
        )
        function = lowered(unit)
        params = [*positional, *keyword_only, *items, *(n for n in free if n not in (*positional, *keyword_only))]
        found = call_summary(function, params, receiver_param, callee.name)
        if receiver_param is not None and _moves_receiver_attributes(callee, receiver_param):
            # once more with the receiver's attributes as device values, for the moves only that makes
            assumed = outer | {receiver_param}
            again = f"{callee.name} (call summary, device attributes)"
            unit = type(lowerer.unit)(
                callee, "function", lambda: assumed, None, again, receiver_class=dispatch, star_items=count,
                spread_keys=keys,
            )
            assuming = lowered(unit)
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
        bound += tuple(
            (name, calls.Operand(NameExpr(name), call_span, lowerer.dotted_place(name), name in lowerer.device))
            for name in free
            if name not in taken and name not in positional and name not in keyword_only
        )
    return AppliedSummary(
        summary,
        bound,
        device_paths=_device_paths(lowerer, receiver, summary, receiver_class or owner),
        repeats=id(callee) in classes.repeated,
        returns_op=lowerer.returns_op(callee) or summary.returns_op,
        op_built=summary.op_built if summary.returns_op else lowerer.returned_op_site(callee),
    )


def method_summaries(lowerer: FunctionLowerer, cls: ClassDef, span: Span) -> list[CallSummary]:
    """The call summaries of a class's own methods but `__init__` (plain `def`s taking a receiver, no
    `@staticmethod` / `@classmethod`; `span`: where the summaries are asked for): what each may do to `self`'s
    attributes when it runs (`init_state.init_facts` reads which a method moves and binds anew; the CLI's
    `method_summaries`)."""
    found: list[CallSummary] = []
    for sub in cls.defs.body:
        method = sub.func if isinstance(sub, Decorator) else sub
        if not isinstance(method, FuncDef) or method.name == "__init__" or method.is_coroutine:
            continue
        if method.is_static or method.is_class or not method.arguments:
            continue
        receiver = method.arguments[0].variable.name
        if method.arguments[0].kind not in _POSITIONAL:
            continue
        node: Expression = NameExpr(receiver)
        operand = calls.Operand(node, span, lowerer.dotted_place(receiver), False)
        applied = _applied(lowerer, method, operand, False, (), span)
        if applied is not None:
            found.append(applied.summary)
    return found


def context_methods(
    lowerer: FunctionLowerer, candidates: tuple[ClassDef, ...] | None, node: Expression, span: Span
) -> tuple[Callable[[ir.Place], None], Callable[[ir.Place], None]] | None:
    """What applies the `__enter__` and `__exit__` call summaries of a class-based context manager of the module
    to the object's place, when every class of `candidates` has both and its `__enter__` returns its receiver (the
    CLI's `context_methods`, `calls.WithItem.methods`); else None."""
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


def _returns_receiver(method: FuncDef) -> bool:
    """Whether `method` gives back its receiver on every path (the CLI's `_returns_receiver`)."""
    from mypy_plugin.lowering import _binds_names  # it imports this module

    params = [a.variable.name for a in method.arguments if a.kind in _POSITIONAL]
    body = method.body.body
    if not params or not body or not isinstance(body[-1], ReturnStmt):
        return False
    receiver = params[0]
    for node in tree.walk_many(body):
        if isinstance(node, YieldExpr | YieldFromExpr):
            return False
        if isinstance(node, ReturnStmt) and not (isinstance(node.expr, NameExpr) and node.expr.name == receiver):
            return False
        if receiver in _binds_names(node):
            return False
    return True


def phase_summary(
    lowerer: FunctionLowerer,
    phase: FuncItem,
    args: tuple[calls.Operand[Expression], ...],
    span: Span,
    receiver: calls.Operand[Expression] | None = None,
) -> AppliedSummary[Expression] | None:
    """The summary of one part of a `@contextlib.contextmanager` generator of the module, with a `with` item's
    call operands bound to its parameters, a method's `receiver` to its first (the CLI's `phase_summary`)."""
    return _applied(lowerer, phase, receiver, False, args, span)


def _moves_receiver_attributes(func: FuncItem, receiver: str) -> bool:
    """Whether a method calls a moving method on an attribute of its receiver (the CLI front end's rule)."""
    for node in tree.walk_many(func.body.body):
        if isinstance(node, CallExpr) and isinstance(node.callee, MemberExpr) and node.callee.name in MOVING_METHODS:
            target = node.callee.expr
            if isinstance(target, MemberExpr) and (tree.dotted(target) or "").split(".")[0] == receiver:
                return True
    return False


def _device_paths(
    lowerer: FunctionLowerer,
    receiver: calls.Operand[Expression] | None,
    summary: CallSummary,
    cls: ClassDef | None = None,
) -> frozenset[tuple[str, ...]]:
    """The receiver attribute paths of a summary's `assumed` moves that the caller knows are device values: a
    device place here, or an attribute the receiver's class `cls` binds to a new device value (`self.soc =
    sk.to_device(...)`, `binds_device`), whatever the caller did to the object since."""
    text = tree.dotted(receiver.node) if receiver is not None else None
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
