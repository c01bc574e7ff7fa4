# fresh-expect: E0499 at line 82
# fresh-known-miss: cli,mypy views a @staticmethod computes from its arguments (band ranges with a half hop) and returns through helper layers are not compared: the two DisjointSlice outputs overlap
# fresh-note: Splits guitar-top tap spectra into two mode bands stored as views of one ModeBank buffer; main builds the bank with a half hop, so band(0) and band(1) overlap and the launch gets two aliasing DisjointSlice outputs.
"""Luthier's tap-tone analysis: split the tap spectrum of a guitar top into low and high mode bands per brace stage."""
from __future__ import annotations
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
BAND = 64


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(spectrum) >= len(low)", "len(spectrum) >= len(high)"))
def split_modes(spectrum: Slice[f32], low: DisjointSlice[f32], high: DisjointSlice[f32], tilt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lo := low.get_mut(idx)) is not None:
        lo.set(spectrum[i] * (1.0 - tilt))
    idx2 = thread.index_1d()
    j = idx2.get()
    if (hi := high.get_mut(idx2)) is not None:
        hi.set(spectrum[j] * tilt)


class ModePeaks(NamedTuple):
    stage: str
    monopole_bin: int
    dipole_bin: int


@dataclass
class TapRecording:
    stage: str
    spectrum: np.ndarray


class ModeBank:
    """One device buffer holding every band; bands are views into it."""

    def __init__(self, bands: int, stream: sk.Stream, hop: int = BAND) -> None:
        self.stream = stream
        self.bands = bands
        self.hop = hop
        self.storage = sk.zeros(BAND + hop * (bands - 1), f32, stream)

    @staticmethod
    def band_range(index: int, width: int, hop: int) -> tuple[int, int]:
        start = index * hop
        return start, start + width

    def band(self, index: int) -> sk.DeviceBuffer:
        start, stop = self.band_range(index, BAND, self.hop)
        return self.storage.view(start, stop)

    def host(self, index: int) -> np.ndarray:
        start, stop = self.band_range(index, BAND, self.hop)
        return self.storage.to_numpy(self.stream)[start:stop]


class TapToneAnalyser:
    def __init__(self, dev: sk.Device, tilt: float = 0.35) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.tilt = tilt

    @cached_property
    def prepared(self) -> simt.PreparedLaunch:
        return split_modes.prepare(simt.LaunchConfig1D.for_len(BAND, block=BLOCK), self.dev)

    def _upload(self, recording: TapRecording) -> sk.DeviceBuffer:
        return sk.to_device(recording.spectrum[:BAND].astype(np.float32), self.stream)

    def _split(self, spectrum: sk.DeviceBuffer, low: sk.DeviceBuffer, high: sk.DeviceBuffer) -> None:
        split_modes.launch(self.prepared, self.stream, spectrum, low, high, self.tilt)

    def analyse(self, recording: TapRecording, bank: ModeBank) -> ModePeaks:
        spectrum = self._upload(recording)
        self._split(spectrum, bank.band(0), bank.band(1))
        low, high = bank.host(0), bank.host(1)
        return ModePeaks(recording.stage, int(low.argmax()), int(high.argmax()))


def synthetic_tap(stage: str, f0: float, seed: int) -> TapRecording:
    rng = np.random.default_rng(seed)
    bins = np.arange(BAND * 2, dtype=np.float64)
    peak = np.exp(-((bins - f0) ** 2) / 8.0) + 0.6 * np.exp(-((bins - 2.1 * f0) ** 2) / 12.0)
    return TapRecording(stage, peak + rng.normal(0, 0.01, bins.size))


def main() -> None:
    analyser = TapToneAnalyser(sk.Device.default())
    # overlapping analysis windows (half hop) give smoother band edges
    bank = ModeBank(bands=2, stream=analyser.stream, hop=BAND // 2)
    for seed, (stage, f0) in enumerate((("free plate", 14.0), ("x-braced", 19.5), ("scalloped", 17.0))):
        peaks = analyser.analyse(synthetic_tap(stage, f0, seed), bank)
        print(f"{peaks.stage:10s} monopole bin {peaks.monopole_bin:3d}, dipole bin {peaks.dipole_bin:3d}")


if __name__ == "__main__":
    main()
