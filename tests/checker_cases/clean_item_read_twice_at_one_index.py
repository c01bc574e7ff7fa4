"""Items read at different computed indices, or at one index whose variable changes between the reads, are
different objects: the odd tensor of the pairwise reduction is paired with a new zero tensor, and the walk that
advances `i` between its two reads takes two tensors (the runtime runs both)."""

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
        right = parts[i + 1] if i + 1 < len(parts) else tile.zeros((n,), f32).sync_on(stream)
        z, _, _ = add(tile.zeros((n,), f32).partition((64,)), left, right).sync_on(stream)
        sums.append(z.unpartition())
    return sums


def walked(parts: list[tile.Tensor], stream: sk.Stream, n: int) -> list[tile.Tensor]:
    sums = []
    i = 0
    while i + 1 < len(parts):
        left = parts[i]
        i += 1
        right = parts[i]
        i += 1
        z, _, _ = add(tile.zeros((n,), f32).partition((64,)), left, right).sync_on(stream)
        sums.append(z.unpartition())
    return sums


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    print(len(pairwise([tile.full((128,), float(k), f32).sync_on(stream) for k in range(3)], stream, 128)))
    print(len(walked([tile.full((128,), float(k), f32).sync_on(stream) for k in range(4)], stream, 128)))


if __name__ == "__main__":
    main()
