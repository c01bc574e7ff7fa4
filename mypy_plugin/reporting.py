"""Run the core over the function enclosing a hooked call and report the diagnostics *that call* caused.

mypy calls a hook once per call expression each time it checks the enclosing function (again after a deferral,
again under dmypy after an edit), and there is no hook after a function is done.  So every hook re-lowers the
whole enclosing unit and runs the core over it, then keeps only the diagnostics whose cause is this very call:

- `E0382`: the first `value moved here` site (the move that makes the later use illegal) — the use itself is
  usually a plain name, which has no hook of its own;
- `E0502`/`E0499`/`E0505`/`E0308`/`E0133`: the primary span (the conflicting borrow, the move out of a borrowed
  value, the prepared launch, the unsafe operation), which is an operation of the call itself.

Nothing is memoised across hooks: a per-function cache made dmypy drop errors when it re-checked a function with
the same nodes (reference/checker-anchors.md §2.5).  Each diagnostic has exactly one owning call, so a re-check
reports it again exactly once (mypy also drops exact duplicates), and a fixed file reports nothing.

mypy prints one line per message and sorts by position, so secondary labels become notes at the error's own
position that name the other line (`value moved here (line 12, column 9)`); rustc's multi-span window is the
CLI's job.
"""

from __future__ import annotations

from collections.abc import Sequence

from mypy.nodes import Context, FuncDef, FuncItem, LambdaExpr, MypyFile, Node, TypeInfo
from mypy.plugin import CheckerPluginInterface

from mypy_plugin import errorcodes, tree
from mypy_plugin.lowering import FileContext, Lowered, Unit, device_names, lower
from mypy_plugin.mypy_internals import scope_stack
from ownership_check.core import check_function
from ownership_check.core.messages import MOVED_HERE, MOVED_IN_LOOP
from ownership_check.diagnostics import Diagnostic, Span
from ownership_check.suppressions import WILDCARD, find_suppressions


def cause_span(diagnostic: Diagnostic) -> Span:
    """The span of the operation that caused `diagnostic` (see the module docstring)."""
    if diagnostic.code == "E0382":
        moves = [lb.span for lb in diagnostic.labels if not lb.primary and lb.message in (MOVED_HERE, MOVED_IN_LOOP)]
        if moves:
            return min(moves)
    return diagnostic.span


def _decorator_kind(ctx: FileContext, func: FuncItem, parent: Node) -> str:
    if not isinstance(func, FuncDef) or not func.is_decorated:
        return "function"
    from mypy.nodes import Decorator

    body: list[Node]
    if isinstance(parent, MypyFile):
        body = list(parent.defs)
    elif isinstance(parent, TypeInfo):
        body = list(parent.defn.defs.body)
    elif isinstance(parent, FuncItem):
        body = list(parent.body.body)
    else:
        return "function"
    for node in tree.walk_many(body):
        if isinstance(node, Decorator) and node.func is func:
            return ctx.decorator_kind(node.original_decorators)
    return "function"


def enclosing_unit(stack: Sequence[Node], ctx: FileContext) -> Unit | None:
    """The unit the libcst front end would lower the hooked call in, with the device names it inherits.

    Class bodies belong to the enclosing function or module; methods start without inherited names; lambdas are
    not units (their bodies only contribute captures), so a call inside a lambda has no unit.
    """
    module = stack[0]
    assert isinstance(module, MypyFile)
    unit = Unit(module, "module")
    if len(stack) == 1 or all(isinstance(e, TypeInfo) for e in stack[1:]):
        return unit
    outer: frozenset[str] = frozenset()
    parent: Node = module
    for entry in stack:
        if isinstance(entry, MypyFile):
            unit = Unit(entry, "module")
        elif isinstance(entry, TypeInfo):
            outer = frozenset()
            parent = entry
            continue
        elif isinstance(entry, LambdaExpr):
            return None
        elif isinstance(entry, FuncItem):
            unit = Unit(entry, _decorator_kind(ctx, entry, parent), outer)
        else:
            continue
        if entry is not stack[-1] and not all(isinstance(e, TypeInfo) for e in stack[stack.index(entry) + 1:]):
            outer = device_names(unit, ctx)
        parent = entry
    return unit


def caused_by(lowered: Lowered, diagnostics: Sequence[Diagnostic], call: Node) -> list[Diagnostic]:
    return [d for d in diagnostics if lowered.origins.get(cause_span(d)) is call]


def suppressed(diagnostic: Diagnostic, path: str) -> bool:
    try:
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
    except OSError:
        return False
    for sup in find_suppressions(source):
        if sup.line == diagnostic.span.line and (diagnostic.code in sup.codes or WILDCARD in sup.codes):
            return True
    return False


def _context(span: Span) -> Context:
    context = Context(line=span.line, column=span.column - 1)
    context.end_line = span.end_line
    context.end_column = span.end_column - 1
    return context


def notes_of(diagnostic: Diagnostic) -> list[str]:
    """Secondary labels (naming their position), notes and help, as mypy notes."""
    out = [
        f"{label.message} (line {label.span.line}, column {label.span.column})"
        for label in diagnostic.labels
        if not label.primary and label.message
    ]
    out.extend(diagnostic.notes)
    if diagnostic.help:
        out.append(f"help: {diagnostic.help}")
    return out


def emit(api: CheckerPluginInterface, diagnostic: Diagnostic) -> None:
    code = errorcodes.error_code(diagnostic.code)
    context = _context(diagnostic.span)
    info = api.fail(diagnostic.message, context, code=code)
    for text in notes_of(diagnostic):
        try:
            api.msg.note(text, context, code=code, parent_error=info)
        except TypeError:  # mypy before `parent_error` existed
            api.msg.note(text, context, code=code)


def report_caused_by(api: CheckerPluginInterface, call: Node) -> list[Diagnostic]:
    """The hook body shared by every ownership-relevant call; returns what this call caused (reported or
    suppressed)."""
    stack = scope_stack(api)
    module = stack[0]
    assert isinstance(module, MypyFile)
    if module.fullname == "safekernels" or module.fullname.startswith("safekernels."):
        return []  # the library's own implementation uses its API internally; users' code is what is checked
    ctx = FileContext(module, api.path)
    unit = enclosing_unit(stack, ctx)
    if unit is None:
        return []
    lowered = lower(unit, ctx)
    owned = caused_by(lowered, check_function(lowered.function), call)
    for diagnostic in owned:
        if not suppressed(diagnostic, api.path):
            emit(api, diagnostic)
    return owned
