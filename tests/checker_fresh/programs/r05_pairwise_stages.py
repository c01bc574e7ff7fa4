# fresh-expect: E0382 at line 21
"""A multi-stage tile pipeline walks its stage tensors with itertools.pairwise; each stage's destination is
partitioned (moved), and then read as the next stage's source."""
import itertools

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def halve(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 0.5)


def run_stages(stream, n: int, depth: int) -> list:
    stages = [tile.ones((n,), f32)] + [tile.zeros((n,), f32) for _ in range(depth)]
    results = []
    for src, dst in itertools.pairwise(stages):
        z, _ = halve(dst.partition((64,)), src).sync_on(stream)  # BUG
        results.append(z.unpartition().to_numpy(stream)[0])
    return results


if __name__ == "__main__":
    print(run_stages(sk.Device.cpu().new_stream(), 128, 3))
