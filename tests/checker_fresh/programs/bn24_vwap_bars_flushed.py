# fresh-expect: clean
# fresh-note: Twin of bn23: the stage list runs flush() between the async tick-notional stage and the bar stage, so the pending op has been consumed before the tile launch moves the notional tensor.
"""Intraday VWAP bars from tick data, mixing a SIMT stage and a tile stage.

Stage 1 (SIMT, async): notional[i] = price[i] * volume[i], written straight into a tile tensor lent as a buffer.
Stage 2 (tile): one tile block sums BARS_PER_TILE bars of BAR ticks each and divides by the bar volume.
"""
from __future__ import annotations

from contextlib import ExitStack

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BAR = 16
BARS_PER_TILE = 4


@simt.kernel
@simt.launch_contract(block=128)
def tick_notional(px: Slice[f32], vol: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(px[i] * vol[i])


@tile.kernel
def bar_vwap(vwap: Partition[f32], notional: Tensor[f32], vol: Tensor[f32]) -> None:
    b = tile.bid(0)
    pv = tile.reshape(notional.load((b,), (BARS_PER_TILE * BAR,)), (BARS_PER_TILE, BAR))
    v = tile.reshape(vol.load((b,), (BARS_PER_TILE * BAR,)), (BARS_PER_TILE, BAR))
    vwap.store(tile.sum(pv, axis=1) / tile.maximum(tile.sum(v, axis=1), 1e-6))


class VwapPipeline:
    def __init__(self, dev: sk.Device, px: np.ndarray, vol: np.ndarray) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.ticks = len(px)
        self.bars = self.ticks // BAR
        self.vol_host = vol.astype(np.float32)
        self.px = sk.to_device(px.astype(np.float32), self.stream)
        self.vol = sk.to_device(self.vol_host, self.stream)
        self.notional = tile.zeros((self.ticks,), f32).sync_on(self.stream)
        self.prep = tick_notional.prepare(simt.LaunchConfig1D.for_len(self.ticks, block=128), dev)
        self.pending: list[sk.DeviceOp] = []
        self.vwap: Tensor | None = None
        self.trace: list[str] = []

    def stage_notional(self) -> None:
        lent = self.notional.as_buffer()
        self.pending.append(tick_notional.launch_async(self.prep, self.px, self.vol, lent))
        self.trace.append("notional queued")

    def flush(self) -> None:
        while self.pending:
            self.pending.pop(0).sync_on(self.stream)
            self.trace.append("flushed")

    def stage_bars(self) -> None:
        out = tile.zeros((self.bars,), f32).partition((BARS_PER_TILE,))
        vol_t = tile.from_numpy(self.vol_host)
        out, self.notional, _ = bar_vwap(out, self.notional, vol_t).sync_on(self.stream)
        self.vwap = out.unpartition()
        self.trace.append("bars")

    def run(self) -> np.ndarray:
        with ExitStack() as stack:
            stack.callback(self.flush)
            for stage in (self.stage_notional, self.flush, self.stage_bars):
                stage()
        assert self.vwap is not None
        return self.vwap.to_numpy(self.stream)


def main() -> None:
    rng = np.random.default_rng(23)
    ticks = 512
    px = 50 + np.cumsum(rng.normal(0, 0.05, ticks))
    vol = rng.integers(1, 1000, ticks).astype(np.float64)
    pipe = VwapPipeline(sk.Device.cpu(), px, vol)
    vwap = pipe.run()
    p32, v32 = px.astype(np.float32), vol.astype(np.float32)
    want = (p32 * v32).reshape(-1, BAR).sum(1) / v32.reshape(-1, BAR).sum(1)
    assert np.allclose(vwap, want, rtol=1e-4)
    worst = max(range(len(vwap)), key=lambda k: abs(vwap[k] - px[k * BAR:(k + 1) * BAR].mean()))
    print(f"{len(vwap)} bars; largest VWAP/mean gap in bar {worst}; trace: {' > '.join(pipe.trace)}")


if __name__ == "__main__":
    main()
