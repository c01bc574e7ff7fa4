# fresh-expect: E0308 at line 78
# fresh-known-false-alarm: cli,mypy E0308 at line 79 too: the stages swapped between the two class tables make a second mismatched launch, which the runtime never reaches (it raises at line 78)
# fresh-note: pulse-Doppler radar pipeline class that prepares its stages by zipping a name tuple with a kernel tuple; a clutter-cancel stage was inserted at different positions in the two tuples, so the MTI kernel is launched with the launch prepared for the Hann window.
from __future__ import annotations
import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

P, R = 16, 24
TWO_PI = 6.283185307179586


@simt.kernel
@simt.launch_contract(block=64)
def calibrate(raw: Slice[f32], gain: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(raw[i] * gain[(i // 2) % R])


@simt.kernel
@simt.launch_contract(block=64)
def hann_window(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        p = (i // 2) // R
        o.set(x[i] * (f32(0.5) - f32(0.5) * math.cos(TWO_PI * f32(p) / f32(P - 1))))


@simt.kernel
@simt.launch_contract(block=64)
def mti_filter(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        if i >= 2 * R:
            o.set(x[i] - x[i - 2 * R])  # two-pulse canceller removes stationary clutter
        else:
            o.set(f32(0.0))


@simt.kernel
@simt.launch_contract(block=64)
def power(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[2 * i] * x[2 * i] + x[2 * i + 1] * x[2 * i + 1])


class RadarPipeline:
    STAGE_NAMES = ("calibrate", "clutter", "window", "power")
    KERNELS = (calibrate, hann_window, mti_filter, power)

    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = {
            name: kernel.prepare(simt.LaunchConfig1D.for_len(self._length(name), block=64), dev)
            for name, kernel in zip(self.STAGE_NAMES, self.KERNELS)
        }
        self.scratch = [sk.zeros(2 * P * R, f32, stream) for _ in range(3)]
        self.out = sk.zeros(P * R, f32, stream)

    @staticmethod
    def _length(name: str) -> int:
        return P * R if name == "power" else 2 * P * R

    def run(self, raw: sk.DeviceBuffer, gain: sk.DeviceBuffer) -> np.ndarray:
        a, b, c = self.scratch
        calibrate.launch(self.prepared["calibrate"], self.stream, raw, gain, a)
        mti_filter.launch(self.prepared["clutter"], self.stream, a, b)
        hann_window.launch(self.prepared["window"], self.stream, b, c)
        power.launch(self.prepared["power"], self.stream, c, self.out)
        return self.out.to_numpy(self.stream).reshape(P, R)


def returns(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    p = np.arange(P)[:, None]
    sig = np.ones((P, R), np.complex64) * 3.0  # stationary clutter everywhere
    sig[:, 7] += 2.0 * np.exp(2j * np.pi * 5 * p[:, 0] / P)
    sig += 0.05 * rng.standard_normal((P, R))
    return np.stack([sig.real, sig.imag], axis=-1).astype(np.float32).ravel()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    radar = RadarPipeline(dev, stream)
    raw = sk.to_device(returns(2), stream)
    gain = sk.to_device(np.ones(R, np.float32), stream)
    pw = radar.run(raw, gain)
    strongest = int(pw.sum(axis=0).argmax())
    assert strongest == 7, strongest
    print("moving target in range bin", strongest)


if __name__ == "__main__":
    main()
