"""The twin of e0502_starred_unpack_of_container: `first` and the rest are read into a fresh accumulator that is
none of them, and the display's last item is only read."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    ones = sk.to_device(np.ones(64, np.float32), stream)
    twos = sk.to_device(np.full(64, 2.0, np.float32), stream)
    threes = sk.to_device(np.full(64, 3.0, np.float32), stream)
    bufs = [ones, twos, threes]
    first, *rest = bufs
    acc = sk.zeros(64, f32, stream)
    vecadd.launch(prepared, stream, first, rest[0], acc)
    head, *middle, last = acc, ones, twos
    out = sk.zeros(64, f32, stream)
    vecadd.launch(prepared, stream, head, last, out)
    pair = (ones, out)
    src, dst = pair
    vecadd.launch(prepared, stream, src, twos, dst)
