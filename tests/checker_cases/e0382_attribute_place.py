"""Places include dotted attribute paths: `self.out` is moved by the launch."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    tx = tile.load_like(x, z)
    ty = tile.load_like(y, z)
    z.store(tx + ty)


class Runner:
    def __init__(self, out: Partition[f32]) -> None:
        self.out = out

    def step(self, x: Tensor[f32], y: Tensor[f32]) -> None:
        op = add(self.out, x, y)
        print(op)
        print(self.out.unpartition())  # expect: E0382


def main() -> None:
    stream = sk.Device(0).new_stream()
    x = tile.ones((1024,), f32)
    y = tile.ones((1024,), f32)
    z = tile.zeros((1024,), f32).partition((128,))
    runner = Runner(z)
    runner.step(x, y)
    print(stream)
