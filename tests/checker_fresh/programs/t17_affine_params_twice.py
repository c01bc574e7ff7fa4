# fresh-expect: E0382 at line 26
# A helper returns a dict of fresh tensors; the caller reads one key twice.
"""A LayerNorm-style affine step reads its parameters from a dict; `gamma` is passed where `beta` belongs."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def affine(z: Partition[f32], x: Tensor[f32], gamma: Tensor[f32], beta: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * tile.load_like(gamma, z) + tile.load_like(beta, z))


def init_params(width: int) -> dict:
    return {"gamma": tile.ones((width,), f32), "beta": tile.zeros((width,), f32)}


def forward(x_host: np.ndarray, stream) -> np.ndarray:
    width = x_host.size
    params = init_params(width)
    out = tile.zeros((width,), f32).partition((128,))
    op = affine(out, tile.from_numpy(x_host), params["gamma"], params["gamma"])  # BUG: second should be "beta"
    out, _, _, _ = op.sync_on(stream)
    return out.unpartition().to_numpy(stream)


if __name__ == "__main__":
    stream = sk.Device.cpu().new_stream()
    print(forward(np.linspace(0, 1, 512, dtype=np.float32), stream)[:4])
