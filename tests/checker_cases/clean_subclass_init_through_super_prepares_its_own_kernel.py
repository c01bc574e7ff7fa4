"""The clean twin of `e0308_subclass_init_through_super_prepares_the_base_kernel`: the halfband subclass binds
`kernel = halfband`, so the launch the base's `__init__` prepares for `type(self).kernel` is `halfband`'s."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def boxcar(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(0.5 * (src[2 * i] + src[2 * i + 1]))


@simt.kernel
@simt.launch_contract(block=32)
def halfband(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(0.25 * src[2 * i] + 0.75 * src[2 * i + 1])


class Stage:
    kernel = boxcar

    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = type(self).kernel.prepare(simt.LaunchConfig1D.for_len(N // 2, block=32), dev)

    def run(self, src: sk.DeviceBuffer) -> sk.DeviceBuffer:
        dst = sk.zeros(N // 2, f32, self.stream)
        boxcar.launch(self.prepared, self.stream, src, dst)
        return dst


class HalfbandStage(Stage):
    kernel = halfband

    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        super().__init__(dev, stream)
        self.gain = 0.5

    def run(self, src: sk.DeviceBuffer) -> sk.DeviceBuffer:
        dst = sk.zeros(N // 2, f32, self.stream)
        halfband.launch(self.prepared, self.stream, src, dst)
        return dst


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.to_device(np.arange(N, dtype=np.float32), stream)
    for stage in (Stage(dev, stream), HalfbandStage(dev, stream)):
        print(stage.run(x).to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
