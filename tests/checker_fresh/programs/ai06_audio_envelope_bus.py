# fresh-expect: clean
# fresh-note: make_bus hands back a dict whose "left" and "right" entries are the two split_at halves of one planar buffer, so the pan launch writes two disjoint outputs.
"""A small plucked-string renderer: decaying sine partials panned onto a planar stereo bus.

Each partial is rendered by one SIMT kernel with an exponential decay envelope, then mixed onto the bus by a pan
kernel.  The bus keeps both channels in one planar allocation (left half, then right half), the layout a file
writer wants.
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
PARTIALS = [(196.0, -0.4, 1.0), (392.0, 0.1, 0.5), (588.0, 0.5, 0.25)]


@simt.kernel
@simt.launch_contract(block=256)
def decaying_partial(out: DisjointSlice[f32], freq: f32, rate: f32, decay: f32, amp: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        t = f32(i) / rate
        env = amp * math.exp(-decay * t)
        o.set(env * math.sin(f32(2.0 * math.pi) * freq * t))


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


def make_bus(stream: sk.Stream, frames: int) -> dict[str, sk.DeviceBuffer]:
    planar = sk.zeros(2 * frames, f32, stream)
    left, right = planar.split_at(frames)
    return {"left": left, "right": right, "planar": planar}


def pan_gains(pan: float) -> tuple[float, float]:
    angle = (pan + 1.0) * math.pi / 4.0
    return math.cos(angle), math.sin(angle)


def render(dev: sk.Device, stream: sk.Stream, decay: float) -> np.ndarray:
    cfg = simt.LaunchConfig1D.for_len(FRAMES, block=256)
    partial_launch = decaying_partial.prepare(cfg, dev)
    pan_launch = pan_mix.prepare(cfg, dev)
    bus = make_bus(stream, FRAMES)
    for freq, pan, amp in PARTIALS:
        voice = sk.zeros(FRAMES, f32, stream)
        decaying_partial.launch(partial_launch, stream, voice, freq, float(RATE), decay * freq / 196.0, 0.3 * amp)
        dry_l = sk.to_device(bus["left"].to_numpy(stream), stream)
        dry_r = sk.to_device(bus["right"].to_numpy(stream), stream)
        gl, gr = pan_gains(pan)
        pan_mix.launch(pan_launch, stream, voice, dry_l, dry_r, gl, gr, bus["left"], bus["right"])
    return bus["planar"].to_numpy(stream).reshape(2, FRAMES)


def peak_db(x: np.ndarray) -> float:
    return 20.0 * math.log10(max(float(np.abs(x).max()), 1e-9))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    for decay in (3.0, 8.0):
        stereo = render(dev, stream, decay)
        tail = float(np.abs(stereo[:, -256:]).mean())
        print(f"decay {decay:4.1f}/s: peaks L {peak_db(stereo[0]):.1f} dBFS, R {peak_db(stereo[1]):.1f} dBFS, "
              f"tail level {tail:.4f}")


if __name__ == "__main__":
    main()
