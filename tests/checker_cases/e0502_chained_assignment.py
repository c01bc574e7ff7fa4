"""Chained assignment `a = b = sk.zeros(...)` binds ONE buffer to both names: passing both to one launch
aliases an output (E0502 against the input, E0499 against another output)."""

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
    a = b = sk.zeros(n, f32, stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    vecadd.launch(prepared, stream, c, a, b)  # expect: E0502
    pending = also = vecadd.launch_async(prepared, c, c, a)
    vecadd.launch(prepared, stream, c, c, b)  # expect: E0499
    also.sync_on(stream)
    print(pending)  # expect: E0382
