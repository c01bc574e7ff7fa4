"""Tile-track benchmark on the GPU: each tile kernel the way users launch it, vs PyTorch, Triton and CuPy.

    PYTHONPATH=src:. python3 bench/tile_bench.py --out docs/benchmarks-tile.md [--json FILE] [--quick]

Every tile kernel is measured through the public API, two ways, on tensors made by the tile constructors:

- **eager**: `outs = kernel(*args).sync_on(stream)` per call, the loop every example and doc uses (the host
  builds the op, moves the handles, launches through the launch-plan cache, and waits for the kernel);
- **graph**: the same op captured once with `graph_on(stream)`, then `graph.replay()` per call.

A third, *kernel-only* column launches the compiled kernel directly on torch tensors (`bench/tile_harness.py`,
no DeviceOp, no moves): what the kernel costs with no host path at all.  Each result is checked against torch
after the eager loop and after the graph replays.  Times are medians of `safekernels.testing.do_bench`
(Triton's procedure: L2 flushed before every call, CUDA events on the stream), the same for every column.
Bandwidth kernels report GB/s (bytes read + written, counted once); GEMM reports TFLOP/s.  The table of
eager / graph ratios at the end carries the targets of issue 10 (softmax 8192^2 >= 0.85, GEMM f16 4096 >= 0.95).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from typing import Any

import torch
import triton
import triton.language as tl

import safekernels as sk
from bench.kernels import tile_kernels as K
from bench.tile_harness import Runner, arg
from safekernels import tile
from safekernels.dtypes import bf16, f16, f32
from safekernels.testing import do_bench

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


def bench(fn: Any, stream: Any = None) -> float:
    """Median milliseconds (`safekernels.testing.do_bench`, events on `stream`, torch's current by default)."""
    target = stream if stream is not None else torch.cuda.current_stream()
    return float(do_bench(fn, warmup=25, rep=200, return_mode="median", stream=target))


def rel(a: torch.Tensor, b: torch.Tensor) -> float:
    a64, b64 = a.double(), b.double()
    return float((a64 - b64).norm() / b64.norm().clamp_min(1e-30))


_TORCH_TO_SK = {torch.float32: f32, torch.float16: f16, torch.bfloat16: bf16}


class Public:
    """Tile tensors made by the tile constructors on `device`, with torch views of their memory (to fill
    inputs, check results, and run the reference libraries on the very same memory)."""

    def __init__(self, device: Any, stream: Any) -> None:
        self.device = device
        self.stream = stream

    def tensor(self, src: torch.Tensor) -> tuple[Any, torch.Tensor]:
        """A tile `Tensor` holding a copy of `src`, and a torch view of its memory."""
        handle = tile.zeros(tuple(src.shape), _TORCH_TO_SK[src.dtype], device=self.device).sync_on(self.stream)
        view = self.view(handle, src.dtype)
        view.copy_(src)
        return handle, view

    @staticmethod
    def view(handle: Any, dtype: torch.dtype) -> torch.Tensor:
        flat = torch.from_dlpack(handle.buffer)  # zero-copy, bf16 included; the capsule keeps the memory alive
        assert flat.dtype == dtype, (flat.dtype, dtype)
        return flat.view(handle.shape)


class Timed:
    """One tile kernel through the public API: eager `sync_on` loop and `graph_on` replay, both checked."""

    def __init__(self, kernel: Any, args: list[Any], stream: Any) -> None:
        self.kernel = kernel
        self.state = list(args)  # the handles (and scalars) of the next launch
        self.stream = stream
        self.graph: Any = None

    def eager_ms(self) -> float:
        kernel, state, stream = self.kernel, self.state, self.stream

        def step() -> None:
            state[:] = kernel(*state).sync_on(stream)

        return bench(step, stream)

    def graph_ms(self, poison: Any) -> float:
        graph = self.kernel(*self.state).graph_on(self.stream)
        poison()  # the check after the replays sees only what the graph wrote
        graph.replay()
        self.stream.synchronize()
        ms = bench(graph.replay, self.stream)
        self.graph = graph
        return ms


def attention_rows(run: Any, quick: bool = False) -> str:
    """Issue 24's attention rows, kernel only (`bench/tile_harness.py`), TFLOP/s: the tuned bench kernel, the
    same attention written the plain way (`bench/kernels/attention_plain.py`: `tile.exp`, the scale multiplied
    into the scores, the iota mask; without and with `fast_math`), and torch SDPA's cuDNN and FlashAttention-2
    backends, on the same q, k, v; every output checked against SDPA."""
    import math

    from torch.nn.attention import SDPBackend, sdpa_kernel

    from bench.kernels import attention_plain as P
    from bench.kernels import tensor_core_kernels as T
    from bench.tile_harness import arg

    b, h, s, d = (4, 32, 1024, 128) if quick else (4, 32, 4096, 128)
    rows = b * h * s
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv")
    flat = [x.view(rows, d) for x in (q, k, v)]
    scale = 1.0 / math.sqrt(d)
    lines = [
        f"Attention forward, bf16, {b}x{h}x{s}, d={d}, kernel only (harness), TFLOP/s, medians of "
        "`sk.testing.do_bench`:",
        "",
        "| causal | tuned (bench kernel) | plain | plain + `fast_math` | cuDNN SDPA | FA2 SDPA | plain+fm / tuned "
        "| tuned / cuDNN | plain+fm / cuDNN | rel err plain+fm |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for causal in (False, True):
        flops = 4 * b * h * s * s * d / (2 if causal else 1)
        want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
        ms: dict[str, float] = {}
        errs: dict[str, float] = {}
        for label, kern, bm in (
            ("tuned", T.attention, T.ATT_BM),
            ("plain", P.attention_plain, P.PBM),
            ("plain_fm", P.attention_plain_fast, P.PBM),
        ):
            out = torch.full((rows, d), float("nan"), device="cuda", dtype=torch.bfloat16)
            launch = run.prepared(kern, arg(out, (bm, d)), *(arg(x) for x in flat), s, scale, int(causal))
            launch()
            torch.cuda.synchronize()
            errs[label] = rel(out.view(b, h, s, d), want)
            assert errs[label] < 1e-2, (label, causal, errs[label])
            ms[label] = bench(launch)
        for label, backend in (("cudnn", SDPBackend.CUDNN_ATTENTION), ("fa2", SDPBackend.FLASH_ATTENTION)):
            try:
                with sdpa_kernel(backend):
                    fn = lambda c=causal: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=c)  # noqa: E731
                    fn()
                    ms[label] = bench(fn)
            except Exception as exc:  # a backend this build lacks
                print(f"sdpa {backend.name}: unavailable ({type(exc).__name__})", flush=True)

        def tf(label: str, flops: float = flops, ms: dict[str, float] = ms) -> str:
            return f"{flops / ms[label] / 1e9:.0f}" if label in ms else ""

        def ratio(x: str, y: str, ms: dict[str, float] = ms) -> str:
            return f"{ms[y] / ms[x]:.2f}" if x in ms and y in ms else ""

        lines.append(
            f"| {causal} | {tf('tuned')} | {tf('plain')} | {tf('plain_fm')} | {tf('cudnn')} | {tf('fa2')} | "
            f"{ratio('plain_fm', 'tuned')} | {ratio('tuned', 'cudnn')} | {ratio('plain_fm', 'cudnn')} | "
            f"{errs['plain_fm']:.1e} |"
        )
        print(lines[-1], flush=True)
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--json")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only-attention", action="store_true", help="only issue 24's attention rows")
    args = ap.parse_args()
    run = Runner()
    if args.only_attention:
        text = attention_rows(run, args.quick)
        with open(args.out, "a") as handle:
            handle.write(text + "\n\n")
        return
    device = sk.Device(0)
    stream = sk.as_stream(torch.cuda.current_stream(), device)
    pub = Public(device, stream)
    dev = "cuda"
    rows: list[list[str]] = []
    ratios: list[tuple[str, str, float, str]] = []  # kernel, size, graph ms / eager ms, target
    notes: list[str] = []

    def gbs(nbytes: int, ms: float) -> str:
        return f"{nbytes / ms / 1e6:.0f}"

    def public_row(
        name: str,
        size: str,
        kernel: Any,
        args: list[Any],
        check: Any,
        rate: Any,
        harness_ms: float,
        others: list[str],
        unit: str,
        out: torch.Tensor,
        target: str = "",
    ) -> None:
        """Eager and graph timings of `kernel(*args)`; the output (`out`, a torch view of it) is poisoned with
        NaN before each and checked after (`check()`: a relative error vs torch)."""

        def poison() -> None:
            out.fill_(float("nan"))

        timed = Timed(kernel, args, stream)
        poison()
        eager = timed.eager_ms()
        notes.append(f"{name} {size}: eager rel err {check(timed.state):.1e}")
        graph = timed.graph_ms(poison)
        notes.append(f"{name} {size}: graph rel err {check(list(timed.graph.value)):.1e}")
        rows.append([name, size, rate(eager), rate(graph), rate(harness_ms), *others, unit])
        ratios.append((name, size, graph / eager, target))

    # copy reference
    n = 1 << 28
    src = torch.randn(n, device=dev)
    dst = torch.empty_like(src)
    copy_bw = 2 * n * 4 / bench(lambda: dst.copy_(src)) / 1e6
    rows.append(["d2d copy (reference)", f"{n} f32", "", "", f"{copy_bw:.0f}", "", "", "", "GB/s"])

    # vecadd / saxpy on tile tensors; the reference libraries run on the same memory through torch views
    x, tx = pub.tensor(torch.randn(n, device=dev))
    y, ty = pub.tensor(torch.randn(n, device=dev))
    z0 = tile.zeros((n,), f32, device=device).sync_on(stream)
    tz = pub.view(z0, torch.float32)
    z = z0.partition((K.VEC_TILE,))
    b3 = 3 * n * 4
    t_harness = bench(run.prepared(K.vecadd, arg(tz, (K.VEC_TILE,)), arg(tx), arg(ty)))
    t_torch = bench(lambda: torch.add(tx, ty, out=tz))
    t_tr = bench(lambda: _tr_add[(triton.cdiv(n, 4096),)](tx, ty, tz, n, BLOCK=4096))
    t_cp = ""
    if cp is not None:
        cx, cy, cz = cp.asarray(tx), cp.asarray(ty), cp.asarray(tz)
        t_cp = gbs(b3, bench(lambda: cp.add(cx, cy, out=cz)))
    rate3 = lambda ms: gbs(b3, ms)  # noqa: E731
    others = [gbs(b3, t_torch), gbs(b3, t_tr), t_cp]
    public_row(
        "vecadd", f"{n} f32", K.vecadd, [z, x, y], lambda o: rel(tz, tx + ty), rate3, t_harness, others, "GB/s", tz
    )
    a = 1.7  # saxpy on new tile tensors (the graph above owns the old ones)
    x, tx = pub.tensor(tx.clone())
    y, ty = pub.tensor(ty.clone())
    z0 = tile.zeros((n,), f32, device=device).sync_on(stream)
    tz = pub.view(z0, torch.float32)
    z = z0.partition((K.VEC_TILE,))
    t_harness = bench(run.prepared(K.saxpy, arg(tz, (K.VEC_TILE,)), a, arg(tx), arg(ty)))
    t_torch = bench(lambda: torch.add(ty, tx, alpha=a, out=tz))
    t_tr = bench(lambda: _tr_saxpy[(triton.cdiv(n, 4096),)](tx, ty, tz, a, n, BLOCK=4096))
    t_cp = ""
    if cp is not None:
        saxpy_k = cp.ElementwiseKernel("float32 x, float32 y, float32 a", "float32 z", "z = a * x + y", "saxpy")
        cx, cy, cz = cp.asarray(tx), cp.asarray(ty), cp.asarray(tz)
        t_cp = gbs(b3, bench(lambda: saxpy_k(cx, cy, cp.float32(a), cz)))
    public_row(
        "saxpy",
        f"{n} f32",
        K.saxpy,
        [z, a, x, y],
        lambda o: rel(tz, a * tx + ty),
        rate3,
        t_harness,
        [gbs(b3, t_torch), gbs(b3, t_tr), t_cp],
        "GB/s",
        tz,
    )

    # row kernels on 8192 x 8192 f32
    m, ncol = 8192, K.ROW
    b2 = 2 * m * ncol * 4
    rate2 = lambda ms: gbs(b2, ms)  # noqa: E731
    xs, txs = pub.tensor(torch.randn(m, ncol, device=dev) * 3)

    def out_partition(shape: tuple[int, ...], tile_shape: tuple[int, ...]) -> tuple[Any, torch.Tensor]:
        t = tile.zeros(shape, f32, device=device).sync_on(stream)
        view = pub.view(t, torch.float32)
        view.fill_(float("nan"))
        return t.partition(tile_shape), view

    out, tout = out_partition((m, ncol), (1, ncol))
    t_harness = bench(run.prepared(K.softmax, arg(tout, (1, ncol)), arg(txs)))
    t_torch = bench(lambda: torch.softmax(txs, 1))
    t_tr = bench(lambda: _tr_softmax[(m,)](txs, tout, ncol, BLOCK=ncol, num_warps=8))
    ref = torch.softmax(txs.double(), 1)
    public_row(
        "row softmax",
        f"{m}x{ncol} f32",
        K.softmax,
        [out, xs],
        lambda o: rel(tout, ref),
        rate2,
        t_harness,
        [gbs(b2, t_torch), gbs(b2, t_tr), ""],
        "GB/s",
        tout,
        ">= 0.85",
    )
    xs, txs = pub.tensor(txs.clone())
    w, tw = pub.tensor(torch.randn(ncol, device=dev))
    bb, tbb = pub.tensor(torch.randn(ncol, device=dev))
    eps = 1e-5
    out, tout = out_partition((m, ncol), (1, ncol))
    t_harness = bench(run.prepared(K.layernorm, arg(tout, (1, ncol)), arg(txs), arg(tw), arg(tbb), eps))
    t_torch = bench(lambda: torch.nn.functional.layer_norm(txs, (ncol,), tw, tbb, eps))
    t_tr = bench(lambda: _tr_layernorm[(m,)](txs, tw, tbb, tout, ncol, eps, BLOCK=ncol, num_warps=8))
    ref = torch.nn.functional.layer_norm(txs.double(), (ncol,), tw.double(), tbb.double(), eps)
    public_row(
        "layernorm fwd",
        f"{m}x{ncol} f32",
        K.layernorm,
        [out, xs, w, bb, eps],
        lambda o: rel(tout, ref),
        rate2,
        t_harness,
        [gbs(b2, t_torch), gbs(b2, t_tr), ""],
        "GB/s",
        tout,
    )
    b1 = m * ncol * 4 + m * 4
    rate1 = lambda ms: gbs(b1, ms)  # noqa: E731
    for name, kern, torch_fn, tr in (
        ("row sum", K.row_sum, lambda t: t.sum(1), True),
        ("row max", K.row_max, lambda t: t.amax(1), False),
    ):
        xs, txs = pub.tensor(txs.clone())
        rs, trs = out_partition((m,), (K.RED_ROWS,))
        t_harness = bench(run.prepared(kern, arg(trs, (K.RED_ROWS,)), arg(txs)))
        t_torch = bench(lambda torch_fn=torch_fn, txs=txs: torch_fn(txs))
        t_tr = ""
        if tr:
            t_tr = gbs(b1, bench(lambda txs=txs, trs=trs: _tr_rowsum[(m,)](txs, trs, ncol, BLOCK=ncol, num_warps=8)))
        t_cp = ""
        if cp is not None and tr:
            cxs = cp.asarray(txs)
            t_cp = gbs(b1, bench(lambda cxs=cxs: cxs.sum(axis=1)))
        ref = torch_fn(txs.double())
        public_row(
            name,
            f"{m}x{ncol} f32",
            kern,
            [rs, xs],
            lambda o, trs=trs, ref=ref: rel(trs, ref),
            rate1,
            t_harness,
            [gbs(b1, t_torch), t_tr, t_cp],
            "GB/s",
            trs,
        )
    xs, txs = pub.tensor(txs.clone())
    tt, ttt = out_partition((ncol, m), (K.T_TILE, K.T_TILE))
    t_harness = bench(run.prepared(K.transpose, arg(ttt, (K.T_TILE, K.T_TILE)), arg(txs)))
    t_torch = bench(lambda: ttt.copy_(txs.t()))
    t_tr = bench(lambda: _tr_transpose[(m // 64, ncol // 64)](txs, ttt, m, ncol, B=64))
    t_cp = ""
    if cp is not None:
        cxs, ctt = cp.asarray(txs), cp.asarray(ttt)
        t_cp = gbs(b2, bench(lambda: cp.copyto(ctt, cxs.T)))
    public_row(
        "transpose",
        f"{m}x{ncol} f32",
        K.transpose,
        [tt, xs],
        lambda o: rel(ttt, txs.t()),
        rate2,
        t_harness,
        [gbs(b2, t_torch), gbs(b2, t_tr), t_cp],
        "GB/s",
        ttt,
    )

    # GEMM
    sizes = [4096] if args.quick else [2048, 4096, 8192]
    for dt, kern, name in (
        (torch.float16, K.gemm_f16, "gemm f16"),
        (torch.bfloat16, K.gemm_bf16, "gemm bf16"),
    ):
        for s in sizes:
            A, tA = pub.tensor(torch.randn(s, s, device=dev, dtype=dt))
            B, tB = pub.tensor(torch.randn(s, s, device=dev, dtype=dt))
            c0 = tile.zeros((s, s), _TORCH_TO_SK[dt], device=device).sync_on(stream)
            tC = pub.view(c0, dt)
            C = c0.partition((K.BM, K.BN))
            flops = 2 * s**3

            def tf(ms: float, flops: int = flops) -> str:
                return f"{flops / ms / 1e9:.0f}"

            t_harness = bench(run.prepared(kern, arg(tC, (K.BM, K.BN)), arg(tA), arg(tB)))
            t_torch = bench(lambda tA=tA, tB=tB: torch.matmul(tA, tB))
            t_tr = bench(
                lambda tA=tA, tB=tB, tC=tC, s=s: _tr_gemm[(s // 128, s // 128)](
                    tA, tB, tC, s, s, s, BM=128, BN=128, BK=32, num_warps=4, num_stages=4
                )
            )
            ref = tA.float() @ tB.float()
            public_row(
                name,
                f"{s}^3",
                kern,
                [C, A, B],
                lambda o, tC=tC, ref=ref: rel(tC, ref),
                tf,
                t_harness,
                [tf(t_torch), tf(t_tr), ""],
                "TFLOP/s",
                tC,
                ">= 0.95" if (name, s) == ("gemm f16", 4096) else "",
            )
    s = 4096
    A, tA = pub.tensor(torch.randn(s, s, device=dev, dtype=torch.float16))
    B, tB = pub.tensor(torch.randn(s, s, device=dev, dtype=torch.float16))
    bias, tbias = pub.tensor(torch.randn(s, device=dev))
    c0 = tile.zeros((s, s), f16, device=device).sync_on(stream)
    tC = pub.view(c0, torch.float16)
    C = c0.partition((K.BM, K.BN))
    flops = 2 * s**3
    t_harness = bench(run.prepared(K.gemm_bias_relu, arg(tC, (K.BM, K.BN)), arg(tA), arg(tB), arg(tbias)))
    bias16 = tbias.half()
    t_torch = bench(lambda: torch.relu(torch.addmm(bias16, tA, tB)))
    ref = torch.relu(tA.float() @ tB.float() + tbias)
    public_row(
        "gemm f16 + bias + relu",
        f"{s}^3",
        K.gemm_bias_relu,
        [C, A, B, bias],
        lambda o: rel(tC, ref),
        lambda ms: f"{flops / ms / 1e9:.0f}",
        t_harness,
        [f"{flops / t_torch / 1e9:.0f}", "", ""],
        "TFLOP/s",
        tC,
    )

    name = torch.cuda.get_device_name()
    lines = [
        f"# Tile track benchmarks ({datetime.date.today().isoformat()})",
        "",
        f"GPU: {name}; safekernels from this tree; torch {torch.__version__}, triton {triton.__version__}, "
        f"cupy {getattr(cp, '__version__', 'n/a')}; python {sys.version.split()[0]}.",
        "",
        "Median of `safekernels.testing.do_bench` (L2 flushed before each call, CUDA events).  Bandwidth counts "
        "each input read once and each output written once.  **eager**: `kernel(*args).sync_on(stream)` per "
        "call (public API: op build, moves, launch-plan lookup, launch, wait); **graph**: the op captured once "
        "with `graph_on`, `graph.replay()` per call; **kernel only (harness)**: the compiled kernel launched "
        "directly on torch tensors (`bench/tile_harness.py`, no DeviceOp): not a user path, shown for reference.",
        "",
        "| kernel | size | tile eager `sync_on` | tile `graph_on` replay | tile kernel only (harness) "
        "| PyTorch | Triton | CuPy | unit |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    lines += [f"| {' | '.join(r)} |" for r in rows]
    lines += [
        "",
        f"Copy bandwidth reference: {copy_bw:.0f} GB/s.",
        "",
        "### Eager vs graph replay (time of graph replay / time of eager call; 1.0 = no host cost visible)",
        "",
        "| kernel | size | eager / graph | target | met |",
        "| --- | --- | ---: | --- | --- |",
    ]
    for kname, size, ratio, target in ratios:
        met = "" if not target else ("yes" if ratio >= float(target.split()[-1]) else "**no**")
        lines.append(f"| {kname} | {size} | {ratio:.3f} | {target} | {met} |")
    lines += ["", "Checks (relative error vs torch, float64 reference where cheap):", ""]
    lines += [f"- {x}" for x in notes]
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    if args.json:
        payload = {
            "rows": rows,
            "eager_over_graph": [
                {"kernel": k, "size": sz, "ratio": r, "target": t} for k, sz, r, t in ratios
            ],
        }
        with open(args.json, "w") as f:
            json.dump(payload, f, indent=1)
    print(text)


if __name__ == "__main__":
    main()
