"""The clean twin of `e0505_op_kept_in_deque_lends_an_attribute`: `step` runs the kept ops (`estimate()`, which
flushes before it reads) before `resample()` moves the attribute they borrow."""

from collections import deque

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def drift(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] + f32(0.5))


@tile.kernel
def gather(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out))


class Filter:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.plan = drift.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.particles = sk.zeros(N, f32, stream)
        self.moved = sk.zeros(N, f32, stream)
        self.inflight: deque[sk.DeviceOp] = deque()

    def flush(self) -> None:
        while self.inflight:
            self.inflight.popleft().sync_on(self.stream)

    def predict(self) -> None:
        self.inflight.append(drift.launch_async(self.plan, self.particles, self.moved))

    def resample(self) -> None:
        out = tile.zeros((N,), f32).partition((32,))
        out, _ = gather(out, self.particles).sync_on(self.stream)
        self.particles = out.unpartition().as_buffer()

    def estimate(self) -> float:
        self.flush()
        return float(self.particles.to_numpy(self.stream).mean() + self.moved.to_numpy(self.stream).mean())

    def step(self, resample: bool) -> float:
        self.predict()
        value = self.estimate()
        if resample:
            self.resample()
        return value


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    print(Filter(dev, stream).step(True))


if __name__ == "__main__":
    main()
