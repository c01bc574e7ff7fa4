# fresh-expect: E0382 at line 70
# fresh-known-miss: cli,mypy a build loop moving `self.levels[level - 1]` into a tile launch and dropping the source `sync_on` hands back, then a generator method reading `self.levels[0]`: an item moved under a computed key is not related to a later literal key
# fresh-note: Tile mip-chain builder whose build loop rebinds only the new level and discards the source tensor handed back by sync_on, so the stats generator later reads the moved level 0 in self.levels (E0382).
"""Tile-track mipmap generation: each level is a 2x2 box-filtered copy of the previous one, kept in a MipChain
container that also reports per-level statistics for a texture streaming budget."""

from __future__ import annotations

import functools
from typing import Iterator, NamedTuple

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 4


@tile.kernel(independent_shapes=("src",))
def downsample(out: Partition[f32], src: Tensor[f32]) -> None:
    i = tile.bid(0)
    j = tile.bid(1)
    block = src.load((i, j), (2 * TILE, 2 * TILE))
    pairs = tile.sum(tile.reshape(block, (TILE, 2, 2 * TILE)), axis=1)
    quads = tile.sum(tile.reshape(pairs, (TILE, TILE, 2)), axis=2)
    out.store(quads * 0.25)


class LevelInfo(NamedTuple):
    level: int
    shape: tuple[int, int]
    mean: float


@functools.lru_cache(maxsize=None)
def level_shape(base: int, level: int) -> tuple[int, int]:
    side = max(base >> level, TILE)
    return (side, side)


class MipChain:
    def __init__(self, base: np.ndarray, stream: sk.Stream) -> None:
        self.stream = stream
        self.base_size = base.shape[0]
        self.levels: list[Tensor] = [tile.from_numpy(base).sync_on(stream)]

    def __len__(self) -> int:
        return len(self.levels)

    def __getitem__(self, level: int) -> Tensor:
        return self.levels[level]

    def __iter__(self) -> Iterator[Tensor]:
        return iter(self.levels)

    def build(self, max_levels: int) -> None:
        for level in range(1, max_levels):
            shape = level_shape(self.base_size, level)
            if shape == level_shape(self.base_size, level - 1):
                break  # reached the smallest tile-aligned level
            out = tile.zeros(shape, f32).partition((TILE, TILE))
            out, _src = downsample(out, self.levels[level - 1]).sync_on(self.stream)
            self.levels.append(out.unpartition())

    def stats(self) -> Iterator[LevelInfo]:
        for level, tensor in enumerate(self.levels):
            host = tensor.to_numpy(self.stream)
            yield LevelInfo(level, host.shape, float(host.mean()))


def streaming_budget(chain: MipChain, bytes_per_texel: int = 4) -> int:
    total = 0
    for info in chain.stats():
        total += info.shape[0] * info.shape[1] * bytes_per_texel
    return total


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(3)
    base = rng.random((32, 32), dtype=np.float32)
    chain = MipChain(base, stream)
    chain.build(max_levels=6)
    budget = streaming_budget(chain)
    top = chain[len(chain) - 1].to_numpy(stream)
    np.testing.assert_allclose(top.mean(), base.mean(), rtol=1e-5)
    print(f"{len(chain)} mip levels, {budget} bytes resident, top level mean {top.mean():.4f}")


if __name__ == "__main__":
    main()
