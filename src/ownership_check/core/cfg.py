"""Control-flow graph over the structured flow IR: one node per simple operation.

Nodes are numbered in creation order, which is source order for the structured IR, so "the first use reached
after a move" and "the move happened later in the loop body" are both comparisons of node ids.  Each node also
records whether it lies lexically inside `with simt.unsafe():` (unsafe is lexical, never inherited through
calls) and which loops enclose it.

Exceptions: every operation inside a `try` body may raise, so it gets an edge to each handler, and so does the
point before the body's first operation.  `break`/`continue`/`return` jump straight to their targets (a
`finally` on the way is not re-entered: a known, documented imprecision that can only hide errors, never
invent them).
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
    | ir.CheckBrand
    | ir.RequireUnsafe
    | ir.Return
    | ir.Raise
    | ir.Break
    | ir.Continue
)


@dataclass
class Node:
    id: int
    op: SimpleOp | None  # None: an entry, join or loop-header node
    unsafe: bool
    loops: tuple[int, ...]
    succ: list[int] = field(default_factory=list)
    pred: list[int] = field(default_factory=list)


@dataclass
class _LoopCtx:
    header: int
    breaks: list[int] = field(default_factory=list)


@dataclass
class Graph:
    nodes: list[Node]
    entry: int
    exit: int


class _Builder:
    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.unsafe_depth = 0
        self.loops: list[_LoopCtx] = []
        self.handlers: list[list[int]] = []
        self.exit = -1

    def new(self, op: SimpleOp | None) -> int:
        node = Node(len(self.nodes), op, self.unsafe_depth > 0, tuple(lp.header for lp in self.loops))
        self.nodes.append(node)
        return node.id

    def link(self, preds: list[int], target: int) -> None:
        for p in preds:
            if target not in self.nodes[p].succ:
                self.nodes[p].succ.append(target)
                self.nodes[target].pred.append(p)

    def seq(self, body: ir.Block, preds: list[int]) -> list[int]:
        for op in body:
            preds = self.stmt(op, preds)
        return preds

    def stmt(self, op: ir.Op, preds: list[int]) -> list[int]:
        if isinstance(op, ir.Branch):
            ends: list[int] = []
            for arm in op.arms:
                ends.extend(self.seq(arm, preds))
            return ends
        if isinstance(op, ir.Loop):
            header = self.new(None)
            self.link(preds, header)
            ctx = _LoopCtx(header)
            self.loops.append(ctx)
            self.nodes[header].loops = tuple(lp.header for lp in self.loops)
            head_ends = self.seq(op.head, [header])
            body_ends = self.seq(op.body, head_ends)
            self.link(body_ends, header)
            self.loops.pop()
            else_ends = [] if op.infinite else self.seq(op.orelse, head_ends)
            return else_ends + ctx.breaks
        if isinstance(op, ir.Try):
            handler_entries = [self.new(None) for _ in op.handlers]
            start = self.new(None)
            self.link(preds, start)
            for h in handler_entries:
                self.link([start], h)
            self.handlers.append(handler_entries)
            body_ends = self.seq(op.body, [start])
            self.handlers.pop()
            ends = self.seq(op.orelse, body_ends)
            for entry, handler in zip(handler_entries, op.handlers, strict=True):
                ends.extend(self.seq(handler, [entry]))
            if op.finalbody:
                ends = self.seq(op.finalbody, ends)
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
            self.link([node], self.exit)
            return []
        if isinstance(op, ir.Raise):
            if not self.handlers or not self.handlers[-1]:
                self.link([node], self.exit)
            return []
        if isinstance(op, ir.Break):
            if self.loops:
                self.loops[-1].breaks.append(node)
            return []
        if isinstance(op, ir.Continue):
            if self.loops:
                self.link([node], self.loops[-1].header)
            return []
        return [node]


def build(function: ir.Function) -> Graph:
    """The control-flow graph of one IR function (node 0 is the entry, node 1 the exit)."""
    b = _Builder()
    entry = b.new(None)
    b.exit = b.new(None)
    ends = b.seq(function.body, [entry])
    b.link(ends, b.exit)
    return Graph(b.nodes, entry, b.exit)
