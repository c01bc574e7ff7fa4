# fresh-expect: clean
# the Band enum splits the spectrum exactly at 512, so mirroring LOW into HIGH reads and writes disjoint views
"""Spectral processing for an audio equalizer: mirror and attenuate bands of one spectrum buffer."""
from __future__ import annotations

import enum

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BINS = 1024


class Band(enum.Enum):
    LOW = slice(0, 512)
    HIGH = slice(512, 1024)

    @property
    def width(self) -> int:
        return self.value.stop - self.value.start


@simt.kernel
@simt.launch_contract(block=128, requires=("len(src) >= len(dst)",))
def attenuate_mirror(src: Slice[f32], dst: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        o.set(gain * src[n - 1 - i])


class Equalizer:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.plans = {
            band: attenuate_mirror.prepare(simt.LaunchConfig1D.for_len(band.width, block=128), dev)
            for band in Band
        }

    def mirror(self, spectrum: sk.DeviceBuffer, src: Band, dst: Band, gain: float) -> None:
        attenuate_mirror.launch(self.plans[dst], self.stream, spectrum[src.value], spectrum[dst.value], gain)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    eq = Equalizer(dev, stream)
    freqs = np.fft.rfftfreq(2 * BINS - 1)[:BINS].astype(np.float32)
    spectrum = sk.to_device(np.exp(-freqs * 8.0).astype(np.float32), stream)
    eq.mirror(spectrum, Band.LOW, Band.HIGH, 0.25)
    out = spectrum.to_numpy(stream)
    print("band energies:", {b.name: round(float(out[b.value].sum()), 3) for b in Band})


if __name__ == "__main__":
    main()
