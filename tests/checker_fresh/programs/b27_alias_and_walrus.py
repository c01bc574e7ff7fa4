# fresh-expect: E0502 at line 26
"""A module-level alias of the kernel, and a walrus that binds the output to an input name."""
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


fast_add = vecadd

dev = sk.Device.cpu()
stream = dev.new_stream()
x = sk.to_device(np.ones(64, np.float32), stream)
prepared = fast_add.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
fast_add.launch(prepared, stream, x, (y := x), sk.zeros(64, f32, stream))
fast_add.launch(prepared, stream, x, y, y)  # BUG E0502
