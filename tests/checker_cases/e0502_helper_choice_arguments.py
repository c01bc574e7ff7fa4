"""A helper that launches with its parameters borrows, at the call, every place an argument may be: an argument
written as an expression over places (`(b, c)[k % 2]`, `b or c`, `a if flag else c`) is borrowed as each of them,
as it would be written straight into the launch, so a helper call that may hand one buffer as input and output is
an aliasing launch, and so is one whose output a pending op still borrows."""

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


def step(prep: Any, stream: Any, u: Any, v: Any, w: Any) -> None:
    vecadd.launch(prep, stream, u, v, w)  # expect: E0502


def subscript_choice(dev: sk.Device, stream: sk.Stream, k: int) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    step(prep, stream, a, b, (b, c)[k % 2])


def conditional_choice(dev: sk.Device, stream: sk.Stream, flag: bool) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    step(prep, stream, a if flag else c, b, c)


if __name__ == "__main__":
    device = sk.Device.cpu()
    subscript_choice(device, device.new_stream(), 0)
