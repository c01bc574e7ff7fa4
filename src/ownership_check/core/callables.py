"""Callables handled as values: what calling one runs, said in the terms the core already has.

Host code often names a launch once and calls it later through a value: `run = functools.partial(k.launch,
prepared, stream)`, `apply = lambda lhs, rhs, out: k.launch(prepared, stream, lhs, rhs, out)`, `step =
make_step(stream)` (a factory returning a nested function), `list(map(lambda src: scale(z, src), [x, y]))`.  The
runtime applies the launch wherever the call is; the checker must too, or `run(c, b, c)` is silent.  Each front
end recognises these forms syntactically, by the same rules (see docs/checker.md, "Calls of functions and methods
of the same module"), and hands the core what the call runs:

    run = partial(target, a, k=b)     the bound arguments are kept in slots of `run` (`bind_partial`), so the
                                      objects they were when `partial` ran are the ones a later call passes
    run(c, d)                         target(<slot 0>, c, d, k=<slot k>): `partial_arguments` merges them
    list(map(f, [x, y]))              f(x), then f(y): `mapped_items`
    await f(x)                        a call of an `async def` of the module that is awaited runs its body there:
                                      it is a call of `f` (the front ends follow it as a plain function's)
    await asyncio.gather(f(a), g(b))  each awaited in turn (`lower_gathered`), each checked against the loans
                                      the earlier ones may leave pending at their own `await`s (`ir.Suspend`)
    functools.reduce(sk.zip, ops)     a callable the ownership table knows (`sk.zip`, a tile kernel) run by a
                                      higher-order function on the items of an iterable: each item the checker
                                      knows (a display's, a container list's of known length) may be moved
                                      (`apply_to_items`)

A lambda bound to a name and a function a factory returns are plain functions to the call-summary machinery
(`call_effects`); the front ends only resolve the name to their definition.

A callable value that is one of a known set of functions of the module runs one of them at its call: `for fn in
(run_a, run_b): fn(x)`, `fn = run_a if fast else run_b` (also bound in each branch of an `if`), `passes =
{"a": run_a, "b": run_b}` then `passes["a"](x)`.  The front ends resolve each binding to its candidates
(`bound_functions` over a name's bindings, `registry_functions` for a dict display of literal keys and
`registry_choice` at its subscript); the call applies each candidate's summary, one `Branch` arm per candidate
(`any_of`), as `p if c else q` is one arm per operand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, is_dataclass, replace
from typing import Any, Final, TypeAlias, TypeVar

from ownership_check.core import ir
from ownership_check.core.call_effects import (
    RECEIVED_KIND,
    SENT_VALUE,
    AppliedSummary,
    CallSummary,
    EffectTiming,
    Gathered,
    SuspendedLoan,
)
from ownership_check.core.calls import (
    KernelSignature,
    Lowering,
    Operand,
    PlaceTarget,
    ReturnedItem,
    SliceView,
    Target,
    UnpackTarget,
    ViewCall,
    all_views,
    bind_target,
    returned_views,
    unpack_parts,
)
from ownership_check.core.messages import move_help
from ownership_check.diagnostics import Span
from safekernels.ownership_model import (
    ALIASING_METHODS,
    BORROWING_METHODS,
    LOAN_INHERITING_METHODS,
    MOVING_ARGUMENT_CALLS,
    MOVING_METHODS,
    PREPARE_METHOD,
    SIMT_LAUNCH_METHODS,
    VALUE_FLOW_METHODS,
    WITNESS_CONSUMERS,
    launch_form,
)

E = TypeVar("E")
F = TypeVar("F")
P = TypeVar("P")

#: The qualified names of `functools.partial` (the one callable factory the checker follows).
PARTIAL_FUNCTIONS: Final[frozenset[str]] = frozenset({"functools.partial"})

#: Builtins that run `map`'s callable on every item before they return (a bare `map(...)` is lazy: nothing runs
#: until something iterates it, so it is followed only inside one of these).
MAP_CONSUMERS: Final[frozenset[str]] = frozenset({"list", "tuple", "set", "sorted"})

#: `itertools.starmap(f, rows)`: inside a `MAP_CONSUMERS` call it runs `f(*row)` for each row in order; `map(f, xs)`
#: runs `f(x)`.  Where `f` is a partial, a launch (`k.launch`) or a function of the module and the rows are known (a
#: display of names, or a sequence container bound here whose rows are displays), the front ends lower one call of
#: `f` per row, at the consuming call, with the row's items spread (`spread_rows`).
STARMAP_FUNCTIONS: Final[frozenset[str]] = frozenset({"itertools.starmap"})


def spread_rows(lengths: Sequence[int | None], spread: bool) -> list[tuple[int, bool]] | None:
    """The calls `list(itertools.starmap(f, rows))` (`spread`) / `list(map(f, rows))` runs: one per row, in order,
    as (row index, spread the row's items); None when a row of a starmap is not a display of known length."""
    if spread and any(length is None for length in lengths):
        return None
    return [(index, spread) for index in range(len(lengths))]


#: Higher-order functions that call their callable argument (position 0) with the items of their iterable
#: argument (position 1) before they return, by qualified name; `reduce`'s optional third argument (its initial
#: value) is passed to the callable too.  `map` is lazy and followed only inside a `MAP_CONSUMERS` call.
HIGHER_ORDER_FUNCTIONS: Final[frozenset[str]] = frozenset({"functools.reduce"})

#: `asyncio.gather(c1, c2, ...)`: awaited, it runs each coroutine it is given before it returns.
GATHER_FUNCTIONS: Final[frozenset[str]] = frozenset({"asyncio.gather"})

#: `asyncio.create_task(coro)`, `asyncio.ensure_future(coro)`: the coroutine runs as a task, finished where the task
#: is awaited (`awaited_task`).
TASK_FUNCTIONS: Final[frozenset[str]] = frozenset({"asyncio.create_task", "asyncio.ensure_future"})

#: Awaitables that only give the event loop a turn: awaiting one waits for no other coroutine (`ir.Suspend.waits`).
YIELDING_AWAITABLES: Final[frozenset[str]] = frozenset({"asyncio.sleep"})


def suspend(awaited: Sequence[str], no_delay: bool, span: Span, sink: Lowering[E]) -> None:
    """`await x` in a coroutine: the event loop may run other coroutines here (`ir.Suspend`), before what `x` does;
    `awaited` are the qualified names the awaited call may call (empty: not a call of a known function), and only
    `asyncio.sleep` is known to wait for no other coroutine (any of the names: a front end may know the public one
    and the defining one); `no_delay`: its first argument is a literal 0, so it gives the event loop one turn."""
    waits = not any(name in YIELDING_AWAITABLES for name in awaited)
    sink.emit(ir.Suspend(span, waits, not waits and no_delay))

#: How a partial's slot is spelled: the name it is bound to, this marker, the slot's index (or keyword).  A `$`
#: never appears in a Python name, so a slot is no user's place.
_SLOT_MARK: Final[str] = "$p"


def partial_slot(name: str, key: int | str, display: str | None) -> ir.Place:
    """The place holding the bound argument `key` (a position, or a keyword) of the partial bound to `name`;
    diagnostics spell it as the bound argument was written (`display`)."""
    return ir.Place(f"{name}{_SLOT_MARK}{key}", (), display)


def bind_partial(slots: Sequence[ir.Place], values: Sequence[ir.Value], span: Span, sink: Lowering[E]) -> None:
    """`run = partial(target, a, b)`: the slots refer to what the bound arguments were then (each already
    evaluated, in order, by the front end), so a later call passes those objects whatever `a` is rebound to."""
    if slots:
        sink.emit(ir.Bind(tuple(slots), tuple(values), span))


#: A `for` target as the front ends describe it: a name, a tuple of targets, or None for anything else.
LoopTarget: TypeAlias = str | tuple["LoopTarget", ...] | None
#: A `for` loop's iterable as the front ends describe it: a name it iterates, `("zip", operands)` of the builtin
#: `zip`, `("enumerate", (operand,))` of the builtin `enumerate`, or None for anything else.
LoopSource: TypeAlias = str | tuple[str, tuple["LoopSource", ...]] | None


def item_sources(target: LoopTarget, source: LoopSource) -> dict[str, str]:
    """The names a `for` binds to an item of a name it iterates, with that name: `for step in steppers`, `for
    step, grad in zip(steppers, grads)`, `for i, (step, grad) in enumerate(zip(steppers, grads))` bind `step` to
    an item of `steppers`.  A call through such a target runs what the items are (`partial_items`)."""
    if isinstance(source, str):
        return {target: source} if isinstance(target, str) else {}
    if source is None or not isinstance(target, tuple):
        return {}
    kind, operands = source
    if kind == "enumerate" and len(target) == 2 and len(operands) == 1:
        return item_sources(target[1], operands[0])
    found: dict[str, str] = {}
    if kind == "zip" and len(target) == len(operands):
        for item, operand in zip(target, operands, strict=True):
            found.update(item_sources(item, operand))
    return found


def partial_items(
    loops: Sequence[tuple[LoopTarget, LoopSource]], built: Mapping[str, P], once: Callable[[str], bool]
) -> dict[str, tuple[P, str]]:
    """Loop targets that are partials: a name a `for` binds only there to an item of a name bound once to a list
    comprehension of `functools.partial(target, ...)` calls (`built`: that name's partial call), taken directly or
    through `zip`/`enumerate` (`item_sources`).  Each maps to the partial call and the name whose slots hold the
    bound arguments: the comprehension evaluates them (`bind_partial` under the list's name, once per item), and a
    call through the target passes them first, as a call through a name bound to the partial does."""
    found: dict[str, tuple[P, str]] = {}
    for target, source in loops:
        for name, taken in item_sources(target, source).items():
            if taken in built and once(name):
                found[name] = (built[taken], taken)
    return found


def partial_of_item(items: Sequence[P | None], index: int | None) -> tuple[P, int] | None:
    """`name[index]` of a name bound once to a sequence display, or to the one display a helper of the module
    returns, whose item there is a `functools.partial` call (`items`: each item's partial call, None for any other
    item; `index`: a literal, negative from the end): that partial call and its position.  A name bound once to
    it is the partial (`last = callbacks[-1]`, then `last(x, x)` runs the target with the bound arguments
    first)."""
    if index is None or not -len(items) <= index < len(items):
        return None
    position = index % len(items)
    found = items[position]
    return (found, position) if found is not None else None


def partial_arguments(bound: Sequence[Operand[E]], given: Sequence[Operand[E]]) -> tuple[Operand[E], ...]:
    """The arguments a call of a partial passes to its target, as `functools.partial` builds them: the bound
    positional arguments, then the call's positional ones, then the bound keywords the call does not override,
    then the call's keywords."""
    given_keywords = {a.keyword for a in given if a.keyword is not None}
    return (
        *(a for a in bound if a.keyword is None),
        *(a for a in given if a.keyword is None),
        *(a for a in bound if a.keyword is not None and a.keyword not in given_keywords),
        *(a for a in given if a.keyword is not None),
    )


def mapped_items(items: Sequence[Operand[E]] | None) -> tuple[Operand[E], ...] | None:
    """The operands `map(f, items)` calls `f` with, one call each in order: the items of a display (or of a
    container whose items are known), none followed when an item is starred or the items are unknown."""
    if items is None or any(item.star for item in items):
        return None
    return tuple(items)


def moves_items(safekernels_function: str | None, kernel: KernelSignature | None) -> bool:
    """Whether a callable value moves the device values it is called with, by the ownership table: a safekernels
    function whose arguments move (`sk.zip`), or a kernel whose plain call launches it (a tile kernel takes
    ownership of every argument)."""
    if safekernels_function is not None and safekernels_function.rsplit(".", 1)[-1] in MOVING_ARGUMENT_CALLS:
        return True
    return kernel is not None and launch_form(kernel.track, kernel.autotuned, None) is not None


def apply_to_items(
    node: E,
    span: Span,
    evaluated: Sequence[E],
    items: Sequence[Operand[E]],
    holder: ir.Place | None,
    op_result: bool,
    sink: Lowering[E],
) -> ir.Value:
    """`functools.reduce(sk.zip, ops)`, `list(map(scale, parts))`: a callable that moves its arguments
    (`moves_items`) run by a higher-order function on `items` (the iterable's items the checker knows, then any
    initial value).  Which item meets which call depends on the fold, so each is conservatively moved by the call
    (a device value: a place the checker does not know to be one is
    only read with the iterable); the result, bound to `holder`, inherits the
    moved ops' loans (a zipped op runs their pending work).  `evaluated` are the callee, the callable and the
    iterable as written, lowered first.  The result is an op when `op_result` (`reduce(sk.zip, ...)` folds
    into one op), else a new value (the list `map` built)."""
    for part in evaluated:
        sink.lower_expr(part)
    for item in items:  # an item that is no place was evaluated with the iterable (a new value)
        if item.place is not None and item.device:
            sink.emit(ir.Move(item.place, item.span, move_help("combinator"), heir=holder), node)
    return ir.Fresh("op") if op_result else ir.Fresh()


def lower_gathered(coroutines: Sequence[tuple[E, Span]], sink: Lowering[E]) -> ir.Value:
    """`await asyncio.gather(submit(p, a, c), submit(p, b, c))`: each coroutine runs, in turn as the checker sees
    it (the event loop may interleave them at their own awaits, which only adds orders), each call lowered by the
    front end as an awaited call (`sink.value`).  What each returns is held in a temporary until all have run, so a
    pending op the first returns keeps its loans while the second launches (two ops writing `c` is E0499 there, as
    the runtime raises).  The gathered list is a new value whose items the checker does not follow: the ops' loans
    end with the statement (a later conflict with them is left to the runtime).

    The event loop runs each coroutine up to its first `await`, in turn, then resumes them as what they await
    completes: an op an earlier coroutine left pending at an `await` (its summary's `suspended_loans`) may meet what
    a later one does meanwhile.  So each coroutine runs while the earlier ones' suspended loans are held (by a
    temporary, as a pending op holds them) on the places it moves or borrows so that it conflicts (`_meeting`): its
    move of a place an earlier one's op still writes is E0505 at the move inside it, as the runtime raises there.
    What it does before its first `await` meets the loans pending at the earlier ones' first `await`; what it does
    after an `await` meets those pending across an `await` that is more than one turn of the loop (`asyncio.sleep(0)`
    resumes the earlier coroutine first); what it does only after an `await` that may wait for another coroutine (an
    `asyncio.Event`, a queue) is not counted (`EffectTiming`).  A later coroutine's suspended loans meet what an
    earlier one did before they were taken: that is the order the checker already sees (E0382 at the later call for
    a value the earlier one moved)."""
    table: dict[int, Gathered[E]] | None = getattr(sink, "gathered", None)
    held: list[ir.Place] = []
    lent: list[_Lent] = []  # the earlier coroutines' suspended loans, at their arguments
    for node, span in coroutines:
        stage = sink.temp("awaited")
        if table is None:
            bind_target(PlaceTarget(stage, span), sink.value(node, stage), sink)
            held.append(stage)
            continue
        gathered: Gathered[E] = Gathered(frozenset(place.key for place, _, _ in lent))
        table[id(node)] = gathered
        try:
            ops = sink.block(
                lambda n=node, st=stage, sp=span: bind_target(PlaceTarget(st, sp), sink.value(n, st), sink)  # type: ignore[misc]
            )
        finally:
            del table[id(node)]
        applied = gathered.applied
        meets = [] if applied is None else _meeting(lent, applied)
        suspended = sink.temp("suspended") if meets else None
        if suspended is not None:
            for place, at, loan in meets:
                sink.emit(ir.Borrow(place, loan.mutable, sink.next_group(), at, suspended))
            sink.emit(ir.Bind((suspended,), (ir.Fresh("op"),), span))
        for op in ops:
            sink.emit(op)
        if suspended is not None:
            sink.emit(ir.Del(suspended, span))
        if applied is not None:
            lent.extend(_suspended_places(applied))
        held.append(stage)
    for stage in held:
        sink.emit(ir.Del(stage, coroutines[-1][1]))
    return ir.Fresh()


def _summary_place(applied: AppliedSummary[E], param: str, attrs: tuple[str, ...]) -> tuple[ir.Place, Span] | None:
    """The caller's place a summary's parameter path is at this call, with the argument's span (a plain place
    argument only)."""
    operand = dict(applied.bound).get(param)
    if operand is None or operand.place is None or any("$" in a for a in attrs):
        return None
    place = operand.place
    display = None if place.display is None else ".".join((place.display, *attrs))
    return ir.Place(place.root, place.attrs + attrs, display), operand.span


#: A loan an earlier gathered coroutine may leave pending at its `await`s: the caller's place, at the argument's
#: span, with when it is pending (`SuspendedLoan`).
_Lent: TypeAlias = "tuple[ir.Place, Span, SuspendedLoan]"


def _suspended_places(applied: AppliedSummary[E]) -> list[_Lent]:
    """The caller's places a gathered coroutine may leave borrowed at its `await`s (`suspended_loans`), except those
    the op it returns keeps anyway (its stage in `lower_gathered` holds them)."""
    summary = applied.summary
    returned = {path for path, _ in summary.returned_loans}
    found: list[_Lent] = []
    for loan in summary.suspended_loans:
        at = _summary_place(applied, *loan.path)
        if at is not None and loan.path not in returned:
            found.append((at[0], at[1], loan))
    return found


def _meeting(lent: Sequence[_Lent], applied: AppliedSummary[E]) -> list[_Lent]:
    """The suspended loans (`lent`) a gathered coroutine's own effects conflict with: a move of the place (or a
    place below or above it), a mutable borrow of it, or a shared one of a mutably lent place, run while that loan
    may be pending: an effect before the coroutine's first `await` meets a loan pending at the earlier one's first
    `await`, one after an `await` a loan pending across more than a turn of the loop; an `ordered` effect none
    (`EffectTiming`)."""
    summary = applied.summary
    touched: list[tuple[str, bool, EffectTiming]] = []  # place key, exclusive (a move or a mutable borrow), when
    for move in summary.moves:
        at = _summary_place(applied, *move.path)
        if at is not None:
            touched.append((at[0].key, True, move.timing))
    for index, group in enumerate(summary.borrows):
        timing = summary.borrow_timings[index] if index < len(summary.borrow_timings) else EffectTiming()
        for path, mutable in group:
            at = _summary_place(applied, *path)
            if at is not None:
                touched.append((at[0].key, mutable, timing))
    for extra in summary.path_borrows:  # on some paths through it only
        at = _summary_place(applied, *extra.path)
        if at is not None:
            touched.append((at[0].key, extra.mutable, extra.timing))

    def overlaps(a: str, b: str) -> bool:
        return a == b or a.startswith(b + ".") or b.startswith(a + ".")

    def meets(loan: SuspendedLoan, timing: EffectTiming) -> bool:
        return not timing.ordered and ((timing.early and loan.first) or (timing.late and loan.long))

    return [
        (place, at, loan)
        for place, at, loan in lent
        if any(
            overlaps(place.key, key) and (exclusive or loan.mutable) and meets(loan, timing)
            for key, exclusive, timing in touched
        )
    ]


def awaited_task(run: Callable[[], ir.Value], created: Span, span: Span, sink: Lowering[E]) -> ir.Value:
    """`op = await task` of a name bound once to `asyncio.create_task(submit(p, a, c))` and read only there (the
    front ends' `task_call`): the task's coroutine has run by the time the `await` returns, so its call is lowered
    here as an awaited call (`run`), and what it gives is what the `await` gives (a pending op it returns lends its
    buffers to `op`).  The task may have started earlier, at any `await` after `create_task`; the checker runs it
    whole at its `await`, where the runtime's error surfaces in the awaiting coroutine: the ops' spans inside the
    `create_task` call (`created`: the arguments' borrows) point at the `await` (`span`) instead."""
    found: list[ir.Value] = []
    ops = sink.block(lambda: found.append(run()))
    for op in ops:
        sink.emit(_respan(op, created, span))
    return found[0] if found else ir.Fresh()


def _respan(value: Any, within: Span, to: Span) -> Any:
    """`value` (an op, and what it is made of) with every span inside `within` replaced by `to`."""
    if isinstance(value, Span):
        inside = (within.line, within.column) <= (value.line, value.column) and (value.end_line, value.end_column) <= (
            within.end_line,
            within.end_column,
        )
        return to if inside else value
    if isinstance(value, tuple):
        return tuple(_respan(item, within, to) for item in value)
    if is_dataclass(value) and not isinstance(value, type):
        return replace(value, **{f.name: _respan(getattr(value, f.name), within, to) for f in fields(value)})
    return value


def bound_functions(bindings: Sequence[Sequence[F | None] | None]) -> tuple[F, ...] | None:
    """The functions of the module a name may refer to when it is bound only to them: each binding gives the
    functions it may bind (one for `fn = run_a`, both operands of `run_a if c else run_b`, each item of the display
    a `for fn in (run_a, run_b)` iterates; None for anything else, a None item for an item that is no such
    function).  Their union in first-seen order, or None when some binding is not known to bind one."""
    found: list[F] = []
    if not bindings:
        return None
    for options in bindings:
        if not options or any(option is None for option in options):
            return None
        for option in options:
            if option is not None and all(option is not f for f in found):
                found.append(option)
    return tuple(found)


def registry_functions(entries: Sequence[tuple[object, F | None]]) -> dict[object, F] | None:
    """A dict display of literal keys whose every value is a function of the module (`{"a": run_a, "b":
    run_b}`): key -> function (a later key replaces an earlier one, as the dict does), or None."""
    if not entries or any(function is None for _, function in entries):
        return None
    return {key: function for key, function in entries if function is not None}


def registry_choice(registry: dict[object, F], key: object | None) -> tuple[F, ...] | None:
    """The functions `registry[key]` may be: the entry of a literal key, every entry's function when the key is
    not known here (`passes[name]`); None for a literal key the display lacks (the runtime raises KeyError)."""
    if key is None:
        found: list[F] = []
        for function in registry.values():
            if all(function is not f for f in found):
                found.append(function)
        return tuple(found)
    return (registry[key],) if key in registry else None


def registry_union(names: Sequence[str], stores: Sequence[tuple[str, F | None]]) -> dict[str, tuple[F, ...]]:
    """The module's registries of functions: each of `names` (a container bound once to an empty display) with what
    is stored into it anywhere in the module (`stores`: the registry, the function stored or None for anything
    else; a decorator that stores the function it is given counts once per function it decorates).  A registry
    holds the union of its stores, in first-seen order; one store of anything else makes it no registry."""
    found: dict[str, list[F]] = {}
    unknown: set[str] = set()
    for registry, function in stores:
        if function is None:
            unknown.add(registry)
        elif all(function is not f for f in found.setdefault(registry, [])):
            found[registry].append(function)
    return {name: tuple(found[name]) for name in names if name not in unknown and found.get(name)}


def attribute_registry_union(
    bindings: Sequence[tuple[str, str | None]], stores: Sequence[tuple[str, F | None]]
) -> dict[tuple[str, str], tuple[F, ...]]:
    """The module's attribute registries of functions (`self.hooks: list[Hook] = []` filled by
    `self.hooks.append(hook)` in a method the module calls only with its functions): `bindings` is every binding of
    an attribute of that name anywhere in the module, with the class whose method binds `self.<name>` to a display
    (None for any other binding); `stores` what is put into an attribute of that name anywhere (the display's
    items, `append`/`extend`/setitem values; a method parameter's store counts once per argument the module's calls
    of that method pass, None for anything that is not a function of the module).  An attribute bound once, by a
    display in a method of its class, holds the union of its stores as `registry_union` reads a module name:
    a `for` over `self.hooks` then runs its body once per function, where one store of anything else makes the
    attribute no registry (a registry filled from outside the module is never complete)."""
    counts: dict[str, int] = {}
    owners: dict[str, str] = {}
    for attribute, owner in bindings:
        counts[attribute] = counts.get(attribute, 0) + 1
        if owner is not None:
            owners[attribute] = owner
    single = [attribute for attribute, count in counts.items() if count == 1 and attribute in owners]
    found = registry_union(single, stores)
    return {(owners[attribute], attribute): functions for attribute, functions in found.items()}


def on_each_receiver(
    receiver: Operand[E], method_of: Callable[[Operand[E]], AppliedSummary[E] | None]
) -> AppliedSummary[E] | None:
    """A method called on an expression over places (`guard.upload(t, h).start()` of a method that gives back its
    receiver, `(a if hot else b).flush()`): the method as called on each object the receiver may evaluate to
    (`Operand.choices`), one arm each (`any_of`); None when the receiver has no choices or one of them is no place
    (a new object: its method's effects on its own fields are nobody else's)."""
    options = receiver.choices
    if not options or any(o.place is None for o in options):
        return None
    return any_of([method_of(option) for option in options])


def any_of(applied: Sequence[AppliedSummary[E] | None]) -> AppliedSummary[E] | None:
    """The call of a callable value that is one of several functions (`bound_functions`): each candidate's summary
    with the call's operands bound to its parameters, applied as one `Branch` arm each (`AppliedSummary.others`:
    what the call may run instead).  None when some candidate's summary is not known (its call stays an ordinary
    call, as a call of it by name would)."""
    if not applied or any(a is None for a in applied):
        return None
    first, *rest = (a for a in applied if a is not None)
    others: list[AppliedSummary[E]] = []
    for other in rest:
        if other.summary != first.summary and all(o.summary != other.summary for o in others):
            others.append(other)
    returns_op = all(a is not None and a.returns_op for a in applied)  # the result is an op whichever one runs
    built = {a.op_built for a in applied if a is not None}
    op_built = built.pop() if returns_op and len(built) == 1 else None  # ... built on one line whichever one runs
    return replace(first, others=tuple(others), returns_op=returns_op, op_built=op_built)


def item_of_a_loop(applied: AppliedSummary[E] | None) -> AppliedSummary[E] | None:
    """The summary of `gen(a, c)` in `for op in gen(a, c)`, applied at each iteration for the item it takes: the
    generator's body runs once over the whole loop, not once per item, so what it moves of the caller's values is
    not moved again per item (that reported E0382 at the `for` on the second iteration of a generator that moves
    its parameters and rebinds its own names, a clean program); the item keeps the loans of the op it yields.  What
    the generator moves is not followed (as for any call the checker does not follow)."""
    if applied is None:
        return None
    return replace(applied, summary=replace(applied.summary, moves=()))


def moves_of_a_loop(applied: AppliedSummary[E] | None) -> AppliedSummary[E] | None:
    """The summary of `gen(a, c)` in `for op in gen(a, c)` once more, after the loop, with only its moves: what the
    generator's body consumed of the caller's values over the items the loop took (`item_of_a_loop` leaves them
    out of each item).  A loop that leaves early may not have run the body to where it moves: taken as moved, as
    for any path the checker cannot rule out.  None where it moves nothing."""
    if applied is None or not (applied.summary.moves or any(o.summary.moves for o in applied.others)):
        return None
    summary = applied.summary
    only = CallSummary(summary.function, moves=summary.moves, receiver=summary.receiver)
    others = tuple(o for o in (moves_of_a_loop(o) for o in applied.others) if o is not None)
    return replace(applied, summary=only, others=others, returns_op=False, op_built=None)


def taken_by_a_loop(
    applied: AppliedSummary[E] | None, call: int, loop_items: set[int],
    loop_moves: dict[int, AppliedSummary[E] | None],
) -> AppliedSummary[E] | None:
    """The summary of the call `call` (its node's `id`) as a `for` that takes every item of it applies it: per item
    without its moves (`item_of_a_loop`), which the front end applies after the loop (`moves_of_a_loop`, kept in
    `loop_moves`); any other call's summary as it is."""
    if call not in loop_items:
        return applied
    loop_moves[call] = moves_of_a_loop(applied)
    return item_of_a_loop(applied)


def iterated_call(value: ir.Value) -> ir.Value:
    """An item taken from a call of a generator function of the module (`next(gen(a, c))`, `for op in gen(a,
    c)`): the call was lowered as a call of the function run to its end, whose `yield`s give what a `return` gives
    (a yielded `launch_async` op's loans are the summary's `returned_loans`, held by the name the item is bound
    to), so the item is the value that call gives."""
    return value


#: The views a generator function of the module yields at each of its `yield`s, when every one gives a view of
#: a parameter (`yield buf.view(start, start + size)`), as `calls.returned_view` makes them at the call: views of
#: the caller's arguments.
YieldedViews: TypeAlias = "Sequence[ViewCall[Any] | SliceView[Any]]"


def yielded_views(items: Sequence[ReturnedItem]) -> YieldedViews | None:
    """The views a generator yields (`items`: what each `yield` gives, as the front ends read a `return`'s value,
    `calls.returned_view`), when every `yield` gives one; else None (the item is the call's value,
    `iterated_call`)."""
    return items if all_views(items) else None


def iterated_item(value: ir.Value, views: YieldedViews | None, span: Span, sink: Lowering[E]) -> ir.Value:
    """An item taken from a call of a generator function of the module (`next(gen(buf))`, `for w in gen(buf)`),
    after the call was lowered: where every `yield` gives a view of a parameter, a view of the caller's argument
    (`calls.returned_views`: one `Branch` arm per `yield`; computed bounds overlap everything of the base), as the
    runtime hands out views of that buffer; else the call's value (`iterated_call`)."""
    if views:
        return returned_views(views, span, sink)
    return iterated_call(value)


def bind_taken_items(target: Target[E], views: YieldedViews, span: Span, sink: Lowering[E]) -> None:
    """`left, right = itertools.islice(windows(buf, n), 2)` / `a, b = windows(buf, n)` of a generator whose every
    `yield` gives a view of a parameter: each name takes an item of its own, a view of the caller's argument
    (`iterated_item`), so two of them passed as two outputs of one launch overlap (the runtime's aliasing check
    refuses windows that share elements, and the checker cannot tell computed bounds apart).  A starred name gets
    a new list, a nested unpacking new values."""
    if not isinstance(target, UnpackTarget):
        bind_target(target, returned_views(views, span, sink), sink)
        return
    for item in target.items:
        if isinstance(item, PlaceTarget):
            bind_target(item, returned_views(views, span, sink), sink)
        else:
            bind_target(item, ir.Fresh(), sink)


def unpack_yielded(target: Target[E], value: ir.Value, span: Span, sink: Lowering[E]) -> None:
    """`for out, pending in launches(prep, jobs)` of a generator function of the module: `value` is the item the
    call gives (lowered with a temporary as its place, so a generator yielding tuples gives the temporaries
    holding its parts, `calls.yield_parts`, as `value.parts` under `$.$<i>`); each name of the target takes its
    part (`calls.unpack_parts`).  A part the summary does not name, or an item that is no tuple the checker
    follows, is a new value, as before."""
    if not (isinstance(target, UnpackTarget) and not target.starred and isinstance(value, ir.Fresh)):
        bind_target(target, value, sink)
        return
    unpack_parts(target, value, span, sink)


#: The generator methods that send a value into the body, which resumes at its `yield` with it.
SENDING_METHODS: Final[frozenset[str]] = frozenset({"send", "asend"})


def received_value() -> ir.Value:
    """The value of a `yield` expression in a generator's body (`t = yield result`): what the caller sends in, a
    new object each time the body resumes (so a loop moving what it receives moves each value once), of the kind
    `RECEIVED_KIND`: what the body does to such objects is what it does to a value sent in (`SENT_VALUE`)."""
    return ir.Fresh(RECEIVED_KIND)


def sent_into(applied: AppliedSummary[E] | None, sent: Operand[E]) -> AppliedSummary[E] | None:
    """`gen.send(x)` of a name bound to a call of a generator function of the module: the body resumes with `x` as
    the value of its `yield`, so what the body's summary does to `SENT_VALUE` (moves, borrows) is done to `x`; what
    it does to its parameters happened at the generator's own call."""
    if applied is None:
        return None
    summary = applied.summary

    def sent_path(path: tuple[str, tuple[str, ...]]) -> bool:
        return path[0] == SENT_VALUE

    only = replace(
        summary,
        moves=tuple(m for m in summary.moves if sent_path(m.path)),
        rebinds=(),
        borrows=tuple(g for g in (tuple(b for b in group if sent_path(b[0])) for group in summary.borrows) if g),
        returned_loans=(),
        held_loans=(),
        conflicts=(),
    )
    return replace(applied, summary=only, bound=((SENT_VALUE, sent),), others=())

#: Method names the ownership table gives a meaning of its own (launches, moving, borrowing, loan-inheriting,
#: value-flow and aliasing methods, `prepare`): a call of one means what the table says, never a method of the
#: module found by its name (`dispatches_by_name`).
TABLE_METHOD_NAMES: Final[frozenset[str]] = frozenset(
    {*MOVING_METHODS, *BORROWING_METHODS, *LOAN_INHERITING_METHODS, *VALUE_FLOW_METHODS, *ALIASING_METHODS,
     *SIMT_LAUNCH_METHODS, *WITNESS_CONSUMERS, PREPARE_METHOD}
)


def dispatches_by_name(method: str, receiver: Operand[E]) -> bool:
    """Whether `obj.method(...)` on a receiver whose class the checker does not know (an unannotated parameter,
    an item of an attribute's list, the result of a call) may run any method of that name the module's classes
    define: Python dispatches by name at run time, so the checker applies each such method's summary, one
    `Branch` arm apiece (`AppliedSummary.others`), the conservative reading of duck typing.  Never for a
    safekernels value (its methods are the library's), a name the ownership table knows, or a dunder other than
    `__call__` (`layer(x)` of an object whose class defines `__call__`)."""
    return not receiver.device and dispatched_method_name(method)


def dispatched_method_name(method: str) -> bool:
    """The name half of `dispatches_by_name`: a method name the module's classes may answer (not one the ownership
    table knows, not a dunder other than `__call__`)."""
    if method in TABLE_METHOD_NAMES:
        return False
    return method == "__call__" or not method.startswith("__")


#: Base classes whose class attributes are instances of the class itself (`enum.Enum` members): `Mode.FAST.run(x)`
#: runs the method `Mode` defines, on that member.  Matched by the base's last name (`Enum`, `enum.IntEnum`).
ENUM_BASES: Final[frozenset[str]] = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})
