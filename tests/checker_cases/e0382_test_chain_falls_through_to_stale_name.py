"""A loop binds `out` in each arm of an `if`/`elif` chain (and of a `match`) that has no `else`, then hands it to
`unpartition`, which moves it.  A kind no arm tests ("scale") falls through to the object the previous iteration
moved, whether `out` was bound before the loop or not: the runtime raises there on the second iteration (the
report's note says how to declare one arm always runs, as the twin does)."""

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
        total += float(out.unpartition().to_numpy(stream).sum())  # expect: E0382
    return total


def run_matched(kinds: tuple[str, ...], stream: sk.Stream) -> float:
    x = tile.ones((N,), f32).sync_on(stream)
    total = 0.0
    for kind in kinds:
        match kind:
            case "copy":
                out, x = copy(tile.zeros((N,), f32).partition((N,)), x).sync_on(stream)
            case "negate" | "flip":
                out, x = negate(tile.zeros((N,), f32).partition((N,)), x).sync_on(stream)
        total += float(out.unpartition().to_numpy(stream).sum())  # expect: E0382
    return total


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    print(run(("copy", "scale"), stream), run_matched(("flip", "scale"), stream))
