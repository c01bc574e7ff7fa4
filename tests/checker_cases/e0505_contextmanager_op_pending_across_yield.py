"""A `@contextlib.contextmanager` generator of the module starts an async launch on its argument before its `yield`
(the op pending in an attribute, `self.pending`) and syncs it only in its `finally`: the op holds its loans for the
whole `with` block, so a method the block calls that partitions the launch's output (through the `as` name, which
is the argument) moves a borrowed buffer (`BorrowError` at run time)."""

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], out: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(src[i] * k)


class Stager:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.staging = sk.zeros(N, f32, stream)
        self.pending: sk.DeviceOp | None = None

    def start(self, raw: sk.DeviceBuffer) -> None:
        self.pending = scale.launch_async(self.prepared, raw, self.staging, 0.5)

    def finish(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    def hand_off(self) -> Partition:
        parts = self.staging.partition((64,))  # expect: E0505
        self.staging = sk.zeros(N, f32, self.stream)
        return parts


@contextmanager
def staged(stager: Stager, raw: sk.DeviceBuffer) -> Iterator[Stager]:
    stager.start(raw)
    try:
        yield stager
    finally:
        stager.finish()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    stager = Stager(dev, stream)
    raw = sk.to_device(np.ones(N, np.float32), stream)
    with staged(stager, raw) as ready:
        parts = ready.hand_off()
    print(parts.unpartition().to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
