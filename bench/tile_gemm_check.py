"""Tile GEMM on the GPU in one short call: correctness on random data (large and ragged shapes), timings vs
torch.matmul, and the SASS of the compiled kernel (HGMMA = warpgroup MMA, HMMA = mma.sync).

    PYTHONPATH=src:. python3 bench/tile_gemm_check.py [OUTDIR]

Prints a table last.  Every check draws fresh random inputs and poisons the output with NaN first.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import torch
import triton

from bench.kernels import tile_kernels as K
from bench.tile_harness import Runner, arg


def rel(a: torch.Tensor, b: torch.Tensor) -> float:
    a64, b64 = a.double(), b.double()
    if torch.isnan(a64).any():
        return float("nan")
    return float((a64 - b64).norm() / b64.norm().clamp_min(1e-30))


def bench(fn: Any) -> float:
    return float(triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median"))


def sass_counts(cubin: bytes, out: Path, name: str) -> str:
    tool = shutil.which("cuobjdump")
    if tool is None:
        return "no cuobjdump"
    path = out / f"{name}.cubin"
    path.write_bytes(cubin)
    sass = subprocess.run([tool, "-sass", str(path)], capture_output=True, text=True).stdout
    res = subprocess.run([tool, "-res-usage", str(path)], capture_output=True, text=True).stdout
    (out / f"{name}.sass").write_text(sass)
    return (
        f"HGMMA={sass.count('HGMMA')} HMMA={sass.count('HMMA')} LDGSTS={sass.count('LDGSTS')} "
        f"LDL/STL={sass.count('LDL') + sass.count('STL')} {res.strip().splitlines()[-1] if res else ''}"
    )


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    run = Runner()
    rows: list[str] = []
    # correctness: ragged-but-aligned (wgmma path, zero-filled edges) and unaligned (mma.sync fallback)
    for dt, kern in ((torch.float16, K.gemm_f16), (torch.bfloat16, K.gemm_bf16)):
        for m, n, k in ((1000, 1000, 1000), (264, 392, 200), (130, 250, 96), (333, 257, 129), (4096, 4096, 4096)):
            a = torch.randn(m, k, device="cuda", dtype=dt)
            b = torch.randn(k, n, device="cuda", dtype=dt)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=dt)
            run(kern, arg(c, (K.BM, K.BN)), arg(a), arg(b))
            err = rel(c, a.float() @ b.float())
            rows.append(f"check {kern.name} {m}x{n}x{k}: rel err {err:.1e} {'OK' if err < 1e-2 else 'FAIL'}")
    bias = torch.randn(1000, device="cuda")
    a = torch.randn(1000, 1000, device="cuda", dtype=torch.float16)
    b = torch.randn(1000, 1000, device="cuda", dtype=torch.float16)
    c = torch.full((1000, 1000), float("nan"), device="cuda", dtype=torch.float16)
    run(K.gemm_bias_relu, arg(c, (K.BM, K.BN)), arg(a), arg(b), arg(bias))
    err = rel(c, torch.relu(a.float() @ b.float() + bias))
    rows.append(f"check gemm_bias_relu 1000^3: rel err {err:.1e} {'OK' if err < 1e-2 else 'FAIL'}")
    # SASS of the 4096 specialization
    from safekernels.tile.gpu_launch import tile_kernel_for

    s = 4096
    A = torch.randn(s, s, device="cuda", dtype=torch.float16)
    B = torch.randn(s, s, device="cuda", dtype=torch.float16)
    C = torch.empty(s, s, device="cuda", dtype=torch.float16)
    loaded = tile_kernel_for(K.gemm_f16, [arg(C, (K.BM, K.BN)), arg(A), arg(B)], run.device)
    comp = loaded.compiled
    rows.append(
        f"gemm_f16 4096: arch={comp.arch} threads={comp.threads} smem={comp.smem_bytes} "
        + sass_counts(comp.cubin, out, "gemm_f16")
    )
    # timing
    for dt, kern in ((torch.float16, K.gemm_f16), (torch.bfloat16, K.gemm_bf16)):
        for s in (4096, 8192):
            A = torch.randn(s, s, device="cuda", dtype=dt)
            B = torch.randn(s, s, device="cuda", dtype=dt)
            C = torch.full((s, s), float("nan"), device="cuda", dtype=dt)
            launch = run.prepared(kern, arg(C, (K.BM, K.BN)), arg(A), arg(B))
            launch()
            err = rel(C, A.float() @ B.float())
            flops = 2 * s**3
            t_sk = bench(launch)
            t_t = bench(lambda A=A, B=B: torch.matmul(A, B))
            t_sk2 = bench(launch)
            rows.append(
                f"time {kern.name} {s}^3: sk {flops / t_sk / 1e9:.0f} / {flops / t_sk2 / 1e9:.0f} TFLOP/s, "
                f"torch {flops / t_t / 1e9:.0f}, ratio {t_t / t_sk:.2f}, rel err {err:.1e}"
            )
    text = "\n".join(rows) + "\n"
    (out / "gemm_check.txt").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
