"""A same-module helper returning a tuple: `src, dst = make_pair(...)` unpacks what the `return` that ran gave.
`return x, x` on one path makes both names one buffer; an item that is a parameter is the caller's own argument."""

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


def make_pair(stream: sk.Stream, reuse: bool) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    x = sk.to_device(np.ones(32, np.float32), stream)
    if reuse:
        return x, x
    return x, sk.zeros(32, f32, stream)


def with_output(src: sk.DeviceBuffer, stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    return src, sk.zeros(32, f32, stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    b = sk.to_device(np.ones(32, np.float32), stream)
    src, dst = make_pair(stream, True)
    vecadd.launch(prep, stream, src, b, dst)  # expect: E0502
    inp, out = with_output(b, stream)
    vecadd.launch(prep, stream, inp, out, b)  # expect: E0502
