"""A `@functools.singledispatch` function runs its own body for every argument type no overload was registered
for: its launch borrows the caller's arguments at the call, so handing it one buffer as input and output is an
aliasing launch."""

import functools
from typing import Any

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


@functools.singledispatch
def step(prep: Any, stream: Any, u: Any, v: Any, w: Any) -> None:
    vecadd.launch(prep, stream, u, v, w)  # expect: E0502


@step.register
def step_for_int(prep: int, stream: Any, u: Any, v: Any, w: Any) -> None:
    return None


def in_place(dev: sk.Device, stream: sk.Stream) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    step(prep, stream, a, c, c)


if __name__ == "__main__":
    device = sk.Device.cpu()
    in_place(device, device.new_stream())
