"""Inside a `try`, each statement is one step for the exception edges: the launch on the first line moves `z`,
the `raise` on a later line leaves the body before `sync_on` hands `z` back, so the handler's way out reaches
`z.unpartition()` with `z` moved: E0382, as the runtime raises (`UseAfterMoveError`)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def run(stream: sk.Stream, budget: int) -> float:
    x = tile.ones((128,), f32).sync_on(stream)
    z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    try:
        op = scale(z, x)
        if budget < 1:
            raise ValueError("no budget left")
        z, x = op.sync_on(stream)
    except ValueError:
        pass
    flat = z.unpartition()  # expect: E0382
    return float(flat.to_numpy(stream).sum())


if __name__ == "__main__":
    print(run(sk.Device.cpu().new_stream(), 0))
