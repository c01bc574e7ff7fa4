# fresh-expect: E0382 at line 74
# fresh-note: Device hash join of trades against a security master; JoinPlan.build() moves self.keys into the index-building tile launch and throws the handed-back handle away, so coverage() later reads the moved self.keys (E0382).
"""Hash join on the device (tile track): trades x security master -> notional per trade.

The build side writes each security's row number into a direct-mapped hash index with `tile.atomic_max`; the
probe side gathers the slot of each trade's security id and the matching price.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor

CAP = 256   # index capacity: security ids are dense in [0, CAP)
T = 64


@tile.kernel
def build_index(hashes: Partition[i32], index: AtomicTensor[i32], keys: Tensor[i32]) -> None:
    k = tile.load_like(keys, hashes)
    row = tile.iota(T, i32) + tile.bid(0) * T
    h = k % CAP
    tile.atomic_max(index, h, row, mask=row < keys.shape[0])
    hashes.store(h)


@tile.kernel
def probe(out: Partition[f32], index: Tensor[i32], prices: Tensor[f32], pkeys: Tensor[i32],
          qty: Tensor[f32]) -> None:
    k = tile.load_like(pkeys, out)
    slot = tile.gather(index, k % CAP)
    px = tile.gather(prices, slot, mask=slot >= 0, other=0.0)
    out.store(px * tile.load_like(qty, out))


@dataclass
class JoinPlan:
    stream: sk.Stream
    keys: Tensor
    prices: Tensor
    rows: int
    index: Optional[Tensor] = None
    stats: dict = field(default_factory=dict)

    @classmethod
    def from_master(cls, stream: sk.Stream, ids: np.ndarray, px: np.ndarray) -> "JoinPlan":
        keys = tile.from_numpy(ids.astype(np.int32)).sync_on(stream)
        prices = tile.from_numpy(px.astype(np.float32)).sync_on(stream)
        return cls(stream, keys, prices, len(ids))

    def build(self) -> None:
        hashes = tile.zeros((self.rows,), i32).partition((T,))
        index = tile.full((CAP,), -1, i32)
        hashes, self.index, _ = build_index(hashes, index, self.keys).sync_on(self.stream)
        self.stats["buckets"] = len(set(hashes.to_numpy(self.stream).tolist()))

    def probe(self, trade_ids: np.ndarray, qty: np.ndarray) -> np.ndarray:
        if self.index is None:
            self.build()
        n = len(trade_ids)
        out = tile.zeros((n,), f32).partition((T,))
        pk = tile.from_numpy(trade_ids.astype(np.int32))
        q = tile.from_numpy(qty.astype(np.float32))
        out, self.index, self.prices, _, _ = probe(out, self.index, self.prices, pk, q).sync_on(self.stream)
        return out.unpartition().to_numpy(self.stream)

    def coverage(self, trade_ids: np.ndarray) -> float:
        known = set(self.keys.to_numpy(self.stream).tolist())
        hits = sum(1 for t in trade_ids if int(t) in known)
        return hits / max(len(trade_ids), 1)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(17)
    ids = rng.permutation(CAP)[:150]
    px = rng.uniform(5, 500, len(ids))
    plan = JoinPlan.from_master(stream, ids, px)
    trade_ids = rng.integers(0, CAP, 300)
    qty = rng.integers(1, 100, 300).astype(np.float64)
    notional = plan.probe(trade_ids, qty)
    lookup = dict(zip(ids.tolist(), px.astype(np.float32).tolist()))
    want = np.array([lookup.get(int(t), 0.0) * q for t, q in zip(trade_ids, qty)], np.float32)
    assert np.allclose(notional, want, rtol=1e-5)
    print(f"buckets used: {plan.stats['buckets']}, matched {plan.coverage(trade_ids):.1%} of trades")
    print("total notional:", float(notional.sum()))


if __name__ == "__main__":
    main()
