"""The clean twin of `w0003_unpartition_of_op_dropped_on_early_return`: the chain `scale(...).first()
.unpartition()` is built only on the path that runs it, and a chain bound to a name and run later is used."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(out: Partition[f32], x: Tensor[f32], k: f32) -> None:
    out.store(tile.load_like(x, out) * k)


def scaled(samples: np.ndarray, k: float, stream: sk.Stream) -> np.ndarray:
    if k == 1.0:
        return samples
    x = tile.from_numpy(samples)
    out = tile.zeros((len(samples),), f32).partition((16,))
    result = scale(out, x, k).first().unpartition()
    return result.sync_on(stream).to_numpy(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    print(scaled(np.ones(64, np.float32), 2.0, stream).sum(), scaled(np.ones(64, np.float32), 1.0, stream).sum())


if __name__ == "__main__":
    main()
