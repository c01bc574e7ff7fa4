"""Containers whose items are different buffers, or whose one-buffer display was changed in place before the
reads (`ring[1] = other`), give a new value at a computed index: `ring[t % 2]` and `ring[(t + 1) % 2]` are
different buffers here, and the runtime runs every launch."""

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def smooth(cur: Slice[f32], nxt: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := nxt.get_mut(idx)) is not None:
        o.set(alpha * cur[i])


def listed(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    buf = sk.to_device(np.ones(n, np.float32), stream)
    ring = [buf, sk.zeros(n, f32, stream)]
    prepared = smooth.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    for t in range(2):
        src = ring[t % 2]
        dst = ring[(t + 1) % 2]
        smooth.launch(prepared, stream, src, dst, 0.5)


def queued(dev: sk.Device, stream: sk.Stream, n: int, t: int) -> None:
    buf = sk.to_device(np.ones(n, np.float32), stream)
    slots = deque([buf, buf, buf])
    slots[1] = sk.zeros(n, f32, stream)
    slots[2] = sk.zeros(n, f32, stream)
    prepared = smooth.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    src = slots[t % 3]
    dst = slots[(t + 1) % 3]
    smooth.launch(prepared, stream, src, dst, 0.5)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    listed(dev, stream, 128)
    queued(dev, stream, 128, 1)
    print("ok")


if __name__ == "__main__":
    main()
