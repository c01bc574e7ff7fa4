"""What calling a function or method the checker can see does to the caller's values: its call summary.

A helper that launches with its parameters (`def double_into(out, src): return scale(out, src)`), runs an op it is
handed (`op.sync_on(stream)`), or a method that moves `self.x` or rebinds `self.scratch = self.total`, changes the
caller's values at the call.  The runtime applies those effects wherever the helper is; the checker must too, or a
use of `x` after `double_into(z, x)` is silent.  Each front end finds the callee's definition (same module: a plain
function by its name, a method through the receiver's class) and maps its parameters to the call's operands; the
callee's summary is computed once by the core's own flow analysis over the callee's IR (`summarize.call_summary`),
and applied here, identically for both front ends.

A summary speaks of *parameter paths*: a parameter name and an attribute path below it (`("self", ("x",))`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, Generic, TypeAlias, TypeVar

from ownership_check.core import ir, keyed_items
from ownership_check.core.messages import MOVE_HELP
from ownership_check.diagnostics import Span

if TYPE_CHECKING:
    from ownership_check.core.calls import Lowering, Operand
    from ownership_check.core.init_state import InitFacts

E = TypeVar("E")

#: A parameter and an attribute path below it: `("self", ("x",))` is `self.x`.
ParamPath: TypeAlias = "tuple[str, tuple[str, ...]]"

#: The `Fresh.kind` of the value a `yield` expression gives in a generator's body (`t = yield result`): what the
#: caller sends in (`callables.received_value`).
RECEIVED_KIND: Final[str] = "received"
#: The parameter path a summary names a value sent into a generator by (`gen.send(x)`): what the body does to
#: the objects its `yield` expressions give.  No Python name is spelled so.
SENT_VALUE: Final[str] = "<sent>"


@dataclass(frozen=True)
class SummaryBrandCheck:
    """The callee launches `kernel` with the caller's value of `path` at `span` (inside the callee; `callee_span`:
    the launch method's name there, `text`: how the callee spells the place).  Mypy types a parameter by its
    annotation (a plain `PreparedLaunch`, a dataclass field of that type, has no brand), and the runtime checks the
    brand when the callee launches: the caller's prepared launch of another kernel is `E0308` at that launch."""

    path: ParamPath
    kernel: str
    span: Span
    callee_span: Span
    text: str


@dataclass(frozen=True)
class EffectTiming:
    """When a callee's effect runs relative to its `await`s (`ir.Suspend`), for the coroutines `asyncio.gather` runs
    together (`callables.lower_gathered`): `early`, on some path before the first `await` (the event loop runs the
    coroutines given to `gather` up to their first `await` in turn); `late`, on some path after one; `ordered`, on
    every path after one that may wait for another coroutine (an `asyncio.Event`, a queue): such an effect is not
    counted as running while another coroutine is suspended.  A function without `await` does all early."""

    early: bool = True
    late: bool = False
    ordered: bool = False

    def __or__(self, other: EffectTiming) -> EffectTiming:
        """Both effects, as one call's borrows: early or late if either is, ordered if both are."""
        return EffectTiming(self.early or other.early, self.late or other.late, self.ordered and other.ordered)


@dataclass(frozen=True)
class SuspendedLoan:
    """A callee's pending op still borrows the caller's value of `path` at one of its `await`s: `first`, at an
    `await` no other precedes (while the coroutines `asyncio.gather` starts after it run up to their first
    `await`); `long`, at one that gives the event loop more than a turn (not `asyncio.sleep(0)`), so the others
    may run their later steps meanwhile."""

    path: ParamPath
    mutable: bool
    first: bool
    long: bool


@dataclass(frozen=True)
class PathBorrow:
    """A borrow the callee takes of the caller's value of `path` on some path through it only (under a test, in a
    loop's body): where (`site`, its launch's argument or the reading call) and when relative to its `await`s
    (`timing`).  Only a coroutine `asyncio.gather` runs applies them (`apply_summary`): another coroutine's pending
    op may meet them while it is suspended (`callables.lower_gathered`)."""

    path: ParamPath
    mutable: bool
    site: Span
    timing: EffectTiming


@dataclass(frozen=True)
class YieldedPart:
    """Part `index` of the tuple a generator yields at every `yield` of a tuple (`yield out, k.launch_async(prep,
    a, b, out)` over `for a, b, out in jobs`): `source`, the caller's value it is, when the same on every path (a
    parameter path, or an item of a parameter's items: an attribute `$it<n>` of the callee's loop `n`, one item
    per loop the caller's application renames apart, `yielded_value`); `loans`, what an op there still borrows of
    the caller's values (paths of the same form)."""

    index: int
    source: ParamPath | None
    # a path whose root is a part's holder (`ir.yielded_part(j)`, `ir.returned_part(j)`, no attributes) is part `j`
    # of the same tuple: `return staged, k.launch_async(prep, x, staged)` lends the new buffer it returns beside it
    loans: tuple[tuple[ParamPath, bool], ...] = ()
    # a new object that is a view of another part's new object: that part, and the view's region when it is
    # literal (`return buf, buf.view(8, 72)`), else `ir.Whole` (the callee's own symbols mean nothing to a caller)
    view_of: tuple[int, ir.Region] | None = None
    # the very object an earlier part is, on every path (`return [sk.zeros(...)] * 2`): that part
    same_as: int | None = None


@dataclass(frozen=True)
class SummaryMove:
    """The callee may have consumed the caller's value of `path` at `span` (a position inside the callee)."""

    path: ParamPath
    span: Span
    help: str | None
    # only when the receiver's attribute is a device value: the callee moves it by a method that other libraries
    # define too (`self.w.to(dev, s)`), so the caller applies it where it knows that place to be one
    # (`AppliedSummary.device_paths`)
    assumed: bool = False
    # when it runs relative to the callee's `await`s, for `asyncio.gather` (`callables.lower_gathered`)
    timing: EffectTiming = EffectTiming()
    # written before every borrow of the caller's values in the callee (`self.pending.sync_on(s)` ahead of a
    # launch with `self.out`): the caller applies it before those borrows, so the op it runs lends nothing to them
    early: bool = False
    # the callee's annotations declare the moved path a device value (`ir.Function.declared_device`): the move
    # applies to the caller's argument whatever the caller knows of it, as a launch's does
    declared: bool = False


@dataclass(frozen=True)
class StoredOp:
    """A pending op a method leaves in a dict (list, deque) attribute of its receiver (`self.inflight[rid] =
    k.launch_async(prep, x, out)`): `attr` the attribute, `loans` what it still borrows of the objects the method
    leaves in the receiver's containers too (`StoredItems.items`): (the item's index, mutable, where it borrows)."""

    attr: str
    loans: tuple[tuple[int, bool, Span], ...]


@dataclass(frozen=True)
class StoredItems:
    """What a method leaves in its receiver's container attributes that another method may meet there (a method may
    run after another): `items`, the attribute holding each new object it stores (`self.slots[rid] = out`), one per
    object, and `ops`, the pending ops it stores beside them that borrow them.  Only items such an op borrows count
    (any other stored object is a new value wherever it is read again, as before)."""

    items: tuple[str, ...]
    ops: tuple[StoredOp, ...]


@dataclass(frozen=True)
class CallSummary:
    """What one call of `function` does to the caller's values.

    `moves`: the caller's objects the callee may consume (on some path to its exit).  `rebinds`: attribute paths of
    parameters the callee binds on some path, each to a new object (`None`, or an `ir.Fresh` saying what kind of
    object: a prepared launch keeps its kernel) or, on every path, to the caller's value of another parameter path
    (`self.scratch = self.total`).  `receiver` names the parameter a
    method's receiver binds (`self`): its paths are the callee's own knowledge, so they apply whatever the caller
    knows of the receiver; a plain parameter's moves apply only to a device value (the summary assumes every
    parameter is one, so `line.partition("=")` in a helper handed a string moves nothing)."""

    function: str
    moves: tuple[SummaryMove, ...] = ()
    rebinds: tuple[tuple[ParamPath, ParamPath | ir.Fresh | None], ...] = ()
    receiver: str | None = None
    borrows: tuple[tuple[tuple[ParamPath, bool], ...], ...] = ()  # per call of the callee: (path, mutable)
    # what the op the callee returns still borrows (`return k.launch_async(prep, a, out)`): (path, mutable)
    returned_loans: tuple[tuple[ParamPath, bool], ...] = ()
    # what a pending op the callee leaves in an attribute of a parameter (`self.pending = k.launch_async(prep,
    # self.x, self.out)`) still borrows: (the attribute holding it, the borrowed path, mutable)
    held_loans: tuple[tuple[ParamPath, ParamPath, bool], ...] = ()
    # per call of the callee: the caller's values it borrows twice, once mutably (`(path, mutable)` as borrowed),
    # a conflict inside the callee.  Its own check reports those; a summary for a receiver of a subclass whose
    # override makes a new one carries it to the call (`dispatched`)
    conflicts: tuple[tuple[tuple[ParamPath, bool], ...], ...] = ()
    # the callee's launches with a prepared launch the caller passes (`square_bwd.launch(plan.bwd, ...)` of a
    # parameter `plan`): the caller's value of that path must be branded for that kernel (`SummaryBrandCheck`)
    brand_checks: tuple[SummaryBrandCheck, ...] = ()
    # the caller's values a coroutine's pending ops still borrow at its `await`s: the coroutines `asyncio.gather`
    # runs with it meet them (`callables.lower_gathered`)
    suspended_loans: tuple[SuspendedLoan, ...] = ()
    # when each call of `borrows` runs relative to the callee's `await`s (empty: `EffectTiming()` for each)
    borrow_timings: tuple[EffectTiming, ...] = ()
    # the parts of the tuples a generator yields (`YieldedPart`), for the caller's loop unpacking its items
    yielded_parts: tuple[YieldedPart, ...] = ()
    # what a method leaves in its receiver's container attributes: pending ops borrowing the objects stored beside
    # them (`StoredItems`), which every method of the class starts with (`init_state.method_start`); not a call's
    # effect (the caller applies none of it)
    stored: StoredItems | None = None
    # the containers below parameters whose stored items a taking method of the callee forgets (`self.ops.pop(0)`,
    # `ops.clear()`): the caller forgets them too at the call, as it does for the same call written in its own body
    # (an op taken out is run or kept elsewhere), so a method draining `self.ops` ends the loans of the ops the
    # caller's `submit` calls stored there
    cleared: tuple[ParamPath, ...] = ()
    # the parts of the tuple a function returns at every `return` (`YieldedPart`), when one is a pending op that
    # still borrows something (`return staged, k.launch_async(prep, x, staged)`): the caller's value of the call
    # is that tuple, its op part holding those loans (`calls._yielded_value`)
    returned_parts: tuple[YieldedPart, ...] = ()
    # the attribute paths `rebinds` binds to a new object that the callee then moved, on every path (`self.mask =
    # tile.ones(...)`, then a launch taking `self.mask`): the caller's place holds a moved object after the call,
    # so a later use of it (in the caller or in another method) is a use after move, labelled inside the callee
    moved_rebinds: tuple[SummaryMove, ...] = ()
    # every `return` gives a new lazy op (`calls.returned_result`: `return sk.zip(p, q)`, `return op.first()`, a
    # launch): the call's result must be used (W0003 where the caller drops it), as a launch's
    returns_op: bool = False
    # ... and where the callee built that op, when every `return` gives one built on one line (the line the
    # runtime's unused-op warning names: W0003 is reported there, with the caller's drop as a label)
    op_built: Span | None = None
    # where the callee takes each of `borrows` (per call, in the same order): its launch's argument, where a conflict
    # the caller's values make is reported (`ir.Borrow.inside`); empty when not known
    borrow_sites: tuple[tuple[Span, ...], ...] = ()
    # the new object a method returns that a pending op it keeps in one of its receiver's container attributes still
    # borrows (`energy = sk.zeros(...)`, `self.pending.append(k.launch_async(prep, x, energy))`, `return energy`):
    # (that attribute, mutable, where the op borrows it); the caller's result is borrowed by the op kept there
    returned_held: tuple[tuple[str, bool, Span], ...] = ()
    # the containers of `cleared` the callee forgets before any borrow the summary keeps (`self.flush()` ahead of
    # `self.particles.to_numpy(...)`): the caller forgets them before those borrows too
    cleared_early: tuple[ParamPath, ...] = ()
    # what a pending op the callee leaves in an attribute of a parameter still borrows of the new objects it binds
    # below a parameter (`self.window = sk.to_device(...)`, `self.pending = k.launch_async(prep, self.window,
    # out)`): (the attribute holding the op, the attribute holding the new object, mutable); applied once the
    # caller's places are rebound (`rebinds`)
    held_new_loans: tuple[tuple[ParamPath, ParamPath, bool], ...] = ()
    # the paths of `rebinds` bound to a new object on some paths out of the callee but left, on others, holding the
    # caller's object the callee moved (`self.ret` moved by a launch, rebound only `if training:`): the caller's
    # place may still be the moved object after the call, so its next use (the next call's launch) is E0382
    kept_moved: tuple[ParamPath, ...] = ()
    # the caller's containers whose items the callee reads through a loop over them (`for p in planes.values():
    # p.to_numpy(s)`), with where it first does: an item the container still holds after a loop moved it
    # (`moved_items`) is a use after move there
    item_reads: tuple[tuple[ParamPath, Span], ...] = ()
    # the borrows of the caller's values on some paths only (`PathBorrow`), for a coroutine `asyncio.gather` runs
    path_borrows: tuple[PathBorrow, ...] = ()
    # the paths of `rebinds` bound on every path out to one view of a caller's value (`self.left, self.right =
    # self.data.split_at(n)`): (path, the viewed value's path, its region as the caller states it)
    rebound_views: tuple[tuple[ParamPath, ParamPath, ir.Region], ...] = ()

    @property
    def empty(self) -> bool:
        return (
            not self.moves and not self.rebinds and not self.borrows and not self.returned_loans
            and not self.held_loans and not self.conflicts and not self.brand_checks and not self.suspended_loans
            and not self.yielded_parts and not self.cleared and not self.returned_parts and not self.moved_rebinds
            and not self.returned_held and not self.cleared_early and not self.held_new_loans
            and not self.kept_moved and not self.item_reads and not self.path_borrows and not self.rebound_views
        )


@dataclass(frozen=True)
class AppliedSummary(Generic[E]):
    """A call's summary with the operands its parameters are bound to (parameters bound to no plain operand, such as
    a `*args` splat or a default, are absent).  `constructs`: the call builds a new object of a class
    (`Cls(a, b)`) and the summary is its initializer's, whose receiver is that new object (bound to no operand):
    what the initializer binds on the receiver becomes the new object's fields (`constructed_fields`)."""

    summary: CallSummary
    bound: tuple[tuple[str, Operand[E]], ...]
    constructs: bool = False
    device_paths: frozenset[tuple[str, ...]] = frozenset()  # receiver attribute paths the caller knows are device
    # a method called on the object a constructor call of this class builds right there (`Holder(a, c).run()`):
    # the object is held, with its fields, while the method runs (`calls.lower_call`)
    built_receiver: str | None = None
    # what the call may run instead, when the receiver's class is not known exactly (a parameter annotated with
    # the class may be given an object of any subclass of the module): each other override's summary
    others: tuple[AppliedSummary[E], ...] = ()
    # the callee is wrapped by a decorator that may call it again with the same arguments (`@retry(3)`: a wrapper
    # calling `fn(*args, **kwargs)` in a loop): the summary applies once, then maybe once more (`apply_summary`)
    repeats: bool = False
    # every `return` of the callee gives a launch whose result is an op holding no loans (`calls.returns_op`): the
    # call's result is that op (one that must be used), whatever kind of callable ran it (a helper, a method, a
    # `@classmethod`, an object's `__call__`)
    returns_op: bool = False
    op_built: Span | None = None  # where the callee built that op (`CallSummary.op_built`)


@dataclass
class Gathered(Generic[E]):
    """A coroutine `asyncio.gather` runs after others that may be suspended with pending ops
    (`callables.lower_gathered`), keyed in the front end's `gathered` table by the coroutine's call: `device` are the
    places those ops borrow (device values, whatever the caller knows of them: a launch took them), and `applied`
    records the summary its call applies (`apply_summary`), so its effects can be checked against those loans."""

    device: frozenset[str]
    applied: AppliedSummary[E] | None = None


def one_line_site(sites: Collection[Span | None]) -> Span | None:
    """The first of `sites` when they are all known and on one line (`CallSummary.op_built`: where a helper built
    the op it returns, wherever it returns from), else None (the caller's line is reported instead)."""
    if not sites or None in sites or len({s.line for s in sites if s is not None}) != 1:
        return None
    return min(s for s in sites if s is not None)


def gathered_call(sink: Lowering[E], node: E) -> Gathered[E] | None:
    """The `Gathered` record of the call `node` while `callables.lower_gathered` lowers it (a front end without a
    `gathered` table: None)."""
    table: dict[int, Gathered[E]] | None = getattr(sink, "gathered", None)
    return None if table is None else table.get(id(node))


def with_receiver_moves(known: CallSummary, assuming: CallSummary) -> CallSummary:
    """`known` plus the moves of the receiver's attribute paths that `assuming` (the same callee's summary when
    the receiver's attributes count as device values) has and `known` has not, marked `assumed`: a method's
    `self.w.to(dev, s)` moves the caller's `m.w` where the caller knows `m.w` to be a device value."""
    have = {(m.path, m.span) for m in known.moves}
    extra = tuple(
        SummaryMove(m.path, m.span, m.help, assumed=True)
        for m in assuming.moves
        if m.path[0] == known.receiver and m.path[1] and (m.path, m.span) not in have
    )
    return replace(known, moves=known.moves + extra) if extra else known


def dispatched(summary: CallSummary, own: CallSummary) -> CallSummary:
    """A method's summary for a receiver of some class (`summary`), with only the conflicts inside it that its
    summary for an object of its own class (`own`) does not have: the method's own check reported those, while a
    subclass's override (`self.target()` returning another attribute) makes new ones, which are the caller's, at
    the call (rustc reports a conflict a call's arguments make at the call)."""
    if summary is own or not summary.conflicts:
        return replace(summary, conflicts=()) if summary.conflicts else summary
    known = set(own.conflicts)
    return replace(summary, conflicts=tuple(c for c in summary.conflicts if c not in known))


#: The receiver parameter of an initializer a class does not spell out (a dataclass's or a NamedTuple's): no Python
#: name, so no field can clash with it.
GENERATED_RECEIVER: Final[str] = "$self"


@dataclass(frozen=True)
class GeneratedInit:
    """The `__init__` `@dataclass` or a `NamedTuple` base generates for a class: its parameters (the fields, in
    order), or `followed` False when the checker cannot tell them (an `InitVar`, a `__post_init__`, a base class,
    a flag that is no literal): its calls are then ordinary calls, never another initializer's."""

    positional: tuple[str, ...] = ()
    keyword_only: tuple[str, ...] = ()
    followed: bool = True
    # a `NamedTuple` base's (not `@dataclass`'s): the instance is a tuple of its fields (`iterated_fields`)
    iterated: bool = False
    # a `@dataclass` with a `__post_init__(self)` of its own, which the generated `__init__` runs last
    # (`with_post_init`)
    post_init: bool = False


def iterated_fields(generated: GeneratedInit | None) -> tuple[tuple[str, ...], ...] | None:
    """The attribute paths iterating an instance gives, in order, when its class is a `NamedTuple` of the module
    whose initializer is followed: the instance is a tuple of its fields, so `k(*args)` passes them, `a, b = args`
    unpacks them and `for t in args` takes them (each the object the field refers to, as `args.x` is).  None for a
    `@dataclass` (its instances are not iterable: the runtime raises) or an initializer not followed."""
    if generated is None or not generated.followed or not generated.iterated:
        return None
    return tuple((name,) for name in (*generated.positional, *generated.keyword_only))


def with_post_init(fields: CallSummary, post_init: CallSummary | None) -> CallSummary | None:
    """The generated `__init__`'s summary (`field_summary`) followed by its class's `__post_init__`'s (`receiver`
    its own name for the object), when that only binds fields, to new objects, to other fields or to views of them
    (`self.left, self.right = self.data.split_at(self.frames)`): a field it reads is the argument the generated
    `__init__` bound it to.  None (the constructor is not followed) for a `__post_init__` that does anything else."""
    if post_init is None:
        return fields
    if replace(post_init, rebinds=(), rebound_views=(), receiver=None, function=fields.function) != CallSummary(
        fields.function
    ):
        return None
    receiver = post_init.receiver
    given = {target[1][0]: source for target, source in fields.rebinds if len(target[1]) == 1}
    own = {target for target, _ in post_init.rebinds}

    def argument(path: ParamPath) -> ParamPath | None:
        # a field of the object as the call gave it: the argument, when `__post_init__` does not rebind the field
        if path[0] != receiver or not path[1] or (receiver, path[1][:1]) in own:
            return None
        source = given.get(path[1][0])
        return (source[0], source[1] + path[1][1:]) if isinstance(source, tuple) else None

    def ours(path: ParamPath) -> ParamPath:
        return (GENERATED_RECEIVER, path[1]) if path[0] == receiver else path

    rebinds = dict(fields.rebinds)
    for target, source in post_init.rebinds:
        if target[0] != receiver:
            return None
        rebinds[ours(target)] = (argument(source) or ours(source)) if isinstance(source, tuple) else source
    views = []
    for target, base, region in post_init.rebound_views:
        found = argument(base)
        if target[0] != receiver or found is None:
            return None
        views.append((ours(target), found, region))
    return replace(fields, rebinds=tuple(rebinds.items()), rebound_views=tuple(views))


def field_summary(name: str, fields: Sequence[str]) -> CallSummary:
    """The summary of the `__init__` a dataclass or a NamedTuple generates: each field is bound to its argument
    (`fields` are the generated parameters, which are the fields, in order)."""
    rebinds = tuple(((GENERATED_RECEIVER, (f,)), (f, ())) for f in fields)
    return CallSummary(name, rebinds=rebinds, receiver=GENERATED_RECEIVER)


def constructed_fields(
    applied: AppliedSummary[E], node: E, span: Span, sink: Lowering[E]
) -> tuple[tuple[tuple[tuple[str, ...], ir.Place], ...], frozenset[tuple[str, ...]]]:
    """The fields a constructor call gives its new object, each staged in a temporary now (the object is bound to
    its place after the call returns: `ir.Fresh.parts`): an attribute path the initializer binds, on every path,
    to an argument (or a path below one) aliases the operand the call bound that parameter to (the caller's own
    object, a prepared launch with its brand, a pending op with its loans); one it binds to a new object keeps what
    kind of object it is; anything else is a new value.  Also returns the paths bound to a device-like operand."""
    summary = applied.summary
    bound = dict(applied.bound)
    moved = {m.path for m in summary.moves}
    parts: list[tuple[tuple[str, ...], ir.Place]] = []
    device: set[tuple[str, ...]] = set()
    views: dict[ParamPath, tuple[ir.Place, ir.Region]] = {}
    for target, (param, attrs), region in summary.rebound_views:
        operand = bound.get(param)
        if param != summary.receiver and (param, attrs) not in moved and operand is not None and operand.place:
            views[target] = (extend_place(operand.place, attrs), region)
    for (param, attrs), source in summary.rebinds:
        if param != summary.receiver or not attrs:
            continue
        value: ir.Value = source if isinstance(source, ir.Fresh) else ir.Fresh()
        items: list[tuple[str, Operand[E]]] = []
        if isinstance(source, tuple) and source not in moved and source[0] != summary.receiver:
            operand = bound.get(source[0])
            if operand is not None and operand.place is not None:
                value = ir.FromPlace(extend_place(operand.place, source[1]), span)
                if operand.device:
                    device.add(attrs)
            elif operand is None and not source[1]:
                # the `**kwargs` dict itself (`self._bufs = bufs`): a new dict whose item under each keyword is
                # the object the call passed by it (`bind_parameters`' `spread`)
                prefix = source[0] + "."
                items = [(name[len(prefix):], op) for name, op in applied.bound if name.startswith(prefix)]
        stage = sink.temp(".".join(attrs))
        base = views.get((param, attrs))
        if base is not None:
            # a view of an argument (`self.left, self.right = data.split_at(n)`): the field is that view
            sink.emit(ir.View(stage, base[0], base[1], span), node)
        else:
            sink.emit(ir.Bind((stage,), (value,), span), node)
        parts.append((attrs, stage))
        for key, operand in items:
            if operand.place is None:
                continue
            # (the item spelled as a subscript reads it, `keyed_items.segment`: `reg._bufs["x"]`, and `reg["x"]`
            # of a `__getitem__` returning `self._bufs[name]`, are that place)
            item = (*attrs, keyed_items.segment(key) or key)
            stage = sink.temp(".".join(item))
            sink.emit(ir.Bind((stage,), (ir.FromPlace(operand.place, span),), span), node)
            parts.append((item, stage))
            if operand.device:
                device.add(item)
    return tuple(parts), frozenset(device)


def extend_place(place: ir.Place, attrs: tuple[str, ...]) -> ir.Place:
    """`place` with `attrs` below it, spelled after its own spelling (a last `ir.STORED_ATTR` as `[...]`)."""
    if not attrs:
        return place
    if attrs[-1] == ir.STORED_ATTR:
        # the items a container keeps (a callee's `self.inbox.get()`): spelled `worker.inbox[...]`
        return ir.stored_item(extend_place(place, attrs[:-1]))
    display = None if place.display is None else ir.shown_below(place.display, attrs)
    return ir.Place(place.root, place.attrs + attrs, display)


#: The help of a move by a launch (a tile kernel's argument) or `sync_on`.
_LAUNCH_MOVE_HELP: Final[str] = MOVE_HELP["launch"]


def apply_summary(
    applied: AppliedSummary[E], node: E, span: Span, sink: Lowering[E], holder: ir.Place | None = None
) -> None:
    """Emit, after a call's arguments, the callee's borrows of the caller's values (one call group per call in the
    callee, at the arguments' spans), the loans of the op it returns (held by `holder`, what the call's result is
    bound to), its moves of them (with the callee's spans, so the note points inside it), then its rebinds of
    attribute paths (in parallel, reading the caller's values as they were before them)."""
    gathered = gathered_call(sink, node)
    if gathered is not None and gathered.applied is None:
        gathered.applied = applied  # a coroutine `asyncio.gather` runs: `callables.lower_gathered` checks it
    if applied.others:
        # one arm per override the receiver's object may run
        ways = (replace(applied, others=()), *applied.others)
        arms = tuple(sink.block(lambda w=way: apply_summary(w, node, span, sink, holder)) for way in ways)  # type: ignore[misc]
        sink.emit(ir.Branch(arms, span))
        return
    if applied.repeats:
        # the wrapper may run the callee again with the same objects: it hands the arguments on again (a use of
        # each, at the caller's argument: what the first run moved is E0382 there), and the second run borrows as
        # the first did (what it moves, the first run moved already)
        once = replace(applied, repeats=False)
        apply_summary(once, node, span, sink, holder)

        def again() -> None:
            for _, operand in applied.bound:
                if operand.place is not None and not operand.star:
                    sink.emit(ir.Use(operand.place, operand.span), node)
            apply_summary(replace(once, summary=replace(once.summary, moves=())), node, span, sink, holder)

        sink.emit(ir.Branch((sink.block(again), ()), span))
        return
    summary = applied.summary
    bound = dict(applied.bound)

    def keyed_path(attrs: tuple[str, ...]) -> tuple[str, ...] | None:
        # an item under the callee's parameter `key` (`bufs[key]`, `keyed_items.param_key`) is the caller's item
        # under the key it passed: a literal (`segment(layers, "enamel")`), or a parameter of its own
        out: list[str] = []
        for attr in attrs:
            name = keyed_items.param_of(keyed_items.segment_key(attr))
            if name is None:
                out.append(attr)
                continue
            given = bound.get(name)
            key = sink.operand_key(given.node) if given is not None else None
            part = keyed_items.segment(key) if key is not None else None
            if part is None:
                return None
            out.append(part)
        return tuple(out)

    def targets(
        param: str, attrs: tuple[str, ...], device_only: bool, loan: bool = False
    ) -> list[ir.Place] | None:
        # `loan`: a borrow the callee's launch makes of the parameter or a path below it (`step.src` of
        # `k.launch(p, s, step.src, step.dst)`): the launch tells that place is a device value, whatever the argument
        # is (an object with attributes, `run_step(low, ...)`, a parameter of the caller's own of unknown type), so it
        # applies to any argument that is a place
        operand = bound.get(param)
        if operand is None:
            return None
        plain_object = loan and operand.place is not None
        # a place another coroutine's pending op borrows is a device value (`Gathered.device`)
        lent = (
            gathered is not None
            and operand.place is not None
            and extend_place(operand.place, attrs).key in gathered.device
        )
        if device_only and param != summary.receiver and not (
            operand.device or operand.choices or plain_object or lent
        ):
            return None
        if operand.place is not None:
            path = keyed_path(attrs)
            if path is None:
                return None  # `bufs[key]` of the callee's parameter `key`, given a key the caller cannot name
            # a path below the caller's item of a container (`bufs["out"]` of a callee given `bufs`) is that item
            return [sink.keyed_element(extend_place(operand.place, path))]
        if operand.choices and not attrs:
            return [extend_place(c.place, attrs) for c in operand.choices if c.place is not None]
        return None

    def borrow(
        param: str,
        attrs: tuple[str, ...],
        mutable: bool,
        number: int,
        by: ir.Place | None = None,
        inside: Span | None = None,
    ) -> None:
        # an argument that may be one of several places (`a if flag else c`, `(a, c)[k % 2]`, `pick(a, c)`) is
        # borrowed as each of them, one `Branch` arm apiece in the call's group, as a direct launch's argument is
        found = targets(param, attrs, device_only=True, loan=True) or []
        operand = bound.get(param)
        if operand is None:
            return
        if not attrs:
            found = found + _view_temps(operand, sink)
        if found:
            _each(
                found,
                lambda place: sink.emit(
                    ir.Borrow(place, mutable, number, operand.span, by, inside=inside), node
                ),
                span,
                sink,
            )

    sites: dict[ParamPath, list[SummaryMove]] = {}
    for move in summary.moves:
        sites.setdefault(move.path, []).append(move)

    def apply_moves(early: bool) -> None:
        # in the callee's source order: a method that runs `self.pending` before moving `self.out` ends the loans
        # first
        ordered = sorted(sites.items(), key=lambda item: min((m.span.line, m.span.column) for m in item[1]))
        for path, all_moves in ordered:
            moves = [m for m in all_moves if m.early == early]
            if not moves:
                continue
            # a parameter (or a path below one) that the callee's launch moved (`double(out, sw.pos)`, `stage(k,
            # s, self.mask)`) is a device value, as a launch's loan tells (`targets`' `loan`): the move applies to
            # any argument that is a place (`mv(sw, s)` of a dataclass holding tensors)
            # (a moved item of a container, `moved_items`, is about the container the caller passed: any place)
            launched = path[1][-1:] == (ir.MOVED_ITEM_ATTR,) or all(
                m.help == _LAUNCH_MOVE_HELP or m.declared for m in moves
            )
            found = targets(*path, device_only=True, loan=launched)
            if not found:
                continue
            if path[0] == summary.receiver and path[1] not in applied.device_paths:
                moves = [m for m in moves if not m.assumed]
                if not moves:
                    continue

            def act(place: ir.Place, ms: list[SummaryMove] = moves) -> None:
                # each site consumed the value on its own path through the callee: one move, at one of them
                emit = [ir.Move(place, m.span, m.help, inside=summary.function, call=span) for m in ms]
                if len(emit) == 1:
                    sink.emit(emit[0], node)
                else:
                    arms = tuple(sink.block(lambda m=m: sink.emit(m, node)) for m in emit)  # type: ignore[misc]
                    sink.emit(ir.Branch(arms, span))

            _each(found, act, span, sink)

    def forget_stored(paths: tuple[ParamPath, ...]) -> None:
        # the callee took every op out of these containers (`while self.ops: self.ops.pop(0).sync_on(s)`)
        for path in paths:
            found = targets(*path, device_only=False)
            if found is not None and len(found) == 1:
                sink.emit(ir.Del(ir.stored_item(found[0]), span), node)

    for (param, attrs), site in summary.item_reads:
        # the callee reads the items of the container the caller passed (`moved_items`)
        for place in targets(param, attrs, device_only=False) or ():
            sink.emit(ir.Use(place, span, element=True, inside=site), node)
    apply_moves(early=True)
    forget_stored(summary.cleared_early)
    # where the callee takes each of the caller's values (`CallSummary.borrow_sites`): a conflict is reported at
    # the later argument, inside the callee where it names its launch's argument; the loans of an op it returns
    # or keeps are taken there too
    inside: dict[ParamPath, Span] = {}
    for group, sites_of in zip(summary.borrows, summary.borrow_sites, strict=False):
        for ((param, attrs), _), site in zip(group, sites_of, strict=False):
            inside.setdefault((param, attrs), site)
    for group in summary.borrows:
        # one call of the callee borrowing the caller's values
        number = sink.next_group()
        for (param, attrs), mutable in group:
            borrow(param, attrs, mutable, number, inside=inside.get((param, attrs)))
    if gathered is not None:
        # a coroutine `asyncio.gather` runs: its borrows on some paths only, each on a path of its own, where
        # another coroutine's pending op may meet them (`callables.lower_gathered`)
        for extra in summary.path_borrows:
            taking = sink.block(
                lambda e=extra: borrow(e.path[0], e.path[1], e.mutable, sink.next_group(), inside=e.site)  # type: ignore[misc]
            )
            if taking:
                sink.emit(ir.Branch((taking, ()), span))
    for group in summary.conflicts:
        # the callee's call borrowing one of the caller's values twice (a subclass's override made it so)
        number = sink.next_group()
        for (param, attrs), mutable in group:
            borrow(param, attrs, mutable, number)
    if holder is not None:
        for (param, attrs), mutable in summary.returned_loans:
            borrow(param, attrs, mutable, sink.next_group(), holder, inside.get((param, attrs)))
    for holding, (param, attrs), mutable in summary.held_loans:
        # the op the callee stored there keeps them: the loans attach to it when the rebinds below bind it
        found, held = targets(param, attrs, device_only=True, loan=True), targets(*holding, device_only=False)
        if held is None and applied.constructs and holder is not None and holding[0] == summary.receiver:
            # `job = Job(a, c)` whose `__init__` stores `self.op = k.launch_async(...)`: the new object's field
            held = [extend_place(holder, holding[1])]
        operand = bound.get(param)
        if found is not None and len(found) == 1 and held is not None and len(held) == 1 and operand is not None:
            at = inside.get((param, attrs))
            loan = ir.Borrow(found[0], mutable, sink.next_group(), operand.span, held[0], inside=at)
            # an attribute's op borrows it; a container's stored items gain one more (`desk.pending.append(op)`)
            for op in ir.keep_op(held[0], [loan], span) if holding[1][-1] == ir.STORED_ATTR else [loan]:
                sink.emit(op, node)
            mark = getattr(sink, "mark_device", None)
            if mark is not None:
                mark(held[0])  # an op from here on: running it (`job.pending.sync_on(s)`) ends the loans
                # the callee's launch lent it, so it is a device value (a launch refuses anything else), even one
                # `__init__` made itself (`self.obs = sk.zeros(...)`): `env.obs.to(d1, s1)` then moves it
                mark(found[0])
    for check in summary.brand_checks:
        # at the callee's launch, spelled as there: the caller's prepared launch (or each it may be) must be the
        # kernel's (a place the caller knows no brand of passes)
        found = targets(*check.path, device_only=False)
        if found:
            _each(
                [ir.Place(p.root, p.attrs, check.text) for p in found],
                lambda place, c=check: sink.emit(ir.CheckBrand(place, c.kernel, c.span, c.callee_span), node),  # type: ignore[misc]
                span,
                sink,
            )
    apply_moves(early=False)
    forget_stored(summary.cleared)
    moved = {m.path for m in summary.moves}
    # the holders of `held_new_loans` are bound last: the loans on the new objects bound first attach to the op
    # bound there (as `held_loans` do)
    holders = {holding for holding, _, _ in summary.held_new_loans}
    for stage in (False, True):
        places: list[ir.Place] = []
        values: list[ir.Value] = []
        kept: list[tuple[ir.Place, ir.Value]] = []
        for target, source in summary.rebinds:
            found = targets(*target, device_only=False)
            if found is None or len(found) != 1 or (target in holders) != stage:
                continue
            value: ir.Value = source if isinstance(source, ir.Fresh) else ir.Fresh()
            if isinstance(source, tuple) and source not in moved:
                origin = targets(*source, device_only=False)
                if origin is not None and len(origin) == 1:
                    value = ir.FromPlace(origin[0], span)
            if target in summary.kept_moved:
                kept.append((found[0], value))
                continue
            places.append(found[0])
            values.append(value)
        if places:
            sink.emit(ir.Bind(tuple(places), tuple(values), span), node)
        for place, value in kept:
            # rebound on some of the callee's paths; on the others the place keeps the moved object
            bind = sink.block(lambda p=place, v=value: sink.emit(ir.Bind((p,), (v,), span), node))  # type: ignore[misc]
            sink.emit(ir.Branch((bind, sink.block(lambda: None)), span))
        if not stage:
            _held_new_loans(summary, bound, targets, sink, node)
    for target, source, region in summary.rebound_views:
        # a view of the caller's value, once the rebinds have bound the places (`self.data = data` first)
        found, base = targets(*target, device_only=False), targets(*source, device_only=False)
        if found is not None and len(found) == 1 and base is not None and len(base) == 1:
            sink.emit(ir.View(found[0], base[0], region, span), node)
    for move in summary.moved_rebinds:
        found = targets(*move.path, device_only=False)
        if found is not None and len(found) == 1:
            sink.emit(ir.Move(found[0], move.span, move.help, inside=summary.function, call=span), node)


def _held_new_loans(
    summary: CallSummary,
    bound: Mapping[str, Operand[E]],
    targets: Callable[..., list[ir.Place] | None],
    sink: Lowering[E],
    node: E,
) -> None:
    """The loans a pending op the callee stored below a parameter keeps on the new objects it bound below one
    (`CallSummary.held_new_loans`), on the caller's places once the new objects are bound there."""
    for holding, (param, attrs), mutable in summary.held_new_loans:
        found, held = targets(param, attrs, device_only=False), targets(*holding, device_only=False)
        operand = bound.get(param)
        if found is not None and len(found) == 1 and held is not None and len(held) == 1 and operand is not None:
            sink.emit(ir.Borrow(found[0], mutable, sink.next_group(), operand.span, held[0]), node)
            mark = getattr(sink, "mark_device", None)
            if mark is not None:
                mark(held[0])  # an op from here on: running it ends the loan (as for `held_loans`)
                mark(found[0])


def _view_temps(operand: Operand[E], sink: Lowering[E]) -> list[ir.Place]:
    """A temporary for each view an argument is or may be (`c[0:32]`, `c.view(0, n) if flag else d`), bound to its
    region of the viewed buffer, as a direct launch's argument is: a helper's launch borrows that region."""
    from ownership_check.core.calls import argument_temp, view_region  # `calls` imports this module

    temps: list[ir.Place] = []
    for option in (operand, *operand.choices):
        if option.place is None and option.view is not None:
            region = view_region(option.view, sink)
            if region is not None:
                temp = argument_temp(sink.temp(region[0].text))
                sink.emit(ir.View(temp, region[0], region[1], option.span))
                temps.append(temp)
    return temps


def _each(places: Sequence[ir.Place], act: Callable[[ir.Place], None], span: Span, sink: Lowering[E]) -> None:
    if len(places) == 1:
        act(places[0])
        return
    arms = tuple(sink.block(lambda p=place: act(p)) for place in places)  # type: ignore[misc]
    sink.emit(ir.Branch(arms, span))


def argument_sites(applied: AppliedSummary[E]) -> dict[int, Span]:
    """Where the callee first takes each argument the call binds to a parameter (by the operand's `id`): the
    earliest, in the callee's source, of its launches' arguments that borrow or move the parameter or a path below
    it (`CallSummary.borrow_sites`, `SummaryMove.span`).  Handing a moved value to the function is no error by itself
    in Python; the runtime raises there, so a use after move of the argument is reported there (`ir.Use.inside`).
    None known when the call may run another function instead (`others`): the runtime may raise in that one."""
    if applied.others:
        return {}
    summary = applied.summary
    found: dict[str, Span] = {}

    def note(param: str, site: Span) -> None:
        earlier = found.get(param)
        if earlier is None or (site.line, site.column) < (earlier.line, earlier.column):
            found[param] = site

    for group, sites in zip(summary.borrows, summary.borrow_sites, strict=False):
        for ((param, _), _), site in zip(group, sites, strict=False):
            note(param, site)
    for move in summary.moves:
        note(move.path[0], move.span)
    return {id(operand): found[name] for name, operand in applied.bound if name in found}


#: How many summaries may be computed inside one another (a helper calling a helper ...): deeper calls get none.
MAX_NESTING = 12


class SummaryMemo:
    """Summaries of one analysis run, by callee (a front end's key for its definition node).

    A callee reached again while its own summary is being computed is recursive: every function of that cycle gets
    no summary (its calls stay ordinary calls), rather than one computed from a partial answer.  An empty summary
    is still a summary: the call runs the user's own function or method (`promise.sync_on(...)` of the user's
    class `Promise` is not the library's moving method)."""

    def __init__(self) -> None:
        self.done: dict[object, CallSummary | None] = {}
        self.running: list[object] = []
        self.cyclic: set[object] = set()
        # what each class's `__init__` leaves on `self` (`init_state.init_facts`), by the front end's key
        self.init_facts: dict[object, InitFacts] = {}
        # the two functions a front end builds of a `@contextlib.contextmanager` generator's body (`calls.with_phases`),
        # by its key: kept here, alive as long as the summaries keyed by their ids
        self.phases: dict[object, tuple[object, object]] = {}

    def get(self, key: object, compute: Callable[[], CallSummary | None]) -> CallSummary | None:
        if key in self.done:
            return self.done[key]
        if key in self.running:
            self.cyclic.update(self.running[self.running.index(key) :])
            return None
        if len(self.running) >= MAX_NESTING:
            return None
        self.running.append(key)
        try:
            found = compute()
        finally:
            self.running.pop()
        if key in self.cyclic:
            found = None
        self.done[key] = found
        return found


def star_count(positional: Sequence[str], args: Sequence[Operand[E]], receiver: bool) -> int:
    """How many items the tuple of a callee's `*args` parameter holds at a call: the positional operands beyond
    the ones its named positional parameters take (`receiver`: a method's receiver takes the first).  0 when a
    splat at the call makes that unknown, or when there are none or more than a container follows: the summary
    then knows nothing of the tuple's items."""
    from ownership_check.core.calls import MAX_CONTAINER_ITEMS  # `calls` imports this module

    plain = [a for a in args if a.keyword is None]
    if any(a.star for a in plain):
        return 0
    extra = len(plain) - max(len(positional) - (1 if receiver else 0), 0)
    return extra if 0 < extra <= MAX_CONTAINER_ITEMS else 0


def star_items(star: str, count: int) -> tuple[str, ...]:
    """The names a call summary gives the items of the `*args` parameter `star` of a call passing `count` of them
    (`star_count`): the roots of the element places of the tuple `star` is in the callee's lowering
    (`calls.element_place`: `bufs$e0`), so `k.launch(p, s, *bufs)` and `bufs[1]` there borrow the caller's
    operands in order (an index the callee computes, any of them); `bind_parameters` binds them at the call."""
    from ownership_check.core.calls import element_place  # `calls` imports this module

    return tuple(element_place(star, i, star).root for i in range(count))


def spread_keywords(
    positional: Sequence[str], keyword_only: Sequence[str], args: Sequence[Operand[E]]
) -> tuple[str, ...]:
    """The keywords a call passes into the callee's `**kwargs` parameter, in the order given: those no named
    parameter takes (`run(mix, dry=a, out=a)` of `def run(kernel, **bufs)`: `dry`, `out`).  Empty when a splat at
    the call (`**opts`) may pass others, or when there are none or more than a container follows: the summary then
    knows nothing of the dict's items."""
    from ownership_check.core.calls import MAX_CONTAINER_ITEMS  # `calls` imports this module

    if any(a.star for a in args):
        return ()
    named = {*positional, *keyword_only}
    keys = tuple(dict.fromkeys(a.keyword for a in args if a.keyword is not None and a.keyword not in named))
    return keys if len(keys) <= MAX_CONTAINER_ITEMS else ()


def spread_items(spread: str, keys: Sequence[str]) -> tuple[str, ...]:
    """The names a call summary gives the items of the `**kwargs` parameter `spread` of a call passing the keywords
    `keys` (`spread_keywords`): the roots of the element places of the mapping container `spread` is in the
    callee's lowering (`calls.element_place`: `bufs$e0` for `bufs["dry"]`), so a launch with `bufs["dry"]` and
    `bufs["out"]` there borrows the caller's operands passed as `dry=` and `out=`; `bind_parameters` binds them at
    the call."""
    from ownership_check.core.calls import element_place  # `calls` imports this module

    return tuple(element_place(spread, i, spread, key).root for i, key in enumerate(keys))


def factory_captures(
    factory: Sequence[tuple[str, Operand[E]]],
    captured: Collection[str],
    stable: Callable[[Operand[E]], bool],
    span: Span,
) -> tuple[tuple[str, Operand[E]], ...]:
    """The parameters of a function factory that the function it returned reads (`captured`: names that function
    never binds, the factory never rebinds), each bound to the operand the factory's call passed for it
    (`factory`: `bind_parameters` of that call) when that is a name with one value wherever the caller reads it
    (`stable`): the returned function holds that object at each of its calls (`acc = make_acc(total)`, then
    `acc(x)` launches with the caller's `total`).  At `span`, the call's: its launch borrows them there."""
    return tuple(
        (name, replace(operand, span=span))
        for name, operand in factory
        if name in captured and operand.place is not None and not operand.place.attrs and stable(operand)
    )


def bind_parameters(
    positional: Sequence[str],
    keyword_only: Sequence[str],
    args: Sequence[Operand[E]],
    receiver: Operand[E] | None,
    spread: str | None = None,
    star: str | None = None,
    *,
    spread_keys: tuple[str, tuple[str, ...]] | None = None,
) -> tuple[tuple[str, Operand[E]], ...]:
    """Parameter name -> operand for a call's plainly bound arguments (a method's receiver binds the first
    positional parameter; nothing after a `*args` splat binds by position; `**kwargs` binds nothing).  With
    `spread`, the name of the callee's `**kwargs` parameter, a keyword no other parameter takes binds
    `<spread>.<keyword>`: that dict's item (`Buffers(x=a, y=c)` of `def __init__(self, **bufs)`).  With `star`,
    the name of the callee's `*args` parameter, the positional operands after the named ones bind its items
    (`star_items`), in order.  With `spread_keys`, the callee's `**kwargs` parameter and the keywords the call
    passes into it (`spread_keywords`), such a keyword binds that dict's item (`spread_items`)."""
    names = list(positional)
    spread_roots = dict(zip(spread_keys[1], spread_items(*spread_keys), strict=True)) if spread_keys else {}
    extra = list(star_items(star, star_count(positional, args, receiver is not None))) if star is not None else []
    bound: dict[str, Operand[E]] = {}
    if receiver is not None:
        if not names:
            return ()
        bound[names.pop(0)] = receiver
    position = 0
    splat = False
    for arg in args:
        if arg.star:
            splat = True
            continue
        if arg.keyword is not None:
            if arg.keyword in names or arg.keyword in keyword_only:
                bound[arg.keyword] = arg
            elif spread is not None:
                bound[f"{spread}.{arg.keyword}"] = arg
            elif arg.keyword in spread_roots:
                bound[spread_roots[arg.keyword]] = arg
        elif not splat and position < len(names):
            bound[names[position]] = arg
            position += 1
        elif not splat and extra:
            bound[extra.pop(0)] = arg
    return tuple(bound.items())
