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

Only attributes nothing else in the class binds count (the front ends count the stores of each attribute name in the
class's methods: `single`), as for the prepared launches and aliases `__init__` stores (`init_brands`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ownership_check.core import ir
from ownership_check.core.calls import SHARED_OP, Choices, Operand
from ownership_check.core.cfg import build
from ownership_check.core.checker import _Analysis, _setup
from ownership_check.diagnostics import Span


@dataclass(frozen=True)
class InitFacts:
    """`shared`: attributes bound to a `.shared()` op on every path out of `__init__`.  `moved`: attributes whose
    object `__init__` moved on every path, with where (the move's span and help)."""

    shared: tuple[str, ...] = ()
    moved: tuple[tuple[str, Span, str | None], ...] = ()


NO_FACTS = InitFacts()

E = TypeVar("E")
K = TypeVar("K")


def init_facts(function: ir.Function, receiver: str, single: Collection[str]) -> InitFacts:
    """The facts `__init__` (lowered as `function`, its receiver parameter named `receiver`) leaves on `self`'s
    attributes in `single` (bound by nothing else in the class)."""
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
    return InitFacts(tuple(shared), tuple(moved))


def method_start(facts: InitFacts, receiver: str, span: Span) -> tuple[ir.Op, ...]:
    """The ops a method of the class starts with (`receiver`: the IR name of its first parameter, `span`: where
    it is): each attribute as `__init__` left it."""
    ops: list[ir.Op] = []
    for attr in facts.shared:
        ops.append(ir.Bind((ir.Place(receiver, (attr,)),), (ir.Fresh(SHARED_OP),), span))
    for attr, where, help_text in facts.moved:
        place = ir.Place(receiver, (attr,))
        ops.append(ir.Bind((place,), (ir.Fresh(),), span))
        ops.append(ir.Move(place, where, help_text))
    return tuple(ops)


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


def item_places(base: ir.Place, count: int) -> tuple[ir.Place, ...]:
    """The places of the items of a display of prepared launches `__init__` stored at `base` (`self.prepared`)."""
    return tuple(ir.Place(base.root, (*base.attrs, f"[{i}]"), f"{base.text}[{i}]") for i in range(count))


def stored_items(receiver: str, items: Mapping[str, tuple[str, ...]], span: Span) -> tuple[ir.Op, ...]:
    """The ops a method starts with for the displays `__init__` stored (`items`: attribute -> the kernel each item
    was prepared for, in order, "" for an item that is a plain name, `self.fields = [a, b]`): each item place bound
    to its prepared launch, or to an object of its own (one object per item: two reads of one item, `self.fields[0]`
    twice, are one object, as two reads of a local display's item are)."""
    ops: list[ir.Op] = []
    for attr, kernels in sorted(items.items()):
        places = item_places(ir.Place(receiver, (attr,)), len(kernels))
        ops.append(ir.Bind(places, tuple(ir.Fresh("prepared", brand=k) if k else ir.Fresh() for k in kernels), span))
    return tuple(ops)


def item_choices(
    node: E, base_node: E, index: E, base: ir.Place, count: int, span: Span, literal: int | None = None
) -> Choices[E]:
    """`self.prepared[key]` of such an attribute: any of its items (after reading the attribute and the key), or
    the one an integer literal index names in a list (tuple) display (`literal`: `self.fields[0]`)."""
    places = item_places(base, count)
    if literal is not None and -count <= literal < count:
        places = (places[literal],)
    return (base_node, index), tuple(Operand(node, span, place, True) for place in places)
