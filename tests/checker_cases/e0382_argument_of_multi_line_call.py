"""A launch written over several lines (as black formats a long one): the primary span is the offending argument
on its own line, as rustc and mypy point at an argument, although Python's traceback for the runtime's
`UseAfterMoveError` names the callee's line (`add(`).  The first launch moves `x`; the second, spread over four
lines, passes it again."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((N,), f32)
    y = tile.ones((N,), f32)
    first, _x, y = add(tile.zeros((N,), f32).partition((16,)), x, y).sync_on(stream)
    second, _, _ = add(
        tile.zeros((N,), f32).partition((16,)),
        x,  # expect: E0382
        y,
    ).sync_on(stream)
    print(first.unpartition().to_numpy(stream)[:2], second.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
