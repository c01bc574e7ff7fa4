# fresh-expect: clean
# fresh-note: Twin of bn03: the smoothing loop stores the raw column handed back by the tile launch under its key again, so the spread report reads a live `close` tensor.
"""Rolling-window smoothing of OHLC price series held in a small column store (tile track)."""
from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

WINDOW = 4
TILE = 64


@tile.kernel
def rolling_mean(out: Partition[f32], x: Tensor[f32]) -> None:
    base = tile.iota(TILE, i32) + tile.bid(0) * TILE
    acc = tile.zeros((TILE,), f32)
    for k in range(WINDOW):
        pos = base - k
        acc = acc + tile.gather(x, pos, mask=pos >= 0, other=0.0)
    count = tile.minimum(base + 1, WINDOW).astype(f32)
    out.store(acc / count)


class SeriesStore:
    """Named 1-D price series as tile tensors, one per column."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._cols: dict[str, Tensor] = {}

    def __setitem__(self, name: str, values: Tensor) -> None:
        self._cols[name] = values

    def __getitem__(self, name: str) -> Tensor:
        return self._cols[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._cols)

    def __len__(self) -> int:
        return len(self._cols)

    def items(self) -> Iterator[tuple[str, Tensor]]:
        yield from self._cols.items()

    @classmethod
    def from_arrays(cls, stream: sk.Stream, **arrays: np.ndarray) -> "SeriesStore":
        store = cls(stream)
        for name, arr in arrays.items():
            store[name] = tile.from_numpy(arr.astype(np.float32)).sync_on(stream)
        return store


class Smoother:
    def __init__(self, stream: sk.Stream, length: int) -> None:
        self.stream = stream
        self.length = length

    def smooth(self, raw: Tensor) -> tuple[Tensor, Tensor]:
        out = tile.zeros((self.length,), f32).partition((TILE,))
        out, raw = rolling_mean(out, raw).sync_on(self.stream)
        return out.unpartition(), raw

    def smooth_all(self, store: SeriesStore) -> dict[str, Tensor]:
        smoothed = {}
        for name, col in store.items():
            if name.startswith("_"):
                continue
            smoothed[name], store[name] = self.smooth(col)
        return smoothed


def make_prices(n: int, seed: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    close = 100.0 + np.cumsum(rng.normal(0.0, 0.5, n))
    spread = rng.uniform(0.1, 1.0, n)
    return {"open": close - spread / 2, "high": close + spread, "low": close - spread, "close": close}


def reference(x: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    for i in range(len(x)):
        out[i] = x[max(0, i - WINDOW + 1): i + 1].mean()
    return out


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    n = 256
    prices = make_prices(n)
    store = SeriesStore.from_arrays(stream, **prices)
    smoothed = Smoother(stream, n).smooth_all(store)
    raw_close = store["close"].to_numpy(stream)
    smooth_close = smoothed["close"].to_numpy(stream)
    assert np.allclose(smooth_close, reference(prices["close"]), atol=1e-3)
    residual = raw_close - smooth_close
    crossings = sum(1 for a, b in pairwise(residual) if a * b < 0)
    print(f"{len(store)} series smoothed over {WINDOW} bars; close crosses its mean {crossings} times")
    print("max |residual|:", float(np.abs(residual).max()))


if __name__ == "__main__":
    main()
