"""GEMM without performance cliffs: the shipped tuning space (`safekernels.autotune.matmul_configs()`) against
the example's tile sizes, the hand-picked Hopper shape and cuBLAS, on the problems of issue 24's table.

Rows, per problem (M x N x K) and dtype (f16 / bf16 in, same dtype out, f32 accumulation):

- **example as written**: `examples/matmul_tile.py`'s `matmul` (64 x 64 x 32 tiles, f32 output; f16 only);
- **example, tuned**: the same example's `matmul_tuned` (its `@tile.autotune` with the shipped configs);
- **tuned (shipped configs)**: a GEMM with an output of the input dtype under `@tile.autotune(matmul_configs())`;
- **hand-picked 128x256x64**: `bench/kernels/tile_kernels.py`'s `gemm_f16` / `gemm_bf16`;
- **cuBLAS**: `torch.matmul`.

Tile kernels are timed as `graph_on` replays (the launch's host cost is not in the number; a 4096x4096x256
GEMM takes ~15 us), torch eagerly; both with `sk.testing.do_bench` (median, L2 flushed before each call).
Each result is checked against torch.  Run it twice with the same `SAFEKERNELS_CACHE_DIR`: the second process
reads the winners from the disk table and tunes nothing.

    PYTHONPATH=src:. python3 bench/tile_gemm_tune.py [--out results.md] [--cpu]
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path
from typing import Annotated, Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT), str(ROOT / "examples")]

import safekernels as sk  # noqa: E402
from safekernels import tile  # noqa: E402
from safekernels.autotune import matmul_configs  # noqa: E402
from safekernels.dtypes import bf16, f16, f32  # noqa: E402
from safekernels.testing import do_bench  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402

GBM, GBN, GBK = 128, 128, 64
CONFIGS = matmul_configs("GBM", "GBN", "GBK")


@tile.autotune(configs=CONFIGS, key=["a", "b"], warmup=5, rep=25)
@tile.kernel
def gemm_f16_tuned(c: Annotated[Partition[f16], tile.Dims(GBM, GBN)], a: Tensor[f16], b: Tensor[f16]) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((GBM, GBK))
    b_tiles = b.partition((GBK, GBN))
    acc = tile.zeros((GBM, GBN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store(acc.astype(f16))


@tile.autotune(configs=CONFIGS, key=["a", "b"], warmup=5, rep=25)
@tile.kernel
def gemm_bf16_tuned(c: Annotated[Partition[bf16], tile.Dims(GBM, GBN)], a: Tensor[bf16], b: Tensor[bf16]) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((GBM, GBK))
    b_tiles = b.partition((GBK, GBN))
    acc = tile.zeros((GBM, GBN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store(acc.astype(bf16))


PROBLEMS = [(4096, 4096, 4096), (4096, 4096, 256), (8192, 8192, 8192)]


def _tflops(m: int, n: int, k: int, ms: float) -> float:
    return 2 * m * n * k / (ms * 1e-3) / 1e12


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--cpu", action="store_true", help="the CPU executor at small sizes (a smoke test)")
    parser.add_argument("--no-8192", action="store_true", help="skip the 8192^3 rows")
    parser.add_argument("--problems", nargs="+", default=None, help="MxNxK problems instead of the default rows")
    args = parser.parse_args()
    import matmul_tile

    from bench.kernels.tile_kernels import BM, BN, gemm_bf16, gemm_f16

    device = sk.Device.cpu() if args.cpu else sk.Device(0)
    stream = device.new_stream()
    problems = [(96, 80, 64), (64, 64, 16)] if args.cpu else PROBLEMS[: 2 if args.no_8192 else 3]
    if args.problems:
        problems = [(int(m), int(n), int(k)) for m, n, k in (p.split("x") for p in args.problems)]
    rng = np.random.default_rng(0)
    lines = [
        "| M x N x K | dtype | example as written (64x64x32) | example, tuned | tuned (shipped configs) | "
        "pick | hand-picked 128x256x64 | cuBLAS (`torch.matmul`) | tuned / cuBLAS |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|",
    ]
    torch: Any = None
    if not args.cpu:
        import torch as _torch

        torch = _torch

    def bench_graph(kernel: Any, state: list[Any], check: Any) -> float:
        """Eager once (tunes an autotuned kernel, compiles), check, then time `graph_on` replays (eager on the
        CPU executor)."""
        state[:] = kernel(*state).sync_on(stream)
        out = state[0]
        if isinstance(out, Partition):
            tiles = out.tile_shape
            whole = out.unpartition()
            check(whole)
            state[0] = whole.partition(tiles)
        else:
            check(out)
        if args.cpu:

            def step() -> None:
                state[:] = kernel(*state).sync_on(stream)

            return float(do_bench(step, return_mode="median", stream=stream))
        graph = kernel(*state).graph_on(stream)
        graph.replay()
        return float(do_bench(graph.replay, return_mode="median", stream=stream))

    for m, n, k in problems:
        for dtype, tuned, hand in ((f16, gemm_f16_tuned, gemm_f16), (bf16, gemm_bf16_tuned, gemm_bf16)):
            a_host = rng.standard_normal((m, k)).astype(np.float32)
            b_host = rng.standard_normal((k, n)).astype(np.float32)
            rounded = [np.asarray(tile.from_numpy(x, dtype=dtype, device=sk.Device.cpu()).sync_on(
                sk.Device.cpu().new_stream()).to_numpy(), np.float32) for x in (a_host[:64], b_host)]  # fmt: skip
            want = rounded[0] @ rounded[1]

            def inputs(a_host: np.ndarray = a_host, b_host: np.ndarray = b_host, dtype: Any = dtype) -> list[Any]:
                return [tile.from_numpy(x, device=device, dtype=dtype).sync_on(stream) for x in (a_host, b_host)]

            def check(out: Any, want: np.ndarray = want) -> None:
                got = out.to_numpy(stream)[:64].astype(np.float32)
                err = float(np.linalg.norm(got - want) / np.linalg.norm(want))
                assert err < 2e-2, err

            cells: dict[str, float] = {}
            if dtype is f16:
                for label, kernel in (("example", matmul_tile.matmul), ("example_tuned", matmul_tile.matmul_tuned)):
                    state = [tile.zeros((m, n), f32, device=device).partition((matmul_tile.BM, matmul_tile.BN)),
                             *inputs()]  # fmt: skip
                    cells[label] = bench_graph(kernel, state, check)
            state = [tile.zeros((m, n), dtype, device=device), *inputs()]
            cells["tuned"] = bench_graph(tuned, state, check)
            key = next(iter(key for key in tuned.best if key[0][0][0] == (m, k)))
            pick = CONFIGS[tuned.best[key]].text()
            state = [tile.zeros((m, n), dtype, device=device).partition((BM, BN)), *inputs()]
            cells["hand"] = bench_graph(hand, state, check)
            if torch is not None:
                tdt = torch.float16 if dtype is f16 else torch.bfloat16
                ta = torch.from_numpy(a_host).to("cuda", tdt)
                tb = torch.from_numpy(b_host).to("cuda", tdt)
                tc = torch.empty((m, n), device="cuda", dtype=tdt)
                stream_t = torch.cuda.current_stream()
                cells["cublas"] = float(
                    do_bench(lambda ta=ta, tb=tb, tc=tc: torch.matmul(ta, tb, out=tc), return_mode="median",
                             stream=stream_t)
                )

            def cell(label: str, m: int = m, n: int = n, k: int = k, cells: dict[str, float] = cells) -> str:
                return f"{_tflops(m, n, k, cells[label]):.0f}" if label in cells else ""

            ratio = f"{cells['cublas'] / cells['tuned']:.2f}" if "cublas" in cells else ""
            name = "f16" if dtype is f16 else "bf16"
            lines.append(
                f"| {m}x{n}x{k} | {name} | {cell('example')} | {cell('example_tuned')} | {cell('tuned')} | "
                f"{pick} | {cell('hand')} | {cell('cublas')} | {ratio} |"
            )
            print(lines[-1], flush=True)
    lines.append("")
    lines.append(
        f"TFLOP/s; tile kernels as `graph_on` replays, cuBLAS eager, medians of `sk.testing.do_bench`. "
        f"tune stats f16: {gemm_f16_tuned.tune_stats}, bf16: {gemm_bf16_tuned.tune_stats}; "
        f"run {datetime.date.today().isoformat()} on {device!r}"
        + (f", torch {torch.__version__}" if torch is not None else "")
        + "."
    )
    text = "\n".join(lines)
    print(text)
    if args.out is not None:
        with args.out.open("a") as handle:
            handle.write(text + "\n\n")


if __name__ == "__main__":
    main()
