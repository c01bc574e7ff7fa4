"""Which units cannot emit an ownership operation, decided before lowering them.

Many units of a safekernels file lower to nothing the core checks (no move, borrow, brand check, unsafe
requirement or must-use value): tile kernel bodies that load and store tiles, plain host helpers.  This module
decides from the *words* of a function's or kernel's source that lowering it would yield nothing of interest, so
`ast_lowering.lower_module` skips it.  Module bodies are always lowered: they define the other units, and what
their own lowering costs is mostly the call summaries of the functions they call (`main()`), which only lowering
the callee can tell.

The test is conservative by construction rather than precise: the lowering reacts to a call, method, annotation
or value only through a *name* it recognises, so a unit none of whose words is one of a superset of those names
cannot reach a rule that emits.  Words are read from the source text (`\\w+`), a superset of the names the unit's
tree holds (strings and comments included, which only makes the test skip less).  The names (`InertUnits`):

- the ownership table's (`safekernels.ownership_model`: its public constants' strings, their sets' members and
  mappings' keys, and the last part of each qualified name), read from the table itself, so a new entry is
  covered the day it lands.  A table name the lowering meets as a method counts after a dot (`x.to(...)`, `sk.zip`,
  `tile.Tensor`); one spelled as a class (`Tensor`, `SharedArray`) counts anywhere, since an annotation may name it
  bare; any other bare use of a table name reaches the lowering only through an import binding, counted next;
- every name the file imports from safekernels or from a module of the project (kernels, re-exports: a library
  outside the project, numpy or torch, is a plain name to the lowering);
- every name a module-level statement binds to something other than a constant (kernel aliases, lambdas,
  partials, prepared launches, device values), and every function and class defined anywhere in the file (a call
  of one applies its call summary; a method's name reaches a class's summary through a receiver of unknown class);
  in a file whose classes define `__call__`, every name read after a dot (an attribute may hold such an object);
- the enclosing unit's device values and kernels, handed down with the unit (`Unit.outer_device`,
  `Unit.outer_kernels`).

A unit is never skipped if it defines a nested function, class or lambda (found by lowering it), imports, or
declares `global` / `nonlocal` names (the words `def`, `class`, `lambda`, `import`, `global`, `nonlocal`), carries
its class's prepared launches or aliases or its enclosing function's containers, or its file has a `from M import
*`.  Kernel bodies (simt, tile, device) move, borrow and launch no host value (`ast_lowering.KERNEL_UNIT_KINDS`):
there only the table's kernel-side names count (unsafe operations, witness consumers, shared arrays) besides the
file's functions, classes and project imports, since every kernel body mentions the safekernels module.

`tests/checker_core/test_inert_units.py` lowers every unit this test skips over the golden cases, the fresh
programs and the examples, and checks that each lowers to nothing, defines nothing, and that skipping changes no
IR the core checks.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from ownership_check.frontend.ast_walk import all_nodes
from ownership_check.frontend.prescan import FileSummary
from ownership_check.frontend.project_index import ProjectIndex
from safekernels import ownership_model

_WORDS = re.compile(r"\w+")
_ATTRIBUTES = re.compile(r"\.[\s\\]*(\w+)")  # `x.name`, `x . name`, `x.\<newline>name`
_DEFINED = re.compile(r"\b(?:def|class)[\s\\]+(\w+)")
#: Words that open a scope or bind names across scopes: a unit holding one is lowered.
_BARRIERS = frozenset({"def", "class", "lambda", "import", "global", "nonlocal"})
_KERNEL_KINDS = frozenset({"simt", "tile", "device"})
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)


def _strings(value: object) -> Iterable[str]:
    """The names in a table entry: a string (and the last part of a dotted one), a set's members, a mapping's keys
    (its values say what a name means, not a name), a tuple key's strings."""
    if isinstance(value, str):
        yield value
        yield value.rsplit(".", 1)[-1]
    elif isinstance(value, Mapping):
        for key in value:
            yield from _strings(key)
    elif isinstance(value, tuple | frozenset | set | list):
        for item in value:
            yield from _strings(item)


def table_names() -> frozenset[str]:
    """Every name the ownership table declares (its public constants' strings), as identifiers."""
    found: set[str] = set()
    for attr, value in vars(ownership_model).items():
        if attr.isupper() and not attr.startswith("_"):
            found.update(s for s in _strings(value) if s.isidentifier())
    return frozenset(found)


_TABLE_NAMES = table_names()
#: Table names spelled as classes: an annotation may name them bare.
_TABLE_CLASSES = frozenset(n for n in _TABLE_NAMES if n[:1].isupper())
#: Kernel-side names whose calls or annotations emit an operation inside a kernel body.
_KERNEL_TABLE_NAMES: frozenset[str] = frozenset(
    {
        *ownership_model.UNSAFE_OPERATIONS,
        *ownership_model.WITNESS_CONSUMERS,
        *ownership_model.SHARED_ARRAY_ANNOTATIONS,
        ownership_model.SHARED_ARRAY_CONSTRUCTOR.rsplit(".", 1)[-1],
        ownership_model.UNSAFE_CONTEXT.rsplit(".", 1)[-1],
    }
)


class UnitLike(Protocol):
    """What the test reads of a lowering unit (`ast_lowering.Unit`)."""

    @property
    def node(self) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.Module: ...
    @property
    def kind(self) -> str: ...
    @property
    def outer_device(self) -> frozenset[str]: ...
    @property
    def outer_kernels(self) -> Mapping[str, object]: ...
    @property
    def class_brands(self) -> Mapping[str, tuple[str, ...]]: ...
    @property
    def class_aliases(self) -> tuple[tuple[str, tuple[str | None, ...]], ...]: ...
    @property
    def outer_containers(self) -> Mapping[str, object]: ...


def _shared_array_callees(module: ast.Module) -> frozenset[str]:
    """The names some call of the module passes a name its function binds to a call ending in `shared_array`
    (`scratch = simt.shared_array(f32, 64)` then `block_sum(scratch, t, v)`): a superset, by words, of the device
    helpers whose parameters the lowering reads as shared arrays."""
    found: set[str] = set()
    for func in all_nodes(module):
        if not isinstance(func, ast.FunctionDef):
            continue
        inner = list(all_nodes(func))
        shared = {
            t.id for n in inner if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
            and _last_name(n.value.func) == "shared_array"
            for t in n.targets if isinstance(t, ast.Name)
        }
        found.update(
            n.func.id for n in inner if shared and isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            and any(isinstance(a, ast.Name) and a.id in shared for a in n.args)
        )
    return frozenset(found)


def _last_name(node: ast.expr) -> str | None:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None


def _is_safekernels(qualified: str) -> bool:
    return qualified == "safekernels" or qualified.startswith("safekernels.")


def _known(qualified: str, index: ProjectIndex) -> bool:
    """Whether an imported name may mean something to the lowering: safekernels' own, or a project module's."""
    for name in (qualified, index.resolve(qualified)):
        if _is_safekernels(name):
            return True
        parts = name.split(".")
        if any(".".join(parts[:i]) in index.modules for i in range(1, len(parts) + 1)):
            return True
    return False


def _is_constant(node: ast.expr) -> bool:
    """A literal of constants only (`1024`, `(16, 16)`, `-1`): it binds nothing the lowering follows."""
    return all(
        not isinstance(n, ast.Name | ast.Call | ast.Attribute | ast.Lambda | ast.NamedExpr) for n in all_nodes(node)
    )


def _stored_names(node: ast.AST) -> Iterable[str]:
    for n in all_nodes(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            yield n.id


class InertUnits:
    """The names of one file the lowering may react to, and the test of a unit against them."""

    def __init__(
        self, source: str, line_starts: Sequence[int], module: ast.Module, summary: FileSummary, index: ProjectIndex
    ) -> None:
        self.source = source
        self.line_starts = line_starts
        self.disabled = bool(summary.star_imports)
        imports = summary.imports
        defined = set(_DEFINED.findall(source))
        foreign = {local for local, qualified in imports.items() if _known(qualified, index)}
        module_bound: set[str] = set()
        for stmt in module.body:
            if isinstance(stmt, ast.Assign):
                if not _is_constant(stmt.value):
                    for target in stmt.targets:
                        module_bound.update(_stored_names(target))
            elif not isinstance(stmt, _DEFINITIONS):
                module_bound.update(_stored_names(stmt))  # annotated, augmented, walrus, under control flow
        if "__call__" in defined:
            # an attribute may hold an object of a class of the file (`self.residual(x, out)` runs its `__call__`):
            # every name read after a dot in the file counts
            module_bound.update(_ATTRIBUTES.findall(source))
        self.shared_callees = _shared_array_callees(module)
        non_safekernels = {n for n in foreign if not _is_safekernels(imports[n])}
        self.kernel_names = _KERNEL_TABLE_NAMES | defined | non_safekernels
        self.host_names = _TABLE_CLASSES | defined | foreign | module_bound

    def _text(self, node: ast.AST) -> str:
        starts = self.line_starts
        first: int = node.lineno  # type: ignore[attr-defined]
        last: int = node.end_lineno or first  # type: ignore[attr-defined]
        return self.source[starts[first - 1] : starts[last] if last < len(starts) else len(self.source)]

    def _host_hit(self, text: str, words: set[str], outer: Iterable[str] = ()) -> bool:
        if not words.isdisjoint(self.host_names) or not words.isdisjoint(_BARRIERS):
            return True
        if not _TABLE_NAMES.isdisjoint(_ATTRIBUTES.findall(text)):
            return True
        return not words.isdisjoint(outer)

    def skips(self, unit: UnitLike) -> bool:
        """Whether lowering `unit` (a function or kernel body) can only yield an IR function with no ownership
        operation (see the module docstring); False whenever in doubt, and for a module body."""
        node = unit.node
        if self.disabled or isinstance(node, ast.Module):
            return False
        if unit.class_brands or unit.class_aliases or unit.outer_containers:
            return False
        # from `def` (decorators run in the enclosing unit) to the body's last line; without its own `def name`
        text = self._text(node)
        listed = _WORDS.findall(text)
        try:
            at = listed.index("def")
        except ValueError:
            return False  # a lambda lowered as a function: its line says `lambda`
        if listed[at + 1 : at + 2] != [node.name]:
            return False
        words = set(listed[:at])
        words.update(listed[at + 2 :])
        if unit.kind in _KERNEL_KINDS:
            # kernel code moves, borrows and launches no host value: the enclosing body's values mean nothing there;
            # a helper some call passes a shared array indexes it unannotated (`ast_lowering.shared_array_params`)
            if node.name in self.shared_callees:
                return False
            return words.isdisjoint(self.kernel_names) and words.isdisjoint(_BARRIERS)
        outer = {part for key in (*unit.outer_device, *unit.outer_kernels) for part in _WORDS.findall(key)}
        return not self._host_hit(text, words, outer)
