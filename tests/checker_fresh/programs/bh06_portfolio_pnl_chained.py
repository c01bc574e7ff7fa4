# fresh-expect: clean
# fresh-note: Portfolio P&L and VaR: SIMT log-return kernels are queued with launch_async in a dict, and the tile P&L stage is chained with then() behind the returns op, so it moves the buffer only after that op ran.
"""Daily log returns of a few assets (SIMT), then the weighted portfolio P&L per day (Tile) and a 99% VaR."""
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

ASSETS = ("AAPL", "MSFT", "XOM", "JPM", "TLT", "GLD", "SPY", "EEM")
DAYS = 256
DAY_TILE = 64
WEIGHTS = np.array([0.15, 0.15, 0.1, 0.1, 0.2, 0.1, 0.15, 0.05], np.float32)


@simt.kernel
@simt.launch_contract(block=128, requires=("len(prices) == len(rets)",))
def log_returns(prices: Slice[f32], rets: DisjointSlice[f32], days: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := rets.get_mut(idx)) is not None:
        if i % days == 0:
            r.set(0.0)
        else:
            r.set(math.log(prices[i] / prices[i - 1]))


@simt.kernel
@simt.launch_contract(block=128)
def rebase(prices: Slice[f32], out: DisjointSlice[f32], days: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(prices[i] / prices[i - i % days])


@tile.kernel
def portfolio_pnl(pnl: Partition[f32], rets: Tensor[f32], weights: Tensor[f32], tiles_per_asset: i32) -> None:
    acc = tile.zeros((DAY_TILE,), f32)
    for a in range(weights.shape[0]):
        day_block = rets.load((a * tiles_per_asset + tile.bid(0),), (DAY_TILE,))
        acc = acc + day_block * weights.load((a,), (1,))
    pnl.store(acc)


def simulate_prices(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    daily = rng.normal(0.0003, 0.012, size=(len(ASSETS), DAYS))
    daily[:, 0] = 0.0
    return (100.0 * np.exp(np.cumsum(daily, axis=1))).astype(np.float32).ravel()


def build_pnl_stage(rets: sk.DeviceBuffer, stream: sk.Stream) -> sk.DeviceOp:
    pnl = tile.zeros((DAYS,), f32).partition((DAY_TILE,))
    weights = tile.from_numpy(WEIGHTS)
    return portfolio_pnl(pnl, rets, weights, DAYS // DAY_TILE)


def value_at_risk(pnl: np.ndarray, level: float = 0.99) -> float:
    return -float(np.quantile(pnl, 1.0 - level))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = len(ASSETS) * DAYS
    prices = sk.to_device(simulate_prices(seed=11), stream)
    rets = sk.zeros(n, f32, stream)
    rebased = sk.zeros(n, f32, stream)
    cfg = simt.LaunchConfig1D.for_len(n, block=128)
    pending = {
        "returns": log_returns.launch_async(log_returns.prepare(cfg, dev), prices, rets, DAYS),
        "rebased": rebase.launch_async(rebase.prepare(cfg, dev), prices, rebased, DAYS),
    }
    # queue the P&L right behind the returns: the stage is built once the returns op has run
    stage = pending.pop("returns").then(lambda done: build_pnl_stage(done[1], stream))
    for name in list(pending):
        pending.pop(name).sync_on(stream)
    pnl, rets, _, _ = stage.sync_on(stream)
    daily = pnl.unpartition().to_numpy(stream)
    growth = rebased.to_numpy(stream).reshape(len(ASSETS), DAYS)[:, -1]
    best = ASSETS[int(np.argmax(growth))]
    print(f"best asset {best} x{growth.max():.3f}; 1-day 99% VaR {100 * value_at_risk(daily):.2f}%")


if __name__ == "__main__":
    main()
