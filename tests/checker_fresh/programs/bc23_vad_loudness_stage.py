# fresh-expect: clean
# fresh-note: Streaming voice-activity-detection stage that pre-emphasises each audio frame with a `launch_async` op kept in a list attribute and computes the frame energy with a tile kernel; the energy method drains the pending ops before the tile launch moves the frame buffer.
"""Voice activity detection in front of a streaming ASR model: each 20 ms frame is pre-emphasised for the
recogniser (asynchronously) and its energy decides whether the frame is speech.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

FRAME = 320  # 20 ms at 16 kHz
TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def pre_emphasis(x: Slice[f32], y: DisjointSlice[f32], coeff: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    prev = x[i - 1] if i > 0 else f32(0.0)
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] - coeff * prev)


@tile.kernel
def frame_energy(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    out.store(t * t)


class VoiceActivityStage:
    def __init__(self, dev: sk.Device, stream: sk.Stream, threshold_db: float = -30.0) -> None:
        self.stream = stream
        self.threshold_db = threshold_db
        self.prep = pre_emphasis.prepare(simt.LaunchConfig1D.for_len(FRAME, block=64), dev)
        self.frame = sk.zeros(FRAME, f32, stream)
        self.inflight: list[sk.DeviceOp] = []
        self.emphasised: list[sk.DeviceBuffer] = []

    def submit(self, samples: np.ndarray) -> None:
        self.frame = sk.to_device(samples.astype(np.float32), self.stream)
        out = sk.zeros(FRAME, f32, self.stream)
        self.inflight.append(pre_emphasis.launch_async(self.prep, self.frame, out, 0.97))
        self.emphasised.append(out)

    def drain(self) -> None:
        while self.inflight:
            self.inflight.pop(0).sync_on(self.stream)

    def energy_db(self) -> float:
        self.drain()
        parts = tile.zeros((FRAME,), f32).partition((TILE,))
        parts, self.frame = frame_energy(parts, self.frame).sync_on(self.stream)
        return float(10.0 * np.log10(parts.unpartition().to_numpy(self.stream).mean() + 1e-12))

    def run(self, frames: Iterator[np.ndarray]) -> Iterator[tuple[bool, np.ndarray]]:
        for samples in frames:
            self.submit(samples)
            speech = self.energy_db() > self.threshold_db
            yield speech, self.emphasised.pop().to_numpy(self.stream)


def microphone(n_frames: int) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(23)
    for k in range(n_frames):
        noise = 0.003 * rng.standard_normal(FRAME)
        voice = 0.2 * np.sin(np.arange(FRAME) * 0.3) if k % 3 == 1 else 0.0
        yield noise + voice


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    vad = VoiceActivityStage(dev, stream)
    flags = [speech for speech, _audio in vad.run(microphone(6))]
    print("speech frames:", flags)


if __name__ == "__main__":
    main()
