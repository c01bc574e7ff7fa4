# fresh-expect: E0382 at line 71
# fresh-note: Swell propagation toward a beach, captured once as a replayable graph of two ping-ponged tile launches by a helper; after the replays the driver reads the surface through its original `eta` tensor, which the helper moved into the captured chain, instead of through `graph.value`.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
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


def build_step_graph(eta: tile.Tensor, depth: tile.Tensor, courant: float,
                     stream: sk.Stream) -> sk.DeviceGraph:
    n = eta.shape[0]
    out = tile.zeros((n,), f32).partition((TILE,))
    first = propagate(out, eta, depth, courant)
    # second half-step: the fresh surface becomes the input, the old one the output
    both = first.then(lambda v: propagate(v[1].partition((TILE,)), v[0].unpartition(), v[2], courant))
    return both.graph_on(stream)


def run_period(graph: sk.DeviceGraph, steps: int) -> int:
    for _ in range(steps):
        graph.replay()
    return steps * 2


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    n = 512
    eta = tile.from_numpy(jonswap_surface(n, dx=2.0, peak_period=9.0, seed=1)).sync_on(stream)
    depth = tile.from_numpy(beach_profile(n)).sync_on(stream)
    initial_energy = float((eta.to_numpy(stream) ** 2).sum())
    graph = build_step_graph(eta, depth, courant=0.002, stream=stream)
    half_steps = 0
    for period in range(3):
        half_steps += run_period(graph, steps=4)
    surface = eta.to_numpy(stream)
    energy = float((surface ** 2).sum())
    print(f"{half_steps} half-steps: energy {initial_energy:.3f} -> {energy:.3f}")
    print("runup (last 8 cells):", np.round(surface[-8:], 3).tolist())


if __name__ == "__main__":
    main()
