"""A bounded deque as long as its display is full from the start: `ring.append(x)` of `ring = deque([a, b],
maxlen=2)` drops `ring[0]` and moves every other item one index down, so `ring[0]` is the buffer `ring[1]` was and
`ring[1]` is `x` (`appendleft` drops the last item and moves the others up).  Appending the destination makes both
ends one buffer: E0502 (the runtime raises `AliasingError` at each marked line)."""

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


def appended(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    ring = deque([sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream)], maxlen=2)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    dst = ring[1]
    ring.append(dst)
    scale.launch(prepared, stream, ring[0], ring[1], 0.9)  # expect: E0502


def appended_left(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    ring = deque([sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)],
                 maxlen=3)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    head = ring[1]
    ring.appendleft(head)
    scale.launch(prepared, stream, ring[2], ring[0], 0.9)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    for step in (appended, appended_left):
        try:
            step(dev, dev.new_stream(), 128)
        except sk.AliasingError as err:
            print("AliasingError:", err)


if __name__ == "__main__":
    main()
