"""A launch written over several lines (as black formats a long one) raises from its callee's line: Python's
traceback names `add(`, not the line of the argument the error is about.  The checker reports there too, and
keeps the argument underlined as a second primary label, so a CI gate shows the error on the line the runtime's
`UseAfterMoveError` names.  The first launch moves `x`; the second, spread over four lines, passes it again."""

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
    second, _, _ = add(  # expect: E0382
        tile.zeros((N,), f32).partition((16,)),
        x,
        y,
    ).sync_on(stream)
    print(first.unpartition().to_numpy(stream)[:2], second.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
