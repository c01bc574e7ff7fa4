# fresh-expect: E0308 at line 48
# fresh-known-miss: cli,mypy brands of a registry a helper fills in a loop by `kernel.__name__`
"""Prepared launches are registered in an OrderedDict by kernel name in a loop; the scale step looks up the wrong
entry."""
from collections import OrderedDict

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


def build_registry(dev, n: int) -> OrderedDict:
    registry = OrderedDict()
    for kernel in (vecadd, scale):
        registry[kernel.__name__] = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    return registry


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 256
registry = build_registry(dev, n)
x = sk.to_device(np.ones(n, np.float32), stream)
y = sk.zeros(n, f32, stream)
z = sk.zeros(n, f32, stream)
vecadd.launch(registry["vecadd"], stream, x, x, y)
scale.launch(registry["vecadd"], stream, y, z, 0.5)  # BUG
print(z.to_numpy(stream)[:4])
