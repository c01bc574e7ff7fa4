"""A `functools.partial` of a helper of the module with a bound keyword: the call binds the bound keyword (unless
it passes its own) after its positional arguments, and the helper's call summary applies (its launch reads `lhs`
twice and writes `out`, so `lhs` and `out` must differ).  Run, the helper raises inside itself."""

from functools import partial

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


def add_twice(prepared: simt.PreparedLaunch, stream: sk.Stream, lhs: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
    vecadd.launch(prepared, stream, lhs, lhs, out)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    twice_into_c = partial(add_twice, prepared, stream, out=c)
    twice_into_c(a)
    twice_into_c(c)
    twice = partial(add_twice, prepared, stream, out=c)
    twice(c, out=a)
    twice(a, out=a)  # expect: E0502
