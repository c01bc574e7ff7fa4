"""The flow IR: what a front end lowers a function body (or a module's top level) into.

The IR is deliberately tiny and structured.  Front ends (libcst for the CLI, mypy's AST for the plugin)
resolve names, imports and kernel signatures themselves and emit only what matters for ownership, in
evaluation order:

    Bind      targets := values, in parallel (`d = c` aliases, `a, b = b, a` swaps, a call result is fresh)
    View      target := a view of a place (`c.view(0, 8)`, `c[0:8]`, one half of `c.split_at(k)`)
    Borrow    a shared or mutable borrow of a place by one call (`group`); optionally held by a holder place
              (a pending `launch_async` DeviceOp, a kernel-side `get_mut` result) while the holder is live
    Move      the place's object is consumed (tile launch argument, receiver of `sync_on`, `get_mut` witness)
    Use       the place is read (any other mention, including captures by nested functions and lambdas)
    Del       the name is unbound
    Produce   a call made a lazy `DeviceOp` that must be used: bound to `target`, or dropped at once (an
              expression statement) when `target` is None (`must_use` checks it; W0003)
    CheckBrand / RequireUnsafe   E0308 and E0133 checks at one call
    Suspend   an `await` of a coroutine: the event loop may run other coroutines there (`waits`: it may wait for
              one of them, not just yield)
    Unsafe    a `with simt.unsafe():` body (unsafe-enter / unsafe-exit are its boundaries)
    Branch    one of several arms runs (if/elif/else, match, boolean short-circuit, conditional expressions)
    Loop      head (condition or iteration binding), body, else; `break`/`continue` target the innermost loop
    Try       body, handlers, else, finally
    Return / Raise / Break / Continue   end a path

Every node carries the `Span` the diagnostics point at; the core never looks at source text.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Final, TypeAlias

from ownership_check.diagnostics import Span


@dataclass(frozen=True)
class Place:
    """A name or a dotted attribute path (`self.out`); `text` is how diagnostics spell it."""

    root: str
    attrs: tuple[str, ...] = ()
    display: str | None = None

    @property
    def key(self) -> str:
        return ".".join((self.root, *self.attrs))

    @property
    def text(self) -> str:
        if self.display is not None:
            return self.display
        # an item under a literal key (`keyed_items`) is spelled as the subscript it is: `book['shocks']`; under a
        # name (`keyed_items.param_key`, spelled `['\x00=axis']` in a path) as that name: `centered[axis]`
        return shown_below(self.root, self.attrs)

    @classmethod
    def parse(cls, dotted: str) -> Place:
        root, *attrs = dotted.split(".")
        return cls(root, tuple(attrs))


#: The root prefix of a call argument's temporary (a view passed inline, `k.launch(p, s, a.view(0, n))`): it lives
#: for that call only, so the checker does not count it as keeping any object reachable after the call.
ARGUMENT_TEMP_PREFIX: Final[str] = "$a"


#: The holder of the op a function returns (`return k.launch_async(...)`, `return pending.then(f)`): the loans the
#: op keeps are the caller's at the call (`call_effects.CallSummary.returned_loans`); it is never bound.
RETURN_HOLDER: Final[str] = "$return"


#: Where a function's `return <call>` binds the lazy op the call made (`calls.returned_result`): its kind tells the
#: summary whether every `return` gives a new op (`call_effects.CallSummary.returns_op`).  The op's loans stay
#: with `RETURN_HOLDER`; nothing else reads this place.
RETURNED_OP: Final[str] = "$returned op"


#: The root prefix of the holder of part `i` of a tuple a generator yields (`yield out, k.launch_async(...)`:
#: `$yield0`, `$yield1`, `yielded_part`): what each part is (a parameter's value or an item of one) and what an op
#: there still borrows are the caller's where it takes the item (`CallSummary.yielded_parts`).  A root of its
#: own, never a path below another (an op held there stays reachable, so its loans last until the exit).
YIELD_PART: Final[str] = "$yield"


#: How a path segment of an item under a name key begins (`keyed_items.segment` of a `param_key`).
_NAME_ITEM = "['\\x00="


def shown_below(text: str, attrs: Sequence[str]) -> str:
    """`text` (a place's spelling) with the path `attrs` below it, each item segment spelled as its subscript
    (`book['shocks']`, `centered[axis]`), each attribute after a dot."""
    return "".join((text, *(_shown_item(a) if a.startswith("[") else f".{a}" for a in attrs)))


def _shown_item(segment: str) -> str:
    """An item segment as its subscript is written: `['a']` as is, one under a name key as `[axis]`."""
    if segment.startswith(_NAME_ITEM) and segment.endswith("']"):
        return f"[{segment[len(_NAME_ITEM):-2]}]"
    return segment


def yielded_part(index: int) -> Place:
    """`$yield<index>`: the holder of part `index` of a yielded tuple (`YIELD_PART`)."""
    return Place(f"{YIELD_PART}{index}")


#: The root prefix of the holder of part `i` of a tuple a function returns (`return staged, k.launch_async(prep,
#: x, staged)`: `$rpart0`, `$rpart1`, `returned_part`), read as `YIELD_PART`'s are (`CallSummary.returned_parts`).
RETURN_PART: Final[str] = "$rpart"


def returned_part(index: int) -> Place:
    """`$rpart<index>`: the holder of part `index` of a returned tuple (`RETURN_PART`)."""
    return Place(f"{RETURN_PART}{index}")


#: The mark inside the root of the slot keeping the object a nested function's parameter default was when its `def`
#: ran (`report$dfield` for `def report(tag, field=density)`: `parameter_defaults.default_slot`).
DEFAULT_SLOT_MARK: Final[str] = "$d"


#: The attribute under a place holding an op that stands for the op's *value* (`p.$`), and the prefix of the
#: attribute for item `i` of a tuple value (`p.$.$0`).  Value paths are bound only by the core (a launch's
#: arguments after `p = k.launch_async(...)`, `sync_on`'s result); a value path that was never bound reads as
#: a new object, never as an unknown shared one.
VALUE_ATTR: Final[str] = "$"


def value_place(place: Place, *path: str) -> Place:
    """`place.$` (the value of the op `place` refers to), or a path below it (`value_place(p, "$0")` = `p.$.$0`)."""
    return Place(place.root, (*place.attrs, VALUE_ATTR, *path), place.display)


def item_place(place: Place, index: int) -> Place:
    """Item `index` of the tuple value at a value path (`p.$` -> `p.$.$0`)."""
    return Place(place.root, (*place.attrs, f"{VALUE_ATTR}{index}"), place.display)


#: The attribute prefix standing for "the item loop `site` takes from" a container place (`xs.$it3`): reading it
#: gives an object derived from the container's object and the loop, so `for a, b in zip(xs, ys)` with `ys` the
#: same list as `xs` binds `a` and `b` to one object, and each iteration to a new one.
ITEM_ATTR: Final[str] = "$it"


def iteration_item(place: Place, site: int) -> Place:
    """`place.$it<site>`: the item loop `site` takes from `place` in one iteration (`ITEM_ATTR`)."""
    return Place(place.root, (*place.attrs, f"{ITEM_ATTR}{site}"), place.display)


#: The attribute of a container place standing for "some item of it was moved" (`moved_items`): a callee's summary
#: moves the caller's `bufs.$moved` when its loop moved an item of its parameter `bufs`; no Python attribute is
#: spelled so.
MOVED_ITEM_ATTR: Final[str] = "$moved"


#: The mark ending a loop item's attribute whose previous item stays an object of its own for one more iteration
#: (`paired_item`), so `for a, b in itertools.pairwise(xs)` tells the previous item (`a`) from older ones.
PAIRED_MARK: Final[str] = "+"


def paired_item(place: Place, site: int) -> Place:
    """`place.$it<site>+`: as `iteration_item`, but when the next iteration's item is born the item before it is
    kept apart from the older ones (the checker's summary of older items), as `a` of `pairwise` refers to it."""
    return Place(place.root, (*place.attrs, f"{ITEM_ATTR}{site}{PAIRED_MARK}"), place.display)


#: The mark ending a loop item's attribute whose items recur (`recurring_item`): `itertools.cycle(xs)` wraps around
#: to the items it handed out before, so a later iteration's item may be the very object an earlier one took.
RECURRING_MARK: Final[str] = "*"


def recurring_item(place: Place, site: int) -> Place:
    """`place.$it<site>*`: as `iteration_item`, but the item is one object over all iterations (the checker never
    renames an older one apart), so a pending op of an earlier iteration still borrows this iteration's item and a
    move in an earlier iteration moves it (the checker cannot count iterations against the number of items)."""
    return Place(place.root, (*place.attrs, f"{ITEM_ATTR}{site}{RECURRING_MARK}"), place.display)


#: The attribute under a container place that keeps a pending op stored into it (`ops.append(op)`, `jobs[k] = op`,
#: `calls.store_into`); no Python attribute is spelled so.  The op's loans last while the container's name is live
#: (`checker`'s `active_loans`), not merely reachable: the code that runs stored ops (`for op in ops:
#: op.sync_on(s)`, `jobs.pop(k).sync_on(s)`) reads the container, and the checker does not follow which item it
#: takes.
STORED_ATTR: Final[str] = "<stored>"


def stored_item(container: Place) -> Place:
    """`container.<stored>`: where an op stored into `container` is kept (`STORED_ATTR`)."""
    return Place(container.root, (*container.attrs, STORED_ATTR), f"{container.text}[...]")


def keep_op(holder: Place, loans: Sequence[Borrow], span: Span) -> list[Op]:
    """A new pending op bound to `holder`, taking `loans` first: each borrow is held by that op (its `holder`; the
    loans attach to the object the next bind of `holder` makes), so they end only when the op runs.  For a
    container's stored items (`holder` a `stored_item`) the op is one more of them, ending when the ops stored there
    are taken out and run.  The one way a call's summary (`returned_held`, `held_loans`), a method's start
    (`stored`) and a nested function's `nonlocal` op (`NonlocalEffects.held_loans`) keep an op."""
    return [*(replace(loan, holder=holder) for loan in loans), Bind((holder,), (Fresh("op"),), span)]


#: The attribute prefix of a part of the tuple (or list) displays stored into a container (`stored_part`) and of
#: what a taking call reads (`taken_item`); no Python attribute is spelled so.
STORED_PART_PREFIX: Final[str] = "<stored "
TAKEN_PREFIX: Final[str] = "<taken"


#: The attribute under a container place that keeps the objects stored into it more than once (`calls.store_into`
#: of one object twice: `heapq.heappush(heap, (score, i, mask))` in a loop of a `mask` made before it, or two
#: displays holding it): a call taking an item out (`taken_item`) may give such an object again after a take gave
#: it and it was moved, so the checker's take keeps it a candidate (no Python attribute is spelled so).
STORED_AGAIN_ATTR: Final[str] = "<again>"


#: The attribute under a container place whose stored items are a copy of the container's made before a call that
#: takes an item out before it stores one (`heapq.heapreplace(heap, item)`: `calls.replaced_items`); a take from it
#: is a take from the container (the checker records what it gave there too).  No Python attribute is spelled so.
REPLACED_ATTR: Final[str] = "<replaced>"


def replaced_items(container: Place) -> Place:
    """`container.<replaced>` (`REPLACED_ATTR`): the items `container` held before a `heapreplace` stored its own."""
    return Place(container.root, (*container.attrs, REPLACED_ATTR), container.display)


def stored_part(container: Place, index: int | None, length: int) -> Place:
    """`container.<stored i/n>`: item `i` of each `n`-item display stored into `container` (`calls.stored_display`:
    `heapq.heappush(heap, (score, i, beam))` stores `beam` there as part 2/3), kept beside `stored_item` so that a
    taking call unpacked into `n` names (`_, _, best = heapq.heappop(heap)`) gives each name the part it held.
    `index` None (`<stored *>`, `length` ignored): a stored value that is no display, after which no part is known
    (a take then gives any stored item)."""
    attr = f"{STORED_PART_PREFIX}*>" if index is None else f"{STORED_PART_PREFIX}{index}/{length}>"
    return Place(container.root, (*container.attrs, attr), f"{container.text}[...]")


#: The attribute `taken_item(..., stored_only=True)` reads: only what was stored here is known (`calls`' `pop` of an
#: attribute's container), and a container whose stored items this function never saw gives a new object.
TAKEN_STORED_ONLY: Final[str] = TAKEN_PREFIX + " stored>"


def taken_item(container: Place, index: int | None = None, length: int = 0, stored_only: bool = False) -> Place:
    """`container.<taken>` (`<taken i/n>`: part `i` of an `n`-item unpacking): what a call taking an item out of
    `container` gives (`queue.get()`, `heapq.heappop(heap)`, `calls.take_from`).  Read only by a `Bind` staging
    it in a temporary, which the checker evaluates specially (`checker`'s `take`): one of the items stored
    (`stored_item`, or the parts `stored_part`) that is not known to be moved there, after which the container
    forgets the moved ones; a new object when none is left."""
    attr = TAKEN_STORED_ONLY if stored_only else TAKEN_PREFIX + (">" if index is None else f" {index}/{length}>")
    return Place(container.root, (*container.attrs, attr), f"{container.text}[...]")


def is_value_path(place: Place) -> bool:
    """Whether `place` is a value path (`p.$`, `p.$.$1`) or an argument temporary staging one."""
    return (bool(place.attrs) and place.attrs[-1].startswith(VALUE_ATTR)) or place.root.startswith(
        ARGUMENT_TEMP_PREFIX
    )


# --- values a Bind can give a place -------------------------------------------------------------------------


@dataclass(frozen=True)
class FromPlace:
    """The target aliases whatever `source` refers to (`d = c`).  `carried`: the binding reads nothing at run time
    (a loop item's fields, carried over with the item the loop target is bound to), so a moved `source` is no use
    here; the target's own later use is."""

    source: Place
    span: Span
    carried: bool = False


@dataclass(frozen=True)
class Fresh:
    """A new object: a call result, a literal.  `kind` names special objects (`prepared`, `shared_array`,
    `op`).  `parts`: for an op whose value is known to hold objects (a `launch_async` op's value is the tuple of
    its arguments), `(path, source)` pairs: after the op is bound to a place `h`, the value path `h.<path>` (see
    `value_place`) aliases the argument temporary `source`.  `built`: for an op a helper of the same file built and
    returned, where it built it (`call_effects.CallSummary.op_built`: the line the runtime's unused-op warning
    names, where W0003 is reported).  `launches`: False for an op that runs no kernel (a combinator of a tensor
    constructor's op, `tile.from_numpy(a).shared()`): dropping it unrun loses no work, so it need not be used
    (the runtime's unused-op warning is about kernels too).  `renewed`: an item a container may hold anew after a
    statement that could change it (`keyed_items.forgotten`, `keyed_items.renewed`), not a store: a moved item the
    container kept (`moved_items`) may still be there.  `per_class`: a prepared launch one class's `__init__` stores
    (`init_state.brand_binding`, one `Branch` arm per class running the method): the arm stands for every object of
    that class, so a launch of another kernel with it is E0308 even though another arm's brand matches."""

    kind: str = "value"
    brand: str | None = None
    parts: tuple[tuple[tuple[str, ...], Place], ...] = ()
    built: Span | None = None
    launches: bool = True
    renewed: bool = False
    per_class: bool = False


Value: TypeAlias = FromPlace | Fresh


# --- regions of a view --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Whole:
    """A view whose extent is not known statically: overlaps everything of its base."""


@dataclass(frozen=True)
class Range:
    """`[start, stop)` (`stop` None = to the end).  A bound is an integer literal or a *symbol*: a name the front
    end knows has one value wherever the function reads it (bound once, outside any loop), so `view(0, h)` and
    `view(h, n)` of the same `h` are disjoint whatever `h` is.

    Or, inside the body of a counting loop that no other loop of the function encloses (`for k in range(n)`,
    `for k, x in enumerate(xs)`), the loop's `counter`: one value per iteration, a new one each time the head binds
    it, so regions over it compare as symbols within one iteration only (the checker keeps an earlier iteration's
    views apart, `checker._Analysis.renew_counted`).  `strided`: the region moves past itself from one iteration to
    the next (`buf.view(k * w, k * w + w)`: `view_bounds.counted`), so two iterations' views of this site are
    disjoint."""

    start: int | str
    stop: int | str | None
    counter: str | None = None
    strided: bool = False


@dataclass(frozen=True)
class Half:
    """One half (`index` 0 or 1) of the `split_at` evaluated at `site`; the two halves are disjoint.  Also part
    `index` of a run of a bump allocator's calls (`bump_alloc`): parts of one site with different indices are
    disjoint."""

    site: int
    index: int


Region: TypeAlias = Whole | Range | Half


# --- operations ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bind:
    targets: tuple[Place, ...]
    values: tuple[Value, ...]
    span: Span


@dataclass(frozen=True)
class View:
    target: Place
    source: Place
    region: Region
    span: Span


@dataclass(frozen=True)
class Borrow:
    """`held_by`: this borrow replays, at a call of a nested function, a loan its pending op of that name holds
    while one of its launches runs (`checker.nonlocal_effects`): it is recorded in its call's group, so the
    launch's borrows are checked against it by the caller's knowledge of its values, and checks nothing itself.
    `call`: this borrow replays, at that call of a nested function, one its launch takes of a caller's value (`span`
    is where the nested function takes it): a conflict the caller's bindings make is reported at the call, the
    nested function's uses as labels (the nested function's own check reports the conflicts it sees itself).
    `region`: such a replayed borrow takes a view of the caller's value, that region of it (`c = a.view(32, 64)`
    in the nested function): the call site takes the view of `place` first, then borrows it.  `inside`: this
    borrow applies a call summary's borrow (`span` is the call's argument) that the callee, a function of the same
    file, takes at `inside` (its launch's argument): a conflict is reported there, where the runtime raises it, with
    the call's argument as a label (as a summary's moves are, `Move.inside`)."""

    place: Place
    mutable: bool
    group: int
    span: Span
    holder: Place | None = None
    held_by: str | None = None
    call: Span | None = None
    region: Region | None = None
    inside: Span | None = None


@dataclass(frozen=True)
class Move:
    """`event` groups the moves of one call (a tile launch moving `z, x, y`): they are reported once
    together."""

    place: Place
    span: Span
    help: str | None = None
    event: int = -1
    heir: Place | None = None  # the place the consuming call's result op is bound to: it inherits the loans
    inside: str | None = None  # the called function this move happened in (a call summary's move)
    # ... and the call that replays it: a use after move the move itself meets is reported at `span`, where the
    # runtime raises inside the callee, with the call as a label (an editor checking the caller alone shows it)
    call: Span | None = None


@dataclass(frozen=True)
class Use:
    """`inside`: this use hands `place` to a function of the same file (a call's argument) whose launch takes it
    there (`call_effects.argument_sites`): a use after move is reported at that launch's argument, where the
    runtime raises, with the call's argument as a label (as `Borrow.inside`)."""

    place: Place
    span: Span
    element: bool = False  # an element access `a[i]` (matters for shared arrays)
    help: str | None = None
    inside: Span | None = None


@dataclass(frozen=True)
class Del:
    place: Place
    span: Span


@dataclass(frozen=True)
class Produce:
    """A call produced a lazy `DeviceOp` that must be run: it is bound to `target` (the `Bind` of `target` comes
    just before), or, with `target` None, dropped unused at once.  `what` names the callee for the message;
    `built`: where a helper of the same file built the op it returned (`Fresh.built`), else None (built here)."""

    target: Place | None
    span: Span
    what: str | None = None
    built: Span | None = None


@dataclass(frozen=True)
class CheckBrand:
    """`kernel.launch(prepared, ...)`: `place` must have been prepared by `kernel`."""

    place: Place
    kernel: str
    span: Span
    callee_span: Span


@dataclass(frozen=True)
class RequireUnsafe:
    operation: str
    span: Span


@dataclass(frozen=True)
class Suspend:
    """An `await` in a coroutine's body: the event loop may run the other coroutines `asyncio.gather` runs with it
    here, so a pending op's loans in force here meet what they do (`summarize`: `CallSummary.suspended_loans`).
    `waits`: the awaitable may wait for another coroutine (an `asyncio.Event`, a queue, a task: anything but
    `asyncio.sleep`), so what follows may be ordered after the others' effects.  `turn`: it only gives the event
    loop one turn (`asyncio.sleep(0)`): the coroutine resumes before those that were suspended after it.  The
    borrow analysis passes it by."""

    span: Span
    waits: bool = True
    turn: bool = False


@dataclass(frozen=True)
class Return:
    span: Span


@dataclass(frozen=True)
class Raise:
    span: Span


@dataclass(frozen=True)
class Break:
    span: Span


@dataclass(frozen=True)
class Continue:
    span: Span


#: The facts an arm of a `Branch` may assume about a local name (`Test.fact`): bound to None, bound to something
#: else, truthy, falsy.  A fact holds until the name is rebound (`checker` correlates branches with it).
TEST_FACTS: Final = ("none", "some", "true", "false")

#: `Fresh.kind` of a literal `None`, `True`, `False` (anything else a literal gives is a plain `value`): the checker
#: knows the name it is bound to is None / not None and its truthiness, which cannot change while it stays bound.
LITERAL_KINDS: Final = ("literal_none", "literal_true", "literal_false")


@dataclass(frozen=True)
class Test:
    """What the arm of a `Branch` entered through it knows: the local `name` is None (`fact` "none"), is not None
    ("some"), is truthy ("true") or falsy ("false") there (`if name is None:`, `if not name:`...).  Front ends emit
    one only for a name no call can rebind (no `global`/`nonlocal` declaration of it in the module, no import)."""

    name: str
    fact: str


@dataclass(frozen=True)
class Branch:
    arms: tuple[Block, ...]
    span: Span
    tests: tuple[Test, ...] = ()  # empty, or one per arm: what that arm's condition says on entry
    # one arm, the operations of one statement inside a `try` body (`step`): an exception the statement raises
    # leaves from before it or after it, never from between its moves and the rebinding of its targets
    atomic: bool = False
    # of an `atomic` step: whether the innermost `try`'s handlers may catch what it raises; False when they catch
    # only exception classes of the module and the statement calls nothing that raises one (`step`'s `caught`)
    caught: bool = True


def step(ops: Block, span: Span, caught: bool = True) -> Block:
    """The operations of one simple statement of a `try` (or `with`) body, as one step for the exception edges.

    A launch checks its arguments before it takes ownership of them, and refuses with nothing moved; a method
    of the module that moves `self.rh` and stores the launch's result back does both or raises first.  So an
    `except`/`finally` (or a context manager's `__exit__`) sees the state before the statement or after it:
    `z, x = scale(z, x).sync_on(s)` in a `try` leaves `z` bound on every way out.  A statement of one operation
    needs no wrapping, unless `caught` is False: a `try` whose handlers catch only the module's own exception
    classes (`except ThinPaint:`) catches nothing from a statement that cannot raise one (no `raise` there and no
    call of a function of the module that may), so its exceptions only pass through the `finally`, or the enclosing
    handlers."""
    if not caught:
        return (Branch((ops,), span, atomic=True, caught=False),) if ops else ops
    return (Branch((ops,), span, atomic=True),) if len(ops) > 1 else ops


@dataclass(frozen=True)
class Loop:
    head: Block
    body: Block
    orelse: Block
    span: Span
    infinite: bool = False  # `while True:` never falls out through its head
    # `for x in (a, b):` over a display: `head` is one `Branch` whose arms bind the items in order, and iteration
    # i takes arm i (the analysis may unroll it; `continue` goes on to the next item)
    unrolled: bool = False
    # `for i in range(n):` whose body tests whether this is the last iteration (`if i + 1 < n:`, `calls.
    # iteration_tests`): the name `i`, whose facts "more" / "last" those arms assume; the next iteration is entered
    # only where "more" may hold (the head rebinds `i`, which forgets them)
    more: str | None = None


@dataclass(frozen=True)
class Try:
    body: Block
    handlers: tuple[Block, ...]
    orelse: Block
    finalbody: Block
    span: Span


@dataclass(frozen=True)
class Unsafe:
    body: Block
    span: Span


Op: TypeAlias = (
    Bind
    | View
    | Borrow
    | Move
    | Use
    | Del
    | Produce
    | CheckBrand
    | RequireUnsafe
    | Suspend
    | Return
    | Raise
    | Break
    | Continue
    | Branch
    | Loop
    | Try
    | Unsafe
)
Block: TypeAlias = tuple[Op, ...]


@dataclass(frozen=True)
class Function:
    """One unit of analysis: a function body or a module's top-level statements.

    `escaping` names the function's `global` / `nonlocal` declarations: a value bound to one of them outlives
    the call, so leaving the function does not drop it (see `must_use`)."""

    name: str
    body: Block
    span: Span
    path: str = "<string>"
    escaping: frozenset[str] = frozenset()
    # the parameters and attribute paths below them the function's annotations declare device values (`act:
    # Act` of a class declaring `durations: sk.DeviceBuffer` declares `act.durations`): a move of one is the
    # caller's value's whatever the caller knows of it (`SummaryMove.declared`)
    declared_device: frozenset[str] = frozenset()


def child_blocks(op: Op) -> tuple[Block, ...]:
    """The blocks a compound operation is made of, in source order: a `Branch`'s arms, a `Loop`'s head, body and
    `else`, a `Try`'s blocks, an `Unsafe` body; none for any other operation."""
    if isinstance(op, Branch):
        return op.arms
    if isinstance(op, Loop):
        return (op.head, op.body, op.orelse)
    if isinstance(op, Try):
        return (op.body, *op.handlers, op.orelse, op.finalbody)
    if isinstance(op, Unsafe):
        return (op.body,)
    return ()


def all_ops(ops: Block) -> Iterator[Op]:
    """Every operation of `ops`, those inside a compound one (`child_blocks`) right after it, in source order."""
    for op in ops:
        yield op
        for inner in child_blocks(op):
            yield from all_ops(inner)


def block(ops: Sequence[Op]) -> Block:
    """Build a `Block` from any sequence of operations."""
    return tuple(ops)
