"""Dotted places: `self.out` passed as input and output of one launch."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


class Pipeline:
    def __init__(self, src: sk.DeviceBuffer[f32], out: sk.DeviceBuffer[f32]) -> None:
        self.src = src
        self.out = out

    def run(self, prepared: simt.PreparedLaunch, stream: Any) -> None:
        vecadd.launch(prepared, stream, self.src, self.out, self.out)  # expect: E0502


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.to_device(np.random.rand(n).astype(np.float32), stream)
    b = sk.to_device(np.random.rand(n).astype(np.float32), stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    pipeline = Pipeline(a, c)
    pipeline.run(prepared, stream)
