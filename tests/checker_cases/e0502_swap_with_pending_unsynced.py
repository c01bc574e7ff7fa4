"""The look-alike of `clean_swap_after_synced_pending`: the pending launch is never synced, so after the swap the
next launch writes the buffer the pending one still reads."""

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
    x = sk.zeros(n, f32, stream)
    b = sk.zeros(n, f32, stream)
    z = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    ops = []
    for _ in range(4):
        pending = vecadd.launch_async(prepared, x, b, z)  # expect: E0502
        ops.append(pending)
        x, z = z, x
