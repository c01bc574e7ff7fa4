"""The clean twin of `e0502_iterated_attributes`: unpacking a ping-pong pair through its `__iter__` after a real
swap gives two distinct buffers at every step."""

from collections.abc import Iterator
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class PingPong:
    def __init__(self, front: Any, back: Any) -> None:
        self.front = front
        self.back = back

    def __iter__(self) -> Iterator[Any]:
        yield self.front
        yield self.back


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    ones = sk.to_device(np.ones(32, np.float32), stream)
    pp = PingPong(sk.zeros(32, f32, stream), sk.zeros(32, f32, stream))
    for _ in range(3):
        src, dst = pp
        vecadd.launch(prep, stream, src, ones, dst)
        pp.front, pp.back = dst, src
