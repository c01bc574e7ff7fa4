# fresh-expect: clean
"""A method wraps its own launch_unchecked in an unsafe block; the retry loop calls the method."""
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


class FastAdd:
    def __init__(self, n: int) -> None:
        self.config = simt.LaunchConfig1D.for_len(n, block=64)

    def __call__(self, stream, a, b, c) -> None:
        with simt.unsafe():
            vecadd.launch_unchecked(self.config, stream, a, b, c)


stream = sk.Device.cpu().new_stream()
fast = FastAdd(64)
a = sk.to_device(np.ones(64, np.float32), stream)
b = sk.to_device(np.ones(64, np.float32), stream)
c = sk.zeros(64, f32, stream)
for _ in range(2):
    fast(stream, a, b, c)
assert (c.to_numpy(stream) == 2.0).all()
