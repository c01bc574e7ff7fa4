"""A helper returns a dict display (or a tuple) of new tensors: the caller's `params["gamma"]` is the object the
helper put under that key, so passing it twice to one tile launch moves it twice; a helper that puts one tensor
under two keys (`{"gamma": g, "beta": g}`) hands the caller one object under both, as does `pair[0]` / `pair[1]` of
a returned `return t, t`."""

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


def shared_params(width: int) -> dict:
    g = tile.ones((width,), f32)
    return {"gamma": g, "beta": g}


def pair_of(width: int) -> tuple:
    t = tile.ones((width,), f32)
    return t, t


def same_key(x_host: np.ndarray, stream: sk.Stream) -> np.ndarray:
    params = init_params(x_host.size)
    out = tile.zeros((x_host.size,), f32).partition((128,))
    op = affine(out, tile.from_numpy(x_host), params["gamma"], params["gamma"])  # expect: E0382
    out, _, _, _ = op.sync_on(stream)
    return out.unpartition().to_numpy(stream)


def one_object_two_keys(x_host: np.ndarray, stream: sk.Stream) -> np.ndarray:
    params = shared_params(x_host.size)
    out = tile.zeros((x_host.size,), f32).partition((128,))
    op = affine(out, tile.from_numpy(x_host), params["gamma"], params["beta"])  # expect: E0382
    out, _, _, _ = op.sync_on(stream)
    return out.unpartition().to_numpy(stream)


def one_object_two_items(x_host: np.ndarray, stream: sk.Stream) -> np.ndarray:
    pair = pair_of(x_host.size)
    out = tile.zeros((x_host.size,), f32).partition((128,))
    op = affine(out, tile.from_numpy(x_host), pair[0], pair[1])  # expect: E0382
    out, _, _, _ = op.sync_on(stream)
    return out.unpartition().to_numpy(stream)


if __name__ == "__main__":
    s = sk.Device.cpu().new_stream()
    one_object_two_items(np.linspace(0, 1, 512, dtype=np.float32), s)
