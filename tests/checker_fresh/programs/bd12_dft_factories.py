# fresh-expect: E0308 at line 61
# fresh-known-miss: cli,mypy late-binding lambdas built in a loop over a kernel table and returned in a dict: every lambda prepares the last kernel; closures over a loop variable are not followed
# fresh-note: A periodogram tool builds its per-stage plan factories as lambdas in a loop over a kernel table, so every lambda late-binds the last kernel and the DFT stage is launched with a plan prepared for the power-spectrum kernel.
"""Naive DFT periodogram of a short time series (small n: O(n^2) is fine), staged kernels."""
import math
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def dft(x: Slice[f32], re: DisjointSlice[f32], im: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    k = idx.get()
    n = len(x)
    acc_re = f32(0.0)
    acc_im = f32(0.0)
    if k < len(re):
        for t in range(n):
            angle = -2.0 * math.pi * f32(k * t % n) / f32(n)
            acc_re += x[t] * math.cos(angle)
            acc_im += x[t] * math.sin(angle)
    if (a := re.get_mut(idx)) is not None:
        a.set(acc_re)
    j = thread.index_1d()
    if (b := im.get_mut(j)) is not None:
        b.set(acc_im)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def periodogram(re: Slice[f32], im: Slice[f32], power: DisjointSlice[f32], scale: f32) -> None:
    idx = thread.index_1d()
    k = idx.get()
    if (p := power.get_mut(idx)) is not None:
        p.set(scale * (re[k] * re[k] + im[k] * im[k]))


STAGES = {"dft": dft, "periodogram": periodogram}


def plan_factories(device: sk.Device) -> dict:
    factories = {}
    for name, kernel in STAGES.items():
        factories[name] = lambda n: kernel.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), device)
    return factories


def spectrum(series: np.ndarray, factories: dict, stream: sk.Stream) -> np.ndarray:
    n = len(series)
    half = n // 2
    x = sk.to_device((series - series.mean()).astype(np.float32), stream)
    re, im = sk.zeros(half, f32, stream), sk.zeros(half, f32, stream)
    power = sk.zeros(half, f32, stream)
    dft.launch(factories["dft"](half), stream, x, re, im)
    periodogram.launch(factories["periodogram"](half), stream, re, im, power, 1.0 / n)
    return power.to_numpy(stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    factories = plan_factories(dev)
    days = np.arange(128)
    rng = np.random.default_rng(14)
    series = 3.0 * np.sin(2 * np.pi * days / 16.0) + rng.normal(0.0, 1.0, days.size)
    p = spectrum(series, factories, stream)
    ref = np.abs(np.fft.rfft(series - series.mean())[: len(p)]) ** 2 / len(series)
    np.testing.assert_allclose(p, ref, rtol=2e-3, atol=2e-3)
    print("dominant period (days):", len(series) / int(np.argmax(p)))


if __name__ == "__main__":
    main()
