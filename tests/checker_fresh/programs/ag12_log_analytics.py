# fresh-expect: W0003 at line 49
# HTTP access-log analytics: per-shard tile launches classify status codes and count them with atomics
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import i32
from safekernels.tile import AtomicTensor, Partition, Tensor

TILE = 256
CLASSES = 6  # 0: unknown, 1xx .. 5xx


@tile.kernel
def classify(labels: Partition[i32], counts: AtomicTensor[i32], codes: Tensor[i32]) -> None:
    c = tile.load_like(codes, labels)
    cls = c // 100
    cls = tile.where((cls >= 1) & (cls <= 5), cls, 0)
    labels.store(cls)
    in_range = tile.iota(TILE, i32) + tile.bid(0) * TILE < codes.shape[0]
    tile.atomic_add(counts, cls, 1, mask=in_range)


@dataclass
class Shard:
    host: str
    codes: np.ndarray
    sampled: bool = True


def make_shards(rng: np.random.Generator) -> list[Shard]:
    pool = np.array([200, 200, 200, 201, 204, 301, 304, 400, 401, 404, 404, 500, 502, 503, 999], np.int32)
    shards = []
    for k, host in enumerate(["edge-a", "edge-b", "canary", "edge-c"]):
        codes = rng.choice(pool, size=int(rng.integers(500, 1500))).astype(np.int32)
        shards.append(Shard(host, codes, sampled=(host != "canary")))
    return shards


def summarize(shards: list[Shard], stream: sk.Stream) -> Counter:
    totals: Counter = Counter()
    for shard in shards:
        n = len(shard.codes)
        op = classify(
            tile.zeros((n,), i32).partition((TILE,)),
            tile.zeros((CLASSES,), i32),
            tile.from_numpy(shard.codes),
        )
        if not shard.sampled:
            continue  # canary traffic is excluded from the dashboard
        labels, counts, _ = op.sync_on(stream)
        for cls, count in enumerate(counts.to_numpy(stream)):
            totals[f"{cls}xx" if cls else "other"] += int(count)
        assert (labels.to_numpy(stream)[: min(n, 8)] >= 0).all()
    return totals


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(2024)
    shards = make_shards(rng)
    totals = summarize(shards, stream)
    served = sum(totals.values())
    for key in sorted(totals):
        print(f"{key:>6}: {totals[key]:5d}  ({100.0 * totals[key] / served:5.1f}%)")
    error_rate = (totals["4xx"] + totals["5xx"]) / served
    print(f"error rate over sampled hosts: {error_rate:.3f}")


if __name__ == "__main__":
    main()
