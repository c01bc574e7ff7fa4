# fresh-expect: E0502 at line 57
# fresh-note: found since: a method is looked up along the class's method resolution order (a mixin's override)
"""Model layers as classes: a mixin makes activations write over their input to save memory."""
import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def gelu_approx(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = x[i]
        o.set(v / (f32(1.0) + math.exp(f32(-1.702) * v)))


class Layer:
    def __init__(self, dev: sk.Device, stream: sk.Stream, x: sk.DeviceBuffer[f32]) -> None:
        self.stream = stream
        self.x = x
        self.y = sk.zeros(len(x), f32, stream)
        self.prep = gelu_approx.prepare(simt.LaunchConfig1D.for_len(len(x), block=128), dev)

    def output(self) -> sk.DeviceBuffer[f32]:
        return self.y

    def forward(self) -> sk.DeviceBuffer[f32]:
        out = self.output()
        gelu_approx.launch(self.prep, self.stream, self.x, out)
        return out


class InPlaceMixin:
    x: sk.DeviceBuffer[f32]

    def output(self) -> sk.DeviceBuffer[f32]:
        return self.x


class InPlaceGelu(InPlaceMixin, Layer):
    pass


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    h = sk.to_device(np.linspace(-2, 2, 256, dtype=np.float32), stream)
    print(Layer(dev, stream, h).forward().to_numpy(stream)[:3])
    act = InPlaceGelu(dev, stream, h)
    print(act.forward().to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
