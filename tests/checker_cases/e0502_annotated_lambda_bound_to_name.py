"""A lambda bound by an annotated assignment (`apply: Callable[..., None] = lambda ...`) is followed at its call as
one bound by a plain `=` is, in both front ends (mypy sees one kind of assignment; the CLI used to skip the
annotated one): its call applies what its body does to the arguments it is given, and one that runs a tile launch
moves what it captures."""

from collections.abc import Callable
from typing import Any

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
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    apply: Callable[..., None] = lambda lhs, rhs, out: vecadd.launch(prepared, stream, lhs, rhs, out)  # noqa: E731  # expect: E0502
    apply(a, b, c)
    apply(c, b, c)
    z = tile.zeros((64,), f32).partition((64,)).sync_on(stream)
    x = tile.ones((64,), f32).sync_on(stream)
    double_x: Callable[[], Any] = lambda: scale(z, x).sync_on(stream)  # noqa: E731
    _z2, _x2 = double_x()
    print(x.to_numpy(stream)[:2])  # expect: E0382
