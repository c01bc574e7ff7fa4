"""Moving `c` to another device once the pending `launch_async` op that borrowed it has run."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main(n: int = 1024) -> None:
    gpu0, gpu1 = sk.Device.default(), sk.Device.cpu(1)
    s0, s1 = gpu0.new_stream(), gpu1.new_stream()
    a = sk.to_device(np.ones(n, np.float32), s0)
    c = sk.zeros(n, f32, s0)
    pending = vecadd.launch_async(vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), gpu0), a, a, c)
    pending.sync_on(s0)  # the op ran and released its borrows
    c1 = c.to(gpu1, s1)
    print(a.to_numpy(s0)[:3], c1.to_numpy(s1)[:3])
