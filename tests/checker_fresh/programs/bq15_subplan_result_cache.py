# fresh-expect: E0382 at line 94
# fresh-known-miss: cli,mypy a result cache class (`get`/`put` over an `OrderedDict` of entry objects) handing back a tensor an earlier query moved: objects kept in another object's entries are not related across calls
# fresh-note: the currency-conversion query moves the cached revenue tensor into its tile launch without putting the handed-back handle back into the cache, so the next query that hits that cache entry reads a moved tensor.
"""A dashboard backend that caches device-resident sub-plan results between queries.

Per-day revenue (price * quantity per order line) is the shared sub-plan of several dashboard tiles: the
revenue in another currency, the day's total, the top order line.  The first query computes it with a tile
kernel and leaves it in an LRU cache on the device; later queries start from the cached tensor.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Optional

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 256
RATES = {"USD": 1.0, "EUR": 0.92, "JPY": 151.0}


@tile.kernel
def line_revenue(out: Partition[f32], price: Tensor[f32], qty: Tensor[f32]) -> None:
    out.store(tile.load_like(price, out) * tile.load_like(qty, out))


@tile.kernel
def convert(out: Partition[f32], amounts: Tensor[f32], rate: f32) -> None:
    out.store(tile.load_like(amounts, out) * rate)


@dataclass
class CacheEntry:
    tensor: Tensor[f32]
    nbytes: int
    hits: int = 0


class ResultCache:
    def __init__(self, budget_bytes: int) -> None:
        self.budget = budget_bytes
        self.used = 0
        self._entries: OrderedDict[tuple[str, int], CacheEntry] = OrderedDict()

    def get(self, key: tuple[str, int]) -> Optional[Tensor[f32]]:
        entry = self._entries.get(key)
        if entry is None:
            return None
        entry.hits += 1
        self._entries.move_to_end(key)
        return entry.tensor

    def put(self, key: tuple[str, int], tensor: Tensor[f32]) -> None:
        nbytes = 4 * tensor.shape[0]
        if key in self._entries:
            self.used -= self._entries.pop(key).nbytes
        while self._entries and self.used + nbytes > self.budget:
            _, evicted = self._entries.popitem(last=False)
            self.used -= evicted.nbytes
        self._entries[key] = CacheEntry(tensor, nbytes)
        self.used += nbytes


class Dashboard:
    def __init__(self, stream: sk.Stream, orders: dict[int, tuple[np.ndarray, np.ndarray]]) -> None:
        self.stream = stream
        self.orders = orders
        self.cache = ResultCache(budget_bytes=64 * 1024)

    def revenue(self, day: int) -> Tensor[f32]:
        key = ("revenue", day)
        if (hit := self.cache.get(key)) is not None:
            return hit
        price, qty = self.orders[day]
        out = tile.zeros((len(price),), f32).partition((TILE,))
        out, _p, _q = line_revenue(out, tile.from_numpy(price), tile.from_numpy(qty)).sync_on(self.stream)
        result = out.unpartition()
        self.cache.put(key, result)
        return result

    def revenue_in(self, day: int, currency: str) -> np.ndarray:
        base = self.revenue(day)
        out = tile.zeros(base.shape, f32).partition((TILE,))
        out, _base, _rate = convert(out, base, RATES[currency]).sync_on(self.stream)
        return out.unpartition().to_numpy(self.stream)

    def total(self, day: int) -> float:
        return float(self.revenue(day).to_numpy(self.stream).sum(dtype=np.float64))

    def top_line(self, day: int) -> int:
        return int(np.argmax(self.revenue(day).to_numpy(self.stream)))


def main() -> None:
    rng = np.random.default_rng(13)
    orders = {
        day: (rng.random(n).astype(np.float32) * 50, rng.integers(1, 9, n).astype(np.float32))
        for day, n in ((1, 1200), (2, 800))
    }
    board = Dashboard(sk.Device.default().new_stream(), orders)
    for day in orders:
        price, qty = orders[day]
        eur = board.revenue_in(day, "EUR")
        np.testing.assert_allclose(eur, price * qty * np.float32(0.92), rtol=1e-5)
        total = board.total(day)
        assert abs(total - float((price * qty).sum(dtype=np.float64))) < 1e-2 * max(1.0, total)
        best = board.top_line(day)
        assert best == int(np.argmax(price * qty))
        print(f"day {day}: total {total:.2f} USD, {eur.sum():.2f} EUR, top line {best}")
    print(f"cache: {board.cache.used} bytes in use")


if __name__ == "__main__":
    main()
