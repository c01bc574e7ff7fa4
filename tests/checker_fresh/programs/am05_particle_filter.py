# fresh-expect: E0505 at line 83
# fresh-note: 1-D robot localisation particle filter with chained predict-then-weigh launch_async ops queued in a deque; the step decides to resample from the previous step's effective sample size before flushing, so the tile gather moves the particle buffer the queued op still borrows.
from __future__ import annotations
import math
from collections import deque


import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 256  # particles
T = 64
SIGMA = 0.4
RESAMPLE_FRACTION = 0.5


@simt.kernel
@simt.launch_contract(block=64)
def predict(x: Slice[f32], noise: Slice[f32], out: DisjointSlice[f32], u: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] + u + noise[i])


@simt.kernel
@simt.launch_contract(block=64)
def likelihood(x: Slice[f32], prior: Slice[f32], z: f32, sigma: f32, w: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := w.get_mut(idx)) is not None:
        d = (x[i] - z) / sigma
        o.set(prior[i] * math.exp(f32(-0.5) * d * d))


@tile.kernel
def gather_particles(out: Partition[f32], particles: Tensor[f32], picks: Tensor[i32]) -> None:
    out.store(tile.gather(particles, tile.load_like(picks, out)))


def systematic(weights: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    cdf = np.cumsum(weights / weights.sum())
    points = (rng.random() + np.arange(N)) / N
    return np.minimum(np.searchsorted(cdf, points), N - 1).astype(np.int32)


class ParticleFilter:
    def __init__(self, stream: sk.Stream, seed: int) -> None:
        self.stream = stream
        self.rng = np.random.default_rng(seed)
        cfg = simt.LaunchConfig1D.for_len(N, block=64)
        self.prep = {"predict": predict.prepare(cfg, stream.device), "likelihood": likelihood.prepare(cfg, stream.device)}
        self.particles = sk.to_device(self.rng.uniform(0.0, 10.0, N).astype(np.float32), stream)
        self.spare = sk.zeros(N, f32, stream)
        self.weights = sk.to_device(np.full(N, 1.0 / N, np.float32), stream)
        self.weights_next = sk.zeros(N, f32, stream)
        self.inflight: deque[sk.DeviceOp] = deque()
        self.last_weights = np.full(N, 1.0 / N, np.float32)
        self.last_ess = float(N)

    def flush(self) -> None:
        while self.inflight:
            self.inflight.popleft().sync_on(self.stream)

    def predict_and_weigh(self, u: float, z: float) -> None:
        noise = sk.to_device(self.rng.normal(0.0, 0.15, N).astype(np.float32), self.stream)
        moved, prior, posterior = self.spare, self.weights, self.weights_next
        op = predict.launch_async(self.prep["predict"], self.particles, noise, moved, u).then(
            lambda _: likelihood.launch_async(self.prep["likelihood"], moved, prior, z, SIGMA, posterior)
        )
        self.inflight.append(op)
        self.particles, self.spare = moved, self.particles
        self.weights, self.weights_next = posterior, prior

    def resample(self) -> None:
        picks = tile.from_numpy(systematic(self.last_weights, self.rng))
        out = tile.zeros((N,), f32).partition((T,))
        out, _, _ = gather_particles(out, self.particles, picks).sync_on(self.stream)
        self.particles = out.unpartition()
        self.weights = sk.to_device(np.full(N, 1.0 / N, np.float32), self.stream)

    def estimate(self) -> float:
        self.flush()
        x = self.particles.to_numpy(self.stream)
        w = self.weights.to_numpy(self.stream).astype(np.float64)
        w /= w.sum()
        self.last_weights = w.astype(np.float32)
        self.last_ess = float(1.0 / np.sum(w * w))
        return float(np.sum(w * x))

    def step(self, u: float, z: float) -> float:
        self.predict_and_weigh(u, z)
        if self.last_ess < RESAMPLE_FRACTION * N:
            self.resample()
        return self.estimate()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    pf = ParticleFilter(stream, seed=5)
    truth = 2.0
    errors = []
    for _ in range(6):
        truth += 0.5
        z = truth + float(pf.rng.normal(0.0, 0.2))
        errors.append(abs(pf.step(0.5, z) - truth))
    assert errors[-1] < 1.0, errors
    print("tracking errors:", " ".join(f"{e:.2f}" for e in errors))


if __name__ == "__main__":
    main()
