# fresh-expect: E0382 at line 53
# idiom: primed generator coroutine receiving batches through send() and yielding results
"""Streaming feature normalization for a data loader.

`normalizer()` is a coroutine-style generator: prime it with `next()`, then `send()` each
batch tensor and get the normalized batch back.  The loader keeps per-batch statistics.
"""

from __future__ import annotations

from collections.abc import Generator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

FEATURES = 256
TILE = 64


@tile.kernel
def affine(z: Partition[f32], x: Tensor[f32], mean: f32, inv_std: f32) -> None:
    z.store((tile.load_like(x, z) - mean) * inv_std)


def normalizer(stream: sk.Stream, mean: float, std: float) -> Generator[tile.Tensor | None, tile.Tensor, None]:
    result = None
    while True:
        batch = yield result
        out = tile.zeros((FEATURES,), f32).sync_on(stream).partition((TILE,))
        out, *_ = affine(out, batch, mean, 1.0 / std).sync_on(stream)
        result = out.unpartition()


def batches(count: int, rng: np.random.Generator):
    for _ in range(count):
        yield rng.normal(3.0, 2.0, FEATURES).astype(np.float32)


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(5)
    norm = normalizer(stream, mean=3.0, std=2.0)
    next(norm)
    stats: list[tuple[float, float]] = []
    count = 0
    for host in batches(3, rng):
        batch = tile.from_numpy(host).sync_on(stream)
        normalized = norm.send(batch)
        raw_peak = float(np.abs(batch.to_numpy(stream)).max())
        stats.append((raw_peak, float(normalized.to_numpy(stream).std())))
        count += 1
    norm.close()
    for i, (peak, std) in enumerate(stats):
        print(f"batch {i}: raw peak {peak:.2f}, normalized std {std:.3f}")
    print(f"{count} batches")


if __name__ == "__main__":
    main()
