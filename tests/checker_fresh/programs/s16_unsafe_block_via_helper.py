# fresh-expect: E0133 at line 22
"""The fast path opens the unsafe block, then calls a helper that does the unchecked launch: unsafe is lexical."""

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


def _unchecked_add(config, stream, a, b, c) -> None:
    vecadd.launch_unchecked(config, stream, a, b, c)  # BUG


def fast_add(stream, a, b, c, n: int) -> None:
    config = simt.LaunchConfig1D.for_len(n, block=64)
    with simt.unsafe():
        _unchecked_add(config, stream, a, b, c)


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 256
a = sk.to_device(np.ones(n, np.float32), stream)
c = sk.zeros(n, f32, stream)
fast_add(stream, a, a, c, n)
print(c.to_numpy(stream)[:4])
