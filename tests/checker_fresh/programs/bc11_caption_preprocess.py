# fresh-expect: clean
# fresh-note: Image-captioning request preprocessing with a `@contextmanager` that runs the resize-free pixel scaling as a pending `launch_async` op and syncs it in `finally`; inside the block the host only reads the op's input buffer (a shared borrow) and tokenizes, and the scaled output is read after the block.
"""Preprocessing for an image-captioning endpoint: the uploaded image is rescaled on the device while the host
prepares the decoder prompt and validates the upload.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PIXELS = 3 * 16 * 16


@simt.kernel
@simt.launch_contract(block=256)
def rescale(raw: Slice[f32], out: DisjointSlice[f32], lo: f32, inv_range: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((raw[i] - lo) * inv_range * 2.0 - 1.0)


@contextmanager
def rescaling(prep: simt.PreparedLaunch, raw: sk.DeviceBuffer, out: sk.DeviceBuffer,
              stream: sk.Stream) -> Iterator[sk.DeviceBuffer]:
    op = rescale.launch_async(prep, raw, out, 0.0, 1.0 / 255.0)
    try:
        yield raw
    finally:
        op.sync_on(stream)


def prompt_ids(style: str) -> list[int]:
    prefix = {"short": [101, 7], "detailed": [101, 7, 42, 42]}
    return prefix.get(style, [101])


class CaptionPreprocessor:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prep = rescale.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=256), dev)
        self.rejected = 0

    def __call__(self, image: np.ndarray, style: str) -> tuple[np.ndarray, list[int]] | None:
        raw = sk.to_device(image.astype(np.float32).ravel(), self.stream)
        pixels = sk.zeros(PIXELS, f32, self.stream)
        with rescaling(self.prep, raw, pixels, self.stream) as source:
            ids = prompt_ids(style)
            upload = source.to_numpy(self.stream)
            blank = float(upload.max() - upload.min()) < 1.0
        if blank:
            self.rejected += 1
            return None
        return pixels.to_numpy(self.stream).reshape(3, 16, 16), ids


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    pre = CaptionPreprocessor(dev, stream)
    rng = np.random.default_rng(21)
    uploads = [rng.integers(0, 256, (3, 16, 16)), np.full((3, 16, 16), 128), rng.integers(0, 256, (3, 16, 16))]
    for i, image in enumerate(uploads):
        result = pre(image, "short" if i % 2 else "detailed")
        if result is None:
            print(f"upload {i}: rejected (blank image)")
        else:
            pixels, ids = result
            print(f"upload {i}: pixels in [{pixels.min():.2f}, {pixels.max():.2f}], prompt {ids}")


if __name__ == "__main__":
    main()
