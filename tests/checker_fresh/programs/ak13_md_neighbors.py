# fresh-expect: E0308 at line 77
# fresh-note: Lennard-Jones neighbor-count and energy pass in a periodic box where the energy kernel is launched with the prepared launch of the neighbor kernel because both use the same 1-D config.
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

N = 96
BOX = 6.0
CUTOFF = 2.5


@simt.device
def min_image(d: f32, box: f32) -> f32:
    return d - box * math.floor(d / box + f32(0.5))


@simt.kernel
@simt.launch_contract(block=64)
def neighbor_count(x: Slice[f32], y: Slice[f32], z: Slice[f32], counts: DisjointSlice[i32], rc2: f32, box: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(x):
        return
    c = i32(0)
    for j in range(len(x)):
        dx = min_image(x[j] - x[i], box)
        dy = min_image(y[j] - y[i], box)
        dz = min_image(z[j] - z[i], box)
        if j != i and dx * dx + dy * dy + dz * dz < rc2:
            c += i32(1)
    if (o := counts.get_mut(idx)) is not None:
        o.set(c)


@simt.kernel
@simt.launch_contract(block=64)
def lj_energy(x: Slice[f32], y: Slice[f32], z: Slice[f32], energy: DisjointSlice[f32], rc2: f32, box: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(x):
        return
    e = f32(0.0)
    for j in range(len(x)):
        dx = min_image(x[j] - x[i], box)
        dy = min_image(y[j] - y[i], box)
        dz = min_image(z[j] - z[i], box)
        r2 = dx * dx + dy * dy + dz * dz
        if j != i and r2 < rc2:
            s6 = f32(1.0) / (r2 * r2 * r2)
            e += f32(2.0) * (s6 * s6 - s6)
    if (o := energy.get_mut(idx)) is not None:
        o.set(e)


class NeighborPass:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.counts = sk.zeros(N, i32, stream)
        self.energy = sk.zeros(N, f32, stream)
        # both kernels run one thread per particle with the same block
        self.pair_launch = neighbor_count.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)

    def upload(self, pos: np.ndarray) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer, sk.DeviceBuffer]:
        return tuple(sk.to_device(np.ascontiguousarray(pos[:, k]), self.stream) for k in range(3))  # type: ignore[return-value]

    def run(self, pos: np.ndarray) -> tuple[np.ndarray, float]:
        x, y, z = self.upload(pos)
        rc2 = CUTOFF * CUTOFF
        neighbor_count.launch(self.pair_launch, self.stream, x, y, z, self.counts, rc2, BOX)
        lj_energy.launch(self.pair_launch, self.stream, x, y, z, self.energy, rc2, BOX)
        return self.counts.to_numpy(self.stream), float(self.energy.to_numpy(self.stream).sum())


def lattice(rng: np.random.Generator) -> np.ndarray:
    side = math.ceil(N ** (1 / 3))
    grid = np.stack(np.meshgrid(*[np.arange(side)] * 3, indexing="ij"), -1).reshape(-1, 3)[:N]
    return ((grid + 0.5) * BOX / side + rng.normal(0.0, 0.05, (N, 3))).astype(np.float32) % BOX


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    pos = lattice(np.random.default_rng(13))
    nbr = NeighborPass(dev, stream)
    counts, energy = nbr.run(pos)
    print(f"neighbors per atom: min {counts.min()} max {counts.max()} mean {counts.mean():.1f}; E = {energy:.3f}")


if __name__ == "__main__":
    main()
