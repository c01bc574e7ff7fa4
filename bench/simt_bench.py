"""SIMT codegen benchmark (issue 5 / SPEC §7): one run, one markdown table.

Measures on the current GPU, 2^28 f32 elements:
- vecadd and saxpy throughput (GB/s counting bytes read + written): safekernels (safe launch), torch, Triton,
  CuPy, the same scalar kernel in CUDA C++ built with `nvcc -O3 -arch=sm_90` and launched through the driver;
- cold compile (source -> cubin, empty cache, also the first compile of the process) and warm-cache time;
- host overhead per launch: safekernels' safe launch, raw `cuLaunchKernel` with pre-packed parameters, torch,
  CuPy, Triton (tiny grids, wall time of many launches).

    python bench/simt_bench.py --out docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import ctypes
import datetime
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

import numpy as np  # noqa: E402

N = 1 << 28
CUDA_SRC = r"""
extern "C" __global__ void vecadd(const float* __restrict__ a, long long na, const float* __restrict__ b,
                                  long long nb, float* __restrict__ c, long long nc) {
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (unsigned long long)nc) c[i] = a[i] + b[i];
}
extern "C" __global__ void saxpy(float alpha, const float* __restrict__ x, long long nx,
                                 const float* __restrict__ y0, long long ny0,
                                 float* __restrict__ y, long long ny,
                                 unsigned n) {
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i < (unsigned long long)ny) y[i] = alpha * x[i] + y0[i];
}
"""


def _load_example(name: str) -> Any:
    """An example module by path (examples/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"examples_{name}", ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_cuda(fn: Callable[[], Any], torch: Any, warmup_ms: float = 25, rep_ms: float = 100) -> float:
    """Median seconds per call: `safekernels.testing.do_bench` (Triton's procedure: warm-up, an L2 flush before
    every timed call, CUDA events) on torch's current stream."""
    from safekernels.testing import do_bench

    stream = torch.cuda.current_stream()
    return do_bench(fn, warmup=warmup_ms, rep=rep_ms, return_mode="median", stream=stream) / 1e3


def host_overhead(fn: Callable[[], Any], sync: Callable[[], Any], n: int = 20000) -> float:
    """Microseconds per call of `fn` (wall clock, best of 3 rounds of n calls)."""
    best = float("inf")
    for _ in range(3):
        sync()
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t) / n)
        sync()
    return best * 1e6


def versions(torch: Any) -> dict[str, str]:
    out: dict[str, str] = {"python": sys.version.split()[0], "torch": torch.__version__}
    for mod in ("triton", "cupy", "llvmlite", "numpy"):
        try:
            out[mod] = __import__(mod).__version__
        except Exception:
            out[mod] = "unavailable"
    try:
        from cuda.bindings import driver

        out["cuda-bindings"] = __import__("cuda.bindings", fromlist=["x"]).__version__
        out["driver"] = str(driver.cuDriverGetVersion()[1])
    except Exception:
        pass
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    try:
        out["nvcc"] = (
            subprocess.run([nvcc, "--version"], capture_output=True, text=True)
            .stdout.strip()
            .splitlines()[-1]
        )
    except Exception:
        out["nvcc"] = "unavailable"
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--n", type=int, default=N)
    args = parser.parse_args()
    n = args.n
    os.environ["SAFEKERNELS_CACHE_DIR"] = tempfile.mkdtemp(prefix="sk-bench-cache-")

    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "kernels_catalog", ROOT / "tests/codegen/kernels_catalog.py"
    )
    assert spec is not None and spec.loader is not None
    kc = importlib.util.module_from_spec(spec)
    sys.modules["kernels_catalog"] = kc

    # -- compile times (before anything else warms llvmlite) --------------------------------------------
    from safekernels import codegen

    t0 = time.perf_counter()
    spec.loader.exec_module(kc)
    import_s = time.perf_counter() - t0
    cold: dict[str, float] = {}
    for k in kc.ALL_KERNELS:
        t = time.perf_counter()
        codegen.compile_simt_kernel(k, arch="sm_90")
        cold[k.name] = (time.perf_counter() - t) * 1e3
    warm: dict[str, float] = {}
    for k in kc.ALL_KERNELS:
        t = time.perf_counter()
        for _ in range(20):
            codegen.compile_simt_kernel(k, arch="sm_90")
        warm[k.name] = (time.perf_counter() - t) / 20 * 1e3
    first_kernel = kc.ALL_KERNELS[0].name

    import torch

    import safekernels as sk
    from safekernels import simt
    from safekernels.runtime.cuda_backend import _driver, check

    dev = sk.Device(0)
    torch_stream = torch.cuda.current_stream()
    stream = sk.as_stream(torch_stream, dev)
    a = torch.rand(n, device="cuda")
    b = torch.rand(n, device="cuda")
    c = torch.empty(n, device="cuda")
    alpha = 2.5
    bytes_moved = 3 * 4 * n

    ab, bb, cb = sk.as_buffer(a, dev), sk.as_buffer(b, dev), sk.as_buffer(c, dev)
    # the throughput rows run the examples' kernels, whose contracts carry the `requires` relations that let
    # the safe launch's variant drop the read bounds checks (docs/simt-compiler.md), as the C++ kernels do
    vecadd_k = _load_example("vecadd_simt").vecadd
    saxpy_k = _load_example("saxpy_simt").saxpy
    pv = vecadd_k.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    ps = saxpy_k.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    results: dict[str, dict[str, float]] = {"vecadd": {}, "saxpy": {}}

    def record(kernel: str, impl: str, seconds: float) -> None:
        results[kernel][impl] = bytes_moved / seconds / 1e9

    record("vecadd", "safekernels", time_cuda(lambda: vecadd_k.launch(pv, stream, ab, bb, cb), torch))
    assert torch.equal(c, a + b)
    record(
        "saxpy", "safekernels", time_cuda(lambda: saxpy_k.launch(ps, stream, alpha, ab, bb, cb, n), torch)
    )
    # the same kernels through their one-element-per-thread entry (what the compiler emitted before the
    # coarsened entry, docs/simt-compiler.md), launched raw on the parameters the safe launch just packed,
    # and the coarsened output checked bit for bit against it
    from safekernels.simt.gpu_launch import launcher_for as _launcher_for

    driver_ = _driver()
    raw_stream_ = torch_stream.cuda_stream
    g_full = (n + 255) // 256
    coarse_used = {}
    for name, kernel, prepared, launch in (
        ("vecadd", vecadd_k, pv, lambda: vecadd_k.launch(pv, stream, ab, bb, cb)),
        ("saxpy", saxpy_k, ps, lambda: saxpy_k.launch(ps, stream, alpha, ab, bb, cb, n)),
    ):
        lv = _launcher_for(kernel, dev)
        coarse_used[name] = lv.entry_for(prepared.grid, prepared.block)[1][0] != prepared.grid[0]
        launch()
        torch.cuda.synchronize()
        coarse_out = c.clone()
        c.zero_()
        fn_scalar, params = lv.function, lv.param_address

        def scalar_launch(fn_scalar: Any = fn_scalar, params: int = params) -> None:
            check(driver_.cuLaunchKernel(fn_scalar, g_full, 1, 1, 256, 1, 1, 0, raw_stream_, params, 0), "launch")

        scalar_launch()
        torch.cuda.synchronize()
        assert torch.equal(coarse_out, c), f"{name}: coarsened and scalar entries differ"
        record(name, "safekernels, one element per thread (before)", time_cuda(scalar_launch, torch))
    record("vecadd", "torch", time_cuda(lambda: torch.add(a, b, out=c), torch))
    record("saxpy", "torch", time_cuda(lambda: torch.add(b, a, alpha=alpha, out=c), torch))
    record("vecadd", "copy (d2d, 2/3 of the bytes)", time_cuda(lambda: c.copy_(a), torch) * 3 / 2)

    notes: list[str] = []
    try:
        import triton
        import triton.language as tl

        @triton.jit
        def tri_add(x_ptr, y_ptr, z_ptr, n_elem, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offs < n_elem
            tl.store(
                z_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask
            )

        @triton.jit
        def tri_saxpy(al, x_ptr, y_ptr, z_ptr, n_elem, BLOCK: tl.constexpr):  # type: ignore[no-untyped-def]
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offs < n_elem
            tl.store(
                z_ptr + offs,
                al * tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
                mask=mask,
            )

        grid = (triton.cdiv(n, 1024),)
        t = time.perf_counter()
        tri_add[grid](a, b, c, n, BLOCK=1024)
        torch.cuda.synchronize()
        triton_first = time.perf_counter() - t
        notes.append(f"Triton first call (compile + launch): {triton_first * 1e3:.0f} ms")
        record("vecadd", "Triton", time_cuda(lambda: tri_add[grid](a, b, c, n, BLOCK=1024), torch))
        record("saxpy", "Triton", time_cuda(lambda: tri_saxpy[grid](alpha, a, b, c, n, BLOCK=1024), torch))
        tiny = torch.zeros(1, device="cuda")
        tri_overhead = host_overhead(
            lambda: tri_add[(1,)](tiny, tiny, tiny, 1, BLOCK=1024), torch.cuda.synchronize, 5000
        )
    except Exception as exc:
        notes.append(f"Triton failed: {type(exc).__name__}: {exc}")
        tri_overhead = float("nan")

    try:
        import cupy as cp

        ca, cbx, cc = cp.asarray(a), cp.asarray(b), cp.asarray(c)
        saxpy_k = cp.ElementwiseKernel(
            "float32 al, float32 x, float32 y", "float32 z", "z = al * x + y", "sk_saxpy"
        )
        record("vecadd", "CuPy", time_cuda(lambda: cp.add(ca, cbx, out=cc), torch))
        record("saxpy", "CuPy", time_cuda(lambda: saxpy_k(np.float32(alpha), ca, cbx, cc), torch))
        tiny_c = cp.zeros(1, dtype=cp.float32)
        cupy_overhead = host_overhead(
            lambda: cp.add(tiny_c, tiny_c, out=tiny_c), cp.cuda.Device().synchronize
        )
    except Exception as exc:
        notes.append(f"CuPy failed: {type(exc).__name__}: {exc}")
        cupy_overhead = float("nan")

    # -- nvcc ------------------------------------------------------------------------------------------------
    driver = _driver()
    try:
        work = Path(tempfile.mkdtemp(prefix="sk-nvcc-"))
        (work / "k.cu").write_text(CUDA_SRC)
        nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        t = time.perf_counter()
        subprocess.run(
            [nvcc, "-O3", "-arch=sm_90", "-cubin", "-o", str(work / "k.cubin"), str(work / "k.cu")],
            check=True,
            capture_output=True,
        )
        notes.append(f"nvcc -O3 -arch=sm_90 -cubin (2 kernels): {(time.perf_counter() - t) * 1e3:.0f} ms")
        module = dev.backend.load_module((work / "k.cubin").read_bytes())  # type: ignore[attr-defined]
        fv = dev.backend.get_function(module, "vecadd")  # type: ignore[attr-defined]
        fs = dev.backend.get_function(module, "saxpy")  # type: ignore[attr-defined]

        def packed(values: list[Any]) -> tuple[Any, int]:
            arr = (ctypes.c_void_p * len(values))(*[ctypes.addressof(v) for v in values])
            return (values, arr), ctypes.addressof(arr)

        keep_v, addr_v = packed(
            [
                ctypes.c_uint64(a.data_ptr()),
                ctypes.c_int64(n),
                ctypes.c_uint64(b.data_ptr()),
                ctypes.c_int64(n),
                ctypes.c_uint64(c.data_ptr()),
                ctypes.c_int64(n),
            ]
        )
        keep_s, addr_s = packed(
            [
                ctypes.c_float(alpha),
                ctypes.c_uint64(a.data_ptr()),
                ctypes.c_int64(n),
                ctypes.c_uint64(b.data_ptr()),
                ctypes.c_int64(n),
                ctypes.c_uint64(c.data_ptr()),
                ctypes.c_int64(n),
                ctypes.c_uint32(n),
            ]
        )
        raw = torch_stream.cuda_stream
        g = (n + 255) // 256
        record(
            "vecadd",
            "nvcc -O3 (CUDA C++)",
            time_cuda(lambda: driver.cuLaunchKernel(fv, g, 1, 1, 256, 1, 1, 0, raw, addr_v, 0), torch),
        )
        record(
            "saxpy",
            "nvcc -O3 (CUDA C++)",
            time_cuda(lambda: driver.cuLaunchKernel(fs, g, 1, 1, 256, 1, 1, 0, raw, addr_s, 0), torch),
        )
        del keep_v, keep_s
    except Exception as exc:
        notes.append(f"nvcc path failed: {type(exc).__name__}: {exc}")

    # -- host launch overhead (1 block of 256 threads, 1 element) -------------------------------------------
    one_a, one_b, one_c = (torch.zeros(1, device="cuda") for _ in range(3))
    oa, ob, oc = sk.as_buffer(one_a, dev), sk.as_buffer(one_b, dev), sk.as_buffer(one_c, dev)
    p1 = kc.vecadd.prepare(simt.LaunchConfig1D.for_len(1, block=256), dev)
    safe_us = host_overhead(lambda: kc.vecadd.launch(p1, stream, oa, ob, oc), torch.cuda.synchronize)
    torch_native_us = host_overhead(
        lambda: kc.vecadd.launch(p1, stream, one_a, one_b, one_c), torch.cuda.synchronize
    )
    from safekernels.simt.gpu_launch import launcher_for

    launcher = launcher_for(kc.vecadd, dev)
    launcher.launch((1, 1, 1), (256, 1, 1), 0, stream.handle, [oa, ob, oc])
    fn, addr, raw_stream = launcher.function, launcher.param_address, stream.handle.handle
    raw_us = host_overhead(
        lambda: driver.cuLaunchKernel(fn, 1, 1, 1, 256, 1, 1, 0, raw_stream, addr, 0), torch.cuda.synchronize
    )
    pack_us = host_overhead(
        lambda: launcher.launch((1, 1, 1), (256, 1, 1), 0, stream.handle, [oa, ob, oc]),
        torch.cuda.synchronize,
    )
    torch_us = host_overhead(lambda: torch.add(one_a, one_b, out=one_c), torch.cuda.synchronize)
    check(driver.cuCtxSynchronize(), "sync")

    # -- report ---------------------------------------------------------------------------------------------
    limits = dev.limits
    v = versions(torch)
    lines = [
        f"## SIMT codegen benchmark — {datetime.date.today().isoformat()}",
        "",
        f"GPU: {limits.name} (sm_{limits.compute_capability[0]}{limits.compute_capability[1]}, "
        f"{limits.multiprocessor_count} SMs). Versions: "
        + ", ".join(f"{k} {val}" for k, val in v.items())
        + ".",
        "",
        f"### Throughput, {n} f32 elements (GB/s, bytes read + written; median of `sk.testing.do_bench`)",
        "",
        "| implementation | vecadd GB/s | saxpy GB/s | vecadd vs best | saxpy vs best |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    others = ("torch", "Triton", "CuPy")
    best = {k: max([results[k].get(o, 0.0) for o in others] or [1.0]) for k in results}
    impls = ["safekernels", "safekernels, one element per thread (before)", "nvcc -O3 (CUDA C++)", "torch",
             "Triton", "CuPy"]  # fmt: skip
    for impl in impls:
        va, sa = results["vecadd"].get(impl), results["saxpy"].get(impl)
        if va is None and sa is None:
            continue
        lines.append(
            f"| {impl} | {va or float('nan'):.0f} | {sa or float('nan'):.0f} | "
            f"{(va or 0) / best['vecadd']:.3f} | {(sa or 0) / best['saxpy']:.3f} |"
        )
    copy_bw = results["vecadd"].get("copy (d2d, 2/3 of the bytes)")
    if copy_bw:
        lines.append(f"| device-to-device copy (torch `copy_`) | {copy_bw:.0f} | | | |")
    sk_v, sk_s = results["vecadd"].get("safekernels", 0), results["saxpy"].get("safekernels", 0)
    nv_v, nv_s = results["vecadd"].get("nvcc -O3 (CUDA C++)"), results["saxpy"].get("nvcc -O3 (CUDA C++)")
    lines += [
        "",
        f"The safekernels row launches the coarsened entry (4 elements per thread, 16-byte accesses): "
        f"vecadd {'yes' if coarse_used.get('vecadd') else 'NO'}, saxpy {'yes' if coarse_used.get('saxpy') else 'NO'}; "
        "its outputs equal the one-element entry's bit for bit.",
    ]
    lines += ["", "Ratios (targets in docs/reference.md):", ""]
    if nv_v and nv_s:
        lines.append(
            f"- safekernels / nvcc -O3: vecadd {sk_v / nv_v:.3f}, saxpy {sk_s / nv_s:.3f} (target >= 0.98)"
        )
    if copy_bw:
        lines.append(f"- safekernels vecadd / d2d copy bandwidth: {sk_v / copy_bw:.3f} (target >= 0.95)")
    lines.append(
        f"- safekernels / best of torch, Triton, CuPy: vecadd {sk_v / best['vecadd']:.3f}, "
        f"saxpy {sk_s / best['saxpy']:.3f} (target >= 0.98)"
    )
    cold_rest = [ms for name, ms in cold.items() if name != first_kernel]
    lines += [
        "",
        "### Compile time (source -> cubin, sm_90)",
        "",
        f"- first compile in a fresh process ({first_kernel}, includes LLVM target init): "
        f"{cold[first_kernel]:.1f} ms",
        f"- cold, median over the other {len(cold_rest)} catalog kernels: "
        f"{statistics.median(cold_rest):.1f} ms "
        f"(max {max(cold_rest):.1f} ms; kernels using `math.*` link libdevice)",
        f"- warm disk cache, median per kernel: {statistics.median(warm.values()):.3f} ms "
        f"(max {max(warm.values()):.3f} ms)",
        "- per kernel cold ms: " + ", ".join(f"{k} {v:.1f}" for k, v in cold.items()),
        f"- catalog module import (decorators): {import_s * 1e3:.1f} ms",
        "",
        "### Host overhead per launch (µs, wall clock, tiny grid, best of 3 × 20000)",
        "",
        "| launch path | µs/launch | vs raw cuLaunchKernel |",
        "| --- | ---: | ---: |",
        f"| raw `cuLaunchKernel` (cuda.bindings, pre-packed params) | {raw_us:.2f} | 1.00 |",
        f"| safekernels launcher only (packing + cuLaunchKernel) | {pack_us:.2f} | {pack_us / raw_us:.2f} |",
        f"| safekernels safe launch (`kernel.launch`, DeviceBuffer args) | {safe_us:.2f} | "
        f"{safe_us / raw_us:.2f} |",
        f"| safekernels safe launch with torch tensors as args | {torch_native_us:.2f} | "
        f"{torch_native_us / raw_us:.2f} |",
        f"| torch.add (1 element) | {torch_us:.2f} | {torch_us / raw_us:.2f} |",
        f"| CuPy add (1 element) | {cupy_overhead:.2f} | {cupy_overhead / raw_us:.2f} |",
        f"| Triton (1 block) | {tri_overhead:.2f} | {tri_overhead / raw_us:.2f} |",
        "",
        "numba-cuda: not run (the device image's numba-cuda fails with its numpy 2.5; no wheel carried).",
        "",
        *[f"- {note}" for note in notes],
        "",
    ]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
