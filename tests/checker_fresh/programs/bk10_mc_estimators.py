# fresh-expect: clean
# fresh-note: Twin of bk09: the "stratified" entry is prepared from `mc_stratified` itself, so every registry launch uses a PreparedLaunch of its own kernel.
"""Monte Carlo estimates of the integral of exp(-x^2) over [0, 1] with three variance-reduction schemes.

Each estimator is a SIMT kernel in a registry; every walker draws `samples` points from a hashed counter RNG
and writes its partial mean, which the host averages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.device
def uniform(seed: u32, k: u32) -> f32:
    h = seed * u32(747796405) + k * u32(2891336453) + u32(12345)
    h = (h ^ (h >> u32(16))) * u32(2246822519)
    h = h ^ (h >> u32(13))
    return f32(h >> u32(8)) * f32(1.0 / 16777216.0)


@simt.kernel
@simt.launch_contract(block=128)
def mc_plain(seeds: Slice[u32], out: DisjointSlice[f32], samples: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    acc = f32(0.0)
    for k in range(samples):
        x = uniform(seeds[i], u32(k))
        acc += math.exp(-x * x)
    if (o := out.get_mut(idx)) is not None:
        o.set(acc / f32(samples))


@simt.kernel
@simt.launch_contract(block=128)
def mc_antithetic(seeds: Slice[u32], out: DisjointSlice[f32], samples: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    acc = f32(0.0)
    for k in range(samples):
        x = uniform(seeds[i], u32(k))
        y = f32(1.0) - x
        acc += f32(0.5) * (math.exp(-x * x) + math.exp(-y * y))
    if (o := out.get_mut(idx)) is not None:
        o.set(acc / f32(samples))


@simt.kernel
@simt.launch_contract(block=128)
def mc_stratified(seeds: Slice[u32], out: DisjointSlice[f32], samples: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    acc = f32(0.0)
    for k in range(samples):
        x = (f32(k) + uniform(seeds[i], u32(k))) / f32(samples)
        acc += math.exp(-x * x)
    if (o := out.get_mut(idx)) is not None:
        o.set(acc / f32(samples))


ESTIMATORS = {"plain": mc_plain, "antithetic": mc_antithetic, "stratified": mc_stratified}


@dataclass
class McConfig:
    walkers: int = 256
    samples: int = 16
    schemes: tuple[str, ...] = ("plain", "antithetic", "stratified")


class McIntegrator:
    def __init__(self, cfg: McConfig, device: sk.Device) -> None:
        self.cfg = cfg
        self.stream = device.new_stream()
        grid = simt.LaunchConfig1D.for_len(cfg.walkers, block=128)
        self.launches = {name: ESTIMATORS[name].prepare(grid, device) for name in ("plain", "antithetic")}
        self.launches["stratified"] = mc_stratified.prepare(grid, device)   # same walkers, own brand
        seeds = np.arange(1, cfg.walkers + 1, dtype=np.uint32) * np.uint32(2654435761)
        self.seeds = sk.to_device(seeds, self.stream)
        self.partial = sk.zeros(cfg.walkers, f32, self.stream)

    def estimate(self, scheme: str) -> tuple[float, float]:
        kernel = ESTIMATORS[scheme]
        kernel.launch(self.launches[scheme], self.stream, self.seeds, self.partial, self.cfg.samples)
        values = self.partial.to_numpy(self.stream)
        return float(values.mean()), float(values.std() / math.sqrt(len(values)))

    def sweep(self) -> Iterator[tuple[str, float, float]]:
        for scheme in self.cfg.schemes:
            mean, err = self.estimate(scheme)
            yield scheme, mean, err


def main() -> None:
    exact = 0.5 * math.sqrt(math.pi) * math.erf(1.0)
    integrator = McIntegrator(McConfig(), sk.Device.cpu())
    for scheme, mean, err in integrator.sweep():
        print(f"{scheme:>10}: {mean:.6f} +- {err:.1e} (error {abs(mean - exact):.1e})")


if __name__ == "__main__":
    main()
