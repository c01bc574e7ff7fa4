# fresh-expect: E0502 at line 26
"""A closure launches on a buffer the caller still has a pending async op writing."""
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


def pipeline(dev, stream) -> None:
    a = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)

    def refine() -> None:
        vecadd.launch(prepared, stream, c, a, d)  # BUG E0502

    pending = vecadd.launch_async(prepared, a, a, c)
    refine()
    pending.sync_on(stream)


dev = sk.Device.cpu()
pipeline(dev, dev.new_stream())
