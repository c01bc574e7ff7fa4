# fresh-expect: E0308 at line 78
# fresh-note: Decimation chain where `HalfbandStage` inherits `Stage.__init__` (which prepares `type(self).kernel`) but forgets to override the `kernel` class attribute, so its `run` launches `halfband_decimate` with a launch prepared for `boxcar_decimate`.
"""A multi-stage decimation chain (48 kHz -> 24 kHz -> 12 kHz) built from stage classes.

`Stage` prepares its class's kernel once in `__init__` and `run` launches it.  `HalfbandStage` refines the
boxcar stage with a 3-tap half-band filter before dropping every other sample.  Stages are created through the
`Stage.for_input` classmethod factory and chained by `DecimationChain`.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def boxcar_decimate(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(0.5 * (src[2 * i] + src[2 * i + 1]))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def halfband_decimate(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        left = src[2 * i - 1] if i > 0 else src[0]
        o.set(0.25 * left + 0.5 * src[2 * i] + 0.25 * src[2 * i + 1])


class Stage:
    kernel: ClassVar = boxcar_decimate
    label: ClassVar[str] = "boxcar"

    def __init__(self, dev: sk.Device, stream: sk.Stream, n_in: int) -> None:
        self.stream = stream
        self.n_in = n_in
        self.n_out = n_in // 2
        self.prepared = type(self).kernel.prepare(simt.LaunchConfig1D.for_len(self.n_out, block=BLOCK), dev)

    @classmethod
    def for_input(cls, dev: sk.Device, stream: sk.Stream, n_in: int) -> Stage:
        if n_in % 2:
            raise ValueError(f"{cls.__name__} needs an even input length, got {n_in}")
        return cls(dev, stream, n_in)

    def run(self, src: sk.DeviceBuffer) -> sk.DeviceBuffer:
        dst = sk.zeros(self.n_out, f32, self.stream)
        boxcar_decimate.launch(self.prepared, self.stream, src, dst)
        return dst

    @staticmethod
    def reference(x: np.ndarray) -> np.ndarray:
        return 0.5 * (x[0::2] + x[1::2])


class HalfbandStage(Stage):
    label: ClassVar[str] = "halfband"

    def __init__(self, dev: sk.Device, stream: sk.Stream, n_in: int) -> None:
        super().__init__(dev, stream, n_in)
        self.gain_db = -6.0

    def run(self, src: sk.DeviceBuffer) -> sk.DeviceBuffer:
        dst = sk.zeros(self.n_out, f32, self.stream)
        halfband_decimate.launch(self.prepared, self.stream, src, dst)
        return dst

    @staticmethod
    def reference(x: np.ndarray) -> np.ndarray:
        left = np.concatenate([x[:1], x[1:-1:2]])
        return 0.25 * left + 0.5 * x[0::2] + 0.25 * x[1::2]


class DecimationChain:
    def __init__(self, dev: sk.Device, stream: sk.Stream, n_in: int, kinds: list[type[Stage]]) -> None:
        self.stream = stream
        self.stages: list[Stage] = []
        n = n_in
        for kind in kinds:
            stage = kind.for_input(dev, stream, n)
            self.stages.append(stage)
            n = stage.n_out

    def __call__(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        for stage in self.stages:
            x = stage.run(x)
        return x

    def reference(self, x: np.ndarray) -> np.ndarray:
        for stage in self.stages:
            x = stage.reference(x)
        return x


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 1024
    t = np.arange(n, dtype=np.float32)
    x = (np.sin(0.01 * t) + 0.2 * np.sin(2.9 * t)).astype(np.float32)
    chain = DecimationChain(dev, stream, n, [HalfbandStage, Stage])
    got = chain(sk.to_device(x, stream)).to_numpy(stream)
    want = chain.reference(x)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    labels = " -> ".join(s.label for s in chain.stages)
    print(f"{labels}: {n} -> {got.shape[0]} samples, residual hf {float(np.abs(np.diff(got)).max()):.4f}")


if __name__ == "__main__":
    main()
