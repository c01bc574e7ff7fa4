# fresh-expect: E0505 at line 77
# fresh-note: shallow-ice flowline glacier model on one CPU executor that overlaps its final thickness update (a launch_async op) with shipping the previous thickness to a second executor for diagnostics; `to` moves the thickness buffer while the pending update still borrows it.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 64


@simt.kernel
@simt.launch_contract(block=32)
def ice_flux(h: Slice[f32], bed: Slice[f32], q: DisjointSlice[f32], rate: f32, dx: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := q.get_mut(idx)) is not None:
        if i < len(h) - 1:
            hm = f32(0.5) * (h[i] + h[i + 1])
            slope = (h[i + 1] + bed[i + 1] - h[i] - bed[i]) / dx
            o.set(-rate * hm * hm * hm * hm * hm * abs(slope) * slope)
        else:
            o.set(f32(0.0))


@simt.kernel
@simt.launch_contract(block=32)
def thickness_update(h: Slice[f32], q: Slice[f32], smb: Slice[f32], h_new: DisjointSlice[f32],
                     dt: f32, dx: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := h_new.get_mut(idx)) is not None:
        q_in = f32(0.0)
        if i > 0:
            q_in = q[i - 1]
        o.set(max(h[i] + dt * (smb[i] - (q[i] - q_in) / dx), f32(0.0)))


@dataclass
class Flowline:
    bed: sk.DeviceBuffer
    smb: sk.DeviceBuffer
    h: sk.DeviceBuffer
    h_new: sk.DeviceBuffer
    q: sk.DeviceBuffer


def build(stream: sk.Stream) -> Flowline:
    x = np.linspace(0.0, 1.0, CELLS)
    bed = (2000.0 * (1.0 - x)).astype(np.float32)
    smb = np.where(bed > 1200.0, 1.5, -2.0).astype(np.float32)
    h0 = np.where(bed > 1000.0, 100.0, 0.0).astype(np.float32)
    return Flowline(sk.to_device(bed, stream), sk.to_device(smb, stream), sk.to_device(h0, stream),
                    sk.zeros(CELLS, f32, stream), sk.zeros(CELLS, f32, stream))


def run(years: int) -> tuple[np.ndarray, np.ndarray]:
    sim = sk.Device.cpu(0)
    viz = sk.Device.cpu(1)
    stream, viz_stream = sim.new_stream(), viz.new_stream()
    cfg = simt.LaunchConfig1D.for_len(CELLS, block=32)
    flux_p, upd_p = ice_flux.prepare(cfg, sim), thickness_update.prepare(cfg, sim)
    g = build(stream)
    dx, dt, rate = 500.0, 0.05, 1e-10
    for _ in range(years - 1):
        ice_flux.launch(flux_p, stream, g.h, g.bed, g.q, rate, dx)
        thickness_update.launch(upd_p, stream, g.h, g.q, g.smb, g.h_new, dt, dx)
        g.h, g.h_new = g.h_new, g.h
    ice_flux.launch(flux_p, stream, g.h, g.bed, g.q, rate, dx)
    last = thickness_update.launch_async(upd_p, g.h, g.q, g.smb, g.h_new, dt, dx)
    try:
        previous = g.h.to(viz, viz_stream)  # ship last year's state while the final update runs
    finally:
        last.sync_on(stream)
    return previous.to_numpy(viz_stream), g.h_new.to_numpy(stream)


def main() -> None:
    before, after = run(40)
    volume = float(after.sum()) * 500.0
    terminus = int(np.nonzero(after > 1.0)[0].max())
    print(f"ice volume per unit width {volume:.3e} m^2, terminus at cell {terminus}, change {float((after - before).sum()):.2f}")


if __name__ == "__main__":
    main()
