# fresh-expect: E0502 at line 25
"""Named buffers made by a dict comprehension; the residual add writes into one of its inputs."""
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
names = ("hidden", "residual", "scratch")
bufs = {name: sk.to_device(np.full(n, k, np.float32), stream) for k, name in enumerate(names)}
prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
vecadd.launch(prepared, stream, bufs["hidden"], bufs["residual"], bufs["hidden"])  # BUG
print(bufs["hidden"].to_numpy(stream)[:4])
