"""GEMM tile-shape variants for tuning the Hopper path (bench/tile_gemm_tune.py times them)."""

from __future__ import annotations

from typing import Annotated

from safekernels import tile
from safekernels.dtypes import f16, f32
from safekernels.tile import Partition, Tensor

M1, N1, K1 = 128, 256, 64
M2, N2, K2 = 128, 128, 64
M3, N3, K3 = 64, 256, 64


@tile.kernel
def g128x256(c: Annotated[Partition[f16], tile.Dims(M1, N1)], a: Tensor[f16], b: Tensor[f16]) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    at = a.partition((M1, K1))
    bt = b.partition((K1, N1))
    acc = tile.zeros((M1, N1), f32)
    for k in range(at.num_tiles(1)):
        acc = tile.matmul(at.load((i, k)), bt.load((k, j)), acc)
    c.store(acc.astype(f16))


@tile.kernel
def g128x128(c: Annotated[Partition[f16], tile.Dims(M2, N2)], a: Tensor[f16], b: Tensor[f16]) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    at = a.partition((M2, K2))
    bt = b.partition((K2, N2))
    acc = tile.zeros((M2, N2), f32)
    for k in range(at.num_tiles(1)):
        acc = tile.matmul(at.load((i, k)), bt.load((k, j)), acc)
    c.store(acc.astype(f16))


@tile.kernel
def g64x256(c: Annotated[Partition[f16], tile.Dims(M3, N3)], a: Tensor[f16], b: Tensor[f16]) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    at = a.partition((M3, K3))
    bt = b.partition((K3, N3))
    acc = tile.zeros((M3, N3), f32)
    for k in range(at.num_tiles(1)):
        acc = tile.matmul(at.load((i, k)), bt.load((k, j)), acc)
    c.store(acc.astype(f16))


VARIANTS = [(g128x256, (M1, N1)), (g128x128, (M2, N2)), (g64x256, (M3, N3))]


# Ahead-of-time builds (`safekernels build bench/kernels/tile_gemm_variants.py`): the 4096^3 tuning shape.
for _kernel, (_m, _n) in ((g128x256, (M1, N1)), (g128x128, (M2, N2)), (g64x256, (M3, N3))):
    tile.specialize(
        _kernel, tile.spec((4096, 4096), f16, tile=(_m, _n)), tile.spec((4096, 4096), f16), tile.spec((4096, 4096), f16)
    )
