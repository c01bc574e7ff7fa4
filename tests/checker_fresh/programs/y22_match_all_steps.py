# fresh-expect: clean
"""Build elementwise tile ops from a small textual recipe and run every one of them in order."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 128


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@tile.kernel
def mul(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * tile.load_like(y, z))


def build(step: str, x: np.ndarray, y: np.ndarray) -> sk.DeviceOp:
    n = x.shape[0]
    out = tile.zeros((n,), f32).partition((TILE,))
    match step.split():
        case ["add"]:
            op = add(out, tile.from_numpy(x), tile.from_numpy(y))
        case ["mul"]:
            op = mul(out, tile.from_numpy(x), tile.from_numpy(y))
        case _:
            raise ValueError(f"unknown step {step!r}")
    return op


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(23)
    x = rng.standard_normal(1000).astype(np.float32)
    y = rng.standard_normal(1000).astype(np.float32)
    steps = ["add", "mul"]
    ops = [build(step, x, y) for step in steps]
    results = {}
    for step, op in zip(steps, ops, strict=True):
        z, _x, _y = op.sync_on(stream)
        results[step] = z.unpartition().to_numpy(stream)
    np.testing.assert_allclose(results["add"], x + y, rtol=1e-6)
    np.testing.assert_allclose(results["mul"], x * y, rtol=1e-6)
    print("ran steps:", sorted(results))


if __name__ == "__main__":
    main()
