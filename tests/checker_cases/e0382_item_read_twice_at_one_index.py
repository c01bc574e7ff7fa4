"""An item read twice at one computed index, with neither the index's variable nor the list changed between the
reads, is one object: a pairwise tree reduction pairs the last tensor of an odd count with itself (`right =
parts[i + 1] if ... else parts[i]`), and the tile launch takes ownership of `left` before it takes `right`, the
same tensor: E0382 (the runtime raises `UseAfterMoveError` at the marked line)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def pairwise(parts: list[tile.Tensor], stream: sk.Stream, n: int) -> list[tile.Tensor]:
    sums = []
    for i in range(0, len(parts), 2):
        left = parts[i]
        right = parts[i + 1] if i + 1 < len(parts) else parts[i]
        z, _, _ = add(tile.zeros((n,), f32).partition((64,)), left, right).sync_on(stream)  # expect: E0382
        sums.append(z.unpartition())
    return sums


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    leaves = [tile.full((128,), float(k), f32).sync_on(stream) for k in range(3)]
    try:
        print(len(pairwise(leaves, stream, 128)))
    except sk.UseAfterMoveError as err:
        print("UseAfterMoveError:", err)


if __name__ == "__main__":
    main()
