# fresh-expect: E0502 at line 48
"""A small filter hierarchy: the base class launches from `self.src` into `self.target()`; a subclass saves memory."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 640


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
        return self.out

    def run(self, stream) -> None:
        clamp01.launch(self.prep, stream, self.src, self.target())


class InPlaceFilter(Filter):
    def target(self) -> sk.DeviceBuffer:
        return self.src  # write back over the input


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    img = sk.to_device(np.linspace(-0.5, 1.5, N, dtype=np.float32), stream)
    spare = sk.zeros(N, f32, stream)
    filt = InPlaceFilter(dev, img, spare)
    filt.run(stream)
    print(img.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
