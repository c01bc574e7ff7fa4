"""A `for` loop's items: `zip(layers, outputs)` where `outputs` is the same list as `layers` pairs each buffer with
itself, so an in-place launch over the pairs borrows one buffer as input and output."""

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


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    bias = sk.to_device(np.ones(32, np.float32), stream)
    layers = [sk.zeros(32, f32, stream) for _ in range(3)]
    outputs = layers
    for src, dst in zip(layers, outputs, strict=True):
        vecadd.launch(prep, stream, src, bias, dst)  # expect: E0502
