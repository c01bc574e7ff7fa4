"""Autotune the tile GEMM's tile shape with `@tile.autotune` and compare the pick with the hand-picked shape.

The tuning space is the Hopper path's CTA tiles (BM x BN x BK); the hand-picked shape of the benchmark kernel
(`bench/kernels/tile_kernels.py::gemm_f16`, 128 x 256 x 64) is one of them, so the tuner's own timings say
directly whether its pick is at least as fast.  Then both kernels are timed again through the public path
(`k(c, a, b).sync_on(stream)`, `sk.testing.do_bench`, median).  Run it twice with the same
`SAFEKERNELS_CACHE_DIR`: the second process reads the winners from the disk table and tunes nothing.

    PYTHONPATH=src:. python3 bench/tile_gemm_tune.py [--sizes 4096 8192] [--out results.md]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

import safekernels as sk  # noqa: E402
from safekernels import tile  # noqa: E402
from safekernels.dtypes import f16, f32  # noqa: E402
from safekernels.testing import do_bench  # noqa: E402
from safekernels.tile import Partition, Tensor  # noqa: E402

GBM, GBN, GBK = 128, 256, 64
CONFIGS = [
    tile.Config(GBM=128, GBN=256, GBK=64),  # the hand-picked shape
    tile.Config(GBM=128, GBN=128, GBK=64),
    tile.Config(GBM=64, GBN=256, GBK=64),
    tile.Config(GBM=256, GBN=128, GBK=64),
]


@tile.autotune(configs=CONFIGS, key=["a", "b"])
@tile.kernel
def gemm(c: Annotated[Partition[f16], tile.Dims(GBM, GBN)], a: Tensor[f16], b: Tensor[f16]) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    a_tiles = a.partition((GBM, GBK))
    b_tiles = b.partition((GBK, GBN))
    acc = tile.zeros((GBM, GBN), f32)
    for k in range(a_tiles.num_tiles(1)):
        acc = tile.matmul(a_tiles.load((i, k)), b_tiles.load((k, j)), acc)
    c.store(acc.astype(f16))


def _tflops(s: int, ms: float) -> float:
    return 2 * s**3 / (ms * 1e-3) / 1e12


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 8192])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--cpu", action="store_true", help="the CPU executor (a smoke test of this script)")
    args = parser.parse_args()
    from bench.kernels.tile_kernels import BM, BN, gemm_f16

    device = sk.Device.cpu() if args.cpu else sk.Device(0)
    stream = device.new_stream()
    lines = ["| M=N=K | tuner's pick | its TFLOP/s (tuning) | hand-picked 128x256x64 (tuning) | "
             "public path: tuned | public path: hand-picked |", "|---|---|---|---|---|---|"]  # fmt: skip
    rng = np.random.default_rng(0)
    for s in args.sizes:
        a_host = rng.standard_normal((s, s)).astype(np.float16)
        b_host = rng.standard_normal((s, s)).astype(np.float16)
        state: list[Any] = list(
            gemm(
                tile.zeros((s, s), f16, device=device),
                tile.from_numpy(a_host, device=device),
                tile.from_numpy(b_host, device=device),
            ).sync_on(stream)
        )
        rows = 64
        got = state[0].to_numpy(stream)[:rows].astype(np.float32)
        want = a_host[:rows].astype(np.float32) @ b_host.astype(np.float32)
        err = float(np.linalg.norm(got - want) / np.linalg.norm(want))
        assert err < 1e-2, err

        index = next(i for (key, _), i in gemm.best.items() if key[0][0] == (s, s))
        entry = _stored_entry(s)
        timings = entry["timings_ms"] if entry else [None] * len(CONFIGS)

        def tuned_step(state: list[Any] = state) -> None:
            state[:] = gemm(*state).sync_on(stream)

        tuned_ms = do_bench(tuned_step, return_mode="median", stream=stream)
        hand_state: list[Any] = [state[0].partition((BM, BN)), state[1], state[2]]

        def hand_step(hand_state: list[Any] = hand_state) -> None:
            hand_state[:] = gemm_f16(*hand_state).sync_on(stream)

        hand_ms = do_bench(hand_step, return_mode="median", stream=stream)
        state[:] = [hand_state[0].unpartition(), hand_state[1], hand_state[2]]
        pick, hand = timings[index], timings[0]
        lines.append(
            f"| {s} | {CONFIGS[index].text()} | {_fmt(s, pick)} | {_fmt(s, hand)} | "
            f"{_tflops(s, tuned_ms):.0f} | {_tflops(s, hand_ms):.0f} |"
        )
        print(f"{s}: pick {CONFIGS[index].text()} rel err {err:.1e}", flush=True)
    stats = gemm.tune_stats
    lines.append("")
    lines.append(f"tune stats: tunings {stats.tunings}, disk hits {stats.disk_hits}, memory hits {stats.memory_hits}")
    text = "\n".join(lines)
    print(text)
    if args.out is not None:
        with args.out.open("a") as handle:
            handle.write(text + "\n\n")


def _fmt(s: int, ms: float | None) -> str:
    return "n/a (from disk)" if ms is None else f"{_tflops(s, ms):.0f}"


def _stored_entry(s: int) -> dict[str, Any] | None:
    """The disk-table entry for size `s` (its timings are the tuning run's, also when this process read it)."""
    from safekernels.autotune.store import _root

    root = _root()
    if root is None or not root.exists():
        return None
    for path in root.glob("*.json"):
        entry = json.loads(path.read_text())
        if entry.get("kernel") == "gemm" and f"(({s}, {s})" in entry.get("key", ""):
            return dict(entry)
    return None


if __name__ == "__main__":
    main()
