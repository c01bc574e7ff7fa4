# fresh-expect: clean
"""Clean: an inference step is captured once with `graph_on` and replayed; the results are read from the graph's
`.value`, never from the consumed op."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


class CapturedStep:
    def __init__(self, stream, n: int) -> None:
        op = double(tile.zeros((n,), f32).partition((64,)), tile.arange(n, f32))
        self.graph = op.graph_on(stream)
        self.stream = stream

    def __call__(self) -> float:
        self.graph.replay()
        z, _ = self.graph.value
        return float(z.to_numpy(self.stream)[1])


if __name__ == "__main__":
    step = CapturedStep(sk.Device.cpu().new_stream(), 128)
    print([step() for _ in range(3)])
