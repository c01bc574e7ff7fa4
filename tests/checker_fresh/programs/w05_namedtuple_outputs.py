# fresh-expect: E0499 at line 40
"""Layer-norm statistics: a helper allocates the outputs, sharing memory when asked to save it."""
from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def moments(x: Slice[f32], mean: DisjointSlice[f32], sq: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (m := mean.get_mut(idx)) is not None:
        m.set(x[i] * f32(0.5))
    idx2 = thread.index_1d()
    if (s := sq.get_mut(idx2)) is not None:
        s.set(x[i] * x[i])


class Moments(NamedTuple):
    mean: sk.DeviceBuffer[f32]
    sq: sk.DeviceBuffer[f32]


def allocate(n: int, stream: sk.Stream, low_memory: bool) -> Moments:
    first = sk.zeros(n, f32, stream)
    if low_memory:
        return Moments(first, first)
    return Moments(first, sk.zeros(n, f32, stream))


def layer_stats(dev: sk.Device, stream: sk.Stream, x: sk.DeviceBuffer[f32], low_memory: bool) -> Moments:
    out = allocate(len(x), stream, low_memory)
    prep = moments.prepare(simt.LaunchConfig1D.for_len(len(x), block=64), dev)
    moments.launch(prep, stream, x, out.mean, out.sq)
    return out


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.to_device(np.arange(128, dtype=np.float32), stream)
    full = layer_stats(dev, stream, x, low_memory=False)
    print(full.sq.to_numpy(stream)[:4])
    tight = layer_stats(dev, stream, x, low_memory=True)
    print(tight.mean.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
