# fresh-expect: E0502 at line 58
# guitar pedal chain streamed block by block: drive stage, then an async feedback-echo stage overlapped with the next block
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 1024
SAMPLE_RATE = 48_000


@simt.kernel
@simt.launch_contract(block=256)
def overdrive(raw: Slice[f32], out: DisjointSlice[f32], drive: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(math.tanh(drive * raw[i]) / math.tanh(drive))


@simt.kernel
@simt.launch_contract(block=256)
def echo(dry: Slice[f32], previous: Slice[f32], wet: DisjointSlice[f32], feedback: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := wet.get_mut(idx)) is not None:
        o.set(dry[i] + feedback * previous[i])


def pluck_blocks(freq: float, seconds: float):
    """Yield blocks of a decaying plucked note."""
    t = np.arange(int(seconds * SAMPLE_RATE), dtype=np.float32) / SAMPLE_RATE
    note = (np.sin(2 * np.pi * freq * t) * np.exp(-3.0 * t)).astype(np.float32)
    for start in range(0, len(note) - BLOCK + 1, BLOCK):
        yield note[start : start + BLOCK]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(BLOCK, block=256)
    drive_launch = overdrive.prepare(cfg, dev)
    echo_launch = echo.prepare(cfg, dev)

    dry = sk.zeros(BLOCK, f32, stream)
    previous = sk.zeros(BLOCK, f32, stream)
    wet = sk.zeros(BLOCK, f32, stream)
    rendered: list[np.ndarray] = []
    pending = None
    for block in pluck_blocks(110.0, 0.2):
        raw = sk.to_device(block, stream)
        overdrive.launch(drive_launch, stream, raw, dry, 4.0)
        if pending is not None:
            pending.sync_on(stream)
            rendered.append(wet.to_numpy(stream))
            previous, wet = wet, previous
        pending = echo.launch_async(echo_launch, dry, previous, wet, 0.35)
    if pending is not None:
        pending.sync_on(stream)
        rendered.append(wet.to_numpy(stream))

    audio = np.concatenate(rendered)
    peak = float(np.abs(audio).max())
    rms = float(np.sqrt((audio**2).mean()))
    print(f"rendered {len(audio)} samples, peak {peak:.3f}, crest factor {peak / rms:.2f}")


if __name__ == "__main__":
    main()
