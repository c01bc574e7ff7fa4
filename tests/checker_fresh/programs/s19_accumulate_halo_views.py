# fresh-expect: E0499 at line 34
"""Output shards are computed with itertools.accumulate plus a halo; the halo makes the two mutable views overlap."""
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


def shard_spans(sizes: list, halo: int, n: int) -> list:
    bounds = list(itertools.accumulate([0, *sizes]))
    return [(max(0, lo - halo), min(n, hi + halo)) for lo, hi in itertools.pairwise(bounds)]


def deinterleave(dev, stream, n: int, halo: int):
    src = sk.to_device(np.arange(2 * n, dtype=np.float32), stream)
    out = sk.zeros(n, f32, stream)
    (lo0, hi0), (lo1, hi1) = shard_spans([n // 2, n // 2], halo, n)
    evens = out.view(lo0, hi0)
    odds = out.view(lo1, hi1)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(n // 2, block=64), dev)
    split2.launch(prepared, stream, src, evens, odds)  # BUG
    return out.to_numpy(stream)[:4]


dev = sk.Device.cpu()
print(deinterleave(dev, dev.new_stream(), 256, 2))
