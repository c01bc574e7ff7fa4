"""`sk.as_buffer(host)` wraps `host`'s memory without copying: two wrappings of one array alias."""

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
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    host = np.ones(1000, dtype=np.float32)
    out = np.zeros(1000, dtype=np.float32)
    b = sk.to_device(np.ones(1000, dtype=np.float32), stream)
    p = vecadd.prepare(simt.LaunchConfig1D.for_len(1000, block=256), dev)
    w = sk.as_buffer(host)
    vecadd.launch(p, stream, w, b, sk.as_buffer(host))  # expect: E0502
