# fresh-expect: E0499 at line 80
# fresh-known-false-alarm: cli,mypy false E0499 at 82: the next `launch_async` over the same buffer, a second conflict with the one pending op (rustc reports each), which the runtime never reaches
# fresh-note: `[sk.zeros(...)] * 2` puts one buffer in both ping-pong slots, so clearing the "other" flag buffer for the next segment writes the buffer the previous segment's pending gate launch is still writing.
"""Streaming voice-activity detection: per-frame energy gating on the device, one segment in flight while the
host applies hangover smoothing to the previous one.  Flag buffers are ping-ponged between segments."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import DisjointSlice, Slice, thread

FRAME = 80  # 10 ms at 8 kHz
FRAMES_PER_SEGMENT = 25
HANGOVER = 3


@simt.kernel
@simt.launch_contract(block=32, requires=("len(samples) >= len(flags) * frame_len",))
def energy_gate(samples: Slice[f32], flags: DisjointSlice[i32], frame_len: u32, threshold: f32) -> None:
    idx = thread.index_1d()
    f = idx.get()
    if (o := flags.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(frame_len):
            s = samples[f * frame_len + k]
            acc += s * s
        voiced = i32(0)
        if acc > threshold * f32(frame_len):
            voiced = i32(1)
        o.set(voiced)


@simt.kernel
@simt.launch_contract(block=32)
def fill_i32(flags: DisjointSlice[i32], value: i32) -> None:
    idx = thread.index_1d()
    if (o := flags.get_mut(idx)) is not None:
        o.set(value)


def hangover(flags: np.ndarray, frames: int) -> np.ndarray:
    out = flags.copy()
    run = 0
    for k, v in enumerate(flags):
        if v == 1:
            run = frames
        elif run > 0:
            out[k] = 1
            run -= 1
    return out


class StreamingVad:
    def __init__(self, dev: sk.Device, threshold: float) -> None:
        self.stream = dev.new_stream()
        self.threshold = threshold
        cfg = simt.LaunchConfig1D.for_len(FRAMES_PER_SEGMENT, block=32)
        self.prep_gate = energy_gate.prepare(cfg, dev)
        self.prep_fill = fill_i32.prepare(cfg, dev)
        self.flag_bufs = [sk.zeros(FRAMES_PER_SEGMENT, i32, self.stream)] * 2  # ping-pong
        self.segments_done = 0

    def _collect(self, op: sk.DeviceOp, flags: sk.DeviceBuffer) -> np.ndarray:
        op.sync_on(self.stream)
        self.segments_done += 1
        return hangover(flags.to_numpy(self.stream), HANGOVER)

    def stream_flags(self, segments: Iterable[np.ndarray]) -> Iterator[np.ndarray]:
        slots = itertools.cycle(self.flag_bufs)
        pending: tuple[sk.DeviceOp, sk.DeviceBuffer] | None = None
        for seg in segments:
            flags = next(slots)
            fill_i32.launch(self.prep_fill, self.stream, flags, -1)
            samples = sk.to_device(seg.astype(np.float32), self.stream)
            op = energy_gate.launch_async(self.prep_gate, samples, flags, FRAME, self.threshold)
            if pending is not None:
                yield self._collect(*pending)
            pending = (op, flags)
        if pending is not None:
            yield self._collect(*pending)


def synth_speech(segments: int, rng: np.random.Generator) -> np.ndarray:
    n = segments * FRAMES_PER_SEGMENT * FRAME
    t = np.arange(n) / 8000.0
    envelope = (np.sin(2 * np.pi * 1.3 * t) > 0.3).astype(np.float32)
    return (envelope * np.sin(2 * np.pi * 180 * t) * 0.5 + 0.01 * rng.standard_normal(n)).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    rng = np.random.default_rng(5)
    audio = synth_speech(4, rng)
    segments = np.split(audio, 4)
    vad = StreamingVad(dev, threshold=0.01)
    flags = np.concatenate(list(vad.stream_flags(segments)))
    energy = (audio.reshape(-1, FRAME) ** 2).mean(axis=1)
    raw = (energy > 0.01).astype(np.int32)
    want = np.concatenate([hangover(r, HANGOVER) for r in np.split(raw, 4)])
    np.testing.assert_array_equal(flags, want)
    print(f"vad: {vad.segments_done} segments, {int(flags.sum())}/{flags.size} frames voiced")


if __name__ == "__main__":
    main()
