"""A helper (or a nested function) returns a pending `launch_async` op: once the caller ran it, the buffers it
borrowed may move again."""

from typing import Any

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


def pending_add(prep: Any, a: sk.DeviceBuffer, b: sk.DeviceBuffer, c: sk.DeviceBuffer) -> Any:
    """A helper handing back a pending op: it borrows its arguments until the caller runs it."""
    return vecadd.launch_async(prep, a, b, c)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    c = sk.zeros(32, f32, stream)
    d = sk.zeros(32, f32, stream)
    op = pending_add(prep, a, b, c)
    op.sync_on(stream)
    _c2 = c.to(dev, stream)

    def start() -> Any:
        return vecadd.launch_async(prep, a, a, d)

    later = start()
    later.sync_on(stream)
    d2 = d.to(dev, stream)
    print(d2.to_numpy(stream)[:2])
