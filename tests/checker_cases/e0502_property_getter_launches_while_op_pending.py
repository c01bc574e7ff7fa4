"""Reading a `@property` runs its getter: a getter that launches a kernel reading a buffer that a pending
`launch_async` op stored on the object still writes borrows it while that op holds it mutably, as the runtime
finds (`farm.total_power` read before `farm.finish()` runs the op)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def scale(src: Slice[f32], dst: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * k)


class Farm:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
        self.wind = sk.to_device(np.ones(N, np.float32), self.stream)
        self.deficit = sk.zeros(N, f32, self.stream)
        self.power = sk.zeros(N, f32, self.stream)
        self.pending: sk.DeviceOp | None = None

    def start(self) -> None:
        self.pending = scale.launch_async(self.prepared, self.wind, self.deficit, 0.5)

    def finish(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None

    @property
    def total_power(self) -> float:
        scale.launch(self.prepared, self.stream, self.deficit, self.power, 2.0)  # expect: E0502
        return float(self.power.to_numpy(self.stream).sum())


def main() -> None:
    farm = Farm(sk.Device.cpu())
    farm.start()
    print(farm.total_power)
    farm.finish()


if __name__ == "__main__":
    main()
