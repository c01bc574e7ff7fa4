"""A method binds a new buffer to an attribute and leaves a pending `launch_async` op reading it in another
(`self.window = sk.zeros(...)`, `self.pending = k.launch_async(prep, self.window, out)`): after its call the op
still borrows the caller's `self.window`, so a later method moving it into a tile launch before the op ran is
E0505 (the runtime raises `BorrowError` there)."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

HOP = 128


@simt.kernel
@simt.launch_contract(block=128)
def upsample(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    j = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[j // 2])


@tile.kernel
def energy(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    out.store(t * t)


class Upsampler:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prep = upsample.prepare(simt.LaunchConfig1D.for_len(2 * HOP, block=128), dev)
        self.window = sk.zeros(HOP, f32, stream)
        self.pending: sk.DeviceOp | None = None

    def push(self, chunk: np.ndarray) -> sk.DeviceBuffer:
        self.window = sk.to_device(chunk, self.stream)
        out = sk.zeros(2 * HOP, f32, self.stream)
        self.pending = upsample.launch_async(self.prep, self.window, out)
        return out

    def flush(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def meter(self) -> float:
        parts = tile.zeros((HOP,), f32).partition((64,))
        parts, self.window = energy(parts, self.window).sync_on(self.stream)  # expect: E0505
        return float(parts.unpartition().to_numpy(self.stream).mean())

    def process(self, chunk: np.ndarray) -> float:
        self.push(chunk)
        level = self.meter()
        self.flush()
        return level


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    print(Upsampler(dev, stream).process(np.ones(HOP, np.float32)))


if __name__ == "__main__":
    main()
