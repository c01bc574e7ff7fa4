# fresh-expect: clean
# fresh-note: Streaming energy VAD with hangover smoothing whose scratch arena is carved with chained split_at calls, so energy, raw flags and smoothed flags are provably disjoint views.
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

RATE = 8000
N = 768
WIN, HOP = 64, 32
FRAMES = (N - WIN) // HOP + 1
HANGOVER = 3


@simt.kernel
@simt.launch_contract(block=64, requires=("len(x) >= (len(e) - 1) * hop + win",))
def frame_energy(x: Slice[f32], e: DisjointSlice[f32], win: u32, hop: u32) -> None:
    idx = thread.index_1d()
    f = idx.get()
    if f < len(e) and (o := e.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(win):
            s = x[f * hop + k]
            acc += s * s
        o.set(f32(10.0) * math.log10(acc / f32(win) + f32(1e-10)))


@simt.kernel
@simt.launch_contract(block=64)
def threshold(e: Slice[f32], flags: DisjointSlice[f32], level_db: f32) -> None:
    idx = thread.index_1d()
    f = idx.get()
    if f < len(e) and (o := flags.get_mut(idx)) is not None:
        o.set(f32(1.0) if e[f] > level_db else f32(0.0))


@simt.kernel
@simt.launch_contract(block=64)
def hangover(flags: Slice[f32], smooth: DisjointSlice[f32], hold: u32) -> None:
    idx = thread.index_1d()
    f = idx.get()
    if f < len(flags) and (o := smooth.get_mut(idx)) is not None:
        on = flags[f]
        for k in range(1, hold + 1):
            if f >= k:
                on = max(on, flags[f - k])
        o.set(on)


class StreamingVAD:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.arena = sk.zeros(3 * FRAMES, f32, stream)
        cfg = simt.LaunchConfig1D.for_len(FRAMES, block=64)
        self.energy_launch = frame_energy.prepare(cfg, dev)
        self.threshold_launch = threshold.prepare(cfg, dev)
        self.hangover_launch = hangover.prepare(cfg, dev)
        self.noise_db = -40.0

    def chunk(self, pcm: np.ndarray) -> np.ndarray:
        energy, rest = self.arena.split_at(FRAMES)
        flags, smooth = rest.split_at(FRAMES)
        x = sk.to_device(pcm.astype(np.float32), self.stream)
        frame_energy.launch(self.energy_launch, self.stream, x, energy, WIN, HOP)
        e_host = energy.to_numpy(self.stream)
        self.noise_db = 0.9 * self.noise_db + 0.1 * float(np.percentile(e_host, 20))
        threshold.launch(self.threshold_launch, self.stream, energy, flags, self.noise_db + 8.0)
        hangover.launch(self.hangover_launch, self.stream, flags, smooth, HANGOVER)
        return smooth.to_numpy(self.stream) > 0.5


def chunks(rng: np.random.Generator, count: int):
    for c in range(count):
        t = (np.arange(N) + c * N) / RATE
        talk = 0.4 * np.sin(2 * np.pi * 210 * t) * (np.sin(2 * np.pi * 3 * t) > 0.3)
        yield 0.01 * rng.standard_normal(N) + (talk if c % 2 else 0.0)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    vad = StreamingVAD(dev, stream)
    for c, pcm in enumerate(chunks(np.random.default_rng(12), 4)):
        speech = vad.chunk(pcm)
        print(f"chunk {c}: {int(speech.sum()):2d}/{FRAMES} frames voiced (noise floor {vad.noise_db:.1f} dB)")


if __name__ == "__main__":
    main()
