"""A method called on what another call gives back runs on that object: `guard.load(x).start()` of a `load` that
returns `self` (a fluent interface) and `(a if hot else b).start()` each leave `start`'s pending op in the
object's attribute, so a later method that moves the buffer the op writes moves it while borrowed."""

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
        res, self.out = shift(res, self.out).sync_on(self.stream)  # expect: E0505
        return res.unpartition().to_numpy(self.stream)


def fluent(dev: sk.Device, stream: sk.Stream) -> None:
    guard = Guard(dev, stream)
    guard.load(np.ones(N)).start()
    print(guard.shifted()[0])


def items_of_a_list(dev: sk.Device, stream: sk.Stream) -> None:
    guards = [Guard(dev, stream) for _ in range(2)]
    for guard in guards:
        guard.load(np.ones(N)).start()
    for guard in guards:
        print(guard.shifted()[0])


def either(dev: sk.Device, stream: sk.Stream, hot: bool) -> None:
    a, b = Guard(dev, stream), Guard(dev, stream)
    a.load(np.ones(N))
    b.load(np.ones(N))
    (a if hot else b).start()
    print(a.shifted()[0])
    b.wait()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    for run in (fluent, items_of_a_list):
        try:
            run(dev, stream)
        except sk.BorrowError as err:
            print(err)
    either(dev, stream, True)


if __name__ == "__main__":
    main()
