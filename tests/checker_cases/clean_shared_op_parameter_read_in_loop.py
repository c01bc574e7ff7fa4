"""A parameter annotated `sk.SharedDeviceOp` is a shared op: every launch of the loop reads it and none moves it,
whatever the caller passed (a `SharedDeviceOp` is only ever made by `.shared()`)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256


@tile.kernel
def scale(out: Partition[f32], x: Tensor[f32], price: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * tile.load_like(price, out))


def run_week(x: Tensor[f32], stream: sk.Stream, price: sk.SharedDeviceOp) -> float:
    total = 0.0
    for _day in range(3):
        out, x, _ = scale(tile.zeros((N,), f32).partition((64,)), x, price).sync_on(stream)
        total += float(out.unpartition().to_numpy(stream).sum())
    return total


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    price = tile.full((N,), 0.5, f32).shared()
    print(run_week(tile.ones((N,), f32).sync_on(stream), stream, price))


if __name__ == "__main__":
    main()
