"""Unpacking an object whose `__iter__` gives its own attributes (`return iter((self.front, self.back))`, or
`yield` statements) binds those attributes: after a swap written as two assignments both names are one buffer,
so the second step's launch reads what it writes (refused at run time)."""

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
        return iter((self.front, self.back))


class Yielding:
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
    pp.back = pp.front
    src, dst = pp
    vecadd.launch(prep, stream, src, ones, dst)  # expect: E0502
    shared = sk.zeros(32, f32, stream)
    pair = Yielding(shared, shared)
    first, second = pair
    vecadd.launch(prep, stream, first, ones, second)  # expect: E0502
