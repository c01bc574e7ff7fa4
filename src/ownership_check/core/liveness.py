"""Backward liveness of names: which names may still be read after each node.

Borrows held by a pending `DeviceOp` or by a kernel-side `get_mut` result last exactly as long as a name that
refers to the holder is live (Rust's non-lexical lifetimes), so the borrow checker asks this analysis.
Liveness is tracked per root name (`self` for `self.out`): coarse for attribute paths, exact for locals.
"""

from __future__ import annotations

from ownership_check.core import ir
from ownership_check.core.cfg import Graph, SimpleOp


def _uses_and_defs(op: SimpleOp | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if op is None:
        return (), ()
    if isinstance(op, ir.Bind):
        uses = tuple(v.source.root for v in op.values if isinstance(v, ir.FromPlace))
        uses += tuple(t.root for t in op.targets if t.attrs)
        return uses, tuple(t.root for t in op.targets if not t.attrs)
    if isinstance(op, ir.View):
        return (op.source.root,), (op.target.root,) if not op.target.attrs else ()
    if isinstance(op, ir.Del):
        return (), (op.place.root,) if not op.place.attrs else ()
    if isinstance(op, ir.Borrow | ir.Move | ir.Use | ir.CheckBrand):
        return (op.place.root,), ()
    return (), ()


def live_out(graph: Graph) -> list[frozenset[str]]:
    """For each node id, the names that may be read on some path after the node."""
    n = len(graph.nodes)
    facts = [_uses_and_defs(node.op) for node in graph.nodes]
    out: list[frozenset[str]] = [frozenset()] * n
    inn: list[frozenset[str]] = [frozenset()] * n
    work = list(range(n))
    pending = set(work)
    while work:
        i = work.pop()
        pending.discard(i)
        node = graph.nodes[i]
        o: frozenset[str] = frozenset().union(*(inn[s] for s in node.succ)) if node.succ else frozenset()
        out[i] = o
        uses, defs = facts[i]
        new_in = (o - set(defs)) | set(uses) if (uses or defs) else o
        if new_in != inn[i]:
            inn[i] = new_in
            for p in node.pred:
                if p not in pending:
                    pending.add(p)
                    work.append(p)
    return out
