"""Buffers kept in a dict display with literal keys: `bufs["out"]` is the buffer stored under `"out"` (the
object bound there, also after the name that gave it is rebound), so passing it twice, or with an alias of the
same buffer, is an aliasing launch."""

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
    out = sk.zeros(32, f32, stream)
    bufs = {"lhs": sk.to_device(np.ones(32, np.float32), stream), "out": out}
    vecadd.launch(prep, stream, bufs["lhs"], bufs["out"], bufs["out"])  # expect: E0502
    kept = out
    out = sk.zeros(32, f32, stream)
    vecadd.launch(prep, stream, bufs["lhs"], out, kept)
    vecadd.launch(prep, stream, bufs["lhs"], kept, bufs["out"])  # expect: E0502
