# fresh-expect: clean
# fresh-note: Harbour-flume swell model captured once as a replayable graph of two ping-ponged tile launches inside a class; every read after the replays goes through the graph's handed-back values (the newest surface partition and a 1-D tensor lent to a SIMT wave-gauge kernel).
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 64
GRAVITY = 9.81


@tile.kernel
def propagate(out: Partition[f32], eta: Tensor[f32], depth: Tensor[f32], courant: f32) -> None:
    t = out.tile_shape[0]
    idx = tile.iota(t, i32) + tile.bid(0) * t
    mid = tile.load_like(eta, out)
    left = tile.gather(eta, idx - 1, other=0.0)
    right = tile.gather(eta, idx + 1, other=0.0)
    h = tile.load_like(depth, out)
    celerity2 = GRAVITY * tile.maximum(h, 0.05)
    out.store(mid + courant * celerity2 * (left + right - 2.0 * mid))


def jonswap_surface(n: int, dx: float, peak_period: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = np.arange(n) * dx
    freqs = np.linspace(0.5, 2.0, 24) / peak_period
    sigma = np.where(freqs <= 1.0 / peak_period, 0.07, 0.09)
    gamma = 3.3 ** np.exp(-((freqs * peak_period - 1.0) ** 2) / (2 * sigma**2))
    spectrum = freqs ** -5 * np.exp(-1.25 * (freqs * peak_period) ** -4) * gamma
    amps = np.sqrt(spectrum / spectrum.sum()) * 0.5
    k = (2 * np.pi * freqs) ** 2 / GRAVITY
    phases = rng.uniform(0, 2 * np.pi, freqs.size)
    return (amps[None, :] * np.cos(k[None, :] * x[:, None] + phases[None, :])).sum(axis=1).astype(np.float32)


def beach_profile(n: int) -> np.ndarray:
    return np.linspace(12.0, 0.2, n).astype(np.float32)


@simt.kernel
@simt.launch_contract(block=32)
def gauges(surface: Slice[f32], where: Slice[i32], readings: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    g = idx.get()
    if (r := readings.get_mut(idx)) is not None:
        r.set(surface[where[g]])


class Flume:
    def __init__(self, n: int, courant: float, gauge_cells: list[int], dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        eta = tile.from_numpy(jonswap_surface(n, dx=1.5, peak_period=7.0, seed=4))
        depth = tile.from_numpy(beach_profile(n))
        out = tile.zeros((n,), f32).partition((TILE,))
        chain = propagate(out, eta, depth, courant).then(
            lambda v: propagate(v[1].partition((TILE,)), v[0].unpartition(), v[2], courant))
        self.graph = chain.graph_on(self.stream)
        self.where = sk.to_device(np.asarray(gauge_cells, np.int32), self.stream)
        self.readings = sk.zeros(len(gauge_cells), f32, self.stream)
        self.gauge_launch = gauges.prepare(simt.LaunchConfig1D.for_len(len(gauge_cells), block=32), dev)

    def advance(self, replays: int) -> None:
        for _ in range(replays):
            self.graph.replay()

    def newest_surface(self) -> np.ndarray:
        latest, _previous, _depth, _c = self.graph.value
        return latest.to_numpy(self.stream)

    def gauge_readings(self) -> np.ndarray:
        _latest, previous, _depth, _c = self.graph.value
        gauges.launch(self.gauge_launch, self.stream, previous, self.where, self.readings)
        return self.readings.to_numpy(self.stream)


def main() -> None:
    flume = Flume(384, courant=0.003, gauge_cells=[10, 100, 200, 300, 380], dev=sk.Device.cpu())
    log = []
    for hour in range(3):
        flume.advance(replays=3)
        log.append(flume.gauge_readings())
    surface = flume.newest_surface()
    print("gauge log:", [np.round(r, 3).tolist() for r in log])
    print(f"surface rms {float(np.sqrt((surface ** 2).mean())):.4f}")


if __name__ == "__main__":
    main()
