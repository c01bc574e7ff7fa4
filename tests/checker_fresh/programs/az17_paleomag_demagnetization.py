# fresh-expect: clean
# fresh-note: Normalises AF-demagnetization curves batch by batch (islice generator) with a tile kernel that reads a device-resident noise-floor tensor; each launch moves the floor tensor and the loop rebinds floor to the handle sync_on hands back.
"""Palaeomagnetism: alternating-field demagnetization curves and median destructive fields.

Every specimen is measured after each AF step (x, y, z moments). The kernel turns the vector
moments into the normalised intensity M/M0 with the magnetometer's per-step noise floor removed;
specimens are processed in batches as they come off the sample changer, and the noise-floor
tensor stays on the device for the whole run.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

ROWS = 4
STEPS = 16
AF_MT = np.array([0, 2.5, 5, 7.5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100], np.float32)


@tile.kernel
def normalised_intensity(out: Partition[f32], comps: Tensor[f32], floor: Tensor[f32]) -> None:
    r = tile.bid(0)
    x = tile.reshape(comps.load((0, r, 0), (1, ROWS, STEPS)), (ROWS, STEPS))
    y = tile.reshape(comps.load((1, r, 0), (1, ROWS, STEPS)), (ROWS, STEPS))
    z = tile.reshape(comps.load((2, r, 0), (1, ROWS, STEPS)), (ROWS, STEPS))
    m = tile.maximum(tile.sqrt(x * x + y * y + z * z) - floor.load((0, 0), (1, STEPS)), 0.0)
    m0 = tile.maximum(tile.max(m, axis=1, keepdims=True), 1e-12)
    out.store(m / m0)


def specimens(rng: np.random.Generator, n: int) -> Iterator[tuple[str, np.ndarray]]:
    for k in range(n):
        mdf = rng.uniform(12.0, 45.0)
        decay = 1.0 / (1.0 + (AF_MT / mdf) ** 2.2)
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        moment = 3e-6 * np.outer(direction, decay) + rng.normal(0, 2e-9, (3, STEPS))
        yield f"BV{k // 3 + 1:02d}-{k % 3 + 1}", moment.astype(np.float32)


def batched(items: Iterable[tuple[str, np.ndarray]], size: int) -> Iterator[list[tuple[str, np.ndarray]]]:
    it = iter(items)
    while batch := list(itertools.islice(it, size)):
        yield batch


def median_destructive_field(curve: np.ndarray) -> float:
    below = np.flatnonzero(curve <= 0.5)
    if below.size == 0:
        return float("inf")
    k = int(below[0])
    f0, f1, c0, c1 = AF_MT[k - 1], AF_MT[k], curve[k - 1], curve[k]
    return float(f0 + (c0 - 0.5) * (f1 - f0) / (c0 - c1))


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    floor = tile.from_numpy(np.full((1, STEPS), 5e-9, np.float32)).sync_on(stream)
    mdfs: dict[str, float] = {}
    for batch in batched(specimens(np.random.default_rng(1871), 10), 2 * ROWS):
        stack = np.zeros((3, 2 * ROWS, STEPS), np.float32)
        for row, (_, moment) in enumerate(batch):
            stack[:, row, :] = moment
        out = tile.zeros((2 * ROWS, STEPS), f32).partition((ROWS, STEPS))
        out, _, floor = normalised_intensity(out, tile.from_numpy(stack), floor).sync_on(stream)
        curves = out.unpartition().to_numpy(stream)
        for row, (name, _) in enumerate(batch):
            mdfs[name] = median_destructive_field(curves[row])

    for name, mdf in mdfs.items():
        kind = "magnetite-like" if mdf < 30 else "harder (Ti-poor / fine SD)"
        print(f"{name}: MDF {mdf:5.1f} mT  {kind}")
    print(f"site mean MDF {np.mean(list(mdfs.values())):.1f} mT over {len(mdfs)} specimens")


if __name__ == "__main__":
    main()
