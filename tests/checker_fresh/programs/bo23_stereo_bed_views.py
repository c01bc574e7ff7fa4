# fresh-expect: E0382 at line 90
# fresh-note: `StereoBlock` caches its left/right `split_at` views in `__post_init__`; the meter's tile launch moves `data` and stores the handed-back buffer, but the cached views still belong to the moved handle, so the next source's pan launch uses a dead view.
"""Panning several mono sources into a planar stereo bed (SIMT, accumulating with ElemMut.get/set), with a
tile loudness meter that records the bed's per-tile energy after each source is added."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

FRAMES = 256
T = 64  # meter tile


@simt.kernel
@simt.launch_contract(block=128)
def pan_into(mono: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32], gl: f32, gr: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(mono):
        if (lo := left.get_mut(idx)) is not None:
            lo.set(lo.get() + gl * mono[i])
        idx2 = thread.index_1d()
        if (ro := right.get_mut(idx2)) is not None:
            ro.set(ro.get() + gr * mono[i])


@tile.kernel
def tile_energy(energy: Partition[f32], planar: Tensor[f32]) -> None:
    x = planar.load((tile.bid(0),), (T,))
    energy.store(tile.reshape(tile.sum(x * x), (1,)))


@dataclass
class StereoBlock:
    frames: int
    data: sk.DeviceBuffer  # planar: all left samples, then all right samples
    left: sk.DeviceBuffer = field(init=False, repr=False)
    right: sk.DeviceBuffer = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.left, self.right = self.data.split_at(self.frames)


@dataclass
class Source:
    name: str
    samples: np.ndarray
    pan: float  # -1 hard left .. +1 hard right

    @property
    def gains(self) -> tuple[float, float]:
        theta = (self.pan + 1) * math.pi / 4  # constant-power law
        return math.cos(theta), math.sin(theta)


class LoudnessMeter:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.history: list[tuple[str, float, float]] = []

    def update(self, label: str, block: StereoBlock) -> None:
        tiles = 2 * block.frames // T
        energy = tile.zeros((tiles,), f32).partition((1,))
        energy, block.data = tile_energy(energy, block.data).sync_on(self.stream)
        per_tile = energy.unpartition().to_numpy(self.stream)
        half = tiles // 2
        self.history.append((label, float(per_tile[:half].sum()), float(per_tile[half:].sum())))


class BedMixer:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.prep = pan_into.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=128), dev)
        self.meter = LoudnessMeter(self.stream)

    def mix(self, sources: list[Source]) -> np.ndarray:
        block = StereoBlock(FRAMES, sk.zeros(2 * FRAMES, f32, self.stream))
        for src in sources:
            gl, gr = src.gains
            mono = sk.to_device(src.samples, self.stream)
            pan_into.launch(self.prep, self.stream, mono, block.left, block.right, gl, gr)
            self.meter.update(src.name, block)
        return block.data.to_numpy(self.stream).reshape(2, FRAMES)


def main() -> None:
    dev = sk.Device.default()
    t = np.arange(FRAMES) / 8000.0
    sources = [
        Source("bass", (0.5 * np.sin(2 * np.pi * 60 * t)).astype(np.float32), pan=0.0),
        Source("keys", (0.3 * np.sin(2 * np.pi * 440 * t)).astype(np.float32), pan=-0.6),
        Source("hat", (0.1 * np.sign(np.sin(2 * np.pi * 3000 * t))).astype(np.float32), pan=0.8),
    ]
    mixer = BedMixer(dev)
    bed = mixer.mix(sources)
    want = np.zeros((2, FRAMES), np.float32)
    for src in sources:
        gl, gr = src.gains
        want[0] += np.float32(gl) * src.samples
        want[1] += np.float32(gr) * src.samples
    np.testing.assert_allclose(bed, want, rtol=1e-5, atol=1e-6)
    for label, el, er in mixer.meter.history:
        print(f"after {label:5s}: L energy {el:7.3f}  R energy {er:7.3f}")


if __name__ == "__main__":
    main()
