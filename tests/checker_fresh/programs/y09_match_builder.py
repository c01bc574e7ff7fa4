# fresh-expect: W0003 at line 30
"""Build elementwise tile ops from a small textual recipe and run them in order."""
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


def build(step: str, x: np.ndarray, y: np.ndarray) -> sk.DeviceOp | None:
    n = x.shape[0]
    out = tile.zeros((n,), f32).partition((TILE,))
    match step.split():
        case ["add"]:
            return add(out, tile.from_numpy(x), tile.from_numpy(y))
        case ["mul"]:
            op = mul(out, tile.from_numpy(x), tile.from_numpy(y))
        case _:
            raise ValueError(f"unknown step {step!r}")
    return None


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(23)
    x = rng.standard_normal(1000).astype(np.float32)
    y = rng.standard_normal(1000).astype(np.float32)
    results = {}
    for step in ("add", "mul"):
        op = build(step, x, y)
        if op is None:
            print("step", step, "produced nothing")
            continue
        z, _x, _y = op.sync_on(stream)
        results[step] = z.unpartition().to_numpy(stream)
    np.testing.assert_allclose(results["add"], x + y, rtol=1e-6)
    print("ran steps:", sorted(results))


if __name__ == "__main__":
    main()
