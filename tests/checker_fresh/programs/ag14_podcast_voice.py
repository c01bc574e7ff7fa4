# fresh-expect: clean
# podcast voice chain: an async noise gate chained with `then` into a compressor, synced once per segment
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SEGMENT = 2048


@simt.kernel
@simt.launch_contract(block=256)
def noise_gate(x: Slice[f32], gated: DisjointSlice[f32], threshold: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := gated.get_mut(idx)) is not None:
        v = x[i]
        o.set(v if abs(v) >= threshold else f32(0.0))


@simt.kernel
@simt.launch_contract(block=256)
def compressor(x: Slice[f32], out: DisjointSlice[f32], knee: f32, ratio: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = x[i]
        mag = abs(v)
        if mag > knee:
            mag = knee + (mag - knee) / ratio
        o.set(mag if v >= 0.0 else -mag)


class VoiceChain:
    def __init__(self, dev: sk.Device, stream: sk.Stream, threshold: float, knee: float, ratio: float) -> None:
        cfg = simt.LaunchConfig1D.for_len(SEGMENT, block=256)
        self.stream = stream
        self.gate_launch = noise_gate.prepare(cfg, dev)
        self.comp_launch = compressor.prepare(cfg, dev)
        self.threshold, self.knee, self.ratio = threshold, knee, ratio
        self.gated = sk.zeros(SEGMENT, f32, stream)
        self.out = sk.zeros(SEGMENT, f32, stream)

    def process(self, segment: np.ndarray) -> np.ndarray:
        x = sk.to_device(segment, self.stream)
        gate_op = noise_gate.launch_async(self.gate_launch, x, self.gated, self.threshold)
        chain = gate_op.then(
            lambda done: compressor.launch_async(self.comp_launch, done[1], self.out, self.knee, self.ratio)
        )
        chain.sync_on(self.stream)
        return self.out.to_numpy(self.stream)


def record(seconds: float, rate: int, rng: np.random.Generator) -> np.ndarray:
    t = np.arange(int(seconds * rate), dtype=np.float32) / rate
    speech = np.sin(2 * np.pi * 180 * t) * (np.sin(2 * np.pi * 2.5 * t) > 0.2) * 0.9
    hiss = rng.normal(0.0, 0.01, t.size)
    return (speech + hiss).astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    chain = VoiceChain(dev, stream, threshold=0.03, knee=0.5, ratio=4.0)
    audio = record(0.3, 16_000, np.random.default_rng(8))
    segments = (audio[i : i + SEGMENT] for i in range(0, len(audio) - SEGMENT + 1, SEGMENT))
    processed = [chain.process(seg) for seg in segments]
    result = np.concatenate(processed)
    silent = float((result == 0.0).mean())
    print(f"{len(processed)} segments, {silent:.1%} gated to silence, peak {np.abs(result).max():.3f}")
    assert np.abs(result).max() <= 0.5 + (0.9 - 0.5) / 4.0 + 0.05


if __name__ == "__main__":
    main()
