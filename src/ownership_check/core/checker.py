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
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from ownership_check.core import ir, messages
from ownership_check.core.cfg import Graph, Node, build
from ownership_check.core.liveness import live_out
from ownership_check.diagnostics import Diagnostic, Span


@dataclass(frozen=True)
class ObjInfo:
    parent: str | None = None
    region: ir.Region | None = None
    kind: str = "value"
    brand: str | None = None


@dataclass(frozen=True)
class Loan:
    obj: str
    mutable: bool
    node: int
    text: str
    holder_key: str
    holder_obj: str | None


@dataclass(frozen=True)
class GroupBorrow:
    key: str
    mutable: bool
    node: int


World = dict[str, frozenset[str]]
MAX_WORLDS = 8


def _world_get(world: World, key: str) -> frozenset[str]:
    found = world.get(key)
    return found if found is not None else frozenset(("@" + key,))


def _world_key(world: World) -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple(sorted(world.items()))


def _merge_worlds(worlds: list[World]) -> tuple[World, ...]:
    unique: dict[tuple[tuple[str, frozenset[str]], ...], World] = {}
    for w in worlds:
        unique.setdefault(_world_key(w), w)
    out = list(unique.values())
    if len(out) <= MAX_WORLDS:
        return tuple(out)
    merged: World = {}
    keys = set().union(*(w.keys() for w in out))
    for key in keys:
        merged[key] = frozenset().union(*(_world_get(w, key) for w in out))
    return (merged,)


@dataclass
class State:
    """Alias facts are kept per path ("worlds": one points-to map per distinct path history, up to a bound);
    moves and loans are "may" facts joined across paths."""

    worlds: tuple[World, ...] = ({},)
    moved: dict[str, frozenset[int]] = field(default_factory=dict)
    loans: frozenset[Loan] = frozenset()
    group: int = -1
    borrows: tuple[GroupBorrow, ...] = ()

    def copy(self) -> State:
        return State(
            tuple(dict(w) for w in self.worlds), dict(self.moved), self.loans, self.group, self.borrows
        )

    def get(self, key: str) -> frozenset[str]:
        if len(self.worlds) == 1:
            return _world_get(self.worlds[0], key)
        return frozenset().union(*(_world_get(w, key) for w in self.worlds))

    def keys(self) -> set[str]:
        return set().union(*(w.keys() for w in self.worlds))


def _join(a: State, b: State) -> State:
    worlds = _merge_worlds([*a.worlds, *b.worlds])
    moved = dict(a.moved)
    for obj, sites in b.moved.items():
        moved[obj] = moved.get(obj, frozenset()) | sites
    borrows = tuple(dict.fromkeys(a.borrows + b.borrows)) if a.group == b.group else a.borrows
    return State(worlds, moved, a.loans | b.loans, a.group, borrows)


def _same(a: State, b: State) -> bool:
    return (
        a.moved == b.moved
        and a.loans == b.loans
        and a.borrows == b.borrows
        and {_world_key(w) for w in a.worlds} == {_world_key(w) for w in b.worlds}
    )


def _disjoint(r1: ir.Region | None, r2: ir.Region | None) -> bool:
    if isinstance(r1, ir.Range) and isinstance(r2, ir.Range):
        return (r1.stop is not None and r1.stop <= r2.start) or (r2.stop is not None and r2.stop <= r1.start)
    if isinstance(r1, ir.Half) and isinstance(r2, ir.Half):
        return r1.site == r2.site and r1.index != r2.index
    return False


class _Analysis:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.path = function.path
        self.graph: Graph = build(function)
        self.live = live_out(self.graph)
        self.objs: dict[str, ObjInfo] = {}
        self.diagnostics: list[Diagnostic] = []
        self.reported_moves: set[frozenset[int]] = set()
        self.reporting = False

    # --- objects --------------------------------------------------------------------------------------------

    def info(self, obj: str) -> ObjInfo:
        return self.objs.get(obj) or ObjInfo()

    def chain(self, obj: str) -> list[str]:
        out = [obj]
        seen = {obj}
        parent = self.info(obj).parent
        while parent is not None and parent not in seen:
            out.append(parent)
            seen.add(parent)
            parent = self.info(parent).parent
        out.reverse()
        return out

    def overlap(self, a: str, b: str) -> bool:
        ca, cb = self.chain(a), self.chain(b)
        if ca[0] != cb[0]:
            return False
        k = 0
        while k < len(ca) and k < len(cb) and ca[k] == cb[k]:
            k += 1
        if k == len(ca) or k == len(cb):
            return True
        return not _disjoint(self.info(ca[k]).region, self.info(cb[k]).region)

    def any_overlap(self, xs: frozenset[str], ys: frozenset[str]) -> bool:
        return any(self.overlap(x, y) for x in xs for y in ys)

    def rebirth(self, state: State, obj: str) -> None:
        """A new object is born at a site that already made one (a loop): older instances get a summary id."""
        old = obj + "~"
        hit = False
        for world in state.worlds:
            for key, objs in world.items():
                if obj in objs:
                    world[key] = (objs - {obj}) | {old}
                    hit = True
        if obj in state.moved:
            state.moved[old] = state.moved.get(old, frozenset()) | state.moved.pop(obj)
            hit = True
        if any(loan.obj == obj or loan.holder_obj == obj for loan in state.loans):
            state.loans = frozenset(
                Loan(
                    old if ln.obj == obj else ln.obj,
                    ln.mutable,
                    ln.node,
                    ln.text,
                    ln.holder_key,
                    old if ln.holder_obj == obj else ln.holder_obj,
                )
                for ln in state.loans
            )
            hit = True
        if hit and old not in self.objs and obj in self.objs:
            self.objs[old] = self.objs[obj]

    # --- checks ---------------------------------------------------------------------------------------------

    def place_objs(self, state: State, place: ir.Place) -> frozenset[str]:
        return state.get(place.key)

    def moved_sites(self, state: State, place: ir.Place) -> frozenset[int]:
        keys = [place.root] + [".".join((place.root, *place.attrs[: i + 1])) for i in range(len(place.attrs))]
        sites: set[int] = set()
        for key in keys:
            for obj in state.get(key):
                for link in self.chain(obj):
                    sites |= state.moved.get(link, frozenset())
        return frozenset(sites)

    def check_use(self, state: State, node: Node, place: ir.Place, span: Span) -> bool:
        sites = self.moved_sites(state, place)
        if not sites:
            return False
        events = frozenset(self.event_of(site) for site in sites)
        if self.reporting and events not in self.reported_moves:
            self.reported_moves.add(events)
            moves = []
            help_text = None
            for site in sorted(sites):
                op = self.graph.nodes[site].op
                assert isinstance(op, ir.Move)
                moves.append((op.span, site >= node.id))
                help_text = help_text or op.help
            self.diagnostics.append(messages.use_after_move(self.path, place.text, span, moves, help_text))
        return True

    def event_of(self, site: int) -> int:
        op = self.graph.nodes[site].op
        return op.event if isinstance(op, ir.Move) and op.event >= 0 else -1 - site

    def active_loans(self, state: State, node: Node) -> list[Loan]:
        """Loans in force at `node`: a pending DeviceOp's until it is consumed (or unreachable), a `get_mut`
        result's while a live name refers to it (non-lexical lifetimes)."""
        if not state.loans:
            return []
        live = self.live[node.id]
        held: set[str] = set()
        reachable: set[str] = set()
        for world in state.worlds:
            for key, objs in world.items():
                reachable |= objs
                if key.split(".", 1)[0] in live:
                    held |= objs
        out = []
        for ln in state.loans:
            if ln.holder_obj is None:
                continue
            if self.info(ln.holder_obj).kind == "op":
                if ln.holder_obj in reachable:
                    out.append(ln)
            elif ln.holder_obj in held:
                out.append(ln)
        return out

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
        return loan.holder_key if loan.holder_obj and self.info(loan.holder_obj).kind == "op" else None

    # --- transfer -------------------------------------------------------------------------------------------

    def step(self, state: State, node: Node) -> State:
        op = node.op
        if op is None:
            return state
        s = state.copy()
        if isinstance(op, ir.Bind):
            fresh: dict[int, frozenset[str]] = {}
            for i, value in enumerate(op.values):
                if isinstance(value, ir.FromPlace):
                    self.check_use(s, node, value.source, value.span)
                else:
                    obj = f"n{node.id}.{i}"
                    self.rebirth(s, obj)
                    self.objs[obj] = ObjInfo(kind=value.kind, brand=value.brand)
                    fresh[i] = frozenset((obj,))
            for world in s.worlds:
                values = [
                    _world_get(world, v.source.key) if isinstance(v, ir.FromPlace) else fresh[i]
                    for i, v in enumerate(op.values)
                ]
                for target, objs in zip(op.targets, values, strict=True):
                    self.assign(s, world, target, objs)
            self.collect(s)
        elif isinstance(op, ir.View):
            self.check_use(s, node, op.source, op.span)
            for world in s.worlds:
                views: set[str] = set()
                for base in _world_get(world, op.source.key):
                    chain = self.chain(base)
                    prefix = f"v{node.id}:"
                    again = next((c for c in chain if c.startswith(prefix)), None)
                    if again is not None:
                        views.add(again)
                        continue
                    obj = prefix + base
                    self.objs[obj] = ObjInfo(parent=base, region=op.region)
                    views.add(obj)
                self.assign(s, world, op.target, frozenset(views))
            self.collect(s)
        elif isinstance(op, ir.Del):
            for world in s.worlds:
                self.assign(s, world, op.place, frozenset())
            self.collect(s)
        elif isinstance(op, ir.Use):
            self.check_use(s, node, op.place, op.span)
            if op.element and not node.unsafe and self.reporting:
                if any(self.info(o).kind == "shared_array" for o in s.get(op.place.key)):
                    self.diagnostics.append(messages.unsafe_required(self.path, "shared_array", op.span))
        elif isinstance(op, ir.Move):
            self.move(s, node, op)
        elif isinstance(op, ir.Borrow):
            self.borrow(s, node, op)
        elif isinstance(op, ir.CheckBrand):
            self.check_use(s, node, op.place, op.span)
            brands = sorted({b for o in s.get(op.place.key) if (b := self.info(o).brand) is not None})
            if brands and op.kernel not in brands and self.reporting:
                self.diagnostics.append(
                    messages.brand_mismatch(
                        self.path, op.place.text, op.span, op.kernel, brands[0], op.callee_span
                    )
                )
        elif isinstance(op, ir.RequireUnsafe):
            if not node.unsafe and self.reporting:
                self.diagnostics.append(messages.unsafe_required(self.path, op.operation, op.span))
        return s

    def collect(self, s: State) -> None:
        """Forget facts about objects no place can reach any more (keeps joins at loop heads precise)."""
        if not s.moved and not s.loans:
            return
        reachable: set[str] = set()
        for world in s.worlds:
            for objs in world.values():
                for obj in objs:
                    reachable.update(self.chain(obj))
        keys = s.keys()

        def alive(obj: str) -> bool:
            if obj in reachable:
                return True
            if obj.startswith("@"):
                return obj[1:] not in keys
            return False

        dead = [o for o in s.moved if not alive(o)]
        for obj in dead:
            del s.moved[obj]
        if s.loans and any(ln.holder_obj is not None and not alive(ln.holder_obj) for ln in s.loans):
            s.loans = frozenset(ln for ln in s.loans if ln.holder_obj is None or alive(ln.holder_obj))

    def assign(self, s: State, world: World, target: ir.Place, objs: frozenset[str]) -> None:
        if not target.attrs:
            prefix = target.root + "."
            for key in [k for k in world if k.startswith(prefix)]:
                del world[key]
        world[target.key] = objs
        if any(ln.holder_obj is None and ln.holder_key == target.key for ln in s.loans):
            attached: set[Loan] = set()
            for ln in s.loans:
                if ln.holder_obj is None and ln.holder_key == target.key:
                    attached.update(
                        Loan(ln.obj, ln.mutable, ln.node, ln.text, ln.holder_key, o) for o in objs
                    )
                else:
                    attached.add(ln)
            s.loans = frozenset(attached)

    def move(self, s: State, node: Node, op: ir.Move) -> None:
        already = self.check_use(s, node, op.place, op.span)
        objs = s.get(op.place.key)
        if self.reporting:
            for loan in self.active_loans(s, node):
                if loan.holder_obj in objs:
                    continue
                if any(self.overlap(loan.obj, o) for o in objs):
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
        if not already:
            for obj in objs:
                s.moved[obj] = frozenset((node.id,))
        if s.loans:
            s.loans = frozenset(ln for ln in s.loans if ln.holder_obj not in objs)

    def borrow(self, s: State, node: Node, op: ir.Borrow) -> None:
        if s.group != op.group:
            s.group, s.borrows = op.group, ()
        self.check_use(s, node, op.place, op.span)
        objs = s.get(op.place.key)
        if self.reporting:
            conflict = next(
                (
                    gb
                    for gb in s.borrows
                    if (gb.mutable or op.mutable)
                    and any(
                        self.any_overlap(_world_get(w, gb.key), _world_get(w, op.place.key)) for w in s.worlds
                    )
                ),
                None,
            )
            if conflict is not None:
                first = self.graph.nodes[conflict.node].op
                assert isinstance(first, ir.Borrow)
                self.diagnostics.append(
                    messages.borrow_conflict(
                        self.path, op.place.text, first.span, conflict.mutable, op.span, op.mutable
                    )
                )
            else:
                for loan in self.active_loans(s, node):
                    if (loan.mutable or op.mutable) and any(self.overlap(loan.obj, o) for o in objs):
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
                                None if self.holder_text(loan) else loan.holder_key,
                            )
                        )
                        break
        s.borrows = (*s.borrows, GroupBorrow(op.place.key, op.mutable, node.id))
        if op.holder is not None:
            s.loans = s.loans | {
                Loan(o, op.mutable, node.id, op.place.text, op.holder.key, None) for o in objs
            }

    # --- driver ---------------------------------------------------------------------------------------------

    def run(self) -> list[Diagnostic]:
        nodes = self.graph.nodes
        states: list[State | None] = [None] * len(nodes)
        states[self.graph.entry] = State()
        outs: list[State | None] = [None] * len(nodes)
        heap = [self.graph.entry]
        queued = {self.graph.entry}
        budget = 200 * len(nodes) + 1000
        while heap and budget > 0:
            budget -= 1
            i = heapq.heappop(heap)
            queued.discard(i)
            st = states[i]
            assert st is not None
            out = self.step(st, nodes[i])
            outs[i] = out
            for succ in nodes[i].succ:
                old = states[succ]
                new = out if old is None else _join(old, out)
                if old is None or not _same(old, new):
                    states[succ] = new
                    if succ not in queued:
                        queued.add(succ)
                        heapq.heappush(heap, succ)
        self.reporting = True
        for node in nodes:
            st = states[node.id]
            if st is not None:
                self.step(st, node)
            elif node.op is not None and isinstance(node.op, ir.RequireUnsafe) and not node.unsafe:
                self.diagnostics.append(messages.unsafe_required(self.path, node.op.operation, node.op.span))
        return self.diagnostics


def check_function(function: ir.Function) -> list[Diagnostic]:
    """All ownership diagnostics of one IR function, in source order of their primary spans."""
    diagnostics = _Analysis(function).run()
    return sorted(diagnostics, key=lambda d: (d.span.line, d.span.column, d.code))
