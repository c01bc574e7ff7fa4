# fresh-expect: clean
# idiom: one device arena carved into per-image slice views by a bump allocator that advances by the image size
"""A grayscale image filter pipeline that keeps every image in one device allocation.

Allocating device memory per frame is slow, so the pipeline owns a single arena buffer and a bump
allocator hands out slice views of it: the input image, its horizontally blurred copy, a binary
mask and the inverted mask.  The arena is reset at the start of each frame.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def box_blur_rows(src: Slice[f32], dst: DisjointSlice[f32], width: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        col = i % width
        left = src[i - 1] if col > 0 else src[i]
        right = src[i + 1] if col < width - 1 else src[i]
        out.set((left + src[i] + right) / 3.0)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def threshold(src: Slice[f32], dst: DisjointSlice[f32], level: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        out.set(f32(1.0) if src[i] > level else f32(0.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def invert(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        out.set(1.0 - src[i])


class ImageArena:
    """A bump allocator over one device buffer; `alloc` returns a slice view for an image."""

    def __init__(self, capacity: int, stream: sk.Stream) -> None:
        self.buf = sk.zeros(capacity, f32, stream)
        self.top = 0

    def reset(self) -> None:
        self.top = 0

    def alloc(self, height: int, width: int) -> sk.DeviceBuffer[f32]:
        size = height * width
        start = self.top
        if start + size > len(self.buf):
            raise MemoryError("image arena exhausted")
        self.top += size
        return self.buf[start : start + size]


def process_frame(arena: ImageArena, frame: np.ndarray, prepared: dict[str, Any], stream: sk.Stream) -> np.ndarray:
    h, w = frame.shape
    arena.reset()
    image = arena.alloc(h, w)
    image.copy_from_numpy(frame.reshape(-1).astype(np.float32), stream)
    blurred = arena.alloc(h, w)
    mask = arena.alloc(h, w)
    inverted = arena.alloc(h, w)
    box_blur_rows.launch(prepared["blur"], stream, image, blurred, w)
    threshold.launch(prepared["threshold"], stream, blurred, mask, 0.5)
    invert.launch(prepared["invert"], stream, mask, inverted)
    return inverted.to_numpy(stream).reshape(h, w)


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    h, w = 24, 32
    config = simt.LaunchConfig1D.for_len(h * w, block=BLOCK)
    prepared = {
        "blur": box_blur_rows.prepare(config, device),
        "threshold": threshold.prepare(config, device),
        "invert": invert.prepare(config, device),
    }
    arena = ImageArena(4 * h * w, stream)
    rng = np.random.default_rng(7)
    for k in range(3):
        background = process_frame(arena, rng.random((h, w), dtype=np.float32), prepared, stream)
        print(f"frame {k}: background pixels {int(background.sum())} of {background.size}")


if __name__ == "__main__":
    main()
