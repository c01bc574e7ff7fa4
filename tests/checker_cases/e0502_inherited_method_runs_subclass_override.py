"""A method the object inherits (`act.forward()`, defined by `Layer`) runs the override of its own class: the
subclass's `output` hands back the input buffer, so the launch reads and writes one buffer."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def double(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * f32(2.0))


class Layer:
    def __init__(self, dev: sk.Device, stream: sk.Stream, x: sk.DeviceBuffer[f32]) -> None:
        self.stream = stream
        self.x = x
        self.y = sk.zeros(len(x), f32, stream)
        self.prep = double.prepare(simt.LaunchConfig1D.for_len(len(x), block=64), dev)

    def output(self) -> sk.DeviceBuffer[f32]:
        return self.y

    def forward(self) -> None:
        double.launch(self.prep, self.stream, self.x, self.output())


class InPlaceDouble(Layer):
    def output(self) -> sk.DeviceBuffer[f32]:
        return self.x


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    h = sk.to_device(np.ones(64, dtype=np.float32), stream)
    act = InPlaceDouble(dev, stream, h)
    act.forward()  # expect: E0502


main()
