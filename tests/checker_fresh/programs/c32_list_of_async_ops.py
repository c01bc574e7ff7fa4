# fresh-expect: clean
"""Async launches collected in a list and run together."""
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
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
inputs = [sk.to_device(np.full(64, float(k), np.float32), stream) for k in range(3)]
outputs = [sk.zeros(64, f32, stream) for _ in range(3)]
ops = []
for k in range(3):
    ops.append(vecadd.launch_async(prepared, inputs[k], inputs[k], outputs[k]))
sk.zip(*ops).sync_on(stream)
assert outputs[2].to_numpy(stream)[0] == 4.0
