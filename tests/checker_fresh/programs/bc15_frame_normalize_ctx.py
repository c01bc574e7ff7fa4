# fresh-expect: E0502 at line 58
# fresh-note: Vision-language request preprocessing: a `@contextmanager` starts the pixel normalisation with `launch_async`, yields the output buffer and syncs the op in its `finally`, so the host can tokenize the prompt meanwhile. Bug: inside the `with` block the code reads the normalised buffer with `to_numpy` for a debug statistic while the pending op still writes it (E0502).
"""Preprocessing for a vision-language model server: the image is normalised on the device while the host
tokenizes the text prompt, then both go to the encoder.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PIXELS = 3 * 16 * 16
MEAN, STD = 0.48, 0.27
log = logging.getLogger("vlm.preprocess")


@simt.kernel
@simt.launch_contract(block=256)
def normalize(raw: Slice[f32], out: DisjointSlice[f32], mean: f32, inv_std: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((raw[i] / 255.0 - mean) * inv_std)


@contextmanager
def normalizing(prep: simt.PreparedLaunch, raw: sk.DeviceBuffer, out: sk.DeviceBuffer,
                stream: sk.Stream) -> Iterator[sk.DeviceBuffer]:
    op = normalize.launch_async(prep, raw, out, MEAN, 1.0 / STD)
    try:
        yield out
    finally:
        op.sync_on(stream)


def tokenize(prompt: str) -> list[int]:
    return [hash(word) % 32000 for word in prompt.lower().split()]


class Preprocessor:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prep = normalize.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=256), dev)

    def __call__(self, image: np.ndarray, prompt: str) -> tuple[np.ndarray, list[int]]:
        raw = sk.to_device(image.astype(np.float32).ravel(), self.stream)
        pixels = sk.zeros(PIXELS, f32, self.stream)
        with normalizing(self.prep, raw, pixels, self.stream) as ready:
            ids = tokenize(prompt)
            stats = ready.to_numpy(self.stream)
            log.debug("pixel range %.3f..%.3f, %d prompt tokens", stats.min(), stats.max(), len(ids))
        return pixels.to_numpy(self.stream).reshape(3, 16, 16), ids


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    dev = sk.Device.default()
    stream = dev.new_stream()
    pre = Preprocessor(dev, stream)
    rng = np.random.default_rng(12)
    for prompt in ("describe the image", "what colour is the car"):
        image = rng.integers(0, 256, (3, 16, 16))
        pixels, ids = pre(image, prompt)
        print(f"{prompt!r}: pixels mean {pixels.mean():+.3f}, {len(ids)} tokens")


if __name__ == "__main__":
    main()
