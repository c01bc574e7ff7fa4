"""`buf.to(device, stream)` moves `buf`; the returned buffer is the one to use (and may be moved on again)."""

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
    x = sk.to_device(np.ones(n, np.float32), s0)
    y = sk.to_device(np.ones(n, np.float32), s1)
    out = sk.zeros(n, f32, s1)
    x1 = x.to(gpu1, s1)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), gpu1)
    vecadd.launch(prepared, s1, x1, y, out)
    print(x1.to_numpy(s1)[:3])
    x = x1.to(gpu0, s0)  # back again: `x` names the returned buffer
    print(x.to_numpy(s0)[:3], out.to_numpy(s1)[:3])
