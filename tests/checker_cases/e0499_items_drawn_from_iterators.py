"""Items drawn from standard-library iterators are the caller's buffers: `next(pool)` of `pool =
itertools.cycle([c])` is `c` every time, `next(it)` of `it = iter([c, c])` is `c` twice, so is `next(pool)` of
`pool = itertools.repeat(c, 2)`, and `random.choice([c])`, `next(itertools.islice([c], 1))`,
`next(itertools.chain([c], [d]))` may each be `c`.  Two of them as the two outputs of one launch write one buffer
twice."""

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
    pool = itertools.cycle([c])
    lo, hi = next(pool), next(pool)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    split2.launch(prepared, stream, src, lo, hi)  # expect: E0499


def iterated(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    it = iter([c, c])
    lo = next(it)
    hi = next(it)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    split2.launch(prepared, stream, src, lo, hi)  # expect: E0499


def repeated(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    pool = itertools.repeat(c, 2)
    lo, hi = next(pool), next(pool)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    split2.launch(prepared, stream, src, lo, hi)  # expect: E0499


def picked(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    split2.launch(prepared, stream, src, random.choice([c]), c)  # expect: E0499
    split2.launch(prepared, stream, src, next(itertools.islice([c], 1)), c)  # expect: E0499
    split2.launch(prepared, stream, src, next(itertools.chain([c], [d])), c)  # expect: E0499


if __name__ == "__main__":
    device = sk.Device.cpu()
    cycled(device, device.new_stream())
