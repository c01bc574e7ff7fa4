"""A loop binds `out` in each arm of an `if`/`elif` chain that has no `else`, then hands it to `unpartition`, which
moves it.  `out` was bound before the loop, so a kind no arm tests ("scale") falls through to the object the
previous iteration moved: the runtime raises there on the second iteration."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def copy(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out))


@tile.kernel
def negate(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(-tile.load_like(x, out))


def run(kinds: tuple[str, ...], stream: sk.Stream) -> float:
    x = tile.ones((N,), f32).sync_on(stream)
    out = tile.zeros((N,), f32).partition((N,))
    total = 0.0
    for kind in kinds:
        if kind == "copy":
            out, x = copy(tile.zeros((N,), f32).partition((N,)), x).sync_on(stream)
        elif kind == "negate":
            out, x = negate(tile.zeros((N,), f32).partition((N,)), x).sync_on(stream)
        res = out.unpartition()  # expect: E0382
        total += float(res.to_numpy(stream).sum())
    return total


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    print(run(("copy", "scale"), stream))
