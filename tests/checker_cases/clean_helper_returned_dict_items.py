"""The clean twin of `e0382_helper_returned_dict_items`: a helper's dict display (or tuple) of two new tensors
hands the caller two objects, one under each key, so `params["gamma"]` and `params["beta"]` (or `pair[0]` and
`pair[1]`) passed to one tile launch are two values."""

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


def pair_of(width: int) -> tuple:
    g = tile.ones((width,), f32)
    b = tile.zeros((width,), f32)
    return g, b


def by_key(x_host: np.ndarray, stream: sk.Stream) -> np.ndarray:
    params = init_params(x_host.size)
    out = tile.zeros((x_host.size,), f32).partition((128,))
    op = affine(out, tile.from_numpy(x_host), params["gamma"], params["beta"])
    out, _, _, _ = op.sync_on(stream)
    return out.unpartition().to_numpy(stream)


def by_index(x_host: np.ndarray, stream: sk.Stream) -> np.ndarray:
    pair = pair_of(x_host.size)
    out = tile.zeros((x_host.size,), f32).partition((128,))
    op = affine(out, tile.from_numpy(x_host), pair[0], pair[1])
    out, _, _, _ = op.sync_on(stream)
    return out.unpartition().to_numpy(stream)


if __name__ == "__main__":
    s = sk.Device.cpu().new_stream()
    print(by_key(np.linspace(0, 1, 512, dtype=np.float32), s)[:4])
    print(by_index(np.linspace(0, 1, 512, dtype=np.float32), s)[:4])
