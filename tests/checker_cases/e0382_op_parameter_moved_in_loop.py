"""The twin of `clean_shared_op_parameter_read_in_loop`: a parameter annotated `sk.DeviceOp` (not shared) given to a
launch in a loop is moved by the first iteration, so the second one uses a moved value (E0382)."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256


@tile.kernel
def scale(out: Partition[f32], x: Tensor[f32], price: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * tile.load_like(price, out))


def run_week(x: Tensor[f32], stream: sk.Stream, price: sk.DeviceOp[Tensor[f32]]) -> float:
    total = 0.0
    for _day in range(3):
        out, x, _ = scale(tile.zeros((N,), f32).partition((64,)), x, price).sync_on(stream)  # expect: E0382
        total += float(out.unpartition().to_numpy(stream).sum())
    return total


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    price = tile.full((N,), 0.5, f32)
    print(run_week(tile.ones((N,), f32).sync_on(stream), stream, price))


if __name__ == "__main__":
    main()
