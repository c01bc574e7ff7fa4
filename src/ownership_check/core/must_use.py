"""Must-use: a lazy `DeviceOp` that is built and never run (W0003), like Rust's `#[must_use]`.

A tile launch `add(z, x, y)`, a SIMT `launch_async` and the combinators (`then`, `zip`, `first`, `shared`) only
*describe* work; the kernel runs when `sync_on`/`sync`/`graph_on` consumes the op.  An op that nobody consumes
is a kernel that silently never runs, and the tensors moved into it are lost with it.  The front ends mark each
such call with `ir.Produce`: dropped at once (an expression statement) or bound to a name.  This module follows
the bound ones through the function and reports a binding that is dropped on some path without being consumed:

    Produce(op) --Use / Move / Borrow / Del of op (or of an alias)--> consumed: never reported
        |
        +-- op reassigned, or the function returns / ends, while a path still holds it --> W0003

"Consumed" is deliberately generous, so that the warning never fires on code that does run its op: any read of
the name counts (passing it to a call, returning it, storing it in a container or an attribute, capturing it in
a nested function, chaining it), and so does `del op`, the way to drop one on purpose.  Binding it to an
attribute (`self.op = add(...)`) or unpacking it is an escape too: only plain names are followed.

Paths ended by an exception are not reported (the op was interrupted, not forgotten); a handler that returns
normally is a normal path for the ops built before its `try`.  At module level, falling off the end is not a
drop (a module's globals outlive its top level), and neither is leaving a function while a name it declares
`global` or `nonlocal` holds the op (`ir.Function.escaping`): the enclosing scope consumes it later.
`if op is None` arms (`ir.Fresh("none")`) hold no op.

Branches on a name (`ir.Branch.tests`: `if flag:`, `if op is not None:`) are correlated as far as the values the
name may have allow: a name bound to a literal `True` never enters the arm of `if not flag:`, so `flag = True`,
`if flag: op = k(...)`, `if flag: op.sync_on(s)` drops nothing.  What each tested name may be (None, a literal
True or False, another value) is kept in the state under `?name` until the name is rebound.

The analysis is a small abstract interpreter over the structured IR (not the CFG of `checker`), because it needs
to tell a normal exit from an exceptional one and to run `finally` blocks on the paths that leave through them.
State: place key -> the `Produce` sites it may hold unconsumed, joined as "may" facts; loops run to a fixed point.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ownership_check.core import cfg, ir, messages
from ownership_check.diagnostics import Diagnostic, Span

Holders = dict[str, frozenset[int]]

#: Where the name a place key starts with ends (`op` in `op`, `op.attr`, `op$e0`).
_ROOT_END = re.compile(r"[.$]")

#: Fixed-point rounds of one loop before the analysis settles for what it has (a may-analysis only grows).
MAX_ROUNDS = 64


@dataclass
class _Flow:
    """How a block can be left: falling through (`fall`, None when no path does), `break`, `continue`."""

    fall: Holders | None
    breaks: list[Holders] = field(default_factory=list)
    continues: list[Holders] = field(default_factory=list)


@dataclass
class _TryBody:
    """A `try` body being interpreted: what its handlers may start from."""

    seen: list[Holders] = field(default_factory=list)
    produced: set[int] = field(default_factory=set)
    consumed: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class _Drop:
    span: Span | None
    returned: bool


#: The roots holding the parts of a yielded or returned tuple (`ir.yielded_part`, `ir.returned_part`): the caller
#: gets what they hold.
_PART_HOLDERS = (ir.YIELD_PART, ir.RETURN_PART)

#: The key prefix under which a state keeps what a name some branch tests (`ir.Branch.tests`) may be: negative
#: "sites", one per kind of value (`_NONE`...); a name without such a key may be anything.
_FACT = "?"
_NONE, _TRUE, _FALSE, _SOME = -1, -2, -3, -4  # None, a literal True, a literal False, any other value but None
_ANY: frozenset[int] = frozenset((_NONE, _TRUE, _FALSE, _SOME))
#: What a name may be after a `Fresh` value of a kind is bound to it (any kind not listed: anything).
_KIND_VALUES: dict[str, frozenset[int]] = {
    "literal_none": frozenset((_NONE,)),
    "none": frozenset((_NONE,)),
    "literal_true": frozenset((_TRUE,)),
    "literal_false": frozenset((_FALSE,)),
    "op": frozenset((_SOME,)),
    "shared_op": frozenset((_SOME,)),
}
#: What a name may be in the arm whose `ir.Test` says a fact (any other value's truthiness may change).
_TEST_VALUES: dict[str, frozenset[int]] = {
    "none": frozenset((_NONE,)),
    "some": frozenset((_TRUE, _FALSE, _SOME)),
    "true": frozenset((_TRUE, _SOME)),
    "false": frozenset((_NONE, _FALSE, _SOME)),
}


def _join(states: list[Holders]) -> Holders | None:
    if not states:
        return None
    out: Holders = dict(states[0])
    for state in states[1:]:
        for key, sites in state.items():
            old = out.get(key)
            out[key] = sites if old is None else old | sites
    if len(states) > 1:
        for key in [k for k in out if k[0] == _FACT]:
            if any(key not in state for state in states):
                del out[key]  # anything on some path
    return out


def _held(state: Holders) -> frozenset[int]:
    if not state:
        return frozenset()
    return frozenset().union(*(sites for key, sites in state.items() if key[0] != _FACT))


def _contains_produce(block: ir.Block) -> bool:
    for op in block:
        if isinstance(op, ir.Produce):
            return True
        if isinstance(op, ir.Branch):
            if any(_contains_produce(arm) for arm in op.arms):
                return True
        elif isinstance(op, ir.Loop):
            if _contains_produce(op.head) or _contains_produce(op.body) or _contains_produce(op.orelse):
                return True
        elif isinstance(op, ir.Try):
            parts = (op.body, *op.handlers, op.orelse, op.finalbody)
            if any(_contains_produce(part) for part in parts):
                return True
        elif isinstance(op, ir.Unsafe) and _contains_produce(op.body):
            return True
    return False


def _tested_names(block: ir.Block, found: set[str] | None = None) -> frozenset[str]:
    """The names the `ir.Branch.tests` of `block` (nested blocks included) are about."""
    out: set[str] = set() if found is None else found
    for op in block:
        if isinstance(op, ir.Branch):
            out.update(test.name for test in op.tests)
            for arm in op.arms:
                _tested_names(arm, out)
        elif isinstance(op, ir.Loop):
            for part in (op.head, op.body, op.orelse):
                _tested_names(part, out)
        elif isinstance(op, ir.Try):
            for part in (op.body, *op.handlers, op.orelse, op.finalbody):
                _tested_names(part, out)
        elif isinstance(op, ir.Unsafe):
            _tested_names(op.body, out)
    return frozenset(out)


class _Interpreter:
    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.module = function.name == "<module>"
        self.sites: dict[ir.Produce, int] = {}
        self.produced: list[ir.Produce] = []
        self.drops: dict[int, _Drop] = {}
        self.discarded: list[ir.Produce] = []
        self.finals: list[tuple[ir.Block, int]] = []  # enclosing `finally` blocks, with their loop depth
        self.loop_depth = 0
        # per loop index of an `ir.Loop.more`, which of its iteration facts the body is interpreted under
        self.iteration: dict[str, str] = {}
        self.tries: list[_TryBody] = []
        self.tested = _tested_names(function.body)  # names some branch tests: what each may be is followed

    # --- facts ----------------------------------------------------------------------------------------------

    def site(self, op: ir.Produce) -> int:
        found = self.sites.get(op)
        if found is None:
            found = self.sites[op] = len(self.produced)
            self.produced.append(op)
        return found

    def drop(self, sites: frozenset[int], span: Span | None, returned: bool) -> None:
        for site in sorted(sites):
            self.drops.setdefault(site, _Drop(span, returned))

    def consume(self, state: Holders, place: ir.Place) -> Holders:
        sites = state.get(place.key, frozenset())
        if place.attrs:
            sites = sites | state.get(place.root, frozenset())
        items = place.key + "$e"  # a read of a container reads its items (`args = (x, op)`, then `k(*args)`)
        for key, held in state.items():
            if key.startswith(items):
                sites = sites | held
        if not sites:
            return state
        for body in self.tries:
            body.consumed |= sites
        return {key: held - sites for key, held in state.items() if held - sites}

    def bind(self, state: Holders, op: ir.Bind) -> Holders:
        values: list[frozenset[int]] = []
        for target, value in zip(op.targets, op.values, strict=False):
            if isinstance(value, ir.FromPlace):
                if target.attrs or target.root.startswith(_PART_HOLDERS):
                    # stored into an object, or a part of a yielded / returned tuple: it escapes
                    state = self.consume(state, value.source)
                    values.append(frozenset())
                else:
                    values.append(state.get(value.source.key, frozenset()))
            else:
                values.append(frozenset())
        before = _held(state)
        out = dict(state)
        silent: set[int] = set()
        for target, value, sites in zip(op.targets, op.values, values, strict=False):
            if isinstance(value, ir.Fresh) and value.kind == "none":
                silent |= out.get(target.key, frozenset())  # `if op is None:` arm: no op on this path
            if sites:
                out[target.key] = sites
            else:
                out.pop(target.key, None)
        lost = before - _held(out) - silent
        if lost:
            self.drop(frozenset(lost), op.span, returned=False)
        if self.tested:
            for target, value in zip(op.targets, op.values, strict=False):
                if not target.attrs and target.root in self.tested:
                    may = _KIND_VALUES.get(value.kind) if isinstance(value, ir.Fresh) else None
                    if may is None:
                        out.pop(_FACT + target.root, None)
                    else:
                        out[_FACT + target.root] = may
        return out

    def forget(self, state: Holders, place: ir.Place) -> Holders:
        """`state` once `place` is unbound or rebound to something unknown (`del x`, a view bound to `x`)."""
        if place.attrs or _FACT + place.root not in state:
            return state
        out = dict(state)
        del out[_FACT + place.root]
        return out

    def exit(self, state: Holders, span: Span | None) -> None:
        """A normal exit of the function (a `return` at `span`, or the end): every op still held is dropped."""
        if self.module:
            return
        if self.function.escaping:  # a `global`/`nonlocal` name outlives the call: what it holds is not dropped
            escaping = self.function.escaping
            state = {key: held for key, held in state.items() if _ROOT_END.split(key, 1)[0] not in escaping}
        left = self.through_finals(state, 0)
        if left is not None and (held := _held(left)):
            self.drop(held, span, returned=span is not None)

    def leave_loop(self, state: Holders) -> Holders | None:
        """A `break`/`continue` state after the `finally` blocks it leaves through (inside the loop)."""
        return self.through_finals(state, self.loop_depth)

    def through_finals(self, state: Holders, depth: int) -> Holders | None:
        """`state` after the enclosing `finally` blocks entered at loop depth `depth` or deeper, innermost first
        (None when one of them does not fall through).  Each runs with only the blocks outside it enclosing it."""
        finals = self.finals
        try:
            for index in range(len(finals) - 1, -1, -1):
                body, entered = finals[index]
                if entered < depth:
                    break
                self.finals = finals[:index]
                flow = self.block(body, state)
                if flow.fall is None:
                    return None
                state = flow.fall
        finally:
            self.finals = finals
        return state

    # --- blocks ---------------------------------------------------------------------------------------------

    def block(self, ops: ir.Block, state: Holders) -> _Flow:
        flow = _Flow(state)
        for op in ops:
            current = flow.fall
            if current is None:
                break
            for body in self.tries:
                body.seen.append(current)
            step = self.step(op, current)
            flow.fall = step.fall
            flow.breaks.extend(step.breaks)
            flow.continues.extend(step.continues)
        return flow

    def step(self, op: ir.Op, state: Holders) -> _Flow:
        if isinstance(op, ir.Produce):
            if op.target is None:
                self.discarded.append(op)
                return _Flow(state)
            site = self.site(op)
            for body in self.tries:
                body.produced.add(site)
            out = dict(state)
            out[op.target.key] = out.get(op.target.key, frozenset()) | {site}
            return _Flow(out)
        if isinstance(op, ir.Bind):
            return _Flow(self.bind(state, op))
        if isinstance(op, ir.Del):
            return _Flow(self.forget(self.consume(state, op.place), op.place))
        if isinstance(op, ir.Use | ir.Move | ir.Borrow | ir.CheckBrand):
            return _Flow(self.consume(state, op.place))
        if isinstance(op, ir.View):
            return _Flow(self.forget(self.consume(state, op.source), op.target))
        if isinstance(op, ir.Return):
            self.exit(state, op.span)
            return _Flow(None)
        if isinstance(op, ir.Raise):
            return _Flow(None)
        if isinstance(op, ir.Break):
            left = self.leave_loop(state)
            return _Flow(None, breaks=[left] if left is not None else [])
        if isinstance(op, ir.Continue):
            left = self.leave_loop(state)
            return _Flow(None, continues=[left] if left is not None else [])
        if isinstance(op, ir.Branch) and op.tests:
            arms = []
            for arm, test in zip(op.arms, op.tests, strict=True):
                if test.fact not in _TEST_VALUES:  # whether a loop's iteration is its last (`ir.Loop.more`)
                    if self.iteration.get(test.name, test.fact) == test.fact:
                        arms.append(self.block(arm, state))
                    continue
                key = _FACT + test.name
                may = state.get(key, _ANY) & _TEST_VALUES[test.fact]
                if may:  # else no value the name may have here enters this arm
                    arms.append(self.block(arm, {**state, key: may}))
            return _Flow(
                _join([a.fall for a in arms if a.fall is not None]),
                [s for a in arms for s in a.breaks],
                [s for a in arms for s in a.continues],
            )
        if isinstance(op, ir.Branch):
            arms = [self.block(arm, state) for arm in op.arms] or [_Flow(state)]
            return _Flow(
                _join([a.fall for a in arms if a.fall is not None]),
                [s for a in arms for s in a.breaks],
                [s for a in arms for s in a.continues],
            )
        if isinstance(op, ir.Loop):
            return self.unrolled(op, state) if cfg.unrollable(op) and op.more is None else self.loop(op, state)
        if isinstance(op, ir.Try):
            return self.try_(op, state)
        if isinstance(op, ir.Unsafe):
            return self.block(op.body, state)
        return _Flow(state)  # CheckBrand-free checks: RequireUnsafe

    def unrolled(self, op: ir.Loop, entry: Holders) -> _Flow:
        """A loop over a display, once per item in order (`cfg.unrollable`): a loop over one item runs its body
        once, so an op its body binds and the code after the loop runs is not dropped by a second iteration."""
        branch = op.head[0]
        assert isinstance(branch, ir.Branch)
        self.loop_depth += 1
        breaks: list[Holders] = []
        state: Holders | None = entry
        try:
            for arm in branch.arms:
                if state is None:
                    break
                bound = self.block(arm, state)
                body = self.body(op, bound.fall, "more")
                breaks.extend(body.breaks)
                state = _join([*([body.fall] if body.fall is not None else []), *body.continues])
        finally:
            self.loop_depth -= 1
        return self.leave(op, breaks, state)

    def leave(self, op: ir.Loop, breaks: list[Holders], ended: Holders | None) -> _Flow:
        """How a loop is left: by its breaks, and (unless it never ends) by its `else` run from `ended`, the state
        its last iteration's test leaves it in."""
        if ended is None or op.infinite:
            return _Flow(_join(breaks))
        orelse = self.block(op.orelse, ended)
        exits = [*breaks, *([orelse.fall] if orelse.fall is not None else [])]
        return _Flow(_join(exits), orelse.breaks, orelse.continues)

    def loop(self, op: ir.Loop, entry: Holders) -> _Flow:
        """A loop to a fixed point.  Its exit is taken after at least one iteration when the body can come back
        around: a loop whose body consumes an op is not reported for the path that skips the body (`for _ in
        range(4): pending.sync_on(s)`), so the warning stays on what a loop that runs does."""
        self.loop_depth += 1
        head_in = entry
        back: Holders | None = None
        try:
            for _ in range(MAX_ROUNDS):
                head = self.block(op.head, head_in)
                body = self.body(op, head.fall, "more")
                back = _join([*([body.fall] if body.fall is not None else []), *body.continues])
                widened = _join([head_in, back]) if back is not None else head_in
                assert widened is not None
                if widened == head_in:
                    break
                head_in = widened
            breaks = list(body.breaks)
            if op.more is not None:
                # the loop is left after an iteration its body knows to be the last
                last = self.body(op, head.fall, "last")
                back = _join([*([last.fall] if last.fall is not None else []), *last.continues])
                breaks.extend(last.breaks)
            after = self.block(op.head, back) if back is not None else head
        finally:
            self.loop_depth -= 1
        return self.leave(op, breaks, after.fall)

    def body(self, op: ir.Loop, state: Holders | None, fact: str) -> _Flow:
        """A loop's body from `state`, where it tests whether its iteration is the last (`ir.Loop.more`) under
        `fact`: "more" for the iterations the loop comes back around from, "last" for the one it leaves after."""
        if state is None:
            return _Flow(None)
        if op.more is None:
            return self.block(op.body, state)
        self.iteration[op.more] = fact
        try:
            return self.block(op.body, state)
        finally:
            del self.iteration[op.more]

    def try_(self, op: ir.Try, state: Holders) -> _Flow:
        if op.finalbody:
            self.finals.append((op.finalbody, self.loop_depth))
        try:
            watch = _TryBody()
            self.tries.append(watch)
            try:
                body = self.block(op.body, state)
            finally:
                self.tries.pop()
            for outer in self.tries:  # what the body produced or consumed, it did inside the outer bodies too
                outer.produced |= watch.produced
                outer.consumed |= watch.consumed
            gone = frozenset(watch.produced | watch.consumed)
            entry = _join([state, *watch.seen])
            assert entry is not None
            handler_in = {key: held - gone for key, held in entry.items() if held - gone}
            flows = [self.block(op.orelse, body.fall)] if body.fall is not None else []
            flows.extend(self.block(handler, handler_in) for handler in op.handlers)
            breaks = [s for f in flows for s in f.breaks] + body.breaks
            continues = [s for f in flows for s in f.continues] + body.continues
        finally:
            if op.finalbody:
                self.finals.pop()
        fall = _join([f.fall for f in flows if f.fall is not None])
        if fall is not None and op.finalbody:
            final = self.block(op.finalbody, fall)
            return _Flow(final.fall, breaks + final.breaks, continues + final.continues)
        return _Flow(fall, breaks, continues)

    # --- the whole function ---------------------------------------------------------------------------------

    def run(self) -> list[Diagnostic]:
        flow = self.block(self.function.body, {})
        if flow.fall is not None:
            self.exit(flow.fall, None)
        path = self.function.path
        out: list[Diagnostic] = []
        seen: set[Span] = set()
        for op in self.discarded:
            if op.span not in seen:
                seen.add(op.span)
                out.append(messages.unused_device_op(path, op.span, op.what, op.built))
        for site, dropped in sorted(self.drops.items()):
            op = self.produced[site]
            if op.target is None or op.span in seen:
                continue
            seen.add(op.span)
            out.append(
                messages.device_op_dropped(path, op.target.text, op.span, dropped.span, dropped.returned, op.built)
            )
        return sorted(out, key=lambda d: (d.span.line, d.span.column))


def check_must_use(function: ir.Function) -> list[Diagnostic]:
    """W0003 for every `DeviceOp` of `function` that is built and, on some path, never run."""
    if not _contains_produce(function.body):
        return []
    return _Interpreter(function).run()
