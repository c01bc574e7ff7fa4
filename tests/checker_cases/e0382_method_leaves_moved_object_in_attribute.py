"""A method that binds an attribute to a new tensor and then moves it into a tile launch leaves the attribute
holding a moved value: a later method reading it (`report` after `run`) uses a moved value, as the runtime finds.
The move is labelled inside the method that made it."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


class Stage:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream

    def run(self) -> None:
        self.mask = tile.ones((N,), f32).sync_on(self.stream)
        op = add(tile.zeros((N,), f32).partition((16,)), self.mask, tile.ones((N,), f32))
        out, _mask, _y = op.sync_on(self.stream)
        print(out.unpartition().to_numpy(self.stream)[:2])

    def report(self) -> None:
        print(self.mask.to_numpy(self.stream)[:2])  # expect: E0382


def main() -> None:
    stage = Stage(sk.Device.cpu().new_stream())
    stage.run()
    stage.report()


if __name__ == "__main__":
    main()
