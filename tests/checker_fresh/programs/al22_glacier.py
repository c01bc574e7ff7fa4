# fresh-expect: clean
# fresh-note: flowline glacier spin-up that, every decade, syncs its pending thickness update, moves the thickness buffer to an analysis executor for an atomic volume sum, and moves it back to keep integrating with the returned handle.
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

CELLS = 48


@simt.kernel
@simt.launch_contract(block=16)
def evolve(h: Slice[f32], bed: Slice[f32], smb: Slice[f32], h_new: DisjointSlice[f32], k: f32, dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := h_new.get_mut(idx)) is not None:
        flux_in = f32(0.0)
        flux_out = f32(0.0)
        if i > 0:
            flux_in = k * max((h[i - 1] + bed[i - 1]) - (h[i] + bed[i]), f32(0.0)) * h[i - 1]
        if i < len(h) - 1:
            flux_out = k * max((h[i] + bed[i]) - (h[i + 1] + bed[i + 1]), f32(0.0)) * h[i]
        o.set(max(h[i] + dt * (smb[i] + flux_in - flux_out), f32(0.0)))


@simt.kernel
@simt.launch_contract(block=16)
def volume(h: Slice[f32], total: AtomicSlice[f32], dx: f32) -> None:
    i = thread.index_1d().get()
    if i < len(h):
        total.fetch_add(0, h[i] * dx)


class Glacier:
    def __init__(self, sim: sk.Device, stream: sk.Stream) -> None:
        self.sim, self.stream = sim, stream
        x = np.linspace(0, 1, CELLS)
        self.bed = sk.to_device((1800 * (1 - x)).astype(np.float32), stream)
        self.smb = sk.to_device(np.where(x < 0.4, 0.8, -1.2).astype(np.float32), stream)
        self.h = sk.zeros(CELLS, f32, stream)
        self.h_new = sk.zeros(CELLS, f32, stream)
        self.prepared = evolve.prepare(simt.LaunchConfig1D.for_len(CELLS, block=16), sim)

    def years(self, n: int, dt: float) -> Iterator[int]:
        for year in range(n):
            op = evolve.launch_async(self.prepared, self.h, self.bed, self.smb, self.h_new, 0.002, dt)
            op.sync_on(self.stream)
            self.h, self.h_new = self.h_new, self.h
            yield year


def measure(h_remote: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream) -> float:
    total = sk.zeros(1, f32, stream)
    prepared = volume.prepare(simt.LaunchConfig1D.for_len(CELLS, block=16), dev)
    volume.launch(prepared, stream, h_remote, total, 250.0)
    return float(total.to_numpy(stream)[0])


def main() -> None:
    sim, lab = sk.Device.cpu(0), sk.Device.cpu(1)
    stream, lab_stream = sim.new_stream(), lab.new_stream()
    glacier = Glacier(sim, stream)
    volumes = []
    for year in glacier.years(30, dt=0.5):
        if year % 10 == 9:
            remote = glacier.h.to(lab, lab_stream)
            volumes.append(measure(remote, lab, lab_stream))
            glacier.h = remote.to(sim, stream)
    expected = float(glacier.h.to_numpy(stream).sum()) * 250.0
    np.testing.assert_allclose(volumes[-1], expected, rtol=1e-4)
    print("ice volume per decade:", [round(v, 1) for v in volumes])


if __name__ == "__main__":
    main()
