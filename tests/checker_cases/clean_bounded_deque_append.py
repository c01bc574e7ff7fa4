"""The clean twin of `e0502_bounded_deque_append`: an unbounded deque keeps its items at their indices when one is
appended (`ring[1]` is still the second buffer), and after `appendleft` of a bounded deque the first two items are
the appended buffer and the old first one, two buffers; the checker follows which item each index holds."""

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
    ring = deque([sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream)])
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    dst = ring[1]
    ring.append(dst)
    scale.launch(prepared, stream, ring[0], ring[1], 0.9)


def appended_left(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    ring = deque([sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)],
                 maxlen=3)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    head = ring[1]
    ring.appendleft(head)
    scale.launch(prepared, stream, ring[1], ring[0], 0.9)


def main() -> None:
    dev = sk.Device.cpu()
    appended(dev, dev.new_stream(), 128)
    appended_left(dev, dev.new_stream(), 128)


if __name__ == "__main__":
    main()
