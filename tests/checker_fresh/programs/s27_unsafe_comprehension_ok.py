# fresh-expect: clean
"""Unchecked launches are issued from a list comprehension written inside the unsafe block."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


def scale_all(stream, pairs: list, n: int) -> list:
    config = simt.LaunchConfig1D.for_len(n, block=64)
    with simt.unsafe():
        [scale.launch_unchecked(config, stream, src, dst, 2.0) for src, dst in pairs]
    return [dst.to_numpy(stream)[0] for _, dst in pairs]


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 128
pairs = [(sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream)) for _ in range(3)]
print(scale_all(stream, pairs, n))
