# fresh-expect: clean
"""A generator runs a warm-up schedule: each step takes the tensors in and yields the loss value."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def decay(out: Partition[f32], src: Tensor[f32], rate: f32) -> None:
    out.store(tile.load_like(src, out) * rate)


def schedule(stream: sk.Stream, src, rates: list[float]):
    for rate in rates:
        out = tile.zeros((256,), f32).partition((64,))
        out, src, _ = decay(out, src, rate).sync_on(stream)
        yield float(out.to_numpy(stream)[0])
        src = out.unpartition()


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    src = tile.ones((256,), f32)
    losses = [loss for loss in schedule(stream, src, [0.9, 0.8, 0.7])]
    print(losses)


if __name__ == "__main__":
    main()
