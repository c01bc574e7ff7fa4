"""A helper given a dict of tensors moves `state["x"]` into a tile launch and keeps what `sync_on` hands back to
itself; the caller then launches with `state["x"]` again (E0382, as the runtime's `UseAfterMoveError` says): a
callee's move of an item of its parameter moves the caller's item under that key."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def step(state: dict[str, sk.DeviceOp], stream: sk.Stream) -> None:
    z = tile.zeros((256,), f32).partition((128,))
    z, x = scale(z, state["x"]).sync_on(stream)
    print(z.unpartition().to_numpy(stream)[:2], x.to_numpy(stream)[:2])


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    state = {"x": tile.ones((256,), f32), "y": tile.ones((256,), f32)}
    step(state, stream)
    z = tile.zeros((256,), f32).partition((128,))
    z, y = scale(z, state["y"]).sync_on(stream)
    z, x = scale(z, state["x"]).sync_on(stream)  # expect: E0382
    print(z.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
