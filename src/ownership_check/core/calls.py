"""What safekernels calls, views, assignments and unsafe blocks mean as flow IR, decided once for both front ends.

The libcst front end (the CLI) and the mypy plugin resolve names with different machinery (an import table plus a
project index, or mypy's semantic analysis), but once a call is resolved they must lower it identically, or the two
would report different diagnostics on the same code.  So each front end only

1. resolves: which kernel a callee or receiver is, which qualified name a callee has, which places are device-like,
   which bounds are integer literals; and
2. describes what it found in the *neutral shapes* below (`Call`, `Operand`, `ViewCall`/`SliceView`, `Target`,
   `Assignment`, `WithItem`),

and this module turns a shape into IR operations, reading the ownership table (`safekernels.ownership_model`):

    front end node --resolve--> Call / Assignment / WithItem --lower_call / lower_assignment / lower_with--> ir ops
                                   |                                  |
                                   +-- Operand.node (opaque) <---------+ sink.lower_expr(node): the front end lowers
                                                                          ordinary sub-expressions itself

The shapes are generic in `E`, the front end's expression node, which the core never inspects: it hands nodes back
to the front end (`Lowering.lower_expr`, `Lowering.value`) where an operand is an ordinary expression.  Lowering goes
through the `Lowering` sink rather than returning a list, because operations must interleave with the front end's
lowering of those sub-expressions in evaluation order, and call groups and temporaries are numbered in that order.

Two differences between the front ends predate this module and are kept, explicitly, as a `Dialect`, so that
sharing the code changed no behaviour; see docs/checker-internals.md ("Writing another front end").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Generic, Protocol, TypeAlias, TypeVar

from ownership_check.core import ir
from ownership_check.core.messages import move_help
from ownership_check.diagnostics import Span
from safekernels.ownership_model import (
    DISTINCT_MOVING_METHODS,
    MOVING_ARGUMENT_CALLS,
    MOVING_METHODS,
    PREPARE_METHOD,
    SIMT_LAUNCH_METHODS,
    UNSAFE_OPERATIONS,
    WITNESS_CONSUMERS,
    ParamMode,
)

E = TypeVar("E")
E_contra = TypeVar("E_contra", contravariant=True)

#: The context manager that swallows exceptions: `with suppress(E): body` is `try: body` / `except E: pass`.
SUPPRESS_CONTEXT: Final[str] = "contextlib.suppress"

#: Names that are constants, never places (`pending = None` binds a fresh object, it aliases nothing).
CONSTANT_NAMES: Final[frozenset[str]] = frozenset({"None", "True", "False"})

#: The view method (`c.view(start, stop)`) and the splitting method (`lo, hi = c.split_at(k)`).
VIEW_METHOD: Final[str] = "view"
SPLIT_METHOD: Final[str] = "split_at"

#: Methods whose result is a device value when their receiver is one (besides the moving methods).
_DEVICE_PRESERVING_METHODS: Final[frozenset[str]] = frozenset({VIEW_METHOD, "to_numpy", "load"})

#: Which help text a moved receiver gets (`messages.MOVE_HELP`); other moving methods are DeviceOp combinators.
_RECEIVER_MOVE_KIND: Final[dict[str, str]] = {
    "sync_on": "sync_on",
    "sync": "sync_on",
    "partition": "partition",
    "unpartition": "unpartition",
}


class PlaceNaming:
    """The naming state every front end's function lowering keeps: renames of shadowed names (comprehension
    variables, nested scopes), numbered temporaries and borrow groups, and places built from dotted names.

    Both front ends inherit it, so a place and its display text are spelled the same whichever AST they came from.
    """

    def __init__(self) -> None:
        self.renames: list[dict[str, str]] = []
        self.group = 0
        self.tmp = 0

    def name(self, raw: str) -> str:
        """`raw` as the innermost rename in scope maps it."""
        for renames in reversed(self.renames):
            if raw in renames:
                return renames[raw]
        return raw

    def dotted_place(self, root: str, attrs: tuple[str, ...] = ()) -> ir.Place:
        """The place `root.attr1.attr2...`; the display keeps the source spelling when `root` was renamed."""
        renamed = self.name(root)
        if renamed == root:
            return ir.Place(renamed, attrs, None)
        return ir.Place(renamed, attrs, ".".join((root, *attrs)))

    def temp(self, display: str) -> ir.Place:
        self.tmp += 1
        return ir.Place(f"$t{self.tmp}", (), display)

    def next_group(self) -> int:
        self.group += 1
        return self.group


@dataclass(frozen=True)
class Dialect:
    """Where the two front ends lowered differently before they shared this module (kept: no behaviour change).

    `launch_move_events`: the moves of one tile launch share an `event` (reported once together).
    `distinct_methods_move_any_receiver`: `x.sync_on(...)` / `x.unpartition(...)` move `x` even when the pre-pass
    does not know `x` to be a device value (the ownership table says they may).
    """

    launch_move_events: bool
    distinct_methods_move_any_receiver: bool


#: Every moved value is reported on its own, in both front ends: rustc reports a use after move once per set of
#: move sites, and the arguments of one launch are distinct move sites (`launch_move_events` used to be on in the
#: libcst front end only, so the CLI hid a second moved value of one launch and disagreed with the plugin).
GROUP_LAUNCH_MOVES: Final[bool] = False


class KernelSignature(Protocol):
    """What the core needs of a resolved kernel (the front ends' own kernel records satisfy it)."""

    @property
    def name(self) -> str: ...

    @property
    def track(self) -> str: ...

    @property
    def params(self) -> Sequence[tuple[str, str]]: ...  # (parameter name, ParamMode value)


class Lowering(Protocol[E_contra]):
    """The front end's side of the conversation: where operations go, and how ordinary expressions are lowered."""

    @property
    def kernel_body(self) -> bool: ...  # lowering a `@simt.kernel` / `@simt.device` body

    @property
    def dialect(self) -> Dialect: ...

    def emit(self, op: ir.Op, origin: E_contra | None = None, /) -> None:
        """Append `op`; `origin` is the call expression that caused it (the mypy plugin reports by it)."""

    def lower_expr(self, node: E_contra, /) -> None:
        """Lower an ordinary expression: its reads, its own calls, in evaluation order."""

    def value(self, node: E_contra, holder: ir.Place | None = None, /) -> ir.Value:
        """Lower an expression whose result is bound (an alias, a view or a fresh object)."""

    def next_group(self) -> int:
        """A new call group / split site number (shared with the front end's own numbering)."""

    def temp(self, display: str) -> ir.Place:
        """A new temporary place that diagnostics spell `display`."""


# --- neutral shapes --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ViewCall(Generic[E]):
    """`base.view(a, b)` of a place: `args` are lowered in order; `bounds` are the positional arguments' integer
    literals (None where an argument is not one)."""

    base: ir.Place
    base_device: bool
    args: tuple[E, ...]
    bounds: tuple[int | None, ...]


@dataclass(frozen=True)
class SliceView(Generic[E]):
    """`base[lower:upper:step]` of a place: `parts` are the bounds given, in order; `lower`/`upper` their integer
    literals (None where absent or not a literal)."""

    base: ir.Place
    base_device: bool
    parts: tuple[E, ...]
    lower_given: bool
    lower: int | None
    upper_given: bool
    upper: int | None
    step_given: bool


ViewShape: TypeAlias = "ViewCall[E] | SliceView[E]"


@dataclass(frozen=True)
class Operand(Generic[E]):
    """An argument or receiver of a call: the node, where it is, the place it names (if any), whether that place is
    device-like, and the view it is (if it is a view of a place rather than a place)."""

    node: E
    span: Span
    place: ir.Place | None = None
    device: bool = False
    view: ViewCall[E] | SliceView[E] | None = None
    keyword: str | None = None
    star: bool = False  # `*args` / `**kwargs`


@dataclass(frozen=True)
class MethodCall(Generic[E]):
    """The callee is `receiver.name`: `name_span` is the attribute name's span, `receiver_kernel` the kernel the
    receiver resolves to, `receiver_is_safekernels` whether the receiver is a safekernels module (`simt.zip(...)` is
    a function, not a method of a value)."""

    name: str
    name_span: Span
    receiver: Operand[E]
    receiver_kernel: KernelSignature | None = None
    receiver_is_safekernels: bool = False


@dataclass(frozen=True)
class Call(Generic[E]):
    """One call expression, resolved.  `kernel`: the callee itself is a kernel; `shared_array`: the callee is
    `simt.shared_array`; `safekernels_function`: the callee's qualified name when it is a safekernels function."""

    node: E
    span: Span
    callee: E
    args: tuple[Operand[E], ...]
    kernel: KernelSignature | None = None
    method: MethodCall[E] | None = None
    shared_array: bool = False
    safekernels_function: str | None = None


@dataclass(frozen=True)
class PlaceTarget:
    """An assignment target naming a place; `root_span` is set for an attribute target (`self.out = ...` reads
    `self`)."""

    place: ir.Place
    span: Span
    root_span: Span | None = None


@dataclass(frozen=True)
class UnpackTarget(Generic[E]):
    """`a, b = ...` / `[a, b] = ...`; `starred` when an item is `*rest`."""

    items: tuple[Target[E], ...]
    span: Span
    starred: bool = False


@dataclass(frozen=True)
class StarTarget(Generic[E]):
    """`*rest` as a target on its own."""

    inner: Target[E]


@dataclass(frozen=True)
class OtherTarget(Generic[E]):
    """A subscript store or anything else: lowered as an ordinary expression."""

    node: E


Target: TypeAlias = "PlaceTarget | UnpackTarget[E] | StarTarget[E] | OtherTarget[E]"


@dataclass(frozen=True)
class SplitAt(Generic[E]):
    """An assigned value `base.split_at(args...)` with `base` a place."""

    base: ir.Place
    args: tuple[E, ...]
    span: Span


@dataclass(frozen=True)
class Assignment(Generic[E]):
    """`targets = value` (one entry per `=`).  `split`: the value is a `split_at` of a place; `items`: the value is a
    tuple or list display without starred items (a parallel assignment when the target unpacks as many)."""

    targets: tuple[Target[E], ...]
    value: E
    split: SplitAt[E] | None = None
    items: tuple[E, ...] | None = None


@dataclass(frozen=True)
class WithItem(Generic[E]):
    """One item of a `with` statement; `unsafe_context` when it is `simt.unsafe()` (under any import alias)."""

    node: E
    unsafe_context: bool
    target: Target[E] | None = None
    suppresses: bool = False  # `contextlib.suppress(...)`: the body is `try: ... except ...: pass`


# --- device-likeness --------------------------------------------------------------------------------------------


def method_result_is_device(method: str, receiver_is_kernel: bool, receiver_is_device: Callable[[], bool]) -> bool:
    """Whether `receiver.method(...)` yields a device value (for the front ends' flow-insensitive pre-pass)."""
    if method in DISTINCT_MOVING_METHODS or method == SPLIT_METHOD or receiver_is_kernel:
        return True
    return receiver_is_device() and (method in MOVING_METHODS or method in _DEVICE_PRESERVING_METHODS)


# --- views ------------------------------------------------------------------------------------------------------


def view_region(view: ViewCall[E] | SliceView[E], sink: Lowering[E]) -> tuple[ir.Place, ir.Region] | None:
    """The base and region of a view of a device-like place (lowering its bound expressions); None otherwise."""
    if not view.base_device:
        return None
    if isinstance(view, ViewCall):
        for arg in view.args:
            sink.lower_expr(arg)
        bounds = view.bounds
        if len(bounds) == 2 and bounds[0] is not None and bounds[1] is not None:
            return view.base, ir.Range(bounds[0], bounds[1])
        return view.base, ir.Whole()
    for part in view.parts:
        sink.lower_expr(part)
    lo = 0 if not view.lower_given else view.lower
    hi = view.upper if view.upper_given else None
    if not view.step_given and lo is not None and lo >= 0 and (not view.upper_given or (hi is not None and hi >= 0)):
        return view.base, ir.Range(lo, hi)
    return view.base, ir.Whole()


def bind_view(view: ViewCall[E] | SliceView[E], span: Span, sink: Lowering[E]) -> ir.FromPlace | None:
    """A view as a bound value: a temporary viewing the base (None when `view` does not count as a view)."""
    region = view_region(view, sink)
    if region is None:
        return None
    tmp = sink.temp(region[0].text)
    sink.emit(ir.View(tmp, region[0], region[1], span))
    return ir.FromPlace(tmp, span)


# --- calls ------------------------------------------------------------------------------------------------------


def lower_call(call: Call[E], holder: ir.Place | None, sink: Lowering[E]) -> ir.Fresh:
    """Emit what `call` does to ownership (arguments lowered in evaluation order); return what its result is.

    `holder` is the name the result is bound to, if any: a `launch_async` DeviceOp or a `get_mut` element holds
    its loans while that name is live.
    """
    kernel = call.kernel
    if kernel is not None and kernel.track == "tile":
        _launch_args(call, call.args, kernel, None, None, sink)
        return ir.Fresh("op")
    method = call.method
    if method is not None:
        result = _method_call(call, method, holder, sink)
        if result is not None:
            return result
    if call.shared_array:
        for arg in call.args:
            sink.lower_expr(arg.node)
        sink.emit(ir.RequireUnsafe("shared_array", call.span), call.node)
        return ir.Fresh("shared_array")
    function = call.safekernels_function
    if function is not None and function.rsplit(".", 1)[-1] in MOVING_ARGUMENT_CALLS:
        _call_args(call, True, sink)
        return ir.Fresh("op")
    if method is not None:
        _receiver(method.receiver, sink)
    else:
        sink.lower_expr(call.callee)
    _call_args(call, False, sink)
    return ir.Fresh()


def _method_call(call: Call[E], method: MethodCall[E], holder: ir.Place | None, sink: Lowering[E]) -> ir.Fresh | None:
    name = method.name
    receiver = method.receiver
    kernel = method.receiver_kernel
    if kernel is not None and name in SIMT_LAUNCH_METHODS:
        return _simt_launch(call, method, kernel, holder, sink)
    if kernel is not None and name == PREPARE_METHOD:
        for arg in call.args:
            sink.lower_expr(arg.node)
        return ir.Fresh("prepared", brand=kernel.name)
    if name in UNSAFE_OPERATIONS and name != "shared_array":
        _receiver(receiver, sink)
        for arg in call.args:
            sink.lower_expr(arg.node)
        sink.emit(ir.RequireUnsafe(name, call.span), call.node)
        return ir.Fresh()
    if name in WITNESS_CONSUMERS and sink.kernel_body:
        return _get_mut(call, receiver, holder, sink)
    moving = name in MOVING_METHODS and receiver.device
    if sink.dialect.distinct_methods_move_any_receiver and name in DISTINCT_MOVING_METHODS:
        moving = True
    if moving and receiver.place is not None and not method.receiver_is_safekernels:
        _call_args(call, name in MOVING_ARGUMENT_CALLS, sink)
        kind = _RECEIVER_MOVE_KIND.get(name, "combinator")
        sink.emit(ir.Move(receiver.place, receiver.span, move_help(kind)), call.node)
        return ir.Fresh("op" if kind == "combinator" else "value")
    if name == "to_numpy" and receiver.place is not None:
        _call_args(call, False, sink)
        sink.emit(ir.Borrow(receiver.place, False, sink.next_group(), receiver.span), call.node)
        return ir.Fresh()
    return None


def _receiver(receiver: Operand[E], sink: Lowering[E]) -> None:
    if receiver.place is not None:
        sink.emit(ir.Use(receiver.place, receiver.span))
    else:
        sink.lower_expr(receiver.node)


def _call_args(call: Call[E], move_places: bool, sink: Lowering[E]) -> None:
    """Lower the arguments; with `move_places`, device-like places are moved (`a.zip(b)` consumes `b`)."""
    for arg in call.args:
        if move_places and arg.place is not None and arg.device:
            sink.emit(ir.Move(arg.place, arg.span, move_help("combinator")), call.node)
        else:
            sink.lower_expr(arg.node)


def _get_mut(call: Call[E], receiver: Operand[E], holder: ir.Place | None, sink: Lowering[E]) -> ir.Fresh:
    """`c.get_mut(idx)`: the witness `idx` is moved, `c` is borrowed mutably while the element is live."""
    for i, arg in enumerate(call.args):
        if i == 0 and arg.place is not None:
            sink.emit(ir.Move(arg.place, arg.span, move_help("get_mut")), call.node)
        else:
            sink.lower_expr(arg.node)
    if receiver.place is not None:
        sink.emit(ir.Borrow(receiver.place, True, sink.next_group(), receiver.span, holder), call.node)
    else:
        sink.lower_expr(receiver.node)
    return ir.Fresh("elem")


def _simt_launch(
    call: Call[E], method: MethodCall[E], kernel: KernelSignature, holder: ir.Place | None, sink: Lowering[E]
) -> ir.Fresh:
    """`kernel.launch(prepared, stream, *args)` and friends: brand check, unsafe check, borrows by parameter mode."""
    name = method.name
    offset = SIMT_LAUNCH_METHODS[name]
    positional = [a for a in call.args if a.keyword is None and not a.star]
    if positional and name != "launch_unchecked":
        prepared = positional[0]
        if prepared.place is not None:
            sink.emit(ir.CheckBrand(prepared.place, kernel.name, prepared.span, method.name_span), call.node)
        else:
            sink.lower_expr(prepared.node)
    elif positional:
        sink.lower_expr(positional[0].node)
    for extra in positional[1:offset]:
        sink.lower_expr(extra.node)
    if name == "launch_unchecked":
        sink.emit(ir.RequireUnsafe("launch_unchecked", call.span), call.node)
    group = sink.next_group()
    taken = {id(a) for a in positional[:offset]}
    rest = [a for a in call.args if id(a) not in taken]
    _launch_args(call, rest, kernel, group, holder if name == "launch_async" else None, sink)
    return ir.Fresh("op" if name == "launch_async" else "value")


def _launch_args(
    call: Call[E],
    args: Sequence[Operand[E]],
    kernel: KernelSignature,
    group: int | None,
    holder: ir.Place | None,
    sink: Lowering[E],
) -> None:
    """Kernel arguments by parameter mode: tile tensors move, SIMT slices are borrowed (shared or mutable)."""
    modes = dict(kernel.params)
    names = [name for name, _ in kernel.params]
    if group is None:
        group = sink.next_group()
    position = 0
    for arg in args:
        if arg.star:
            sink.lower_expr(arg.node)
            continue
        if arg.keyword is not None:
            mode = modes.get(arg.keyword, ParamMode.VALUE.value)
        else:
            mode = modes.get(names[position], ParamMode.VALUE.value) if position < len(names) else ParamMode.VALUE
            position += 1
        _launch_arg(call, arg, mode, group, holder, sink)


def _launch_arg(
    call: Call[E], arg: Operand[E], mode: str, group: int, holder: ir.Place | None, sink: Lowering[E]
) -> None:
    if mode == ParamMode.MOVE.value:
        if arg.place is not None:
            event = group if sink.dialect.launch_move_events else -1
            sink.emit(ir.Move(arg.place, arg.span, move_help("launch"), event=event), call.node)
        else:
            sink.lower_expr(arg.node)
        return
    if mode in (ParamMode.SHARED.value, ParamMode.MUT.value):
        place = arg.place
        if place is None and arg.view is not None:
            region = view_region(arg.view, sink)
            if region is not None:
                place = sink.temp(region[0].text)
                sink.emit(ir.View(place, region[0], region[1], arg.span))
        if place is not None:
            sink.emit(ir.Borrow(place, mode == ParamMode.MUT.value, group, arg.span, holder), call.node)
        else:
            sink.lower_expr(arg.node)
        return
    sink.lower_expr(arg.node)


# --- assignment -------------------------------------------------------------------------------------------------


def bind_target(target: Target[E], value: ir.Value, sink: Lowering[E]) -> None:
    """`target := value`; unpacked items each get a fresh object (the analysis does not track tuple contents)."""
    if isinstance(target, UnpackTarget):
        for item in target.items:
            bind_target(item, ir.Fresh(), sink)
    elif isinstance(target, StarTarget):
        bind_target(target.inner, ir.Fresh(), sink)
    elif isinstance(target, PlaceTarget):
        if target.root_span is not None:
            sink.emit(ir.Use(ir.Place(target.place.root, (), None), target.root_span))
        sink.emit(ir.Bind((target.place,), (value,), target.span))
    else:
        sink.lower_expr(target.node)


def lower_assignment(assignment: Assignment[E], sink: Lowering[E]) -> None:
    """An assignment statement: `lo, hi = c.split_at(k)` (two disjoint views), `a, b = b, a` (parallel), or a
    value bound to every target (a call result bound to one name is held by that name)."""
    targets = assignment.targets
    single = targets[0] if len(targets) == 1 else None
    split = assignment.split
    if isinstance(single, UnpackTarget) and len(single.items) == 2 and split is not None:
        for arg in split.args:
            sink.lower_expr(arg)
        site = sink.next_group()
        for index, item in enumerate(single.items):
            if isinstance(item, PlaceTarget):
                sink.emit(ir.View(item.place, split.base, ir.Half(site, index), split.span))
            else:
                bind_target(item, ir.Fresh(), sink)
        return
    items = assignment.items
    if (
        isinstance(single, UnpackTarget)
        and items is not None
        and not single.starred
        and len(single.items) == len(items)
    ):
        values = [sink.value(item) for item in items]
        places = [item.place if isinstance(item, PlaceTarget) else None for item in single.items]
        pairs = [(p, v) for p, v in zip(places, values, strict=True) if p is not None]
        if pairs:
            sink.emit(ir.Bind(tuple(p for p, _ in pairs), tuple(v for _, v in pairs), single.span))
        for place, item in zip(places, single.items, strict=True):
            if place is None:
                bind_target(item, ir.Fresh(), sink)
        return
    holder = single.place if isinstance(single, PlaceTarget) and single.root_span is None else None
    if single is None:
        # `a = b = sk.zeros(...)`: one object, bound to `a` (which holds a pending DeviceOp's loans), then
        # aliased by every later target.
        first = next((t for t in targets if isinstance(t, PlaceTarget)), None)
        if first is not None:
            value = sink.value(assignment.value, first.place if first.root_span is None else None)
            later = False
            for target in targets:
                bind_target(target, ir.FromPlace(first.place, first.span) if later else value, sink)
                later = later or target is first
            return
    value = sink.value(assignment.value, holder)
    for target in targets:
        bind_target(target, value, sink)


def none_arm(place: ir.Place, span: Span) -> ir.Op:
    """What the arm of `if place is None` / the `else` of `if place is not None` starts with: `place` refers to
    `None` there, not to whatever object it may have referred to on other paths (so a pending DeviceOp that the
    other arm synced holds no loan on this one: `if pending is not None: pending.sync_on(s)`)."""
    return ir.Bind((place,), (ir.Fresh(),), span)


# --- unsafe blocks ----------------------------------------------------------------------------------------------


def lower_with(items: Sequence[WithItem[E]], body: Callable[[], ir.Block], span: Span, sink: Lowering[E]) -> None:
    """A `with` statement: `simt.unsafe()` makes its body an `Unsafe` block (unsafe-enter/exit are its ends),
    `contextlib.suppress(...)` a `try` whose handler does nothing; other items are ordinary expressions whose
    targets get fresh objects."""
    unsafe = suppresses = False
    for item in items:
        if item.unsafe_context:
            unsafe = True
            continue
        suppresses = suppresses or item.suppresses
        sink.lower_expr(item.node)
        if item.target is not None:
            bind_target(item.target, ir.Fresh(), sink)
    block = body()
    if suppresses:
        # Any operation of the body may raise, be swallowed, and continue after the `with` statement.
        block = (ir.Try(block, ((),), (), (), span),)
    if unsafe:
        sink.emit(ir.Unsafe(block, span))
    else:
        for op in block:
            sink.emit(op)
