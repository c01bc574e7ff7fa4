# fresh-expect: E0505 at line 75
# fresh-note: RiskMetrics EWMA volatility on a desk object that keeps its launch_async op in an attribute; while that op still reads the returns buffer, the winsorizing tile launch moves the buffer.
"""RiskMetrics EWMA volatility per asset (SIMT, asynchronous) next to a winsorized-returns report (Tile)."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N_ASSETS = 16
DAYS = 250
LAMBDA = 0.94
CLIP = 0.05  # 5% daily move
TILE = 500


@simt.kernel
@simt.launch_contract(block=32)
def ewma_variance(returns: Slice[f32], var: DisjointSlice[f32], days: i32, lam: f32) -> None:
    idx = thread.index_1d()
    a = idx.get()
    if (out := var.get_mut(idx)) is not None:
        v = returns[a * days] * returns[a * days]
        for t in range(1, days):
            r = returns[a * days + t]
            v = lam * v + (1.0 - lam) * r * r
        out.set(v)


@tile.kernel
def winsorize(out: Partition[f32], returns: Tensor[f32], limit: f32) -> None:
    out.store(tile.minimum(tile.maximum(tile.load_like(returns, out), -limit), limit))


class VolDesk:
    """Owns the variance buffer and at most one EWMA computation in flight."""

    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.var = sk.zeros(N_ASSETS, f32, stream)
        self.prepared = ewma_variance.prepare(simt.LaunchConfig1D.for_len(N_ASSETS, block=32), dev)
        self.pending: sk.DeviceOp | None = None

    def start(self, returns: sk.DeviceBuffer) -> None:
        self.pending = ewma_variance.launch_async(self.prepared, returns, self.var, DAYS, LAMBDA)

    def finish(self) -> np.ndarray:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None
        return np.sqrt(self.var.to_numpy(self.stream) * 252.0)


def daily_returns(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    regime = np.where(np.arange(DAYS) > 180, 2.5, 1.0)  # a volatility burst in the last quarter
    vols = rng.uniform(0.008, 0.02, (N_ASSETS, 1))
    return (rng.standard_t(5, (N_ASSETS, DAYS)) * vols * regime / np.sqrt(5 / 3)).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    raw = daily_returns(seed=17)
    returns = sk.to_device(raw.ravel(), stream)
    desk = VolDesk(dev, stream)
    desk.start(returns)
    try:
        # overlap the report with the EWMA: clip the outliers while the variances are computed
        out = tile.zeros((N_ASSETS * DAYS,), f32).partition((TILE,))
        clipped = winsorize(out, returns, CLIP).first().unpartition().sync_on(stream)
    finally:
        vol = desk.finish()
    share = float((np.abs(clipped.to_numpy(stream)) >= CLIP).mean())
    worst = int(np.argmax(vol))
    print(f"annualized EWMA vol {vol.min():.1%}..{vol.max():.1%} (asset {worst}); {share:.2%} of moves clipped")


if __name__ == "__main__":
    main()
