"""Module-level type aliases in kernel parameters (`Out = DisjointSlice[f32]`) keep their modes."""

from typing import TypeAlias

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

Vec = Slice[f32]
Out: TypeAlias = DisjointSlice[f32]


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Vec, b: Vec, c: Out) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(1000, dtype=np.float32), stream)
    c = sk.zeros(1000, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(1000, block=256), dev)
    vecadd.launch(prepared, stream, a, c, c)  # expect: E0502
