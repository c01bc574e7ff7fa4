# fresh-expect: clean
"""A decode step captured once as a graph and replayed; results are read through the graph's value."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def residual(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


class DecodeStep:
    def __init__(self, n: int, stream) -> None:
        self.stream = stream
        self.out = tile.zeros((n,), f32).sync_on(stream).partition((128,))
        self.hidden = tile.ones((n,), f32).sync_on(stream)
        self.delta = tile.full((n,), 0.5, f32).sync_on(stream)

    def capture(self):
        op = residual(self.out, self.hidden, self.delta)
        graph = op.graph_on(self.stream)
        self.out, self.hidden, self.delta = graph.value
        return graph

    def result(self) -> np.ndarray:
        return self.out.to_numpy(self.stream)


def run(tokens: int) -> np.ndarray:
    stream = sk.Device.cpu().new_stream()
    step = DecodeStep(256, stream)
    graph = step.capture()
    for _ in range(tokens):
        graph.replay()
    stream.synchronize()
    return step.result()


if __name__ == "__main__":
    print(run(tokens=3)[:4])
