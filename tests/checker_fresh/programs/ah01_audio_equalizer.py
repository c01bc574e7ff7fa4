# fresh-expect: E0502 at line 64
# fresh-note: an equalizer ping-pongs between scratch buffers drawn from itertools.cycle over a list built by repeating one zeros buffer, so the second band reads and writes the same memory.
"""Three-band graphic equalizer for a mono audio clip.

Each band is a 3-tap FIR section applied on the device; the sections run one after another, the output of
one band feeding the next through a pair of scratch buffers.  The result is compared with a numpy reference.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SAMPLE_RATE = 8_000
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(src) >= len(dst)",))
def fir3(src: Slice[f32], dst: DisjointSlice[f32], b0: f32, b1: f32, b2: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        acc = b0 * src[i]
        if i >= 1:
            acc += b1 * src[i - 1]
        if i >= 2:
            acc += b2 * src[i - 2]
        out.set(acc)


@dataclass(frozen=True)
class Band:
    name: str
    b0: float
    b1: float
    b2: float

    def taps(self) -> tuple[float, float, float]:
        return (self.b0, self.b1, self.b2)


class Equalizer:
    """Runs a fixed list of bands over clips of one length."""

    def __init__(self, bands: list[Band], n: int, device: sk.Device, stream: sk.Stream) -> None:
        self.bands = bands
        self.stream = stream
        self.prepared = fir3.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), device)
        self.scratch = [sk.zeros(n, f32, stream)] * 2

    def process(self, clip: sk.DeviceBuffer) -> sk.DeviceBuffer:
        src = clip
        ring = itertools.cycle(self.scratch)
        for band in self.bands:
            dst = next(ring)
            fir3.launch(self.prepared, self.stream, src, dst, *band.taps())
            src = dst
        return src


def reference(clip: np.ndarray, bands: list[Band]) -> np.ndarray:
    out = clip.astype(np.float32)
    for band in bands:
        padded = np.concatenate([np.zeros(2, np.float32), out])
        out = (np.float32(band.b0) * padded[2:] + np.float32(band.b1) * padded[1:-1]
               + np.float32(band.b2) * padded[:-2]).astype(np.float32)
    return out


def synth_clip(seconds: float, seed: int = 3) -> np.ndarray:
    t = np.arange(int(SAMPLE_RATE * seconds)) / SAMPLE_RATE
    rng = np.random.default_rng(seed)
    tones = np.sin(2 * np.pi * 220 * t) + 0.5 * np.sin(2 * np.pi * 1800 * t)
    return (tones + 0.05 * rng.standard_normal(t.size)).astype(np.float32)


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    clip = synth_clip(0.25)
    bands = [
        Band("low shelf", 0.50, 0.30, 0.20),
        Band("presence", 1.20, -0.40, 0.10),
        Band("air", 0.90, 0.05, 0.05),
    ]
    eq = Equalizer(bands, clip.size, device, stream)
    out = eq.process(sk.to_device(clip, stream))
    got = out.to_numpy(stream)
    np.testing.assert_allclose(got, reference(clip, bands), rtol=1e-5, atol=1e-5)
    print(f"equalized {clip.size} samples through {len(bands)} bands, peak {float(np.abs(got).max()):.3f}")


if __name__ == "__main__":
    main()
