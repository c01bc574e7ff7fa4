"""A conditional expression whose one arm is an item of a list the checker does not follow (a new value) and whose
other arm is a name: in a loop that moves the result, the item is a new object each iteration, and the name is
the name's object.  `right = parts[i + 1] if i + 1 < len(parts) else left` pairs the last tensor with itself when
the count is odd, so moving `left` then `right` into one tile launch moves one tensor twice."""

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
        right = parts[i + 1] if i + 1 < len(parts) else left
        z, _, _ = add(tile.zeros((n,), f32).partition((64,)), left, right).sync_on(stream)  # expect: E0382
        out.append(z.unpartition())
    return out


if __name__ == "__main__":
    s = sk.Device.cpu().new_stream()
    print(len(pair_sums([tile.full((128,), float(k), f32).sync_on(s) for k in range(3)], s, 128)))
