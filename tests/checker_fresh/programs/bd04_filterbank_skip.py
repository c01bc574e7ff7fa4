# fresh-expect: W0003 at line 40
# fresh-note: An octave filter bank builds one tile launch per band against a shared power spectrum and only afterwards checks whether the band lies above Nyquist, so the skipped band's op is built and dropped without ever running.
"""Octave-band energies of a sampled signal: host FFT, per-band masking on the device."""
from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

SAMPLES = 512
BINS = SAMPLES // 2
TILE = 64


class Band(NamedTuple):
    name: str
    lo: int
    hi: int


@tile.kernel
def band_power(out: Partition[f32], power: Tensor[f32], lo: i32, hi: i32) -> None:
    k = tile.iota(TILE, i32) + tile.bid(0) * TILE
    inside = (k >= lo) & (k < hi)
    out.store(tile.where(inside, tile.load_like(power, out), 0.0))


def octave_bands(first: int, count: int) -> list:
    return [Band(f"oct{j}", first * 2**j, first * 2 ** (j + 1)) for j in range(count)]


def band_energies(signal: np.ndarray, bands: list, stream: sk.Stream) -> dict:
    spectrum = np.abs(np.fft.rfft(signal)[:BINS]) ** 2 / SAMPLES
    power = tile.from_numpy(spectrum.astype(np.float32)).shared()
    pending = []
    for band in bands:
        op = band_power(tile.zeros((BINS,), f32).partition((TILE,)), power, band.lo, band.hi)
        if band.hi > BINS:
            continue
        pending.append((band.name, op))
    results = sk.zip(*[op for _, op in pending]).sync_on(stream)
    return {name: float(res[0].to_numpy(stream).sum()) for (name, _), res in zip(pending, results)}


def main() -> None:
    stream = sk.Device.default().new_stream()
    t = np.arange(SAMPLES) / SAMPLES
    rng = np.random.default_rng(13)
    signal = np.sin(2 * np.pi * 20 * t) + 0.5 * np.sin(2 * np.pi * 90 * t) + 0.1 * rng.normal(size=SAMPLES)
    energies = band_energies(signal, octave_bands(4, 7), stream)
    loudest = max(energies, key=energies.get)
    assert loudest == "oct2", energies
    print({k: round(v, 2) for k, v in energies.items()})


if __name__ == "__main__":
    main()
