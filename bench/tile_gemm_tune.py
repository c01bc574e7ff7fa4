"""Time the GEMM tile-shape variants under one wgmma stage cap (one process per cap: the cap is read at
compile time).  `SK_WGMMA_MAX_STAGES=6 PYTHONPATH=src:. python3 bench/tile_gemm_tune.py`"""

from __future__ import annotations

import os

import torch
import triton

from bench.kernels.tile_gemm_variants import VARIANTS
from bench.tile_harness import Runner, arg
from codegen.tile import wgmma


def main() -> None:
    wgmma.MAX_STAGES = int(os.environ.get("SK_WGMMA_MAX_STAGES", "4"))
    run = Runner()
    for kern, tile_shape in VARIANTS:
        for s in (4096, 8192):
            A = torch.randn(s, s, device="cuda", dtype=torch.float16)
            B = torch.randn(s, s, device="cuda", dtype=torch.float16)
            C = torch.full((s, s), float("nan"), device="cuda", dtype=torch.float16)
            launch = run.prepared(kern, arg(C, tile_shape), arg(A), arg(B))
            launch()
            ref = A.float() @ B.float()
            err = float((C.float() - ref).norm() / ref.norm())
            ms = float(triton.testing.do_bench(launch, warmup=25, rep=150, return_mode="median"))
            print(f"cap={wgmma.MAX_STAGES} {kern.name} {s}: {2 * s**3 / ms / 1e9:.0f} TFLOP/s err {err:.1e}")


if __name__ == "__main__":
    main()
