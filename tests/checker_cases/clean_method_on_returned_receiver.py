"""The clean twin of `e0505_method_on_returned_receiver`: the pending op that `guard.load(x).start()` and
`(a if hot else b).start()` leave in the object is run (`wait`) before the method that moves its buffer."""

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


class Guard:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.plan = halve.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.out = sk.zeros(N, f32, stream)
        self.src: sk.DeviceBuffer | None = None
        self.pending: sk.DeviceOp | None = None

    def load(self, values: np.ndarray) -> "Guard":
        self.src = sk.to_device(values.astype(np.float32), self.stream)
        return self

    def start(self) -> None:
        self.pending = halve.launch_async(self.plan, self.src, self.out)

    def wait(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def shifted(self) -> np.ndarray:
        res = tile.zeros((N,), f32).partition((64,))
        res, self.out = shift(res, self.out).sync_on(self.stream)
        return res.unpartition().to_numpy(self.stream)


def fluent(dev: sk.Device, stream: sk.Stream) -> None:
    guard = Guard(dev, stream)
    guard.load(np.ones(N)).start()
    guard.wait()
    print(guard.shifted()[0])


def items_of_a_list(dev: sk.Device, stream: sk.Stream) -> None:
    guards = [Guard(dev, stream) for _ in range(2)]
    for guard in guards:
        guard.load(np.ones(N)).start()
    for guard in guards:
        guard.wait()
        print(guard.shifted()[0])


def either(dev: sk.Device, stream: sk.Stream, hot: bool) -> None:
    a, b = Guard(dev, stream), Guard(dev, stream)
    a.load(np.ones(N))
    b.load(np.ones(N))
    (a if hot else b).start()
    a.wait()
    b.wait()
    print(a.shifted()[0])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    fluent(dev, stream)
    items_of_a_list(dev, stream)
    either(dev, stream, True)
    either(dev, stream, False)


if __name__ == "__main__":
    main()
