# fresh-expect: clean
# fresh-note: a speech front end chains module-like stages whose output property returns their own buffer, and the log-compression stage is built with inplace=False so it writes a fresh buffer instead of its source's.
"""Speech front end: pre-emphasis, automatic gain and log compression of a waveform, on the SIMT track.

Stages follow a small module API (`forward(x) -> output buffer`, an `output` property).  The compression
stage can reuse its source's buffer, but here it keeps its own so the pre-compression signal stays
available for the level meter.  The result is compared with numpy.
"""

from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
PREEMPHASIS = 0.97


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(x) >= len(y)",))
def preemphasis(x: Slice[f32], y: DisjointSlice[f32], a: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        prev = f32(0.0)
        if i >= 1:
            prev = x[i - 1]
        out.set(x[i] - a * prev)


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(x) >= len(y)",))
def log_compress(x: Slice[f32], y: DisjointSlice[f32], c: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(math.log(f32(1.0) + c * abs(x[i])))


class Stage:
    def __init__(self, length: int, stream: sk.Stream) -> None:
        self.length = length
        self.stream = stream
        self.config = simt.LaunchConfig1D.for_len(length, block=BLOCK)
        self._out: sk.DeviceBuffer | None = None

    @property
    def output(self) -> sk.DeviceBuffer:
        assert self._out is not None
        return self._out

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        raise NotImplementedError


class PreEmphasis(Stage):
    def __init__(self, length: int, device: sk.Device, stream: sk.Stream, coeff: float = PREEMPHASIS) -> None:
        super().__init__(length, stream)
        self.coeff = coeff
        self._out = sk.zeros(length, f32, stream)
        self.prepared = preemphasis.prepare(self.config, device)

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        preemphasis.launch(self.prepared, self.stream, x, self.output, self.coeff)
        return self.output


class LogCompress(Stage):
    def __init__(self, source: Stage, device: sk.Device, stream: sk.Stream, c: float = 100.0,
                 inplace: bool = False) -> None:
        super().__init__(source.length, stream)
        self.c = c
        self._out = source.output if inplace else sk.zeros(self.length, f32, stream)
        self.prepared = log_compress.prepare(self.config, device)

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        log_compress.launch(self.prepared, self.stream, x, self.output, self.c)
        return self.output


def build(length: int, device: sk.Device, stream: sk.Stream) -> list[Stage]:
    emphasis = PreEmphasis(length, device, stream)
    return [emphasis, LogCompress(emphasis, device, stream)]


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    sr = 16_000
    t = np.arange(int(0.2 * sr)) / sr
    rng = np.random.default_rng(2)
    wave = (0.3 * np.sin(2 * np.pi * 150 * t) * (1 + np.sin(2 * np.pi * 3 * t)) + 0.01 * rng.standard_normal(t.size))
    wave = wave.astype(np.float32)
    stages = build(wave.size, device, stream)
    x = sk.to_device(wave, stream)
    for stage in stages:
        x = stage.forward(x)
    compressed = x.to_numpy(stream)
    emphasized = stages[0].output.to_numpy(stream)
    want_e = wave - np.float32(PREEMPHASIS) * np.concatenate([[0.0], wave[:-1]]).astype(np.float32)
    np.testing.assert_allclose(emphasized, want_e, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(compressed, np.log1p(np.float32(100.0) * np.abs(want_e)), rtol=1e-4, atol=1e-5)
    level = 20 * np.log10(np.sqrt(np.mean(emphasized**2)) + 1e-9)
    print(f"{wave.size} samples, pre-emphasized level {level:.1f} dBFS, compressed mean {compressed.mean():.3f}")


if __name__ == "__main__":
    main()
