# fresh-expect: E0502 at line 21
"""An in-place flag chooses the first input inline."""
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


def accumulate(total, step, scratch, in_place: bool, dev, stream) -> None:
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    vecadd.launch(prepared, stream, scratch if in_place else total, step, total)  # BUG E0502


dev = sk.Device.cpu()
stream = dev.new_stream()
total = sk.zeros(64, f32, stream)
accumulate(total, sk.to_device(np.ones(64, np.float32), stream), total, True, dev, stream)
