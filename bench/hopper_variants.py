"""Interleaved A/B timing of the Hopper path's compile-time switches (kernel only, TFLOP/s), with SASS facts.

    PYTHONPATH=src:. python3 bench/hopper_variants.py OUT_DIR [--rounds=5] [--only=gemm|attention]

GEMM f16: each variant (`tensor_core_bench._VARIANT_SWITCHES`: TMA store epilogue, persistent grid, next-tile
prefetch, warp specialization, cp.async) is compiled once, uncached; then the variants are timed in turn,
round after round, so that clock and thermal drift hit them alike; the table gives each variant's median over
the rounds and the spread (min-max) so a difference can be told from noise.  Shapes: a short K (per-tile costs
dominate), 4096^3 and 8192^3.  Attention (bf16, 4x32x4096, d=128, causal and not): the two warpgroups taking
turns at the tensor cores (`wgmma_sync.PINGPONG`) on and off, against SDPA's cuDNN backend.  Writes
`hopper_variants.json`, `hopper_variants.md` and, where `cuobjdump` exists, each GEMM variant's SASS
instruction counts into OUT_DIR.
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
from pathlib import Path
from typing import Any

import torch

import safekernels as sk
from bench.kernels import tensor_core_kernels as T
from bench.kernels import tile_kernels as K
from bench.tensor_core_bench import _VARIANT_SWITCHES, compile_variant
from bench.tile_bench import bench
from bench.tile_harness import arg

SHAPES = [(4096, 4096, 256), (4096, 4096, 4096), (8192, 8192, 8192)]
ATT = (4, 32, 4096, 128)  # batch, heads, sequence, head dim


def _sass_counts(cubin: bytes) -> dict[str, int]:
    tool = shutil.which("cuobjdump")
    if tool is None:
        return {}
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        sass = subprocess.run([tool, "-sass", f.name], capture_output=True, text=True).stdout
        res = subprocess.run([tool, "-res-usage", f.name], capture_output=True, text=True).stdout
    counts = {op: len(re.findall(rf"\b{op}\b", sass)) for op in ("HGMMA", "UTMALDG", "BAR", "LDL", "STL", "STG")}
    counts["instructions"] = len(re.findall(r"/\*[0-9a-f]{4}\*/", sass))
    counts["regs"] = max((int(x) for x in re.findall(r"REG:(\d+)", res)), default=-1)
    return counts


def _timed_rounds(launches: dict[str, Any], flops: float, rounds: int) -> dict[str, tuple[float, float, float]]:
    """TFLOP/s per launch, each timed once per round in turn: (median, min, max) over the rounds."""
    times: dict[str, list[float]] = {label: [] for label in launches}
    for _ in range(rounds):
        for label, fn in launches.items():
            times[label].append(flops / bench(fn) / 1e9)
    return {label: (statistics.median(t), min(t), max(t)) for label, t in times.items()}


def _gemm_rows(device: Any, raw: Any, rounds: int, sass: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    from safekernels.tile.gpu_launch import TileGpuKernel

    rows: list[dict[str, Any]] = []
    for m, n, k in SHAPES:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        values = [arg(c, (K.BM, K.BN)), arg(a), arg(b)]
        grid = (-(-m // K.BM), -(-n // K.BN))
        launches: dict[str, Any] = {}
        for label, switches in _VARIANT_SWITCHES.items():
            compiled = compile_variant(K.gemm_f16, values, switches)
            loaded = TileGpuKernel(compiled, device.backend)
            launches[label] = lambda loaded=loaded, v=values, g=grid: loaded.launch(K.gemm_f16.params, v, g, raw)
            if label not in sass:
                sass[label] = _sass_counts(compiled.cubin)
        launches["torch"] = lambda a=a, b=b: torch.matmul(a, b)
        row = {"case": f"gemm f16 {m}x{n}x{k}", **_timed_rounds(launches, 2 * m * n * k, rounds)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def _attention_rows(device: Any, raw: Any, rounds: int) -> list[dict[str, Any]]:
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from safekernels.tile.gpu_launch import TileGpuKernel

    b, h, s, d = ATT
    data = [torch.randn(b * h * s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv"]
    out = torch.empty(b * h * s, d, device="cuda", dtype=torch.bfloat16)
    q4, k4, v4 = (x.view(b, h, s, d) for x in data)
    rows: list[dict[str, Any]] = []
    for causal in (False, True):
        def values(bm: int, causal: bool = causal) -> list[Any]:
            return [arg(out, (bm, d)), *(arg(x) for x in data), s, 1.0 / math.sqrt(d), int(causal)]

        launches: dict[str, Any] = {}
        cases = [
            (T.attention, "", {}),
            (T.attention, "pingpong", {"pingpong": True}),
            (T.attention, "no fast_math", {"fast_math": False}),
            (T.attention_pipelined, "", {}),
            (T.attention_pipelined, "no deferred wait", {"defer": False}),
        ]
        for kern, label, switches in cases:
            bm = T.ATT_BM
            vals = values(bm)
            loaded = TileGpuKernel(compile_variant(kern, vals, switches), device.backend)
            name = f"{kern.name} {label}"
            grid = (b * h * s // bm, 1)  # the output partition: (rows / BM, d / d)
            launches[name] = lambda loaded=loaded, v=vals, kern=kern, g=grid: loaded.launch(kern.params, v, g, raw)

        def sdpa(causal: bool = causal) -> Any:
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return torch.nn.functional.scaled_dot_product_attention(q4, k4, v4, is_causal=causal)

        launches["sdpa cudnn"] = sdpa
        flops = 4 * b * h * s * s * d / (2 if causal else 1)
        row = {"case": f"attention {'causal' if causal else 'non-causal'}", **_timed_rounds(launches, flops, rounds)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def _table(rows: list[dict[str, Any]]) -> list[str]:
    labels = [k for k in rows[0] if k != "case"]
    md = ["| case | " + " | ".join(labels) + " |", "|---" * (len(labels) + 1) + "|"]
    for r in rows:
        cells = [f"{r[lb][0]:.0f} ({r[lb][1]:.0f}-{r[lb][2]:.0f})" for lb in labels]
        md.append(f"| {r['case']} | " + " | ".join(cells) + " |")
    return [*md, ""]


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    rounds = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--rounds=")), 5)
    only = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--only=")), "gemm,attention").split(",")
    device = sk.Device(0)
    raw = torch.cuda.current_stream().cuda_stream
    sass: dict[str, dict[str, int]] = {}
    md: list[str] = []
    result: dict[str, Any] = {"sass": sass}
    if "gemm" in only:
        result["gemm"] = _gemm_rows(device, raw, rounds, sass)
        md += _table(result["gemm"])
    if "attention" in only:
        result["attention"] = _attention_rows(device, raw, rounds)
        md += _table(result["attention"])
    md += [f"- {label}: " + ", ".join(f"{k}={v}" for k, v in counts.items()) for label, counts in sass.items()]
    (out / "hopper_variants.md").write_text("\n".join(md) + "\n")
    (out / "hopper_variants.json").write_text(json.dumps(result, indent=1))
    print("\n".join(md))


if __name__ == "__main__":
    main()
