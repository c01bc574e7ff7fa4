# fresh-expect: E0382 at line 28
"""A data pipeline: a generator yields tile batches, a stats object peeks at each one."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def normalize(out: Partition[f32], x: Tensor[f32], mean: f32, inv_std: f32) -> None:
    out.store((tile.load_like(x, out) - mean) * inv_std)


def batches(rng: np.random.Generator, count: int, size: int):
    for _ in range(count):
        yield tile.from_numpy(rng.normal(3.0, 2.0, size).astype(np.float32))


class RunningStats:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.seen = 0
        self.total = 0.0

    def record(self, batch: tile.Tensor[f32]) -> None:
        values = batch.to_numpy(self.stream)
        self.seen += values.size
        self.total += float(values.sum())


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(0)
    stats = RunningStats(stream)
    results = []
    for raw in batches(rng, 3, 512):
        batch = raw.sync_on(stream)
        out = tile.zeros((512,), f32).partition((128,))
        out, batch, _, _ = normalize(out, batch, 3.0, 0.5).sync_on(stream)
        results.append(out.unpartition().to_numpy(stream))
        stats.record(batch)
    first = tile.from_numpy(results[0]).sync_on(stream)
    done = normalize(tile.zeros((512,), f32).partition((128,)), first, 0.0, 1.0)
    stats.record(first)
    done.sync_on(stream)
    print(stats.seen, stats.total / stats.seen)


if __name__ == "__main__":
    main()
