"""Launches prepared by a dict comprehension over `zip` of two class-level tuples in the same order: the
launch kept under `"square"` is the one `square` prepared."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def gain(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * 2.0)


@simt.kernel
@simt.launch_contract(block=32)
def square(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


class Pipeline:
    STAGES = ("gain", "square")
    KERNELS = (gain, square)

    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.prepared = {
            name: kernel.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
            for name, kernel in zip(self.STAGES, self.KERNELS)
        }

    def run(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        out = sk.zeros(N, f32, self.stream)
        square.launch(self.prepared["square"], self.stream, x, out)
        return out


def main() -> None:
    pipeline = Pipeline(sk.Device.cpu())
    x = sk.to_device(np.ones(N, np.float32), pipeline.stream)
    print(pipeline.run(x).to_numpy(pipeline.stream)[:4])


if __name__ == "__main__":
    main()
