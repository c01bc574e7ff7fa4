"""Tensor-core kernels on the GPU vs torch, in one process: GEMM f16/bf16 (4096^3, 8192^3, ragged 4000^3),
GEMM + bias + ReLU, fp8 e4m3 GEMM vs `torch._scaled_mm`, flash attention vs
`torch.nn.functional.scaled_dot_product_attention` (each SDPA backend timed; the fastest is the target).

    PYTHONPATH=src:. python3 bench/tensor_core_bench.py OUT_DIR [--quick]

Each tile kernel runs through the public API two ways (bench/tile_bench.py's `Timed`): **eager**,
`kernel(*args).sync_on(stream)` per call, and **graph**, one `graph_on(stream)` capture replayed; plus
**kernel only**, the compiled kernel launched directly on torch memory (bench/tile_harness.py).  Times are
medians of `safekernels.testing.do_bench` (L2 flushed before each call, CUDA events).  Every result is
checked against torch (relative Frobenius error in the `err` column).  Writes `tensor_core.json` and
`tensor_core.md` (rows for docs/benchmarks-tile.md) and `sass_facts.txt` into OUT_DIR.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import torch

import safekernels as sk
from bench.kernels import tensor_core_kernels as T
from bench.kernels import tile_kernels as K
from bench.tile_bench import Public, Timed, bench, rel
from bench.tile_harness import Arg, Runner, arg
from safekernels import tile
from safekernels.dtypes import bf16, dtype_of, f8e4m3, f16

ROWS: list[dict[str, Any]] = []


def _row(
    name: str,
    size: str,
    flops: float,
    eager: float,
    graph: float,
    harness: float,
    ref: float,
    ref_name: str,
    err: float,
) -> None:
    tf = {k: flops / v / 1e9 for k, v in (("eager", eager), ("graph", graph), ("harness", harness), ("ref", ref))}
    row = {
        "kernel": name,
        "size": size,
        "ms": {"eager": eager, "graph": graph, "harness": harness, "ref": ref},
        "tflops": tf,
        "ref": ref_name,
        "err": err,
        "ratio_eager": ref / eager,
        "ratio_graph": ref / graph,
    }
    ROWS.append(row)
    print(json.dumps(row), flush=True)


def _gemms(pub: Public, run: Runner, device: Any, stream: Any, quick: bool) -> None:
    dev = "cuda"
    cases = [
        ("gemm f16", K.gemm_f16, torch.float16, 4096),
        ("gemm bf16", K.gemm_bf16, torch.bfloat16, 4096),
        ("gemm f16 ragged", K.gemm_f16, torch.float16, 4000),
    ]
    if not quick:
        cases += [("gemm f16", K.gemm_f16, torch.float16, 8192), ("gemm bf16", K.gemm_bf16, torch.bfloat16, 8192)]
    for name, kern, dt, s in cases:
        A, tA = pub.tensor(torch.randn(s, s, device=dev, dtype=dt))
        B, tB = pub.tensor(torch.randn(s, s, device=dev, dtype=dt))
        c0 = tile.zeros((s, s), {torch.float16: f16, torch.bfloat16: bf16}[dt], device=device).sync_on(stream)
        tC = pub.view(c0, dt)
        timed = Timed(kern, [c0.partition((K.BM, K.BN)), A, B], stream)
        eager = timed.eager_ms()
        graph = timed.graph_ms(lambda tC=tC: tC.fill_(float("nan")))
        harness = bench(run.prepared(kern, arg(tC, (K.BM, K.BN)), arg(tA), arg(tB)))
        ref = bench(lambda tA=tA, tB=tB: torch.matmul(tA, tB))
        _row(
            name,
            f"{s}^3",
            2 * s**3,
            eager,
            graph,
            harness,
            ref,
            "torch.matmul (cuBLAS)",
            rel(tC, tA.float() @ tB.float()),
        )
    s = 4096
    A, tA = pub.tensor(torch.randn(s, s, device=dev, dtype=torch.float16))
    B, tB = pub.tensor(torch.randn(s, s, device=dev, dtype=torch.float16))
    bias, tbias = pub.tensor(torch.randn(s, device=dev))
    c0 = tile.zeros((s, s), f16, device=device).sync_on(stream)
    tC = pub.view(c0, torch.float16)
    timed = Timed(K.gemm_bias_relu, [c0.partition((K.BM, K.BN)), A, B, bias], stream)
    eager = timed.eager_ms()
    graph = timed.graph_ms(lambda: tC.fill_(float("nan")))
    harness = bench(run.prepared(K.gemm_bias_relu, arg(tC, (K.BM, K.BN)), arg(tA), arg(tB), arg(tbias)))
    ref = bench(lambda: torch.matmul(tA, tB))
    _row(
        "gemm+bias+relu f16",
        f"{s}^3",
        2 * s**3,
        eager,
        graph,
        harness,
        ref,
        "torch.matmul alone (cuBLAS)",
        rel(tC, torch.relu(tA.float() @ tB.float() + tbias)),
    )


def _fp8(pub: Public, run: Runner, device: Any, stream: Any, quick: bool) -> None:
    s = 4096 if quick else 8192
    a8 = torch.randn(s, s, device="cuda").to(torch.float8_e4m3fn)
    b8 = torch.randn(s, s, device="cuda").to(torch.float8_e4m3fn)  # B^T, (N, K) row-major
    A = tile.from_numpy(a8.view(torch.uint8).cpu().numpy(), dtype=f8e4m3, device=device).sync_on(stream)
    B = tile.from_numpy(b8.view(torch.uint8).cpu().numpy(), dtype=f8e4m3, device=device).sync_on(stream)
    c0 = tile.zeros((s, s), bf16, device=device).sync_on(stream)
    tC = pub.view(c0, torch.bfloat16)
    sa, sb = 0.5, 0.25
    timed = Timed(T.gemm_fp8, [c0.partition((T.F8_BM, T.F8_BN)), A, B, sa, sb], stream)
    eager = timed.eager_ms()
    graph = timed.graph_ms(lambda: tC.fill_(float("nan")))
    ta = Arg((s, s), dtype_of("f8e4m3"), SimpleNamespace(ptr=a8.data_ptr()))
    tb = Arg((s, s), dtype_of("f8e4m3"), SimpleNamespace(ptr=b8.data_ptr()))
    hc = torch.empty((s, s), device="cuda", dtype=torch.bfloat16)
    harness = bench(run.prepared(T.gemm_fp8, arg(hc, (T.F8_BM, T.F8_BN)), ta, tb, sa, sb))
    one_a, one_b = torch.tensor(sa, device="cuda"), torch.tensor(sb, device="cuda")
    bt = b8.t()

    def scaled() -> Any:
        return torch._scaled_mm(a8, bt, scale_a=one_a, scale_b=one_b, out_dtype=torch.bfloat16)

    ref = bench(scaled)
    _row("gemm fp8 e4m3 -> bf16", f"{s}^3", 2 * s**3, eager, graph, harness, ref, "torch._scaled_mm", rel(tC, scaled()))


def _sdpa_backends(q: Any, k: Any, v: Any, causal: bool) -> tuple[str, float]:
    from torch.nn.attention import SDPBackend, sdpa_kernel

    best = ("", math.inf)
    for backend in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION):
        try:
            with sdpa_kernel(backend):
                fn = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)  # noqa: E731
                fn()
                ms = bench(fn)
        except Exception as exc:  # a backend this build or shape lacks
            print(f"sdpa {backend.name}: unavailable ({type(exc).__name__})", flush=True)
            continue
        print(f"sdpa {backend.name} causal={causal}: {ms:.3f} ms", flush=True)
        if ms < best[1]:
            best = (backend.name, ms)
    return best


def _attention(pub: Public, run: Runner, device: Any, stream: Any, quick: bool) -> None:
    b, h, s, d = (4, 32, 1024, 128) if quick else (4, 32, 4096, 128)
    rows = b * h * s
    data = [torch.randn(rows, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv"]
    q4, k4, v4 = (x.view(b, h, s, d) for x in data)
    scale = 1.0 / math.sqrt(d)
    for causal in (False, True):  # fresh handles per case: the timed launches move the previous ones
        (Q, tq), (Kt, tk), (V, tv) = (pub.tensor(x) for x in data)
        c0 = tile.zeros((rows, d), bf16, device=device).sync_on(stream)
        tO = pub.view(c0, torch.bfloat16)
        timed = Timed(T.attention, [c0.partition((T.ATT_BM, d)), Q, Kt, V, s, scale, int(causal)], stream)
        eager = timed.eager_ms()
        graph = timed.graph_ms(lambda tO=tO: tO.fill_(float("nan")))
        ho = torch.empty((rows, d), device="cuda", dtype=torch.bfloat16)
        harness = bench(
            run.prepared(T.attention, arg(ho, (T.ATT_BM, d)), arg(tq), arg(tk), arg(tv), s, scale, int(causal))
        )
        backend, ref = _sdpa_backends(q4, k4, v4, causal)
        want = torch.nn.functional.scaled_dot_product_attention(q4, k4, v4, is_causal=causal)
        flops = 4 * b * h * s * s * d / (2 if causal else 1)
        _row(
            f"attention bf16 {'causal' if causal else 'non-causal'}",
            f"{b}x{h}x{s}, d={d}",
            flops,
            eager,
            graph,
            harness,
            ref,
            f"SDPA {backend}",
            rel(tO.view(b, h, s, d), want),
        )


VARIANTS: list[dict[str, Any]] = []


def compile_variant(kernel: Any, values: list[Any], switches: dict[str, bool]) -> Any:
    """`kernel` compiled for sm_90a, uncached, with the Hopper path's pieces switched as `switches` says."""
    from safekernels.codegen.tile import persistent, tma, tma_store, warpspec, wgmma_sync
    from safekernels.codegen.tile.pipeline import compile_tile
    from safekernels.codegen.tile.specialize import specialize

    flags = [(warpspec, "ENABLED", "ws"), (tma, "ENABLED", "tma"), (persistent, "ENABLED", "persistent")]
    flags += [(persistent, "PREFETCH_NEXT", "prefetch"), (tma_store, "ENABLED", "store")]
    flags += [(wgmma_sync, "PINGPONG", "pingpong"), (wgmma_sync, "DEFER", "defer")]
    saved = [getattr(mod, attr) for mod, attr, _ in flags]
    for mod, attr, key in flags:
        setattr(mod, attr, switches.get(key, getattr(mod, attr) if key == "pingpong" else key != "ws"))
    try:
        infos, rank = specialize(kernel, values)
        fast_math = switches.get("fast_math", kernel.fast_math)
        return compile_tile(
            kernel.fn, infos, rank, arch="sm_90a", num_warps=kernel.num_warps, use_cache=False, fast_math=fast_math
        )
    finally:
        for (mod, attr, _), value in zip(flags, saved, strict=True):
            setattr(mod, attr, value)


def _variant_ms(kernel: Any, values: list[Any], grid: tuple[int, ...], device: Any, switches: dict[str, bool]) -> float:
    """Kernel-only time of `kernel` compiled (uncached) with the Hopper path's pieces (`switches`: warp
    specialization `ws`, `tma`, `persistent` grid) on or off."""
    from safekernels.tile.gpu_launch import TileGpuKernel

    loaded = TileGpuKernel(compile_variant(kernel, values, switches), device.backend)
    raw = torch.cuda.current_stream().cuda_stream
    return bench(lambda: loaded.launch(kernel.params, values, grid, raw))


#: label -> switches, the default path first
_VARIANT_SWITCHES: dict[str, dict[str, bool]] = {
    "tma+persistent+store": {},
    "tma+persistent": {"store": False},
    "tma+persistent, no next-tile prefetch": {"store": False, "prefetch": False},
    "tma+store": {"persistent": False},
    "tma": {"persistent": False, "store": False},
    "tma+ws": {"ws": True, "persistent": False, "store": False},
    "cp.async": {"tma": False, "persistent": False, "store": False},
}


def _variants(device: Any, quick: bool) -> None:
    """The same GEMMs with the Hopper path's pieces switched off one at a time (kernel only, TFLOP/s)."""
    sizes = [4096] if quick else [4096, 8192]
    for s in sizes:
        for name, kern, dt in (("gemm f16", K.gemm_f16, torch.float16), ("gemm bf16", K.gemm_bf16, torch.bfloat16)):
            a, b = torch.randn(s, s, device="cuda", dtype=dt), torch.randn(s, s, device="cuda", dtype=dt)
            c = torch.empty(s, s, device="cuda", dtype=dt)
            vals = [arg(c, (K.BM, K.BN)), arg(a), arg(b)]
            grid = (s // K.BM, s // K.BN)
            row: dict[str, Any] = {"kernel": name, "size": f"{s}^3"}
            for label, switches in _VARIANT_SWITCHES.items():
                row[label] = 2 * s**3 / _variant_ms(kern, vals, grid, device, switches) / 1e9
            row["torch"] = 2 * s**3 / bench(lambda a=a, b=b: torch.matmul(a, b)) / 1e9
            VARIANTS.append(row)
            print(json.dumps(row), flush=True)


def _sass(out: Path) -> None:
    from safekernels.codegen.tile.pipeline import compile_tile
    from safekernels.codegen.tile.specialize import param_info

    F32_, F16_, BF16_, I32_, F8_ = (dtype_of(n) for n in ("f32", "f16", "bf16", "i32", "f8e4m3"))
    n = 4096
    cases = {
        "gemm_f16": (
            K.gemm_f16,
            [("partition", F16_, (n, n), (K.BM, K.BN)), ("tensor", F16_, (n, n), None), ("tensor", F16_, (n, n), None)],
            2,
        ),
        "gemm_bias_relu": (
            K.gemm_bias_relu,
            [
                ("partition", F16_, (n, n), (K.BM, K.BN)),
                ("tensor", F16_, (n, n), None),
                ("tensor", F16_, (n, n), None),
                ("tensor", F32_, (n,), None),
            ],
            2,
        ),
        "gemm_fp8": (
            T.gemm_fp8,
            [
                ("partition", BF16_, (n, n), (T.F8_BM, T.F8_BN)),
                ("tensor", F8_, (n, n), None),
                ("tensor", F8_, (n, n), None),
                ("scalar", F32_, (), None),
                ("scalar", F32_, (), None),
            ],
            2,
        ),
        "attention": (
            T.attention,
            [("partition", BF16_, (n, T.ATT_D), (T.ATT_BM, T.ATT_D))]
            + [("tensor", BF16_, (n, T.ATT_D), None)] * 3
            + [("scalar", I32_, (), None), ("scalar", F32_, (), None), ("scalar", I32_, (), None)],
            1,
        ),
    }
    tool = shutil.which("cuobjdump")
    work = Path(tempfile.mkdtemp())
    lines = []
    for name, (kern, spec, grid) in cases.items():
        params = [param_info(f"p{i}", kd, dt, sh, t) for i, (kd, dt, sh, t) in enumerate(spec)]
        c = compile_tile(kern.fn, params, grid, arch="sm_90a", use_cache=False)
        cub = work / f"{name}.cubin"
        cub.write_bytes(c.cubin)
        facts = f"{name}: arch={c.arch} threads={c.threads} smem={c.smem_bytes}"
        if tool:
            sass = subprocess.run([tool, "-sass", str(cub)], capture_output=True, text=True).stdout
            res = subprocess.run([tool, "-res-usage", str(cub)], capture_output=True, text=True).stdout
            regs = max((int(x) for x in re.findall(r"REG:(\d+)", res)), default=None)  # the kernel, not helpers
            stack = max((int(x) for x in re.findall(r"STACK:(\d+)", res)), default=None)
            counts = {
                op: len(re.findall(rf"\b{op}\b", sass))
                for op in ("HGMMA", "QGMMA", "HMMA", "LDSM", "LDGSTS", "UTMALDG", "MUFU", "BAR", "LDL", "STL")
            }
            facts += f" regs={'?' if regs is None else regs} stack={'?' if stack is None else stack} "
            facts += " ".join(f"{k}={v}" for k, v in counts.items())
            (out / f"{name}.sass").write_text(sass)
        lines.append(facts)
        print(facts, flush=True)
    (out / "sass_facts.txt").write_text("\n".join(lines) + "\n")


def _markdown() -> str:
    lines = [
        "| kernel | size | tile eager | tile graph | kernel only | torch | reference | eager / torch | "
        "graph / torch | err |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in ROWS:
        tf = r["tflops"]
        lines.append(
            f"| {r['kernel']} | {r['size']} | {tf['eager']:.0f} | {tf['graph']:.0f} | {tf['harness']:.0f} | "
            f"{tf['ref']:.0f} | {r['ref']} | {r['ratio_eager']:.2f} | {r['ratio_graph']:.2f} | {r['err']:.1e} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    quick = "--quick" in sys.argv
    only = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--only=")]
    device = sk.Device(0)
    stream = device.new_stream()
    pub, run = Public(device, stream), Runner()
    print(torch.__version__, torch.cuda.get_device_name(), flush=True)
    for name, part in (("sass", None), ("fp8", _fp8), ("attention", _attention), ("gemm", _gemms), ("variants", None)):
        if only and name not in only[0].split(","):
            continue
        try:
            if name == "sass":
                _sass(out)
            elif name == "variants":
                _variants(device, quick)
            else:
                assert part is not None
                part(pub, run, device, stream, quick)
        except Exception:
            traceback.print_exc()
        (out / "tensor_core.json").write_text(json.dumps({"rows": ROWS, "variants": VARIANTS}, indent=1))
        (out / "tensor_core.md").write_text(_markdown())
    print(_markdown())


if __name__ == "__main__":
    main()
