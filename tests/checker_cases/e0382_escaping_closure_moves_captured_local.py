"""A closure factory captures a tensor it built (`anchor`) and returns the closure, which passes that tensor to a
tile launch as an input and keeps only the updated weights `sync_on` hands back.  The closure cannot rebind
`anchor` (no `nonlocal`), so after its first call the cell holds the moved tensor, and the next call reads it:
E0382 at that read, as the runtime's `UseAfterMoveError` on the second step."""

from collections.abc import Callable

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64

Step = Callable[[Tensor[f32]], Tensor[f32]]


@tile.kernel
def pull(w: Partition[f32], anchor: Tensor[f32]) -> None:
    cur = w.load()
    w.store(cur - (cur - tile.load_like(anchor, w)) * 0.5)


def make_step(stream: sk.Stream) -> Step:
    anchor = tile.from_numpy(np.ones(N, np.float32)).sync_on(stream)

    def step(weights: Tensor[f32]) -> Tensor[f32]:
        w, _ = pull(weights.partition((N,)), anchor).sync_on(stream)  # expect: E0382
        return w.unpartition()

    return step


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    step = make_step(stream)
    weights = tile.zeros((N,), f32).sync_on(stream)
    for _ in range(3):
        weights = step(weights)
    print(weights.to_numpy(stream).sum())
