"""The base's own `target` (returning `self.src`) runs when code reaches the base class without writing its name:
`OutOfPlaceFilter.__mro__[1](...)` builds a `Filter`, whose `run` reads and writes `src` (so do a class decorator or
an `__init_subclass__` registering the class, `__subclasses__()`, `globals()`: the base's method stays followed)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def clamp01(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        v = src[i]
        o.set(0.0 if v < 0.0 else (1.0 if v > 1.0 else v))


class Filter:
    def __init__(self, dev: sk.Device, src: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
        self.prep = clamp01.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.src = src
        self.out = out

    def target(self) -> sk.DeviceBuffer:
        return self.src

    def run(self, stream: sk.Stream) -> None:
        clamp01.launch(self.prep, stream, self.src, self.target())  # expect: E0502


class OutOfPlaceFilter(Filter):
    def target(self) -> sk.DeviceBuffer:
        return self.out


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    img = sk.to_device(np.linspace(-1, 2, N, dtype=np.float32), stream)
    out = sk.zeros(N, f32, stream)
    filt = OutOfPlaceFilter.__mro__[1](dev, img, out)
    filt.run(stream)
    print(out.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
