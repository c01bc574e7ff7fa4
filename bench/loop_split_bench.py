"""The plain attention program with and without the loop split at the mask's all-true range
(`safekernels.codegen.tile.loop_split`), next to cuDNN SDPA, in one H200 call.

    PYTHONPATH=src:. python3 bench/loop_split_bench.py OUT_DIR [--rounds=3]

Cases: bf16, (4, 32, 4096) and (8, 16, 2048), d = 128 and 64, causal and not.  "before" is the plain program
(`attention_plain.make_attention_plain`, 128 x 128 blocks, `fast_math`: the default build) compiled with the
split off, "after" with it on; both are compiled uncached for sm_90a and launched on torch memory (kernel
only).  Every output is checked against SDPA (relative Frobenius error), and the two builds' outputs against
each other (bitwise equal or not, largest difference).  Interleaved rounds: each variant timed once per round in
turn, medians of `sk.testing.do_bench` with the L2 flushed.  Writes `loop_split.json` and `loop_split.md`.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

import torch

import safekernels as sk
from bench.kernels import attention_plain as P
from bench.tensor_core_bench import compile_variant
from bench.tile_bench import bench, rel
from bench.tile_harness import arg
from safekernels.codegen.tile import loop_split
from safekernels.codegen.tile.specialize import specialize

LABELS = ("before (no split)", "after (split)", "cuDNN SDPA")


def _compile(kern: Any, vals: list[Any], on: bool, cache: dict[Any, Any]) -> Any:
    infos, rank = specialize(kern, vals)
    key = (id(kern), tuple(infos), rank, on)
    if key not in cache:
        saved = loop_split.ENABLED
        loop_split.ENABLED = on
        try:
            cache[key] = compile_variant(kern, vals, {})
        finally:
            loop_split.ENABLED = saved
    return cache[key]


def _case(device: Any, raw: Any, kern: Any, b: int, h: int, s: int, d: int, causal: bool, rounds: int,
          cache: dict[Any, Any]) -> dict[str, Any]:  # fmt: skip
    from torch.nn.attention import SDPBackend, sdpa_kernel

    from safekernels.tile.gpu_launch import TileGpuKernel

    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv")
    flat = [x.view(b * h * s, d) for x in (q, k, v)]
    want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
    launches: dict[str, Any] = {}
    errs: dict[str, float] = {}
    outs: dict[str, torch.Tensor] = {}
    facts: dict[str, Any] = {}
    for label, on in ((LABELS[0], False), (LABELS[1], True)):
        out = torch.empty(b * h * s, d, device="cuda", dtype=torch.bfloat16)
        vals = [arg(out, (128, d)), *(arg(x) for x in flat), s, 1.0 / math.sqrt(d), int(causal)]
        compiled = _compile(kern, vals, on, cache)
        loaded = TileGpuKernel(compiled, device.backend)
        grid = (b * h * s // 128, 1)

        def go(loaded: Any = loaded, vals: Any = vals, grid: Any = grid) -> None:
            loaded.launch(kern.params, vals, grid, raw)

        out.fill_(float("nan"))
        go()
        torch.cuda.synchronize()
        errs[label] = rel(out.view(b, h, s, d), want)
        outs[label] = out.clone()
        launches[label] = go
        facts[label] = {"route": compiled.route, "ptx_lines": compiled.ptx.count("\n"), "smem": compiled.smem_bytes}

    def cudnn(qkv: Any = (q, k, v)) -> Any:
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(*qkv, is_causal=causal)

    try:
        errs[LABELS[2]] = rel(cudnn(), want)
        launches[LABELS[2]] = cudnn
    except Exception as exc:
        print(f"cuDNN SDPA unavailable ({type(exc).__name__}: {exc})", flush=True)
    flops = 4 * b * h * s * s * d / (2 if causal else 1)
    times: dict[str, list[float]] = {label: [] for label in launches}
    for _ in range(rounds):
        for label, fn in launches.items():
            times[label].append(flops / bench(fn) / 1e9)
    before, after = outs[LABELS[0]], outs[LABELS[1]]
    row: dict[str, Any] = {
        "case": f"{b}x{h}x{s} d={d} {'causal' if causal else 'non-causal'}",
        "errs": errs,
        "bitwise_equal": bool(torch.equal(before, after)),
        "max_diff": float((before.double() - after.double()).abs().max()),
        "facts": facts,
    }
    row.update({label: [statistics.median(t), min(t), max(t)] for label, t in times.items()})
    return row


def main() -> None:
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    out_dir.mkdir(parents=True, exist_ok=True)
    rounds = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--rounds=")), 3)
    device = sk.Device(0)
    raw = torch.cuda.current_stream().cuda_stream
    env = f"{torch.cuda.get_device_name()}, torch {torch.__version__}"
    rows: list[dict[str, Any]] = []
    cache: dict[Any, Any] = {}
    kernels = {d: P.make_attention_plain(128, 128, d) for d in (128, 64)}
    md = [env, "", "| case | before (no split) | after (split) | cuDNN SDPA | after / before | after / cuDNN "
          "| max rel. err. vs SDPA | before == after |", "|---|---:|---:|---:|---:|---:|---:|---|"]  # fmt: skip
    for b, h, s in ((4, 32, 4096), (8, 16, 2048)):
        for d in (128, 64):
            for causal in (False, True):
                try:
                    row = _case(device, raw, kernels[d], b, h, s, d, causal, rounds, cache)
                except Exception:
                    traceback.print_exc()
                    continue
                rows.append(row)
                print(json.dumps(row), flush=True)
                bef, aft = row[LABELS[0]][0], row[LABELS[1]][0]
                cud = row.get(LABELS[2], [float("nan")])[0]

                def cell(label: str, r: dict[str, Any] = row) -> str:
                    v = r.get(label)
                    return f"{v[0]:.0f} ({v[1]:.0f}-{v[2]:.0f})" if v else ""

                same = "yes" if row["bitwise_equal"] else f"no (max diff {row['max_diff']:.1e})"
                md.append(
                    f"| {row['case']} | {cell(LABELS[0])} | {cell(LABELS[1])} | {cell(LABELS[2])} | "
                    f"{aft / bef:.3f} | {aft / cud:.2f} | {max(row['errs'].values()):.1e} | {same} |"
                )
                (out_dir / "loop_split.json").write_text(json.dumps({"env": env, "rows": rows}, indent=1))
                (out_dir / "loop_split.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
