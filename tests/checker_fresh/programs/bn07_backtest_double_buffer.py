# fresh-expect: E0505 at line 69
# fresh-note: Double-buffered backtest; on checkpoint days the loop calls checkpoint() while the day's launch_async step still borrows the current equity buffer, and checkpoint moves that buffer into the tile peak tracker (E0505).
"""A vectorised backtest of several constant-weight strategies with double-buffered equity state.

Each simulated day one SIMT launch advances every strategy's equity from the front buffer into the back buffer;
every few days a tile kernel folds the equity into a running peak for the drawdown report.
"""
from __future__ import annotations

from contextlib import ExitStack, contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

STRATS = 64


@simt.kernel
@simt.launch_contract(block=32)
def step(equity: Slice[f32], ret: Slice[f32], weight: Slice[f32], day: i32, days: i32,
         out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(equity[i] * (f32(1.0) + weight[i] * ret[i * days + day]))


@tile.kernel
def track_peak(peak: Partition[f32], equity: Tensor[f32]) -> None:
    peak.store(tile.maximum(peak.load(), tile.load_like(equity, peak)))


@contextmanager
def timed(label: str, log: list[str]):
    log.append(f"begin {label}")
    try:
        yield
    finally:
        log.append(f"end {label}")


class Backtest:
    def __init__(self, returns: np.ndarray, weights: np.ndarray, checkpoint_every: int = 5) -> None:
        self.dev = sk.Device.cpu()
        self.stream = self.dev.new_stream()
        self.days = returns.shape[1]
        self.every = checkpoint_every
        self.rets = sk.to_device(returns.astype(np.float32).ravel(), self.stream)
        self.weights = sk.to_device(weights.astype(np.float32), self.stream)
        self.cur = sk.to_device(np.ones(STRATS, np.float32), self.stream)
        self.nxt = sk.zeros(STRATS, f32, self.stream)
        self.peak = tile.ones((STRATS,), f32).partition((32,)).sync_on(self.stream)
        self.prep = step.prepare(simt.LaunchConfig1D.for_len(STRATS, block=32), self.dev)
        self.log: list[str] = []

    def advance(self, day: int) -> sk.DeviceOp:
        return step.launch_async(self.prep, self.cur, self.rets, self.weights, day, self.days, self.nxt)

    def swap(self) -> None:
        self.cur, self.nxt = self.nxt, self.cur

    def checkpoint(self) -> None:
        with timed("checkpoint", self.log):
            self.peak, self.cur = track_peak(self.peak, self.cur).sync_on(self.stream)

    def run(self) -> np.ndarray:
        with ExitStack() as stack:
            stack.enter_context(timed("run", self.log))
            for day in range(self.days):
                pending = self.advance(day)
                if day % self.every == 0:
                    self.checkpoint()
                pending.sync_on(self.stream)
                self.swap()
            self.checkpoint()
        return self.cur.to_numpy(self.stream)

    def drawdown(self, final: np.ndarray) -> np.ndarray:
        peak = self.peak.to_numpy(self.stream)
        return 1.0 - final / peak


def main() -> None:
    rng = np.random.default_rng(5)
    days = 20
    returns = rng.normal(0.0005, 0.01, (STRATS, days))
    weights = np.linspace(0.5, 1.5, STRATS)
    bt = Backtest(returns, weights)
    final = bt.run()
    expected = np.prod(1.0 + weights[:, None] * returns, axis=1)
    assert np.allclose(final, expected, rtol=1e-4)
    dd = bt.drawdown(final)
    best = max(range(STRATS), key=lambda s: final[s])
    print(f"best strategy {best}: equity {final[best]:.4f}, drawdown {dd[best]:.2%}")
    print(" -> ".join(bt.log[:4]))


if __name__ == "__main__":
    main()
