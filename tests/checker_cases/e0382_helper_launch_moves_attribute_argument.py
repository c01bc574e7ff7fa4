"""A helper that hands its `*inputs` to a tile launch moves them: called with an attribute of a parameter the
checker knows nothing of (`frames.mask` of `frames: Any`), the launch tells it is a device value, so a later use
of `frames.mask` is a use after move, as the runtime finds."""

from dataclasses import dataclass
from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


@dataclass
class Frames:
    mask: Any


def stage(kernel: Any, stream: sk.Stream, *inputs: Any) -> Any:
    out = tile.zeros((N,), f32).partition((16,))
    result = kernel(out, *inputs).sync_on(stream)
    return result[0].unpartition()


def edges(stream: sk.Stream, frames: Any) -> None:
    edge = stage(double, stream, frames.mask)
    print(edge.to_numpy(stream)[:2])
    print(frames.mask.to_numpy(stream)[:2])  # expect: E0382


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    edges(stream, Frames(tile.ones((N,), f32).sync_on(stream)))


if __name__ == "__main__":
    main()
