# fresh-expect: clean
# fresh-note: Karaoke pitch scoring that picks a scoring kernel with a match statement and launches it with the prepared launch looked up under the same name in a functools.cache'd dict of launches, so every brand matches its kernel.
"""Score sung pitch against the reference melody, frame by frame."""
from __future__ import annotations

import functools
from enum import Enum

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 2000


@simt.kernel
@simt.launch_contract(block=128)
def strict_score(sung: Slice[f32], ref: Slice[f32], score: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := score.get_mut(idx)) is not None:
        cents = abs(sung[i] - ref[i])
        o.set(f32(1.0) if cents < f32(25.0) else f32(0.0))


@simt.kernel
@simt.launch_contract(block=128)
def lenient_score(sung: Slice[f32], ref: Slice[f32], score: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := score.get_mut(idx)) is not None:
        cents = abs(sung[i] - ref[i])
        o.set(max(f32(0.0), f32(1.0) - cents / f32(100.0)))


class Mode(Enum):
    CONTEST = "contest"
    PARTY = "party"


@functools.cache
def launches(dev: sk.Device) -> dict[str, simt.PreparedLaunch]:
    cfg = simt.LaunchConfig1D.for_len(FRAMES, block=128)
    return {"strict": strict_score.prepare(cfg, dev), "lenient": lenient_score.prepare(cfg, dev)}


def score_take(mode: Mode, sung: sk.DeviceBuffer, ref: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream) -> float:
    out = sk.zeros(FRAMES, f32, stream)
    plans = launches(dev)
    match mode:
        case Mode.CONTEST:
            strict_score.launch(plans["strict"], stream, sung, ref, out)
        case Mode.PARTY:
            lenient_score.launch(plans["lenient"], stream, sung, ref, out)
    return 100.0 * float(out.to_numpy(stream).mean())


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(8)
    melody = np.repeat(rng.integers(0, 24, FRAMES // 50) * 100.0, 50).astype(np.float32)
    ref = sk.to_device(melody, stream)
    for singer, wobble in (("ana", 10.0), ("bo", 40.0), ("cy", 90.0)):
        sung = sk.to_device((melody + rng.normal(0.0, wobble, FRAMES)).astype(np.float32), stream)
        contest = score_take(Mode.CONTEST, sung, ref, dev, stream)
        party = score_take(Mode.PARTY, sung, ref, dev, stream)
        print(f"{singer}: contest {contest:5.1f}  party {party:5.1f}")


if __name__ == "__main__":
    main()
