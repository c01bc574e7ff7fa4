"""Control-flow graph over the structured flow IR: one node per simple operation.

Nodes are numbered in creation order, which is source order for the structured IR, so "the first use reached
after a move" and "the move happened later in the loop body" are both comparisons of node ids.  Each node also
records whether it lies lexically inside `with simt.unsafe():` (unsafe is lexical, never inherited through
calls) and which loops enclose it.

Exceptions: every operation inside a `try` body may raise, so it gets an edge to each handler, and so does the point
before the body's first operation; the operations of one statement (`ir.step`, an atomic `Branch`) are one step:
only its last ones get the edges (a launch refuses before it moves anything). A `finally` block is built once per
way of leaving the `try` that actually occurs (falling through, an exception escaping the body, a handler or the
`else`, `return`, `break`, `continue`), and each copy continues where that way of leaving goes: after the statement,
to the enclosing handlers (or the exit), to the next enclosing `finally` of the same kind, to the loop's exit or
header. So a value moved before a `return` inside `try` is moved in the `finally` that the return runs, and a value
moved anywhere in the body is maybe-moved in the exceptional copy, without merging those paths into the fall-through
one.  Copies of one source operation have the same span; `checker` reports each diagnostic once.

An arm of a `Branch` with `tests` is entered through a node of its own (no operation) that `Graph.assume` maps to
the arm's `ir.Test`: the checker refines the facts it keeps about the tested name there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ownership_check.core import ir

SimpleOp = (
    ir.Bind
    | ir.View
    | ir.Borrow
    | ir.Move
    | ir.Use
    | ir.Del
    | ir.Produce
    | ir.CheckBrand
    | ir.RequireUnsafe
    | ir.Suspend
    | ir.Return
    | ir.Raise
    | ir.Break
    | ir.Continue
)


@dataclass(slots=True)
class Node:
    id: int
    op: SimpleOp | None  # None: an entry, join or loop-header node
    unsafe: bool
    loops: tuple[int, ...]
    succ: list[int] = field(default_factory=list)
    pred: list[int] = field(default_factory=list)

# Operations that are one node, fall through, and are neither a jump nor the end of a path.
_PLAIN = (
    ir.Bind, ir.View, ir.Borrow, ir.Move, ir.Use, ir.Del, ir.Produce, ir.CheckBrand, ir.RequireUnsafe, ir.Suspend
)
_PLAIN_TYPES: frozenset[type] = frozenset(_PLAIN)


@dataclass
class _LoopCtx:
    header: int
    breaks: list[int] = field(default_factory=list)
    # where the next iteration is entered from (the header, or a node assuming "more" of `ir.Loop.more`)
    again: int = -1
    # with `ir.Loop.more`: the node assuming "last", through which the end of the body leaves the loop
    done: int = -1


@dataclass
class _FinallyCtx:
    """A `try` with a `finally` being built: the jumps that leave it through the `finally` block."""

    loop_depth: int  # how many loops enclosed the `try` (a break/continue at this depth leaves through finally)
    returns: list[int] = field(default_factory=list)
    breaks: list[int] = field(default_factory=list)
    continues: list[int] = field(default_factory=list)


#: Most operations a `for` over a display is unrolled into (items x body); beyond it, any item per iteration.
_UNROLL_BUDGET = 4000


def _size(block: ir.Block) -> int:
    """Operations in a block, nested ones included."""
    total = 0
    for op in block:
        total += 1
        if isinstance(op, ir.Branch):
            total += sum(_size(arm) for arm in op.arms)
        elif isinstance(op, ir.Loop):
            copies = len(op.head[0].arms) if op.unrolled and isinstance(op.head[0], ir.Branch) else 1
            total += _size(op.head) + copies * _size(op.body) + _size(op.orelse)
        elif isinstance(op, ir.Try):
            total += _size(op.body) + sum(_size(h) for h in op.handlers) + _size(op.orelse) + _size(op.finalbody)
        elif isinstance(op, ir.Unsafe):
            total += _size(op.body)
    return total


def unrollable(op: ir.Loop) -> bool:
    """Whether a loop is analysed as its body once per item, in order (`ir.Loop.unrolled`, within the budget):
    every analysis of the function must agree on it, so that each sees the same paths."""
    head = op.head
    if not op.unrolled or len(head) != 1 or not isinstance(head[0], ir.Branch):
        return False
    return len(head[0].arms) * (_size(op.body) + 1) <= _UNROLL_BUDGET


@dataclass
class Graph:
    nodes: list[Node]
    entry: int
    exit: int
    # the entry node of a `Branch` arm -> what the arm's condition says there (`ir.Branch.tests`)
    assume: dict[int, ir.Test] = field(default_factory=dict)


class _Builder:
    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.unsafe_depth = 0
        self.loops: list[_LoopCtx] = []
        self.headers: tuple[int, ...] = ()  # the headers of `loops`, innermost last
        self.handlers: list[list[int]] = []
        # per `handlers` level: where an exception its handlers do not catch goes (a step that is not `caught`):
        # the `finally` (its entry for exceptions), or the handlers enclosing a `try` without one
        self.escapes: list[list[int]] = []
        # inside a statement's step (`atomic`): the depth of `handlers` whose innermost list gets no edges from
        # plain operations; -1 outside any step
        self.quiet = -1
        self.finals: list[_FinallyCtx] = []
        self.exit = -1
        self.assume: dict[int, ir.Test] = {}

    def new(self, op: SimpleOp | None) -> int:
        nodes = self.nodes
        node = Node(len(nodes), op, self.unsafe_depth > 0, self.headers, [], [])
        nodes.append(node)
        return node.id

    def link(self, preds: list[int], target: int) -> None:
        nodes = self.nodes
        for p in preds:
            succ = nodes[p].succ
            if target not in succ:
                succ.append(target)
                nodes[target].pred.append(p)

    def link1(self, pred: int, target: int) -> None:
        succ = self.nodes[pred].succ
        if target not in succ:
            succ.append(target)
            self.nodes[target].pred.append(pred)

    def seq(self, body: ir.Block, preds: list[int]) -> list[int]:
        # Plain operations (most of a body) are linked inline; the enclosing unsafe/loop/handler context is the
        # same for all of them, because `stmt` restores it after each compound statement.
        nodes = self.nodes
        unsafe = self.unsafe_depth > 0
        headers = self.headers
        handlers = self.handlers[-1] if self.handlers and self.quiet != len(self.handlers) else None
        plain = _PLAIN_TYPES
        for op in body:
            if type(op) not in plain:
                preds = self.stmt(op, preds)
                continue
            nid = len(nodes)
            node = Node(nid, op, unsafe, headers, [], [])  # type: ignore[arg-type]
            nodes.append(node)
            into = node.pred
            for p in preds:
                succ = nodes[p].succ
                if nid not in succ:
                    succ.append(nid)
                    into.append(p)
            if handlers:
                out = node.succ
                for h in handlers:
                    if h not in out:
                        out.append(h)
                        nodes[h].pred.append(nid)
            preds = [nid]
        return preds

    def stmt(self, op: ir.Op, preds: list[int]) -> list[int]:
        if isinstance(op, _PLAIN):
            node = self.new(op)
            self.link(preds, node)
            if self.handlers and self.quiet != len(self.handlers):
                for h in self.handlers[-1]:
                    self.link1(node, h)
            return [node]
        if isinstance(op, ir.Branch) and op.atomic:
            return self.atomic(op.arms[0], preds, op.caught)
        if isinstance(op, ir.Branch):
            ends: list[int] = []
            if op.tests:
                # each arm is entered through a node of its own that records what its condition says
                for arm, test in zip(op.arms, op.tests, strict=True):
                    entry = self.new(None)
                    self.link(preds, entry)
                    self.assume[entry] = test
                    ends.extend(self.seq(arm, [entry]))
                return ends
            for arm in op.arms:
                ends.extend(self.seq(arm, preds))
            return ends
        if isinstance(op, ir.Loop) and unrollable(op):
            return self.unrolled(op, preds)
        if isinstance(op, ir.Loop):
            header = self.new(None)
            self.link(preds, header)
            ctx = _LoopCtx(header, again=header)
            self.loops.append(ctx)
            outer = self.headers
            self.headers = (*outer, header)
            self.nodes[header].loops = self.headers
            if op.more is not None:
                # the next iteration runs only where this one is not the last, and the last one leaves the loop
                # (`ir.Loop.more`)
                ctx.again, ctx.done = self.new(None), self.new(None)
                self.assume[ctx.again] = ir.Test(op.more, "more")
                self.assume[ctx.done] = ir.Test(op.more, "last")
                self.link([ctx.again], header)
            head_ends = self.seq(op.head, [header])
            body_ends = self.seq(op.body, head_ends)
            self.link(body_ends, ctx.again)
            if op.more is not None:
                self.link(body_ends, ctx.done)
            self.loops.pop()
            self.headers = outer
            leaving = head_ends if op.more is None else [*head_ends, ctx.done]
            else_ends = [] if op.infinite else self.seq(op.orelse, leaving)
            return else_ends + ctx.breaks
        if isinstance(op, ir.Try):
            if op.finalbody:
                return self.try_finally(op, preds)
            handler_entries = [self.new(None) for _ in op.handlers]
            start = self.new(None)
            self.link(preds, start)
            for h in handler_entries:
                self.link([start], h)
            self.escapes.append(list(self.handlers[-1]) if self.handlers else [])
            self.handlers.append(handler_entries)
            body_ends = self.seq(op.body, [start])
            self.handlers.pop()
            self.escapes.pop()
            ends = self.seq(op.orelse, body_ends)
            for entry, handler in zip(handler_entries, op.handlers, strict=True):
                ends.extend(self.seq(handler, [entry]))
            return ends
        if isinstance(op, ir.Unsafe):
            self.unsafe_depth += 1
            try:
                return self.seq(op.body, preds)
            finally:
                self.unsafe_depth -= 1
        node = self.new(op)
        self.link(preds, node)
        if self.handlers:
            for h in self.handlers[-1]:
                self.link([node], h)
        if isinstance(op, ir.Return):
            if self.finals:
                self.finals[-1].returns.append(node)
            else:
                self.link([node], self.exit)
            return []
        if isinstance(op, ir.Raise):
            if not self.handlers or not self.handlers[-1]:
                self.link([node], self.exit)
            return []
        if isinstance(op, ir.Break):
            self.leave_loop([node], continuing=False)
            return []
        if isinstance(op, ir.Continue):
            self.leave_loop([node], continuing=True)
            return []
        return [node]

    def atomic(self, body: ir.Block, preds: list[int], caught: bool = True) -> list[int]:
        """One statement's operations (`ir.step`): no edge to the enclosing handlers from inside it (a `try`
        nested in it keeps its own), then one from each of its ends, where the statement is done (to the
        `escapes` only, when the handlers cannot catch what it raises)."""
        outer = self.quiet
        self.quiet = len(self.handlers)
        try:
            ends = self.seq(body, preds)
        finally:
            self.quiet = outer
        if self.handlers and self.quiet != len(self.handlers):
            targets = self.handlers[-1] if caught or not self.escapes else self.escapes[-1]
            for end in ends:
                for h in targets:
                    self.link1(end, h)
        return ends

    def unrolled(self, op: ir.Loop, preds: list[int]) -> list[int]:
        """`for x in (a, b): body` as `x = a; body; x = b; body` (`continue` goes on to the next item, `break`
        leaves after the last): the loop runs exactly once per displayed item, in order, so moving `x` in the body
        moves each item once, never one twice."""
        branch = op.head[0]
        assert isinstance(branch, ir.Branch)
        entry = self.new(None)
        self.link(preds, entry)
        breaks: list[int] = []
        for arm in branch.arms:
            following = self.new(None)  # where this iteration's `continue` and its end go: the next item
            ctx = _LoopCtx(following)
            self.loops.append(ctx)
            ends = self.seq(op.body, self.seq(arm, [entry]))
            self.loops.pop()
            self.link(ends, following)
            breaks.extend(ctx.breaks)
            entry = following
        return self.seq(op.orelse, [entry]) + breaks

    def leave_loop(self, sources: list[int], continuing: bool) -> None:
        """`break`/`continue` from `sources`: through the innermost `finally` inside the loop, if any."""
        if not self.loops:
            return
        final = self.finals[-1] if self.finals else None
        if final is not None and final.loop_depth == len(self.loops):
            (final.continues if continuing else final.breaks).extend(sources)
        elif continuing:
            self.link(sources, self.loops[-1].again)
            if self.loops[-1].done >= 0:
                self.link(sources, self.loops[-1].done)
        else:
            self.loops[-1].breaks.extend(sources)

    def try_finally(self, op: ir.Try, preds: list[int]) -> list[int]:
        outer_handlers = self.handlers[-1] if self.handlers else []
        raised = self.new(None)  # an exception escaping the body, a handler or the `else` enters `finally` here
        handler_entries = [self.new(None) for _ in op.handlers]
        start = self.new(None)
        self.link(preds, start)
        self.link([start], raised)
        for h in handler_entries:
            self.link([start], h)
        ctx = _FinallyCtx(len(self.loops))
        self.finals.append(ctx)
        self.escapes.append([raised])
        self.handlers.append([*handler_entries, raised])
        body_ends = self.seq(op.body, [start])
        self.handlers[-1] = [*outer_handlers, raised]
        ends = self.seq(op.orelse, body_ends)
        for entry, handler in zip(handler_entries, op.handlers, strict=True):
            ends.extend(self.seq(handler, [entry]))
        self.handlers.pop()
        self.escapes.pop()
        self.finals.pop()
        ends = self.seq(op.finalbody, ends)
        if self.nodes[raised].pred:
            raised_ends = self.seq(op.finalbody, [raised])
            self.link(raised_ends, self.exit)
            for h in outer_handlers:
                self.link(raised_ends, h)
        if ctx.returns:
            returned = self.seq(op.finalbody, ctx.returns)
            if self.finals:
                self.finals[-1].returns.extend(returned)
            else:
                self.link(returned, self.exit)
        if ctx.breaks:
            self.leave_loop(self.seq(op.finalbody, ctx.breaks), continuing=False)
        if ctx.continues:
            self.leave_loop(self.seq(op.finalbody, ctx.continues), continuing=True)
        return ends


def build(function: ir.Function) -> Graph:
    """The control-flow graph of one IR function (node 0 is the entry, node 1 the exit)."""
    b = _Builder()
    entry = b.new(None)
    b.exit = b.new(None)
    ends = b.seq(function.body, [entry])
    b.link(ends, b.exit)
    return Graph(b.nodes, entry, b.exit, b.assume)
