"""An `AtomicSlice` is a mutable borrow too; the same buffer cannot also be a `DisjointSlice`."""

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


@simt.kernel
@simt.launch_contract(block=256)
def histogram(data: Slice[f32], bins: simt.AtomicSlice[f32], copy: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    bins.fetch_add(0, data[i])
    if (slot := copy.get_mut(idx)) is not None:
        slot.set(data[i])


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.to_device(np.random.rand(n).astype(np.float32), stream)
    b = sk.to_device(np.random.rand(n).astype(np.float32), stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    ph = histogram.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    histogram.launch(ph, stream, a, c, c)  # expect: E0499
