# fresh-expect: W0003 at line 39
# publish() builds the normalize op before checking the sink, and the early `return False` drops the op unrun
"""Normalize batches on the device and publish them to a sink that can be temporarily
closed; a closed sink makes the publisher back off and retry the batch."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 512
TILE = 128
MAX_ATTEMPTS = 3


@tile.kernel
def normalize(z: Partition[f32], x: Tensor[f32], inv_norm: f32) -> None:
    z.store(tile.load_like(x, z) * inv_norm)


@dataclass
class Sink:
    accepting: bool = True
    items: list = field(default_factory=list)
    rejected: int = 0

    def reopen(self) -> None:
        self.accepting = True


def publish(batch_id: int, batch: np.ndarray, sink: Sink, stream: sk.Stream) -> bool:
    x = tile.from_numpy(batch)
    out = tile.zeros((N,), f32).partition((TILE,))
    op = normalize(out, x, 1.0 / float(np.linalg.norm(batch)))
    if not sink.accepting:
        sink.rejected += 1
        print(f"batch {batch_id}: sink closed, backing off")
        return False
    out, _, _ = op.sync_on(stream)
    sink.items.append(out.unpartition())
    return True


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(3)
    sink = Sink(accepting=False)  # the consumer starts up late
    for batch_id in range(2):
        batch = rng.standard_normal(N).astype(np.float32)
        for attempt in range(MAX_ATTEMPTS):
            if publish(batch_id, batch, sink, stream):
                break
            sink.reopen()
        else:
            raise RuntimeError(f"batch {batch_id} not published")
    norms = [float(np.linalg.norm(t.to_numpy(stream))) for t in sink.items]
    print(f"published {len(sink.items)} batches (rejected {sink.rejected}), norms {norms}")


if __name__ == "__main__":
    main()
