"""A launch through the kernel a class body names (`self.kernel.launch(...)` of `kernel = add`) in a method a
subclass inherits launches the subclass's kernel (`kernel = add_into`): that kernel writes its second argument,
which is `x`, while it reads `x` as its first (an aliasing launch)."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def add(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=64)
def add_into(a: Slice[f32], out: DisjointSlice[f32], b: Slice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class Doubler:
    kernel = add

    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prep = self.kernel.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
        self.out = sk.zeros(64, f32, stream)

    def run(self, x: sk.DeviceBuffer[f32]) -> None:
        self.kernel.launch(self.prep, self.stream, x, x, self.out)


class FusedDoubler(Doubler):
    kernel = add_into


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.to_device(np.ones(64, dtype=np.float32), stream)
    Doubler(dev, stream).run(x)
    FusedDoubler(dev, stream).run(x)  # expect: E0502


main()
