"""A lambda's parameter default keeps the object it was when the lambda expression ran: after `partition` moved
that buffer, a call passing the rebound `density` explicitly reads the live buffer (the clean twin of
e0382_lambda_default_keeps_moved_value)."""

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
    report = lambda tag, field=density: print(tag, float(field.to_numpy(stream).sum()))  # noqa: E731

    report("initial")
    parts, vel = damp(density.partition((32,)), vel).sync_on(stream)
    density = parts.unpartition()
    report("step", density)


if __name__ == "__main__":
    main()
