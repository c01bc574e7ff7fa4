"""Standard-library and builtin callables the checker follows: how a call's result relates to its operands.

A value that goes through `max`, `next`, `itertools.cycle` or `dataclasses.replace` is still the caller's object
at run time: `lo, hi = next(pool), next(pool)` of `pool = itertools.cycle([c])` is `c` twice, and the launcher
refuses it.  A callable the checker does not know gives a new value (it cannot see what the call keeps), so each
callable the checker follows is declared here once, as data, with the relation between its result and its
operands; both front ends read this table (by the callable's qualified name, `max` for a builtin) and lower the
call to the places it may give, in the core's terms (`calls.Choices`, `calls.bind_iteration`):

    PICK     the result is one of the items of the iterable operand, or one of the positional operands when
             several are given (`max(a, b)`); a `default` is one more choice        next, max, min, random.choice
    ITEMS    the result holds (or iterates over) the items of its item operands, in some order; an item taken
             from it is any of them                         iter, sorted, itertools.cycle, heapq.nsmallest
    PAIRS    the result iterates over adjacent pairs of the operand's items         itertools.pairwise
    ZIPPED   the result iterates over tuples of one item of each operand            zip
             (`padded`: once an operand runs out, its part of a tuple is the `fillvalue` operand itself, None
             without one, until the longest runs out: `calls.Padded`)               itertools.zip_longest
    FIELDS   a new object of the operand's class whose fields are the operand's, except those the keywords
             replace: bound to a name, each field refers to the object it names     dataclasses.replace, copy.copy
    MAPPING  a dict of the operands' entries: `dict(k=v)`, `dict(zip(keys, values))` of literal keys, `dict(d)`
             of a dict display; bound to a name, it is a container as the dict display would be   dict
    GETTER   a callable that, called on one operand, gives the operand's attributes (`attribute`) or items
             named by its literal operands themselves, a tuple of them when several are named: called directly
             (`attrgetter("a")(obj)`) or through a name bound once to it (`g = itemgetter(0, 2); g(bufs)`)
                                                               operator.attrgetter, operator.itemgetter
    FOLD     runs its callable operand as `acc = f(acc, item)` on each item of its iterable operand, in order, from
             the initial value (`default`) or, without one, from the first item (`lower_fold`)   functools.reduce
    CHAINED  a mapping whose lookup under a key finds the item of the first of its operand mappings that has the
             key (`chained_entries`): over dict displays and names of dict containers, the dict display of those
             items, so `ChainMap({"name": "h"}, defaults)["bias"]` is `defaults["bias"]`   collections.ChainMap
    FILLED   a dict whose every value is its value operand itself, evaluated once (`filled_entries`: one entry under
             `calls.FILLED_KEY`, which a lookup under any key finds), so `dict.fromkeys(ids, sk.zeros(n))` gives
             every key one buffer                                                   dict.fromkeys
    NAMESPACE a new object whose attributes are exactly its keyword operands, each the object passed by it, as the
             `__init__` a dataclass of keyword-only fields generates (`namespace_summary`): followed as the module's
             dataclass constructor calls are           types.SimpleNamespace, argparse.Namespace

Where the exact item is not known statically, the result may be any of the items: one `Branch` arm per item,
as for `p if c else q`, so a launch is refused when any of them would be.  Anything else a call of a standard
library function returns is a new value (docs/checker.md names that limit).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeVar

from ownership_check.core import calls, ir
from ownership_check.core.call_effects import AppliedSummary, GeneratedInit, bind_parameters, field_summary
from ownership_check.core.calls import (
    FILLED_KEY,
    Choices,
    Container,
    ContainerFlow,
    ContainerKey,
    Lowering,
    PlaceTarget,
    Recurring,
    Target,
    UnpackTarget,
    captured_item,
    container_element,
    merge_choices,
)
from ownership_check.diagnostics import Span

E = TypeVar("E")

Relation = Literal[
    "pick", "items", "pairs", "zipped", "fields", "mapping", "getter", "fold", "chained", "filled", "namespace"
]


@dataclass(frozen=True)
class StdlibFlow:
    """How one callable's result relates to its operands.  `operands`: the positions of the operands whose items
    flow into the result (None: every positional operand, `itertools.chain(xs, ys)`); `options`: keyword arguments
    that leave the relation as it is (`sorted(pool, key=len)`); `default`: the position of a positional fallback
    that is one more choice (`next(it, d)`); `replaces`: its keyword arguments replace fields of the operand
    (`dataclasses.replace(step, dst=a)`); `itself`: the item operands are the items themselves, not iterables of
    them (`itertools.repeat(c)` hands out `c`); `flatten`: the items are the items of the operand's items
    (`itertools.chain.from_iterable([[c], [a]])` hands out `c` and `a`); `recurs`: it hands out the same items
    again (`itertools.cycle` wraps around, `itertools.repeat` repeats), so a `for` over it takes in a later
    iteration an object an earlier one took (`recurring_source`); `padded`: a `zipped` entry whose tuples go on
    to the longest operand, the shorter ones' parts being the `fillvalue` keyword operand (None without one)."""

    relation: Relation
    operands: tuple[int, ...] | None = (0,)
    options: frozenset[str] = frozenset()
    default: int | None = None
    replaces: bool = False
    itself: bool = False
    flatten: bool = False
    attribute: bool = False  # a `getter`'s names are attribute paths (`attrgetter("a.b")`), not item keys
    recurs: bool = False
    # a new list of the item operand's items: the tuples a heap's pushes stored into the operand are stored into
    # the result too (`leaders = heapq.nsmallest(3, heap)` holds the pushed tensors themselves, not copies), and a
    # loop over a name bound once to it takes each item once (`selected_operand`, `calls.bind_selected_iteration`)
    selects: bool = False
    padded: bool = False


_ORDERING: Final[frozenset[str]] = frozenset({"key", "reverse"})

#: The table: qualified name (a builtin by its bare name) -> relation.  Anything not named here gives a new value.
STDLIB_FLOWS: Final[dict[str, StdlibFlow]] = {
    # one of the items (or, given several positional operands, one of them)
    "next": StdlibFlow("pick", default=1),
    "max": StdlibFlow("pick", options=frozenset({"key", "default"})),
    "min": StdlibFlow("pick", options=frozenset({"key", "default"})),
    "random.choice": StdlibFlow("pick"),
    # the items themselves, kept or iterated over
    "list": StdlibFlow("items"),
    "tuple": StdlibFlow("items"),
    "sorted": StdlibFlow("items", options=_ORDERING, selects=True),
    "reversed": StdlibFlow("items"),
    "iter": StdlibFlow("items"),
    "filter": StdlibFlow("items", operands=(1,)),
    # the n smallest / largest items of the iterable operand: the objects themselves, not copies of them
    "heapq.nsmallest": StdlibFlow("items", operands=(1,), options=frozenset({"key"}), selects=True),
    "heapq.nlargest": StdlibFlow("items", operands=(1,), options=frozenset({"key"}), selects=True),
    "itertools.cycle": StdlibFlow("items", recurs=True),
    "itertools.islice": StdlibFlow("items"),
    "itertools.chain": StdlibFlow("items", operands=None),
    "itertools.chain.from_iterable": StdlibFlow("items", flatten=True),
    "itertools.repeat": StdlibFlow("items", options=frozenset({"times"}), itself=True, recurs=True),
    # adjacent pairs of the items; tuples of one item of each operand
    "itertools.pairwise": StdlibFlow("pairs"),
    "zip": StdlibFlow("zipped", operands=None, options=frozenset({"strict"})),
    "itertools.zip_longest": StdlibFlow("zipped", operands=None, options=frozenset({"fillvalue"}), padded=True),
    # an object with the operand's fields, some replaced
    "dataclasses.replace": StdlibFlow("fields", replaces=True),
    "copy.copy": StdlibFlow("fields"),
    # a dict of the operands' entries
    "dict": StdlibFlow("mapping", operands=()),
    # a getter of the named attributes / items of the object it is called on
    "operator.attrgetter": StdlibFlow("getter", operands=None, attribute=True),
    "operator.itemgetter": StdlibFlow("getter", operands=None),
    # the callable operand run on an accumulator and each item in turn
    "functools.reduce": StdlibFlow("fold", operands=(1,), default=2),
    # a lookup finds the first operand mapping's item under the key
    "collections.ChainMap": StdlibFlow("chained", operands=None),
    # every value of the dict is the value operand itself (evaluated once)
    "dict.fromkeys": StdlibFlow("filled", operands=(1,)),
    # a new object with one attribute per keyword operand, bound to the object passed by it
    "types.SimpleNamespace": StdlibFlow("namespace", operands=()),
    "argparse.Namespace": StdlibFlow("namespace", operands=()),
}


def namespace_init(name: str | None, positional: int, keywords: Sequence[str | None]) -> GeneratedInit | None:
    """The initializer of `types.SimpleNamespace(src=a, dst=a)` (a `namespace` entry's call, `name` qualified) as the
    one a dataclass of keyword-only fields generates: its fields are exactly the call's keywords (`keywords`, None
    for a `**` splat), so `ns.src` and `ns.dst` are the objects passed.  None for any other call, one with a
    positional operand (`SimpleNamespace(mapping)`: its keys are not known here) or a `**` splat."""
    found = stdlib_flow(name)
    if found is None or found.relation != "namespace" or positional or any(k is None for k in keywords):
        return None
    return GeneratedInit(keyword_only=tuple(k for k in keywords if k is not None))


def namespace_summary(name: str | None, args: Sequence[calls.Operand[E]]) -> AppliedSummary[E] | None:
    """The constructor call `namespace_init` follows, with its operands (`args`) bound to its fields: the summary
    of the generated initializer (`call_effects.field_summary`), building the new object
    (`AppliedSummary.constructs`), so a front end lowers it as a dataclass constructor call of the module."""
    generated = namespace_init(
        name,
        sum(1 for a in args if a.keyword is None and not a.star),
        [None if a.star else a.keyword for a in args],
    )
    if generated is None or name is None:
        return None
    summary = field_summary(name.rsplit(".", 1)[-1], generated.keyword_only)
    return AppliedSummary(summary, bind_parameters((), generated.keyword_only, args, None), True)


def selected_operand(name: str | None, positional: int, keywords: Sequence[str | None]) -> int | None:
    """The position of the operand whose items a call of `name` (qualified) makes a new list of (a `selects`
    entry: `heapq.nsmallest(3, heap)`, `sorted(heap)`), given `positional` positional operands and keyword
    operands named `keywords`; None for any other call (or other operands: `filter(pred)`, an unknown keyword)."""
    found = keeps_items(name)
    if found is None or not found.selects or any(k not in found.options for k in keywords):
        return None
    taken = item_operands(found, positional)
    return taken[0] if taken is not None and len(taken) == 1 else None


def filled_entries(
    found: StdlibFlow | None, positional: Sequence[E], keywords: int
) -> list[tuple[ContainerKey, E]] | None:
    """The entries of `dict.fromkeys(keys, value)` (a `filled` entry's call) as a dict display's: one item, the value
    operand evaluated once, under `calls.FILLED_KEY`, which a lookup under any key finds, so a container name bound
    to it gives one object for `outputs[rid]` whatever `rid` is.  None for any other call (`dict.fromkeys(keys)`
    fills with None: new values).  The keys operand is read by the call and gives no item."""
    if found is None or found.relation != "filled" or keywords or found.operands is None:
        return None
    index = found.operands[0]
    return [(FILLED_KEY, positional[index])] if len(positional) == index + 1 else None


def chains_mappings(name: str | None) -> bool:
    """Whether a callable's lookups go through its operand mappings in order (`CHAINED`, `collections.ChainMap`)."""
    found = stdlib_flow(name)
    return found is not None and found.relation == "chained"


def chained_entries(
    maps: Sequence[tuple[Sequence[tuple[ContainerKey, E]], bool] | None],
) -> list[tuple[ContainerKey, E]] | None:
    """The entries `ChainMap(m1, m2, ...)` looks up (a `chained` entry's call): under each key, the item of the first
    map that has it, as the runtime's lookup finds it.  `maps`: each operand's entries and whether it is a display
    (its items are evaluated where the chain is made) rather than a name of a dict container (its entries are
    expressions reading that name's items: `defaults["bias"]`).  None when a map is not known, or when an item of
    a display is shadowed by an earlier map's (it would be evaluated and never found: left to the general rule)."""
    entries: dict[ContainerKey, E] = {}
    for found in maps:
        if found is None:
            return None
        items, display = found
        for key, value in items:
            if key in entries:
                if display:
                    return None
                continue
            entries[key] = value
    return list(entries.items()) if entries else None


#: Functions that store into or take from the container (a heap list) their first operand is, by qualified name:
#: what goes in comes back out (`heapq.heappush(heap, (score, i, beam)); _, _, best = heapq.heappop(heap)` gives
#: `best` the object `beam` is).  The same for a queue's methods (`q.put(x)`, `q.get()` of `queue.Queue`,
#: `LifoQueue`, `PriorityQueue`, `SimpleQueue`, `asyncio.Queue`): `calls.STORING_METHODS` / `calls.TAKING_METHODS`
#: by method name.  `heapq.heapify(heap)` keeps the list's items, so it changes nothing the checker follows.
CONTAINER_FLOWS: Final[dict[str, ContainerFlow]] = {
    "heapq.heappush": ContainerFlow(stores=1),
    "heapq.heappop": ContainerFlow(takes=True),
    "heapq.heappushpop": ContainerFlow(stores=1, takes=True),
    "heapq.heapreplace": ContainerFlow(stores=1, takes=True, take_first=True),
}


#: Mappings that make an item by calling their factory for each key not stored yet (`collections.defaultdict`):
#: bound once to `defaultdict(lambda: buf)` and never changed in place (nothing stored, deleted or popped), every
#: item read by key is the object the factory's body names (`factory_mapping`), so `d["left"]` and `d["right"]`
#: are one buffer.  A factory making a new object (`lambda: sk.zeros(...)`) gives new items, as before.
FACTORY_MAPPINGS: Final[frozenset[str]] = frozenset({"collections.defaultdict"})


def factory_mapping(name: str | None, positional: int, keywords: int) -> bool:
    """Whether a call of the callable named `name` (qualified) with these operands is a mapping whose every item is
    what its one positional operand, a factory, returns (`FACTORY_MAPPINGS`)."""
    return name in FACTORY_MAPPINGS and positional == 1 and keywords == 0


def container_flow(name: str | None) -> ContainerFlow | None:
    """The `CONTAINER_FLOWS` entry of a callable's qualified name, else None."""
    return None if name is None else CONTAINER_FLOWS.get(name)


def getter_keys(name: str | None, keys: Sequence[ContainerKey | None]) -> tuple[tuple[ContainerKey, ...], bool] | None:
    """The names a getter call (`operator.attrgetter("raw", "out")`, `operator.itemgetter(0, "out")`, a `GETTER`
    entry named `name`) gives, read from its operands' literals (`keys`, None for one that is not a literal), and
    whether they are attribute paths; None for any other call, or an operand that is no literal of its kind."""
    found = stdlib_flow(name)
    if found is None or found.relation != "getter" or not keys or any(k is None for k in keys):
        return None
    if found.attribute and not all(isinstance(k, str) and all(k.split(".")) for k in keys):
        return None
    return tuple(k for k in keys if k is not None), found.attribute


def getter_places(
    keys: Sequence[ContainerKey],
    attribute: bool,
    operand: ir.Place,
    container: tuple[str, str, Container] | None,
) -> tuple[ir.Place, ...] | None:
    """The places `getter(operand)` gives (`getter_keys`): each attribute path below the operand's place
    (`attrgetter("out")(job)` is `job.out` itself), or each item of a container name (`container`: its place
    name, how diagnostics spell it, its items) under a literal key (`itemgetter("input", "output")(roles)` of
    `roles = {"input": a, "output": a}` is `a` twice).  None when an item is not known (no container, or a key it
    lacks: the runtime's `KeyError` / `IndexError`)."""
    if attribute:
        return tuple(path_place(operand, str(key).split(".")) for key in keys)
    if container is None:
        return None
    name, display, held = container
    places: list[ir.Place] = []
    for key in keys:
        index = captured_item(held, key, held.mapping)
        if index is None and not held.mapping and isinstance(key, int) and -len(held.keys) <= key < 0:
            index = key % len(held.keys)
        if index is None:
            return None
        places.append(container_element(name, display, held, index))
    return tuple(places)


#: Methods the standard library gives a class of the module, with the receiver as the operand: a `NamedTuple`'s
#: `_replace(f=v)` is `dataclasses.replace(receiver, f=v)` (both front ends' `copied_fields`).
FIELD_METHODS: Final[dict[str, StdlibFlow]] = {"_replace": StdlibFlow("fields", replaces=True)}


def stdlib_flow(name: str | None) -> StdlibFlow | None:
    """The table's entry for a callable's qualified name (`builtins.max` and `max` alike), else None."""
    if name is None:
        return None
    return STDLIB_FLOWS.get(name.removeprefix("builtins."))


def picks_item(name: str | None) -> StdlibFlow | None:
    """The entry of a callable whose result is one of its operands' items (`PICK`), else None."""
    found = stdlib_flow(name)
    return found if found is not None and found.relation == "pick" else None


def keeps_items(name: str | None) -> StdlibFlow | None:
    """The entry of a callable whose result holds its operands' items (`ITEMS`), else None."""
    found = stdlib_flow(name)
    return found if found is not None and found.relation == "items" else None


def pairs_items(name: str | None) -> bool:
    """Whether a callable gives the adjacent pairs of its operand's items (`PAIRS`, `itertools.pairwise`)."""
    found = stdlib_flow(name)
    return found is not None and found.relation == "pairs"


def tuple_component_operands(
    takes_next: bool, inner: StdlibFlow | None, positional: int, keywords: Sequence[str | None], index: int | None
) -> tuple[int, ...] | None:
    """`next(zip(xs, ys))[k]`, `next(itertools.pairwise(xs))[k]`: the item `next` takes is a tuple, and its `k`-th
    component is an item of zip's `k`-th operand (of any operand, where `k` is no literal) or of pairwise's one
    operand.  Returns those operands' positions in the inner call (its `positional` arguments, `keywords` the
    names of its keyword arguments), or None for any other form."""
    if not takes_next or inner is None or any(k not in inner.options for k in keywords):
        return None
    if inner.relation == "pairs":
        return (0,) if positional == 1 else None
    if inner.relation == "zipped" and positional:
        return (index,) if index is not None and 0 <= index < positional else tuple(range(positional))
    return None


def first_item_position(inner: StdlibFlow, index: int | None) -> int | None:
    """Which item of an operand display the `index`-th component of the FIRST tuple is (`next` takes the first):
    zip's is item 0 of its operand, pairwise's first pair is items 0 and 1; None where it is not known."""
    if inner.relation == "zipped":
        return 0
    return index if inner.relation == "pairs" and index in (0, 1) else None


def first_component(
    inner: StdlibFlow,
    position: int | None,
    items: Sequence[E] | None,
    fill: E | None,
    alternatives: Callable[[tuple[E, ...], tuple[E, ...]], Choices[E] | None],
    any_item: Callable[[], Choices[E] | None],
) -> Choices[E] | None:
    """The places a component of the first tuple of `next(zip(...))` / `next(itertools.zip_longest(...))` may be,
    for one operand: its item `position` where the operand is a display (`items`) that long, else any of its items
    (`any_item`); of a `padded` entry also the `fillvalue` operand (`fill`, None when not given: the part is then
    None, no place), the only choice for an empty display and one more for an operand of unknown length.
    `alternatives(prelude, options)` is the front end's: the places the options may be, after the prelude.  None
    when no place is known (the component is then a new value, as for any call not followed)."""
    length = None if items is None else len(items)
    may_item = not inner.padded or length is None or length > 0
    may_fill = inner.padded and (length is None or length == 0)
    given = () if fill is None else (fill,)
    if not may_item:
        return alternatives((), given) if given else None
    if items is not None and position is not None and position < len(items):
        # `next(zip([c], [a]))[0]` is `c`: the first tuple holds each display's first item
        rest = tuple(item for i, item in enumerate(items) if i != position)
        found = alternatives((*rest, *(() if may_fill else given)), (items[position],))
    else:
        found = any_item()
        if found is not None and given and not may_fill:
            found = merge_choices(given, [found])
    if not may_fill or not given:
        return found
    # an item not known is a new value: the fill is still one of the places the part may be
    return merge_choices((), [found, alternatives((), given)])


def padded_fill(found: StdlibFlow | None, keywords: Sequence[tuple[str | None, E]]) -> E | None:
    """The `fillvalue` operand of a `padded` entry's call (`itertools.zip_longest(xs, ys, fillvalue=h)`), else
    None (no padding, or None pads)."""
    if found is None or not found.padded:
        return None
    return next((value for name, value in keywords if name == "fillvalue"), None)


def recurs(name: str | None, positional: int, keywords: Sequence[str | None]) -> StdlibFlow | None:
    """The entry of a call whose items recur (`recurs`: `itertools.cycle(xs)`, `itertools.repeat(x)`,
    `itertools.repeat(x, 3)`, `itertools.repeat(x, times=3)`), with one item operand first and nothing else but
    the entry's options (`times`, also positional), else None."""
    found = stdlib_flow(name)
    if found is None or not found.recurs or any(k not in found.options for k in keywords):
        return None
    return found if positional == 1 or (positional == 2 and not keywords and "times" in found.options) else None


def recurring_source(found: StdlibFlow, operand: ir.Place, span: Span, sink: Lowering[E]) -> Recurring:
    """Where a `for` over `itertools.cycle(xs)` / `itertools.repeat(x)` (a `recurs` entry, `operand` the place of
    its first argument) takes its items (`calls.bind_iteration`): the items of `xs`, one object over all
    iterations; or `x` itself, staged once here, where the call is evaluated, into a temporary's value path that
    each iteration reads without a use check (the iterator hands out the object whatever happened to it since:
    a use after a move is reported where the body uses the item, as the runtime does)."""
    if not found.itself:
        return Recurring(operand, False)
    staged = ir.value_place(sink.temp(operand.text))
    sink.emit(ir.Bind((staged,), (ir.FromPlace(operand, span),), span))
    return Recurring(staged, True)


def zipped_iteration(
    name: str | None, positional: int, keywords: Sequence[str | None]
) -> StdlibFlow | None:
    """The entry of a call a `for` takes tuples of one item of each operand from (`zipped`: `zip(xs, ys)`,
    `itertools.zip_longest(xs, ys, fillvalue=h)`), with positional operands and the entry's options only."""
    found = stdlib_flow(name)
    if found is None or found.relation != "zipped" or not positional:
        return None
    return found if all(k in found.options for k in keywords) else None


def padded_sources(
    found: StdlibFlow,
    sources: Sequence[calls.IterationSource],
    fill: ir.Place | None,
    span: Span,
    sink: Lowering[E],
) -> list[calls.IterationSource]:
    """The operands of a `for` over a `zipped` call (`zipped_iteration`): as they are for `zip`; for a `padded`
    one (`itertools.zip_longest`) each a `calls.Padded` source whose fill is the `fillvalue` operand's place
    (`fill`), staged here, where the call is evaluated, as `itertools.repeat(h)` stages `h` (`recurring_source`):
    the iterator hands out that object whatever happened to the name since.  No place (None pads, or an
    expression): the fill is a new value."""
    if not found.padded:
        return list(sources)
    staged = None if fill is None else recurring_source(_ITSELF, fill, span, sink)
    return [calls.Padded(s if not isinstance(s, calls.Padded) else s.source, staged) for s in sources]


_ITSELF: Final[StdlibFlow] = StdlibFlow("items", itself=True)


def item_operands(found: StdlibFlow, positional: int) -> tuple[int, ...] | None:
    """The positions of the operands whose items flow into the result, for a call with `positional` positional
    arguments; None when the call does not have them (`filter(pred)`)."""
    picked = tuple(range(positional)) if found.operands is None else found.operands
    return picked if picked and all(i < positional for i in picked) else None


def dict_entries(
    keywords: Sequence[tuple[str | None, E]],
    keys: Sequence[ContainerKey | None] | None,
    values: Sequence[E] | None,
) -> list[tuple[ContainerKey, E]] | None:
    """The entries of `dict(...)` as a dict display's (`calls.Container` keys and item expressions), from what a
    front end read of the call: its keyword arguments (`dict(scale=a, shift=b)`; a `**mapping` has no name: None),
    and for `dict(zip(keys, values))` the literal keys (a display of literals, or a name bound once to one; None
    when any is not a literal) and the value display's items.  A later entry under one key replaces the earlier
    one, as at run time.  None when the entries are not all known, or there are none (`zip` of displays of
    different lengths is followed only where the lengths agree)."""
    entries: dict[ContainerKey, E] = {}
    if keys is not None or values is not None:
        if keys is None or values is None or any(k is None for k in keys) or len(keys) != len(values):
            return None
        for key, value in zip(keys, values, strict=True):
            assert key is not None
            entries[key] = value
    for name, value in keywords:
        if name is None:
            return None
        entries[name] = value
    return list(entries.items()) if entries else None


def bind_fields(
    target: PlaceTarget,
    source: ir.Place,
    fields: Sequence[str],
    replaced: Sequence[tuple[str, E]],
    span: Span,
    sink: Lowering[E],
) -> None:
    """`target = dataclasses.replace(source, f=v)` (`copy.copy(source)`: nothing replaced) of an object whose class's
    fields are `fields`: reads `source`, evaluates the replacements in order, then binds `target` to a new object
    whose field `f` refers to what `source.f` refers to, or to the replacement; in one parallel `Bind`, so `step =
    dataclasses.replace(step, dst=step.src)` reads the old fields before the name is rebound."""
    sink.emit(ir.Use(source, span))
    given = {name: sink.value(node, None) for name, node in replaced}
    places = tuple(ir.Place(target.place.root, (*target.place.attrs, f), _field_text(target.place, f)) for f in fields)
    values = tuple(
        given.get(f) or ir.FromPlace(ir.Place(source.root, (*source.attrs, f), _field_text(source, f)), span)
        for f in fields
    )
    sink.emit(ir.Bind((target.place, *places), (ir.Fresh(), *values), target.span))


def copied_parts(
    fields: Sequence[str], stages: Sequence[ir.Place], span: Span, sink: Lowering[E]
) -> tuple[tuple[tuple[str, ...], ir.Place], ...]:
    """The fields of the copy a helper returns (`return plan._replace(dst=plan.src)`, `return
    dataclasses.replace(plan, dst=plan.src)`, `return copy.copy(plan)` of a parameter), for
    `calls.returned_object`: each field staged again from the temporary `calls.bind_returned` bound to the caller's
    value of the argument's field or to the replacement, so `execute(in_place(plan), ...)` gets an object whose
    `dst` is the caller's `plan.src` (as `bind_fields` binds the copy a name is bound to)."""
    parts: list[tuple[tuple[str, ...], ir.Place]] = []
    for field, stage in zip(fields, stages, strict=True):
        part = sink.temp(field)
        sink.emit(ir.Bind((part,), (ir.FromPlace(stage, span),), span))
        parts.append(((field,), part))
    return tuple(parts)


def path_place(place: ir.Place, path: Sequence[str]) -> ir.Place:
    """The place `place.a.b` of an attribute path below `place` (spelled below its display, if it has one)."""
    display = None if place.display is None else ".".join((place.display, *path))
    return ir.Place(place.root, (*place.attrs, *path), display)


def flattened_items(
    display: Sequence[E] | None, item_choices: Callable[[E], Choices[E] | None]
) -> Choices[E] | None:
    """The places an item of `itertools.chain.from_iterable(display)` may be (a `flatten` entry): any item of any
    of the display's items, each an iterable whose items the front end's `item_choices` knows (`[[c], pool]`).
    None when the operand is no display or the items of one of its items are not known."""
    if not display:
        return None
    parts = [item_choices(item) for item in display]
    if any(part is None for part in parts):
        return None
    return merge_choices((), parts)


def copied_field(
    field: str,
    operand: E,
    replaced: Sequence[tuple[str, E]],
    operand_field: Callable[[E, str], Choices[E] | None],
    choose: Callable[[E], Choices[E] | None],
) -> Choices[E] | None:
    """The places `copy.copy(operand).field` / `dataclasses.replace(operand, f=v).field` (a `fields` entry's
    result, not bound to a name: a launch's argument, a helper's) may be: the replacement given for `field`, else
    what `operand`'s field is (`operand_field`: a name's attribute, a constructor call's argument, a nested copy's
    field).  The operand and the other replacements are evaluated first.  None when the field is not known."""
    given = dict(replaced)
    others = tuple(value for name, value in replaced if name != field)
    if field in given:
        found = choose(given[field])
        return None if found is None else ((operand, *others, *found[0]), found[1])
    found = operand_field(operand, field)
    return None if found is None else ((*found[0], *others), found[1])


def constructed_field(
    field: str,
    generated: GeneratedInit,
    positional: Sequence[E],
    keywords: Sequence[tuple[str, E]],
    choose: Callable[[E], Choices[E] | None],
) -> Choices[E] | None:
    """The places `Cls(a, b, c=c).field` (of a dataclass or `NamedTuple` of the module whose generated `__init__`
    is `generated`) may be: the argument bound to the field; the other arguments are evaluated first.  None when
    the initializer is not followed, the field takes its default, or the arguments do not fit."""
    bound = _bound_fields(generated, positional, keywords)
    if bound is None or field not in bound:
        return None
    found = choose(bound[field])
    others = tuple(value for name, value in bound.items() if name != field)
    return None if found is None else ((*others, *found[0]), found[1])


def field_argument(
    field: str, generated: GeneratedInit, positional: Sequence[E], keywords: Sequence[tuple[str, E]]
) -> E | None:
    """The argument `Cls(a, b, c=c)` binds to `field` (of a dataclass or `NamedTuple` of the module whose generated
    `__init__` is `generated`), which the object's field keeps: None when the initializer is not followed, may
    change it afterwards (a `__post_init__`), the field takes its default, or the arguments do not fit."""
    bound = _bound_fields(generated, positional, keywords) if not generated.post_init else None
    return None if bound is None else bound.get(field)


def _bound_fields(
    generated: GeneratedInit, positional: Sequence[E], keywords: Sequence[tuple[str, E]]
) -> dict[str, E] | None:
    """Field name -> the argument a constructor call binds to it, for the fields it passes; None when the
    initializer is not followed or the arguments do not fit its fields."""
    fields = (*generated.positional, *generated.keyword_only)
    if not generated.followed or len(positional) > len(generated.positional):
        return None
    bound = dict(zip(generated.positional, positional, strict=False))
    for name, value in keywords:
        if name not in fields or name in bound:
            return None
        bound[name] = value
    return bound


def keyed_entry(entries: Sequence[tuple[ContainerKey, E]], key: ContainerKey | None) -> tuple[list[E], list[E]] | None:
    """`dict(item=c, other=a)["item"]` (a `mapping` entry's call, or a dict display, subscripted where it is
    written): (the other entries' values, evaluated first; the values the subscript may be: the one under `key`,
    any of them for a key not known here).  None for a literal key the entries lack (the runtime's `KeyError`)."""
    chosen = [value for k, value in entries if key is None or k in (key, FILLED_KEY)]
    if not chosen:
        return None
    return [value for k, value in entries if key is not None and k not in (key, FILLED_KEY)], chosen


def field_place(place: ir.Place, field: str) -> ir.Place:
    """The place of the attribute `field` of the object at `place` (`h.a`)."""
    return ir.Place(place.root, (*place.attrs, field), _field_text(place, field))


def _field_text(place: ir.Place, field: str) -> str | None:
    return None if place.display is None else f"{place.display}.{field}"


#: A `zip` operand seen as a slice of a place: (the place, the slice's lower bound, its upper bound), an omitted
#: bound None; a plain place is `(place, None, None)`.
SliceOperand = tuple[ir.Place, int | None, int | None]


def adjacent_pairs(operands: Sequence[SliceOperand | None]) -> ir.Place | None:
    """`zip(xs[:-1], xs[1:])` or `zip(xs, xs[1:])`: the place `xs` whose adjacent pairs the zip takes, as
    `itertools.pairwise(xs)` does; None for any other zip."""
    if len(operands) != 2:
        return None
    head, tail = operands
    if head is None or tail is None:
        return None
    (first, lo0, hi0), (second, lo1, hi1) = head, tail
    if first != second or lo0 not in (None, 0) or hi0 not in (None, -1) or lo1 != 1 or hi1 is not None:
        return None
    return first


def bind_pairs(target: Target[E], source: ir.Place, sink: Lowering[E]) -> bool:
    """Bind `for a, b in itertools.pairwise(xs)` for one iteration: `b` is the item this iteration takes from
    `xs` (`ir.paired_item`, a new object each iteration) and `a` the item the previous iteration took, which
    is what its `b` was: moving `b` in the body moves the next iteration's `a`.  The previous item is carried in
    a temporary's value path (read without a use check, as the runtime hands the object on whatever happened to
    it); the first iteration's `a` is a new value.  False (nothing emitted) for a target that is not two names."""
    if not isinstance(target, UnpackTarget) or target.starred or len(target.items) != 2:
        return False
    first, second = target.items
    if not all(isinstance(part, PlaceTarget) and part.root_span is None for part in (first, second)):
        return False
    assert isinstance(first, PlaceTarget) and isinstance(second, PlaceTarget)
    carried = ir.value_place(sink.temp("previous item"))
    item = ir.FromPlace(ir.paired_item(source, sink.next_group()), target.span)
    sink.emit(
        ir.Bind(
            (first.place, second.place, carried),
            (ir.FromPlace(carried, target.span), item, item),
            target.span,
        )
    )
    return True


#: Standard-library decorators whose wrapper returns what the function it wraps returns, so a call summary of the
#: function applies at a call of the decorated name (as for the module's own decorators that forward every call,
#: `call_targets.forwards_calls` in both front ends): `@functools.cache`, `@functools.lru_cache` and
#: `@functools.lru_cache(maxsize=...)` memoise the result, so the body runs at the first call with given arguments
#: and a later call returns the same object (the same prepared launch, with the same brand).  Following the body
#: at every call over-approximates what a later call does (it runs nothing), never what it returns.
#: `@functools.singledispatch` runs the function it wraps for every argument type no overload was registered for
#: (an overload registered with `@name.register` runs instead for its type, and is not followed).
FORWARDING_DECORATORS: Final = frozenset({"functools.cache", "functools.lru_cache", "functools.singledispatch"})
#: Of those, the ones that may be called with options first and give the decorator (`@lru_cache(maxsize=None)`).
CONFIGURED_FORWARDING_DECORATORS: Final = frozenset({"functools.lru_cache"})


def forwarding_decorator(qualified: str | None, called: bool) -> bool:
    """Whether a decorator whose (callee's, with `called`) qualified name is `qualified` forwards every call to the
    function it wraps and returns its result (`FORWARDING_DECORATORS`)."""
    return qualified in (CONFIGURED_FORWARDING_DECORATORS if called else FORWARDING_DECORATORS)


__all__ = [
    "CONFIGURED_FORWARDING_DECORATORS",
    "CONTAINER_FLOWS",
    "FORWARDING_DECORATORS",
    "STDLIB_FLOWS",
    "SliceOperand",
    "StdlibFlow",
    "adjacent_pairs",
    "bind_fields",
    "bind_pairs",
    "chained_entries",
    "chains_mappings",
    "container_flow",
    "dict_entries",
    "forwarding_decorator",
    "item_operands",
    "keeps_items",
    "picks_item",
    "recurring_source",
    "recurs",
    "selected_operand",
    "stdlib_flow",
]


def folds(name: str | None, positional: int, keywords: int) -> StdlibFlow | None:
    """The entry of a call that folds its iterable operand with its callable operand (`FOLD`:
    `functools.reduce(f, items)`, `functools.reduce(f, items, init)`), given positional operands only, else None."""
    found = stdlib_flow(name)
    if found is None or found.relation != "fold" or keywords or found.default is None:
        return None
    return found if 2 <= positional <= found.default + 1 else None


def lower_fold(
    node: E,
    span: Span,
    evaluated: Sequence[E],
    initial: calls.Operand[E] | None,
    items: Sequence[calls.Operand[E]] | None,
    source: calls.IterationSource,
    item_device: bool,
    step: Callable[[calls.Operand[E], calls.Operand[E]], None],
    sink: Lowering[E],
) -> ir.Value:
    """`functools.reduce(f, items, init)` of a function `f` of the module: `evaluated` (the callee, `f`, the
    iterable, the initial value) are read first, then `acc = f(acc, item)` runs for each item in order, from
    `initial` (or, without one, from the first item); `step` applies `f`'s call summary to two operands as at an
    ordinary call (the front end's `applied_callee`), so a helper that moves its accumulator (partition -> launch
    -> `sync_on`, returning the new value) moves `init`.  Known `items` (a display's, a container list's of known
    length) are unrolled in order.  Otherwise the iterable may be empty (`f` never runs) or hold any number of
    items, taken from `source` as a `for` takes them (`calls.bind_iteration`; `item_device`: they are device
    values): one `Branch` arm runs nothing, the other the first step and then a `Loop` of the others, so `init`
    is moved on some path (a later use is E0382, as a maybe-moved value is).  Each later accumulator is what `f`
    returned, a new value in a temporary (what `f` returns is not followed), and so is the fold's result."""
    for part in evaluated:
        sink.lower_expr(part)
    acc = sink.temp("accumulator")
    sink.emit(ir.Bind((acc,), (ir.Fresh(),), span))
    first = initial if initial is not None else (items[0] if items else None)
    carried = calls.Operand(node, span, acc, first.device if first is not None else item_device)

    def accumulate(current: calls.Operand[E], item: calls.Operand[E]) -> None:
        step(current, item)
        sink.emit(ir.Bind((acc,), (ir.Fresh(),), span))

    if items is not None:
        ordered = [*([initial] if initial is not None else []), *items]
        for index, item in enumerate(ordered[1:]):
            accumulate(ordered[0] if index == 0 else carried, item)
    else:
        taken = sink.temp("item")
        sink.emit(ir.Bind((taken,), (ir.Fresh(),), span))
        each = calls.Operand(node, span, taken, item_device)

        def take() -> None:
            calls.bind_iteration(PlaceTarget(taken, span), "each", [source], sink)

        def steps() -> None:
            start = initial
            if start is None:
                take()
                sink.emit(ir.Bind((acc,), (ir.FromPlace(taken, span),), span))
                start = calls.Operand(node, span, acc, item_device)
            take()
            accumulate(start, each)
            sink.emit(ir.Loop(sink.block(take), sink.block(lambda: accumulate(carried, each)), (), span))

        sink.emit(ir.Branch((sink.block(steps), ()), span))
        sink.emit(ir.Del(taken, span))
    sink.emit(ir.Del(acc, span))
    return ir.Fresh()


#: Calls that take every item of their first operand before they return (`list(gen())`, `sum(...)`; `any` and
#: `all` may stop early: taken as running to the end, as for a loop that may `break`).
DRAINING: Final[frozenset[str]] = frozenset({
    "list", "tuple", "sorted", "set", "frozenset", "dict", "sum", "max", "min", "any", "all", "collections.deque",
    "collections.Counter", "statistics.mean", "statistics.fmean", "statistics.median", "math.fsum", "math.prod",
})


def drains(name: str | None, positional: int) -> bool:
    """Whether a call of `name` takes every item of its first positional operand before it returns, so a
    generator's call there runs its body to its end (`callables.iterated_call`)."""
    return name is not None and name.removeprefix("builtins.") in DRAINING and positional >= 1


def takes_next(name: str | None, positional: int, keywords: int) -> bool:
    """Whether a call of `name` with these operands takes the next item of its one iterable operand (`next(it)`:
    a `pick` entry with a positional default, given none), so a generator's call there runs its body to its
    first `yield` (`callables.iterated_call`)."""
    flow = picks_item(name)
    return flow is not None and flow.default is not None and positional == 1 and keywords == 0
