"""A method that returns a new buffer and keeps the `launch_async` op writing it in a list attribute
(`self.pending.append(...)`) hands back a buffer that op still borrows: moving it into a tile launch before a
method runs the kept ops (`flush`) moves it while borrowed, whether the caller is a function or another method."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 256


@simt.kernel
@simt.launch_contract(block=64)
def halve(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * f32(0.5))


@tile.kernel
def shift(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) + 1.0)


class Stager:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.plan = halve.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.pending: list[sk.DeviceOp] = []

    def stage(self, values: np.ndarray) -> sk.DeviceBuffer:
        src = sk.to_device(values.astype(np.float32), self.stream)
        out = sk.zeros(N, f32, self.stream)
        self.pending.append(halve.launch_async(self.plan, src, out))
        return out

    def flush(self) -> None:
        while self.pending:
            self.pending.pop(0).sync_on(self.stream)

    def shifted(self, x: sk.DeviceBuffer) -> np.ndarray:
        res = tile.zeros((N,), f32).partition((64,))
        res, _ = shift(res, x).sync_on(self.stream)  # expect: E0505
        return res.unpartition().to_numpy(self.stream)

    def ahead(self, batches: list[np.ndarray]) -> list[np.ndarray]:
        done = []
        current = self.stage(batches[0])
        for k in range(len(batches)):
            upcoming = self.stage(batches[k + 1]) if k + 1 < len(batches) else None
            done.append(self.shifted(current))
            self.flush()
            current = upcoming
        return done


def caller(dev: sk.Device, stream: sk.Stream) -> None:
    stager = Stager(dev, stream)
    staged = stager.stage(np.ones(N))
    res = tile.zeros((N,), f32).partition((64,))
    res, _ = shift(res, staged).sync_on(stream)  # expect: E0505
    stager.flush()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    Stager(dev, stream).ahead([np.ones(N), np.ones(N)])
    caller(dev, stream)


if __name__ == "__main__":
    main()
