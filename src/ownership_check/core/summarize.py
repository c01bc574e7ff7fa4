"""A callee's call summary, read from the core's own flow analysis of the callee's IR (see `call_effects`).

Each parameter starts out as the caller's value, the unknown object `@param` (and `@self.x` for an attribute path
the callee reads before binding it).  The fixed point runs as for any function; at its exit, the moved facts of
those objects are the caller's values the callee may consume, and the attribute paths bound in its worlds are its
rebinds.  Facts about a caller's object are kept even once no name of the callee reaches it (`helper(out)` doing
`out = out.sync_on(s)[0]` still consumed the caller's `out`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

from ownership_check.core import init_state, ir, moved_items
from ownership_check.core.call_effects import (
    RECEIVED_KIND,
    SENT_VALUE,
    CallSummary,
    EffectTiming,
    ParamPath,
    PathBorrow,
    StoredItems,
    StoredOp,
    SummaryBrandCheck,
    SummaryMove,
    SuspendedLoan,
    YieldedPart,
    one_line_site,
)
from ownership_check.core.cfg import Graph, build
from ownership_check.core.checker import State, _Analysis, _setup, _world_get
from ownership_check.diagnostics import Span


class _SummaryAnalysis(_Analysis):
    """The analysis, except that facts about the caller's objects of `params` are never forgotten."""

    params: frozenset[str] = frozenset()

    def collect(self, s: State) -> None:
        kept = {o: v for o, v in s.moved.items() if o[0] == "@" and o[1:].split(".", 1)[0] in self.params}
        super().collect(s)
        if kept and any(o not in s.moved for o in kept):
            moved = dict(s.moved)
            moved.update(kept)
            s.moved = moved


def _path(obj: str, params: frozenset[str]) -> ParamPath | None:
    """The parameter path whose caller's value `obj` is (`@self.x` -> `("self", ("x",))`), else None.  A
    parameter's name may hold `$`: an item of a `*args` tuple (`call_effects.star_items`)."""
    if obj[0] != "@" or "~" in obj:
        return None
    parts = obj[1:].split(".")
    if parts[0] not in params or any("$" in part for part in parts[1:]):
        return None
    return parts[0], tuple(parts[1:])


def _element_path(obj: str, params: frozenset[str]) -> ParamPath | None:
    """As `_path`, but an attribute may also be an item of a loop of the callee over the caller's value there
    (`@jobs.$it5`: the item the loop at site 5 took from the caller's `jobs`, `ir.ITEM_ATTR`), for the parts of a
    yielded tuple (`_yielded_parts`)."""
    if obj[0] != "@" or "~" in obj:
        return None
    parts = obj[1:].split(".")
    if parts[0] not in params:
        return None
    for part in parts[1:]:
        if "$" in part and not (part.startswith(ir.ITEM_ATTR) and part[len(ir.ITEM_ATTR) :].isdigit()):
            return None
    return parts[0], tuple(parts[1:])


def _returned_parts(
    analysis: _Analysis, graph: Graph, states: Sequence[State | None], params: frozenset[str]
) -> tuple[YieldedPart, ...]:
    """The parts of the tuple every `return` gives (`CallSummary.returned_parts`), read as a generator's yielded
    parts are; only when some part is an op that still borrows something (else the call is what it was: a new
    value, or the parameter a helper returns)."""
    parts = _yielded_parts(analysis, graph, states, params, ir.RETURN_PART)
    kept = any(part.loans or part.view_of is not None or part.same_as is not None for part in parts)
    return parts if kept else ()


def _yielded_parts(
    analysis: _Analysis,
    graph: Graph,
    states: Sequence[State | None],
    params: frozenset[str],
    prefix: str = ir.YIELD_PART,
) -> tuple[YieldedPart, ...]:
    """What each part of the tuples a generator yields is (`YieldedPart`), read where it yields: the front ends
    bind part `i` of `yield out, k.launch_async(...)` to `ir.yielded_part(i)` (an op's loans held there); a
    part bound to different caller values at different `yield`s names none, and its loans are all of theirs.
    Empty unless the parts bound are numbered 0 to n - 1."""
    found: dict[int, tuple[set[ParamPath | None], dict[ParamPath, bool]]] = {}
    binds: list[tuple[int, State, ir.Place, frozenset[str]]] = []
    part_of: dict[str, int] = {}  # an object a part is bound to -> that part (a sibling an op part may borrow)
    born: dict[str, int] = {}  # a new object a part's own value made -> that part (`_same_parts`)
    for node in graph.nodes:
        op, st = node.op, states[node.id]
        if st is None or not isinstance(op, ir.Bind):
            continue
        for target in op.targets:
            root = target.root
            if target.attrs or not (root.startswith(prefix) and root[len(prefix) :].isdigit()):
                continue
            index = int(root[len(prefix) :])
            sources, loans = found.setdefault(index, (set(), {}))
            # read at the bind itself (its own state: after it, a loop's head may join paths that never bound it)
            value = op.values[op.targets.index(target)]
            objs = st.get(value.source.key) if isinstance(value, ir.FromPlace) else frozenset()
            sources.update(_element_path(obj, params) for obj in objs)
            if not objs:
                sources.add(None)  # a new value (a call's op holds its loans under the target's key)
            for obj in objs:
                if obj[0] != "@":
                    part_of.setdefault(obj, index)
            if isinstance(value, ir.Fresh):
                born.setdefault(f"n{node.id}.{op.targets.index(target)}", index)  # the new object (`bind`)
            binds.append((index, st, target, objs))
    for index, st, target, objs in binds:
        loans = found[index][1]
        for loan in st.loans:
            if (loan.holder_obj is not None and loan.holder_obj in objs) or (
                loan.holder_obj is None and loan.holder_key == target.key
            ):
                sibling = part_of.get(loan.obj)
                path = (f"{prefix}{sibling}", ()) if sibling is not None else _element_path(loan.obj, params)
                if path is not None:
                    loans[path] = loans.get(path, False) or loan.mutable
    views = _sibling_views(analysis, binds, part_of)
    same = _same_parts(binds, born)
    parts = []
    for index in sorted(found):
        sources, loans = found[index]
        source = next(iter(sources)) if len(sources) == 1 else None
        parts.append(YieldedPart(
            index, source, tuple(sorted(loans.items())) if source is None else (),
            views.get(index) if source is None else None,
            same.get(index) if source is None else None,
        ))
    return tuple(parts) if parts and sorted(found) == list(range(len(found))) else ()


def _same_parts(
    binds: Sequence[tuple[int, State, ir.Place, frozenset[str]]], born: dict[str, int]
) -> dict[int, int]:
    """The parts that are, at every bind, the very new object an earlier part's own value made
    (`return [sk.zeros(...)] * 2`): part -> that earlier part.  A part that is a name's object (`return fwd, fwd`)
    is not one: the front ends follow returned names themselves (a prepared launch keeps its brand there)."""
    found: dict[int, int | None] = {}
    for index, _state, _target, objs in binds:
        earlier = {born.get(obj) for obj in objs}
        same = next(iter(earlier)) if objs and len(earlier) == 1 else None
        if same is not None and same >= index:
            same = None
        found[index] = same if found.get(index, same) == same else None
    return {index: same for index, same in found.items() if same is not None}


def _sibling_views(
    analysis: _Analysis, binds: Sequence[tuple[int, State, ir.Place, frozenset[str]]], part_of: dict[str, int]
) -> dict[int, tuple[int, ir.Region]]:
    """The parts whose every object, at every bind, is a view of one other part's new object (`YieldedPart.
    view_of`): `return buf, buf.view(guard, guard + n)` gives its caller a buffer and a view of it."""
    found: dict[int, set[tuple[int, ir.Region] | None]] = {}
    for index, _, _, objs in binds:
        seen = found.setdefault(index, set())
        if not objs:
            seen.add(None)
        for obj in objs:
            info = analysis.info(obj)
            parent = info.parent
            sibling = part_of.get(parent) if parent is not None else None
            if obj[0] == "@" or sibling is None or sibling == index or info.region is None:
                seen.add(None)
                continue
            region = info.region
            literal = isinstance(region, ir.Range) and isinstance(region.start, int) and (
                region.stop is None or isinstance(region.stop, int)) and region.counter is None
            seen.add((sibling, region if literal else ir.Whole()))
    views: dict[int, tuple[int, ir.Region]] = {}
    for index, seen in found.items():
        one = next(iter(seen)) if len(seen) == 1 else None
        if one is not None:
            views[index] = one
    return views


#: The mark of a key below a container that keeps what is stored into it (`ir.STORED_ATTR`).
_STORED = "." + ir.STORED_ATTR


def _stored_items(analysis: _Analysis, graph: Graph, exit_state: State, receiver: str) -> StoredItems | None:
    """What the method leaves in its receiver's container attributes (`StoredItems`), read at its exit: the new
    objects bound below `self.<attr>.<stored>` (`calls.store_into`) that a pending op also kept there borrows
    (`self.slots[rid] = out` beside `self.inflight[rid] = k.launch_async(prep, x, out)`).  None when there is none."""
    prefix = receiver + "."
    stored: dict[str, str] = {}  # new object -> the attribute holding it
    for world in exit_state.worlds:
        for key, objs in sorted(world.items()):
            attr = key[len(prefix) : -len(_STORED)]
            if not key.startswith(prefix) or not key.endswith(_STORED) or not attr or "." in attr or "$" in attr:
                continue
            for obj in sorted(objs):
                if obj[0] != "@":
                    stored.setdefault(obj, attr)
    items: dict[str, int] = {}
    ops: dict[str, list[tuple[int, bool, Span]]] = {}
    for loan in sorted(exit_state.loans, key=lambda ln: (ln.holder_obj or "", ln.obj, ln.mutable, ln.node)):
        holder = loan.holder_obj
        if holder is None or holder not in stored or loan.obj not in stored or loan.obj == holder:
            continue
        if analysis.info(holder).kind not in ("op", "shared_op"):
            continue
        borrow = graph.nodes[loan.node].op
        if not isinstance(borrow, ir.Borrow):
            continue
        index = items.setdefault(loan.obj, len(items))
        ops.setdefault(holder, []).append((index, loan.mutable, borrow.span))
    if not ops:
        return None
    return StoredItems(
        tuple(stored[obj] for obj in items),
        tuple(StoredOp(stored[holder], tuple(dict.fromkeys(loans))) for holder, loans in ops.items()),
    )


def _returned_held(
    analysis: _Analysis, graph: Graph, exit_state: State, receiver: str
) -> tuple[tuple[str, bool, Span], ...]:
    """What a pending op the method keeps in one of its receiver's container attributes still borrows of the new
    object it returns (`CallSummary.returned_held`), read at its exit: the loans on an object some `return` gives
    (`ir.RETURN_HOLDER`) held by an op stored below `self.<attr>` (`calls.store_into`)."""
    returned = {o for world in exit_state.worlds for o in world.get(ir.RETURN_HOLDER, ()) if o[0] != "@"}
    if not returned:
        return ()
    prefix = receiver + "."
    found: dict[tuple[str, bool, Span], None] = {}
    for loan in sorted(exit_state.loans, key=lambda ln: (ln.obj, ln.mutable, ln.node)):
        attr = loan.holder_key[len(prefix) : -len(_STORED)]
        if loan.obj not in returned or not loan.holder_key.startswith(prefix) or not loan.holder_key.endswith(_STORED):
            continue
        if not attr or "." in attr or "$" in attr or loan.holder_obj is None:
            continue
        borrow = graph.nodes[loan.node].op
        if analysis.info(loan.holder_obj).kind in ("op", "shared_op") and isinstance(borrow, ir.Borrow):
            found[(attr, loan.mutable, borrow.span)] = None
    return tuple(found)


def _stored_holders(exit_state: State, params: frozenset[str]) -> dict[str, set[ParamPath]]:
    """The containers below parameters each new object is stored into at the exit (`self.pending.append(op)` keeps
    `op` below `self.pending.<stored>`, `calls.store_into`): object -> those containers' stored-items paths."""
    found: dict[str, set[ParamPath]] = {}
    for world in exit_state.worlds:
        for key, objs in world.items():
            root, _, rest = key.partition(".")
            if root not in params or not rest.endswith(_STORED) or "$" in rest:
                continue
            for obj in objs:
                if obj[0] != "@":
                    found.setdefault(obj, set()).add((root, tuple(rest.split("."))))
    return found


#: The kinds of a new object that is no op: a value, `None` (a literal, or known None in an `is None` arm).
_PLAIN_KINDS: Final = frozenset({"value", "none", "literal_none"})


def _maybe_op(sources: set[ParamPath | ir.Fresh | None]) -> ir.Fresh | None:
    """What a caller's path bound differently on different paths out of the callee becomes: the pending op, when
    the others are plain new values (`self.pending = k.launch_async(...)`, then `if not overlap: self.finish()`
    setting it to `None`), so the loans it holds stay with the caller's path as the runtime keeps them on the paths
    where the op is left pending (running it there ends them); else a value the caller cannot name (None)."""
    ops = [s for s in sources if isinstance(s, ir.Fresh) and _new_op(s)]
    plain = [s for s in sources if isinstance(s, ir.Fresh) and s.kind in _PLAIN_KINDS and s.brand is None]
    if len(ops) == 1 and plain and len(ops) + len(plain) == len(sources):
        return ops[0]
    return None


def _new_op(source: ParamPath | ir.Fresh | None) -> bool:
    """Whether a rebind's source is a new pending op (`self.pending = k.launch_async(...)`)."""
    return isinstance(source, ir.Fresh) and source.kind in ("op", "shared_op")


def _reported_moves(analysis: _Analysis, graph: Graph, states: Sequence[State | None]) -> frozenset[int]:
    """The move sites the callee's own check reports a use of (E0382 there: `self.keys` moved in a loop's body and
    used again by its next iteration).  A move is reported once, at the first use reached after it: the caller's
    later use of the same value (`cache.snapshot()` after `cache.prefill(...)`) is that move again, so the summary
    leaves such moves out."""
    sites: set[int] = set()
    for node in graph.nodes:
        op, st = node.op, states[node.id]
        if st is None or not st.moved:
            continue
        if isinstance(op, ir.Use):
            places = [op.place] if op.place.root in analysis.active else []
        elif isinstance(op, ir.Move | ir.Borrow | ir.CheckBrand):
            places = [op.place]
        elif isinstance(op, ir.View):
            places = [op.source]
        else:
            continue
        for place in places:
            sites |= analysis.moved_sites(st, place)
    return frozenset(sites)


def _reached(graph: Graph, starts: Sequence[int], stop: Callable[[ir.Suspend], bool]) -> set[int]:
    """The nodes reached from `starts` by paths that go on past no `await` (`ir.Suspend`) `stop` accepts (such a
    node is reached, not passed)."""
    seen = set(starts)
    work = list(starts)
    while work:
        node = graph.nodes[work.pop()]
        if isinstance(node.op, ir.Suspend) and stop(node.op):
            continue
        for succ in node.succ:
            if succ not in seen:
                seen.add(succ)
                work.append(succ)
    return seen


def _timings(graph: Graph) -> Callable[[int], EffectTiming]:
    """When each node runs relative to the coroutine's `await`s (`EffectTiming`): `early` when some path from the
    entry reaches it past no `await`, `late` when some path passes one, `ordered` when every path passes one that
    may wait for another coroutine (`ir.Suspend.waits`: an `asyncio.Event`, a queue, a task)."""
    suspends = [node.id for node in graph.nodes if isinstance(node.op, ir.Suspend)]
    if not suspends:
        return lambda _: EffectTiming()
    early = _reached(graph, [graph.entry], lambda _: True)
    late = _reached(graph, [s for n in suspends for s in graph.nodes[n].succ], lambda _: False)
    unordered = _reached(graph, [graph.entry], lambda op: op.waits)
    return lambda n: EffectTiming(n in early, n in late, n not in unordered)


def _suspended_loans(
    analysis: _Analysis, graph: Graph, states: Sequence[State | None], params: frozenset[str]
) -> tuple[SuspendedLoan, ...]:
    """The caller's values a pending op of the callee still borrows at one of its `await`s (`ir.Suspend`): a
    coroutine suspended there leaves them borrowed while the event loop runs the others (`asyncio.gather`,
    `callables.lower_gathered`).  A coroutine that syncs its ops before each `await` has none."""
    firsts = _reached(graph, [graph.entry], lambda _: True)  # the `await`s no other one precedes on some path
    found: dict[ParamPath, SuspendedLoan] = {}
    for node in graph.nodes:
        st = states[node.id]
        if st is None or not isinstance(node.op, ir.Suspend) or not st.loans:
            continue
        for loan in analysis.active_loans(st, node):
            path = _path(loan.obj, params)
            if path is None:
                continue
            old = found.get(path, SuspendedLoan(path, False, False, False))
            found[path] = SuspendedLoan(
                path, old.mutable or loan.mutable, old.first or node.id in firsts, old.long or not node.op.turn
            )
    return tuple(found[path] for path in sorted(found))


def _brand_checks(
    analysis: _Analysis, graph: Graph, states: Sequence[State | None], params: frozenset[str]
) -> tuple[SummaryBrandCheck, ...]:
    """The callee's launches with a caller's prepared launch (a parameter, or an attribute path of one the callee
    has not bound: `square_bwd.launch(plan.bwd, ...)`), each the caller checks the brand of at the call.  A path
    the callee launches with different kernels (a helper dispatching on another argument to the kernel the
    prepared launch is for) is left out: which launch runs is not known at the call."""
    found: dict[ParamPath, list[SummaryBrandCheck]] = {}
    for node in graph.nodes:
        op, st = node.op, states[node.id]
        if st is None or not isinstance(op, ir.CheckBrand):
            continue
        for obj in sorted(st.get(op.place.key)):
            path = _path(obj, params)
            if path is not None:
                found.setdefault(path, []).append(
                    SummaryBrandCheck(path, op.kernel, op.span, op.callee_span, op.place.text)
                )
    return tuple(
        check
        for _, checks in sorted(found.items())
        if len({c.kernel for c in checks}) == 1
        for check in checks
    )


def call_summary(
    function: ir.Function, params: Sequence[str], receiver: str | None = None, name: str | None = None
) -> CallSummary:
    """The summary of a call of `function` (`name`: as the caller calls it), whose parameters are `params`
    (`receiver`: the one a method's receiver binds).  Empty when the callee does nothing the checker tracks to
    them."""
    name = name or function.name
    wanted = frozenset(params)
    graph = build(function)
    setup = _setup(graph, tuple(dict.fromkeys(params)))
    receives = any(
        isinstance(node.op, ir.Bind)
        and any(isinstance(v, ir.Fresh) and v.kind == RECEIVED_KIND for v in node.op.values)
        for node in graph.nodes
    )
    if setup is None or not (wanted or receives):
        if setup is not None and _binds_returned_op(graph):
            # a function of no parameters whose result may be a new op (`def job(): return sk.zip(...)`)
            analysis = _SummaryAnalysis(function, graph, setup)
            analysis.params = wanted
            returns, built = _returns_op(analysis, graph, analysis.solve())
            return CallSummary(name, receiver=receiver, returns_op=returns, op_built=built)
        return CallSummary(name, receiver=receiver)
    analysis = _SummaryAnalysis(function, graph, setup)
    analysis.params = wanted
    # the caller reads its values after the call: paths that leave them differently stay apart to the exit
    analysis.exit_live = tuple(sorted(wanted))
    states = analysis.solve()
    exit_state = states[graph.exit]

    def received(obj: str) -> ParamPath | None:
        # an object a `yield` expression gave (`t = yield result`): the value the caller sends in (`gen.send(x)`)
        return (SENT_VALUE, ()) if obj[0] != "@" and analysis.info(obj).kind == RECEIVED_KIND else None

    # What the body moves of a value sent in, wherever it suspends next (a generator's `while True:` never returns):
    # the moves of received objects at any point of the body
    sent_moves: dict[tuple[int, int, int, int], SummaryMove] = {}
    if receives:
        for st in states:
            for obj, sites in (st.moved.items() if st is not None else ()):
                if received(obj) is None:
                    continue
                for site in sites:
                    op = graph.nodes[site].op
                    if isinstance(op, ir.Move):
                        where = (op.span.line, op.span.column, op.span.end_line, op.span.end_column)
                        sent_moves.setdefault(where, SummaryMove((SENT_VALUE, ()), op.span, op.help))
    checks = _brand_checks(analysis, graph, states, wanted)
    if exit_state is None:  # never returns
        return CallSummary(
            name, tuple(sent_moves[k] for k in sorted(sent_moves)), receiver=receiver, brand_checks=checks
        )
    moves: list[SummaryMove] = [sent_moves[k] for k in sorted(sent_moves)]
    move_sites: list[int | None] = [None] * len(moves)
    reported = _reported_moves(analysis, graph, states)
    timing = _timings(graph)
    for obj in sorted(exit_state.moved):
        if received(obj) is not None:
            continue
        path = _path(obj, wanted) or moved_items.param_path(obj, wanted)
        if path is None:
            continue
        for site in sorted(exit_state.moved[obj] - reported):
            op = graph.nodes[site].op
            if isinstance(op, ir.Move):
                declared = ".".join((path[0], *path[1])) in function.declared_device
                moves.append(SummaryMove(path, op.span, op.help, timing=timing(site), declared=declared))
                move_sites.append(site)
    # The callee's calls that borrow the caller's values on every path through it (a helper handing one parameter
    # as input and another as output conflicts when the caller passes one buffer to both).  A borrow on some paths
    # only may hang on a test of a parameter (`if pending is None: launch`), which the summary cannot tell.  One
    # path borrowed both ways conflicts inside the callee already (reported there): it counts as mutable once.
    # A path that ends in a `raise` never returns to the caller (`case _: raise ValueError(...)` next to the arm
    # that launches): "every path" means every path that returns.
    returning = [
        p for p in graph.nodes[graph.exit].pred if states[p] is not None and not isinstance(graph.nodes[p].op, ir.Raise)
    ]
    groups: dict[int, dict[ParamPath, bool]] = {}
    group_sites: dict[int, dict[ParamPath, Span]] = {}  # where the callee takes each (`CallSummary.borrow_sites`)
    timings: dict[int, EffectTiming] = {}  # when each group's borrows run (`_timings`)
    taken: dict[int, dict[ParamPath, list[bool]]] = {}  # every borrow, for the conflicts inside the callee
    some_paths: dict[tuple[ParamPath, bool, Span], EffectTiming] = {}  # the others (`CallSummary.path_borrows`)
    for node in graph.nodes:
        op, st = node.op, states[node.id]
        if st is None or not isinstance(op, ir.Borrow) or not returning:
            continue
        if not all(analysis.dominates(node.id, p) for p in returning):
            for obj in sorted(st.get(op.place.key)):
                path = _path(obj, wanted) or received(obj)
                if path is not None and obj not in st.moved:
                    borrowed = (path, op.mutable, op.inside or op.span)
                    some_paths[borrowed] = some_paths.get(borrowed, EffectTiming(False, False, True)) | timing(node.id)
            continue
        for obj in sorted(st.get(op.place.key)):
            path = _path(obj, wanted) or received(obj)
            # an object the callee may have moved by here is borrowed only on the paths that did not move it, the
            # place holding another object on the others (`if pending: self.x = self.x.sync_on(s)`, then a launch
            # of `self.x`): the caller, which applies the move and the borrow on one path, must not see both
            if path is not None and obj not in st.moved:
                group = groups.setdefault(op.group, {})
                group[path] = group.get(path, False) or op.mutable
                group_sites.setdefault(op.group, {}).setdefault(path, op.inside or op.span)
                timings[op.group] = timings.get(op.group, EffectTiming(False, False, True)) | timing(node.id)
                taken.setdefault(op.group, {}).setdefault(path, []).append(op.mutable)
    # a move no borrow the summary keeps can reach runs before them all: first at the caller too (`SummaryMove.early`)
    kept_borrows = [n.id for n in graph.nodes if isinstance(n.op, ir.Borrow) and n.op.group in groups]
    cleared = _cleared(graph, states, wanted)
    cleared_early: tuple[ParamPath, ...] = ()
    moving = [site for site in move_sites if site is not None]
    if kept_borrows or moving:
        # forgetting a container's stored ops before every borrow the summary keeps and every move runs first at
        # the caller too (`self.flush()` before `self.particles.to_numpy(...)`, or before `vel.partition(...)`)
        before = _reached(graph, [s for n in (*kept_borrows, *moving) for s in graph.nodes[n].succ], lambda _: False)
        cleared_early = tuple(path for path, sites in cleared.items() if not sites & before)
    if kept_borrows:
        after = _reached(graph, [s for n in kept_borrows for s in graph.nodes[n].succ], lambda _: False)
        moves = [
            replace(m, early=True) if site is not None and site not in after else m
            for m, site in zip(moves, move_sites, strict=True)
        ]
    conflicts = tuple(
        tuple((path, mutable) for path, modes in sorted(paths.items()) if len(modes) > 1 and any(modes)
              for mutable in sorted(set(modes)) + ([True] if modes.count(True) > 1 else []))
        for _, paths in sorted(taken.items())
        if any(len(modes) > 1 and any(modes) for modes in paths.values())
    )
    # The op the callee returns keeps its loans of the caller's values until the caller runs it.
    # (`return op` of a name: the ops the return holder refers to, `calls.return_name`)
    returned: dict[ParamPath, bool] = {}
    returned_ops = {o for world in exit_state.worlds for o in world.get(ir.RETURN_HOLDER, ())}
    for loan in sorted(exit_state.loans, key=lambda ln: (ln.obj, ln.mutable)):
        path = _path(loan.obj, wanted)
        if path is None:
            continue
        if (loan.holder_key == ir.RETURN_HOLDER and loan.holder_obj is None) or (
            loan.holder_obj in returned_ops and analysis.info(loan.holder_obj).kind in ("op", "shared_op")
        ):
            returned[path] = returned.get(path, False) or loan.mutable
    # A pending op the callee leaves in an attribute of a parameter keeps its loans of the caller's values.
    held: dict[tuple[ParamPath, ParamPath], bool] = {}
    held_new: dict[tuple[ParamPath, ParamPath], bool] = {}  # loans of new objects left below a parameter
    kept_in = _stored_holders(exit_state, wanted)
    left_at = _left_at(exit_state, wanted)
    for loan in sorted(exit_state.loans, key=lambda ln: (ln.obj, ln.mutable)):
        path = _path(loan.obj, wanted)
        if loan.holder_obj is None or loan.holder_obj[0] == "@":
            continue
        if path is None:
            path = left_at.get(loan.obj)
            holding = _attribute_path(loan.holder_key, wanted)
            if path is not None and holding is not None and analysis.info(loan.holder_obj).kind == "op":
                held_new[(holding, path)] = held_new.get((holding, path), False) or loan.mutable
            continue
        if analysis.info(loan.holder_obj).kind not in ("op", "shared_op"):
            continue
        root, _, rest = loan.holder_key.partition(".")
        holdings = list(kept_in.get(loan.holder_obj, ()))
        if root in wanted and rest and "$" not in rest:
            holdings.append((root, tuple(rest.split("."))))
        for holding in holdings:
            held[(holding, path)] = held.get((holding, path), False) or loan.mutable
    rebinds: dict[ParamPath, ParamPath | ir.Fresh | None] = {}
    viewed: dict[ParamPath, set[tuple[ParamPath, ir.Region] | None]] = {}  # `CallSummary.rebound_views`
    unsure: set[ParamPath] = set()
    every: dict[ParamPath, set[ParamPath | ir.Fresh | None]] = {}  # each path's sources on every path out
    for world in exit_state.worlds:
        for key, objs in world.items():
            root, _, rest = key.partition(".")
            if not rest or root not in wanted or "$" in key:
                continue
            target: ParamPath = (root, tuple(rest.split(".")))
            sources: set[ParamPath | ir.Fresh | None] = set()
            for o in objs:
                found = _path(o, wanted)
                info = analysis.info(o)
                # a new object keeps what kind it is (`self.prepared = k.prepare(...)` is prepared for `k`)
                sources.add(found if found is not None or o[0] == "@" else ir.Fresh(info.kind, info.brand))
                base = _path(info.parent, wanted) if info.parent is not None and found is None else None
                region = init_state.portable_region(info.region)
                viewed.setdefault(target, set()).add(
                    (base, region) if base is not None and region is not None else None
                )
            source = next(iter(sources)) if len(sources) == 1 else None
            every.setdefault(target, set()).update(sources)
            if target in rebinds and rebinds[target] != source:
                unsure.add(target)
            rebinds.setdefault(target, source)
    for target, source in rebinds.items():
        if source is None or target in unsure:
            # bound differently on different paths: a value the caller cannot name, but a pending op on some paths
            # and a plain new value (`None`, the op run) on the others is the op (`_maybe_op`)
            rebinds[target] = _maybe_op(every[target])
    # a path bound only on some paths keeps the caller's value on the others; a new object is the generous answer
    for target, source in list(rebinds.items()):
        if isinstance(source, tuple) and not all(".".join((target[0], *target[1])) in w for w in exit_state.worlds):
            rebinds[target] = None
    moved_rebinds = _moved_rebinds(graph, exit_state, rebinds)
    kept_moved = _kept_moved(exit_state, rebinds)
    # a path bound on every path out to one view of one caller's value (`self.left, self.right =
    # self.data.split_at(n)` in `__init__`): the caller's place is that view of its own value
    rebound_views = tuple(
        (target, *only)
        for target, ways in sorted(viewed.items())
        if len(ways) == 1 and (only := next(iter(ways))) is not None and target not in unsure
        and all(".".join((target[0], *target[1])) in w for w in exit_state.worlds)
    )
    return CallSummary(
        name,
        tuple(moves),
        tuple(sorted(((t, s) for t, s in rebinds.items() if t != s), key=lambda item: item[0])),
        receiver,
        tuple(tuple(group.items()) for _, group in sorted(groups.items())),
        tuple(sorted(returned.items())),
        tuple(
            sorted(
                (holding, path, mutable)
                for (holding, path), mutable in held.items()
                # the attribute is bound to a new op on every path out (else the loans may be another object's), or
                # is a container's stored items (`self.pending.append(op)`), which keep every op stored there
                if holding[1][-1] == ir.STORED_ATTR or _new_op(rebinds.get(holding))
            )
        ),
        conflicts,
        checks,
        _suspended_loans(analysis, graph, states, wanted),
        tuple(timings[number] for number in sorted(groups)),
        _yielded_parts(analysis, graph, states, wanted),
        _stored_items(analysis, graph, exit_state, receiver) if receiver is not None else None,
        tuple(path for path in cleared if path not in cleared_early),
        _returned_parts(analysis, graph, states, wanted),
        moved_rebinds,
        *_returns_op(analysis, graph, states),
        tuple(tuple(group_sites[number][path] for path in group) for number, group in sorted(groups.items())),
        _returned_held(analysis, graph, exit_state, receiver) if receiver is not None else (),
        cleared_early,
        held_new_loans=tuple(
            sorted(
                (holding, path, mutable)
                for (holding, path), mutable in held_new.items()
                if _new_op(rebinds.get(holding)) and isinstance(rebinds.get(path), ir.Fresh)
            )
        ),
        kept_moved=kept_moved,
        item_reads=_item_reads(graph, states, wanted),
        path_borrows=tuple(PathBorrow(*borrowed, when) for borrowed, when in some_paths.items()),
        rebound_views=rebound_views,
    )


def _item_reads(graph: Graph, states: Sequence[State | None], params: frozenset[str]) -> tuple[
    tuple[ParamPath, Span], ...
]:
    """The caller's containers whose loop items the callee borrows or moves, or whose items it reads under a key
    (`self.stems[name]`), with the first place it does (`CallSummary.item_reads`).  None for a generator: it reads
    one item per step of the caller's loop over it (its yielded parts say which, `_yielded_parts`), and the item
    the caller's loop moved is not read again."""
    found: dict[ParamPath, Span] = {}
    if any(
        isinstance(node.op, ir.Bind) and any(t.root.startswith(ir.YIELD_PART) for t in node.op.targets)
        for node in graph.nodes
    ):
        return ()
    stores = moved_items.store_lines(node.op for node in graph.nodes)
    for node in graph.nodes:
        op, st = node.op, states[node.id]
        if st is None or not isinstance(op, ir.Borrow | ir.Move | ir.Use):
            continue
        containers: list[str] = []
        if not isinstance(op, ir.Use):  # a plain read of a loop's item may be of a dict's key
            containers += [item[0] for obj in st.get(op.place.key) if (item := moved_items.item_of(obj)) is not None]
        keyed = moved_items.container_key(op.place) if op.place.attrs[-1:] and op.place.attrs[-1][:1] == "[" else None
        if keyed is not None:  # `self.stems[name]`: an item of the caller's container under a key
            containers += sorted(st.get(keyed))
        elif isinstance(op, ir.Use) and op.element and op.inside is None and (
            (op.place.root, op.place.attrs, op.span.line) not in stores
        ):  # an item under a key the checker cannot name
            containers += sorted(st.get(op.place.key))
        for container in containers:
            path = _path(container, params)
            if path is None or path in found:
                continue
            site = op.inside if isinstance(op, ir.Borrow) and op.inside is not None else op.span
            found[path] = site
    return tuple(sorted(found.items(), key=lambda entry: (entry[1].line, entry[1].column, entry[0])))


def _kept_moved(exit_state: State, rebinds: dict[ParamPath, ParamPath | ir.Fresh | None]) -> tuple[ParamPath, ...]:
    """The paths `rebinds` binds to a new object on some paths out while others leave the caller's object there
    after moving it (`CallSummary.kept_moved`: `x = self.ret.partition(...)`, then `self.ret = ...` only `if
    training:`)."""
    found: list[ParamPath] = []
    for target, source in sorted(rebinds.items(), key=lambda item: item[0]):
        if isinstance(source, tuple):
            continue
        key = ".".join((target[0], *target[1]))
        unknown = "@" + key
        # a world whose place holds the caller's object alone (a union of paths, where some rebound it, says
        # nothing of which path moved it)
        if any(unknown in world.gone and _world_get(world, key) == {unknown} for world in exit_state.worlds):
            found.append(target)
    return tuple(found)


def _left_at(exit_state: State, wanted: frozenset[str]) -> dict[str, ParamPath]:
    """The new objects the function leaves below a parameter on every path out (`self.window = sk.zeros(...)`):
    each with that attribute path, when it is the only object there and held nowhere else below a parameter."""
    seen: dict[str, set[ParamPath]] = {}
    for world in exit_state.worlds:
        for key, objs in world.items():
            path = _attribute_path(key, wanted) if "$" not in key else None
            if path is None or len(objs) != 1:
                continue
            for obj in objs:
                if obj[0] != "@":
                    seen.setdefault(obj, set()).add(path)
    return {
        obj: next(iter(paths))
        for obj, paths in seen.items()
        if len(paths) == 1 and all(obj in w.get(".".join((p[0], *p[1])), ()) for w in exit_state.worlds for p in paths)
    }


def _attribute_path(key: str, wanted: frozenset[str]) -> ParamPath | None:
    """The attribute path below a parameter a place key spells (`self.window`), else None: a plain name, a part
    (`$`) or a container's stored items (`<stored>`, whose loans `StoredItems` keeps)."""
    root, _, rest = key.partition(".")
    if not rest or root not in wanted or "$" in rest or ir.STORED_ATTR in rest.split("."):
        return None
    return root, tuple(rest.split("."))


def _binds_returned_op(graph: Graph) -> bool:
    """Whether some `return` of the function gives a new lazy op (`calls.returned_result`)."""
    return any(
        isinstance(n.op, ir.Bind) and any(t.root == ir.RETURNED_OP for t in n.op.targets) for n in graph.nodes
    )


def _returns_op(analysis: _Analysis, graph: Graph, states: Sequence[State | None]) -> tuple[bool, Span | None]:
    """Whether every path that returns gives a new lazy op (`CallSummary.returns_op`): `return <call>` of a call
    that made one (`ir.RETURNED_OP`) or `return name` of a name holding one (`ir.RETURN_HOLDER`), in every world;
    and where those ops were built when that is one line (`CallSummary.op_built`), else None."""
    returning = [
        p for p in graph.nodes[graph.exit].pred if states[p] is not None and not isinstance(graph.nodes[p].op, ir.Raise)
    ]
    if not returning:
        return False, None
    sites: set[Span | None] = set()
    for pred in returning:
        state = states[pred]
        assert state is not None
        for world in state.worlds:
            objs = world.get(ir.RETURNED_OP, frozenset()) | world.get(ir.RETURN_HOLDER, frozenset())
            if not objs or any(o[0] == "@" or analysis.info(o).kind != "op" or _runs_no_kernel(graph, o) for o in objs):
                return False, None
            sites.update(_built_at(graph, o) for o in objs)
    return True, one_line_site(sites)


def _made_by(graph: Graph, obj: str) -> tuple[ir.Bind, ir.Value] | None:
    """The `Bind` that made the new object `obj` (`n<node>.<index>`) and the value it bound; None for an object made
    otherwise."""
    node, _, index = obj[1:].partition(".")
    if obj[0] != "n" or not node.isdigit() or not index.isdigit() or int(node) >= len(graph.nodes):
        return None
    op = graph.nodes[int(node)].op
    if not isinstance(op, ir.Bind) or int(index) >= len(op.values):
        return None
    return op, op.values[int(index)]


def _runs_no_kernel(graph: Graph, obj: str) -> bool:
    """Whether the op `obj` runs no kernel (`ir.Fresh.launches`: a chain on a tensor constructor's op)."""
    made = _made_by(graph, obj)
    return made is not None and isinstance(made[1], ir.Fresh) and not made[1].launches


def _built_at(graph: Graph, obj: str) -> Span | None:
    """Where the new op `obj` was built: the span of the binding that made it, or where a helper it called built it
    (`ir.Fresh.built`); None for an object made otherwise."""
    made = _made_by(graph, obj)
    if made is None:
        return None
    op, value = made
    return value.built if isinstance(value, ir.Fresh) and value.built is not None else op.span


def _moved_rebinds(
    graph: Graph, exit_state: State, rebinds: dict[ParamPath, ParamPath | ir.Fresh | None]
) -> tuple[SummaryMove, ...]:
    """The paths the callee binds to a new object that it moved on every path to its exit
    (`CallSummary.moved_rebinds`), each with the first move of it in the callee's order."""
    found: list[SummaryMove] = []
    for target, source in sorted(rebinds.items(), key=lambda item: item[0]):
        if not isinstance(source, ir.Fresh):
            continue
        key = ".".join((target[0], *target[1]))
        held = [world.get(key) for world in exit_state.worlds]
        if not held or any(not objs for objs in held):
            continue
        sites: set[int] = set()
        for objs in held:
            assert objs is not None
            if any(o[0] == "@" or o not in exit_state.moved for o in objs):
                break
            sites.update(site for o in objs for site in exit_state.moved[o])
        else:
            moves = [op for site in sorted(sites) if isinstance(op := graph.nodes[site].op, ir.Move)]
            if moves:
                first = min(moves, key=lambda m: (m.span.line, m.span.column))
                found.append(SummaryMove(target, first.span, first.help))
    return tuple(found)


def _cleared(graph: Graph, states: Sequence[State | None], wanted: frozenset[str]) -> dict[ParamPath, set[int]]:
    """The containers below parameters whose stored items a taking method the callee reaches forgets (an `ir.Del`
    of `<path>.<stored>`: `self.ops.pop(0)`, `ops.clear()`), in order, each with the nodes that forget them."""
    found: dict[ParamPath, set[int]] = {}
    for node in graph.nodes:
        op = node.op
        if not isinstance(op, ir.Del) or states[node.id] is None:
            continue
        place = op.place
        if place.root in wanted and place.attrs and place.attrs[-1] == ir.STORED_ATTR and "$" not in place.key:
            found.setdefault((place.root, place.attrs[:-1]), set()).add(node.id)
    return found
