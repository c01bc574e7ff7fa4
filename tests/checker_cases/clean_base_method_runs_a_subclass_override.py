"""The clean twin of `e0505_base_method_runs_a_subclass_override`: the base method runs its pending op before it
calls `self.inspect(...)`, so the override's tile launch (which `self.inspect` may run, for an object of the
subclass) moves a buffer nothing borrows any more."""

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def grind(rough: Slice[f32], surface: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := surface.get_mut(idx)) is not None:
        o.set(rough[i] * 0.5)


@tile.kernel
def lustre(gloss: Partition[f32], surface: Tensor[f32]) -> None:
    gloss.store(tile.load_like(surface, gloss) * 2.0)


class Polisher:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.prepared = grind.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)

    def inspect(self, surface: sk.DeviceBuffer) -> float:
        return 0.0

    def process(self, rough: sk.DeviceBuffer, surface: sk.DeviceBuffer) -> float:
        pending = grind.launch_async(self.prepared, rough, surface)
        pending.sync_on(self.stream)
        return self.inspect(surface)


class Lustre(Polisher):
    def inspect(self, surface: sk.DeviceBuffer) -> float:
        gloss = tile.zeros((64,), f32).partition((32,))
        gloss, _ = lustre(gloss, surface).sync_on(self.stream)
        return float(gloss.unpartition().to_numpy(self.stream).mean())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rough = sk.to_device(np.ones(64, np.float32), stream)
    surface = sk.zeros(64, f32, stream)
    print(Lustre(dev).process(rough, surface))


if __name__ == "__main__":
    main()
