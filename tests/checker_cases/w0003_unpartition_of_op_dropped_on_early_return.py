"""`DeviceOp.first()`, `.partition(...)` and `.unpartition()` of an op are lazy ops too: a chain built before an
early `return` that skips running it never runs (W0003 where the chain is bound), as the runtime's
`UnusedDeviceOpWarning` says for that line."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(out: Partition[f32], x: Tensor[f32], k: f32) -> None:
    out.store(tile.load_like(x, out) * k)


def scaled(samples: np.ndarray, k: float, stream: sk.Stream) -> np.ndarray:
    x = tile.from_numpy(samples)
    out = tile.zeros((len(samples),), f32).partition((16,))
    result = scale(out, x, k).first().unpartition()  # expect: W0003
    if k == 1.0:
        return samples
    return result.sync_on(stream).to_numpy(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    print(scaled(np.ones(64, np.float32), 2.0, stream).sum(), scaled(np.ones(64, np.float32), 1.0, stream).sum())


if __name__ == "__main__":
    main()
