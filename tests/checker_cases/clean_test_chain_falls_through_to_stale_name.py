"""A loop binds `out` in each arm of an `if`/`elif` chain (and of a `match`), then hands it to `unpartition`,
which moves it.  One arm always runs, and the chain says so with an arm that raises (`else: raise ...`, `case _:
raise ...`): no iteration reads the object the previous one moved."""

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
    total = 0.0
    for kind in kinds:
        if kind == "copy":
            out, x = copy(tile.zeros((N,), f32).partition((N,)), x).sync_on(stream)
        elif kind == "negate":
            out, x = negate(tile.zeros((N,), f32).partition((N,)), x).sync_on(stream)
        else:
            raise ValueError(kind)
        total += float(out.unpartition().to_numpy(stream).sum())
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
            case _:
                raise ValueError(kind)
        total += float(out.unpartition().to_numpy(stream).sum())
    return total


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    print(run(("copy", "negate"), stream), run_matched(("flip", "copy"), stream))
