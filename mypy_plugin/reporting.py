"""Run the core over the function enclosing a hooked call and report the unit's diagnostics.

mypy calls a hook once per call expression each time it checks the enclosing function (again after a deferral,
again under dmypy after an edit), and there is no hook after a function is done.  So every hook re-lowers the
whole enclosing unit, runs the core over it and reports what it found.  A hook reports *all* of the unit's
diagnostics, not only those its own call caused: the owning call's hook may never fire (mypy skips code it infers
to be unreachable, such as `if x is None:` for an `x` typed without None, although the program runs it), or fire
only while mypy discards errors (a speculative inference).  Within one checking pass a diagnostic is reported until
mypy has kept it (`mypy_internals.recorded_messages` grows when `api.fail` reaches the output), then no more: so
a hook under an error filter does not lose it, and a function with many hooked calls does not hand mypy one copy
per call (mypy drops copies only when it prints, by comparing every pair of a file's messages: with a few hundred
errors that comparison cost more than the whole check).

What a call *caused* (`caused_by`) still matters to its hook (a launch whose E0308 was found does not also get
the typed brand error):

- `E0382`: the first `value moved here` site (the move that makes the later use illegal);
- `E0502`/`E0499`/`E0505`/`E0308`/`E0133`: the primary span (the conflicting borrow, the move out of a borrowed
  value, the prepared launch, the unsafe operation), which is an operation of the call itself.

The analysis is shared by the hooks of one checking pass only (`PassCache`), never across passes: a per-function
cache made dmypy drop errors when it re-checked a function with the same nodes; a re-check (a new pass) analyses
and reports every diagnostic again, and a fixed file reports nothing.

mypy prints one line per message and sorts by position, so secondary labels become notes at the error's own
position that name the other line (`value moved here (line 12, column 9)`); rustc's multi-span window is the
CLI's job.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mypy.nodes import ClassDef, Context, Decorator, FuncDef, FuncItem, LambdaExpr, MypyFile, Node, TypeInfo, Var
from mypy.plugin import CheckerPluginInterface

from mypy_plugin import errorcodes, tree
from mypy_plugin.lowering import KERNEL_UNIT_KINDS, FileContext, Lowered, Unit, device_names, lower
from mypy_plugin.mypy_internals import checking_pass, recorded_messages, scope_stack
from ownership_check.core import check_function, ir
from ownership_check.core.messages import is_move_label
from ownership_check.diagnostics import Diagnostic, Span
from ownership_check.source_files import SourceReadError, decode_source, read_source
from ownership_check.suppressions import WILDCARD, find_suppressions


def cause_span(diagnostic: Diagnostic) -> Span:
    """The span of the operation that caused `diagnostic` (see the module docstring)."""
    if diagnostic.code == "E0382":
        moves = [lb.span for lb in diagnostic.labels if not lb.primary and is_move_label(lb.message)]
        if moves:
            return min(moves)
    return diagnostic.span


def _decorator_kind(ctx: FileContext, func: FuncItem, parent: Node) -> str:
    if not isinstance(func, FuncDef) or not func.is_decorated:
        return "function"
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


def _module_variables(module: MypyFile) -> frozenset[str]:
    return frozenset(name for name, symbol in module.names.items() if isinstance(symbol.node, Var))


def enclosing_unit(stack: Sequence[Node], ctx: FileContext) -> Unit | None:
    """The unit the libcst front end would lower the hooked call in, with the device names it inherits.

    Class bodies belong to the enclosing function or module; methods start without inherited names; a lambda is a
    unit of its own, like a nested function (the enclosing unit sees only its captures).  What a unit
    inherits is computed lazily: a module's device-like names matter to a function only if it mentions one of the
    module's variables.
    """
    module = stack[0]
    assert isinstance(module, MypyFile)
    unit = Unit(module, "module")
    if len(stack) == 1 or all(isinstance(e, TypeInfo) for e in stack[1:]):
        return unit
    outer: Callable[[], frozenset[str]] = _nothing
    candidates: frozenset[str] | None = frozenset()
    parent: Node = module
    for entry in stack:
        if isinstance(entry, MypyFile):
            unit = Unit(entry, "module")
        elif isinstance(entry, TypeInfo):
            outer, candidates = _nothing, frozenset()
            parent = entry
            continue
        elif isinstance(entry, LambdaExpr) and unit.kind in KERNEL_UNIT_KINDS:
            return None  # kernel code has no lambdas the CLI lowers
        elif isinstance(entry, FuncItem):
            enclosing = parent if isinstance(parent, FuncItem) else None  # a nested function (`reentry`)
            unit = Unit(entry, _decorator_kind(ctx, entry, parent), outer, candidates, enclosing=enclosing)
        else:
            continue
        if entry is not stack[-1] and not all(isinstance(e, TypeInfo) for e in stack[stack.index(entry) + 1:]):
            child = stack[stack.index(entry) + 1]
            nested = child if isinstance(child, FuncItem) else None
            outer = functools.cache(functools.partial(device_names, unit, ctx, nested))
            candidates = _module_variables(entry) if isinstance(entry, MypyFile) else None
        parent = entry
    return unit


def _nothing() -> frozenset[str]:
    return frozenset()


class CoreResults:
    """The core's diagnostics for an IR function, remembered by the IR itself (a bounded LRU).

    This is not the per-function memo that made dmypy drop errors: that one remembered *that a function had been
    reported* and skipped it.  Here every hook lowers its function afresh and asks for the diagnostics of that
    exact IR; the core is a pure function of the IR, so an equal IR has equal diagnostics, and any edit (or a
    changed kernel signature in another module) yields a different IR and a fresh analysis.  Which of the
    diagnostics a hook reports is still decided per call from the fresh lowering's origins.
    """

    def __init__(self, capacity: int = 512) -> None:
        self.capacity = capacity
        self.entries: dict[ir.Function, tuple[Diagnostic, ...]] = {}

    def get(self, function: ir.Function) -> tuple[Diagnostic, ...]:
        found = self.entries.pop(function, None)
        if found is None:
            found = tuple(check_function(function))
            if len(self.entries) >= self.capacity:
                self.entries.pop(next(iter(self.entries)))
        self.entries[function] = found
        return found


CORE = CoreResults()


def caused_by(lowered: Lowered, diagnostics: Sequence[Diagnostic], call: Node) -> list[Diagnostic]:
    return [d for d in diagnostics if lowered.origins.get(cause_span(d)) is call]


def suppressed(diagnostic: Diagnostic, path: str) -> bool:
    """Whether `# ownership: ignore[...]` covers `diagnostic`; the file is decoded as Python and the CLI decode
    it (a BOM, else the PEP 263 coding line: a latin-1 source is not UTF-8)."""
    return not unsuppressed([diagnostic], path)


def unsuppressed(diagnostics: Sequence[Diagnostic], path: str) -> list[Diagnostic]:
    """`diagnostics` without those an `# ownership: ignore[...]` comment covers (the file is read once)."""
    if not diagnostics:
        return []
    try:
        source, _ = decode_source(read_source(path).data, path)
    except SourceReadError:
        return list(diagnostics)
    by_line: dict[int, set[str]] = {}
    for sup in find_suppressions(source):
        by_line.setdefault(sup.line, set()).update(sup.codes)
    return [
        d for d in diagnostics
        if not ((codes := by_line.get(d.span.line)) and (d.code in codes or WILDCARD in codes))
    ]


def _context(span: Span) -> Context:
    context = Context(line=span.line, column=span.column - 1)
    context.end_line = span.end_line
    context.end_column = span.end_column - 1
    return context


def notes_of(diagnostic: Diagnostic) -> list[str]:
    """Secondary labels (naming their position), notes and help, as mypy notes."""
    out = [
        f"{label.message} (line {label.span.line}, column {label.span.column})"
        for label in diagnostic.related_labels()
        if label.message
    ]
    out.extend(diagnostic.notes)
    if diagnostic.help:
        out.append(f"help: {diagnostic.help}")
    return out


def emit(api: CheckerPluginInterface, diagnostic: Diagnostic) -> bool:
    """Report `diagnostic` with its notes; True when mypy kept the error (False: discarded, or unknown)."""
    code = errorcodes.error_code(diagnostic.code)
    context = _context(diagnostic.span)
    # Notes are not tied to their error (`parent_error`): mypy may check a call twice (an assignment's rvalue is
    # inferred once under a filter, then again), report the error twice, and on mypy 2.x drop the copy that its
    # notes were attached to.  Unattached notes are de-duplicated per line like errors, and a
    # `# type: ignore[CODE]` hides them with their error (they carry its code).
    before = recorded_messages(api)
    api.fail(diagnostic.message, context, code=code)
    after = recorded_messages(api)
    for text in notes_of(diagnostic):
        api.msg.note(text, context, code=code)
    return before is not None and after is not None and after > before


@dataclass
class _Analysed:
    """One unit's lowering and diagnostics, valid for the rest of the checking pass that computed them;
    `pending`: the diagnostics not suppressed by a comment that mypy has not kept yet in this pass."""

    unit: Node
    body: object
    token: object
    lowered: Lowered
    diagnostics: tuple[Diagnostic, ...]
    pending: list[Diagnostic]


class PassCache:
    """Reuse a unit's analysis for the later hooked calls of the *same checking pass* over it.

    mypy gives every pass over a function a new type binder (first pass, deferred pass, each dmypy re-check;
    `mypy_internals.checking_pass`), and dmypy's AST merge keeps a function object across an edit but gives it a
    new body.  An entry is reused only for the same function object, the same body object and the same binder
    object, so a pass never reports from a previous pass's analysis: every hook still reports its own diagnostics
    from an analysis made in the current pass.  (The memo that made dmypy drop errors was different: it
    remembered that a function had been *reported* and skipped it on the next pass.)
    `SAFEKERNELS_MYPY_NO_PASS_CACHE=1` turns reuse off; the parity test runs both ways.
    """

    def __init__(self) -> None:
        self.entries: dict[int, _Analysed] = {}
        self.enabled = os.environ.get("SAFEKERNELS_MYPY_NO_PASS_CACHE", "") in ("", "0")

    def lookup(self, unit: Node, body: object, token: object) -> _Analysed | None:
        found = self.entries.get(id(unit))
        if (
            not self.enabled or found is None or found.unit is not unit or found.body is not body
            or found.token is not token
        ):
            return None
        return found

    def store(self, entry: _Analysed) -> None:
        if len(self.entries) > 256:
            self.entries.clear()
        self.entries[id(entry.unit)] = entry


PASS_CACHE = PassCache()


def _target(stack: Sequence[Node]) -> Node | None:
    """The node whose body the hooked call belongs to (before computing everything `enclosing_unit` needs)."""
    for entry in reversed(stack):
        if isinstance(entry, FuncItem | MypyFile):
            return entry
    return stack[0]


def report_caused_by(api: CheckerPluginInterface, call: Node) -> list[Diagnostic]:
    """The hook body shared by every ownership-relevant call: reports the unit's diagnostics; returns what this
    call caused (reported or suppressed)."""
    stack = scope_stack(api)
    module = stack[0]
    assert isinstance(module, MypyFile)
    if module.fullname == "safekernels" or module.fullname.startswith("safekernels."):
        return []  # the library's own implementation uses its API internally; users' code is what is checked
    target = _target(stack)
    if target is None:
        return []
    analysed = _analysed(api, stack, target, module)
    if analysed is None:
        return []
    # A hook reports every diagnostic of its unit that mypy has not kept yet in this pass, not only those its call
    # caused: the owning call's own hook may never fire (mypy does not check code it infers to be unreachable,
    # `if x is None` for an `x` typed without None, although the program runs it), or fire only while mypy
    # discards errors (a speculative inference), so the next hook of the unit reports it again.
    if analysed.pending:
        analysed.pending = [d for d in analysed.pending if not emit(api, d)]
    return caused_by(analysed.lowered, analysed.diagnostics, call)


def report_unhooked_callee(api: CheckerPluginInterface, callee: FuncDef) -> None:
    """Report the diagnostics of `callee`, a function (or a method of a class) at the top level of the module being
    checked, from the hook of a call of it: `callee` holds a call that can cause one on a receiver mypy types as
    `Any` (`hooks.unhooked_causes`: `kernel.launch_unchecked(...)` of an unannotated parameter), and mypy calls no
    hook for a member call on `Any`, so no hook of its own may ever start its analysis.  The analysis is the one a
    hook inside it would make (`PASS_CACHE`, so a second call of it in the same pass reports nothing again)."""
    module = scope_stack(api)[0]
    if not isinstance(module, MypyFile):
        return
    def holds(body: Sequence[Node]) -> bool:
        return any(d is callee or (isinstance(d, Decorator) and d.func is callee) for d in body)

    if holds(module.defs):
        stack: list[Node] = [module, callee]
    else:
        owners = [d.info for d in module.defs if isinstance(d, ClassDef) and holds(d.defs.body)]
        if len(owners) != 1:
            return
        stack = [module, owners[0], callee]
    analysed = _analysed(api, stack, callee, module)
    if analysed is not None and analysed.pending:
        analysed.pending = [d for d in analysed.pending if not emit(api, d)]


def _analysed(api: CheckerPluginInterface, stack: Sequence[Node], target: Node, module: MypyFile) -> _Analysed | None:
    """The analysis of the unit `target` (the innermost function of `stack`, or the module) in this pass."""
    body: object = target.defs if isinstance(target, MypyFile) else getattr(target, "body", None)
    token = checking_pass(api)
    analysed = PASS_CACHE.lookup(target, body, token)
    if analysed is None:
        ctx = FileContext(module, api.path)
        unit = enclosing_unit(stack, ctx)
        if unit is None:
            return None
        lowered = lower(unit, ctx)
        diagnostics = CORE.get(lowered.function)
        analysed = _Analysed(
            target, body, token, lowered, diagnostics, unsuppressed(diagnostics, api.path)
        )
        PASS_CACHE.store(analysed)
    return analysed
