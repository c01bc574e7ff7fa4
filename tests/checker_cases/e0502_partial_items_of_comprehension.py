"""Launches bound with `functools.partial` in a list comprehension (one per size, each with its own prepared launch)
and taken by a loop through `enumerate(zip(...))`: the loop target is one of the partials, so a call of it passes
the bound launch and stream first, and passing one buffer as both a read input and the written output is E0502
(the runtime raises at the marked line)."""

import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def axpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(2.0 * x[i] + y[i])


dev = sk.Device.cpu()
stream = dev.new_stream()
sizes = [256, 128]
layers = [
    functools.partial(axpy.launch, axpy.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev), stream)
    for n in sizes
]
xs = [sk.to_device(np.ones(n, dtype=np.float32), stream) for n in sizes]
ys = [sk.zeros(n, f32, stream) for n in sizes]
for _k, (layer, x, y) in enumerate(zip(layers, xs, ys, strict=True)):
    layer(x, y, x)  # expect: E0502
print([x.to_numpy(stream)[0] for x in xs])
