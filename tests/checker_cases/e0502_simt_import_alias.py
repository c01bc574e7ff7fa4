"""`from safekernels import simt as s`: the kernel is still found through the alias."""

import numpy as np

import safekernels as sk
from safekernels import simt as s
from safekernels.dtypes import f32


@s.kernel
@s.launch_contract(block=256)
def axpy(x: s.Slice[f32], y: s.Slice[f32], out: s.DisjointSlice[f32], alpha: f32) -> None:
    idx = s.thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    x = sk.to_device(np.ones(n, dtype=np.float32), stream)
    y = sk.zeros(n, f32, stream)
    prepared = axpy.prepare(s.LaunchConfig1D.for_len(n, block=256), dev)
    axpy.launch(prepared, stream, x, y, y, 3.0)  # expect: E0502
