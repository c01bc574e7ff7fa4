"""Iterables whose items the checker can list before the program runs, and the dict comprehensions over them.

A registry of kernels is often written as two parallel tables, or as a table sorted or zipped at the point of use:
`{name: k.prepare(...) for name, k in zip(STAGE_NAMES, KERNELS)}`, `zip(sorted(RISK), RISK.values())`, class-level
tuples read as `self.KERNELS`.  Which kernel each key's launch was prepared for is fixed by the source, as long as
every table is a display bound once and never changed: this module lists such iterables item by item so that the
launch kept under each key keeps its kernel's brand (E0308 when another kernel launches it).  What `zip`,
`sorted` and the comprehension make of the items is `core.static_rows` (the plugin lists its own tree's items).

Followed: tuple, list and dict displays; names bound once to one in the function (`registries`, `key_lists`), at
the module's top level or in a class body (`self.KERNELS`, `Pipeline.KERNELS`) and changed nowhere; a dict's
`keys()`, `values()` and `items()` (iterating the dict gives its keys); `zip`, `enumerate`, `sorted` (of literal
keys), `reversed`, `list` and `tuple` of those.  Anything else is not listed (None) and the comprehension's items
stay unknown.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ownership_check.core import calls, static_rows
from ownership_check.core.static_rows import READS, Row, StaticComprehension

if TYPE_CHECKING:
    from ownership_check.frontend.ast_lowering import FileContext, FunctionLowerer

#: Deepest nesting of `sorted(zip(...))`-style wrappers followed (the tables are displays one or two levels down).
_MAX_DEPTH = 6


@dataclass(frozen=True)
class Scope:
    """Where an iterable is read: the function's names bound once to displays (`local_tables`, `registries`: a
    name bound there and not among them is not followed) and the module's and classes' tables (`ctx`)."""

    ctx: FileContext
    local_names: AbstractSet[str]
    local_tables: Mapping[str, ast.expr]
    registries: Mapping[str, list[tuple[calls.ContainerKey, ast.expr]]]
    builtin: Callable[[ast.expr], str | None]
    class_of: Callable[[str], ast.ClassDef | None]


def scope_of(lowerer: FunctionLowerer) -> Scope:
    """The scope of the function `lowerer` lowers."""
    from ownership_check.frontend.call_targets import receiver_class

    return Scope(
        lowerer.ctx, lowerer.local_names, lowerer.key_lists, lowerer.registries, lowerer.builtin,
        functools.partial(receiver_class, lowerer),
    )


def key_of(node: ast.expr) -> calls.ContainerKey | None:
    """A string or integer literal's value (`-1` too)."""
    if isinstance(node, ast.Constant) and type(node.value) in (str, int):
        value = node.value
        assert isinstance(value, str | int)
        return value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        inner = node.operand.value
        return -inner if type(inner) is int else None
    return None


def _literal(value: calls.ContainerKey) -> ast.expr:
    """A key as the literal node that spells it (`sorted(REG)`, `REG.keys()` give keys, not nodes)."""
    return ast.Constant(value)


def _display(node: ast.AST | None) -> list[ast.expr] | None:
    if isinstance(node, ast.Tuple | ast.List) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return list(node.elts)
    return None


def _dict_entries(node: ast.AST | None) -> list[tuple[calls.ContainerKey, ast.expr]] | None:
    if not isinstance(node, ast.Dict) or any(k is None for k in node.keys):
        return None
    keys = [key_of(k) for k in node.keys if k is not None]
    if any(k is None for k in keys) or len(set(keys)) != len(keys):
        return None
    return [(k, v) for k, v in zip(keys, node.values, strict=True) if k is not None]


def module_tables(module: ast.Module, stable: AbstractSet[str]) -> dict[str, ast.expr]:
    """The displays the module's top level binds to a name bound once (`stable`) that nothing stores into,
    deletes an item of or calls a method of but a reading one (`KERNELS = (blur, sharpen)`, `RISK = {...}`)."""
    changed: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and not isinstance(node.ctx, ast.Load):
            changed.add(node.value.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.attr not in READS:
            changed.add(node.value.id)
    found: dict[str, ast.expr] = {}
    for stmt in module.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name, value = stmt.targets[0].id, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            name, value = stmt.target.id, stmt.value
        else:
            continue
        if isinstance(value, ast.Tuple | ast.List | ast.Dict) and name in stable and name not in changed:
            found[name] = value
    return found


def changed_attributes(module: ast.Module) -> frozenset[str]:
    """Attribute names the module stores, deletes, stores into (`x.T[k] = v`) or calls a method of but a reading
    one (`x.T.append(...)`), whatever the object."""
    found: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
            found.add(node.attr)
        elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
            if isinstance(node.value, ast.Attribute):
                found.add(node.value.attr)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.attr not in READS:
            found.add(node.value.attr)
    return frozenset(found)


def class_tables(cls: ast.ClassDef, changed: AbstractSet[str]) -> dict[str, ast.expr]:
    """The displays a class body binds once to a name no code of the module changes through an attribute
    (`changed`; `STAGE_NAMES = ("calibrate", "window")`): `self.STAGE_NAMES`, `Pipeline.STAGE_NAMES`."""
    counts: dict[str, int] = {}
    shown: dict[str, ast.expr] = {}
    for stmt in cls.body:
        value: ast.expr | None
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign):
            targets, value = [stmt.target], stmt.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                counts[target.id] = counts.get(target.id, 0) + 1
                if len(targets) == 1 and isinstance(value, ast.Tuple | ast.List | ast.Dict):
                    shown[target.id] = value
    return {name: value for name, value in shown.items() if counts[name] == 1 and name not in changed}


def _named_table(scope: Scope, node: ast.expr) -> ast.expr | None:
    """The display a name or class attribute stands for (see the module docstring), else None."""
    if isinstance(node, ast.Name):
        if node.id in scope.local_names:
            return scope.local_tables.get(node.id)
        return scope.ctx.module_tables.get(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        owner = scope.ctx.classes.classes.get(node.value.id) if node.value.id not in scope.local_names else None
        cls = owner or scope.class_of(node.value.id)
        return scope.ctx.class_tables(cls).get(node.attr) if cls is not None else None
    return None


def _mapping(scope: Scope, node: ast.expr) -> list[tuple[calls.ContainerKey, ast.expr]] | None:
    """The entries of a dict `node` is: a display, a name or class attribute bound to one, a local registry."""
    if isinstance(node, ast.Name) and node.id in scope.local_names:
        registry = scope.registries.get(node.id)
        return list(registry) if registry is not None else None
    return _dict_entries(node if isinstance(node, ast.Dict) else _named_table(scope, node))


def sequence(scope: Scope, node: ast.expr, depth: int = 0) -> list[ast.expr] | None:
    """The items iterating `node` gives, in order, when the source fixes them; else None."""
    rows = iteration(scope, node, depth)
    if rows is None or any(len(row) != 1 for row in rows):
        return None
    return [row[0] for row in rows]


def iteration(scope: Scope, node: ast.expr, depth: int = 0) -> list[Row[ast.expr]] | None:
    """The rows iterating `node` gives (`static_rows`), else None."""
    if depth > _MAX_DEPTH:
        return None
    shown = _display(node)
    if shown is not None:
        return [(item,) for item in shown]
    if isinstance(node, ast.Name | ast.Attribute | ast.Dict):
        entries = _mapping(scope, node)
        if entries is not None:
            return static_rows.mapping_rows(entries, None, _literal)
        items = _display(_named_table(scope, node))
        return [(item,) for item in items] if items is not None else None
    if not isinstance(node, ast.Call) or any(k.arg != "strict" for k in node.keywords):
        return None
    if any(isinstance(a, ast.Starred) for a in node.args):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and not node.args and not node.keywords:
        entries = _mapping(scope, func.value)
        return static_rows.mapping_rows(entries, func.attr, _literal) if entries is not None else None
    name = scope.builtin(func)
    if name == "zip":
        return static_rows.zipped([sequence(scope, a, depth + 1) for a in node.args])
    if node.keywords or len(node.args) != 1:
        return None
    if name == "enumerate":
        items = sequence(scope, node.args[0], depth + 1)
        return [(_literal(i), item) for i, item in enumerate(items)] if items is not None else None
    if name in static_rows.WRAPPERS:
        rows = iteration(scope, node.args[0], depth + 1)
        return static_rows.wrapped(name, rows, key_of) if rows is not None else None
    return None


def _target_names(target: ast.expr) -> list[str | None] | None:
    """The names `for a, b in` binds, by position."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List) and all(isinstance(e, ast.Name) for e in target.elts):
        return [e.id if isinstance(e, ast.Name) else None for e in target.elts]
    return None


def dict_comprehension(scope: Scope, node: ast.expr | None) -> StaticComprehension[ast.expr] | None:
    """`{n: f(k) for n, k in ITERABLE}` (one `for`, no `if`) whose key is one of its target names and whose
    iterable is listed here (`static_rows.comprehension`), else None."""
    if not isinstance(node, ast.DictComp) or len(node.generators) != 1:
        return None
    comp = node.generators[0]
    names = _target_names(comp.target)
    if comp.ifs or comp.is_async or names is None or not isinstance(node.key, ast.Name):
        return None
    rows = iteration(scope, comp.iter)
    return static_rows.comprehension(node, names, node.key.id, rows, key_of, _display)
