# fresh-expect: W0003 at line 35
"""A pre-norm block in a small model class: layer norm on the tile track, then a residual add."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

D = 128


@tile.kernel
def center(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    out.store(t - tile.sum(t, 0) / 128.0)


@tile.kernel
def residual(out: Partition[f32], x: Tensor[f32], h: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) + tile.load_like(h, out))


class PreNormBlock:
    def __init__(self, stream) -> None:
        self.stream = stream
        self.debug = True

    def forward(self, x):
        h = tile.zeros((D,), f32).partition((D,))
        h, x = center(h, x).sync_on(self.stream)
        out = tile.zeros((D,), f32).partition((D,))
        if self.debug:
            residual(out, x, h.unpartition())  # forgot .sync_on(): nothing runs
            return None
        out, x, h = residual(out, x, h.unpartition()).sync_on(self.stream)
        return out.unpartition()


if __name__ == "__main__":
    dev = sk.Device.cpu()
    block = PreNormBlock(dev.new_stream())
    print(block.forward(tile.from_numpy(np.arange(D, dtype=np.float32))))
