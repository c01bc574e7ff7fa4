"""The compiler's part of a warm start, measured without a GPU: a kernel loaded from a warm disk cache in a
fresh process.

A first launch on a GPU asks the compiler for the kernel's cubin; with a warm cache that is a cache hit
(`codegen.tile.pipeline.compile_tile` / `codegen.compile_simt_kernel` return the stored PTX and cubin).  This
script times exactly that call in fresh `python3` processes (this script with `--child`), for the tile GEMM of
`bench/kernels/tile_kernels.py::gemm_f16` (2048^3 f16, sm_90a) and a SIMT vecadd (sm_90), and reports which
modules the hit imported and what they cost by `python -X importtime` (the self times of the modules the hit
imported, summed).  A first process fills a temporary `SAFEKERNELS_CACHE_DIR`; each row is the median of
`--runs` fresh processes.

    python3 bench/warm_cache_bench.py [--src DIR] [--runs N] [--out FILE.md]

`--src DIR` measures another checkout's `src` (for a before/after pair: `git archive <rev> src | tar -x -C
DIR`, then `--src DIR/src`).  Compiled bytecode is kept in a private `PYTHONPYCACHEPREFIX`, so the numbers
are those of an installed package (no source compiled during the timed call), even where
`PYTHONDONTWRITEBYTECODE` is set.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HEAVY = (
    "llvmlite",
    "cuda.bindings.nvjitlink",
    "safekernels.codegen.frontend.builder",
    "safekernels.codegen.tile.frontend",
)

SIMT_SOURCE = """
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])
"""


def child(kind: str, folder: str) -> dict[str, Any]:
    """One fresh process: define the kernel, then time the compiler call (a hit when the cache is warm)."""
    sys.path[:0] = [folder, str(ROOT / "bench")]
    if kind == "tile":
        from kernels.tile_kernels import gemm_f16

        from safekernels.dtypes import dtype_of

        class Spec:
            def __init__(self, shape: tuple[int, ...], tiles: tuple[int, ...] | None = None) -> None:
                self.shape, self.dtype, self.tile_shape, self.buffer = shape, dtype_of("f16"), tiles, None

        before = set(sys.modules)
        start = time.perf_counter()
        from safekernels.codegen.tile.pipeline import compile_tile
        from safekernels.codegen.tile.specialize import specialize

        n = 2048
        infos, grid = specialize(gemm_f16, [Spec((n, n), (128, 256)), Spec((n, n)), Spec((n, n))])
        hit = compile_tile(gemm_f16.fn, infos, grid, arch="sm_90a").from_cache
    else:
        from warm_simt_kernel import vecadd  # type: ignore[import-not-found]

        before = set(sys.modules)
        start = time.perf_counter()
        from safekernels import codegen

        hit = codegen.compile_simt_kernel(vecadd, arch="sm_90").from_cache
    seconds = time.perf_counter() - start
    new = sorted(set(sys.modules) - before)
    return {"seconds": seconds, "hit": hit, "modules": new, "heavy": [m for m in HEAVY if m in sys.modules]}


def import_self_ms(stderr: str, modules: set[str]) -> float:
    """The summed self time (`-X importtime`) of `modules`, in ms."""
    total = 0
    for line in stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() in modules:
            total += int(parts[0].split(":")[1])
    return total / 1000


def run_child(kind: str, src: Path, cache: str, folder: str) -> dict[str, Any]:
    env = dict(os.environ, SAFEKERNELS_CACHE_DIR=cache, PYTHONPATH=os.pathsep.join([str(src), str(ROOT)]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("SAFEKERNELS_NO_CACHE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(cache, "pycache")
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", __file__, "--child", kind, folder],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["import_ms"] = import_self_ms(proc.stderr, set(result["modules"]))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=2, metavar=("KIND", "FOLDER"), help=argparse.SUPPRESS)
    parser.add_argument("--src", type=Path, default=ROOT / "src", help="the `src` folder to measure")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    rows: list[str] = []
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as folder:
        Path(folder, "warm_simt_kernel.py").write_text(SIMT_SOURCE)
        for kind, label in (("tile", "tile GEMM f16 (compile_tile, sm_90a)"), ("simt", "SIMT vecadd (sm_90)")):
            cold = run_child(kind, args.src, cache, folder)  # fills the cache (and the bytecode cache)
            runs = [run_child(kind, args.src, cache, folder) for _ in range(args.runs)]
            assert not cold["hit"] and all(r["hit"] for r in runs), "expected one miss, then hits"
            ms = statistics.median(r["seconds"] for r in runs) * 1000
            imported = statistics.median(r["import_ms"] for r in runs)
            last = runs[-1]
            heavy = ", ".join(last["heavy"]) or "none"
            rows.append(f"| {label} | {ms:.1f} | {len(last['modules'])} | {imported:.1f} | {heavy} |")
    table = "\n".join(
        [
            f"Source: `{args.src}`; median of {args.runs} fresh processes; Python {sys.version.split()[0]}, "
            f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}.",
            "",
            "| kernel | warm cache hit (ms) | modules the hit imported | their import time (ms, -X importtime) "
            "| heavy modules loaded |",
            "|---|---|---|---|---|",
            *rows,
        ]
    )
    print(table)
    if args.out:
        args.out.write_text(table + "\n")


if __name__ == "__main__":
    main()
