# fresh-expect: clean
# fresh-note: Planetarium dome projection driven by a generator that yields one Frame per show step with its async SIMT launch pending; every reading property of Frame first settles the pending op, so host reads never race the kernel.
"""Star brightness on a planetarium dome, frame by frame as the sky turns."""
from __future__ import annotations

import math
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

STARS = 1800


@simt.kernel
@simt.launch_contract(block=128)
def project(mag: Slice[f32], alt: Slice[f32], lumens: DisjointSlice[f32], dimmer: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := lumens.get_mut(idx)) is not None:
        airmass = f32(1.0) / max(math.sin(alt[i]), f32(0.05))
        visible = f32(1.0) if alt[i] > f32(0.0) else f32(0.0)
        o.set(visible * dimmer * math.pow(f32(10.0), f32(-0.4) * (mag[i] + f32(0.2) * airmass)))


class Frame:
    def __init__(self, t: float, lumens: sk.DeviceBuffer, op: sk.DeviceOp | None, stream: sk.Stream) -> None:
        self.t = t
        self.lumens = lumens
        self.op = op
        self.stream = stream

    def settle(self) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None

    @property
    def brightest(self) -> int:
        self.settle()
        return int(np.argmax(self.lumens.to_numpy(self.stream)))

    @property
    def total(self) -> float:
        self.settle()
        return float(self.lumens.to_numpy(self.stream).sum())


def show(mag: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream, steps: int) -> Iterator[Frame]:
    prepared = project.prepare(simt.LaunchConfig1D.for_len(STARS, block=128), dev)
    rng = np.random.default_rng(4)
    alt0 = rng.uniform(-1.2, 1.5, STARS).astype(np.float32)
    for k in range(steps):
        t = k * 0.1
        alt = sk.to_device((alt0 + 0.3 * math.sin(t)).astype(np.float32), stream)
        lumens = sk.zeros(STARS, f32, stream)
        yield Frame(t, lumens, project.launch_async(prepared, mag, alt, lumens, 0.8), stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(9)
    mag = sk.to_device(rng.uniform(-1.5, 6.0, STARS).astype(np.float32), stream)
    for frame in show(mag, dev, stream, steps=5):
        print(f"t={frame.t:.1f}: brightest star #{frame.brightest}, dome total {frame.total:.2f}")


if __name__ == "__main__":
    main()
