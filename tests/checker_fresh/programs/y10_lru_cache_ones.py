# fresh-expect: E0382 at line 35
# fresh-note: found since: a function the module calls twice that moves the object a memoised call (`@lru_cache`) gave gets it back moved on its next run (the cache hands out the same tensor for equal arguments)
"""Normalize two feature matrices by a per-column scale built once and cached."""
from functools import lru_cache

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

ROWS = 16


@tile.kernel
def scale_cols(out: Partition[f32], x: Tensor[f32], col_scale: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    s = col_scale.load((0, 0), (1, out.tile_shape[1]))
    out.store(t * s)


STREAM = sk.Device.default().new_stream()


@lru_cache(maxsize=None)
def column_scale(cols: int) -> tile.Tensor:
    weights = 1.0 / np.arange(1, cols + 1, dtype=np.float32)
    return tile.from_numpy(weights.reshape(1, cols)).sync_on(STREAM)


def normalize(features: np.ndarray) -> np.ndarray:
    rows, cols = features.shape
    out = tile.zeros((rows, cols), f32).partition((ROWS, cols))
    out, _x, _s = scale_cols(out, tile.from_numpy(features), column_scale(cols)).sync_on(STREAM)
    return out.unpartition().to_numpy(STREAM)


def main() -> None:
    rng = np.random.default_rng(29)
    train = rng.standard_normal((100, 32)).astype(np.float32)
    test = rng.standard_normal((40, 32)).astype(np.float32)
    weights = 1.0 / np.arange(1, 33, dtype=np.float32)
    got_train = normalize(train)
    got_test = normalize(test)
    np.testing.assert_allclose(got_train, train * weights, rtol=1e-6)
    np.testing.assert_allclose(got_test, test * weights, rtol=1e-6)
    print("normalized", got_train.shape, got_test.shape)


if __name__ == "__main__":
    main()
