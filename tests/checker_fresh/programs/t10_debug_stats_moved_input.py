# fresh-expect: E0382 at line 32
"""Two-stage MLP block on tiles: a debug print reads the hidden activations after stage 2 took them."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

DEBUG = True


@tile.kernel
def bias_relu(z: Partition[f32], x: Tensor[f32], b: Tensor[f32]) -> None:
    z.store(tile.maximum(tile.load_like(x, z) + tile.load_like(b, z), 0.0))


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32], alpha: f32) -> None:
    z.store(tile.load_like(x, z) * alpha)


def block(x_host: np.ndarray, bias_host: np.ndarray, stream) -> np.ndarray:
    n = x_host.size
    hidden = tile.zeros((n,), f32).partition((128,))
    hidden, _, _ = bias_relu(hidden, tile.from_numpy(x_host), tile.from_numpy(bias_host)).sync_on(stream)
    h = hidden.unpartition()
    out = tile.zeros((n,), f32).partition((128,))
    op = scale(out, h, 0.5)
    if DEBUG:
        print("hidden mean", float(h.to_numpy(stream).mean()))  # BUG: `h` was moved into `scale`
    out, h, _ = op.sync_on(stream)
    return out.unpartition().to_numpy(stream)


if __name__ == "__main__":
    stream = sk.Device.cpu().new_stream()
    x = np.linspace(-1, 1, 1024, dtype=np.float32)
    print(block(x, np.full(1024, 0.1, np.float32), stream)[:4])
