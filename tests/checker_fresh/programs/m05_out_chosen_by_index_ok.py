# fresh-expect: clean
"""Double buffering by index parity."""
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
x = sk.to_device(np.ones(64, np.float32), stream)
bufs = [sk.zeros(64, f32, stream), sk.zeros(64, f32, stream)]
p = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
for step in range(4):
    src = bufs[step % 2]
    dst = bufs[(step + 1) % 2]
    vecadd.launch(p, stream, src, x, dst)
assert float(bufs[0].to_numpy(stream)[0]) == 4.0
