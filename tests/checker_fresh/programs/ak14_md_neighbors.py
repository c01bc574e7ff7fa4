# fresh-expect: clean
# fresh-note: Verlet-skin neighbor bookkeeping that queues the neighbor-count and energy kernels with launch_async on the same read-only coordinates, each with its own prepared launch, and runs both through one zip.
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64
BOX = 5.0
CUTOFF = 2.2
SKIN = 0.3


@simt.device
def dist2(x: Slice[f32], y: Slice[f32], z: Slice[f32], i: int, j: int, box: f32) -> f32:
    dx = x[j] - x[i]
    dy = y[j] - y[i]
    dz = z[j] - z[i]
    dx = dx - box * math.floor(dx / box + f32(0.5))
    dy = dy - box * math.floor(dy / box + f32(0.5))
    dz = dz - box * math.floor(dz / box + f32(0.5))
    return dx * dx + dy * dy + dz * dz


@simt.kernel
@simt.launch_contract(block=64)
def neighbor_count(x: Slice[f32], y: Slice[f32], z: Slice[f32], counts: DisjointSlice[i32], rl2: f32, box: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(x) and (o := counts.get_mut(idx)) is not None:
        c = i32(0)
        for j in range(len(x)):
            if j != i and dist2(x, y, z, i, j, box) < rl2:
                c += i32(1)
        o.set(c)


@simt.kernel
@simt.launch_contract(block=64)
def lj_energy(x: Slice[f32], y: Slice[f32], z: Slice[f32], energy: DisjointSlice[f32], rc2: f32, box: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(x) and (o := energy.get_mut(idx)) is not None:
        e = f32(0.0)
        for j in range(len(x)):
            r2 = dist2(x, y, z, i, j, box)
            if j != i and r2 < rc2:
                s6 = f32(1.0) / (r2 * r2 * r2)
                e += f32(2.0) * (s6 * s6 - s6)
        o.set(e)


class VerletBook:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        cfg = simt.LaunchConfig1D.for_len(N, block=64)
        self.launches = {k.__name__: k.prepare(cfg, dev) for k in (neighbor_count, lj_energy)}
        self.counts = sk.zeros(N, i32, stream)
        self.energy = sk.zeros(N, f32, stream)
        self.ref_pos: np.ndarray | None = None
        self.rebuilds = 0

    def evaluate(self, pos: np.ndarray) -> float:
        x, y, z = (sk.to_device(np.ascontiguousarray(pos[:, k]), self.stream) for k in range(3))
        jobs = []
        if self.ref_pos is None or np.abs(pos - self.ref_pos).max() > SKIN / 2:
            rl = CUTOFF + SKIN
            jobs.append(neighbor_count.launch_async(self.launches["neighbor_count"], x, y, z, self.counts, rl * rl, BOX))
            self.ref_pos, self.rebuilds = pos.copy(), self.rebuilds + 1
        jobs.append(lj_energy.launch_async(self.launches["lj_energy"], x, y, z, self.energy, CUTOFF * CUTOFF, BOX))
        sk.zip(*jobs).sync_on(self.stream)
        return float(self.energy.to_numpy(self.stream).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(17)
    side = 4
    grid = np.stack(np.meshgrid(*[np.arange(side)] * 3, indexing="ij"), -1).reshape(-1, 3)
    pos = ((grid + 0.5) * BOX / side).astype(np.float32)
    book = VerletBook(dev, stream)
    energies = []
    for _ in range(4):
        pos = ((pos + rng.normal(0.0, 0.02, pos.shape)) % BOX).astype(np.float32)
        energies.append(round(book.evaluate(pos), 3))
    print(f"energies {energies}; neighbor rebuilds {book.rebuilds}; mean list size {book.counts.to_numpy(stream).mean():.1f}")


if __name__ == "__main__":
    main()
