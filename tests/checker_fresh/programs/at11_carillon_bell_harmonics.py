# fresh-expect: E0133 at line 38
# fresh-note: Carillon tuning tool that sums each bell's partial energies with a shared-memory tree reduction; the final read of the shared total into the per-bell atomic happens after the unsafe block has closed.
"""Carillon tuning: spectral energy of each bell's partials, and how much sits in the hum and prime."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import AtomicSlice, Slice, thread

PARTIALS = 64


@simt.kernel
@simt.launch_contract(block=PARTIALS)
def bell_energy(amplitude: Slice[f32], energy: AtomicSlice[f32]) -> None:
    t = thread.thread_idx_x()
    bell = thread.block_idx_x()
    i = bell * PARTIALS + t
    a = f32(0.0)
    if i < len(amplitude):
        a = amplitude[i]
    with simt.unsafe():
        scratch = simt.shared_array(f32, PARTIALS)
        scratch[t] = a * a
    thread.sync_threads()
    stride = PARTIALS // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                scratch[t] = scratch[t] + scratch[t + stride]
        thread.sync_threads()
        stride = stride // 2
    if t == 0:
        energy.fetch_add(bell, scratch[0])


class Carillon:
    def __init__(self, dev: sk.Device, stream: sk.Stream, bells: int, seed: int = 0) -> None:
        self.dev = dev
        self.stream = stream
        self.bells = bells
        rng = np.random.default_rng(seed)
        decay = np.exp(-np.arange(PARTIALS) / 9.0)
        spectra = rng.uniform(0.5, 1.5, (bells, PARTIALS)) * decay
        self.spectra = spectra.astype(np.float32)
        self._prepared = bell_energy.prepare(simt.LaunchConfig1D(grid=bells, block=PARTIALS), dev)

    def total_energy(self, spectra: np.ndarray) -> np.ndarray:
        amplitude = sk.to_device(spectra.ravel(), self.stream)
        energy = sk.zeros(self.bells, f32, self.stream)
        bell_energy.launch(self._prepared, self.stream, amplitude, energy)
        return energy.to_numpy(self.stream)

    def low_partials_share(self) -> np.ndarray:
        whole = self.total_energy(self.spectra)
        low = self.spectra.copy()
        low[:, 2:] = 0.0
        return self.total_energy(low) / whole


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    tower = Carillon(dev, stream, bells=23, seed=4)
    share = tower.low_partials_share()
    for bell in np.argsort(share)[:3]:
        print(f"bell {bell:2d}: hum+prime carry {share[bell] * 100:.1f}% of the energy; retune")
    print(f"median share {np.median(share) * 100:.1f}%")


if __name__ == "__main__":
    main()
