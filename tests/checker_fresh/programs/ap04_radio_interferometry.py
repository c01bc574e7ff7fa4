# fresh-expect: clean
# fresh-note: Radio-interferometer correlator; every baseline, auto-correlations included, gets its own real and imaginary visibility buffers, so the two outputs never alias.
"""FX-correlator stage: cross-multiply channelised antenna voltages into per-baseline visibilities."""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations_with_replacement

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.simt import Slice, DisjointSlice, thread
from safekernels.dtypes import f32

CHANNELS = 512


@simt.kernel
@simt.launch_contract(block=256)
def cross_multiply(a_re: Slice[f32], a_im: Slice[f32], b_re: Slice[f32], b_im: Slice[f32],
                   vis_re: DisjointSlice[f32], vis_im: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    # V = A * conj(B)
    if (r := vis_re.get_mut(idx)) is not None:
        r.set(a_re[i] * b_re[i] + a_im[i] * b_im[i])
    j = thread.index_1d()
    if (m := vis_im.get_mut(j)) is not None:
        m.set(a_im[i] * b_re[i] - a_re[i] * b_im[i])


@dataclass(frozen=True)
class Baseline:
    first: str
    second: str

    @property
    def is_auto(self) -> bool:
        return self.first == self.second

    @property
    def label(self) -> str:
        return f"{self.first}-{self.second}"


def allocate_visibilities(n: int, stream: sk.Stream, baseline: Baseline) -> dict[str, sk.DeviceBuffer]:
    re = sk.zeros(n, f32, stream)
    # auto-correlations are real, but the kernel writes both parts, so each gets its own buffer
    im = sk.zeros(n, f32, stream)
    return {"re": re, "im": im}


@dataclass
class Correlator:
    dev: sk.Device
    stream: sk.Stream
    voltages: dict[str, tuple[sk.DeviceBuffer, sk.DeviceBuffer]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        cfg = simt.LaunchConfig1D.for_len(CHANNELS, block=256)
        self.prepared = cross_multiply.prepare(cfg, self.dev)

    def ingest(self, antenna: str, samples: np.ndarray) -> None:
        re = sk.to_device(samples.real.astype(np.float32), self.stream)
        im = sk.to_device(samples.imag.astype(np.float32), self.stream)
        self.voltages[antenna] = (re, im)

    def correlate(self, baseline: Baseline) -> np.ndarray:
        a_re, a_im = self.voltages[baseline.first]
        b_re, b_im = self.voltages[baseline.second]
        vis = allocate_visibilities(CHANNELS, self.stream, baseline)
        cross_multiply.launch(
            self.prepared, self.stream,
            a_re, a_im, b_re, b_im,
            vis["re"],
            vis["im"],
        )
        return vis["re"].to_numpy(self.stream) + 1j * vis["im"].to_numpy(self.stream)


def observe(antennas: list[str], seed: int = 3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    sky = rng.normal(size=CHANNELS) + 1j * rng.normal(size=CHANNELS)
    out = {}
    for k, name in enumerate(antennas):
        phase = np.exp(1j * 0.1 * k * np.arange(CHANNELS))
        noise = 0.3 * (rng.normal(size=CHANNELS) + 1j * rng.normal(size=CHANNELS))
        out[name] = sky * phase + noise
    return out


def main() -> None:
    dev = sk.Device.cpu()
    corr = Correlator(dev, dev.new_stream())
    antennas = ["ant0", "ant1", "ant2"]
    for name, samples in observe(antennas).items():
        corr.ingest(name, samples)
    baselines = [Baseline(a, b) for a, b in combinations_with_replacement(antennas, 2)]
    spectra = {bl.label: corr.correlate(bl) for bl in baselines}
    for label, spec in spectra.items():
        print(f"{label}: |V| mean {np.abs(spec).mean():.3f}, phase slope {np.angle(spec[1] / spec[0]):+.3f}")


if __name__ == "__main__":
    main()
