"""A method that, on one path, moves the attribute into a tile launch and rebinds it to the tensor the launch
hands back, then reads the attribute: the read is of the handed-back tensor on that path and of the caller's on the
other, so the caller may read the attribute again after the call."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def decay(out: Partition[f32], old: Tensor[f32]) -> None:
    out.store(tile.load_like(old, out) * 0.5)


class Field:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.trail = tile.full((N,), 1.0, f32).sync_on(stream)
        self.stale = False

    def snapshot(self) -> np.ndarray:
        if self.stale:
            out = tile.zeros((N,), f32).partition((16,))
            out, _old = decay(out, self.trail).sync_on(self.stream)
            self.trail = out.unpartition()
            self.stale = False
        return self.trail.to_numpy(self.stream)


def main() -> None:
    field = Field(sk.Device.cpu().new_stream())
    for _ in range(3):
        field.stale = True
        print(field.snapshot()[:2])
    print(field.trail.to_numpy(field.stream)[:2])


if __name__ == "__main__":
    main()
