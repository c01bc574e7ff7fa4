"""The clean twin of `e0502_container_items_after_reordering`: the two ends of a ping-pong deque read at one point
are two buffers, before and after each `rotate` (also a rotation by a computed count, and `reverse()`), so the
checker follows which item each position holds rather than taking any item for any position."""

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


def pingpong(dev: sk.Device, stream: sk.Stream, n: int, steps: int) -> None:
    ring = deque([sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream)])
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    for step in range(steps):
        scale.launch(prepared, stream, ring[0], ring[1], 0.9)
        ring.rotate(step + 1)
    src = ring[0]
    ring.rotate(1)
    dst = ring[0]
    scale.launch(prepared, stream, src, dst, 0.9)
    print(ring[0].to_numpy(stream)[:2])


def reversed_in_place(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    bufs = [sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)]
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    src = bufs[0]
    bufs.reverse()
    scale.launch(prepared, stream, src, bufs[0], 0.9)
    scale.launch(prepared, stream, bufs[2], bufs[1], 0.9)
    print(bufs[0].to_numpy(stream)[:2])


def main() -> None:
    dev = sk.Device.cpu()
    pingpong(dev, dev.new_stream(), 128, 3)
    reversed_in_place(dev, dev.new_stream(), 128)


if __name__ == "__main__":
    main()
