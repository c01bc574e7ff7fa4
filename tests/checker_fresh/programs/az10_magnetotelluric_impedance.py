# fresh-expect: E0502 at line 77
# fresh-note: Pre-whitens MT channels staged with a guard band; stage_channel returns (padded buffer, record view) of one allocation and the loop whitens each channel in place, passing the padded buffer as the Slice input and its own interior view as the DisjointSlice output.
"""Magnetotelluric sounding: pre-whiten the Ex and Hy channels, then estimate Zxy and apparent resistivity.

Channels are staged on the device with a guard band of earlier samples in front of the record,
so the first-difference pre-whitening filter y[n] = x[n] - a * x[n - 1] has its x[n - 1] for
every output sample. The cross- and auto-spectra are averaged over segments on the host.
"""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FS = 64.0
N = 2048
GUARD = 8
SEG = 256
MU0 = 4e-7 * np.pi


@simt.kernel
@simt.launch_contract(block=128, requires=("len(padded) >= len(white) + 8",))
def prewhiten(padded: Slice[f32], white: DisjointSlice[f32], a: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := white.get_mut(idx)) is not None:
        o.set(padded[i + 8] - a * padded[i + 7])


def stage_channel(stream: sk.Stream, history: np.ndarray, record: np.ndarray,
                  guard: int = GUARD) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    """Upload `guard` samples of history plus the record; returns (padded buffer, record view)."""
    padded = np.concatenate([history[-guard:], record]).astype(np.float32)
    buf = sk.to_device(padded, stream)
    return buf, buf.view(guard, guard + len(record))


def synthetic_site(rng: np.random.Generator, rho: float = 100.0) -> tuple[np.ndarray, np.ndarray]:
    """Hy as red noise (nT); Ex from a half-space impedance (mV/km), plus sensor noise."""
    n = N + GUARD
    hy = np.cumsum(rng.normal(0, 1.0, n)) * 0.1
    hy -= np.convolve(hy, np.ones(64) / 64, mode="same")
    spec = np.fft.rfft(hy)
    f = np.fft.rfftfreq(n, 1 / FS)
    f[0] = f[1]
    z = np.sqrt(1j * 2 * np.pi * f * MU0 * rho) / MU0 * 1e-3   # mV/km per nT
    ex = np.fft.irfft(spec * z, n) + rng.normal(0, 0.05, n)
    return ex, hy


def impedance(ex: np.ndarray, hy: np.ndarray, band: tuple[float, float]) -> complex:
    win = np.hanning(SEG)
    sxy = syy = 0j
    for start in range(0, len(ex) - SEG + 1, SEG // 2):
        e = np.fft.rfft(ex[start : start + SEG] * win)
        h = np.fft.rfft(hy[start : start + SEG] * win)
        f = np.fft.rfftfreq(SEG, 1 / FS)
        sel = (f >= band[0]) & (f < band[1])
        sxy += np.sum(e[sel] * np.conj(h[sel]))
        syy += np.sum(h[sel] * np.conj(h[sel]))
    return sxy / syy


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    ex_all, hy_all = synthetic_site(np.random.default_rng(1950))
    prep = prewhiten.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)

    ex_pad, ex = stage_channel(stream, ex_all[:GUARD], ex_all[GUARD:])
    hy_pad, hy = stage_channel(stream, hy_all[:GUARD], hy_all[GUARD:])
    a = 0.95
    for padded, record in ((hy_pad, hy), (ex_pad, ex)):
        prewhiten.launch(prep, stream, padded, record, a)

    ex_w = ex.to_numpy(stream).astype(np.float64)
    hy_w = hy.to_numpy(stream).astype(np.float64)
    for band in ((0.5, 1.0), (1.0, 2.0), (2.0, 4.0), (4.0, 8.0)):
        z = impedance(ex_w, hy_w, band) * 1e3 * MU0
        f_mid = np.sqrt(band[0] * band[1])
        rho_a = abs(z) ** 2 / (2 * np.pi * f_mid * MU0)
        print(f"{f_mid:5.2f} Hz: rho_a {rho_a:8.1f} ohm-m, phase {np.degrees(np.angle(z)):5.1f} deg")


if __name__ == "__main__":
    main()
