"""The benchmark kernels of the Tile track, written in the tile language (bench/tile_bench.py runs them).

Tile sizes are module constants so the compiler sees them as compile-time shapes.  Row kernels (softmax,
layernorm, row reductions) hold whole rows in one tile: `ROW` is the row length the benchmark uses.
"""

from __future__ import annotations

from typing import Annotated

from safekernels import tile
from safekernels.dtypes import bf16, f16, f32, i32
from safekernels.tile import Partition, Tensor

VEC_TILE = 4096
ROW = 8192
RED_ROWS = 1
T_TILE = 64
BM, BN, BK = 128, 256, 64


@tile.kernel
def vecadd(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def saxpy(z: Partition[f32], a: f32, x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(a * tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel(num_warps=4)  # 64 elements per thread; 4 warps measured best on the H200 (docs/tile-compiler.md)
def softmax(out: Annotated[Partition[f32], tile.Dims(1, ROW)], x: Tensor[f32]) -> None:
    rows = tile.load_like(x, out)
    cols = tile.iota(ROW, i32)
    rows = tile.where(cols < x.shape[1], rows, float("-inf"))
    e = tile.exp(rows - tile.max(rows, axis=1, keepdims=True))
    # one exact reciprocal per row, then a multiply per element (<= 1.5 ulp from e / sum, vs Triton's
    # approximate `div.full.f32`); `e / s` would be an IEEE division per element (see docs/tile-compiler.md)
    out.store(e * (1.0 / tile.sum(e, axis=1, keepdims=True)))


@tile.kernel
def layernorm(
    out: Annotated[Partition[f32], tile.Dims(1, ROW)],
    x: Tensor[f32],
    w: Tensor[f32],
    b: Tensor[f32],
    eps: f32,
) -> None:
    t = tile.load_like(x, out)
    n = x.shape[1]
    mean = tile.sum(t, axis=1, keepdims=True) / n
    cols = tile.iota(ROW, i32)
    d = tile.where(cols < n, t - mean, 0.0)
    var = tile.sum(d * d, axis=1, keepdims=True) / n
    y = d * tile.rsqrt(var + eps)
    out.store(y * w.load((0,), (ROW,)) + b.load((0,), (ROW,)))


@tile.kernel(num_warps=16)  # one 8192-element row per tile block, 16 elements per thread
def row_sum(out: Partition[f32], x: Tensor[f32]) -> None:
    t = x.load((tile.bid(0), 0), (RED_ROWS, ROW))
    out.store(tile.sum(t, axis=1))


@tile.kernel(num_warps=16)
def row_max(out: Partition[f32], x: Tensor[f32]) -> None:
    t = x.load((tile.bid(0), 0), (RED_ROWS, ROW))
    out.store(tile.max(t, axis=1))


@tile.kernel
def transpose(out: Partition[f32], x: Tensor[f32]) -> None:
    t = x.load((tile.bid(1), tile.bid(0)), (T_TILE, T_TILE))
    out.store(tile.transpose(t))


@tile.kernel
def gemm_f16(c: Annotated[Partition[f16], tile.Dims(BM, BN)], a: Tensor[f16], b: Tensor[f16]) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((BM, BK))
    b_tiles = b.partition((BK, BN))
    acc = tile.zeros((BM, BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store(acc.astype(f16))


@tile.kernel
def gemm_bf16(c: Annotated[Partition[bf16], tile.Dims(BM, BN)], a: Tensor[bf16], b: Tensor[bf16]) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((BM, BK))
    b_tiles = b.partition((BK, BN))
    acc = tile.zeros((BM, BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store(acc.astype(bf16))


@tile.kernel
def gemm_bias_relu(
    c: Annotated[Partition[f16], tile.Dims(BM, BN)], a: Tensor[f16], b: Tensor[f16], bias: Tensor[f32]
) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((BM, BK))
    b_tiles = b.partition((BK, BN))
    acc = tile.zeros((BM, BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    y = tile.maximum(acc + bias.load((j,), (BN,)), 0.0)
    c.store(y.astype(f16))


ALL = [vecadd, saxpy, softmax, layernorm, row_sum, row_max, transpose, gemm_f16, gemm_bf16, gemm_bias_relu]


# Ahead-of-time builds (`safekernels build bench/kernels/tile_kernels.py`): the shapes bench/tile_bench.py runs.
N_VEC = 1 << 28
GEMM = 4096
tile.specialize(vecadd, tile.spec(N_VEC, f32, tile=VEC_TILE), tile.spec(N_VEC, f32), tile.spec(N_VEC, f32))
tile.specialize(saxpy, tile.spec(N_VEC, f32, tile=VEC_TILE), f32, tile.spec(N_VEC, f32), tile.spec(N_VEC, f32))
tile.specialize(softmax, tile.spec((ROW, ROW), f32, tile=(1, ROW)), tile.spec((ROW, ROW), f32))
tile.specialize(
    layernorm,
    tile.spec((ROW, ROW), f32, tile=(1, ROW)),
    tile.spec((ROW, ROW), f32),
    tile.spec(ROW, f32),
    tile.spec(ROW, f32),
    f32,
)
tile.specialize(row_sum, tile.spec(ROW, f32, tile=RED_ROWS), tile.spec((ROW, ROW), f32))
tile.specialize(row_max, tile.spec(ROW, f32, tile=RED_ROWS), tile.spec((ROW, ROW), f32))
tile.specialize(transpose, tile.spec((ROW, ROW), f32, tile=(T_TILE, T_TILE)), tile.spec((ROW, ROW), f32))
for _gemm, _dt in ((gemm_f16, f16), (gemm_bf16, bf16)):
    tile.specialize(
        _gemm, tile.spec((GEMM, GEMM), _dt, tile=(BM, BN)), tile.spec((GEMM, GEMM), _dt), tile.spec((GEMM, GEMM), _dt)
    )
tile.specialize(
    gemm_bias_relu,
    tile.spec((GEMM, GEMM), f16, tile=(BM, BN)),
    tile.spec((GEMM, GEMM), f16),
    tile.spec((GEMM, GEMM), f16),
    tile.spec(GEMM, f32),
)
