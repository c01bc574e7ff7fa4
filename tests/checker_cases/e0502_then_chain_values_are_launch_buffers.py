"""`q = p.then(f)` of a `launch_async` op: `f` is handed the launch's own buffers, and `lambda values: values` (or a
helper that returns what it is handed) hands them back, so after `a, b, c = q.sync_on(stream)` each name may be a
buffer an older alias still names; a launch taking both borrows one buffer twice (`AliasingError`).  Inside an
`async def` run by `asyncio.run` too."""

import asyncio

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


def keep(values: tuple[sk.DeviceBuffer, ...]) -> tuple[sk.DeviceBuffer, ...]:
    return values


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    c = sk.zeros(32, f32, stream)
    named = {"a": a, "b": b, "c": c}
    p = vecadd.launch_async(prep, b, a, c)
    q = p.then(lambda values: values)
    a, b, c = q.sync_on(stream)
    vecadd.launch(prep, stream, a, b, named["a"])  # expect: E0502
    pending = vecadd.launch_async(prep, a, b, c)
    kept = pending.then(keep)
    x, y, _z = kept.sync_on(stream)
    vecadd.launch(prep, stream, x, y, a)  # expect: E0502

    async def step() -> None:
        nonlocal a, b, c
        await asyncio.sleep(0)
        r = vecadd.launch_async(prep, named["c"], a, b)
        s = r.then(lambda values: values)
        a, b, c = s.sync_on(stream)
        vecadd.launch(prep, stream, a, b, named["c"])  # expect: E0502

    asyncio.run(step())
