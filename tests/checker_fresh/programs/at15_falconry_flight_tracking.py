# fresh-expect: E0382 at line 56
# fresh-note: Falconry GPS flight log that smooths a hawk's altitude track with a tile kernel taking the raw altitude buffer as input, keeps only the smoothed result, and later launches the climb-rate kernel on the moved raw altitude attribute.
"""Falconry: smooth a hawk's altitude track from the GPS tag and find its stoops and climbs."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 64
TILE = 64


@tile.kernel
def smooth(out: Partition[f32], altitude: Tensor[f32]) -> None:
    here = tile.load_like(altitude, out)
    window_mean = tile.sum(here) / out.tile_shape[0]
    out.store(tile.maximum(0.8 * here + 0.2 * window_mean, 0.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def climb_rate(altitude: Slice[f32], rate: DisjointSlice[f32], hz: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := rate.get_mut(idx)) is not None:
        if i + 1 < len(altitude):
            o.set((altitude[i + 1] - altitude[i]) * hz)
        else:
            o.set(f32(0.0))


class FlightLog:
    def __init__(self, dev: sk.Device, stream: sk.Stream, altitude_m: np.ndarray, hz: float) -> None:
        self.dev = dev
        self.stream = stream
        self.hz = hz
        self.samples = altitude_m.size
        self.altitude = sk.to_device(altitude_m.astype(np.float32), stream)
        self.smoothed: sk.DeviceBuffer | None = None

    def denoise(self) -> np.ndarray:
        out = sk.zeros(self.samples, f32, self.stream).partition((TILE,))
        out, _raw = smooth(out, self.altitude).sync_on(self.stream)
        self.smoothed = out.unpartition()
        return self.smoothed.to_numpy(self.stream)

    def rates(self) -> np.ndarray:
        rate = sk.zeros(self.samples, f32, self.stream)
        prepared = climb_rate.prepare(simt.LaunchConfig1D.for_len(self.samples, block=BLOCK), self.dev)
        climb_rate.launch(prepared, self.stream, self.altitude, rate, self.hz)
        return rate.to_numpy(self.stream)


def simulated_flight(seconds: int, hz: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * hz)) / hz
    soaring = 120.0 + 40.0 * np.sin(t / 9.0)
    stoop = np.where((t > 30) & (t < 38), -60.0 * np.sin(np.pi * (t - 30) / 8.0), 0.0)
    return soaring + stoop + rng.normal(0.0, 1.5, t.size)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    hz = 10.0
    log = FlightLog(dev, stream, simulated_flight(48, hz, seed=9), hz)
    track = log.denoise()
    print(f"ceiling {track.max():.0f} m, floor {track.min():.0f} m")
    rates = log.rates()
    fastest = int(np.argmin(rates))
    print(f"steepest stoop {rates[fastest]:.1f} m/s at t={fastest / hz:.1f}s")
    print(f"best climb {rates.max():.1f} m/s")


if __name__ == "__main__":
    main()
