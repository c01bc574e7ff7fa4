# fresh-expect: E0505 at line 65
# bug: inside `with overlapped(...)` the height-field launch is still pending (it is synced when the block exits), but the block already partitions `heights` for the shading kernel
"""Procedural terrain: generate a height field with a SIMT kernel, then shade it with a tile kernel.

Generation is launched asynchronously and wrapped in a small context manager that guarantees it is synced on every
exit path, so the renderer can prepare the shading pass while the heights are computed.
"""

from __future__ import annotations

import contextlib
import math
import time
from typing import Any, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SIZE = 256
TILE = 64


@simt.kernel
@simt.launch_contract(block=128)
def heights_from_noise(noise: Slice[f32], h: DisjointSlice[f32], amp: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := h.get_mut(idx)) is not None:
        o.set(amp * (noise[i] * noise[i]))


@tile.kernel
def shade(h: Partition[f32], light: Tensor[f32]) -> None:
    t = h.load()
    h.store(tile.minimum(t * tile.load_like(light, h), 1.0))


@contextlib.contextmanager
def overlapped(op: Any, stream: sk.Stream, label: str) -> Iterator[None]:
    t0 = time.perf_counter()
    try:
        yield
    finally:
        op.sync_on(stream)
        print(f"[{label}] synced after {1e3 * (time.perf_counter() - t0):.2f} ms")


class TerrainRenderer:
    def __init__(self, dev: sk.Device, stream: sk.Stream, amplitude: float) -> None:
        self.stream = stream
        self.amplitude = amplitude
        self.gen = heights_from_noise.prepare(simt.LaunchConfig1D.for_len(SIZE, block=128), dev)

    def render(self, seed: int) -> np.ndarray:
        noise = sk.to_device(np.random.default_rng(seed).uniform(0, 1, SIZE).astype(np.float32), self.stream)
        heights = sk.zeros(SIZE, f32, self.stream)
        angle = np.linspace(0, math.pi, SIZE, dtype=np.float32)
        light = tile.from_numpy(0.5 + 0.5 * np.cos(angle).astype(np.float32))
        with overlapped(heights_from_noise.launch_async(self.gen, noise, heights, self.amplitude), self.stream, "gen"):
            parts = heights.partition((TILE,))
            op = shade(parts, light)
        parts, _ = op.sync_on(self.stream)
        return parts.unpartition().to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    renderer = TerrainRenderer(dev, stream, amplitude=2.0)
    for seed in (1, 2):
        img = renderer.render(seed)
        print(f"seed {seed}: lit fraction {(img > 0.5).mean():.3f}, max {img.max():.3f}")


if __name__ == "__main__":
    main()
