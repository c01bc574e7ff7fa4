# fresh-expect: clean
"""Prepared launches are cached in a dict keyed by the kernel object, and every launch looks up its own kernel."""

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


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


class Launcher:
    def __init__(self, dev, n: int) -> None:
        config = simt.LaunchConfig1D.for_len(n, block=64)
        self.prepared = {k: k.prepare(config, dev) for k in (vecadd, scale)}

    def __call__(self, kernel, stream, *args) -> None:
        kernel.launch(self.prepared[kernel], stream, *args)


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 256
launch = Launcher(dev, n)
x = sk.to_device(np.ones(n, np.float32), stream)
y = sk.zeros(n, f32, stream)
z = sk.zeros(n, f32, stream)
launch(vecadd, stream, x, x, y)
launch(scale, stream, y, z, 0.5)
print(z.to_numpy(stream)[:4])
