# fresh-expect: E0499 at line 72
# fresh-note: make_bus hands back a dict whose "left" and "right" entries are the same buffer for a mono bus, and the pan launch writes both entries as two mutable outputs.
"""A tiny additive synthesiser: render a few sine voices and pan them onto an output bus.

Each voice is rendered by one SIMT kernel (phase-accumulated sine with an attack/release envelope), then mixed
onto the bus's channels by a pan kernel.  The bus layout (mono preview or stereo) is chosen when the bus is made.
"""

from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

RATE = 8000
FRAMES = 2048
VOICES = [(220.0, -0.6), (277.18, 0.0), (329.63, 0.6)]


@simt.kernel
@simt.launch_contract(block=256)
def sine_voice(out: DisjointSlice[f32], freq: f32, rate: f32, attack: f32, amp: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        t = f32(i) / rate
        env = min(t / attack, f32(1.0))
        o.set(amp * env * math.sin(f32(2.0 * math.pi) * freq * t))


@simt.kernel
@simt.launch_contract(block=256)
def pan_mix(voice: Slice[f32], dry_l: Slice[f32], dry_r: Slice[f32], gain_l: f32, gain_r: f32,
            left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (l := left.get_mut(idx)) is not None:
        l.set(dry_l[i] + gain_l * voice[i])
    j = thread.index_1d()
    if (r := right.get_mut(j)) is not None:
        r.set(dry_r[i] + gain_r * voice[i])


def make_bus(stream: sk.Stream, frames: int, channels: int) -> dict[str, sk.DeviceBuffer]:
    if channels == 1:
        mono = sk.zeros(frames, f32, stream)
        return {"left": mono, "right": mono}
    return {"left": sk.zeros(frames, f32, stream), "right": sk.zeros(frames, f32, stream)}


def pan_gains(pan: float) -> tuple[float, float]:
    angle = (pan + 1.0) * math.pi / 4.0
    return math.cos(angle), math.sin(angle)


def render(dev: sk.Device, stream: sk.Stream, channels: int) -> dict[str, np.ndarray]:
    cfg = simt.LaunchConfig1D.for_len(FRAMES, block=256)
    voice_launch = sine_voice.prepare(cfg, dev)
    pan_launch = pan_mix.prepare(cfg, dev)
    bus = make_bus(stream, FRAMES, channels)
    for freq, pan in VOICES:
        voice = sk.zeros(FRAMES, f32, stream)
        sine_voice.launch(voice_launch, stream, voice, freq, float(RATE), 0.05, 0.3)
        dry_l = sk.to_device(bus["left"].to_numpy(stream), stream)
        dry_r = sk.to_device(bus["right"].to_numpy(stream), stream)
        gl, gr = pan_gains(pan)
        pan_mix.launch(pan_launch, stream, voice, dry_l, dry_r, gl, gr, bus["left"], bus["right"])
    return {name: buf.to_numpy(stream) for name, buf in bus.items()}


def peak_db(x: np.ndarray) -> float:
    return 20.0 * math.log10(max(float(np.abs(x).max()), 1e-9))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    preview = render(dev, stream, channels=1)
    print(f"mono preview peak {peak_db(preview['left']):.1f} dBFS")
    stereo = render(dev, stream, channels=2)
    width = float(np.mean(np.abs(stereo["left"] - stereo["right"])))
    print(f"stereo peaks L {peak_db(stereo['left']):.1f} dBFS, R {peak_db(stereo['right']):.1f} dBFS, width {width:.3f}")


if __name__ == "__main__":
    main()
