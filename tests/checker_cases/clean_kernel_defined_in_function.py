"""A kernel defined inside a function body, launched with distinct buffers."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


def main() -> None:
    @simt.kernel
    @simt.launch_contract(block=256)
    def shift(a: Slice[f32], c: DisjointSlice[f32]) -> None:
        idx = thread.index_1d()
        i = idx.get()
        if (out := c.get_mut(idx)) is not None:
            out.set(a[i] + 1.0)

    dev = sk.Device.default()
    stream = dev.new_stream()
    c = sk.zeros(1000, f32, stream)
    prepared = shift.prepare(simt.LaunchConfig1D.for_len(1000, block=256), dev)
    a = sk.to_device(np.ones(1000, dtype=np.float32), stream)
    shift.launch(prepared, stream, a, c)
    print(c.to_numpy(stream)[:2])
