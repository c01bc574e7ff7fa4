# fresh-expect: clean
# fresh-note: the clipper runs after the meter's `watching` block has synced the pending launch, so partitioning the bus tensor no longer moves memory a pending op reads.
"""A two-track mixer: SIMT mixdown into a master bus, an asynchronous RMS meter on the bus, and a tile
soft-clipper on the master before the block goes out."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

BLOCK = 64  # tile size of the clipper
FRAMES = 256  # samples per render block


@simt.kernel
@simt.launch_contract(block=128)
def mixdown(a: Slice[f32], b: Slice[f32], gain_a: f32, gain_b: f32, out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(gain_a * a[i] + gain_b * b[i])


@simt.kernel
@simt.launch_contract(block=128)
def square(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


@tile.kernel
def soft_clip(z: Partition[f32], drive: f32) -> None:
    z.store(tile.tanh(z.load() * drive) / drive)


class Bus:
    def __init__(self, name: str, n: int, stream: sk.Stream) -> None:
        self.name = name
        self._t = tile.zeros((n,), f32).sync_on(stream)

    @property
    def samples(self) -> sk.DeviceBuffer:
        """The bus as a SIMT buffer (borrows the bus tensor)."""
        return sk.as_buffer(self._t)

    def soft_clip(self, drive: float, stream: sk.Stream) -> None:
        z = self._t.partition((BLOCK,))
        z, _drive = soft_clip(z, drive).sync_on(stream)
        self._t = z.unpartition()

    def to_numpy(self, stream: sk.Stream) -> np.ndarray:
        return self._t.to_numpy(stream)


class Meter:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.scratch = sk.zeros(FRAMES, f32, stream)
        self.prep = square.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=128), dev)
        self.readings_db: list[float] = []

    @contextlib.contextmanager
    def watching(self, buf: sk.DeviceBuffer) -> Iterator[Meter]:
        pending = square.launch_async(self.prep, buf, self.scratch)
        try:
            yield self
        finally:
            pending.sync_on(self.stream)
            rms = math.sqrt(float(self.scratch.to_numpy(self.stream).mean()))
            self.readings_db.append(20 * math.log10(rms + 1e-12))


class Mixer:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.master = Bus("master", FRAMES, self.stream)
        self.meter = Meter(dev, self.stream)
        self.prep_mix = mixdown.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=128), dev)
        self.fader = {"vox": 0.9, "gtr": 0.7}
        self.blocks_rendered = 0

    def advance_automation(self) -> None:
        self.fader["gtr"] = max(0.3, self.fader["gtr"] - 0.1)

    def render(self, tracks: dict[str, sk.DeviceBuffer]) -> np.ndarray:
        mixdown.launch(self.prep_mix, self.stream, tracks["vox"], tracks["gtr"], self.fader["vox"], self.fader["gtr"], self.master.samples)
        with self.meter.watching(self.master.samples):  # pre-clip level, measured in the background
            self.advance_automation()
        self.master.soft_clip(2.0, self.stream)  # the meter's launch has finished reading the bus
        self.blocks_rendered += 1
        return self.master.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    mixer = Mixer(dev)
    stream = mixer.stream
    rng = np.random.default_rng(7)
    t = np.arange(FRAMES * 3) / 16000.0
    vox = (0.8 * np.sin(2 * np.pi * 220 * t)).astype(np.float32)
    gtr = (0.6 * np.sign(np.sin(2 * np.pi * 330 * t)) + 0.05 * rng.standard_normal(t.size)).astype(np.float32)
    out = []
    for k in range(3):
        sl = slice(k * FRAMES, (k + 1) * FRAMES)
        tracks = {"vox": sk.to_device(vox[sl], stream), "gtr": sk.to_device(gtr[sl], stream)}
        out.append(mixer.render(tracks))
    master = np.concatenate(out)
    assert np.all(np.abs(master) <= 0.5 + 1e-6), "soft clip bounds the bus at 1/drive"
    levels = ", ".join(f"{db:.1f}" for db in mixer.meter.readings_db)
    print(f"mixer: {mixer.blocks_rendered} blocks, pre-clip RMS dBFS [{levels}], peak out {np.abs(master).max():.3f}")


if __name__ == "__main__":
    main()
