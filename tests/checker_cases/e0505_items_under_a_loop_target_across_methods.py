"""An item under a loop's target (`self.centered[axis]` in `for axis, samples in readings.items():`) is one
object within an iteration, as an item under a parameter is: a method called with `axis` that leaves an op
pending on `self.centered[axis]` (`submit`), then another that moves the same item into a tile launch
(`energy`) before the ops are synced, is E0505 inside `energy`, where the runtime raises.  The next iteration's
`self.centered[axis]` is another item (the target is bound anew)."""

from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


class Axis(Enum):
    X = "x"
    Y = "y"


@simt.kernel
@simt.launch_contract(block=32)
def demean(raw: Slice[f32], out: DisjointSlice[f32], mean: f32) -> None:
    i = thread.index_1d().get()
    if (o := out.get_mut(thread.index_1d())) is not None:
        o.set(raw[i] - mean)


@tile.kernel
def square(z: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, z)
    z.store(t * t)


class Monitor:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.prepared = demean.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
        self.centered = {axis: sk.zeros(64, f32, self.stream) for axis in Axis}
        self.raw: dict[Axis, sk.DeviceBuffer] = {}
        self.inflight: dict[Axis, sk.DeviceOp] = {}

    def submit(self, axis: Axis, samples: np.ndarray) -> None:
        self.raw[axis] = sk.to_device(samples, self.stream)
        self.inflight[axis] = demean.launch_async(self.prepared, self.raw[axis], self.centered[axis], 1.0)

    def flush(self) -> None:
        for axis in list(self.inflight):
            self.inflight.pop(axis).sync_on(self.stream)

    def energy(self, axis: Axis) -> float:
        out = tile.zeros((64,), f32).partition((32,))
        sq, self.centered[axis] = square(out, self.centered[axis]).sync_on(self.stream)  # expect: E0505
        return float(sq.unpartition().to_numpy(self.stream).mean())

    def sweep(self, readings: dict[Axis, np.ndarray]) -> dict[Axis, float]:
        found: dict[Axis, float] = {}
        for axis, samples in readings.items():
            self.submit(axis, samples)
            if float(samples.max()) > 2.0:
                found[axis] = self.energy(axis)
        self.flush()
        return found


def main() -> None:
    monitor = Monitor(sk.Device.cpu())
    print(monitor.sweep({Axis.X: np.full(64, 3.0, np.float32), Axis.Y: np.ones(64, np.float32)}))


if __name__ == "__main__":
    main()
