"""A conditional expression whose arms are items of a list the checker does not follow (new values), or one such
item and a new tensor: in a loop that moves the result, each iteration's item is a new object, so the previous
iteration's move is no use after move (`right = parts[i + 1] if i + 1 < len(parts) else parts[i]` read once per
iteration, with an even count)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def pair_sums(parts: list, stream: sk.Stream, n: int) -> list:
    out = []
    for i in range(0, len(parts), 2):
        left = parts[i]
        right = parts[i + 1] if i + 1 < len(parts) else parts[i]
        z, _, _ = add(tile.zeros((n,), f32).partition((64,)), left, right).sync_on(stream)
        out.append(z.unpartition())
    return out


def padded_sums(parts: list, stream: sk.Stream, n: int) -> list:
    out = []
    for i in range(0, len(parts), 2):
        left = parts[i]
        right = parts[i + 1] if i + 1 < len(parts) else tile.zeros((n,), f32).sync_on(stream)
        z, _, _ = add(tile.zeros((n,), f32).partition((64,)), left, right).sync_on(stream)
        out.append(z.unpartition())
    return out


if __name__ == "__main__":
    s = sk.Device.cpu().new_stream()
    print(len(pair_sums([tile.full((128,), float(k), f32).sync_on(s) for k in range(4)], s, 128)))
    print(len(padded_sums([tile.full((128,), float(k), f32).sync_on(s) for k in range(3)], s, 128)))
