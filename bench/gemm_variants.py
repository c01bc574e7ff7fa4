"""Interleaved A/B timing of the Hopper GEMM's compile-time switches (kernel only, TFLOP/s), with SASS facts.

    PYTHONPATH=src:. python3 bench/gemm_variants.py OUT_DIR [--rounds=5]

Each variant (`tensor_core_bench._VARIANT_SWITCHES`: persistent grid, one CTA per tile, warp specialization,
cp.async) is compiled once, uncached; then the variants are timed in turn, round after round, so that clock
and thermal drift hit them alike; the table gives each variant's median over the rounds and the spread
(min-max) so a difference can be told from noise.  Shapes: a short K (per-tile costs dominate), 4096^3 and
8192^3.  Writes `gemm_variants.json`, `gemm_variants.md` and, where `cuobjdump` exists, each variant's SASS
instruction counts into OUT_DIR.
"""

from __future__ import annotations

import json
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
from bench.kernels import tile_kernels as K
from bench.tensor_core_bench import _VARIANT_SWITCHES, compile_variant
from bench.tile_bench import bench
from bench.tile_harness import arg

SHAPES = [(4096, 4096, 256), (4096, 4096, 4096), (8192, 8192, 8192)]


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


def main() -> None:
    from safekernels.tile.gpu_launch import TileGpuKernel

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    rounds = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--rounds=")), 5)
    device = sk.Device(0)
    raw = torch.cuda.current_stream().cuda_stream
    rows: list[dict[str, Any]] = []
    sass: dict[str, dict[str, int]] = {}
    for m, n, k in SHAPES:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        values = [arg(c, (K.BM, K.BN)), arg(a), arg(b)]
        grid = (-(-m // K.BM), -(-n // K.BN))
        launches = {}
        for label, switches in _VARIANT_SWITCHES.items():
            compiled = compile_variant(K.gemm_f16, values, switches)
            loaded = TileGpuKernel(compiled, device.backend)
            launches[label] = lambda loaded=loaded, v=values, g=grid: loaded.launch(K.gemm_f16.params, v, g, raw)
            if label not in sass:
                sass[label] = _sass_counts(compiled.cubin)
        launches["torch"] = lambda a=a, b=b: torch.matmul(a, b)
        times: dict[str, list[float]] = {label: [] for label in launches}
        for _ in range(rounds):
            for label, fn in launches.items():
                times[label].append(2 * m * n * k / bench(fn) / 1e9)
        row = {"shape": f"{m}x{n}x{k}", **{lbl: (statistics.median(t), min(t), max(t)) for lbl, t in times.items()}}
        rows.append(row)
        print(json.dumps(row), flush=True)
    labels = [*_VARIANT_SWITCHES, "torch"]
    md = ["| shape | " + " | ".join(labels) + " |", "|---" * (len(labels) + 1) + "|"]
    for r in rows:
        cells = [f"{r[lb][0]:.0f} ({r[lb][1]:.0f}-{r[lb][2]:.0f})" for lb in labels]
        md.append(f"| {r['shape']} | " + " | ".join(cells) + " |")
    md.append("")
    md += [f"- {label}: " + ", ".join(f"{k}={v}" for k, v in counts.items()) for label, counts in sass.items()]
    (out / "gemm_variants.md").write_text("\n".join(md) + "\n")
    (out / "gemm_variants.json").write_text(json.dumps({"rows": rows, "sass": sass}, indent=1))
    print("\n".join(md))


if __name__ == "__main__":
    main()
