"""Items drawn from standard-library iterators over distinct buffers: `next(pool)` of `pool =
itertools.cycle([c])` beside a `next` of another iterator over `d`, `itertools.repeat(src, 2)` as the input,
`random.choice([c])` beside `d`, and `next(itertools.islice([d], 1))`, `next(itertools.chain([c], [c]))`: the two
outputs of each launch are two buffers."""

import itertools
import random

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (a := lo.get_mut(thread.index_1d())) is not None:
        a.set(src[i] * 0.5)
    if (b := hi.get_mut(thread.index_1d())) is not None:
        b.set(src[i] * 2.0)


def cycled(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    pool = itertools.cycle([c])
    others = iter([d, d])
    lo, hi = next(pool), next(others)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    split2.launch(prepared, stream, src, lo, hi)
    split2.launch(prepared, stream, src, next(others), next(pool))


def repeated(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    inputs = itertools.repeat(src, 2)
    split2.launch(split2.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev), stream, next(inputs), c, d)
    print(next(inputs).to_numpy(stream)[:2])


def picked(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    split2.launch(prepared, stream, src, random.choice([c]), d)
    split2.launch(prepared, stream, src, c, next(itertools.islice([d], 1)))
    split2.launch(prepared, stream, src, next(itertools.chain([c], [c])), d)
    print(src.to_numpy(stream)[:2], c.to_numpy(stream)[:2], d.to_numpy(stream)[:2])


if __name__ == "__main__":
    device = sk.Device.cpu()
    cycled(device, device.new_stream())
    repeated(device, device.new_stream())
    picked(device, device.new_stream())
