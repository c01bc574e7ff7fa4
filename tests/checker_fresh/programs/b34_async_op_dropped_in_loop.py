# fresh-expect: W0003 at line 21
"""A launch_async whose op is dropped when the batch is empty: its kernel never runs."""
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


def maybe_add(a, b, c, dev, stream, batch: list[int]) -> None:
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    op = vecadd.launch_async(prepared, a, b, c)  # BUG W0003
    for _ in batch:
        op.sync_on(stream)
        break


dev = sk.Device.cpu()
stream = dev.new_stream()
ones = sk.to_device(np.ones(64, np.float32), stream)
maybe_add(ones, ones, sk.zeros(64, f32, stream), dev, stream, [])
