# fresh-expect: E0382 at line 50
# fresh-note: EEG band power per channel; the filter bank's taper window tensor is moved into the first band's tile launch and the method discards the handed-back handle, so the second band reuses a moved tensor.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

SAMPLES = 256
TILE = (64,)


@tile.kernel
def band_energy(power: Partition[f32], signal: Tensor[f32], taper: Tensor[f32], gain: f32) -> None:
    x = tile.load_like(signal, power) * tile.load_like(taper, power)
    power.store(x * x * gain)


@dataclass
class Band:
    name: str
    lo_hz: float
    hi_hz: float

    @property
    def gain(self) -> float:
        return 1.0 / (self.hi_hz - self.lo_hz)


class FilterBank:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        hann = np.hanning(SAMPLES).astype(np.float32)
        self.window = tile.from_numpy(hann).sync_on(stream)
        self.log: dict[str, float] = {}

    def bandpass(self, raw: np.ndarray, band: Band) -> np.ndarray:
        t = np.arange(SAMPLES) / 256.0
        centre = 0.5 * (band.lo_hz + band.hi_hz)
        return (raw * np.cos(2 * np.pi * centre * t)).astype(np.float32)

    def power(self, raw: np.ndarray, band: Band) -> float:
        signal = tile.from_numpy(self.bandpass(raw, band))
        out = tile.zeros((SAMPLES,), f32).partition(TILE)
        out, signal, _taper, _gain = band_energy(out, signal, self.window, band.gain).sync_on(self.stream)
        total = float(out.unpartition().to_numpy(self.stream).sum())
        self.log[band.name] = total
        return total


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(42)
    t = np.arange(SAMPLES) / 256.0
    raw = np.sin(2 * np.pi * 10.0 * t) + 0.3 * rng.standard_normal(SAMPLES)
    bank = FilterBank(stream)
    bands = [Band("theta", 4.0, 8.0), Band("alpha", 8.0, 13.0), Band("beta", 13.0, 30.0)]
    for band in bands:
        print(f"{band.name:>5}: {bank.power(raw, band):.4f}")
    dominant = max(bank.log, key=bank.log.__getitem__)
    print("dominant band:", dominant)


if __name__ == "__main__":
    main()
