"""A method a subclass inherits launches the kernel the subclass's body names (`self.kernel.launch(...)`, `kernel =
triple`) with the launch the base `__init__` prepared for `double`: a launch prepared for another kernel, refused
where it is launched."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def double(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * f32(2.0))


@simt.kernel
@simt.launch_contract(block=64)
def triple(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * f32(3.0))


class Scale:
    kernel = double

    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prep = double.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
        self.out = sk.zeros(64, f32, stream)

    def run(self, x: sk.DeviceBuffer[f32]) -> None:
        self.kernel.launch(self.prep, self.stream, x, self.out)  # expect: E0308


class Triple(Scale):
    kernel = triple


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.to_device(np.ones(64, dtype=np.float32), stream)
    Scale(dev, stream).run(x)
    Triple(dev, stream).run(x)


main()
