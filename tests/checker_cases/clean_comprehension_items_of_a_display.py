"""A comprehension takes its items as a `for` statement does: `for t in (a, b)` makes `t` each of `a` and `b`,
and a launch in it that reads `t` while writing another buffer is fine."""

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


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(32, f32, stream)

    print([vecadd.launch_async(prep, b, t, d).sync_on(stream) for t in (a, b)])
    print(c.to_numpy(stream)[:2])
