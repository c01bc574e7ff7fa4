# fresh-expect: E0382 at line 69
# fresh-known-false-alarm: cli,mypy false E0382 at 44: returning a moved value is a use, as rustc says; the runtime raises only where the caller uses it
# fresh-note: Tapestry helper measures wear with a tile launch and returns early for intact patches, but returns the moved `colour` handle instead of the one handed back by sync_on, so the caller's to_numpy uses a moved tensor.
"""Tapestry conservation: measure fibre wear per woven patch, re-dye the worn ones.
A helper measures each patch's wear with one tile launch and returns the patch early when
it is within tolerance; worn patches get a second launch that blends in the conservator's
dye match. The caller collects the patches and stitches the final colour map.
"""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

PATCH = (16, 16)
PATCHES = 5
WEAR_TOLERANCE = 0.35


@tile.kernel
def measure_wear(wear: Partition[f32], colour: Tensor[f32], original: Tensor[f32]) -> None:
    now = tile.load_like(colour, wear)
    then = tile.load_like(original, wear)
    wear.store(tile.maximum(then - now, 0.0) / tile.maximum(then, 1e-3))


@tile.kernel
def redye(colour: Partition[f32], dye: Tensor[f32], wear: Tensor[f32]) -> None:
    c = colour.load()
    d = tile.load_like(dye, colour)
    w = tile.load_like(wear, colour)
    colour.store(c + (d - c) * tile.minimum(w * 2.0, 1.0))


def restore_patch(colour, original, dye_host: np.ndarray, stream: sk.Stream):
    """Return the patch's colour tensor, re-dyed if its wear exceeds the tolerance."""
    wear = tile.zeros(PATCH, f32).partition(PATCH)
    wear, colour_back, original = measure_wear(wear, colour, original).sync_on(stream)
    worst = float(wear.to_numpy(stream).max())
    if worst <= WEAR_TOLERANCE:
        return colour, worst
    parts = colour_back.partition(PATCH)
    dye = tile.from_numpy(dye_host)
    parts, _dye, _wear = redye(parts, dye, wear.unpartition()).sync_on(stream)
    return parts.unpartition(), worst


def weave(rng: np.random.Generator, fade: float) -> tuple[np.ndarray, np.ndarray]:
    original = rng.uniform(0.4, 1.0, PATCH).astype(np.float32)
    faded = original * (1.0 - fade * rng.random(PATCH)).astype(np.float32)
    return original, faded.astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(1495)

    fades = [0.8, 0.1, 0.6, 0.05, 0.9]
    restored: list[np.ndarray] = []
    for k in range(PATCHES):
        orig_host, faded_host = weave(rng, fades[k])
        scanned = tile.from_numpy(faded_host).sync_on(stream)  # the photographed patch, on the device
        colour, worst = restore_patch(scanned, tile.from_numpy(orig_host), orig_host * 0.98, stream)
        action = "re-dyed" if worst > WEAR_TOLERANCE else "kept"
        restored.append(colour.to_numpy(stream))
        print(f"patch {k}: worst wear {worst:.2f} -> {action}")

    panel = np.concatenate(restored, axis=1)
    print(f"panel {panel.shape}, mean tone {panel.mean():.3f}")


if __name__ == "__main__":
    main()
