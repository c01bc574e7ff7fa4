"""Tile track: elementwise add, `z = x + y`, one 128-element tile per tile block (SPEC §4's first example).

Every step is lazy until `sync_on`, and every step moves its input: the launch takes ownership of `z`, `x` and
`y` and `sync_on` hands all three back.  The length need not divide the tile: the last block's load is padded
and its store is masked.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 128


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)  # x's chunk at z's tile position
    ty = tile.load_like(y, z)
    z.store(tx + ty)


# what `safekernels build examples/add_tile.py` compiles ahead of time (launches specialize themselves)
tile.specialize(add, tile.spec((100_000,), f32, tile=(TILE,)), tile.spec((100_000,), f32), tile.spec((100_000,), f32))


def run(device: sk.Device, n: int, seed: int = 0) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Add two random vectors of length `n` on `device`; returns (result, numpy reference)."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    stream = device.new_stream()
    x = tile.from_numpy(a)  # DeviceOp: nothing runs yet
    y = tile.from_numpy(b)
    z = tile.zeros((n,), f32).partition((TILE,))  # grid = ceil(n / 128) tile blocks
    z, x, y = add(z, x, y).sync_on(stream)  # the single sync point; ownership comes back
    return z.unpartition().to_numpy(stream), a + b


def main() -> None:
    n = 100_000
    device = sk.Device.default()
    got, want = run(device, n)
    np.testing.assert_allclose(got, want, rtol=0, atol=0)
    print(f"add_tile: z = x + y for {n} f32 elements in {-(-n // TILE)} tiles of {TILE} on {device!r}")
    print("PASSED")


if __name__ == "__main__":
    main()
