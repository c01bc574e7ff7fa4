"""The look-alike of `clean_loop_rebinding_pending_op`: without the re-binding, the next iteration syncs the
DeviceOp the previous iteration consumed."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.zeros(n, f32, stream)
    b = sk.zeros(n, f32, stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    pending = vecadd.launch_async(prepared, a, b, c)
    for _ in range(4):
        if pending is not None:
            pending.sync_on(stream)  # expect: E0382
