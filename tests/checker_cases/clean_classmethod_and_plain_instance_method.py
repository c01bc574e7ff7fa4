"""A `@classmethod` and a method of an object built right there (`Runner().step(...)`), each handed distinct
input and output buffers: no aliasing launch on any path."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


class Ops:
    @classmethod
    def scaled(cls, prep: Any, stream: Any, src: Any, bias: Any, dst: Any) -> None:
        axpy.launch(prep, stream, src, bias, dst)


class Runner:
    def step(self, prep: Any, stream: Any, src: Any, bias: Any, dst: Any) -> None:
        axpy.launch(prep, stream, src, bias, dst)


def run(dev: sk.Device, stream: sk.Stream) -> None:
    prep = axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    x = sk.to_device(np.ones(64, np.float32), stream)
    bias = sk.zeros(64, f32, stream)
    y = sk.zeros(64, f32, stream)
    Ops.scaled(prep, stream, x, bias, y)
    Runner().step(prep, stream, y, bias, x)
    print(x.to_numpy(stream)[:2], y.to_numpy(stream)[:2])


if __name__ == "__main__":
    device = sk.Device.cpu()
    run(device, device.new_stream())
