"""Tile track: C = A @ B with f16 inputs and f32 accumulation, one (BM, BN) output tile per tile block.

Each block walks the K axis in steps of BK, loading tiles of A and B from read-only partitions (indices in
tile units) and feeding `tile.matmul(a, b, acc)` (= a @ b + acc; tensor cores on the GPU).  Shapes need not
divide the tiles: loads past the edge are zero-padded, which adds nothing to the dot products, and the store
is masked. `Dims(-1, "K")` / `Dims("K", -1)` make the launch check that A's columns match B's rows.

The fast way is `matmul_tuned`: the same kernel under `@tile.autotune` with the shipped GEMM tuning space
(`safekernels.autotune.matmul_configs()`), which times the candidate CTA tiles once per (shape, dtype, GPU) and
keeps the winner on disk.  The 64 x 64 x 32 tile of `matmul` is right for these small shapes but reaches only
about a third of cuBLAS at 4096^3 on an H200; the tuned kernel picks 128 x 256 x 64 or 128 x 128 x 64 there
(numbers in docs/benchmarks-tile.md).
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

import safekernels as sk
from safekernels import tile
from safekernels.autotune import matmul_configs
from safekernels.dtypes import f16, f32
from safekernels.tile import Partition, Tensor

BM, BN, BK = 64, 64, 32


@tile.kernel
def matmul(
    c: Annotated[Partition[f32], tile.Dims(BM, BN)],
    a: Annotated[Tensor[f16], tile.Dims(-1, "K")],
    b: Annotated[Tensor[f16], tile.Dims("K", -1)],
) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((BM, BK))
    b_tiles = b.partition((BK, BN))
    acc = tile.zeros((BM, BN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store(acc)


# The fast way: let the tuner pick the CTA tile (BM, BN, BK) for each problem and GPU.
matmul_tuned = tile.autotune(configs=matmul_configs("BM", "BN", "BK"), key=["a", "b"], warmup=5, rep=20)(matmul)


# what `safekernels build examples/matmul_tile.py` compiles ahead of time: the shapes main() runs
tile.specialize(
    matmul, tile.spec((300, 200), f32, tile=(BM, BN)), tile.spec((300, 130), f16), tile.spec((130, 200), f16)
)


def run(device: sk.Device, m: int, n: int, k: int, seed: int = 0) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Multiply random (m, k) and (k, n) f16 matrices on `device`; returns (result, numpy reference)."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    stream = device.new_stream()
    c = tile.zeros((m, n), f32).partition((BM, BN))
    kernel = matmul_tuned if device.is_gpu else matmul  # the CPU executor gains nothing from tuning
    c, _a, _b = kernel(c, tile.from_numpy(a), tile.from_numpy(b)).sync_on(stream)
    return c.unpartition().to_numpy(stream), a.astype(np.float32) @ b.astype(np.float32)


def main() -> None:
    m, n, k = 300, 200, 130
    device = sk.Device.default()
    got, want = run(device, m, n, k)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
    print(f"matmul_tile: C[{m}x{n}] = A[{m}x{k}] @ B[{k}x{n}], f16 in, f32 accumulate, on {device!r}")
    print("PASSED")


if __name__ == "__main__":
    main()
