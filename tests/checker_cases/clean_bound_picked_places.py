"""The clean twin of `e0502_bound_picked_places`: a value picked out of places (`pool[0]`, `a or b`, `bufs.get(...)`,
`max(...)`, `sorted(...)[i]`, `next(iter(...))`) passed beside buffers it cannot be; items of a list taken by
computed indices and bound to names (`src = ring[step % 2]`, `dst = ring[(step + 1) % 2]`) are not assumed
to be one buffer."""

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
    c = sk.zeros(32, f32, stream)
    pool = (a, b)
    first = pool[0]
    vecadd.launch(prep, stream, first, b, c)
    o = a or b
    vecadd.launch(prep, stream, a, b, c)
    vecadd.launch(prep, stream, o, o, c)
    bufs = {"x": a, "y": b}
    out = bufs.get("out", c)
    vecadd.launch(prep, stream, bufs["x"], b, out)
    big = max(pool, key=len)
    vecadd.launch(prep, stream, big, big, c)
    last = sorted(pool, key=len)[-1]
    vecadd.launch(prep, stream, last, a, c)
    nxt = next(iter(pool))
    vecadd.launch(prep, stream, nxt, b, c)
    ring = [sk.zeros(32, f32, stream), sk.zeros(32, f32, stream)]
    for step in range(4):
        src = ring[step % 2]
        dst = ring[(step + 1) % 2]
        vecadd.launch(prep, stream, src, a, dst)
