"""Foreign arrays wrapped with `sk.as_buffer` are distinct buffers (runtime checks what statics cannot)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    host_a = np.ones(n, dtype=np.float32)
    host_b = np.ones(n, dtype=np.float32)
    out = sk.as_buffer(np.zeros(n, dtype=np.float32))
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    vecadd.launch(prepared, stream, sk.as_buffer(host_a), sk.as_buffer(host_b), out)
