"""The tile GEMM of the distributed examples: bf16 inputs, f32 accumulation and output, (64, 64) output tiles.

Kept apart from linear_ops.py (which needs torch) so tools that load kernels without torch reach it.
"""

from __future__ import annotations

from typing import Annotated

from safekernels import tile
from safekernels.dtypes import bf16, f32
from safekernels.tile import Partition, Tensor

BM, BN, BK = 64, 64, 32


@tile.kernel
def gemm_bf16(
    c: Annotated[Partition[f32], tile.Dims(BM, BN)],
    a: Annotated[Tensor[bf16], tile.Dims(-1, "K")],
    b: Annotated[Tensor[bf16], tile.Dims("K", -1)],
) -> None:
    a_tiles = a.partition((BM, BK))
    b_tiles = b.partition((BK, BN))
    acc = tile.zeros((BM, BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((tile.bid(0), k)), b_tiles.load((k, tile.bid(1))), acc)
    c.store(acc)
