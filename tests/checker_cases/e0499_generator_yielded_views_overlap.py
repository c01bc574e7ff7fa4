"""A generator function of the module yields views of its buffer argument (`yield buf.view(start, start + size)`:
windows that share `halo` elements with their neighbours).  The items an unpacking takes from it, here through
`itertools.islice`, are views of the caller's buffer whose computed bounds the checker cannot compare, so two of
them as the two outputs of one launch may overlap; with the default halo they do, and the runtime refuses them."""

import itertools
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], evens: DisjointSlice[f32], odds: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (e := evens.get_mut(idx)) is not None:
        e.set(src[2 * i])
    if (o := odds.get_mut(thread.index_1d())) is not None:
        o.set(src[2 * i + 1])


def windows(buf: sk.DeviceBuffer, size: int, halo: int = 4) -> Iterator[sk.DeviceBuffer]:
    step = size - halo
    for start in range(0, len(buf) - size + 1, step):
        yield buf.view(start, start + size)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.ones(2 * N, np.float32), stream)
    planar = sk.zeros(2 * N, f32, stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    left, right = itertools.islice(windows(planar, N), 2)
    split2.launch(prepared, stream, src, left, right)  # expect: E0499


if __name__ == "__main__":
    main()
