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

Every launch goes through one function, `_launch`, driven by the table's `LAUNCH_FORMS` (how many leading
arguments, which one carries the brand, unsafe or not, what the call returns, whether its op holds the loans):
adding a launch entry point to the table is all a new form needs.

Two differences between the front ends predate this module and are kept, explicitly, as a `Dialect`, so that
sharing the code changed no behaviour; see docs/checker-internals.md ("Writing another front end").
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Generic, Protocol, TypeAlias, TypeGuard, TypeVar

from ownership_check.core import ir, keyed_items, view_bounds
from ownership_check.core.call_effects import (
    AppliedSummary,
    YieldedPart,
    apply_summary,
    argument_sites,
    constructed_fields,
    extend_place,
)
from ownership_check.core.memo import SHARED_OP as _MEMO_SHARED_OP
from ownership_check.core.memo import MemoCalls
from ownership_check.core.messages import move_help
from ownership_check.diagnostics import Span
from safekernels.ownership_model import (
    ALIASING_FUNCTIONS,
    ALIASING_METHODS,
    DISTINCT_MOVING_METHODS,
    LOAN_INHERITING_METHODS,
    MOVING_ARGUMENT_CALLS,
    MOVING_METHODS,
    PREPARE_METHOD,
    SHARED_RESULT_METHODS,
    UNSAFE_OPERATIONS,
    VALUE_FLOW_METHODS,
    WITNESS_CONSUMERS,
    LaunchForm,
    ParamMode,
    launch_form,
)

E = TypeVar("E")
K = TypeVar("K")
E_contra = TypeVar("E_contra", contravariant=True)

#: The context manager that swallows exceptions: `with suppress(E): body` is `try: body` / `except E: pass`.
SUPPRESS_CONTEXT: Final[str] = "contextlib.suppress"
#: Context managers that run, when their `with` statement is left, what the body registered with them:
#: `stack.callback(f, *args)` calls `f(*args)` then, `stack.enter_context(cm)` exits `cm` then (`lower_with`).
EXIT_STACK_CONTEXTS: Final[frozenset[str]] = frozenset({"contextlib.ExitStack", "contextlib.AsyncExitStack"})
#: The exit stack's methods that register a callable with its arguments, and those that enter a context manager.
EXIT_CALLBACK_METHODS: Final[frozenset[str]] = frozenset({"callback", "push_async_callback"})
EXIT_ENTER_METHODS: Final[frozenset[str]] = frozenset({"enter_context", "enter_async_context"})

#: Names that are constants, never places (`pending = None` binds a fresh object, it aliases nothing).
CONSTANT_NAMES: Final[frozenset[str]] = frozenset({"None", "True", "False"})

#: The view method (`c.view(start, stop)`) and the splitting method (`lo, hi = c.split_at(k)`).
VIEW_METHOD: Final[str] = "view"
SPLIT_METHOD: Final[str] = "split_at"

#: Methods whose result is a device value when their receiver is one (besides the moving methods).
_DEVICE_PRESERVING_METHODS: Final[frozenset[str]] = frozenset({VIEW_METHOD, "to_numpy", "load"})

#: Methods whose result, once known to be a device value (passed to a kernel), proves the receiver one too: a view
#: of it, its partition or unpartition (`parts = t.partition(...)` then `k(parts)` makes `t` a tile tensor, so a
#: later `t.to_numpy(s)` reads a moved value).  Not `to` (torch's `t.to("cuda")` result may be handed to a kernel
#: through DLPack while `t` stays a torch tensor) nor `as_buffer` (`sk.as_buffer(host)` is the same call shape).
DEVICE_PROVING_METHODS: Final[frozenset[str]] = frozenset({VIEW_METHOD, SPLIT_METHOD, "partition", "unpartition"})

#: Which help text a moved receiver gets (`messages.MOVE_HELP`); other moving methods are DeviceOp combinators.
_RECEIVER_MOVE_KIND: Final[dict[str, str]] = {
    "sync_on": "sync_on",
    "sync": "sync_on",
    "partition": "partition",
    "unpartition": "unpartition",
    "to": "to",
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
        # the `as` names of the enclosing `with contextlib.ExitStack() as stack:` statements, each with the ops its
        # registered callbacks and entered context managers run when the statement is left (`lower_with`)
        self.exit_stacks: dict[tuple[str, tuple[str, ...]], list[ir.Op]] = {}
        # the fields of a container's items built by constructor calls (`assign_container`), by item place key
        self.element_fields: dict[str, tuple[tuple[str, ...], ...]] = {}
        # the calls of memoised functions lowered so far (`memo.memo_result`: equal arguments, one object)
        self.memo = MemoCalls()
        # the split site of each run of bump-allocator calls (`bump_view`)
        self.bump_sites: dict[int, int] = {}
        # names only ever bound to displays (`Container`); each front end fills it in its prepass
        self.containers: dict[str, Container] = {}

    def name(self, raw: str) -> str:
        """`raw` as the innermost rename in scope maps it."""
        for renames in reversed(self.renames):
            if raw in renames:
                return renames[raw]
        return raw

    def dotted_place(self, root: str, attrs: tuple[str, ...] = ()) -> ir.Place:
        """The place `root.attr1.attr2...`; the display keeps the source spelling when `root` was renamed.  `root`
        may itself be a dotted path (`self.arena`, the caller's spelling of a method's receiver a field holds)."""
        if "." in root:
            first, *rest = root.split(".")
            root, attrs = first, (*rest, *attrs)
        renamed = self.name(root)
        if renamed == root:
            return ir.Place(renamed, attrs, None)
        return ir.Place(renamed, attrs, ".".join((root, *attrs)))

    def keyed_element(self, place: ir.Place) -> ir.Place:
        """`place` with its first segment, an item under a literal key of a container name of this function,
        resolved to that item's element place (`bufs.['out']` is `bufs$e1` of `bufs = {"lhs": a, "out": c}`): a
        callee's effect on the item of its parameter lands on the caller's item; else `place` itself."""
        if not place.attrs or not keyed_items.is_item_segment(place.attrs[0]):
            return place
        key = keyed_items.segment_key(place.attrs[0])
        for raw, container in self.containers.items():
            if self.name(raw) != place.root:
                continue
            if container.mapping:
                index = container.keys.index(key) if key in container.keys else None
            else:
                index = key if type(key) is int and 0 <= key < len(container.keys) else None
            if index is None:
                return place
            element = container_element(place.root, raw, container, index)
            rest = place.attrs[1:]
            return ir.Place(element.root, rest, ".".join((element.text, *rest)) if rest else element.display)
        return place

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
    """

    launch_move_events: bool


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

    @property
    def autotuned(self) -> bool: ...  # wrapped by `@simt.autotune` / `@tile.autotune`


class Lowering(Protocol[E_contra]):
    """The front end's side of the conversation: where operations go, and how ordinary expressions are lowered."""

    @property
    def kernel_body(self) -> bool: ...  # lowering a `@simt.kernel` / `@simt.device` body

    @property
    def dialect(self) -> Dialect: ...

    @property
    def peeked(self) -> frozenset[str]: ...  # attribute names an accessor of the module peeks at (`peeked_path`)

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

    def keyed_element(self, place: ir.Place) -> ir.Place:
        """`place`, its first segment an item under a literal key of a container name resolved to that item
        (`PlaceNaming.keyed_element`)."""

    def operand_key(self, node: E_contra, /) -> ContainerKey | None:
        """The key an argument gives when it is used as one (`bufs[key]` in the callee): a literal, a name an
        unrolled iteration binds to one, or a parameter of this function it never rebinds (`keyed_items.param_key`);
        else None."""

    def block(self, build: Callable[[], None], /) -> ir.Block:
        """The operations `build` emits, collected as a block (for the arms of a `Branch`)."""


# --- neutral shapes --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ViewCall(Generic[E]):
    """`base.view(a, b)` of a place: `args` are lowered in order; `bounds` are the positional arguments' integer
    literals or symbols (a name with one value in the function, see `ir.Range`), None where an argument is
    neither."""

    base: ir.Place
    base_device: bool
    args: tuple[E, ...]
    bounds: tuple[int | str | None, ...]


@dataclass(frozen=True)
class SliceView(Generic[E]):
    """`base[lower:upper:step]` of a place: `parts` are the bounds given, in order; `lower`/`upper` their integer
    literals or symbolic bounds (`view_bounds`: an affine expression over names with one value in the function),
    None where absent or neither."""

    base: ir.Place
    base_device: bool
    parts: tuple[E, ...]
    lower_given: bool
    lower: int | str | None
    upper_given: bool
    upper: int | str | None
    step_given: bool


ViewShape: TypeAlias = "ViewCall[E] | SliceView[E]"


@dataclass(frozen=True)
class Operand(Generic[E]):
    """An argument or receiver of a call: the node, where it is, the place it names (if any), whether that place is
    device-like, and the view it is (if it is a view of a place rather than a place).

    An operand that is an expression over places (`a if f else c`, `c or b`, `(d := c)`, `(b, c)[i]`, `pair[1]`,
    `pick(a, c)` of a local helper returning a parameter, `sk.as_buffer(t)`) has no `place` but `choices`: the
    places it may evaluate to, each an `Operand` with the argument's span.  `prelude` are the sub-expressions
    evaluated before the value is known (the condition, the left operand of `or`, a subscript's index, the helper
    call); the front end lowers them itself.  A `*args` operand that is a tuple or list display has its `items`
    (they map to parameters one by one)."""

    node: E
    span: Span
    place: ir.Place | None = None
    device: bool = False
    view: ViewCall[E] | SliceView[E] | None = None
    keyword: str | None = None
    star: bool = False  # `*args` / `**kwargs`
    choices: tuple[Operand[E], ...] = ()
    prelude: tuple[E, ...] = ()
    items: tuple[Operand[E], ...] | None = None
    evaluated: bool = False  # a launch argument lowered before the launch takes its arguments (`_evaluated_first`)



#: What `choices` gives for an expression over places: (its prelude, the places it may evaluate to).
Choices: TypeAlias = "tuple[tuple[E, ...], tuple[Operand[E], ...]]"


class OperandSource(Protocol[E]):
    """What `resolve_operand` asks a front end about one of its expressions."""

    def place(self, node: E, /) -> ir.Place | None: ...

    def is_device_place(self, node: E, /) -> bool: ...

    def expr_is_device(self, node: E, /) -> bool: ...

    def literal_display(self, node: E, /) -> tuple[E, ...] | None: ...

    def star_elements(self, node: E, /) -> tuple[ir.Place, ...] | None: ...

    def view_shape(self, node: E, /) -> ViewCall[E] | SliceView[E] | None: ...

    def choices(self, node: E, span: Span, depth: int, /) -> Choices[E] | None: ...


def resolve_operand(
    source: OperandSource[E],
    node: E,
    span_of: Callable[[E], Span],
    keyword: str | None = None,
    star: bool = False,
    with_view: bool = True,
) -> Operand[E]:
    """An argument or receiver as the core sees it, in this order: a place; a `*args` display (its items one by
    one); a view of a place; an expression over places (its `choices`); else a value, device-like or not."""
    place = source.place(node)
    span = span_of(node)
    elements = source.star_elements(node) if star else None
    if elements is not None:
        # `*args` of a container list whose length is known here (or of a container's nested display item,
        # `*cfg["inputs"]`): its element places, one per parameter
        elements_spread = tuple(Operand(node, span, element, True) for element in elements)
        return Operand(node, span, None, False, None, keyword, star, items=elements_spread)
    if place is not None:
        return Operand(node, span, place, source.is_device_place(node), None, keyword, star)
    if star:
        items = source.literal_display(node)
        spread = tuple(resolve_operand(source, item, span_of) for item in items) if items is not None else None
        return Operand(node, span, None, False, None, keyword, star, items=spread)
    view = source.view_shape(node) if with_view else None
    found = source.choices(node, span, 0) if view is None else None
    if found is not None:
        prelude, choices = found
        return Operand(node, span, None, True, None, keyword, star, choices, prelude)
    return Operand(node, span, None, source.expr_is_device(node), view, keyword, star)


def alternatives(
    prelude: tuple[E, ...],
    options: Sequence[E],
    span: Span,
    depth: int,
    place: Callable[[E], ir.Place | None],
    choices: Callable[[E, Span, int], Choices[E] | None],
) -> Choices[E] | None:
    """The places an expression choosing among `options` may evaluate to (each option a place, or an expression
    over places resolved by the front end's `choices` one level deeper), after `prelude`; None when no option is
    a place.  An option that is no place at all (a fresh object) is only evaluated, never borrowed."""
    before = list(prelude)
    out: list[Operand[E]] = []
    for option in options:
        found_place = place(option)
        if found_place is not None:
            if all(o.place != found_place for o in out):
                out.append(Operand(option, span, found_place, True))
            continue
        found = choices(option, span, depth + 1)
        if found is None:
            before.append(option)
            continue
        before.extend(found[0])
        out.extend(o for o in found[1] if all(p.place != o.place for p in out))
    return (tuple(before), tuple(out)) if out else None


#: The method of a mapping that reads the item under a key, or a fallback where the key is missing (`dict.get`).
MAPPING_GET: Final[str] = "get"


def mapping_get_options(read: E, fallback: E | None, present: bool | None) -> tuple[E, ...]:
    """The expressions `d.get(k, fallback)` may evaluate to: the item `d[k]` (`read`, the front end's subscript
    read) or `fallback`, whichever the data picks; the checker keeps both, as for `d[k] if k in d else fallback`
    (a launch writing the result while reading the fallback conflicts on the path where the key is missing).
    Only the item when the key is known to be there (`present`: a local dict display holding that literal key),
    only the fallback when it is known not to be.  `d.get(k)` without a fallback is the item (or None, which
    holds nothing)."""
    if fallback is None or present:
        return (read,)
    if present is False:
        return (fallback,)
    return (read, fallback)


def accessor_choices(
    node: E,
    receiver: E,
    base: ir.Place,
    paths: Sequence[tuple[str, ...]],
    span: Span,
    key: str | None = None,
    fresh: bool = False,
    method: str | None = None,
) -> Choices[E]:
    """`stage.target()` of a method whose body is `return self.<path>` (each override of it the receiver's class
    may run, `paths`): one of the receiver's attribute places, after reading the receiver.  With `key`, `reg[key]`
    of a `__getitem__` returning `self.<path>[name]`: the item under `key` there (spelled `reg["y"]`), or with
    `method`, `cache.get(key)` of such a method (spelled `cache.get("y")`).  With `fresh`, a property that may also
    return a new value (`@cached_property` returning `self.out` on one branch, `sk.zeros(...)` on the other): a
    new value is one more option."""

    def shown(path: tuple[str, ...]) -> str | None:
        if key is not None:
            return f'{base.text}.{method}("{key}")' if method is not None else f'{base.text}["{key}"]'
        return None if base.display is None else shown_path(base.display, path)

    # (an item under `key` is spelled as a subscript of the container reads it, `keyed_items.segment`, so
    # `self["y"]` and `self._bufs["y"]` in one method are one place)
    item = () if key is None else ((keyed_items.segment(key) or key),)
    places = dict.fromkeys(ir.Place(base.root, base.attrs + path + item, shown(path)) for path in paths)
    options = tuple(Operand(node, span, place, True) for place in places)
    # a property returning a new value on some path (`return sk.zeros(...)`): that value is one more option
    return (receiver,), options + ((Operand(receiver, span, None, True),) if fresh else ())


def view_choices(
    node: E, span: Span, base: Choices[E], args: tuple[E, ...], bounds: tuple[int | str | None, ...]
) -> Choices[E]:
    """`(out if flag else a).view(0, 32)`: a view of each place the base may evaluate to (its bounds are
    evaluated in each arm, after the base's prelude)."""
    prelude, places = base
    return prelude, tuple(
        Operand(node, span, None, True, ViewCall(c.place, True, args, bounds)) for c in places if c.place is not None
    )


def merge_choices(prelude: Sequence[E], parts: Sequence[Choices[E] | None]) -> Choices[E] | None:
    """One expression's choices from several sources (`max(a, b, default=c)`): `prelude`, then each part's
    prelude in order; the places of all parts, each once.  None when no part has a place."""
    before = list(prelude)
    out: list[Operand[E]] = []
    for part in parts:
        if part is None:
            continue
        before.extend(part[0])
        out.extend(o for o in part[1] if o.view is not None or all(p.place != o.place for p in out))
    return (tuple(before), tuple(out)) if out else None


def bind_choices(found: Choices[E], span: Span, sink: Lowering[E]) -> ir.Value:
    """`x = a or c`, `x = pair[i]`, `x = bufs.get("out", a)`, `x = max(pool)`, `x = pick(a, c)`: the value bound
    is one of the places the expression may evaluate to (each in one arm of a `Branch`), after its prelude; the
    runtime may hand back any of them, so the checker follows every one."""
    prelude, options = found
    for node in prelude:
        sink.lower_expr(node)

    def one(option: Operand[E]) -> ir.Value:
        if option.place is not None:
            return ir.FromPlace(option.place, span)
        if option.view is not None:
            return bind_view(option.view, span, sink) or ir.Fresh()
        return ir.Fresh()

    if len(options) == 1:
        return one(options[0])
    return choose_value([(lambda o=option: one(o), span) for option in options], span, span, sink)  # type: ignore[misc]


def _plain_new(value: ir.Value) -> bool:
    return isinstance(value, ir.Fresh) and value == ir.Fresh()


def choose_value(
    arms: Sequence[tuple[Callable[[], ir.Value], Span]], test: Span, whole: Span, sink: Lowering[E]
) -> ir.Value:
    """The value of an expression that evaluates one of `arms` (`a if c else b`, `x or y`, `pair[i]`): each arm,
    lowered in one arm of a `Branch`, binds a temporary to its value.  An arm whose value is a plain new value (an
    item of a container the checker does not follow, `parts[i + 1] if c else parts[i]`) takes it from one object
    born before the branch: a new object per arm would be born in one arm only, so at the join the previous
    iteration's object of the other arm (moved, and still reached by the name the result was bound to) would be
    one with this iteration's, and reading the result would be a use after move.  When every arm gives a plain new
    value, the expression's value is one (no temporary)."""
    tmp = sink.temp("value")
    built: list[tuple[ir.Block, ir.Value, Span]] = []
    for build, span in arms:
        got: list[ir.Value] = []
        block = sink.block(lambda b=build, g=got: g.append(b()))  # type: ignore[misc]
        built.append((block, got[0], span))
    if all(_plain_new(value) for _, value, _ in built):
        sink.emit(ir.Branch(tuple(block for block, _, _ in built), test))
        return ir.Fresh()
    new: ir.Place | None = None
    if any(_plain_new(value) for _, value, _ in built):
        new = sink.temp("value")
        sink.emit(ir.Bind((new,), (ir.Fresh(),), whole))
    blocks = tuple(
        (*block, ir.Bind((tmp,), (ir.FromPlace(new, span) if new is not None and _plain_new(value) else value,), span))
        for block, value, span in built
    )
    sink.emit(ir.Branch(blocks, test))
    return ir.FromPlace(tmp, whole)


def returns_op(returned: Sequence[tuple[KernelSignature | None, str | None] | None]) -> bool:
    """Whether a plain helper returns a lazy op on every path: each `return` gives a launch (`(kernel, method)`,
    method None for calling the kernel object) whose form's result is an op holding no loans (a tile launch,
    `return scale(z, x)`).  Its call's result then must be used as the launch's own (W0003 at the
    caller's statement that drops it, as rustc reports an ignored `#[must_use]` value where it is dropped)."""
    if not returned:
        return False
    for item in returned:
        if item is None or item[0] is None:
            return False
        form = launch_form(item[0].track, item[0].autotuned, item[1])
        if form is None or form.result != "op" or form.holds_loans:
            # a returned `launch_async` op's loans are the call summary's (`returned_loans`), bound to the
            # caller's holder: its result stays what the summary makes it
            return False
    return True


#: One item of a tuple a helper returns (`returned_tuple`): the caller's place its parameter was bound to, a name
#: local to the helper (items naming one local are one object), a prepared launch with its brand (`return
#: saxpy.prepare(cfg, dev), ...`, see `returned_prepared`), a view of a parameter's value (`returned_view`), or None
#: for anything else (a new object); or a local bound once to one of several of those (`ReturnedLocal`).
ReturnedItem: TypeAlias = "ir.Place | ir.Fresh | str | ViewCall[Any] | SliceView[Any] | ReturnedLocal | None"


@dataclass(frozen=True)
class ReturnedLocal:
    """An item a helper returns that names a local bound once to what the caller can name: `fwd =
    k.prepare(...)` (a prepared launch with its brand), `tmp = src if low_memory else sk.zeros(...)` (the local
    `src` or a new object: one `Branch` arm each).  Items naming the local are one object (`name`)."""

    name: str
    options: tuple[ReturnedItem, ...]


def only_places(found: Choices[E] | None) -> bool:
    """Whether an expression's `choices` name the caller's places only (`next(itertools.repeat(a, 2))`, `first_of(a,
    b)`): no option a new value, so reading it again after a call gives one of those places, never None."""
    return found is not None and bool(found[1]) and all(option.place is not None for option in found[1])


def returned_argument(name: str, place: ir.Place | None, options: Sequence[ir.Place | None]) -> ReturnedItem:
    """An item a helper returns that is its parameter `name`, at a caller that passed an argument: the caller's
    place the argument names, else one of the places it may evaluate to (`options`, `Operand.choices`: `first_of(a,
    b)`, `d.get(k, a)`, `a if flag else b`; one `Branch` arm each, a new object for an option naming none), else
    `name`, one new object for every item naming it (`shared(sk.zeros(n))`)."""
    if place is not None:
        return place
    if any(option is not None for option in options):
        return ReturnedLocal(name, tuple(option if option is not None else ir.Fresh() for option in options))
    return name


def returned_view(
    view: ViewCall[E] | SliceView[E],
    base: ir.Place,
    base_device: bool,
    bounds: tuple[int | str | None, int | str | None] | None = None,
) -> ViewCall[E] | SliceView[E]:
    """An item `view` a helper returns (`return buf[: mid + 1], buf[mid:]`) of a parameter the call binds to the
    caller's place `base`, as a view of `base` (`returned_tuple`).  A symbol names one of the helper's own values,
    so only `bounds` keep their meaning at the caller: the view's start and stop as the front end translated them
    into the caller's terms (`view_bounds`: `channel(1)` of `return self.buf[c * self.n : c * self.n + self.n]`
    is `[planar.n, 2 * planar.n)`), None where it could not; without them integer literal bounds are kept.  A
    bound left None counts as a computed one, so the view overlaps everything of its base, as the same slice
    written inline with computed bounds does."""
    if isinstance(view, ViewCall):
        if bounds is not None and len(view.bounds) == 2:
            return ViewCall(base, base_device, (), bounds)
        return ViewCall(base, base_device, (), tuple(b if type(b) is int else None for b in view.bounds))
    if bounds is not None:
        return replace(view, base=base, base_device=base_device, parts=(), lower=bounds[0], upper=bounds[1])
    lower, upper = (b if type(b) is int else None for b in (view.lower, view.upper))
    return replace(view, base=base, base_device=base_device, parts=(), lower=lower, upper=upper)


def all_views(items: Sequence[ReturnedItem]) -> TypeGuard[Sequence[ViewCall[Any] | SliceView[Any]]]:
    """Whether every `return` of a plain helper gives a view of a parameter (`returned_view`)."""
    return bool(items) and all(isinstance(item, ViewCall | SliceView) for item in items)


def returned_views(views: Sequence[ViewCall[Any] | SliceView[Any]], span: Span, sink: Lowering[E]) -> ir.Value:
    """The value of a call of a plain helper whose every `return` gives a view of a parameter (`def head(buf):
    return buf[: n + 1]`), after the call itself was lowered: a view of the caller's argument (one `Branch` arm per
    `return` where there are several), as for the items of a returned tuple (`returned_tuple`), held in a value
    path (`ir.value_place`) that keeps nothing reachable once the names bound from it are gone."""
    bases = {view.base.text for view in views}
    tmp = ir.value_place(sink.temp(bases.pop() if len(bases) == 1 else "value"))  # named as a view's own temporary

    def arm(view: ViewCall[Any] | SliceView[Any]) -> None:
        found = view_region(view, sink)
        if found is None:
            sink.emit(ir.Bind((tmp,), (ir.Fresh(),), span))
        else:
            sink.emit(ir.View(tmp, found[0], found[1], span))

    if len(views) == 1:
        arm(views[0])
    else:
        sink.emit(ir.Branch(tuple(sink.block(lambda v=v: arm(v)) for v in views), span))  # type: ignore[misc]
    return ir.FromPlace(tmp, span)


#: The methods of a kernel a receiver chosen among several kernels is lowered once per kernel for (`kernel_choice`).
KERNEL_CHOICE_METHODS: Final[frozenset[str]] = frozenset({"launch", "launch_async", "launch_unchecked", PREPARE_METHOD})


def kernel_choice(
    kernels: Sequence[K],
    lower_one: Callable[[K, ir.Place], ir.Value],
    holder: ir.Place | None,
    span: Span,
    sink: Lowering[E],
) -> ir.Value:
    """A kernel method called on a receiver that may be any of `kernels` (`KERNELS[name].launch(...)`, a loop over
    a display of kernels): one `Branch` arm per kernel, each lowering the call with that kernel (`lower_one`, its
    result bound to the call's holder there), so each kernel's signature and brand is checked on its own path."""
    target = holder if holder is not None else sink.temp("value")

    def arm(kernel: K) -> None:
        bind_target(PlaceTarget(target, span), lower_one(kernel, target), sink)

    sink.emit(ir.Branch(tuple(sink.block(lambda k=k: arm(k)) for k in kernels), span))  # type: ignore[misc]
    return ir.FromPlace(target, span)


def keyed_arms(
    rows: Sequence[tuple[object, K]], known: ContainerKey | None
) -> tuple[tuple[ContainerKey, K], ...] | None:
    """The arms of a launch `TABLE[name].launch(...)` lowered once per key (`kernel_choices.keyed_rows`): each of
    the table's keys (all literals a container is keyed by, else None) with its kernel; of a name an unrolled
    iteration binds to one key (`known`), that key's arm alone.  None when no arm is left."""
    keyed = tuple((key, kernel) for key, kernel in rows if isinstance(key, str | int) and not isinstance(key, bool))
    if len(keyed) != len(rows):
        return None
    if known is not None:
        keyed = tuple(row for row in keyed if row[0] == known)
    return keyed or None


def bump_view(
    base: ir.Place, run: int, index: int, span: Span, sink: Lowering[E], sites: dict[int, int]
) -> ir.Value:
    """The value of the call `index` of run `run` of a bump allocator (`bump_alloc`): a view of the receiver's
    buffer `base` that no other index of the run overlaps, after the call itself was lowered.  The run's site is
    numbered once per function (`sites`: `PlaceNaming.bump_sites`)."""
    if run not in sites:
        sites[run] = sink.next_group()
    tmp = ir.value_place(sink.temp("value"))
    sink.emit(ir.View(tmp, base, ir.Half(sites[run], index), span))
    return ir.FromPlace(tmp, span)


def returned_prepared(brands: Sequence[str | None], span: Span, sink: Lowering[E]) -> ir.Value | None:
    """The value of a call of a plain helper whose every `return` gives a prepared launch: `return
    saxpy.prepare(cfg, dev)`, or `kernel.prepare(...)` of a parameter the call binds to a kernel (`brands`: the
    kernel each `return` prepares for, as the front end resolved it, None where it is not one).  The result is a
    prepared launch branded for that kernel (one of them per `return`, a `Branch`, where they differ), as mypy
    types it and the runtime brands it, so launching another kernel with it is E0308 at the caller.  None when
    some `return` gives anything else: the result stays a new value."""
    if not brands or any(brand is None for brand in brands):
        return None
    kernels = sorted({brand for brand in brands if brand is not None})
    if len(kernels) == 1:
        return ir.Fresh("prepared", brand=kernels[0])
    tmp = sink.temp("value")
    arms = tuple(
        sink.block(lambda k=k: sink.emit(ir.Bind((tmp,), (ir.Fresh("prepared", brand=k),), span)))  # type: ignore[misc]
        for k in kernels
    )
    sink.emit(ir.Branch(arms, span))
    return ir.FromPlace(tmp, span)


def returned_tuple(returns: Sequence[Sequence[ReturnedItem]], span: Span, sink: Lowering[E]) -> ir.Value:
    """The value of a call of a plain helper whose every `return` is a tuple display (`return x, x` on one path,
    `return x, sk.zeros(...)` on another), after the call itself was lowered: one `Branch` arm per `return`, each
    binding the items of a temporary op value (`ir.item_place`), so `src, dst = make_pair(...)` unpacks into
    aliases of one object where that `return` named one local twice, or into the caller's own argument."""
    whole = ir.value_place(sink.temp("value"))
    parts = [ir.item_place(whole, index) for index in range(max((len(items) for items in returns), default=0))]
    _returned_arms([(items, parts) for items in returns], span, sink)
    return ir.FromPlace(whole, span)


def bind_returned(items: Sequence[ReturnedItem], places: Sequence[ir.Place], span: Span, sink: Lowering[E]) -> None:
    """Bind each of `places` to what the matching item of one `return` of a helper is at the caller (the one rule
    for every structure a helper returns: a tuple's items, a dict display's entries, a constructed object's
    fields): the caller's place a parameter was bound to, a view of one, a prepared launch with its brand, a new
    object; items naming one local of the helper are one object (the first place it was bound to)."""
    first: dict[str, ir.Place] = {}
    later: list[tuple[ReturnedLocal, ir.Place]] = []
    for item, part in zip(items, places, strict=True):
        value: ir.Value = ir.Fresh()
        if isinstance(item, ReturnedLocal):
            later.append((item, part))  # after the locals it may be are bound
            continue
        if isinstance(item, ViewCall | SliceView):
            found = view_region(item, sink)
            if found is not None:
                sink.emit(ir.View(part, found[0], found[1], span))
                continue
        elif isinstance(item, ir.Fresh):
            value = item
        elif isinstance(item, ir.Place):
            # the caller's object the helper hands back: the call reads nothing of it (a moved one is reported at
            # the helper's `return` and at the caller's next use, not at the call)
            value = ir.FromPlace(item, span, carried=True)
        elif isinstance(item, str):
            if item in first:
                value = ir.FromPlace(first[item], span)
            else:
                first[item] = part
        sink.emit(ir.Bind((part,), (value,), span))
    for local, part in later:
        if local.name in first:
            sink.emit(ir.Bind((part,), (ir.FromPlace(first[local.name], span),), span))
            continue
        first[local.name] = part

        def option(item: ReturnedItem, part: ir.Place = part) -> None:
            found = view_region(item, sink) if isinstance(item, ViewCall | SliceView) else None
            if found is not None:  # `re = buf.view(0, n)` ... `return re, im`: a view of the caller's argument
                sink.emit(ir.View(part, found[0], found[1], span))
                return
            if isinstance(item, str) and item in first:
                value: ir.Value = ir.FromPlace(first[item], span)
            elif isinstance(item, ir.Place):
                value = ir.FromPlace(item, span, carried=True)
            else:
                value = item if isinstance(item, ir.Fresh) else ir.Fresh()
            sink.emit(ir.Bind((part,), (value,), span))

        if len(local.options) == 1:
            option(local.options[0])
        else:
            sink.emit(ir.Branch(tuple(sink.block(functools.partial(option, o)) for o in local.options), span))


def _returned_arms(
    arms: Sequence[tuple[Sequence[ReturnedItem], Sequence[ir.Place]]], span: Span, sink: Lowering[E]
) -> None:
    """`bind_returned` for each `return` of a helper, one `Branch` arm apiece where there are several."""
    if len(arms) == 1:
        bind_returned(arms[0][0], arms[0][1][: len(arms[0][0])], span, sink)
        return
    blocks = tuple(
        sink.block(lambda i=items, p=places: bind_returned(i, p[: len(i)], span, sink))  # type: ignore[misc]
        for items, places in arms
    )
    sink.emit(ir.Branch(blocks, span))


def assign_returned_container(
    target: PlaceTarget,
    name: str,
    display: str,
    container: Container,
    returns: Sequence[Sequence[tuple[ContainerKey, ReturnedItem]]],
    span: Span,
    sink: Lowering[E],
) -> None:
    """`name = helper(...)` of a container name, the helper's every `return` a display (`return {"gamma":
    tile.ones(...), "beta": tile.zeros(...)}`, `return a, b`; `returns`: each one's keyed items as
    `bind_returned` reads them), after the call itself was lowered: the name is bound to a new container and its
    item places to those items, so `name["gamma"]` twice is one object, and two keys holding one local (or one
    parameter) of the helper are one object at the caller.  Keys a `return` lacks are new values."""
    bind_target(target, ir.Fresh(), sink)
    elements = [container_element(name, display, container, i) for i in range(len(container.keys))]
    arms = []
    for items in returns:
        given = dict(items)
        arms.append(([given.get(key) for key in container.keys], elements))
    _returned_arms(arms, span, sink)


def built_entries(
    name: str,
    steps: Sequence[tuple[ContainerKey, E]],
    options: Callable[[E], Sequence[E]],
    item_key: Callable[[E], ContainerKey | None],
    entry: Callable[[E], ReturnedItem],
) -> list[tuple[ContainerKey, Callable[[], ReturnedItem]]] | None:
    """The keyed items of the dict a helper returns by name (`return roles`) when it built it by a display and
    then stores under literal keys, in order (`steps`: the display's items, then each store's key and value),
    for `assign_returned_container`: each key's last value, a local of its own (`ReturnedLocal`), whose options
    are its value's arms (`options`), an arm reading the dict under a key it then holds (`item_key`) being that
    item (`roles["output"] = roles["input"] if inplace else sk.zeros(...)`: the output item may be the input's
    object), any other arm what `entry` makes of it.  A store under a key the display lacks adds that key, as the
    runtime does.  None when it has too many keys."""
    current: dict[ContainerKey, str] = {}  # each key's item so far: the local its last step binds
    last: dict[ContainerKey, tuple[str, E, dict[ContainerKey, str]]] = {}  # and that step's value, what it reads
    for step, (key, value) in enumerate(steps):
        last[key] = (f"{name}$built{step}", value, dict(current))
        current[key] = last[key][0]
    if not 0 < len(last) <= MAX_CONTAINER_ITEMS:
        return None

    def item(local: str, value: E, before: Mapping[ContainerKey, str]) -> ReturnedItem:
        arms: list[ReturnedItem] = []
        for arm in options(value):
            read = item_key(arm)
            if read is not None and read in before:
                arms.append(before[read])  # the item the dict held under that key (one object)
                continue
            given = entry(arm)
            arms.extend(given.options if isinstance(given, ReturnedLocal) else (given,))
        return ReturnedLocal(local, tuple(arms))

    return [(key, functools.partial(item, *found)) for key, found in last.items()]


#: The fields a constructor call gives its new object: (attribute path, the temporary staging its value).
FieldParts: TypeAlias = "tuple[tuple[tuple[str, ...], ir.Place], ...]"


def object_fields(applied: AppliedSummary[E], node: E, span: Span, sink: Lowering[E]) -> FieldParts:
    """The fields `constructed_fields` gives the object of a constructor call a helper returns (its operands are
    the temporaries `returned_object` staged the call's arguments in)."""
    return constructed_fields(applied, node, span, sink)[0]


def returned_object(
    arms: Sequence[tuple[Sequence[ReturnedItem], Sequence[ir.Place], Callable[[], FieldParts]]],
    span: Span,
    sink: Lowering[E],
) -> ir.Value:
    """The value of `obj = helper(...)`, the helper's every `return` a constructor call of a class of the module
    (`return Batch(features=feats, labels=..., workspace=feats)`), after the call itself was lowered: per
    `return`, its arguments' items (`bind_returned`) staged in temporaries, and `fields()` the fields the
    class's initializer gives the new object from them (`call_effects.constructed_fields`); the object is bound
    with those fields (`ir.Fresh.parts`), so `obj.features` and `obj.workspace` are one object when the helper
    passed one local to both.  With several `return`s, each field is staged once and each arm binds it."""
    if len(arms) == 1:
        items, stages, fields = arms[0]
        bind_returned(items, stages, span, sink)
        parts = fields()
        for stage in stages:
            sink.emit(ir.Del(stage, span))
        return ir.Fresh("value", parts=parts)
    shared: dict[tuple[str, ...], ir.Place] = {}
    found: list[list[tuple[tuple[str, ...], ir.Place]]] = []
    blocks = []
    for items, stages, fields in arms:
        got: list[tuple[tuple[str, ...], ir.Place]] = []

        def build(i: Sequence[ReturnedItem] = items, s: Sequence[ir.Place] = stages,
                  f: Callable[[], FieldParts] = fields,
                  g: list[tuple[tuple[str, ...], ir.Place]] = got) -> None:
            bind_returned(i, s, span, sink)
            g.extend(f())
            for path, stage in g:
                if path not in shared:
                    shared[path] = sink.temp(".".join(path))
                sink.emit(ir.Bind((shared[path],), (ir.FromPlace(stage, span),), span))
            for stage in s:
                sink.emit(ir.Del(stage, span))

        blocks.append(sink.block(build))
        found.append(got)
    sink.emit(ir.Branch(tuple(blocks), span))
    common = set.intersection(*(set(path for path, _ in got) for got in found)) if found else set()
    return ir.Fresh("value", parts=tuple((path, shared[path]) for path in sorted(common)))


@dataclass(frozen=True)
class ContainerFlow:
    """A function that stores into or takes from the container its operand `container` is (`heapq`'s heap list):
    `stores` the position of the operand it stores (as `list.append` does, `store_into`), `takes` whether it
    gives an item it takes out (`take_from`), `take_first` whether it takes before it stores (`heapreplace`
    gives an item the heap held, `heappushpop` may give the one it was handed)."""

    container: int = 0
    stores: int | None = None
    takes: bool = False
    take_first: bool = False


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
    # a receiver that is an item of a container place (`d[k].append(op)`, `grid[i][j].append(op)`): that place, which
    # keeps what the item's storing method stores (`store_into`)
    receiver_container: ir.Place | None = None
    # a receiver that is a sequence container of places (`ring = deque([a, c])`): its element places in order, and
    # the call's first argument where it is an integer literal (`ring.rotate(1)`: `reordering_arms`)
    receiver_elements: tuple[ir.Place, ...] | None = None
    first_int: int | None = None
    # a receiver whose element places are those of a bounded deque as long as its display (`history =
    # deque([a, b], maxlen=2)`): `append` / `appendleft` shift them (`ring_shift`)
    receiver_ring: bool = False
    # a receiver that is a call of a tensor constructor (`tile.from_numpy(a).shared()`): an op that runs no kernel,
    # so neither do the ops its combinators give (`ir.Fresh.launches`)
    receiver_allocates: bool = False


@dataclass(frozen=True)
class NonlocalEffects:
    """What calling a nested function does to the values it captures and the names it declares `nonlocal`, read
    from the nested function's own analysis (`checker.nonlocal_effects`): `reads` are where it first reads each
    caller's value or checks the brand of one (spans in the nested function), and its calls that borrow the caller's
    values (one tuple of borrows per way the call's arguments may be the caller's values, in the call's group),
    `rebound` names refer to a new value on every path out, and `moves` are its moves that may have consumed what
    a name refers to by then."""

    reads: tuple[ir.Use | ir.Borrow | ir.CheckBrand | tuple[tuple[ir.Borrow, ...], ...], ...] = ()
    rebound: tuple[ir.Place, ...] = ()
    moves: tuple[ir.Move, ...] = ()
    params: frozenset[str] = frozenset()  # the nested function's parameters (what the call binds them to)
    returned_loans: tuple[tuple[str, bool], ...] = ()  # what the op it returns still borrows: (name, mutable)
    # a rebound name that may be one of the caller's values or a view of one: per way (caller's name or None for a
    # new value, the view's region or None for the value itself)
    rebound_sources: tuple[tuple[ir.Place, tuple[tuple[str | None, ir.Region | None], ...]], ...] = ()
    # the spans of the borrows of its calls that conflict in its own check already (reported there, not at the call)
    inner_conflicts: frozenset[Span] = frozenset()
    # a `nonlocal` name whose caller's value it moves and then binds to another value (`a = a.to(dev, stream)`,
    # `z, x, y = add(z, x, y).sync_on(s)` in a loop): the name, whether that happens on every path out (else on
    # some: the others leave the caller's value unmoved), and the moves.  Not among `moves`, which are those of
    # what the name refers to at the exit (the new value)
    entry_moves: tuple[tuple[ir.Place, bool, tuple[ir.Move, ...]], ...] = ()
    # a `nonlocal` name it binds on every path to a pending op that still borrows caller's values at its exit
    # (`nonlocal p; p = k.launch_async(prep, a, b, c)`): (that name, the lent name, mutable); the caller's name
    # then holds such an op, and its loans last until it runs
    held_loans: tuple[tuple[str, str, bool], ...] = ()

    @property
    def empty(self) -> bool:
        """Whether a call of the nested function does nothing the caller must apply."""
        return not (
            self.reads
            or self.rebound
            or self.moves
            or self.returned_loans
            or self.rebound_sources
            or self.entry_moves
            or self.held_loans
        )


@dataclass(frozen=True)
class Call(Generic[E]):
    """One call expression, resolved.  `kernel`: the callee itself is a kernel; `shared_array`: the callee is
    `simt.shared_array`; `safekernels_function`: the callee's qualified name when it is a safekernels function;
    `nonlocal_effects`: the callee is a function nested in this one that rebinds or moves its `nonlocal` names."""

    node: E
    span: Span
    callee: E
    args: tuple[Operand[E], ...]
    kernel: KernelSignature | None = None
    method: MethodCall[E] | None = None
    shared_array: bool = False
    safekernels_function: str | None = None
    nonlocal_effects: NonlocalEffects | None = None
    summary: AppliedSummary[E] | None = None  # a function or method of this module the checker can see
    # a standard-library function storing into / taking from its container operand (`heapq.heappush(heap, x)`,
    # `heapq.heappop(heap)`: the front ends read `stdlib_flow.container_flow` by the callee's qualified name)
    container_flow: ContainerFlow | None = None


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
    """A subscript store or anything else: lowered as an ordinary expression.  `container`: the place subscripted by
    a subscript store (`jobs` of `jobs[k] = ...`), which keeps a pending op stored there (`store_into`), and where
    the store is."""

    node: E
    container: ir.Place | None = None
    span: Span | None = None
    # the item under the store's literal key of a container the checker knows no items of (`keyed_items`): what
    # was stored is that item from here on (a pending op stays the container's: the item is then a new object)
    item: ir.Place | None = None


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
    tuple or list display without starred items (a parallel assignment when the target unpacks as many, a starred
    target taking the middle items); `elements`: the value is a name that is a sequence container
    (`find_container`), its element places in order (`first, *rest = bufs` makes `first` the buffer `bufs[0]`);
    `star_elements`: the starred target names a container list (`first, *rest = [a, b, a]`), its element places:
    item `i` of the new list is the `i`-th value the starred target collects (`rest[0]` is `b`)."""

    targets: tuple[Target[E], ...]
    value: E
    split: SplitAt[E] | None = None
    items: tuple[E, ...] | None = None
    elements: tuple[ir.Place, ...] | None = None
    star_elements: tuple[ir.Place, ...] | None = None
    # the value is a new list of the items of this container place (`stdlib_flow.selected_operand`:
    # `leaders = heapq.nsmallest(3, heap)`): what was stored into it is stored into the target too
    selects: ir.Place | None = None
    # the value repeats displays (`m, v = [sk.zeros(...)] * 2`): the targets it unpacks into share the objects
    repeated: RepeatedDisplay[E] | None = None


@dataclass(frozen=True)
class WithItem(Generic[E]):
    """One item of a `with` statement; `unsafe_context` when it is `simt.unsafe()` (under any import alias)."""

    node: E
    unsafe_context: bool
    target: Target[E] | None = None
    suppresses: bool = False  # `contextlib.suppress(...)`: the body is `try: ... except ...: pass`
    constructs: bool = False  # a constructor call the checker follows (`with Pending(op):`): held for the body
    # what the `as` target is bound to, after the item was evaluated: one of the caller's values a
    # `@contextlib.contextmanager` generator of the module yields (`entered_value`); else a new value
    entered: Callable[[], ir.Value] | None = None
    exit_stack: bool = False  # `contextlib.ExitStack()`: what the body registers with it runs when the block is left
    # a `@contextlib.contextmanager` generator of the module (`with_phases`): what its body does before its
    # `yield` (emitted when the item is entered, given the place that holds for the block what it keeps across the
    # `yield`) and after it (when the block is left, however)
    phases: tuple[Callable[[ir.Place], None], Callable[[], None]] | None = None
    # `with staged(pf) as ready:` of such a generator yielding its parameter bound to the plain name `pf`, neither
    # name rebound in the block: (`ready` as written, the name `pf` is): `ready` is `pf` in the block, attribute
    # paths included (`ready.staging` is `pf.staging`), so what a method called on either does to them is seen
    # through both
    renamed: tuple[str, str] | None = None
    # a class-based context manager of the module whose `__enter__` returns its receiver on every path (`with
    # Prefetcher(raw) as pf:` of a constructor call the checker follows, `with pf:` of an object of such a class):
    # its `__enter__` and `__exit__` call summaries, each applied to the object held for the block (the place given)
    # when the item is entered and when the block is left, however (`lower_with`); the `as` target is that object,
    # so what `__init__` stored (`pf.staged`) and what `__enter__` left pending on it (`self.op`) are the body's
    methods: tuple[Callable[[ir.Place], None], Callable[[ir.Place], None]] | None = None


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
    for bound in view.args if isinstance(view, ViewCall) else view.parts:
        sink.lower_expr(bound)
    return _region_of(view, sink)


def _region_of(view: ViewCall[E] | SliceView[E], sink: Lowering[E]) -> tuple[ir.Place, ir.Region]:
    """`view_region`'s base and region, its bounds already lowered."""
    if isinstance(view, ViewCall):
        bounds = view.bounds
        if len(bounds) == 2 and bounds[0] is not None and bounds[1] is not None:
            return view.base, _counted_range(bounds[0], bounds[1], sink)
        return view.base, ir.Whole()
    lo = 0 if not view.lower_given else view.lower
    hi = view.upper if view.upper_given else None
    if not view.step_given and _from_start(lo) and (not view.upper_given or _from_start(hi)):
        assert lo is not None
        return view.base, _counted_range(lo, hi, sink)
    return view.base, ir.Whole()


def _counted_range(start: int | str, stop: int | str | None, sink: Lowering[E]) -> ir.Range:
    """`ir.Range(start, stop)`, with the counting loop's counter the front end is lowering the body of
    (`loop_counter`: its name and step) when the bounds read it (`view_bounds.counted`)."""
    counter: tuple[str, int] | None = getattr(sink, "loop_counter", None)
    if counter is None or (type(start) is int and (stop is None or type(stop) is int)):
        return ir.Range(start, stop)
    mentions, strided = view_bounds.counted(start, stop, *counter)
    return ir.Range(start, stop, counter[0], strided) if mentions else ir.Range(start, stop)


def _from_start(bound: int | str | None) -> bool:
    """Whether a slice bound counts from the start of its base: a literal at least 0, or a symbolic one (it may be
    negative, but two equal ones land on the same element, all `view_bounds.at_most` relies on for them)."""
    return isinstance(bound, str) or (type(bound) is int and bound >= 0)


def argument_temp(temp: ir.Place) -> ir.Place:
    """The temporary of an argument that is evaluated for one call only (`k.launch(p, s, a.view(0, n))`): no
    name refers to it once the call returns, so it keeps nothing reachable (`ir.ARGUMENT_TEMP_PREFIX`)."""
    return ir.Place(ir.ARGUMENT_TEMP_PREFIX + temp.root.removeprefix("$t"), temp.attrs, temp.display)


def bind_view(view: ViewCall[E] | SliceView[E], span: Span, sink: Lowering[E]) -> ir.FromPlace | None:
    """A view as a bound value: a temporary viewing the base (None when `view` does not count as a view)."""
    region = view_region(view, sink)
    if region is None:
        return None
    tmp = sink.temp(region[0].text)
    sink.emit(ir.View(tmp, region[0], region[1], span))
    return ir.FromPlace(tmp, span)


# --- calls ------------------------------------------------------------------------------------------------------


def lower_call(call: Call[E], holder: ir.Place | None, sink: Lowering[E]) -> ir.Value:
    """Emit what `call` does to ownership (arguments lowered in evaluation order); return what its result is.

    `holder` is the place the result is bound to, if any: a `launch_async` DeviceOp or a `get_mut` element holds
    its loans while that place refers to it, and an op built from a pending one (`pending.then(f)`) inherits
    its loans.  A call changing a peeked deque in place (`self.free.popleft()`, `MethodCall.receiver_peeked`)
    then gives its peeked items new objects (`forget_peeked`).
    """
    value = _lower_call(call, holder, sink)
    method = call.method
    if (
        method is not None
        and call.summary is None
        and method.name in PEEK_CHANGING_METHODS
        and (place := method.receiver.place) is not None
        and is_peeked(place, sink)
    ):
        sink.emit(forget_peeked(place, call.span), call.node)
    return value


def is_peeked(place: ir.Place, sink: Lowering[E]) -> bool:
    """Whether `place` is an attribute path ending in an attribute some accessor of the module peeks at
    (`Lowering.peeked`, `peeked_path`): changing it in place or binding it anew forgets its peeked items."""
    return bool(place.attrs) and place.attrs[-1] in sink.peeked and not sink.kernel_body


#: The most items at the front of a deque the checker follows as peeked places (`peeked_path`): `self.free[0]`
#: to `self.free[3]`; a read at a larger index is a new value, as before.
MAX_PEEKED: Final[int] = 4

#: The attribute prefix of a peeked item of a deque place (`self.free.<item 0>`, shown `self.free[0]`); no Python
#: attribute is spelled so.
PEEKED_PREFIX: Final[str] = "<item "


#: The items a peek may read (`peeked_attr`): the first `MAX_PEEKED` and the last.  A negative index names the same
#: item as some non-negative one only once the length is known, so `[-1]` is an item of its own: two peeks at it
#: with nothing changing the sequence between are one object, as the runtime finds; `[-1]` and `[0]` are kept apart.
PEEKED_INDICES: Final[tuple[int, ...]] = (*range(MAX_PEEKED), -1)


def peeked_attr(index: int) -> str | None:
    """The attribute of item `index` of a deque or list place (`peeked_path`), or None for an index not followed
    (`PEEKED_INDICES`)."""
    return f"{PEEKED_PREFIX}{index}>" if index in PEEKED_INDICES else None


def peeked_path(path: Sequence[str], index: int | None) -> tuple[str, ...] | None:
    """The attribute path of item `index` of the deque at receiver path `path`, for a method reading it without
    changing the deque (`def acquire(self): return self.free[0]`, the front ends' accessors): `obj.acquire()` is
    the place `obj.free.<item 0>`, so two calls with nothing changing the deque in between give one object, as the
    runtime does (a peek, not a `popleft()`).  None for an index not followed (`peeked_attr`)."""
    attr = None if index is None else peeked_attr(index)
    return None if attr is None else (*path, attr)


def shown_path(display: str, path: Sequence[str]) -> str:
    """How diagnostics spell a receiver's attribute path (`pool.free[0]` for `pool.free.<item 0>`)."""
    text = display
    for attr in path:
        text += f"[{attr[len(PEEKED_PREFIX):-1]}]" if attr.startswith(PEEKED_PREFIX) else f".{attr}"
    return text


#: The methods that change a deque in place, after which its peeked items (`peeked_path`) are other objects: the
#: container methods (`MUTATING_CONTAINER_METHODS`) and the reorderings (`REORDERING_METHODS`).
PEEK_CHANGING_METHODS: Final[frozenset[str]] = frozenset(
    {"append", "extend", "insert", "remove", "pop", "clear", "appendleft", "extendleft", "popleft", "rotate",
     "reverse", "sort", "__setitem__", "__delitem__", "__iadd__"}
)


def forget_peeked(place: ir.Place, span: Span) -> ir.Bind:
    """The deque at `place` changed in place (`self.free.rotate(-1)`) or was bound anew (`self.free = deque(...)`,
    `self.free[0] = buf`: `is_peeked`): each of its
    peeked items (`peeked_path`) is bound to a new object of its own, so a peek before the change and one after it
    are two objects (unless the change is not known to the caller: a summary carries these binds as rebinds of the
    receiver's paths, so `pool.rotate()` of a method doing it is seen at the caller too)."""
    places = tuple(
        ir.Place(place.root, (*place.attrs, f"{PEEKED_PREFIX}{i}>"), f"{place.text}[{i}]") for i in PEEKED_INDICES
    )
    return ir.Bind(places, tuple(ir.Fresh() for _ in places), span)


def _lower_call(call: Call[E], holder: ir.Place | None, sink: Lowering[E]) -> ir.Value:
    """`lower_call` before what a change of a peeked deque does after the call."""
    kernel = call.kernel
    if kernel is not None:
        form = launch_form(kernel.track, kernel.autotuned, None)
        if form is not None and not sink.kernel_body:
            return _launch(call, form, kernel, None, holder, sink)
    method = call.method
    if call.container_flow is not None and not sink.kernel_body:
        contained = _container_call(call, call.container_flow, sink)
        if contained is not None:
            return contained
    taking = _taking_receiver(call, method) if method is not None and not sink.kernel_body else None
    if method is not None and taking is not None:
        # `q.get()`: one of the items stored into the queue (`take_from`)
        _receiver(method.receiver, sink)
        for arg in call.args:
            sink.lower_expr(arg.node)
        return take_from(taking, call.span)
    if method is not None and call.summary is None:  # a method of the user's own class is not the library's
        deferred = _exit_stack_call(call, method, sink)
        if deferred is not None:
            return deferred
        result = _method_call(call, method, holder, sink)
        if result is not None:
            return result
    if method is not None and method.receiver_elements and not sink.kernel_body:
        orders = reordering_arms(method.name, len(method.receiver_elements), len(call.args), method.first_int)
        if orders is not None:
            # `ring.rotate(1)`, `ring.reverse()`: each element place refers to the item the reordering moved there
            _receiver(method.receiver, sink)
            for arg in call.args:
                sink.lower_expr(arg.node)
            places = method.receiver_elements
            blocks = tuple(
                sink.block(
                    lambda order=order: sink.emit(  # type: ignore[misc]
                        ir.Bind(places, tuple(ir.FromPlace(places[i], call.span) for i in order), call.span)
                    )
                )
                for order in orders
            )
            if len(blocks) == 1:
                sink.emit(ir.Bind(places, tuple(ir.FromPlace(places[i], call.span) for i in orders[0]), call.span))
            else:
                sink.emit(ir.Branch(blocks, call.span))
            return ir.Fresh()
    stored = _stored_argument(call, method) if method is not None and not sink.kernel_body else None
    keeper = None if method is None else method.receiver.place or method.receiver_container
    if method is not None and stored is not None and keeper is not None:
        # `ops.append(k.launch_async(...))`: the receiver keeps the op (`store_into`); `jobs.pop(k)`: it keeps none.
        # `d[k].append(op)`: the item is a list of `d`'s, so `d` keeps the op (as long as `d` refers to the item)
        _receiver(method.receiver, sink)
        added: ir.Value | None = None
        for index, arg in enumerate(call.args):
            if index == stored:
                added = store_into(keeper, arg.node, arg.span, sink, marks=method.name in _QUEUE_STORES)
                if arg.place is not None:
                    added = ir.FromPlace(arg.place, arg.span)
            else:
                sink.lower_expr(arg.node)
        taken: ir.Value | None = None
        if stored < 0 and _takes_attribute_item(method.name, keeper, holder):
            # `slot = self.slots.pop(rid)`: one of the items stored into the attribute (`take_from`), taken before
            # the container forgets them
            assert holder is not None
            item = ir.FromPlace(ir.taken_item(keeper, stored_only=True), call.span)
            sink.emit(ir.Bind((holder,), (item,), call.span), call.node)
            taken = ir.FromPlace(holder, call.span)
        if stored < 0:
            sink.emit(ir.Del(ir.stored_item(keeper), call.span), call.node)
        if taken is not None:
            return taken
        shifted = ring_shift(method, len(call.args), added, call.span)
        if shifted is not None:
            sink.emit(shifted, call.node)
        return ir.Fresh()
    if call.shared_array:
        for arg in call.args:
            sink.lower_expr(arg.node)
        sink.emit(ir.RequireUnsafe("shared_array", call.span), call.node)
        return ir.Fresh("shared_array")
    function = call.safekernels_function
    if function is not None and function.rsplit(".", 1)[-1] in ALIASING_FUNCTIONS:
        return _aliasing_call(call, ALIASING_FUNCTIONS[function.rsplit(".", 1)[-1]], sink)
    if function is not None and function.rsplit(".", 1)[-1] in MOVING_ARGUMENT_CALLS and not sink.kernel_body:
        _call_args(call, True, holder, sink)
        return ir.Fresh("op")
    if call.summary is not None and call.summary.constructs:
        return _construct(call, call.summary, holder, sink)
    if holder is not None and holder.root != ir.RETURN_HOLDER and call.summary is None and not call.nonlocal_effects:
        return _opaque_call(call, holder, sink)
    built: ir.Place | None = None
    if method is not None and call.summary is not None and call.summary.built_receiver:
        built, call = _build_receiver(call, method, call.summary, sink)
    elif method is not None:
        _receiver(method.receiver, sink)
    else:
        sink.lower_expr(call.callee)
    call, staged = _stage_stored_arguments(call, sink)
    _call_args(call, False, None, sink)
    effects = call.nonlocal_effects
    if effects is not None:
        # the nested function ran here: its reads of the caller's values, its rebinds, then its moves (with their
        # own spans and help)
        for read in effects.reads:
            if isinstance(read, tuple):
                # a call of its own: its arguments checked against each other (one group) and the caller's loans;
                # a parameter's value is the operand the call binds it to
                number = sink.next_group()
                ways = _nested_ways(read, number, effects, call.summary, call.span, sink)

                def replay(way: tuple[ir.Borrow, ...]) -> None:
                    for borrow in way:
                        if borrow.region is not None:
                            # a view the nested function took of the caller's value: take it here, then borrow it
                            view = sink.temp(borrow.place.text)
                            sink.emit(ir.View(view, borrow.place, borrow.region, borrow.span), call.node)
                            borrow = replace(borrow, place=view, region=None)
                        sink.emit(borrow, call.node)

                if len(ways) <= 1:
                    for way in ways:
                        replay(way)
                else:
                    arms = tuple(sink.block(lambda w=way: replay(w)) for way in ways)  # type: ignore[misc]
                    sink.emit(ir.Branch(arms, call.span))
                continue
            if isinstance(read, ir.Borrow):
                read = ir.Borrow(read.place, read.mutable, sink.next_group(), read.span)
            sink.emit(read, call.node)
        if holder is not None:
            for name, mutable in effects.returned_loans:  # the op the call returns keeps them until it runs
                sink.emit(ir.Borrow(ir.Place(name), mutable, sink.next_group(), call.span, holder), call.node)
            if effects.returned_loans:
                _holds_op(holder, sink)
        _move_entry_values(effects, call, sink)
        sources = dict(effects.rebound_sources)
        for place in effects.rebound:
            if place not in sources:
                sink.emit(ir.Bind((place,), (ir.Fresh(),), call.span), call.node)
        _rebind_nonlocals(effects.rebound_sources, call, sink)
        _hold_nonlocal_loans(effects.held_loans, call, sink)
        for move in effects.moves:
            sink.emit(move, call.node)
    if call.summary is not None:
        apply_summary(call.summary, call.node, call.span, sink, holder)
        if holder is not None and call.summary.summary.returned_loans:
            _holds_op(holder, sink)
    if holder is not None and call.summary is not None and call.summary.summary.yielded_parts and not (
        call.summary.summary.returned_loans  # a generator yielding an op alone elsewhere: the op's loans win
    ):
        value: ir.Value = _yielded_value(call.summary, call.span, call.node, sink)
    elif call.summary is not None and call.summary.summary.returned_parts:
        # `staged, pending = start(i)` of `return staged, k.launch_async(prep, x, staged)`: the tuple's parts
        value = _yielded_value(call.summary, call.span, call.node, sink, call.summary.summary.returned_parts)
    elif holder is not None and (
        (effects is not None and effects.returned_loans)
        or (call.summary is not None and call.summary.summary.returned_loans)
    ):
        # the pending op the call returns: its loans last while it is reachable, as a `launch_async` op's do (not
        # only while its name is live: `p = pending_add(...)` then `p = k.launch_async(...)` borrows under the old
        # op's loans, seed 851 of the surface generator)
        value = ir.Fresh("op")
    elif holder is not None and call.summary is not None and call.summary.summary.returned_held:
        # `energy = self.calibrate(raw)` of a method keeping an op that writes the buffer it returns
        value = _held_result(call.summary, call.span, call.node, sink)
    else:
        value = ir.Fresh()
    if built is not None:
        sink.emit(ir.Del(built, call.span), call.node)
    for stage in staged:
        sink.emit(ir.Del(stage, call.span), call.node)
    return value


def _held_result(applied: AppliedSummary[E], span: Span, node: E, sink: Lowering[E]) -> ir.Value:
    """The new object a method returns while a pending op it keeps in its receiver's container attribute borrows it
    (`CallSummary.returned_held`): a temporary bound to a new object, borrowed by an op stored below the caller's
    receiver's attribute there (`ir.stored_item`, as `store_into` keeps one), so moving the result before that op
    runs (`self.flush()` taking the ops out and running them) is `E0505`, as the runtime's `BorrowError`."""
    summary = applied.summary
    receiver = dict(applied.bound).get(summary.receiver) if summary.receiver is not None else None
    if receiver is None or receiver.place is None:
        return ir.Fresh()
    result = sink.temp("returned buffer")
    sink.emit(ir.Bind((result,), (ir.Fresh(),), span), node)
    for attr, mutable, where in summary.returned_held:
        kept = extend_place(receiver.place, (attr, ir.STORED_ATTR))
        for op in ir.keep_op(kept, [ir.Borrow(result, mutable, sink.next_group(), where)], span):
            sink.emit(op, node)
    return ir.FromPlace(result, span)


def _stage_stored_arguments(call: Call[E], sink: Lowering[E]) -> tuple[Call[E], list[ir.Place]]:
    """A function or method of the module whose summary stores a parameter into a container (`self.jobs[name] =
    op`: a rebind of a path below `ir.STORED_ATTR`), called with a pending op built in the argument list
    (`sched.submit("axpy", k.launch_async(...))`): the argument is evaluated first into a temporary holding the op's
    loans, so the rebind keeps the op below the caller's container (`store_into`, on the caller's side); the
    temporary is dropped after the call.  Returns the call with those arguments replaced by their temporaries
    (lowered no more) and the temporaries."""
    applied = call.summary
    if applied is None:
        return call, []
    names = {
        source[0]
        for target, source in applied.summary.rebinds
        if target[1] and target[1][-1] == ir.STORED_ATTR and isinstance(source, tuple) and not source[1]
    }
    # a parameter whose fields the callee launches with (`k.launch(p, s, pair.src, pair.dst)`), handed an object
    # built in the argument list (`run_pair(Pair(c, c), ...)`, `run(make_batch(...), ...)`): the object is bound to
    # a temporary first, with the fields its constructor or the helper returning it gives it
    effects = applied.summary
    fields = {
        path[0]
        for group in (*effects.borrows, *effects.conflicts, tuple(effects.returned_loans))
        for path, _ in group
        if path[1] and path[0] != effects.receiver
    }
    # a parameter the callee launches with, or launches with a field of (`square_bwd.launch(plan.bwd, ...)`), handed
    # a prepared launch or an object holding some built in the argument list (`step(make_plan(n, dev))`): the
    # temporary keeps their brands for the callee's brand checks (`SummaryBrandCheck`)
    fields |= {check.path[0] for check in effects.brand_checks if check.path[0] != effects.receiver}
    bound = dict(applied.bound)
    replaced: dict[int, Operand[E]] = {}
    for name in sorted(names | fields):
        operand = bound.get(name)
        if operand is None or operand.place is not None or operand.star or operand.choices or operand.view:
            continue
        stage = sink.temp("argument" if name in names else name)  # shown as the callee's parameter (`pair.dst`)
        bind_target(PlaceTarget(stage, operand.span), sink.value(operand.node, stage), sink)
        replaced[id(operand)] = replace(operand, place=stage, device=name in names, prelude=())
    if not replaced:
        return call, []
    args = tuple(arg for arg in call.args if id(arg) not in replaced)
    summary = replace(applied, bound=tuple((n, replaced.get(id(op), op)) for n, op in applied.bound))
    stages = [op.place for op in replaced.values() if op.place is not None]
    return replace(call, args=args, summary=summary), stages


def _build_receiver(
    call: Call[E], method: MethodCall[E], applied: AppliedSummary[E], sink: Lowering[E]
) -> tuple[ir.Place, Call[E]]:
    """`Holder(a, c).run()`: the object the receiver's constructor call builds is held in a temporary, with the
    fields its initializer binds (`_construct`), while the method runs; the method's summary applies to that
    object as to a name bound by `h = Holder(a, c)` (the caller drops the temporary after the call)."""
    held = sink.temp(f"{applied.built_receiver}(...)")  # `Holder(...).c` in a diagnostic
    bind_target(PlaceTarget(held, method.receiver.span), sink.value(method.receiver.node, held), sink)
    receiver = replace(method.receiver, place=held, view=None, choices=(), prelude=())
    bound = tuple((name, receiver if op is method.receiver else op) for name, op in applied.bound)
    summary = replace(applied, bound=bound, built_receiver=None)
    return held, replace(call, method=replace(method, receiver=receiver), summary=summary)


#: The path below an opaque call's result that keeps the pending op passed as its argument `i` (`_opaque_call`): no
#: Python attribute is spelled so, and it is no value path (`ir.VALUE_ATTR`), so the op stays reachable through it.
_KEPT_ARGUMENT: Final[str] = "<argument {}>"


def _opaque_call(call: Call[E], holder: ir.Place, sink: Lowering[E]) -> ir.Value:
    """A call the checker does not follow (another module's function, a decorated one: `@contextmanager`, a method
    of an unknown receiver) whose result is bound to `holder`: nothing is known of what it does with its
    arguments, so a pending op built in its argument list (`completes(k.launch_async(prepared, a, b, c), stream)`)
    may be kept by what it returns and run later (a context manager syncing it on exit): the op is evaluated into
    a temporary and kept below the result (`Fresh.parts`), its loans lasting while the result is reachable (a
    `with` statement holds its context manager until the block is left, `lower_with`).  An op the call is known
    to consume synchronously is the business of a call summary (a function of the module), not of this rule."""
    method = call.method
    if method is not None:
        _receiver(method.receiver, sink)
    else:
        sink.lower_expr(call.callee)
    parts: list[tuple[tuple[str, ...], ir.Place]] = []
    for index, arg in enumerate(call.args):
        if arg.place is not None or arg.star or arg.choices or arg.view is not None:
            sink.lower_expr(arg.node)
            continue
        stage = sink.temp("argument")
        value = sink.value(arg.node, stage)
        # a pending op, or an object a constructor the checker follows built holding one (`closing(Job(...))` of a
        # `Job` whose `__init__` stores `self.op = k.launch_async(...)`): the result may keep it
        if isinstance(value, ir.Fresh) and (value.kind in MUST_USE_KINDS or value.parts):
            bind_target(PlaceTarget(stage, arg.span), value, sink)
            kept = _KEPT_ARGUMENT.format(index)
            parts.append(((kept,), stage))
            # and the object's fields, which keep what they refer to (the op its `__init__` stored) reachable
            parts.extend(((kept, *path), ir.Place(stage.root, (*stage.attrs, *path))) for path, _ in value.parts)
    return ir.Fresh(parts=tuple(parts))


def _construct(call: Call[E], applied: AppliedSummary[E], holder: ir.Place | None, sink: Lowering[E]) -> ir.Value:
    """`Cls(a, b)` of a class whose initializer the checker sees (`AppliedSummary.constructs`).  Bound to a place
    (`holder`), each argument is evaluated into a temporary (held there: a pending op keeps its loans, a prepared
    launch its brand), the initializer's effects apply to them as a helper's do, and the new object's fields alias
    what the initializer stored (`constructed_fields`), bound below the holder once it is bound (`Fresh.parts`).
    Elsewhere (an argument, a `return`) the call is an ordinary summarized call whose result is a new value."""
    sink.lower_expr(call.callee)
    if holder is None or holder.root == ir.RETURN_HOLDER:
        _call_args(call, False, None, sink)
        apply_summary(applied, call.node, call.span, sink)
        return ir.Fresh()
    staged: dict[int, ir.Place] = {}
    for arg in call.args:
        if arg.star:
            sink.lower_expr(arg.node)
            continue
        stage = sink.temp(arg.place.text if arg.place is not None else "value")
        bind_target(PlaceTarget(stage, arg.span), sink.value(arg.node, stage), sink)
        staged[id(arg)] = stage
    bound = tuple(
        (name, replace(op, place=staged[id(op)], view=None, choices=(), prelude=()))
        if id(op) in staged
        else (name, op)
        for name, op in applied.bound
    )
    applied = AppliedSummary(applied.summary, bound, True)
    apply_summary(applied, call.node, call.span, sink, holder)
    parts, device = constructed_fields(applied, call.node, call.span, sink)
    for stage in staged.values():
        sink.emit(ir.Del(stage, call.span), call.node)
    mark = getattr(sink, "mark_device", None)
    if mark is not None:
        for path in sorted(device):  # `outs.lo` of `Outputs(lo=sk.zeros(...))` is a device value
            mark(ir.Place(holder.root, (*holder.attrs, *path)))
    return ir.Fresh("value", parts=parts)


def _holds_op(holder: ir.Place, sink: Lowering[E]) -> None:
    """`holder` is bound to an op that keeps loans (a helper's returned `launch_async` op): a device value from
    here on, so `holder.sync_on(stream)` consumes it and ends them (a front end without the hook: no change)."""
    mark = getattr(sink, "mark_device", None)
    if mark is not None:
        mark(holder)


def yield_parts(
    values: Sequence[Callable[[ir.Place], ir.Value]], span: Span, sink: Lowering[E], returned: bool = False
) -> None:
    """`yield out, k.launch_async(prep, a, b, out)` as a statement of a generator: part `i` (`values[i]`, given
    the place it is bound to, so a call's op holds its loans there) is bound to `ir.yielded_part(i)`, where the
    callee's summary reads what it is (`CallSummary.yielded_parts`) and the caller's loop finds it again
    (`_yielded_value`).  With `returned`, the parts of `return out, k.launch_async(...)` (`ir.returned_part`,
    `CallSummary.returned_parts`)."""
    for index, value in enumerate(values):
        holder = ir.returned_part(index) if returned else ir.yielded_part(index)
        bind_target(PlaceTarget(holder, span), value(holder), sink)


def repeated_parts(
    repeated: RepeatedDisplay[E], value: Callable[[E, ir.Place], ir.Value], span: Span
) -> list[Callable[[ir.Place], ir.Value]]:
    """The parts of `return [sk.zeros(...)] * 2` / `return [a, b] * 2` (a counted repetition) for `yield_parts`:
    the first index an item is at evaluates it (`value(item, holder)`); every later index of the same item is that
    very part (repetition copies references), so a caller unpacking `m, v = pair(...)` gets one buffer twice."""
    first: dict[int, int] = {}
    parts: list[Callable[[ir.Place], ir.Value]] = []
    for index, which in enumerate(repeated.order):
        if which in first:
            held = ir.returned_part(first[which])
            parts.append(lambda _holder, held=held: ir.FromPlace(held, span))  # type: ignore[misc]
        else:
            first[which] = index
            parts.append(functools.partial(value, repeated.items[which]))
    return parts


#: How the temporary holding a yielded tuple's op part is spelled (`_yielded_value`): the name the caller's loop
#: binds it to inherits its loans (`callables.unpack_yielded`), so a diagnostic names that name.
YIELDED_OP: Final[str] = "yielded op"


def _yielded_value(
    applied: AppliedSummary[E],
    span: Span,
    node: E,
    sink: Lowering[E],
    described: tuple[YieldedPart, ...] | None = None,
) -> ir.Value:
    """The item a loop takes from a generator of the module whose every `yield` gives a tuple
    (`CallSummary.yielded_parts`), when the call's item is bound to a place (`for out, pending in launches(prep,
    jobs)`): part `i` is the value path `item.$.$i` (`ir.item_place`), so unpacking the item binds each name to its
    part (`bind_target`).  A part that is the caller's value of a parameter path is that place; one that is an
    item of a parameter's items (`for a, b, out in jobs: yield out, ...`) is an item of the caller's argument
    (`ir.iteration_item`, a new loop site per callee loop, so the item a part is and the item the part's op
    borrows are one object); a part an op is holds its loans of those places (a pending op, bound in a
    temporary first so its loans attach: `_bind_parts`), or of another part of the same tuple (a new buffer the
    op writes).  A part the summary cannot name is a new value.  `described`: the parts of a returned tuple
    instead (`CallSummary.returned_parts`)."""
    bound = dict(applied.bound)
    sites: dict[str, int] = {}
    staged: dict[tuple[str, tuple[str, ...]], ir.Place] = {}
    described_parts = applied.summary.yielded_parts if described is None else described
    stages = {part.index: sink.temp(YIELDED_OP if part.source is None and part.loans else "item")
              for part in described_parts}

    def place_of(path: tuple[str, tuple[str, ...]]) -> ir.Place | None:
        root = path[0]
        for prefix in (ir.YIELD_PART, ir.RETURN_PART):
            if root.startswith(prefix) and root[len(prefix) :].isdigit() and not path[1]:
                return stages.get(int(root[len(prefix) :]))  # a sibling part of the same tuple
        operand = bound.get(path[0])
        if operand is None or operand.place is None or operand.star:
            return None
        attrs: list[str] = []
        for attr in path[1]:
            if attr.startswith(ir.ITEM_ATTR):
                if attr not in sites:
                    sites[attr] = sink.next_group()
                attr = f"{ir.ITEM_ATTR}{sites[attr]}"
            attrs.append(attr)
        found = ir.Place(operand.place.root, (*operand.place.attrs, *attrs), operand.place.display)
        if len(attrs) == len(path[1]) and not any(a.startswith(ir.ITEM_ATTR) for a in attrs):
            return found
        # an item of an item: one object, read once into a temporary (each read of `xs.$it<n>` is the item of
        # that read, the checker's loop items)
        if path not in staged:
            shown = f"{operand.place.text}[...]"
            staged[path] = sink.temp(shown)
            sink.emit(ir.Bind((staged[path],), (ir.FromPlace(found, span),), span), node)
        return staged[path]

    parts: list[tuple[tuple[str, ...], ir.Place]] = []
    # the parts no op is first, so an op part's loans of a sibling part find it bound; a view after its base
    order = sorted(described_parts, key=lambda p: (p.same_as is not None, p.source is None and bool(p.loans),
                                                    p.view_of is not None))
    for part in order:
        stage = stages[part.index]
        if part.same_as is not None:
            # `m, v = pair(...)` of `return [sk.zeros(...)] * 2`: the very object of the earlier part
            sink.emit(ir.Bind((stage,), (ir.FromPlace(stages[part.same_as], span),), span), node)
            parts.append(((ir.VALUE_ATTR, f"{ir.VALUE_ATTR}{part.index}"), stage))
            continue
        source = place_of(part.source) if part.source is not None else None
        lent_sibling = any(
            path[0] in (f"{ir.YIELD_PART}{part.index}", f"{ir.RETURN_PART}{part.index}") and not path[1]
            for other in described_parts
            for path, _ in other.loans
        )
        if source is not None:
            # the object the callee handed back: the call reads nothing of the caller's here (a moved one is
            # reported where the callee returned it, and where the caller uses it next)
            sink.emit(ir.Bind((stage,), (ir.FromPlace(source, span, carried=True),), span), node)
            if lent_sibling or any(path == part.source for other in described_parts for path, _ in other.loans):
                _holds_op(stage, sink)  # a launch borrowed it: a device value (its name too, `unpack_yielded`)
        elif part.view_of is not None and not part.loans:
            # `return buf, buf.view(8, 72)`: a view of the sibling part's new buffer
            base, region = part.view_of
            sink.emit(ir.View(stage, stages[base], region, span), node)
        elif part.loans:
            for path, mutable in part.loans:
                lent = place_of(path)
                if lent is not None:
                    sink.emit(ir.Borrow(lent, mutable, sink.next_group(), span, stage), node)
            sink.emit(ir.Bind((stage,), (ir.Fresh("op"),), span), node)
            _holds_op(stage, sink)
        else:
            sink.emit(ir.Bind((stage,), (ir.Fresh(),), span), node)
            if lent_sibling:
                _holds_op(stage, sink)  # a new buffer a launch of the callee writes: a device value
        parts.append(((ir.VALUE_ATTR, f"{ir.VALUE_ATTR}{part.index}"), stage))
    parts.sort(key=lambda item: int(item[0][1][len(ir.VALUE_ATTR) :]))
    for temp in staged.values():
        sink.emit(ir.Del(temp, span), node)
    return ir.Fresh("value", parts=tuple(parts))


def _move_entry_values(effects: NonlocalEffects, call: Call[E], sink: Lowering[E]) -> None:
    """The caller's values a nested function moves before it binds their `nonlocal` names to other values
    (`NonlocalEffects.entry_moves`): moved at the call, so a pending op's loan on one is E0505 there and a use of
    another name for it after the call is E0382.  Where that happens on some paths only (`for _ in range(k): a =
    a.to(dev, s)`), one `Branch` arm moves the value and binds the name to a new one, the other leaves both: the
    name is not the moved value on any path after the call (the rebinding that follows, `rebound` or
    `rebound_sources`, says what it is where the function ran to its end)."""
    for place, every_path, moves in effects.entry_moves:

        def move(place: ir.Place = place, moves: tuple[ir.Move, ...] = moves, rebind: bool = not every_path) -> None:
            for each in moves:
                sink.emit(each, call.node)
            if rebind:
                sink.emit(ir.Bind((place,), (ir.Fresh(),), call.span), call.node)

        if every_path:
            move()
        else:
            sink.emit(ir.Branch((sink.block(move), sink.block(lambda: None)), call.span))


def _hold_nonlocal_loans(held: tuple[tuple[str, str, bool], ...], call: Call[E], sink: Lowering[E]) -> None:
    """The pending ops a call of a nested function leaves in the caller's names (`NonlocalEffects.held_loans`): each
    such name is bound to a new op borrowing the caller's values it lends, so a launch writing one of them before
    the op runs conflicts, as the runtime's `BorrowError` says."""
    holders: dict[str, list[tuple[str, bool]]] = {}
    for holder, lent, mutable in held:
        holders.setdefault(holder, []).append((lent, mutable))
    for holder, loans in holders.items():
        place, number = ir.Place(holder), sink.next_group()
        borrows = [ir.Borrow(ir.Place(lent), mutable, number, call.span) for lent, mutable in loans]
        for op in ir.keep_op(place, borrows, call.span):
            sink.emit(op, call.node)
        _holds_op(place, sink)


def _rebind_nonlocals(
    rebinds: tuple[tuple[ir.Place, tuple[tuple[str | None, ir.Region | None], ...]], ...],
    call: Call[E],
    sink: Lowering[E],
) -> None:
    """The names a call of a nested function rebinds to one of the caller's values, a view of one or a new value
    (one `Branch` arm per way), in parallel: the caller's values are read into temporaries first (`a, c = c, a`)."""
    staged: dict[str, ir.Place] = {}
    for place, ways in rebinds:
        for source, region in ways:
            if source is not None and (source != place.root or region is not None) and source not in staged:
                staged[source] = argument_temp(sink.temp(source))
    if staged:
        values = tuple(ir.FromPlace(ir.Place(source), call.span) for source in staged)
        sink.emit(ir.Bind(tuple(staged.values()), values, call.span), call.node)
    for place, ways in rebinds:

        def rebind(source: str | None, region: ir.Region | None, place: ir.Place = place) -> None:
            if source == place.root and region is None:
                return  # unchanged on this path
            if source is None:
                sink.emit(ir.Bind((place,), (ir.Fresh(),), call.span), call.node)
            elif region is None:
                sink.emit(ir.Bind((place,), (ir.FromPlace(staged[source], call.span),), call.span), call.node)
            else:
                sink.emit(ir.View(place, staged[source], region, call.span), call.node)

        if len(ways) == 1:
            rebind(*ways[0])
            continue
        arms = tuple(sink.block(lambda w=way: rebind(*w)) for way in ways)  # type: ignore[misc]
        sink.emit(ir.Branch(arms, call.span))


def _nested_ways(
    ways: tuple[tuple[ir.Borrow, ...], ...],
    number: int,
    effects: NonlocalEffects,
    summary: AppliedSummary[E] | None,
    site: Span,
    sink: Lowering[E],
) -> list[tuple[ir.Borrow, ...]]:
    """A nested function's call's borrows of the caller's values (`checker.nonlocal_effects`), renumbered into the
    caller's group `number`, a borrow of a parameter's value as one of the operand the call binds it to (each place
    the operand may be, one way each; a view of a place, `inner(a.view(32, 64), b)`, as that region of its base;
    none for an operand that is no place).  Each is made at the call `site` (`ir.Borrow.call`) unless the nested
    function's own check reports its conflict (`inner_conflicts`)."""
    bound = dict(summary.bound) if summary is not None else {}
    params = effects.params
    out: list[tuple[ir.Borrow, ...]] = []
    for way in ways:
        options: list[list[ir.Borrow]] = []
        for b in way:
            call = None if b.span in effects.inner_conflicts else site
            if b.place.root not in params:
                options.append([ir.Borrow(b.place, b.mutable, number, b.span, None, b.held_by, call, b.region)])
                continue
            operand = bound.get(b.place.root)
            if operand is None:
                continue
            viewed = _viewed_region(operand, sink) if b.region is None and not b.place.attrs else None
            if viewed is not None:
                base, region = viewed
                options.append([ir.Borrow(ir.Place(base.root, base.attrs, b.place.text), b.mutable, number, b.span,
                                          None, b.held_by, call, region)])
                continue
            places = [operand.place] if operand.place is not None else [c.place for c in operand.choices if c.place]
            if places:
                options.append([ir.Borrow(ir.Place(p.root, p.attrs, b.place.text), b.mutable, number, b.span, None,
                                          b.held_by, call, b.region) for p in places if p is not None])
        out.extend(itertools.islice(itertools.product(*options), 16))
    return list(dict.fromkeys(out))


def _viewed_region(operand: Operand[E], sink: Lowering[E]) -> tuple[ir.Place, ir.Region] | None:
    """The base and region of an operand that is a view of a device-like place (`a.view(32, 64)`, `a[:n]`), as
    `view_region` gives them but without lowering the bounds again (the call's arguments were lowered); else None."""
    view = operand.view
    if operand.place is not None or view is None or not view.base_device:
        return None
    return _region_of(view, sink)


def _exit_stack_call(call: Call[E], method: MethodCall[E], sink: Lowering[E]) -> ir.Value | None:
    """`stack.callback(pending.sync_on, s)` / `stack.enter_context(cm)` of the `as` name of an enclosing `with
    contextlib.ExitStack() as stack:`: the call is evaluated here, and what it registers runs when the statement is
    left (`lower_with`): a callback that is a moving method of a place (`op.sync_on`, `t.unpartition`) moves that
    place then, as the call `op.sync_on(s)` would; an entered context manager built from a pending op (`Cls(op)`
    of a class the checker follows, an op built in the argument list of a call it does not follow) keeps it, and
    its loans, until then.  None for any other call."""
    receiver = method.receiver.place
    stacks = getattr(sink, "exit_stacks", None)
    if receiver is None or not stacks or sink.kernel_body:
        return None
    exits = stacks.get((receiver.root, receiver.attrs))
    if exits is None:
        return None
    if method.name in EXIT_ENTER_METHODS and len(call.args) == 1 and not call.args[0].star:
        _receiver(method.receiver, sink)
        held = sink.temp("entered context")
        value = sink.value(call.args[0].node, held)
        if isinstance(value, ir.Fresh) and value.parts:
            bind_target(PlaceTarget(held, call.span), value, sink)
            exits.append(ir.Del(held, call.span))
        elif isinstance(value, ir.FromPlace):
            sink.emit(ir.Use(value.source, value.span))
        return ir.Fresh()
    if method.name not in EXIT_CALLBACK_METHODS or not call.args or call.args[0].star:
        return None
    _receiver(method.receiver, sink)
    _call_args(call, False, None, sink)
    target = call.args[0].place
    if target is not None and target.attrs:
        name = target.attrs[-1]
        if name in DISTINCT_MOVING_METHODS or name in MOVING_METHODS:
            shown = target.display.rsplit(".", 1)[0] if target.display else None
            owner = ir.Place(target.root, target.attrs[:-1], shown)
            kind = _RECEIVER_MOVE_KIND.get(name, "combinator")
            exits.append(ir.Move(owner, call.args[0].span, move_help(kind)))
    return ir.Fresh()


def _method_call(call: Call[E], method: MethodCall[E], holder: ir.Place | None, sink: Lowering[E]) -> ir.Value | None:
    name = method.name
    receiver = method.receiver
    kernel = method.receiver_kernel
    if kernel is not None and not sink.kernel_body:
        form = launch_form(kernel.track, kernel.autotuned, name)
        if form is not None:
            return _launch(call, form, kernel, method, holder, sink)
        if name == PREPARE_METHOD:
            for arg in call.args:
                sink.lower_expr(arg.node)
            return ir.Fresh("prepared", brand=kernel.name)
    if name in UNSAFE_OPERATIONS and name != "shared_array":
        _receiver(receiver, sink)
        for arg in call.args:
            sink.lower_expr(arg.node)
        sink.emit(ir.RequireUnsafe(name, call.span), call.node)
        return ir.Fresh()
    if sink.kernel_body:
        # Kernel code: `x.partition(...)` of a tile kernel's input is a view of its tiles, `c.get_mut(idx)`
        # consumes a witness; nothing moves host values there.
        if name in WITNESS_CONSUMERS:
            return _get_mut(call, receiver, holder, sink)
        return None
    if name in ALIASING_METHODS and receiver.device and receiver.place is not None:
        # `t.as_buffer()`: the method form of `sk.as_buffer(t)`, the same storage as its receiver
        _call_args(call, False, None, sink)
        sink.emit(ir.Use(receiver.place, receiver.span))
        return ir.FromPlace(receiver.place, call.span)
    # `x.sync_on(...)` / `x.unpartition(...)` move `x` whatever the pre-pass knows of it (the table's
    # `DISTINCT_MOVING_METHODS`), in both front ends: mypy may type `x` as a DeviceOp where the CLI cannot name it
    # (`op = helper(); op.sync_on(s)`, an item of a list of ops); a module class's own `sync_on` is its summary
    moving = name in DISTINCT_MOVING_METHODS or (name in MOVING_METHODS and (receiver.device or bool(receiver.choices)))
    has_place = receiver.place is not None or bool(receiver.choices)
    if moving and not method.receiver_is_safekernels and (has_place or name in LOAN_INHERITING_METHODS):
        heir = holder if name in LOAN_INHERITING_METHODS else None
        chained = None
        if not has_place:
            # `pending.then(f).first()`: the inner op's loans pass through to what the chain is bound to
            chained = sink.value(receiver.node, heir)
        _call_args(call, name in MOVING_ARGUMENT_CALLS, heir, sink)
        kind = _RECEIVER_MOVE_KIND.get(name, "combinator")
        if isinstance(chained, ir.Fresh) and chained.kind in MUST_USE_KINDS and name in LOAN_INHERITING_METHODS:
            # `k(out, x).first().unpartition()`: `DeviceOp.partition` / `unpartition` of an op are lazy too, an op
            # that must be run (W0003), not the tensor they give once it runs
            kind = "combinator"
        # a chain on a tensor constructor's op (`tile.zeros(...).then(f)`) runs no kernel: nothing to must-use
        launches = not method.receiver_allocates and not (isinstance(chained, ir.Fresh) and not chained.launches)
        parts = _value_parts(call, name, receiver.place, holder, sink)
        if has_place:
            _each_choice(
                receiver,
                lambda r: sink.emit(ir.Move(r.place, r.span, move_help(kind), heir=heir), call.node)
                if r.place is not None
                else sink.lower_expr(r.node),
                sink,
            )
        runs = VALUE_FLOW_METHODS.get(name) == "value" and name not in LOAN_INHERITING_METHODS
        if receiver.place is not None and runs:
            # `sync_on` / `sync`: the op's value, whose items a launch's arguments may be (`a, b = op.sync_on(s)`)
            return ir.FromPlace(ir.value_place(receiver.place), call.span)
        if name in SHARED_RESULT_METHODS:
            return ir.Fresh(SHARED_OP, parts=parts, launches=launches)
        if kind == "combinator":
            return ir.Fresh("op", parts=parts, launches=launches)
        return ir.Fresh(parts=parts)
    if name == "to_numpy" and (receiver.place is not None or receiver.choices):
        # a read of the buffer (of each place it may be: `self.layers["mask"].to_numpy(s)`, `(a or b).to_numpy(s)`)
        _call_args(call, False, None, sink)
        group = sink.next_group()
        _each_choice(
            receiver,
            lambda r: sink.emit(ir.Borrow(r.place, False, group, r.span), call.node)
            if r.place is not None
            else sink.lower_expr(r.node),
            sink,
        )
        return ir.Fresh()
    if name in SHARED_RESULT_METHODS and not method.receiver_is_safekernels:
        # `t.shared()` of a value not known to be a safekernels value (an unannotated parameter): nothing is
        # known to move, but what it returns is still shared, never moved by a launch that reads it twice
        _receiver(receiver, sink)
        _call_args(call, False, None, sink)
        return ir.Fresh(SHARED_OP)
    return None


#: The kind of a `.shared()` op's object: its consumers read it and never move it.
SHARED_OP: Final[str] = _MEMO_SHARED_OP


def _value_parts(
    call: Call[E], name: str, receiver: ir.Place | None, holder: ir.Place | None, sink: Lowering[E]
) -> tuple[tuple[tuple[str, ...], ir.Place], ...]:
    """What the value of `holder = receiver.name(...)` is made of (`VALUE_FLOW_METHODS`), staged in argument
    temporaries now (the holder may be the receiver: `p = p.shared()`), bound below the holder after it is bound
    (`lower_assignment`)."""
    flow = VALUE_FLOW_METHODS.get(name)
    if holder is None or receiver is None or name not in LOAN_INHERITING_METHODS or flow is None:
        return ()
    sources: list[tuple[tuple[str, ...], ir.Place]] = []
    if flow == "value":
        sources.append(((), ir.value_place(receiver)))
    elif flow == "first":
        sources.append(((), ir.value_place(receiver, f"{ir.VALUE_ATTR}0")))
    elif flow == "tuple":
        if any(a.star or a.keyword is not None for a in call.args):
            return ()
        sources.append(((f"{ir.VALUE_ATTR}0",), ir.value_place(receiver)))
        for index, arg in enumerate(call.args, start=1):
            if arg.place is not None:
                sources.append(((f"{ir.VALUE_ATTR}{index}",), ir.value_place(arg.place)))
    parts: list[tuple[tuple[str, ...], ir.Place]] = []
    for path, source in sources:
        stage = argument_temp(sink.temp(receiver.text))
        sink.emit(ir.Bind((stage,), (ir.FromPlace(source, call.span),), call.span), call.node)
        parts.append(((ir.VALUE_ATTR, *path), stage))
    return tuple(parts)


def _each_choice(operand: Operand[E], act: Callable[[Operand[E]], None], sink: Lowering[E]) -> None:
    """`act` on the place an operand names, or on each place it may evaluate to (one `Branch` arm each)."""
    if not operand.choices:
        act(operand)
        return
    for node in operand.prelude:
        sink.lower_expr(node)
    if len(operand.choices) == 1:
        act(operand.choices[0])
        return
    arms = tuple(sink.block(lambda c=choice: act(c)) for choice in operand.choices)  # type: ignore[misc]
    sink.emit(ir.Branch(arms, operand.span))


def _aliasing_call(call: Call[E], index: int, sink: Lowering[E]) -> ir.Value:
    """`sk.as_buffer(t)`: reads `t` and evaluates to it (the same storage), not to a new object."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    target = positional[index] if index < len(positional) and len(positional) == len(call.args) else None
    for arg in call.args:
        if arg is target and arg.place is not None:
            sink.emit(ir.Use(arg.place, arg.span))
        else:
            sink.lower_expr(arg.node)
    if target is not None and target.place is not None:
        return ir.FromPlace(target.place, call.span)
    return ir.Fresh()


def _receiver(receiver: Operand[E], sink: Lowering[E]) -> None:
    if receiver.place is not None:
        sink.emit(ir.Use(receiver.place, receiver.span))
    else:
        sink.lower_expr(receiver.node)


def _call_args(call: Call[E], move_places: bool, heir: ir.Place | None, sink: Lowering[E]) -> None:
    """Lower the arguments; with `move_places` (a combinator taking ops, `MOVING_ARGUMENT_CALLS`), places are
    moved (`a.zip(b)` consumes `b`, and the zipped op inherits `b`'s loans through `heir`; `sk.zip(*ops)` of a
    container list of known length moves each of its items).  Every place is moved, device-like or not: the
    runtime takes nothing but a `DeviceOp` there, so a name the pre-pass cannot tell is one (an op a helper
    returned, an item of a dict a helper built) is one all the same.  A name handed to a function of the file whose
    launch takes it is used there (`argument_sites`: a use after move is reported inside, where the runtime raises)."""
    sites = argument_sites(call.summary) if call.summary is not None and not move_places else {}
    for arg in call.args:
        if move_places and arg.star and arg.items is not None and arg.place is None:
            places = [(item.place, item) for item in arg.items if item.place is not None]
            if len(places) != len(arg.items):
                sink.lower_expr(arg.node)  # a display with items that are no places: evaluated as written
                continue
            for place, item in places:
                sink.emit(ir.Move(place, item.span, move_help("combinator"), heir=heir), call.node)
            continue
        spread = arg.place
        if move_places and arg.star and arg.items is None and spread is None:
            values_of = getattr(sink, "values_place", None)
            spread = values_of(arg.node) if values_of is not None else None  # `*ops.values()` spreads `ops`'s
        if move_places and arg.star and arg.items is None and spread is not None and spread.attrs[-1:] != (
            ir.STORED_ATTR,
        ):
            # `sk.zip(*ops)` of a container: the ops stored in it (`store_into`) are consumed by the combinator,
            # whose op carries their loans until it runs (`heir`)
            sink.lower_expr(arg.node)
            sink.emit(ir.Move(ir.stored_item(spread), arg.span, move_help("combinator"), heir=heir), call.node)
            continue
        if move_places and (arg.place is not None or arg.choices):

            def move(a: Operand[E]) -> None:
                if a.place is not None:
                    sink.emit(ir.Move(a.place, a.span, move_help("combinator"), heir=heir), call.node)
                else:
                    sink.lower_expr(a.node)

            _each_choice(arg, move, sink)
        elif (site := sites.get(id(arg))) is not None and arg.place is not None and not arg.place.attrs:
            sink.emit(ir.Use(arg.place, arg.span, inside=site), call.node)
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


def _launch(
    call: Call[E],
    form: LaunchForm,
    kernel: KernelSignature,
    method: MethodCall[E] | None,
    holder: ir.Place | None,
    sink: Lowering[E],
) -> ir.Fresh:
    """A launch, as its `LaunchForm` says: leading arguments (brand check on the prepared launch), the unsafe
    requirement, then the kernel's arguments by parameter mode."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    leading = positional[: form.leading] if not any(a.star for a in call.args[: form.leading]) else []
    for index, arg in enumerate(leading):
        if index == form.prepared and method is not None:
            # the prepared launch, or each place it may be (`launches["add"]`, `p if flag else q`), or the value of
            # the expression (`launch_for(n)`)
            check = functools.partial(_check_brand, call, kernel.name, method.name_span, sink)
            if _items_of_unknown_key(arg):
                _check_brand_of_any(arg, check, sink)
            elif arg.place is not None or arg.choices:
                _each_choice(arg, check, sink)
            else:
                check(arg)
        else:
            sink.lower_expr(arg.node)
    if form.unsafe and method is not None:
        sink.emit(ir.RequireUnsafe(method.name, call.span), call.node)
    taken = {id(a) for a in leading}
    rest = [a for a in call.args if id(a) not in taken]
    loan_holder = holder if form.holds_loans else None
    # A `launch_async` op's value is the tuple of its arguments, the same objects (`a, b = op.sync_on(s)`).
    stages: list[ir.Place] | None = [] if loan_holder is not None and not any(a.star for a in rest) else None
    _launch_args(call, rest, kernel, form, loan_holder, sink, stages)
    if not stages:
        return ir.Fresh(form.result)
    parts = tuple(((ir.VALUE_ATTR, f"{ir.VALUE_ATTR}{i}"), stage) for i, stage in enumerate(stages))
    return ir.Fresh(form.result, parts=parts)


def _items_of_unknown_key(arg: Operand[E]) -> bool:
    """`launches[key]` of a container and a key not known here: its choices are the items that one subscript may
    read (each choice is the subscript itself), a set of objects rather than alternative paths (`p if flag else q`
    has one choice per arm)."""
    return len(arg.choices) > 1 and all(c.node is arg.choices[0].node and c.place is not None for c in arg.choices)


def _check_brand_of_any(arg: Operand[E], check: Callable[[Operand[E]], None], sink: Lowering[E]) -> None:
    """The brand check of `launches[key]` of a key not known here (`_items_of_unknown_key`): the subscript's value
    is any of the items (a temporary bound to each in one `Branch` arm), so the launch is `E0308` only when no item
    is its kernel's (the checker compares a kernel with every brand a place may hold)."""
    for node in arg.prelude:
        sink.lower_expr(node)
    first = arg.choices[0].place
    assert first is not None
    shown = first.text.rsplit("[", 1)[0] + "[...]" if first.text.endswith("]") else first.text
    tmp = sink.temp(shown)
    arms = tuple(
        sink.block(lambda c=choice: sink.emit(ir.Bind((tmp,), (ir.FromPlace(c.place, c.span),), arg.span)))  # type: ignore[misc]
        for choice in arg.choices
    )
    sink.emit(ir.Branch(arms, arg.span))
    check(replace(arg, place=tmp, choices=(), prelude=()))
    sink.emit(ir.Del(tmp, arg.span), arg.node)


def _check_brand(call: Call[E], kernel: str, callee_span: Span, sink: Lowering[E], arg: Operand[E]) -> None:
    if arg.place is not None:
        sink.emit(ir.CheckBrand(arg.place, kernel, arg.span, callee_span), call.node)
        return
    # a prepared launch passed straight from its call (`scale.launch(launch_for(n), ...)` of a helper returning
    # `axpy.prepare(...)`): the brand is the call's value's, as when it is bound to a name first
    value = sink.value(arg.node)
    if isinstance(value, ir.FromPlace):
        sink.emit(ir.CheckBrand(value.source, kernel, arg.span, callee_span), call.node)
    elif isinstance(value, ir.Fresh) and value.brand is not None:
        tmp = sink.temp("the prepared launch")
        sink.emit(ir.Bind((tmp,), (value,), arg.span))
        sink.emit(ir.CheckBrand(tmp, kernel, arg.span, callee_span), call.node)
        sink.emit(ir.Del(tmp, arg.span), arg.node)


def _launch_args(
    call: Call[E],
    args: Sequence[Operand[E]],
    kernel: KernelSignature,
    form: LaunchForm,
    holder: ir.Place | None,
    sink: Lowering[E],
    stages: list[ir.Place] | None = None,
) -> None:
    """Kernel arguments by parameter mode: tile tensors move, SIMT slices are borrowed (shared or mutable).
    With `stages`, each argument is also bound to an argument temporary appended there (the op's value items).

    Positions follow Python's binding: a `*args` display contributes its items; after a `*args` of unknown
    length, the positional arguments that follow it are the last ones (a call that binds differently raises
    `TypeError` before anything runs), so they map from the end of the parameter list; what cannot be placed
    is taken by the strongest mode it may have (a buffer that may be an output is borrowed mutably).
    """
    modes = dict(kernel.params)
    names = [name for name, _ in kernel.params]
    group = sink.next_group()
    flat: list[Operand[E]] = []
    for arg in args:
        flat.extend(arg.items if arg.star and arg.items is not None else (arg,))
    last_star = max((i for i, a in enumerate(flat) if a.star), default=-1)
    tail = [a for a in flat[last_star + 1 :] if a.keyword is None] if last_star >= 0 else []
    tail_index = {id(a): len(names) - len(tail) + j for j, a in enumerate(tail)}
    position = 0
    seen_splat = False
    taken: list[tuple[Operand[E], str]] = []  # each argument that is not a splat, with its parameter's mode
    for arg in flat:
        if arg.star:
            seen_splat = True
            continue
        if arg.keyword is not None:
            mode = modes.get(arg.keyword, ParamMode.VALUE.value) if form.keywords else ParamMode.VALUE.value
        elif id(arg) in tail_index:
            index = tail_index[id(arg)]
            mode = modes.get(names[index], ParamMode.VALUE.value) if 0 <= index < len(names) else ParamMode.VALUE
        elif seen_splat:
            mode = _strongest(modes.get(n, ParamMode.VALUE.value) for n in names[position:])
        else:
            mode = modes.get(names[position], ParamMode.VALUE.value) if position < len(names) else ParamMode.VALUE
            position += 1
        taken.append((arg, mode))
    # Python evaluates every argument before the launch takes any of them (`add(z, y, first_of(x, y))` reads `y`
    # in `first_of` before the launch moves it): what only evaluates (a splat, a call, a scalar, a condition, an
    # index) is lowered first, in order, and the moves and borrows follow
    mode_of = {id(arg): mode for arg, mode in taken}
    evaluated = {id(arg): _evaluated_first(arg, mode_of.get(id(arg)), sink) for arg in flat}
    for arg, mode in taken:
        stage = None
        if stages is not None:
            stage = argument_temp(sink.temp(arg.place.text if arg.place is not None else "value"))
            stages.append(stage)
        _launch_arg(call, evaluated[id(arg)], mode, group, holder, sink, stage)


def _evaluated_first(arg: Operand[E], mode: str | None, sink: Lowering[E]) -> Operand[E]:
    """Lower what evaluating `arg` does before the launch takes its place (a `*args` operand, an argument of a
    parameter the launch neither moves nor borrows, a choice's prelude, an expression that names no place); the
    operand left to take, with nothing more to evaluate (`Operand.evaluated`).  `mode`: its parameter's mode
    (None for a splat)."""
    if arg.star:
        sink.lower_expr(arg.node)
        return arg
    taking = mode in (ParamMode.MOVE.value, ParamMode.SHARED.value, ParamMode.MUT.value)
    if taking and mode != ParamMode.MOVE.value and arg.place is None and arg.view is None and not arg.choices:
        # `k.launch(p, s, arena.tension(), arena.sag())` of methods returning views of one buffer: the call's value
        # is what the launch borrows, as for `t = arena.tension()` passed by name
        value = sink.value(arg.node)
        if not isinstance(value, ir.FromPlace):
            return replace(arg, evaluated=True)
        temp = argument_temp(sink.temp(value.source.text))
        sink.emit(ir.Bind((temp,), (value,), arg.span))
        return replace(arg, place=temp, evaluated=True)
    if not taking or (arg.place is None and arg.view is None and not arg.choices):
        sink.lower_expr(arg.node)
        return replace(arg, evaluated=True)
    if arg.choices:
        for node in arg.prelude:
            sink.lower_expr(node)
        return replace(arg, prelude=())
    return arg


def _lower_unless_evaluated(a: Operand[E], sink: Lowering[E]) -> None:
    if not a.evaluated:
        sink.lower_expr(a.node)


def _strongest(modes: Iterable[str]) -> str:
    found = set(modes)
    for mode in (ParamMode.MOVE.value, ParamMode.MUT.value, ParamMode.SHARED.value):
        if mode in found:
            return mode
    return ParamMode.VALUE.value


def _launch_arg(
    call: Call[E],
    arg: Operand[E],
    mode: str,
    group: int,
    holder: ir.Place | None,
    sink: Lowering[E],
    stage: ir.Place | None = None,
) -> None:
    def staged(place: ir.Place | None) -> None:
        if stage is not None:
            value: ir.Value = ir.FromPlace(place, arg.span) if place is not None else ir.Fresh()
            sink.emit(ir.Bind((stage,), (value,), arg.span), call.node)

    if mode == ParamMode.MOVE.value:

        def move(a: Operand[E]) -> None:
            if a.place is not None:
                event = group if sink.dialect.launch_move_events else -1
                sink.emit(ir.Move(a.place, a.span, move_help("launch"), event=event), call.node)
            else:
                _lower_unless_evaluated(a, sink)
            staged(a.place)

        _each_choice(arg, move, sink)
        return
    if mode in (ParamMode.SHARED.value, ParamMode.MUT.value):

        def borrow(a: Operand[E]) -> None:
            place = a.place
            if place is None and a.view is not None:
                region = view_region(a.view, sink)
                if region is not None:
                    place = argument_temp(sink.temp(region[0].text))
                    sink.emit(ir.View(place, region[0], region[1], a.span))
            if place is not None:
                sink.emit(ir.Borrow(place, mode == ParamMode.MUT.value, group, a.span, holder), call.node)
            else:
                _lower_unless_evaluated(a, sink)
            staged(place)

        _each_choice(arg, borrow, sink)
        return
    _lower_unless_evaluated(arg, sink)
    staged(None)


# --- assignment -------------------------------------------------------------------------------------------------


def returned_parts_value(value: ir.Value) -> bool:
    """Whether `value` is the tuple a call of a function with `CallSummary.returned_parts` gives (`_yielded_value`):
    a new value made of parts `$.$0`, `$.$1`..., each a staging temporary."""
    return (
        isinstance(value, ir.Fresh) and value.kind == "value" and bool(value.parts)
        and all(path == (ir.VALUE_ATTR, f"{ir.VALUE_ATTR}{i}") for i, (path, _) in enumerate(value.parts))
    )


def unpack_parts(target: UnpackTarget[E], value: ir.Fresh, span: Span, sink: Lowering[E]) -> None:
    """`out, pending = value` of a tuple whose parts are staging temporaries (`_yielded_value`: a generator's item,
    a returned tuple): each name of the target takes its part, then the temporaries are dropped (the op a part is
    stays reachable through its name, its loans lasting).  A part the value does not have is a new value."""
    staged = dict(value.parts)
    for index, item in enumerate(target.items):
        stage = staged.get((ir.VALUE_ATTR, f"{ir.VALUE_ATTR}{index}"))
        if stage is not None and stage.display == YIELDED_OP and isinstance(item, PlaceTarget):
            # the op's loans pass to the name (a new op there), as a consuming call's op inherits them
            sink.emit(ir.Move(stage, span, heir=item.place))
            bind_target(item, ir.Fresh("op"), sink)
            continue
        bind_target(item, ir.FromPlace(stage, span) if stage is not None else ir.Fresh(), sink)
        if stage is not None and isinstance(item, PlaceTarget):
            _mark_device_from(stage, item.place, sink)  # the buffer an op of the tuple borrows
    for stage in staged.values():
        sink.emit(ir.Del(stage, span))


def bind_target(target: Target[E], value: ir.Value, sink: Lowering[E]) -> None:
    """`target := value`; unpacked items each get a fresh object (the analysis does not track tuple contents),
    except when unpacking an op's value (`a, b = op.sync_on(s)`): item `i` is the value's item `i`, and a tuple a
    call returns whose parts are known (`returned_parts_value`): item `i` is part `i`."""
    if isinstance(target, UnpackTarget) and not target.starred and returned_parts_value(value):
        assert isinstance(value, ir.Fresh)
        unpack_parts(target, value, target.span, sink)
        return
    if isinstance(target, UnpackTarget):
        # unpacking a place unpacks its value's items: parts a call's returned tuple gave it (`for out, op in jobs`
        # of `jobs = [pricer.start(x, k) for k in (1.0, 2.0)]`); a value path never bound is a new object
        whole = value if isinstance(value, ir.FromPlace) and ir.is_value_path(value.source) else (
            ir.FromPlace(ir.value_place(value.source), value.span) if isinstance(value, ir.FromPlace) else None
        )
        taken = _taken_container(value) if not target.starred else None
        for index, item in enumerate(target.items):
            if taken is not None:
                # `_, _, best = heapq.heappop(heap)`: each name takes its part of the stored displays (`take_from`)
                source = ir.taken_item(taken, index, len(target.items))
                bind_target(item, ir.FromPlace(source, _items_span(target)), sink)
            elif whole is not None and not target.starred:
                source = ir.item_place(whole.source, index)
                bind_target(item, ir.FromPlace(source, whole.span), sink)
                if isinstance(item, PlaceTarget):
                    _mark_device_from(source, item.place, sink)
            else:
                bind_target(item, ir.Fresh(), sink)
    elif isinstance(target, StarTarget):
        bind_target(target.inner, ir.Fresh(), sink)
    elif isinstance(target, PlaceTarget):
        if target.root_span is not None:
            sink.emit(ir.Use(ir.Place(target.place.root, (), None), target.root_span))
        sink.emit(ir.Bind((target.place,), (value,), target.span))
        if isinstance(value, ir.Fresh) and value.parts:
            _bind_parts(target.place, value.parts, target.span, sink)
        if is_peeked(target.place, sink):  # `self.free = deque(...)`: a peek after it is another object
            sink.emit(forget_peeked(target.place, target.span))
    else:
        sink.lower_expr(target.node)
        if isinstance(target, OtherTarget) and target.container is not None and target.span is not None:
            if is_peeked(target.container, sink):  # `self.free[0] = buf`
                sink.emit(forget_peeked(target.container, target.span))
            if target.item is not None:  # `state["x"], _ = k(state["x"]).sync_on(s)`: the item is rebound
                sink.emit(ir.Bind((target.item,), (value,), target.span))


def _items_span(target: UnpackTarget[E]) -> Span:
    """An unpacking target's span from its first item to its last: the same in both front ends (mypy's span of a
    parenthesized target `(_, i, beam)` includes the parentheses, Python's `ast` does not)."""
    first, last = target.items[0], target.items[-1]
    if isinstance(first, StarTarget) or isinstance(last, StarTarget) or first.span is None or last.span is None:
        return target.span
    return Span(first.span.line, first.span.column, last.span.end_line, last.span.end_column)


def _taken_container(value: ir.Value) -> ir.Place | None:
    """The container a whole item is taken from (`take_from`'s value), else None."""
    if isinstance(value, ir.FromPlace) and value.source.attrs and value.source.attrs[-1] == ir.TAKEN_PREFIX + ">":
        return ir.Place(value.source.root, value.source.attrs[:-1], value.source.display)
    return None


def _mark_device_from(source: ir.Place, target: ir.Place, sink: Lowering[E]) -> None:
    """`target` now refers to what `source` does: a device value there is one here (the buffer an op of a stored
    tuple borrows: `out.partition(...)` of `for out, op in jobs` moves it)."""
    device = getattr(sink, "is_device_text", None)
    mark = getattr(sink, "mark_device", None)
    if device is not None and mark is not None and device(source.key):
        mark(target)


def _bind_parts(
    held: ir.Place, parts: tuple[tuple[tuple[str, ...], ir.Place], ...], span: Span, sink: Lowering[E]
) -> None:
    """Bind what a new object is made of below the place it was just bound to (`Fresh.parts`): an op's value items
    (`p.$.$0`) or a constructed object's fields (`outs.lo`); a field's staging temporary is then dropped, so the
    object it held is reachable through the field alone (a pending op it is stays pending while the field does)."""
    for path, stage in parts:
        shown = held.display
        if shown is not None and not path[0].startswith(ir.VALUE_ATTR):
            shown = ".".join((shown, *path))
        part = ir.Place(held.root, (*held.attrs, *path), shown)
        if stage.display == YIELDED_OP:
            # the pending op part of a returned tuple: its loans pass to the part (`unpack_parts`)
            sink.emit(ir.Move(stage, span, heir=part))
            sink.emit(ir.Bind((part,), (ir.Fresh("op"),), span))
        else:
            sink.emit(ir.Bind((part,), (ir.FromPlace(stage, span),), span))
        _mark_device_from(stage, part, sink)
    for _, stage in parts:
        if not stage.root.startswith(ir.ARGUMENT_TEMP_PREFIX):
            sink.emit(ir.Del(stage, span))


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
    if isinstance(single, UnpackTarget) and assignment.repeated is not None:
        if _unpack_repeated(single, assignment.repeated, sink):
            return
    items = assignment.items
    elements = assignment.elements
    count = len(items) if items is not None else len(elements) if elements is not None else None
    picks = _unpacked(single, count) if isinstance(single, UnpackTarget) and count is not None else None
    if isinstance(single, UnpackTarget) and picks is not None:
        if items is not None:
            values = [sink.value(item) for item in items]
        else:
            assert elements is not None
            sink.lower_expr(assignment.value)
            values = [ir.FromPlace(element, single.span) for element in elements]
        taken = {index for index in picks if index is not None}
        for index, value in enumerate(values):
            if items is not None and index not in taken and isinstance(value, ir.FromPlace):
                sink.emit(ir.Use(value.source, value.span))  # a display item the starred target collects: a read
        picked = [values[index] if index is not None else ir.Fresh() for index in picks]
        places = [item.place if isinstance(item, PlaceTarget) else None for item in single.items]
        pairs = [(p, v) for p, v in zip(places, picked, strict=True) if p is not None]
        if pairs:
            sink.emit(ir.Bind(tuple(p for p, _ in pairs), tuple(v for _, v in pairs), single.span))
        for place, item in zip(places, single.items, strict=True):
            if place is None:
                bind_target(item, ir.Fresh(), sink)
        collected = [value for index, value in enumerate(values) if index not in taken]
        stars = assignment.star_elements
        if stars is not None and collected and len(collected) <= len(stars):
            # the starred target's new list holds the values it collects, in order (`rest[0]` of `_, *rest = a, b`)
            rest = [ir.Fresh() for _ in stars[len(collected) :]]
            sink.emit(ir.Bind(stars, (*collected, *rest), single.span))
        return
    if isinstance(single, OtherTarget) and single.container is not None and single.span is not None:
        # `jobs[k] = k.launch_async(...)` / `jobs[k] = op`: the container keeps the op
        value = store_into(single.container, assignment.value, single.span, sink, item=single.item)
        bind_target(replace(single, item=None), value, sink)
        return
    # the target holds a pending op's loans, whether a name or an attribute (`self.op = k.launch_async(...)`)
    holder = single.place if isinstance(single, PlaceTarget) else None
    if single is None:
        # `a = b = sk.zeros(...)`: one object, bound to `a` (which holds a pending DeviceOp's loans), then
        # aliased by every later target.
        first = next((t for t in targets if isinstance(t, PlaceTarget)), None)
        if first is not None:
            value = sink.value(assignment.value, first.place)
            later = False
            for target in targets:
                bind_target(target, ir.FromPlace(first.place, first.span) if later else value, sink)
                later = later or target is first
            return
    value = sink.value(assignment.value, holder)
    for target in targets:
        bind_target(target, value, sink)  # a target given the new object also gets what it is made of
    if holder is not None and assignment.selects is not None:
        # `leaders = heapq.nsmallest(3, heap)`: the new list holds the heap's stored tuples (the checker copies
        # their parts with the stored items)
        span = single.span if isinstance(single, PlaceTarget) else _NO_SPAN
        selected = ir.FromPlace(ir.stored_item(assignment.selects), span)
        sink.emit(ir.Bind((ir.stored_item(holder),), (selected,), span))
    if holder is not None and not holder.attrs and isinstance(single, PlaceTarget) and must_use(value):
        sink.emit(ir.Produce(holder, single.span, built=value.built), assignment.value)


#: Methods that store one of their arguments into their receiver (a list, dict or deque): the position of the
#: stored argument.  A pending op stored so is kept by the receiver (`store_into`).  Methods that take items out
#: (-1): the ops the receiver kept are no longer its own (`jobs.pop(k).sync_on(s)` runs one; the checker does not
#: follow which, so none counts as kept from there on).
STORING_METHODS: Final[dict[str, int]] = {
    "append": 0,
    "appendleft": 0,
    "insert": 1,
    "setdefault": 1,
    "put": 0,  # queue.Queue / LifoQueue / PriorityQueue / SimpleQueue / asyncio.Queue
    "put_nowait": 0,
    "pop": -1,
    "popitem": -1,
    "popleft": -1,
    "clear": -1,
}


#: The `STORING_METHODS` of a queue, whose items a taking method gives back (`TAKING_METHODS`).
_QUEUE_STORES: Final[frozenset[str]] = frozenset({"put", "put_nowait"})

#: Methods that give an item they take out of their receiver (a queue: `q.get()`, `q.get_nowait()`), called with
#: no positional argument (`dict.get(k)` always has one) and no keyword but these: the result is one of the items
#: stored into the receiver (`take_from`).
TAKING_METHODS: Final[frozenset[str]] = frozenset({"get", "get_nowait"})
_TAKING_KEYWORDS: Final[frozenset[str]] = frozenset({"block", "timeout"})


def take_from(container: ir.Place, span: Span) -> ir.FromPlace:
    """What a call taking an item out of `container` gives (`q.get()`, `heapq.heappop(heap)`): the item read from
    `ir.taken_item(container)`, which the checker evaluates where the value is bound (an assignment's target, an
    argument's temporary) to one of the stored items not known to be moved there; bound to an unpacking target of
    `n` names, name `i` takes part `i` of the `n`-item displays stored (`bind_target`)."""
    return ir.FromPlace(ir.taken_item(container), span)


def _taking_receiver(call: Call[E], method: MethodCall[E]) -> ir.Place | None:
    """The receiver place a `TAKING_METHODS` call (`q.get()`) takes an item out of, else None."""
    if (
        method.name not in TAKING_METHODS
        or call.summary is not None
        or method.receiver.place is None
        or method.receiver_is_safekernels
        or method.receiver_kernel is not None
        or any(arg.keyword is None or arg.star or arg.keyword not in _TAKING_KEYWORDS for arg in call.args)
    ):
        return None
    return method.receiver.place


def _container_call(call: Call[E], flow: ContainerFlow, sink: Lowering[E]) -> ir.Value | None:
    """`heapq.heappush(heap, x)` / `heapq.heappop(heap)` / `heappushpop` / `heapreplace` (`ContainerFlow`) of a
    container place: its operands in order, the store (`store_into`), and the item it takes (`take_from`); None
    (nothing lowered) for another form (a starred or keyword operand, a container that is no place)."""
    needed = max(flow.container, -1 if flow.stores is None else flow.stores)
    if len(call.args) <= needed or any(arg.star or arg.keyword is not None for arg in call.args):
        return None
    container = call.args[flow.container].place
    if container is None:
        return None
    sink.lower_expr(call.callee)
    taken: ir.Value | None = None
    if flow.takes and flow.take_first and flow.stores is not None:
        # `heapreplace`: the item is taken before the new one is pushed, so it is taken from a copy of the stored
        # items made first (`ir.replaced_items`: what the copy gives counts as given by the container), which
        # keeps the parts an unpacking target takes (`_, _, got = heapq.heapreplace(heap, item)`)
        snapshot = ir.replaced_items(container)
        held = ir.FromPlace(ir.stored_item(container), call.span)
        sink.emit(ir.Bind((ir.stored_item(snapshot),), (held,), call.span), call.node)
        taken = take_from(snapshot, call.span)
    for index, arg in enumerate(call.args):
        if index == flow.container:
            sink.emit(ir.Use(container, arg.span), call.node)
        elif index == flow.stores:
            store_into(container, arg.node, arg.span, sink, marks=True)
        else:
            sink.lower_expr(arg.node)
    if not flow.takes:
        return ir.Fresh()
    return taken if taken is not None else take_from(container, call.span)


def returned_result(result: ir.Value, span: Span, sink: Lowering[E]) -> None:
    """`return <call>` whose call made a lazy op (a launch, `sk.zip(...)`, `op.then(f)`, `op.first()`): the op is
    bound to `ir.RETURNED_OP`, where the summary reads that every `return` gives an op that must be used
    (`CallSummary.returns_op`: dropping the call's result is W0003 at the caller, as for a launch)."""
    if isinstance(result, ir.Fresh) and result.kind == "op":
        sink.emit(ir.Bind((ir.Place(ir.RETURNED_OP),), (result,), span))


def return_name(place: ir.Place, span: Span, sink: Lowering[E]) -> None:
    """`return op` of a name: the returned object is bound to the return holder (`ir.RETURN_HOLDER`), so a pending
    op the name refers to (`op = k.launch_async(...)`, then `await asyncio.sleep(0)`, then `return op`) keeps its
    loans for the caller (the summary's `returned_loans`), as `return k.launch_async(...)` does."""
    sink.emit(ir.Bind((ir.Place(ir.RETURN_HOLDER),), (ir.FromPlace(place, span),), span))


def drained_by_loop(test: ir.Place | None, span: Span, sink: Lowering[E]) -> None:
    """`while pending:` over a container place falls out through its test only once the container is empty
    (`pending.pop(0).sync_on(stream)` in the body took every op out): the loop's `else` path starts with what the
    container kept forgotten, as `pending.clear()` forgets it (`ir.stored_item`), so the loans of those ops end
    there and not on the paths that leave by `break`; so do the parts of the tuples it kept (`pending.append((name,
    op))`, `ir.stored_part`: the part of any index, which the checker's `delete` reads as every part)."""
    if test is not None:
        sink.emit(ir.Del(ir.stored_item(test), span))
        sink.emit(ir.Del(ir.stored_part(test, None, 0), span))


def store_into(
    container: ir.Place,
    node: E,
    span: Span,
    sink: Lowering[E],
    part: tuple[int, int] | None = None,
    marks: bool = False,
    item: ir.Place | None = None,
) -> ir.Value:
    """`node` evaluated as a value stored into `container` (`jobs[k] = node`, `ops.append(node)`): a pending op it
    gives (`k.launch_async(...)` built right there, or the op a name refers to) is also bound below the container
    (`ir.stored_item`), so its loans last while the container is live, as the runtime keeps them while the op is
    reachable through it.  Any other value is bound there too and keeps nothing (only ops hold loans).  Returns the
    value, for the store itself.

    For a taking call (`take_from`) unpacked into names, the value is also kept as its part: `part` (item `i` of
    an `n`-item display, `stored_display`) at `ir.stored_part(container, i, n)`; with `marks` (a queue's or a
    heap's store, `q.put(x)`), a value that is no display at the part `<stored *>`, after which no part is known
    (a take gives any stored item), as for a display nested in a display."""
    kept = ir.stored_item(container)
    value = sink.value(node, kept)
    display = value is _STORED_DISPLAY
    where: ir.Place | None = None
    if part is not None:
        where = ir.stored_part(container, None, 0) if display else ir.stored_part(container, *part)
    elif marks and not display:
        where = ir.stored_part(container, None, 0)
    op = isinstance(value, ir.Fresh) and (value.kind in MUST_USE_KINDS or bool(value.parts))
    if item is not None:  # the item under a literal key (`OtherTarget.item`); a pending op stays the container's
        sink.emit(ir.Bind((item,), (ir.Fresh() if op else value,), span))
    if op or isinstance(value, ir.FromPlace):
        bind_target(PlaceTarget(kept, span), value, sink)
        if where is not None:
            # a name's object is that part itself; an op built here is any of the items kept (its loans stay there)
            source = value.source if isinstance(value, ir.FromPlace) else kept
            sink.emit(ir.Bind((where,), (ir.FromPlace(source, span),), span))
        return ir.FromPlace(kept, span)
    if where is not None:
        sink.emit(ir.Bind((where,), (ir.Fresh(),), span))
    return value


#: What `stored_display` gives (compared by identity): the stored value was a display, whose items `store_into`
#: kept as parts.
_STORED_DISPLAY: Final[ir.Fresh] = ir.Fresh()


def stored_display(
    items: Sequence[tuple[E, Span]], holder: ir.Place | None, sink: Lowering[E]
) -> ir.Value | None:
    """A tuple or list display (its `items`, each with its span) evaluated as a value stored into a container
    (`holder` the container's `ir.stored_item`, as `store_into` lowers the stored value):
    `pending.append((k.launch_async(...), out))` keeps the op inside the tuple reachable through the container, as
    the runtime does, so each item is stored into the container as well (its loans last while the container is
    live).  Returns the display's new value, or None when `holder` is no container's stored items (the front end
    lowers the display as usual)."""
    if holder is None or not holder.attrs or holder.attrs[-1] != ir.STORED_ATTR:
        return None
    container = ir.Place(holder.root, holder.attrs[:-1])
    for index, (item, span) in enumerate(items):
        store_into(container, item, span, sink, (index, len(items)))
    return _STORED_DISPLAY


def staged_display(items: Sequence[tuple[E, Span]], holder: ir.Place | None, span: Span, sink: Lowering[E]) -> (
    ir.Value | None
):
    """A list, set or dict display of calls bound to a name the front end does not follow item by item
    (`pending = {"returns": k.launch_async(...)}`, drained later by `pending.pop(name)`): built as a comprehension
    is (`comprehension_stage`), each item stored into the container (`store_comprehension_item`), so a pending op
    in it keeps its loans while the container is live, as the runtime keeps the op reachable through it, until
    running or taking out its items ends them.  `items`: the display's items (a dict's values), each with its
    span.  None when `holder` names nothing that keeps the container (the front end lowers the display as usual)."""
    stage = comprehension_stage(holder, span, sink)
    if stage is None:
        return None
    for item, item_span in items:
        store_comprehension_item(stage, item, item_span, sink)
    return kept_comprehension(stage)


def comprehension_stage(holder: ir.Place | None, span: Span, sink: Lowering[E]) -> ir.Place | None:
    """Where a list, set or dict comprehension bound to `holder` (`ops = [k.launch_async(prepared, x, acc) for x
    in inputs]`, `jobs = {n: k.launch_async(...) for ...}`) keeps what each iteration builds while it runs: a
    temporary container, whose stored items (`ir.stored_item`, each iteration's value stored by
    `store_comprehension_item`) become the built container's (`kept_comprehension`), as the runtime keeps every
    op the comprehension built reachable through the container: their loans last while it is live, and running
    its ops (`for op in ops: op.sync_on(s)`, `sk.zip(*ops)`) ends them, as for ops appended in a loop.  A returned
    comprehension (`return [k.launch_async(p, x, out) for ...]`) is staged too: each iteration's op is pending
    while the next is built.  None when nothing keeps the result under a name (a temporary, a container's stored
    items: the comprehension is lowered as usual)."""
    if holder is None or ir.is_value_path(holder) or ir.STORED_ATTR in holder.attrs:
        return None
    if holder.root.startswith("$") and holder.root != ir.RETURN_HOLDER:
        return None
    stage = sink.temp(holder.text)
    # a new container each time the comprehension runs (in a loop, the temporary's name is reused): what an earlier
    # run stored, or an unknown object a join gave the name, is not among its items
    sink.emit(ir.Bind((stage,), (ir.Fresh(),), span))
    sink.emit(ir.Bind((ir.stored_item(stage),), (ir.Fresh(),), span))
    return stage


def store_comprehension_item(stage: ir.Place, node: E, span: Span, sink: Lowering[E]) -> None:
    """One iteration's value of a comprehension staged at `stage` (`comprehension_stage`): a pending op it gives
    (also inside a tuple display, `(k.launch_async(...), out)`: `stored_display`), or an object built holding one
    (a field, a kept argument), is stored into the stage; anything else (a place, read as an expression statement
    reads it; an op's value, `op.sync_on(s)`, which holds no loan) is evaluated and kept nowhere."""
    kept = ir.stored_item(stage)
    value = sink.value(node, kept)
    if returned_parts_value(value):
        assert isinstance(value, ir.Fresh)
        store_parts(stage, value, span, sink)
    elif isinstance(value, ir.FromPlace):
        if not ir.is_value_path(value.source):
            sink.emit(ir.Use(value.source, value.span))
    elif isinstance(value, ir.Fresh) and (
        value.kind in MUST_USE_KINDS or any(not path[0].startswith(ir.VALUE_ATTR) for path, _ in value.parts)
    ):
        bind_target(PlaceTarget(kept, span), value, sink)


def store_parts(container: ir.Place, value: ir.Fresh, span: Span, sink: Lowering[E]) -> None:
    """A tuple a call returns whose parts are staging temporaries (`returned_parts_value`: `pricer.start(x, k)`
    returning `payoffs, k.launch_async(..., payoffs)`) stored into a container (`[pricer.start(x, k) for k in
    strikes]`): each part is kept as the container's part `i` of `n`, as `stored_display` keeps a display's items,
    and an op among them passes its loans to the container's stored items (they last while it is live, until a
    loop takes the op out and runs it); the temporaries are then dropped."""
    staged = dict(value.parts)
    kept = ir.stored_item(container)
    for index in range(len(staged)):
        stage = staged[(ir.VALUE_ATTR, f"{ir.VALUE_ATTR}{index}")]
        where = ir.stored_part(container, index, len(staged))
        if stage.display == YIELDED_OP:
            sink.emit(ir.Move(stage, span, heir=kept))
            bind_target(PlaceTarget(kept, span), ir.Fresh("op"), sink)
            sink.emit(ir.Bind((where,), (ir.FromPlace(kept, span),), span))
        else:
            sink.emit(ir.Bind((where,), (ir.FromPlace(stage, span),), span))
    for stage in staged.values():
        sink.emit(ir.Del(stage, span))


def kept_comprehension(stage: ir.Place) -> ir.Value:
    """The container a comprehension staged at `stage` builds: a new object whose stored items are the stage's
    (bound below the target by `bind_target`, the stage then dropped)."""
    return ir.Fresh(parts=(((ir.STORED_ATTR,), ir.stored_item(stage)),))


#: The methods taking out, and giving, one item of a container held in an attribute (`self.slots.pop(rid)`).
_ATTRIBUTE_TAKES: Final[frozenset[str]] = frozenset({"pop"})


def _takes_attribute_item(name: str, keeper: ir.Place, holder: ir.Place | None) -> bool:
    """Whether `name` called on `keeper` gives an item stored into it, bound to the name `holder`: `pop` of a
    container held in an attribute (`slot = self.slots.pop(rid)`), which may be any object stored into it, here or,
    in a method, by another method of the class (`init_state.method_start`), not a new value.  A local container's
    `pop` keeps giving a new value (its items under literal keys are followed by `Container`)."""
    return (
        name in _ATTRIBUTE_TAKES
        and bool(keeper.attrs)
        and ir.STORED_ATTR not in keeper.attrs
        and holder is not None
        and not holder.attrs
        and not holder.root.startswith("$")
    )


def _stored_argument(call: Call[E], method: MethodCall[E]) -> int | None:
    """The index of the argument `receiver.append(x)` (`STORING_METHODS`) stores into a receiver that is a place of
    the caller's (not a safekernels value, not a module class's object, whose method has its own summary)."""
    index = STORING_METHODS.get(method.name)
    if (
        index is None
        or call.summary is not None
        or (method.receiver.place is None and method.receiver_container is None)
        or method.receiver_is_safekernels
        or method.receiver_kernel is not None
        or len(call.args) <= index
        or (index >= 0 and any(arg.star or arg.keyword is not None for arg in call.args))
    ):
        return None
    return index


def _unpack_repeated(target: UnpackTarget[E], repeated: RepeatedDisplay[E], sink: Lowering[E]) -> bool:
    """`m, v = [sk.zeros(...)] * 2`, `a, b, c, d = [x, y] * n`: each display item is evaluated once, in order, and
    every target whose index the repetition fills with that item is bound to that very object (repetition copies
    references), so `m` and `v` are one buffer.  Of a repetition whose count is not known here, item `i` is
    `items[i % len(items)]` when the unpacking succeeds at all.  False (nothing lowered) for a starred target or a
    length that cannot unpack."""
    if target.starred or not repeated.items:
        return False
    count = len(target.items)
    order = repeated.order if repeated.counted else tuple(i % len(repeated.items) for i in range(count))
    if len(order) != count:
        return False
    span = target.span
    held: list[ir.Value] = []
    temps: list[ir.Place] = []
    for item in repeated.items:
        value = sink.value(item)
        if isinstance(value, ir.FromPlace):
            held.append(value)
            continue
        tmp = sink.temp("the repeated item")
        sink.emit(ir.Bind((tmp,), (value,), span))
        temps.append(tmp)
        held.append(ir.FromPlace(tmp, span))
    places = [item.place if isinstance(item, PlaceTarget) else None for item in target.items]
    pairs = [(p, held[which]) for p, which in zip(places, order, strict=True) if p is not None]
    if pairs:
        sink.emit(ir.Bind(tuple(p for p, _ in pairs), tuple(v for _, v in pairs), span))
    for place, part in zip(places, target.items, strict=True):
        if place is None:
            bind_target(part, ir.Fresh(), sink)
    for tmp in temps:
        sink.emit(ir.Del(tmp, span))
    return True


def _unpacked(target: UnpackTarget[E], count: int) -> list[int | None] | None:
    """Which of `count` unpacked values each item of `target` takes (None for the starred item, which collects the
    middle ones into a new list), or None when the counts cannot match (the runtime raises `ValueError`)."""
    stars = [i for i, item in enumerate(target.items) if isinstance(item, StarTarget)]
    if not stars:
        return list(range(count)) if len(target.items) == count else None
    if len(stars) != 1 or count < len(target.items) - 1:
        return None
    star = stars[0]
    after = len(target.items) - star - 1
    return [*range(star), None, *range(count - after, count)]


#: Calls that build a sequence of their one operand's items in order: `deque([a, c])` is a container as the list
#: display `[a, c]` is (by qualified name).
SEQUENCE_CONSTRUCTORS: Final[frozenset[str]] = frozenset({"collections.deque"})

#: Methods that reorder a sequence in place and keep its items (`deque.rotate`, `list.reverse`): the element places
#: of a container of places are rebound to the items the reordering moves there (`reordering_arms`).
REORDERING_METHODS: Final[frozenset[str]] = frozenset({"rotate", "reverse"})


def reordering_arms(name: str, length: int, args: int, first_int: int | None) -> tuple[tuple[int, ...], ...] | None:
    """The orders a reordering method may leave a sequence of `length` items in: for each arm, which old item each
    position holds.  `rotate(k)` of a literal `k` (1 without an argument) moves item `i` to `(i + k) % length`; of a
    computed `k`, any rotation (one arm each); `reverse()` reverses.  None for anything else."""
    if name not in REORDERING_METHODS or length == 0:
        return None
    if name == "reverse":
        return (tuple(range(length - 1, -1, -1)),) if args == 0 else None
    if args > 1:
        return None
    steps = [1] if args == 0 else [first_int] if first_int is not None else list(range(length))
    return tuple(tuple((i - k) % length for i in range(length)) for k in steps)


#: The methods of a bounded deque that add one item at one end, dropping the one at the other end once it is full
#: (`ring_shift`); of a container that is not such a deque, they change it in place (`MUTATING_CONTAINER_METHODS`).
RING_STORES: Final[frozenset[str]] = frozenset({"append", "appendleft"})


def deque_bound(items: int, keywords: Sequence[tuple[str | None, int | None]]) -> bool | None:
    """How `deque(display, **keywords)` of a display of `items` items keeps them at their indices: False without a
    keyword (unbounded: a container of places, `SEQUENCE_CONSTRUCTORS`), True for `maxlen=n` with `n` the
    display's length (a ring: full from the start, so `append(x)` drops item 0 and `appendleft(x)` the last item,
    `ring_shift`), None for any other form (a larger bound lets an append grow it, a smaller one drops items at
    once: not followed as a container)."""
    if not keywords:
        return False
    if items > 0 and len(keywords) == 1 and keywords[0] == ("maxlen", items):
        return True
    return None


def ring_shift(method: MethodCall[E], args: int, added: ir.Value | None, span: Span) -> ir.Bind | None:
    """`history.append(x)` / `history.appendleft(x)` of a ring (`MethodCall.receiver_ring`: `history =
    deque([a, b], maxlen=2)`): the item at the other end is dropped and every other moves one index, so the
    element places are rebound in one parallel `Bind` (`history[0]` is `b` and `history[1]` is `x` after
    `append(x)`), as the runtime's deque does; `added` is what was stored (`store_into`).  None for another call."""
    places = method.receiver_elements
    if not method.receiver_ring or not places or method.name not in RING_STORES or args != 1 or added is None:
        return None
    if method.name == "append":
        values = (*(ir.FromPlace(p, span) for p in places[1:]), added)
    else:
        values = (added, *(ir.FromPlace(p, span) for p in places[:-1]))
    return ir.Bind(places, tuple(values), span)


#: A key of a container display: an index of a tuple/list display, a literal key of a dict display.
ContainerKey: TypeAlias = "int | str"

#: Methods of `list` and `dict` that change a container in place: after one, its items are no longer what a
#: display bound (`bufs["out"] = c`, `bufs.update(...)`), so such a name is no container of places.
MUTATING_CONTAINER_METHODS: Final[frozenset[str]] = frozenset(
    {
        "append", "extend", "insert", "remove", "pop", "clear", "sort", "appendleft", "extendleft", "popleft",
        "update", "setdefault", "popitem", "__setitem__", "__delitem__", "__iadd__", "__ior__",
    }
)

#: Functions of safekernels whose every call makes a new buffer or tensor (`sk.zeros(n, f32, s)`,
#: `tile.from_numpy(a)`): a helper returning one of them or a parameter gives the argument or a new object.
ALLOCATING_FUNCTIONS: Final[frozenset[str]] = frozenset(
    {"zeros", "empty", "ones", "full", "to_device", "zeros_like", "empty_like", "ones_like", "from_numpy", "arange"}
)

#: Builtins a method may call without changing its receiver (`sk.zeros(len(self), f32, s)` in a getter: `len`
#: calls the object's `__len__`, which reads), unlike any other call, which may change anything.
READING_BUILTINS: Final[frozenset[str]] = frozenset(
    {"len", "min", "max", "abs", "int", "float", "bool", "round", "isinstance"}
)

#: What a helper's returned parameters include when one of its `return`s gives a new buffer (no name is spelled so).
NEW_VALUE: Final[str] = "<new>"


def allocating(qualified: str | None) -> bool:
    """Whether a callee's qualified name (`safekernels.runtime.buffer.zeros`) is one of `ALLOCATING_FUNCTIONS`."""
    return (
        qualified is not None
        and qualified.startswith("safekernels.")
        and qualified.rsplit(".", 1)[-1] in ALLOCATING_FUNCTIONS
    )


#: The one key of a mapping whose every value is one object (`dict.fromkeys(ids, buf)`, a `filled` entry of
#: `stdlib_flow`): a lookup under any key finds its item (`Container.indices` gives a one-item container's item for
#: any key; `stdlib_flow.keyed_entry`, `captured_item` match it).  No literal of a program is spelled so.
FILLED_KEY: Final[str] = "<any key>"

#: The most items a container of places keeps (a wider display's items are new values).
MAX_CONTAINER_ITEMS: Final[int] = 16


@dataclass(frozen=True)
class Container:
    """A local name only ever bound to displays and never changed in place: `pair = (a, c)` (a sequence: keys
    `0..n-1`, the widest display's) or `bufs = {"lhs": a, "out": c}` (a mapping: the literal keys of its
    displays, in order).  A subscript of it with a literal key evaluates to the item bound there."""

    keys: tuple[ContainerKey, ...]
    mapping: bool
    # items that are tuple/list displays themselves in every binding, each of one length: (item index, length);
    # `cfg = {"inputs": (a, b)}` makes `cfg["inputs"]` a sequence container of its own (`nested`)
    inner: tuple[tuple[int, int], ...] = ()

    def indices(self, literal: ContainerKey | None) -> list[int]:
        """The items `name[literal]` may evaluate to: the one under a literal key (a sequence's negative index
        counts from its end), else any item."""
        if literal is not None:
            if self.mapping:
                if literal in self.keys:
                    return [self.keys.index(literal)]
            elif isinstance(literal, int) and -len(self.keys) <= literal < len(self.keys):
                return [literal % len(self.keys)]
        return list(range(len(self.keys)))


def find_container(
    displays: Sequence[tuple[tuple[ContainerKey, ...], bool] | None], grown: Sequence[int] = ()
) -> Container | None:
    """The container a name is, from each of its bindings' display keys and kind (None: a binding that is not a
    display); None when it is no container (a binding that is no display, sequences and mappings mixed, no item,
    too many items).  `grown`: the lengths a list's bindings reach through `append`/`extend` statements that follow
    them in one statement list (`bufs = []`, `bufs.append(a)`: one item)."""
    present = [d for d in displays if d is not None]
    if not present or len(present) != len(displays):
        return None
    kinds = {mapping for _, mapping in present}
    if len(kinds) != 1:
        return None
    mapping = kinds.pop()
    keys: list[ContainerKey] = []
    if mapping:
        for display_keys, _ in present:
            keys.extend(k for k in display_keys if k not in keys)
    else:
        keys = list(range(max(*(len(display_keys) for display_keys, _ in present), *grown, 0)))
    if not 0 < len(keys) <= MAX_CONTAINER_ITEMS:
        return None
    return Container(tuple(keys), mapping)


def stored_element(container: Container, literal: ContainerKey | None) -> int | None:
    """The item a store `name[literal] = value` replaces (a strong update, as the runtime does: from there on the
    item under that key is the stored value, and the name stays a container): a mapping's literal key among its
    keys, a sequence's literal index in range.  None for a computed key or a key the container does not hold (the
    front ends then stop treating the name as a container: the store's item is not known)."""
    if literal is None:
        return None
    if container.mapping:
        return container.keys.index(literal) if literal in container.keys else None
    if isinstance(literal, int) and -len(container.keys) <= literal < len(container.keys):
        return literal % len(container.keys)
    return None


def comprehension_keys(
    keyed_by_target: bool, iterated: Sequence[ContainerKey | None] | None
) -> tuple[ContainerKey, ...] | None:
    """The keys a dict comprehension over literal keys builds, in order (`{name: make(name) for name in "qkv"}`,
    also over a tuple/list display of them): a mapping container whose keys and order are known, so `.items()` and
    `.values()` of it take its items in order.  None unless the comprehension's key is its loop target itself
    (`keyed_by_target`) and every item it iterates is a literal key (a repeated key keeps its first place)."""
    if not keyed_by_target or iterated is None:
        return None
    known = [key for key in iterated if key is not None]
    if len(known) != len(iterated):
        return None
    keys = tuple(dict.fromkeys(known))
    return keys if 0 < len(keys) <= MAX_CONTAINER_ITEMS else None


def keeps_stores(container: Container, literals: Sequence[ContainerKey]) -> bool:
    """Whether `container` stays one with the literal-key stores `literals` into its name (`stored_element`)."""
    return all(stored_element(container, literal) is not None for literal in literals)


def with_stores(container: Container, literals: Sequence[ContainerKey]) -> Container | None:
    """`container` with the literal-key stores `literals` into its name (`stored_element`): a mapping gains each key
    its displays lack, after theirs in store order (`roles["output"] = ...` adds the item the runtime adds, a read of
    it before the store being the KeyError the runtime raises); a sequence keeps its length, each index in range.
    None when it stops being one (an index out of range, too many keys)."""
    if not container.mapping:
        return container if keeps_stores(container, literals) else None
    keys = tuple(dict.fromkeys((*container.keys, *literals)))
    return replace(container, keys=keys) if len(keys) <= MAX_CONTAINER_ITEMS else None


def find_inner(container: Container, bindings: Sequence[Mapping[ContainerKey, int]]) -> Container:
    """`container` with its nested sequence items (`Container.inner`), from each binding's display items that are
    tuple/list displays (key -> length): an item is one where every binding has a display of one length there."""
    inner: list[tuple[int, int]] = []
    for index, key in enumerate(container.keys):
        lengths = {binding.get(key) for binding in bindings}
        if len(lengths) == 1 and (length := lengths.pop()) is not None and 0 < length <= MAX_CONTAINER_ITEMS:
            inner.append((index, length))
    return replace(container, inner=tuple(inner)) if inner else container


def nested(name: str, display: str, container: Container, literal: ContainerKey | None) -> NestedContainer | None:
    """`cfg["inputs"]` of a container whose item under a literal key is a nested sequence (`Container.inner`): the
    item's own place name, display and container, so `*cfg["inputs"]` and `cfg["inputs"][1]` name its items."""
    if container.mapping:
        if literal not in container.keys:
            return None
    elif not isinstance(literal, int) or not -len(container.keys) <= literal < len(container.keys):
        return None
    index = container.indices(literal)[0]
    length = dict(container.inner).get(index)
    if length is None:
        return None
    place = container_element(name, display, container, index)
    return NestedContainer(place.root, place.text, Container(tuple(range(length)), False))


def captured_item(
    container: Container, key: ContainerKey, mapping_pattern: bool, after_star: bool = False
) -> int | None:
    """The item of a `match` subject a capture takes when the subject is a container or a display (`match plan:`
    with `plan = (a, a) if f else (a, b)`): position `key` of a sequence pattern before any `*rest` (`case (src,
    dst):` binds `src` to `plan[0]`), or literal `key` of a mapping pattern (`case {"out": o}:`); None when the
    pattern's kind is not the subject's or the item is not known (after a `*rest` the positions depend on the
    length)."""
    if container.mapping != mapping_pattern or after_star:
        return None
    if mapping_pattern:
        if container.keys == (FILLED_KEY,):
            return 0
        return container.keys.index(key) if key in container.keys else None
    return key if isinstance(key, int) and 0 <= key < len(container.keys) else None


def class_pattern_attributes(
    match_args: Sequence[str] | None, positional: int, keywords: Sequence[str]
) -> tuple[str, ...] | None:
    """The attribute of the subject each sub-pattern of a class pattern (`case St(x, dst=y):`) matches, positional
    sub-patterns first: Python reads positional ones off `St.__match_args__` in order (a dataclass's or NamedTuple's
    generated one lists its positional fields) and keyword ones off the attribute they name, so a capture there is
    bound to that attribute of the subject.  None when a positional one cannot be named (`match_args` unknown, or
    fewer than the pattern has: the match raises `TypeError` then)."""
    if positional == 0:
        return tuple(keywords)
    if match_args is None or positional > len(match_args):
        return None
    return (*match_args[:positional], *keywords)


@dataclass(frozen=True)
class NestedContainer:
    """A nested sequence item of a container (`nested`): its place name, how diagnostics spell it, its items."""

    name: str
    display: str
    container: Container


def element_place(name: str, index: int, display: str, key: ContainerKey | None = None) -> ir.Place:
    """The place of item `index` of a container name (`pair[1]` of `pair = (a, c)`, `bufs["out"]` of a dict
    display, whose `key` the display names)."""
    shown = f"{display}[{index if key is None else '...' if key == FILLED_KEY else repr(key)}]"
    return ir.Place(f"{name}$e{index}", (), shown)


def container_element(name: str, display: str, container: Container, index: int) -> ir.Place:
    """`element_place` of item `index` of `container`."""
    return element_place(name, index, display, container.keys[index] if container.mapping else None)


def sequence_elements(name: str, display: str, container: Container) -> tuple[ir.Place, ...] | None:
    """The element places of a sequence container, in order, for unpacking it (`Assignment.elements`); None for a
    mapping (unpacking a dict gives its keys)."""
    if container.mapping:
        return None
    return tuple(container_element(name, display, container, i) for i in range(len(container.keys)))


def factory_kernel(returned: Sequence[K | None]) -> K | None:
    """The kernel a *kernel factory* returns (`def make(): @simt.kernel def k(...): ...; return k`): the one
    kernel every `return` of a plain function gives, else None.  A name bound only by calls of factories is the
    one kernel every binding gives (this rule over the bindings), at its call sites (both front ends; `offset =
    make_offset_kernel()` then `offset.launch(...)`, also with `offset` bound so again in a branch)."""
    if not returned or any(k is None for k in returned):
        return None
    first = returned[0]
    return first if all(k is first or k == first for k in returned) else None


#: How a `for` loop takes its items from its iterable: `for x in xs` ("each"), `for a, b in zip(xs, ys)`
#: ("zip", builtin `zip` of places, `itertools.zip_longest` of `Padded` ones), `for i, x in enumerate(xs)`
#: ("enumerate"), `for i, (a, b) in enumerate(zip(xs, ys))` ("enumerate zip").
ITERATION_SHAPES: Final[frozenset[str]] = frozenset({"each", "zip", "enumerate", "enumerate zip"})


#: How a `for` loop takes items from a view method of a mapping place (`calls.bind_iteration` shapes): `d.values()`
#: takes an item of `d` per iteration, `d.items()` a new key and an item of `d` (when unpacked into two targets),
#: as `for v in d` / `enumerate(d)` do; so a loop running the ops stored in `d` (`for op in d.values():
#: op.sync_on(s)`) runs items of `d` (the checker's `run_stored`).
VIEW_ITERATIONS: Final[dict[str, str]] = {"values": "each", "items": "enumerate"}

#: The builtins a `for` takes its argument's own items through, in another order or a copy (`for r in
#: reversed(traj.rewards):`): each item is an item of the argument (their keywords, `key=` and `reverse=`, change
#: the order only).
ITEM_KEEPING_CALLS: Final[frozenset[str]] = frozenset({"reversed", "sorted", "list", "tuple", "iter"})


@dataclass(frozen=True)
class Recurring:
    """An iterable operand of a `for` whose items recur (a `stdlib_flow` entry with `recurs`): `itertools.cycle(xs)`
    takes the items of the place `xs` round and round, `itertools.repeat(x)` (`itself`) hands out `x` itself each
    time.  A later iteration's item may be (is, for `repeat`) an object an earlier iteration took, which a pending
    op of that iteration may still borrow, or which it moved."""

    place: ir.Place
    itself: bool


@dataclass(frozen=True)
class Padded:
    """An operand of `itertools.zip_longest` (a `stdlib_flow` entry with `padded`) in a `for`: its part of a tuple
    is an item of `source`, or, once it runs out, the `fillvalue` operand itself (`fill`, staged where the call is
    evaluated as `itertools.repeat(x)`'s operand is: a `Recurring` one), or None (a new value) without one."""

    source: ir.Place | Recurring | None
    fill: Recurring | None


#: Where a `for` loop takes its items from, per iterable operand (`bind_iteration`): a place's items (a new object
#: per iteration), a `Recurring` operand's, a `Padded` one's, or None (not followed: a new value).
IterationSource = ir.Place | Recurring | Padded | None

#: The most operands of a padded zip whose fill combinations `bind_iteration` spells out (`2**n - 1` arms).
MAX_PADDED_OPERANDS: Final[int] = 4


def bind_iteration(target: Target[E], shape: str, sources: Sequence[IterationSource], sink: Lowering[E]) -> None:
    """Bind a `for` target to the item one iteration takes from each source place (`ir.iteration_item`): the
    items `zip` pairs from one list are one object; the items of a `Recurring` operand are one object over all
    iterations (`ir.recurring_item`), or the operand itself (`itertools.repeat(x)`); anything not followed is a
    new value."""
    site = sink.next_group()

    def item(source: IterationSource) -> ir.Value:
        if isinstance(source, Padded):
            return item(source.source)
        if isinstance(source, Recurring):
            if source.itself:
                return ir.FromPlace(source.place, _NO_SPAN)
            return ir.FromPlace(ir.recurring_item(source.place, site), _NO_SPAN)
        return ir.FromPlace(ir.iteration_item(source, site), _NO_SPAN) if source is not None else ir.Fresh()

    if shape == "each" and len(sources) == 1:
        if not _bind_unpacked_item(target, sources[0], site, sink):
            bind_target(target, item(sources[0]), sink)
        return
    if isinstance(target, UnpackTarget) and not target.starred:
        if shape == "zip" and len(target.items) == len(sources):
            # one parallel binding: the items one iteration takes are born together (one site)
            places = [part for part in target.items if isinstance(part, PlaceTarget) and part.root_span is None]
            if places:
                pairs = zip(target.items, sources, strict=True)
                values = tuple(item(source) for part, source in pairs if part in places)
                sink.emit(ir.Bind(tuple(p.place for p in places), values, _items_span(target)))
            for part, source in zip(target.items, sources, strict=True):
                if part not in places:
                    bind_target(part, item(source), sink)
            _bind_padding(target.items, sources, _items_span(target), sink)
            return
        if shape == "enumerate zip" and len(target.items) == 2:
            bind_target(target.items[0], ir.Fresh(), sink)
            bind_iteration(target.items[1], "zip", sources, sink)
            return
        if shape == "enumerate" and len(target.items) == 2 and len(sources) == 1:
            bind_target(target.items[0], ir.Fresh(), sink)
            if not _bind_unpacked_item(target.items[1], sources[0], site, sink):
                bind_target(target.items[1], item(sources[0]), sink)
            return
    bind_target(target, ir.Fresh(), sink)


def bind_selected_iteration(
    target: Target[E], source: ir.Place, enumerated: bool, span: Span, sink: Lowering[E]
) -> None:
    """Bind a `for` target for one iteration over a list a `selects` call made of a container's items (`for rank,
    (score, i, beam) in enumerate(leaders)` of `leaders = heapq.nsmallest(3, heap)`): the item is taken from the
    list as a heap's pop takes it (`take_from`: one of the tuples stored, each part any object stored as that part,
    an item this loop took and moved not given again), so a tensor moved through an item popped from the heap
    (`best`) is the moved object when the loop reads it.  `enumerated`: the index `enumerate` adds is new."""
    if enumerated:
        if not isinstance(target, UnpackTarget) or target.starred or len(target.items) != 2:
            bind_target(target, ir.Fresh(), sink)
            return
        bind_target(target.items[0], ir.Fresh(), sink)
        target = target.items[1]
    bind_target(target, take_from(source, span), sink)


def _bind_padding(
    parts: Sequence[Target[E]], sources: Sequence[IterationSource], span: Span, sink: Lowering[E]
) -> None:
    """After `for a, b in itertools.zip_longest(xs, ys, fillvalue=h)` bound each name to its operand's item: any of
    the operands may have run out (their lengths are not known), so one `Branch` arm per set of them rebinds their
    names to the fill (`Padded.fill`), one arm keeps the items; never all at once (the tuples stop when the longest
    operand runs out), so `h` read as one part is not also the other part the launch writes."""
    padded = [i for i, source in enumerate(sources) if isinstance(source, Padded)]
    if not padded or len(sources) > MAX_PADDED_OPERANDS:
        return
    arms: list[ir.Block] = [()]
    for count in range(1, len(padded) + 1):
        for chosen in itertools.combinations(padded, count):
            if len(chosen) == len(sources):
                continue

            def pad(chosen: tuple[int, ...] = chosen) -> None:
                for index in chosen:
                    fill = sources[index]
                    assert isinstance(fill, Padded)
                    value: ir.Value = ir.FromPlace(fill.fill.place, _NO_SPAN) if fill.fill is not None else ir.Fresh()
                    bind_target(parts[index], value, sink)

            arms.append(sink.block(pad))
    if len(arms) > 1:
        sink.emit(ir.Branch(tuple(arms), span))


def _bind_unpacked_item(target: Target[E], source: IterationSource, site: int, sink: Lowering[E]) -> bool:
    """`for op, out in pending` (also `for _, op in pending`, `(op, out)` of `enumerate(pending)` or
    `jobs.items()`): each name the item of a place unpacks into is an item of the place of its own
    (`ir.iteration_item` at a site per part: the analysis does not track tuple contents, so the parts stay apart),
    not a new value: running the part that is an op (`op.sync_on(s)`) runs the ops stored in the container
    (`calls.stored_display`, the checker's `run_stored`), as `for op in ops: op.sync_on(s)` does.  False when
    `target` unpacks nothing, or the source is not a place (`bind_iteration` binds it)."""
    if not isinstance(target, UnpackTarget) or target.starred or not isinstance(source, ir.Place):
        return False
    parts = [part for part in target.items if isinstance(part, PlaceTarget) and part.root_span is None]
    if parts:
        # one parallel binding: the parts one iteration takes are born together (spanned from the first name to
        # the last, as both front ends span names alike, not parentheses)
        values = tuple(
            ir.FromPlace(ir.iteration_item(source, sink.next_group() if index else site), _NO_SPAN)
            for index in range(len(parts))
        )
        first, last = parts[0].span, parts[-1].span
        span = Span(first.line, first.column, last.end_line, last.end_column)
        sink.emit(ir.Bind(tuple(part.place for part in parts), values, span))
    for part in target.items:
        if not (isinstance(part, PlaceTarget) and part.root_span is None):
            bind_target(part, ir.Fresh(), sink)
    return True


_NO_SPAN: Final[Span] = Span(0, 0, 0, 0)


def bind_elements(
    target: Target[E],
    elements: Sequence[ir.Place],
    span: Span,
    sink: Lowering[E],
    container: Container | None = None,
    enumerated: bool = False,
    paired: bool = False,
) -> tuple[ir.Block, ...]:
    """The head arms of a loop over a container list of known length (`for part in parts:`, a comprehension's
    `for`): arm `i` binds the target to item `i`.  The loop is unrolled as one over a display (`ir.Loop.unrolled`):
    it runs once per item, in order, so moving `part` in the body moves each item once and a later `parts[0]`
    reads a moved value.  An item that is a nested display of the `container` (`Container.inner`) unpacks into
    its own items (`for src, dst in schedule:` of `schedule = [(a, b), (b, b)]`); `enumerated`: the loop is over
    `enumerate(...)` of the list, its target `i, item` (the index a new value); `paired`: the loop is over
    `itertools.pairwise(...)` of the list (arm `i` binds a two-name target to items `i` and `i + 1`, so a list
    repeating one object, `[c] * 3`, pairs `c` with itself, and moving the second moves the next arm's first).
    Binding the target reads nothing at run time (`ir.FromPlace.carried`): an item moved before the loop is a use
    where the body uses it, where the runtime raises, not at the `for`."""
    inner = dict(container.inner) if container is not None else {}

    def bind_pair(index: int, element: ir.Place) -> None:
        item_target = target
        if enumerated:
            if not isinstance(target, UnpackTarget) or target.starred or len(target.items) != 2:
                bind_target(target, ir.Fresh(), sink)
                return
            bind_target(target.items[0], ir.Fresh(), sink)
            item_target = target.items[1]
        if not isinstance(item_target, UnpackTarget) or item_target.starred or len(item_target.items) != 2:
            bind_target(item_target, ir.Fresh(), sink)
            return
        bind_target(item_target.items[0], ir.FromPlace(element, span, carried=True), sink)
        bind_target(item_target.items[1], ir.FromPlace(elements[index + 1], span, carried=True), sink)

    if paired:
        return tuple(
            sink.block(lambda i=index, e=element: bind_pair(i, e))  # type: ignore[misc]
            for index, element in enumerate(elements[:-1])
        )

    def bind(index: int, element: ir.Place) -> None:
        item_target = target
        if enumerated:
            if not isinstance(target, UnpackTarget) or target.starred or len(target.items) != 2:
                bind_target(target, ir.Fresh(), sink)
                return
            bind_target(target.items[0], ir.Fresh(), sink)
            item_target = target.items[1]
        length = inner.get(index)
        if (
            length is not None
            and isinstance(item_target, UnpackTarget)
            and not item_target.starred
            and len(item_target.items) == length
        ):
            for j, part in enumerate(item_target.items):
                bind_target(part, ir.FromPlace(element_place(element.root, j, element.text), span, carried=True), sink)
            return
        bind_target(item_target, ir.FromPlace(element, span, carried=True), sink)
        fields = getattr(sink, "element_fields", {}).get(element.key, ())
        if isinstance(item_target, PlaceTarget) and fields:
            # an item built by a constructor call (`[Stage("tone", c, c)]`): the target's fields are the item's
            held = item_target.place
            parts = tuple(ir.Place(held.root, (*held.attrs, *path)) for path in fields)
            sources = [ir.Place(element.root, (*element.attrs, *path), f"{element.text}.{'.'.join(path)}")
                       for path in fields]
            sink.emit(ir.Bind(parts, tuple(ir.FromPlace(source, span, carried=True) for source in sources), span))

    return tuple(
        sink.block(lambda i=index, e=element: bind(i, e))  # type: ignore[misc]
        for index, element in enumerate(elements)
    )


#: One operand of a loop over `zip(...)` / `enumerate(...)` with a display among them (`display_loop_arms`): a
#: display's item nodes, or where the loop takes the items of any other operand (`bind_iteration`'s source).
DisplayOperand = tuple[E, ...] | IterationSource


def display_loop_arms(
    target: Target[E],
    enumerated: bool,
    operands: Sequence[DisplayOperand[E]] | None,
    display: tuple[E, ...],
    sink: Lowering[E],
) -> tuple[ir.Block, ...] | None:
    """The head arms of a loop over `enumerate(display)`, `zip(xs, display)` or `enumerate(zip(xs, display))` of a
    tuple or list display (`for i, (host, beam) in enumerate(zip(hosts, (beam0, beam1, beam2)))`): arm `k` binds
    the target to item `k` of each display, as a loop over the display itself does (`ir.Loop.unrolled`: in order,
    once per item), so the part a display operand gives is that item's object, not a new value.  `operands`: the
    zip's operands (None: no zip, the loop is over `display` itself, through `enumerate`); a non-display operand's
    part is the item the loop takes from it (`ir.iteration_item`, a new value where it is no place); `display`: the
    shortest display, whose length is the number of arms.  The index `enumerate` adds is a new value.  None (nothing
    emitted) when the target does not unpack so (a starred target, a name for a zip's tuple)."""
    item_target: Target[E] = target
    if enumerated:
        if not isinstance(target, UnpackTarget) or target.starred or len(target.items) != 2:
            return None
        item_target = target.items[1]
    if operands is not None and (
        not isinstance(item_target, UnpackTarget) or item_target.starred or len(item_target.items) != len(operands)
    ):
        return None
    site = sink.next_group()

    def part(operand: DisplayOperand[E], index: int) -> ir.Value:
        if isinstance(operand, tuple):
            return sink.value(operand[index])
        if isinstance(operand, Recurring | Padded) or operand is None:
            return ir.Fresh()  # a padded operand is a zip_longest's, never one of the zip this loop is over
        return ir.FromPlace(ir.iteration_item(operand, site), _NO_SPAN)

    def bind(index: int) -> None:
        if enumerated:
            assert isinstance(target, UnpackTarget)
            bind_target(target.items[0], ir.Fresh(), sink)
        if operands is None:
            bind_target(item_target, sink.value(display[index]), sink)
            return
        assert isinstance(item_target, UnpackTarget)
        for sub, operand in zip(item_target.items, operands, strict=True):
            bind_target(sub, part(operand, index), sink)

    return tuple(sink.block(lambda i=index: bind(i)) for index in range(len(display)))  # type: ignore[misc]


def assign_keyed_items(
    target: PlaceTarget, items: Sequence[tuple[ir.Place, Callable[[], ir.Value]]], span: Span, sink: Lowering[E]
) -> None:
    """`obj.bufs = {"inp": a, "out": k.prepare(...)}` (an attribute, or a name the checker keeps no element places
    for): each item is evaluated in order (`items`: the item place under its literal key, `keyed_items.keyed_item`,
    and how to lower its value), the target is bound to the new container, and each item place to what its item
    evaluated to, so a later `obj.bufs["out"]` here, or of the object a constructor built (`ir.Fresh.parts` of
    the initializer's summary), is that object with its brand."""
    values = [(place, value()) for place, value in items]
    bind_target(target, ir.Fresh(), sink)
    for place, value in values:
        sink.emit(ir.Bind((place,), (value,), span))


def assign_container(
    target: PlaceTarget,
    name: str,
    display: str,
    container: Container,
    items: Sequence[tuple[ContainerKey, E]],
    span: Span,
    sink: Lowering[E],
    inner_items: Mapping[ContainerKey, tuple[E, ...]] | None = None,
) -> None:
    """`name = (a, c)` / `name = {"lhs": a, "out": k.prepare(...)}` of a container name: each item is evaluated
    in order, the name is bound to the new container, and each item place to what its display item evaluated to
    *here* (an alias of a place, a prepared launch with its brand, a view...; keys this display lacks are new
    values), so a later `name[1]` / `name["out"]` evaluates to that object even after `c` is rebound."""
    given: dict[ContainerKey, ir.Value] = {}
    nested_items: list[tuple[ir.Place, tuple[ir.Value, ...]]] = []
    lengths = dict(container.inner)
    for key, node in items:
        index = container.keys.index(key)
        sub = inner_items.get(key) if inner_items is not None and index in lengths else None
        if sub is not None and len(sub) == lengths[index]:
            # a nested display (`{"inputs": (a, b)}`): a new tuple whose items are what its own items evaluate to
            given[key] = ir.Fresh()
            values = tuple(sink.value(item) for item in sub)
            nested_items.append((container_element(name, display, container, index), values))
        else:
            # held by its item place: a constructor call's object keeps its fields there (`[Stage(a, b)]`)
            given[key] = sink.value(node, container_element(name, display, container, index))
    _bind_container(target, name, display, container, given, span, sink)
    for key, value in given.items():
        if isinstance(value, ir.Fresh) and value.parts:
            element = container_element(name, display, container, container.keys.index(key))
            _bind_parts(element, value.parts, span, sink)
            fields = getattr(sink, "element_fields", None)
            if fields is not None:  # what a loop over the container binds below its target (`bind_elements`)
                fields[element.key] = tuple(path for path, _ in value.parts)
    for place, values in nested_items:
        elements = tuple(element_place(place.root, i, place.text) for i in range(len(values)))
        sink.emit(ir.Bind(elements, values, span))


def _bind_container(
    target: PlaceTarget,
    name: str,
    display: str,
    container: Container,
    given: dict[ContainerKey, ir.Value],
    span: Span,
    sink: Lowering[E],
) -> None:
    """Bind `name` to a new container and each of its item places to the value `given` under its key (keys not
    given: new values)."""
    bind_target(target, ir.Fresh(), sink)
    targets = tuple(container_element(name, display, container, i) for i in range(len(container.keys)))
    values = tuple(given.get(key, ir.Fresh()) for key in container.keys)
    sink.emit(ir.Bind(targets, values, span))


def range_length(bounds: Sequence[int | None]) -> int | None:
    """`len(range(*bounds))` for one to three integer literals (`range(3)`, `range(1, 4)`), else None."""
    if not 1 <= len(bounds) <= 3 or any(b is None for b in bounds):
        return None
    known = [b for b in bounds if b is not None]
    if len(known) == 3 and known[2] == 0:
        return None  # `range(0, 4, 0)` raises ValueError
    return len(range(*known))


def assign_built_list(
    target: PlaceTarget,
    name: str,
    display: str,
    container: Container,
    count: int,
    item: Callable[[int, ir.Place | None], ir.Value],
    span: Span,
    sink: Lowering[E],
) -> None:
    """`name = [f(t) for t in (a, b)]` / `[k(...) for _ in range(3)]` of a container name: a comprehension with one
    `for` over an iterable of known length and no `if` builds a list of `count` items, item `i` what its element
    evaluates to in iteration `i` (`item(i, holder)` lowers that iteration: its target bound to the iterable's
    item `i`, then the element, held by the item place `holder` as a display's item is in `assign_container`, so
    an op built there keeps its loans while the list is live), so `ops[0]` after `sk.zip(*ops)` is the op the zip
    consumed."""
    given: dict[ContainerKey, ir.Value] = {}
    for index in range(count):
        held = container.keys.index(index) if index in container.keys else None
        place = container_element(name, display, container, held) if held is not None else None
        value = item(index, place)
        if place is not None and isinstance(value, ir.Fresh) and value.kind in ("op", SHARED_OP):
            # the op iteration `index` built holds its loans from here, as a loop appending it would: the next
            # iteration's launch conflicts with them (`[k.launch_async(p, x[n], out[n]) for n in ("a", "b")]` of
            # one `out` buffer under both keys)
            sink.emit(ir.Bind((place,), (value,), span))
            if value.parts:
                _bind_parts(place, value.parts, span, sink)
            value = ir.FromPlace(place, span)
        given[index] = value
    _bind_container(target, name, display, container, given, span, sink)
    for key, value in given.items():
        if isinstance(value, ir.Fresh) and value.parts and key in container.keys:
            # an object built holding an op (`[Stage(k.launch_async(...)) for ...]`): its parts below the item
            _bind_parts(container_element(name, display, container, container.keys.index(key)), value.parts, span, sink)


@dataclass(frozen=True)
class RepeatedDisplay(Generic[E]):
    """A list or tuple built from displays by repetition and concatenation (`[c] * 3`, `3 * [c]`, `[a, b] * 2`,
    `[a] + [c] * 3`): repetition copies references, so its items are the SAME objects as the displays' items.
    `items`: the displays' items, each once, in evaluation order; `order`: item `i` of the result is
    `items[order[i]]`.  `counted` False: repeated a number of times not known here (`[c] * n`), or more items than
    a container keeps (`MAX_CONTAINER_ITEMS`): `order` is then the display's items once, and item `i` of the
    result is `items[i % len(items)]` (`Container.indices` gives any item for an index past them)."""

    items: tuple[E, ...]
    order: tuple[int, ...]
    counted: bool = True


def display_sequence(items: Sequence[E]) -> RepeatedDisplay[E]:
    """A plain tuple/list display's items as a `RepeatedDisplay` operand."""
    return RepeatedDisplay(tuple(items), tuple(range(len(items))))


def repeat_display(operand: RepeatedDisplay[E] | None, count: int | None) -> RepeatedDisplay[E] | None:
    """`operand * count` (`count` an integer literal, None when it is not one).  None when the operand is not
    known, or is itself of unknown count; a count not known here, or one giving more items than a container
    keeps, gives the uncounted repetition (any item of the display may be at an index past them)."""
    if operand is None or not operand.counted or not operand.order:
        return None
    if count is not None and len(operand.order) * max(count, 0) <= MAX_CONTAINER_ITEMS:
        return RepeatedDisplay(operand.items, operand.order * max(count, 0))
    return RepeatedDisplay(operand.items, operand.order, counted=False)


def join_displays(left: RepeatedDisplay[E] | None, right: RepeatedDisplay[E] | None) -> RepeatedDisplay[E] | None:
    """`left + right` of two counted display sequences: the left's items, then the right's (None otherwise, or
    past `MAX_CONTAINER_ITEMS`)."""
    if left is None or right is None or not left.counted or not right.counted:
        return None
    if len(left.order) + len(right.order) > MAX_CONTAINER_ITEMS:
        return None
    shift = len(left.items)
    return RepeatedDisplay((*left.items, *right.items), (*left.order, *(shift + i for i in right.order)))


def assign_repeated(
    target: PlaceTarget,
    name: str,
    display: str,
    container: Container,
    repeated: RepeatedDisplay[E],
    span: Span,
    sink: Lowering[E],
) -> None:
    """`name = [c] * 3` / `name = [a] + [c] * 2` of a container name: each display item is evaluated once, in
    order, and held by the first index it is at (as `assign_container` binds a display); every later index of
    the same item is bound to that very object, so `name[0]` and `name[1]` of `[sk.zeros(...)] * 3` are one
    buffer (a launch taking both is refused, as at run time)."""
    first: dict[int, int] = {}
    for index, which in enumerate(repeated.order):
        first.setdefault(which, index)
    items = [(container.keys[index], repeated.items[which]) for which, index in first.items()]
    assign_container(target, name, display, container, items, span, sink)
    again = [(index, first[which]) for index, which in enumerate(repeated.order) if first[which] != index]
    if again:
        targets = tuple(container_element(name, display, container, index) for index, _ in again)
        values = tuple(ir.FromPlace(container_element(name, display, container, held), span) for _, held in again)
        sink.emit(ir.Bind(targets, values, span))


def assign_registry_dict(
    target: PlaceTarget,
    name: str,
    display: str,
    container: Container,
    keys: Sequence[ContainerKey],
    item: Callable[[int], ir.Value],
    span: Span,
    sink: Lowering[E],
) -> None:
    """`name = {n: k.prepare(...) for n, k in REG.items()}` of a container name, `REG` a dict display of literal
    keys bound once (a registry, `{"add": add, "scale": scale}`): the comprehension builds one item per registry
    entry, under the entry's key (`keys`, REG's), what its value evaluates to in that iteration (`item(i)` lowers
    it: the value target bound to the registry's item `i`), so `preps["add"]` is the launch `add` prepared, with
    its brand, and `preps[name]` of a key not known here may be any of them (a launch is `E0308` only when none is
    its kernel's)."""
    given = {key: item(index) for index, key in enumerate(keys)}
    _bind_container(target, name, display, container, given, span, sink)


#: What a call that builds a lazy `DeviceOp` (a launch, a combinator, `shared`) returns, as `ir.Fresh` kinds: its
#: result must be used (W0003, `must_use`).
MUST_USE_KINDS: Final[frozenset[str]] = frozenset({"op", "shared_op"})


def must_use(value: ir.Value) -> TypeGuard[ir.Fresh]:
    """Whether `value` is a new lazy op that runs a kernel: dropping it unrun is W0003."""
    return isinstance(value, ir.Fresh) and value.kind in MUST_USE_KINDS and value.launches


def discard_result(result: ir.Value, call: E, span: Span, callee: str | None, sink: Lowering[E]) -> None:
    """An expression statement dropped the result of `call`: a lazy `DeviceOp` dropped unrun is W0003."""
    if must_use(result):
        sink.emit(ir.Produce(None, span, callee, result.built), call)


def none_arm(place: ir.Place, span: Span) -> ir.Op:
    """What the arm of `if place is None` / the `else` of `if place is not None` starts with: `place` refers to
    `None` there, not to whatever object it may have referred to on other paths (so a pending DeviceOp that the
    other arm synced holds no loan on this one: `if pending is not None: pending.sync_on(s)`).  Its kind `none`
    tells the must-use check that no op was dropped there."""
    return ir.Bind((place,), (ir.Fresh("none"),), span)


#: What an `if` condition on a bare name says in its two arms (`branch_tests`), by the condition's form.
_TEST_FORMS: Final[dict[str, tuple[str, str]]] = {
    "is None": ("none", "some"),
    "is not None": ("some", "none"),
    "truthy": ("true", "false"),
    "not": ("false", "true"),
}


def branch_tests(place: ir.Place | None, form: str | None, local: bool) -> tuple[ir.Test, ...]:
    """The `Branch.tests` of `if name:` / `if not name:` / `if name is None:` / `if name is not None:` (`form`: a key
    of `_TEST_FORMS`; the condition's shape as a front end read it, None for any other condition): what each arm
    (body, else) may assume about `name`.  None for an attribute path, and unless `local`: the name is one only
    the unit's own `Bind`s rebind (the front ends' `testable`: a module-level name, or a parameter or name the
    function binds, that no `global`/`nonlocal` declaration, import, augmented assignment, `except ... as`, match
    capture or `def`/`class` of the module binds); a free variable of a generator may change between two tests."""
    if place is None or form is None or place.attrs or not local:
        return ()
    body, orelse = _TEST_FORMS[form]
    return (ir.Test(place.root, body), ir.Test(place.root, orelse))


#: One side of a comparison `iteration_tests` reads: the text of a name, an attribute path or `len(path)` (as a
#: front end spells it), and the integer literal added to it (`i + 1` is `("i", 1)`, `n - 1` is `("n", -1)`).
OffsetForm = tuple[str, int]

#: `i OP n + d` of a loop index `i` over `range(n)` (so `0 <= i <= n - 1`), by (OP, d): what the body and the
#: `else` of an `if` on it say about whether another iteration follows.
_ITERATION_ARMS: Final[dict[tuple[str, int], tuple[str, str]]] = {
    ("<", -1): ("more", "last"),
    ("!=", -1): ("more", "last"),
    ("<=", -2): ("more", "last"),
    ("==", -1): ("last", "more"),
    (">=", -1): ("last", "more"),
    (">", -2): ("last", "more"),
}
_MIRRORED: Final[dict[str, str]] = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


def may_be_counted(receiver: str | None, count: str, displays: Collection[str]) -> bool:
    """Whether a mutating method's receiver (`self.checked` of `self.checked.append(x)`, as a dotted path; None for
    any other expression) may be the container a counted loop's `len(...)` reads (`count`), so the loop's count may
    change: the same path, a plain name (it may alias it: `xs = sites`) unless the function only ever binds it to
    displays (`displays`: `alerts = []` is a list of its own), or anything that is no path.  Another attribute
    path (`self.checked` against `len(sites)`) is another list."""
    counted = count.removeprefix("len(").removesuffix(")")
    if receiver is None or receiver == counted:
        return True
    return "." not in receiver and receiver not in displays


def iteration_tests(
    op: str, left: OffsetForm, right: OffsetForm, counted: Sequence[tuple[str, str]]
) -> tuple[ir.Test, ir.Test] | None:
    """The `Branch.tests` of `if i + 1 < n:` (any equivalent comparison of the two) inside `for i in range(n):` or
    `for i, x in enumerate(xs):` (`n` is then `len(xs)`), `counted` the enclosing such loops, innermost last, as
    (index, count text), each one whose body rebinds neither the index nor what the count reads (the front end's
    check): the arm where no iteration follows assumes "last", the other "more", and the loop enters its next
    iteration only where "more" may hold (`ir.Loop.more`).  So `if i + 1 < n: nxt = prefetch(i + 1)` followed by
    a use of `nxt` in the next iteration does not pair the last iteration's `else` with a next one.  None for any
    other comparison."""
    for index, count in reversed(counted):
        if left[0] == index and right[0] == count:
            cmp, delta = op, right[1] - left[1]
        elif right[0] == index and left[0] == count:
            cmp, delta = _MIRRORED.get(op, ""), left[1] - right[1]
        else:
            continue
        arms = _ITERATION_ARMS.get((cmp, delta))
        return None if arms is None else (ir.Test(index, arms[0]), ir.Test(index, arms[1]))
    return None


def literal_kind(value: object) -> str | None:
    """`Fresh.kind` of a literal `None` / `True` / `False` (`ir.LITERAL_KINDS`), or None."""
    if value is None:
        return ir.LITERAL_KINDS[0]
    if value is True:
        return ir.LITERAL_KINDS[1]
    if value is False:
        return ir.LITERAL_KINDS[2]
    return None


# --- unsafe blocks ----------------------------------------------------------------------------------------------


def lower_with(items: Sequence[WithItem[E]], body: Callable[[], ir.Block], span: Span, sink: Lowering[E]) -> None:
    """A `with` statement: `simt.unsafe()` makes its body an `Unsafe` block (unsafe-enter/exit are its ends),
    `contextlib.suppress(...)` a `try` whose handler does nothing; other items are ordinary expressions whose
    targets get fresh objects."""
    unsafe = suppresses = False
    released: list[ir.Op] = []
    stacks: dict[tuple[str, tuple[str, ...]], list[ir.Op]] | None = getattr(sink, "exit_stacks", None)
    registered: list[tuple[tuple[str, tuple[str, ...]], list[ir.Op] | None]] = []
    for item in items:
        if item.unsafe_context:
            unsafe = True
            continue
        suppresses = suppresses or item.suppresses
        if not item.suppresses:
            # the context manager lives until its `__exit__` has run: what it was built from (a pending op and
            # its loans: `Cls(op)` of a class the checker follows, an op built in the argument list of a call it
            # does not follow, `_opaque_call`) stays reachable for the body, and no longer once the statement is
            # left, however
            held = sink.temp("with")
            value = sink.value(item.node, held)
            if item.methods is not None:
                # a class-based context manager whose `__enter__` returns itself (`WithItem.methods`)
                _enter_object(item, value, held, span, sink, released)
                continue
            if item.constructs or (isinstance(value, ir.Fresh) and value.parts):
                bind_target(PlaceTarget(held, span), value, sink)
                released.append(ir.Del(held, span))
            elif isinstance(value, ir.FromPlace):
                sink.emit(ir.Use(value.source, value.span))  # `with lock:` reads `lock`
            if item.phases is not None:
                entering, leaving = item.phases
                # what the generator keeps in its locals across the `yield` (an op it syncs after it) is held for
                # the block: its loans last until the rest of the body has run
                kept = sink.temp("with")
                entering(kept)
                sink.emit(ir.Bind((kept,), (ir.Fresh("op"),), span))
                # one op (a one-armed `Branch`), so the exits' reversal below keeps its own order
                released.append(ir.Branch((sink.block(leaving),), span))
                # ... after the kept op is given up: the part after the `yield` syncs it first (in its `finally`),
                # then reads what the op wrote (`section.load.to_numpy(s)`); an order inside that part is the
                # generator's own analysis to check
                released.append(ir.Del(kept, span))
        else:
            sink.lower_expr(item.node)
        if item.target is not None:
            entered = item.entered() if item.entered is not None else ir.Fresh()
            bind_target(item.target, entered, sink)
            if isinstance(entered, ir.FromPlace) and isinstance(item.target, PlaceTarget):
                # the caller's buffer a generator yields: a device value through the `as` name too
                _mark_device_from(entered.source, item.target.place, sink)
            if item.exit_stack and stacks is not None and isinstance(item.target, PlaceTarget):
                key = (item.target.place.root, item.target.place.attrs)
                registered.append((key, stacks.get(key)))
                stacks[key] = []
    renames: list[dict[str, str]] | None = getattr(sink, "renames", None)
    same = dict(item.renamed for item in items if item.renamed is not None)
    if same and renames is not None:
        renames.append(same)
    block = body()
    if same and renames is not None:
        renames.pop()
    for key, outer in registered:
        # the stack's callbacks and entered context managers run last-in first-out when it exits, before the
        # items entered ahead of it exit (`released` runs in reverse)
        assert stacks is not None
        released.extend(stacks.pop(key))
        if outer is not None:
            stacks[key] = outer
    if suppresses:
        # Any operation of the body may raise, be swallowed, and continue after the `with` statement.
        block = (ir.Try(block, ((),), (), (), span),)
    if released:
        block = (ir.Try(block, (), (), tuple(reversed(released)), span),)
    if unsafe:
        sink.emit(ir.Unsafe(block, span))
    else:
        for op in block:
            sink.emit(op)


def _enter_object(
    item: WithItem[E], value: ir.Value, held: ir.Place, span: Span, sink: Lowering[E], released: list[ir.Op]
) -> None:
    """Enter a class-based context manager whose `__enter__` returns its receiver (`WithItem.methods`): the object
    is the `as` target's (`with Prefetcher(raw) as pf:` binds `pf` to what the constructor builds, so `pf.staged` is
    the object `__init__` stored there: the checker keeps attributes by place), or the named object's (`with pf:`),
    or else one held for the block only; its
    `__enter__` summary applies to that place now (a `launch_async` op it leaves in `self.op` holds its loans from
    here), its `__exit__` summary when the block is left, however (`released`, ahead of the items entered
    earlier).  The front ends give `methods` only when neither the target nor the named object is rebound in the
    block, so the place is the object's throughout."""
    assert item.methods is not None
    enter, leave = item.methods
    if isinstance(value, ir.FromPlace):
        sink.emit(ir.Use(value.source, value.span))  # `with pf:` reads `pf`
        place = value.source
        if item.target is not None:
            bind_target(item.target, ir.FromPlace(place, value.span), sink)
    elif isinstance(item.target, PlaceTarget):
        bind_target(item.target, value, sink)
        place = item.target.place
    else:
        bind_target(PlaceTarget(held, span), value, sink)
        released.append(ir.Del(held, span))
        place = held
        if item.target is not None:
            bind_target(item.target, ir.Fresh(), sink)
    enter(place)

    def leaving() -> None:
        # the statement holds the object until its `__exit__` has run: what its containers keep (pending ops
        # `submit` stored in `self.ops`) keeps its loans to the end of the block, read or not in the body
        sink.emit(ir.Use(place, span))
        leave(place)

    # one op (a one-armed `Branch`), so the exits' reversal in `lower_with` keeps its own order
    released.append(ir.Branch((sink.block(leaving),), span))


#: Decorators that make a generator function a context manager whose `__enter__` gives what the generator yields.
CONTEXT_MANAGER_DECORATORS: Final[frozenset[str]] = frozenset({"contextlib.contextmanager"})


#: A statement of a front end's syntax tree (`with_phases`).
S = TypeVar("S")


def with_phases(
    body: Sequence[S],
    is_yield: Callable[[S], bool],
    try_parts: Callable[[S], tuple[Sequence[S], Sequence[S], Sequence[S]] | None],
) -> tuple[list[S], list[S]] | None:
    """The statements of a `@contextlib.contextmanager` generator's `body` that run when a `with` statement enters
    it and when its block is left, split at its one `yield` (the front end checks it has one): an expression
    statement (`is_yield`) of the body, or of the body of a `try` statement of it (`try_parts`: its body, `else`
    and `finally`), as in `try: yield x` / `finally: op.sync_on(s)`.  Entering runs what comes before the `yield`;
    leaving runs the rest of that `try` body, its `else` and `finally`, then the statements after it (a block that
    raises runs the `finally` too; the handlers are for what the block raises).  The front ends lower each part
    as a function of the generator's parameters and apply its call summary at the `with` item and in the block's
    `finally` (`WithItem.phases`), so a `launch_async` op the generator leaves pending on an attribute of an
    argument across the `yield` holds its loans during the block.  None for other shapes."""
    for index, stmt in enumerate(body):
        if is_yield(stmt):
            return list(body[:index]), list(body[index + 1 :])
        parts = try_parts(stmt)
        if parts is None:
            continue
        inner, orelse, final = parts
        for at, sub in enumerate(inner):
            if is_yield(sub):
                return [*body[:index], *inner[:at]], [*inner[at + 1 :], *orelse, *final, *body[index + 1 :]]
    return None


def entered_value(found: Choices[E] | None, span: Span, sink: Lowering[E]) -> Callable[[], ir.Value] | None:
    """The `as` target of `with lend(c) as lo:` of a `@contextlib.contextmanager` generator of the module whose
    every `yield` gives a parameter (`yield b`, `yield a if c else b`: the front ends' yielded parameters, as a
    helper's returned ones): one of the caller's arguments bound to them (`found`, each in one arm of a `Branch`, as
    `bind_choices` does), so two items lending one buffer make the body's launch see it twice.  None when the
    yielded values are not known: the target is a new value."""
    if found is None:
        return None
    return lambda: bind_choices(((), found[1]), span, sink)
