"""A reordering method keeps a container's items but moves them: after `ring.rotate(1)` of `ring = deque([x, y])`,
`ring[1]` is the buffer `ring[0]` was (also `bufs.reverse()` of a list display), so a source read before the
reordering and a destination read after it are one buffer: E0502 (the runtime raises `AliasingError` at each marked
line)."""

from collections import deque

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


def rotated(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    ring = deque([sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream)])
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    src = ring[0]
    ring.rotate(1)
    dst = ring[1]
    scale.launch(prepared, stream, src, dst, 0.9)  # expect: E0502


def reversed_in_place(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    bufs = [sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)]
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    src = bufs[0]
    bufs.reverse()
    scale.launch(prepared, stream, src, bufs[2], 0.9)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    for step in (rotated, reversed_in_place):
        try:
            step(dev, dev.new_stream(), 128)
        except sk.AliasingError as err:
            print("AliasingError:", err)


if __name__ == "__main__":
    main()
