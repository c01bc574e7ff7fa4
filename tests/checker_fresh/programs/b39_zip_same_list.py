# fresh-expect: E0502 at line 27
"""In-place update through pairs zipped from two lists that are the same list."""
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


dev = sk.Device.cpu()
stream = dev.new_stream()
k = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
bias = sk.to_device(np.ones(32, np.float32), stream)
layers = [sk.to_device(np.full(32, float(i), np.float32), stream) for i in range(3)]
outputs = layers
for src, dst in zip(layers, outputs):
    vecadd.launch(k, stream, src, bias, dst)  # BUG E0502
