# fresh-expect: E0502 at line 30
"""Ping-pong smoothing over a deque of two buffers; the rotation happens before the destination is read, so both ends
are one buffer."""
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


def smooth(dev, stream, n: int, steps: int):
    ring = deque([sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream)])
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    for _ in range(steps):
        src = ring[0]
        ring.rotate(1)
        dst = ring[1]
        scale.launch(prepared, stream, src, dst, 0.9)  # BUG
    return ring[0].to_numpy(stream)[:4]


dev = sk.Device.cpu()
print(smooth(dev, dev.new_stream(), 256, 3))
