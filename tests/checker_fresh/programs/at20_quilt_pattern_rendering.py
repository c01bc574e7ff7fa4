# fresh-expect: E0505 at line 53
# fresh-note: Quilt pattern renderer that dyes fabric swatches with a queued async SIMT launch and stitches them into the quilt top with a tile kernel; the stitch step moves the swatch buffer into the tile launch before the pending dye op has been flushed.
"""Quilting: dye a palette of swatches, then stitch them into a block-pattern quilt top."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 32
BLOCK_PX = 8


@simt.kernel
@simt.launch_contract(block=BLOCK)
def dye(base: Slice[f32], fade: Slice[f32], swatch: DisjointSlice[f32], wash_cycles: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := swatch.get_mut(idx)) is not None:
        o.set(base[i] * (f32(1.0) - fade[i]) ** wash_cycles)


@tile.kernel
def stitch(top: Partition[f32], swatches: Tensor[f32], layout: Tensor[i32]) -> None:
    r = tile.bid(0)
    c = tile.bid(1)
    which = layout.load((r, c), (1, 1))
    shade = tile.gather(swatches, tile.reshape(which, (1,)))
    top.store(tile.broadcast_to(tile.reshape(shade, (1, 1)), top.tile_shape))


class QuiltTop:
    def __init__(self, dev: sk.Device, stream: sk.Stream, layout: np.ndarray, palette: np.ndarray) -> None:
        self.stream = stream
        self.layout = layout.astype(np.int32)
        self.palette = sk.to_device(palette.astype(np.float32), stream)
        self.swatch = sk.zeros(palette.size, f32, stream)
        self.inflight: dict[str, sk.DeviceOp] = {}
        self._prepared = dye.prepare(simt.LaunchConfig1D.for_len(palette.size, block=BLOCK), dev)

    def dye_swatches(self, fade: np.ndarray, wash_cycles: float) -> None:
        fade_buf = sk.to_device(fade.astype(np.float32), self.stream)
        self.inflight["dye"] = dye.launch_async(self._prepared, self.palette, fade_buf, self.swatch, wash_cycles)

    def stitch_top(self) -> np.ndarray:
        rows, cols = self.layout.shape
        top = tile.zeros((rows * BLOCK_PX, cols * BLOCK_PX), f32).partition((BLOCK_PX, BLOCK_PX))
        op = stitch(top, self.swatch, tile.from_numpy(self.layout))
        top, self.swatch, _ = op.sync_on(self.stream)
        return top.unpartition().to_numpy(self.stream)

    def flush(self) -> None:
        while self.inflight:
            _, op = self.inflight.popitem()
            op.sync_on(self.stream)

    def render(self, fade: np.ndarray, wash_cycles: float) -> np.ndarray:
        self.dye_swatches(fade, wash_cycles)
        image = self.stitch_top()
        self.flush()
        return image


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    palette = np.array([0.92, 0.15, 0.55, 0.78, 0.33, 0.66], np.float32)
    rows, cols = 6, 6
    layout = (np.add.outer(np.arange(rows), np.arange(cols)) % palette.size).astype(np.int32)
    quilt = QuiltTop(dev, stream, layout, palette)
    fade = np.linspace(0.01, 0.06, palette.size)
    for washes in (0.0, 10.0):
        image = quilt.render(fade, washes)
        print(f"after {washes:.0f} washes: contrast {image.max() - image.min():.3f}, mean {image.mean():.3f}")


if __name__ == "__main__":
    main()
