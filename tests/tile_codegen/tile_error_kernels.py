"""Tile kernels with shape errors, for the pinned SK diagnostics (each error's line is marked `# <-`)."""

from __future__ import annotations

from safekernels import tile
from safekernels.dtypes import f16, f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def broadcast_mismatch(z: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, z)
    z.store(t + tile.zeros((3,), f32))  # <- SK020


@tile.kernel
def inner_mismatch(c: Partition[f32], a: Tensor[f16], b: Tensor[f16]) -> None:
    acc = tile.zeros((64, 64), f32)
    acc = tile.matmul(a.load((0, 0), (64, 32)), b.load((0, 0), (16, 64)), acc)  # <- SK021
    c.store(acc)


@tile.kernel
def store_mismatch(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(x.load((0,), (64,)))  # <- SK022


@tile.kernel
def store_dtype_mismatch(z: Partition[f32], x: Tensor[f16]) -> None:
    z.store(tile.load_like(x, z))  # <- SK022


@tile.kernel
def unsupported_while(z: Partition[f32], x: Tensor[f32]) -> None:
    while True:  # <- SK001
        pass
