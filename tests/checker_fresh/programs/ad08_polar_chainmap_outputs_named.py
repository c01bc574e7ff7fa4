# fresh-expect: clean
# idiom: collections.ChainMap of caller-supplied outputs over defaults built with dict.fromkeys, outputs splatted from a generator
"""Convert complex spectra to polar form (magnitude and phase) on the device.

The transform writes both outputs in one pass.  Callers pass the buffers they want as
keyword arguments; any output nobody asked for is written into a throwaway sink so the
kernel signature stays the same.
"""

from __future__ import annotations

import math
from collections import ChainMap

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BINS = 256


@simt.kernel
@simt.launch_contract(block=64)
def to_polar(re: Slice[f32], im: Slice[f32], mag: DisjointSlice[f32], phase: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (m := mag.get_mut(idx)) is not None:
        m.set(math.sqrt(re[i] * re[i] + im[i] * im[i]))
    idx2 = thread.index_1d()
    if (p := phase.get_mut(idx2)) is not None:
        p.set(math.atan2(im[i], re[i]))


class PolarTransform:
    ROLES = ("mag", "phase")

    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        self.prep = to_polar.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
        sink = sk.zeros(n, f32, stream)  # outputs nobody asked for land here
        self.defaults = dict.fromkeys(self.ROLES, sink)
        self.calls = 0

    def __call__(self, re: sk.DeviceBuffer, im: sk.DeviceBuffer, **wanted: sk.DeviceBuffer) -> None:
        unknown = set(wanted) - set(self.ROLES)
        if unknown and self.calls == 0:
            print("note: ignoring outputs", sorted(unknown))
        outs = ChainMap(wanted, self.defaults)
        to_polar.launch(self.prep, self.stream, re, im, *(outs[role] for role in self.ROLES))
        self.calls += 1


def spectrum(freq: float, rng: np.random.Generator) -> np.ndarray:
    t = np.arange(BINS, dtype=np.float32)
    return np.fft.fft(np.sin(2 * np.pi * freq * t / BINS) + 0.05 * rng.standard_normal(BINS)).astype(np.complex64)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(4)
    polar = PolarTransform(dev, stream, BINS)
    magnitude = sk.zeros(BINS, f32, stream)
    for freq in (5.0, 17.0, 40.0):
        spec = spectrum(freq, rng)
        re = sk.to_device(spec.real.copy(), stream)
        im = sk.to_device(spec.imag.copy(), stream)
        polar(re, im, mag=magnitude)
        peak = int(np.argmax(magnitude.to_numpy(stream)[: BINS // 2]))
        print(f"tone {freq:5.1f}: peak bin {peak}")


if __name__ == "__main__":
    main()
