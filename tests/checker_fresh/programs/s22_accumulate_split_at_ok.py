# fresh-expect: clean
"""Shard boundaries come from itertools.accumulate, and the two mutable outputs are the split_at halves of one
buffer."""
import itertools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], evens: DisjointSlice[f32], odds: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (e := evens.get_mut(idx)) is not None:
        e.set(src[i])


def deinterleave(dev, stream, n: int):
    src = sk.to_device(np.arange(2 * n, dtype=np.float32), stream)
    out = sk.zeros(n, f32, stream)
    bounds = list(itertools.accumulate([0, n // 2, n // 2]))
    evens, odds = out.split_at(bounds[1])
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(n // 2, block=64), dev)
    split2.launch(prepared, stream, src, evens, odds)
    return out.to_numpy(stream)[:4]


dev = sk.Device.cpu()
print(deinterleave(dev, dev.new_stream(), 256))
