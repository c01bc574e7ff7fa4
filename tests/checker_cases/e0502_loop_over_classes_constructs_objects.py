"""A pipeline builds one stage of each class from a loop over the classes (`for make in (Blur, Sharpen)`), and the
module also has a callable object (`Mixer.__call__` moves its tensors into a tile launch).  Calling the loop's name
constructs a stage, it runs no `__call__`, so `dev` and `stream` stay usable; the stage built after the loop runs
in place on one buffer (`run(dst, dst)`), reading and writing it in one launch (E0502, as the runtime's
`BorrowError` says)."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def scale(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * 0.5)


@tile.kernel
def mix(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


class Mixer:
    def __call__(self, x: Tensor, y: Tensor, stream: sk.Stream) -> Tensor:
        z, _, _ = mix(tile.zeros((N,), f32).partition((16,)), x, y).sync_on(stream)
        return z.unpartition()


class Blur:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)

    def run(self, src: sk.DeviceBuffer, dst: sk.DeviceBuffer) -> None:
        scale.launch(self.prepared, self.stream, src, dst)  # expect: E0502


class Sharpen(Blur):
    pass


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.ones(N, np.float32), stream)
    dst = sk.zeros(N, f32, stream)
    for make in (Blur, Sharpen):
        make(dev, stream).run(src, dst)
    Blur(dev, stream).run(dst, dst)
    mixed = Mixer()(tile.ones((N,), f32).sync_on(stream), tile.ones((N,), f32).sync_on(stream), stream)
    print(dst.to_numpy(stream)[:2], mixed.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
