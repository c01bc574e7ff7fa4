"""The clean twin of `e0382_argument_of_multi_line_call`: the first launch's values are taken back from
`sync_on`, so the launch spread over four lines passes tensors nobody moved."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = tile.ones((N,), f32)
    y = tile.ones((N,), f32)
    first, x, y = add(tile.zeros((N,), f32).partition((16,)), x, y).sync_on(stream)
    second, _, _ = add(
        tile.zeros((N,), f32).partition((16,)),
        x,
        y,
    ).sync_on(stream)
    print(first.unpartition().to_numpy(stream)[:2], second.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
