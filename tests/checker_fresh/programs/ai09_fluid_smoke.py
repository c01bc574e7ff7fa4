# fresh-expect: E0502 at line 65
# fresh-note: step() starts the advection with launch_async, which writes density_next, and before syncing it launches the buoyancy kernel that reads density_next.
"""A 2-D smoke plume on a 32 x 32 grid: semi-Lagrangian advection of density plus buoyancy.

Density is advected along the velocity field by one SIMT kernel (nearest-cell backtrace), and buoyancy lifts the
vertical velocity where there is smoke.  The advection is launched asynchronously so the buoyancy update can be
queued behind it.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

W = 32
H = 32
DT = 0.1
BUOYANCY = 0.8


@simt.kernel
@simt.launch_contract(block=128)
def advect(density: Slice[f32], vx: Slice[f32], vy: Slice[f32], out: DisjointSlice[f32],
           w: i32, h: i32, dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        row = i // w
        col = i % w
        src_col = min(max(i32(f32(col) - vx[i] * dt * f32(w) + 0.5), i32(0)), w - 1)
        src_row = min(max(i32(f32(row) - vy[i] * dt * f32(h) + 0.5), i32(0)), h - 1)
        o.set(density[src_row * w + src_col] * f32(0.995))


@simt.kernel
@simt.launch_contract(block=128)
def buoyancy(density: Slice[f32], vy: Slice[f32], vy_out: DisjointSlice[f32], alpha: f32, dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := vy_out.get_mut(idx)) is not None:
        o.set(vy[i] * f32(0.99) - alpha * density[i] * dt)


class SmokeSim:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        n = W * H
        cfg = simt.LaunchConfig1D.for_len(n, block=128)
        self.adv_prep = advect.prepare(cfg, dev)
        self.buoy_prep = buoyancy.prepare(cfg, dev)
        source = np.zeros((H, W), np.float32)
        source[H - 6:H - 2, W // 2 - 3:W // 2 + 3] = 1.0
        self.density = sk.to_device(source.ravel(), stream)
        self.density_next = sk.zeros(n, f32, stream)
        self.vx = sk.to_device(np.full(n, 0.05, np.float32), stream)
        self.vy = sk.to_device(np.full(n, -0.3, np.float32), stream)
        self.vy_next = sk.zeros(n, f32, stream)

    def step(self) -> None:
        pending = advect.launch_async(self.adv_prep, self.density, self.vx, self.vy, self.density_next, W, H, DT)
        buoyancy.launch(self.buoy_prep, self.stream, self.density_next, self.vy, self.vy_next, BUOYANCY, DT)
        pending.sync_on(self.stream)
        self.density, self.density_next = self.density_next, self.density
        self.vy, self.vy_next = self.vy_next, self.vy

    def centroid(self) -> tuple[float, float]:
        d = self.density.to_numpy(self.stream).reshape(H, W)
        total = float(d.sum())
        rows, cols = np.indices(d.shape)
        return float((rows * d).sum() / total), float((cols * d).sum() / total)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    sim = SmokeSim(dev, stream)
    start = sim.centroid()
    for frame in range(8):
        sim.step()
        r, c = sim.centroid()
        print(f"frame {frame}: plume centroid row {r:6.2f} col {c:6.2f}")
    end = sim.centroid()
    print(f"plume rose {start[0] - end[0]:.2f} rows and drifted {end[1] - start[1]:.2f} columns")


if __name__ == "__main__":
    main()
