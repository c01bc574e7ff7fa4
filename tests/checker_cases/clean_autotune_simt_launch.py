"""`k.launch(stream, *args)` of an `@simt.autotune` kernel maps `a, b, c` to the parameters `a, b, c` (no prepared launch first)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.autotune(configs=[128, 256], key=["c"], warmup=0.2, rep=1.0, verbose=False)
@simt.kernel
@simt.launch_contract(domain=1)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(1000, dtype=np.float32), stream)
    b = sk.to_device(np.ones(1000, dtype=np.float32), stream)
    c = sk.zeros(1000, f32, stream)
    vecadd.launch(stream, a, b, c)
    print(c.to_numpy(stream)[:2])
