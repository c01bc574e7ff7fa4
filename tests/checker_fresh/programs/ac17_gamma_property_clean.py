# fresh-expect: clean
# idiom: read-only property choosing the stage output, configured by a class attribute shared by all instances
"""Gamma-correct a batch of grayscale frames.

Each stage owns an output buffer unless the class-wide `memory_saving` switch is on, in which
case its `output` property falls back to one scratch buffer shared by all stages (they run
one after another and copy their result out before the next one starts).
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

WIDTH, HEIGHT = 32, 24
PIXELS = WIDTH * HEIGHT
BIG_BATCH = 3


@simt.kernel
@simt.launch_contract(block=128)
def gamma(src: Slice[f32], dst: DisjointSlice[f32], g: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        v = src[i]
        o.set(v * v * g + v * (1.0 - g))


class GammaStage:
    memory_saving = False
    scratch: sk.DeviceBuffer | None = None

    def __init__(self, frame: sk.DeviceBuffer, stream: sk.Stream, g: float) -> None:
        self.frame = frame
        self.g = g
        if self.memory_saving and GammaStage.scratch is None:
            GammaStage.scratch = sk.zeros(len(frame), f32, stream)
        self._own = None if self.memory_saving else sk.zeros(len(frame), f32, stream)

    @property
    def output(self) -> sk.DeviceBuffer:
        return self._own if self._own is not None else GammaStage.scratch

    def run(self, prepared, stream: sk.Stream) -> np.ndarray:
        gamma.launch(prepared, stream, self.frame, self.output, self.g)
        return self.output.to_numpy(stream)


def load_frames(count: int, stream: sk.Stream) -> list[sk.DeviceBuffer]:
    rng = np.random.default_rng(7)
    return [sk.to_device(rng.random(PIXELS, dtype=np.float32), stream) for _ in range(count)]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prepared = gamma.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=128), dev)
    frames = load_frames(4, stream)
    if len(frames) > BIG_BATCH:
        GammaStage.memory_saving = True
    stages = [GammaStage(f, stream, 0.4) for f in frames]
    means = {i: float(stage.run(prepared, stream).mean()) for i, stage in enumerate(stages)}
    for i, m in sorted(means.items()):
        print(f"frame {i}: mean {m:.4f}")


if __name__ == "__main__":
    main()
