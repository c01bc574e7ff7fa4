"""One H200 call for the whole-program route (`codegen.whole_program`) and issue 24's attention rows.

    PYTHONPATH=src:. python3 bench/whole_program_bench.py OUT_DIR [--rounds=3] [--only=route,gemm,attention,schedules]

- route: the warp-specialized bf16 GEMM (`warpspec.ENABLED`) through the driver's JIT linker and through
  `cuModuleLoadDataEx`; each one's verbose JIT log (C7504 or not, registers) and, where `cuobjdump` exists, the
  cubins' `USETMAXREG` count and register use against nvJitLink's cubin of the same PTX;
- gemm: f16/bf16 4096^3 and 8192^3, kernel only, TFLOP/s, interleaved rounds: the default path, warp
  specialized through the whole-program route, warp specialized through nvJitLink (setmaxnreg ignored), the
  same without persistent/store, torch.matmul; each result checked;
- attention: bf16, (4, 32, 4096) and (8, 16, 2048), d = 128 and 64, causal and not: the plain program
  (`attention_plain.make_attention_plain`, `fast_math`) as the compiler builds it, the tuned bench kernel
  (d = 128), the tuned kernel without the operand fence (`wgmma.FENCE_OPERANDS`), SDPA's cuDNN and
  FlashAttention-2 backends, Triton's tutorial kernel (autotuned); every output checked against SDPA;
- schedules (only when asked): FlashAttention-3's schedules as switches on the same cases -- a producer warpgroup
  with and without ping-pong consumers, and the next block's scores before the softmax -- against cuDNN.

Writes `whole_program.json`, `whole_program.md` and the SASS facts into OUT_DIR.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

import torch

import safekernels as sk
from bench.kernels import attention_plain as P
from bench.kernels import tensor_core_kernels as T
from bench.kernels import tile_kernels as K
from bench.tensor_core_bench import compile_variant
from bench.tile_bench import bench, rel
from bench.tile_harness import arg
from safekernels.codegen import whole_program
from safekernels.codegen.tile import warpspec, wgmma

OUT: dict[str, Any] = {}
MD: list[str] = []


def _sass(cubin: bytes, label: str, out: Path) -> dict[str, Any]:
    tool = shutil.which("cuobjdump")
    if tool is None:
        return {"cuobjdump": "absent"}
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        sass = subprocess.run([tool, "-sass", f.name], capture_output=True, text=True).stdout
        res = subprocess.run([tool, "-res-usage", f.name], capture_output=True, text=True).stdout
    (out / "sass").mkdir(exist_ok=True)
    (out / "sass" / f"{re.sub(r'[^A-Za-z0-9_]+', '_', label)}.sass").write_text(sass)
    if not cubin:
        return {"cubin": "none"}
    ops = ("HGMMA", "USETMAXREG", "UTMALDG", "MUFU", "BAR", "LDL", "STL", "FMUL", "FFMA", "FADD", "WARPSYNC")
    counts: dict[str, Any] = {op: len(re.findall(rf"\b{op}\b", sass)) for op in ops}
    counts["instructions"] = len(re.findall(r"/\*[0-9a-f]{4,}\*/", sass))  # 5 digits past 4096 instructions
    counts["regs"] = max((int(x) for x in re.findall(r"REG:(\d+)", res)), default=-1)
    counts["stack"] = max((int(x) for x in re.findall(r"STACK:(\d+)", res)), default=-1)
    return counts


def _route(device: Any, out: Path) -> None:
    """Does each driver route honour setmaxnreg?  Logs, registers, SASS."""
    c = torch.empty(4096, 4096, device="cuda", dtype=torch.bfloat16)
    a, b = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16), torch.randn_like(c)
    compiled = compile_variant(K.gemm_bf16, [arg(c, (K.BM, K.BN)), arg(a), arg(b)], {"ws": True})
    res: dict[str, Any] = {"route": compiled.route, "driver": whole_program.driver_version()}
    prev = device.backend.enter_always()
    try:
        link = whole_program.link_cubin(compiled.ptx, compiled.arch, compiled.name)
        res["link_log"] = link.info_log[-3000:]
        res["link_c7504"] = link.setmaxnreg_ignored
        res["link_sass"] = _sass(link.cubin, "ws_gemm_driver_link", out)
        res["whole_program_sass"] = _sass(loaded_image(compiled, device), "ws_gemm_whole_program_ptxas", out)
        _, log = whole_program.load_ptx(compiled.ptx, compiled.arch, compiled.name)
        res["load_log"] = log[-3000:]
        res["load_c7504"] = "C7504" in log
    finally:
        device.backend.leave(prev)
    res["nvjitlink_sass"] = _sass(compiled.cubin, "ws_gemm_nvjitlink", out)
    OUT["route"] = res
    print(json.dumps(res, indent=1), flush=True)
    MD.append(f"route: driver {res['driver']}, link C7504={res['link_c7504']}, load C7504={res['load_c7504']}")
    MD.append(f"- driver link SASS: {res['link_sass']}")
    MD.append(f"- whole-program ptxas SASS: {res['whole_program_sass']}")
    MD.append(f"- nvJitLink SASS: {res['nvjitlink_sass']}")
    MD.append("")


def _rounds(launches: dict[str, Any], flops: float, rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {label: [] for label in launches}
    for _ in range(rounds):
        for label, fn in launches.items():
            times[label].append(flops / bench(fn) / 1e9)
    return {label: [statistics.median(t), min(t), max(t)] for label, t in times.items()}


GEMM_VARIANTS: dict[str, tuple[dict[str, bool], bool]] = {
    "default (tma+persistent+store)": ({}, True),
    "ws, whole-program": ({"ws": True, "persistent": False, "store": False}, True),
    "ws, nvJitLink": ({"ws": True, "persistent": False, "store": False}, False),
    "tma (no ws)": ({"persistent": False, "store": False}, True),
}


def _gemm(device: Any, raw: Any, rounds: int, out: Path) -> None:
    from safekernels.tile.gpu_launch import TileGpuKernel

    rows = []
    for dt, kern in ((torch.float16, K.gemm_f16), (torch.bfloat16, K.gemm_bf16)):
        for s in (4096, 8192):
            a, b = torch.randn(s, s, device="cuda", dtype=dt), torch.randn(s, s, device="cuda", dtype=dt)
            want = a.float() @ b.float()
            c = torch.empty(s, s, device="cuda", dtype=dt)
            vals = [arg(c, (K.BM, K.BN)), arg(a), arg(b)]
            grid = (s // K.BM, s // K.BN)
            launches: dict[str, Any] = {}
            errs: dict[str, float] = {}
            for label, (switches, whole) in GEMM_VARIANTS.items():
                saved = whole_program.ENABLED
                whole_program.ENABLED = whole
                try:
                    compiled = compile_variant(kern, vals, switches)
                finally:
                    whole_program.ENABLED = saved
                loaded = TileGpuKernel(compiled, device.backend)

                def go(loaded: Any = loaded, vals: Any = vals, grid: Any = grid, kern: Any = kern) -> None:
                    loaded.launch(kern.params, vals, grid, raw)

                c.fill_(float("nan"))
                go()
                torch.cuda.synchronize()
                errs[label] = rel(c, want)
                launches[label] = go
                if s == 4096 and dt == torch.bfloat16:
                    image = loaded_image(compiled, device)
                    OUT.setdefault("gemm_sass", {})[label] = _sass(image, f"gemm_{label[:12].replace(' ', '_')}", out)
            launches["torch.matmul"] = lambda a=a, b=b: torch.matmul(a, b)
            row: dict[str, Any] = {"case": f"gemm {str(dt)[6:]} {s}^3", "errs": errs}
            row.update(_rounds(launches, 2 * s**3, rounds))
            rows.append(row)
            print(json.dumps(row), flush=True)
    OUT["gemm"] = rows
    _table(rows)


def loaded_image(compiled: Any, device: Any) -> bytes:
    """The machine code the launcher runs, for its SASS: nvJitLink's cubin, or for a driver-route kernel the same
    whole-program compile by the toolkit's `ptxas` where the machine has one (investigation only)."""
    if compiled.route != "driver":
        return bytes(compiled.cubin)
    tool = shutil.which("ptxas")
    if tool is None:
        return b""
    with tempfile.TemporaryDirectory() as work:
        (Path(work) / "k.ptx").write_text(compiled.ptx)
        subprocess.run([tool, f"-arch={compiled.arch}", "-o", f"{work}/k.cubin", f"{work}/k.ptx"], check=True)
        return (Path(work) / "k.cubin").read_bytes()


def _table(rows: list[dict[str, Any]]) -> None:
    labels = [k for k in rows[0] if k not in ("case", "errs")]
    MD.append("| case | " + " | ".join(labels) + " | max err |")
    MD.append("|---" * (len(labels) + 2) + "|")
    for r in rows:
        cells = [f"{r[lb][0]:.0f} ({r[lb][1]:.0f}-{r[lb][2]:.0f})" for lb in labels]
        MD.append(f"| {r['case']} | " + " | ".join(cells) + f" | {max(r['errs'].values()):.1e} |")
    MD.append("")


def _attention(device: Any, raw: Any, rounds: int, out: Path) -> None:
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from bench.kernels import triton_attention
    from safekernels.tile.gpu_launch import TileGpuKernel

    rows = []
    plain = {d: P.make_attention_plain(128, 128, d) for d in (128, 64)}
    for b, h, s in ((4, 32, 4096), (8, 16, 2048)):
        for d in (128, 64):
            q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv")
            flat = [x.view(b * h * s, d) for x in (q, k, v)]
            for causal in (False, True):
                want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
                vals_out = torch.empty(b * h * s, d, device="cuda", dtype=torch.bfloat16)
                launches: dict[str, Any] = {}
                errs: dict[str, float] = {}
                kernels: list[tuple[str, Any, bool, bool]] = [
                    ("plain+fm (compiler)", plain[d], True, False),
                    ("plain+fm, producer warpgroup", plain[d], True, True),
                ]
                if d == 128:
                    kernels += [("tuned", T.attention, True, False)]
                    kernels += [("tuned, no operand fence", T.attention, False, False)]
                for label, kern, fence, producer in kernels:
                    vals = [arg(vals_out, (128, d)), *(arg(x) for x in flat), s, 1.0 / math.sqrt(d), int(causal)]
                    wgmma.FENCE_OPERANDS, warpspec.ATTENTION = fence, producer
                    try:
                        compiled = compile_variant(kern, vals, {})
                    finally:
                        wgmma.FENCE_OPERANDS, warpspec.ATTENTION = True, False
                    loaded = TileGpuKernel(compiled, device.backend)
                    grid = (b * h * s // 128, 1)

                    def go(loaded: Any = loaded, vals: Any = vals, grid: Any = grid, kern: Any = kern) -> None:
                        loaded.launch(kern.params, vals, grid, raw)

                    vals_out.fill_(float("nan"))
                    go()
                    torch.cuda.synchronize()
                    errs[label] = rel(vals_out.view(b, h, s, d), want)
                    launches[label] = go
                    if (b, s, causal) == (4, 4096, False):
                        OUT.setdefault("attention_sass", {})[f"{label} d={d}"] = _sass(
                            loaded_image(compiled, device), f"att_{d}_{label}", out
                        )
                        OUT.setdefault("jit_logs", {})[f"{label} d={d}"] = loaded.jit_log[-1500:]
                sdpa_backends = (("cuDNN SDPA", SDPBackend.CUDNN_ATTENTION), ("FA2 SDPA", SDPBackend.FLASH_ATTENTION))
                for label, backend in sdpa_backends:

                    def sdpa(backend: Any = backend, causal: bool = causal, qkv: Any = (q, k, v)) -> Any:
                        with sdpa_kernel(backend):
                            return torch.nn.functional.scaled_dot_product_attention(*qkv, is_causal=causal)

                    try:
                        errs[label] = rel(sdpa(), want)
                        launches[label] = sdpa
                    except Exception as exc:
                        print(f"{label}: unavailable ({type(exc).__name__}: {exc})", flush=True)
                tout = torch.empty_like(q)
                errs["Triton"] = rel(triton_attention.attention(q, k, v, causal, tout), want)
                launches["Triton"] = lambda q=q, k=k, v=v, c=causal, o=tout: triton_attention.attention(q, k, v, c, o)
                flops = 4 * b * h * s * s * d / (2 if causal else 1)
                case = f"{b}x{h}x{s} d={d} {'causal' if causal else 'non-causal'}"
                row: dict[str, Any] = {"case": case, "errs": errs}
                row.update(_rounds(launches, flops, rounds))
                rows.append(row)
                print(json.dumps(row), flush=True)
    OUT["attention"] = rows
    for r in rows:
        best = r["plain+fm (compiler)"][0]
        r["ratio_vs_cudnn"] = best / r["cuDNN SDPA"][0] if "cuDNN SDPA" in r else None
    MD.append(
        "| case | plain+fm | plain+fm, producer WG | tuned | tuned, no fence | cuDNN | FA2 | Triton "
        "| plain / cuDNN | max err |"
    )
    MD.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:

        def cell(label: str, r: dict[str, Any] = r) -> str:
            return f"{r[label][0]:.0f}" if label in r else ""

        ratio = f"{r['ratio_vs_cudnn']:.2f}" if r.get("ratio_vs_cudnn") else ""
        MD.append(
            f"| {r['case']} | {cell('plain+fm (compiler)')} | {cell('plain+fm, producer warpgroup')} | "
            f"{cell('tuned')} | {cell('tuned, no operand fence')} | "
            f"{cell('cuDNN SDPA')} | {cell('FA2 SDPA')} | {cell('Triton')} | {ratio} | {max(r['errs'].values()):.1e} |"
        )
    MD.append("")


def _schedules(device: Any, raw: Any, rounds: int, out: Path) -> None:
    """FlashAttention-3's schedules as opt-in switches, against the default and cuDNN: a producer warpgroup with
    the two consumers taking turns at the tensor cores (`warpspec.ATTENTION` + `wgmma_sync.PINGPONG`), and the
    next block's scores issued before this block's softmax (`make_attention_pipelined`, DEFER)."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from safekernels.codegen.tile import wgmma_sync
    from safekernels.tile.gpu_launch import TileGpuKernel

    rows = []
    plain = {d: P.make_attention_plain(128, 128, d) for d in (128, 64)}
    piped = {d: T.make_attention_pipelined(128, 128, d) for d in (128, 64)}
    labels = ["plain+fm (compiler)", "producer + ping-pong", "producer, no ping-pong", "pipelined (s_next)"]
    for b, h, s in ((4, 32, 4096), (8, 16, 2048)):
        for d in (128, 64):
            q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv")
            flat = [x.view(b * h * s, d) for x in (q, k, v)]
            for causal in (False, True):
                want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
                o = torch.empty(b * h * s, d, device="cuda", dtype=torch.bfloat16)
                launches: dict[str, Any] = {}
                errs: dict[str, float] = {}
                variants = [(labels[0], plain[d], False, False), (labels[1], plain[d], True, True)]
                variants += [(labels[2], plain[d], True, False), (labels[3], piped[d], False, False)]
                for label, kern, producer, pingpong in variants:
                    vals = [arg(o, (128, d)), *(arg(x) for x in flat), s, 1.0 / math.sqrt(d), int(causal)]
                    warpspec.ATTENTION, wgmma_sync.PINGPONG = producer, pingpong
                    try:
                        compiled = compile_variant(kern, vals, {"pingpong": pingpong})
                    finally:
                        warpspec.ATTENTION, wgmma_sync.PINGPONG = False, False
                    loaded = TileGpuKernel(compiled, device.backend)
                    grid = (b * h * s // 128, 1)

                    def go(loaded: Any = loaded, vals: Any = vals, grid: Any = grid, kern: Any = kern) -> None:
                        loaded.launch(kern.params, vals, grid, raw)

                    o.fill_(float("nan"))
                    go()
                    torch.cuda.synchronize()
                    errs[label] = rel(o.view(b, h, s, d), want)
                    launches[label] = go
                    if (b, s, causal) == (4, 4096, False) and label != labels[0]:
                        OUT.setdefault("schedule_sass", {})[f"{label} d={d}"] = _sass(
                            loaded_image(compiled, device), f"sched_{d}_{label}", out
                        )

                def cudnn(qkv: Any = (q, k, v), causal: bool = causal) -> Any:
                    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                        return torch.nn.functional.scaled_dot_product_attention(*qkv, is_causal=causal)

                launches["cuDNN SDPA"] = cudnn
                flops = 4 * b * h * s * s * d / (2 if causal else 1)
                case = f"{b}x{h}x{s} d={d} {'causal' if causal else 'non-causal'}"
                row: dict[str, Any] = {"case": case, "errs": errs}
                row.update(_rounds(launches, flops, rounds))
                rows.append(row)
                print(json.dumps(row), flush=True)
    OUT["schedules"] = rows
    _table(rows)


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    rounds = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--rounds=")), 3)
    only = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--only=")), "route,gemm,attention").split(",")
    import triton  # type: ignore[import-not-found,unused-ignore]

    device = sk.Device(0)
    raw = torch.cuda.current_stream().cuda_stream
    env = f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}"
    OUT["env"] = env
    MD.append(env + "\n")
    parts = (("route", _route), ("gemm", _gemm), ("attention", _attention), ("schedules", _schedules))
    for name, part in parts:
        if name not in only:
            continue
        try:
            if name == "route":
                _route(device, out)
            else:
                part(device, raw, rounds, out)  # type: ignore[call-arg,operator,unused-ignore]
        except Exception:
            traceback.print_exc()
            MD.append(f"{name}: FAILED (see log)\n")
        (out / "whole_program.json").write_text(json.dumps(OUT, indent=1))
        (out / "whole_program.md").write_text("\n".join(MD) + "\n")
    print("\n".join(MD))


if __name__ == "__main__":
    main()
