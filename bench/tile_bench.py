"""Tile-track benchmark on the GPU: each tile kernel vs PyTorch, Triton (same algorithm) and CuPy, one run.

    PYTHONPATH=src:. python3 bench/tile_bench.py --out docs/benchmarks-tile.md [--quick]

Every kernel is first checked against torch on fresh random data (relative error printed), then timed with
`triton.testing.do_bench` (median).  Bandwidth kernels report GB/s (bytes read + written, counted once);
GEMM reports TFLOP/s at 2048^3, 4096^3, 8192^3.  The device-to-device copy is the bandwidth reference.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from typing import Any

import torch
import triton
import triton.language as tl

from bench.kernels import tile_kernels as K
from bench.tile_harness import Runner, arg

try:
    import cupy as cp
except Exception:  # pragma: no cover - optional peer
    cp = None


@triton.jit
def _tr_add(x, y, z, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(z + o, tl.load(x + o, mask=m) + tl.load(y + o, mask=m), mask=m)


@triton.jit
def _tr_saxpy(x, y, z, a, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(z + o, a * tl.load(x + o, mask=m) + tl.load(y + o, mask=m), mask=m)


@triton.jit
def _tr_softmax(x, out, ncols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < ncols
    v = tl.load(x + r * ncols + c, mask=m, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(out + r * ncols + c, e / tl.sum(e, axis=0), mask=m)


@triton.jit
def _tr_layernorm(x, w, b, out, ncols, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < ncols
    v = tl.load(x + r * ncols + c, mask=m, other=0.0)
    mean = tl.sum(v, axis=0) / ncols
    d = tl.where(m, v - mean, 0.0)
    var = tl.sum(d * d, axis=0) / ncols
    y = d * tl.rsqrt(var + eps)
    tl.store(out + r * ncols + c, y * tl.load(w + c, mask=m) + tl.load(b + c, mask=m), mask=m)


@triton.jit
def _tr_rowsum(x, out, ncols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    tl.store(out + r, tl.sum(tl.load(x + r * ncols + c, mask=c < ncols, other=0.0), axis=0))


@triton.jit
def _tr_transpose(x, out, M, N, B: tl.constexpr):
    i = tl.program_id(0) * B + tl.arange(0, B)[:, None]
    j = tl.program_id(1) * B + tl.arange(0, B)[None, :]
    t = tl.load(x + i * N + j, mask=(i < M) & (j < N))
    tl.store(out + j * M + i, t, mask=(i < M) & (j < N))


@triton.jit
def _tr_gemm(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        ka = k * BK + rk
        av = tl.load(a + rm[:, None] * K + ka[None, :], mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        bv = tl.load(b + ka[:, None] * N + rn[None, :], mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(av, bv, acc)
    tl.store(
        c + rm[:, None] * N + rn[None, :],
        acc.to(c.dtype.element_ty),
        mask=(rm[:, None] < M) & (rn[None, :] < N),
    )


def bench(fn: Any) -> float:
    """Median milliseconds."""
    return float(triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median"))


def rel(a: torch.Tensor, b: torch.Tensor) -> float:
    a64, b64 = a.double(), b.double()
    return float((a64 - b64).norm() / b64.norm().clamp_min(1e-30))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    run = Runner()
    dev = "cuda"
    rows: list[tuple[str, str, str, str, str, str, str]] = []
    notes: list[str] = []

    def gbs(nbytes: int, ms: float) -> str:
        return f"{nbytes / ms / 1e6:.0f}"

    # copy reference
    n = 1 << 28
    src = torch.randn(n, device=dev)
    dst = torch.empty_like(src)
    copy_ms = bench(lambda: dst.copy_(src))
    copy_bw = 2 * n * 4 / copy_ms / 1e6
    rows.append(("d2d copy (reference)", f"{n} f32", f"{copy_bw:.0f}", "", "", "", "GB/s"))

    # vecadd / saxpy
    x, y = torch.randn(n, device=dev), torch.randn(n, device=dev)
    z = torch.full_like(x, float("nan"))
    run(K.vecadd, arg(z, (K.VEC_TILE,)), arg(x), arg(y))
    notes.append(f"vecadd rel err {rel(z, x + y):.1e}")
    sk_add = run.prepared(K.vecadd, arg(z, (K.VEC_TILE,)), arg(x), arg(y))
    t_sk = bench(sk_add)
    t_torch = bench(lambda: torch.add(x, y, out=z))
    t_tr = bench(lambda: _tr_add[(triton.cdiv(n, 4096),)](x, y, z, n, BLOCK=4096))
    cx = cy = cz = None
    t_cp = ""
    if cp is not None:
        cx, cy = cp.asarray(x), cp.asarray(y)
        cz = cp.empty_like(cx)
        t_cp = gbs(3 * n * 4, bench(lambda: cp.add(cx, cy, out=cz)))
    b3 = 3 * n * 4
    rows.append(("vecadd", f"{n} f32", gbs(b3, t_sk), gbs(b3, t_torch), gbs(b3, t_tr), t_cp, "GB/s"))
    a = 1.7
    run(K.saxpy, arg(z, (K.VEC_TILE,)), a, arg(x), arg(y))
    notes.append(f"saxpy rel err {rel(z, a * x + y):.1e}")
    sk_saxpy = run.prepared(K.saxpy, arg(z, (K.VEC_TILE,)), a, arg(x), arg(y))
    t_sk = bench(sk_saxpy)
    t_torch = bench(lambda: torch.add(y, x, alpha=a, out=z))
    t_tr = bench(lambda: _tr_saxpy[(triton.cdiv(n, 4096),)](x, y, z, a, n, BLOCK=4096))
    t_cp = ""
    if cp is not None:
        saxpy_k = cp.ElementwiseKernel(
            "float32 x, float32 y, float32 a", "float32 z", "z = a * x + y", "saxpy"
        )
        t_cp = gbs(b3, bench(lambda: saxpy_k(cx, cy, cp.float32(a), cz)))
    rows.append(("saxpy", f"{n} f32", gbs(b3, t_sk), gbs(b3, t_torch), gbs(b3, t_tr), t_cp, "GB/s"))

    # row kernels on 8192 x 8192 f32
    m, ncol = 8192, K.ROW
    xs = torch.randn(m, ncol, device=dev) * 3
    out = torch.full_like(xs, float("nan"))
    b2 = 2 * m * ncol * 4
    run(K.softmax, arg(out, (1, ncol)), arg(xs))
    notes.append(f"softmax rel err {rel(out, torch.softmax(xs.double(), 1)):.1e}")
    t_sk = bench(run.prepared(K.softmax, arg(out, (1, ncol)), arg(xs)))
    t_torch = bench(lambda: torch.softmax(xs, 1, out=out) if False else torch.softmax(xs, 1))
    t_tr = bench(lambda: _tr_softmax[(m,)](xs, out, ncol, BLOCK=ncol, num_warps=8))
    rows.append(
        ("row softmax", f"{m}x{ncol} f32", gbs(b2, t_sk), gbs(b2, t_torch), gbs(b2, t_tr), "", "GB/s")
    )
    w = torch.randn(ncol, device=dev)
    bb = torch.randn(ncol, device=dev)
    eps = 1e-5
    run(K.layernorm, arg(out, (1, ncol)), arg(xs), arg(w), arg(bb), eps)
    ref = torch.nn.functional.layer_norm(xs.double(), (ncol,), w.double(), bb.double(), eps)
    notes.append(f"layernorm rel err {rel(out, ref):.1e}")
    t_sk = bench(run.prepared(K.layernorm, arg(out, (1, ncol)), arg(xs), arg(w), arg(bb), eps))
    t_torch = bench(lambda: torch.nn.functional.layer_norm(xs, (ncol,), w, bb, eps))
    t_tr = bench(lambda: _tr_layernorm[(m,)](xs, w, bb, out, ncol, eps, BLOCK=ncol, num_warps=8))
    rows.append(
        ("layernorm fwd", f"{m}x{ncol} f32", gbs(b2, t_sk), gbs(b2, t_torch), gbs(b2, t_tr), "", "GB/s")
    )
    rs = torch.full((m,), float("nan"), device=dev)
    b1 = m * ncol * 4 + m * 4
    run(K.row_sum, arg(rs, (K.RED_ROWS,)), arg(xs))
    notes.append(f"row_sum rel err {rel(rs, xs.double().sum(1)):.1e}")
    run(K.row_max, arg(rs, (K.RED_ROWS,)), arg(xs))
    notes.append(f"row_max rel err {rel(rs, xs.max(1).values):.1e}")
    t_sk = bench(run.prepared(K.row_sum, arg(rs, (K.RED_ROWS,)), arg(xs)))
    t_skm = bench(run.prepared(K.row_max, arg(rs, (K.RED_ROWS,)), arg(xs)))
    t_torch = bench(lambda: xs.sum(1))
    t_tr = bench(lambda: _tr_rowsum[(m,)](xs, rs, ncol, BLOCK=ncol, num_warps=8))
    t_cp = ""
    if cp is not None:
        cxs = cp.asarray(xs)
        t_cp = gbs(b1, bench(lambda: cxs.sum(axis=1)))
    rows.append(("row sum", f"{m}x{ncol} f32", gbs(b1, t_sk), gbs(b1, t_torch), gbs(b1, t_tr), t_cp, "GB/s"))
    rows.append(
        ("row max", f"{m}x{ncol} f32", gbs(b1, t_skm), gbs(b1, bench(lambda: xs.amax(1))), "", "", "GB/s")
    )
    tt = torch.full_like(xs, float("nan"))
    run(K.transpose, arg(tt, (K.T_TILE, K.T_TILE)), arg(xs))
    notes.append(f"transpose exact: {bool(torch.equal(tt, xs.t()))}")
    t_sk = bench(run.prepared(K.transpose, arg(tt, (K.T_TILE, K.T_TILE)), arg(xs)))
    t_torch = bench(lambda: tt.copy_(xs.t()))
    t_tr = bench(lambda: _tr_transpose[(m // 64, ncol // 64)](xs, tt, m, ncol, B=64))
    t_cp = ""
    if cp is not None:
        cxs = cp.asarray(xs)
        ctt = cp.asarray(tt)
        t_cp = gbs(b2, bench(lambda: cp.copyto(ctt, cxs.T)))
    rows.append(
        ("transpose", f"{m}x{ncol} f32", gbs(b2, t_sk), gbs(b2, t_torch), gbs(b2, t_tr), t_cp, "GB/s")
    )

    # GEMM
    sizes = [2048, 4096] if args.quick else [2048, 4096, 8192]
    for dt, kern, name in (
        (torch.float16, K.gemm_f16, "gemm f16"),
        (torch.bfloat16, K.gemm_bf16, "gemm bf16"),
    ):
        for s in sizes:
            A = torch.randn(s, s, device=dev, dtype=dt)
            B = torch.randn(s, s, device=dev, dtype=dt)
            C = torch.full((s, s), float("nan"), device=dev, dtype=dt)
            run(kern, arg(C, (K.BM, K.BN)), arg(A), arg(B))
            notes.append(f"{name} {s}: rel err {rel(C, A.float() @ B.float()):.1e}")
            flops = 2 * s**3
            t_sk = bench(run.prepared(kern, arg(C, (K.BM, K.BN)), arg(A), arg(B)))
            t_torch = bench(lambda A=A, B=B: torch.matmul(A, B))
            t_tr = bench(
                lambda A=A, B=B, C=C, s=s: _tr_gemm[(s // 128, s // 128)](
                    A, B, C, s, s, s, BM=128, BN=128, BK=32, num_warps=4, num_stages=4
                )
            )

            def tf(ms: float, flops: int = flops) -> str:
                return f"{flops / ms / 1e9:.0f}"

            rows.append((name, f"{s}^3", tf(t_sk), tf(t_torch), tf(t_tr), "", "TFLOP/s"))
    s = 4096
    A = torch.randn(s, s, device=dev, dtype=torch.float16)
    B = torch.randn(s, s, device=dev, dtype=torch.float16)
    bias = torch.randn(s, device=dev)
    C = torch.full((s, s), float("nan"), device=dev, dtype=torch.float16)
    run(K.gemm_bias_relu, arg(C, (K.BM, K.BN)), arg(A), arg(B), arg(bias))
    notes.append(f"gemm+bias+relu rel err {rel(C, torch.relu(A.float() @ B.float() + bias)):.1e}")
    t_sk = bench(run.prepared(K.gemm_bias_relu, arg(C, (K.BM, K.BN)), arg(A), arg(B), arg(bias)))
    bias16 = bias.half()
    t_torch = bench(lambda: torch.relu(torch.addmm(bias16, A, B)))
    flops = 2 * s**3
    rows.append(
        (
            "gemm f16 + bias + relu",
            f"{s}^3",
            f"{flops / t_sk / 1e9:.0f}",
            f"{flops / t_torch / 1e9:.0f}",
            "",
            "",
            "TFLOP/s",
        )
    )

    name = torch.cuda.get_device_name()
    lines = [
        f"# Tile track benchmarks ({datetime.date.today().isoformat()})",
        "",
        f"GPU: {name}; torch {torch.__version__}, triton {triton.__version__}, "
        f"cupy {getattr(cp, '__version__', 'n/a')}; python {sys.version.split()[0]}.",
        "",
        "Median of `triton.testing.do_bench`.  Bandwidth counts each input read once and each output "
        "written once.",
        "",
        "| kernel | size | safekernels tile | PyTorch | Triton | CuPy | unit |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    lines += [f"| {' | '.join(r)} |" for r in rows]
    lines += [
        "",
        f"Copy bandwidth reference: {copy_bw:.0f} GB/s.",
        "",
        "Checks (relative error vs torch, float64 reference where cheap):",
        "",
    ] + [f"- {x}" for x in notes]
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
