"""What a class's `__init__` leaves on `self` that the class's other methods start knowing.

Mypy reads an attribute's type from `__init__`, and the runtime runs every method on an object `__init__` built:
a method of the class starts with what `__init__` made of `self`'s attributes, read from the core's own flow
analysis of `__init__`'s IR (identically for both front ends) at its exit:

- an attribute bound to a `.shared()` op on every path (`self.table = self.raw.shared()`): a launch that reads it
  twice in another method does not move it;
- an attribute whose object `__init__` moved on every path (`self.raw` above): a later method's use of it is a use
  after move (`E0382`, the move labelled at its place in `__init__`).

- an attribute bound to a display whose every value is `kernel.prepare(...)` (`{Mode.SMOOTH: smooth.prepare(...),
  Mode.EDGES: smooth.prepare(...)}`; the front ends find it in `__init__`'s own body, as a single prepared launch
  `init_brands`): its items keep their brands, so `edges.launch(self.prepared[mode], ...)` in another method is
  `E0308` when no item is `edges`'s, whatever the key (`stored_items`, `item_choices`).

- an attribute bound to a view of another attribute, or to its very object (`self.lent = self.total.as_buffer()`,
  `self.head = self.buf.view(0, 8)`): the runtime ends a view when its parent moves, so the relation is kept (the
  method starts with `self.lent` a view of `self.total`: moving `self.total` there makes a later use of `self.lent`
  `E0382`, or `E0505` while an op borrows it); and when another method of the class moves the base and binds it
  anew (`acc = k(self.total.partition(...)); self.total = acc.unpartition()`, read from that method's call summary),
  the view outlives its parent: a method may run after that one, so its use of `self.lent` is `E0382`, the move
  labelled inside the other method (`stale`).

Only attributes nothing else in the class binds count (the front ends count the stores of each attribute name in the
class's methods: `single`), as for the prepared launches and aliases `__init__` stores (`init_brands`)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, TypeVar

from ownership_check.core import ir
from ownership_check.core.call_effects import CallSummary, StoredItems
from ownership_check.core.calls import FILLED_KEY, SHARED_OP, Choices, Operand
from ownership_check.core.cfg import build
from ownership_check.core.checker import State, _Analysis, _setup
from ownership_check.diagnostics import Span


@dataclass(frozen=True)
class InitFacts:
    """`shared`: attributes bound to a `.shared()` op on every path out of `__init__`.  `moved`: attributes whose
    object `__init__` moved on every path, with where (the move's span and help).  `views` and `stale`: attributes
    bound to a view (or the object) of another attribute, kept so (`views`) or moved by another method (`stale`)."""

    shared: tuple[str, ...] = ()
    moved: tuple[tuple[str, Span, str | None], ...] = ()
    # `views`: (attribute, the attribute it is a view of, the view's region; None: the same object, `as_buffer`)
    views: tuple[tuple[str, str, ir.Region | None], ...] = ()
    # `stale`: (attribute, its base, where another method moves the base, help, whether that move is `assumed`)
    stale: tuple[tuple[str, str, Span, str | None, bool], ...] = ()
    # `stored`: what the class's methods leave in `self`'s container attributes (`StoredItems`): pending ops that
    # borrow objects stored beside them, which a method may meet there (another method, or itself, ran before)
    stored: tuple[StoredItems, ...] = ()


NO_FACTS = InitFacts()

E = TypeVar("E")
K = TypeVar("K")


def init_facts(
    function: ir.Function,
    receiver: str,
    single: Collection[str],
    methods: Callable[[], Iterable[CallSummary]] = tuple,
) -> InitFacts:
    """The facts `__init__` (lowered as `function`, its receiver parameter named `receiver`) leaves on `self`'s
    attributes in `single` (bound by nothing else in the class).  `methods`: the call summaries of the class's other
    methods, asked for when an attribute is a view of one they may bind anew (`stale`), and for what they leave in
    `self`'s containers (`stored`: a method may run after any of them)."""
    own = _own_facts(function, receiver, single, methods)
    stored = tuple(dict.fromkeys(s.stored for s in methods() if s.stored is not None))
    return replace(own, stored=stored) if stored else own


def _own_facts(
    function: ir.Function,
    receiver: str,
    single: Collection[str],
    methods: Callable[[], Iterable[CallSummary]],
) -> InitFacts:
    """`init_facts` but `stored`: what `__init__`'s own exit state says."""
    graph = build(function)
    setup = _setup(graph, (receiver,))
    if setup is None:
        return NO_FACTS
    analysis = _Analysis(function, graph, setup)
    states = analysis.solve()
    exit_state = states[graph.exit]
    if exit_state is None or not exit_state.worlds:
        return NO_FACTS
    prefix = receiver + "."
    keys = {k for w in exit_state.worlds for k in w if k.startswith(prefix) and "." not in k[len(prefix) :]}
    shared: list[str] = []
    moved: list[tuple[str, Span, str | None]] = []
    for key in sorted(keys):
        attr = key[len(prefix) :]
        if attr not in single or "$" in attr or not all(key in w for w in exit_state.worlds):
            continue
        objs = exit_state.get(key)
        if any(o[0] == "@" for o in objs):
            continue  # the caller's value on some path
        if all(analysis.info(o).kind == SHARED_OP for o in objs):
            shared.append(attr)
            continue
        # moved on every path: each object's moves include a site every path out passes
        where: tuple[Span, str | None] | None = None
        for o in objs:
            sites = [s for s in sorted(exit_state.moved.get(o, ())) if analysis.dominates(s, graph.exit)]
            op = graph.nodes[sites[0]].op if sites else None
            if not isinstance(op, ir.Move):
                where = None
                break
            where = where or (op.span, op.help)
        if where is not None:
            moved.append((attr, *where))
    views, stale = _views(analysis, exit_state, prefix, keys, [a for a in single if a not in shared], moved, methods)
    return InitFacts(tuple(shared), tuple(moved), views, stale)


def _views(
    analysis: _Analysis,
    exit_state: State,
    prefix: str,
    keys: Collection[str],
    single: Collection[str],
    moved: list[tuple[str, Span, str | None]],
    methods: Callable[[], Iterable[CallSummary]],
) -> tuple[tuple[tuple[str, str, ir.Region | None], ...], tuple[tuple[str, str, Span, str | None, bool], ...]]:
    """The attributes in `single` that `__init__` left bound, on every path, to a view of another attribute's
    object, or to that very object (`views`), kept in the other methods when nothing else binds the base; moved
    there when `__init__` moved the base (appended to `moved`); `stale` when another method moves the base and binds
    it anew (its call summary moves and rebinds it), so the view may outlive its parent by the time a method runs.
    Among attributes that are one object, each is bound to the one whose name sorts first (no cycle)."""
    attrs = sorted(k[len(prefix) :] for k in keys if "$" not in k)
    done = {a for a, *_ in moved}
    views: list[tuple[str, str, ir.Region | None]] = []
    pending: list[tuple[str, str]] = []
    for attr in attrs:
        if attr not in single or attr in done:
            continue
        for base in attrs:
            if base == attr:
                continue
            relation = _relation(analysis, exit_state, prefix + attr, prefix + base)
            if relation is None or (relation[0] is None and base > attr and base in single):
                continue
            where = next(((span, text) for a, span, text in moved if a == base), None)
            if where is not None:
                moved.append((attr, *where))
            elif base in single:
                views.append((attr, base, _portable(relation[0])))
            else:
                pending.append((attr, base))
            break
    stale: list[tuple[str, str, Span, str | None, bool]] = []
    if pending:
        renewed: dict[str, tuple[Span, str | None, bool]] = {}
        for summary in methods():
            if summary.receiver is None:
                continue
            rebound = {path[1] for path, _ in summary.rebinds if path[0] == summary.receiver and len(path[1]) == 1}
            for move in summary.moves:
                if move.path[0] == summary.receiver and move.path[1] in rebound:
                    renewed.setdefault(move.path[1][0], (move.span, move.help, move.assumed))
        stale = [(attr, base, *renewed[base]) for attr, base in pending if base in renewed]
    return tuple(views), tuple(stale)


def _relation(analysis: _Analysis, state: State, key: str, base_key: str) -> tuple[ir.Region | None] | None:
    """`(None,)` when `key` refers to the object `base_key` does on every path, `(region,)` when to a view of it
    (one level: `base.view(0, 8)`, a half of `base.split_at(k)`), else None."""
    found: tuple[ir.Region | None] | None = None
    for world in state.worlds:
        objs, bases = world.get(key), world.get(base_key)
        if not objs or not bases:
            return None
        for obj in objs:
            if obj[0] == "@" and obj not in bases:
                return None
            info = analysis.info(obj)
            if obj in bases:
                this: tuple[ir.Region | None] = (None,)
            elif info.parent is not None and info.parent in bases and info.region is not None:
                this = (info.region,)
            else:
                return None
            if found is not None and found != this:
                return None
            found = this
    return found


def portable_region(region: ir.Region | None) -> ir.Region | None:
    """A region of a callee's view as its caller can state it for the caller's value (`CallSummary.rebound_views`):
    literal bounds, or one half of a `split_at` under a site no node of the caller has; None for a bound that is a
    name of the callee, which would overlap every other view of the value there (`_portable`'s `Whole`)."""
    found = _portable(region)
    return None if found is None or isinstance(found, ir.Whole) else found


def _portable(region: ir.Region | None) -> ir.Region | None:
    """A region of `__init__`'s view as another method can state it: a bound that is a name of `__init__` means
    nothing there (`Whole`), and the two halves of one `split_at` stay disjoint under a site no node of the method
    has (a negative one)."""
    if isinstance(region, ir.Range) and (isinstance(region.start, str) or isinstance(region.stop, str)):
        return ir.Whole()
    if isinstance(region, ir.Half):
        return ir.Half(-1 - region.site, region.index)
    return region


def device_bases(facts: InitFacts, device: Callable[[str], bool]) -> tuple[str, ...]:
    """The bases of the views (`views`, `stale`) that a method knows are device values (`device`: an attribute it
    passes to a kernel, `self.head` of `launch(..., self.head, out)`, is one): the attribute a view shares storage with
    is one too, as the front ends find for a local (`lower = buf.view(...)` passed to a kernel makes `buf` one), so
    `self.buf.to(dev, s)` there moves it."""
    pairs = [(attr, base) for attr, base, _ in facts.views] + [(attr, base) for attr, base, *_ in facts.stale]
    return tuple(sorted({base for attr, base in pairs if device(attr)}))


def method_start(
    facts: InitFacts, receiver: str, span: Span, device: Callable[[str], bool] = lambda attr: True
) -> tuple[ir.Op, ...]:
    """The ops a method of the class starts with (`receiver`: the IR name of its first parameter, `span`: where
    it is): each attribute as `__init__` left it.  `device`: whether the method knows an attribute is a device
    value, for a `stale` base another method moves by a call other libraries define too (an `assumed` move)."""
    ops: list[ir.Op] = []
    for attr in facts.shared:
        ops.append(ir.Bind((ir.Place(receiver, (attr,)),), (ir.Fresh(SHARED_OP),), span))
    for attr, base, region in facts.views:
        place, source = ir.Place(receiver, (attr,)), ir.Place(receiver, (base,))
        if region is None:
            ops.append(ir.Bind((place,), (ir.FromPlace(source, span),), span))
        else:
            ops.append(ir.View(place, source, region, span))
    stale = [(attr, where, text) for attr, base, where, text, assumed in facts.stale if not assumed or device(base)]
    for attr, where, help_text in (*facts.moved, *stale):
        place = ir.Place(receiver, (attr,))
        ops.append(ir.Bind((place,), (ir.Fresh(),), span))
        ops.append(ir.Move(place, where, help_text))
    for number, stored in enumerate(facts.stored):
        ops.extend(_stored_start(stored, receiver, number, span))
    return tuple(ops)


def _stored_start(stored: StoredItems, receiver: str, number: int, span: Span) -> list[ir.Op]:
    """What one method left in `self`'s containers (`StoredItems`, the `number`th of the class's), as a method
    starts with it: each object a new one stored into its attribute (`ir.stored_item`, which gains it), each op a
    new one stored into its own, borrowing those objects at the spans where that method's launch borrowed them (in
    a borrow group of its own, negative so no call of the method has it), so a move of an item taken back out
    (`self.slots.pop(rid).partition(...)`) while the op is kept is `E0505`, as the runtime's `BorrowError`."""
    ops: list[ir.Op] = []
    temps = [ir.Place(f"$stored{number}_{i}", (), f"{receiver}.{attr}[...]") for i, attr in enumerate(stored.items)]
    for temp in temps:
        ops.append(ir.Bind((temp,), (ir.Fresh(),), span))
    for index, op in enumerate(stored.ops):
        holder = ir.stored_item(ir.Place(receiver, (op.attr,)))
        group = -1 - 1000 * number - index
        loans = [ir.Borrow(temps[item], mutable, group, where) for item, mutable, where in op.loans]
        ops.extend(ir.keep_op(holder, loans, span))
    for attr, temp in zip(stored.items, temps, strict=True):
        ops.append(ir.Bind((ir.stored_item(ir.Place(receiver, (attr,))),), (ir.FromPlace(temp, span),), span))
        ops.append(ir.Del(temp, span))
    return ops


def comprehension_kernels(
    names: Sequence[str | None], operands: Sequence[Sequence[K | None] | None], kernel: str
) -> tuple[K, ...] | None:
    """The kernels of the prepared launches a comprehension `__init__` stores builds, one item per iteration, in
    order: `{mode: k.prepare(...) for mode, k in zip(Mode, (blur, sharpen))}` (also `for k, mode in zip(...)`, `for
    k in (blur, sharpen)`, a list comprehension), whose element is `kernel.prepare(...)` of one of its target
    names (`names`: one per `zip` operand, or the one target; None for a target that is no name), the operand that
    name takes its items from a display of kernels (`operands`: each one's items as kernels, None for an item or
    an operand that is not one).  Each item keeps its kernel's brand (`stored_items`); a key not known here may
    pick any of them, so a launch is `E0308` when none is its kernel's (`zip` stops at its shortest operand: items
    past it are brands no launch can hold, which only makes the check more lenient).  None for other forms."""
    if names.count(kernel) != 1 or len(names) != len(operands):
        return None
    items = operands[names.index(kernel)]
    if not items or any(item is None for item in items):
        return None
    return tuple(item for item in items if item is not None)


#: A method's own item changes and the names of its class's methods it calls on its receiver (`changed_items`).
OwnChanges = tuple[frozenset[str], frozenset[str]]


def changed_items(
    method: K, methods: Mapping[str, K], memo: dict[int, OwnChanges], own: Callable[[K], OwnChanges | None]
) -> frozenset[str]:
    """The attributes of its receiver whose items `method` may change: its own changes (`own`, read off a front
    end's tree: None for a function without a receiver) and those of the methods of its class (`methods`, by name)
    it calls on its receiver, transitively, each method's read once per module (`memo`, by node id)."""
    changed: set[str] = set()
    seen: set[int] = set()
    stack = [method]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if id(current) not in memo:
            found = own(current)
            if found is None:
                continue
            memo[id(current)] = found
        changes, called = memo[id(current)]
        changed |= changes
        stack.extend(methods[name] for name in called if name in methods)
    return frozenset(changed)


#: The keys `init_item_keys` gives a container `__init__` stored whose every item is one object (`[buf] * 2`,
#: `[buf, buf]`, `dict.fromkeys(names, buf)`): one item, read under any key and by any iteration.
UNIFORM_KEYS: Final[tuple[object, ...]] = (FILLED_KEY,)


def uniform_container(mapping: bool | None, keys: Sequence[object], places: Sequence[str | None]) -> bool:
    """Whether a container display is one object under every key: a mapping filled with one value
    (`dict.fromkeys(names, buf)`: its one key `FILLED_KEY`) or whose values are all one place, or a sequence whose
    items are all one place (`[buf, buf]`: `places`, each item's dotted text or None) or a repetition of a one-item
    display (`[buf] * 2`, `[sk.zeros(n)] * 2`: `mapping` None, one item)."""
    one_place = len(places) > 1 and places[0] is not None and len(set(places)) == 1
    if mapping:
        return tuple(keys) == UNIFORM_KEYS or one_place  # `{"left": buf, "right": buf}` too
    if mapping is None:
        return len(places) == 1 or one_place
    return one_place


def item_position(keys: Sequence[object] | None, plain: bool, key: object, count: int) -> tuple[bool, int | None]:
    """Which item `self.attr[key]` reads of a display `__init__` stored (`count` items; `keys`: a dict display's
    literal keys in order, None for a list or tuple display): (whether the read is followed at all, the position
    it names or None for any item).  A display of prepared launches is followed under any key (any item when the
    key is not one of its literals); a display of other values only under a literal key it has (a list's integer
    index, negative ones counted from its end; a dict's key), each item one object of its own.  A container whose
    every item is one object (`UNIFORM_KEYS`) gives that item under any key, computed ones too."""
    if keys is not None and tuple(keys) == UNIFORM_KEYS:
        return True, 0
    if keys is not None:
        position = keys.index(key) if key is not None and key in keys else None
    elif isinstance(key, int) and not isinstance(key, bool) and -count <= key < count:
        position = key % count
    else:
        position = None
    if plain:
        return position is not None, position
    return True, position


def item_places(base: ir.Place, count: int) -> tuple[ir.Place, ...]:
    """The places of the items of a display of prepared launches `__init__` stored at `base` (`self.prepared`)."""
    return tuple(ir.Place(base.root, (*base.attrs, f"[{i}]"), f"{base.text}[{i}]") for i in range(count))


def uniform_items(
    items: Mapping[str, tuple[str, ...]], keys: Mapping[str, tuple[object, ...]]
) -> dict[str, tuple[str, ...]]:
    """Of the items `__init__` stores (`items`, their keys `keys`), the containers whose every item is one object
    (`UNIFORM_KEYS`: `dict.fromkeys(names, buf)`, `[buf] * 2`): `__init__` itself reads them as its other methods
    do, its assignment binding the one item (the front ends' `bind_uniform_item`)."""
    return {attr: kernels for attr, kernels in items.items() if tuple(keys.get(attr, ())) == UNIFORM_KEYS}


def stored_items(
    receiver: str, items: Mapping[str, tuple[str, ...]], span: Span, plain: bool = True
) -> tuple[ir.Op, ...]:
    """The ops a method starts with for the displays `__init__` stored (`items`: attribute -> the kernel each item
    was prepared for, in order, "" for an item that is a plain name, `self.fields = [a, b]`): each item place bound
    to its prepared launch, or to an object of its own (one object per item: two reads of one item, `self.fields[0]`
    twice, are one object, as two reads of a local display's item are)."""
    ops: list[ir.Op] = []
    for attr, kernels in sorted(items.items()):
        if not plain and not any(kernels):
            continue  # (a call summary's lowering: the items stay the receiver's, as the caller knows them)
        places = item_places(ir.Place(receiver, (attr,)), len(kernels))
        ops.append(ir.Bind(places, tuple(ir.Fresh("prepared", brand=k) if k else ir.Fresh() for k in kernels), span))
    return tuple(ops)


def item_choices(
    node: E,
    base_node: E,
    index: E,
    base: ir.Place,
    count: int,
    span: Span,
    literal: int | None = None,
    keys: Sequence[object] | None = None,
) -> Choices[E]:
    """`self.prepared[key]` of such an attribute: any of its items (after reading the attribute and the key), or
    the one an integer literal index names in a list (tuple) display (`literal`: `self.fields[0]`).  The one item
    of a container whose every item is one object (`keys` `UNIFORM_KEYS`) is spelled `self.outputs[...]`."""
    places = item_places(base, count)
    if literal is not None and -count <= literal < count:
        places = (places[literal],)
    if keys is not None and tuple(keys) == UNIFORM_KEYS:
        places = tuple(ir.Place(p.root, p.attrs, f"{base.text}[...]") for p in places)
    return (base_node, index), tuple(Operand(node, span, place, True) for place in places)


def alias_binding(receiver: str, attr: str, sources: Sequence[str | None], span: Span) -> ir.Op:
    """What a method starts with for `self.attr`, which `__init__` bound to another attribute's object: `self.attr
    = self.source` (`sources` one name) makes it that object; `self.attr = self.keys if shared else sk.zeros(n)`
    (one entry per arm, None for an arm that is no attribute of `self`: a new object) makes it either, a `Branch`
    as for any conditional value."""
    place = ir.Place(receiver, (attr,))

    def bound(source: str | None) -> ir.Bind:
        value: ir.Value = ir.FromPlace(ir.Place(receiver, (source,)), span) if source is not None else ir.Fresh()
        return ir.Bind((place,), (value,), span)

    if len(sources) == 1:
        return bound(sources[0])
    return ir.Branch(tuple((bound(source),) for source in sources), span)


def brand_binding(receiver: str, attr: str, kernels: Sequence[str], span: Span) -> ir.Op:
    """What a method starts with for `self.attr`, which `__init__` bound to `kernel.prepare(...)`: a prepared launch
    branded for that kernel; for a method checked on its own that subclasses run too, whose `__init__` prepares
    another kernel there (`type(self).kernel.prepare(...)` of a subclass binding `kernel = vecmul`), either brand,
    a `Branch` with one arm per kernel, since an object of each class may run it."""
    place = ir.Place(receiver, (attr,))
    per_class = len(kernels) > 1
    arms = tuple(
        (ir.Bind((place,), (ir.Fresh("prepared", brand=kernel, per_class=per_class),), span),) for kernel in kernels
    )
    return arms[0][0] if len(arms) == 1 else ir.Branch(arms, span)


def merged_brands(own: Mapping[str, str], others: Sequence[Mapping[str, str]]) -> dict[str, tuple[str, ...]]:
    """The brands `brand_binding` takes, by attribute: `own`'s (the method's class's `__init__` brands) and, for
    each attribute, the other kernels the subclasses running the method brand it for (`others`, one mapping per
    subclass; a subclass that stores something else there adds no arm: its launch is checked by the runtime)."""
    merged = {attr: [kernel] for attr, kernel in own.items()}
    for brands in others:
        for attr, kernels in merged.items():
            if (kernel := brands.get(attr)) is not None and kernel not in kernels:
                kernels.append(kernel)
    return {attr: tuple(kernels) for attr, kernels in merged.items()}


def alias_sources(arms: Sequence[str | None], bound: Collection[str]) -> tuple[str | None, ...] | None:
    """The sources `alias_binding` takes for an assignment in `__init__` whose value is an attribute of `self` or a
    conditional expression (`arms`: each arm's attribute name, None for anything else): those bound before it
    (`bound`), None for the rest; None when no arm names one."""
    sources = tuple(arm if arm is not None and arm in bound else None for arm in arms)
    return sources if any(source is not None for source in sources) else None
