"""A helper takes the session (`session: PressSession`) and partitions `session.moisture`, an attribute
`__init__` bound to a device buffer: the helper moves the caller's buffer.  Called inside the `with` block,
while the op `__enter__` started still borrows that buffer, the move is E0505, as the runtime raises."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=32)
def wick(moisture: Slice[f32], absorbed: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := absorbed.get_mut(idx)) is not None:
        o.set(moisture[i] * 0.5)


@tile.kernel
def cure(moisture: Partition[f32], keep: f32) -> None:
    moisture.store(moisture.load() * keep)


class PressSession:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.prepared = wick.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
        self.moisture = sk.to_device(np.ones(64, np.float32), self.stream)
        self.absorbed = sk.zeros(64, f32, self.stream)
        self._pending: sk.DeviceOp | None = None

    def __enter__(self) -> "PressSession":
        self._pending = wick.launch_async(self.prepared, self.moisture, self.absorbed)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pending is not None:
            self._pending.sync_on(self.stream)
            self._pending = None


def cure_in_press(session: PressSession, keep: float) -> float:
    parts = session.moisture.partition((32,))  # expect: E0505
    parts, _ = cure(parts, keep).sync_on(session.stream)
    return float(parts.unpartition().to_numpy(session.stream).mean())


if __name__ == "__main__":
    with PressSession(sk.Device.cpu()) as press:
        print(cure_in_press(press, 0.9))
