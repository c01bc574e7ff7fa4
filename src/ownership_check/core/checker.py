"""The borrow/move checker: a forward dataflow analysis over one function's control-flow graph.

State at each program point (all of it joined as "may" facts where paths merge):

- `worlds`: per path history (up to `MAX_WORLDS`, then merged), a map place key -> the abstract objects it may
  refer to.  An object is born at the IR node that creates it (`n12.0`), or is the unknown initial object of a
  place (`@c`); views are objects with a parent and a region.  Aliases are therefore tracked per path: `d = c`
  makes `d` and `c` share objects, and a swap `a, b = b, a` in a loop never makes `a` and `b` look aliased.
- `moved`: object -> the move nodes that may have consumed it.  Branches merge to "maybe moved", which is
  reported exactly like "definitely moved" (as rustc does).  Loops iterate to a fixed point; a move found
  again at or after the use, through the back edge, is labelled "in previous iteration of loop".
- `loans`: borrows that outlive their call.  A pending `launch_async` DeviceOp's loans last until the op is
  consumed (`sync_on`/`sync`) or unreachable; a kernel-side `get_mut` result's loan lasts while a live name
  refers to it (non-lexical lifetimes, from `liveness`).
- `group`: the borrows of the call being evaluated, so two arguments of one launch can be compared.

After the fixed point, one pass in source order reports diagnostics; a set of move sites is reported once, at
the first use reached after it.

How it is kept fast (the mypy plugin runs it from every ownership-relevant call's hook) without changing what it
computes:

- States are immutable values: an operation that changes nothing (most `Use`s) hands its input state on as is,
  and the parts an operation does not touch (worlds, `moved`) are shared, not copied.  Worlds cache their
  identity (`World.key`), their set of reachable objects and their key set, so joins, fixed-point tests and
  garbage collection of dead facts read cached values instead of rebuilding them per step.
- Sparse facts: roots are partitioned by the aliasing operations that connect them (`Bind` of a place, `View`);
  a partition none of whose roots is ever moved, borrowed, brand-checked, element-accessed or a loan holder is
  *inert*.  Its keys still live in the worlds (a world's identity, which bounds how many worlds exist, depends
  on them) but it never holds an object that is moved or loaned, so reads of it cannot report anything and
  writes to it cannot make a moved object or a loan unreachable: the checker skips those checks.
- Parent chains of view objects are computed once per object (an object's parent never changes).
- Liveness is computed lazily, with bitsets, and only when a held loan must be checked against it.
- A function without any move, borrow, brand check, unsafe operation or shared array returns at once.
"""

from __future__ import annotations

import heapq
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ownership_check.core import ir, messages, moved_items, view_bounds
from ownership_check.core.calls import NonlocalEffects
from ownership_check.core.cfg import Graph, Node, build
from ownership_check.core.fall_through import chain_label, open_chains
from ownership_check.core.liveness import live_bits_around
from ownership_check.diagnostics import Diagnostic, Span


@dataclass(slots=True, unsafe_hash=True)
class ObjInfo:
    parent: str | None = None
    region: ir.Region | None = None
    kind: str = "value"
    brand: str | None = None
    per_class: bool = False  # `ir.Fresh.per_class`


_PLAIN = ObjInfo()


@dataclass(slots=True, unsafe_hash=True)
class Loan:
    obj: str
    mutable: bool
    node: int
    text: str
    holder_key: str
    holder_obj: str | None


@dataclass(slots=True, unsafe_hash=True)
class GroupBorrow:
    key: str
    mutable: bool
    node: int
    held_by: str | None = None  # a nested function's pending op whose loan this replays (`ir.Borrow.held_by`)


MAX_WORLDS = 16


def _loan_order(loan: Loan) -> tuple[int, str, str, str, bool, str]:
    return (loan.node, loan.obj, loan.holder_key, loan.holder_obj or "", loan.mutable, loan.text)
_EMPTY: frozenset[str] = frozenset()
_NO_SITES: frozenset[int] = frozenset()


class World(dict[str, frozenset[str]]):
    """One points-to map.  Mutated only while the step that created it runs; frozen (by convention) once it is
    part of a state, which is when its cached identity and reachability are computed."""

    _key: frozenset[tuple[str, frozenset[str]]] | None = None
    _reach: set[str] | None = None
    #: This world is the union of more worlds than `MAX_WORLDS` (`_merge_worlds`): a state holding it joins every
    #: world that arrives into it, so the state at a node only grows once it has been merged.
    merged = False
    #: The objects moved on the paths this world stands for (`State.moved` says where, for every path at once): a
    #: use reads a moved object only in a world that maps its place to an object moved in that same world.
    gone: frozenset[str] = frozenset()
    #: The loans made on the paths this world stands for, as (borrow node, object, mutable) (`State.loans` holds
    #: the loans of every path at once): a loan conflicts with a borrow or a move only in a world that made it, so a
    #: swap `cur, nxt = nxt, cur` in a loop never makes one path's loan of `nxt` conflict with another's read of
    #: `cur`.
    lent: frozenset[tuple[int, str, bool]] = frozenset()

    def key(self) -> frozenset[tuple[str, frozenset[str]]]:
        k = self._key
        if k is None:
            k = self._key = frozenset(self.items())
        return k


def _copy_world(world: World) -> World:
    """A copy of `world` to change in the running step (its points-to map and its moved objects)."""
    copy = World(world)
    if world.gone:
        copy.gone = world.gone
    if world.lent:
        copy.lent = world.lent
    return copy


def _with_gone(
    world: World, gone: frozenset[str], lent: frozenset[tuple[int, str, bool]] = frozenset()
) -> World:
    """`world` with `gone` added to its moved objects and `lent` to its loans: the join of two paths with the same
    points-to map."""
    if gone <= world.gone and lent <= world.lent:
        return world
    copy = _copy_world(world)
    copy.merged = world.merged
    copy.gone = world.gone | gone
    copy.lent = world.lent | lent
    return copy


def _world_get(world: World, key: str) -> frozenset[str]:
    found = world.get(key)
    return found if found is not None else frozenset(("@" + key,))


#: Whether a place key may still be read (its root name is live before the node the worlds arrive at).
Live = Callable[[str], bool]


def _live_key(world: World, live: Live) -> frozenset[tuple[str, frozenset[str]]]:
    """What tells `world` apart from others at a join: its live places, except what containers may hold (a
    container's items are a "may" set already; keeping a world per set of items a loop stored so far multiplies
    worlds without telling any read apart)."""
    return frozenset((k, v) for k, v in world.items() if live(k) and ".<" not in k)


def _merge_worlds(worlds: Iterable[World], live: Live | None = None) -> tuple[World, ...]:
    """The worlds of a join: each distinct one, or their union once there are more than `MAX_WORLDS` or one of
    them is already such a union.  Keeping a union apart from worlds it covers would let a node's state go from
    `(union,)` to `(union, w)` and back to `(union,)` as a loop is revisited: the fixed point would never settle.
    With `live`, worlds that map every live key alike are one world (`_union`): they differ only in places no
    later step reads, so keeping them apart would spend the `MAX_WORLDS` bound on nothing (a loop that rebinds
    its names each iteration makes a new world per iteration otherwise, until the bound merges them all)."""
    unique: dict[frozenset[tuple[str, frozenset[str]]], World] = {}
    was_merged = False
    for w in worlds:
        k = w.key() if live is None else _live_key(w, live)
        found = unique.setdefault(k, w)
        if found is not w:
            if live is not None and found.key() != w.key():
                unique[k] = _union((_live_gone(found, live), _live_gone(w, live)))
            else:
                unique[k] = _with_gone(found, w.gone, w.lent)
        was_merged = was_merged or w.merged
    out = list(unique.values())
    if (len(out) <= MAX_WORLDS and not was_merged) or len(out) == 1:
        return tuple(out)
    merged = _union(out)
    merged.merged = True
    return (merged,)


def _live_gone(world: World, live: Live) -> World:
    """`world` with its moved objects narrowed to those a live place may still reach (itself or through a view of
    it, `v<node>:<base>`), before it is merged with a world that maps the live places alike.  An allocation site
    names every object it makes, so the op a comprehension built in the previous iteration of an outer loop (moved
    by `sk.zip(*ops)`, still held by the dead `ops`) and the one it builds now share a name: merged with the state
    where the new one is held, the old one's move would make the new one look moved.  What no live place reaches
    is never read again on this world's paths; unknown objects (`@key`) are kept, a later read of an absent key
    reaches them."""
    gone = world.gone
    if not gone:
        return world
    held = {o for key, objs in world.items() if live(key) for o in objs}
    keep = frozenset(
        g for g in gone
        if g[0] == "@" or g in held or any(o.endswith(":" + g) for o in held) or _held_marker(g, held)
    )
    if keep == gone:
        return world
    copy = _copy_world(world)
    copy.merged = world.merged
    copy.gone = keep
    return copy


def _held_marker(obj: str, held: set[str]) -> bool:
    """Whether `obj` is a marker of a moved item (`moved_items`) whose container a live place still holds."""
    container = moved_items.marker_container(obj) if "$moved" in obj else None
    return container is not None and (container[0] == "@" or container in held)


def _union(worlds: Sequence[World]) -> World:
    """The union, key by key, of what each world maps it to (a key a world lacks maps to its unknown object
    `@key`), and of the objects each moved.  Built world by world: most keys map to the same set in every world,
    which costs one identity test."""
    out = worlds
    merged = _copy_world(out[0])
    merged.merged = out[0].merged
    for w in out[1:]:
        merged.merged = merged.merged or w.merged
        if w.gone:
            merged.gone = merged.gone | w.gone
        if w.lent:
            merged.lent = merged.lent | w.lent
        for key in merged.keys() - w.keys():
            merged[key] = merged[key] | {"@" + key}
        for key, value in w.items():
            found = merged.get(key)
            if found is None:
                merged[key] = value | {"@" + key}
            elif found is not value and not value <= found:
                merged[key] = found | value
    return merged


class State:
    """Alias facts are kept per path ("worlds": one points-to map per distinct path history, up to a bound);
    moves and loans are "may" facts joined across paths (`moved`: where each object may have been moved), and each
    world also names the objects moved on its own paths (`World.gone`), so a use is a use after move only where
    one path both moved the object and still reaches it through the place read.  Immutable once built: never
    mutate a state (or its `moved` dict, or its worlds) that another node may hold."""

    __slots__ = ("borrows", "clean", "group", "loans", "moved", "worlds")

    def __init__(
        self,
        worlds: tuple[World, ...],
        moved: dict[str, frozenset[int]],
        loans: frozenset[Loan],
        group: int,
        borrows: tuple[GroupBorrow, ...],
        clean: bool,
    ) -> None:
        self.worlds = worlds
        self.moved = moved
        self.loans = loans
        self.group = group
        self.borrows = borrows
        # Known to hold no fact about an unreachable object (what `collect` would drop); not part of the value.
        self.clean = clean

    def derive(self) -> State:
        return State(self.worlds, self.moved, self.loans, self.group, self.borrows, self.clean)

    def get(self, key: str) -> frozenset[str]:
        worlds = self.worlds
        found = worlds[0].get(key)
        if found is None:
            found = frozenset(("@" + key,))
        for w in worlds[1:]:
            more = w.get(key)
            if more is None:
                more = frozenset(("@" + key,))
            if more is not found and not more <= found:
                found = found | more
        return found


def _join(a: State, b: State, live: Live | None = None) -> State:
    aw, bw = a.worlds, b.worlds
    if aw is bw:
        worlds = aw
    elif len(aw) == 1 and len(bw) == 1:
        wa, wb = aw[0], bw[0]
        if wa is wb or wa.key() == wb.key():
            worlds = aw if wb.gone <= wa.gone and wb.lent <= wa.lent else (_with_gone(wa, wb.gone, wb.lent),)
        else:
            worlds = _merge_worlds((wa, wb), live) if wa.merged or wb.merged or live is not None else (wa, wb)
    else:
        worlds = _merge_worlds((*aw, *bw), live)
    if a.moved is b.moved or not b.moved:
        moved = a.moved
    else:
        moved = dict(a.moved)
        for obj, sites in b.moved.items():
            old = moved.get(obj)
            moved[obj] = sites if old is None else old | sites
    borrows = tuple(dict.fromkeys(a.borrows + b.borrows)) if a.group == b.group else a.borrows
    loans = a.loans | b.loans if b.loans else a.loans
    clean = a.clean and b.clean and not any(o[0] == "@" for o in moved)
    if clean and loans:
        clean = not any(ln.holder_obj is not None and ln.holder_obj[0] == "@" for ln in loans)
    return State(worlds, moved, loans, a.group, borrows, clean)


def _same(a: State, b: State) -> bool:
    if a is b:
        return True
    if a.moved != b.moved or a.loans != b.loans or a.borrows != b.borrows:
        return False
    if a.worlds is b.worlds:
        return True
    return {(w.key(), w.gone, w.lent) for w in a.worlds} == {(w.key(), w.gone, w.lent) for w in b.worlds}


#: Facts about tested local names one path knows: (name, fact) pairs, `ir.TEST_FACTS` or "const" (the name is bound
#: to a literal None / True / False: its truthiness cannot change while it stays bound).
Facts = frozenset[tuple[str, str]]
_NO_FACTS: Facts = frozenset()
#: Most sets of facts kept apart at one node (`_Analysis.solve_paths`).
MAX_PATHS = 4
#: The fixed point's step budget: this many worklist steps per CFG node (per kept path in `solve_paths`), plus
#: `STEP_BUDGET_BASE`.  The fixed point settles long before it on every program seen (the state at a node only
#: grows); a function that still runs out is reported W0002 rather than trusted (`_Analysis.exhausted`).
STEP_BUDGET_PER_NODE = 200
STEP_BUDGET_BASE = 1000
#: What a name bound to a new object of a `Fresh.kind` is known to be.
_KIND_FACTS: dict[str, tuple[str, ...]] = {
    "literal_none": ("none", "false", "const"),
    "none": ("none", "false", "const"),  # the `if x is None:` arm's rebinding (`calls.none_arm`)
    "literal_true": ("some", "true", "const"),
    "literal_false": ("some", "false", "const"),
    "op": ("some",),
    "shared_op": ("some",),
}


#: The facts an iteration's test gives its loop's index, each with the one it contradicts (`ir.Loop.more`).
_ITERATION_FACTS: dict[str, str] = {"more": "last", "last": "more"}


def _assume(facts: Facts, test: ir.Test) -> Facts | None:
    """`facts` refined by entering an arm whose condition says `test`; None where they contradict it."""
    name, fact = test.name, test.fact
    known = {f for n, f in facts if n == name}
    if fact == "none":
        if "some" in known or "true" in known:
            return None
        add: tuple[str, ...] = ("none", "false", "const")
    elif fact == "some":
        if "none" in known:
            return None
        add = ("some",)
    elif fact in _ITERATION_FACTS:
        # `if i + 1 < n:` in `for i in range(n)`: whether another iteration follows (`ir.Loop.more`)
        if _ITERATION_FACTS[fact] in known:
            return None
        add = (fact,)
    elif fact == "true":
        if "false" in known:
            return None
        add = ("true",) if "const" in known else ()
    else:
        if "true" in known:
            return None
        add = ("false",) if "const" in known else ()
    return facts.union((name, f) for f in add) if add else facts


def _add_paths(
    old: dict[Facts, State] | None, outs: dict[Facts, State], masks: dict[int, Facts], node: int, live: Live
) -> dict[Facts, State] | None:
    """The paths before `node` once `outs` arrive there; None when nothing changed."""
    mask = masks.get(node)
    merged = dict(old) if old is not None else {}
    changed = old is None
    for facts, st in outs.items():
        if mask is not None:
            facts = facts & mask
        prev = merged.get(facts)
        if prev is None:
            merged[facts] = st
            changed = True
        else:
            joined = _join(prev, st, live)
            if not _same(prev, joined):
                merged[facts] = joined
                changed = True
    if not changed:
        return None
    if len(merged) > MAX_PATHS:
        common = frozenset.intersection(*merged)
        masks[node] = common
        states = iter(merged.values())
        joined = next(states)
        for st in states:
            joined = _join(joined, st, live)
        merged = {common: joined}
    return merged


def _counted_binds(graph: Graph) -> dict[int, frozenset[str]]:
    """For `_Analysis.counted_binds`: each Bind node of a loop counter some view's region reads, with those views'
    object prefixes."""
    sites: dict[str, set[str]] = {}
    for node in graph.nodes:
        op = node.op
        if isinstance(op, ir.View) and isinstance(op.region, ir.Range) and op.region.counter is not None:
            sites.setdefault(op.region.counter, set()).add(f"v{node.id}:")
    if not sites:
        return {}
    found: dict[int, frozenset[str]] = {}
    for node in graph.nodes:
        op = node.op
        if isinstance(op, ir.Bind):
            hit = [p for t in op.targets if not t.attrs and t.root in sites for p in sites[t.root]]
            if hit:
                found[node.id] = frozenset(hit)
    return found


def _counted(region: ir.Region | None) -> bool:
    return isinstance(region, ir.Range) and region.counter is not None


def _disjoint(r1: ir.Region | None, r2: ir.Region | None) -> bool:
    if isinstance(r1, ir.Range) and isinstance(r2, ir.Range):
        # integer bounds compared, symbolic ones when they are the same affine expression (`view_bounds`)
        return view_bounds.at_most(r1.stop, r2.start) or view_bounds.at_most(r2.stop, r1.start)
    if isinstance(r1, ir.Half) and isinstance(r2, ir.Half):
        return r1.site == r2.site and r1.index != r2.index
    return False


_SKIP, _BIND, _VIEW, _DEL, _MOVE, _BORROW = range(6)

#: The help of a move that runs an op (`sync_on`, `sync`).
_RUN_HELP = messages.move_help("sync_on")

#: The helps of moves that move a buffer, not run an op (`run_stored`: `for op, out in pending:
#: double(out.partition(...))` moves a part of an item that is no op, and runs none of the stored ops).
_BUFFER_MOVE_HELPS = frozenset(messages.move_help(kind) for kind in ("partition", "unpartition", "to", "get_mut"))

#: The mark of a key below a container that keeps an op stored into it (`ir.STORED_ATTR`).
_STORED = "." + ir.STORED_ATTR

#: The mark of a key below a container that keeps the objects stored into it more than once (`ir.STORED_AGAIN_ATTR`).
_STORED_AGAIN = "." + ir.STORED_AGAIN_ATTR
#: The mark of a key below a container that keeps the objects a take gave (`_Analysis.take`): storing one again puts
#: it back, it is not held twice.
_GIVEN = ".<given>"
#: The mark of a container's copy made before a `heapreplace` stores into it (`ir.REPLACED_ATTR`).
_REPLACED = "." + ir.REPLACED_ATTR

#: Keys that keep no object reachable (`reach`).
_UNREACHING: tuple[str, ...] = (ir.ARGUMENT_TEMP_PREFIX,)
#: The mark ending the id a moved object takes (`_Analysis.moved_apart`).
_MOVED_MARK = "!"

#: Object kinds of DeviceOps (their loans last while the op is reachable); a shared op is never moved.
_SHARED_OP = "shared_op"
_OP_KINDS = frozenset({"op", _SHARED_OP})
#: The key ending of the part of any index of the tuples a container keeps (`ir.stored_part(c, None, 0)`).
_ANY_PART = "." + ir.stored_part(ir.Place("c"), None, 0).attrs[-1]
#: The help of a combinator's move of the ops a container keeps (`calls._call_args`: `sk.zip(*ops)`).
_COMBINATOR_HELP = messages.move_help("combinator")


_USE, _OTHER, _REPORT = 6, 7, 8  # setup-only node classes: a `Use`, an op that never reports, one that always does


class _Setup:
    """Everything the analysis needs to know about a function before its fixed point, found in one pass over the
    graph's nodes: the roots whose objects can ever be moved, loaned, brand-checked or element-accessed (and every
    root an alias or view connects to one of them), for each root that shares objects with another the roots of
    its alias class, the roots some attribute path starts with, and each node's class."""

    __slots__ = ("active", "alias_class", "alias_suffixes", "attr_roots", "classes", "partners")

    def __init__(
        self,
        active: frozenset[str],
        alias_class: dict[str, frozenset[str]],
        attr_roots: set[str],
        classes: list[int],
        alias_suffixes: dict[str, tuple[str, ...]] | None = None,
        partners: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.active = active
        self.alias_class = alias_class
        self.attr_roots = attr_roots
        self.classes = classes
        # names bound to another name (`t = sw`), with the attribute paths (`.pos`) read below them: `t.pos` is
        # `sw.pos` while both name one object (`_Analysis.bind`, `shared_alias_paths`); and each such name's partners
        self.alias_suffixes = alias_suffixes or {}
        self.partners = partners or {}


def _setup(graph: Graph, keep: Iterable[str] = ()) -> _Setup | None:
    """The function's `_Setup`; None when the function has nothing the checker can report.  The roots in `keep`
    are tracked whatever the function does to them (`nonlocal_effects` reads their state at the exit)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while (p := parent.get(x, x)) != x:
            parent[x] = parent.get(p, p)
            x = p
        return x

    def union(x: str, y: str) -> None:
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[rx] = ry

    seeds: list[str] = []
    attr_roots: set[str] = set()
    suffixes: dict[str, set[str]] = {}
    pairs: list[tuple[str, str]] = []
    links: list[tuple[ir.Place, str]] = []  # (target, source key): a place bound to another place's object
    classes: list[int] = []

    def note(place: ir.Place) -> None:
        if place.attrs and not any(a[0] in "$<" for a in place.attrs):
            suffixes.setdefault(place.root, set()).add("." + ".".join(place.attrs))

    append = classes.append
    reportable = False
    shared_arrays = False
    element_uses = False
    Bind, Use, View, Del, Move, Borrow = ir.Bind, ir.Use, ir.View, ir.Del, ir.Move, ir.Borrow
    for node in graph.nodes:
        op = node.op
        if op is None:
            append(_SKIP)
            continue
        t = type(op)
        if t is Bind:
            assert isinstance(op, ir.Bind)
            append(_BIND)
            for target, value in zip(op.targets, op.values, strict=False):
                if isinstance(value, ir.FromPlace):
                    union(target.root, value.source.root)
                    note(value.source)
                    if not target.attrs and not value.source.attrs and target.root != value.source.root:
                        pairs.append((target.root, value.source.root))
                    elif not target.attrs and _plain_path(value.source) and target.root != value.source.root:
                        pairs.append((target.root, value.source.key))  # `b = self.b`: `b.x` is `self.b.x`
                    if _plain_path(target) and _plain_path(value.source) and target.key != value.source.key:
                        links.append((target, value.source.key))
                elif value.kind == "shared_array":
                    shared_arrays = True
            for target in op.targets:
                if target.attrs:
                    attr_roots.add(target.root)
                    note(target)
        elif t is Use:
            assert isinstance(op, ir.Use)
            append(_USE)
            note(op.place)
            if op.element:
                element_uses = True
                seeds.append(op.place.root)
        elif t is View:
            assert isinstance(op, ir.View)
            append(_VIEW)
            union(op.target.root, op.source.root)
            if op.target.attrs:
                attr_roots.add(op.target.root)
        elif t is Del:
            assert isinstance(op, ir.Del)
            append(_DEL)
            if op.place.attrs:
                attr_roots.add(op.place.root)
        elif t is Move or t is Borrow or t is ir.CheckBrand:
            assert isinstance(op, ir.Move | ir.Borrow | ir.CheckBrand)
            append(_MOVE if t is Move else _BORROW if t is Borrow else _REPORT)
            reportable = True
            seeds.append(op.place.root)
            note(op.place)
            if isinstance(op, ir.Borrow) and op.holder is not None:
                seeds.append(op.holder.root)
            if isinstance(op, ir.Move) and op.heir is not None:
                seeds.append(op.heir.root)
        elif t is ir.RequireUnsafe:
            append(_REPORT)
            reportable = True
        else:
            append(_OTHER)
    kept = tuple(keep)
    if not reportable and not (shared_arrays and element_uses) and not kept:
        return None
    seeds.extend(kept)
    roots = {find(s) for s in seeds}
    linked = {*parent, *parent.values()}
    names = {*linked, *seeds}
    members: dict[str, set[str]] = {}
    for n in linked:
        members.setdefault(find(n), set()).add(n)
    alias_class = {n: frozenset(members[find(n)]) for n in linked}
    partners: dict[str, set[str]] = {}
    for alias, origin in pairs:
        if alias in suffixes or _has_paths_below(origin, suffixes):
            partners.setdefault(alias, set()).add(origin)
            partners.setdefault(origin, set()).add(alias)
            attr_roots.add(alias)  # its paths are bound now: rebinding the name forgets them (`assign`)
            # the origin's paths may be written through the alias (`st = $t`, then `st.m, st.n = st.n, st.m`):
            # rebinding the origin to a new object (the next iteration's call) forgets them too
            if "." not in origin:
                attr_roots.add(origin)
    alias_suffixes = _alias_suffixes(links, suffixes)
    attr_roots.update(key for key in alias_suffixes if "." not in key)
    return _Setup(
        frozenset(n for n in names if find(n) in roots), alias_class, attr_roots, classes,
        alias_suffixes,
        {name: tuple(sorted(found)) for name, found in partners.items()},
    )


def _has_paths_below(key: str, suffixes: dict[str, set[str]]) -> bool:
    """Whether some attribute path below the place `key` (a name, or an attribute path `self.b`) is mentioned."""
    root, dot, rest = key.partition(".")
    below = suffixes.get(root)
    if not below or not dot:
        return bool(below)
    head = "." + rest + "."
    return any(path.startswith(head) for path in below)


def _shared_prefix(key: str, partners: dict[str, tuple[str, ...]]) -> str | None:
    """The longest proper prefix of the attribute path `key` that has partners (`_Setup.partners`)."""
    end = key.rfind(".")
    while end > 0:
        if key[:end] in partners:
            return key[:end]
        end = key.rfind(".", 0, end)
    return None


def _plain_path(place: ir.Place) -> bool:
    """A name or attribute path of one, not a temporary's value path, an item or a stored mark (`$`, `<`)."""
    return not place.attrs or not any(a[0] in "$<" for a in place.attrs)


def _alias_suffixes(links: list[tuple[ir.Place, str]], suffixes: dict[str, set[str]]) -> dict[str, tuple[str, ...]]:
    """For each place bound to another place's object (`t = sw`, `st.cal = cal` of a constructor, through the
    temporaries staging an argument), the attribute paths (`.pos`) to copy from the source when it is bound: those
    read below it, and those any place later bound from it needs (`$t1 = cal`, `st.cal = $t1`, then `st.cal.dark`
    is read: `$t1.dark` must be `cal.dark`), to a fixed point."""
    needed: dict[str, set[str]] = {}
    for target, _ in links:
        if target.key not in needed:
            head = "".join("." + a for a in target.attrs) + "."
            below = suffixes.get(target.root, ())
            needed[target.key] = {path[len(head) - 1 :] for path in below if path.startswith(head)}
    changed = True
    while changed:
        changed = False
        for target, source in links:
            found = needed.get(source)
            wanted = needed[target.key]
            if found is not None and not wanted <= found:
                found |= wanted
                changed = True
    return {key: tuple(sorted(found)) for key, found in needed.items() if found}


class _Analysis:
    def __init__(self, function: ir.Function, graph: Graph, setup: _Setup) -> None:
        self.function = function
        self.path = function.path
        self.graph = graph
        active = self.active = setup.active
        self._live: tuple[dict[str, int], list[int]] | None = None
        self._live_in: tuple[dict[str, int], list[int]] | None = None
        # names the caller reads after the function returns (a nested function's `nonlocal` names, a summary's
        # parameters): live at the exit, so a join never forgets what they refer to, nor that it was moved
        self.exit_live: tuple[str, ...] = ()
        self._choices: dict[int, tuple[int, Span]] | None = None
        self._running_items: frozenset[str] | None = None
        self.takes: set[int] = set()  # the `Bind`s staging what a taking call gives (`ir.taken_item`, `take`)
        self.objs: dict[str, ObjInfo] = {}
        #: Objects that took over a pending op's loans through a consuming call (`ir.Move.heir`: the result of
        #: `op.first().partition(...)`), whatever kind their binding gave them: pending ops too (`_held_loans`)
        self.heirs: set[str] = set()
        #: A loop's item of a container (`ir.ITEM_ATTR`, reborn each iteration) -> the objects stored into that
        #: container (`ir.STORED_ATTR`) when an iteration took it: the item is one of them, so moving it while a
        #: pending op borrows one of them is E0505 (`move`), as the runtime's `BorrowError` says
        self.members: dict[str, frozenset[str]] = {}
        #: ... and those of them stored whole (`hist.append(x)`, not as a part of a display: `(op, out)`): reading
        #: the item reads one of them, so a use after one was moved through another name is E0382 (`moved_members`)
        self.whole_members: dict[str, frozenset[str]] = {}
        #: A container object -> the markers made for it (`moved_items`: a loop moved an item it still holds)
        self.markers: dict[str, set[str]] = {}
        self.items_checked = True  # whether a loop item's use is checked against its container's markers
        self._loop_sites: dict[str, str] | None = None  # `moved_items.loop_sites` of the function, when needed
        self._stores: set[tuple[str, tuple[str, ...], int]] | None = None
        self.chains: dict[str, tuple[str, ...]] = {}
        # by id() of a place, kept with the place: a place built during the analysis (not one of the IR's) may be
        # freed and its id reused by another, which must not read the first one's keys
        self.prefix_keys: dict[int, tuple[ir.Place, tuple[str, ...]]] = {}
        self.diagnostics: list[Diagnostic] = []
        #: The fixed point ran out of its step budget before it settled: its states are partial (unsound).
        self.exhausted = False
        self.reported_moves: dict[frozenset[tuple[int, bool]], list[int]] = {}
        self._idom: list[int] | None = None
        # the Bind nodes that bind a counting loop's counter -> the prefixes (`v<node>:`) of the View nodes whose
        # region reads that counter (`renew_counted`)
        self.counted_binds = _counted_binds(graph)
        self.reporting = False
        self.attr_roots = setup.attr_roots
        self.alias_suffixes = setup.alias_suffixes
        self.partners = setup.partners
        # Per node: how the fixed point transfers it, whether the reporting pass must revisit it, and for a
        # `Bind` its precomputed shape.
        self.kind: list[int] = []
        self.report: list[bool] = []
        self.bind_plans: dict[int, _BindPlan] = {}
        self.alias_class = setup.alias_class
        # Fresh object -> the keys that can ever hold it (None: any key), for `rebirth`; and per target root.
        self.homes: dict[str, tuple[str, ...] | None] = {}
        self.root_homes: dict[str, tuple[str, ...] | None] = {}
        kinds = self.kind
        report = self.report
        nodes = graph.nodes
        for i, cls in enumerate(setup.classes):
            if cls == _SKIP or cls == _OTHER:
                kinds.append(_SKIP)
                report.append(False)
            elif cls == _USE:
                op = nodes[i].op
                assert isinstance(op, ir.Use)
                kinds.append(_SKIP)
                report.append(op.place.root in active)
            elif cls == _BIND:
                op = nodes[i].op
                assert isinstance(op, ir.Bind)
                kinds.append(_BIND)
                plan = self.bind_plans[i] = self.plan_bind(i, op)
                report.append(plan.checks)
            elif cls == _REPORT:
                kinds.append(_SKIP)
                report.append(True)
            else:
                kinds.append(cls)
                report.append(cls != _DEL)

    def plan_bind(self, node_id: int, op: ir.Bind) -> _BindPlan:
        if len(op.values) == 1 and _taken_source(op.values[0]) is not None:
            self.takes.add(node_id)
        active = self.active
        attr_roots = self.attr_roots
        fresh: list[tuple[str, ir.Fresh]] = []
        values: list[_PlanValue] = []
        keys: list[str] = []
        simple: list[bool] = []
        copies: list[tuple[int, str]] = []
        derived: list[int] = []
        stored_copies: list[tuple[str, str]] = []
        checks = touches = False
        targets = op.targets
        for i, v in enumerate(op.values):
            if type(v) is ir.FromPlace:
                source = v.source
                root = source.root
                if source.attrs and source.attrs[-1].startswith(ir.ITEM_ATTR):
                    # a loop's item of a container: an object derived from the container's and the loop's
                    parent = ".".join((root, *source.attrs[:-1]))
                    values.append((parent, "." + source.attrs[-1], ""))
                    derived.append(i)
                    continue
                if ir.is_value_path(source):
                    # an op's value (`p.$.$0`): a new object where the core bound none; never a use to check
                    obj = f"n{node_id}.{i}"
                    fresh.append((obj, _FRESH))
                    self.homes[obj] = None
                    values.append((source.key, obj))
                    if ir.is_value_path(targets[i]):
                        copies.append((i, source.key))
                    continue
                values.append(source.key if source.attrs else root)
                if root in active:
                    checks = True
                if source.attrs[-1:] == (ir.STORED_ATTR,) and targets[i].attrs[-1:] == (ir.STORED_ATTR,):
                    stored_copies.append((source.key[: -len(_STORED)], targets[i].key[: -len(_STORED)]))
            else:
                assert isinstance(v, ir.Fresh)
                obj = f"n{node_id}.{i}"
                fresh.append((obj, v))
                values.append(frozenset((obj,)))
                root = targets[i].root
                homes = self.root_homes
                if root in homes:
                    self.homes[obj] = homes[root]
                else:
                    roots = self.alias_class.get(root) or frozenset((root,))
                    self.homes[obj] = homes[root] = None if roots & attr_roots else tuple(roots)
        aliases: list[tuple[int, str]] = []
        shared: list[int] = []
        for j, t in enumerate(targets):
            root = t.root
            if t.attrs:
                keys.append(t.key)
                simple.append(False)
                if self.partners and not any(a[0] in "$<" for a in t.attrs) and (
                    _shared_prefix(t.key, self.partners) is not None
                ):
                    shared.append(j)
            else:
                keys.append(root)
                simple.append(root not in attr_roots)
            value = op.values[j] if j < len(op.values) else None
            if (
                keys[j] in self.alias_suffixes
                and isinstance(value, ir.FromPlace)
                and _plain_path(value.source)
                and value.source.key != keys[j]
            ):
                aliases.append((j, value.source.key))
            if root in active:
                touches = True
        return _BindPlan(
            tuple(fresh),
            tuple(values),
            tuple(keys),
            tuple(simple),
            checks,
            checks or touches,
            tuple(copies),
            tuple(derived),
            tuple(stored_copies),
            tuple(aliases),
            tuple(shared),
        )

    # --- objects --------------------------------------------------------------------------------------------

    def info(self, obj: str) -> ObjInfo:
        return self.objs.get(obj) or _PLAIN

    def chain(self, obj: str) -> tuple[str, ...]:
        found = self.chains.get(obj)
        if found is not None:
            return found
        out = [obj]
        seen = {obj}
        parent = self.info(obj).parent
        while parent is not None and parent not in seen:
            out.append(parent)
            seen.add(parent)
            parent = self.info(parent).parent
        out.reverse()
        result = tuple(out)
        if obj in self.objs or obj.startswith("@"):
            self.chains[obj] = result
        return result

    def overlap(self, a: str, b: str) -> bool:
        ca, cb = self.chain(a), self.chain(b)
        if ca[0] != cb[0]:
            return False
        k = 0
        while k < len(ca) and k < len(cb) and ca[k] == cb[k]:
            k += 1
        if k == len(ca) or k == len(cb):
            return True
        ra, rb = self.info(ca[k]).region, self.info(cb[k]).region
        if _counted(ra) or _counted(rb):
            # a view over a loop's counter: one taken in an earlier iteration (`renew_counted` renamed it
            # `v<node>:<parent>~`) is compared with another only as the same site moving past itself
            # (`ir.Range.strided`); views of this iteration compare as symbols
            x, y = ca[k], cb[k]
            parent = ca[k - 1] if k else ""
            older_x, older_y = x[x.find(":") + 1 :] != parent, y[y.find(":") + 1 :] != parent
            if older_x or older_y:
                return not (x != y and self.same_view(x, y) and isinstance(ra, ir.Range) and ra.strided)
        return not _disjoint(ra, rb)

    def same_view(self, x: str, y: str) -> bool:
        """Whether the view objects `x` and `y` (`v<node>:...`) were taken by one source operation (one node, or
        copies of it: `cfg` builds a loop over a display once per item)."""
        nx, ny = x[1 : x.find(":")], y[1 : y.find(":")]
        if not (nx.isdigit() and ny.isdigit()):
            return False
        nodes = self.graph.nodes
        return nx == ny or nodes[int(nx)].op is nodes[int(ny)].op

    def renew_counted(self, state: State, sites: frozenset[str]) -> State:
        """A loop's head binds its counter again: the views taken over the counter so far (objects of the View
        nodes `sites`, named `v<node>:...`) are of an earlier iteration, renamed apart (`rebirth`) from the ones
        this iteration takes."""
        found: set[str] = set()
        for world in state.worlds:
            for objs in world.values():
                found.update(o for o in objs if o[0] == "v" and not o.endswith("~") and o[: o.find(":") + 1] in sites)
        found.update(
            ln.obj for ln in state.loans
            if ln.obj[0] == "v" and not ln.obj.endswith("~") and ln.obj[: ln.obj.find(":") + 1] in sites
        )
        if not found:
            return state
        s = state.derive()
        s.worlds = tuple(map(_copy_world, state.worlds))
        for obj in sorted(found):
            self.rebirth(s, obj)
        return s

    def any_overlap(self, xs: frozenset[str], ys: frozenset[str]) -> bool:
        return any(self.overlap(x, y) for x in xs for y in ys)

    def reaches(self, world: World, obj: str) -> bool:
        """Whether some key of `world` refers to `obj`, or to a view of it (not cached: `world` may be changing); a
        marker of a moved item (`moved_items`) when its container is reached."""
        if self.markers and "$moved" in obj and (container := moved_items.marker_container(obj)) is not None:
            return container[0] == "@" or self.reaches(world, container)
        return any(obj in objs or any(obj in self.chain(o) for o in objs) for objs in world.values())

    def reach(self, world: World) -> set[str]:
        """Every object some key of `world` refers to, with the parents of views (cached on the world)."""
        found = world._reach
        if found is None:
            found = set()
            chains = self.chains
            for key, objs in world.items():
                if key.startswith(_UNREACHING):
                    continue  # a call argument's temporary: no later read depends on it
                if ".$" in key:
                    # an op's value path: no later read depends on its values, but a pending op a returned tuple
                    # kept there (`calls.store_parts`, `_bind_parts`) is taken out by unpacking it
                    found.update(o for o in objs if self.info(o).kind in _OP_KINDS)
                    continue
                for obj in objs:
                    c = chains.get(obj)
                    if c is None:
                        c = self.chain(obj)
                    if len(c) == 1:
                        found.add(obj)
                    else:
                        found.update(c)
            world._reach = found
        return found

    def rebirth(self, s: State, obj: str, old: str | None = None) -> None:
        """A new object is born at a site that already made one (a loop): the previous instance gets the id
        `obj~` and the ones before it the summary id `obj~~` (or the previous one gets the id `old`,
        `moved_apart`).  Two generations keep ping-pong buffers apart: `cur, nxt = nxt, cur` after `nxt` was
        rebound from a launch each iteration holds this iteration's object and the last one's, while the one moved
        two iterations ago is only in the summary.  `s` is a state private to the running step (its worlds are
        fresh copies)."""
        if old is None:
            if not obj.endswith("~"):
                self._rename(s, obj + "~", obj + "~~", obj)
            old = obj + "~"
        self._rename(s, obj, old, obj)

    def _rename(self, s: State, obj: str, old: str, base: str) -> None:
        """Every mention of the object `obj` in `s` becomes one of `old` (merged with what `old` had); `base`: the
        object whose alias class `obj` lives in (`homes`)."""
        hit = False
        homes = self.homes.get(base)
        for world in s.worlds:
            gone = world.gone
            if (obj in gone) != (old in gone):
                # One of the two instances was moved and nothing here reaches it any more: what `old` stands for
                # from now on is not moved in this world (ping-pong buffers one of which a call moves and rebinds
                # on some iterations keep apart from the older ones).
                stale = obj if obj in gone else old
                if not self.reaches(world, stale):
                    world.gone = gone = gone - {stale}
            if homes is None:
                for key, objs in world.items():
                    if obj in objs:
                        world[key] = (objs - {obj}) | {old}
                        hit = True
            else:
                # An object only ever lives in keys of its alias class: look there alone.
                for key in homes:
                    found = world.get(key)
                    if found is not None and obj in found:
                        world[key] = (found - {obj}) | {old}
                        hit = True
            if obj in world.gone:
                world.gone = (world.gone - {obj}) | {old}
            if world.lent and any(entry[1] == obj for entry in world.lent):
                world.lent = frozenset((n, old if o == obj else o, m) for n, o, m in world.lent)
        if obj in s.moved:
            moved = dict(s.moved)
            moved[old] = moved.get(old, _NO_SITES) | moved.pop(obj)
            s.moved = moved
            hit = True
        if any(loan.obj == obj or loan.holder_obj == obj for loan in s.loans):
            s.loans = frozenset(
                Loan(
                    old if ln.obj == obj else ln.obj,
                    ln.mutable,
                    ln.node,
                    ln.text,
                    ln.holder_key,
                    old if ln.holder_obj == obj else ln.holder_obj,
                )
                for ln in s.loans
            )
            hit = True
        if hit and old not in self.objs and obj in self.objs:
            self.objs[old] = self.objs[obj]
        marks = self.markers.get(obj)
        if marks:
            # a container's markers (`moved_items`) follow it into its older generation
            for mark in sorted(marks):
                self._rename(s, mark, self.new_marker(old, moved_items.marker_tag(mark)), mark)

    # --- checks ---------------------------------------------------------------------------------------------

    def moved_sites(self, state: State, place: ir.Place) -> frozenset[int]:
        moved = state.moved
        if not moved:
            return _NO_SITES
        hit = self.prefix_keys.get(id(place))
        if hit is not None and hit[0] is place:
            keys = hit[1]
        else:
            keys = (place.root, *(".".join((place.root, *place.attrs[: i + 1])) for i in range(len(place.attrs))))
            self.prefix_keys[id(place)] = (place, keys)
        sites: set[int] = set()
        for world in state.worlds:
            gone = world.gone
            if not gone:
                continue  # nothing was moved on this world's paths
            for key in keys:
                objs = _world_get(world, key)
                for obj in objs:
                    self.add_gone_sites(sites, obj, gone, moved)
                if self.whole_members:
                    sites |= self.moved_members(objs, gone, moved)
        return frozenset(sites)

    def add_gone_sites(
        self, sites: set[int], obj: str, gone: frozenset[str], moved: Mapping[str, frozenset[int]]
    ) -> None:
        """Add to `sites` the moves of `obj`, or of what it is part of (its `chain`), on a world whose paths moved
        the objects in `gone`."""
        c = self.chains.get(obj)
        if c is None:
            c = self.chain(obj)
        for link in c:
            if link in gone:
                found = moved.get(link)
                if found:
                    sites |= found
        if self.markers and self.items_checked and ".$it" in obj and (item := moved_items.item_of(obj)) is not None:
            # an item of a container another loop moved an item of and left there (`moved_items`)
            self.add_marker_sites(sites, item[0], gone, moved, self.loop_site(item[1]))

    def loop_site(self, site: str) -> str:
        """The tag of the loop whose head binds from `site` (`moved_items.loop_sites`)."""
        found = self._loop_sites
        if found is None:
            found = self._loop_sites = moved_items.loop_sites(self.function.body)
        return found.get(site, site)

    def add_marker_sites(
        self,
        sites: set[int],
        container: str,
        gone: frozenset[str],
        moved: Mapping[str, frozenset[int]],
        loop: str | None = None,
    ) -> None:
        """Add to `sites` the moves of items `container` still holds (its markers moved on this world) that the
        item the loop tagged `loop` reads may be (`moved_items.same_item`)."""
        for mark in self.markers.get(container, ()):
            if mark in gone and moved_items.same_item(moved_items.marker_tag(mark), loop):
                found = moved.get(mark)
                if found:
                    sites |= found

    def store_lines(self) -> set[tuple[str, tuple[str, ...], int]]:
        """The containers stored into, with the line of the statement: an element use of the container and a bind
        of an item of it (or of its stored objects) on one line (`d[k] = v`, `res, d[k] = op.sync_on(s)`)."""
        stores = self._stores
        if stores is None:
            stores = self._stores = moved_items.store_lines(node.op for node in self.graph.nodes)
        return stores

    def is_store(self, use: ir.Use) -> bool:
        """Whether an element use is the container of a store (`store_lines`), which reads no item."""
        return (use.place.root, use.place.attrs, use.span.line) in self.store_lines()

    def item_moved_sites(self, state: State, place: ir.Place) -> frozenset[int]:
        """Where an item the container of `place` (an item read: `planes["r"]`, `planes$e0`) still holds was moved
        by a loop, on some path reaching here (`moved_items`)."""
        key = moved_items.container_key(place)
        if key is None:
            return _NO_SITES
        # a loop's own item (`jobs.$it5`, read again by a generator the loop iterates) is another item each time
        item = moved_items.item_of(place.key)
        loop = self.loop_site(item[1]) if item is not None else None
        sites: set[int] = set()
        for world in state.worlds:
            if world.gone:
                for container in _world_get(world, key):
                    self.add_marker_sites(sites, container, world.gone, state.moved, loop)
        return frozenset(sites)

    def moved_members(
        self, objs: frozenset[str], gone: frozenset[str], moved: Mapping[str, frozenset[int]]
    ) -> set[int]:
        """Where a buffer stored whole into a container (`hist.append(x)`) that a loop item among `objs` may be
        (`whole_members`) was moved since, through the name that stored it (`x.partition(...)`): the container
        still holds that handle, so reading the item reads a moved value.  A combinator consuming the stored ops
        (`sk.zip(*ops.values())`) is left to `consumed_sites`: a loop over a dict's keys reads no item."""
        found: set[int] = set()
        for obj in objs:
            for member in self.whole_members.get(obj, _EMPTY):
                self.add_gone_sites(found, member, gone, moved)
        nodes = self.graph.nodes
        return {
            site for site in found if not (isinstance(op := nodes[site].op, ir.Move) and op.help == _COMBINATOR_HELP)
        }

    def check_use(
        self, state: State, node: Node, place: ir.Place, span: Span, inside: Span | None = None
    ) -> bool:
        """Whether `place` may be moved here, reporting E0382 once per set of moves (at `inside`, a called
        function's launch argument taking it, when given: where the runtime raises)."""
        if not state.moved:
            return False
        sites = self.moved_sites(state, place)
        if not sites and place.attrs and place.attrs[-1].startswith("["):
            # `ops["rose"]` of a container whose stored ops a combinator consumed (`sk.zip(*ops.values())`): every
            # item it held is moved, this one too (the stored ops are one place, `ir.STORED_ATTR`)
            sites = self.consumed_sites(state, ir.Place(place.root, place.attrs[:-1]))
        if not sites and self.markers:
            sites = self.item_moved_sites(state, place)
        if not sites:
            return False
        if self.reporting:
            # Once per set of move sites, as rustc does; a site reached only through a loop's back edge ("in
            # previous iteration of loop") is told apart from the same site earlier in this iteration, because the
            # runtime raises at the use it reaches first, which may be the later one in the source.
            # And a later use of the same moves is still reported unless an already reported use dominates it
            # (then that one would have raised first at runtime): uses in two arms of a branch are both reported.
            events = frozenset((self.event_of(site), site >= node.id) for site in sites)
            reported = self.reported_moves.setdefault(events, [])
            if not any(self.dominates(r, node.id) for r in reported) and not self.reported_at(inside, span):
                reported.append(node.id)
                moves = []
                help_text = None
                for site in sorted(sites):
                    op = self.graph.nodes[site].op
                    assert isinstance(op, ir.Move)
                    moves.append((op.span, site >= node.id, op.inside))
                    help_text = help_text or op.help
                self.diagnostics.append(
                    messages.use_after_move(self.path, place.text, span, moves, help_text, self.unreported(inside))
                )
        return True

    def consumed_sites(self, state: State, container: ir.Place) -> frozenset[int]:
        """Where a combinator consumed every op `container` keeps stored (`sk.zip(*ops)`: a move of its
        `ir.STORED_ATTR` place), on some path reaching here; not where a stored buffer was moved by a launch (a loop
        storing back what it moved, `weights[model] = w`, replaces the items one by one)."""
        if not state.moved:
            return _NO_SITES
        nodes = self.graph.nodes
        return frozenset(
            site for site in self.moved_sites(state, ir.stored_item(container))
            if isinstance(op := nodes[site].op, ir.Move) and op.help == _COMBINATOR_HELP
        )

    def dominates(self, a: int, b: int) -> bool:
        """Whether every path from the entry to node `b` passes node `a` (computed once, on first need)."""
        idom = self._idom
        if idom is None:
            idom = self._idom = _dominators(self.graph)
        while b != a:
            up = idom[b]
            if up == b or up < 0:
                return False
            b = up
        return True

    def event_of(self, site: int) -> int:
        op = self.graph.nodes[site].op
        return op.event if isinstance(op, ir.Move) and op.event >= 0 else -1 - site

    def live(self, node: Node) -> tuple[dict[str, int], int]:
        if self._live is None:
            self.compute_liveness()
        assert self._live is not None
        index, bits = self._live
        return index, bits[node.id]

    def compute_liveness(self) -> None:
        index, out, inn = live_bits_around(self.graph, self.exit_live)
        self._live, self._live_in = (index, out), (index, inn)

    def live_before(self, node_id: int) -> Live:
        """Whether a place key may be read at node `node_id` or after it (its root name is live there)."""
        if self._live_in is None:
            self.compute_liveness()
        assert self._live_in is not None
        index, inn = self._live_in
        bits = inn[node_id]

        def live(key: str) -> bool:
            bit = index.get(key.partition(".")[0])
            return bit is not None and bool(bits >> bit & 1)

        return live

    def active_loans(self, state: State, node: Node) -> list[Loan]:
        """Loans in force at `node`: a pending DeviceOp's until it is consumed (or unreachable), a `get_mut`
        result's while a live name refers to it (non-lexical lifetimes).  An op a container keeps (`ir.STORED_ATTR`)
        holds its loans while the container is live, until a loop over the container runs its items (`run_stored`)
        or `pop`/`clear` drops them."""
        if not state.loans:
            return []
        info = self.info
        held: set[str] = set()
        reachable: set[str] = set()
        kept = any(_STORED in key for world in state.worlds for key in world)
        if not kept and all(ln.holder_obj is None or info(ln.holder_obj).kind in _OP_KINDS for ln in state.loans):
            # Only DeviceOp holders (their loans last while reachable): liveness is not needed.
            for world in state.worlds:
                for objs in world.values():
                    reachable |= objs
        else:
            index, live = self.live(node)
            for world in state.worlds:
                for key, objs in world.items():
                    bit = index.get(key.split(".", 1)[0])
                    alive = bit is not None and live >> bit & 1
                    if alive:
                        held |= objs
                    if _STORED not in key or alive:
                        reachable |= objs
        out = []
        for ln in state.loans:
            if ln.holder_obj is None:
                continue
            if self.info(ln.holder_obj).kind in _OP_KINDS:
                if ln.holder_obj in reachable:
                    out.append(ln)
            elif ln.holder_obj in held:
                out.append(ln)
        if len(out) > 1:
            # The first conflicting loan is reported: take them in a fixed order (earliest borrow first), not
            # in set order, which varies with string hashing from run to run.
            out.sort(key=_loan_order)
        return out

    def one_choice(self, a: int, b: int) -> bool:
        """Whether borrows `a` and `b` are arms of one argument that may be any of several places (`outs[k]`
        borrows one of `outs`'s items): a loop that stores the op of each iteration may take a different item
        each time, so an op stored earlier is not known to hold the place this borrow takes."""
        choices = self._choices
        if choices is None:
            by_site: dict[tuple[int, Span], set[str]] = {}
            for n in self.graph.nodes:
                if isinstance(n.op, ir.Borrow):
                    by_site.setdefault((n.op.group, n.op.span), set()).add(n.op.place.key)
            choices = self._choices = {
                n.id: (n.op.group, n.op.span)
                for n in self.graph.nodes
                if isinstance(n.op, ir.Borrow) and len(by_site[n.op.group, n.op.span]) > 1
            }
        site = choices.get(a)
        return site is not None and site == choices.get(b)

    def later_use(self, loan: Loan, after: Node) -> Span | None:
        """Where the holder of a loan is next mentioned in source order (rustc's "later used here")."""
        root = loan.holder_key.split(".", 1)[0]
        for node in self.graph.nodes[after.id + 1 :]:
            op = node.op
            if isinstance(op, ir.Use | ir.Move | ir.Borrow | ir.CheckBrand) and op.place.root == root:
                return op.span
            if isinstance(op, ir.Bind):
                for value in op.values:
                    if isinstance(value, ir.FromPlace) and value.source.root == root:
                        return value.span
        return None

    def holder_text(self, loan: Loan) -> str | None:
        """The name of the op holding `loan`, for a help text; None for a place the user never named (a `with`
        statement's hold on what its context manager keeps)."""
        if not self.op_held(loan):
            return None
        return None if loan.holder_key.startswith("$") else loan.holder_key

    def op_held(self, loan: Loan) -> bool:
        """Whether a pending op holds `loan` (not an element guard of `get_mut`)."""
        return loan.holder_obj is not None and loan.holder_obj != "" and self.info(loan.holder_obj).kind in _OP_KINDS

    # --- transfer -------------------------------------------------------------------------------------------

    def step(self, state: State, node: Node) -> State:
        op = node.op
        if op is None:
            return state
        active = self.active
        if isinstance(op, ir.Use):
            if op.place.root not in active:
                return state
            # a plain read of a loop's item (`for k in model.params:` gives a dict's keys) is not checked against
            # the items its container kept moved (`moved_items`): a launch or a borrow of it is
            self.items_checked = False
            try:
                self.check_use(state, node, op.place, op.span, op.inside)
            finally:
                self.items_checked = True
            if op.element and self.consumed_sites(state, op.place):
                # an item read of a container whose stored ops a combinator consumed (`sk.zip(*ops)`): the item is
                # one of those ops, moved
                self.check_use(state, node, ir.stored_item(op.place), op.span, op.inside)
            elif op.element and self.markers and not self.is_store(op):
                # an item read under a key the checker cannot name (`planes[c]`) may read a moved item the
                # container still holds (`moved_items`)
                item = ir.Place(op.place.root, (*op.place.attrs, "[...]"), f"{op.place.text}[...]")
                self.check_use(state, node, item, op.span, op.inside)
            if op.element and not node.unsafe and self.reporting:
                if any(self.info(o).kind == "shared_array" for o in state.get(op.place.key)):
                    self.diagnostics.append(messages.unsafe_required(self.path, "shared_array", op.span))
            return state
        if isinstance(op, ir.Bind):
            return self.bind(state, node, op)
        if isinstance(op, ir.View):
            return self.view(state, node, op)
        if isinstance(op, ir.Move):
            return self.move(state, node, op)
        if isinstance(op, ir.Borrow):
            return self.borrow(state, node, op)
        if isinstance(op, ir.Del):
            return self.delete(state, node, op)
        if isinstance(op, ir.CheckBrand):
            self.check_use(state, node, op.place, op.span)
            if self.reporting:
                brands = sorted({b for o in state.get(op.place.key) if (b := self.info(o).brand) is not None})
                if brands and op.kernel not in brands:
                    brands = brands[:1]
                elif brands:
                    brands = self.class_brand_mismatch(state, op)
                if brands and op.kernel not in brands:
                    self.diagnostics.append(
                        messages.brand_mismatch(
                            self.path, op.place.text, op.span, op.kernel, brands[0], op.callee_span
                        )
                    )
            return state
        if isinstance(op, ir.RequireUnsafe):
            if not node.unsafe and self.reporting:
                self.diagnostics.append(messages.unsafe_required(self.path, op.operation, op.span))
        return state

    def class_brand_mismatch(self, state: State, op: ir.CheckBrand) -> list[str]:
        """The brand of a path's prepared launch that is another kernel's, where the place may hold several brands
        but on that path holds only prepared launches standing for one class's objects (`ir.Fresh.per_class`):
        a method a subclass runs with its own prepared launch.  Other places keep the rule of any brand matching (a
        table's item of an unknown key may be any of them)."""
        for world in state.worlds:
            if world.merged:
                continue
            infos = [self.info(o) for o in world.get(op.place.key, _EMPTY)]
            if infos and all(i.per_class for i in infos) and all(i.brand != op.kernel for i in infos):
                return [b for i in infos if (b := i.brand) is not None][:1]
        return []

    def delete(self, state: State, node: Node, op: ir.Del) -> State:
        s = state.derive()
        s.worlds = tuple(map(_copy_world, s.worlds))
        stored = op.place.key.endswith(_STORED)
        # `while pending:` fell out (`calls.drained_by_loop`): the parts of every tuple the container kept are gone
        key = op.place.key
        parts = key[: -len(_ANY_PART)] + "." + ir.STORED_PART_PREFIX if key.endswith(_ANY_PART) else None
        for world in s.worlds:
            self.assign(s, world, op.place, _EMPTY)
            if stored:
                # a taking method (`jobs.pop(k)`, `ops.clear()`): the container forgets what was stored (`assign`
                # only ever adds to a container's stored items)
                world[op.place.key] = _EMPTY
            if parts is not None:
                for part in [k for k in world if k.startswith(parts)]:
                    world[part] = _EMPTY
        if stored and self.markers:
            self.stored_back(s, key[: -len(_STORED)])
        if op.place.root in self.active or not s.clean:
            self.collect(s)
        return s

    def bind(self, state: State, node: Node, op: ir.Bind) -> State:
        if self.counted_binds and (sites := self.counted_binds.get(node.id)):
            state = self.renew_counted(state, sites)
        if node.id in self.takes:
            return self.take(state, node, op)
        s = state.derive()
        s.worlds = tuple(map(_copy_world, state.worlds))
        plan = self.bind_plans[node.id]
        if s.loans or s.moved:
            self.unknown_parts_apart(s, plan.keys)
        objs_info = self.objs
        if self.reporting and plan.checks:
            # Checks and rebirths interleave in value order, exactly as the values are evaluated.
            active = self.active
            for i, value in enumerate(op.values):
                if isinstance(value, ir.FromPlace) and type(plan.values[i]) is not tuple:
                    if value.source.root in active and not value.carried:
                        self.check_use(s, node, value.source, value.span)
                elif i in plan.derived:
                    pass  # a loop item: born below
                else:
                    obj = f"n{node.id}.{i}"
                    if obj in objs_info:
                        self.rebirth(s, obj)
                    elif isinstance(value, ir.Fresh):
                        objs_info[obj] = ObjInfo(kind=value.kind, brand=value.brand, per_class=value.per_class)
                    else:
                        objs_info[obj] = ObjInfo()
        else:
            for obj, value in plan.fresh:
                if obj in objs_info:
                    self.rebirth(s, obj)
                else:
                    objs_info[obj] = ObjInfo(kind=value.kind, brand=value.brand, per_class=value.per_class)
        keys, simple = plan.keys, plan.simple
        born: set[str] = {obj for obj, _ in plan.fresh}
        if plan.derived:
            # a loop item is born at this site each iteration: an older one (the previous item) is renamed
            for i in plan.derived:
                item = plan.values[i]
                if type(item) is tuple and len(item) == 3:
                    self.run_stored(s, item)
                    self.note_members(s, item[0], item[1])
                if not isinstance(item, str):
                    for world in s.worlds:
                        born |= _plan_objs(world, item)
            for obj in sorted(born):
                if obj in objs_info:
                    if obj.endswith(ir.RECURRING_MARK):
                        continue  # the same object as an earlier iteration's item (`recurring_item`)
                    self.rebirth(s, obj)  # a paired item's previous instance stays apart from older ones too
                else:
                    objs_info[obj] = ObjInfo()
                    self.homes[obj] = None
        # the aliased paths' objects are read before any target is bound (`a.x, a.y = a.y, a.x` swaps them)
        aliased = [
            [(keys[j] + suffix, _world_get(world, source + suffix))
             for j, source in plan.aliases for suffix in self.alias_suffixes.get(keys[j], ())]
            for world in s.worlds
        ] if plan.aliases else None
        if len(keys) == 1 and simple[0] and not s.loans:
            key, v = keys[0], plan.values[0]
            for world in s.worlds:
                world[key] = _world_get(world, v) if isinstance(v, str) else _plan_objs(world, v)
        else:
            targets = op.targets
            for world in s.worlds:
                values = [_world_get(world, v) if isinstance(v, str) else _plan_objs(world, v) for v in plan.values]
                for j, objs in enumerate(values):
                    if simple[j] and not s.loans:
                        world[keys[j]] = objs
                    else:
                        self.assign(s, world, targets[j], objs)
        if plan.copies:
            for world in s.worlds:
                for j, source in plan.copies:
                    _copy_value_paths(world, source, keys[j])
        if aliased is not None:
            for world, paths in zip(s.worlds, aliased, strict=True):
                world.update(paths)
        if plan.shared_paths:
            self.shared_alias_paths(s, op, plan)
        if plan.stored_copies:
            for world in s.worlds:
                for source, target in plan.stored_copies:
                    _copy_stored_parts(world, source, target)
        if self.markers and s.moved:
            for j, stored in enumerate(op.targets):
                stored_value = op.values[j] if j < len(op.values) else None
                # a store under a key (`planes[name] = plane`: an item, or the container's stored objects when the
                # key is computed), not an item the container may hold anew after a call (`ir.Fresh.renewed`)
                if not moved_items.item_store(stored):
                    continue
                if not (isinstance(stored_value, ir.Fresh) and stored_value.renewed) or (
                    (stored.root, stored.attrs[:-1], op.span.line) in self.store_lines()
                ):
                    self.stored_back(s, ".".join((stored.root, *stored.attrs[:-1])))
        if plan.touches or not s.clean:
            self.collect(s)
        if s.moved:
            self.moved_apart(s, state, keys)
        if s.loans or s.moved:
            self.attributes_apart(s, op, born, state)
        return s

    def unknown_parts_apart(self, s: State, keys: Sequence[str]) -> None:
        """Rebinding a place gives its attribute paths new objects: the unknown object a path below it stood for
        (`@p.spare`, named by the path) is the old object's part, so a loan or a move of it stays with that old
        part (renamed `@p.spare~`) instead of meeting the new object's part of the same name (`p =
        self.params[name]` in a loop, each iteration's `p.spare` another buffer)."""
        prefixes = tuple("@" + key + "." for key in keys)
        stale = {ln.obj for ln in s.loans if ln.obj.startswith(prefixes)}
        stale.update(obj for obj in s.moved if obj.startswith(prefixes))
        for obj in sorted(stale):
            if not obj.endswith("~"):
                self._rename(s, obj, obj + "~", obj)

    def shared_alias_paths(self, s: State, op: ir.Bind, plan: _BindPlan) -> None:
        """Attribute paths follow the object, not the name.  After `t = sw`, `t.pos` is whatever `sw.pos` is (an
        unknown object keeps its name `@sw.pos`; `bind` copies those paths), so a move through one name is seen
        through the other (`tightest = swarm`, then a helper moves `swarm.pos`: `tightest.pos` is moved); and here,
        a path bound through one of two names that name one object is bound through the other too (`sw.pos = new`
        then `t.pos` is the new object)."""
        for world in s.worlds:
            for j in plan.shared_paths:
                key = plan.keys[j]
                prefix = _shared_prefix(key, self.partners)
                assert prefix is not None
                # (a name's object is in the world once bound; an attribute path's may be its unknown `@self.b`)
                mine = world.get(prefix) if "." not in prefix else _world_get(world, prefix)
                if not mine:
                    continue
                suffix = key[len(prefix) :]
                objs = world.get(key, _EMPTY)
                for partner in self.partners.get(prefix, ()):
                    # (a parameter's own object is absent from the world until rebound: its unknown object `@a`)
                    if _world_get(world, partner) == mine:
                        world[partner + suffix] = objs

    def attributes_apart(self, s: State, op: ir.Bind, born: set[str], before: State) -> None:
        """A name rebound to an object born here (a new value, a loop's next item) no longer reaches the attributes
        of the object it named: an attribute the checker never saw bound is the unknown object `@name.attr`,
        named by its access path, so without this the next item's `p.out` would be the previous item's, and a
        pending op's loan on it (`for p in layers: ops.append(k.launch_async(prep, p.w, p.out))`) would conflict
        with the next launch.  The loans and moves naming such an object move to its summary id (`rebirth`), the
        same way the loop's items themselves are kept apart (each is reborn here, its older instances renamed).  So
        does a name rebound to known objects none of which it named before (`cfg` of a loop unrolled over a display
        of dicts, taking `layers[0]` then `layers[1]`: `cfg["bias"]` is each one's item); a name rebound to what it
        may have named (`p = p`, a recurring item) or to an unknown object keeps its attributes."""
        roots = {t.root for t in op.targets if not t.attrs and not t.root.startswith(_UNREACHING)}
        if not roots:
            return
        named = {ln.obj for ln in s.loans} | {ln.holder_obj for ln in s.loans if ln.holder_obj} | set(s.moved)
        for root in sorted(roots):
            prefix = "@" + root + "."
            stale = sorted(o for o in named if o.startswith(prefix) and not o.endswith("~"))
            if not stale:
                continue
            new = s.get(root)
            if any(o.endswith(ir.RECURRING_MARK) for o in new):
                continue
            if not new <= born and (any(o[0] == "@" for o in new) or not new.isdisjoint(before.get(root))):
                continue
            for obj in stale:
                self.rebirth(s, obj)

    def take(self, state: State, node: Node, op: ir.Bind) -> State:
        """`target := container.<taken>` (`ir.taken_item`): a call took an item out of a container (`q.get()`,
        `heapq.heappop(heap)`).  The item is one of those stored into it (`ir.stored_item`; for part `i` of an
        `n`-name unpacking, part `i` of the `n`-item displays stored (`ir.stored_part`), and an object not known
        here where something else was stored, or nothing known) except one an earlier take from this container
        gave and that was then moved (spent), which the container forgets; an object stored into it more than once
        (`ir.STORED_AGAIN_ATTR`: one `mask` pushed with every job) is never spent, a later take may give it again.
        Why not every stored item: the objects are allocation sites, so in a drain loop (`while q: b = q.get();
        b.partition(...)`) the container still "may hold" the object the previous iteration took and moved; the
        runtime never hands it out again.  An item moved while still in the container (through another name, or
        through a copy of the container's tuples: a leaderboard `heapq.nsmallest` made) is no take's gift, so it is
        a moved candidate and its use is reported.  No item left: a new object."""
        value = op.values[0]
        assert isinstance(value, ir.FromPlace)
        found = _taken_source(value)
        assert found is not None
        container, part = found
        # `stored_only` (`ir.TAKEN_STORED_ONLY`): what this function never saw stored is a new object, not the
        # caller's stored items (a summary's move of them would hit every item at once, at each call)
        stored_only = part == _STORED_ONLY_PART
        if stored_only:
            part = None
        stored_key = container + _STORED
        prefix = container + "." + ir.STORED_PART_PREFIX
        own_key = None if part is None else prefix + part + ">"
        length = "" if part is None else "/" + part.split("/", 1)[1] + ">"

        def candidates(world: World) -> frozenset[str]:
            if stored_only:
                return world.get(stored_key, _EMPTY)
            if own_key is None:
                return _world_get(world, stored_key)
            own = world.get(own_key)
            if own is not None and stored_key in world and not any(
                k.startswith(prefix) and not k.endswith(length) for k in world
            ):
                return own
            # no display of this length stored, or something else too: that part may be an object not known here
            return (own or _EMPTY) | {"@" + own_key}

        again_key, given_key = container + _STORED_AGAIN, container + _GIVEN

        def spender(moved: Mapping[str, object]) -> Callable[[World], Callable[[str], bool]]:
            # an item a take gave (on some path: `moved` too is one fact for all paths) and then moved, held once:
            # the runtime never hands it out again (what this take gives is not given yet)
            given = frozenset().union(*(w.get(given_key, _EMPTY) for w in s.worlds))

            def spent(world: World) -> Callable[[str], bool]:
                again = world.get(again_key, _EMPTY)
                return lambda o: o in moved and o in given and o not in again

            return spent

        s = state.derive()
        s.worlds = tuple(map(_copy_world, state.worlds))
        if s.moved:
            # The moved items the container forgets are renamed apart (`rebirth`, as a loop's item of an earlier
            # iteration is): the states of earlier iterations, where this take gave them unmoved, join with these
            # without making this take's item look moved.
            spent = spender(s.moved)
            forgotten = {
                o
                for w in s.worlds
                for objs in (candidates(w), *(w[k] for k in w if k == stored_key or k.startswith(prefix)))
                for o in filter(spent(w), objs)
            }
            for obj in sorted(forgotten):
                self.rebirth(s, obj)
        moved = s.moved
        spent = spender(moved)  # after the renaming
        picks: list[frozenset[str]] = []
        for world in s.worlds:
            gone = spent(world)
            picks.append(frozenset(o for o in candidates(world) if not gone(o)))
            if moved:
                for key in [k for k in world if k == stored_key or k.startswith(prefix)]:
                    held = world[key]
                    if any(map(gone, held)):
                        world[key] = frozenset(o for o in held if not gone(o))
            if picks[-1]:
                world[given_key] = world.get(given_key, _EMPTY) | picks[-1]
                if container.endswith(_REPLACED):
                    # a take from the copy a `heapreplace` made (`ir.replaced_items`) is one from the container
                    owner = container[: -len(_REPLACED)] + _GIVEN
                    world[owner] = world.get(owner, _EMPTY) | picks[-1]
        fresh = f"n{node.id}.0"
        if not all(picks):
            if fresh in self.objs:
                self.rebirth(s, fresh)
            else:
                self.objs[fresh] = ObjInfo()
                self.homes[fresh] = None
        for world, objs in zip(s.worlds, picks, strict=True):
            self.assign(s, world, op.targets[0], objs or frozenset((fresh,)))
        self.collect(s)
        return s

    def view(self, state: State, node: Node, op: ir.View) -> State:
        self.check_use(state, node, op.source, op.span)
        s = state.derive()
        s.worlds = tuple(map(_copy_world, s.worlds))
        prefix = f"v{node.id}:"
        for world in s.worlds:
            views: set[str] = set()
            for base in _world_get(world, op.source.key):
                chain = self.chain(base)
                again = next((c for c in chain if c.startswith(prefix)), None)
                if again is not None:
                    views.add(again)
                    continue
                obj = prefix + base
                if obj not in self.objs:
                    self.objs[obj] = ObjInfo(parent=base, region=op.region)
                views.add(obj)
            self.assign(s, world, op.target, frozenset(views))
        if op.target.root in self.active or not s.clean:
            self.collect(s)
        return s

    def collect(self, s: State) -> None:
        """Forget facts about objects no place can reach any more (keeps joins at loop heads precise)."""
        s.clean = True
        if not s.moved and not s.loans:
            return
        worlds = s.worlds
        if len(worlds) == 1:
            reachable = self.reach(worlds[0])
        else:
            reachable = set().union(*(self.reach(w) for w in worlds))

        def alive(obj: str) -> bool:
            if obj in reachable:
                return True
            if self.markers and "$moved" in obj and (container := moved_items.marker_container(obj)) is not None:
                return alive(container)  # a moved item lives as long as the container holding it
            if obj.startswith("@"):
                key = obj[1:]  # a world without `key` maps it to `@key`: the object is alive on that path
                return any(key not in w for w in worlds)
            return False

        if s.moved:
            dead = [o for o in s.moved if not alive(o)]
            if dead:
                moved = dict(s.moved)
                for obj in dead:
                    del moved[obj]
                s.moved = moved
        if s.loans and any(ln.holder_obj is not None and not alive(ln.holder_obj) for ln in s.loans):
            s.loans = frozenset(ln for ln in s.loans if ln.holder_obj is None or alive(ln.holder_obj))

    def assign(self, s: State, world: World, target: ir.Place, objs: frozenset[str]) -> None:
        if not target.attrs and target.root in self.attr_roots:
            prefix = target.root + "."
            for key in [k for k in world if k.startswith(prefix)]:
                del world[key]
        key = target.key
        bound = objs  # what this binding stores: a loan waiting for its holder attaches to these only
        if key.endswith(_STORED) or (target.attrs and target.attrs[-1].startswith(ir.STORED_PART_PREFIX)):
            # a container keeps every item stored into it (`ops.append(op1)`, then `ops.append(op2)`): the place
            # of its stored items gains the new one; only a rebinding of the container or a taking method
            # (`ops.clear()`, `ir.Del`) forgets them
            held = world.get(key)
            if held is not None:
                again = objs & held if key.endswith(_STORED) else _EMPTY
                if again:
                    # an object stored a second time (`calls.store_into`): a take may give it again; one a take
                    # gave is being put back (`heappush(heap, (prio + 1, i, item))` of a popped `item`), not twice
                    container = key[: -len(_STORED)]
                    again -= world.get(container + _GIVEN, _EMPTY)
                if again:
                    many = container + _STORED_AGAIN
                    world[many] = world.get(many, _EMPTY) | again
                objs = objs | held
            _share_stored(world, target, objs)
        world[key] = objs
        if s.loans and any(ln.holder_obj is None and ln.holder_key == key for ln in s.loans):
            attached: set[Loan] = set()
            for ln in s.loans:
                if ln.holder_obj is None and ln.holder_key == key:
                    # (not to the items a container already kept: the op just stored holds the loan)
                    attached.update(Loan(ln.obj, ln.mutable, ln.node, ln.text, ln.holder_key, o) for o in bound)
                    self.heirs.update(bound)
                else:
                    attached.add(ln)
            s.loans = frozenset(attached)

    def note_members(self, s: State, container: str, suffix: str) -> None:
        """Record what a loop item of `container` (`suffix`: its `ir.ITEM_ATTR`) may be (`members`): the objects
        stored into the container, in every world, without the pending ops among them (those are run by the
        loop, `run_stored`)."""
        members, whole_members = self.members, self.whole_members
        prefix = container + "." + ir.STORED_PART_PREFIX
        for world in s.worlds:
            stored = _world_get(world, container + _STORED)
            if not stored:
                continue
            stored = frozenset(o for o in stored if self.info(o).kind not in _OP_KINDS)
            parts = [objs for key, objs in world.items() if key.startswith(prefix)]
            whole = stored.difference(*parts) if parts else stored
            for obj in _world_get(world, container):
                item = obj + suffix
                members[item] = members.get(item, _EMPTY) | stored
                if whole:
                    whole_members[item] = whole_members.get(item, _EMPTY) | whole

    def with_members(self, objs: frozenset[str]) -> frozenset[str]:
        """`objs` and the stored objects a loop item among them may be (`members`)."""
        if not self.members:
            return objs
        extra = [self.members[o] for o in objs if o in self.members]
        return objs.union(*extra) if extra else objs

    def move(self, state: State, node: Node, op: ir.Move) -> State:
        if moved_items.is_marker_place(op.place):
            return self.move_item(state, node, op)
        if op.call is not None and self.unreported(op.span) is not None:
            # a called function's move (`ir.Move.call`): reported inside it, labelled at the call (once: a use
            # there already reported, by this call's argument, is the same error)
            already = self.check_use(state, node, op.place, op.call, inside=op.span)
        else:
            already = self.check_use(state, node, op.place, op.span)
        objs = state.get(op.place.key)
        if self.reporting:
            for loan in self.active_loans(state, node):
                if loan.holder_obj in objs:
                    continue
                lent = self.with_members(self.lent_objects(state, loan, op.place.key))
                if any(self.overlap(loan.obj, o) for o in lent):
                    borrow_op = self.graph.nodes[loan.node].op
                    assert isinstance(borrow_op, ir.Borrow)
                    self.diagnostics.append(
                        messages.move_while_borrowed(
                            self.path,
                            op.place.text,
                            borrow_op.span,
                            op.span,
                            self.holder_text(loan),
                        )
                    )
                    break
            # a view only borrows its base's memory: the runtime refuses to move it (E0505)
            view = next((o for o in sorted(objs) if o.startswith("v") and self.info(o).parent is not None), None)
            if view is not None:
                view_op = self.graph.nodes[int(view[1:].split(":", 1)[0])].op
                assert isinstance(view_op, ir.View)
                self.diagnostics.append(messages.move_out_of_view(self.path, op.place.text, view_op.span, op.span))
        s = state.derive()
        moved = dict(s.moved)
        site = frozenset((node.id,))
        # A `.shared()` op is read by its consumers, never moved (`SharedDeviceOp`); its loans stay with it until
        # it runs (`sync_on` / `sync`: the runtime releases them once its work is done).
        ran = objs if op.help is not None and op.help == _RUN_HELP else _EMPTY
        objs = frozenset(o for o in objs if self.info(o).kind != _SHARED_OP)
        for obj in objs:
            # A value that was only maybe moved (one arm, a failed match guard) is moved here on every path: the
            # site joins the earlier ones, so a later use is reported against this move too.
            old = moved.get(obj) if already else None
            moved[obj] = site if old is None else old | site
            if obj[0] == "@":
                s.clean = False
        s.moved = moved
        if objs:
            # each path moves what the place refers to on it
            key = op.place.key
            s.worlds = tuple(_with_gone(world, _world_get(world, key) & objs) for world in s.worlds)
            if any(".$it" in o for o in objs):
                self.mark_items(s, node, key, objs)
        if s.loans:
            heir = op.heir
            if heir is None:
                s.loans = frozenset(ln for ln in s.loans if ln.holder_obj not in objs and ln.holder_obj not in ran)
            else:
                # the consuming call's op carries this op's pending work: its loans wait for `heir`'s binding
                s.loans = frozenset(
                    Loan(ln.obj, ln.mutable, ln.node, ln.text, heir.key, None) if ln.holder_obj in objs else ln
                    for ln in s.loans
                )
        return s

    def mark_items(self, s: State, node: Node, key: str, objs: frozenset[str]) -> None:
        """A loop's item among the moved `objs` stays in its container (`moved_items`): mark the container on the
        worlds that moved it."""
        def marks(world: World) -> frozenset[str]:
            return frozenset(
                self.new_marker(item[0], self.loop_site(item[1]))
                for obj in _world_get(world, key) & objs
                if (item := moved_items.item_of(obj)) is not None
            )

        self.add_marks(s, node, marks)

    def add_marks(self, s: State, node: Node, marks: Callable[[World], frozenset[str]]) -> None:
        """Put each world's markers (`marks`) among its moved objects, moved at `node` (`s` is the step's own)."""
        worlds = []
        moved = dict(s.moved)
        for world in s.worlds:
            found = marks(world)
            worlds.append(_with_gone(world, found) if found else world)
            for mark in found:
                moved[mark] = moved.get(mark, _NO_SITES) | {node.id}
        s.worlds = tuple(worlds)
        s.moved = moved

    def new_marker(self, container: str, site: str) -> str:
        mark = moved_items.marker(container, site)
        self.markers.setdefault(container, set()).add(mark)
        return mark

    def move_item(self, state: State, node: Node, op: ir.Move) -> State:
        """A callee's loop moved an item of the container `op.place` names (`<container>.$moved`) and left it
        there: mark the container's objects (`moved_items`)."""
        key = ".".join((op.place.root, *op.place.attrs[:-1]))
        s = state.derive()
        self.add_marks(s, node, lambda world: frozenset(self.new_marker(c, "") for c in _world_get(world, key)))
        return s

    def stored_back(self, s: State, key: str) -> None:
        """A store into (or a take out of) the container at `key`: the moved items it held may be gone from it,
        so its markers are dropped (`moved_items`).  `s`'s worlds are private copies."""
        for world in s.worlds:
            if not world.gone:
                continue
            drop = {
                mark for container in _world_get(world, key)
                for mark in self.markers.get(container, ()) if mark in world.gone
            }
            if drop:
                world.gone = world.gone - drop
        kept = [mark for mark in s.moved if "$moved" in mark and moved_items.marker_container(mark) is not None]
        dropped = [mark for mark in kept if not any(mark in world.gone for world in s.worlds)]
        if dropped:
            s.moved = {obj: sites for obj, sites in s.moved.items() if obj not in dropped}

    def moved_apart(self, s: State, before: State, keys: Sequence[str]) -> None:
        """A moved object a `Bind` unbinds from its target `keys` while a parameter default's slot still keeps it
        (`ir.DEFAULT_SLOT_MARK`) gets an id of its own (`_MOVED_MARK`), in every world of `s`: `moved` is one "may"
        fact for all paths, so a path where the object was not moved would otherwise see it moved once it joins
        one where it was.  A loop that moves a value and rebinds its name (`parts = density.partition(...)` then
        `density = parts.unpartition()`) after `def report(tag, field=density)` joins, at its head, the entry path
        (`density` refers to the first object, unmoved) with the back edge (only the slot refers to it, moved):
        without the id of its own, the first iteration's move looked like a use after move of `density`.
        Renaming one object everywhere in one state changes nothing within it; only joins keep the two apart.
        Only for a slot: done for every place keeping such an object (`keep = density`), the extra ids make more
        distinct worlds, which `MAX_WORLDS` then merges, trading this false alarm for others.  Left as they are: a
        caller's unknown object (`@x`), a view or an object a view of it refers to (its children name their
        parent), an op, an object a loan names, and an id already apart (so the ids are bounded)."""
        moved = s.moved
        objs = {o for w in before.worlds for k in keys for o in w.get(k, _EMPTY) if o in moved}
        if objs:
            kept = {o for w in s.worlds for k, held in w.items() if ir.DEFAULT_SLOT_MARK in k for o in held}
            objs &= kept
        apart = [o for o in objs if o[0] != "@" and _MOVED_MARK not in o and len(self.chain(o)) == 1]
        if not apart:
            return
        parents = {link for w in s.worlds for held in w.values() for o in held for link in self.chain(o)[:-1]}
        held = {link for ln in s.loans for x in (ln.obj, ln.holder_obj) if x is not None for link in self.chain(x)}
        apart = [o for o in apart if o not in parents and o not in held and self.info(o).kind not in _OP_KINDS]
        if not apart:
            return
        s.worlds = tuple(map(_copy_world, s.worlds))
        for obj in sorted(apart):
            self.rebirth(s, obj, obj + _MOVED_MARK)

    def run_stored(self, s: State, item: tuple[str, str, str]) -> None:
        """A loop takes `item` from a container and runs it (`for op in ops: op.sync_on(s)`, `[op.sync_on(s) for
        op in jobs.values()]`, `for op, out in pending: op.sync_on(s)` of stored tuples: the item's name is moved, not
        by a buffer's move, `partition`/`to`): the ops stored in the container (`ir.STORED_ATTR`) are all
        run by the loop, as far as the checker follows (it does not tell the items apart; a loop that takes no
        item found the container empty), so their loans end where the loop takes its first item."""
        running = self._running_items
        if running is None:
            named: dict[str, str] = {}
            moved: set[str] = set()
            for n in self.graph.nodes:
                if isinstance(n.op, ir.Bind):
                    for target, value in zip(n.op.targets, n.op.values, strict=True):
                        source = value.source if isinstance(value, ir.FromPlace) else None
                        if source is not None and source.attrs and source.attrs[-1].startswith(ir.ITEM_ATTR):
                            named[source.attrs[-1]] = target.key
                elif isinstance(n.op, ir.Move) and n.op.heir is None and n.op.help not in _BUFFER_MOVE_HELPS:
                    moved.add(n.op.place.key)
            running = self._running_items = frozenset(attr for attr, key in named.items() if key in moved)
        if item[1][1:] not in running or not s.loans:
            return
        run: set[str] = set()
        for world in s.worlds:
            containers = _world_get(world, item[0])
            for key, held in world.items():
                if key.endswith(_STORED) and not _world_get(world, key[: -len(_STORED)]).isdisjoint(containers):
                    run |= held
        if run:
            s.loans = frozenset(ln for ln in s.loans if ln.holder_obj not in run)

    def borrow(self, state: State, node: Node, op: ir.Borrow) -> State:
        s = state.derive()
        nodes = self.graph.nodes
        if s.group != op.group or any(nodes[gb.node].op is op for gb in s.borrows):
            # a new call (or this call again: an unrolled loop runs one call once per item)
            s.group, s.borrows = op.group, ()
        if op.held_by is not None:
            # a nested function's loan, replayed at its call for the launch that follows in this group: the
            # nested function's analysis and its earlier launch's replay checked it
            s.borrows = (*s.borrows, GroupBorrow(op.place.key, op.mutable, node.id, op.held_by))
            return s
        self.check_use(s, node, op.place, op.span, op.inside)
        objs = s.get(op.place.key)
        if self.reporting:
            # the first earlier argument of each kind it conflicts with: an argument that may be both an input and
            # an output of the launch is E0502 and E0499 (in a loop, one iteration may meet one, the next the other)
            conflicts = {
                gb.mutable: gb
                for gb in reversed(s.borrows)
                if (gb.mutable or op.mutable)
                and any(self.any_overlap(_world_get(w, gb.key), _world_get(w, op.place.key)) for w in s.worlds)
            }
            for conflict in sorted(conflicts.values(), key=lambda gb: gb.node):
                if self.reported_inside(op):
                    break
                first = self.graph.nodes[conflict.node].op
                assert isinstance(first, ir.Borrow)
                closure = _closure(op, first) if conflict.held_by is None else None
                self.diagnostics.append(
                    messages.borrow_conflict(
                        self.path,
                        op.place.text,
                        first.span,
                        conflict.mutable,
                        op.span,
                        op.mutable,
                        conflict.held_by,
                        closure=closure,
                        inside=self.unreported(op.inside),
                    )
                )
            if not conflicts:
                for loan in self.active_loans(s, node):
                    if (loan.mutable or op.mutable) and any(
                        self.overlap(loan.obj, o) for o in self.lent_objects(s, loan, op.place.key)
                    ):
                        if _STORED in loan.holder_key and self.one_choice(loan.node, node.id):
                            continue  # an earlier iteration's op may have taken another item (`outs[k]`)
                        if self.reported_inside(op):
                            break
                        first = self.graph.nodes[loan.node].op
                        assert isinstance(first, ir.Borrow)
                        self.diagnostics.append(
                            messages.borrow_conflict(
                                self.path,
                                op.place.text,
                                first.span,
                                loan.mutable,
                                op.span,
                                op.mutable,
                                self.holder_text(loan),
                                self.later_use(loan, node),
                                None if self.op_held(loan) else loan.holder_key,
                                inside=self.unreported(op.inside),
                            )
                        )
                        break
        s.borrows = (*s.borrows, GroupBorrow(op.place.key, op.mutable, node.id))
        if op.holder is not None:
            alive = {(ln.node, ln.obj, ln.mutable) for ln in s.loans}
            s.loans = s.loans | {Loan(o, op.mutable, node.id, op.place.text, op.holder.key, None) for o in objs}
            s.worlds = self.lend(s, node.id, op.place.key, op.mutable, alive)
        return s

    def unreported(self, inside: Span | None) -> Span | None:
        """`inside` (`ir.Borrow.inside`) unless a diagnostic is already reported there: another call of the same
        function conflicting at the same argument inside it is then reported at its own call's argument, so every
        conflicting call is shown (as rustc shows each), the first where the runtime raises."""
        if inside is None or any(d.span == inside for d in self.diagnostics):
            return None
        return inside

    def reported_inside(self, op: ir.Borrow) -> bool:
        """Whether a conflict of this borrow's call is already reported inside its callee (`ir.Borrow.inside`):
        one call conflicting twice there (its launch's loans, and the op it returns keeping them) is one error."""
        return self.reported_at(op.inside, op.span)

    def reported_at(self, inside: Span | None, call: Span) -> bool:
        """Whether a diagnostic is already reported at `inside` (a called function's launch argument) for the
        caller's argument `call`: the same call met again (an unrolled loop's next item) is not reported twice."""
        return inside is not None and any(
            d.span == inside and any(label.span == call for label in d.labels) for d in self.diagnostics
        )

    def lend(
        self, s: State, node: int, key: str, mutable: bool, alive: set[tuple[int, str, bool]]
    ) -> tuple[World, ...]:
        """Each world with the loans the borrow at `node` of `key` makes on its own paths (`World.lent`).  The
        entries of loans that ended before this borrow (not in `alive`, the loans of the state it starts from) are
        dropped first: the same borrow in the next iteration of a loop may take another object on this path (`cur,
        nxt = nxt, cur`), and the entry another world's path makes here anew is that world's, not this one's."""
        out = []
        for world in s.worlds:
            made = frozenset((node, o, mutable) for o in _world_get(world, key))
            kept = frozenset(entry for entry in world.lent if entry in alive) if world.lent else world.lent
            lent = kept | made
            if lent == world.lent:
                out.append(world)
                continue
            copy = _copy_world(world)
            copy.merged = world.merged
            copy.lent = lent
            out.append(copy)
        return tuple(out)

    def lent_objects(self, s: State, loan: Loan, key: str) -> frozenset[str]:
        """The objects `key` may refer to in the worlds that made `loan` (every world when none records it)."""
        entry = (loan.node, loan.obj, loan.mutable)
        worlds = [w for w in s.worlds if entry in w.lent]
        holder = loan.holder_obj
        if worlds and holder is not None and self.info(holder).kind in _OP_KINDS:
            # a pending op holds its loans only where it is still kept: a world whose op was run or dropped (`flush`
            # took it out of `self.pending`) has none, whatever other worlds still keep
            holding = [w for w in worlds if any(holder in objs for objs in w.values())]
            worlds = holding or worlds
        if not worlds or len(worlds) == len(s.worlds):
            return s.get(key)
        found: frozenset[str] = frozenset()
        for world in worlds:
            found = found | _world_get(world, key)
        return found

    # --- driver ---------------------------------------------------------------------------------------------

    def run(self) -> list[Diagnostic]:
        nodes = self.graph.nodes
        # per node, the states of the paths the branch facts keep apart (one state where no branch is tested)
        paths: list[tuple[State, ...] | None]
        if self.graph.assume:
            paths = [None if p is None else tuple(p.values()) for p in self.solve_paths()]
        else:
            paths = [None if st is None else (st,) for st in self.solve()]
        self.reporting = True
        report = self.report
        for node in nodes:
            sts = paths[node.id]
            if sts:
                if report[node.id]:
                    for st in sts:
                        self.step(st, node)
            elif node.op is not None and isinstance(node.op, ir.RequireUnsafe) and not node.unsafe:
                self.diagnostics.append(messages.unsafe_required(self.path, node.op.operation, node.op.span))
        if self.exhausted:
            self.diagnostics.append(messages.analysis_unconverged(self.path, self.function.name, self.function.span))
        return self.diagnostics

    def solve(self) -> list[State | None]:
        """The fixed point: the state before each node (None where no path reaches it)."""
        if self.graph.assume:
            together: list[State | None] = []
            for p in self.solve_paths():
                joined: State | None = None
                for one in (p or {}).values():
                    joined = one if joined is None else _join(joined, one)
                together.append(joined)
            return together
        nodes = self.graph.nodes
        kinds = self.kind
        states: list[State | None] = [None] * len(nodes)
        states[self.graph.entry] = State((World(),), {}, frozenset(), -1, (), True)
        heap = [self.graph.entry]
        queued = {self.graph.entry}
        budget = STEP_BUDGET_PER_NODE * len(nodes) + STEP_BUDGET_BASE
        # The fixed point's transfer functions, by node kind: `step` without the checks that only report.
        transfers: list[Callable[[State, Node, Any], State]] = [
            lambda st, node, op: st, self.bind, self.view, self.delete, self.move, self.borrow
        ]
        while heap and budget > 0:
            budget -= 1
            i = heapq.heappop(heap)
            queued.discard(i)
            st = states[i]
            assert st is not None
            kind = kinds[i]
            node = nodes[i]
            out = st if kind == _SKIP else transfers[kind](st, node, node.op)
            for succ in nodes[i].succ:
                old = states[succ]
                if old is None:
                    states[succ] = out
                else:
                    new = _join(old, out, self.live_before(succ))
                    if _same(old, new):
                        continue
                    states[succ] = new
                if succ not in queued:
                    queued.add(succ)
                    heapq.heappush(heap, succ)
        self.exhausted = self.exhausted or bool(heap)
        return states

    def fact_effects(self) -> dict[int, tuple[tuple[str, Facts], ...]]:
        """Per node that rebinds or unbinds a name some branch tests: (name, the facts its new value gives)."""
        tracked = {test.name for test in self.graph.assume.values()}
        out: dict[int, tuple[tuple[str, Facts], ...]] = {}
        for node in self.graph.nodes:
            op = node.op
            found: dict[str, Facts] = {}
            if isinstance(op, ir.Bind):
                for target, value in zip(op.targets, op.values, strict=False):
                    if not target.attrs and target.root in tracked:
                        kind = value.kind if isinstance(value, ir.Fresh) else None
                        found[target.root] = frozenset((target.root, f) for f in _KIND_FACTS.get(kind or "", ()))
            elif isinstance(op, ir.View | ir.Del):
                place = op.target if isinstance(op, ir.View) else op.place
                if not place.attrs and place.root in tracked:
                    found[place.root] = _NO_FACTS
            if found:
                out[node.id] = tuple(found.items())
        return out

    def solve_paths(self) -> list[dict[Facts, State] | None]:
        """The fixed point kept apart by branch facts (`Facts`): per node, the state of the paths that reach it
        knowing each set of facts (None where no path reaches it).  An arm whose condition contradicts a path's
        facts (`if double:` after `double = False`) is not entered by that path; paths with different facts are
        joined only beyond `MAX_PATHS` per node (then to the facts they share, and from then on that node keeps
        no other fact: the facts it keeps only shrink, so the fixed point is reached)."""
        nodes = self.graph.nodes
        kinds = self.kind
        assume = self.graph.assume
        effects = self.fact_effects()
        paths: list[dict[Facts, State] | None] = [None] * len(nodes)
        masks: dict[int, Facts] = {}
        entry = self.graph.entry
        paths[entry] = {_NO_FACTS: State((World(),), {}, frozenset(), -1, (), True)}
        heap = [entry]
        queued = {entry}
        budget = STEP_BUDGET_PER_NODE * MAX_PATHS * len(nodes) + STEP_BUDGET_BASE
        transfers: list[Callable[[State, Node, Any], State]] = [
            lambda st, node, op: st, self.bind, self.view, self.delete, self.move, self.borrow
        ]
        while heap and budget > 0:
            budget -= 1
            i = heapq.heappop(heap)
            queued.discard(i)
            here = paths[i]
            assert here is not None
            kind = kinds[i]
            node = nodes[i]
            test = assume.get(i)
            effect = effects.get(i)
            outs: dict[Facts, State] = {}
            for facts, st in here.items():
                if test is not None:
                    entered = _assume(facts, test)
                    if entered is None:
                        continue  # this path's facts contradict the arm's condition: it never enters the arm
                    facts = entered
                out = st if kind == _SKIP else transfers[kind](st, node, node.op)
                if effect is not None:
                    gone = {name for name, _ in effect}
                    facts = frozenset(f for f in facts if f[0] not in gone).union(*(new for _, new in effect))
                prev = outs.get(facts)
                outs[facts] = out if prev is None else _join(prev, out)
            if not outs:
                continue
            for succ in node.succ:
                merged = _add_paths(paths[succ], outs, masks, succ, self.live_before(succ))
                if merged is None:
                    continue
                paths[succ] = merged
                if succ not in queued:
                    queued.add(succ)
                    heapq.heappush(heap, succ)
        self.exhausted = self.exhausted or bool(heap)
        return paths


def effect_names(effects: NonlocalEffects) -> list[str]:
    """The caller's names a call of a nested function reads, borrows, moves or rebinds (`nonlocal_effects`): a
    sibling nested function calling it (`async def outer(): await inner()`, both defined in one function) does the
    same to them, so they count among the names the sibling's own effects are computed for."""
    found: dict[str, None] = {}
    for read in effects.reads:
        borrows = [b for way in read for b in way] if isinstance(read, tuple) else [read]
        for op in borrows:
            found.setdefault(op.place.root, None)
    for place in (
        *effects.rebound,
        *(move.place for move in effects.moves),
        *(p for p, _ in effects.rebound_sources),
        *(p for p, _, _ in effects.entry_moves),
    ):
        found.setdefault(place.root, None)
    for name, _ in effects.returned_loans:
        found.setdefault(name, None)
    return [name for name in found if name not in effects.params]


def nonlocal_effects(function: ir.Function, names: Iterable[str], params: Iterable[str] = ()) -> NonlocalEffects:
    """What a call of the nested `function` does to `names`, the caller's values it captures and the names it
    declares `nonlocal` (each starts out as the caller's value, the unknown object `@name`): where it first reads
    a caller's value (a use, a move or a borrow of `@name`: the caller's value must not be moved by then), the
    names bound to a new value on every path to the exit, and the moves that may have consumed what a name refers
    to there (`x = y.unpartition()` consumes the caller's `y`).  The caller emits them at the call in that order
    (`calls.lower_call`), so a call after the caller moved a value the nested function reads is E0382 at the
    read, and so is a use of a consumed value after the call.  A launch's arguments may also be the nested
    function's `params` (its call binds them to the caller's operands, `calls.lower_call`)."""
    wanted = tuple(dict.fromkeys(names))
    graph = build(function)
    setup = _setup(graph, wanted)
    if setup is None or not wanted:
        return NonlocalEffects()
    analysis = _Analysis(function, graph, setup)
    analysis.exit_live = wanted
    states = analysis.solve()
    exit_state = states[graph.exit]
    # In node order: the first read of each caller's value, and every borrow of one and brand check on one (the
    # caller's pending ops' loans and its prepared launches' brands apply to them).
    # (keyed by place, span and, for a brand check, its kernel: a launch on a kernel chosen by a branch,
    # `kern, plan = (vecadd, prep) if flag else (vecmul, prep)`, checks the caller's `prep` once per kernel)
    reads: dict[
        tuple[str, Span, bool | str], ir.Use | ir.Borrow | ir.CheckBrand | tuple[tuple[ir.Borrow, ...], ...]
    ] = {}
    first: set[str] = set()
    params = tuple(params)
    inner: set[Span] = set()
    runs = _borrow_runs(analysis, states, wanted, frozenset(params), inner)
    # the moves of a caller's value itself (its name still refers to it there), per name
    entry_moves: dict[str, dict[Span, ir.Move]] = {}
    for node in graph.nodes:
        op, st = node.op, states[node.id]
        if st is not None and node.id in runs:
            reads.setdefault((f"${node.id}", op.span, True), runs[node.id])  # type: ignore[union-attr]
            continue
        read = op.source if isinstance(op, ir.View) else getattr(op, "place", None)
        if st is not None and isinstance(op, ir.CheckBrand) and not op.place.attrs and op.place.root not in wanted:
            # a local naming one caller's prepared launch (`kern, plan = (vecmul, prep) if flag else (vecadd,
            # prep)`): the check is of the caller's value it names on entry (of one only: a local that may name
            # either of two, each checked apart, would miss that any brand matching is enough)
            entries = st.get(op.place.key)
            entry = next(iter(entries)) if len(entries) == 1 else ""
            if entry[:1] == "@" and entry[1:] in wanted:
                name = entry[1:]
                reads.setdefault((name, op.span, op.kernel), ir.CheckBrand(ir.Place(name), op.kernel, op.span,
                                                                            op.callee_span))
            continue
        if st is None or not isinstance(read, ir.Place) or read.root not in wanted:
            continue
        if not isinstance(op, ir.Use | ir.Move | ir.Borrow | ir.View | ir.CheckBrand):
            continue
        if "@" + read.root not in st.get(read.root):
            continue
        if isinstance(op, ir.Move):
            entry_moves.setdefault(read.root, {}).setdefault(op.span, ir.Move(read, op.span, op.help))
        place = ir.Place(read.root)
        if isinstance(op, ir.Borrow) and not read.attrs:
            pass  # in `runs`, by the caller's values it may borrow
        elif isinstance(op, ir.CheckBrand) and not read.attrs:
            reads.setdefault((read.root, op.span, op.kernel), ir.CheckBrand(place, op.kernel, op.span, op.callee_span))
        elif read.root not in first:
            reads.setdefault((read.root, op.span, False), ir.Use(place, op.span))
        first.add(read.root)
    if exit_state is None:  # never returns
        return NonlocalEffects(tuple(reads.values()), params=frozenset(params), inner_conflicts=frozenset(inner))
    rebound: list[ir.Place] = []
    moves: dict[Span, ir.Move] = {}
    places = [ir.Place(name) for name in wanted]  # alive together: the analysis memoises by `id(place)`
    sources: list[tuple[ir.Place, tuple[tuple[str | None, ir.Region | None], ...]]] = []
    for name, place in zip(wanted, places, strict=True):
        if all(name in world and not any(o[0] == "@" for o in world[name]) for world in exit_state.worlds):
            rebound.append(place)
        ways = _rebound_ways(analysis, exit_state, name, frozenset(wanted))
        if ways is not None:
            sources.append((place, ways))
        for site in sorted(analysis.moved_sites(exit_state, place)):
            op = graph.nodes[site].op
            assert isinstance(op, ir.Move)
            moves.setdefault(op.span, ir.Move(place, op.span, op.help))
    # a caller's value moved where the name is bound to another value by the exit (the exit's moves above are what
    # the name refers to there): replaced on every path when no path leaves the name the caller's value
    replaced: list[tuple[ir.Place, bool, tuple[ir.Move, ...]]] = []
    ways_of = {p.root: ways for p, ways in sources}
    for name, place in zip(wanted, places, strict=True):
        found = tuple(m for span, m in entry_moves.get(name, {}).items() if span not in moves)
        if not found:
            continue
        ways = ways_of.get(name)
        every_path = place in rebound or (ways is not None and (name, None) not in ways)
        replaced.append((place, every_path, found))
    returned: dict[str, bool] = {}
    held: dict[tuple[str, str], bool] = {}  # (the nonlocal holding a pending op, the lent name) -> mutable
    for loan in sorted(exit_state.loans, key=lambda ln: (ln.obj, ln.mutable)):
        name = loan.obj[1:]
        if loan.holder_key == ir.RETURN_HOLDER and loan.holder_obj is None and name in wanted:
            returned[name] = returned.get(name, False) or loan.mutable
        elif loan.obj.startswith("@") and _caller_name(name, wanted) and loan.holder_key != name and any(
            loan.holder_key == p.root and not p.attrs for p in rebound
        ):
            held[(loan.holder_key, name)] = held.get((loan.holder_key, name), False) or loan.mutable
    return NonlocalEffects(
        tuple(reads.values()),
        tuple(rebound),
        tuple(moves.values()),
        frozenset(params),
        tuple(sorted(returned.items())),
        tuple(sources),
        frozenset(inner),
        tuple(replaced),
        tuple((holder, name, mutable) for (holder, name), mutable in sorted(held.items())),
    )


def _caller_name(name: str, wanted: Sequence[str]) -> bool:
    """Whether `name` is one of the caller's names a nested function sees: one it captures, or an item of a container
    display it captures (`named$e2` of `named["c"]`, `calls.element_place`)."""
    return name in wanted or ("$e" in name and name.rsplit("$e", 1)[0] in wanted)


def _rebound_ways(
    analysis: _Analysis, state: State, name: str, wanted: frozenset[str]
) -> tuple[tuple[str | None, ir.Region | None], ...] | None:
    """What a `nonlocal` name the nested function may rebind refers to at its exit, when that is (on some path) one
    of the caller's values or a view of one (`nonlocal a` then `a = c[0:32]`, `b = c`): per way, the caller's name
    and the view's region (None: the value itself; a name None: a new value; `name` itself: unchanged).  None when
    it is unchanged, or a new value, on every path."""
    ways: dict[tuple[str | None, ir.Region | None], None] = {}
    for world in state.worlds:
        for obj in world.get(name, ("@" + name,)):
            chain = analysis.chain(obj)
            base = chain[0]
            caller = base[1:] if base[0] == "@" and "." not in base else None
            if caller is not None and caller not in wanted and caller.split("$e", 1)[0] not in wanted:
                caller = None
            region = analysis.info(obj).region if len(chain) == 2 else None
            ways.setdefault((caller, region))
    if all(source is None or (source == name and region is None) for source, region in ways):
        return None
    return tuple(ways)


#: How many ways one call's borrows of the caller's values may be replayed at a call of a nested function.
_MAX_BORROW_ARMS = 16


def _borrow_runs(
    analysis: _Analysis,
    states: list[State | None],
    wanted: Sequence[str],
    params: frozenset[str] = frozenset(),
    inner: set[Span] | None = None,
) -> dict[int, tuple[tuple[ir.Borrow, ...], ...]]:
    """A nested function's calls that borrow the caller's values, for its call sites (`nonlocal_effects`): per call
    (a run of borrows of one group, keyed by its first node), the ways its arguments may be the caller's values,
    one tuple of borrows per way (by path: the state's worlds), in the call's own group.  A caller's value is a
    captured name's unknown object `@name`, or an item of a captured container (`@bufs$e2`), whatever nested name
    reaches it (`w := a`, `a, b = b, a`, the values of an op it ran); at the call site, where the caller knows which
    of its names are one buffer, two arguments of one launch that are one buffer conflict (E0502).  A parameter's
    value `@param` counts too, in a call that also borrows a captured value (a call of parameters only is the call
    summary's).  Each way starts with the loans the nested function's own pending ops hold on the caller's values
    when the call runs (`ir.Borrow.held_by`): `p = k.launch_async(prep, named["b"], ...)` then a launch writing `b`
    conflicts at the call site, where `named["b"]` is known to be `b` (seed 421 of the surface generator).  The spans
    of the borrows of a call whose arguments conflict in the nested function's own check go to `inner`: that check
    reports it, the call sites do not again."""
    graph = analysis.graph
    names = frozenset(wanted) | params

    def caller(obj: str) -> str | None:
        # `@h.b`: an attribute path below a captured name (`h.b` of the caller's `h = Bufs(a, b, c)`)
        name = obj[1:]
        if obj[0] != "@":
            return None
        root = name.split(".", 1)[0]
        return name if root in names or root.split("$e", 1)[0] in names else None

    def caller_view(obj: str) -> tuple[str, ir.Region | None] | None:
        # a caller's value, or a view the nested function took of one (`c = a.view(32, 64)`: that region of `a`)
        name = caller(obj)
        if name is not None:
            return name, None
        info = analysis.objs.get(obj)
        if info is None or info.region is None or info.parent is None:
            return None
        base = caller(info.parent)
        return (base, info.region) if base is not None else None

    groups: list[list[Node]] = []
    for node in graph.nodes:
        op = node.op
        if states[node.id] is None or not isinstance(op, ir.Borrow):
            continue
        last = groups[-1] if groups else None
        if last is None or last[-1].op.group != op.group or any(n.op is op for n in last):  # type: ignore[union-attr]
            groups.append([node])
        else:
            last.append(node)
    out: dict[int, tuple[tuple[ir.Borrow, ...], ...]] = {}
    for run in groups:
        state = states[run[-1].id]
        assert state is not None
        held = _held_loans(analysis, states[run[0].id], run[0], caller)
        arms: dict[tuple[ir.Borrow, ...], None] = {}
        if inner is not None and _conflicting_run(analysis, state, run):
            inner.update(member.op.span for member in run)  # type: ignore[union-attr]
        for world in state.worlds:
            per_borrow: list[list[ir.Borrow]] = []
            for member in run:
                op = member.op
                assert isinstance(op, ir.Borrow)
                found = sorted(
                    {f for o in _world_get(world, op.place.key) if (f := caller_view(o)) is not None},
                    key=lambda item: (item[0], repr(item[1])),
                )
                if found:
                    per_borrow.append(
                        [
                            ir.Borrow(_dotted_place(n, op.place.text), op.mutable, op.group, op.span, None, op.held_by,
                                      region=region)
                            for n, region in found
                        ]
                    )
            if not per_borrow or (not held and all(b.place.root in params for way in per_borrow for b in way)):
                continue
            for arm in itertools.islice(itertools.product(*per_borrow), _MAX_BORROW_ARMS):
                arms.setdefault((*held, *arm))
        if arms:
            out[run[0].id] = tuple(itertools.islice(arms, _MAX_BORROW_ARMS))
    return out


def _dotted_place(name: str, display: str) -> ir.Place:
    """The caller's place `name` spells (`h.b`: root `h`, attribute `b`), shown as the nested function spells it."""
    root, *attrs = name.split(".")
    return ir.Place(root, tuple(attrs), display)


def _closure(op: ir.Borrow, first: ir.Borrow) -> tuple[Span, str, str] | None:
    """A conflict between two arguments of a nested function's launch that the caller's bindings make, reported at
    the call (`ir.Borrow.call`): the call, the first borrow's name in the nested function, the caller's name of the
    value (`messages.borrow_conflict`).  None for any other conflict (a caller's pending op's loan is reported at
    the nested function's launch, as the runtime raises there)."""
    if op.call is None or first.call != op.call:
        return None
    caller = op.place.key if "$" not in op.place.key else op.place.text
    return op.call, first.place.text, caller


def _conflicting_run(analysis: _Analysis, state: State, run: Sequence[Node]) -> bool:
    """Whether two borrows of one call (`run`), one of them mutable, overlap on some path of `state`."""
    borrows = [member.op for member in run if isinstance(member.op, ir.Borrow)]
    return any(
        (a.mutable or b.mutable) and analysis.any_overlap(_world_get(w, a.place.key), _world_get(w, b.place.key))
        for i, a in enumerate(borrows)
        for b in borrows[i + 1 :]
        for w in state.worlds
    )


def _held_loans(
    analysis: _Analysis, state: State | None, node: Node, caller: Callable[[str], str | None]
) -> tuple[ir.Borrow, ...]:
    """The loans the nested function's pending ops hold on the caller's values (whole values: a view's loan is
    left to the nested function's own analysis) at `node`, as borrows replaying them (`ir.Borrow.held_by`)."""
    if state is None or not state.loans:
        return ()
    out: dict[ir.Borrow, None] = {}
    for loan in analysis.active_loans(state, node):
        held_by = analysis.holder_text(loan)
        if held_by is None and loan.holder_obj in analysis.heirs:
            held_by = loan.holder_key  # an op a consuming call built of another (`q = p.first().partition(...)`)
        name = caller(loan.obj)
        if held_by is None or name is None or loan.holder_key == ir.RETURN_HOLDER:
            continue
        first = analysis.graph.nodes[loan.node].op
        assert isinstance(first, ir.Borrow)
        out.setdefault(ir.Borrow(ir.Place(name, (), loan.text), loan.mutable, first.group, first.span, None, held_by))
    return tuple(out)


def _dominators(graph: Graph) -> list[int]:
    """Immediate dominator per node (the entry's is itself; -1 for unreachable nodes): Cooper, Harvey and Kennedy's
    iterative algorithm over a reverse postorder."""
    nodes = graph.nodes
    order: list[int] = []
    seen = {graph.entry}
    stack: list[tuple[int, int]] = [(graph.entry, 0)]
    while stack:
        n, i = stack[-1]
        succ = nodes[n].succ
        if i < len(succ):
            stack[-1] = (n, i + 1)
            m = succ[i]
            if m not in seen:
                seen.add(m)
                stack.append((m, 0))
        else:
            stack.pop()
            order.append(n)
    order.reverse()
    rank = {n: i for i, n in enumerate(order)}
    idom = [-1] * len(nodes)
    idom[graph.entry] = graph.entry
    changed = True
    while changed:
        changed = False
        for n in order[1:]:
            new = -1
            for p in nodes[n].pred:
                if idom[p] < 0:
                    continue
                if new < 0:
                    new = p
                    continue
                a, b = p, new
                while a != b:
                    while rank[a] > rank[b]:
                        a = idom[a]
                    while rank[b] > rank[a]:
                        b = idom[b]
                new = a
            if new != idom[n]:
                idom[n] = new
                changed = True
    return idom


#: How a `_BindPlan` gives a value: the source key of an alias, the fresh object, or for an op's value path
#: `(key, fresh object)`: what the key refers to, else the fresh object.
_PlanValue = str | frozenset[str] | tuple[str, str] | tuple[str, str, str]
_FRESH = ir.Fresh()


def _plan_objs(world: World, v: frozenset[str] | tuple[str, str] | tuple[str, str, str]) -> frozenset[str]:
    if type(v) is tuple:
        if len(v) == 3:  # a loop item: derived from each object the container may be
            return frozenset(o + v[1] for o in _world_get(world, v[0]))
        found = world.get(v[0])
        return found if found is not None else frozenset((v[1],))
    return v  # type: ignore[return-value]


def _share_stored(world: World, target: ir.Place, objs: frozenset[str]) -> None:
    """An item stored into a container (`inbox.put(out)`: `target` is `inbox.<stored>` or a part of it) is stored
    into the object the container's place refers to, so every other name or attribute path referring to that object
    (`worker.inbox` after `worker = Worker(inbox)`) holds it too: a method taking it out through `self.inbox` (its
    summary's move of `self.inbox.<stored>`) consumes `out`.  Temporaries and value paths are left out."""
    container = ".".join((target.root, *target.attrs[:-1]))
    owners = world.get(container)
    if not owners:
        return
    suffix = "." + target.attrs[-1]
    for key, held in list(world.items()):
        if key == container or "$" in key or "<" in key or held.isdisjoint(owners):
            continue
        alias = key + suffix
        found = world.get(alias)
        world[alias] = objs if found is None else found | objs


#: The part `_taken_source` reads from `ir.TAKEN_STORED_ONLY`.
_STORED_ONLY_PART = ir.TAKEN_STORED_ONLY[len(ir.TAKEN_PREFIX) : -1].strip()


#: What `_copy_stored_parts` copies with a container's stored items.
_COPIED_WITH_ITEMS: tuple[str, ...] = (ir.STORED_PART_PREFIX, ir.STORED_AGAIN_ATTR, _GIVEN[1:])


def _copy_stored_parts(world: World, source: str, target: str) -> None:
    """`target.<stored> := source.<stored>` (`calls.lower_assignment` of a `selects` call, a `heapreplace`'s copy):
    the parts stored with the items (`ir.stored_part`), the objects stored more than once (`ir.STORED_AGAIN_ATTR`)
    and those a take gave are the target's too, so a take from the new list gives the parts a take from the old one
    would, and not an item the old one gave and saw moved."""
    prefix = source + "."
    for key, held in list(world.items()):
        if key.startswith(prefix) and key[len(prefix) :].startswith(_COPIED_WITH_ITEMS):
            copied = target + key[len(source) :]
            world[copied] = world.get(copied, _EMPTY) | held


def _taken_source(value: ir.Value) -> tuple[str, str | None] | None:
    """For a value read from `container.<taken>` (`ir.taken_item`): the container's key and the part taken
    (`"i/n"`, None for a whole item); None for any other value."""
    if not isinstance(value, ir.FromPlace) or not value.source.attrs:
        return None
    last = value.source.attrs[-1]
    if not last.startswith(ir.TAKEN_PREFIX):
        return None
    container = ".".join((value.source.root, *value.source.attrs[:-1]))
    part = last[len(ir.TAKEN_PREFIX) : -1].strip()
    return container, part or None


def _copy_value_paths(world: World, source: str, target: str) -> None:
    """`target := source` for an op's value: the value paths below `source` (`p.$.$0`) are copied below `target`
    (what was below `target` is forgotten first)."""
    old = target + "."
    for key in [k for k in world if k.startswith(old)]:
        del world[key]
    prefix = source + "."
    cut = len(source)
    for key, objs in [(k, o) for k, o in world.items() if k.startswith(prefix)]:
        world[target + key[cut:]] = objs


@dataclass(slots=True)
class _BindPlan:
    fresh: tuple[tuple[str, ir.Fresh], ...]  # the objects the Bind's `Fresh` values create, in value order
    values: tuple[_PlanValue, ...]  # per value: the source key of an alias, the fresh object, or an op value path
    keys: tuple[str, ...]  # the targets' keys
    simple: tuple[bool, ...]  # per target: a plain name no attribute path starts with
    checks: bool  # reads an active place (so it can report a use after move)
    touches: bool  # reads or writes an active place (so it can make a moved object unreachable)
    copies: tuple[tuple[int, str], ...] = ()  # (target index, source key): op value paths copied below the target
    derived: tuple[int, ...] = ()  # values that are loop items (`ir.ITEM_ATTR`)
    # (source container key, target container key): a container's stored items bound from another's
    # (`leaders = heapq.nsmallest(3, heap)`): the parts stored with them are copied too (`_copy_stored_parts`)
    stored_copies: tuple[tuple[str, str], ...] = ()
    # (target index, source key): a place bound to another place whose attribute paths it then shares
    # (`_Analysis.bind`, `_alias_suffixes`); and the targets that are attribute paths of a name sharing them with
    # others (`shared_alias_paths`)
    aliases: tuple[tuple[int, str], ...] = ()
    shared_paths: tuple[int, ...] = ()


#: The name an E0382's message names (`messages.use_after_move`).
_MOVED_NAME = re.compile(r"use of moved value: `([A-Za-z_][A-Za-z0-9_]*)`")


def _with_chain_notes(function: ir.Function, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """`diagnostics`, an E0382 of a name an open test chain binds with a label on the chain and a note saying how
    to declare it exhaustive (`fall_through`)."""
    if not any(d.code == "E0382" for d in diagnostics):
        return diagnostics
    chains = open_chains(function.body)
    if not chains:
        return diagnostics
    out = []
    for d in diagnostics:
        named = _MOVED_NAME.fullmatch(d.message) if d.code == "E0382" else None
        in_loop = any(label.message.startswith(messages.MOVED_IN_LOOP) for label in d.labels)
        found = chain_label(named.group(1), chains, in_loop) if named is not None else None
        out.append(d if found is None else replace(d, labels=(*d.labels, found[0]), notes=(*d.notes, found[1])))
    return out


def check_function(function: ir.Function) -> list[Diagnostic]:
    """All ownership diagnostics of one IR function, in source order of their primary spans."""
    graph = build(function)
    setup = _setup(graph)
    if setup is None:
        return []
    diagnostics = _with_chain_notes(function, _Analysis(function, graph, setup).run())
    # A `finally` block is built once per way of leaving its `try` (cfg.py): its copies report once.  And one
    # message is reported once per line, at its first column (`f(a, a)` after a pending mutable borrow of `a`):
    # mypy shows each message once per line, and both front ends must report the same diagnostics.
    ordered = sorted(diagnostics, key=lambda d: (d.span.line, d.span.column, d.code))
    seen: set[tuple[str, int, str]] = set()
    unique: list[Diagnostic] = []
    for d in ordered:
        key = (d.code, d.span.line, d.message)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    return unique
