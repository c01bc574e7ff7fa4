"""Kernels launched through module-level aliases (`fast_add = vecadd`, `tile_sum = add`) are the kernels: the
alias's launch borrows and moves exactly as the kernel's does."""

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
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


fast_add = vecadd
tile_sum = add


def main(stream: sk.Stream, dev: sk.Device) -> None:
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    fast_add.launch(prep, stream, a, b, a)  # expect: E0502
    x = tile.ones((64,), f32)
    z = tile.zeros((64,), f32).partition((16,))
    z, x, y = tile_sum(z, x, x).sync_on(stream)  # expect: E0382
    print(z, y)
