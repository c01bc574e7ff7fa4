"""A method reached through the class (`Ops.scaled(...)` of a `@classmethod`) or through an object built right
there by a class with no initializer the checker follows (`Runner().step(...)`) runs with the caller's arguments:
its launch borrows them at the call, so passing one buffer as both input and output is an aliasing launch."""

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
        axpy.launch(prep, stream, src, bias, dst)  # expect: E0502


class Runner:
    def step(self, prep: Any, stream: Any, src: Any, bias: Any, dst: Any) -> None:
        axpy.launch(prep, stream, src, bias, dst)  # expect: E0502


def through_classmethod(dev: sk.Device, stream: sk.Stream) -> None:
    prep = axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    x = sk.to_device(np.ones(64, np.float32), stream)
    bias = sk.zeros(64, f32, stream)
    Ops.scaled(prep, stream, x, bias, x)


def through_new_object(dev: sk.Device, stream: sk.Stream) -> None:
    prep = axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    x = sk.to_device(np.ones(64, np.float32), stream)
    bias = sk.zeros(64, f32, stream)
    Runner().step(prep, stream, x, bias, x)


if __name__ == "__main__":
    device = sk.Device.cpu()
    through_classmethod(device, device.new_stream())
