"""Values picked out of places by an expression and bound to a name first: `first = pool[0]`, `o = a or b`,
`out = bufs.get("out", bufs["x"])` (a dict with no `"out"` gives its default), `big = max(pool, key=len)`,
`last = sorted(pool, key=len)[-1]`, `nxt = next(iter(pool))`.  Each may be any place it picks from, so passing
it beside one of them as the written output is an aliasing launch."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    pool = (a, b)
    first = pool[0]
    vecadd.launch(prep, stream, first, b, a)  # expect: E0502
    o = a or b
    vecadd.launch(prep, stream, a, b, o)  # expect: E0502
    bufs = {"x": a, "y": b}
    out = bufs.get("out", bufs["x"])
    vecadd.launch(prep, stream, bufs["x"], b, out)  # expect: E0502
    big = max(pool, key=len)
    vecadd.launch(prep, stream, a, b, big)  # expect: E0502
    last = sorted(pool, key=len)[-1]
    vecadd.launch(prep, stream, b, a, last)  # expect: E0502
    nxt = next(iter(pool))
    vecadd.launch(prep, stream, nxt, b, a)  # expect: E0502
