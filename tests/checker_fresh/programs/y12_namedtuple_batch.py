# fresh-expect: E0382 at line 43
# fresh-note: found since: a starred NamedTuple instance spreads its fields in declaration order (add(*args) moves args.x and args.y, which are x and y)
"""Compute both the sum and the product of two vectors, keeping launch arguments in a NamedTuple."""
from typing import NamedTuple

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 256


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def mul(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * tile.load_like(y, z))


class Operands(NamedTuple):
    out: tile.Partition
    x: tile.Tensor
    y: tile.Tensor


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 5000
    rng = np.random.default_rng(37)
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    x, y = tile.from_numpy(a).sync_on(stream), tile.from_numpy(b).sync_on(stream)
    args = Operands(tile.zeros((n,), f32).partition((TILE,)).sync_on(stream), x, y)
    total, *_ = add(*args).sync_on(stream)
    product_out = tile.zeros((n,), f32).partition((TILE,))
    product, *_ = mul(product_out, args.x, args.y).sync_on(stream)
    np.testing.assert_allclose(total.unpartition().to_numpy(stream), a + b, rtol=1e-6)
    np.testing.assert_allclose(product.unpartition().to_numpy(stream), a * b, rtol=1e-6)
    print("sum and product of", n, "elements")


if __name__ == "__main__":
    main()
