# fresh-expect: clean
# idiom: list comprehension of tile launch ops grouped with the zip(*[iter(ops)] * k) grouper idiom, each group run with sk.zip(*group)
"""Block-wise peak normalisation of a long recording, split into shards.

One tile launch is built per shard; the launches are submitted in groups of `GROUP`
with `sk.zip`, so each group is a single chain synchronised once.
"""

from __future__ import annotations

from itertools import zip_longest

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SHARD = 256
TILE = 64
SHARDS = 10
GROUP = 4


@tile.kernel
def peak_normalize(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    peak = tile.max(tile.maximum(t, -t))
    out.store(t / (peak + 1e-6))


def shards(recording: np.ndarray) -> list[np.ndarray]:
    return [recording[k : k + SHARD] for k in range(0, len(recording), SHARD)]


def grouped(ops: list[sk.DeviceOp], size: int):
    it = iter(ops)
    return ([op for op in group if op is not None] for group in zip_longest(*[it] * size))


def summarize(block: np.ndarray) -> tuple[float, float]:
    return float(block.min()), float(block.max())


def normalize_recording(recording: np.ndarray, stream: sk.Stream) -> dict[int, tuple[float, float]]:
    pieces = shards(recording)
    ops = [peak_normalize(tile.zeros((SHARD,), f32).partition((TILE,)), tile.from_numpy(p)) for p in pieces]
    report: dict[int, tuple[float, float]] = {}
    for g, group in enumerate(grouped(ops, GROUP)):
        values = sk.zip(*group).sync_on(stream)
        for k, (out, _src) in enumerate(values):
            report[g * GROUP + k] = summarize(out.unpartition().to_numpy(stream))
    return report


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(2)
    envelope = np.repeat(rng.uniform(0.5, 4.0, SHARDS), SHARD).astype(np.float32)
    recording = (envelope * rng.standard_normal(SHARDS * SHARD)).astype(np.float32)
    report = normalize_recording(recording, stream)
    for shard, (lo, hi) in sorted(report.items()):
        print(f"shard {shard}: [{lo:+.3f}, {hi:+.3f}]")
    print(f"{len(report)} shards normalised")


if __name__ == "__main__":
    main()
