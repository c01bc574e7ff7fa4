"""Backward liveness of names: which names may still be read after each node.

Borrows held by a pending `DeviceOp` or by a kernel-side `get_mut` result last exactly as long as a name that
refers to the holder is live (Rust's non-lexical lifetimes), so the borrow checker asks this analysis.
Liveness is tracked per root name (`self` for `self.out`): coarse for attribute paths, exact for locals.

Sets of names are bitsets (Python ints over an index of the function's root names): the checker asks for
liveness only when a held loan must be checked, and then the whole function's fixed point costs a few integer
operations per node.
"""

from __future__ import annotations

from collections.abc import Sequence

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


def live_bits(graph: Graph) -> tuple[dict[str, int], list[int]]:
    """`(index, out)`: bit `index[name]` of `out[node id]` is set when `name` may be read after the node."""
    index, out, _ = live_bits_around(graph)
    return index, out


def live_bits_around(graph: Graph, exit_live: Sequence[str] = ()) -> tuple[dict[str, int], list[int], list[int]]:
    """`(index, out, inn)`: `live_bits`, and bit `index[name]` of `inn[node id]` set when `name` may be read at
    the node or after it (what the state before the node can still be asked about).  `exit_live`: names read
    after the function returns (its caller's values a nested function rebinds), live at the exit."""
    index: dict[str, int] = {}
    n = len(graph.nodes)
    gen = [0] * n
    keep = [-1] * n  # the complement of the node's definitions
    for name in exit_live:
        gen[graph.exit] |= 1 << index.setdefault(name, len(index))
    for node in graph.nodes:
        uses, defs = _uses_and_defs(node.op)
        if not uses and not defs:
            continue
        g = 0
        for name in uses:
            g |= 1 << index.setdefault(name, len(index))
        d = 0
        for name in defs:
            d |= 1 << index.setdefault(name, len(index))
        gen[node.id] = g
        keep[node.id] = ~d
    out = [0] * n
    inn = [0] * n
    nodes = graph.nodes
    work = list(range(n))
    pending = set(work)
    while work:
        i = work.pop()
        pending.discard(i)
        o = 0
        for s in nodes[i].succ:
            o |= inn[s]
        out[i] = o
        new_in = (o & keep[i]) | gen[i]
        if new_in != inn[i]:
            inn[i] = new_in
            for p in nodes[i].pred:
                if p not in pending:
                    pending.add(p)
                    work.append(p)
    return index, out, inn


def live_out(graph: Graph) -> list[frozenset[str]]:
    """For each node id, the names that may be read on some path after the node."""
    index, out = live_bits(graph)
    names = sorted(index, key=index.__getitem__)
    return [frozenset(name for b, name in enumerate(names) if bits >> b & 1) for bits in out]
