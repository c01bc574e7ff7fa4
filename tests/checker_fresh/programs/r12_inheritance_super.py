# fresh-expect: E0502 at line 47
"""A Stage base class runs `scale` on the buffers its `buffers()` hook returns; an in-place subclass overrides
the hook, calls super() and returns the source twice."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * alpha)


class Stage:
    def __init__(self, stream, n: int) -> None:
        self.stream = stream
        self.src = sk.to_device(np.ones(n, np.float32), stream)
        self.dst = sk.zeros(n, f32, stream)

    def buffers(self) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        return self.src, self.dst

    def run(self, prepared) -> None:
        src, dst = self.buffers()
        scale.launch(prepared, self.stream, src, dst, 2.0)


class InPlaceStage(Stage):
    def buffers(self) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        src, _ = super().buffers()
        return src, src


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    Stage(stream, 64).run(prepared)
    stage = InPlaceStage(stream, 64)
    stage.run(prepared)  # BUG
    print(stage.src.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
