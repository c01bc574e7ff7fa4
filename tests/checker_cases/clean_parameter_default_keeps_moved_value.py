"""A nested function's parameter default is evaluated when its `def` runs and keeps that object, but a call that
passes the argument does not use it: each call after `partition` passes the buffer `unpartition` gave back, so the
moved default is never read (the twin of e0382_parameter_default_keeps_moved_value)."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def damp(rho: Partition[f32], vel: Tensor[f32]) -> None:
    rho.store(rho.load() * tile.load_like(vel, rho))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    density = sk.to_device(np.ones(64, np.float32), stream)
    vel = tile.from_numpy(np.full(64, 0.5, np.float32)).sync_on(stream)

    def report(tag: str, field: sk.DeviceBuffer[f32] = density) -> None:
        print(tag, float(field.to_numpy(stream).sum()))

    report("initial")
    for _ in range(2):
        parts, vel = damp(density.partition((32,)), vel).sync_on(stream)
        density = parts.unpartition()
        report("step", density)


if __name__ == "__main__":
    main()
