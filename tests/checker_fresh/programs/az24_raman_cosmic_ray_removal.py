# fresh-expect: clean
# fresh-note: Removes cosmic-ray spikes from triplicate Raman frames with a launch_async submitted through functools.partial, then area-normalises in a tile kernel; the pending op is synced before the cleaned buffer is read or moved into the tile launch, and guard clauses return before launching or after syncing.
"""Raman microscopy: cosmic-ray spike removal from triplicate acquisitions, then area normalisation.

Each map point is acquired three times; a CCD pixel hit by a cosmic ray is much brighter in one
frame than the median of the three, so the cleaned spectrum takes the median wherever a frame
departs from it by more than a few shot-noise sigmas, else the mean. The cleaned spectrum is then
normalised to unit area by a tile kernel. Points with a saturated detector are rejected up front.
"""
from __future__ import annotations

import functools
import math

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

PIXELS = 512
TILE = 128
SATURATION = 60_000.0


@simt.kernel
@simt.launch_contract(block=128, requires=("len(a) >= len(clean)", "len(b) >= len(clean)", "len(c) >= len(clean)"))
def despike3(a: Slice[f32], b: Slice[f32], c: Slice[f32], clean: DisjointSlice[f32], k_sigma: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := clean.get_mut(idx)) is not None:
        x, y, z = a[i], b[i], c[i]
        med = max(min(x, y), min(max(x, y), z))
        tol = k_sigma * math.sqrt(max(med, f32(1.0)))
        if max(abs(x - med), abs(y - med), abs(z - med)) > tol:
            o.set(med)
        else:
            o.set((x + y + z) / f32(3.0))


@tile.kernel
def normalise(out: Partition[f32], spectrum: Tensor[f32], inv_area: f32) -> None:
    out.store(tile.load_like(spectrum, out) * inv_area)


def acquire(rng: np.random.Generator, point: int) -> list[np.ndarray]:
    shift = np.linspace(200, 1800, PIXELS)
    base = 300 + 0.05 * shift
    bands = sum(h * np.exp(-0.5 * ((shift - c) / w) ** 2) for c, h, w in ((520, 4000, 6), (1000, 1500, 8), (1580, 900, 12)))
    frames = []
    for _ in range(3):
        f = rng.poisson(base + bands * (1 + 0.1 * point)).astype(np.float32)
        hits = rng.choice(PIXELS, 2, replace=False)
        f[hits] += rng.uniform(3000, 20000, 2)
        frames.append(f)
    if point == 3:
        frames[0][250:260] = SATURATION
    return frames


def clean_point(stream: sk.Stream, submit, frames: list[np.ndarray]) -> np.ndarray | None:
    if any(float(f.max()) >= SATURATION for f in frames):
        return None
    a, b, c = (sk.to_device(f, stream) for f in frames)
    cleaned = sk.zeros(PIXELS, f32, stream)
    pending = submit(a, b, c, cleaned, 5.0)
    pending.sync_on(stream)
    area = float(cleaned.to_numpy(stream).sum())
    if area <= 0.0:
        return None
    unit = tile.zeros((PIXELS,), f32).partition((TILE,))
    unit, cleaned, _ = normalise(unit, cleaned, 1.0 / area).sync_on(stream)
    return unit.unpartition().to_numpy(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = despike3.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=128), dev)
    submit = functools.partial(despike3.launch_async, prep)
    rng = np.random.default_rng(1928)
    shift = np.linspace(200, 1800, PIXELS)
    for point in range(5):
        frames = acquire(rng, point)
        spec = clean_point(stream, submit, frames)
        if spec is None:
            print(f"point {point}: saturated, rejected")
            continue
        si = spec[np.abs(shift - 520) < 20].sum()
        print(f"point {point}: Si band fraction {si:.3f}, strongest band {spec.max() / np.median(spec):.1f}x the median level")


if __name__ == "__main__":
    main()
