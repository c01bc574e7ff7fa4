# fresh-expect: clean
# fresh-note: A spectroscopy preprocessing pipeline looks kernels up in an Enum-keyed registry, caches one prepared launch per (stage, length) key and ping-pongs two buffers through the configured stages.
"""Smooth -> baseline-subtract -> clip a 1-D spectrum, stage order from a config list."""
from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def smooth3(src: Slice[f32], dst: DisjointSlice[f32], weight: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        if i == 0 or i == n - 1:
            o.set(src[i])
        else:
            o.set(weight * src[i] + 0.5 * (1.0 - weight) * (src[i - 1] + src[i + 1]))


@simt.kernel
@simt.launch_contract(block=64)
def subtract_level(src: Slice[f32], dst: DisjointSlice[f32], level: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] - level)


@simt.kernel
@simt.launch_contract(block=64)
def clip_below(src: Slice[f32], dst: DisjointSlice[f32], floor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(max(src[i], floor))


class Stage(Enum):
    SMOOTH = "smooth"
    BASELINE = "baseline"
    CLIP = "clip"


REGISTRY = {Stage.SMOOTH: smooth3, Stage.BASELINE: subtract_level, Stage.CLIP: clip_below}


class Pipeline:
    def __init__(self, device: sk.Device, stream: sk.Stream) -> None:
        self.device, self.stream = device, stream
        self._plans: dict = {}

    def plan(self, stage: Stage, n: int):
        key = (stage, n)
        if key not in self._plans:
            self._plans[key] = REGISTRY[stage].prepare(simt.LaunchConfig1D.for_len(n, block=64), self.device)
        return self._plans[key]

    def run(self, spectrum: np.ndarray, stages: list) -> np.ndarray:
        n = len(spectrum)
        src = sk.to_device(spectrum.astype(np.float32), self.stream)
        dst = sk.zeros(n, f32, self.stream)
        for stage, param in stages:
            REGISTRY[stage].launch(self.plan(stage, n), self.stream, src, dst, param)
            src, dst = dst, src
        return src.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    x = np.linspace(0.0, 10.0, 250)
    rng = np.random.default_rng(8)
    spectrum = 2.0 + np.exp(-((x - 4.0) ** 2) / 0.1) + 0.05 * rng.normal(size=x.size)
    config = [(Stage.SMOOTH, 0.5), (Stage.SMOOTH, 0.5), (Stage.BASELINE, 2.0), (Stage.CLIP, 0.0)]
    pipe = Pipeline(dev, stream)
    cleaned = pipe.run(spectrum, config)
    again = pipe.run(spectrum[:200], config[:3])
    assert cleaned.min() >= 0.0 and abs(float(x[cleaned.argmax()]) - 4.0) < 0.2
    assert len(again) == 200 and len(pipe._plans) == 5
    print("peak at", round(float(x[cleaned.argmax()]), 2), "plans:", len(pipe._plans))


if __name__ == "__main__":
    main()
