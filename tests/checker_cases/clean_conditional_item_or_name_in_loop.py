"""A conditional expression whose arms are an item of a list the checker does not follow (a new value) and a new
tensor: in a loop that moves the result, each iteration's item is a new object, so the previous iteration's move is
no use after move.  (`right = parts[i + 1] if i + 1 < len(parts) else parts[i]` beside `left = parts[i]` is not
here: on its else arm both arguments are one tensor, reported as E0382 whatever the list's length, as
e0382_item_read_twice_at_one_index shows.)"""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


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
    print(len(padded_sums([tile.full((128,), float(k), f32).sync_on(s) for k in range(3)], s, 128)))
