# fresh-expect: clean
# fresh-note: Clock tower drift correction; a helper builds the SIMT correction chain once, it is captured with graph_on and replayed every night after the temperature log is copied in, and a tile kernel accumulates the weekly drift.
"""Nightly pendulum-drift correction for a network of public clock towers."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TOWERS = 64


@simt.kernel
@simt.launch_contract(block=32)
def thermal_correction(offset_s: Slice[f32], temp_c: Slice[f32], corrected: DisjointSlice[f32], coeff: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (c := corrected.get_mut(idx)) is not None:
        c.set(offset_s[i] - coeff * (temp_c[i] - f32(20.0)))


@tile.kernel
def accumulate(total: Partition[f32], nightly: Tensor[f32]) -> None:
    total.store(total.load() + tile.load_like(nightly, total))


class DriftDesk:
    def __init__(self, dev: sk.Device, stream: sk.Stream, offsets: np.ndarray) -> None:
        self.stream = stream
        self.offsets = sk.to_device(offsets, stream)
        self.temps = sk.zeros(TOWERS, f32, stream)
        self.corrected = sk.zeros(TOWERS, f32, stream)
        self.prepared = thermal_correction.prepare(simt.LaunchConfig1D.for_len(TOWERS, block=32), dev)
        self.nights = 0

    def _validate(self, values: tuple) -> tuple:
        offsets, temps, corrected, _ = values
        assert len(offsets) == len(temps) == len(corrected) == TOWERS
        return values

    def correction_chain(self, coeff: float) -> sk.DeviceOp:
        op = thermal_correction.launch_async(self.prepared, self.offsets, self.temps, self.corrected, coeff)
        return op.then(self._validate)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(12)
    desk = DriftDesk(dev, stream, rng.normal(0.0, 0.4, TOWERS).astype(np.float32))
    weekly = tile.zeros((TOWERS,), f32).partition((32,)).sync_on(stream)
    graph = desk.correction_chain(coeff=0.012).graph_on(stream)
    for night in range(7):
        desk.temps.copy_from_numpy(rng.uniform(4, 18, TOWERS).astype(np.float32))
        graph.replay()
        desk.nights += 1
        tonight = tile.from_numpy(desk.corrected.to_numpy(stream))
        weekly, _ = accumulate(weekly, tonight).sync_on(stream)
    drift = weekly.to_numpy(stream)
    worst = np.argsort(np.abs(drift))[-3:][::-1]
    print(f"{desk.nights} nightly replays; towers needing a visit: {worst.tolist()}")
    print("weekly drift (s):", np.round(drift[worst], 2).tolist())


if __name__ == "__main__":
    main()
