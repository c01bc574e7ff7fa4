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


@dataclass(slots=True)
class Node:
    id: int
    op: SimpleOp | None  # None: an entry, join or loop-header node
    unsafe: bool
    loops: tuple[int, ...]
    succ: list[int] = field(default_factory=list)
    pred: list[int] = field(default_factory=list)

# Operations that are one node, fall through, and are neither a jump nor the end of a path.
_PLAIN = (ir.Bind, ir.View, ir.Borrow, ir.Move, ir.Use, ir.Del, ir.CheckBrand, ir.RequireUnsafe)
_PLAIN_TYPES: frozenset[type] = frozenset(_PLAIN)


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
        self.headers: tuple[int, ...] = ()  # the headers of `loops`, innermost last
        self.handlers: list[list[int]] = []
        self.exit = -1

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
        handlers = self.handlers[-1] if self.handlers else None
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
            if self.handlers:
                for h in self.handlers[-1]:
                    self.link1(node, h)
            return [node]
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
            outer = self.headers
            self.headers = (*outer, header)
            self.nodes[header].loops = self.headers
            head_ends = self.seq(op.head, [header])
            body_ends = self.seq(op.body, head_ends)
            self.link(body_ends, header)
            self.loops.pop()
            self.headers = outer
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
