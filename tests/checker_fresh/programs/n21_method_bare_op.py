# fresh-expect: W0003 at line 22
"""A trainer method builds the update op as a statement and forgets to run it."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


class Trainer:
    def __init__(self, stream) -> None:
        self.stream = stream
        self.w = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
        self.g = tile.ones((64,), f32).sync_on(stream)
        self.m = tile.ones((64,), f32).sync_on(stream)

    def update(self) -> None:
        add(self.w, self.g, self.m)  # BUG W0003


Trainer(sk.Device.cpu().new_stream()).update()
