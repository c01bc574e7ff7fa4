"""Lower Python modules (the stdlib `ast`, parsed by CPython's own C parser) to the flow IR: one `ir.Function` per
function body plus one for the module top level.

Only ownership-relevant facts are emitted, in Python's evaluation order: reads of names (`Use`), aliasing
assignments (`Bind` with `FromPlace`), fresh results, the moves, borrows and brand checks of safekernels calls
(from `safekernels.ownership_model`, never restated here), views, unsafe blocks and control flow.  All borrow
logic lives in the core, and so does what a call means: this module resolves a call (or an assignment, or a `with`
statement), describes it as one of `core.calls`' neutral shapes and lets `core.calls` emit its operations, exactly
as the mypy plugin does.

Why `ast` and not a concrete syntax tree: the analysis needs names, calls and positions, never whitespace or
comments, and the prescan has already parsed the file with `ast` (the same tree is reused).  CPython's parser is
an order of magnitude faster than building a concrete syntax tree and deriving byte spans from it, which was most
of the checker's time.  Positions follow what users see: 1-based lines and character columns, parentheses around
an expression excluded.  Name tokens that `ast` keeps as plain strings (`x.attr`, `def name`, a parameter, `except
E as name`, `case [*rest]`) get their positions from the source text.

Which calls are which is decided by qualified names (import bindings + the project index), so `from
safekernels import simt as s`, `import safekernels.tile` and re-exports all work.  Methods that other
libraries also define (`partition`, `sync`, `view`, slicing) only count on values that are *device-like*:
bound, somewhere in the function, from a safekernels call or another device-like value, or parameters
annotated with a safekernels type.  That keeps `line.partition(":")` in a file that happens to import
safekernels silent.
"""

from __future__ import annotations

import ast
import bisect
import functools
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, TypeAlias, Union

from ownership_check.core import (
    callables,
    calls,
    init_state,
    ir,
    keyed_items,
    parameter_defaults,
    reentry,
    static_rows,
    stdlib_flow,
    throwing,
    view_bounds,
)
from ownership_check.core.bound_once import bound_once
from ownership_check.core.bump_alloc import bump_sequences
from ownership_check.core.call_effects import (
    AppliedSummary,
    Gathered,
    GeneratedInit,
    apply_summary,
    iterated_fields,
    one_line_site,
)
from ownership_check.core.checker import effect_names, nonlocal_effects
from ownership_check.core.computed_items import ComputedItems, one_place
from ownership_check.core.identity_memo import IdentityMemo
from ownership_check.core.memo import (
    MemoKey,
    MemoToken,
    earlier_runs,
    keyword_token,
    literal_token,
    memo_place,
    memo_result,
    memoizing_decorator,
    returns_shared,
    runs_again,
)
from ownership_check.diagnostics import Span
from ownership_check.frontend import keyed_mentions, static_iterables
from ownership_check.frontend.ast_walk import all_nodes, memoized_walk
from ownership_check.frontend.bump_shape import bump_buffer, bump_events
from ownership_check.frontend.call_targets import (
    PROPERTY_DECORATORS,
    ModuleClasses,
    applied_callee,
    applied_summary,
    attribute_registries,
    called_classes,
    class_kernel,
    constructor_summary,
    context_methods,
    generated_fields,
    held_accessors,
    held_object_method,
    method_summaries,
    module_registries,
    phase_summary,
    property_summary,
    receiver_accessors,
    receiver_class,
    receiver_classes,
    receiver_items,
    receiver_property,
    static_method,
    subclass_kernels,
    view_receiver_classes,
)
from ownership_check.frontend.computed_reads import dotted as computed_dotted
from ownership_check.frontend.computed_reads import index_form, item_statement
from ownership_check.frontend.inert_units import InertUnits
from ownership_check.frontend.item_changes import EVERY, changed_items
from ownership_check.frontend.kernel_choices import (
    KernelTable,
    kernel_tables,
    keyed_rows,
    name_choices,
    subscript_choices,
)
from ownership_check.frontend.memo_shape import MemoParams, cached_value, memo_params
from ownership_check.frontend.prescan import (
    FileSummary,
    KernelSummary,
    is_safekernels_name,
    resolve_local,
    safekernels_returns_plain,
)
from ownership_check.frontend.project_index import ProjectIndex
from safekernels.ownership_model import (
    ALIASING_FUNCTIONS,
    ALIASING_METHODS,
    CALLBACK_METHODS,
    DEVICE_ANNOTATIONS,
    PREPARE_METHOD,
    SHARED_ARRAY_ANNOTATIONS,
    SHARED_ARRAY_CONSTRUCTOR,
    SHARED_OP_ANNOTATIONS,
    UNSAFE_CONTEXT,
    launch_form,
)

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]  # noqa: UP007 (a runtime alias)
_FUNCTION_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_SCOPE_TYPES: frozenset[type[ast.AST]] = frozenset(_SCOPES)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
#: Constants a concrete syntax tree spells as plain literals or names (`1`, `"s"`, `None`): items of a display.
_PLAIN_CONSTANTS = (str, bytes, int, float, type(None))


def _view_base(node: ast.expr) -> str | None:
    """The place a view expression views (`buf` of `buf.view(a, b)`, `buf.split_at(k)`, `buf[a:b]`), or whose
    partition it is (`t` of `t.partition(s)`), or None."""
    func = node.func if isinstance(node, ast.Call) else None
    if isinstance(func, ast.Attribute) and func.attr in calls.DEVICE_PROVING_METHODS:
        return dotted(func.value)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        return dotted(node.value)
    return None


def ident(name: str) -> str:
    """An identifier as Python binds it: NFKC-normalized (PEP 3131), so `ﬁ` and `fi` are one name."""
    return name if name.isascii() else unicodedata.normalize("NFKC", name)


def dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


#: Comparison operators as `calls.iteration_tests` spells them.
_COMPARISONS: dict[type[ast.cmpop], str] = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
}


def _count_text(node: ast.expr) -> str | None:
    """A name, an attribute path or `len(path)` as text (`calls.OffsetForm`), else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and (
        len(node.args) == 1 and not node.keywords
    ):
        inner = dotted(node.args[0])
        return None if inner is None else f"len({inner})"
    return dotted(node)


def _offset_form(node: ast.expr) -> calls.OffsetForm | None:
    """`x`, `x + 1`, `1 + x`, `x - 1` of a `_count_text` operand: (its text, the integer added), else None."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        left, right = node.left, node.right
        if isinstance(right, ast.Constant) and type(right.value) is int:
            text = _count_text(left)
            sign = 1 if isinstance(node.op, ast.Add) else -1
            return None if text is None else (text, sign * right.value)
        if isinstance(node.op, ast.Add) and isinstance(left, ast.Constant) and type(left.value) is int:
            text = _count_text(right)
            return None if text is None else (text, left.value)
        return None
    text = _count_text(node)
    return None if text is None else (text, 0)


def callee_text(node: ast.expr) -> str | None:
    """How a message names a callee: `Runner.build`, or `Runner().launch` with a call in the chain as `()`; None
    for anything else (a subscript, a lambda)."""
    if isinstance(node, ast.Call):
        inner = callee_text(node.func)
        return None if inner is None else inner + "()"
    if isinstance(node, ast.Attribute):
        base = callee_text(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else None


# --- children in the order the analysis visits them ---------------------------------------------------------

_SKIPPED_FIELDS = frozenset({"ctx", "op", "ops", "type_comment", "kind", "is_async", "conversion", "level"})
_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}


@dataclass(frozen=True)
class Arg:
    """One argument of a call in source order (`ast` keeps positional and keyword arguments apart)."""

    value: ast.expr
    keyword: str | None = None
    star: str = ""  # "", "*" or "**"
    node: ast.AST | None = None  # the `ast.keyword` (for its position), else None


def call_args(call: ast.Call) -> tuple[Arg, ...]:
    out = [
        Arg(a.value, None, "*") if isinstance(a, ast.Starred) else Arg(a) for a in call.args
    ]
    if call.keywords:
        kws = [Arg(k.value, k.arg, "" if k.arg is not None else "**", k) for k in call.keywords]
        if any(a.star == "*" for a in out):
            # `f(k=1, *rest)` is legal: order by position
            out = sorted([*out, *kws], key=lambda a: _start(a.node if a.node is not None else a.value))
        else:
            out.extend(kws)
    return tuple(out)


def _start(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


def _call_kids(node: ast.Call) -> list[ast.AST]:
    out: list[ast.AST] = [node.func]
    for arg in call_args(node):
        out.append(arg.node if arg.node is not None else arg.value)
    return out


def _arguments_kids(node: ast.arguments) -> list[ast.AST]:
    out: list[ast.AST] = []
    for param, default in _params(node, walk_order=True):
        out.append(param)
        if default is not None:
            out.append(default)
    return out


def _dict_kids(node: ast.Dict) -> list[ast.AST]:
    out: list[ast.AST] = []
    for key, value in zip(node.keys, node.values, strict=True):
        if key is not None:
            out.append(key)
        out.append(value)
    return out


def _mapping_kids(node: ast.MatchMapping) -> list[ast.AST]:
    out: list[ast.AST] = []
    for key, pattern in zip(node.keys, node.patterns, strict=True):
        out.append(key)
        out.append(pattern)
    return out


_SPECIAL_KIDS: dict[type[ast.AST], Callable[[Any], list[ast.AST]]] = {
    ast.Call: _call_kids,
    ast.arguments: _arguments_kids,
    ast.Dict: _dict_kids,
    ast.MatchMapping: _mapping_kids,
    ast.ClassDef: lambda n: [*n.body, *n.bases, *n.keywords, *n.decorator_list],
    ast.ExceptHandler: lambda n: [*n.body, *([n.type] if n.type is not None else [])],
    ast.match_case: lambda n: [n.pattern, *n.body, *([n.guard] if n.guard is not None else [])],
    ast.MatchClass: lambda n: [n.cls, *n.patterns, *n.kwd_patterns],
    ast.Constant: lambda n: [],
    ast.Name: lambda n: [],
}
if hasattr(ast, "TryStar"):
    _SPECIAL_KIDS[ast.TryStar] = lambda n: [*n.body, *n.handlers, *n.orelse, *n.finalbody]


def _kids(node: ast.AST) -> list[ast.AST]:
    """Syntactic children: statements, expressions and patterns, in source order (decorators and a class's bases
    after its body, as the analysis has always visited them); contexts and operators skipped."""
    special = _SPECIAL_KIDS.get(type(node))
    if special is not None:
        return special(node)
    names = _FIELDS.get(type(node))
    if names is None:
        names = tuple(f for f in node._fields if f not in _SKIPPED_FIELDS)
        _FIELDS[type(node)] = names
    out: list[ast.AST] = []
    for name in names:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            out.extend(item for item in value if isinstance(item, ast.AST))
    return out


def _walk(roots: ast.AST | Sequence[ast.AST], skip_scopes: bool = True) -> Iterator[ast.AST]:
    """Pre-order walk; with `skip_scopes`, nested functions, classes and lambdas are yielded, not entered (each
    walk is done once per file: `ast_walk.memoized_walk`)."""
    walker = "lowering-scope" if skip_scopes else "lowering-all"
    return iter(memoized_walk(walker, roots, lambda: _walk_nodes(roots, skip_scopes)))


def _walk_nodes(roots: ast.AST | Sequence[ast.AST], skip_scopes: bool) -> Iterator[ast.AST]:
    """`_walk`, walking."""
    stack: list[ast.AST] = [roots] if isinstance(roots, ast.AST) else list(reversed(roots))
    top = roots
    scopes = _SCOPE_TYPES if skip_scopes else frozenset()
    pop = stack.pop
    push = stack.extend
    while stack:
        cur = pop()
        yield cur
        kind = type(cur)
        if kind is ast.Name or kind is ast.Constant or (kind in scopes and cur is not top):
            continue
        kids = _kids(cur)
        if kids:
            kids.reverse()
            push(kids)


@dataclass(frozen=True)
class _Token:
    """A name in the source: an `ast.Name`, or one `ast` keeps as a string (`kind` says where to find it)."""

    name: str
    node: ast.AST
    kind: str  # "name" | "attr" | "keyword" | "def" | "arg" | "except" | "match" | "rest"


def _name_tokens(roots: ast.AST | Sequence[ast.AST]) -> Iterator[_Token]:
    """Every name occurrence under `roots` (nested scopes included), in the analysis' visiting order;
    `global` / `nonlocal` declarations are not name occurrences."""
    stack: list[ast.AST | _Token] = [roots] if isinstance(roots, ast.AST) else list(reversed(roots))
    while stack:
        cur = stack.pop()
        if isinstance(cur, _Token):
            yield cur
            continue
        t = type(cur)
        if t is ast.Name:
            yield _Token(cur.id, cur, "name")  # type: ignore[attr-defined]
            continue
        if t is ast.Global or t is ast.Nonlocal:
            continue
        kids: list[ast.AST | _Token] = list(_kids(cur))
        if t is ast.Attribute:
            kids.append(_Token(cur.attr, cur, "attr"))  # type: ignore[attr-defined]
        elif t is ast.keyword and cur.arg is not None:  # type: ignore[attr-defined]
            kids.append(_Token(cur.arg, cur, "keyword"))  # type: ignore[attr-defined]
        elif t in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            kids.insert(0, _Token(cur.name, cur, "def"))  # type: ignore[attr-defined]
        elif t is ast.arg:
            kids.insert(0, _Token(cur.arg, cur, "arg"))  # type: ignore[attr-defined]
        elif t is ast.ExceptHandler and cur.name:  # type: ignore[attr-defined]
            kids.append(_Token(cur.name, cur, "except"))  # type: ignore[attr-defined]
        elif (t is ast.MatchAs or t is ast.MatchStar) and cur.name:  # type: ignore[attr-defined]
            kids.append(_Token(cur.name, cur, "match"))  # type: ignore[attr-defined]
        elif t is ast.MatchMapping and cur.rest:  # type: ignore[attr-defined]
            kids.append(_Token(cur.rest, cur, "match"))  # type: ignore[attr-defined]
        stack.extend(reversed(kids))


def _repeated_parts(module: ast.Module) -> Iterator[list[ast.AST]]:
    """The nodes that may run more than once per run of the code around them, one list per loop: a `for` /
    `while` body, a comprehension's element, conditions and inner iterables (`FunctionLowerer.runs_again`)."""
    for sub in all_nodes(module):
        if isinstance(sub, ast.For | ast.AsyncFor | ast.While):
            yield [n for stmt in sub.body for n in ast.walk(stmt)]
        elif isinstance(sub, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            elts = [sub.key, sub.value] if isinstance(sub, ast.DictComp) else [sub.elt]
            inner = [g.iter for g in sub.generators[1:]] + [c for g in sub.generators for c in g.ifs]
            yield [n for part in (*elts, *inner) for n in ast.walk(part)]


def _params(args: ast.arguments, walk_order: bool = False) -> list[tuple[ast.arg, ast.expr | None]]:
    """Parameters with their defaults: positional-only, positional, keyword-only (`walk_order`: positional,
    keyword-only, positional-only, without `*args` / `**kwargs`, the order a syntax walk visits them)."""
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    paired = list(zip(positional, defaults, strict=True))
    keyword_only = list(zip(args.kwonlyargs, args.kw_defaults, strict=True))
    if walk_order:
        split = len(args.posonlyargs)
        return [*paired[split:], *keyword_only, *paired[:split]]
    return [*paired, *keyword_only]


def _param_names(args: ast.arguments) -> list[ast.arg]:
    """Positional-only, positional, keyword-only, `*args`, `**kwargs`."""
    out = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    if args.vararg is not None:
        out.append(args.vararg)
    if args.kwarg is not None:
        out.append(args.kwarg)
    return out


def _target_names(target: ast.AST) -> Iterator[str]:
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Tuple | ast.List):
        for el in target.elts:
            yield from _target_names(el)
    elif isinstance(target, ast.Starred):
        yield from _target_names(target.value)


def _local_targets(
    node: ast.With | ast.AsyncWith | ast.For | ast.AsyncFor | ast.AugAssign | ast.NamedExpr,
) -> list[ast.expr]:
    """The targets a `with`, `for`, augmented assignment or walrus binds in the scope it runs in."""
    if isinstance(node, ast.With | ast.AsyncWith):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    return [node.target]


def _item_roots(node: ast.AST) -> Iterator[str]:
    """The names a display item of places starts with (`a` of `a.b`, each of `(a, c)`)."""
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Attribute):
        yield from _item_roots(node.value)
    elif isinstance(node, ast.Tuple | ast.List):
        for item in node.elts:
            yield from _item_roots(item)


def _zero_literal(node: ast.AST) -> bool:
    """A literal `0` or `0.0` (`asyncio.sleep(0)`: one turn of the event loop, `callables.suspend`)."""
    return isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value == 0


def _int_literal(node: ast.AST | None) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_literal(node.operand)
        return -inner if inner is not None else None
    return None


#: The arithmetic a view bound may use (`view_bounds.BoundForm`).
_BOUND_OPERATORS: Final[dict[type[ast.operator], str]] = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.FloorDiv: "floordiv", ast.Mod: "mod",
}


def _bound_form(node: ast.expr) -> view_bounds.BoundForm | None:
    """A view bound expression in the core's neutral form: integer literals, names, attribute paths of a name,
    `-x` and `+ - * // %`; None for anything else (a call, a subscript)."""
    if isinstance(node, ast.Constant):
        return ("int", node.value) if type(node.value) is int else None
    if isinstance(node, ast.Name | ast.Attribute):
        parts: list[str] = []
        cur: ast.expr = node
        while isinstance(cur, ast.Attribute):
            parts.append(cur.attr)
            cur = cur.value
        return ("name", ".".join((cur.id, *reversed(parts)))) if isinstance(cur, ast.Name) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _bound_form(node.operand)
        return ("neg", inner) if inner is not None else None
    if isinstance(node, ast.BinOp) and type(node.op) in _BOUND_OPERATORS:
        left, right = _bound_form(node.left), _bound_form(node.right)
        return (_BOUND_OPERATORS[type(node.op)], left, right) if left is not None and right is not None else None
    return None


def _unfixed_attributes(module: ast.Module) -> frozenset[str]:
    """Attribute names some statement of the module stores or deletes other than on the receiver of an
    `__init__`/`__post_init__` (which run before anyone holds the object), or every name (`*`) when the module
    calls `setattr`: an attribute path of a stable name is a view-bound symbol only when its attributes are not
    among them (its value is then the one construction gave).  Kept on the module node (one walk per file)."""
    known: frozenset[str] | None = getattr(module, "_sk_unfixed", None)
    if known is not None:
        return known
    constructing: set[int] = set()
    unfixed: set[str] = set()
    nodes = all_nodes(module)
    for node in nodes:
        if isinstance(node, ast.FunctionDef) and node.name in ("__init__", "__post_init__") and node.args.args:
            me = node.args.args[0].arg
            constructing.update(
                id(sub) for sub in all_nodes(node)
                if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == me
            )
    for node in nodes:
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load) and id(node) not in constructing:
            unfixed.add(node.attr)
        elif isinstance(node, ast.Name) and node.id in ("setattr", "delattr"):
            unfixed.add("*")
    known = frozenset(unfixed)
    module._sk_unfixed = known  # type: ignore[attr-defined]
    return known


_LOOPS: Final = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _task_calls(
    body: Sequence[ast.stmt], params: Sequence[str], qualify: Callable[[ast.expr], str | None]
) -> dict[str, ast.Call]:
    """The tasks a function body awaits once (`callables.awaited_task`): a name bound once (`_stable_names`) by
    `name = asyncio.create_task(f(...))` (`callables.TASK_FUNCTIONS`, the coroutine call its one positional
    argument) and read nowhere but in one `await name` outside any loop -> that coroutine call."""
    stable = _stable_names(body, params)
    made: dict[str, ast.Call] = {}
    reads: dict[str, int] = {}
    awaited: dict[str, int] = {}
    looped: set[int] = set()
    for node in _walk(body):
        if isinstance(node, ast.For | ast.AsyncFor | ast.While):
            looped.update(id(n) for n in _walk(node.body + node.orelse))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            reads[node.id] = reads.get(node.id, 0) + 1
        elif isinstance(node, ast.Await) and isinstance(node.value, ast.Name) and id(node) not in looped:
            awaited[node.value.id] = awaited.get(node.value.id, 0) + 1
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and len(node.value.args) == 1
            and isinstance(node.value.args[0], ast.Call)
            and qualify(node.value.func) in callables.TASK_FUNCTIONS
        ):
            made[node.targets[0].id] = node.value.args[0]
    return {
        name: call
        for name, call in made.items()
        if name in stable and reads.get(name) == 1 and awaited.get(name) == 1
    }


def _counter_locals(unit: ast.AST, body: Sequence[ast.stmt], counter: str) -> dict[str, tuple[ast.expr, int]]:
    """The names a counting loop's `body` binds at its top level (`lo = k * n`, `lo, hi = k * n, (k + 1) * n`), each
    bound nowhere else in the function `unit`: name -> (the expression, its statement's line).  Read after that
    statement, in the same iteration, a name is that expression of this iteration's counter."""
    stores: dict[str, int] = {}
    for n in ast.walk(unit):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
        elif isinstance(n, ast.Global | ast.Nonlocal):
            for declared in n.names:
                stores[declared] = 2
    found: dict[str, tuple[ast.expr, int]] = {}
    for stmt in body:
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
            continue
        target, value = stmt.targets[0], stmt.value
        pairs: list[tuple[ast.expr, ast.expr]] = [(target, value)]
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            pairs = list(zip(target.elts, value.elts, strict=True))
        for t, v in pairs:
            if isinstance(t, ast.Name) and t.id != counter and stores.get(t.id) == 1:
                found[t.id] = (v, stmt.lineno)
    return found


def _stable_names(body: Sequence[ast.stmt], params: Sequence[str]) -> frozenset[str]:
    """Names with one value wherever a function reads them: a parameter never rebound, or a name bound exactly
    once (an assignment, an import, a `def`...) outside any loop or comprehension, never deleted nor declared
    `global`/`nonlocal` (nested functions' bindings of the name count too, conservatively)."""
    counts: dict[str, int] = dict.fromkeys(params, 1)
    unstable: set[str] = set()

    def bound(name: str | None, in_loop: bool) -> None:
        if name is None:
            return
        counts[name] = counts.get(name, 0) + 1
        if in_loop:
            unstable.add(name)

    stack: list[tuple[ast.AST, bool]] = [(stmt, False) for stmt in body]
    while stack:
        node, in_loop = stack.pop()
        if isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Load):
                bound(node.id, in_loop)
                if isinstance(node.ctx, ast.Del):
                    unstable.add(node.id)
            continue
        if isinstance(node, ast.Global | ast.Nonlocal):
            unstable.update(node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound(node.name, in_loop)
        elif isinstance(node, ast.ExceptHandler):
            bound(node.name, in_loop)
        elif isinstance(node, ast.MatchAs | ast.MatchStar):
            bound(node.name, in_loop)
        elif isinstance(node, ast.MatchMapping):
            bound(node.rest, in_loop)
        elif isinstance(node, ast.alias):
            bound((node.asname or node.name).split(".")[0], in_loop)
        inner = in_loop or isinstance(node, _LOOPS)
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return frozenset(n for n, c in counts.items() if c == 1 and n not in unstable)


def _one_assignment(stmt: ast.stmt) -> tuple[ast.expr, ast.expr] | None:
    """The target and value of `target = value` (also annotated: `self.bufs: dict[str, Buffer] = {...}`)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        return stmt.targets[0], stmt.value
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        return stmt.target, stmt.value
    return None


def _literal_keys(node: ast.expr) -> tuple[calls.ContainerKey, ...] | None:
    """The keys of a dict display when every one is a string or integer literal, in order; else None."""
    if not isinstance(node, ast.Dict) or not node.keys:
        return None
    keys = [_key_literal(k) for k in node.keys]
    return tuple(k for k in keys if k is not None) if all(k is not None for k in keys) else None


def _arm_read(node: ast.Subscript, arm: ast.expr) -> ast.Subscript:
    """`node`'s container read under one arm of its conditional key (kept on `node`, one node per arm)."""
    reads: dict[int, ast.Subscript] = node.__dict__.setdefault("_sk_arm_reads", {})
    if id(arm) not in reads:
        reads[id(arm)] = ast.copy_location(ast.Subscript(node.value, arm, ast.Load()), node)
    return reads[id(arm)]


def _get_read(node: ast.Call, mapping: ast.expr, key: ast.expr) -> ast.Subscript:
    """`mapping[key]`, the item `mapping.get(key, ...)` reads when the key is there (kept on `node`)."""
    read: ast.Subscript | None = node.__dict__.get("_sk_get_read")
    if read is None:
        read = node.__dict__["_sk_get_read"] = ast.copy_location(ast.Subscript(mapping, key, ast.Load()), node)
    return read


def _key_literal(node: ast.AST | None) -> calls.ContainerKey | None:
    """A subscript's literal key: an integer (`pair[-1]`) or a string (`bufs["out"]`)."""
    if isinstance(node, ast.Constant) and type(node.value) is str:
        return node.value
    return _int_literal(node)


def _display_items(node: ast.AST) -> tuple[list[tuple[calls.ContainerKey, ast.expr]], bool] | None:
    """The keyed items of a container display and whether it is a mapping: a tuple/list display without starred
    items (keys `0..n-1`) or a dict display whose keys are all integer or string literals; else None."""
    if isinstance(node, ast.Tuple | ast.List):
        if any(isinstance(el, ast.Starred) for el in node.elts):
            return None
        return list(enumerate(node.elts)), False
    if isinstance(node, ast.Dict):
        keyed: list[tuple[calls.ContainerKey, ast.expr]] = []
        for key, value in zip(node.keys, node.values, strict=True):
            literal = _key_literal(key)
            if literal is None:
                return None  # `**more` or a computed key
            keyed.append((literal, value))
        return keyed, True
    return None


def _repeated_display(node: ast.AST) -> calls.RepeatedDisplay[ast.expr] | None:
    """A list/tuple built from displays by repetition by an integer and concatenation (`[c] * 3`, `3 * [c]`,
    `[a] + [c] * 2`; `calls.RepeatedDisplay`: its items are the displays' own objects), else None (a plain
    display is `_display_items`')."""
    if not isinstance(node, ast.BinOp):
        return None

    def operand(part: ast.expr) -> calls.RepeatedDisplay[ast.expr] | None:
        if isinstance(part, ast.Tuple | ast.List) and not any(isinstance(el, ast.Starred) for el in part.elts):
            return calls.display_sequence(part.elts)
        return _repeated_display(part)

    if isinstance(node.op, ast.Mult):
        for sequence, count in ((node.left, node.right), (node.right, node.left)):
            if isinstance(sequence, ast.Tuple | ast.List | ast.BinOp) and (found := operand(sequence)) is not None:
                return calls.repeat_display(found, _int_literal(count))
        return None
    if isinstance(node.op, ast.Add):
        return calls.join_displays(operand(node.left), operand(node.right))
    return None


def _item_read(name: ast.Name, key: calls.ContainerKey) -> ast.Subscript:
    """`name[key]`, spelled where `name` is: how a `ChainMap` over a dict name reads its item (`chained_items`).
    One node per name node and key, kept on the name node, so its id stays its own while the tree lives (caches
    of the file's analysis are keyed by node ids)."""
    reads: dict[calls.ContainerKey, ast.Subscript] = name.__dict__.setdefault("_item_reads", {})
    found = reads.get(key)
    if found is None:
        found = ast.Subscript(ast.Name(name.id, ast.Load()), ast.Constant(key), ast.Load())
        for sub in ast.walk(found):
            ast.copy_location(sub, name)
        reads[key] = found
    return found


def _getter_value(value: ast.expr) -> ast.Call | None:
    """A call that may make a getter (`operator.attrgetter(...)`; `getter_call` checks what it calls), for
    `bound_once`."""
    return value if isinstance(value, ast.Call) and value.args else None


@functools.lru_cache(maxsize=4)  # the modules being lowered now (a run lowers one file's units together)
def _module_getters_of(module: ast.Module) -> dict[str, ast.Call]:
    stable = _stable_names(module.body, ())
    pairs = [
        ([stmt.targets[0].id], stmt.value)
        for stmt in module.body
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
    ]
    return {name: call for name, call in bound_once(pairs, (), _getter_value).items() if name in stable}


def _module_getters(module: ast.Module) -> dict[str, ast.Call]:
    """Names the module's top level binds once, and nothing else binds (`_stable_names`), to a call that may make
    a getter (`io_of = attrgetter("raw", "out")`), as a function of the module reads them."""
    return _module_getters_of(module)


@functools.lru_cache(maxsize=4)  # the modules being lowered now
def _module_key_tables(module: ast.Module) -> dict[str, ast.expr]:
    """Names the module's top level binds once, and nothing else binds (`_stable_names`), to a tuple/list or dict
    display that no code changes in place (no store into, `del` of, or attribute of the name: `ROLES = ("src",
    "dst")`, `STEP_ROLES = {"assign": ("points", "labels")}`), for the keys a getter's `*` operand spreads
    (`FunctionLowerer.spread_keys`)."""
    stable = _stable_names(module.body, ())
    changed = {
        node.value.id
        for node in ast.walk(module)
        if isinstance(node, ast.Subscript | ast.Attribute) and isinstance(node.value, ast.Name)
        and (isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load))
    }
    pairs = [
        ([stmt.targets[0].id], stmt.value)
        for stmt in module.body
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
    ]
    shown = bound_once(pairs, (), lambda v: v if isinstance(v, ast.Tuple | ast.List | ast.Dict) else None)
    return {name: value for name, value in shown.items() if name in stable and name not in changed}


def _repeated_length(node: ast.expr) -> int | None:
    """The length of a counted `_repeated_display` (`[c] * 3`: 3), else None."""
    found = _repeated_display(node)
    return len(found.order) if found is not None and found.counted else None


def _grown_lists(
    body: Sequence[ast.stmt], built_length: Callable[[ast.expr], int | None]
) -> tuple[dict[int, tuple[str, int, tuple[ast.expr, ...]]], dict[str, list[int]]]:
    """Lists built step by step in one statement list: `args = [a, b]` (or a comprehension whose length
    `built_length` knows) followed, in the same list, by `args.append(c)` / `args.extend([c, d])` expression
    statements.  Returns each such call's (list name, the index its first item takes, its items), and the length
    each plain display binding of a name ends with (`calls.Container` then spans the longest; a `*args` splat maps
    items one by one only where every binding ends with one length)."""
    appends: dict[int, tuple[str, int, tuple[ast.expr, ...]]] = {}
    finals: dict[str, list[int]] = {}
    lists: list[Sequence[ast.stmt]] = [body]
    for node in _walk(body):
        if isinstance(node, _SCOPES):
            continue
        for part in ("body", "orelse", "finalbody"):
            stmts = getattr(node, part, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                lists.append(stmts)
    for stmts in lists:
        current: dict[str, int] = {}
        fixed: set[str] = set()  # bound to a tuple display: it has no `append`
        for stmt in stmts:
            # `ops = [a]`, also annotated (`ops: list[DeviceOp] = []`, one statement to mypy)
            displayed = (
                stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                else stmt.target if isinstance(stmt, ast.AnnAssign) else None
            )
            value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
            if (
                isinstance(displayed, ast.Name)
                and isinstance(value, ast.List | ast.Tuple)
                and not any(isinstance(el, ast.Starred) for el in value.elts)
            ):
                if displayed.id in current:
                    finals.setdefault(displayed.id, []).append(current[displayed.id])
                current[displayed.id] = len(value.elts)
                if isinstance(value, ast.Tuple):
                    fixed.add(displayed.id)
                else:
                    fixed.discard(displayed.id)
                continue
            taken = _starred_take(stmt.targets, stmt.value) if isinstance(stmt, ast.Assign) else None
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and (built := built_length(stmt.value)) is not None
            ):
                taken = stmt.targets[0].id, built
            if taken is not None:
                # a list of known length: a comprehension's, or the starred target's of `first, *rest = [a, b]`
                name = taken[0]
                if name in current:
                    finals.setdefault(name, []).append(current[name])
                current[name] = taken[1]
                fixed.discard(name)
                continue
            if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
                continue
            call = stmt.value
            func = call.func
            if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)) or call.keywords:
                continue
            name = func.value.id
            if name not in current or name in fixed or len(call.args) != 1 or isinstance(call.args[0], ast.Starred):
                continue
            items: tuple[ast.expr, ...] | None = None
            if func.attr == "append":
                items = (call.args[0],)
            elif func.attr == "extend" and (display := _display_items(call.args[0])) is not None and not display[1]:
                items = tuple(item for _, item in display[0])
            if items is not None and any(isinstance(i, ast.Tuple | ast.List | ast.Dict | ast.Set) for i in items):
                # `pending.append((op, out))`: followed as a stored item (`calls.store_into`), which keeps the op
                # inside the display pending, not as a grown list's item
                items = None
            if items is not None:
                appends[id(call)] = (name, current[name], items)
                current[name] += len(items)
        for name, length in current.items():
            finals.setdefault(name, []).append(length)
    return appends, finals


def _literal_subscripts(body: Sequence[ast.stmt]) -> dict[str, list[calls.ContainerKey]]:
    """The literal keys each name is subscripted with in `body` (`bufs["hidden"]`), in order of first use."""
    found: dict[str, list[calls.ContainerKey]] = {}
    for node in _walk(body):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            key = _key_literal(node.slice)
            if key is not None and key not in (keys := found.setdefault(node.value.id, [])):
                keys.append(key)
    return found


def _display_options(node: ast.expr) -> list[ast.expr] | None:
    """The container displays a conditional expression of displays may give (`(a, a) if inplace else (a, b)`),
    each a binding of a container name of its own (`calls.Container`); None for anything else."""
    if isinstance(node, ast.IfExp):
        body, orelse = _display_options(node.body), _display_options(node.orelse)
        return body + orelse if body is not None and orelse is not None else None
    return [node] if _display_items(node) is not None else None


def _nested_display(node: ast.expr) -> tuple[ast.expr, ...] | None:
    """The items of a tuple/list display without starred items nested in a container display
    (`{"inputs": (a, b)}`), else None."""
    if isinstance(node, ast.Tuple | ast.List) and not any(isinstance(el, ast.Starred) for el in node.elts):
        return tuple(node.elts)
    return None


def _starred_take(targets: Sequence[ast.expr], value: ast.expr) -> tuple[str, int] | None:
    """`first, *rest = [a, b, a]`: the starred name and how many items of the display it collects (its new list's
    length), else None (no display, no starred name, or counts that cannot match: the runtime raises)."""
    if len(targets) != 1 or not isinstance(targets[0], ast.Tuple | ast.List):
        return None
    if not isinstance(value, ast.Tuple | ast.List) or any(isinstance(el, ast.Starred) for el in value.elts):
        return None
    stars = [el for el in targets[0].elts if isinstance(el, ast.Starred)]
    if len(stars) != 1 or not isinstance(stars[0].value, ast.Name):
        return None
    count = len(value.elts) - (len(targets[0].elts) - 1)
    return (stars[0].value.id, count) if count >= 0 else None


def _display_length(node: ast.expr) -> int | None:
    """How many items a tuple/list display without starred items holds (a loop over it runs exactly that many
    times), else None."""
    if isinstance(node, ast.Tuple | ast.List) and node.elts and not any(isinstance(e, ast.Starred) for e in node.elts):
        return len(node.elts)
    return None


def _values_receiver(node: ast.AST, method: str = "values") -> str | None:
    """`name` of `name.values()` (`name.items()` with `method` "items"; no arguments), else None."""
    if (
        isinstance(node, ast.Call) and not node.args and not node.keywords
        and isinstance(node.func, ast.Attribute) and node.func.attr == method
        and isinstance(node.func.value, ast.Name)
    ):
        return node.func.value.id
    return None


def _ring_store(node: ast.AST) -> bool:
    """`name.append(x)` / `name.appendleft(x)` (`calls.RING_STORES`): one positional argument, no keyword."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in calls.RING_STORES
        and len(node.args) == 1
        and not isinstance(node.args[0], ast.Starred)
        and not node.keywords
    )


def _changed_container(node: ast.AST) -> str | None:
    """The name a statement or call changes in place, if it is a container's (`bufs["out"] = c`, `del
    bufs[0]`, `bufs += [c]`, `bufs.update(...)`)."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        return node.value.id
    if isinstance(node, ast.Name):
        return node.id
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in calls.MUTATING_CONTAINER_METHODS
        and isinstance(node.func.value, ast.Name)
    ):
        return node.func.value.id
    return None


def _is_constant(node: ast.AST, value: object) -> bool:
    return isinstance(node, ast.Constant) and node.value is value


def _substituted(value: ast.expr, names: Mapping[str, ast.expr], at: ast.AST) -> ast.expr | None:
    """`value`, a place expression of a callee (a name, attributes of one, an item under a literal key or under a
    name or an attribute path), with the callee's names replaced by the caller's expressions (`names`) and the
    caller's location (`at`); None for any other expression, or a name `names` lacks."""
    made: ast.expr
    if isinstance(value, ast.Name):
        return names.get(value.id)
    if isinstance(value, ast.Attribute):
        base = _substituted(value.value, names, at)
        if base is None:
            return None
        made = ast.Attribute(base, value.attr, ast.Load())
    elif isinstance(value, ast.Subscript):
        base = _substituted(value.value, names, at)
        index = _substituted_key(value.slice, names, at)
        if base is None or index is None:
            return None
        made = ast.Subscript(base, index, ast.Load())
    else:
        return None
    return ast.copy_location(made, at)


def _substituted_key(key: ast.expr, names: Mapping[str, ast.expr], at: ast.AST) -> ast.expr | None:
    """A callee's item key in the caller's terms (`_substituted`): a string or integer literal as it is; a key read
    from a name or its attributes (`self.settings.key`) the caller's same read; arithmetic over such keys
    (`(self._tick + 1) % 2`) the same arithmetic over the caller's reads; None for anything else."""
    if isinstance(key, ast.Constant):
        return key if type(key.value) in (int, str) else None
    if isinstance(key, ast.Name | ast.Attribute):
        return _substituted(key, names, at)
    if isinstance(key, ast.BinOp):
        left, right = _substituted_key(key.left, names, at), _substituted_key(key.right, names, at)
        made: ast.expr | None = ast.BinOp(left, key.op, right) if left is not None and right is not None else None
    elif isinstance(key, ast.UnaryOp):
        operand = _substituted_key(key.operand, names, at)
        made = ast.UnaryOp(key.op, operand) if operand is not None else None
    else:
        return None
    return ast.copy_location(made, at) if made is not None else None


def _receiver_changes(func: FunctionNode, allocates: Callable[[ast.expr], bool]) -> frozenset[str] | None:
    """The attributes of its receiver a method may change: those it stores into or under (`self.top = ...`,
    `self.clean[name] = sk.zeros(...)`); None when it may change anything else: a call other than one making a new
    buffer (`allocates`) or of a reading builtin (`calls.READING_BUILTINS`: `len(self)`), a store into anything but
    its receiver's attributes, `del`, `global`, `nonlocal`, `yield`, `await`."""
    if isinstance(func, ast.AsyncFunctionDef) or not func.args.args:
        return None
    receiver = func.args.args[0].arg
    changed: set[str] = set()
    for node in _walk(func.body):
        if isinstance(node, ast.Call) and not allocates(node) and not (
            isinstance(node.func, ast.Name) and node.func.id in calls.READING_BUILTINS
        ):
            return None
        if isinstance(node, ast.Delete | ast.Global | ast.Nonlocal | ast.Yield | ast.YieldFrom | ast.Await):
            return None
        if isinstance(node, ast.Attribute | ast.Subscript) and not isinstance(node.ctx, ast.Load):
            path: list[str] = []
            cur: ast.expr = node
            while isinstance(cur, ast.Attribute | ast.Subscript):
                if isinstance(cur, ast.Attribute):
                    path.append(cur.attr)
                cur = cur.value
            if not (isinstance(cur, ast.Name) and cur.id == receiver and path):
                return None
            changed.add(path[-1])
    return frozenset(changed)


def _setdefault_parts(node: ast.expr) -> tuple[ast.expr, ast.expr, ast.expr] | None:
    """(container, key, default) of `container.setdefault(key, default)` (two positional arguments, no keyword), the
    container a name or an attribute path; else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "setdefault"):
        return None
    if len(node.args) != 2 or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    container = node.func.value
    while isinstance(container, ast.Attribute):
        container = container.value
    return (node.func.value, node.args[0], node.args[1]) if isinstance(container, ast.Name) else None


def _loop_target_names(target: ast.expr) -> list[str]:
    """The names a `for` target binds as a whole or by plain unpacking (`axis`, `axis, samples`), in order."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [name for element in target.elts for name in _loop_target_names(element)]
    return []


def _dead_none_returns(
    func: FunctionNode, names: Mapping[str, ast.expr], never_none: Callable[[ast.expr], bool]
) -> set[int]:
    """The `return`s a call cannot reach because a guard of the function's top level tests a parameter the caller
    passed a name for against None: `if out is None: return core.widths` of `index_buffer(core, s, out=buf)`
    (the caller's own object is no None; a literal None is, so the guard's `return` stays; `never_none` says which
    arguments cannot be None)."""
    dead: set[int] = set()
    for stmt in func.body:
        if not (isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1):
            continue
        test, ret = stmt.test, stmt.body[0]
        if not (isinstance(ret, ast.Return) and isinstance(test, ast.Compare) and len(test.ops) == 1):
            continue
        if not (isinstance(test.ops[0], ast.Is) and isinstance(test.left, ast.Name)):
            continue
        right = test.comparators[0]
        passed = names.get(test.left.id)
        if isinstance(right, ast.Constant) and right.value is None and passed is not None and never_none(passed):
            dead.add(id(ret))
    return dead


def _reevaluable(node: ast.expr) -> bool:
    """Whether reading `node` again after a call gives the same objects (a helper's returned parameter is read as
    the caller's argument expression, `substituted_returns`): `_pure_argument`'s names, literals and attributes,
    and operators, conditional expressions, subscripts and tuple displays of such (`c or a`, `a if flag else b`,
    `(a, c)[k % 2]`); a call, a walrus or a comprehension is not."""
    if _pure_argument(node):
        return True
    if isinstance(node, ast.BoolOp):
        return all(_reevaluable(v) for v in node.values)
    if isinstance(node, ast.IfExp):
        return _reevaluable(node.test) and _reevaluable(node.body) and _reevaluable(node.orelse)
    if isinstance(node, ast.BinOp):
        return _reevaluable(node.left) and _reevaluable(node.right)
    if isinstance(node, ast.UnaryOp):
        return _reevaluable(node.operand)
    if isinstance(node, ast.Compare):
        return _reevaluable(node.left) and all(_reevaluable(c) for c in node.comparators)
    if isinstance(node, ast.Subscript):
        return _reevaluable(node.value) and _reevaluable(node.slice)
    if isinstance(node, ast.Tuple):
        return all(_reevaluable(e) for e in node.elts)
    return False


def _may_be_none(node: ast.expr) -> bool:
    """Whether a `_reevaluable` argument may evaluate to a literal `None` (`out if flag else None`)."""
    if isinstance(node, ast.Constant):
        return node.value is None
    if isinstance(node, ast.BoolOp):
        return any(_may_be_none(v) for v in node.values)
    if isinstance(node, ast.IfExp):
        return _may_be_none(node.body) or _may_be_none(node.orelse)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Tuple):
        return any(_may_be_none(e) for e in node.value.elts)
    return False


def _constant_defaults(args: ast.arguments) -> list[tuple[str, ast.expr]]:
    """The parameters whose default is a literal (`out=None`), with that default: what a call that does not pass
    them binds."""
    positional = [*args.posonlyargs, *args.args]
    found = [(p.arg, d) for p, d in zip(positional[len(positional) - len(args.defaults):], args.defaults, strict=True)]
    found.extend((p.arg, d) for p, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None)
    return [(name, default) for name, default in found if isinstance(default, ast.Constant)]


def _pure_argument(node: ast.expr) -> bool:
    """Whether evaluating `node` again has no effect: a name, a literal, or attributes of a name."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name | ast.Constant)


def _returned_params(
    func: FunctionNode, yields: bool = False, allocates: Callable[[ast.expr], bool] | None = None
) -> tuple[str, ...] | None:
    """The parameters a plain function may return (`return y if c else x` -> `y, x`); None when some `return`
    gives anything else (or none returns), or a returned parameter is bound again in the body (`x = out` in a
    loop, then `return x`: the caller's argument or the new value): then its result is a fresh value to the
    checker.  With `yields`, the parameters a generator may yield (a `@contextlib.contextmanager`'s `yield b`; a
    `return` of a value: None).  With `allocates`, a `return` of a new buffer it recognises (`return sk.zeros(n,
    f32, s)`) is allowed too and adds `calls.NEW_VALUE` to the result: the call gives the caller's argument or a new
    buffer."""
    params = {p.arg for p in _param_names(func.args)}
    found: list[str] = []
    returns = 0
    for node in _walk(func.body):
        if yields and isinstance(node, ast.Return) and node.value is not None:
            return None
        if not isinstance(node, ast.Yield if yields else ast.Return):
            continue
        assert isinstance(node, ast.Yield | ast.Return)
        returns += 1
        stack: list[ast.AST | None] = [node.value]
        while stack:
            value = stack.pop()
            if isinstance(value, ast.Name) and value.id in params:
                found.append(value.id)
            elif isinstance(value, ast.IfExp):
                stack.extend((value.orelse, value.body))
            elif isinstance(value, ast.BoolOp):
                left, right = _binary(value)
                stack.extend((right, left))
            elif allocates is not None and isinstance(value, ast.expr) and allocates(value):
                found.append(calls.NEW_VALUE)
            else:
                return None
    if not returns:
        return None
    # a parameter the body binds again may be returned as that new value: not the caller's argument then
    rebound = {n.id for n in _walk(func.body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)}
    return None if rebound.intersection(found) else tuple(dict.fromkeys(found))


def _returned_function(func: FunctionNode, ctx: FileContext) -> ast.FunctionDef | None:
    """The plain function a *function factory* returns: every `return` of `func` gives one function defined in its
    body (`def step(...)` then `return step`, or `return lambda ...`), the same one on every path; else None."""
    defined = {s.name: s for s in func.body if isinstance(s, ast.FunctionDef) and not s.decorator_list}
    found: ast.FunctionDef | None = None
    returned = [n for n in _walk(func.body) if isinstance(n, ast.Return)]
    for ret in returned:
        value = ret.value
        if isinstance(value, ast.Name) and value.id in defined:
            one = defined[value.id]
        elif isinstance(value, ast.Lambda):
            one = ctx.lambda_function(value)
        else:
            return None
        if found is not None and found is not one:
            return None
        found = one
    bound = [t for n in _walk(func.body) if isinstance(n, ast.Assign) for t in n.targets]
    if found is not None and found.name in {n for t in bound for n in _target_names(t)}:
        return None  # the name is rebound in the factory: which function it returns is not known
    return found


def throwing_names(module: ast.Module) -> frozenset[str] | None:
    """`FileContext.throwing_names`, read from the module's tree (`throwing.throwing_names`)."""
    owners: dict[int, str] = {}
    for cls in ast.walk(module):
        if isinstance(cls, ast.ClassDef):
            for stmt in cls.body:
                if isinstance(stmt, _FUNCTION_DEFS):
                    owners[id(stmt)] = cls.name
    facts = [
        throwing.FunctionFacts(
            func.name, owners.get(id(func)),
            any(isinstance(n, ast.Raise) for n in ast.walk(func)),
            any(isinstance(n, ast.Yield | ast.YieldFrom) for n in ast.walk(func)),
            frozenset(name for _, name in _named_mentions(func)),
        )
        for func in ast.walk(module) if isinstance(func, _FUNCTION_DEFS)
    ]
    callees = {id(n.func) for n in ast.walk(module) if isinstance(n, ast.Call)}
    return throwing.throwing_names(facts, ((name, id(node) in callees) for node, name in _named_mentions(module)))


def _named_mentions(root: ast.AST) -> Iterator[tuple[ast.AST, str]]:
    """The names and attribute names read below `root`, except a name that is a parameter of the function it is
    read in (`def opacity(paint)` reading `paint` names no function `paint`)."""
    stack: list[tuple[ast.AST, frozenset[str]]] = [(root, frozenset())]
    while stack:
        node, params = stack.pop()
        if isinstance(node, (*_FUNCTION_DEFS, ast.Lambda)):
            params = frozenset(p.arg for p in _param_names(node.args))
        elif isinstance(node, ast.Name) and node.id not in params:
            yield node, node.id
        elif isinstance(node, ast.Attribute):
            yield node, node.attr
        stack.extend((child, params) for child in ast.iter_child_nodes(node))


def _returned_values(func: FunctionNode) -> list[ast.expr | None]:
    """What the `return`s of `func` may give, a conditional expression's arms apart: `return (hi, lo) if flip else
    (lo, hi)` gives both tuples, as `if flip: return hi, lo` then `return lo, hi` would (None: a bare `return`)."""
    found: list[ast.expr | None] = []
    for node in _walk(func.body):
        if not isinstance(node, ast.Return):
            continue
        stack: list[ast.expr | None] = [node.value]
        while stack:
            value = stack.pop()
            if isinstance(value, ast.IfExp):
                stack.extend((value.orelse, value.body))
            else:
                found.append(value)
    return found


def _returned_tuples(func: FunctionNode) -> list[tuple[str | None, ...]] | None:
    """The items of each `return` of a plain function when every one is a tuple display of the same length
    without starred items (`return x, x` / `return x, y`): each item's name, None for anything but a name; None
    when some `return` is no such display (or none returns)."""
    found: list[tuple[str | None, ...]] = []
    for value in _returned_values(func):
        if not isinstance(value, ast.Tuple) or any(isinstance(el, ast.Starred) for el in value.elts):
            return None
        found.append(tuple(el.id if isinstance(el, ast.Name) else None for el in value.elts))
    if not found or len({len(items) for items in found}) != 1:
        return None
    # a parameter the body rebinds (`z, x = scale(z, x).sync_on(s)`) is no longer the caller's argument
    rebound = {n.id for n in _walk(func.body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)}
    params = {p.arg for p in _param_names(func.args)}
    return [tuple(f"{n}$local" if n in rebound and n in params else n for n in items) for items in found]


def _returned_displays(func: FunctionNode) -> list[tuple[list[tuple[calls.ContainerKey, ast.expr]], bool]] | None:
    """The keyed items of each `return` of a plain function when every one is a display of one kind: dict
    displays of literal keys (`return {"gamma": g, "beta": b}`) or tuple/list displays of one length; None
    otherwise (a generator, a `return` of anything else, none returns)."""
    if isinstance(func, ast.AsyncFunctionDef) or any(
        isinstance(n, ast.Yield | ast.YieldFrom) for n in _walk(func.body)
    ):
        return None
    found: list[tuple[list[tuple[calls.ContainerKey, ast.expr]], bool]] = []
    for value in _returned_values(func):
        shown = _display_items(value) if value is not None else None
        if shown is None:
            return None
        found.append(shown)
    if not found or len({mapping for _, mapping in found}) != 1:
        return None
    if not found[0][1] and len({len(items) for items, _ in found}) != 1:
        return None
    return found


def _built_return(func: FunctionNode) -> tuple[str, list[tuple[calls.ContainerKey, ast.expr]]] | None:
    """A plain function whose one `return`, its last statement, returns a local name (`return roles`) that one
    statement of its body binds to a dict display of literal keys and later statements of its body only store into
    under literal keys (`roles["output"] = ...`), the name read nowhere but under literal keys: the name and the
    steps that built it (the display's items, then each store's key and value; `calls.built_entries`).  None
    otherwise (a store inside a branch or loop, any other use of the name, which may change it)."""
    if isinstance(func, ast.AsyncFunctionDef) or not func.body or not isinstance(func.body[-1], ast.Return):
        return None
    returned = func.body[-1].value
    if not isinstance(returned, ast.Name) or returned.id in {p.arg for p in _param_names(func.args)}:
        return None
    name = returned.id
    if sum(isinstance(n, ast.Return) for n in _walk(func.body)) != 1 or any(
        isinstance(n, ast.Yield | ast.YieldFrom | ast.Global | ast.Nonlocal) for n in _walk(func.body)
    ):
        return None
    steps: list[tuple[calls.ContainerKey, ast.expr]] | None = None
    allowed: set[int] = {id(returned)}
    for stmt in func.body[:-1]:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        if steps is None and isinstance(target, ast.Name) and target.id == name:
            shown = _display_items(value)
            if shown is None or not shown[1]:
                return None
            steps = list(shown[0])
            allowed.add(id(target))
        elif steps is not None and isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            key = _key_literal(target.slice)
            if target.value.id == name and key is not None:
                steps.append((key, value))
                allowed.add(id(target.value))
    if steps is None:
        return None
    for node in _walk(func.body, skip_scopes=False):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and _key_literal(node.slice) is not None:
            allowed.add(id(node.value))  # a read under a literal key
        elif isinstance(node, ast.Name) and node.id == name and id(node) not in allowed:
            return None
    return name, steps


def _loop_targets(body: Sequence[ast.stmt], builtin: Callable[[ast.expr], str | None]) -> dict[str, str]:
    """Names bound only by one `for` statement of `body` (no other store or `del` there) to the items of a name
    it iterates directly, through `enumerate(name)` or as one operand of `zip(...)` (the builtins, `builtin`):
    target -> iterated name."""
    found: dict[str, str] = {}
    stores: dict[str, int] = {}
    for node in _walk(body):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, ast.ExceptHandler) and node.name is not None:
            stores[node.name] = stores.get(node.name, 0) + 2  # `except E as name` binds (and deletes) it
        if not isinstance(node, ast.For):
            continue
        it, target = node.iter, node.target
        pairs: list[tuple[ast.expr, ast.expr]] = [(target, it)]
        if isinstance(it, ast.Call) and not any(isinstance(a, ast.Starred) for a in it.args):
            unpacked = target.elts if isinstance(target, ast.Tuple) else []
            zipped = all(k.arg == "strict" for k in it.keywords)  # `zip(xs, ys, strict=True)`
            if builtin(it.func) == "enumerate" and len(it.args) == 1 and len(unpacked) == 2 and not it.keywords:
                pairs = [(unpacked[1], it.args[0])]
            elif builtin(it.func) == "zip" and zipped and unpacked and len(unpacked) == len(it.args):
                pairs = list(zip(unpacked, it.args, strict=True))
        for named, iterated in pairs:
            if isinstance(named, ast.Name) and isinstance(iterated, ast.Name):
                found[named.id] = iterated.id
    return {target: listed for target, listed in found.items() if stores.get(target) == 1}


def _returned_name(func: FunctionNode, node: ast.expr) -> str | None:
    """How `_returned_tuples` names an item a function returns: a name (a parameter the body rebinds is a local
    of its own, `x$local`), None for anything else."""
    if not isinstance(node, ast.Name):
        return None
    rebound = {n.id for n in _walk(func.body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)}
    params = {p.arg for p in _param_names(func.args)}
    return f"{node.id}$local" if node.id in rebound and node.id in params else node.id


#: What a dict display's entries a name it is bound to stays: reading it (`REG.items()`, `REG.get(k)`).
_REGISTRY_READS: Final[frozenset[str]] = frozenset({"items", "keys", "values", "get"})

#: The items of each `return` of a helper's result, by key, each lowered when called (`returned_displays`).
ReturnedEntries: TypeAlias = "list[tuple[calls.ContainerKey, Callable[[], calls.ReturnedItem]]]"


def _registry_binding(body: Sequence[ast.stmt], name: str) -> list[tuple[calls.ContainerKey, ast.expr]] | None:
    """The entries of the dict display of literal keys one statement of `body` (a scope's statements) binds `name`
    to, when nothing anywhere below binds it again, deletes it, declares it `global`/`nonlocal`, stores into it or
    calls a method of it but a reading one (`_REGISTRY_READS`): a registry that keeps its entries."""
    found: list[tuple[calls.ContainerKey, ast.expr]] | None = None
    for stmt in body:
        if isinstance(stmt, ast.Assign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                shown = _display_items(stmt.value) if stmt.value is not None and len(targets) == 1 else None
                if found is not None or shown is None or not shown[1]:
                    return None
                found = shown[0]
    if found is None:
        return None
    stores = 0
    for node in _walk(body, skip_scopes=False):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            stores += 1
        elif isinstance(node, ast.Global | ast.Nonlocal) and name in node.names:
            return None
        elif isinstance(node, ast.Subscript | ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id != name:
                continue
            if not isinstance(node.ctx, ast.Load):
                return None
            if isinstance(node, ast.Attribute) and node.attr not in _REGISTRY_READS:
                return None
    return found if stores == 1 else None


def _registry_form(node: ast.expr | None) -> tuple[ast.DictComp, str] | None:
    """`{n: f(k) for n, k in REG.items()}` (one `for`, no `if`, the key its target's first name): the comprehension
    and the registry's name."""
    if not isinstance(node, ast.DictComp) or len(node.generators) != 1:
        return None
    comp = node.generators[0]
    target, it = comp.target, comp.iter
    if comp.ifs or comp.is_async or not isinstance(target, ast.Tuple) or len(target.elts) != 2:
        return None
    key, value = target.elts
    if not (isinstance(key, ast.Name) and isinstance(value, ast.Name) and key.id != value.id):
        return None
    if not (isinstance(node.key, ast.Name) and node.key.id == key.id):
        return None
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items"):
        return None
    if it.args or it.keywords or not isinstance(it.func.value, ast.Name):
        return None
    return node, it.func.value.id


def _bound_once(func: FunctionNode, name: str) -> ast.expr | None:
    """The value of the one plain assignment that binds `name` in a function's body (`tmp = a if c else b`), when
    nothing else there binds or deletes it; else None."""
    stores = [
        n for n in _walk(func.body) if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
    ]
    if len(stores) != 1:
        return None
    for node in _walk(func.body):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and node.targets[0] is stores[0]:
            return node.value
        if isinstance(node, ast.AnnAssign) and node.target is stores[0]:
            return node.value
    return None


def _options(node: ast.expr) -> list[ast.expr]:
    """The expressions a value may be: each arm of a conditional expression or operand of `and`/`or`."""
    if isinstance(node, ast.IfExp):
        return [*_options(node.body), *_options(node.orelse)]
    if isinstance(node, ast.BoolOp):
        return [o for value in node.values for o in _options(value)]
    return [node]


def _bound_names(func: FunctionNode) -> set[str]:
    """The names a function binds: its parameters and what its body stores or deletes."""
    stored = {n.id for n in _walk(func.body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)}
    return stored | {p.arg for p in _param_names(func.args)}


def _rebinding_declarations(scope: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> set[str]:
    """The names a `global`/`nonlocal` declaration of `scope` names that `scope` (or a scope nested in it) also
    stores or deletes, for `FileContext.declared`: the other binding forms (imports, `except ... as`, match
    captures, `def`/`class`) are counted wherever they are."""
    declared = {n for node in _walk(scope.body) if isinstance(node, ast.Global | ast.Nonlocal) for n in node.names}
    if not declared:
        return set()
    stored = {
        n.id for n in _walk(scope.body, skip_scopes=False)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)
    }
    return declared & stored


def _kept_by_closures(node: FunctionNode) -> frozenset[str]:
    """The names of `node` that a function nested in it declares `nonlocal` and lets escape (`_escapes`): what they
    hold outlives the call, which the escaped function may read later (`ir.Function.escaping`)."""
    return frozenset(
        name
        for nested in _walk(node.body)
        if isinstance(nested, _FUNCTION_DEFS) and _escapes(nested, node)
        for sub in _walk(nested.body)
        if isinstance(sub, ast.Nonlocal)
        for name in sub.names
    )


def _captured(node: FunctionNode, enclosing: FunctionNode) -> list[str]:
    """The names of `enclosing` that the function `node` nested in it reads without binding them: its cells, which
    keep what a call of `node` leaves in them (an object it moved) for the next call (`reentry`); the mypy plugin's
    rule is the same."""
    def bound(func: FunctionNode) -> set[str]:
        stored = {
            sub.id for sub in _walk(func.body) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store | ast.Del)
        }
        return stored | {p.arg for p in _param_names(func.args)}

    own, outer = bound(node), bound(enclosing)
    # a name bound to a shared op (`anchor = t.shared()`) is read by launches, never moved
    shared = {
        target.id
        for sub in _walk(enclosing.body)
        if isinstance(sub, ast.Assign) and isinstance(sub.value, ast.Call)
        and isinstance(sub.value.func, ast.Attribute) and sub.value.func.attr == "shared"
        for target in sub.targets
        if isinstance(target, ast.Name)
    }
    read = (sub.id for sub in _walk(node.body) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load))
    return sorted({name for name in read if name not in own and name in outer and name not in shared})


def _escapes(node: FunctionNode, enclosing: FunctionNode) -> bool:
    """Whether the nested function `node` may be called where `enclosing`, the function it is defined in, cannot
    see it: it is decorated, or `enclosing` mentions its name other than as the callee of a call (`return step`,
    `hooks.append(step)`, `map(step, xs)`, `step.__name__ = ...`); the mypy plugin's rule is the same."""
    if node.decorator_list:
        return True
    nodes = list(_walk(enclosing.body, skip_scopes=False))
    callees = {id(sub.func) for sub in nodes if isinstance(sub, ast.Call)}
    return any(isinstance(sub, ast.Name) and sub.id == node.name and id(sub) not in callees for sub in nodes)


def _returned_calls(func: FunctionNode) -> list[ast.Call | None]:
    """The value of each `return` of a plain function when it is a call (None for anything else)."""
    return [
        node.value if isinstance(node.value, ast.Call) else None
        for node in _walk(func.body)
        if isinstance(node, ast.Return)
    ]


def _gives_shared_op(func: FunctionNode) -> bool:
    """Whether every `return` of `func` gives a `.shared()` op (`memo.returns_shared`): launches read what it
    gives, never move it."""
    return returns_shared(
        [c.func.attr if c is not None and isinstance(c.func, ast.Attribute) else None for c in _returned_calls(func)]
    )


def _binds_name(node: ast.AST) -> set[str]:
    """The names a node other than a name binds (`except ... as e`, a `match` capture, an import, `global` /
    `nonlocal` declarations), for `with_alias`."""
    if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
        return {node.name} if node.name is not None else set()
    if isinstance(node, ast.MatchMapping):
        return {node.rest} if node.rest is not None else set()
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, ast.Global | ast.Nonlocal):
        return set(node.names)
    return set()


def _block_keeps(body: list[ast.stmt], names: set[str]) -> bool:
    """Whether a `with` block leaves each of `names` bound to what it was at its start: it binds none of them and
    defines no function, class or lambda (which might rebind one with `nonlocal`), for `with_alias` and
    `with_methods`."""
    for sub in _walk(body, skip_scopes=False):
        if isinstance(sub, _SCOPES) or (isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load)):
            if not isinstance(sub, ast.Name) or sub.id in names:
                return False
        elif _binds_name(sub) & names:
            return False
    return True


def _is_yield_statement(stmt: ast.stmt) -> bool:
    """`yield x` as a statement (`calls.with_phases`)."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Yield)


def _try_parts(stmt: ast.stmt) -> tuple[list[ast.stmt], list[ast.stmt], list[ast.stmt]] | None:
    """A `try` statement's body, `else` and `finally` (`calls.with_phases`), else None."""
    return (stmt.body, stmt.orelse, stmt.finalbody) if isinstance(stmt, ast.Try) else None


def _phase_def(func: ast.FunctionDef, body: list[ast.stmt], after: list[ast.stmt] | None = None) -> ast.FunctionDef:
    """A function of `func`'s parameters whose body is one part of `func`'s body (`calls.with_phases`), under its
    name and at its place (its statements keep theirs).  For the part before the `yield` (`after`: the part after
    it), what it keeps across the `yield` is returned: the locals it binds to a call's result that `after` reads
    (`op = k.launch_async(...)` synced in the `finally`), so the `with` statement holds their loans for its block."""
    kept = sorted(_kept_across_yield(func, body, after)) if after is not None else []
    if kept:
        names: list[ast.expr] = [ast.Name(name, ast.Load()) for name in kept]
        value: ast.expr = names[0] if len(names) == 1 else ast.Tuple(names, ast.Load())
        body = [*body, ast.Return(value)]
        for node in ast.walk(body[-1]):
            ast.copy_location(node, body[-2] if len(body) > 1 else func)
    made = ast.FunctionDef(
        name=func.name, args=func.args, body=body or [ast.Pass()], decorator_list=[], returns=None
    )
    return ast.copy_location(made, func)


def _kept_across_yield(func: ast.FunctionDef, before: list[ast.stmt], after: list[ast.stmt]) -> set[str]:
    """The locals `before` binds to a call's result (`op = k.launch_async(...)`) that `after` reads."""
    params = {a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)}
    bound = {
        t.id
        for stmt in before
        for node in ast.walk(stmt)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    read = {n.id for stmt in after for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return (bound & read) - params


def _stores_on(func: FunctionNode, receiver: str) -> bool:
    """Whether `func` assigns or deletes an attribute of its `receiver` parameter (`self.top = stop`)."""
    return any(
        isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load) and _root_name_of(n) == receiver
        for n in _walk(func.body)
    )


def _root_name_of(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _in_caller_terms(arg: ast.expr, passed: dict[str, ast.expr], params: set[str]) -> ast.expr | None:
    """An argument a forwarding function passes on (`returning_call`), in its caller's terms: a number or string
    literal as is, a parameter as the caller's argument for it, arithmetic over those (`n - 1`) with each operand
    so; else None (a name of the module may mean something else where the caller is)."""
    if isinstance(arg, ast.Constant) and type(arg.value) in (int, float, str):
        return arg
    if isinstance(arg, ast.BinOp):
        left, right = _in_caller_terms(arg.left, passed, params), _in_caller_terms(arg.right, passed, params)
        if left is None or right is None:
            return None
        return ast.copy_location(ast.BinOp(left=left, op=arg.op, right=right), arg)
    if isinstance(arg, ast.UnaryOp):
        operand = _in_caller_terms(arg.operand, passed, params)
        return None if operand is None else ast.copy_location(ast.UnaryOp(op=arg.op, operand=operand), arg)
    return passed.get(arg.id) if isinstance(arg, ast.Name) and arg.id in params else None


def _is_docstring(stmt: ast.stmt) -> bool:
    """Whether a body's statement is a string literal standing alone (a docstring)."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _bind_call(func: FunctionNode, call: ast.Call, method: bool = False) -> dict[str, ast.expr]:
    """Parameter name -> argument expression, for the arguments a call binds plainly (no `*`/`**`); for a
    `method` called on an instance, the first parameter is the receiver and binds no argument, and neither does a
    `@classmethod`'s (the class binds it, however the call names the method)."""
    skipped = 1 if method or _is_classmethod(func) else 0
    names = [p.arg for p in (*func.args.posonlyargs, *func.args.args)][skipped:]
    bound: dict[str, ast.expr] = {}
    for position, arg in enumerate(call_args(call)):
        if arg.star:
            break
        if arg.keyword is not None:
            bound[arg.keyword] = arg.value
        elif position < len(names):
            bound[names[position]] = arg.value
    return bound


def _is_classmethod(func: FunctionNode) -> bool:
    """Whether `func` is decorated `@classmethod` (its first parameter is the class, bound by no argument)."""
    return any(isinstance(d, ast.Name) and d.id == "classmethod" for d in func.decorator_list)


def _binary(node: ast.BoolOp) -> tuple[ast.expr, ast.expr]:
    """`a or b or c` as `(a or b) or c`: the left operand (a synthetic `BoolOp` spanning `a or b`) and the right.
    The synthetic node is kept on the original, so one source expression always yields the same nodes."""
    if len(node.values) == 2:
        return node.values[0], node.values[1]
    left: ast.BoolOp | None = getattr(node, "_sk_left", None)
    if left is None:
        last = node.values[-2]
        left = ast.BoolOp(
            op=node.op,
            values=node.values[:-1],
            lineno=node.lineno,
            col_offset=node.col_offset,
            end_lineno=last.end_lineno,
            end_col_offset=last.end_col_offset,
        )
        node._sk_left = left  # type: ignore[attr-defined]
    return left, node.values[-1]


def _subscript_items(node: ast.Subscript, ctx: FileContext) -> list[ast.expr]:
    """The comma-separated items between the brackets (`a[i, j]` has two; `a[(i, j)]` one)."""
    sl = node.slice
    if isinstance(sl, ast.Tuple) and not ctx.parenthesized(sl):
        return list(sl.elts)
    return [sl]


# --- positions -----------------------------------------------------------------------------------------------

_NAME_AFTER_DEF = re.compile(r"(?:async(?:\s|\\\n)+)?(?:def|class)(?:\s|\\\n)+(\w+)")
_NAME_AFTER_AS = re.compile(r"\bas(?:\s|\\\n)+(\w+)")
_NAME_AFTER_STARS = re.compile(r"\*\*(?:\s|\\\n)*(\w+)")
_WORD = re.compile(r"\w+")
_BLANK = " \t\f\n\\"


class FileContext:
    """Positions and name resolution for one file."""

    def __init__(self, source: str, path: str, summary: FileSummary, index: ProjectIndex, module: ast.Module):
        self.path = path
        self._class_tables: IdentityMemo[ast.AST, dict[str, ast.expr]] = IdentityMemo()
        self.summary = summary
        self.index = index
        self.source = source
        self.ascii = source.isascii()
        self.line_starts = [0]
        pos = source.find("\n")
        while pos != -1:
            self.line_starts.append(pos + 1)
            pos = source.find("\n", pos + 1)
        self._line_bytes: dict[int, bytes] = {}
        self.toplevel = {s.name for s in module.body if isinstance(s, _SCOPES) and not isinstance(s, ast.Lambda)}
        self.toplevel |= summary.kernels.keys()  # module-level kernel aliases (`fast_add = vecadd`) too
        self.module = module
        # plain module-level functions (local helpers whose returned parameters an argument may evaluate to)
        self.classes = ModuleClasses(module)  # top-level classes, whose methods' call summaries apply at calls
        self._memo_params: dict[tuple[int, bool], MemoParams | None] = {}  # `memo_params`
        self.uniform_attributes: dict[int, frozenset[str]] = {}  # `FunctionLowerer.uniform_attributes`, by class
        self._module_bound: set[str] | None = None
        self._kernel_tables: dict[str, KernelTable] | None = None  # `kernel_tables`
        self._context_generators: dict[str, ast.FunctionDef] | None = None  # `context_generators`
        self.functions: dict[str, FunctionNode] = {
            s.name: s for s in module.body if isinstance(s, _FUNCTION_DEFS) and self.classes.plain(s)
        }
        self._lambda_defs: IdentityMemo[ast.AST, ast.FunctionDef] = IdentityMemo()
        self._qualified: dict[str, str] = {}
        # per node (by id: every node lives as long as the tree this context belongs to)
        self._node_qualified: IdentityMemo[ast.AST, str | None] = IdentityMemo()
        self._shared_positions: dict[str, frozenset[int]] | None = None
        self._node_kernel: IdentityMemo[ast.AST, tuple[str, KernelSummary] | None] = IdentityMemo()
        self._declared: frozenset[str] | None = None

    def context_generators(self) -> dict[str, ast.FunctionDef]:
        """The module's top-level generators decorated `@contextlib.contextmanager` (alone), by name."""
        if self._context_generators is None:
            self._context_generators = {
                s.name: s
                for s in self.module.body
                if isinstance(s, ast.FunctionDef) and len(s.decorator_list) == 1
                and self.qualify(s.decorator_list[0]) in calls.CONTEXT_MANAGER_DECORATORS
            }
        return self._context_generators

    def kernel_tables(self) -> dict[str, KernelTable]:
        """The module's dict displays of kernels (`kernel_choices.kernel_tables`), by name (once per file)."""
        if self._kernel_tables is None:
            def kernel_of(node: ast.expr) -> KernelSummary | None:
                found = self.kernel(node)
                return found[1] if found is not None else None

            self._kernel_tables = kernel_tables(self.module, kernel_of)
        return self._kernel_tables

    def memo_params(self, func: ast.FunctionDef, method: bool) -> MemoParams | None:
        """`memo_shape.memo_params` of a function of the module (once per function)."""
        key = (id(func), method)
        if key not in self._memo_params:
            self._memo_params[key] = memo_params(func, method, self.module_bound())
        return self._memo_params[key]

    def module_bound(self) -> set[str]:
        """The names the module's top-level assignments bind (hand-written caches keep objects in them)."""
        if self._module_bound is None:
            self._module_bound = {
                n.id
                for stmt in self.module.body
                if isinstance(stmt, ast.Assign | ast.AnnAssign)
                for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                for n in ast.walk(t)
                if isinstance(n, ast.Name)
            }
        return self._module_bound

    def returned_calls(self, func: FunctionNode, method: bool) -> list[ast.Call | None]:
        """The calls a function's `return`s give (`_returned_calls`); of a hand-written cache, the call it stores
        on a miss, which its first call for a key returns (`memo_shape.cached_value`)."""
        if isinstance(func, ast.FunctionDef) and self.memo_params(func, method) is not None:
            stored = cached_value(func, method, self.module_bound())
            return [stored if isinstance(stored, ast.Call) else None]
        return _returned_calls(func)

    def declared(self) -> frozenset[str]:
        """Names a `global`/`nonlocal` declaration of a scope that rebinds them, an import, an `except ... as`, a
        match capture, an augmented assignment or a `def`/`class` anywhere in the module binds: no branch facts
        about them (`calls.branch_tests`; the mypy plugin's rule is the same).  A declaration whose scope only
        reads the name (`nonlocal op` in a step that never assigns `op`) changes nothing the caller tests."""
        if self._declared is None:
            names: set[str] = set(_rebinding_declarations(self.module))
            for node in all_nodes(self.module):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.update(_rebinding_declarations(node))
                if isinstance(node, ast.Import | ast.ImportFrom):
                    names.update(a.asname or a.name.split(".")[0] for a in node.names)
                elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name is not None:
                    names.add(node.name)
                elif isinstance(node, ast.MatchMapping) and node.rest is not None:
                    names.add(node.rest)
                elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                    names.add(node.target.id)  # `flag += 1` rebinds it without a `Bind`
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(node.name)
            self._declared = frozenset(names)
        return self._declared

    @functools.cached_property
    def registries(self) -> dict[str, tuple[ast.FunctionDef, ...]]:
        """The module's registries of functions (`call_targets.module_registries`), by name."""
        return module_registries(self.module, self.classes)

    @functools.cached_property
    def module_stable(self) -> frozenset[str]:
        """The names the module binds once and nothing rebinds (`_stable_names` of its top level)."""
        return _stable_names(self.module.body, ())

    @functools.cached_property
    def shared_getters(self) -> dict[str, tuple[ast.FunctionDef, ...]]:
        """For each property name, the module's `@property` / `@cached_property` getters of that name that give a
        `.shared()` op at every `return` (`_gives_shared_op`): a read of one is a shared op (launches read it,
        never move it), a new one per read or the cached one."""
        found: dict[str, list[ast.FunctionDef]] = {}
        for cls in self.classes.classes.values():
            for stmt in cls.body:
                if (
                    isinstance(stmt, ast.FunctionDef) and len(stmt.decorator_list) == 1
                    and dotted(stmt.decorator_list[0]) in PROPERTY_DECORATORS and _gives_shared_op(stmt)
                ):
                    found.setdefault(stmt.name, []).append(stmt)
        return {name: tuple(getters) for name, getters in found.items()}

    @functools.cached_property
    def raising_functions(self) -> frozenset[str]:
        """The names of the module's functions and methods whose body has a `raise` or an `assert`: a call of one
        may raise after the launches it made took their arguments (`FunctionLowerer.one_step`)."""
        return frozenset(
            node.name for node in ast.walk(self.module)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and any(isinstance(n, ast.Raise | ast.Assert) for n in ast.walk(node))
        )

    @functools.cached_property
    def exceptions_handed_out(self) -> frozenset[str]:
        """The module's class names read other than where a `raise` raises one (`raise C(...)`, `raise C`), an
        `except` names one or a class statement derives from one: a class passed as a value (`validate(x,
        error=C)`) may be raised by code that never names it (`narrow_handlers`)."""
        allowed: set[int] = set()
        for node in ast.walk(self.module):
            if isinstance(node, ast.Raise) and node.exc is not None:
                allowed.add(id(node.exc.func if isinstance(node.exc, ast.Call) else node.exc))
            elif isinstance(node, ast.ExceptHandler) and node.type is not None:
                allowed.update(id(t) for t in (node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]))
            elif isinstance(node, ast.ClassDef):
                allowed.update(id(b) for b in node.bases)
            # an annotation names a type, never a value (mypy's tree keeps no name there)
            annotations: list[ast.expr | None] = []
            if isinstance(node, ast.arg | ast.AnnAssign):
                annotations.append(node.annotation)
            elif isinstance(node, _FUNCTION_DEFS):
                annotations.append(node.returns)
            for annotation in annotations:
                if annotation is not None:
                    allowed.update(id(n) for n in ast.walk(annotation))
        names = self.classes.classes
        return frozenset(
            node.id for node in ast.walk(self.module)
            if isinstance(node, ast.Name) and node.id in names and id(node) not in allowed
        )

    @functools.cached_property
    def throwing_names(self) -> frozenset[str] | None:
        """The names of the module's functions and methods that may raise an exception of a class of the module
        (`narrow_handlers`): those whose body has a `raise`, and, to a fixed point, those that mention one by name
        (a call `f(...)`, `obj.f(...)`; a class whose `__init__` or `__post_init__` may raise counts by its own
        name).  None when such a function may run without being named at a call: a generator (run by `next`), an
        operator or another special method, a name read other than as a call's callee (a callback stored away)."""
        return throwing_names(self.module)

    @functools.cached_property
    def module_numbers(self) -> dict[str, int]:
        """The integer constants of the module: names its top level binds once (`module_stable`) to an integer
        literal (`HEADER = 1`), which a view bound reads as that number."""
        found: dict[str, int] = {}
        for stmt in self.module.body:
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else (
                stmt.target if isinstance(stmt, ast.AnnAssign) else None
            )
            value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
            number = _int_literal(value) if value is not None else None
            if isinstance(target, ast.Name) and number is not None and target.id in self.module_stable:
                found[target.id] = number
        return found

    @functools.cached_property
    def module_tables(self) -> dict[str, ast.expr]:
        """The module's top-level displays bound once and never changed (`static_iterables.module_tables`)."""
        return static_iterables.module_tables(self.module, self.module_stable)

    @functools.cached_property
    def changed_attributes(self) -> frozenset[str]:
        """Attribute names the module may change (`static_iterables.changed_attributes`)."""
        return static_iterables.changed_attributes(self.module)

    def class_tables(self, cls: ast.ClassDef) -> dict[str, ast.expr]:
        """A class body's displays bound once and never changed (`static_iterables.class_tables`), once per class."""
        found = self._class_tables.get(cls)
        if found is None:
            found = self._class_tables[cls] = static_iterables.class_tables(cls, self.changed_attributes)
        return found

    @functools.cached_property
    def attribute_registries(self) -> dict[tuple[str, str], tuple[ast.FunctionDef, ...]]:
        """The module's attributes holding only its functions (`call_targets.attribute_registries`), by (class,
        attribute)."""
        return attribute_registries(self.module, self.classes)

    # `ast` columns are UTF-8 byte offsets into the line; diagnostics count characters.
    def _column(self, line: int, byte_col: int) -> int:
        if self.ascii:
            return byte_col
        data = self._line_bytes.get(line)
        if data is None:
            start = self.line_starts[line - 1] if line - 1 < len(self.line_starts) else len(self.source)
            stop = self.line_starts[line] - 1 if line < len(self.line_starts) else len(self.source)
            data = self.source[start:stop].encode("utf-8", "surrogatepass")
            self._line_bytes[line] = data
        if data.isascii():
            return byte_col
        return len(data[:byte_col].decode("utf-8", "replace"))

    def offset(self, line: int, byte_col: int) -> int:
        return self.line_starts[line - 1] + self._column(line, byte_col)

    def _point(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return line + 1, offset - self.line_starts[line] + 1

    def _span_of(self, start: int, end: int) -> Span:
        line, col = self._point(start)
        end_line, end_col = self._point(end)
        return Span(line, col, end_line, end_col)

    def span(self, node: ast.AST) -> Span:
        end_line = getattr(node, "end_lineno", None)
        if end_line is None:
            return Span(1, 1, 1, 2)
        if isinstance(node, ast.Tuple) and self.parenthesized(node):
            return self._inside_parentheses(node)
        line: int = node.lineno  # type: ignore[attr-defined]
        return Span(
            line,
            self._column(line, node.col_offset) + 1,  # type: ignore[attr-defined]
            end_line,
            self._column(end_line, node.end_col_offset) + 1,  # type: ignore[attr-defined]
        )

    def parenthesized(self, node: ast.Tuple) -> bool:
        """Whether a tuple display is wrapped in its own parentheses (`(a, b)`; not `(a), b`)."""
        start = self.offset(node.lineno, node.col_offset)
        if self.source[start : start + 1] != "(":
            return False
        if not node.elts:
            return True
        first = node.elts[0]
        opens = self.source.count("(", start, self.offset(first.lineno, first.col_offset))
        after = self.offset(first.end_lineno or first.lineno, first.end_col_offset or first.col_offset)
        comma = self.source.find(",", after)
        closes = self.source.count(")", after, comma if comma != -1 else len(self.source))
        return opens > closes

    def _inside_parentheses(self, node: ast.Tuple) -> Span:
        start = self.offset(node.lineno, node.col_offset) + 1
        end = self.offset(node.end_lineno or node.lineno, node.end_col_offset or node.col_offset) - 1
        while start < end and self.source[start] in _BLANK:
            start += 1
        while end > start and self.source[end - 1] in _BLANK:
            end -= 1
        return self._span_of(start, end)

    def token_span(self, token: _Token) -> Span:
        """Where a name token is (see `_Token.kind`)."""
        node = token.node
        kind = token.kind
        if kind == "name":
            return self.span(node)
        if kind == "attr" or (kind == "match" and not isinstance(node, ast.MatchMapping)):
            if kind == "match" and isinstance(node, ast.MatchAs) and node.pattern is None:
                return self.span(node)
            end = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
            start = end - len(token.name)
            if not self.ascii:
                start = end
                while start > 0 and (self.source[start - 1].isalnum() or self.source[start - 1] == "_"):
                    start -= 1
            return self._span_of(start, end)
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        found: re.Match[str] | None = None
        if kind == "def":
            found = _NAME_AFTER_DEF.match(self.source, start)
        elif kind == "except":
            handler = node
            assert isinstance(handler, ast.ExceptHandler)
            if handler.type is not None:
                start = self.offset(handler.type.end_lineno or 1, handler.type.end_col_offset or 0)
            found = _NAME_AFTER_AS.search(self.source, start)
        elif kind == "match":
            end = self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
            for found in _NAME_AFTER_STARS.finditer(self.source, start, end):  # noqa: B007 (the last one)
                continue
        else:  # "arg", "keyword": the name starts the node
            found = _WORD.match(self.source, start)
            if found is not None:
                return self._span_of(found.start(), found.end())
        if found is not None and found.lastindex:
            return self._span_of(found.start(1), found.end(1))
        return self.span(node)

    def attr_span(self, node: ast.Attribute) -> Span:
        return self.token_span(_Token(node.attr, node, "attr"))

    def def_name_span(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> Span:
        return self.token_span(_Token(node.name, node, "def"))

    def shared_array_positions(self, name: str) -> frozenset[int]:
        """The positions at which some call `name(...)` in the module's functions passes a shared array: a name
        its function binds to `simt.shared_array(...)` (`scratch = simt.shared_array(f32, 64)` then
        `block_sum(scratch, t, v)`), so the device helper's parameter there is one (read once per file)."""
        if self._shared_positions is None:
            found: dict[str, set[int]] = {}
            for func in all_nodes(self.module):
                if not isinstance(func, ast.FunctionDef):
                    continue
                shared = {
                    t.id for n in _walk(func.body) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                    and self.qualify(n.value.func) == SHARED_ARRAY_CONSTRUCTOR
                    for t in n.targets if isinstance(t, ast.Name)
                }
                for call in _walk(func.body) if shared else ():
                    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
                        for index, arg in enumerate(call.args):
                            if isinstance(arg, ast.Starred):
                                break
                            if isinstance(arg, ast.Name) and arg.id in shared:
                                found.setdefault(call.func.id, set()).add(index)
            self._shared_positions = {k: frozenset(v) for k, v in found.items()}
        return self._shared_positions.get(name, frozenset())

    def qualify(self, node: ast.AST) -> str | None:
        hit = self._node_qualified.entry(node)
        if hit is not None:
            return hit[1]
        name = dotted(node)
        found = self.qualify_text(name) if name is not None else None
        self._node_qualified[node] = found
        return found

    def qualify_text(self, name: str) -> str:
        found = self._qualified.get(name)
        if found is None:
            local = resolve_local(name, self.summary.imports, self.summary.module, self.toplevel)
            if local == name and self.summary.star_imports:
                local = self.index.qualify_star(name, self.summary.star_imports) or local
            found = self.index.resolve(local)
            self._qualified[name] = found
        return found

    def lambda_function(self, node: ast.Lambda) -> ast.FunctionDef:
        """`_lambda_function(node)`, one per lambda: a call summary is memoised by its function's node."""
        found = self._lambda_defs.get(node)
        if found is None:
            found = self._lambda_defs[node] = _lambda_function(node)
        return found

    def kernel(self, node: ast.AST) -> tuple[str, KernelSummary] | None:
        hit = self._node_kernel.entry(node)
        if hit is not None:
            return hit[1]
        qualified = self.qualify(node)
        found = self.index.kernel(qualified) if qualified else None
        self._node_kernel[node] = found
        return found

    def is_safekernels(self, node: ast.AST) -> bool:
        qualified = self.qualify(node)
        return qualified is not None and (qualified == "safekernels" or qualified.startswith("safekernels."))


@dataclass
class Unit:
    """A function body waiting to be lowered."""

    name: str
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Module
    kind: str  # "module" | "function" | "simt" | "tile" | "device"
    outer_device: frozenset[str] = frozenset()
    outer_kernels: Mapping[str, KernelSummary] = field(default_factory=dict)
    # A method's class: attributes `__init__` binds to a prepared launch, and the kernels it may be prepared for
    # (its class's, then those of the subclasses running the method: `init_state.merged_brands`).
    class_brands: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # A method's class: `(a, b)` where `__init__` binds `self.a = self.b`, and nothing else binds either.
    class_aliases: tuple[tuple[str, tuple[str | None, ...]], ...] = ()
    # A method's class: the `.shared()` ops and moved objects `__init__` leaves on `self` (`init_state`)
    init_facts: init_state.InitFacts = init_state.NO_FACTS
    # ... and its displays of prepared launches: attribute -> each item's kernel (`init_items`)
    class_items: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # the keys of those that are dict displays (`init_item_keys`)
    class_item_keys: Mapping[str, tuple[object, ...]] = field(default_factory=dict)
    # lowered for a call summary: the items of displays of other values stay the receiver's paths, so a method
    # returning `self.buffers["freqs"]` gives the caller's item (`init_state.stored_items`)
    summarizing: bool = False
    # For the effects of a call of a nested function: the enclosing function's containers it may read by item.
    outer_containers: Mapping[str, calls.Container] = field(default_factory=dict)
    # ... and what calls of the enclosing function's other nested functions do (`async def outer(): await inner()`)
    outer_closures: Mapping[str, calls.NonlocalEffects] = field(default_factory=dict)
    # ... and the enclosing functions' local names: a function nested in this one that mentions one captures the
    # caller's value too (`bufs` of `main`, read by a function nested in a nested function)
    outer_names: frozenset[str] = frozenset()
    span: Span | None = None  # where the IR function is, when not at `def name` (a lambda: `_lambda_function`)
    # A method's summary for a call on an object of this class (a subclass of its own): `self` is one of it, so
    # `self.target()` runs the subclass's override (`call_targets.receiver_class`)
    receiver_class: str | None = None
    # A call summary's lowering for a call passing this many items to the `*args` parameter: it is a tuple of
    # that many items, each the caller's value (`call_effects.star_items`)
    star_items: int = 0
    # ... and passing these keywords into the `**kwargs` parameter: it is a dict of those keys, each item the
    # caller's value passed by it (`call_effects.spread_items`)
    spread_keys: tuple[str, ...] = ()
    # A function nested in another: the enclosing function, which may let it escape (`reentry`)
    enclosing: FunctionNode | None = None


def _attribute_device(lowerer: FunctionLowerer, receiver: str, attr: str) -> bool:
    """Whether a method knows its receiver's attribute `attr` is a device value (`init_state.method_start`)."""
    return lowerer.is_device_text(f"{receiver}.{attr}")


def _lambda_function(node: ast.Lambda) -> ast.FunctionDef:
    """A lambda as the function it is, `def <lambda>(args): return body`, lowered as any nested function: its body
    runs in its own frame, so an enclosing `with simt.unsafe():` does not cover it (the runtime agrees)."""
    body = ast.copy_location(ast.Return(value=node.body), node.body)
    function = ast.FunctionDef(name="<lambda>", args=node.args, body=[body], decorator_list=[], returns=None)
    return ast.copy_location(function, node)


@dataclass
class _Scope:
    ops: list[ir.Op] = field(default_factory=list)


#: How this front end lowered before the core owned call lowering (see `calls.Dialect`).
DIALECT = calls.Dialect(launch_move_events=calls.GROUP_LAUNCH_MOVES)

#: Units whose bodies are kernel code (never host code): no host moves, launches or borrows happen there.
KERNEL_UNIT_KINDS = ("simt", "tile", "device")

#: How deep an operand's expression is followed to the places it may evaluate to (nested conditionals, helpers).
_CHOICE_DEPTH = 6

_INTERESTING = (ir.Move, ir.Borrow, ir.CheckBrand, ir.RequireUnsafe, ir.Produce)

#: Statements that are one step for the exception edges inside a `try` or `with` body (`ir.step`).
_STEP_STATEMENTS = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)


class FunctionLowerer(calls.PlaceNaming):
    def __init__(self, ctx: FileContext, unit: Unit) -> None:
        super().__init__()
        self.ctx = ctx
        self.unit = unit
        self.kernel_body = unit.kind in KERNEL_UNIT_KINDS
        #: The statement of this body being lowered (`suite`), where a name's class is read (`receiver_classes`).
        self.current_statement: ast.stmt | None = None
        # the statement before `current_statement` in the same block (None for a block's first)
        self.previous_statement: ast.stmt | None = None
        self.dialect = DIALECT
        self.scopes: list[_Scope] = [_Scope()]
        self.computed = ComputedItems()  # equal reads at computed indices (`core.computed_items`)
        self.nested: list[Unit] = []
        self.interesting = False
        self.local_names: set[str] = set()
        self.host_arrays: set[str] = set()  # names bound once to a numpy call (`counts = np.zeros(n, np.int32)`)
        # the literal keys read under, by container (`keyed_mentions.read_keys`), and the names whose items are
        # never kept by key (globals, names nested functions use)
        self.keyed_reads: dict[str, frozenset[calls.ContainerKey]] = {}
        self._keyed_blocked: frozenset[str] | None = None  # `keyed_blocked`, found when a keyed item first asks
        self.device: set[str] = set(unit.outer_device)
        # the parameters (and paths below them) the function's annotations declare device values
        # (`ir.Function.declared_device`)
        self.declared_device: set[str] = set()
        self.kernels: dict[str, KernelSummary] = dict(unit.outer_kernels)  # kernels defined in this body
        self.helpers: dict[str, FunctionNode] = {}  # plain functions defined in this body
        self.awaited: set[int] = set()  # calls an `await` runs (a call of an `async def` of the module runs it)
        self.gathered: dict[int, Gathered[ast.expr]] = {}  # coroutines `asyncio.gather` runs (`lower_gathered`)
        self.tasks: dict[str, ast.Call] | None = None  # `_task_calls`, found at the first `await` of a name
        self.iterated: set[int] = set()  # generator calls an item is taken from (`next(gen())`: its body runs)
        self.loop_items: set[int] = set()  # of those, the ones a `for` takes every item of (`callables.item_of_a_loop`)
        # ... and their moves, applied after that loop (`callables.moves_of_a_loop`)
        self.loop_moves: dict[int, AppliedSummary[ast.expr] | None] = {}
        # the enclosing `for i in range(n)` loops (index, count text: `calls.iteration_tests`), innermost last, and
        # the indices an `if` of their bodies tested (their `ir.Loop.more`)
        self.counted_loops: list[tuple[str, str]] = []
        self.tested_indices: set[str] = set()
        self._bump_calls: dict[int, tuple[ir.Place, int, int]] | None = None  # `bump_calls`
        # the kernel a launch on a receiver chosen among several is lowered for, by the receiver's id
        self.forced_kernels: dict[int, KernelSummary] = {}
        self._kernel_names: dict[str, tuple[KernelSummary, ...]] | None = None  # `kernel_choices`
        self.closures: dict[str, calls.NonlocalEffects] = {}  # nested functions that rebind or move `nonlocal`s
        self.defaults: dict[str, parameter_defaults.ParameterDefaults] = {}  # nested functions' place defaults
        self.containers: dict[str, calls.Container] = {}  # names only ever bound to displays (`calls.Container`)
        # names bound once to a dict display of literal keys (`KERNELS = {"add": add}`): what a dict comprehension
        # over `KERNELS.items()` iterates (`registry_comprehension`)
        self.registries: dict[str, list[tuple[calls.ContainerKey, ast.expr]]] = {}
        self.ordered: set[str] = set()  # dict displays bound once, maybe stored into under their keys
        # names bound once to a call keeping its operands' items (`pool = itertools.cycle([c])`, `stdlib_flow`):
        # an item taken from the name (`next(pool)`) is any of them
        self.iterators: dict[str, ast.Call] = {}
        # names bound once to `defaultdict(lambda: buf)` and never changed in place: the factory's body (`buf`)
        self.factories: dict[str, ast.expr] = {}
        self.rings: set[str] = set()  # names bound once to a bounded deque as long as its display (`ring_call`)
        self.getters: dict[str, ast.Call] = {}  # names bound once here to a call that may make a getter
        self.generators: dict[str, ast.Call] = {}  # names bound once to a generator call (`gen.send(x)`)
        self.uniform: set[str] = set()  # names bound once to a display of one place (`uniform_display`)
        # names a `for` binds to the items of a list display of mappings, each holding one registry's item under a
        # key: that key's read (`cfg["bias"]` of `for cfg in [ChainMap(..., defaults), ...]`; `shared_item_read`)
        self.loop_item_reads: dict[str, dict[calls.ContainerKey, ast.expr]] = {}
        # names bound once to a tuple/list display of literals (`names = ["scale", "shift"]`): the keys of
        # `dict(zip(names, values))` (`display_items`)
        self.key_lists: dict[str, ast.expr] = {}
        # `args.append(c)` of a list display grown in one statement list: (name, first index, items)
        self.appends: dict[int, tuple[str, int, tuple[ast.expr, ...]]] = {}
        self.splat_lengths: dict[str, int] = {}  # the one length every binding of a container list ends with
        self.lengths: dict[str, int] = {}  # a container list's length where lowering is now (display + appends)
        self.stable: frozenset[str] | None = None  # `_stable_names`, found when a view bound first asks
        self.stepping = 0  # inside a `try` or `with` body (`guarded_suite`)
        self.narrow = False  # that body's handlers catch only the module's exception classes (`narrow_handlers`)
        self.loop_nesting = 0  # loops enclosing what is being lowered (`counted_body`)
        # the counting loop whose body is being lowered (`counting_loop`), and the locals that body binds once to
        # an expression of its counter (`_counter_locals`)
        self.loop_counter: tuple[str, int] | None = None
        self.counter_locals: dict[str, tuple[ast.expr, int]] = {}
        self.constants: dict[str, int] = {}  # names an unrolled iteration binds to a number (`unpacked_comprehension`)
        self.literal_keys: dict[str, calls.ContainerKey] = {}  # names an unrolled iteration binds to a literal key
        # callables bound once to a name in this body (`find_callables`): a lambda's name by the lambda's id, a
        # function a factory of this module returns, a `functools.partial` call (and its name by the call's id)
        self.lambdas: dict[int, str] = {}
        self.made: dict[str, FunctionNode] = {}
        self.factory_calls: dict[str, ast.Call] = {}  # the factory call that made each (`call_targets`' captures)
        self.partials: dict[str, ast.Call] = {}
        self.partial_names: dict[int, str] = {}
        self.partial_slots: dict[str, str] = {}  # a loop target taking partials: the list whose slots they use
        self.slot_uses: dict[int, calls.Operand[ast.expr]] = {}  # a partial's bound argument, read from its slot
        self.read_properties: set[int] = set()  # attribute operands of the call being lowered, getters already run
        self.getter_calls: dict[int, ast.Call] = {}  # `getter_call_node`, by the read's node
        self.forwarded_calls: dict[int, ast.Call] = {}  # `returning_call`, by the call's node
        self.spread_items: dict[int, tuple[ast.expr, ...] | None] = {}  # `spread_display`, by the display's node
        self.spread_subscripts: set[int] = set()  # the items `spread_display` made
        # names bound only to functions of the module (`for fn in (run_a, run_b)`), and names bound once to a dict
        # display of them under literal keys (`passes = {"a": run_a}`): what a call through them may run
        # (`find_function_values`, `callables.bound_functions`)
        self.function_choices: dict[str, tuple[FunctionNode, ...]] = {}
        self.function_registries: dict[str, dict[object, FunctionNode]] = {}
        # a `for` over a registry of the module's functions: the display it iterates like (`registry_items`)
        self._registry_items: IdentityMemo[ast.AST, tuple[ast.expr, ...]] = IdentityMemo()
        self._registry_nodes: list[ast.expr] = []

    # --- plumbing -------------------------------------------------------------------------------------------


    @property
    def peeked(self) -> frozenset[str]:
        """The attribute names an accessor of the module peeks at (`calls.peeked_path`, `ModuleClasses.peeked`)."""
        return self.ctx.classes.peeked
    def emit(self, op: ir.Op, origin: ast.AST | None = None) -> None:
        """Append `op` (`origin`, the causing call, matters only to the mypy plugin's reporting).  A read of a numpy
        array is no use to check (`is_host_array`): the runtime never refuses one, even after a buffer wrapping
        its memory (`sk.as_buffer(counts)`) moved."""
        if type(op) is ir.Use and self.host_arrays and self.is_host_array(op.place):
            return
        if isinstance(op, _INTERESTING):
            self.interesting = True
        self.scopes[-1].ops.append(op)

    def lower_expr(self, node: ast.expr) -> None:
        slot = self.slot_uses.get(id(node))
        if slot is not None and slot.place is not None:  # a partial's bound argument: the call reads its slot
            self.emit(ir.Use(slot.place, slot.span))
            return
        self.expr(node)

    def block(self, build: Callable[[], None]) -> ir.Block:
        self.scopes.append(_Scope())
        try:
            build()
        finally:
            scope = self.scopes.pop()
        return tuple(scope.ops)

    def span(self, node: ast.AST) -> Span:
        return self.ctx.span(node)

    def place(self, node: ast.AST) -> ir.Place | None:
        parts: list[str] = []
        cur = node
        while isinstance(cur, ast.Attribute):
            parts.append(cur.attr)
            cur = cur.value
        if isinstance(cur, ast.Name) and not (cur.id in calls.CONSTANT_NAMES and not parts):
            attrs = tuple(reversed(parts))
            if attrs and self.ctx.classes.with_views:
                cls = receiver_class(self, cur.id)
                path = self.ctx.classes.attribute_view(cls, attrs[0]) if cls is not None else None
                if path is not None:
                    # `layer.output` of a property returning `self._out` is the place `layer._out`
                    return ir.Place(self.name(cur.id), (*path, *attrs[1:]), ".".join((cur.id, *attrs)))
                if receiver_property(self, cur.id, attrs[0]) is not None:
                    return None  # one of several places (`choices`)
            getter = len(attrs) == 1 and isinstance(node, ast.Attribute) and self.ctx.classes.has_getters
            if getter and self.inlined_returns(node) is not None:  # type: ignore[arg-type]
                return None  # `pen.demand_launch` of a property returning `self._launches["demand"]` (`choices`)
            if isinstance(node, ast.Attribute) and self.getter_views(node) is not None:
                return None  # `self.arena.tension` of a property returning a view: no place of its own (`value`)
            if len(attrs) == 1 and attrs[0] in self.ctx.shared_getters and self.shared_getter_read(node):
                return None  # `antenna.gain` of a property giving a `.shared()` op: a shared op (`value`)
            return self.dotted_place(cur.id, attrs)
        return None

    def shared_getter_read(self, node: ast.AST) -> bool:
        """Whether `node` reads `name.attr` where every class the receiver may be (`receiver_classes`) runs a
        property `attr` giving a `.shared()` op (`FileContext.shared_getters`)."""
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            return False
        getters = self.ctx.shared_getters.get(node.attr)
        candidates = receiver_classes(self, node.value.id) if getters else None
        if not candidates or getters is None:
            return False
        classes = self.ctx.classes
        # the getter each class runs (its own or an inherited one) must be one of them
        return all(any(g is classes.definition(cls, node.attr) for g in getters) for cls in candidates)

    def getter_call(self, func: ast.expr) -> tuple[tuple[calls.ContainerKey, ...], bool] | None:
        """The names a getter callee gives (`stdlib_flow.getter_keys`): a direct call (`attrgetter("a", "b")` of
        `attrgetter("a", "b")(job)`), or a name bound once to one, in this body or (not bound here) at the
        module's top level (`io_of = attrgetter("raw", "out")`); else None."""
        call: ast.expr | None = func
        if isinstance(func, ast.Name):
            call = self.getters.get(func.id)
            if call is None and func.id not in self.local_names:
                call = _module_getters(self.ctx.module).get(func.id)
        if not isinstance(call, ast.Call) or call.keywords:
            return None
        keys: list[calls.ContainerKey | None] = []
        for arg in call.args:
            spread = self.spread_keys(arg.value) if isinstance(arg, ast.Starred) else [_key_literal(arg)]
            if spread is None:
                return None
            keys.extend(spread)
        return stdlib_flow.getter_keys(self.stdlib_name(call.func), keys)

    def spread_keys(self, node: ast.expr) -> list[calls.ContainerKey | None] | None:
        """The keys `*node` spreads into a getter's operands (`itemgetter(*ROLES)`): a tuple/list display's, of a
        name bound once to one in this body (`key_lists`) or at the module's top level, or of the item under a
        literal key of a module-level dict display of them (`*STEP_ROLES["assign"]`; `_module_key_tables`); None
        where they are not known (a computed key: the runtime's choice)."""
        shown: ast.expr | None = node
        tables = _module_key_tables(self.ctx.module)
        if isinstance(node, ast.Name):
            shown = self.key_lists.get(node.id)
            if shown is None and node.id not in self.local_names:
                shown = tables.get(node.id)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            table = tables.get(node.value.id) if node.value.id not in self.local_names else None
            entries = _display_items(table) if table is not None else None
            key = _key_literal(node.slice)
            shown = dict(entries[0]).get(key) if entries is not None and entries[1] and key is not None else None
        listed = self.literal_display(shown) if shown is not None else None
        return [_key_literal(k) for k in listed] if listed is not None else None

    def getter_places(self, node: ast.expr) -> tuple[tuple[ir.Place, ...], bool] | None:
        """`getter(operand)` of a getter (`getter_call`) on a place: the places it gives
        (`stdlib_flow.getter_places`) and whether it gives a tuple of them (several names); else None."""
        if not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords:
            return None
        operand = node.args[0]
        base = self.place(operand) if not isinstance(operand, ast.Starred) else None
        found = self.getter_call(node.func) if base is not None else None
        if found is None or base is None:
            return None
        keys, attribute = found
        container = None
        if isinstance(operand, ast.Name) and (held := self.containers.get(operand.id)) is not None:
            container = (self.name(operand.id), operand.id, held)
        places = stdlib_flow.getter_places(keys, attribute, base, container)
        return (places, len(keys) > 1) if places is not None else None

    def iterated_places(self, node: ast.expr) -> tuple[ir.Place, ...] | None:
        """The places unpacking `node` gives, in order, when it names an instance of a class whose `__iter__`
        gives its own attributes (`src, dst = pair` of `return iter((self.front, self.back))`), or of a
        `NamedTuple` class of the module that defines no `__iter__`: its fields (`call_effects.iterated_fields`)."""
        classes = self.ctx.classes
        if not (isinstance(node, ast.Name) and classes.classes):
            return None
        cls = receiver_class(self, node.id)
        if cls is None:
            return None
        paths = classes.iterated(cls) if classes.with_views else None
        if paths is None and not classes.own_iter(cls):
            paths = iterated_fields(self.generated_init(cls))
        return tuple(self.dotted_place(node.id, path) for path in paths) if paths is not None else None

    def literal_items(self, node: ast.AST) -> tuple[ast.expr, ...] | None:
        """The elements of a tuple/list display of places and literals (`((x, y), (y, x))`), else None."""
        if not isinstance(node, ast.Tuple | ast.List) or not node.elts:
            return None
        items: tuple[ast.expr, ...] | None = tuple(node.elts)
        if any(isinstance(el, ast.Starred) for el in node.elts):
            items = self.spread_display(node)
        return items if items is not None and all(self._plain_item(item) for item in items) else None

    def spread_display(self, node: ast.Tuple | ast.List) -> tuple[ast.expr, ...] | None:
        """A display with starred names of container lists of known length (`[*enrolled, unknown]`), each splat
        written out as its items (`enrolled[0]`, `enrolled[1]`: nodes made once per display, at the splat); else
        None."""
        if id(node) in self.spread_items:
            return self.spread_items[id(node)]
        items: list[ast.expr] = []
        found: tuple[ast.expr, ...] | None = None
        for element in node.elts:
            if not isinstance(element, ast.Starred):
                items.append(element)
                continue
            spread = self.star_elements(element.value) if isinstance(element.value, ast.Name) else None
            if spread is None:
                break
            for index in range(len(spread)):
                item = ast.copy_location(ast.Subscript(element.value, ast.Constant(index), ast.Load()), element)
                ast.copy_location(item.slice, element)
                self.spread_subscripts.add(id(item))
                items.append(item)
        else:
            found = tuple(items)
        self.spread_items[id(node)] = found
        return found

    def table_items(self, node: ast.expr) -> tuple[ast.expr, ...] | None:
        """What a `for` over an iterable the source lists takes (`static_iterables.iteration`: `for name, k in
        self.GRADIENTS`, `zip(NAMES, KERNELS)` of tables), each item as the display it unpacks, when every item is
        a display of places and literals (`_plain_item`); else None."""
        rows = static_iterables.iteration(static_iterables.scope_of(self), node)
        if not rows or len(rows) > calls.MAX_CONTAINER_ITEMS:
            return None
        items: list[ast.expr] = []
        for row in rows:
            item = row[0] if len(row) == 1 else ast.Tuple(list(row), ast.Load())
            for part in ast.walk(item):
                if "lineno" not in part._attributes or not hasattr(part, "lineno"):
                    ast.copy_location(part, node)  # a key `sorted` gave, a row `zip` made: at the iterable
            items.append(item)
        return tuple(items) if all(self._plain_item(item) for item in items) else None

    def _plain_item(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Tuple | ast.List):
            return all(not isinstance(el, ast.Starred) and self._plain_item(el) for el in node.elts)
        if isinstance(node, ast.Name) or id(node) in self.spread_subscripts:
            return True
        if isinstance(node, ast.Attribute):
            return self.place(node) is not None
        return isinstance(node, ast.Constant) and isinstance(node.value, _PLAIN_CONSTANTS)

    # --- device-likeness (a cheap flow-insensitive pre-pass) -----------------------------------------------

    def annotation_is_device(self, annotation: ast.expr | None) -> bool:
        """Whether an annotation names a device class: one of safekernels (under any import alias) or one defined
        here; an imported class of another library (`torch.Tensor`, `from torch import Tensor`) is not."""
        if annotation is None:
            return False
        imports = self.ctx.summary.imports

        def names_device(name: str) -> bool:
            if name not in imports:
                return name in DEVICE_ANNOTATIONS
            return self._qualifies_as_device(self.ctx.qualify_text(name))

        for node in _walk(annotation):
            if isinstance(node, ast.Name):
                if names_device(node.id):
                    return True
            elif isinstance(node, ast.Attribute):
                # the attribute (`tile.Tensor`), then its last name on its own, as a concrete tree visits them
                if node.attr in DEVICE_ANNOTATIONS and self._qualifies_as_device(self.ctx.qualify(node)):
                    return True
                if names_device(node.attr):
                    return True
        return False

    @staticmethod
    def _qualifies_as_device(qualified: str | None) -> bool:
        return (
            qualified is not None
            and qualified.rsplit(".", 1)[-1] in DEVICE_ANNOTATIONS
            and is_safekernels_name(qualified)
        )

    def expr_is_device(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.device
        if isinstance(node, ast.Attribute):
            text = dotted(node)
            return text is not None and (text in self.device or text.split(".")[0] in self.device)
        if isinstance(node, ast.Call):
            func = node.func
            if self.kernel_of(func) is not None:
                return True
            if self.ctx.is_safekernels(func):  # unless its source says it returns host data (`-> bytes`)
                qualified = self.ctx.qualify(func)
                return qualified is None or not safekernels_returns_plain(qualified)
            if (flow := stdlib_flow.stdlib_flow(self.stdlib_name(func))) is not None:
                # `itertools.pairwise(stages)`, `max(pool)`: device items when its item operands hold them
                taken = stdlib_flow.item_operands(flow, len(node.args)) or ()
                return any(self.expr_is_device(node.args[i]) for i in taken)
            got = self.mapping_get(node, local=False) if isinstance(func, ast.Attribute) else None
            if got is not None:  # `bufs.get("c", c)`: its item or its fallback
                return any(self.expr_is_device(option) for option in got)
            if isinstance(func, ast.Attribute):
                receiver = func.value
                return calls.method_result_is_device(
                    func.attr, self.kernel_of(receiver) is not None, lambda: self.expr_is_device(receiver)
                )
            # `with lend(bufs[2]) as lo:` of a context manager yielding its parameter: `lo` is that argument
            entered = self.entered_arguments(node)
            return entered is not None and any(self.expr_is_device(arg) for arg in entered)
        if isinstance(node, ast.Subscript):
            return self.expr_is_device(node.value)
        if isinstance(node, ast.Tuple | ast.List):
            return any(self.expr_is_device(el.value if isinstance(el, ast.Starred) else el) for el in node.elts)
        if isinstance(node, ast.IfExp):
            return self.expr_is_device(node.body) or self.expr_is_device(node.orelse)
        if isinstance(node, ast.NamedExpr):
            return self.expr_is_device(node.value)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # `[first] + rest` of lists
            return self.expr_is_device(node.left) or self.expr_is_device(node.right)
        if isinstance(node, ast.ListComp):
            return self.expr_is_device(node.elt)
        if isinstance(node, ast.Dict):  # `{"u": buf}`: `u = entries["u"]` then `u.partition(...)` moves `buf`
            return any(self.expr_is_device(v) for v in node.values)
        if isinstance(node, ast.DictComp):
            return self.expr_is_device(node.value)
        return False

    def display_items(self, node: ast.AST) -> tuple[list[tuple[calls.ContainerKey, ast.expr]], bool] | None:
        """`_display_items`, and a `dict(...)` call whose entries are known (`stdlib_flow.dict_entries`):
        `dict(scale=a, shift=b)`, `dict(zip(names, (a, b)))` of literal keys, `dict({"scale": a})`, as the dict
        display of those entries."""
        found = _display_items(node)
        if found is not None or not isinstance(node, ast.Call):
            return found
        if stdlib_flow.chains_mappings(self.stdlib_name(node.func)):
            return self.chained_items(node)
        if not any(isinstance(a, ast.Starred) for a in node.args) and (filled := stdlib_flow.filled_entries(
            stdlib_flow.stdlib_flow(self.stdlib_name(node.func)), node.args, len(node.keywords)
        )) is not None:
            return filled, True  # `dict.fromkeys(ids, buf)`: every key's value is `buf`
        if len(node.args) > 1:
            return None
        if self.stdlib_name(node.func) in calls.SEQUENCE_CONSTRUCTORS:
            # `deque([a, c])`, `deque([a, c], maxlen=2)`: the list display's items
            if not node.args or not isinstance(node.args[0], ast.Tuple | ast.List):
                return None
            keywords = [(k.arg, _int_literal(k.value)) for k in node.keywords]
            return None if calls.deque_bound(len(node.args[0].elts), keywords) is None else _display_items(node.args[0])
        flow = stdlib_flow.stdlib_flow(self.stdlib_name(node.func))
        if flow is None or flow.relation != "mapping" or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        keys: list[calls.ContainerKey | None] | None = None
        values: tuple[ast.expr, ...] | None = None
        if node.args and isinstance(arg := node.args[0], ast.Dict):
            inner = _display_items(arg)  # `dict({"scale": a}, shift=b)`
            if inner is None:
                return None
            keys, values = [k for k, _ in inner[0]], tuple(v for _, v in inner[0])
        elif node.args:
            zipped = node.args[0]
            if (
                not isinstance(zipped, ast.Call)
                or self.builtin(zipped.func) != "zip"
                or len(zipped.args) != 2
                or any(k.arg != "strict" for k in zipped.keywords)
            ):
                return None
            shown = zipped.args[0]
            if isinstance(shown, ast.Name):
                shown = self.key_lists.get(shown.id, shown)
            listed = self.literal_display(shown)
            keys = [_key_literal(k) for k in listed] if listed is not None else None
            values = self.literal_display(zipped.args[1])
        entries = stdlib_flow.dict_entries([(k.arg, k.value) for k in node.keywords], keys, values)
        return (entries, True) if entries is not None else None

    def chained_items(self, node: ast.Call) -> tuple[list[tuple[calls.ContainerKey, ast.expr]], bool] | None:
        """`ChainMap(m1, m2, ...)` of dict displays and names bound once to one (`registries`): the dict display of
        the items its lookups find (`stdlib_flow.chained_entries`), a name's item read as `name["key"]`
        (`_item_read`), so `ChainMap({"name": "h"}, defaults)["bias"]` is `defaults["bias"]`; else None."""
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        maps: list[tuple[list[tuple[calls.ContainerKey, ast.expr]], bool] | None] = []
        for arg in node.args:
            if isinstance(arg, ast.Dict):
                shown = _display_items(arg)
                maps.append((shown[0], True) if shown is not None and shown[1] else None)
            elif isinstance(arg, ast.Name) and (held := self.registries.get(arg.id)) is not None:
                maps.append(([(key, _item_read(arg, key)) for key, _ in held], False))
            else:
                maps.append(None)
        entries = stdlib_flow.chained_entries(maps)
        return (entries, True) if entries is not None else None

    def factory_body(self, node: ast.expr) -> ast.expr | None:
        """`defaultdict(lambda: buf)` (`stdlib_flow.factory_mapping`, a lambda without parameters): its body."""
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        if not stdlib_flow.factory_mapping(self.stdlib_name(node.func), len(node.args), len(node.keywords)):
            return None
        factory = node.args[0]
        arguments = factory.args if isinstance(factory, ast.Lambda) else None
        if arguments is None or arguments.args or arguments.posonlyargs or arguments.kwonlyargs:
            return None
        if arguments.vararg is not None or arguments.kwarg is not None:
            return None
        assert isinstance(factory, ast.Lambda)
        return factory.body

    def ring_call(self, node: ast.expr) -> ast.Call | None:
        """`deque([a, c], maxlen=2)`: a bounded deque as long as its display (`calls.deque_bound`), else None."""
        if not (isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.args[0], ast.Tuple | ast.List)):
            return None
        if self.stdlib_name(node.func) not in calls.SEQUENCE_CONSTRUCTORS:
            return None
        keywords = [(k.arg, _int_literal(k.value)) for k in node.keywords]
        return node if calls.deque_bound(len(node.args[0].elts), keywords) else None

    def namespace(self, call: ast.Call) -> tuple[str, GeneratedInit] | None:
        """The qualified name of a `namespace` entry `call` builds an object of with keywords only
        (`types.SimpleNamespace(src=a, dst=a)`), with the initializer `stdlib_flow.namespace_init` gives it."""
        name = self.stdlib_name(call.func)
        generated = stdlib_flow.namespace_init(name, len(call.args), [k.arg for k in call.keywords])
        return None if generated is None or name is None else (name, generated)

    def stdlib_name(self, func: ast.expr) -> str | None:
        """The qualified name of a callee for `stdlib_flow` (`max` for an unshadowed builtin), else None."""
        if isinstance(func, ast.Name):
            return self.builtin(func) or (
                found if (found := self.ctx.qualify(func)) is not None and "." in found else None
            )
        return self.ctx.qualify(func)

    def prepass(self, body: Sequence[ast.stmt], params: Sequence[ast.arg]) -> None:
        self.appends, finals = _grown_lists(
            body, lambda v: built[1] if (built := self.built_list(v)) else _repeated_length(v)
        )
        for param in params:
            self.local_names.add(param.arg)
            if self.annotation_is_device(param.annotation):
                self.device.add(param.arg)
                self.declared_device.add(param.arg)
            elif (holder := self.annotation_class(param.annotation)) is not None:
                # `def step(param: Param)`: `param.grad.values` of fields declared `grad: Grad`, `values: Tensor`
                fields = (*self.field_devices(holder, param.arg), *self.method_devices(holder, param.arg))
                self.device.update(fields)
                self.declared_device.update(fields)
        pairs: list[tuple[list[str], ast.expr]] = []
        starred: dict[int, tuple[str, int]] = {}  # pair index -> `_starred_take` of its assignment
        unsure: set[str] = set()
        ring_stores: set[str] = set()  # names `append`ed / `appendleft`ed to: a change in place unless a ring's
        keyed: dict[str, list[calls.ContainerKey]] = {}  # names stored into under literal keys (`heads["k"] = v`)
        launched: list[ast.Call] = []
        for node in _walk(body):
            t = type(node)
            if t is ast.Assign:
                names = [n for target in node.targets for n in self._target_texts(target)]  # type: ignore[attr-defined]
                pairs.append((names, node.value))  # type: ignore[attr-defined]
                if (taken := _starred_take(node.targets, node.value)) is not None:  # type: ignore[attr-defined]
                    starred[len(pairs) - 1] = taken
                called = isinstance(node.value, ast.Call | ast.Await)  # type: ignore[attr-defined]
                for target in node.targets:  # type: ignore[attr-defined]
                    if isinstance(target, ast.Subscript) and (changed := _changed_container(target)) is not None:
                        key = _key_literal(target.slice)
                        if key is not None and not called:
                            # a strong update (`calls.stored_element`); a call's result may be a pending op, which
                            # code given the container runs as a stored item (`calls.store_into`)
                            keyed.setdefault(changed, []).append(key)
                        else:
                            unsure.add(changed)
            elif t is ast.Call:
                launched.append(node)  # type: ignore[arg-type]
                if (changed := _changed_container(node)) is not None and id(node) not in self.appends:
                    if _ring_store(node):
                        ring_stores.add(changed)
                    else:
                        unsure.add(changed)
            elif t is ast.AnnAssign:
                assert isinstance(node, ast.AnnAssign)
                names = list(self._target_texts(node.target))
                if self.annotation_is_device(node.annotation):
                    self.device.update(names)
                if node.value is not None:
                    pairs.append((names, node.value))
            elif t is ast.NamedExpr:
                assert isinstance(node, ast.NamedExpr)
                pairs.append((list(self._target_texts(node.target)), node.value))
            elif t is ast.For or t is ast.AsyncFor:
                assert isinstance(node, ast.For | ast.AsyncFor)
                pairs.append((list(self._target_texts(node.target)), node.iter))
            elif t is ast.withitem:
                assert isinstance(node, ast.withitem)
                if node.optional_vars is not None:
                    pairs.append((list(self._target_texts(node.optional_vars)), node.context_expr))
            elif t is ast.FunctionDef or t is ast.AsyncFunctionDef or t is ast.ClassDef:
                assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                self.local_names.add(node.name)
                if not isinstance(node, ast.ClassDef):
                    self.local_function(node)
            elif t is ast.AugAssign:
                assert isinstance(node, ast.AugAssign)
                unsure.update(_target_names(node.target))
                if (changed := _changed_container(node.target)) is not None:
                    unsure.add(changed)
            elif t is ast.Delete:
                assert isinstance(node, ast.Delete)
                for target in node.targets:
                    unsure.update(_target_names(target))
                    if (changed := _changed_container(target)) is not None:
                        unsure.add(changed)
        for names, _ in pairs:
            self.local_names.update(n for n in names if "." not in n)
        # a container changed only by literal-key stores stays one (`find_containers`); any other rule reads it
        # as changed in place
        changed_otherwise = unsure | ring_stores
        unsure.update(keyed)
        # `history.append(x)` of `history = deque([a, b], maxlen=2)` keeps it a container (`calls.ring_shift`)
        self.rings = set(bound_once(pairs, unsure, self.ring_call))
        unsure.update(ring_stores - self.rings)
        stored = {name: keys for name, keys in keyed.items() if name not in changed_otherwise}
        self.find_callables(body, pairs, unsure)
        self.find_function_values(body, pairs, unsure | {p.arg for p in params})
        self.find_containers(pairs, unsure, starred, body, stored, finals)
        for name, lengths in finals.items():
            container = self.containers.get(name)
            if container is None or container.mapping:
                continue
            longest = max(*lengths, len(container.keys))
            if longest <= calls.MAX_CONTAINER_ITEMS:
                self.containers[name] = replace(container, keys=tuple(range(longest)))
                bindings = sum(1 for names, _ in pairs if name in names)
                if len(set(lengths)) == 1 and bindings == len(lengths):
                    self.splat_lengths[name] = longest
        star = self.unit.node.args.vararg if not isinstance(self.unit.node, ast.Module) else None
        if self.unit.star_items and star is not None and star.arg not in unsure and all(
            star.arg not in names for names, _ in pairs
        ):
            # the `*args` tuple of a call summary's call (`Unit.star_items`): `*args` and `args[i]` are its items
            self.containers[star.arg] = calls.Container(tuple(range(self.unit.star_items)), False)
            self.splat_lengths[star.arg] = self.lengths[star.arg] = self.unit.star_items
        spread = self.unit.node.args.kwarg if not isinstance(self.unit.node, ast.Module) else None
        if self.unit.spread_keys and spread is not None and spread.arg not in unsure and all(
            spread.arg not in names for names, _ in pairs
        ):
            # the `**kwargs` dict of a call summary's call (`Unit.spread_keys`): `kwargs["dry"]` is the item the
            # caller passed as `dry=`, never changed here (a store into it, or a method call on it, is `unsure`)
            self.containers[spread.arg] = calls.Container(self.unit.spread_keys, True)
        self.find_factory_kernels(pairs, unsure | {p.arg for p in params})  # a parameter is the caller's value
        for call in launched:
            # A place passed to a kernel is a device value (the launch refuses anything else).
            if self.launched_kernel(call.func) is not None:
                for arg in call_args(call):
                    text = dotted(arg.value)
                    if text is not None and not arg.star:
                        self.device.add(text)
                    elif not arg.star and (base := _view_base(arg.value)) is not None:
                        # `k(u.partition((128,)))`: what is viewed or partitioned inline is one too, as when the
                        # view is bound first (`parts = u.partition(...)`, below)
                        self.device.add(base)
        for _ in range(4):
            before = len(self.device)
            for names, value in pairs:
                if self.expr_is_device(value):
                    self.device.update(names)
                elif not self.device.isdisjoint(names) and (base := _view_base(value)) is not None:
                    # `lower = buf.view(...)` passed to a kernel: the buffer it views is a device value too
                    self.device.add(base)
            if len(self.device) == before:
                break

    def local_function(self, node: FunctionNode) -> None:
        """A function defined in this body: a kernel (from the prescan's record of where it is defined), or a
        plain helper."""
        name = node.name
        kernel = self.ctx.summary.local_kernels.get(f"{node.lineno}:{name}")
        if kernel is not None:
            self.kernels[name] = kernel
        elif self.ctx.classes.plain(node):  # undecorated, or wrapped by a decorator forwarding its calls
            self.helpers[name] = node
            self.kernels.pop(name, None)

    def find_callables(
        self, body: Sequence[ast.stmt], pairs: Sequence[tuple[list[str], ast.expr]], unsure: set[str]
    ) -> None:
        """Names this body binds once, by `name = value`, to a callable the checker follows at a call of `name`
        (`ownership_check.core.callables`): a lambda (a nested function to the call-summary machinery), the
        function a factory of this module returns (`step = make_step(stream)`), a `functools.partial` of a launch,
        a kernel or a function.  A name bound any other way too (a loop, `del`, an import, `global`) is not one."""
        counts: dict[str, int] = {}
        for names, _ in pairs:
            for name in names:
                counts[name] = counts.get(name, 0) + 1
        excluded = set(unsure)
        candidates: list[tuple[str, ast.expr]] = []
        loops: list[tuple[callables.LoopTarget, callables.LoopSource]] = []
        for node in _walk(body):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                # `again: Callable[[], None] = lambda: ...` too (mypy's `AssignmentStmt` is either)
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if len(targets) == 1 and isinstance(target := targets[0], ast.Name):
                    if counts.get(target.id) == 1 and isinstance(
                        node.value, ast.Lambda | ast.Call | ast.ListComp | ast.Subscript | ast.List | ast.Tuple
                    ):
                        candidates.append((target.id, node.value))
            elif isinstance(node, ast.For | ast.AsyncFor):
                loops.append((_loop_target(node.target), self.loop_source(node.iter)))
            elif isinstance(node, _SCOPES) and not isinstance(node, ast.Lambda):
                excluded.add(node.name)
            elif isinstance(node, ast.Global | ast.Nonlocal):
                excluded.update(node.names)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                excluded.update(a.asname or a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ExceptHandler) and node.name is not None:
                excluded.add(node.name)
        built: dict[str, ast.Call] = {}  # a list comprehension of partials: its element, by the list's name
        for name, value in candidates:
            if name in excluded:
                continue
            if isinstance(value, ast.Lambda):
                self.helpers[name] = self.ctx.lambda_function(value)
                self.lambdas[id(value)] = name
            elif isinstance(value, ast.ListComp):
                if isinstance(value.elt, ast.Call) and self.partial_call(value.elt):
                    built[name] = value.elt
            elif not isinstance(value, ast.Call):
                continue
            elif self.partial_call(value):
                self.partials[name] = value
                self.partial_names[id(value)] = name
            elif isinstance(value.func, ast.Name) and (factory := self.helper(value.func.id)) is not None:
                made = _returned_function(factory, self.ctx)
                if made is not None:
                    self.made[name] = made
                    self.factory_calls[name] = value
        once_bound = {name: value for name, value in candidates if name not in excluded}
        for name, value in once_bound.items():
            if isinstance(value, ast.Subscript) and name not in self.partials:
                self.partial_of_item(name, value, once_bound)
        self.host_arrays = {
            name for name, value in once_bound.items()
            if isinstance(value, ast.Call) and (self.ctx.qualify(value.func) or "").startswith("numpy.")
        }

        def once(name: str) -> bool:
            return counts.get(name) == 1 and name not in excluded and name not in self.partials

        for name, (call, owner) in callables.partial_items(loops, built, once).items():
            # `for i, (step, grad) in enumerate(zip(steppers, grads))` of `steppers = [partial(k.launch, ...) for
            # ...]`: `step` is the partial, its bound arguments those the comprehension keeps under `steppers`
            self.partials[name] = call
            self.partial_slots[name] = owner
            self.partial_names[id(call)] = owner

    def partial_of_item(self, name: str, value: ast.Subscript, once_bound: Mapping[str, ast.expr]) -> None:
        """`name = seq[i]` of a name `seq` bound once to a list/tuple display of partials here (`[partial(k.launch,
        p, s)]`), or to a call of a helper whose one `return` is such a display (`callables.partial_of_item`): `name`
        is that item's partial.  A display's item keeps its bound arguments in its own slots (`seq$e0`); a helper's
        are the helper's objects, unknown here, and its target must be no name the helper binds."""
        seq, index = value.value, _int_literal(value.slice)
        source = once_bound.get(seq.id) if isinstance(seq, ast.Name) else None
        items: list[ast.expr] = []
        helper: FunctionNode | None = None
        if isinstance(source, ast.List | ast.Tuple):
            items = source.elts
        elif isinstance(source, ast.Call) and isinstance(source.func, ast.Name):
            helper = self.helper(source.func.id)
            found = _returned_displays(helper) if helper is not None else None
            if found is None or len(found) != 1 or found[0][1]:
                return
            items = [item for _, item in found[0][0]]
        if isinstance(seq, ast.Name) and any(isinstance(item, ast.Starred) for item in items):
            return
        taken = callables.partial_of_item(
            [i if isinstance(i, ast.Call) and self.partial_call(i) else None for i in items], index
        )
        if taken is None or not isinstance(seq, ast.Name):
            return
        call, position = taken
        if helper is not None:
            root = (dotted(call.args[0]) or "").split(".")[0]
            if not root or root in _bound_names(helper) or root in self.local_names:
                return
            self.partials[name] = call  # its slots, under `name`, are never bound here: objects of the helper's
            return
        owner = f"{seq.id}$e{position}"
        self.partials[name] = call
        self.partial_slots[name] = owner
        self.partial_names[id(call)] = owner  # the display binds the item's slots where it is evaluated

    def partial_call(self, value: ast.Call) -> bool:
        """A `functools.partial(target, ...)` call the checker follows: a target, no starred or `**` argument."""
        return (
            self.ctx.qualify(value.func) in callables.PARTIAL_FUNCTIONS
            and bool(value.args)
            and not any(isinstance(a, ast.Starred) for a in value.args)
            and all(k.arg is not None for k in value.keywords)
        )

    def loop_source(self, node: ast.expr) -> callables.LoopSource:
        """What a `for` iterates, as `callables.item_sources` reads it: a name, the builtin `zip` or `enumerate` of
        such sources; None for anything else."""
        if isinstance(node, ast.Name):
            return node.id
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        builtin = self.builtin(node.func)
        if builtin == "zip" and all(k.arg == "strict" for k in node.keywords):
            return "zip", tuple(self.loop_source(a) for a in node.args)
        if builtin == "enumerate" and len(node.args) == 1 and all(k.arg == "start" for k in node.keywords):
            return "enumerate", (self.loop_source(node.args[0]),)
        return None

    def function_value(self, node: ast.expr) -> list[FunctionNode | None] | None:
        """The functions of the module an expression bound to a name may be (`callables.bound_functions`): the
        function a name refers to, each operand of a conditional expression; None for anything else."""
        if isinstance(node, ast.IfExp):
            body, orelse = self.function_value(node.body), self.function_value(node.orelse)
            return None if body is None or orelse is None else body + orelse
        if not isinstance(node, ast.Name):
            return None
        found = self.helper(node.id)
        return [found if found is not None and self.ctx.classes.runs_when_called(found) else None]

    def registered_functions(self, node: ast.expr, targets: int) -> tuple[FunctionNode, ...] | None:
        """The functions a `for` over a registry of the module takes its last target from: `for fn in PASSES`,
        `PASSES.values()` (one target), `for name, fn in PASSES.items()` (two), of a module name no local binding
        shadows (`FileContext.registries`), or of an attribute registry of the receiver's class (`for hook in
        self.hooks`, `FileContext.attribute_registries`); else None."""
        method = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
            method, node = node.func.attr, node.func.value
        if (method, targets) not in ((None, 1), ("values", 1), ("items", 2)):
            return None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            # `for hook in self.hooks` of an attribute registry of the receiver's class
            cls = receiver_class(self, node.value.id)
            return self.ctx.attribute_registries.get((cls.name, node.attr)) if cls is not None else None
        if not isinstance(node, ast.Name) or node.id in self.local_names:
            return None
        return self.ctx.registries.get(node.id)

    def registry_items(self, node: ast.expr, target: ast.expr) -> tuple[ast.expr, ...] | None:
        """A `for` over a registry of the module's functions (`registered_functions`) as the display of them it
        iterates like: `(run_a, run_b)`, or `(("", run_a), ("", run_b))` for `.items()` (the keys are no
        places).  The nodes are made once per loop and kept, as the lowering keys nodes by identity."""
        made = self._registry_items.get(node)
        if made is not None:
            return made
        count = len(target.elts) if isinstance(target, ast.Tuple | ast.List) else 1
        functions = self.registered_functions(node, count)
        if functions is None or any(f.name in self.local_names for f in functions):
            return None

        def item(function: FunctionNode) -> ast.expr:
            name = ast.copy_location(ast.Name(function.name, ast.Load()), node)
            if count == 1:
                return name
            return ast.copy_location(ast.Tuple([ast.copy_location(ast.Constant(""), node), name], ast.Load()), node)

        made = self._registry_items[node] = tuple(item(f) for f in functions)
        self._registry_nodes.append(node)  # keeps `id(node)` this loop's
        return made

    def find_function_values(
        self, body: Sequence[ast.stmt], pairs: Sequence[tuple[list[str], ast.expr]], unsure: set[str]
    ) -> None:
        """Names bound only to functions of the module (`fn = run_a`, `fn = run_a if c else run_b`, `for fn in
        (run_a, run_b)`), and names bound once to a dict display of them under literal keys (`passes = {"a":
        run_a}`): a call through one runs one of them (`callables.bound_functions`, `registry_functions`)."""
        loops = {id(n.iter) for n in _walk(body) if isinstance(n, ast.For)}
        bindings: dict[str, list[list[FunctionNode | None] | None]] = {}
        registries: dict[str, list[dict[object, FunctionNode] | None]] = {}
        for names, value in pairs:
            options: list[FunctionNode | None] | None = None
            registry: dict[object, FunctionNode] | None = None
            registered = self.registered_functions(value, len(names)) if id(value) in loops else None
            if registered is not None:
                # `for fn in PASSES.values()`, `for name, fn in PASSES.items()` of a registry of the module's
                # functions (`call_targets.module_registries`): the item is one of them
                for name in names[:-1]:
                    bindings.setdefault(name, []).append(None)
                    registries.setdefault(name, []).append(None)
                bindings.setdefault(names[-1], []).append(list(registered))
                registries.setdefault(names[-1], []).append(None)
                continue
            if len(names) == 1 and id(value) in loops:
                if isinstance(value, ast.Tuple | ast.List | ast.Set) and value.elts:
                    found = [self.function_value(e) for e in value.elts]
                    options = None if any(f is None or len(f) != 1 for f in found) else [f[0] for f in found if f]
            elif len(names) == 1:
                options = self.function_value(value)
                if isinstance(value, ast.Dict) and all(k is not None for k in value.keys):
                    keys = [_key_literal(k) for k in value.keys]
                    found = [self.function_value(v) for v in value.values]
                    if all(k is not None for k in keys) and all(f is not None and len(f) == 1 for f in found):
                        registry = callables.registry_functions(
                            [(k, f[0]) for k, f in zip(keys, found, strict=True) if f]
                        )
            for name in names:
                bindings.setdefault(name, []).append(options)
                registries.setdefault(name, []).append(registry)
        for name, options_list in bindings.items():
            if name in unsure or "." in name or name in self.helpers or name in self.made:
                continue
            functions = callables.bound_functions(options_list)
            if functions is not None:
                self.function_choices[name] = tuple(
                    f for f in functions if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
                )
            held = registries[name]
            if len(held) == 1 and held[0] is not None:
                self.function_registries[name] = held[0]

    def find_containers(
        self,
        pairs: Sequence[tuple[list[str], ast.expr]],
        unsure: set[str],
        starred: Mapping[int, tuple[str, int]] | None = None,
        body: Sequence[ast.stmt] = (),
        stored: Mapping[str, Sequence[calls.ContainerKey]] | None = None,
        grown: Mapping[str, Sequence[int]] | None = None,
    ) -> None:
        """Names bound only by plain assignments of displays and never changed in place (`pair = (a, c)`,
        `bufs = {"out": c}`): `pair[1]` is `c`, `bufs["out"]` is `c` (`calls.Container`); also by a list
        comprehension of known length, as the starred target of unpacking a display (`starred`), or by a dict
        comprehension, whose items are new values under the literal keys `body` subscripts the name with
        (`bufs["hidden"]` twice is one object).  `stored`: names (in `unsure`) changed only by stores under
        literal keys (`heads["k"] = v`), which stay containers when they hold those keys (`calls.keeps_stores`):
        each such store rebinds that item (`target`).  `grown`: the lengths lists reach by appends
        (`calls.find_container`)."""
        kept = dict(stored or {})
        grown = grown or {}
        subscripted: dict[str, list[calls.ContainerKey]] | None = None
        displays: dict[str, list[tuple[tuple[calls.ContainerKey, ...], bool] | None]] = {}
        inner: dict[str, list[dict[calls.ContainerKey, int]]] = {}  # per binding: nested display lengths by key

        def keyed_list(value: ast.expr) -> ast.Tuple | ast.List | None:
            keyed = isinstance(value, ast.Tuple | ast.List) and all(_key_literal(el) is not None for el in value.elts)
            return value if keyed and isinstance(value, ast.Tuple | ast.List) else None

        def display_registry(value: ast.expr) -> list[tuple[calls.ContainerKey, ast.expr]] | None:
            found = self.display_items(value)
            return found[0] if found is not None and found[1] else None

        def kept_iterator(value: ast.expr) -> ast.Call | None:
            keeps = isinstance(value, ast.Call) and stdlib_flow.keeps_items(self.stdlib_name(value.func)) is not None
            return value if keeps and isinstance(value, ast.Call) else None

        # names bound once to a value of each kind (`bound_once`, the plugin's rule too)
        self.key_lists = bound_once(pairs, unsure, keyed_list)
        self.registries = bound_once(pairs, unsure, display_registry)
        # a dict display bound once whose items keep their order: also through literal-key stores (`mapping_items`),
        # or a dict comprehension over literal keys (`comprehension_keys`)
        self.ordered = set(bound_once(
            pairs, unsure - kept.keys(), lambda v: display_registry(v) or self.comprehension_keys(v)
        ))
        self.iterators = bound_once(pairs, unsure, kept_iterator)
        self.factories = {
            name: body
            for name, body in bound_once(pairs, unsure, self.factory_body).items()
            # a name bound at most once here: the object the factory gives stays one
            if isinstance(body, ast.Name) and sum(body.id in names for names, _ in pairs) <= 1
        }
        self.generators = bound_once(pairs, unsure, self.generator_call)
        self.getters = bound_once(pairs, unsure, _getter_value)
        # a sequence display of one place bound once, never changed (`bufs = [buf, buf]`): any item is that place
        self.uniform = set(bound_once(pairs, unsure, self.uniform_display))
        shared = bound_once(pairs, unsure, self.shared_item_reads)
        self.loop_item_reads = {
            target: shared[listed] for target, listed in _loop_targets(body, self.builtin).items() if listed in shared
        }
        for index, (names, value) in enumerate(pairs):
            star = starred.get(index) if starred is not None else None
            if star is not None:
                displays.setdefault(star[0], []).append((tuple(range(star[1])), False))
            for option in _display_options(value) or (value,):
                found = self.display_items(option)
                shape = (tuple(k for k, _ in found[0]), found[1]) if found is not None else None
                if shape is None and (built := self.built_list(option)) is not None:
                    shape = (tuple(range(built[1])), False)
                if shape is None and (repeated := _repeated_display(option)) is not None:
                    shape = (tuple(range(len(repeated.order))), False)  # `[c] * 3`: one item per index
                if shape is None and (returned := self.returned_displays(option)) is not None:
                    # `params = init_params(w)` of a helper returning `{"gamma": ..., "beta": ...}`
                    shape = (tuple(dict.fromkeys(k for items in returned[0] for k, _ in items)), returned[1])
                for name in names:
                    if star is not None and name == star[0]:
                        continue
                    if len(names) != 1 or "." in name:
                        unsure.add(name)
                        kept.pop(name, None)
                    else:
                        if shape is None and (registry := self.registry_comprehension(option)) is not None:
                            shape = (tuple(registry[1]), True)  # one item per registry key
                        if shape is None and (in_order := self.comprehension_keys(option)) is not None:
                            shape = (in_order, True)  # `{name: make(name) for name in "qkv"}`: its keys in order
                        if shape is None and isinstance(option, ast.DictComp):
                            if subscripted is None:
                                subscripted = _literal_subscripts(body)
                            keys = subscripted.get(name)
                            shape = (tuple(keys), True) if keys else None
                        displays.setdefault(name, []).append(shape)
                        inner.setdefault(name, []).append(
                            {k: len(sub) for k, item in found[0] if (sub := _nested_display(item)) is not None}
                            if found is not None
                            else {}
                        )
        self.containers = {
            n: calls.find_inner(c, inner.get(n, []))
            for n, d in displays.items()
            if (n not in unsure or n in kept) and (plain := calls.find_container(d, grown.get(n, ()))) is not None
            and (c := calls.with_stores(plain, kept.get(n, ()))) is not None
        }
        for name, container in self.unit.outer_containers.items():
            # a captured container (`bufs[2]` in a nested function): its items are the caller's values
            if name not in self.local_names and name not in unsure:
                self.containers.setdefault(name, container)

    def shared_item_reads(self, node: ast.expr) -> dict[calls.ContainerKey, ast.expr] | None:
        """A list/tuple display whose items are all mappings (dict displays, `ChainMap(...)`: `display_items`),
        by each key whose item in every one reads one registry (`registries`, never changed) under that key: that
        read (`ChainMap({"name": "h1"}, defaults)` and `ChainMap({"name": "h2"}, defaults)` both give `defaults["bias"]`
        under "bias"), what any item of the list gives there; None when no key is so shared."""
        if not isinstance(node, ast.List | ast.Tuple) or not node.elts:
            return None
        per_item: list[dict[calls.ContainerKey, ast.expr]] = []
        for item in node.elts:
            shown = self.display_items(item) if not isinstance(item, ast.Starred) else None
            if shown is None or not shown[1]:
                return None
            per_item.append(dict(shown[0]))
        shared: dict[calls.ContainerKey, ast.expr] = {}
        for key, read in per_item[0].items():
            reads = [entries.get(key) for entries in per_item]
            registry = {
                r.value.id if isinstance(r, ast.Subscript) and isinstance(r.value, ast.Name)
                and _key_literal(r.slice) == key and r.value.id in self.registries else None
                for r in reads
            }
            if len(registry) == 1 and None not in registry:
                shared[key] = read
        return shared or None

    def comprehension_keys(self, node: ast.expr) -> tuple[calls.ContainerKey, ...] | None:
        """The keys of a dict comprehension keyed by its one loop target over literal keys, without `if`: a string
        literal's characters, a tuple/list display of key literals, or a name bound once to one (`key_lists`), in
        order (`calls.comprehension_keys`); else None."""
        if not isinstance(node, ast.DictComp) or len(node.generators) != 1:
            return None
        comp = node.generators[0]
        if comp.ifs or comp.is_async or not isinstance(comp.target, ast.Name):
            return None
        source = self.key_lists.get(comp.iter.id, comp.iter) if isinstance(comp.iter, ast.Name) else comp.iter
        iterated: list[calls.ContainerKey | None] | None = None
        if isinstance(source, ast.Constant) and type(source.value) is str:
            iterated = list(source.value)
        elif (items := self.literal_display(source)) is not None:
            iterated = [_key_literal(item) for item in items]
        keyed = isinstance(node.key, ast.Name) and node.key.id == comp.target.id
        return calls.comprehension_keys(keyed, iterated)

    def built_list(self, node: ast.expr) -> tuple[ast.ListComp, int, tuple[ast.expr, ...] | None] | None:
        """A list comprehension whose items can be named (`calls.assign_built_list`): one `for` and no `if` over a
        tuple/list display (its items, none spelled like the target) or over `range` of integer literals; with
        the number of items it builds, and the display's items."""
        if not isinstance(node, ast.ListComp) or len(node.generators) != 1:
            return None
        comp = node.generators[0]
        if comp.ifs or comp.is_async:
            return None
        items = self.literal_display(comp.iter)
        if items is not None:
            names = set(_target_names(comp.target))
            if not names.isdisjoint(n for item in items for n in _item_roots(item)):
                return None
            return node, len(items), items
        if (
            isinstance(comp.iter, ast.Call)
            and self.builtin(comp.iter.func) == "range"
            and not comp.iter.keywords
            and (count := calls.range_length([_int_literal(a) for a in comp.iter.args])) is not None
        ):
            return node, count, None
        return None

    def find_factory_kernels(self, pairs: Sequence[tuple[list[str], ast.expr]], unsure: set[str]) -> None:
        """Names bound only by calls of kernel factories that all return one kernel (`offset =
        make_offset_kernel()`, once or again in a branch or a loop), or by the name of a kernel of the module
        (`kernel = shift`): they are that kernel (`calls.factory_kernel` over the bindings)."""
        bindings: dict[str, list[KernelSummary | None]] = {}
        for names, value in pairs:
            kernel: KernelSummary | None = None
            if len(names) == 1 and isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                helper = self.helper(value.func.id)
                kernel = self.factory_kernel(helper) if helper is not None else None
            elif len(names) == 1 and isinstance(value, ast.Name) and value.id not in self.local_names:
                # `kernel = shift`: a local alias of a kernel of the module (`calls.factory_kernel`'s rule: bound
                # only so, to one kernel, it launches as that kernel)
                aliased = self.ctx.kernel(value)
                kernel = aliased[1] if aliased is not None else None
            for name in names:
                bindings.setdefault(name, []).append(kernel)
        for name, kernels in bindings.items():
            if name in unsure or "." in name:
                continue
            found = calls.factory_kernel(kernels)
            if found is not None:
                self.kernels[name] = found

    def factory_kernel(self, func: FunctionNode) -> KernelSummary | None:
        """The kernel a plain function returns on every `return`: a kernel defined in its own body, or None."""
        defined = {
            node.name: node
            for node in _walk(func.body)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.decorator_list
        }
        returned = [
            node.value.id if isinstance(node.value, ast.Name) else None
            for node in _walk(func.body)
            if isinstance(node, ast.Return)
        ]
        found = [
            self.ctx.summary.local_kernels.get(f"{defined[name].lineno}:{name}") if name in defined else None
            for name in returned
        ]
        return calls.factory_kernel(found)

    def launched_kernel(self, func: ast.expr) -> KernelSummary | None:
        """The kernel a call's callee launches (`k(...)`, `k.launch(...)`, ...), or None."""
        found = self.kernel_of(func)
        if found is not None:
            return found
        if isinstance(func, ast.Attribute):
            receiver = self.kernel_of(func.value)
            if receiver is not None and launch_form(receiver.track, receiver.autotuned, func.attr) is not None:
                return receiver
        return None

    def kernel_of(self, node: ast.AST) -> KernelSummary | None:
        """The kernel `node` names: one defined in this function (or an enclosing one), or a module's (or the one
        a launch on a receiver chosen among several is being lowered for, `kernel_choices`)."""
        forced = self.forced_kernels.get(id(node)) if self.forced_kernels else None
        if forced is not None:
            return forced
        if isinstance(node, ast.Name):
            local = self.kernels.get(node.id)
            if local is not None:
                return local
            if node.id in self.local_names and self.unit.kind != "module":
                return None  # a local binding shadows the module's name (a module's own names are its kernels)
        found = self.ctx.kernel(node)
        return found[1] if found is not None else None

    def shared_array_params(self, node: FunctionNode) -> None:
        """Kernel code: a parameter annotated `SharedArray[T]` is a shared array (element access needs unsafe).
        Host code: one annotated `SharedDeviceOp` is a shared op (launches read it, never move it)."""
        names = SHARED_ARRAY_ANNOTATIONS if self.kernel_body else SHARED_OP_ANNOTATIONS
        passed = self.ctx.shared_array_positions(node.name) if self.kernel_body and not node.args.vararg else ()
        for index, param in enumerate([*node.args.posonlyargs, *node.args.args]):
            if index in passed and (param.annotation is None or self.ctx.qualify(param.annotation) == "typing.Any"):
                # an unannotated (or `Any`) parameter of a device helper its caller passes a shared array
                self.emit(ir.Bind((ir.Place(self.name(param.arg)),), (ir.Fresh("shared_array"),),
                                  self.ctx.token_span(_Token(param.arg, param, "arg"))))
                self.interesting = True
        for param in _param_names(node.args):
            annotation = param.annotation
            if annotation is None:
                continue
            head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
            name = dotted(head)
            qualified = self.ctx.qualify(head) if name is not None else None
            if name is None or (qualified or name).rsplit(".", 1)[-1] not in names:
                continue
            if not self.kernel_body and (qualified is None or not qualified.startswith("safekernels.")):
                continue  # another library's class of that name
            place = ir.Place(self.name(param.arg))
            start = self.ctx.token_span(_Token(param.arg, param, "arg"))
            end = self.span(annotation)  # `buf: SharedArray[T]`
            span = Span(start.line, start.column, end.end_line, end.end_column)
            self.emit(ir.Bind((place,), (ir.Fresh("shared_array" if self.kernel_body else "shared_op"),), span))
            self.interesting = True  # its element accesses may need unsafe; launches do not move it

    def _target_texts(self, target: ast.AST) -> Iterator[str]:
        if isinstance(target, ast.Name | ast.Attribute):
            text = dotted(target)
            if text:
                yield text
        elif isinstance(target, ast.Tuple | ast.List):
            for el in target.elts:
                yield from self._target_texts(el)
        elif isinstance(target, ast.Starred):
            yield from self._target_texts(target.value)

    def is_host_array(self, place: ir.Place) -> bool:
        """Whether `place` is a name bound once to a numpy call here (`counts = np.zeros(n, np.int32)`)."""
        return not place.attrs and place.root in self.host_arrays

    def mark_device(self, place: ir.Place) -> None:
        """`place` holds a device value from here on (`calls.lower_call`: an op a helper returned with loans)."""
        self.device.add(place.key)

    def is_device_text(self, text: str) -> bool:
        """Whether the dotted place `text` (or the name it starts with) is device-like here."""
        return text in self.device or text.split(".")[0] in self.device

    def is_device_place(self, node: ast.AST) -> bool:
        text = dotted(node)
        if text is None:
            return False
        if text in self.device or text.split(".")[0] in self.device:
            return True
        if "." in text and self.ctx.classes.with_views:
            # a property that is an attribute (`layer.output` is `layer._out`): that attribute's device-likeness
            place = self.place(node)
            return place is not None and ".".join((text.split(".")[0], *place.attrs)) in self.device
        return False

    # --- entry points ---------------------------------------------------------------------------------------

    def lower(self) -> ir.Function:
        node = self.unit.node
        self.keyed_reads = {} if self.kernel_body else keyed_mentions.read_keys(_walk(node.body), self.key_names)
        if isinstance(node, ast.Module):
            self.prepass(node.body, ())
            ops = self.block(lambda: self.suite(node.body))
            return ir.Function(self.unit.name, ops, Span(1, 1, 1, 2), self.ctx.path)
        self.prepass(node.body, _param_names(node.args))

        def lower_body() -> None:
            self.shared_array_params(node)
            if node.args.args:
                receiver = node.args.args[0].arg
                for attr, kernels in sorted(self.unit.class_brands.items()):
                    # the prepared launch `__init__` stored there (see `init_brands`)
                    span = self.ctx.token_span(_Token(receiver, node.args.args[0], "arg"))
                    self.emit(init_state.brand_binding(self.name(receiver), attr, kernels, span))
                for attr, sources in self.unit.class_aliases:
                    # `__init__` made `self.attr` the object `self.source` is (see `init_aliases`)
                    span = self.ctx.token_span(_Token(receiver, node.args.args[0], "arg"))
                    self.emit(init_state.alias_binding(self.name(receiver), attr, sources, span))
                span = self.ctx.token_span(_Token(receiver, node.args.args[0], "arg"))
                items = self.unit.class_items if node.name != "__init__" else {}  # `__init__` binds its own
                for op in init_state.stored_items(self.name(receiver), items, span, not self.unit.summarizing):
                    self.emit(op)  # the displays of prepared launches `__init__` stored (see `init_items`)
                device = functools.partial(_attribute_device, self, receiver)
                for base in init_state.device_bases(self.unit.init_facts, device):
                    self.device.add(f"{receiver}.{base}")  # a view passed to a kernel: its base is a device value
                for op in init_state.method_start(self.unit.init_facts, self.name(receiver), span, device):
                    self.emit(op)  # what `__init__` left on `self` (see `init_facts`)
            self.suite(node.body)

        ops = self.block(lower_body)
        if self.memo.first_binds:
            ops = earlier_runs(ops, self.memo, node.name, lambda: self.runs_again(node))
        escaping = frozenset(
            name for sub in _walk(node.body) if isinstance(sub, ast.Global | ast.Nonlocal) for name in sub.names
        ) | _kept_by_closures(node)
        span = self.unit.span or self.ctx.def_name_span(node)
        function = ir.Function(self.unit.name, ops, span, self.ctx.path, escaping, frozenset(self.declared_device))
        return self.with_earlier_call(function, node)

    def with_earlier_call(self, function: ir.Function, node: FunctionNode) -> ir.Function:
        """`function`, the IR of `node`, as checked when `node` is a function nested in another that lets it escape
        (`_escapes`): after an earlier call of it, which may have left its `nonlocal` names moved (`reentry`)."""
        enclosing = self.unit.enclosing
        if enclosing is None:
            return function
        declared = [name for sub in _walk(node.body) if isinstance(sub, ast.Nonlocal) for name in sub.names]
        declared += [name for name in _captured(node, enclosing) if name not in declared]
        if not declared or not _escapes(node, enclosing):
            return function
        effects = nonlocal_effects(function, declared, [p.arg for p in _param_names(node.args)])
        first = reentry.earlier_call(effects, declared, node.name, self.temp)
        return function if first is None else replace(function, body=(first, *function.body))

    def runs_again(self, node: ast.AST) -> bool:
        """Whether `node`, a function of the module's top level or a method of one of its classes, may run again
        (`memo.runs_again`): the module names it (a method: any attribute of its name) at two places or more, or at
        one inside a loop's body or a comprehension's repeated part (`memo.earlier_runs`)."""
        if not isinstance(node, _FUNCTION_DEFS):
            return False
        named: list[ast.expr]
        if self.ctx.functions.get(node.name) is node:
            named = [
                sub for sub in all_nodes(self.ctx.module)
                if isinstance(sub, ast.Name) and sub.id == node.name and isinstance(sub.ctx, ast.Load)
            ]
        elif id(node) in self.ctx.classes.owner:
            named = [
                sub for sub in all_nodes(self.ctx.module)
                if isinstance(sub, ast.Attribute) and sub.attr == node.name and isinstance(sub.ctx, ast.Load)
            ]
        else:
            return False
        if len(named) != 1:
            return runs_again([False] * len(named))
        return runs_again([any(named[0] in parts for parts in _repeated_parts(self.ctx.module))])

    # --- statements -----------------------------------------------------------------------------------------

    def suite(self, body: Sequence[ast.stmt]) -> None:
        outer, outer_previous = self.current_statement, self.previous_statement
        previous: ast.stmt | None = None
        for stmt in body:
            self.current_statement, self.previous_statement, previous = stmt, previous, stmt
            self.computed.begin(item_statement(stmt, self.builtin), self.scopes[-1])
            forget = self.forgotten_items(stmt)
            before = keyed_mentions.compound(stmt)
            if before:
                for op in forget:
                    self.emit(op)
            try:
                if self.stepping and isinstance(stmt, _STEP_STATEMENTS) and self.one_step(stmt):
                    caught = not self.narrow or self.raises_caught(stmt)
                    for stepped in ir.step(self.block(functools.partial(self.stmt, stmt)), self.span(stmt), caught):
                        self.emit(stepped)
                else:
                    self.stmt(stmt)
            finally:
                self.computed.end()
            if not before:
                for op in forget:
                    self.emit(op)
        self.current_statement, self.previous_statement = outer, outer_previous

    def one_step(self, stmt: ast.stmt) -> bool:
        """Whether an exception `stmt` raises leaves it before its launches took anything or after it rebound its
        targets (`ir.step`): it calls no `then` (whose callback runs inside `sync_on`, after the launch moved its
        arguments) and no function or method of the module that raises on purpose (`raising_functions`: it may
        raise after its own launch).  A launch refuses before it takes its arguments; a failure of the device
        itself inside `sync_on` is not modelled."""
        raising = self.ctx.raising_functions
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
                if name in CALLBACK_METHODS or name in raising:
                    return False
        return True

    def guarded_suite(self, body: Sequence[ast.stmt], narrow: bool = False) -> None:
        """The body of a `try` or `with`: each simple statement one step for the exception edges (`ir.step`).
        `narrow`: the `try`'s handlers catch only exception classes of the module (`narrow_handlers`)."""
        self.stepping += 1
        outer = self.narrow
        self.narrow = narrow
        try:
            self.suite(body)
        finally:
            self.stepping -= 1
            self.narrow = outer

    def narrow_handlers(self, node: ast.Try) -> bool:
        """Whether every handler of `node` names only exception classes defined in this module (`except
        ThinPaint:`), which nothing but the module's own code raises, and the module's functions that may raise
        one are known by name (`FileContext.throwing_names`)."""
        if not node.handlers or self.ctx.throwing_names is None:
            return False
        classes = self.ctx.classes.classes
        caught_classes: list[ast.ClassDef] = []
        for handler in node.handlers:
            caught = handler.type
            names = caught.elts if isinstance(caught, ast.Tuple) else [caught] if caught is not None else []
            if not names or not all(isinstance(n, ast.Name) and n.id in classes and n.id not in self.local_names
                                    for n in names):
                return False
            caught_classes.extend(classes[n.id] for n in names if isinstance(n, ast.Name))
        # the class (or a subclass it catches) handed to other code as a value could be raised there
        handed = self.ctx.exceptions_handed_out
        return not any(
            c.name in handed or any(sub.name in handed for sub in self.ctx.classes.subclasses(c))
            for c in caught_classes
        )

    def raises_caught(self, stmt: ast.stmt) -> bool:
        """Whether `stmt` may raise an exception of a class of the module: it names a function that may
        (`FileContext.throwing_names`)."""
        throwing = self.ctx.throwing_names
        if throwing is None:
            return True
        for node in ast.walk(stmt):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            if name in throwing:
                return True
        return False

    def forgotten_items(self, stmt: ast.stmt) -> tuple[ir.Bind, ...]:
        """The items under literal keys `stmt` may change (`keyed_items.forgotten`): rebound to new objects after
        it (a compound statement: before its body)."""
        if not self.keyed_reads:
            return ()
        return keyed_items.forgotten(
            keyed_mentions.mentions(stmt, self.builtin, self.reading_method), self.keyed_reads,
            self.dotted_place, self.span(stmt),
        )

    def reading_method(self, call: ast.Call) -> frozenset[str] | None:
        """The receiver's attributes `obj.method(...)` may change, for each class the receiver may be, when that
        is all it may change (`_receiver_changes`): the receiver's other items stay what they were; else None."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)) or not self.ctx.classes.classes:
            return None
        candidates = receiver_classes(self, func.value.id)
        if not candidates:
            return None
        changed: set[str] = set()
        for cls in candidates:
            method = self.ctx.classes.method(cls, func.attr)
            found = _receiver_changes(method, self.allocates) if method is not None else None
            if found is None:
                return None
            changed |= found
        return frozenset(changed)

    def stmt(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Expr):
            grown = self.appends.get(id(node.value))
            if grown is not None and grown[0] in self.containers:
                raw, first, items = grown
                assert isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
                self.expr(node.value.func.value)
                targets = tuple(
                    calls.container_element(self.name(raw), raw, self.containers[raw], first + i)
                    for i in range(len(items))
                )
                values = tuple(self.value(item, target) for item, target in zip(items, targets, strict=True))
                self.emit(ir.Bind(targets, values, self.span(node.value)))
                self.lengths[raw] = first + len(items)
            elif isinstance(node.value, ast.Call):
                call = node.value
                calls.discard_result(self.call(call, None), call, self.span(call), callee_text(call.func), self)
            elif isinstance(node.value, ast.Yield) and isinstance(node.value.value, ast.Call):
                # `yield k.launch_async(...)`: the op's loans are the caller's where it takes the item
                self.call(node.value.value, ir.Place(ir.RETURN_HOLDER))
            elif (
                isinstance(node.value, ast.Yield)
                and isinstance(node.value.value, ast.Tuple)
                and not any(isinstance(e, ast.Starred) for e in node.value.value.elts)
            ):
                # `yield out, k.launch_async(...)`: what each part is, for the caller's loop unpacking the item
                parts = [functools.partial(self.value, e) for e in node.value.value.elts]
                calls.yield_parts(parts, self.span(node.value), self)
            else:
                self.expr(node.value)
        elif isinstance(node, ast.Assign):
            self.assign_statement(node.targets, node.value)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.assign_statement([node.target], node.value)
        elif isinstance(node, ast.AugAssign):
            self.expr(node.value)
            self.expr(node.target)
        elif isinstance(node, ast.Return):
            if isinstance(node.value, ast.Call):
                result = self.call(node.value, ir.Place(ir.RETURN_HOLDER))  # a returned op's loans: the caller's
                calls.returned_result(result, self.span(node.value), self)
            elif isinstance(node.value, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in node.value.elts):
                # `return staged, k.launch_async(prep, x, staged)`: what each part is, for the caller
                parts = [functools.partial(self.value, e) for e in node.value.elts]
                calls.yield_parts(parts, self.span(node.value), self, returned=True)
            elif node.value is not None and (repeated := _repeated_display(node.value)) and repeated.counted:
                # `return [sk.zeros(...)] * 2`: the parts repeat one object (`calls.repeated_parts`)
                calls.yield_parts(calls.repeated_parts(repeated, self.value, self.span(node.value)),
                                  self.span(node.value), self, returned=True)
            elif isinstance(node.value, ast.ListComp | ast.SetComp | ast.DictComp):
                # `return [k.launch_async(p, x, out) for ...]`: each op is pending while the next one is built
                self.value(node.value, ir.Place(ir.RETURN_HOLDER))
            elif node.value is not None:
                self.expr(node.value)
                if isinstance(node.value, ast.Name) and (returned := self.place(node.value)) is not None:
                    calls.return_name(returned, self.span(node.value), self)
            self.emit(ir.Return(self.span(node)))
        elif isinstance(node, ast.Raise):
            if node.exc is not None:
                self.expr(node.exc)
            if node.cause is not None:
                self.expr(node.cause)
            self.emit(ir.Raise(self.span(node)))
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                self.delete(target)
        elif isinstance(node, ast.Break):
            self.emit(ir.Break(self.span(node)))
        elif isinstance(node, ast.Continue):
            self.emit(ir.Continue(self.span(node)))
        elif isinstance(node, ast.Assert):
            self.expr(node.test)
            msg = node.msg

            def fail_path() -> None:
                if msg is not None:
                    self.expr(msg)
                self.raise_at(node)

            fail = self.block(fail_path)
            self.emit(ir.Branch(((), fail), self.span(node)))
        elif isinstance(node, ast.If):
            self.if_stmt(node)
        elif isinstance(node, ast.While):
            self.while_stmt(node)
        elif isinstance(node, ast.For | ast.AsyncFor):
            self.for_stmt(node)
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            self.try_stmt(node)  # type: ignore[arg-type]
        elif isinstance(node, ast.With | ast.AsyncWith):
            self.with_stmt(node)
        elif isinstance(node, ast.Match):
            self.match_stmt(node)
        elif isinstance(node, _FUNCTION_DEFS):
            self.function_def(node)
        elif isinstance(node, ast.ClassDef):
            for dec in node.decorator_list:
                self.expr(dec)
            for base in node.bases:
                self.expr(base.value if isinstance(base, ast.Starred) else base)
            brands = self.init_brands(node)
            aliases = self.init_aliases(node)
            facts = self.init_facts(node)
            stored = self.init_items(node)
            keys = self.init_item_keys(node, stored)
            for sub in node.body:
                if isinstance(sub, _FUNCTION_DEFS):
                    kept = self.method_brands(node, sub, brands) if sub.name != "__init__" else {}
                    self.nested.append(Unit(f"{node.name}.{sub.name}", sub, self.kind_of(sub), class_brands=kept,
                                            class_aliases=aliases if sub.name != "__init__" else (),
                                            init_facts=facts if sub.name != "__init__" else init_state.NO_FACTS,
                                            class_items=self.method_items(stored, sub) if sub.name != "__init__"
                                            else init_state.uniform_items(stored, keys),
                                            class_item_keys=keys))
                else:
                    self.stmt(sub)
            self.bind_fresh(ir.Place(self.name(node.name)), self.ctx.def_name_span(node))
        # Pass, Global, Nonlocal, Import, ImportFrom, TypeAlias: nothing ownership-relevant.

    def init_brands(self, cls: ast.ClassDef) -> dict[str, str]:
        """Attributes a class's `__init__` binds, in its own body (or a base's it calls, `super().__init__(...)`), to
        `kernel.prepare(...)` and no method of the class binds otherwise: the kernel each prepared launch is branded
        for (as mypy reads the attribute's type from `__init__`), so `vecsub.launch(self.add_launch, ...)` in another
        method is E0308."""
        init, stores = self.class_init(cls)
        if init is None or not init.args.args:
            return {}
        found: dict[str, str] = {}
        for receiver, stmt in self.ctx.classes.init_statements(cls):
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                continue
            target, value = stmt.targets[0], stmt.value
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
                continue
            if target.value.id != receiver or target.attr in found:
                continue
            kernel = None
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
                if value.func.attr == PREPARE_METHOD:
                    kernel = self.kernel_of(value.func.value) or self.class_attribute_kernel(
                        value.func.value, receiver, cls
                    )
            found[target.attr] = kernel.name if kernel is not None else ""
        return {attr: kernel for attr, kernel in found.items() if kernel and stores.get(attr) == 1}

    def method_brands(
        self, cls: ast.ClassDef, method: ast.FunctionDef | ast.AsyncFunctionDef, brands: Mapping[str, str]
    ) -> dict[str, tuple[str, ...]]:
        """The brands a method of `cls` checked on its own starts with (`brands`: `init_brands(cls)`), with those of
        each subclass that runs this very method (`init_state.merged_brands`)."""
        classes = self.ctx.classes
        if not brands:
            return {}
        runs = [sub for sub in classes.subclasses(cls) if classes.method(sub, method.name) is method]
        return init_state.merged_brands(brands, [self.init_brands(sub) for sub in runs])

    def class_attribute_kernel(self, node: ast.expr, receiver: str, cls: ast.ClassDef) -> KernelSummary | None:
        """`self.kernel` or `type(self).kernel` in an `__init__` an object of `cls` runs (its own or inherited): the
        kernel the class body of `cls` (or the first class along its order) binds `kernel` to (`class_value`), so
        a subclass that inherits `__init__` and not `kernel` prepares the base's kernel."""
        if not isinstance(node, ast.Attribute):
            return None
        owner = node.value
        if isinstance(owner, ast.Call) and len(owner.args) == 1 and not owner.keywords and (
            self.builtin(owner.func) == "type"
        ):
            owner = owner.args[0]
        if not (isinstance(owner, ast.Name) and owner.id == receiver):
            return None
        value = self.ctx.classes.class_value(cls, node.attr)
        found = self.ctx.kernel(value) if value is not None else None
        return found[1] if found is not None else None

    def class_init(self, cls: ast.ClassDef) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, dict[str, int]]:
        """The `__init__` a class's instances run (`ModuleClasses.init_chain`: its own, or the one it inherits
        along its chain of single bases), and how many times the methods of that chain bind each attribute name:
        only an attribute bound once, there, keeps in the class's other methods what `__init__` stored."""
        found = self.ctx.classes.init_chain(cls)
        if found is None:
            return None, {}
        stores: dict[str, int] = {}
        for current in found[1]:
            for sub in current.body:
                if isinstance(sub, _FUNCTION_DEFS):
                    for node in _walk(sub, skip_scopes=False):
                        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
                            stores[node.attr] = stores.get(node.attr, 0) + 1
        return found[0], stores

    def init_facts(self, cls: ast.ClassDef) -> init_state.InitFacts:
        """What the class's `__init__` (its own or an inherited one) leaves on `self` for its other methods
        (`init_state.init_facts`): `__init__` lowered as it is checked itself, its attributes no method of the
        class's chain binds otherwise."""
        init, stores = self.class_init(cls)
        if init is None or not init.args.args or not any(
            isinstance(s, _FUNCTION_DEFS) and s.name != "__init__" for s in cls.body
        ):
            return init_state.NO_FACTS
        function = FunctionLowerer(self.ctx, Unit(f"{cls.name}.__init__", init, self.kind_of(init))).lower()
        single = frozenset(attr for attr, count in stores.items() if count == 1)
        return init_state.init_facts(function, init.args.args[0].arg, single, lambda: method_summaries(self, cls))

    def init_items(self, cls: ast.ClassDef) -> dict[str, tuple[str, ...]]:
        """Attributes a class's `__init__` binds, in its own body, to a dict (or list, tuple) display whose every
        value is `kernel.prepare(...)`, and no method of the class binds otherwise: each item's kernel, in order
        (`init_state.stored_items`), as mypy types `self.prepared` from `__init__`."""
        init, stores = self.class_init(cls)
        if init is None or not init.args.args:
            return {}
        receiver = init.args.args[0].arg
        found: dict[str, tuple[str, ...]] = {}
        scope = self.init_scope(cls, init)
        for stmt in init.body:
            assigned = _one_assignment(stmt)
            if assigned is None:
                continue
            target, value = assigned
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
                continue
            value = self.returned_container(cls, receiver, value)
            built = self.comprehension_kernels(value, scope) if target.value.id == receiver else None
            if built is not None:  # `{mode: k.prepare(...) for mode, k in zip(Mode, (blur, sharpen))}`
                found.setdefault(target.attr, built)
                continue
            if target.value.id == receiver and self.uniform_container(value):
                # `self.scratch = [buf] * 2`, `dict.fromkeys(names, buf)`: one object under every key
                found.setdefault(target.attr, ("",))
                continue
            values: list[ast.expr] = []
            if isinstance(value, ast.Dict) and all(k is not None for k in value.keys):
                values = value.values
            elif isinstance(value, ast.List | ast.Tuple):
                values = value.elts
            kernels = [
                self.kernel_of(v.func.value)
                if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == PREPARE_METHOD
                else None
                for v in values
            ]
            if target.value.id == receiver and values and all(k is not None for k in kernels):
                found.setdefault(target.attr, tuple(k.name for k in kernels if k is not None))
            elif target.value.id == receiver and isinstance(value, ast.List | ast.Tuple) and values and not any(
                isinstance(v, ast.Starred) for v in values
            ):
                # `self.fields = [a, b]`: a list (tuple) display, each item an object of its own in the other methods
                found.setdefault(target.attr, ("",) * len(values))
            elif target.value.id == receiver and values and _literal_keys(value) is not None:
                # `self.buffers = {"counts": a, "freqs": b}`: a dict display under literal keys, the same
                found.setdefault(target.attr, ("",) * len(values))
        if not found:
            return {}
        return {attr: kernels for attr, kernels in found.items() if stores.get(attr) == 1}

    def init_item_keys(self, cls: ast.ClassDef, items: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[object, ...]]:
        """The keys of the dict displays among `items` (`init_items`), in order: their literal keys, or none for a
        display of prepared launches under keys that are not all literals (any of its items under any key)."""
        init, _ = self.class_init(cls)
        found: dict[str, tuple[object, ...]] = {}
        if init is None:
            return found
        for stmt in init.body:
            assigned = _one_assignment(stmt)
            if assigned is None:
                continue
            target, value = assigned
            if isinstance(target, ast.Attribute) and target.attr in items and target.attr not in found:
                if init.args.args:
                    value = self.returned_container(cls, init.args.args[0].arg, value)
                if self.uniform_container(value):
                    found[target.attr] = init_state.UNIFORM_KEYS
                elif isinstance(value, ast.Dict | ast.DictComp):
                    static = static_iterables.dict_comprehension(self.init_scope(cls, init), value)
                    found[target.attr] = _literal_keys(value) or (static.keys if static is not None else ())
        return found

    def returned_container(self, cls: ast.ClassDef, receiver: str, value: ast.expr) -> ast.expr:
        """What `__init__` stores when it stores what a method of its class (or a function of the module) returns
        (`self.outputs = self._allocate_outputs()`): a method whose one `return`, its last statement, returns a
        container whose every item is one object (`dict.fromkeys(PHASES, buf)`, `[buf] * 2`) or (a method's) a
        display of prepared launches gives that container, as if `__init__` had written it; any other `value` is
        itself."""
        func = value.func if isinstance(value, ast.Call) else None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == receiver:
            method: FunctionNode | None = self.ctx.classes.method(cls, func.attr)
            value_only = False
        elif isinstance(func, ast.Name) and isinstance(helper := self.helper(func.id), ast.FunctionDef):
            method = helper  # `self.buses = allocate_buses(n, stream)` of a module function
            value_only = True
        else:
            return value
        if method is None or method.decorator_list or not method.body or not isinstance(method.body[-1], ast.Return):
            return value
        returned = method.body[-1].value
        if returned is None or sum(isinstance(n, ast.Return) for n in _walk(method.body)) != 1:
            return value
        items = returned.values if isinstance(returned, ast.Dict) else getattr(returned, "elts", [])
        prepared = not value_only and isinstance(returned, ast.Dict | ast.List | ast.Tuple) and bool(items) and all(
            isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == PREPARE_METHOD
            for v in items
        )
        return returned if prepared or self.uniform_container(returned) else value

    def init_scope(self, cls: ast.ClassDef, init: FunctionNode) -> static_iterables.Scope:
        """Where `__init__` reads an iterable: the module's tables and its class's (`self.KERNELS`), its own
        names not followed."""
        receiver = init.args.args[0].arg if init.args.args else None
        return static_iterables.Scope(
            self.ctx, _bound_names(init), {}, {}, self.builtin, lambda name: cls if name == receiver else None
        )

    def method_items(
        self, items: Mapping[str, tuple[str, ...]], method: ast.FunctionDef | ast.AsyncFunctionDef
    ) -> dict[str, tuple[str, ...]]:
        """`items` (`init_items`) but those whose container `method` may change (`item_changes.changed_items`)."""
        if not items or not method.args.args:
            return {}
        classes = self.ctx.classes
        owner = classes.owner.get(id(method))
        methods = {m.name: m for m in owner.body if isinstance(m, _FUNCTION_DEFS)} if owner is not None else {}
        changed = changed_items(method, methods, classes.item_changes)
        if EVERY in changed:
            return {}
        return {attr: kernels for attr, kernels in items.items() if attr not in changed}

    def comprehension_kernels(self, node: ast.expr, scope: static_iterables.Scope) -> tuple[str, ...] | None:
        """The kernels a dict or list comprehension of prepared launches builds items for, in order
        (`init_state.comprehension_kernels`; a dict comprehension over tables the source lists,
        `static_iterables.dict_comprehension`: each key's kernel), else None."""
        if not isinstance(node, ast.DictComp | ast.ListComp) or len(node.generators) != 1:
            return None
        static = static_iterables.dict_comprehension(scope, node)
        value = node.value if isinstance(node, ast.DictComp) else None
        if static is not None and isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and (
            value.func.attr == PREPARE_METHOD and isinstance(value.func.value, ast.Name)
        ):
            receiver = value.func.value.id
            found = [self.kernel_of(b[receiver]) if receiver in b else None for b in static.bindings]
            if all(k is not None for k in found):
                return tuple(k.name for k in found if k is not None)
        comp = node.generators[0]
        element = node.value if isinstance(node, ast.DictComp) else node.elt
        if comp.ifs or comp.is_async or not (
            isinstance(element, ast.Call)
            and isinstance(element.func, ast.Attribute)
            and element.func.attr == PREPARE_METHOD
            and isinstance(element.func.value, ast.Name)
        ):
            return None
        source = comp.iter
        zipped = (
            isinstance(source, ast.Call)
            and self.stdlib_name(source.func) == "zip"
            and all(k.arg == "strict" for k in source.keywords)
        )
        operands = source.args if isinstance(source, ast.Call) and zipped else [source]
        targets = comp.target.elts if zipped and isinstance(comp.target, ast.Tuple) else [comp.target]
        names = [t.id if isinstance(t, ast.Name) else None for t in targets]

        def kernels(operand: ast.expr) -> list[str | None] | None:
            if not isinstance(operand, ast.Tuple | ast.List):
                return None
            found = [self.kernel_of(item) for item in operand.elts]
            return [k.name if k is not None else None for k in found]

        return init_state.comprehension_kernels(names, [kernels(o) for o in operands], element.func.value.id)

    def foreign_uniform(self, node: ast.expr) -> ir.Place | None:
        """`pp.fields` of an object outside its class's methods (a name bound only by `pp = PingPong(...)`, a
        parameter annotated with the class: `receiver_classes`), where the `__init__` of every class it may be
        stores there a container whose every item is one object (`self.fields = [sk.zeros(n)] * 2`,
        `dict.fromkeys(names, buf)`) and no method of the class changes its items: the place of that one item's
        container, read under any key as the class's own methods read it (`stored_items`); else None."""
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)) or self.kernel_body:
            return None
        if node.attr in self.unit.class_items or not self.ctx.classes.classes:
            return None
        candidates = receiver_classes(self, node.value.id)
        if not candidates or not all(node.attr in self.uniform_attributes(cls) for cls in candidates):
            return None
        if _changes_container(self.unit.node, node.value.id, node.attr):
            return None  # `pp.fields[1] = sk.zeros(n)` here: its items are apart from then on
        return self.place(node)

    def uniform_attributes(self, cls: ast.ClassDef) -> frozenset[str]:
        """The attributes the `__init__` an object of `cls` runs binds to a container whose every item is one
        object (`init_items` under `init_state.UNIFORM_KEYS`), that no method of the class changes the items of
        (`item_changes.changed_items`, over every method but `__init__`: any may have run before a read from
        outside)."""
        memo = self.ctx.uniform_attributes
        if id(cls) in memo:
            return memo[id(cls)]
        items = self.init_items(cls)
        keys = self.init_item_keys(cls, items) if items else {}
        found = {attr for attr in items if tuple(keys.get(attr, ())) == init_state.UNIFORM_KEYS}
        if found:
            classes = self.ctx.classes
            chain = classes.complete_chain(cls) or [cls]
            methods = {m.name: m for c in reversed(chain) for m in c.body if isinstance(m, _FUNCTION_DEFS)}
            for method in methods.values():
                if method.name == "__init__":
                    continue  # (it makes the container)
                changed = changed_items(method, methods, classes.item_changes)
                found = set() if EVERY in changed else found - changed
        memo[id(cls)] = frozenset(found)
        return memo[id(cls)]

    def stored_items(self, node: ast.expr) -> tuple[ir.Place, int] | None:
        """`self.attr` in a method whose class's `__init__` stored a display of prepared launches there
        (`init_items`): its place and how many items it has; else None."""
        func = self.unit.node
        if isinstance(func, ast.Module) or not func.args.args:
            return None
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            return None
        kernels = self.unit.class_items.get(node.attr)
        if kernels is None or node.value.id != func.args.args[0].arg:
            return None
        place = self.place(node)
        return (place, len(kernels)) if place is not None else None

    def init_aliases(self, cls: ast.ClassDef) -> tuple[tuple[str, tuple[str | None, ...]], ...]:
        """Attribute pairs `(a, b)` where a class's `__init__` binds `self.a = self.b` in its own body (or a base's it
        calls) after binding `self.b`, and no method binds `a` or `b` otherwise: in every other method `self.a` starts
        as the object `self.b` is (a ping-pong pair whose back buffer is the front one), as the constructor left
        them; `self.a = self.b if shared else sk.zeros(n)` makes it either (`init_state.alias_binding`)."""
        init, stores = self.class_init(cls)
        if init is None or not init.args.args:
            return ()
        bound: set[str] = set()
        found: list[tuple[str, tuple[str | None, ...]]] = []
        for receiver, stmt in self.ctx.classes.init_statements(cls):
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                continue
            target, value = stmt.targets[0], stmt.value
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
                continue
            if target.value.id != receiver:
                continue
            arms = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
            sources = init_state.alias_sources([
                arm.attr if isinstance(arm, ast.Attribute) and isinstance(arm.value, ast.Name)
                and arm.value.id == receiver else None
                for arm in arms
            ], bound)
            if sources is not None:
                found.append((target.attr, sources))
            bound.add(target.attr)
        if not found:
            return ()
        return tuple(
            (a, sources) for a, sources in found
            if stores.get(a) == 1 and all(stores.get(b) == 1 for b in sources if b is not None)
        )

    def raise_at(self, node: ast.AST) -> None:
        self.emit(ir.Raise(self.span(node)))

    def if_stmt(self, node: ast.If) -> None:
        self.branch_on(node.test, lambda: self.suite(node.body), lambda: self.suite(node.orelse))

    def assign_statement(self, targets: Sequence[ast.expr], value: ast.expr) -> None:
        """An assignment statement (annotated or not).  `x = a if c else b` is lowered as the `if c: x = a` /
        `else: x = b` it means, so each arm binds the targets as a plain assignment does: a pending op made in one
        arm is held by the target there (`pending = k.launch_async(...) if c else None`), and the arms' tests give
        the path facts a later `if pending is not None:` / `if c:` correlates with (`checker.solve_paths`)."""
        if isinstance(value, ast.IfExp):
            self.branch_on(
                value.test,
                functools.partial(self.assign_statement, targets, value.body),
                functools.partial(self.assign_statement, targets, value.orelse),
            )
        else:
            self.assign(targets, value)
            if len(targets) == 1:
                self.bind_uniform_item(targets[0], value)

    def bind_uniform_item(self, target: ast.expr, value: ast.expr) -> None:
        """`self.energy = dict.fromkeys(LEADS, buf)` in `__init__`, a container whose every item is one object that
        the method goes on to read (`init_state.uniform_items`): its one item place is `buf` (a new object for an
        expression that is no place), so `self.energy["I"]` and `self.energy["II"]` there are one buffer, as in the
        class's other methods."""
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
            return
        if target.attr not in self.unit.class_items or self.stored_items(target) is None:
            return
        item = self.uniform_item(value)
        base = self.place(target)
        if item is None or base is None:
            return
        source = self.place(item)
        filled = ir.FromPlace(source, self.span(item)) if source is not None else ir.Fresh()
        self.emit(ir.Bind(init_state.item_places(base, 1), (filled,), self.span(target)))

    def branch_on(self, test: ast.expr, body_build: Callable[[], None], orelse_build: Callable[[], None]) -> None:
        """A two-armed `Branch` on `test` (an `if` statement, a conditional assignment): the test is read unless
        it only compares a name with None, and each arm knows what the test says on entry (`calls.branch_tests`)."""
        narrowed = self.none_test(test, attributes=True)
        if narrowed is None or narrowed[0].attrs:
            self.expr(test)  # `x is None` only compares identities: it never reads a (moved) object
        body = self.block(body_build)
        orelse = self.block(orelse_build)
        tested, form = self.condition_form(test)
        if narrowed is not None:
            place, is_none = narrowed
            arm = calls.none_arm(place, self.span(test))
            body, orelse = ((arm, *body), orelse) if is_none else (body, (arm, *orelse))
            tested, form = place, "is None" if is_none else "is not None"
        tests = calls.branch_tests(tested, form, self.testable(test)) or self.iteration_tests(test)
        self.emit(ir.Branch((body, orelse), self.span(test), tests))

    def iteration_tests(self, test: ast.expr) -> tuple[ir.Test, ...]:
        """`if i + 1 < n:` in `for i in range(n):` (`calls.iteration_tests`), else ()."""
        if not self.counted_loops or not isinstance(test, ast.Compare) or len(test.ops) != 1:
            return ()
        op = _COMPARISONS.get(type(test.ops[0]))
        left, right = _offset_form(test.left), _offset_form(test.comparators[0])
        if op is None or left is None or right is None:
            return ()
        tests = calls.iteration_tests(op, left, right, self.counted_loops)
        if tests is None:
            return ()
        self.tested_indices.add(tests[0].name)
        return tests

    @functools.cached_property
    def new_collection_names(self) -> frozenset[str]:
        """The local names this function binds only by assigning a display or a comprehension (`alerts = []`,
        `seen: dict[str, int] = {}`), never a parameter: each holds a collection of its own, so appending to it
        changes no other name's list (`calls.may_be_counted`)."""
        node = self.unit.node
        if isinstance(node, ast.Module) or self.kernel_body:
            return frozenset()
        fresh: set[str] = set()
        other: set[str] = {p.arg for p in _param_names(node.args)}
        handled: set[int] = set()
        for sub in _walk(node.body):
            targets: list[ast.expr] = []
            value: ast.expr | None = None
            if isinstance(sub, ast.Assign):
                targets, value = sub.targets, sub.value
            elif isinstance(sub, ast.AnnAssign) and sub.value is not None:
                targets, value = [sub.target], sub.value
            for target in targets:
                if isinstance(target, ast.Name):
                    handled.add(id(target))
                    new = len(targets) == 1 and isinstance(
                        value, ast.List | ast.Dict | ast.Set | ast.ListComp | ast.DictComp | ast.SetComp
                    )
                    (fresh if new else other).add(target.id)
                else:  # (as the mypy plugin reads a target: every name in it)
                    other.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            if isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load) and id(sub) not in handled:
                other.add(sub.id)  # a `for` target, `with ... as`, a walrus, an unpacking, `del`
        return frozenset(fresh - other)

    def counted_body(self, node: ast.For | ast.AsyncFor | None, lower: Callable[[], ir.Block]) -> ir.Block:
        """Lower a loop's body (`lower`), with the loop's counter known to view bounds there (`loop_counter`) when
        `node` is a counting loop no other loop of this function encloses (`counting_loop`)."""
        counter = self.counting_loop(node) if node is not None and not self.loop_nesting else None
        outer = self.loop_counter, self.counter_locals
        if counter is not None:
            self.loop_counter = counter
            self.counter_locals = _counter_locals(self.unit.node, node.body if node is not None else [], counter[0])
        self.loop_nesting += 1
        try:
            return lower()
        finally:
            self.loop_nesting -= 1
            self.loop_counter, self.counter_locals = outer

    def counting_loop(self, node: ast.For | ast.AsyncFor) -> tuple[str, int] | None:
        """`for k in range(n)` (`range(start, n, step)` whose counter is never negative:
        `view_bounds.range_counter_step`) or `for k, x in enumerate(xs)` (a literal `start >= 0`) whose body never
        binds `k`: the counter and its step's absolute value (`ir.Range.counter`), else None."""
        if self.kernel_body or isinstance(node, ast.AsyncFor) or not isinstance(node.iter, ast.Call):
            return None
        call, target = node.iter, node.target
        callee = self.builtin(call.func)
        args = call.args
        if any(isinstance(a, ast.Starred) for a in args):
            return None
        if callee == "range" and isinstance(target, ast.Name) and 1 <= len(args) <= 3 and not call.keywords:
            name = target.id
            start = _int_literal(args[0]) if len(args) >= 2 else 0
            stop = _int_literal(args[1] if len(args) >= 2 else args[0])
            step = view_bounds.range_counter_step(start, stop, _int_literal(args[2]) if len(args) == 3 else 1)
        elif (
            callee == "enumerate" and isinstance(target, ast.Tuple) and len(target.elts) == 2
            and isinstance(target.elts[0], ast.Name) and 1 <= len(args) + len(call.keywords) <= 2
        ):
            name = target.elts[0].id
            given = [*args[1:], *(k.value for k in call.keywords if k.arg == "start")]
            if len(given) != len(args) - 1 + len(call.keywords):
                return None
            start = _int_literal(given[0]) if given else 0
            step = view_bounds.range_counter_step(start, None, 1)
        else:
            return None
        if step is None:
            return None
        stored = any(
            isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
            for stmt in node.body for n in ast.walk(stmt)
        )
        return None if stored else (name, step)

    def counted_loop(self, node: ast.For | ast.AsyncFor) -> tuple[str, str] | None:
        """`for i in range(n):` / `range(0, n)` / `for i, x in enumerate(xs):` (`n` is `len(xs)`), `n` a name, an
        attribute path or `len(path)`, whose body binds neither `i` nor what `n` reads, nor changes `xs` in place:
        (index, count text) for `calls.iteration_tests`, else None."""
        target, loop = node.target, node.iter
        if not isinstance(loop, ast.Call) or not isinstance(loop.func, ast.Name) or loop.keywords:
            return None
        count: ast.expr | None = None
        if loop.func.id == "range" and isinstance(target, ast.Name):
            args = loop.args
            if len(args) == 1 or (len(args) == 2 and _is_constant(args[0], 0)):
                count = args[-1]
            index = target.id
        elif loop.func.id == "enumerate" and len(loop.args) == 1 and isinstance(target, ast.Tuple) and (
            len(target.elts) == 2 and isinstance(target.elts[0], ast.Name)
        ):
            count = ast.Call(ast.Name("len", ast.Load()), [loop.args[0]], [])
            index = target.elts[0].id
        else:
            return None
        text = _count_text(count) if count is not None else None
        if text is None:
            return None
        roots = {text.removeprefix("len(").removesuffix(")").split(".")[0], index}
        for inner in ast.walk(ast.Module(node.body, [])):
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store | ast.Del) and inner.id in roots:
                return None
            if (
                isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute)
                and inner.func.attr in calls.MUTATING_CONTAINER_METHODS and text.startswith("len(")
                and calls.may_be_counted(dotted(inner.func.value), text, self.new_collection_names)
            ):
                return None  # the counted container may change length
        return index, text

    def condition_form(self, test: ast.expr) -> tuple[ir.Place | None, str | None]:
        """`if name:` / `if not name:`: the name's place and the form (`calls.branch_tests`), else (None, None)."""
        if isinstance(test, ast.Name):
            return self.place(test), "truthy"
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Name):
            return self.place(test.operand), "not"
        return None, None

    def testable(self, test: ast.expr) -> bool:
        """Whether the name an `if` condition tests is one only this unit's own bindings change
        (`calls.branch_tests`): a module-level name, or a parameter or name the function binds, that nothing of
        `FileContext.declared` binds, or one it does that the statement just before binds."""
        while isinstance(test, ast.UnaryOp | ast.Compare):
            test = test.operand if isinstance(test, ast.UnaryOp) else test.left
        if not isinstance(test, ast.Name):
            return False
        if test.id in self.ctx.declared():
            # a `nonlocal`/`global` name another scope may rebind: only where this unit bound it by the statement
            # just before (`op = helper(...)`, then `if op is not None:`), nothing running in between
            previous = self.previous_statement
            return (
                isinstance(previous, ast.Assign) and len(previous.targets) == 1
                and isinstance(previous.targets[0], ast.Name) and previous.targets[0].id == test.id
            )
        return isinstance(self.unit.node, ast.Module) or test.id in self.local_names

    def none_test(self, test: ast.expr, attributes: bool = False) -> tuple[ir.Place, bool] | None:
        """`(place, True)` for `place is None`, `(place, False)` for `place is not None`, else None; an attribute
        path (`self.op is not None`) only with `attributes`: its arm knows it is None, no later test does."""
        if not isinstance(test, ast.Compare) or len(test.ops) != 1:
            return None
        if not _is_constant(test.comparators[0], None):
            return None
        place = self.place(test.left)
        if place is None or (place.attrs and not attributes):
            return None
        if isinstance(test.ops[0], ast.Is):
            return place, True
        if isinstance(test.ops[0], ast.IsNot):
            return place, False
        return None

    def while_stmt(self, node: ast.While) -> None:
        head = self.block(lambda: self.expr(node.test))
        body = self.counted_body(None, lambda: self.block(lambda: self.suite(node.body)))
        drained = None if self.kernel_body else self.place(node.test)

        def fall_out() -> None:
            calls.drained_by_loop(drained, self.span(node.test), self)
            self.suite(node.orelse)

        orelse = self.block(fall_out) if drained is not None else self.else_block(node.orelse)
        infinite = _is_constant(node.test, True)
        self.emit(ir.Loop(head, body, orelse, self.span(node.test), infinite))

    def for_stmt(self, node: ast.For | ast.AsyncFor) -> None:
        iterable, item, counter = node.iter, node.target, None
        inner = self.enumerated(node.iter)
        if (
            inner is not None and self.generator_call(inner) is not None and isinstance(item, ast.Tuple)
            and len(item.elts) == 2 and isinstance(item.elts[0], ast.Name)
        ):
            # `for k, (out, op) in enumerate(gen(...))`: a counter beside each item the generator yields
            assert isinstance(node.iter, ast.Call)
            self.expr(node.iter.func)
            for keyword in node.iter.keywords:
                self.expr(keyword.value)
            iterable, counter, item = inner, item.elts[0], item.elts[1]
        generator = self.generator_call(iterable)
        unpacked = isinstance(item, ast.Tuple) and all(isinstance(e, ast.Name) for e in item.elts)
        if generator is not None and (isinstance(item, ast.Name) or unpacked):
            # `for op in gen(...)`: each iteration runs the generator's body to its next item (an iteration that
            # finds none leaves the loop holding nothing); `for out, op in gen(...)` unpacks it
            # (`callables.unpack_yielded`)
            taker = self.place(item) if isinstance(item, ast.Name) else self.temp("item")
            assert taker is not None
            self.iterated.add(id(generator))
            self.loop_items.add(id(generator))

            def take() -> None:
                taken = self.call(generator, taker)
                if counter is not None:
                    self.bind(counter, ir.Fresh())
                if unpacked:
                    span = self.span(node.target)  # the whole target: a parenthesized one's span differs in mypy
                    callables.unpack_yielded(self.target(item), taken, span, self)
                    self.suite(node.body)
                    return
                views = self.yielded_views(generator)
                self.bind(item, callables.iterated_item(taken, views, self.span(generator), self))
                self.suite(node.body)

            head, body = self.block(lambda: None), self.block(take)
            self.emit(ir.Loop(head, body, self.else_block(node.orelse), self.span(node.target)))
            moved = self.loop_moves.pop(id(generator), None)
            if moved is not None:
                apply_summary(moved, generator, self.span(generator), self)
            return
        self.expr(node.iter)
        items = self.literal_items(node.iter)
        if items is None:
            items = self.registry_items(node.iter, node.target)
        if items is None:
            items = self.table_items(node.iter)
        shown = self.display_loop(node.iter) if items is None else None
        arms = None if shown is None else calls.display_loop_arms(self.target(node.target), *shown, self)
        elements = self.iterated_container(node.iter) if items is None and arms is None else None
        copies: int | None = None
        if items is not None:
            # `for out, inp in ((x, x), (y, z)):` binds the target to one of the displayed items per iteration.
            literal_arms = tuple(self.block(functools.partial(self.assign, [node.target], item)) for item in items)
            head = self.block(lambda: self.emit(ir.Branch(literal_arms, self.span(node.target))))
        elif arms is not None:
            # `for i, (host, beam) in enumerate(zip(hosts, (b0, b1)))`: item `k` of the display per iteration
            display_arms = arms
            head = self.block(lambda: self.emit(ir.Branch(display_arms, self.span(node.target))))
        elif elements is not None:
            # `for part in parts:` of a container list of known length: its items in order, as a display's
            places, container, enumerated, paired = elements
            target = self.target(node.target)
            arms = calls.bind_elements(target, places, self.span(node.iter), self, container, enumerated, paired)
            head = self.block(lambda: self.emit(ir.Branch(arms, self.span(node.target))))
        elif (selected := self.selected_loop(node.iter)) is not None:
            # `for _, i, beam in leaders` of `leaders = heapq.nsmallest(3, heap)`: each item taken once
            source, enumerated = selected
            span = self.span(node.iter)
            head = self.block(
                lambda: calls.bind_selected_iteration(self.target(node.target), source, enumerated, span, self)
            )
        else:
            shape, sources = self.iteration(node.iter)
            copies = _display_length(node.iter)
            if copies is not None:
                # `for stage in [Stage(), Stage()]:` runs its body exactly once per displayed item
                repeated = tuple(
                    self.block(lambda: self.bind_iteration(self.target(node.target), shape, sources))
                    for _ in range(copies)
                )
                head = self.block(lambda: self.emit(ir.Branch(repeated, self.span(node.target))))
            else:
                head = self.block(lambda: self.bind_iteration(self.target(node.target), shape, sources))
        counted = self.counted_loop(node)
        if counted is not None:
            self.counted_loops.append(counted)
        body = self.counted_body(node, lambda: self.block(lambda: self.suite(node.body)))
        more = None
        if counted is not None:
            self.counted_loops.pop()
            if counted[0] in self.tested_indices:
                self.tested_indices.discard(counted[0])
                more = counted[0]
        orelse = self.else_block(node.orelse)
        for name in _loop_target_names(node.target):
            if name in self.loop_keys:
                # the items the body names under the target (`self.centered[axis]`) are the next key's: new objects
                head = keyed_items.renewed_head(head, name, body, self.span(node.target))
        unrolled = items is not None or arms is not None or elements is not None or copies is not None
        self.emit(ir.Loop(head, body, orelse, self.span(node.target), unrolled=unrolled, more=more))

    def enumerated(self, node: ast.expr) -> ast.expr | None:
        """The iterable of `enumerate(iterable)` (`start=` allowed), else None."""
        if (
            isinstance(node, ast.Call)
            and self.builtin(node.func) == "enumerate"
            and len(node.args) == 1
            and not isinstance(node.args[0], ast.Starred)
            and all(k.arg == "start" for k in node.keywords)
        ):
            return node.args[0]
        return None

    def display_loop(
        self, node: ast.expr
    ) -> tuple[bool, list[calls.DisplayOperand[ast.expr]] | None, tuple[ast.expr, ...]] | None:
        """A loop over `enumerate(display)`, or `zip(...)` (also inside `enumerate`) with a display among its
        operands, for `calls.display_loop_arms`: whether enumerated, the zip's operands (None: no zip), the
        shortest display; None for any other iterable."""
        inner = self.enumerated(node)
        enumerated = inner is not None
        node = node if inner is None else inner
        if (
            isinstance(node, ast.Call)
            and self.builtin(node.func) == "zip"
            and node.args
            and all(k.arg == "strict" for k in node.keywords)
            and not any(isinstance(a, ast.Starred) for a in node.args)
        ):
            operands: list[calls.DisplayOperand[ast.expr]] = []
            for arg in node.args:
                shown = self.literal_items(arg)
                operands.append(shown if shown is not None else self.iteration_source(arg))
            displays = [operand for operand in operands if isinstance(operand, tuple)]
            return (enumerated, operands, min(displays, key=len)) if displays else None
        shown = self.literal_items(node) if enumerated else None
        return None if shown is None else (True, None, shown)

    def iterated_container(
        self, node: ast.expr
    ) -> tuple[tuple[ir.Place, ...], calls.Container | None, bool, bool] | None:
        """The items a loop over a container list of known length takes (`star_elements`), directly or through
        `enumerate(...)` and/or `itertools.pairwise(...)`: their places, the container (for its nested displays),
        whether enumerated and whether paired (`calls.bind_elements`)."""
        inner = self.enumerated(node)
        enumerated = inner is not None
        node = node if inner is None else inner
        paired = (
            isinstance(node, ast.Call)
            and stdlib_flow.pairs_items(self.stdlib_name(node.func))
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.Name)
        )
        if paired:
            assert isinstance(node, ast.Call)
            node = node.args[0]
        viewed = _values_receiver(node, "items")
        if viewed is not None:
            # `for name, out in heads.items()`: a new key and item `i` per iteration, as `.values()` gives item `i`
            found = self.mapping_items(viewed) if not enumerated and not paired else None
            return (found, self.containers.get(viewed), True, False) if found is not None else None
        elements = self.star_elements(node)
        if elements is None or (paired and len(elements) < 2):
            return None
        container = self.containers.get(node.id) if isinstance(node, ast.Name) else None
        return elements, container, enumerated, paired

    def bind_iteration(
        self, target: calls.Target[ast.expr], shape: str, sources: list[calls.IterationSource]
    ) -> None:
        """Bind a `for` target for one iteration: adjacent pairs of a place's items (`stdlib_flow.bind_pairs`),
        else `calls.bind_iteration`."""
        source = sources[0] if shape == "pairs" and isinstance(sources[0], ir.Place) else None
        if source is None or not stdlib_flow.bind_pairs(target, source, self):
            calls.bind_iteration(target, shape if source is None else "", sources, self)

    def iteration(self, node: ast.expr) -> tuple[str, list[calls.IterationSource]]:
        """How a `for` loop takes items from `node` (`calls.bind_iteration`): a place or a recurring operand
        (`iteration_source`), or the builtin `zip` / `enumerate` of them, or adjacent pairs of a place's items
        (`itertools.pairwise(xs)`, `zip(xs[:-1], xs[1:])`: "pairs"); ("", []) for anything else."""
        place = self.iteration_source(node)
        if place is not None:
            return "each", [place]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in calls.VIEW_ITERATIONS
            and not node.args
            and not node.keywords
            and (viewed := self.place(node.func.value)) is not None
        ):
            return calls.VIEW_ITERATIONS[node.func.attr], [viewed]
        if (
            isinstance(node, ast.Call)
            and self.ctx.qualify(node.func) == "itertools.pairwise"
            and len(node.args) == 1
            and not node.keywords
            and (paired := self.place(node.args[0])) is not None
        ):
            return "pairs", [paired]
        if (
            isinstance(node, ast.Call)
            and self.builtin(node.func) == "zip"
            and all(k.arg == "strict" for k in node.keywords)
            and (paired := stdlib_flow.adjacent_pairs([self.slice_operand(a) for a in node.args])) is not None
        ):
            return "pairs", [paired]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("zip", "enumerate")
            and node.func.id not in self.local_names
            and self.ctx.qualify(node.func) == node.func.id
            and all(k.arg == "strict" for k in node.keywords)  # `zip(xs, ys, strict=True)`
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and node.args
        ):
            if node.func.id == "zip":
                return "zip", [self.iteration_source(a) for a in node.args]
            if (zipped := self.zipped_call(node.args[0])) is not None:
                shape, sources = self.iteration(zipped)  # `enumerate(zip(xs, ys))`
                if shape == "zip":
                    return "enumerate zip", sources
            return "enumerate", [self.iteration_source(node.args[0])]
        if (zipped := self.zipped_call(node)) is not None:
            # `itertools.zip_longest(xs, ys, fillvalue=h)`: each part an item of its operand or the fill
            found = stdlib_flow.stdlib_flow(self.stdlib_name(zipped.func))
            fill = stdlib_flow.padded_fill(found, [(k.arg, k.value) for k in zipped.keywords])
            if found is not None and found.padded:
                place = self.place(fill) if fill is not None else None
                sources = [self.iteration_source(a) for a in zipped.args]
                return "zip", stdlib_flow.padded_sources(found, sources, place, self.span(fill or zipped), self)
        return "", []

    def zipped_call(self, node: ast.expr) -> ast.Call | None:
        """`node` when it is a call a `for` takes tuples from (`stdlib_flow.zipped_iteration`), else None."""
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        keywords = [k.arg for k in node.keywords]
        found = stdlib_flow.zipped_iteration(self.stdlib_name(node.func), len(node.args), keywords)
        return node if found is not None else None

    def iteration_source(self, node: ast.expr) -> calls.IterationSource:
        """Where a `for` takes the items of the iterable operand `node`: `itertools.cycle(xs)` /
        `itertools.repeat(x)` of a place, also through a name bound once to one (`pool = itertools.cycle(xs)`),
        is a `calls.Recurring` operand (`stdlib_flow.recurring_source`); else the place `node` is, or None."""
        call = self.iterators.get(node.id) if isinstance(node, ast.Name) else node
        if isinstance(call, ast.Call) and call.args and not any(isinstance(a, ast.Starred) for a in call.args):
            found = stdlib_flow.recurs(self.stdlib_name(call.func), len(call.args), [k.arg for k in call.keywords])
            operand = self.place(call.args[0]) if found is not None else None
            if found is not None and operand is not None:
                return stdlib_flow.recurring_source(found, operand, self.span(call.args[0]), self)
        if (
            isinstance(node, ast.Call)
            and len(node.args) == 1
            and not isinstance(node.args[0], ast.Starred)
            and all(k.arg in ("key", "reverse") for k in node.keywords)
            and self.builtin(node.func) in calls.ITEM_KEEPING_CALLS
        ):
            return self.place(node.args[0])  # `reversed(xs)`: the items of `xs`
        return self.place(node)

    def slice_operand(self, node: ast.expr) -> stdlib_flow.SliceOperand | None:
        """`xs`, `xs[1:]`, `xs[:-1]` of a place `xs` with literal bounds: the place and the bounds, else None."""
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and node.slice.step is None:
            bounds = (node.slice.lower, node.slice.upper)
            literal = tuple(_int_literal(b) if b is not None else None for b in bounds)
            base = self.place(node.value)
            if base is None or any(b is not None and v is None for b, v in zip(bounds, literal, strict=True)):
                return None
            return base, literal[0], literal[1]
        place = self.place(node) if not isinstance(node, ast.Starred) else None
        return (place, None, None) if place is not None else None

    def else_block(self, body: Sequence[ast.stmt]) -> ir.Block:
        if not body:
            return ()
        return self.block(lambda: self.suite(body))

    def try_stmt(self, node: ast.Try) -> None:
        narrow = isinstance(node, ast.Try) and self.narrow_handlers(node)
        body = self.block(lambda: self.guarded_suite(node.body, narrow))
        handlers: list[ir.Block] = []
        for handler in node.handlers:

            def lower_handler(h: ast.ExceptHandler = handler) -> None:
                if h.type is not None:
                    self.expr(h.type)
                bound = h.name
                if bound:
                    span = self.ctx.token_span(_Token(bound, h, "except"))
                    self.bind_fresh(ir.Place(self.name(bound)), span)
                self.suite(h.body)
                if bound:
                    self.emit(ir.Del(ir.Place(self.name(bound)), span))

            handlers.append(self.block(lower_handler))
        orelse = self.else_block(node.orelse)
        final = self.else_block(node.finalbody)
        self.emit(ir.Try(body, tuple(handlers), orelse, final, self.span(node)))

    def with_stmt(self, node: ast.With | ast.AsyncWith) -> None:
        items = [
            calls.WithItem(
                item.context_expr,
                isinstance(item.context_expr, ast.Call)
                and self.ctx.qualify(item.context_expr.func) == UNSAFE_CONTEXT,
                self.target(item.optional_vars) if item.optional_vars is not None else None,
                isinstance(item.context_expr, ast.Call)
                and self.ctx.qualify(item.context_expr.func) == calls.SUPPRESS_CONTEXT,
                isinstance(item.context_expr, ast.Call) and self.constructs(item.context_expr),
                self.entered(item.context_expr) if item.optional_vars is not None else None,
                isinstance(item.context_expr, ast.Call)
                and self.ctx.qualify(item.context_expr.func) in calls.EXIT_STACK_CONTEXTS,
                self.with_phases(item.context_expr),
                self.with_alias(item.context_expr, item.optional_vars, node.body),
                self.with_methods(item.context_expr, item.optional_vars, node.body)
                if isinstance(node, ast.With) else None,
            )
            for item in node.items
        ]
        calls.lower_with(items, lambda: self.block(lambda: self.guarded_suite(node.body)), self.span(node), self)

    def entered(self, node: ast.expr) -> Callable[[], ir.Value] | None:
        """What `with lend(c) as lo:` binds `lo` to (`calls.entered_value`): the argument bound to a parameter a
        `@contextlib.contextmanager` generator of the module's top level yields on every `yield`, else None."""
        picked = self.entered_arguments(node)
        if picked is None:
            return None
        return calls.entered_value(self._alternatives((), picked, self.span(node), 0), self.span(node), self)

    def entered_arguments(self, node: ast.expr) -> tuple[ast.expr, ...] | None:
        """The arguments of `lend(c)` (or `pool.lend(c)`) bound to the parameters a `@contextlib.contextmanager`
        generator of the module yields on every `yield` (what `with lend(c) as lo:` binds `lo` to), else None."""
        func = self.context_generator(node)
        yielded = _returned_params(func, yields=True) if func is not None else None
        if func is None or yielded is None or not isinstance(node, ast.Call):
            return None
        bound = _bind_call(func, node, method=isinstance(node.func, ast.Attribute))
        return tuple(bound[name] for name in yielded if name in bound)

    def context_generator(self, node: ast.expr) -> ast.FunctionDef | None:
        """The `@contextlib.contextmanager` generator of the module that `node` calls: a function of its top level
        (`lend(c)`), or a method every class the receiver may be runs (`surveyor.survey(section)`,
        `context_method`), else None."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return self.context_method(node.func)
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or node.func.id in self.local_names:
            return None
        name = node.func.id
        func = next((s for s in self.ctx.module.body if isinstance(s, ast.FunctionDef) and s.name == name), None)
        return func if func is not None and self.context_decorated(func) else None

    def context_decorated(self, func: ast.AST) -> bool:
        """Whether `func` is a function decorated `@contextlib.contextmanager` alone."""
        return (
            isinstance(func, ast.FunctionDef) and len(func.decorator_list) == 1
            and self.ctx.qualify(func.decorator_list[0]) in calls.CONTEXT_MANAGER_DECORATORS
        )

    def context_method(self, func: ast.Attribute) -> ast.FunctionDef | None:
        """The `@contextlib.contextmanager` method `name.method` runs: the same definition for every class the
        receiver may be (`receiver_classes`), else None."""
        if not isinstance(func.value, ast.Name) or self.kernel_body:
            return None
        candidates = receiver_classes(self, func.value.id)
        if not candidates:
            return None
        found = {id(d): d for cls in candidates if (d := self.ctx.classes.definition(cls, func.attr)) is not None}
        method = next(iter(found.values())) if len(found) == 1 else None
        return method if isinstance(method, ast.FunctionDef) and self.context_decorated(method) else None

    def with_phases(self, node: ast.expr) -> tuple[Callable[[ir.Place], None], Callable[[], None]] | None:
        """`with staged(pf, raw):` of a `@contextlib.contextmanager` generator of the module with one `yield`: what
        its body does before the `yield` and after it (`calls.with_phases`), each lowered as a function of its
        parameters whose summary is applied with the call's operands (`phase_summary`), when entering the item and
        when leaving the block; else None."""
        func = self.context_generator(node) if not self.kernel_body else None
        if func is None or not isinstance(node, ast.Call):
            return None
        if sum(isinstance(n, ast.Yield | ast.YieldFrom) for n in _walk(func.body)) != 1:
            return None
        classes = self.ctx.classes
        built = classes.memo.phases.get(id(func))
        if built is None:
            split = calls.with_phases(func.body, _is_yield_statement, _try_parts)
            if split is None:
                return None
            built = classes.memo.phases[id(func)] = (_phase_def(func, split[0], split[1]), _phase_def(func, split[1]))
        args = tuple(self.operand(a.value, a.keyword, bool(a.star)) for a in call_args(node))
        span = self.span(node)
        # a method's receiver binds its first parameter (`surveyor.survey(section)`: `self` is `surveyor`)
        receiver = self.operand(node.func.value, None, False) if isinstance(node.func, ast.Attribute) else None
        applied = [
            phase_summary(self, phase, args, span, receiver) for phase in built if isinstance(phase, ast.FunctionDef)
        ]
        if len(applied) != 2 or applied[0] is None or applied[1] is None:
            return None
        entering, leaving = applied[0], applied[1]
        return (
            lambda kept: apply_summary(entering, node, span, self, kept),
            lambda: apply_summary(leaving, node, span, self),
        )

    def with_methods(
        self, node: ast.expr, target: ast.expr | None, body: list[ast.stmt]
    ) -> tuple[Callable[[ir.Place], None], Callable[[ir.Place], None]] | None:
        """`with Prefetcher(raw) as pf:` of a constructor call the checker follows, or `with pf:` of an object whose
        classes `receiver_classes` knows, when each has an `__enter__` returning its receiver
        and an `__exit__`: their summaries, applied to the object's place (`context_methods`,
        `calls.WithItem.methods`); None when the target is not a plain name or the block may rebind it or `pf`
        (`_block_keeps`: the place would no longer be the object's when `__exit__` runs)."""
        if self.kernel_body or not (target is None or isinstance(target, ast.Name)):
            return None
        names = {target.id} if target is not None else set()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and self.constructs(node):
            candidates: tuple[ast.ClassDef, ...] | None = (self.ctx.classes.classes[node.func.id],)
        elif isinstance(node, ast.Name) and target is None:
            candidates = receiver_classes(self, node.id)
            names.add(node.id)
        else:
            return None
        if not candidates or not _block_keeps(body, names):
            return None
        return context_methods(self, candidates, node, self.span(node))

    def with_alias(self, node: ast.expr, target: ast.expr | None, body: list[ast.stmt]) -> tuple[str, str] | None:
        """`with staged(pf) as ready:` of a `@contextlib.contextmanager` generator of the module that yields one
        parameter, bound to the plain name `pf`, the block binding neither name and defining no function, class
        or lambda: `ready` stands for `pf` in the block (`calls.WithItem.renamed`); else None."""
        func = self.context_generator(node)
        if func is None or not isinstance(node, ast.Call) or not isinstance(target, ast.Name):
            return None
        yielded = set(_returned_params(func, yields=True) or ())
        method = isinstance(node.func, ast.Attribute)
        arg = _bind_call(func, node, method=method).get(next(iter(yielded))) if len(yielded) == 1 else None
        if not isinstance(arg, ast.Name) or arg.id == target.id or not _block_keeps(body, {arg.id, target.id}):
            return None
        return target.id, self.name(arg.id)

    def constructs(self, node: ast.Call) -> bool:
        """Whether `node` builds an object of a class whose initializer the checker follows (`Cls(...)`)."""
        func = node.func
        if self.kernel_body or not (isinstance(func, ast.Name) and func.id in self.ctx.classes.classes):
            return False
        return constructor_summary(self, func, ()) is not None

    def match_stmt(self, node: ast.Match) -> None:
        self.expr(node.subject)
        arms: list[ir.Block] = []
        irrefutable = False
        # A guard runs whenever its pattern matches, also when it then fails and a later case is tried: every later
        # arm (and falling out of the match) starts with "maybe the earlier guards ran".
        failed_guards: list[ir.Op] = []

        def bind_pattern(c: ast.match_case) -> None:
            captured = self.captures_of(c.pattern, node.subject)
            for sub in _walk(c.pattern):
                if isinstance(sub, ast.MatchAs | ast.MatchStar) and sub.name:
                    span = self.ctx.token_span(_Token(sub.name, sub, "match"))
                    source = captured.get(id(sub))
                    if source is not None:
                        self.emit(ir.Bind((ir.Place(self.name(sub.name)),), (ir.FromPlace(source, span),), span))
                    else:
                        self.bind_fresh(ir.Place(self.name(sub.name)), span)
                elif isinstance(sub, ast.MatchValue):
                    self.expr(sub.value)

        for case in node.cases:

            def lower_case(c: ast.match_case = case, prior: tuple[ir.Op, ...] = tuple(failed_guards)) -> None:
                for op in prior:
                    self.emit(op)
                bind_pattern(c)
                if c.guard is not None:
                    self.expr(c.guard)
                self.suite(c.body)

            arms.append(self.block(lower_case))
            guard = case.guard
            if guard is not None:

                def run_guard(c: ast.match_case = case, g: ast.expr = guard) -> None:
                    bind_pattern(c)
                    self.expr(g)

                failed_guards.append(ir.Branch((self.block(run_guard), ()), self.span(guard)))
            if case.guard is None and isinstance(case.pattern, ast.MatchAs) and case.pattern.pattern is None:
                irrefutable = True
        if not irrefutable:
            arms.append(tuple(failed_guards))
        self.emit(ir.Branch(tuple(arms), self.subject_span(node.subject)))

    def subject_span(self, subject: ast.expr) -> Span:
        """Where a `match` subject is: a tuple display's items, from the first to the last (both front ends: mypy
        keeps no parentheses, `match (a, c):` and `match a, c:` are one span), else the expression's span."""
        if isinstance(subject, ast.Tuple) and subject.elts:
            first, last = self.span(subject.elts[0]), self.span(subject.elts[-1])
            return Span(first.line, first.column, last.end_line, last.end_column)
        return self.span(subject)

    def captures_of(self, pattern: ast.pattern, subject: ast.expr) -> dict[int, ir.Place]:
        """The places the captures of a `match` pattern bind (by the capture pattern's id): the subject itself for
        `case ... as whole`, an item of a subject that is a container name or a display of places
        (`calls.captured_item`) for a capture in a sequence or mapping pattern, through `tuple(...)` / `list(...)` /
        `dict(...)` class patterns, which match the subject as a whole."""
        out: dict[int, ir.Place] = {}
        whole = self.place(subject)
        items: list[ir.Place | None]
        container = self.containers.get(subject.id) if isinstance(subject, ast.Name) else None
        if container is not None:
            assert isinstance(subject, ast.Name)
            raw = subject.id
            items = [calls.container_element(self.name(raw), raw, container, i) for i in range(len(container.keys))]
        elif (display := self.literal_display(subject)) is not None:
            container = calls.Container(tuple(range(len(display))), False)
            items = [self.place(item) for item in display]
        else:
            items = []

        def item(key: calls.ContainerKey, mapping: bool, after_star: bool = False) -> ir.Place | None:
            found = calls.captured_item(container, key, mapping, after_star) if container is not None else None
            return items[found] if found is not None else None

        def visit(p: ast.pattern) -> None:
            # `p` matches the subject as a whole
            if isinstance(p, ast.MatchAs):
                if p.name and whole is not None:
                    out[id(p)] = whole  # `case x:`, `case (a, b) as pair:`
                if p.pattern is not None:
                    visit(p.pattern)
                return
            if isinstance(p, ast.MatchClass):
                if self.builtin(p.cls) in ("tuple", "list", "dict") and len(p.patterns) == 1 and not p.kwd_patterns:
                    visit(p.patterns[0])
                elif whole is not None and (attrs := self.class_pattern_attributes(p)) is not None:
                    # `case St(x, dst=y):` binds `x` to `subject.src` and `y` to `subject.dst`
                    for attr, sub in zip(attrs, (*p.patterns, *p.kwd_patterns), strict=True):
                        if isinstance(sub, ast.MatchAs) and sub.pattern is None and sub.name:
                            found = self.place(ast.Attribute(subject, attr, ast.Load()))
                            if found is not None:
                                out[id(sub)] = found
                return
            if isinstance(p, ast.MatchSequence):
                star = next((i for i, sub in enumerate(p.patterns) if isinstance(sub, ast.MatchStar)), None)
                for position, sub in enumerate(p.patterns):
                    if isinstance(sub, ast.MatchAs) and sub.pattern is None and sub.name:
                        found = item(position, False, star is not None and position > star)
                        if found is not None:
                            out[id(sub)] = found
            elif isinstance(p, ast.MatchMapping):
                for key, sub in zip(p.keys, p.patterns, strict=True):
                    literal = _key_literal(key)
                    if isinstance(sub, ast.MatchAs) and sub.pattern is None and sub.name and literal is not None:
                        found = item(literal, True)
                        if found is not None:
                            out[id(sub)] = found

        visit(pattern)
        return out

    def class_pattern_attributes(self, p: ast.MatchClass) -> tuple[str, ...] | None:
        """The subject's attribute each sub-pattern of a class pattern of one of the module's classes matches
        (`calls.class_pattern_attributes`): positional ones by the class's own `__match_args__` (a tuple of string
        literals in its body, else the positional fields of the `__init__` `@dataclass` / `NamedTuple` generates).
        None for a class of elsewhere, a local one, or positions that cannot be named."""
        classes = self.ctx.classes
        if not isinstance(p.cls, ast.Name) or p.cls.id not in classes.classes:
            return None
        if p.cls.id in self.local_names and self.unit.kind != "module":
            return None
        cls = classes.classes[p.cls.id]
        match_args: tuple[str, ...] | None = None
        explicit = False
        for stmt in cls.body:
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
            if isinstance(stmt, ast.AnnAssign):
                target = stmt.target
            if isinstance(target, ast.Name) and target.id == "__match_args__":
                assert isinstance(stmt, ast.Assign | ast.AnnAssign)
                value = stmt.value
                explicit, match_args = True, None
                if isinstance(value, ast.Tuple) and all(
                    isinstance(el, ast.Constant) and isinstance(el.value, str) for el in value.elts
                ):
                    match_args = tuple(str(el.value) for el in value.elts if isinstance(el, ast.Constant))
        if not explicit and (generated := self.generated_init(cls)) is not None:
            match_args = generated.positional
        return calls.class_pattern_attributes(match_args, len(p.patterns), p.kwd_attrs)

    def bind_defaults(self, node: FunctionNode, unit: Unit, span: Span | None = None) -> None:
        """`def report(tag, field=density)` nested here: the function keeps the object each default that is a place
        was when the `def` ran, in a slot (`parameter_defaults.default_slot`), and a call omitting the parameter
        does to that object what the nested function does to the parameter (`closure_of`).  A lambda bound once
        to a name (`report = lambda tag, field=density: ...`, `unit` named by it, `span` the lambda's) alike."""
        slots: dict[str, ir.Place] = {}
        values: list[ir.Value] = []
        for param, default in _params(node.args):
            place = self.place(default) if default is not None else None
            if default is not None and place is not None:
                slots[param.arg] = parameter_defaults.default_slot(self.name(unit.name), param.arg)
                values.append(ir.FromPlace(place, self.span(default)))
        if not slots:
            return
        self.emit(ir.Bind(tuple(slots.values()), tuple(values), span or self.ctx.def_name_span(node)))
        reader = replace(unit, outer_containers=self.containers)
        found = parameter_defaults.read_defaults(
            FunctionLowerer(self.ctx, reader).lower(),
            slots,
            [p.arg for p in (*node.args.posonlyargs, *node.args.args)],
            [p.arg for p in _param_names(node.args)],
        )
        if found is not None:
            self.defaults[unit.name] = found

    def kind_of(self, node: FunctionNode) -> str:
        for dec in node.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            qualified = self.ctx.qualify(target)
            if qualified == "safekernels.simt.kernel":
                return "simt"
            if qualified == "safekernels.tile.kernel":
                return "tile"
            if qualified == "safekernels.simt.device":
                return "device"
        return "function"

    def function_def(self, node: FunctionNode) -> None:
        for dec in node.decorator_list:
            self.expr(dec)
        for _, default in _params(node.args):
            if default is not None:
                self.expr(default)
        captured: list[str] = []
        if self.unit.kind != "module":
            captured = self.captures(node, {p.arg for p in _param_names(node.args)})
        outer = frozenset(self.device)
        enclosing = self.unit.node if isinstance(self.unit.node, _FUNCTION_DEFS) else None
        unit = Unit(node.name, node, self.kind_of(node), outer, self.kernels, enclosing=enclosing)
        self.nested.append(unit)
        self.bind_fresh(ir.Place(self.name(node.name)), self.ctx.def_name_span(node))
        self.closures.pop(unit.name, None)
        self.defaults.pop(unit.name, None)
        if self.unit.kind != "module" and unit.kind == "function":
            self.bind_defaults(node, unit)
        if self.unit.kind != "module" and unit.kind == "function":
            # a call of it may move the captured values, and rebind the names it declares `nonlocal`
            declared = [name for sub in _walk(node) if isinstance(sub, ast.Nonlocal) for name in sub.names]
            if captured or declared:
                # a sibling nested function it calls (or awaits) by name does what that one's call does
                siblings = {n: self.closures[n] for n in captured if n in self.closures}
                reader = replace(
                    unit, outer_containers=self.containers, outer_closures=siblings, outer_names=self.enclosing_names()
                )
                params = [p.arg for p in _param_names(node.args)]
                inherited = [name for effects in siblings.values() for name in effect_names(effects)]
                effects = nonlocal_effects(
                    FunctionLowerer(self.ctx, reader).lower(), [*captured, *declared, *inherited], params
                )
                if not effects.empty:
                    self.closures[unit.name] = effects

    def enclosing_names(self) -> frozenset[str]:
        """The local names of this function and of the functions it is nested in (`Unit.outer_names`): what a
        function nested in it may capture from the caller of a call of it."""
        return self.unit.outer_names | self.local_names

    def captures(self, node: FunctionNode | ast.Lambda, params: set[str]) -> list[str]:
        """A nested function or lambda reads the enclosing names it mentions: each counts as a use, here.  Returns
        those names as the nested body spells them."""
        assigned: set[str] = set(params)
        for sub in _walk(node, skip_scopes=False):
            if isinstance(sub, ast.Assign):
                for target in sub.targets:
                    assigned.update(_target_names(target))
            elif isinstance(sub, ast.With | ast.AsyncWith | ast.For | ast.AsyncFor | ast.AugAssign | ast.NamedExpr):
                # `with hold(...) as held:` binds the nested function's own `held`, not the caller's (as a `for`,
                # an augmented assignment or a walrus does), as the plugin reads it
                for target in _local_targets(sub):
                    assigned.update(_target_names(target))
            elif isinstance(sub, ast.ExceptHandler) and sub.name is not None:
                assigned.add(sub.name)
            elif isinstance(sub, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef) and sub is not node:
                # a scope nested in it binds its parameters: their mentions there are not the caller's names
                # (`run = lambda p, s: helper(p, s)` beside a pending op `p`), as the plugin reads them
                assigned.update(arg.arg for arg in _param_names(sub.args))
        seen: set[str] = set()
        body: ast.AST | list[ast.stmt] = node.body
        # `nonlocal x` / `global x` declare a name, they do not read it (mypy's AST has no name node there)
        found: list[str] = []
        # in source order (the first mention of each name is its use, whatever order the tree walk takes:
        # `(vecadd, prep) if fuse else ...` reads `fuse` first but mentions `prep` first), as the plugin's
        mentions = [(self.ctx.token_span(t), t.name) for t in _name_tokens(body) if t.kind not in ("arg", "keyword")]
        for span, raw in sorted(mentions, key=lambda m: (m[0].line, m[0].column)):
            name = self.name(raw)
            if raw in assigned or name in seen:
                continue
            if name == raw and raw not in self.local_names and raw not in self.unit.outer_names:
                continue
            seen.add(name)
            found.append(raw)
            self.emit(ir.Use(ir.Place(name, (), raw if name != raw else None), span))
        return found

    # --- assignment -----------------------------------------------------------------------------------------

    def bind_fresh(self, place: ir.Place, where: ast.AST | Span, kind: str = "value") -> None:
        span = where if isinstance(where, Span) else self.span(where)
        self.emit(ir.Bind((place,), (ir.Fresh(kind),), span))

    def target(self, node: ast.expr) -> calls.Target[ast.expr]:
        """An assignment target as the core's neutral shape (`a, *b` items are bound like `a, b`)."""
        if isinstance(node, ast.Tuple | ast.List):
            items = tuple(self.target(el) for el in node.elts)
            starred = any(isinstance(el, ast.Starred) for el in node.elts)
            return calls.UnpackTarget(items, self.span(node), starred)
        if isinstance(node, ast.Starred):
            return calls.StarTarget(self.target(node.value))
        place = self.place(node)
        if place is not None:
            root_span = self.span(node.value) if isinstance(node, ast.Attribute) else None
            return calls.PlaceTarget(place, self.span(node), root_span)
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and (container := self.containers.get(node.value.id)) is not None
            and (index := calls.stored_element(container, _key_literal(node.slice))) is not None
        ):
            # `heads["k"] = v` of a container: that item is `v` from here on (`calls.stored_element`)
            raw = node.value.id
            return calls.PlaceTarget(calls.container_element(self.name(raw), raw, container, index), self.span(node))
        if isinstance(node, ast.Subscript):
            # `bufs["a"] = v` of a container the checker knows no items of: that item is `v` from here on
            # (a store under a parameter key is a store under a computed one: code iterating the container's
            # values may run what it stores, `self.inflight[name] = op`, so the container keeps it)
            key = _key_literal(node.slice)
            item = self.keyed_item(node.value, key) if key is not None else None
            return calls.OtherTarget(node, self.place(node.value), self.span(node), item)
        return calls.OtherTarget(node)

    def bind(self, target: ast.expr, value: ir.Value) -> None:
        calls.bind_target(self.target(target), value, self)

    def set_default(self, target: ast.Name, value: ast.expr) -> bool:
        """`trace = self.traces.setdefault(name, FlightTrace.allocate(n, s))`: the name is bound to the default (the
        object it builds, with its fields: `allocate` may give one buffer as two of them) or to the item the container
        already holds under the key, one arm each; False for any other assignment."""
        parts = _setdefault_parts(value) if not self.kernel_body else None
        if parts is None or self.place(parts[0]) is None:
            return False
        container, key, default = parts
        read = ast.copy_location(ast.Subscript(container, key, ast.Load()), value)
        built = self.block(lambda: self.assign([target], default))
        kept = self.block(lambda: self.assign([target], read))
        self.emit(ir.Branch((built, kept), self.span(value)))
        return True

    def assign(self, targets: Sequence[ast.expr], value: ast.expr) -> None:
        if len(targets) == 1 and isinstance(value, ast.Call) and self.copied_fields(targets[0], value):
            return
        if len(targets) == 1 and isinstance(targets[0], ast.Name) and self.set_default(targets[0], value):
            return
        if self.taken_views(targets, value):
            return
        if self.unpacked_comprehension(targets, value):
            return
        if len(targets) == 1 and isinstance(targets[0], ast.Name) and targets[0].id in self.containers:
            raw = targets[0].id
            found = self.display_items(value)
            target = self.target(targets[0])
            if found is not None and isinstance(target, calls.PlaceTarget):
                container = self.containers[raw]
                nested = {k: sub for k, item in found[0] if (sub := _nested_display(item)) is not None}
                span = self.span(targets[0])
                calls.assign_container(target, self.name(raw), raw, container, found[0], span, self, nested)
                self.lengths[raw] = len(found[0])
                return
            repeated = _repeated_display(value)
            if repeated is not None and isinstance(target, calls.PlaceTarget):
                # `stages = [sk.zeros(...)] * 3`: every index holds the display item's one object
                container = self.containers[raw]
                calls.assign_repeated(target, self.name(raw), raw, container, repeated, self.span(targets[0]), self)
                if repeated.counted:
                    self.lengths[raw] = len(repeated.order)
                else:
                    self.lengths.pop(raw, None)
                return
            returned = self.returned_displays(value)
            if returned is not None and isinstance(target, calls.PlaceTarget):
                # `params = init_params(w)`: the items of the display each `return` of the helper gives
                assert isinstance(value, ast.Call)
                self.call(value, None)
                given = [[(key, item()) for key, item in items] for items in returned[0]]
                container = self.containers[raw]
                calls.assign_returned_container(target, self.name(raw), raw, container, given, self.span(value), self)
                self.lengths[raw] = len(container.keys)
                return
            registry = self.registry_comprehension(value)
            if registry is not None and isinstance(target, calls.PlaceTarget):
                # `preps = {n: k.prepare(...) for n, k in KERNELS.items()}`: item `n` is what the value evaluates
                # to in the iteration over the registry's entry `n` (a prepared launch keeps its brand)
                dict_comp, keys, item = registry
                self.expr(dict_comp.generators[0].iter)
                span = self.span(targets[0])
                calls.assign_registry_dict(target, self.name(raw), raw, self.containers[raw], keys, item, span, self)
                self.lengths[raw] = len(keys)
                return
            if isinstance(value, ast.DictComp) and isinstance(target, calls.PlaceTarget):
                # `bufs = {k: make(k) for k in names}`: new values under the keys the function reads
                self.expr(value)
                opened = self.containers[raw]
                calls.assign_container(target, self.name(raw), raw, opened, (), self.span(targets[0]), self)
                self.lengths[raw] = len(opened.keys)
                return
            if isinstance(value, ast.IfExp) and _display_options(value) and isinstance(target, calls.PlaceTarget):
                # `plan = (a, a) if inplace else (a, b)`: each arm binds the container's items as its display does
                self.expr(value.test)
                arms = (
                    self.block(functools.partial(self.assign, targets, value.body)),
                    self.block(functools.partial(self.assign, targets, value.orelse)),
                )
                self.emit(ir.Branch(arms, self.span(value)))
                return
            built = self.built_list(value)
            if built is not None and isinstance(target, calls.PlaceTarget):
                comp, count, taken = built
                self.expr(comp.generators[0].iter)
                item = functools.partial(self.built_item, comp, taken)
                span = self.span(targets[0])
                calls.assign_built_list(target, self.name(raw), raw, self.containers[raw], count, item, span, self)
                self.lengths[raw] = count
                return
        if len(targets) == 1 and isinstance(targets[0], ast.Attribute) and self.keyed_display(targets[0], value):
            return
        split: calls.SplitAt[ast.expr] | None = None
        items: tuple[ast.expr, ...] | None = None
        method = value.func.attr if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) else None
        if method == calls.SPLIT_METHOD:
            assert isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            base = self.place(value.func.value)
            if base is not None:
                split = calls.SplitAt(base, tuple(a.value for a in call_args(value)), self.span(value))
        elif isinstance(value, ast.Tuple | ast.List) and not any(isinstance(e, ast.Starred) for e in value.elts):
            items = tuple(value.elts)
        elements: tuple[ir.Place, ...] | None = None
        if isinstance(value, ast.Name) and (sequence := self.containers.get(value.id)) is not None:
            elements = calls.sequence_elements(self.name(value.id), value.id, sequence)
        elif any(isinstance(t, ast.Tuple | ast.List) for t in targets):
            elements = self.iterated_places(value)
            if elements is None and (got := self.getter_places(value)) is not None and got[1]:
                elements = got[0]  # `src, dst = itemgetter("input", "output")(roles)`: the items themselves
        stars: tuple[ir.Place, ...] | None = None
        if (star := _starred_take(targets, value)) is not None and (rest := self.containers.get(star[0])):
            stars = calls.sequence_elements(self.name(star[0]), star[0], rest)
            self.lengths[star[0]] = star[1]
        selects = self.selected_container(value)
        unpacked = len(targets) == 1 and isinstance(targets[0], ast.Tuple | ast.List)
        repeated = _repeated_display(value) if unpacked else None
        shape = calls.Assignment(
            tuple(self.target(t) for t in targets), value, split, items, elements, stars, selects, repeated
        )
        calls.lower_assignment(shape, self)

    def keyed_display(self, target: ast.Attribute, value: ast.expr) -> bool:
        """`obj.bufs = {"inp": a, "out": b}` of literal keys: its items are kept under their keys
        (`calls.assign_keyed_items`); False (nothing lowered) for any other value or a target the checker keeps no
        items of."""
        if self.kernel_body:
            return False
        registry = self.registry_comprehension(value) if isinstance(value, ast.DictComp) else None
        if registry is not None:
            keys: list[calls.ContainerKey | None] = list(registry[1])
            lowered: list[Callable[[], ir.Value]] = [functools.partial(registry[2], i) for i in range(len(keys))]
        elif isinstance(value, ast.Dict) and value.keys:
            keys = [_key_literal(k) if k is not None else None for k in value.keys]
            lowered = [functools.partial(self.value, v) for v in value.values]
        else:
            return False
        places = [self.keyed_item(target, k) if k is not None else None for k in keys]
        if any(p is None for p in places) or len(set(keys)) != len(keys):
            return False
        shape = self.target(target)
        if not isinstance(shape, calls.PlaceTarget):
            return False
        if registry is not None:
            self.expr(registry[0].generators[0].iter)
        items = [(p, f) for p, f in zip(places, lowered, strict=True) if p is not None]
        calls.assign_keyed_items(shape, items, self.span(target), self)
        return True

    def selected_container(self, value: ast.expr) -> ir.Place | None:
        """The container place whose items a call makes a new list of (`heapq.nsmallest(3, heap)`:
        `stdlib_flow.selected_operand`), else None."""
        if not isinstance(value, ast.Call) or any(isinstance(a, ast.Starred) for a in value.args):
            return None
        keywords = [k.arg for k in value.keywords]
        position = stdlib_flow.selected_operand(self.stdlib_name(value.func), len(value.args), keywords)
        return None if position is None else self.place(value.args[position])

    def selected_loop(self, node: ast.expr) -> tuple[ir.Place, bool] | None:
        """A loop over a name bound once to a list a call made of a container's items (`leaders` of `leaders =
        heapq.nsmallest(3, heap)`), or over `enumerate` of it: the name's place and whether enumerated
        (`calls.bind_selected_iteration`); else None."""
        inner = self.enumerated(node)
        enumerated = inner is not None
        node = node if inner is None else inner
        if not isinstance(node, ast.Name) or (call := self.iterators.get(node.id)) is None:
            return None
        place = self.place(node) if self.selected_container(call) is not None else None
        return None if place is None else (place, enumerated)

    def copied_fields(self, target: ast.expr, value: ast.Call) -> bool:
        """`low = dataclasses.replace(step, dst=step.src)`, `clone = copy.copy(step)` of a name whose class is a
        dataclass (or `NamedTuple`) of this module with fields the checker follows: the new object's fields are
        `step`'s, except those replaced (`stdlib_flow.bind_fields`).  False, lowering nothing, for anything else."""
        form = self.copy_form(value)
        if form is None:
            return False
        copied = form[0]
        cls = receiver_class(self, copied.id)
        source = self.place(copied)
        placed = self.target(target)
        if cls is None or source is None or not isinstance(placed, calls.PlaceTarget):
            return False
        classes = self.ctx.classes
        if id(cls) not in classes.generated:
            classes.generated[id(cls)] = generated_fields(cls, self.ctx.qualify)
        generated = classes.generated[id(cls)]
        if generated is None or not generated.followed:
            return False
        fields = (*generated.positional, *generated.keyword_only)
        replaced = form[1]
        if any(name not in fields for name, _ in replaced):
            return False
        stdlib_flow.bind_fields(placed, source, fields, replaced, self.span(copied), self)
        return True

    def copy_form(self, value: ast.Call) -> tuple[ast.Name, list[tuple[str, ast.expr]]] | None:
        """`dataclasses.replace(step, dst=step.src)`, `copy.copy(step)`, `step._replace(dst=step.src)` (a `fields`
        entry of `stdlib_flow`) of a name: the name copied and the replaced fields, else None."""
        flow = stdlib_flow.stdlib_flow(self.stdlib_name(value.func))
        copied = value.args[0] if len(value.args) == 1 else None
        if isinstance(value.func, ast.Attribute) and not value.args:
            # `low = step._replace(dst=step.src)` of a `NamedTuple`: the receiver is the operand
            flow, copied = stdlib_flow.FIELD_METHODS.get(value.func.attr), value.func.value
        if flow is None or flow.relation != "fields" or not isinstance(copied, ast.Name):
            return None
        if (value.keywords and not flow.replaces) or any(k.arg is None for k in value.keywords):
            return None
        return copied, [(k.arg, k.value) for k in value.keywords if k.arg is not None]

    def returned_copy(
        self, value: ast.expr, helper: FunctionNode, call: ast.Call
    ) -> tuple[list[calls.ReturnedItem], list[ir.Place], Callable[[], calls.FieldParts]] | None:
        """For `calls.returned_object`: a `return` of `helper` copying a parameter's object (`return
        plan._replace(dst=plan.src)`, `dataclasses.replace(plan, ...)`, `copy.copy(plan)`; `copy_form`) that the
        call binds to a name of a dataclass (or `NamedTuple`) of this module whose fields the checker follows (as
        `copied_fields` reads `low = plan._replace(...)`): each field is the caller's value of that field of the
        argument, or the replacement (a parameter's attribute path: the caller's place below its argument).  None
        for anything else, or when the helper stores any attribute (the fields may no longer be the caller's)."""
        form = self.copy_form(value) if isinstance(value, ast.Call) else None
        if form is None or any(
            isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store | ast.Del) for n in _walk(helper.body)
        ):
            return None
        passed = _bind_call(helper, call)
        params = {p.arg for p in _param_names(helper.args)}

        def argument(node: ast.expr) -> ast.Name | None:
            # the caller's name the call binds a parameter to, one the helper never rebinds
            if not (isinstance(node, ast.Name) and _returned_name(helper, node) in params):
                return None
            found = passed.get(node.id)
            return found if isinstance(found, ast.Name) else None

        copied = argument(form[0])
        source = self.place(copied) if copied is not None else None
        cls = receiver_class(self, copied.id) if copied is not None else None
        if source is None or cls is None:
            return None
        classes = self.ctx.classes
        if id(cls) not in classes.generated:
            classes.generated[id(cls)] = generated_fields(cls, self.ctx.qualify)
        generated = classes.generated[id(cls)]
        fields = (*generated.positional, *generated.keyword_only) if generated is not None else ()
        given = dict(form[1])
        if generated is None or not generated.followed or any(name not in fields for name in given):
            return None

        def item(expr: ast.expr) -> calls.ReturnedItem:
            node, path = expr, list[str]()
            while isinstance(node, ast.Attribute):
                path.insert(0, node.attr)
                node = node.value
            named = argument(node) if path else None
            base = self.place(named) if named is not None else None
            if base is not None:
                return stdlib_flow.path_place(base, path)
            return self.returned_entry(expr, helper, call)

        items = [item(given[f]) if f in given else stdlib_flow.path_place(source, (f,)) for f in fields]
        stages = [self.temp(f) for f in fields]
        return items, stages, functools.partial(stdlib_flow.copied_parts, fields, stages, self.span(call), self)

    def registry_comprehension(
        self, node: ast.expr
    ) -> tuple[ast.DictComp, list[calls.ContainerKey], Callable[[int], ir.Value]] | None:
        """`{n: f(k) for n, k in REG.items()}` (`_registry_form`) over a name bound once here to a dict display of
        literal keys (`self.registries`), or a dict comprehension over an iterable the source lists
        (`static_iterables.dict_comprehension`: `zip(NAMES, KERNELS)` of tables): the comprehension, the built
        dict's keys, one per iteration, and what lowers iteration `i` (`calls.assign_registry_dict`)."""
        form = _registry_form(node)
        entries = self.registries.get(form[1]) if form is not None else None
        if form is not None and entries and len(entries) <= calls.MAX_CONTAINER_ITEMS:
            return form[0], [key for key, _ in entries], functools.partial(self.registry_item, form[0], entries)
        static = static_iterables.dict_comprehension(static_iterables.scope_of(self), node)
        if static is None or not isinstance(static.node, ast.DictComp):
            return None
        return static.node, list(static.keys), functools.partial(self.static_item, static)

    def static_item(self, static: static_rows.StaticComprehension[ast.expr], index: int) -> ir.Value:
        """Iteration `index` of a dict comprehension over an iterable the source lists: each target name bound to
        the item it takes there (the object a place names, else a new value; a kernel's name keeps its kernel, so
        `k.prepare(...)` is branded), under the comprehension's renames; the value's value."""
        node = static.node
        assert isinstance(node, ast.DictComp)
        comp = node.generators[0]
        self.tmp += 1
        renames = {raw: f"{raw}$c{self.tmp}" for raw in _target_names(comp.target)}
        bindings = static.bindings[index]
        shadowed = {name: self.kernels.get(name) for name in bindings}
        self.renames.append(renames)
        try:
            targets = comp.target.elts if isinstance(comp.target, ast.Tuple | ast.List) else [comp.target]
            for target in targets:
                if not isinstance(target, ast.Name) or target.id not in bindings:
                    continue
                item = bindings[target.id]
                source = None if isinstance(item, ast.Constant) else self.place(item)
                self.bind(target, ir.FromPlace(source, self.span(comp.iter)) if source is not None else ir.Fresh())
                kernel = self.kernel_of(item)
                if kernel is not None:
                    self.kernels[target.id] = kernel
                else:
                    self.kernels.pop(target.id, None)
            self.expr(node.key)
            return self.value(node.value)
        finally:
            self.renames.pop()
            for name, kernel in shadowed.items():
                if kernel is not None:
                    self.kernels[name] = kernel
                else:
                    self.kernels.pop(name, None)

    def registry_item(
        self, node: ast.DictComp, entries: list[tuple[calls.ContainerKey, ast.expr]], index: int
    ) -> ir.Value:
        """Iteration `index` of a dict comprehension over a registry (`registry_comprehension`): its key target a
        new value (the literal key), its value target the registry's item there (a kernel when the item names
        one, so `k.prepare(...)` is branded), under the comprehension's renames; the item's value."""
        comp = node.generators[0]
        assert isinstance(comp.target, ast.Tuple) and isinstance(comp.iter, ast.Call)
        key_target, value_target = comp.target.elts
        assert isinstance(value_target, ast.Name) and isinstance(comp.iter.func, ast.Attribute)
        registry = comp.iter.func.value
        assert isinstance(registry, ast.Name)
        self.tmp += 1
        renames = {raw: f"{raw}$c{self.tmp}" for raw in _target_names(comp.target)}
        kernel = self.kernel_of(entries[index][1])
        shadowed = self.kernels.get(value_target.id)
        self.renames.append(renames)
        try:
            self.bind(key_target, ir.Fresh())
            container = self.containers.get(registry.id)
            place = (
                calls.container_element(self.name(registry.id), registry.id, container, index)
                if container is not None and container.mapping and len(container.keys) == len(entries)
                else None
            )
            self.bind(value_target, ir.FromPlace(place, self.span(comp.iter)) if place is not None else ir.Fresh())
            if kernel is not None:
                self.kernels[value_target.id] = kernel
            self.expr(node.key)
            return self.value(node.value)
        finally:
            self.renames.pop()
            if shadowed is not None:
                self.kernels[value_target.id] = shadowed
            else:
                self.kernels.pop(value_target.id, None)

    def built_item(
        self, node: ast.ListComp, items: tuple[ast.expr, ...] | None, index: int, holder: ir.Place | None
    ) -> ir.Value:
        """Iteration `index` of a comprehension building a container list (`built_list`): its target bound to the
        display's item `index` (a new value from `range`), under the comprehension's renames; the element's value,
        held by the list's item place `holder` (an op built there keeps its loans)."""
        comp = node.generators[0]
        self.tmp += 1
        renames = {raw: f"{raw}$c{self.tmp}" for raw in _target_names(comp.target)}
        self.renames.append(renames)
        key = _key_literal(items[index]) if items is not None and isinstance(comp.target, ast.Name) else None
        if key is not None:
            assert isinstance(comp.target, ast.Name)
            self.literal_keys[comp.target.id] = key  # `energy[lead]` of `for lead in ("I", "II")` is `energy["I"]`
        try:
            if items is not None:
                self.assign([comp.target], items[index])
            else:
                self.bind(comp.target, ir.Fresh())
            return self.value(node.elt, holder)
        finally:
            self.renames.pop()
            if key is not None:
                assert isinstance(comp.target, ast.Name)
                del self.literal_keys[comp.target.id]

    def value(self, node: ast.expr, holder: ir.Place | None = None) -> ir.Value:
        """Lower an expression whose result is bound to a name: an alias, a view or a fresh object."""
        if isinstance(node, ast.Attribute):
            if node.attr in self.ctx.shared_getters and self.shared_getter_read(node):
                self.expr(node.value)
                return ir.Fresh(calls.SHARED_OP)
            self.property_read(node)
            getter_views = self.getter_views(node)
            if getter_views is not None:  # `arena.tension` of a property returning `self.buf.view(a, b)`
                return calls.returned_views(getter_views, self.span(node), self)
        place = self.place(node)
        if place is not None:
            return ir.FromPlace(place, self.span(node))
        if isinstance(node, ast.Constant) and (literal := calls.literal_kind(node.value)) is not None:
            return ir.Fresh(literal)
        if isinstance(node, ast.NamedExpr):
            inner = self.value(node.value, self.place(node.target))
            self.bind(node.target, inner)
            target = self.place(node.target)
            return ir.FromPlace(target, self.span(node.target)) if target is not None else ir.Fresh()
        view = self.view_shape(node)
        if view is not None:
            bound = calls.bind_view(view, self.span(node), self)
            if bound is not None:
                return bound
        if isinstance(node, ast.IfExp):
            self.expr(node.test)
            body_node, else_node = node.body, node.orelse
            return calls.choose_value(
                [(lambda: self.value(body_node), self.span(body_node)),
                 (lambda: self.value(else_node), self.span(else_node))],
                self.span(node.test), self.span(node), self,
            )
        if isinstance(node, ast.Await):
            return self.awaited_value(node, holder)
        if isinstance(node, ast.Yield):
            self.expr(node)
            return callables.received_value()
        if isinstance(node, ast.BoolOp | ast.Subscript | ast.Call | ast.Attribute) and not self.computed_index(node):
            found = self.choices(node, self.span(node), 0)
            if found is not None:
                return calls.bind_choices(found, self.span(node), self)
        method_returns = self.method_returned_tuples(node) if isinstance(node, ast.Call) else None
        if method_returns is not None and isinstance(node, ast.Call):
            # `lhs, rhs, out = mode.operands(x, bias, scratch)` of a method returning `x, bias, x` on one path
            lowered = self.call(node, None)
            if calls.returned_parts_value(lowered):
                return lowered  # `return staged, k.launch_async(prep, x, staged)`: its parts, an op's loans kept
            return calls.returned_tuple(method_returns, self.span(node), self)
        bump = self.bump_calls().get(id(node)) if isinstance(node, ast.Call) else None
        if bump is not None and isinstance(node, ast.Call):
            # `image = arena.alloc(h, w)` of a bump allocator: a view no other call of its run overlaps
            self.call(node, None)
            return calls.bump_view(*bump, self.span(node), self, self.bump_sites)
        method_views = self.method_returned_views(node) if isinstance(node, ast.Call) else None
        if method_views is not None and calls.all_views(method_views) and isinstance(node, ast.Call):
            # `left = planar.channel(0)` of a method returning `self.buf[start:stop]`: a view of `planar.buf`
            self.call(node, None)
            return calls.returned_views(method_views, self.span(node), self)
        helper = self.plain_callee(node) if isinstance(node, ast.Call) else None
        if isinstance(node, ast.Call) and helper is not None:
            # (`def outer(buf, n): return inner(buf, n, 1)`: `inner`'s returns, its arguments the caller's)
            giving, given = self.returning_call(helper, node)
            returns = _returned_tuples(giving)
            if returns is not None:
                lowered = self.call(node, None)
                if calls.returned_parts_value(lowered):
                    return lowered  # `return staged, k.launch_async(prep, x, staged)`: its parts, loans kept
                displays = [r.elts for r in _returned_values(giving) if isinstance(r, ast.Tuple)]
                shaped = [
                    tuple(self.returned_entry(element, giving, given) for element in elements)
                    for elements in displays
                ]
                return calls.returned_tuple(shaped, self.span(node), self)
            returned = _returned_values(giving)
            if returned and all(r is not None for r in returned):
                passed = _bind_call(giving, given)
                params = {p.arg for p in _param_names(giving.args)}
                views = [self.returned_item(None, r, params, passed, giving, given) for r in returned if r is not None]
                if calls.all_views(views):  # `def head(buf): return buf[:n]`
                    self.call(node, None)
                    return calls.returned_views(views, self.span(node), self)
            placed = holder is not None and holder.root != ir.RETURN_HOLDER
            built = self.returned_objects(helper, node) if placed else None
            memoized = self.memoized_call(node) if built is not None else None
            if built is not None and memoized is not None:
                # `plans = plans_for(n, dev)` of a memoised helper returning `Plans(a.prepare(...), ...)`: the object
                # its cache keeps (`memo.memo_result`), with the fields the first call gave it
                self.plain_call(node, None)
                span = self.span(node)
                staged = self.temp("value")
                calls.bind_target(calls.PlaceTarget(staged, span), calls.returned_object(built, span, self), self)
                kept = memo_result(self.memo, *memoized, ir.FromPlace(staged, span), span, self)
                self.emit(ir.Del(staged, span))
                return kept
            if built is not None:
                self.call(node, None)
                return calls.returned_object(built, self.span(node), self)
        factory = self.class_factory(node) if holder is not None and holder.root != ir.RETURN_HOLDER else None
        if factory is not None and isinstance(node, ast.Call):
            # `track = Track.mono(n, s)` of a `@classmethod` returning `cls(left=buf, right=buf)`
            built = self.returned_objects(factory[0], node, factory[1])
            if built is not None:
                self.call(node, None)
                return calls.returned_object(built, self.span(node), self)
        comprehension = self.built_comprehension(node)
        stage = calls.comprehension_stage(holder, self.span(node), self) if comprehension is not None else None
        if comprehension is not None and stage is not None:
            # `ops = [k.launch_async(...) for x in xs]`: the container keeps every op the comprehension built
            self.comprehension(comprehension, stage)
            return calls.kept_comprehension(stage)
        if isinstance(node, ast.Call):
            return self.call(node, holder)
        items = self.literal_display(node)
        stored = calls.stored_display([(i, self.span(i)) for i in items], holder, self) if items is not None else None
        if stored is not None:  # `ops.append((k.launch_async(...), out))`: the container keeps the op too
            return stored
        calls_shown = self.display_of_calls(node)
        kept_display = calls.staged_display(calls_shown, holder, self.span(node), self) if calls_shown else None
        if kept_display is not None:  # `pending = {"a": k.launch_async(...)}`: the container keeps the op
            return kept_display
        self.expr(node)
        if isinstance(node, ast.Subscript) and (raw := computed_dotted(node.value)) is not None:
            container = self.place(node.value)
            form = index_form(node.slice, self.builtin)
            read = self.computed.read(container, raw, form, id(node), self.span(node)) if container else None
            if read is not None:  # `parts[i]` read again with `i` unchanged: the same object
                if read[0] is not None:
                    self.emit(read[0])
                return read[1]
        return ir.Fresh()

    def display_of_calls(self, node: ast.expr) -> list[tuple[ast.expr, Span]]:
        """The items of a list or set display, or the values of a dict display under literal keys, with their
        spans, when one of them is a call (`calls.staged_display`); else empty.  Not a tuple display: its span is
        not the same in both front ends (mypy leaves its parentheses out)."""
        if isinstance(node, ast.List | ast.Set):
            items: list[ast.expr] = list(node.elts)
        elif isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) for k in node.keys):
            items = list(node.values)
        else:
            return []
        if any(isinstance(item, ast.Starred) for item in items) or not any(isinstance(i, ast.Call) for i in items):
            return []
        return [(item, self.span(item)) for item in items]

    def built_comprehension(
        self, node: ast.expr
    ) -> ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp | None:
        """The comprehension that builds at once the container `node` gives (`calls.comprehension_stage`): a list,
        set or dict comprehension, or a generator expression given alone to builtin `list`, `tuple` or `set` (a
        generator expression on its own runs nothing until it is iterated); else None."""
        if isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp):
            return node
        if (
            isinstance(node, ast.Call)
            and self.builtin(node.func) in ("list", "tuple", "set")
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.GeneratorExp)
        ):
            return node.args[0]
        return None

    def returned_displays(self, node: ast.expr) -> tuple[list[ReturnedEntries], bool] | None:
        """`helper(...)` of a plain function whose every `return` is a display (`_returned_displays`), or a dict
        comprehension over a registry (`returned_registry`): each `return`'s keyed items (what each is, lowered
        when called) and whether they are a mapping's."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            return None
        helper = self.helper(node.func.id)
        if helper is None:
            return None
        found = _returned_displays(helper) or self.returned_filled(helper)
        if found is not None:
            entry = self.returned_entry
            arms: list[ReturnedEntries] = [
                [(k, functools.partial(entry, item, helper, node)) for k, item in items] for items, _ in found
            ]
            return arms, found[0][1]
        built = _built_return(helper)
        if built is not None:
            # `return roles` of a dict a display and literal-key stores built: each key's last value
            entries = calls.built_entries(
                built[0],
                built[1],
                _options,
                lambda arm: _key_literal(arm.slice)
                if isinstance(arm, ast.Subscript) and isinstance(arm.value, ast.Name) and arm.value.id == built[0]
                else None,
                lambda arm: self.returned_entry(arm, helper, node),
            )
            return ([entries], True) if entries is not None else None
        registry = self.returned_registry(helper)
        return ([registry], True) if registry is not None else None

    def returned_filled(
        self, helper: FunctionNode
    ) -> list[tuple[list[tuple[calls.ContainerKey, ast.expr]], bool]] | None:
        """A helper whose one `return` is `dict.fromkeys(names, sk.zeros(...))` (`stdlib_flow.filled_entries`): the
        dict of one object under every key, as `_returned_displays` gives a display's items."""
        returned = [r.value for r in _walk(helper.body) if isinstance(r, ast.Return)]
        if len(returned) != 1 or returned[0] is None or isinstance(helper, ast.AsyncFunctionDef):
            return None
        shown = self.display_items(returned[0]) if isinstance(returned[0], ast.Call) else None
        return [shown] if shown is not None and [k for k, _ in shown[0]] == [calls.FILLED_KEY] else None

    def returned_registry(self, helper: FunctionNode) -> ReturnedEntries | None:
        """The items of the dict a helper returns when its one `return` is `{n: k.prepare(...) for n, k in
        REG.items()}` (`registry_comprehension`'s form) over a registry `REG` bound once in the helper or, when the
        helper binds no such name, at the module's top level (`_registry_binding`): one item per entry of REG,
        under its key, a launch prepared for the kernel the entry names (else a new value)."""
        returned = [r.value for r in _walk(helper.body) if isinstance(r, ast.Return)]
        if len(returned) != 1 or isinstance(helper, ast.AsyncFunctionDef):
            return None
        shape = _registry_form(returned[0])
        if shape is None:
            return self.returned_static(helper, returned[0])
        registry = shape[1]
        if registry in _bound_names(helper):
            entries = _registry_binding(helper.body, registry)
        else:
            entries = _registry_binding(self.ctx.module.body, registry)
        if not entries or len(entries) > calls.MAX_CONTAINER_ITEMS:
            return None
        target = shape[0].generators[0].target
        assert isinstance(target, ast.Tuple) and isinstance(target.elts[1], ast.Name)
        value = shape[0].value
        prepares = (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == PREPARE_METHOD
            and isinstance(value.func.value, ast.Name) and value.func.value.id == target.elts[1].id
        )

        def item(entry: ast.expr) -> calls.ReturnedItem:
            found = self.ctx.kernel(entry) if prepares else None
            return ir.Fresh("prepared", brand=found[1].name) if found is not None else None

        return [(key, functools.partial(item, entry)) for key, entry in entries]

    def returned_static(self, helper: FunctionNode, returned: ast.expr | None) -> ReturnedEntries | None:
        """`return {n: k.prepare(...) for n, k in zip(sorted(REG), REG.values())}` over tables of the module
        (`static_iterables.dict_comprehension`, the helper's own names not followed): one item per iteration,
        under its key, a launch prepared for the kernel that iteration's `k` names (else a new value)."""
        scope = static_iterables.Scope(self.ctx, _bound_names(helper), {}, {}, self.builtin, lambda _name: None)
        static = static_iterables.dict_comprehension(scope, returned)
        if static is None or not isinstance(returned, ast.DictComp):
            return None
        value = returned.value
        prepared = (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == PREPARE_METHOD
            and isinstance(value.func.value, ast.Name)
        )
        receiver = value.func.value.id if prepared else None  # type: ignore[attr-defined]

        def item(binding: dict[str, ast.expr]) -> calls.ReturnedItem:
            found = self.ctx.kernel(binding[receiver]) if receiver is not None and receiver in binding else None
            return ir.Fresh("prepared", brand=found[1].name) if found is not None else None

        return [(key, functools.partial(item, b)) for key, b in zip(static.keys, static.bindings, strict=True)]

    def returned_entry(
        self,
        element: ast.expr,
        helper: FunctionNode,
        call: ast.Call,
        receiver: tuple[str, str] | None = None,
        owner: ast.ClassDef | None = None,
    ) -> calls.ReturnedItem:
        """An item of a display or an argument of a constructor call a helper returns, for `calls.bind_returned`:
        a local bound once to a prepared launch, a view (`re = buf.view(0, n)` ... `return re, im`) or a choice
        (`tmp = src if low else sk.zeros(...)`) is what that binding may give (`calls.ReturnedLocal`). With
        `receiver` and `owner` the helper is a method called on the caller's object (`returned_item`)."""
        passed = _bind_call(helper, call, receiver is not None)
        params = {p.arg for p in _param_names(helper.args)}
        name = _returned_name(helper, element)

        def item_of(node: ast.expr, named: str | None) -> calls.ReturnedItem:
            return self.returned_item(named, node, params, passed, helper, call, receiver, owner)

        item = item_of(element, name)
        skipped = receiver[0] if receiver is not None else None
        bound = _bound_once(helper, name) if name is not None and name not in params and name != skipped else None
        if name is None or bound is None:
            return item
        options = tuple(item_of(o, _returned_name(helper, o)) for o in _options(bound))
        return calls.ReturnedLocal(name, options) if any(o is not None for o in options) else item

    def class_factory(self, call: ast.expr) -> tuple[FunctionNode, ast.Name] | None:
        """`Cls.name(...)` of a `@classmethod` or `@staticmethod` of a top-level class of this module (the one its
        call's effects run, `call_targets.static_method`): the method and the name of the class the call names,
        which a classmethod's first parameter is bound to."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
            return None
        owner = call.func.value
        if not isinstance(owner, ast.Name) or owner.id not in self.ctx.classes.classes:
            return None
        for kind in ("classmethod", "staticmethod"):
            found = static_method(self, owner.id, call.func.attr, self.ctx.classes, kind)
            if found is not None:
                return found, owner
        return None

    def returned_objects(
        self, helper: FunctionNode, call: ast.Call, made_by: ast.Name | None = None
    ) -> list[tuple[list[calls.ReturnedItem], list[ir.Place], Callable[[], calls.FieldParts]]] | None:
        """For `calls.returned_object`: each `return` of `helper` when every one is a constructor call of a class
        of this module whose initializer the checker follows (`return Batch(features=feats, workspace=feats)`) or
        of a `namespace` entry (`return SimpleNamespace(src=frame, dst=frame)`): its arguments' items, the
        temporaries staging them, and the fields the initializer gives the object.  `made_by`: the class a
        `@classmethod` helper is called on, which `cls(...)` of its first parameter builds (`Track.mono(n, s)` of
        `return cls(left=buf, right=buf)`)."""
        returned = _returned_values(helper)
        if not returned or isinstance(helper, ast.AsyncFunctionDef):
            return None
        classmethod = made_by is not None and _is_classmethod(helper) and bool(helper.args.args)
        own = helper.args.args[0].arg if classmethod else None
        bound_names = _bound_names(helper)
        arms: list[tuple[list[calls.ReturnedItem], list[ir.Place], Callable[[], calls.FieldParts]]] = []
        for value in returned:
            copied = self.returned_copy(value, helper, call) if value is not None else None
            if copied is not None:  # `return plan._replace(dst=plan.src)` of a parameter
                arms.append(copied)
                continue
            if not isinstance(value, ast.Call):
                return None
            func = value.func
            made: ast.Name | None = None
            namespace = None
            if isinstance(func, ast.Name) and own is not None and made_by is not None and func.id == own:
                names = _walk(helper.body)
                if own in {n.id for n in names if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}:
                    return None  # `cls = ...` in the body: not the class any more
                made = made_by
            elif isinstance(func, ast.Name) and func.id in bound_names:
                return None
            else:
                # `return SimpleNamespace(src=frame, dst=dst)`: its keywords are its fields (`namespace_init`)
                namespace = self.namespace(value)
                if namespace is None and isinstance(func, ast.Name) and func.id in self.ctx.classes.classes:
                    made = func
            if namespace is None and made is None:
                return None
            args = call_args(value)
            if any(a.star for a in args):
                return None
            items = [self.returned_entry(a.value, helper, call) for a in args]
            stages = [self.temp(a.value.id if isinstance(a.value, ast.Name) else "value") for a in args]
            operands = tuple(
                calls.Operand(a.value, self.span(a.value), stage, keyword=a.keyword)
                for a, stage in zip(args, stages, strict=True)
            )
            if namespace is not None:
                applied = stdlib_flow.namespace_summary(namespace[0], operands)
            else:
                assert made is not None
                applied = constructor_summary(self, made, operands)
            if applied is None:
                return None
            fields = functools.partial(calls.object_fields, applied, call, self.span(call), self)
            arms.append((items, stages, fields))
        return arms

    def unpacked_attribute(self, method: FunctionNode, name: str, receiver: str) -> tuple[str, ...] | None:
        """The receiver's attribute path a method's local `name` is, when the body binds it once, by unpacking
        `super().m()` (no arguments) of a method whose every `return` is a tuple display giving there the same
        attribute of its own receiver (`src, _ = super().buffers()` of `return self.src, self.dst`); else None."""
        stores = [n for n in _walk(method.body) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)]
        if [n.id for n in stores].count(name) != 1 or receiver in {n.id for n in stores}:
            return None
        for stmt in _walk(method.body):
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Tuple)):
                continue
            names = [el.id if isinstance(el, ast.Name) else None for el in stmt.targets[0].elts]
            value = stmt.value
            if name not in names:
                continue
            if not (
                isinstance(value, ast.Call) and not value.args and not value.keywords
                and isinstance(value.func, ast.Attribute) and isinstance(value.func.value, ast.Call)
                and isinstance(value.func.value.func, ast.Name) and value.func.value.func.id == "super"
                and not value.func.value.args
            ):
                return None
            inner = self.ctx.classes.super_method(method, value.func.attr)
            if inner is None or not inner.args.args or _returned_tuples(inner) is None:
                return None
            own = inner.args.args[0].arg
            index = names.index(name)
            found: set[tuple[str, ...] | None] = set()
            for ret in _walk(inner.body):
                if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple):
                    if len(ret.value.elts) != len(names):
                        return None
                    parts: list[str] = []
                    cur: ast.expr = ret.value.elts[index]
                    while isinstance(cur, ast.Attribute):
                        parts.append(cur.attr)
                        cur = cur.value
                    mine = isinstance(cur, ast.Name) and cur.id == own and parts
                    found.add(tuple(reversed(parts)) if mine else None)
            stored = {n.id for n in _walk(inner.body) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
            one = next(iter(found)) if len(found) == 1 else None
            return one if own not in stored else None
        return None

    def kernel_choices(self, node: ast.expr) -> tuple[KernelSummary, ...]:
        """The kernels a launch's receiver may be when it is chosen from a collection (`kernel_choices` module)."""
        tables = self.ctx.kernel_tables()
        if not tables and not isinstance(node, ast.Name | ast.Attribute):
            return ()
        local = set(self.local_names) if self.unit.kind != "module" else set()
        if isinstance(node, ast.Subscript):
            return subscript_choices(node, tables, local)
        if isinstance(node, ast.Attribute):
            return subclass_kernels(self, node)
        if not isinstance(node, ast.Name):
            return ()
        if self._kernel_names is None:
            unit = self.unit.node
            body = unit.body if isinstance(unit, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module) else []
            scope = static_iterables.scope_of(self)
            self._kernel_names = name_choices(
                body, tables, local, self.module_kernel, functools.partial(static_iterables.iteration, scope)
            )
        return self._kernel_names.get(node.id, ())

    def keyed_kernel_rows(
        self, node: ast.expr
    ) -> tuple[str, tuple[tuple[calls.ContainerKey, KernelSummary], ...]] | None:
        """`kernel_choices.keyed_rows` of a launch's receiver `TABLE[name]`, each key a literal the checker keys
        containers by; of a name an unrolled iteration binds to a key (`literal_keys`), that key's row alone."""
        local = set(self.local_names) if self.unit.kind != "module" else set()
        found = keyed_rows(self.table_lookup(node), self.ctx.kernel_tables(), local)
        if found is None:
            return None
        name, rows = found
        arms = calls.keyed_arms(rows, self.literal_keys.get(name))
        return (name, arms) if arms is not None else None

    def table_lookup(self, node: ast.expr) -> ast.expr:
        """`kernel` of `kernel = KERNELS[mode]`, bound once here under a key that stays one key in this body
        (`key_names`: a parameter never rebound, a loop's target): that lookup, so `kernel.launch(self.prepared[mode],
        ...)` pairs each kernel with the launch under its own key, as `KERNELS[mode].launch(...)` does."""
        func = self.unit.node
        if not isinstance(node, ast.Name) or isinstance(func, ast.Module) or self.kernel_body:
            return node
        value = _bound_once(func, node.id)
        if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Name) and (
            value.slice.id in self.key_names
        ):
            return value
        return node

    def module_kernel(self, node: ast.expr) -> KernelSummary | None:
        """A kernel of the module (or an import) a name in a display names."""
        found = self.ctx.kernel(node)
        return found[1] if found is not None else None

    def bump_calls(self) -> dict[int, tuple[ir.Place, int, int]]:
        """The calls of bump-allocator methods in this unit (`core.bump_alloc`), by id: the receiver's buffer place,
        the call's run and its index in it (computed once per unit)."""
        if self._bump_calls is not None:
            return self._bump_calls
        buffers: dict[int, tuple[str, tuple[str, ...]]] = {}

        def receiver(call: ast.Call) -> str | None:
            func = call.func
            if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
                return None
            name = func.value.id
            candidates = receiver_classes(self, name) if name not in self.ctx.declared() else None
            methods = [self.ctx.classes.method(cls, func.attr) for cls in candidates or ()]
            found = {bump_buffer(m) if m is not None else None for m in methods}
            if len(found) != 1 or (buffer := found.pop()) is None:
                return None
            buffers[id(call)] = (name, buffer)
            return name

        node = self.unit.node
        body = node.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module) else []
        runs = bump_sequences(bump_events(body, receiver)) if self.ctx.classes.classes and body else {}
        self._bump_calls = {
            call: (self.dotted_place(*buffers[call]), run, index) for call, (run, index) in runs.items()
        }
        return self._bump_calls

    def method_returned_views(self, node: ast.Call | ast.Attribute) -> Sequence[calls.ReturnedItem] | None:
        """`obj.method(...)` of a method of the module's classes (`view_receiver_classes`: `obj` a name or an
        attribute path of one) whose every `return` gives a view of an attribute path of its receiver or of a
        parameter (`return self.buf[start : stop]`): each of those views at the caller (`returned_item`, bounds in
        the caller's terms), for `calls.returned_views`; else None.  The read `obj.name` of a `@property` getter
        doing the same is a call of it with no arguments (`getter_call_node`)."""
        getter = isinstance(node, ast.Attribute)
        func = node if isinstance(node, ast.Attribute) else node.func
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
            return None
        found_receiver = view_receiver_classes(self, func, getter) if isinstance(func, ast.Attribute) else None
        if found_receiver is None or not isinstance(func, ast.Attribute):
            return None
        text, candidates = found_receiver
        call = self.getter_call_node(node) if isinstance(node, ast.Attribute) else node
        views: list[calls.ReturnedItem] = []
        for cls in candidates:
            classes = self.ctx.classes
            found = classes.plain_getter(cls, func.attr) if getter else classes.method(cls, func.attr)
            returned = _returned_values(found) if found is not None else []
            if found is None or not found.args.args or not returned or isinstance(found, ast.AsyncFunctionDef):
                return None
            if any(isinstance(n, ast.Yield | ast.YieldFrom) for n in _walk(found.body)):
                return None  # a generator: the call gives the generator, not what it returns
            if _stores_on(found, found.args.args[0].arg) and (getter or ("." in text and bump_buffer(found))):
                # `self.top += n` of a bump allocator an attribute holds: its calls hand out disjoint views (as
                # `bump_calls` finds for a name); any other method moving its bounds gives views of the buffer
                # whose bounds the caller cannot compare, taken to overlap (`pool.alloc(n)` handing out `n + 1`)
                return None
            receiver = (found.args.args[0].arg, text)
            passed = _bind_call(found, call, True)
            params = {p.arg for p in _param_names(found.args)}
            for value in returned:
                if value is None:
                    return None
                views.append(self.returned_item(None, value, params, passed, found, call, receiver, cls))
        return views if calls.all_views(views) else None

    def getter_views(self, node: ast.Attribute) -> Sequence[calls.ViewCall[Any] | calls.SliceView[Any]] | None:
        """`method_returned_views` of a property read (`arena.tension`), when every view is known; else None."""
        if not (isinstance(node.ctx, ast.Load) and node.attr in self.ctx.classes.view_getter_names):
            return None
        views = self.method_returned_views(node)
        if views is None or not calls.all_views(views):
            return None
        return views

    def getter_call_node(self, node: ast.Attribute) -> ast.Call:
        """The call `node()` with no arguments, standing for the read `obj.name` of a `@property` (its getter runs
        as that call); made once per read, kept on it, so one source expression always yields the same node."""
        made = self.getter_calls.get(id(node))
        if made is None:
            made = ast.copy_location(ast.Call(func=node, args=[], keywords=[]), node)
            self.getter_calls[id(node)] = made
        return made

    def method_returned_tuples(self, node: ast.Call) -> list[tuple[calls.ReturnedItem, ...]] | None:
        """`obj.method(...)` of a method of the module's classes (of each class `receiver_classes` gives) whose every
        `return` is a tuple display of one length (`return x, bias, x`, `return self.src, self.dst`): each `return`'s
        items (`returned_item`; an attribute of the receiver is the caller's place below `obj`), else None."""
        func = node.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        candidates = receiver_classes(self, func.value.id) if self.ctx.classes.classes else None
        if not candidates:
            return None
        arms: list[tuple[calls.ReturnedItem, ...]] = []
        for cls in candidates:
            found = self.ctx.classes.method(cls, func.attr)
            returns = _returned_tuples(found) if found is not None else None
            if found is None or returns is None or not found.args.args:
                return None
            receiver = found.args.args[0].arg
            displays = [r.elts for r in _returned_values(found) if isinstance(r, ast.Tuple)]
            for elements in displays:
                arms.append(tuple(
                    self.returned_entry(element, found, node, (receiver, func.value.id), cls) for element in elements
                ))
        return arms if len({len(a) for a in arms}) == 1 else None

    def returned_item(
        self,
        name: str | None,
        element: ast.expr,
        params: set[str],
        passed: dict[str, ast.expr],
        helper: FunctionNode,
        call: ast.Call,
        receiver: tuple[str, str] | None = None,
        owner: ast.ClassDef | None = None,
    ) -> calls.ReturnedItem:
        """One item of a tuple a helper returns, for `calls.returned_tuple`: the caller's place a parameter was bound
        to, a local's name, a prepared launch with its brand, or None.  With `receiver` (a method's receiver
        parameter and the caller's place of its object), the receiver or an attribute path of it that the method
        never rebinds its receiver before is that place (`self.src` is `stage.src`), and a view of such a path a view
        of that place (`receiver_view`; `owner` is the method's class)."""
        if receiver is not None and (name is None or name == receiver[0]):
            parts: list[str] = []
            cur: ast.expr = element
            while isinstance(cur, ast.Attribute):
                parts.append(cur.attr)
                cur = cur.value
            stored = {n.id for n in _walk(helper.body) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
            if isinstance(cur, ast.Name) and cur.id == receiver[0] and cur.id not in stored:
                return self.dotted_place(receiver[1], tuple(reversed(parts)))
            if name is None and owner is not None and receiver[0] not in stored:
                bounds = self.callee_bounds(element, helper, passed, receiver)
                view = self.receiver_view(element, receiver, owner, bounds)
                if view is not None:  # `return self.packed[b : b + d], self.packed[...]` views `cache.packed`
                    return view
        if receiver is not None and name is not None and name not in params:
            path = self.unpacked_attribute(helper, name, receiver[0])
            if path is not None:  # `src, _ = super().buffers()` of `return self.src, self.dst`
                return self.dotted_place(receiver[1], path)
        if name is None:
            view = self.view_shape(element)
            base = view.base.root if view is not None and not view.base.attrs else None
            if view is not None and base in passed and base in params:
                names = _walk(helper.body)
                rebound = {n.id for n in names if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
                place = self.place(passed[base])
                if place is not None and base not in rebound:  # `return buf[: mid + 1], buf[mid:]`
                    bounds = self.callee_bounds(element, helper, passed, receiver)
                    # a device value at the caller, or one the helper declares (`buf: sk.DeviceBuffer`)
                    declared = next(p.annotation for p in _param_names(helper.args) if p.arg == base)
                    device = self.annotation_is_device(declared) or self.is_device_place(passed[base])
                    return calls.returned_view(view, place, device, bounds)
            if isinstance(element, ast.Call) and isinstance(element.func, ast.Attribute) and returns_shared(
                [element.func.attr]
            ):
                return ir.Fresh(calls.SHARED_OP)  # `return Calibration(dark.shared(), ...)`: launches read the field
            brand = self.prepared_brand(element, helper, call)
            return ir.Fresh("prepared", brand=brand) if brand is not None else None
        if name in params:
            if name not in passed:
                return None
            # an argument the caller cannot name (`shared(sk.zeros(n))`): one new object for every item naming it;
            # `(w := c)` is `w` once the call evaluated it
            argument = passed[name]
            place = self.place(argument.target if isinstance(argument, ast.NamedExpr) else argument)
            found = self.choices(argument, self.span(argument), 0) if place is None else None
            return calls.returned_argument(name, place, [o.place for o in found[1]] if found is not None else [])
        return name

    def receiver_view(
        self,
        element: ast.expr,
        receiver: tuple[str, str],
        owner: ast.ClassDef,
        bounds: tuple[int | str | None, int | str | None] | None = None,
    ) -> calls.ViewCall[ast.expr] | calls.SliceView[ast.expr] | None:
        """An item a method returns that views an attribute path of its receiver (`self.packed[base : base + d]`,
        `self.packed.view(0, d)`), as the same view of the caller's place below its object (`cache.packed`) with the
        bounds `calls.returned_view` keeps (`bounds`: translated by `callee_bounds`; unknown ones overlap everything
        of the base), so two such items of one buffer passed as two outputs conflict as the runtime finds.  It views
        device memory where the caller's place is a device value or the class binds the attribute to a new one
        (`self.packed = sk.zeros(...)`, `binds_device`); else None."""
        if isinstance(element, ast.Subscript) and isinstance(element.slice, ast.Slice):
            base = element.value
        elif isinstance(element, ast.Call) and isinstance(element.func, ast.Attribute) and (
            element.func.attr == calls.VIEW_METHOD
        ):
            base = element.func.value
        else:
            return None
        parts: list[str] = []
        while isinstance(base, ast.Attribute):
            parts.append(base.attr)
            base = base.value
        shape = self.view_shape(element) if isinstance(base, ast.Name) and base.id == receiver[0] and parts else None
        if shape is None:
            return None
        attrs = tuple(reversed(parts))
        text = ".".join((receiver[1], *attrs))
        device = text in self.device or receiver[1] in self.device or self.binds_device(owner, attrs[0])
        return calls.returned_view(shape, self.dotted_place(receiver[1], attrs), device, bounds)

    def annotation_class(self, annotation: ast.expr | None) -> ast.ClassDef | None:
        """The class of the module an annotation names by itself (`Grad`, `"Grad"`), else None."""
        name = annotation.id if isinstance(annotation, ast.Name) else None
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            name = annotation.value
        return self.ctx.classes.classes.get(name) if name is not None else None

    def field_devices(self, owner: ast.ClassDef, prefix: str, depth: int = 0) -> Iterator[str]:
        """The attribute paths below `prefix`, an object of `owner` (a class of the module), that its class body (or
        one of its chain of single bases in the module) declares with a device type (`values: tile.Tensor` of a
        dataclass), also through fields declared with another class of the module (`grad: Grad`), three levels
        deep at most: a parameter annotated with the class holds device values there, as `self` does."""
        seen: set[str] = set()
        cls: ast.ClassDef | None = owner
        while cls is not None and cls.name not in seen:
            seen.add(cls.name)
            for stmt in cls.body:
                if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                    continue
                path = f"{prefix}.{stmt.target.id}"
                if self.annotation_is_device(stmt.annotation):
                    yield path
                elif depth < 2 and (inner := self.annotation_class(stmt.annotation)) is not None:
                    yield from self.field_devices(inner, path, depth + 1)
            bases = cls.bases
            one = len(bases) == 1 and not cls.keywords and isinstance(bases[0], ast.Name)
            cls = self.ctx.classes.classes.get(bases[0].id) if one and isinstance(bases[0], ast.Name) else None

    def method_devices(self, owner: ast.ClassDef, prefix: str) -> Iterator[str]:
        """The attribute paths below `prefix`, an object of `owner`, that a method of its class binds to a device
        value (`self.moisture = sk.to_device(...)` in `__init__`: `binds_device`): a parameter annotated with the
        class holds device values there too, so a helper's `session.moisture.partition(...)` moves the caller's."""
        names: set[str] = set()
        for method in owner.body:
            if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) and method.args.args:
                me = method.args.args[0].arg
                names.update(
                    t.attr for node in _walk(method.body) if isinstance(node, ast.Assign | ast.AnnAssign)
                    for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me
                )
        for name in sorted(names):
            if self.binds_device(owner, name):
                yield f"{prefix}.{name}"

    def binds_device(self, owner: ast.ClassDef, attr: str) -> bool:
        """Whether a method of `owner` (or of its chain of single bases in the module, whose methods run on its
        instances too) binds `self.<attr>` to a call giving a device value (`self.packed = sk.zeros(...)`), or its
        body declares the attribute with a device type (`buf: sk.DeviceBuffer`)."""
        seen: set[str] = set()
        cls: ast.ClassDef | None = owner
        while cls is not None and cls.name not in seen:
            seen.add(cls.name)
            for method in cls.body:
                if (
                    isinstance(method, ast.AnnAssign) and isinstance(method.target, ast.Name)
                    and method.target.id == attr and self.annotation_is_device(method.annotation)
                ):
                    return True  # a field declared with a device type (`buf: sk.DeviceBuffer` of a dataclass)
                if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) or not method.args.args:
                    continue
                me = method.args.args[0].arg
                for node in _walk(method.body):
                    if isinstance(node, ast.Assign):
                        targets, value = list(node.targets), node.value
                    elif isinstance(node, ast.AnnAssign) and node.value is not None:
                        targets, value = [node.target], node.value
                    else:
                        continue
                    if isinstance(value, ast.Call) and any(
                        isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name)
                        and t.value.id == me for t in targets
                    ) and self.expr_is_device(value):
                        return True
            bases = cls.bases
            one = len(bases) == 1 and not cls.keywords and isinstance(bases[0], ast.Name)
            cls = self.ctx.classes.classes.get(bases[0].id) if one and isinstance(bases[0], ast.Name) else None
        return False

    def view_shape(self, node: ast.expr) -> calls.ViewCall[ast.expr] | calls.SliceView[ast.expr] | None:
        """`c.view(a, b)` or `c[a:b]` of a place, described for the core (which decides whether it counts)."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == calls.VIEW_METHOD:
            base = self.place(node.func.value)
            if base is None:
                return None
            args = call_args(node)
            bounds = tuple(self.view_bound(a.value) for a in args if a.keyword is None)
            return calls.ViewCall(base, self.is_device_place(node.func.value), tuple(a.value for a in args), bounds)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            sl = node.slice
            base = self.place(node.value)
            if base is None:
                return None
            parts = tuple(part for part in (sl.lower, sl.upper, sl.step) if part is not None)
            return calls.SliceView(
                base,
                self.is_device_place(node.value),
                parts,
                sl.lower is not None,
                self.view_bound(sl.lower) if sl.lower is not None else None,
                sl.upper is not None,
                self.view_bound(sl.upper) if sl.upper is not None else None,
                sl.step is not None,
            )
        return None

    def view_bound(self, node: ast.expr) -> int | str | None:
        """A bound of `c.view(a, b)` or `c[a:b]`: an integer literal, or an affine expression (`view_bounds`) over
        symbols: names with one value in this function (`_stable_names`) and their attribute paths no statement of
        the module stores (`symbol`); else None."""
        return view_bounds.bound_of(_bound_form(node), self.known_bound)

    def known_bound(self, name: str) -> int | str | None:
        """What a name of a view bound is here: the number an unrolled iteration binds it to (`constants`), itself
        when it is a symbol (`symbol`), else None."""
        if name in self.constants:
            return self.constants[name]
        if self.loop_counter is not None:
            if name == self.loop_counter[0]:
                return name  # this iteration's value of the counting loop's counter (`ir.Range.counter`)
            derived = self.counter_locals.get(name)
            statement = self.current_statement
            if derived is not None and statement is not None and statement.lineno > derived[1]:
                # `lo, hi = k * n, (k + 1) * n` at the top of the body, before the view: its value this iteration
                return view_bounds.bound_of(_bound_form(derived[0]), self.known_bound)
        if name not in self.local_names and name in self.ctx.module_numbers:
            return self.ctx.module_numbers[name]  # `HEADER = 1` at the module's top level
        return name if self.symbol(name) else None

    def symbol(self, name: str) -> bool:
        """Whether a name or attribute path (`planar.frames`) has one value wherever this function reads it: a
        stable name (`_stable_names`), and each attribute one the module stores only while constructing (not in a
        constructor itself, which may store it between two reads)."""
        unit = self.unit.node
        if self.stable is None:
            self.stable = (
                frozenset()
                if isinstance(unit, ast.Module)
                else _stable_names(unit.body, [p.arg for p in _param_names(unit.args)])
            )
        root, _, path = name.partition(".")
        if root not in self.stable:
            return False
        if not path:
            return True
        if isinstance(unit, ast.Module) or unit.name in ("__init__", "__post_init__"):
            return False
        unfixed = _unfixed_attributes(self.ctx.module)
        return "*" not in unfixed and unfixed.isdisjoint(path.split("."))

    def callee_bounds(
        self, element: ast.expr, helper: FunctionNode, passed: dict[str, ast.expr], receiver: tuple[str, str] | None
    ) -> tuple[int | str | None, int | str | None] | None:
        """The start and stop of a view a helper returns (`return self.buf[start : start + self.frames]`) in this
        caller's terms (`calls.returned_view`), each None where unknown: a parameter never rebound is the bound of
        its argument here, a local bound once outside any loop its value, `self.<path>` of a method's receiver
        (`receiver`: its parameter and this caller's name of the object) the symbol `obj.<path>` when that is one
        here (`symbol`)."""
        if isinstance(element, ast.Call) and len(element.args) == 2 and not element.keywords:
            nodes: tuple[ast.expr | None, ast.expr | None] = (element.args[0], element.args[1])
        elif isinstance(element, ast.Subscript) and isinstance(element.slice, ast.Slice):
            nodes = (element.slice.lower, element.slice.upper)
        else:
            return None
        params = [p.arg for p in _param_names(helper.args)]
        bound = {n.id for n in _walk(helper.body) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}

        def local_form(name: str) -> view_bounds.BoundForm | None:
            value = _bound_once(helper, name)
            return None if value is None else _bound_form(value)

        names = view_bounds.HelperNames(
            stable=_stable_names(helper.body, params),
            params=frozenset(params),
            receiver=receiver,
            symbol=self.symbol,
            argument_bound=lambda name: self.view_bound(passed[name]) if name in passed else None,
            local_form=local_form,
            module_number=lambda name: None if name in bound else self.ctx.module_numbers.get(name),
        )
        start, stop = (None if n is None else _bound_form(n) for n in nodes)
        return view_bounds.in_caller((start, stop), names)

    def delete(self, target: ast.expr) -> None:
        if isinstance(target, ast.Tuple | ast.List):
            for el in target.elts:
                self.delete(el)
            return
        place = self.place(target)
        if place is not None:
            self.emit(ir.Del(place, self.span(target)))
        else:
            self.expr(target)

    # --- expressions ----------------------------------------------------------------------------------------

    def use(self, node: ast.expr, element: bool = False) -> bool:
        place = self.place(node)
        if place is None:
            return False
        self.emit(ir.Use(place, self.span(node), element=element))
        return True

    def expr(self, node: ast.AST) -> None:
        t = type(node)
        if t is ast.Constant:
            return
        if t is ast.Name or t is ast.Attribute:
            if t is ast.Attribute:
                self.property_read(node)  # type: ignore[arg-type]
            if not self.use(node) and t is ast.Attribute:  # type: ignore[arg-type]
                self.expr(node.value)  # type: ignore[attr-defined]
        elif t is ast.Call:
            self.call(node, None)  # type: ignore[arg-type]
        elif t is ast.Await:
            self.awaited_value(node, None)  # type: ignore[arg-type]
        elif t is ast.Subscript:
            self.subscript(node)  # type: ignore[arg-type]
        elif t is ast.NamedExpr:
            self.value(node)  # type: ignore[arg-type]
        elif t is ast.BoolOp:
            left, right = _binary(node)  # type: ignore[arg-type]
            self.expr(left)
            self.emit(ir.Branch((self.block(lambda: self.expr(right)), ()), self.span(node)))
        elif t is ast.IfExp:
            assert isinstance(node, ast.IfExp)
            self.expr(node.test)
            body = self.block(lambda: self.expr(node.body))
            orelse = self.block(lambda: self.expr(node.orelse))
            self.emit(ir.Branch((body, orelse), self.span(node.test)))
        elif t is ast.Lambda:
            assert isinstance(node, ast.Lambda)
            for _, default in _params(node.args):
                if default is not None:
                    self.expr(default)
            params = [p.arg for p in _param_names(node.args)]
            captured = self.captures(node, set(params))
            if not self.kernel_body:
                function = _lambda_function(node)
                self.nested.append(Unit("<lambda>", function, "function", frozenset(self.device), self.kernels,
                                        span=self.span(node)))
                name = self.lambdas.get(id(node))
                if name is not None and self.unit.kind != "module":
                    self.defaults.pop(name, None)
                    named = self.ctx.lambda_function(node)
                    lowered = Unit(name, named, "function", frozenset(self.device), self.kernels)
                    self.bind_defaults(named, lowered, self.span(node))  # `lambda field=density: ...`
                if name is not None and captured and self.unit.kind != "module":
                    # bound once to `name` and called by it: a call moves what it captures, as a nested def's does
                    reader = Unit(name, self.ctx.lambda_function(node), "function", frozenset(self.device),
                                  self.kernels, outer_containers=self.containers, outer_names=self.enclosing_names())
                    effects = nonlocal_effects(FunctionLowerer(self.ctx, reader).lower(), captured, params)
                    if not effects.empty:
                        self.closures[name] = effects
        elif t in _COMPREHENSIONS:
            self.comprehension(node)  # type: ignore[arg-type]
        else:
            for child in _kids(node):
                self.expr(child)

    def property_read(self, node: ast.Attribute) -> None:
        """`farm.total_power` of a `@property` whose getter does something the checker follows (a launch, a move):
        the getter runs there (`property_summary`)."""
        if not isinstance(node.ctx, ast.Load) or id(node) in self.read_properties:
            return
        applied = property_summary(self, node)
        if applied is not None and not applied.summary.empty:
            apply_summary(applied, node, self.span(node), self)
        if node.attr in self.ctx.classes.computed_attribute_names:
            self.computed_prepared(node)

    def computed_prepared(self, node: ast.Attribute) -> None:
        """`grid.launch` of a `@property` or `@functools.cached_property` returning `jacobi.prepare(...)`: the
        attribute holds a prepared launch branded for that kernel, what its getter returns (as a method's call
        does), so launching another kernel with it is E0308."""
        if self.kernel_body or not isinstance(node.value, ast.Name):
            return
        cls = receiver_class(self, node.value.id)
        getter = self.ctx.classes.computed_attribute(cls, node.attr) if cls is not None else None
        place = self.place(node) if getter is not None else None
        if getter is None or place is None:
            return
        brands = [self.prepared_brand(c, getter, None, True) for c in self.ctx.returned_calls(getter, True)]
        prepared = calls.returned_prepared(brands, self.span(node), self)
        if prepared is not None:
            self.emit(ir.Bind((place,), (prepared,), self.span(node)), node)

    @functools.cached_property
    def stable_params(self) -> frozenset[str]:
        """The parameters this function never rebinds or deletes: `bufs[key]` of one is an item under one key."""
        node = self.unit.node
        if isinstance(node, ast.Module) or self.kernel_body:
            return frozenset()
        rebound = {n.id for n in _walk(node.body) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        return frozenset(p.arg for p in _param_names(node.args) if p.arg not in rebound)

    @functools.cached_property
    def loop_keys(self) -> frozenset[str]:
        """The names this function binds only as the target of one `for` statement (`for axis in readings:`): within
        an iteration `bufs[axis]` is an item under one key, as under a parameter, renewed at each iteration
        (`keyed_items.renewed`)."""
        node = self.unit.node
        if isinstance(node, ast.Module) or self.kernel_body:
            return frozenset()
        targets: dict[str, int] = {}
        bound: dict[str, int] = {}
        declared: set[str] = set()
        own_scope: set[int] = set()  # a comprehension's targets are its own scope's (`for axis in Axis` in one)
        for sub in _walk(node.body):
            if isinstance(sub, ast.comprehension):
                own_scope.update(id(n) for n in ast.walk(sub.target))
            if isinstance(sub, ast.For | ast.AsyncFor):
                for name in _loop_target_names(sub.target):
                    targets[name] = targets.get(name, 0) + 1
            elif isinstance(sub, ast.Name) and not isinstance(sub.ctx, ast.Load) and id(sub) not in own_scope:
                bound[sub.id] = bound.get(sub.id, 0) + 1
            elif isinstance(sub, ast.Global | ast.Nonlocal):
                declared.update(sub.names)
        params = {p.arg for p in _param_names(node.args)}
        return frozenset(
            name for name, count in targets.items()
            if count == 1 and bound.get(name) == 1 and name not in params and name not in declared
        )

    @functools.cached_property
    def key_names(self) -> frozenset[str]:
        """The names a subscript's key may be that name one item (`stable_params`, `loop_keys`)."""
        return self.stable_params | self.loop_keys

    def param_item_key(self, index: ast.expr) -> str | None:
        """`keyed_items.param_key` of a subscript's key that is a parameter never rebound (`bufs[key]`) or a loop's
        target (`key_names`), else None."""
        if isinstance(index, ast.Name) and index.id in self.key_names and self.name(index.id) == index.id:
            return keyed_items.param_key(index.id)
        return None

    def operand_key(self, node: ast.expr) -> calls.ContainerKey | None:
        key = self.index_key(node)
        return key if key is not None else self.param_item_key(node)

    def index_key(self, index: ast.expr) -> calls.ContainerKey | None:
        """A subscript's key when it is known here: a literal, or a name an unrolled iteration over a display
        binds to one (`literal_keys`)."""
        if isinstance(index, ast.Name):
            return self.literal_keys.get(index.id)
        return _key_literal(index)

    def read_operand_properties(self, operands: list[calls.Operand[ast.expr]]) -> list[int]:
        """Run the getters of the call's operands that are places read through a `@property`
        (`k.launch(p, s, farm.view, out)`), in argument order and before the call, as Python evaluates them; the
        operands' ids, so that the call's own lowering of one as an expression does not run its getter again."""
        read: list[int] = []
        for operand in operands:
            node = operand.node
            if operand.place is not None and isinstance(node, ast.Attribute) and id(node) not in self.read_properties:
                self.property_read(node)
                self.read_properties.add(id(node))
                read.append(id(node))
        return read

    def subscript(self, node: ast.Subscript) -> None:
        if not self.use(node.value, element=True):
            self.expr(node.value)
        self.expr(node.slice)
        key = _key_literal(node.slice)
        if key is None:
            key = self.param_item_key(node.slice)
        if self.kernel_body or not isinstance(node.ctx, ast.Load):
            return
        if not self.use(node) and key is not None:
            item = self.keyed_item(node.value, key)
            if item is not None:  # `layers["mask"].to_numpy(s)`: the item the checker keeps under that key is read
                self.emit(ir.Use(item, self.span(node)))

    def comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, stage: ir.Place | None = None
    ) -> None:
        """`stage`: where the container the comprehension builds keeps each iteration's value
        (`calls.comprehension_stage`), or None when nothing keeps it."""
        generator = self.generator_call(node.generators[0].iter)
        if generator is not None and not isinstance(node, ast.GeneratorExp):
            self.iterated.add(id(generator))  # `[f(x) for x in gen(...)]`: the body runs to its end here
        self.expr(node.generators[0].iter)
        renames: dict[str, str] = {}
        self.renames.append(renames)
        try:
            self._comp_for(node, 0, renames, stage)
        finally:
            self.renames.pop()

    def _comp_for(
        self,
        node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp,
        index: int,
        renames: dict[str, str],
        stage: ir.Place | None = None,
    ) -> None:
        comp = node.generators[index]
        if index:
            self.expr(comp.iter)
        # the items it takes, as a `for` statement does (`for t in (a, b)`, `for t in parts`, `zip(xs, ys)`); an
        # item spelled like the target would be read under its rename: a new value then
        names = set(_target_names(comp.target))
        items = self.literal_items(comp.iter)
        if items is not None and not names.isdisjoint(n for item in items for n in _item_roots(item)):
            items = None
        # a container list the comprehension's scope does not shadow (a later `for` may iterate an earlier target)
        iterated = comp.iter.args[0] if isinstance(comp.iter, ast.Call) and comp.iter.args else comp.iter
        viewed = _values_receiver(iterated) or _values_receiver(iterated, "items")  # `heads.items()`
        outer = (isinstance(iterated, ast.Name) and self.name(iterated.id) == iterated.id) or (
            viewed is not None and self.name(viewed) == viewed
        )
        elements = self.iterated_container(comp.iter) if items is None and outer else None
        shape, sources = self.iteration(comp.iter) if items is None and elements is None else ("", [])
        self.tmp += 1
        for raw in names:
            renames[raw] = f"{raw}$c{self.tmp}"
        if items is not None:
            arms = tuple(self.block(functools.partial(self.assign, [comp.target], item)) for item in items)
            head = self.block(lambda: self.emit(ir.Branch(arms, self.span(comp.target))))
        elif elements is not None:
            places, container, enumerated, paired = elements
            target = self.target(comp.target)
            arms = calls.bind_elements(target, places, self.span(comp.iter), self, container, enumerated, paired)
            head = self.block(lambda: self.emit(ir.Branch(arms, self.span(comp.target))))
        elif shape:
            head = self.block(lambda: calls.bind_iteration(self.target(comp.target), shape, sources, self))
        else:
            head = self.block(lambda: self.bind(comp.target, ir.Fresh()))

        def body() -> None:
            for cond in comp.ifs:
                self.expr(cond)
            if index + 1 < len(node.generators):
                self._comp_for(node, index + 1, renames, stage)
            elif isinstance(node, ast.DictComp):
                self.expr(node.key)
                self.comprehension_item(node.value, stage)
            else:
                self.comprehension_item(node.elt, stage)

        unrolled = items is not None or elements is not None
        self.emit(ir.Loop(head, self.block(body), (), self.span(comp.target), unrolled=unrolled))

    def comprehension_item(self, node: ast.expr, stage: ir.Place | None) -> None:
        """A comprehension's value per iteration: stored into `stage` (`calls.store_comprehension_item`) when the
        container it builds is kept, else an expression."""
        if stage is not None:
            calls.store_comprehension_item(stage, node, self.span(node), self)
        else:
            self.expr(node)

    # --- calls: resolve, describe as a neutral shape, let the core decide (core/calls.py) --------------------

    def operand(
        self, node: ast.expr, keyword: str | None = None, star: bool = False, with_view: bool = True
    ) -> calls.Operand[ast.expr]:
        return calls.resolve_operand(self, node, self.span, keyword, star, with_view)

    def receiver_elements(self, node: ast.expr) -> tuple[ir.Place, ...] | None:
        """The element places of a name that is a sequence container bound here (`ring = deque([a, c])`)."""
        if not isinstance(node, ast.Name) or node.id not in self.containers:
            return None
        return calls.sequence_elements(self.name(node.id), node.id, self.containers[node.id])

    def keyed_blocked(self) -> frozenset[str]:
        """The names whose items are never kept by key: globals, names nested functions use
        (`keyed_mentions.captured_names`)."""
        if self._keyed_blocked is None:
            body = self.unit.node.body
            self._keyed_blocked = keyed_mentions.captured_names(_walk(body))
        return self._keyed_blocked

    def keyed_item(self, container: ast.expr, key: calls.ContainerKey) -> ir.Place | None:
        """`keyed_items.keyed_item` of a container that is a name or an attribute path the checker knows no
        items of (not a display bound here: those have element places)."""
        if self.kernel_body or (isinstance(container, ast.Name) and container.id in self.containers):
            return None  # kernel code: `buf[0]` of a shared array is an element access, not a host item
        root = container
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or root.id not in self.local_names or root.id in self.keyed_blocked():
            return None  # a global, or a name a nested function may change later
        place = self.place(container)
        return keyed_items.keyed_item(place, key) if place is not None else None

    def item_container(self, node: ast.expr) -> ir.Place | None:
        """The place `node` is an item of (`d` of `d[k]`, `grid` of `grid[i][j]`), else None."""
        if not isinstance(node, ast.Subscript):
            return None
        while isinstance(node, ast.Subscript):
            node = node.value
        return self.place(node)

    # --- operands that are expressions over places ----------------------------------------------------------

    def values_place(self, node: ast.expr) -> ir.Place | None:
        """The container `ops.values()` (no arguments) reads, a name or an attribute path, for a splat of it into a
        combinator (`sk.zip(*self.panes.values())` consumes the ops `self.panes` keeps); else None."""
        if not (isinstance(node, ast.Call) and not node.args and not node.keywords):
            return None
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "values"):
            return None
        return self.place(func.value) if isinstance(func.value, ast.Name | ast.Attribute) else None

    def star_elements(self, node: ast.expr) -> tuple[ir.Place, ...] | None:
        """The element places a `*name` splat of a container list spreads, in order, where its length is known
        here: every binding ends with that length and lowering has reached it (`args = [a, b]; args.append(a)`); or
        of a nested display item of a container bound here (`*cfg["inputs"]` of `cfg = {"inputs": (a, b)}`)."""
        if isinstance(node, ast.GeneratorExp | ast.ListComp):
            return self.comprehension_places(node)
        inner = self.nested_container(node)
        if inner is not None:
            return tuple(calls.container_element(inner.name, inner.display, inner.container, i)
                         for i in range(len(inner.container.keys)))
        got = self.getter_places(node)
        if got is not None and got[1]:
            return got[0]  # `*attrgetter("raw", "out")(job)`: `job.raw`, `job.out`
        values = _values_receiver(node)
        if values is not None:
            return self.mapping_items(values)
        if not isinstance(node, ast.Name):
            return None
        raw = node.id
        length = self.splat_lengths.get(raw)
        container = self.containers.get(raw)
        if container is None:
            return self.iterated_places(node)  # `*args` of a `NamedTuple` instance: its fields, in order
        if length is None or self.lengths.get(raw) != length:
            return None
        return tuple(calls.container_element(self.name(raw), raw, container, i) for i in range(length))

    def comprehension_places(self, node: ast.GeneratorExp | ast.ListComp) -> tuple[ir.Place, ...] | None:
        """The places a splat of a comprehension spreads (`*(outs[p] for p in PHASES)`): one `for` and no `if` over
        an iterable the source lists (`static_iterables.sequence`) of string or integer literals, its element one
        place for each, with the target that literal (`outs["viable"]`, `outs["dormant"]`); else None."""
        if len(node.generators) != 1:
            return None
        comp = node.generators[0]
        if comp.ifs or comp.is_async or not isinstance(comp.target, ast.Name):
            return None
        items = static_iterables.sequence(static_iterables.scope_of(self), comp.iter)
        keys = [_key_literal(item) for item in items] if items is not None else []
        if not keys or any(key is None for key in keys):
            return None
        target, places = comp.target.id, []
        shadowed = self.literal_keys.get(target)
        try:
            for key in keys:
                assert key is not None
                self.literal_keys[target] = key
                element = self.operand(node.elt)
                plain = all(_pure_argument(n) for n in element.prelude)  # `outs`, `self.outs`, `p`
                if element.place is None and len(element.choices) == 1 and plain:
                    element = element.choices[0]
                if element.place is None or element.choices:
                    return None
                places.append(element.place)
        finally:
            if shadowed is None:
                self.literal_keys.pop(target, None)
            else:
                self.literal_keys[target] = shadowed
        return tuple(places)

    def mapping_items(self, raw: str) -> tuple[ir.Place, ...] | None:
        """The items of a dict display bound once to `raw` (`ordered`), lowering past it, in display order (what
        `*stages.values()` spreads and `stages.items()` pairs with keys); else None."""
        if raw not in self.ordered:
            return None
        container = self.containers.get(raw)
        if container is None or not container.mapping or self.lengths.get(raw) != len(container.keys):
            return None
        return tuple(calls.container_element(self.name(raw), raw, container, i) for i in range(len(container.keys)))

    def nested_container(self, node: ast.expr) -> calls.NestedContainer | None:
        """`cfg["inputs"]` of a container bound here whose item under that literal key is a nested sequence display
        in every binding (`calls.nested`), else None."""
        if not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Name):
            return None
        raw = node.value.id
        container = self.containers.get(raw)
        if container is None or not container.inner or raw not in self.lengths:
            return None
        return calls.nested(self.name(raw), raw, container, _key_literal(node.slice))

    def literal_display(self, node: ast.AST) -> tuple[ast.expr, ...] | None:
        """The items of a tuple/list display without starred items (`(a, b)`, `[a, b]`), else None."""
        if isinstance(node, ast.Tuple | ast.List) and not any(isinstance(el, ast.Starred) for el in node.elts):
            return tuple(node.elts)
        return None

    def choices(
        self, node: ast.expr, span: Span, depth: int
    ) -> tuple[tuple[ast.expr, ...], tuple[calls.Operand[ast.expr], ...]] | None:
        """The places `node` may evaluate to, and what is evaluated before its value is known (see
        `calls.Operand`); None when it is not an expression over places.  Each choice carries `span`, the
        argument's own."""
        if depth > _CHOICE_DEPTH:
            return None
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and (receiver_place := self.place(node.value)) is not None
            and (property_places := receiver_property(self, node.value.id, node.attr)) is not None
        ):
            # `layer.output` of a property returning `self._scratch if ... else self.act`: either attribute
            return calls.accessor_choices(
                node, node.value, receiver_place, property_places[0], span, fresh=property_places[1]
            )
        if isinstance(node, ast.IfExp):
            return self._alternatives((node.test,), (node.body, node.orelse), span, depth)
        if isinstance(node, ast.BoolOp):
            left, right = _binary(node)
            return self._alternatives((left,), (left, right), span, depth)
        if isinstance(node, ast.NamedExpr):
            target = self.place(node.target)
            if target is None:
                return None
            # the value's own place when it is one: a later argument rebinding the name (`(w := b), (w := a)`)
            # leaves this argument `b`
            value = self.place(node.value) if isinstance(node.value, ast.Name | ast.Attribute) else None
            return (node,), (calls.Operand(node.target, span, value or target, True),)
        if isinstance(node, ast.Subscript):
            items_in_brackets = _subscript_items(node, self.ctx)
            if len(items_in_brackets) != 1 or isinstance(items_in_brackets[0], ast.Slice):
                return None
            index = items_in_brackets[0]
            key = _key_literal(index)
            if isinstance(index, ast.IfExp | ast.BoolOp) and not isinstance(node.slice, ast.Tuple):
                # `bufs[into or "freqs"]`, `bufs["a" if flag else "b"]`: the item under either key
                tests, arms = ((index.test,), (index.body, index.orelse)) if isinstance(index, ast.IfExp) else (
                    (_binary(index)[0],), _binary(index)
                )
                return self._alternatives(tests, [_arm_read(node, arm) for arm in arms], span, depth)
            if (
                isinstance(node.value, ast.Name)
                and (body := self.factories.get(node.value.id)) is not None
                and (made := self.place(body)) is not None
            ):
                # `channels["left"]` of `channels = defaultdict(lambda: buf)`: every item is `buf`
                return (node.value, index), (calls.Operand(node, span, made, True),)
            if (
                isinstance(key, str)
                and isinstance(node.value, ast.Name)
                and (receiver_place := self.place(node.value)) is not None
                and (paths := receiver_items(self, node.value.id))
            ):
                # `reg["y"]` of `def __getitem__(self, name): return self._bufs[name]`: the item of `reg._bufs`
                return calls.accessor_choices(node, node.value, receiver_place, paths, span, key)
            stored = self.stored_items(node.value)
            if stored is None and (uniform := self.foreign_uniform(node.value)) is not None:
                # `pp.fields[k]` of an object of a class whose `__init__` stores `self.fields = [buf] * 2`
                return init_state.item_choices(node, node.value, index, uniform, 1, span, 0, init_state.UNIFORM_KEYS)
            if stored is not None and isinstance(node.value, ast.Attribute):
                # `self.prepared[mode]` of a display of prepared launches `__init__` stored: any of its items
                # (`self.fields[0]`, `self.buffers["freqs"]` of a display of other values: the item the literal
                # names; a computed index of one is not followed, `self.fields[i % 2]` and `self.fields[(i + 1) %
                # 2]` being distinct)
                attr = node.value.attr
                keys = self.unit.class_item_keys.get(attr)
                followed, position = init_state.item_position(
                    keys, not any(self.unit.class_items.get(attr, "k")), key, stored[1]
                )
                if followed:
                    return init_state.item_choices(node, node.value, index, *stored, span, position, keys)
            literal = _int_literal(index)
            items = self.literal_display(node.value)
            if items is not None:
                picked = (items[literal],) if literal is not None and -len(items) <= literal < len(items) else items
                return self._alternatives((node.value, index), picked, span, depth)
            shown = self.display_items(node.value) if isinstance(node.value, ast.Call | ast.Dict) else None
            if shown is not None and shown[1] and (entry := stdlib_flow.keyed_entry(shown[0], key)) is not None:
                # `dict(item=c, other=a)["item"]`, `{"item": c}["item"]`: the entry under the key
                return self._alternatives((*entry[0], index), entry[1], span, depth)
            if (
                isinstance(node.value, ast.Name)
                and self.name(node.value.id) == node.value.id
                and (read := self.loop_item_reads.get(node.value.id, {}).get(key)) is not None  # type: ignore[arg-type]
            ):
                # `cfg["bias"]` of `for cfg in layer_cfgs` whose every item reads `defaults["bias"]` there
                return self._alternatives((node.value, index), (read,), span, depth)
            if isinstance(node.value, ast.Name) and node.value.id in self.containers:
                raw = node.value.id
                name = self.name(raw)
                container = self.containers[raw]
                elements: tuple[calls.Operand[ast.expr], ...] = tuple(
                    calls.Operand(node, span, calls.container_element(name, raw, container, i), True)
                    for i in container.indices(self.index_key(index))
                )
                return (node.value, index), elements
            inner = self.nested_container(node.value)
            if inner is not None:
                # `cfg["inputs"][1]` of a nested display item
                return (node.value, index), tuple(
                    calls.Operand(node, span, calls.container_element(inner.name, inner.display, inner.container, i),
                                  True)
                    for i in inner.container.indices(_key_literal(index))
                )
            tupled = self.tuple_component_choices(node.value, literal, span, depth)
            if tupled is not None:
                return calls.merge_choices((index,), tupled)
            # `sorted(pool)[0]`, `list(pool)[i]`: any item of what the builtin keeps
            kept = calls.merge_choices((index,), (self.item_choices(node.value, span, depth + 1),))
            if key is None:
                key = self.param_item_key(index)  # `layers[key]` of a parameter `key`: one object per key too
            if kept is None and key is not None and (item := self.keyed_item(node.value, key)) is not None:
                # `bufs["a"]` of a parameter, of `self.bufs` filled in a loop: the one object under that key
                return (node.value, index), (calls.Operand(node, span, item, True),)
            return kept
        if isinstance(node, ast.Call) and (got_options := self.mapping_get(node)) is not None:
            # `d.get(k, fallback)`: the item under `k` or the fallback, whichever the data picks
            return self._alternatives((), got_options, span, depth)
        if isinstance(node, ast.Call) and (picked_items := self.picked_items(node, span, depth)) is not None:
            return picked_items
        if isinstance(node, ast.Call) and (got := self.getter_places(node)) is not None and not got[1]:
            # `attrgetter("out")(job)`, `get(bufs)` of `get = itemgetter(0)`: the attribute / item itself
            return (node.args[0],), (calls.Operand(node, span, got[0][0], True),)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call):
            # `copy.copy(Bufs(c, c, c)).a`, `dataclasses.replace(h, a=c).a`: the field of the object built there
            return self.field_choices(node.value, node.attr, span, depth + 1)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == calls.VIEW_METHOD
            and self.place(node.func.value) is None
            and (base := self.choices(node.func.value, span, depth + 1)) is not None
        ):
            args = call_args(node)
            bounds = tuple(self.view_bound(a.value) for a in args if a.keyword is None)
            return calls.view_choices(node, span, base, tuple(a.value for a in args), bounds)
        if isinstance(node, ast.Call) and (aliased := self.aliasing_index(node.func)) is not None:
            args = call_args(node)
            if aliased >= len(args) or any(a.star or a.keyword is not None for a in args):
                return None
            found = self._alternatives((), (args[aliased].value,), span, depth)
            return ((node,), found[1]) if found is not None else None
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ALIASING_METHODS
            and not node.args
            and not node.keywords
        ):
            # `t.as_buffer()`, the method form of `sk.as_buffer(t)`: the receiver's storage
            found = self._alternatives((), (node.func.value,), span, depth)
            return ((node,), found[1]) if found is not None else None
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and not node.args
            and not node.keywords
            and (receiver_place := self.place(node.func.value)) is not None
            and (
                accessors := receiver_accessors(self, node.func.value.id, node.func.attr)
                or held_accessors(self, node.func)
            )
        ):
            # `stage.target()` of `def target(self): return self.out` (each override the receiver may run; the
            # one class defining it where the receiver's class is not known)
            return calls.accessor_choices(node, node.func.value, receiver_place, accessors[0], span, fresh=accessors[1])
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Attribute)
            and not node.args
            and not node.keywords
            and (receiver_place := self.place(node.func.value)) is not None
            and (accessors := held_accessors(self, node.func))
        ):
            # `self.pool.acquire()` of `def acquire(self): return self.free[-1]` on an object an attribute holds
            return calls.accessor_choices(node, node.func.value, receiver_place, accessors[0], span, fresh=accessors[1])
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and len(node.args) == 1
            and not node.keywords
            and isinstance(key := _key_literal(node.args[0]), str)
            and (receiver_place := self.place(node.func.value)) is not None
            and (paths := receiver_items(self, node.func.value.id, node.func.attr))
        ):
            # `cache.get("user")` of `def get(self, key): return self._entries[key]` (memoizing or not): the item
            return calls.accessor_choices(
                node, node.func.value, receiver_place, paths, span, key, method=node.func.attr
            )
        if isinstance(node, ast.Call) and (item := self.returned_receiver_item(node)) is not None:
            # `self.staging()` of a method whose every `return` is `self.buffers["freqs"]`: that item, after the call
            return (node,), (calls.Operand(node, span, item, True),)
        if (
            isinstance(node, ast.Call)
            and (memoized := self.memoized_call(node)) is not None
            and not self.memoized_object(node)
        ):
            # `k(out, ones(64))` of a memoised `ones`: the object its cache keeps for those arguments, after the
            # call (`memo.memo_place`)
            return (node,), (calls.Operand(node, span, memo_place(*memoized, self.span(node)), True),)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            helper = self.helper(node.func.id)
            if helper is None:
                return None
            returned = _returned_params(helper, allocates=self.allocates)
            if returned is None:
                return self.inlined_choices(node, span, depth)  # `return core.widths` or `return out`
            bound = _bind_call(helper, node)
            picked = tuple(bound[name] for name in returned if name in bound)
            found = self._alternatives((), picked, span, depth) if picked else ((), ())
            if found is None:
                return None
            # `output_buffer(src, cfg)` returning `src` or `sk.zeros(...)`: either the argument or a new buffer
            call_node: ast.expr = node
            new = (calls.Operand(call_node, span, None, True),) if calls.NEW_VALUE in returned else ()
            return (node,), found[1] + new
        if isinstance(node, ast.Call | ast.Attribute):
            # `self._output_for(name)` of a method returning `self.raw[name]` or `self.clean[name]`
            return self.inlined_choices(node, span, depth)
        return None

    def mapping_get(self, node: ast.Call, local: bool = True) -> tuple[ast.expr, ...] | None:
        """What `d.get(k, fallback)` may give (`calls.mapping_get_options`), for `choices`; None for any other
        call, and wherever a class of the module defines a `get` of its own (its object may be the receiver).
        `local`: the call is this function's own (not a callee's returned expression), so a name `d` is one of
        its local dict displays."""
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr != calls.MAPPING_GET or node.keywords:
            return None
        if not 1 <= len(node.args) <= 2 or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        if self.kernel_body or calls.MAPPING_GET in self.ctx.classes.method_names:
            return None
        present = None
        key = _key_literal(node.args[0])
        if local and isinstance(func.value, ast.Name) and key is not None:
            container = self.containers.get(func.value.id)
            if container is not None and container.mapping:
                present = key in container.keys
        fallback = node.args[1] if len(node.args) == 2 else None
        return calls.mapping_get_options(_get_read(node, func.value, node.args[0]), fallback, present)

    def _alternatives(
        self, prelude: tuple[ast.expr, ...], options: Sequence[ast.expr], span: Span, depth: int
    ) -> calls.Choices[ast.expr] | None:
        return calls.alternatives(prelude, options, span, depth, self.place, self.choices)

    def returned_options(self, node: ast.expr) -> list[ast.expr]:
        """The expressions a callee's returned `node` may be (`_options`), a `d.get(k, fallback)` among them read
        as its item or its fallback (`mapping_get`)."""
        out: list[ast.expr] = []
        for arm in _options(node):
            got = self.mapping_get(arm, local=False) if isinstance(arm, ast.Call) else None
            if got is None:
                out.append(arm)
                continue
            for option in got:
                out.extend(self.returned_options(option))
        return out

    def inlined_returns(self, node: ast.expr) -> list[ast.expr | None] | None:
        """What `obj.method(args)` or a property read `obj.prop` gives, for a method (a getter) of each class the
        receiver may be (`receiver_classes`) whose every `return` gives a place expression over its receiver and
        parameters (`return self.raw[name]`, `return self._launches["demand"]`, `return self.a if c else b`) or a
        new buffer (`sk.zeros(...)`, None here): each such expression with the receiver and the parameters
        replaced by the caller's object and arguments, read by the caller after the call, so the result is the
        caller's own place.  None when some `return` gives anything else, a parameter it needs is rebound or not
        passed plainly, or an argument has effects of its own."""
        callee = node.func if isinstance(node, ast.Call) else None
        if isinstance(node, ast.Call) and isinstance(callee, ast.Name):
            # `dest = index_buffer(core, stream)` of `if out is None: return core.widths; return out`
            helper = self.helper(callee.id)
            if helper is None or _is_classmethod(helper) or helper.decorator_list:
                return None
            passed = _bind_call(helper, node)
            plain = {p: a for p, a in passed.items() if self.substitutable(a)}
            if not any(isinstance(a, ast.Starred) for a in node.args) and not any(k.arg is None for k in node.keywords):
                plain.update((p, d) for p, d in _constant_defaults(helper.args) if p not in passed)
            return self.substituted_returns(helper, plain, node)
        if isinstance(node, ast.Call) and isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
            receiver, name, call = callee.value, callee.attr, node
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            receiver, name, call = node.value, node.attr, None
        else:
            return None
        classes = self.ctx.classes
        if not classes.classes:
            return None
        # a getter runs on the receiver's class; a call as it dispatches (by name where the class is not known)
        candidates = called_classes(self, receiver, name) if call is not None else receiver_classes(self, receiver.id)
        if not candidates:
            return None
        out: list[ast.expr | None] = []
        for cls in candidates:
            method = classes.method(cls, name) if call is not None else classes.plain_getter(cls, name)
            if method is None or not method.args.args or (call is not None and method.decorator_list):
                return None
            func: FunctionNode = method
            if any(isinstance(n, ast.Yield | ast.YieldFrom | ast.Await) for n in _walk(func.body)):
                return None
            if call is None and _receiver_changes(func, self.allocates) != frozenset():
                return None  # a getter with effects of its own runs them when read (`read_operand_properties`)
            names: dict[str, ast.expr] = {func.args.args[0].arg: receiver}
            if call is not None:
                names.update((p, a) for p, a in _bind_call(func, call, True).items() if self.substitutable(a))
            found = self.substituted_returns(func, names, node)
            if found is None:
                return None
            out.extend(found)
        return out

    def substitutable(self, node: ast.expr) -> bool:
        """Whether a helper's argument may stand for its parameter in the caller's reading of what the helper
        returns (`substituted_returns`): a `_reevaluable` expression, or a call that gives one of the caller's own
        places whatever runs it (`d.get(k, fallback)`, a helper returning a parameter: `first_of(a, b)`) over such
        arguments; a call that may give a new value (`sk.zeros(...)`, `pool.pop()`) is not."""
        if _reevaluable(node):
            return True
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
            return False
        if all(self.substitutable(a) for a in node.args) and all(
            k.arg is not None and self.substitutable(k.value) for k in node.keywords
        ):
            if self.mapping_get(node) is not None:
                return True
            inlined = self.inlined_returns(node)
            if inlined is not None:
                return all(made is not None for made in inlined)
        # any other call the checker resolves to the caller's places only (`next(itertools.repeat(a, 2))`)
        return calls.only_places(self.choices(node, self.span(node), 0))

    def never_none(self, node: ast.expr) -> bool:
        """Whether a `substitutable` argument cannot be None: the caller's object (not a literal, no operand a
        literal None: `_may_be_none`), `d.get(k, fallback)` of such a fallback, a helper's call whose every `return`
        gives such an expression, or a call resolved to the caller's places only (`calls.only_places`)."""
        if _reevaluable(node):
            return not isinstance(node, ast.Constant) and not _may_be_none(node)
        if not isinstance(node, ast.Call):
            return False
        options = self.mapping_get(node)
        if options is not None:
            return len(node.args) == 2 and all(self.never_none(o) for o in options)
        inlined = self.inlined_returns(node)
        if inlined is not None:
            # a `return` of a new buffer (None here) may also be a call the checker cannot follow, giving None
            return all(made is not None and self.never_none(made) for made in inlined)
        return calls.only_places(self.choices(node, self.span(node), 0))  # `next(itertools.repeat(a, 2))`

    def substituted_returns(
        self, func: FunctionNode, names: dict[str, ast.expr], node: ast.expr
    ) -> list[ast.expr | None] | None:
        """For `inlined_returns`: what each `return` of `func` gives in the caller's terms (`names`: the callee's
        parameters -> the caller's expressions; a name the body binds again is dropped), None for a new buffer;
        None when some `return` gives anything else."""
        rebound = {n.id for n in _walk(func.body) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        for bound in rebound:
            names.pop(bound, None)
        dead = _dead_none_returns(func, names, self.never_none)
        returns = [n for n in _walk(func.body) if isinstance(n, ast.Return) and id(n) not in dead]
        if not returns:
            return None
        out: list[ast.expr | None] = []
        opaque = False
        for ret in returns:
            if ret.value is None:
                return None
            for arm in self.returned_options(ret.value):
                made = _substituted(arm, names, node)
                if made is None and not self.allocates(arm):
                    if not isinstance(arm, ast.Call):
                        return None
                    opaque = True  # `bucket.pop() if bucket else like`: a value the caller cannot name, read new
                out.append(made)
        # a call the checker cannot follow is a new value beside a place some other `return` gives
        return None if opaque and all(made is None for made in out) else out

    def inlined_choices(self, node: ast.expr, span: Span, depth: int) -> calls.Choices[ast.expr] | None:
        """The places `obj.method(args)` / `obj.prop` may be by `inlined_returns` (a new value for a `return` of a
        new buffer), after the call (or the receiver's read); None where that does not apply or some expression
        names no place here."""
        inlined = self.inlined_returns(node)
        if inlined is None or all(e is None for e in inlined):
            return None
        options: list[calls.Operand[ast.expr]] = []
        for made in inlined:
            if made is None:
                options.append(calls.Operand(node, span, None, True))
                continue
            found = self.choices(made, span, depth + 1)
            if found is not None:
                options.extend(found[1])
                continue
            # an item under a key the checker does not follow (`self.bufs[self.settings.key]`) is only evaluated,
            # as an option of a conditional expression is (`calls.alternatives`)
            options.append(calls.Operand(made, span, self.place(made), True))
        if all(o.place is None for o in options):
            return None
        prelude: ast.expr = node if isinstance(node, ast.Call) else node.value  # type: ignore[attr-defined]
        return (prelude,), tuple(options)

    def returned_receiver_item(self, node: ast.Call) -> ir.Place | None:
        """`self.staging()` in a method, of a method of its class (`receiver_class` exact) whose every `return`
        gives one item under a literal key of a display `__init__` stored (`return self.buffers["freqs"]`) and that
        changes none of that container's items (`method_items`): the item's place here; else None."""
        func = node.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)) or not self.unit.class_items:
            return None
        cls = receiver_class(self, func.value.id)
        method = self.ctx.classes.method(cls, func.attr) if cls is not None else None
        if method is None or not method.args.args or _is_classmethod(method) or method.decorator_list:
            return None
        receiver = method.args.args[0].arg
        returns = [n for n in _walk(method.body) if isinstance(n, ast.Return)]
        reads = {
            (r.value.value.attr, _key_literal(r.value.slice))
            for r in returns
            if isinstance(r.value, ast.Subscript)
            and isinstance(r.value.value, ast.Attribute)
            and isinstance(r.value.value.value, ast.Name)
            and r.value.value.value.id == receiver
        }
        if len(reads) != 1 or len(returns) != sum(1 for r in returns if isinstance(r.value, ast.Subscript)):
            return None
        attr, key = next(iter(reads))
        if key is None or attr not in self.method_items(self.unit.class_items, method):
            return None
        stored = self.stored_items(ast.Attribute(func.value, attr, ast.Load()))
        if stored is None:
            return None
        followed, position = init_state.item_position(
            self.unit.class_item_keys.get(attr), not any(self.unit.class_items.get(attr, "k")), key,
            stored[1],
        )
        if not followed or position is None:
            return None
        return init_state.item_places(*stored)[position]

    def field_choices(self, node: ast.expr, field: str, span: Span, depth: int) -> calls.Choices[ast.expr] | None:
        """The places the attribute `field` of the object `node` evaluates to may be, for an object the checker
        sees built right there: a `fields` entry's call (`copy.copy(x)`, `dataclasses.replace(x, f=v)`;
        `stdlib_flow.copied_field`), a constructor call of a dataclass or `NamedTuple` of this module or of a
        `namespace` entry (`stdlib_flow.constructed_field`); of a copy's operand also a name whose class is one."""
        if depth > _CHOICE_DEPTH:
            return None
        if isinstance(node, ast.Name):
            cls = receiver_class(self, node.id)
            base = self.place(node)
            generated = self.generated_init(cls) if cls is not None else None
            if base is None or generated is None or field not in (*generated.positional, *generated.keyword_only):
                return None
            return (node,), (calls.Operand(node, span, stdlib_flow.field_place(base, field), True),)
        if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        if any(k.arg is None for k in node.keywords):
            return None
        keywords = [(k.arg, k.value) for k in node.keywords if k.arg is not None]

        def choose(option: ast.expr) -> calls.Choices[ast.expr] | None:
            return self._alternatives((), (option,), span, depth)

        flow = stdlib_flow.stdlib_flow(self.stdlib_name(node.func))
        if flow is not None and flow.relation == "fields":
            if len(node.args) != 1 or (keywords and not flow.replaces):
                return None
            return stdlib_flow.copied_field(
                field, node.args[0], keywords, lambda o, f: self.field_choices(o, f, span, depth + 1), choose
            )
        func = node.func
        namespace = self.namespace(node)
        if namespace is not None:  # `SimpleNamespace(src=c, dst=c).dst`: the keyword's operand
            return stdlib_flow.constructed_field(field, namespace[1], (), keywords, choose)
        if not (isinstance(func, ast.Name) and func.id in self.ctx.classes.classes and self.constructs(node)):
            return None
        generated = self.generated_init(self.ctx.classes.classes[func.id])
        if generated is None:
            return None
        return stdlib_flow.constructed_field(field, generated, node.args, keywords, choose)

    def generated_init(self, cls: ast.ClassDef) -> GeneratedInit | None:
        """The followed `__init__` `@dataclass` / `NamedTuple` generates for `cls`, else None."""
        classes = self.ctx.classes
        if id(cls) not in classes.generated:
            classes.generated[id(cls)] = generated_fields(cls, self.ctx.qualify)
        generated = classes.generated[id(cls)]
        return generated if generated is not None and generated.followed else None

    def computed_index(self, node: ast.expr) -> bool:
        """`bufs[step % 2]` of a display or container name: as an argument it may be any item, but bound to a name
        (`src = bufs[i]; dst = bufs[j]`) it is a new value, as the indices usually differ (no report without
        knowing them); not when every item is one place (`uniform`): then any index gives it."""
        if not isinstance(node, ast.Subscript) or _key_literal(node.slice) is not None:
            return False
        if isinstance(node.value, ast.Name) and node.value.id in self.uniform:
            return False
        shown = self.literal_display(node.value)
        if shown is not None and one_place([computed_dotted(item) for item in shown]) is not None:
            return False
        return self.literal_display(node.value) is not None or (
            isinstance(node.value, ast.Name) and node.value.id in self.containers
        )

    def uniform_container(self, node: ast.expr) -> bool:
        """Whether `node` builds a container whose every item is one object (`init_state.uniform_container`)."""
        found = self.display_items(node)
        if found is not None:
            keys, items = [k for k, _ in found[0]], [computed_dotted(item) for _, item in found[0]]
            return init_state.uniform_container(found[1], keys, items)
        repeated = _repeated_display(node)
        places = [computed_dotted(item) for item in repeated.items] if repeated is not None else []
        return repeated is not None and init_state.uniform_container(None, (), places)

    def uniform_item(self, node: ast.expr) -> ast.expr | None:
        """The one expression whose object every item of a `uniform_container` is, else None."""
        if not self.uniform_container(node):
            return None
        found = self.display_items(node)
        if found is not None:
            return found[0][0][1] if found[0] else None
        repeated = _repeated_display(node)
        return repeated.items[0] if repeated is not None and repeated.items else None

    def uniform_display(self, node: ast.expr) -> str | None:
        """The one place every item of a sequence display is (`[buf, buf]`, `deque([buf, buf])`, `[buf] * 3`:
        `computed_items.one_place`), else None."""
        found = self.display_items(node)
        if found is not None:
            return None if found[1] else one_place([computed_dotted(item) for _, item in found[0]])
        repeated = _repeated_display(node)
        return one_place([computed_dotted(item) for item in repeated.items]) if repeated is not None else None

    def builtin(self, func: ast.expr) -> str | None:
        """The builtin a callee names (`max`), unless a binding of this module or function shadows it."""
        if isinstance(func, ast.Name) and func.id not in self.local_names and self.ctx.qualify(func) == func.id:
            return func.id
        return None

    def item_choices(self, node: ast.expr, span: Span, depth: int) -> calls.Choices[ast.expr] | None:
        """The places an item of the iterable `node` may be: any item of a display or of a sequence container, of
        a mapping container's `.values()`, or of a builtin that keeps its argument's items (`sorted(pool)`)."""
        if depth > _CHOICE_DEPTH:
            return None
        items = self.literal_display(node)
        if items is not None:
            return self._alternatives((), items, span, depth)
        stored = self.stored_items(node)
        if stored is None and (uniform := self.foreign_uniform(node)) is not None:
            stored = (uniform, 1)  # (of an object of the class outside its methods, `foreign_uniform`)
        elif stored is not None and isinstance(node, ast.Attribute) and (
            self.unit.class_item_keys.get(node.attr) != init_state.UNIFORM_KEYS
        ):
            stored = None
        if stored is not None and isinstance(node, ast.Attribute):
            # `itertools.cycle(self.scratch)` of `self.scratch = [buf] * 2`: every item is the one object
            whole: ast.expr = node
            return (whole,), init_state.item_choices(whole, whole, whole, *stored, span, 0, init_state.UNIFORM_KEYS)[1]
        repeated = _repeated_display(node)
        if repeated is not None:  # `max([a, c] * n)`: any of the display's items, the very objects
            return self._alternatives((), repeated.items, span, depth)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "values":
            receiver = node.func.value
            if node.args or node.keywords or not isinstance(receiver, ast.Name):
                return None
            container = self.containers.get(receiver.id)
            if container is None or not container.mapping:
                return None
            raw, name = receiver.id, self.name(receiver.id)
            return (receiver,), tuple(
                calls.Operand(node, span, calls.container_element(name, raw, container, i), True)
                for i in range(len(container.keys))
            )
        if isinstance(node, ast.Call):
            # `sorted(pool, key=len)`, `itertools.cycle([c])`: a call keeping its operands' items (`stdlib_flow`)
            flow = stdlib_flow.keeps_items(self.stdlib_name(node.func))
            if flow is None or any(isinstance(a, ast.Starred) for a in node.args):
                return None
            taken = stdlib_flow.item_operands(flow, len(node.args))
            if taken is None or any(k.arg not in flow.options for k in node.keywords):
                return None
            parts = tuple(
                self._alternatives((), (node.args[i],), span, depth) if flow.itself  # `itertools.repeat(c)`
                else stdlib_flow.flattened_items(  # `itertools.chain.from_iterable([[c], [a]])`
                    self.literal_display(node.args[i]), lambda item: self.item_choices(item, span, depth + 1)
                ) if flow.flatten
                else self.item_choices(node.args[i], span, depth + 1)
                for i in taken
            )
            if any(part is None for part in parts):
                return None
            others = (*(a for i, a in enumerate(node.args) if i not in taken), *(k.value for k in node.keywords))
            return calls.merge_choices(others, parts)
        if isinstance(node, ast.Name) and (kept := self.iterators.get(node.id)) is not None:
            # `next(pool)` of `pool = itertools.cycle([c])`: any item the call keeps
            found = self.item_choices(kept, span, depth + 1)
            return ((node,), found[1]) if found is not None else None
        if isinstance(node, ast.Name) and (container := self.containers.get(node.id)) is not None:
            if container.mapping:  # iterating a dict gives its keys
                return None
            raw, name = node.id, self.name(node.id)
            return (node,), tuple(
                calls.Operand(node, span, calls.container_element(name, raw, container, i), True)
                for i in range(len(container.keys))
            )
        return None

    def tuple_component_choices(
        self, node: ast.expr, index: int | None, span: Span, depth: int
    ) -> tuple[calls.Choices[ast.expr] | None, ...] | None:
        """`next(zip(xs, ys))[0]`, `next(itertools.pairwise(xs))[1]`: the items the component may be
        (`stdlib_flow.tuple_component_operands`), one part per operand it may come from; None for other forms."""
        if not (isinstance(node, ast.Call) and node.args and isinstance(made := node.args[0], ast.Call)):
            return None
        if any(isinstance(a, ast.Starred) for a in made.args) or any(k.arg is None for k in made.keywords):
            return None
        operands = stdlib_flow.tuple_component_operands(
            stdlib_flow.takes_next(self.stdlib_name(node.func), len(node.args), len(node.keywords)),
            stdlib_flow.stdlib_flow(self.stdlib_name(made.func)), len(made.args), [k.arg for k in made.keywords],
            index,
        )
        inner = stdlib_flow.stdlib_flow(self.stdlib_name(made.func))
        if operands is None or inner is None:
            return None
        position = stdlib_flow.first_item_position(inner, index)
        fill = stdlib_flow.padded_fill(inner, [(k.arg, k.value) for k in made.keywords])

        def first_or_any(operand: ast.expr) -> calls.Choices[ast.expr] | None:
            return stdlib_flow.first_component(
                inner, position, self.literal_display(operand), fill,
                lambda rest, options: self._alternatives(rest, options, span, depth),
                lambda: self.item_choices(operand, span, depth + 1),
            )

        parts = tuple(first_or_any(made.args[i]) for i in operands)
        return parts if all(part is not None for part in parts) else None

    def picked_items(self, node: ast.Call, span: Span, depth: int) -> calls.Choices[ast.expr] | None:
        """`max(pool, key=len)`, `min(a, b)`, `next(iter(pool), a)`: one of the items or arguments
        (`stdlib_flow`'s `pick` entries); `bufs.get("out", a)` of a mapping container: its item or the default."""
        func = node.func
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return None
        if isinstance(func, ast.Attribute) and func.attr == "get" and isinstance(func.value, ast.Name):
            container = self.containers.get(func.value.id)
            if container is None or not container.mapping or node.keywords or not 1 <= len(node.args) <= 2:
                return None
            raw, name = func.value.id, self.name(func.value.id)
            key = node.args[0]
            literal = _key_literal(key)
            found = [i for i in container.indices(literal) if literal is None or container.keys[i] == literal]
            stored: calls.Choices[ast.expr] = (
                (func.value, key),
                tuple(
                    calls.Operand(node, span, calls.container_element(name, raw, container, i), True) for i in found
                ),
            )
            given = self._alternatives((), node.args[1:], span, depth) if len(node.args) == 2 else None
            return calls.merge_choices((), (stored, given))
        flow = stdlib_flow.picks_item(self.stdlib_name(func))
        if flow is None or not node.args or any(k.arg not in flow.options for k in node.keywords):
            return None
        others = tuple(k.value for k in node.keywords if k.arg != "default")
        default = next((k.value for k in node.keywords if k.arg == "default"), None)
        if flow.default is not None:  # `next(it, d)`: one iterable, a positional default
            if len(node.args) > flow.default + 1:
                return None
            default = node.args[flow.default] if len(node.args) > flow.default else None
            items = self.item_choices(node.args[0], span, depth + 1)
        elif len(node.args) == 1:
            items = self.item_choices(node.args[0], span, depth + 1)
        else:
            items = self._alternatives((), node.args, span, depth)
        fallback = self._alternatives((), (default,), span, depth) if default is not None else None
        return calls.merge_choices(others, (items, fallback))

    def allocates(self, node: ast.expr) -> bool:
        """Whether `node` is a call making a new buffer or tensor (`calls.ALLOCATING_FUNCTIONS`: `sk.zeros(...)`)."""
        if not isinstance(node, ast.Call):
            return False
        qualified = self.ctx.qualify(node.func)
        return calls.allocating(qualified)

    def aliasing_index(self, func: ast.expr) -> int | None:
        """Which argument a safekernels function's result aliases (`sk.as_buffer(t)` is `t`), or None."""
        qualified = self.ctx.qualify(func)
        if qualified is None or not qualified.startswith("safekernels."):
            return None
        return ALIASING_FUNCTIONS.get(qualified.rsplit(".", 1)[-1])

    def returning_call(self, helper: FunctionNode, call: ast.Call) -> tuple[FunctionNode, ast.Call]:
        """The function whose `return`s give the value of `call`, a call of `helper` with no receiver, and a call of
        it in the caller's terms: `helper` and `call` themselves, or, when `helper`'s body only returns a call of a
        function of the module's top level or a `@staticmethod` / `@classmethod` of its classes whose arguments
        are literals and `helper`'s parameters (`def outer(buf, n): return inner(buf, n, 1)`), that function and
        a call passing the caller's arguments for those parameters (made once per call, kept; followed up to four
        deep).  The caller's effects stay those of `call` (`helper`'s summary has the inner call's)."""
        for _ in range(4):
            body = helper.body[1:] if _is_docstring(helper.body[0]) else helper.body
            if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
                break
            inner_call = body[0].value
            func = inner_call.func
            inner: FunctionNode | None = None
            if isinstance(func, ast.Name):
                inner = self.ctx.functions.get(func.id)
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                inner = static_method(self, func.value.id, func.attr, self.ctx.classes, None)
            if inner is None or inner is helper or isinstance(inner, ast.Lambda):
                break
            made = self.forwarded_calls.get(id(call))
            if made is None:
                passed = _bind_call(helper, call)
                params = {p.arg for p in _param_names(helper.args)}
                args = [_in_caller_terms(a, passed, params) for a in inner_call.args]
                keywords = [(k.arg, _in_caller_terms(k.value, passed, params)) for k in inner_call.keywords]
                if any(a is None for a in args) or any(k is None or v is None for k, v in keywords):
                    break
                made = ast.copy_location(ast.Call(
                    func=func,
                    args=[a for a in args if a is not None],
                    keywords=[ast.keyword(arg=k, value=v) for k, v in keywords if v is not None],
                ), call)
                self.forwarded_calls[id(call)] = made
            helper, call = inner, made
        return helper, call

    def plain_callee(self, call: ast.Call) -> FunctionNode | None:
        """The function a call runs with no receiver, whose returns give its result: a helper called by its name
        (`helper`), or a `@staticmethod` or `@classmethod` of the module's classes called on its class
        (`Layout.lanes(buf, n)`) or on an object whose classes all find that one function (`self.lanes(buf, n)`)."""
        func = call.func
        if isinstance(func, ast.Name):
            return self.helper(func.id)
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return None
        owner = func.value.id
        classes = self.ctx.classes
        if owner in classes.classes:
            return static_method(self, owner, func.attr, classes, None)
        candidates = receiver_classes(self, owner) if classes.classes else None
        found = [classes.unbound_method(c, func.attr) for c in candidates or ()]
        first = found[0] if found else None
        return first[0] if first is not None and all(f is not None and f[0] is first[0] for f in found) else None

    def helper(self, name: str) -> FunctionNode | None:
        """The plain (undecorated) function `name` refers to here: one defined in this body, or at the module's top
        level when no local binding shadows it; a lambda bound once to `name` here, or the function a factory
        returned to it (`find_callables`)."""
        found = self.helpers.get(name) or self.made.get(name)
        if found is not None:
            return found
        if name in self.local_names and self.unit.kind != "module":
            return None
        return self.ctx.functions.get(name)

    def generator_call(self, node: ast.expr) -> ast.Call | None:
        """`gen(...)` of a generator function of the module or of this body (`runs_when_iterated`), or
        `obj.gen(...)` of a generator method of the class `obj` is an object of (`receiver_classes`), else None."""
        if not isinstance(node, ast.Call):
            return None
        classes = self.ctx.classes
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            owners = receiver_classes(self, node.func.value.id)
            found = classes.method(owners[0], node.func.attr, iterated=True) if owners else None
            return node if found is not None and not classes.runs_when_called(found) else None
        if not isinstance(node.func, ast.Name):
            return None
        helper = self.helper(node.func.id)
        return node if helper is not None and classes.runs_when_iterated(helper) else None

    def yielded_views(self, generator: ast.Call) -> callables.YieldedViews | None:
        """The views a generator call (`generator_call`) yields, when every `yield` of its function gives a view of
        a parameter (`yield buf.view(start, start + size)`, read as a `return` of it is: `returned_item`), else
        None (`callables.yielded_views`)."""
        helper = self.helper(generator.func.id) if isinstance(generator.func, ast.Name) else None
        if helper is None:
            return None
        yields = [n.value for n in _walk(helper.body) if isinstance(n, ast.Yield)]
        if not yields or any(y is None for y in yields):
            return None
        passed = _bind_call(helper, generator)
        params = {p.arg for p in _param_names(helper.args)}
        return callables.yielded_views(
            [self.returned_item(None, y, params, passed, helper, generator) for y in yields if y is not None]
        )

    def taken_generator(self, node: ast.expr) -> tuple[ast.Call, ast.Call | None] | None:
        """`gen(...)` unpacked as it is, or through a call keeping its items (`itertools.islice(gen(...), 2)`,
        `list(gen(...))`: `stdlib_flow.keeps_items`, its first operand), of a generator function whose every
        `yield` gives a view of a parameter (`yielded_views`): the generator call and the wrapping call."""
        wrapper = None
        if isinstance(node, ast.Call) and self.generator_call(node) is None:
            flow = stdlib_flow.keeps_items(self.stdlib_name(node.func))
            if flow is None or flow.itself or flow.flatten or not node.args or any(
                isinstance(a, ast.Starred) for a in node.args
            ) or any(k.arg is None for k in node.keywords) or stdlib_flow.item_operands(flow, len(node.args)) != (0,):
                return None
            wrapper, node = node, node.args[0]
        generator = self.generator_call(node)
        if generator is None or self.yielded_views(generator) is None:
            return None
        return generator, wrapper

    def unpacked_comprehension(self, targets: Sequence[ast.expr], value: ast.expr) -> bool:
        """`left, right = (planar.channel(c) for c in range(2))` (also a list comprehension): one `for` of a plain
        name over a tuple/list display or `range` of integer literals, no `if`, unpacked into as many plain names as
        it gives items.  The unpacking runs every iteration before it binds, so each name is what the element gives
        in its iteration: the loop name bound to the display's item, or to its number from `range` (a known number
        for view bounds, `constants`), under the comprehension's renames.  The element must not read the names
        being bound (binding them one by one is then the same).  False, lowering nothing, for anything else."""
        if len(targets) != 1 or not isinstance(targets[0], ast.Tuple | ast.List):
            return False
        names = targets[0].elts
        if not names or not all(isinstance(n, ast.Name) for n in names):
            return False
        if not isinstance(value, ast.GeneratorExp | ast.ListComp) or len(value.generators) != 1:
            return False
        comp = value.generators[0]
        loop = comp.target
        if comp.ifs or comp.is_async or not isinstance(loop, ast.Name):
            return False
        items = self.literal_display(comp.iter)
        numbers: list[int] | None = None
        if items is None and isinstance(comp.iter, ast.Call) and self.builtin(comp.iter.func) == "range":
            bounds = [_int_literal(a) for a in comp.iter.args]
            if not comp.iter.keywords and calls.range_length(bounds) is not None:
                numbers = list(range(*[b for b in bounds if b is not None]))
        count = len(items) if items is not None else len(numbers) if numbers is not None else -1
        bound = {n.id for n in names if isinstance(n, ast.Name)}
        read = {n.id for n in _walk(value, False) if isinstance(n, ast.Name)}
        if count != len(names) or not bound.isdisjoint(read) or loop.id in bound:
            return False
        if items is not None and loop.id in {n for item in items for n in _item_roots(item)}:
            return False
        self.expr(comp.iter)
        for index, name in enumerate(names):
            self.tmp += 1
            self.renames.append({loop.id: f"{loop.id}$c{self.tmp}"})
            known = self.constants.pop(loop.id, None)
            try:
                if items is not None:
                    self.assign([loop], items[index])
                    if (number := _int_literal(items[index])) is not None:
                        self.constants[loop.id] = number  # `for c in (1, 0)`
                else:
                    assert numbers is not None
                    self.bind(loop, ir.Fresh())
                    self.constants[loop.id] = numbers[index]
                self.assign([name], value.elt)
            finally:
                self.renames.pop()
                self.constants.pop(loop.id, None)
                if known is not None:
                    self.constants[loop.id] = known
        return True

    def taken_views(self, targets: Sequence[ast.expr], value: ast.expr) -> bool:
        """`left, right = itertools.islice(windows(buf, n), 2)` (`taken_generator`): the generator's body runs for
        the items the unpacking takes, each a view of the caller's argument (`callables.bind_taken_items`).  False,
        lowering nothing, for anything else."""
        if len(targets) != 1 or not isinstance(targets[0], ast.Tuple | ast.List):
            return False
        taken = self.taken_generator(value)
        if taken is None:
            return False
        generator, wrapper = taken
        views = self.yielded_views(generator)
        assert views is not None
        if wrapper is not None:
            self.expr(wrapper.func)
        self.iterated.add(id(generator))
        self.call(generator, None)
        if wrapper is not None:
            for arg in (*wrapper.args[1:], *(k.value for k in wrapper.keywords)):
                self.expr(arg)
        callables.bind_taken_items(self.target(targets[0]), views, self.span(value), self)
        return True

    def call(self, node: ast.Call, holder: ir.Place | None) -> ir.Value:
        """What a call does and gives; a call of a memoised function gives the object its cache keeps for equal
        arguments (`memo.memo_result`)."""
        memoized = self.memoized_call(node)
        value = self.plain_call(node, holder)
        if memoized is None:
            return ir.Fresh(calls.SHARED_OP) if value == ir.Fresh() and self.returns_shared_op(node) else value
        return memo_result(self.memo, *memoized, value, self.span(node), self, self.memoized_shared(node))

    def returns_shared_op(self, node: ast.Call) -> bool:
        """Whether `node` calls a function of the module, or a method of a receiver of known class, whose every
        `return` gives a `.shared()` op (`memo.returns_shared`): launches read what it gives, never move it."""
        func = node.func
        found: ast.AST | None = None
        if isinstance(func, ast.Name) and func.id not in self.partials:
            found = self.helper(func.id)
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            cls = receiver_class(self, func.value.id)
            found = self.ctx.classes.method(cls, func.attr) if cls is not None else None
        return isinstance(found, ast.FunctionDef) and _gives_shared_op(found)

    def memoized_object(self, node: ast.Call) -> bool:
        """Whether `node` calls a memoised helper of the module whose every `return` builds an object of a class the
        checker follows (`returned_objects`): its value is bound with those fields (`value`), not read as a bare
        kept object."""
        if not isinstance(node.func, ast.Name):
            return False
        helper = self.helper(node.func.id)
        return helper is not None and self.returned_objects(helper, node) is not None

    def memoized_call(self, node: ast.Call) -> tuple[str, MemoKey] | None:
        """`ones(64)` / `ws.scratch(n)` of a function or method of the module whose outermost decorator is
        `@functools.cache` / `@functools.lru_cache` (`memo.memoizing_decorator`): its name and the call's key (the
        receiver's token first, `memo_token`), else None."""
        found = self.memoized_function(node)
        return found[:2] if found is not None else None

    def memoized_shared(self, node: ast.Call) -> bool:
        """Whether the memoised function `node` calls returns a `.shared()` op at every `return`
        (`memo.returns_shared`)."""
        found = self.memoized_function(node)
        return found is not None and _gives_shared_op(found[2])

    def memoized_function(self, node: ast.Call) -> tuple[str, MemoKey, ast.FunctionDef] | None:
        """`memoized_call`, with the memoised function's definition."""
        if self.kernel_body or id(node) in self.partial_names:
            return None
        func = node.func
        receiver: tuple[MemoToken, ...] = ()
        found: ast.AST | None = None
        owner: ast.ClassDef | None = None
        if isinstance(func, ast.Name) and func.id not in self.partials:
            found, name = self.helper(func.id), func.id
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner = receiver_class(self, func.value.id)
            if owner is None:
                return None
            found, name = self.ctx.classes.method(owner, func.attr), f"{owner.name}.{func.attr}"
            receiver = (self.memo_token(func.value),)
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute):
            # `self.workspace.get(n)` of an object an attribute holds: the one class defining the method, on a
            # receiver the key cannot name (two such calls may be on one object)
            held = held_object_method(self, func)
            if held is None:
                return None
            owner, found, name, receiver = held[0], held[1], f"{held[0].name}.{func.attr}", (None,)
        if not isinstance(found, ast.FunctionDef):
            return None
        keyed = self.memo_key(found, name, receiver, node, self.memo_token)
        if keyed is not None or found.decorator_list:
            return keyed
        return self.forwarded_memo(found, owner, receiver, node)

    def memo_key(
        self,
        found: ast.FunctionDef,
        name: str,
        receiver: tuple[MemoToken, ...],
        node: ast.Call,
        token: Callable[[ast.expr], MemoToken],
    ) -> tuple[str, MemoKey, ast.FunctionDef] | None:
        """The key of the call `node` of `found` when that is memoised (decorated, or a hand-written cache), each
        argument's token given by `token`; else None."""
        if not found.decorator_list:
            # a hand-written cache keyed by some of its parameters (`memo_shape`): their tokens key the call
            shape = self.ctx.memo_params(found, bool(receiver))
            if shape is None:
                return None
            keyed, exact = shape
            if not exact:
                return name, (*receiver, None), found
            bound = _bind_call(found, node, bool(receiver))
            return name, receiver + tuple(self.path_token(bound, path, token) for path in keyed), found
        first = found.decorator_list[0]
        called = isinstance(first, ast.Call)
        if not memoizing_decorator(self.ctx.qualify(first.func if isinstance(first, ast.Call) else first), called):
            return None
        args = call_args(node)
        if any(a.star for a in args):
            return name, (None,), found
        return name, receiver + tuple(keyword_token(a.keyword, token(a.value)) for a in args), found

    def forwarded_memo(
        self, found: ast.FunctionDef, owner: ast.ClassDef | None, receiver: tuple[MemoToken, ...], node: ast.Call
    ) -> tuple[str, MemoKey, ast.FunctionDef] | None:
        """A function whose body only returns a call of a memoised one (`def drive_trace(self): return
        self._buffer(self.samples)`, a method of the same object, or a function of the module): calling it gives
        what that call's cache keeps, so it is that memoised call, its key in this caller's terms (a literal, or a
        parameter the wrapper never rebinds, as the caller's argument's token; anything else unknown)."""
        body = found.body[1:] if _is_docstring(found.body[0]) else found.body
        if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
            return None
        inner = body[0].value
        passed = _bind_call(found, node, bool(receiver))
        me = found.args.args[0].arg if receiver and found.args.args else None

        def token(expr: ast.expr) -> MemoToken:
            if isinstance(expr, ast.Constant):
                return literal_token(expr.value)
            if isinstance(expr, ast.Name) and expr.id != me and expr.id in passed:
                return self.memo_token(passed[expr.id])
            return None

        callee = inner.func
        target: ast.AST | None = None
        if isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name) and callee.value.id == me:
            if owner is not None:
                target, name, inner_receiver = self.ctx.classes.method(owner, callee.attr), owner.name, receiver
                name = f"{name}.{callee.attr}"
        elif isinstance(callee, ast.Name) and callee.id not in {p.arg for p in _param_names(found.args)}:
            target, name, inner_receiver = self.helper(callee.id), callee.id, ()
        if not isinstance(target, ast.FunctionDef) or target is found:
            return None
        return self.memo_key(target, name, inner_receiver, inner, token)

    def path_token(
        self, bound: dict[str, ast.expr], path: str, token: Callable[[ast.expr], MemoToken]
    ) -> MemoToken:
        """The token of a hand-written cache's key item `path` (`n`, `spec.name`) at a call binding its parameters
        to `bound`: the parameter's argument's (`token`); below an attribute, the argument a constructor call of
        the module's dataclass (or `NamedTuple`) made right there passes for that field (`AccSpec("sum", f32)`
        for `spec.name`), followed down the path, or a module name's path as that name's (`f32.__name__`); else
        None (anything may hold an attribute)."""
        root, *attrs = path.split(".")
        node = bound.get(root)
        while node is not None and attrs:
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in self.ctx.classes.classes and self.constructs(node)):
                break
            generated = self.generated_init(self.ctx.classes.classes[node.func.id])
            if generated is None or any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords
            ):
                return None
            keywords = [(k.arg, k.value) for k in node.keywords if k.arg is not None]
            node = stdlib_flow.field_argument(attrs.pop(0), generated, node.args, keywords)
        if node is None:
            return None
        found = token(node)
        if not attrs or found is None:
            return found
        return None if found.startswith("=") or not isinstance(node, ast.Name) else ".".join((found, *attrs))

    def memo_token(self, node: ast.expr) -> MemoToken:
        """An argument's token in a memoised call's key: a string or integer literal, or a name with one value in
        this function (`view_bound`), else None."""
        if isinstance(node, ast.Constant):
            return literal_token(node.value)
        bound = self.view_bound(node) if isinstance(node, ast.Name) else None
        if isinstance(bound, int):
            return literal_token(bound)  # a module's integer constant (`N = 64`), as the literal
        if bound is None and isinstance(node, ast.Name) and node.id not in self.local_names:
            # a name the module binds once and this function never binds: one value everywhere
            return node.id if node.id in self.ctx.module_stable else None
        return bound

    def plain_call(self, node: ast.Call, holder: ir.Place | None) -> ir.Value:
        taken = stdlib_flow.takes_next(self.stdlib_name(node.func), len(node.args), len(node.keywords))
        generator = self.generator_call(node.args[0]) if taken else None
        if generator is not None:
            # `next(gen(...))`: the generator's body runs to its first item, which the call gives
            self.expr(node.func)
            self.iterated.add(id(generator))
            item = self.call(generator, holder)
            return callables.iterated_item(item, self.yielded_views(generator), self.span(node), self)
        drained = self.generator_call(node.args[0]) if stdlib_flow.drains(
            self.stdlib_name(node.func), len(node.args)
        ) else None
        if drained is not None:
            self.iterated.add(id(drained))  # `list(gen(...))`: the generator's body runs to its end here
        partial_name = self.partial_names.get(id(node))
        if partial_name is not None:
            return self.bind_partial(node, partial_name)
        mapped = self.mapped_call(node, holder)
        if mapped is not None:
            return mapped
        spread = self.starmapped_call(node)
        if spread is not None:
            return spread
        folded = self.higher_order_call(node, holder)
        if folded is not None:
            return folded
        func = node.func
        partial = self.partials.get(func.id) if isinstance(func, ast.Name) else None
        if partial is not None:
            func = partial.args[0]  # `run(c, d)` of `run = partial(target, ...)` calls `target`
        kernel = self.kernel_of(func)
        method: calls.MethodCall[ast.expr] | None = None
        if isinstance(func, ast.Attribute):
            receiver = func.value
            receiver_kernel = self.kernel_of(receiver) or class_kernel(self, receiver)
            if receiver_kernel is None and func.attr in calls.KERNEL_CHOICE_METHODS and not self.kernel_body:
                choices = self.kernel_choices(receiver)
                keyed = self.keyed_kernel_rows(receiver) if choices else None
                if keyed is not None:
                    # `KERNELS[name].launch(PREPARED[name], ...)`: once per key, `name` standing for that key
                    key_name, rows = keyed

                    def one_key(row: tuple[calls.ContainerKey, KernelSummary], held: ir.Place) -> ir.Value:
                        shadowed = self.literal_keys.get(key_name)
                        self.literal_keys[key_name] = row[0]
                        self.forced_kernels[id(receiver)] = row[1]
                        try:
                            return self.plain_call(node, held)
                        finally:
                            del self.forced_kernels[id(receiver)]
                            if shadowed is None:
                                del self.literal_keys[key_name]
                            else:
                                self.literal_keys[key_name] = shadowed

                    return calls.kernel_choice(rows, one_key, holder, self.span(node), self)
                if choices:
                    # `KERNELS[name].launch(...)`: once per kernel the receiver may be
                    def one(chosen: KernelSummary, held: ir.Place) -> ir.Value:
                        self.forced_kernels[id(receiver)] = chosen
                        try:
                            return self.plain_call(node, held)
                        finally:
                            del self.forced_kernels[id(receiver)]

                    return calls.kernel_choice(choices, one, holder, self.span(node), self)
            method = calls.MethodCall(
                func.attr,
                self.ctx.attr_span(func),
                self.operand(receiver, with_view=False),
                receiver_kernel,
                self.ctx.is_safekernels(receiver),
                self.item_container(receiver),
                self.receiver_elements(receiver),
                _int_literal(node.args[0]) if node.args else None,
                receiver_ring=isinstance(receiver, ast.Name) and receiver.id in self.rings,
                receiver_allocates=self.allocates(receiver),
            )
        qualified = self.ctx.qualify(func)
        args = tuple(self.operand(a.value, a.keyword, bool(a.star)) for a in call_args(node))
        slots: dict[int, calls.Operand[ast.expr]] = {}
        if partial is not None:
            assert isinstance(node.func, ast.Name)
            bound = self.partial_operands(node.func, partial)
            slots = {id(a.node): a for a in bound}
            args = callables.partial_arguments(bound, args)
        shape = calls.Call(
            node,
            self.span(node),
            func,
            args,
            kernel,
            method,
            qualified == SHARED_ARRAY_CONSTRUCTOR,
            qualified if qualified is not None and qualified.startswith("safekernels.") else None,
            self.closure_of(func.id, args) if isinstance(func, ast.Name) else None,
            (
                None
                if kernel is not None or is_safekernels_name(qualified or "")
                else callables.taken_by_a_loop(
                    applied_summary(self, node, method, args, func), id(node), self.loop_items, self.loop_moves
                )
            ),
            container_flow=stdlib_flow.container_flow(self.stdlib_name(func)),
        )
        self.slot_uses = slots
        read = self.read_operand_properties([*([method.receiver] if method is not None else []), *args])
        try:
            result = calls.lower_call(shape, holder, self)
        finally:
            self.slot_uses = {}
            self.read_properties.difference_update(read)
        if shape.summary is not None and shape.summary.returns_op and isinstance(result, ir.Fresh):
            # `doubled(z, x)` of `def doubled(z, x): return scale(z, x)`, and as much for a method, a
            # `@classmethod` or an object's `__call__` whose every `return` launches
            return ir.Fresh("op", built=shape.summary.op_built)
        if isinstance(func, ast.Name) and partial is None and result == ir.Fresh():
            helper = self.helper(func.id)
            if helper is not None and self.ctx.classes.runs_when_called(helper):
                brands = [self.prepared_brand(c, helper, node) for c in self.ctx.returned_calls(helper, False)]
                prepared = calls.returned_prepared(brands, self.span(node), self)
                if prepared is not None:
                    return prepared  # `prepared_for(vecadd, dev)` of `def prepared_for(k, dev): return k.prepare(...)`
        if isinstance(func, ast.Attribute) and result == ir.Fresh():
            if method is not None and method.receiver_kernel is None and not method.receiver_is_safekernels:
                found: ast.FunctionDef | None = None
                if isinstance(func.value, ast.Name):
                    cls = receiver_class(self, func.value.id)
                    found = self.ctx.classes.method(cls, func.attr) if cls is not None else None
                elif isinstance(func.value, ast.Attribute):
                    # `self.cache.get(kernel, n)` of an object an attribute holds: the one class defining it
                    held = held_object_method(self, func)
                    found = held[1] if held is not None else None
                if found is not None:
                    brands = [self.prepared_brand(c, found, node, True) for c in self.ctx.returned_calls(found, True)]
                    prepared = calls.returned_prepared(brands, self.span(node), self)
                    if prepared is not None:
                        return prepared  # `launcher.prepared(vecadd)` of a method returning `kernel.prepare(...)`
        return result

    def prepared_brand(
        self, node: ast.expr | None, helper: FunctionNode, call: ast.Call | None, method: bool = False
    ) -> str | None:
        """The kernel a helper's (or, with `method`, an instance method's) returned expression prepares a launch
        for (`calls.returned_prepared`): `saxpy.prepare(...)` of a kernel of the module, or `kernel.prepare(...)`
        of a parameter the helper never rebinds and `call` binds to a kernel; None for anything else."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            return None
        if node.func.attr != PREPARE_METHOD:
            return None
        target = node.func.value
        if isinstance(target, ast.Name) and target.id in {p.arg for p in _param_names(helper.args)}:
            stored = {
                n.id for n in _walk(helper.body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store | ast.Del)
            }
            passed = _bind_call(helper, call, method).get(target.id) if call is not None else None
            kernel = self.kernel_of(passed) if passed is not None and target.id not in stored else None
        else:
            found = self.ctx.kernel(target)
            kernel = found[1] if found is not None else None
        return kernel.name if kernel is not None else None

    def bind_partial(self, node: ast.Call, name: str) -> ir.Value:
        """`name = functools.partial(target, a, k=b)`: reads `partial` and `target`, evaluates the bound arguments
        in order and keeps each in its slot of `name` (`callables.bind_partial`); the partial is a new object."""
        self.expr(node.func)
        target, *bound = node.args
        self.expr(target)
        slots: list[ir.Place] = []
        values: list[ir.Value] = []
        for index, arg in enumerate(bound):
            values.append(self.value(arg))
            slots.append(callables.partial_slot(self.name(name), index, dotted(arg)))
        for keyword in node.keywords:
            assert keyword.arg is not None
            values.append(self.value(keyword.value))
            slots.append(callables.partial_slot(self.name(name), keyword.arg, dotted(keyword.value)))
        callables.bind_partial(slots, values, self.span(node), self)
        return ir.Fresh()

    def partial_operands(self, callee: ast.Name, partial: ast.Call) -> tuple[calls.Operand[ast.expr], ...]:
        """The bound arguments of the partial `callee` names, as operands naming its slots: read at the call, so a
        diagnostic about one points at the callee's name there (`run` of `run(c, b, c)`)."""
        name, span = self.partial_slots.get(callee.id, callee.id), self.span(callee)
        out: list[calls.Operand[ast.expr]] = []
        pairs: list[tuple[int | str, str | None, ast.expr]] = [(i, None, a) for i, a in enumerate(partial.args[1:])]
        pairs += [(k.arg, k.arg, k.value) for k in partial.keywords if k.arg is not None]
        for key, keyword, arg in pairs:
            slot = callables.partial_slot(self.name(name), key, dotted(arg))
            device = self.is_device_place(arg) or self.expr_is_device(arg)
            out.append(calls.Operand(arg, span, slot, device, keyword=keyword))
        return tuple(out)

    def closure_of(self, name: str, args: Sequence[calls.Operand[ast.expr]] = ()) -> calls.NonlocalEffects | None:
        """What a call of the nested function `name` does to the caller's values: one defined in this body, or, in
        a nested function, a sibling defined in the enclosing body (`Unit.outer_closures`) that no local binding
        shadows; with `args`, also to the defaults the call omits (`parameter_defaults.with_defaults`)."""
        found = self.closures.get(name)
        if found is None and name not in self.local_names:
            found = self.unit.outer_closures.get(name)
        return parameter_defaults.with_defaults(found, self.defaults.get(name), args)

    def awaited_value(self, node: ast.Await, holder: ir.Place | None) -> ir.Value:
        """`await f(...)`: the call runs here, so a call of an `async def` of the module is followed as a plain
        function's (`call_targets.applied_summary` with the call in `awaited`); `await asyncio.gather(f(a), g(b))`
        runs each coroutine in turn (`callables.lower_gathered`).  The coroutine may be suspended here
        (`callables.suspend`)."""
        inner = node.value
        qualified = self.ctx.qualify(inner.func) if isinstance(inner, ast.Call) else None
        no_delay = isinstance(inner, ast.Call) and bool(inner.args) and _zero_literal(inner.args[0])
        callables.suspend((qualified,) if qualified is not None else (), no_delay, self.span(node), self)
        task = self.task_call(inner)
        if task is not None:
            # `await first` of `first = asyncio.create_task(submit(...))`: the coroutine's call runs here
            self.awaited.add(id(task))
            return callables.awaited_task(lambda: self.value(task, holder), self.span(task), self.span(node), self)
        if not isinstance(inner, ast.Call):
            self.expr(inner)
            return ir.Fresh()
        if (
            self.ctx.qualify(inner.func) in callables.GATHER_FUNCTIONS
            and not inner.keywords
            and inner.args
            and not any(isinstance(a, ast.Starred) for a in inner.args)
        ):
            self.expr(inner.func)
            self.awaited.update(id(a) for a in inner.args if isinstance(a, ast.Call))
            return callables.lower_gathered([(a, self.span(a)) for a in inner.args], self)
        self.awaited.add(id(inner))
        return self.value(inner, holder)

    def task_call(self, node: ast.expr) -> ast.Call | None:
        """The coroutine call of the task `node` names, when this function awaits it once (`_task_calls`)."""
        if not isinstance(node, ast.Name):
            return None
        if self.tasks is None:
            unit = self.unit.node
            self.tasks = (
                {}
                if isinstance(unit, ast.Module | ast.Lambda)
                else _task_calls(unit.body, [p.arg for p in _param_names(unit.args)], self.ctx.qualify)
            )
        return self.tasks.get(node.id)

    def moving_callable(self, function: ast.expr) -> bool:
        """Whether a callable value moves what it is called with (`callables.moves_items`): `sk.zip`, a kernel."""
        qualified = self.ctx.qualify(function)
        function_name = qualified if qualified is not None and qualified.startswith("safekernels.") else None
        return callables.moves_items(function_name, self.kernel_of(function))

    def higher_order_call(self, node: ast.Call, holder: ir.Place | None) -> ir.Value | None:
        """`functools.reduce(sk.zip, ops)` (`callables.HIGHER_ORDER_FUNCTIONS`) of a callable that moves its
        arguments: each item the checker knows of the iterable (and the initial value) is moved by the call
        (`callables.apply_to_items`); None for any other call."""
        if self.ctx.qualify(node.func) not in callables.HIGHER_ORDER_FUNCTIONS:
            return None
        if node.keywords or not 2 <= len(node.args) <= 3 or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        function, iterable, *initial = node.args
        if not self.moving_callable(function):
            return self.folded_call(node)
        spread = self.operand(iterable, star=True).items
        if spread is None:
            return None
        items = (*spread, *(self.operand(a) for a in initial))
        return callables.apply_to_items(
            node, self.span(node), (node.func, function, iterable, *initial), items, holder, True, self
        )

    def folded_call(self, node: ast.Call) -> ir.Value | None:
        """`functools.reduce(f, items[, init])` (a `fold` entry of `stdlib_flow`) of a lambda or a function of the
        module the checker follows: `acc = f(acc, item)` per item, `f`'s call summary applied at each step as at
        an ordinary call (`stdlib_flow.lower_fold`); None for any other call."""
        found = stdlib_flow.folds(self.stdlib_name(node.func), len(node.args), len(node.keywords))
        if found is None or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        function, iterable, *initial = node.args
        callee: ast.FunctionDef | None = None
        target: ast.expr = function
        bound: tuple[calls.Operand[ast.expr], ...] = ()
        if isinstance(function, ast.Call) and self.partial_call(function) and not function.keywords:
            # `functools.reduce(functools.partial(fold, stream), items, init)`: `fold(stream, acc, item)` per item
            target, bound = function.args[0], tuple(self.operand(a) for a in function.args[1:])
        if isinstance(target, ast.Lambda):
            callee = self.ctx.lambda_function(target)
        elif isinstance(target, ast.Name):
            helper = self.helper(target.id)
            callee = helper if isinstance(helper, ast.FunctionDef) else None
        if callee is None or not self.ctx.classes.runs_when_called(callee):
            return None
        nested = isinstance(target, ast.Lambda) or (isinstance(target, ast.Name) and target.id in self.helpers)
        span = self.span(node)

        def step(acc: calls.Operand[ast.expr], item: calls.Operand[ast.expr]) -> None:
            applied = applied_callee(self, callee, nested, (*bound, acc, item), span)
            if applied is not None:
                apply_summary(applied, node, span, self)

        items = self.operand(iterable, star=True).items
        source = self.iteration_source(iterable) if items is None else None
        return stdlib_flow.lower_fold(
            node, span, (node.func, function, iterable, *initial), self.operand(initial[0]) if initial else None,
            items, source, self.expr_is_device(iterable), step, self,
        )

    def mapped_call(self, node: ast.Call, holder: ir.Place | None = None) -> ir.Value | None:
        """`list(map(f, [x, y]))` (also `tuple`, `set`, `sorted`) of a lambda or a function the checker follows:
        the items are evaluated, then `f` runs on each in order, with its call summary (`callables.mapped_items`);
        None for any other call."""
        inner = node.args[0] if len(node.args) == 1 and not node.keywords else None
        if not (isinstance(inner, ast.Call) and len(inner.args) == 2 and self.builtin(inner.func) == "map"):
            return None
        if self.builtin(node.func) not in callables.MAP_CONSUMERS:
            return None
        if inner.keywords or any(isinstance(a, ast.Starred) for a in inner.args):
            return None
        function, items_node = inner.args
        callee: ast.FunctionDef | None = None
        if isinstance(function, ast.Lambda):
            callee = self.ctx.lambda_function(function)
        elif isinstance(function, ast.Name):
            found = self.helper(function.id)
            callee = found if isinstance(found, ast.FunctionDef) else None
        if callee is None and self.moving_callable(function):
            # `list(map(scale, parts))` of a callable the ownership table knows: each known item is moved
            spread = self.operand(items_node, star=True).items
            if spread is None:
                return None
            evaluated = (node.func, inner.func, function, items_node)
            return callables.apply_to_items(node, self.span(node), evaluated, spread, holder, False, self)
        display = self.literal_display(items_node)
        items = callables.mapped_items(
            None if display is None else [self.operand(item) for item in display]
        )
        if callee is None or items is None or not self.ctx.classes.runs_when_called(callee):
            return None
        self.expr(node.func)
        self.expr(inner.func)
        self.expr(function)
        self.expr(items_node)
        nested = isinstance(function, ast.Lambda) or (isinstance(function, ast.Name) and function.id in self.helpers)
        for item in items:
            applied = applied_callee(self, callee, nested, (item,), self.span(node))
            if applied is not None:
                apply_summary(applied, node, self.span(node), self)
        return ir.Fresh()

    def starmapped_call(self, node: ast.Call) -> ir.Value | None:
        """`list(itertools.starmap(f, rows))` / `list(map(f, rows))` (`callables.STARMAP_FUNCTIONS`) of a partial,
        a launch (`k.launch`) or a function of the module, over a display of places or a sequence container bound
        here: the consumer, the iterable and the rows are read, then one call `f(*row)` / `f(row)` per row, in
        order, lowered as written at the consuming call (`callables.spread_rows`); None for any other call."""
        inner = node.args[0] if len(node.args) == 1 and not node.keywords else None
        if not isinstance(inner, ast.Call) or self.builtin(node.func) not in callables.MAP_CONSUMERS:
            return None
        spread = self.ctx.qualify(inner.func) in callables.STARMAP_FUNCTIONS
        if not (spread or self.builtin(inner.func) == "map") or inner.keywords or len(inner.args) != 2:
            return None
        function, items = inner.args
        if isinstance(function, ast.Name):
            found = self.helper(function.id)
            if function.id not in self.partials and not (
                isinstance(found, ast.FunctionDef) and self.ctx.classes.runs_when_called(found)
            ):
                return None
        elif not (isinstance(function, ast.Attribute) and self.ctx.kernel(function.value) is not None):
            return None
        rows = self.spread_arguments(items, spread, inner)
        if rows is None:
            return None
        self.expr(node.func)
        self.expr(inner.func)
        self.expr(items)
        for args in rows:
            call = ast.copy_location(ast.Call(func=function, args=args, keywords=[]), inner)
            self.expr(call)
        return ir.Fresh()

    def spread_arguments(self, items: ast.expr, spread: bool, at: ast.expr) -> list[list[ast.expr]] | None:
        """The argument lists of the calls `starmapped_call` lowers, one per row of `items`: a display's rows (each
        a display of places for a starmap, a place for a map), or `*rows[i]` / `rows[i]` of a sequence container
        bound here (spelled at `at`, the starmap's call); None when the rows are not known."""
        display = self.literal_display(items)
        if display is not None:
            if spread:
                inner = [self.literal_display(row) for row in display]
                if any(row is None or any(self.place(e) is None for e in row) for row in inner):
                    return None
                return [list(row) for row in inner if row is not None]
            return None if any(self.place(row) is None for row in display) else [[row] for row in display]
        if not isinstance(items, ast.Name) or items.id not in self.containers or items.id not in self.lengths:
            return None
        container = self.containers[items.id]
        if container.mapping:
            return None
        lengths = dict(container.inner)
        rows = callables.spread_rows([lengths.get(i) for i in range(len(container.keys))], spread)
        if rows is None:
            return None

        def located(expr: ast.expr) -> ast.expr:
            for sub in all_nodes(expr):
                ast.copy_location(sub, at)
            return expr

        out: list[list[ast.expr]] = []
        for index, spreads in rows:
            item = ast.Subscript(ast.Name(items.id, ast.Load()), ast.Constant(index), ast.Load())
            out.append([located(ast.Starred(item, ast.Load()) if spreads else item)])
        return out

    def returns_op(self, callee: FunctionNode) -> bool:
        """Whether every `return` of `callee` gives a lazy op (`calls.returns_op`), for `AppliedSummary.returns_op`."""
        return calls.returns_op([self.launch_of(c) for c in _returned_calls(callee)])

    def returned_op_site(self, callee: FunctionNode) -> Span | None:
        """Where `callee` builds the op its `return`s give, when that is one line (`AppliedSummary.op_built`)."""
        return one_line_site([self.span(c) if c is not None else None for c in _returned_calls(callee)])

    def launch_of(self, node: ast.Call | None) -> tuple[KernelSummary | None, str | None] | None:
        """`(kernel, method)` of a call that may launch (`k(...)`, `k.launch_async(...)`), for `calls.returns_op`."""
        if node is None:
            return None
        if isinstance(node.func, ast.Attribute):
            found = self.ctx.kernel(node.func.value)
            return (found[1] if found is not None else None), node.func.attr
        found = self.ctx.kernel(node.func)
        return (found[1] if found is not None else None), None


def lower_module(ctx: FileContext, module: ast.Module) -> list[ir.Function]:
    """Every function of the module (nested ones included) plus its top level, as IR functions."""
    out: list[ir.Function] = []
    pending = [Unit("<module>", module, "module")]
    inert = InertUnits(ctx.source, ctx.line_starts, module, ctx.summary, ctx.index)
    while pending:
        unit = pending.pop(0)
        if inert.skips(unit):  # it would lower to nothing the core checks (`inert_units`)
            continue
        lowerer = FunctionLowerer(ctx, unit)
        function = lowerer.lower()
        if lowerer.interesting:
            out.append(function)
        pending.extend(lowerer.nested)
    return out


def _changes_container(unit: ast.AST, name: str, attr: str) -> bool:
    """Whether the unit stores into, deletes from or calls a method of `name.attr` (`pp.fields[1] = new`,
    `pp.fields.append(b)`), or binds `name.attr` itself: then its items are not one object throughout."""

    def is_it(node: ast.AST) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name)
                and node.value.id == name)

    for sub in _walk(unit):
        if isinstance(sub, ast.Subscript) and not isinstance(sub.ctx, ast.Load) and is_it(sub.value):
            return True
        if isinstance(sub, ast.Attribute) and not isinstance(sub.ctx, ast.Load) and is_it(sub):
            return True
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and is_it(sub.func.value):
            return True
    return False


def _loop_target(node: ast.expr) -> callables.LoopTarget:
    """A `for` target as `callables.item_sources` reads it: a name, a tuple of targets; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Tuple | ast.List):
        return tuple(_loop_target(e) for e in node.elts)
    return None
