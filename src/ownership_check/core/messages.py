"""The wording of every diagnostic the core emits (rustc's; docs/reference.md §4); one constructor per error code."""

from __future__ import annotations

from collections.abc import Sequence

from ownership_check.diagnostics import Diagnostic, Label, Severity, Span

MOVED_HERE = "value moved here"
MOVED_IN_LOOP = "value moved here, in previous iteration of loop"
USED_AFTER_MOVE = "value used here after move"
UNSAFE_HELP = "wrap the operation in `with simt.unsafe():` after checking why it is sound"


def is_move_label(message: str) -> bool:
    """Whether a secondary label of E0382 marks a move (in this function, a loop, or a called function)."""
    return message.startswith(MOVED_HERE)


def _moved_label(in_loop: bool, inside: str | None) -> str:
    text = MOVED_IN_LOOP if in_loop else MOVED_HERE
    return f"{text}, inside `{inside}`" if inside is not None else text


def use_after_move(
    path: str,
    name: str,
    use: Span,
    moves: Sequence[tuple[Span, bool, str | None]],
    help_text: str | None,
    inside: Span | None = None,
) -> Diagnostic:
    """E0382; each move is (where, reached through a loop's back edge, the called function it happened in).  One
    label per place in the source: a move reached two ways (directly, and replayed at a call of the function it
    is in) is labelled as it is first listed.  `inside`: the use is a called function's launch argument there
    (`ir.Borrow.inside`): the primary span, where the runtime raises, with the call's argument (`use`) as a
    label."""
    labels: list[Label] = []
    for span, in_loop, moved_in in moves:
        if all(label.span != span for label in labels):
            labels.append(Label(span, _moved_label(in_loop, moved_in)))
    if inside is not None and inside != use:
        labels.append(Label(use, "used by this call"))
        use = inside
    labels.append(Label(use, USED_AFTER_MOVE, primary=True))
    return Diagnostic(
        "E0382", f"use of moved value: `{name}`", path, use, labels=tuple(labels), help=help_text
    )


def borrow_conflict(
    path: str,
    name: str,
    first: Span,
    first_mutable: bool,
    second: Span,
    second_mutable: bool,
    first_held_by: str | None = None,
    later_use: Span | None = None,
    element_of: str | None = None,
    closure: tuple[Span, str, str] | None = None,
    inside: Span | None = None,
) -> Diagnostic:
    """E0502 / E0499.  `closure`: both borrows are ones a nested function's launch takes of the caller's values,
    replayed at a call of it, where the caller's bindings make them conflict (`ir.Borrow.call`): (the call, the
    first borrow's name in the nested function, the caller's name of the value); the call is the primary span, as
    rustc reports a closure's captures where the closure is used, the message names the caller's value, and the
    borrows inside are labelled as the nested function's uses.  `inside`: the second borrow is one a called
    function of the file takes there (`ir.Borrow.inside`): the primary span, where the runtime raises, with the
    call's argument (`second`) as a label."""
    notes: tuple[str, ...] = ()
    help_text: str | None = None
    extra: tuple[Label, ...] = (Label(later_use, "first borrow later used here"),) if later_use else ()
    if closure is not None:
        return _closure_conflict(path, name, first, first_mutable, second, second_mutable, closure)
    through: tuple[Label, ...] = ()
    if inside is not None and inside != second:
        through = (Label(second, "borrowed by this call"),)
        second = inside
    if element_of is not None:
        help_text = f"finish using `{element_of}` before taking another element of `{name}` with `get_mut`"
    if first_held_by is not None:
        notes = (f"the first borrow is held by the pending operation `{first_held_by}` until it is consumed",)
        help_text = f"consume `{first_held_by}` with `sync_on`/`sync` before borrowing `{name}` again"
    if first_mutable and second_mutable:
        return Diagnostic(
            "E0499",
            f"cannot borrow `{name}` as mutable more than once at a time",
            path,
            second,
            labels=(
                Label(first, "first mutable borrow occurs here"),
                Label(second, "second mutable borrow occurs here", primary=True),
                *through,
                *extra,
            ),
            notes=notes,
            help=help_text or "pass a distinct buffer for each mutable parameter",
        )
    first_kind, second_kind = ("mutable", "immutable") if first_mutable else ("immutable", "mutable")
    return Diagnostic(
        "E0502",
        f"cannot borrow `{name}` as {second_kind} because it is also borrowed as {first_kind}",
        path,
        second,
        labels=(
            Label(first, f"{first_kind} borrow occurs here"),
            Label(second, f"{second_kind} borrow occurs here", primary=True),
            *through,
            *(Label(lb.span, f"{first_kind} borrow later used here") for lb in extra),
        ),
        notes=notes,
        help=help_text or "write the result into a separate buffer, or read from a copy",
    )


def _closure_conflict(
    path: str,
    name: str,
    first: Span,
    first_mutable: bool,
    second: Span,
    second_mutable: bool,
    closure: tuple[Span, str, str],
) -> Diagnostic:
    call, first_name, caller_name = closure
    second_kind = "mutable" if second_mutable else "immutable"
    first_kind = "mutable" if first_mutable else "immutable"
    twice = first_mutable and second_mutable
    first_use, second_use = ("first", "second") if twice else (first_kind, second_kind)
    labels = (
        Label(first, f"{first_use} borrow occurs due to use of `{first_name}` in closure"),
        Label(second, f"{second_use} borrow occurs due to use of `{name}` in closure"),
        Label(call, "both borrows occur in this call", primary=True),
    )
    if twice:
        return Diagnostic(
            "E0499",
            f"cannot borrow `{caller_name}` as mutable more than once at a time",
            path,
            call,
            labels=labels,
            help="pass a distinct buffer for each mutable parameter",
        )
    return Diagnostic(
        "E0502",
        f"cannot borrow `{caller_name}` as {second_kind} because it is also borrowed as {first_kind}",
        path,
        call,
        labels=labels,
        help="write the result into a separate buffer, or read from a copy",
    )


def move_while_borrowed(
    path: str, name: str, borrow: Span, move: Span, holder: str | None, later_use: Span | None = None
) -> Diagnostic:
    labels = (
        Label(borrow, f"borrow of `{name}` occurs here"),
        Label(move, f"move out of `{name}` occurs here", primary=True),
        *((Label(later_use, "borrow later used here"),) if later_use else ()),
    )
    help_text = f"consume `{holder}` with `sync_on`/`sync` before moving `{name}`" if holder else None
    return Diagnostic(
        "E0505",
        f"cannot move out of `{name}` because it is borrowed",
        path,
        move,
        labels=labels,
        help=help_text,
    )


def move_out_of_view(path: str, name: str, view: Span, move: Span) -> Diagnostic:
    """Moving a view (`c.view(...)`, a slice, a `split_at` half): it only borrows its base's memory."""
    return Diagnostic(
        "E0505",
        f"cannot move out of `{name}` because it is borrowed",
        path,
        move,
        labels=(
            Label(view, "borrow of another value's memory occurs here"),
            Label(move, f"move out of `{name}` occurs here", primary=True),
        ),
        notes=(f"`{name}` is a view (`view`, a slice, `split_at`): it borrows the memory of the value it views",),
        help="move the owning buffer instead",
    )


def unsafe_required(path: str, operation: str, span: Span) -> Diagnostic:
    return Diagnostic(
        "E0133",
        f"use of unsafe operation `{operation}` requires an unsafe block",
        path,
        span,
        labels=(Label(span, "use of unsafe operation", primary=True),),
        notes=("unsafe is lexical: only statements inside `with simt.unsafe():` are covered",),
        help=UNSAFE_HELP,
    )


def brand_mismatch(path: str, name: str, span: Span, expected: str, found: str, callee: Span) -> Diagnostic:
    return Diagnostic(
        "E0308",
        "mismatched types",
        path,
        span,
        labels=(
            Label(
                span, f"expected `PreparedLaunch[{expected}]`, found `PreparedLaunch[{found}]`", primary=True
            ),
            Label(callee, "arguments to this method are incorrect"),
        ),
        notes=(f"`{name}` was prepared by kernel `{found}` but is launched with kernel `{expected}`",),
        help=f"prepare a launch for this kernel with `{expected}.prepare(config, device)`",
    )


def syntax_error(path: str, message: str, span: Span) -> Diagnostic:
    return Diagnostic(
        "E0001", f"syntax error: {message}", path, span, labels=(Label(span, "invalid syntax", primary=True),)
    )


def unused_suppression(path: str, codes: Sequence[str], span: Span) -> Diagnostic:
    directive = f"# ownership: ignore[{', '.join(codes)}]" if codes else "# ownership: ignore"
    return Diagnostic(
        "W0001",
        f"unused suppression `{directive}`",
        path,
        span,
        severity=Severity.WARNING,
        labels=(Label(span, "no diagnostic with this code is reported on this line", primary=True),),
        help="remove the suppression comment",
    )


#: `help:` lines attached to moves, by what consumed the value (shared by both front ends).
MOVE_HELP: dict[str, str] = {
    "launch": "use the values returned by `sync_on`",
    "sync_on": "use the values returned by `sync_on`",
    "partition": "use the value returned by `partition`",
    "unpartition": "use the value returned by `unpartition`",
    "to": "use the buffer returned by `to`",
    "combinator": "use the operation returned by the combinator",
    "get_mut": (
        "read `i = idx.get()` before `get_mut(idx)` consumes the witness, or call `thread.index_1d()` again"
    ),
}


def move_help(kind: str) -> str | None:
    return MOVE_HELP.get(kind)


def not_analyzed(path: str, reason: str, span: Span) -> Diagnostic:
    """W0002: a file Python accepts but the front end could not analyze (so its ownership is unchecked)."""
    return Diagnostic(
        "W0002",
        f"ownership of this file was not checked: {reason}",
        path,
        span,
        severity=Severity.WARNING,
        labels=(Label(span, "analysis stopped here", primary=True),),
    )


def analysis_unconverged(path: str, function: str, span: Span) -> Diagnostic:
    """W0002 for one function whose fixed point ran out of its step budget: what it found is partial, so its
    ownership is reported unchecked rather than silently trusted (the other diagnostics of the file stand)."""
    return not_analyzed(
        path, f"the analysis of `{function}` stopped before it converged (please report this file)", span
    )


#: W0003's note: why an unused `DeviceOp` is a bug (shared by both of its shapes).
LAZY_NOTE = "a `DeviceOp` is lazy: its kernel runs only when `sync_on`, `sync` or `graph_on` consumes it"


def unused_device_op(path: str, span: Span, callee: str | None, built: Span | None = None) -> Diagnostic:
    """W0003, an expression statement: `add(z, x, y)` alone builds an operation and drops it.  `built`: where a
    helper of the file built the op its call returned; the warning goes there (where the runtime's unused-op
    warning points), labelled with the statement that dropped it."""
    what = f"returned by `{callee}` " if callee else ""
    labels: tuple[Label, ...] = (Label(span, "this operation never runs", primary=True),)
    if built is not None:
        returner = f" (`{callee}` returns it)" if callee else ""
        labels = (
            Label(built, "this operation is built here and never runs", primary=True),
            Label(span, f"the result of this call is dropped here{returner}"),
        )
    return Diagnostic(
        "W0003",
        f"unused `DeviceOp` {what}that must be used",
        path,
        built if built is not None else span,
        severity=Severity.WARNING,
        labels=labels,
        notes=(LAZY_NOTE,),
        help="run it with `.sync_on(stream)`, or chain it into an operation that runs (`then`, `zip`)",
    )


def device_op_dropped(
    path: str, name: str, span: Span, drop: Span | None, returned: bool, built: Span | None = None
) -> Diagnostic:
    """W0003, a binding: the `DeviceOp` bound to `name` at `span` is dropped on some path without being run
    (`drop`: the reassignment or `return` that drops it; None when the function ends there).  `built`: where a
    helper of the file built the op its call returned; the warning goes there (where the runtime's unused-op
    warning points), labelled with the binding."""
    labels = [Label(span, f"`{name}` holds a lazy operation from here", primary=built is None)]
    if built is not None:
        labels.insert(0, Label(built, "this operation is built here and never runs", primary=True))
    if drop is not None:
        labels.append(
            Label(drop, "the function returns here without running it" if returned else "reassigned here before it ran")
        )
    return Diagnostic(
        "W0003",
        f"unused `DeviceOp` that must be used: `{name}` is dropped without being run",
        path,
        built if built is not None else span,
        severity=Severity.WARNING,
        labels=tuple(labels),
        notes=(
            LAZY_NOTE,
            "on some path it is neither run, chained (`then`, `zip`, `first`, `shared`), passed on, nor deleted",
        ),
        help=f"run it with `{name}.sync_on(stream)` on every path, or `del {name}` to drop it on purpose",
    )
