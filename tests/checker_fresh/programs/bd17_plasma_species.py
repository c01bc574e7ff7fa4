# fresh-expect: E0382 at line 60
# fresh-known-false-alarm: cli,mypy false E0382 at 37: a .shared() op passed as a parameter and launched per item of a comprehension is moved per iteration (the analysis is per function)
# fresh-note: An electrostatic particle pusher builds one tile launch per species in a dict, zips the dict's ops into one step, and then taps the electron op for a velocity probe although the zip already consumed it.
"""Push electrons and ions in a fixed sinusoidal E field; species kept in a dict of dataclasses."""
from dataclasses import dataclass
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256
TILE = 64
L = 2.0 * np.pi


@tile.kernel
def push(v: Partition[f32], x: Partition[f32], phase: Tensor[f32], qm: f32, dt: f32) -> None:
    xs = x.load()
    field = tile.sin(xs + tile.load_like(phase, x))
    vn = v.load() + qm * field * dt
    v.store(vn)
    xn = xs + vn * dt
    x.store(tile.where(xn < 0.0, xn + L, tile.where(xn >= L, xn - L, xn)))


@dataclass
class Species:
    x: tile.Tensor
    v: tile.Tensor
    qm: float


def build_step(species: dict, phase, dt: float) -> dict:
    return {
        name: push(sp.v.partition((TILE,)), sp.x.partition((TILE,)), phase, sp.qm, dt)
        for name, sp in species.items()
    }


def kinetic(v: np.ndarray, qm: float) -> float:
    return float(0.5 * np.sum(v * v) / abs(qm))


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(6)
    species = {}
    for name, qm in (("electrons", -1.0), ("ions", 1.0 / 1836.0)):
        x0 = tile.from_numpy(rng.uniform(0.0, L, N).astype(np.float32)).sync_on(stream)
        v0 = tile.from_numpy(rng.normal(0.0, 0.1, N).astype(np.float32)).sync_on(stream)
        species[name] = Species(x0, v0, qm)
    phase = tile.zeros((N,), f32).shared()
    probes = []
    for step in range(10):
        ops = build_step(species, phase, 0.05)
        combined = sk.zip(*ops.values())
        if step % 5 == 0:
            probes.append(ops["electrons"].first())
        results = combined.sync_on(stream)
        for (v_parts, x_parts, *_), sp in zip(results, species.values()):
            sp.v, sp.x = v_parts.unpartition(), x_parts.unpartition()
    energies = {name: kinetic(sp.v.to_numpy(stream), sp.qm) for name, sp in species.items()}
    assert all(0.0 <= sp.x.to_numpy(stream).min() and sp.x.to_numpy(stream).max() < L for sp in species.values())
    print("kinetic energy:", {k: round(v, 4) for k, v in energies.items()}, "probes:", len(probes))


if __name__ == "__main__":
    main()
