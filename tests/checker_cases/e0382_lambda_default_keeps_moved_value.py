"""A lambda's parameter default is evaluated when the lambda expression runs and keeps that object, as a nested
`def`'s does: a later call that omits the argument passes it, whatever the name is rebound to since.
`partition` moves the buffer `field` defaults to, so the call after it reads a moved value inside the lambda."""

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
    report = lambda tag, field=density: print(tag, float(field.to_numpy(stream).sum()))  # noqa: E731  # expect: E0382

    report("initial")
    parts, vel = damp(density.partition((32,)), vel).sync_on(stream)
    density = parts.unpartition()
    report("step")


if __name__ == "__main__":
    main()
