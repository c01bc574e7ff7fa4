"""The clean twin of `e0502_helper_returns_tuple`: every `return` gives two distinct buffers, and the parameter
the helper hands back is not the launch's written output."""

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


def make_pair(stream: sk.Stream, fill: bool) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    x = sk.to_device(np.ones(32, np.float32), stream)
    if fill:
        return x, sk.to_device(np.ones(32, np.float32), stream)
    return x, sk.zeros(32, f32, stream)


def with_output(src: sk.DeviceBuffer, stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    return src, sk.zeros(32, f32, stream)


def refreshed(src: sk.DeviceBuffer, stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    src = sk.zeros(32, f32, stream)  # rebound: what it returns is no longer the caller's argument
    return src, sk.zeros(32, f32, stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    b = sk.to_device(np.ones(32, np.float32), stream)
    src, dst = make_pair(stream, True)
    vecadd.launch(prep, stream, src, b, dst)
    inp, out = with_output(b, stream)
    vecadd.launch(prep, stream, inp, b, out)
    new, spare = refreshed(b, stream)
    vecadd.launch(prep, stream, b, spare, new)
