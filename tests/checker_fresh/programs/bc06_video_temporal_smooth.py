# fresh-expect: clean
# fresh-note: Streaming video denoiser (generator over frames) that blends each new frame into a running exponential average kept in a ping-pong pair of device buffers, swapping the pair after every frame so the kernel never reads the buffer it writes.
"""Temporal denoising for a low-light camera stream: every decoded frame is blended into an exponential
moving average of the previous ones, on the device, and the smoothed frame is handed to the encoder.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

H, W = 12, 16
PIXELS = H * W


@simt.kernel
@simt.launch_contract(block=64)
def blend(prev: Slice[f32], frame: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * frame[i] + (1.0 - alpha) * prev[i])


class TemporalSmoother:
    def __init__(self, dev: sk.Device, stream: sk.Stream, alpha: float = 0.25) -> None:
        self.stream = stream
        self.alpha = alpha
        self.front = sk.zeros(PIXELS, f32, stream)
        self.back = sk.zeros(PIXELS, f32, stream)
        self.prep = blend.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=64), dev)
        self.frames_seen = 0

    def push(self, frame: np.ndarray) -> np.ndarray:
        incoming = sk.to_device(frame.astype(np.float32).ravel(), self.stream)
        alpha = 1.0 if self.frames_seen == 0 else self.alpha
        blend.launch(self.prep, self.stream, self.front, incoming, self.back, alpha)
        self.front, self.back = self.back, self.front
        self.frames_seen += 1
        return self.front.to_numpy(self.stream).reshape(H, W)

    def run(self, frames: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
        for frame in frames:
            yield self.push(frame)


def camera(n: int, seed: int = 2) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    scene = np.linspace(0.0, 1.0, PIXELS, dtype=np.float32).reshape(H, W)
    for _ in range(n):
        yield scene + 0.2 * rng.standard_normal((H, W)).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    smoother = TemporalSmoother(dev, stream)
    scene = np.linspace(0.0, 1.0, PIXELS, dtype=np.float32).reshape(H, W)
    errors = [float(np.abs(out - scene).mean()) for out in smoother.run(camera(10))]
    print("mean abs error per frame:", [round(e, 3) for e in errors])


if __name__ == "__main__":
    main()
