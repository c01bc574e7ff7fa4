"""A `@property` read as a launch argument runs its getter before the launch, as Python evaluates it: a getter
that launches a kernel reading a buffer a pending `launch_async` op still writes conflicts with that op's loan
(`farm.power_view` passed to `scale.launch` before `farm.finish()` runs the op)."""

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
    def power_view(self) -> sk.DeviceBuffer:
        scale.launch(self.prepared, self.stream, self.deficit, self.power, 2.0)  # expect: E0502
        return self.power


def main() -> None:
    farm = Farm(sk.Device.cpu())
    farm.start()
    out = sk.zeros(N, f32, farm.stream)
    scale.launch(farm.prepared, farm.stream, farm.power_view, out, 1.0)
    farm.finish()


if __name__ == "__main__":
    main()
