# fresh-expect: E0133 at line 27
"""A retry callback defined inside the unsafe block is its own function: the block does not cover its body."""
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
n = 64
a = sk.to_device(np.ones(n, np.float32), stream)
b = sk.to_device(np.ones(n, np.float32), stream)
c = sk.zeros(n, f32, stream)
config = simt.LaunchConfig1D.for_len(n, block=64)
with simt.unsafe():
    relaunch = lambda: vecadd.launch_unchecked(config, stream, a, b, c)  # BUG E0133  # noqa: E731
    for _ in range(2):
        relaunch()
