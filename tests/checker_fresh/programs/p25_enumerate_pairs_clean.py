# fresh-expect: clean
"""A chain of buffers: each step reads one and writes the next."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])

dev = sk.Device.cpu()
stream = dev.new_stream()
chain = [sk.to_device(np.ones(128, np.float32), stream)] + [sk.zeros(128, f32, stream) for _ in range(3)]
b = sk.to_device(np.ones(128, np.float32), stream)
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
for i, src in enumerate(chain[:-1]):
    vecadd.launch(prepared, stream, src, b, chain[i + 1])
print(chain[-1].to_numpy(stream)[:2])
