# fresh-expect: E0382 at line 37
# fresh-note: found since: functools.reduce(f, items, init) of a function of the module runs acc = f(acc, item) per item with f's call summary, so the helper's move of its accumulator moves init (sum_frames moves total)
"""Sum a handful of sensor frames into one accumulator tensor with functools.reduce."""
from functools import reduce

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 256


@tile.kernel
def accumulate(acc: Partition[f32], frame: Tensor[f32]) -> None:
    acc.store(acc.load() + tile.load_like(frame, acc))


def sum_frames(stream: sk.Stream, acc: tile.Partition, frames: list) -> tile.Partition:
    def step(part: tile.Partition, frame_np: np.ndarray) -> tile.Partition:
        part, _frame = accumulate(part, tile.from_numpy(frame_np)).sync_on(stream)
        return part

    return reduce(step, frames, acc)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 3000
    rng = np.random.default_rng(11)
    frames = [rng.standard_normal(n).astype(np.float32) for _ in range(5)]
    total = tile.zeros((n,), f32).partition((TILE,)).sync_on(stream)
    sum_frames(stream, total, frames)
    got = total.unpartition().to_numpy(stream)
    np.testing.assert_allclose(got, np.sum(frames, axis=0), rtol=1e-5, atol=1e-5)
    print("accumulated", len(frames), "frames; mean", float(got.mean()))


if __name__ == "__main__":
    main()
