# fresh-expect: E0505 at line 58
# fresh-note: Mosquito surveillance night that tallies trap catches per species with an async atomic SIMT launch held pending by a class-based context manager until __exit__; a live-preview call inside the with block hands the still-borrowed count buffer to a tile kernel.
"""Nightly mosquito trap tallies per species, with a density map for the district."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N_SPECIES = 64
N_READINGS = 3000
TILE = 16


@simt.kernel
@simt.launch_contract(block=64)
def tally(species: Slice[i32], catch: Slice[i32], counts: AtomicSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(species):
        counts.fetch_add(species[i], catch[i])


@tile.kernel
def density(out: Partition[f32], counts: Tensor[i32], trap_nights: f32) -> None:
    c = tile.load_like(counts, out).astype(f32)
    out.store(c / trap_nights)


class TrapNight:
    """Tallies one night of readings; the tally runs while the context is open."""

    def __init__(self, dev: sk.Device, stream: sk.Stream, traps: int) -> None:
        self.stream = stream
        self.traps = traps
        self.counts = sk.zeros(N_SPECIES, i32, stream)
        self.prepared = tally.prepare(simt.LaunchConfig1D.for_len(N_READINGS, block=64), dev)
        self.op = None

    def __enter__(self) -> "TrapNight":
        return self

    def __exit__(self, *exc: object) -> bool:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None
        return False

    def submit(self, species: sk.DeviceBuffer, catch: sk.DeviceBuffer) -> None:
        self.op = tally.launch_async(self.prepared, species, catch, self.counts)

    def density_map(self) -> np.ndarray:
        out = tile.zeros((N_SPECIES,), f32).partition((TILE,))
        out, self.counts, _n = density(out, self.counts, float(self.traps)).sync_on(self.stream)
        return out.unpartition().to_numpy(self.stream)


def readings(seed: int, stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    rng = np.random.default_rng(seed)
    species = rng.zipf(1.6, N_READINGS) % N_SPECIES
    catch = rng.poisson(3.0, N_READINGS)
    return sk.to_device(species.astype(np.int32), stream), sk.to_device(catch.astype(np.int32), stream)


def main(preview: bool = True) -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    species, catch = readings(2024, stream)
    with TrapNight(dev, stream, traps=40) as night:
        night.submit(species, catch)
        if preview:
            early = night.density_map()
            print("preview, top species density:", float(early.max()))
    final = night.density_map()
    top = np.argsort(final)[::-1][:3]
    print("top species:", top.tolist(), np.round(final[top], 2).tolist())


if __name__ == "__main__":
    main()
