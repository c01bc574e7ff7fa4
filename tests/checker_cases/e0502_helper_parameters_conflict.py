"""A helper of this module launches with its keyword parameters as input and output; the caller passes one buffer
as both (`rhs=out, out=out`): the launch inside the helper aliases, reported at the call that passes them."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, PreparedLaunch, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def add_into(*, lhs: sk.DeviceBuffer[f32], rhs: sk.DeviceBuffer[f32], out: sk.DeviceBuffer[f32],
             prepared: PreparedLaunch[Any], stream: sk.Stream) -> None:
    vecadd.launch(prepared, stream, lhs, rhs, out)  # expect: E0502


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    out = sk.zeros(64, f32, stream)
    p = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    add_into(lhs=a, rhs=out, out=out, prepared=p, stream=stream)
