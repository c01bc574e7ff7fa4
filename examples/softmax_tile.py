"""Tile track: row softmax of an (M, N) f32 matrix, one block of BM rows per tile block.

Each tile holds BM whole rows (N <= BN): the padded columns past N are masked to -inf before the row max, so
they contribute exp(-inf) = 0 to the row sum; padded rows past M are computed and then dropped by the masked
store.  Reductions take `axis=` and `keepdims=True` keeps the axis so the result broadcasts against the tile.
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

BM = 16  # rows per tile block
BN = 256  # the whole row must fit one tile


@tile.kernel
def softmax(out: Annotated[Partition[f32], tile.Dims(BM, BN)], x: Tensor[f32]) -> None:
    rows = tile.load_like(x, out)  # (BM, BN), zero-padded past the edge
    cols = tile.iota(BN, i32)
    rows = tile.where(cols < x.shape[1], rows, float("-inf"))  # padded columns must not count
    shifted = rows - tile.max(rows, axis=1, keepdims=True)
    e = tile.exp(shifted)
    out.store(e / tile.sum(e, axis=1, keepdims=True))


# what `safekernels build examples/softmax_tile.py` compiles ahead of time: the shape main() runs
tile.specialize(softmax, tile.spec((1000, 200), f32, tile=(BM, BN)), tile.spec((1000, 200), f32))


def reference(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    e = np.exp(a - a.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]


def run(device: sk.Device, m: int, n: int, seed: int = 0) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """Softmax of a random (m, n) matrix on `device`; returns (result, numpy reference)."""
    if n > BN:
        raise ValueError(f"rows longer than {BN} do not fit one tile")
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal((m, n)) * 4).astype(np.float32)
    stream = device.new_stream()
    out = tile.zeros((m, n), f32).partition((BM, BN))
    out, _x = softmax(out, tile.from_numpy(a)).sync_on(stream)
    return out.unpartition().to_numpy(stream), reference(a)


def main() -> None:
    m, n = 1000, 200
    device = sk.Device.default()
    got, want = run(device, m, n)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=1e-5)
    print(f"softmax_tile: row softmax of a {m}x{n} f32 matrix in {BM}x{BN} tiles on {device!r}")
    print("PASSED")


if __name__ == "__main__":
    main()
