"""Iterables whose items the checker can list before the program runs, and the dict comprehensions over them (the
CLI front end's `static_iterables`, over mypy's tree; what `zip`, `sorted` and the comprehension make of the items
is `core.static_rows`).

Followed: tuple, list and dict displays; names bound once to one in the function, at the module's top level or in
a class body (`self.KERNELS`, `Pipeline.KERNELS`) and changed nowhere; a dict's `keys()`, `values()` and `items()`;
`zip`, `enumerate`, `sorted` (of literal keys), `reversed`, `list` and `tuple` of those.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    AssignmentStmt,
    CallExpr,
    ClassDef,
    DictExpr,
    DictionaryComprehension,
    Expression,
    IndexExpr,
    IntExpr,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    StarExpr,
    StrExpr,
    TupleExpr,
    UnaryExpr,
)

from mypy_plugin import tree
from ownership_check.core import calls, static_rows
from ownership_check.core.static_rows import READS, Row, StaticComprehension

if TYPE_CHECKING:
    from mypy_plugin.lowering import FileContext, FunctionLowerer

_MAX_DEPTH = 6


@dataclass(frozen=True)
class Scope:
    """Where an iterable is read (the CLI's `Scope`)."""

    ctx: FileContext
    local_names: AbstractSet[str]
    local_tables: Mapping[str, Expression]
    registries: Mapping[str, list[tuple[calls.ContainerKey, Expression]]]
    builtin: Callable[[Expression], str | None]
    class_of: Callable[[str], ClassDef | None]


def scope_of(lowerer: FunctionLowerer) -> Scope:
    """The scope of the function `lowerer` lowers."""
    from mypy_plugin.call_targets import receiver_class

    return Scope(
        lowerer.ctx, lowerer.local_names, lowerer.key_lists, lowerer.registries, lowerer.builtin,
        functools.partial(receiver_class, lowerer),
    )


def key_of(expr: Expression) -> calls.ContainerKey | None:
    """A string or integer literal's value (`-1` too)."""
    if isinstance(expr, StrExpr | IntExpr):
        return expr.value
    if isinstance(expr, UnaryExpr) and expr.op == "-" and isinstance(expr.expr, IntExpr):
        return -expr.expr.value
    return None


def _literal(value: calls.ContainerKey) -> Expression:
    return StrExpr(value) if isinstance(value, str) else IntExpr(value)


def _display(expr: Expression | None) -> list[Expression] | None:
    if isinstance(expr, TupleExpr | ListExpr) and not any(isinstance(e, StarExpr) for e in expr.items):
        return list(expr.items)
    return None


def _dict_entries(expr: Expression | None) -> list[tuple[calls.ContainerKey, Expression]] | None:
    if not isinstance(expr, DictExpr) or any(k is None for k, _ in expr.items):
        return None
    keys = [key_of(k) for k, _ in expr.items if k is not None]
    if any(k is None for k in keys) or len(set(keys)) != len(keys):
        return None
    return [(k, v) for k, (_, v) in zip(keys, expr.items, strict=True) if k is not None]


def module_tables(module: MypyFile, stable: AbstractSet[str]) -> dict[str, Expression]:
    """The CLI's `module_tables`."""
    changed: set[str] = set()
    for node in tree.walk_many(module.defs, skip_scopes=False):
        if isinstance(node, MemberExpr) and isinstance(node.expr, NameExpr) and node.name not in READS:
            changed.add(node.expr.name)
        for target in tree.stored_leaves(node):
            if isinstance(target, IndexExpr) and isinstance(target.base, NameExpr):
                changed.add(target.base.name)
    found: dict[str, Expression] = {}
    for stmt in module.defs:
        if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and isinstance(stmt.lvalues[0], NameExpr):
            name, value = stmt.lvalues[0].name, stmt.rvalue
            if isinstance(value, TupleExpr | ListExpr | DictExpr) and name in stable and name not in changed:
                found[name] = value
    return found


def changed_attributes(module: MypyFile) -> frozenset[str]:
    """The CLI's `changed_attributes`."""
    found: set[str] = set()
    for node in tree.walk_many(module.defs, skip_scopes=False):
        for target in tree.stored_leaves(node):
            if isinstance(target, MemberExpr):
                found.add(target.name)
            elif isinstance(target, IndexExpr) and isinstance(target.base, MemberExpr):
                found.add(target.base.name)
        if isinstance(node, MemberExpr) and isinstance(node.expr, MemberExpr) and node.name not in READS:
            found.add(node.expr.name)
    return frozenset(found)


def class_tables(cls: ClassDef, changed: AbstractSet[str]) -> dict[str, Expression]:
    """The CLI's `class_tables`."""
    counts: dict[str, int] = {}
    shown: dict[str, Expression] = {}
    for stmt in cls.defs.body:
        if not isinstance(stmt, AssignmentStmt):
            continue
        for target in stmt.lvalues:
            if isinstance(target, NameExpr):
                counts[target.name] = counts.get(target.name, 0) + 1
                if len(stmt.lvalues) == 1 and isinstance(stmt.rvalue, TupleExpr | ListExpr | DictExpr):
                    shown[target.name] = stmt.rvalue
    return {name: value for name, value in shown.items() if counts[name] == 1 and name not in changed}


def _named_table(scope: Scope, expr: Expression) -> Expression | None:
    if isinstance(expr, NameExpr):
        if expr.name in scope.local_names:
            return scope.local_tables.get(expr.name)
        return scope.ctx.module_tables().get(expr.name)
    if isinstance(expr, MemberExpr) and isinstance(expr.expr, NameExpr):
        name = expr.expr.name
        owner = scope.ctx.classes.classes.get(name) if name not in scope.local_names else None
        cls = owner or scope.class_of(name)
        return scope.ctx.class_tables(cls).get(expr.name) if cls is not None else None
    return None


def _mapping(scope: Scope, expr: Expression) -> list[tuple[calls.ContainerKey, Expression]] | None:
    if isinstance(expr, NameExpr) and expr.name in scope.local_names:
        registry = scope.registries.get(expr.name)
        return list(registry) if registry is not None else None
    return _dict_entries(expr if isinstance(expr, DictExpr) else _named_table(scope, expr))


def sequence(scope: Scope, expr: Expression, depth: int = 0) -> list[Expression] | None:
    """The CLI's `sequence`."""
    rows = iteration(scope, expr, depth)
    if rows is None or any(len(row) != 1 for row in rows):
        return None
    return [row[0] for row in rows]


def iteration(scope: Scope, expr: Expression, depth: int = 0) -> list[Row[Expression]] | None:
    """The CLI's `iteration`."""
    if depth > _MAX_DEPTH:
        return None
    shown = _display(expr)
    if shown is not None:
        return [(item,) for item in shown]
    if isinstance(expr, NameExpr | MemberExpr | DictExpr):
        entries = _mapping(scope, expr)
        if entries is not None:
            return static_rows.mapping_rows(entries, None, _literal)
        items = _display(_named_table(scope, expr))
        return [(item,) for item in items] if items is not None else None
    if not isinstance(expr, CallExpr):
        return None
    if any(kind not in (ARG_POS, ARG_NAMED) for kind in expr.arg_kinds):
        return None
    if any(kind == ARG_NAMED and name != "strict" for kind, name in zip(expr.arg_kinds, expr.arg_names, strict=True)):
        return None
    args = [a for a, kind in zip(expr.args, expr.arg_kinds, strict=True) if kind == ARG_POS]
    keywords = len(args) != len(expr.args)
    callee = expr.callee
    if isinstance(callee, MemberExpr) and not expr.args:
        entries = _mapping(scope, callee.expr)
        return static_rows.mapping_rows(entries, callee.name, _literal) if entries is not None else None
    name = scope.builtin(callee)
    if name == "zip":
        return static_rows.zipped([sequence(scope, a, depth + 1) for a in args])
    if keywords or len(args) != 1:
        return None
    if name == "enumerate":
        items = sequence(scope, args[0], depth + 1)
        return [(_literal(i), item) for i, item in enumerate(items)] if items is not None else None
    if name in static_rows.WRAPPERS:
        rows = iteration(scope, args[0], depth + 1)
        return static_rows.wrapped(name, rows, key_of) if rows is not None else None
    return None


def _target_names(target: Expression) -> list[str | None] | None:
    if isinstance(target, NameExpr):
        return [target.name]
    if isinstance(target, TupleExpr | ListExpr) and all(isinstance(e, NameExpr) for e in target.items):
        return [e.name if isinstance(e, NameExpr) else None for e in target.items]
    return None


def dict_comprehension(scope: Scope, expr: Expression | None) -> StaticComprehension[Expression] | None:
    """The CLI's `dict_comprehension`."""
    if not isinstance(expr, DictionaryComprehension) or len(expr.indices) != 1:
        return None
    names = _target_names(expr.indices[0])
    if expr.condlists[0] or expr.is_async[0] or names is None or not isinstance(expr.key, NameExpr):
        return None
    rows = iteration(scope, expr.sequences[0])
    return static_rows.comprehension(expr, names, expr.key.name, rows, key_of, _display)
