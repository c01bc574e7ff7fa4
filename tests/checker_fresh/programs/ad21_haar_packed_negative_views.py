# fresh-expect: E0499 at line 53
# idiom: negative-index slice views of one packed buffer (packed[:half], packed[-half:]), itertools.zip_longest host reference
"""One level of the Haar wavelet transform for signals of any length.

The approximation and detail coefficients are written by one SIMT kernel into a single
packed buffer: approximations at the front, details at the back.  Odd-length signals
are padded with a zero sample.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SQRT_HALF = 0.7071067811865476


@simt.kernel
@simt.launch_contract(block=64)
def haar(x: Slice[f32], approx: DisjointSlice[f32], detail: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    k = idx.get()
    n = len(x)
    a = x[2 * k] if 2 * k < n else f32(0.0)
    b = x[2 * k + 1] if 2 * k + 1 < n else f32(0.0)
    if (o := approx.get_mut(idx)) is not None:
        o.set((a + b) * SQRT_HALF)
    idx2 = thread.index_1d()
    if (d := detail.get_mut(idx2)) is not None:
        d.set((a - b) * SQRT_HALF)


def reference(signal: np.ndarray) -> np.ndarray:
    pairs = list(itertools.zip_longest(signal[0::2], signal[1::2], fillvalue=0.0))
    approx = [(a + b) * SQRT_HALF for a, b in pairs]
    detail = [(a - b) * SQRT_HALF for a, b in pairs]
    return np.array(approx + detail, np.float32)


def transform(signal: np.ndarray, dev: sk.Device, stream: sk.Stream) -> np.ndarray:
    n = len(signal)
    half = math.ceil(n / 2)
    x = sk.to_device(signal, stream)
    packed = sk.zeros(n, f32, stream)
    prep = haar.prepare(simt.LaunchConfig1D.for_len(half, block=64), dev)
    haar.launch(prep, stream, x, packed[:half], packed[-half:])
    return packed.to_numpy(stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(23)
    signals = {
        "chirp": np.sin(np.linspace(0.0, 20.0, 64) ** 1.5).astype(np.float32),
        "steps": np.repeat(np.arange(5, dtype=np.float32), 10),
        "noise": rng.standard_normal(33).astype(np.float32),
    }
    for name, signal in signals.items():
        coeffs = transform(signal, dev, stream)
        err = float(np.abs(coeffs - reference(signal)).max())
        energy_ratio = float((coeffs**2).sum() / max((signal**2).sum(), 1e-12))
        print(f"{name:>6} (n={len(signal):3d}): max err {err:.2e}, energy ratio {energy_ratio:.4f}")


if __name__ == "__main__":
    main()
