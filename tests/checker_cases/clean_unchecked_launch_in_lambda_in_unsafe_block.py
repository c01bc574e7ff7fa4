"""The twin of e0133_unchecked_launch_in_lambda_in_unsafe_block: the unchecked launch is made in the block itself, and
a lambda defined there calls a function whose own unsafe block covers its launch."""

from collections.abc import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def fast(stream: sk.Stream, a: sk.DeviceBuffer[f32], b: sk.DeviceBuffer[f32], c: sk.DeviceBuffer[f32]) -> None:
    with simt.unsafe():
        vecadd.launch_unchecked(simt.LaunchConfig1D.for_len(64, block=64), stream, a, b, c)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    config = simt.LaunchConfig1D.for_len(64, block=64)
    with simt.unsafe():
        vecadd.launch_unchecked(config, stream, a, b, c)
        again: Callable[[], None] = lambda: fast(stream, a, b, c)  # noqa: E731
        again()
    print(c.to_numpy(stream)[:2])

