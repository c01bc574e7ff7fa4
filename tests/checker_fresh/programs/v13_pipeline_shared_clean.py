# fresh-expect: clean
# fresh-note: -
"""Multi-stage tile pipeline: one shared input feeds two branches, zipped and captured as a graph."""
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 512


@tile.kernel
def add(out: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) + tile.load_like(y, out))


@tile.kernel
def square(out: Partition[f32], x: Tensor[f32]) -> None:
    tx = tile.load_like(x, out)
    out.store(tx * tx)


def fresh_out() -> sk.DeviceOp:
    return tile.zeros((N,), f32).partition((128,))


class Pipeline:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream

    def build(self, host: np.ndarray) -> sk.DeviceOp:
        x = tile.from_numpy(host).shared()
        x.sync_on(self.stream)  # a shared op runs once; graph capture needs it done
        branch_a = add(fresh_out(), x, tile.ones((N,), f32))
        branch_b = square(fresh_out(), x)
        return branch_a.first().zip(branch_b.first())

    def run(self, host: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        graph = self.build(host).graph_on(self.stream)
        graph.replay()
        a_part, b_part = graph.value
        return a_part.to_numpy(self.stream), b_part.to_numpy(self.stream)


pipe = Pipeline(sk.Device.cpu().new_stream())
a, b = pipe.run(np.arange(N, dtype=np.float32))
print(a[:3], b[:3])
