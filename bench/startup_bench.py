"""Where the first call of a kernel in a new process goes: imports, CUDA context, compile cache, module load.

Each measurement is a fresh `python3` process (this script with `--child`), timing its phases with
`time.perf_counter`; the first call is also run under `cProfile`, and the functions that account for it are
reported by cumulative time (cuda-bindings import and `cuInit`, the compile cache's key and read, nvJitLink,
`cuModuleLoadData`, the launch plan).  Rows:

- a GEMM op (`bench/kernels/tile_kernels.py::gemm_f16` through `custom_op`, 2048^3 f16) with a warm disk
  cache (a first process filled it) and with a cold one (an empty `SAFEKERNELS_CACHE_DIR`: a full compile);
- a tiny op (a 4096-element f32 add) with a warm cache;
- Triton's GEMM (the tutorial kernel, one fixed configuration) first call, warm and cold `TRITON_CACHE_DIR`;
- `import safekernels` alone (what every user pays), and which heavy modules it pulls in.

    PYTHONPATH=src:. python3 bench/startup_bench.py [--out FILE.md] [--json FILE.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
M = K = NN = 2048
#: functions whose cumulative time explains a first call (name fragments, matched in cProfile's table)
PHASES = (
    ("cuda-bindings import + cuInit + context", "cuda_backend.py", "_driver"),
    ("CudaBackend() (device attributes, context)", "cuda_backend.py", "__init__"),
    ("tile specialization lookup (whole compile-or-load)", "gpu_launch.py", "tile_kernel_for"),
    ("compile_tile (cache key + read, or compile)", "pipeline.py", "compile_tile"),
    ("cache key (sources, versions)", "pipeline.py", "cache_key"),
    ("cache read", "cache.py", "load"),
    ("nvJitLink version", "cubin.py", "nvjitlink_version"),
    ("libdevice lookup", "libdevice.py", "find_libdevice"),
    ("llvmlite import / LLVM", "llvmlite", ""),
    ("lowering (KIR -> LLVM IR)", "lower.py", "lower_tile_kernel"),
    ("PTX (LLVM)", "ptx.py", "optimize_and_emit"),
    ("cubin (nvJitLink)", "cubin.py", "assemble_cubin"),
    ("module load (cuModuleLoadData)", "gpu_launch.py", "__init__"),
    ("launch plan + checks (_execute)", "kernel.py", "_execute"),
    ("custom_op real kernel (_impl)", "op.py", "_impl"),
)


def child(kind: str) -> None:
    """One new process: time each phase, print one JSON line."""
    import cProfile
    import pstats

    phases: dict[str, float] = {}
    mark = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal mark
        now = time.perf_counter()
        phases[name] = now - mark
        mark = now

    if kind == "import":
        import safekernels  # noqa: F401

        lap("import safekernels")
        heavy = [
            m for m in ("numpy", "torch", "llvmlite", "cuda", "cuda.bindings", "libcst", "mypy") if m in sys.modules
        ]
        print(json.dumps({"phases": phases, "modules": len(sys.modules), "heavy": heavy}))
        return
    import torch

    lap("import torch")
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
    lap("torch CUDA init")
    if kind.startswith("triton"):
        import triton
        import triton.language as tl

        lap("import triton")

        @triton.jit
        def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):  # type: ignore[no-untyped-def]
            pid_m = tl.program_id(0)
            pid_n = tl.program_id(1)
            rm = pid_m * BM + tl.arange(0, BM)
            rn = pid_n * BN + tl.arange(0, BN)
            rk = tl.arange(0, BK)
            a = a_ptr + rm[:, None] * K + rk[None, :]
            b = b_ptr + rk[:, None] * N + rn[None, :]
            acc = tl.zeros((BM, BN), dtype=tl.float32)
            for _ in range(0, K, BK):
                acc += tl.dot(tl.load(a), tl.load(b))
                a += BK
                b += BK * N
            tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.float16))

        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, NN, device="cuda", dtype=torch.float16)
        c = torch.empty(M, NN, device="cuda", dtype=torch.float16)
        lap("inputs")
        matmul_kernel[(M // 128, NN // 128)](a, b, c, M, NN, K, BM=128, BN=128, BK=64)
        torch.cuda.synchronize()
        lap("first call")
        print(json.dumps({"phases": phases}))
        return
    import safekernels.torch as skt
    from bench.kernels.tile_kernels import gemm_f16

    lap("import safekernels.torch + kernels")
    if kind.startswith("gemm"):
        op = skt.custom_op("skstart::gemm", gemm_f16, outputs={"c": lambda a, b: (a.shape[0], b.shape[1])})
        a = torch.randn(M, K, device="cuda", dtype=torch.float16)
        b = torch.randn(K, NN, device="cuda", dtype=torch.float16)
        inputs: tuple[Any, ...] = (a, b)
    else:
        from bench.torch_host_cost import N, vadd

        op = skt.custom_op("skstart::vadd", vadd, outputs={"z": "x"}, tile_shapes={"z": (N,)})
        inputs = (torch.randn(N, device="cuda"), torch.randn(N, device="cuda"))
    lap("register op + inputs")
    profiled = kind.endswith("+prof")  # cProfile slows Python-heavy phases: timed rows run without it
    profiler = cProfile.Profile()
    if profiled:
        profiler.enable()
    out = op(*inputs)
    torch.cuda.synchronize()
    if profiled:
        profiler.disable()
    lap("first call")
    op(*inputs)
    torch.cuda.synchronize()
    lap("second call")
    if kind.startswith("gemm"):
        ref = inputs[0].float() @ inputs[1].float()
        torch.testing.assert_close(out.float(), ref, rtol=2e-2, atol=2e-1)
    if not profiled:
        print(json.dumps({"phases": phases, "llvmlite_imported": "llvmlite" in sys.modules}))
        return
    stats = pstats.Stats(profiler)
    found: dict[str, float] = {}
    for (filename, _line, func), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        for label, file_part, func_part in PHASES:
            if file_part in filename and (not func_part or func == func_part):
                found[label] = max(found.get(label, 0.0), ct)
    top = sorted(
        ((ct, f"{Path(fn).name}:{func}") for (fn, _l, func), (_c, _n, _t, ct, _r) in stats.stats.items()),  # type: ignore[attr-defined]
        reverse=True,
    )[:25]
    print(
        json.dumps(
            {
                "phases": phases,
                "first_call_parts": found,
                "top": [(round(ct, 4), name) for ct, name in top],
                "llvmlite_imported": "llvmlite" in sys.modules,
            }
        )
    )


def run_child(kind: str, env: dict[str, str]) -> dict[str, Any]:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", kind],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        return {"error": proc.stderr[-3000:], "wall_s": wall}
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["wall_s"] = wall
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--child", default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    base = dict(os.environ)
    base["PYTHONPATH"] = f"{ROOT / 'src'}{os.pathsep}{ROOT}"
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        sk_cache = str(Path(tmp) / "sk")
        tri_cache = str(Path(tmp) / "triton")
        env = {**base, "SAFEKERNELS_CACHE_DIR": sk_cache, "TRITON_CACHE_DIR": tri_cache}
        results["import safekernels"] = run_child("import", env)
        results["GEMM op, cold cache (compile)"] = run_child("gemm", env)
        results["GEMM op, warm cache"] = run_child("gemm", env)
        results["GEMM op, warm cache, profiled"] = run_child("gemm+prof", env)
        results["tiny add op, warm cache"] = run_child("tiny", env)
        if os.environ.get("STARTUP_COLD_PROFILE"):
            cold_env = {**env, "SAFEKERNELS_CACHE_DIR": str(Path(tmp) / "sk-cold-profiled")}
            results["GEMM op, cold cache, profiled"] = run_child("gemm+prof", cold_env)
        results["Triton GEMM, cold cache"] = run_child("triton", env)
        results["Triton GEMM, warm cache"] = run_child("triton", env)
    for label, r in results.items():
        print(label, json.dumps(r)[:2000], flush=True)
    lines = [
        f"### First call in a new process ({time.strftime('%Y-%m-%d')}, {sys.version.split()[0]})",
        "",
        "| process | wall (s) | first call (s) | phases (s) |",
        "|---|---|---|---|",
    ]
    for label, r in results.items():
        if "error" in r:
            lines.append(f"| {label} | failed | | {r['error'].splitlines()[-1] if r['error'] else ''} |")
            continue
        phases = r.get("phases", {})
        first = phases.get("first call")
        parts = ", ".join(f"{k} {v:.3f}" for k, v in phases.items() if k != "first call")
        lines.append(f"| {label} | {r['wall_s']:.2f} | {'' if first is None else f'{first:.3f}'} | {parts} |")
    for label, r in results.items():
        parts = r.get("first_call_parts")
        if parts:
            lines += ["", f"{label}, first call by function (cumulative s): "]
            lines += [f"- {k}: {v:.3f}" for k, v in sorted(parts.items(), key=lambda kv: -kv[1])]
    text = "\n".join(lines)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
