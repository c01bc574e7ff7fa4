# fresh-expect: E0382 at line 23
# fresh-note: found since: `parts[i]` read as `left` and again in the conditional's else arm, `i` and `parts` unchanged between, is one object (core.computed_items), both front ends, line 23
"""A recursive pairwise tree reduction of tile tensors pairs the last tensor with itself when the count is odd."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def tree_sum(parts: list, stream, n: int):
    if len(parts) == 1:
        return parts[0]
    nxt = []
    for i in range(0, len(parts), 2):
        left = parts[i]
        right = parts[i + 1] if i + 1 < len(parts) else parts[i]
        z, _, _ = add(tile.zeros((n,), f32).partition((64,)), left, right).sync_on(stream)  # BUG
        nxt.append(z.unpartition())
    return tree_sum(nxt, stream, n)


stream = sk.Device.cpu().new_stream()
n = 128
leaves = [tile.full((n,), float(k), f32).sync_on(stream) for k in range(3)]
total = tree_sum(leaves, stream, n)
print(total.to_numpy(stream)[:2])
