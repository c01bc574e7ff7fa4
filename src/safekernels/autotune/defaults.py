"""Shipped tuning spaces: the CTA tiles worth trying for a `tile.matmul` kernel, so no user has to guess them.

A GEMM written with the tile sizes of a small example (64 x 64 x 32) runs at about a third of cuBLAS on an H200
at 4096^3: too little work per CTA for the warpgroup MMA and too many CTAs for the persistent schedule.  The
right tile depends on the problem (large square problems want 128 x 256, short K or few output tiles want
128 x 128 for more CTAs per wave) and on the GPU (Hopper's wgmma path wants BK = 64; Ampere's mma.sync path
does well with 32), so the answer is a short list timed once per (shape, dtype, device) by `@tile.autotune`,
not one constant:

    @tile.autotune(configs=matmul_configs(), key=["a", "b"])
    @tile.kernel
    def matmul(c: Annotated[Partition[f32], tile.Dims(BM, BN)], a: Tensor[f16], b: Tensor[f16]) -> None: ...

A configuration that cannot run on the device (too much shared memory for an f32 output tile, a shape the
lowering refuses) is reported and skipped by the tuner.  The list was chosen from the H200 sweeps in
docs/benchmarks-tile.md (`bench/tile_gemm_tune.py` re-measures it).
"""

from __future__ import annotations

from safekernels.autotune.config import Config

#: (BM, BN, BK) candidates, best-known first: Hopper wgmma tiles, then tiles for short K, small problems, Ampere.
MATMUL_TILES: tuple[tuple[int, int, int], ...] = (
    (128, 256, 64),
    (128, 128, 64),
    (256, 128, 64),
    (64, 256, 64),
    (128, 128, 32),
    (64, 128, 32),
)


def matmul_configs(m: str = "BM", n: str = "BN", k: str = "BK") -> list[Config]:
    """The default tuning space of a `tile.matmul` kernel whose CTA tile is the module constants named `m`, `n`
    and `k` (rows of A and C per CTA, columns of B and C per CTA, the K step)."""
    names = (m, n, k)
    if len(set(names)) != 3 or not all(isinstance(x, str) and x.isidentifier() for x in names):
        raise ValueError(f"matmul_configs: expected three distinct constant names, got {names!r}")
    return [Config(**{m: bm, n: bn, k: bk}) for bm, bn, bk in MATMUL_TILES]
