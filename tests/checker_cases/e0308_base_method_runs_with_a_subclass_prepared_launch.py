"""A filter stage prepares its launch in `__init__` for the class's `kernel` (`type(self).kernel.prepare(...)`),
and the base `apply` launches `smooth` by name with it.  The sharpening subclass only binds `kernel = sharpen`
and calls `super().__init__`, so a sharpening stage runs the inherited `apply` with a launch prepared for
`sharpen` (E0308, as the runtime's `BrandError` says): a method checked on its own runs for every subclass that
inherits it, each with the prepared launch its own `__init__` stores."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def smooth(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * 0.5)


@simt.kernel
@simt.launch_contract(block=32)
def sharpen(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * 2.0)


class Stage:
    kernel = smooth

    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = type(self).kernel.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)

    def apply(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        out = sk.zeros(N, f32, self.stream)
        smooth.launch(self.prepared, self.stream, x, out)  # expect: E0308
        return out


class Sharpen(Stage):
    kernel = sharpen

    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        super().__init__(dev, stream)
        self.passes = 1


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.to_device(np.ones(N, np.float32), stream)
    for stage in (Stage(dev, stream), Sharpen(dev, stream)):
        x = stage.apply(x)
    print(x.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
