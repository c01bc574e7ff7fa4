# fresh-expect: E0505 at line 50
# fresh-known-miss: cli,mypy an op `submit(name, ...)` keeps in `self.inflight[name]` borrowing `self.alt[name]`, then `fuse("baro", ...)` moves `self.alt["baro"]` before `drain()` runs in `finally`: items under a parameter key of two attribute dicts across methods are not matched
# fresh-note: Hot-air balloon altimetry fusion; `fuse` moves the baro altitude buffer into a tile blend launch while the batcher's pending barometric launch_async op still writes it (drain only runs in the finally).
"""Altitude fusion for a hot-air balloon festival's telemetry ground station."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SAMPLES = 160


@simt.kernel
@simt.launch_contract(block=32)
def baro_altitude(pressure: Slice[f32], alt: DisjointSlice[f32], p0: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := alt.get_mut(idx)) is not None:
        o.set(f32(44330.0) * (f32(1.0) - (pressure[i] / p0) ** f32(0.1903)))


@tile.kernel
def blend(out: Partition[f32], baro: Tensor[f32], gps: Tensor[f32], w: f32) -> None:
    out.store(tile.load_like(baro, out) * w + tile.load_like(gps, out) * (1.0 - w))


class AltimetryBatcher:
    def __init__(self, dev: sk.Device, stream: sk.Stream, p0: float) -> None:
        self.stream = stream
        self.p0 = p0
        self.prepared = baro_altitude.prepare(simt.LaunchConfig1D.for_len(SAMPLES, block=32), dev)
        self.alt = {name: sk.zeros(SAMPLES, f32, stream) for name in ("baro", "backup")}
        self.inflight: dict[str, sk.DeviceOp] = {}

    def submit(self, name: str, pressure: sk.DeviceBuffer) -> None:
        self.inflight[name] = baro_altitude.launch_async(self.prepared, pressure, self.alt[name], self.p0)

    def drain(self) -> None:
        for name in list(self.inflight):
            self.inflight.pop(name).sync_on(self.stream)

    def fuse(self, name: str, gps: np.ndarray, weight: float) -> np.ndarray:
        baro = self.alt[name]
        out = tile.zeros((SAMPLES,), f32).partition((32,))
        fused, self.alt[name], _, _ = blend(out, baro, tile.from_numpy(gps), weight).sync_on(self.stream)
        return fused.unpartition().to_numpy(self.stream)


def process(batcher: AltimetryBatcher, readings: dict[str, np.ndarray], gps: np.ndarray) -> np.ndarray:
    try:
        for name, raw in readings.items():
            batcher.submit(name, sk.to_device(raw, batcher.stream))
        return batcher.fuse("baro", gps, weight=0.7)
    finally:
        batcher.drain()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(3)
    climb = np.linspace(0, 900, SAMPLES).astype(np.float32)
    pressure = (1013.25 * (1 - climb / 44330.0) ** 5.255).astype(np.float32)
    readings = {
        "baro": pressure + rng.normal(0, 0.2, SAMPLES).astype(np.float32),
        "backup": pressure + rng.normal(0, 0.6, SAMPLES).astype(np.float32),
    }
    gps = climb + rng.normal(0, 4.0, SAMPLES).astype(np.float32)
    batcher = AltimetryBatcher(dev, stream, p0=1013.25)
    fused = process(batcher, readings, gps)
    print(f"apex {fused.max():.1f} m, final {fused[-1]:.1f} m")


if __name__ == "__main__":
    main()
