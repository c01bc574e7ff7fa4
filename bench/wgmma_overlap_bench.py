"""Uniform wgmma descriptors, the matmul carried in flight across the key loop's back edge and the pair ping-pong
(`codegen.tile.wgmma.UNIFORM`, `codegen.tile.wgmma_sync.CARRY`, `.PAIR`), against cuDNN SDPA and cuBLAS, in one
H200 call.

    PYTHONPATH=src:. python3 bench/wgmma_overlap_bench.py OUT_DIR [--rounds=3]
        [--only=attention,gemm,sass | --only=pingpong]

Attention: the plain program (`attention_plain.make_attention_plain`, 128 x 128 blocks, `fast_math`, the loop
split on), bf16, (4, 32, 4096) and (8, 16, 2048), d = 128 and 64, causal and not, compiled three ways: all
switches off ("before"), uniform descriptors only, uniform + carry (no pair).  `--only=pingpong` (a separate
process, so that a hang there cannot lose the rest): uniform + carry against uniform + carry + pair (the default
build), at (4, 32, 4096).  GEMM: the hand-picked 128x256x64 f16/bf16 kernels of `bench/kernels/tile_kernels.py`
(the shape the shipped autotune configurations pick at 4096^3) with the uniform descriptors off and on, next to
`torch.matmul`.  Everything is compiled uncached for sm_90a and launched on torch memory (kernel only); every
output is checked against torch and the variants' outputs against each other (bitwise or not).  Interleaved
rounds: each variant timed once per round in turn, medians of `sk.testing.do_bench` with the L2 flushed.  Writes
`wgmma_overlap.{json,md}` (`wgmma_pingpong.json`) and the SASS facts (`wgmma_overlap_sass.txt`, cuobjdump).
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
from bench.kernels import tile_kernels as K
from bench.tensor_core_bench import compile_variant
from bench.tile_bench import bench, rel
from bench.tile_harness import arg
from safekernels.codegen.tile import wgmma, wgmma_sync
from safekernels.codegen.tile.specialize import specialize

#: (wgmma.UNIFORM, wgmma_sync.CARRY, wgmma_sync.PAIR): "pingpong" is the pair ping-pong (now the default)
VARIANTS = {"before": (False, False, False), "uniform": (True, False, False), "uniform+carry": (True, True, False)}
PINGPONG = {"uniform+carry": (True, True, False), "uniform+carry+pingpong": (True, True, True)}
REF = {"attention": "cuDNN SDPA", "gemm": "cuBLAS"}
CACHE: dict[Any, Any] = {}  # compiled variants, shared by the timing and the SASS parts
SAVE: list[Any] = []  # called after each row (the rows so far reach the disk before a later part can hang)


def _compile(kern: Any, vals: list[Any], flags: tuple[bool, bool, bool], cache: dict[Any, Any]) -> Any:
    infos, rank = specialize(kern, vals)
    key = (id(kern), tuple(infos), rank, flags)
    if key not in cache:
        saved = wgmma.UNIFORM, wgmma_sync.CARRY, wgmma_sync.PAIR
        wgmma.UNIFORM, wgmma_sync.CARRY, wgmma_sync.PAIR = flags
        try:
            cache[key] = compile_variant(kern, vals, {"pingpong": False})
        finally:
            wgmma.UNIFORM, wgmma_sync.CARRY, wgmma_sync.PAIR = saved
    return cache[key]


def _time(launches: dict[str, Any], flops: float, rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {label: [] for label in launches}
    for _ in range(rounds):
        for label, fn in launches.items():
            times[label].append(flops / bench(fn) / 1e9)
    return {label: [statistics.median(t), min(t), max(t)] for label, t in times.items()}


def _variants(device: Any, raw: Any, kern: Any, vals: list[Any], out: torch.Tensor, want: torch.Tensor,
              grid: tuple[int, ...], variants: dict[str, tuple[bool, bool, bool]], cache: dict[Any, Any],
              view: Any) -> tuple[dict[str, Any], dict[str, float], dict[str, torch.Tensor]]:  # fmt: skip
    from safekernels.tile.gpu_launch import TileGpuKernel

    launches: dict[str, Any] = {}
    errs: dict[str, float] = {}
    outs: dict[str, torch.Tensor] = {}
    for label, flags in variants.items():
        loaded = TileGpuKernel(_compile(kern, vals, flags, cache), device.backend)

        def go(loaded: Any = loaded) -> None:
            loaded.launch(kern.params, vals, grid, raw)

        out.fill_(float("nan"))
        go()
        torch.cuda.synchronize()
        errs[label] = rel(view(out), want)
        outs[label] = out.clone()
        launches[label] = go
    return launches, errs, outs


def _row(case: str, launches: dict[str, Any], errs: dict[str, float], outs: dict[str, torch.Tensor],
         flops: float, rounds: int) -> dict[str, Any]:  # fmt: skip
    first = next(iter(outs.values()))
    row: dict[str, Any] = {
        "case": case,
        "errs": errs,
        "bitwise_equal": {k: bool(torch.equal(first, v)) for k, v in outs.items()},
    }
    row.update(_time(launches, flops, rounds))
    return row


def _attention(device: Any, raw: Any, rounds: int, rows: list[dict[str, Any]], pingpong: bool = False) -> None:
    from torch.nn.attention import SDPBackend, sdpa_kernel

    cache = CACHE
    kernels = {d: P.make_attention_plain(128, 128, d) for d in (128, 64)}
    variants = PINGPONG if pingpong else VARIANTS
    for b, h, s in ((4, 32, 4096),) if pingpong else ((4, 32, 4096), (8, 16, 2048)):
        for d in (128, 64):
            for causal in (False, True):
                q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in "qkv")
                flat = [x.view(b * h * s, d) for x in (q, k, v)]
                want = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
                out = torch.empty(b * h * s, d, device="cuda", dtype=torch.bfloat16)
                vals = [arg(out, (128, d)), *(arg(x) for x in flat), s, 1.0 / math.sqrt(d), int(causal)]
                launches, errs, outs = _variants(
                    device, raw, kernels[d], vals, out, want, (b * h * s // 128, 1), variants, cache,
                    lambda o, shape=(b, h, s, d): o.view(*shape),
                )  # fmt: skip

                def cudnn(qkv: Any = (q, k, v), causal: bool = causal) -> Any:
                    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                        return torch.nn.functional.scaled_dot_product_attention(*qkv, is_causal=causal)

                if not pingpong:
                    errs[REF["attention"]] = rel(cudnn(), want)
                    launches[REF["attention"]] = cudnn
                flops = 4 * b * h * s * s * d / (2 if causal else 1)
                case = f"attention {b}x{h}x{s} d={d} {'causal' if causal else 'non-causal'}"
                case = f"pingpong {case}" if pingpong else case
                rows.append(_row(case, launches, errs, outs, flops, rounds))
                print(json.dumps(rows[-1]), flush=True)
                SAVE[0]()


def _gemm(device: Any, raw: Any, rounds: int, rows: list[dict[str, Any]]) -> None:
    cache = CACHE
    gemm_variants = {k: v for k, v in VARIANTS.items() if k != "uniform+carry"}  # no carried matmul in a GEMM
    for dt, kern in ((torch.float16, K.gemm_f16), (torch.bfloat16, K.gemm_bf16)):
        s = 4096
        a, bm = torch.randn(s, s, device="cuda", dtype=dt), torch.randn(s, s, device="cuda", dtype=dt)
        want = a.float() @ bm.float()
        c = torch.empty(s, s, device="cuda", dtype=dt)
        vals = [arg(c, (K.BM, K.BN)), arg(a), arg(bm)]
        launches, errs, outs = _variants(
            device, raw, kern, vals, c, want, (s // K.BM, s // K.BN), gemm_variants, cache, lambda o: o
        )
        launches[REF["gemm"]] = lambda a=a, bm=bm: torch.matmul(a, bm)
        rows.append(_row(f"gemm {str(dt)[6:]} {s}^3", launches, errs, outs, 2 * s**3, rounds))
        print(json.dumps(rows[-1]), flush=True)


def _key_loop(sass: str) -> int:
    """Instructions of the first key loop: the label before the first HGMMA whose back-branch comes first after
    the last HGMMA of that body (half of the kernel's HGMMA when the loop split lowers the body twice)."""
    lines = sass.splitlines()
    hg = [i for i, line in enumerate(lines) if "HGMMA" in line]
    first, last = hg[0], hg[len(hg) // 2 - 1]
    best: tuple[int, int] | None = None
    for i in range(first, 0, -1):
        m = re.match(r"\s*(\.L_x_\d+):", lines[i])
        if m:
            ends = [e for e in range(last, len(lines)) if f"BRA `({m.group(1)})" in lines[e]]
            if ends and (best is None or ends[0] < best[1]):
                best = (i, ends[0])
    if best is None:
        return -1
    return sum(1 for line in lines[best[0] : best[1] + 1] if re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+[A-Z@]", line))


def _sass(out_dir: Path) -> list[str]:
    """SASS facts (cuobjdump) of the plain attention (4x32x4096 specialization) and the GEMM, per variant."""
    tool = shutil.which("cuobjdump")
    if tool is None:
        return ["no cuobjdump"]
    facts = []
    work = Path(tempfile.mkdtemp())
    cache = CACHE
    cases: list[tuple[str, Any, list[Any]]] = []
    for d in (128, 64):
        o = torch.empty(4 * 32 * 4096, d, device="cuda", dtype=torch.bfloat16)
        flat = torch.empty(4 * 32 * 4096, d, device="cuda", dtype=torch.bfloat16)
        cases.append((f"attention d={d}", P.make_attention_plain(128, 128, d),
                      [arg(o, (128, d)), arg(flat), arg(flat), arg(flat), 4096, 0.1, 1]))  # fmt: skip
    c16 = torch.empty(4096, 4096, device="cuda", dtype=torch.float16)
    cases.append(("gemm f16", K.gemm_f16, [arg(c16, (K.BM, K.BN)), arg(c16), arg(c16)]))
    for name, kern, vals in cases:
        for label, flags in VARIANTS.items():
            compiled = _compile(kern, vals, flags, cache)
            path = work / "k.cubin"
            path.write_bytes(compiled.cubin)
            sass = subprocess.run([tool, "-sass", str(path)], capture_output=True, text=True).stdout
            res = subprocess.run([tool, "-res-usage", str(path)], capture_output=True, text=True).stdout
            regs = re.search(r"REG:(\d+)", res)
            n = len(re.findall(r"/\*[0-9a-f]{4,}\*/\s+[A-Z@]", sass))
            loop = _key_loop(sass) if name.startswith("attention") else -1
            facts.append(
                f"{name} {label}: regs {regs.group(1) if regs else '?'}, {n} instructions, key loop {loop}, "
                f"R2UR {sass.count('R2UR')}, HGMMA {sass.count('HGMMA')}, "
                f"WARPGROUP.DEPBAR {sass.count('WARPGROUP.DEPBAR')}, "
                f"SHFL.IDX {sass.count('SHFL.IDX')}, LDL/STL {sass.count('LDL') + sass.count('STL')}"
            )
    (out_dir / "wgmma_overlap_sass.txt").write_text("\n".join(facts) + "\n")
    return facts


def _table(rows: list[dict[str, Any]]) -> list[str]:
    md = ["| case | before | uniform | uniform+carry | reference | new / before | new / reference | max rel. err. "
          "| variants bitwise equal |", "|---|---:|---:|---:|---:|---:|---:|---:|---|"]  # fmt: skip
    for r in rows:
        if r["case"].startswith("pingpong"):
            pp = r["uniform+carry+pingpong"][0] / r["uniform+carry"][0]
            both = f"{r['uniform+carry'][0]:.0f}, with ping-pong {r['uniform+carry+pingpong'][0]:.0f}"
            md.append(f"| {r['case']} | uniform+carry {both} | ratio {pp:.3f} | bitwise {r['bitwise_equal']} |")
            continue
        ref = REF["attention"] if r["case"].startswith("attention") else REF["gemm"]
        new = "uniform+carry" if "uniform+carry" in r else "uniform"

        def cell(label: str, r: dict[str, Any] = r) -> str:
            v = r.get(label)
            return f"{v[0]:.0f} ({v[1]:.0f}-{v[2]:.0f})" if v else ""

        same = "yes" if all(r["bitwise_equal"].values()) else json.dumps(r["bitwise_equal"])
        md.append(
            f"| {r['case']} | {cell('before')} | {cell('uniform')} | {cell('uniform+carry')} | {ref}: {cell(ref)} | "
            f"{r[new][0] / r['before'][0]:.3f} | {r[new][0] / r[ref][0]:.2f} | {max(r['errs'].values()):.1e} | {same} |"
        )
    return md


def main() -> None:
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    out_dir.mkdir(parents=True, exist_ok=True)
    rounds = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--rounds=")), 3)
    only = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--only=")), "attention,gemm,sass").split(",")
    device = sk.Device(0)
    raw = torch.cuda.current_stream().cuda_stream
    env = f"{torch.cuda.get_device_name()}, torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}"
    rows: list[dict[str, Any]] = []
    stem = "wgmma_pingpong" if only == ["pingpong"] else "wgmma_overlap"
    SAVE.append(lambda: (out_dir / f"{stem}.json").write_text(json.dumps({"env": env, "rows": rows}, indent=1)))
    parts: list[tuple[str, Any]] = [("attention", _attention), ("gemm", _gemm)]
    parts.append(("pingpong", lambda dev, st, n, rs: _attention(dev, st, n, rs, pingpong=True)))
    for name, part in parts:
        if name in only:
            try:
                part(device, raw, rounds, rows)
            except Exception:
                traceback.print_exc()
            SAVE[0]()
    md = [env, "", *_table(rows)]
    if "sass" in only:
        md += ["", *_sass(out_dir)]
    if stem == "wgmma_overlap":  # the ping-pong rows are in its json (at most 8 files come back from the device)
        (out_dir / f"{stem}.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
