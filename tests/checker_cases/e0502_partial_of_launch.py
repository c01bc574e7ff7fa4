"""A `functools.partial` of a launch, of a tile kernel or of a helper of the module, called later by its name, is
its target called with the bound arguments first: the bound objects are the ones the partial was built from, so
an output bound in the partial conflicts with the same buffer passed at the call, and a partition bound in it is
moved by the call (`e0502_partial_keyword_of_helper`: keywords and helpers)."""

import functools
from functools import partial

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    run = functools.partial(vecadd.launch, prepared, stream)
    run(a, c, c)  # expect: E0502
    into_c = partial(vecadd.launch, prepared, stream, c)
    into_c(a, c)  # expect: E0502
    z = tile.zeros((64,), f32).partition((64,)).sync_on(stream)
    x = tile.ones((64,), f32).sync_on(stream)
    double_into_z = partial(scale, z)
    z2, x2 = double_into_z(x).sync_on(stream)
    print(z.unpartition().to_numpy(stream)[:2])  # expect: E0382
