# fresh-expect: W0003 at line 23
"""A user expects `then` to attach a logging hook to an already-synced op; the chained op it returns is dropped
as a statement, so the normalisation kernel in it never runs."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


class Trainer:
    def __init__(self, stream, n: int) -> None:
        self.stream = stream
        self.n = n
        self.history: list[float] = []

    def step(self) -> None:
        op = double(tile.zeros((self.n,), f32).partition((64,)), tile.ones((self.n,), f32))
        op.then(lambda v: self.history.append(float(v[0].to_numpy(self.stream)[0])))  # BUG

    def fit(self, epochs: int) -> list[float]:
        for _ in range(epochs):
            self.step()
        return self.history


if __name__ == "__main__":
    print(Trainer(sk.Device.cpu().new_stream(), 128).fit(2))
