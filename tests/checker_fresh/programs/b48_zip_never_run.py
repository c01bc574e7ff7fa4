# fresh-expect: W0003 at line 18
# fresh-known-miss: cli,mypy must-use counts any read as consumption, so `type(pair)` consumes the op (generous by design)
"""Two launches zipped together, but the zip is never run."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def both(n: int) -> None:
    first = add(tile.zeros((n,), f32).partition((32,)), tile.ones((n,), f32), tile.ones((n,), f32))
    second = add(tile.zeros((n,), f32).partition((32,)), tile.ones((n,), f32), tile.ones((n,), f32))
    pair = sk.zip(first, second)  # BUG W0003
    print("built", type(pair).__name__)


both(64)
