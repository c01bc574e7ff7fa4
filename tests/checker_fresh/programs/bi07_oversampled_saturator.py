# fresh-expect: E0505 at line 84
# fresh-note: Oversampled saturator whose `AsyncUpsample.__enter__` leaves a `launch_async` op writing `self.staged` pending until `__exit__`, while the with-block body already partitions `up.staged` for the tile `saturate` kernel.
"""2x oversampled soft saturation: SIMT linear-interpolation upsampler, then a tile tanh stage.

`AsyncUpsample` is a context manager: entering it queues the upsampling launch with `launch_async` (so the host
can prepare the saturation settings meanwhile) and leaving it synchronises the queued op.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

FACTOR = 2
BLOCK = 128
TILE = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def upsample_linear(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        j = i // FACTOR
        frac = f32(i % FACTOR) / f32(FACTOR)
        nxt = min(j + 1, len(src) - 1)
        o.set(src[j] * (1.0 - frac) + src[nxt] * frac)


@tile.kernel
def saturate(y: Partition[f32], drive: f32, makeup: f32) -> None:
    y.store(tile.tanh(y.load() * drive) * makeup)


@dataclass
class SaturatorSettings:
    drive: float
    makeup: float

    @classmethod
    def for_level(cls, level_db: float) -> SaturatorSettings:
        drive = float(10.0 ** (level_db / 20.0))
        return cls(drive=drive, makeup=1.0 / float(np.tanh(drive)))


class AsyncUpsample:
    def __init__(self, src: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream) -> None:
        self.src = src
        self.stream = stream
        self.staged = sk.zeros(len(src) * FACTOR, f32, stream)
        self.prepared = upsample_linear.prepare(simt.LaunchConfig1D.for_len(len(src) * FACTOR, block=BLOCK), dev)
        self.op: sk.DeviceOp | None = None

    def __enter__(self) -> AsyncUpsample:
        self.op = upsample_linear.launch_async(self.prepared, self.src, self.staged)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None


def reference(x: np.ndarray, s: SaturatorSettings) -> np.ndarray:
    i = np.arange(x.shape[0] * FACTOR)
    j = i // FACTOR
    frac = (i % FACTOR).astype(np.float32) / FACTOR
    up = x[j] * (1 - frac) + x[np.minimum(j + 1, x.shape[0] - 1)] * frac
    return (np.tanh(up * s.drive) * s.makeup).astype(np.float32)


def process(dev: sk.Device, stream: sk.Stream, x: np.ndarray, level_db: float) -> np.ndarray:
    src = sk.to_device(x, stream)
    with AsyncUpsample(src, dev, stream) as up:
        settings = SaturatorSettings.for_level(level_db)
        parts = up.staged.partition((TILE,))
        (y, _, _) = saturate(parts, settings.drive, settings.makeup).sync_on(stream)
    return y.unpartition().to_numpy(stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    t = np.arange(300, dtype=np.float32)
    x = (0.8 * np.sin(0.04 * t)).astype(np.float32)
    for level in (0.0, 6.0):
        got = process(dev, stream, x, level)
        np.testing.assert_allclose(got, reference(x, SaturatorSettings.for_level(level)), rtol=1e-4, atol=1e-5)
        print(f"drive {level:+.1f} dB: peak {float(np.abs(got).max()):.3f}")
    print("oversampled saturator ok")


if __name__ == "__main__":
    main()
