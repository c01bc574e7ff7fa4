# fresh-expect: E0382 at line 39
"""A home-made context manager runs the ops submitted in its block; the caller reads the old handle after it."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


class Batch:
    """Collect ops; run them all when the block ends."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.ops: list = []
        self.values: list = []

    def __enter__(self) -> "Batch":
        return self

    def submit(self, op) -> None:
        self.ops.append(op)

    def __exit__(self, *exc: object) -> bool:
        self.values = [op.sync_on(self.stream) for op in self.ops]
        return False


stream = sk.Device.cpu().new_stream()
z = tile.zeros((64,), f32).partition((32,)).sync_on(stream)
x = tile.ones((64,), f32).sync_on(stream)
y = tile.full((64,), 2.0, f32).sync_on(stream)
with Batch(stream) as batch:
    batch.submit(add(z, x, y))
print(z.unpartition().to_numpy(stream))  # BUG E0382 (the result is in batch.values)
