# fresh-expect: clean
"""functools.partial binds prepared launch and stream; the loop ping-pongs two distinct buffers."""
from functools import partial

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
n = 128
ones = sk.to_device(np.ones(n, np.float32), stream)
src = sk.zeros(n, f32, stream)
dst = sk.zeros(n, f32, stream)
run = partial(vecadd.launch, vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev), stream)
for _ in range(3):
    run(src, ones, dst)
    src, dst = dst, src
assert (src.to_numpy(stream) == 3.0).all()
