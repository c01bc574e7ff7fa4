# fresh-expect: clean
# fresh-note: Classifies varve laminae per core section with at most two launch_async ops in flight in a deque; each op is synced before its buffer is read, and the loop's tail drains every op still in flight before returning.
"""Lake-sediment varve counting from a grey-scale core scan, two sections in flight at a time.

Each core section's grey-scale profile is compared with its running mean on the device: a pixel
darker than the local mean belongs to a winter (clay) lamina. The host counts light-to-dark
transitions per section while the next section is being classified, and the counts are stitched
into an age-depth model.
"""
from __future__ import annotations

import collections
from collections.abc import Iterator

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

SECTION_PX = 600
PX_PER_MM = 10
HALF = 12


@simt.kernel
@simt.launch_contract(block=128, requires=("len(grey) >= len(dark)",))
def classify(grey: Slice[f32], dark: DisjointSlice[i32], half: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(grey)
    if (d := dark.get_mut(idx)) is not None:
        lo = max(i - half, 0)
        hi = min(i + half + 1, n)
        s = f32(0.0)
        for j in range(lo, hi):
            s += grey[j]
        d.set(i32(1) if grey[i] < s / f32(hi - lo) else i32(0))


def sections(scan: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    for k, start in enumerate(range(0, len(scan) - SECTION_PX + 1, SECTION_PX)):
        yield k, scan[start : start + SECTION_PX]


def start_section(prep: simt.PreparedLaunch, stream: sk.Stream, grey: np.ndarray) -> tuple[sk.DeviceOp, sk.DeviceBuffer]:
    g = sk.to_device(grey.astype(np.float32), stream)
    dark = sk.zeros(len(grey), i32, stream)
    return classify.launch_async(prep, g, dark, HALF), dark


def count_transitions(dark: np.ndarray, min_px: int = 4) -> int:
    edges = np.flatnonzero(np.diff(dark) == 1)
    if edges.size == 0:
        return 0
    return 1 + int(np.count_nonzero(np.diff(edges) >= min_px))


def count_varves(stream: sk.Stream, prep: simt.PreparedLaunch, scan: np.ndarray) -> list[int]:
    counts: dict[int, int] = {}
    in_flight: collections.deque[tuple[int, sk.DeviceOp, sk.DeviceBuffer]] = collections.deque()
    for k, grey in sections(scan):
        op, dark = start_section(prep, stream, grey)
        in_flight.append((k, op, dark))
        if len(in_flight) == 2:
            done_k, done_op, done_dark = in_flight.popleft()
            done_op.sync_on(stream)
            counts[done_k] = count_transitions(done_dark.to_numpy(stream))
    while in_flight:
        done_k, done_op, done_dark = in_flight.popleft()
        done_op.sync_on(stream)
        counts[done_k] = count_transitions(done_dark.to_numpy(stream))
    return [counts[k] for k in sorted(counts)]


def synthetic_scan(rng: np.random.Generator, sections_n: int = 4) -> np.ndarray:
    n = SECTION_PX * sections_n
    thickness = rng.gamma(9.0, 2.2, 400).astype(int) + 6          # varve thickness in px
    boundaries = np.cumsum(thickness)
    phase = np.zeros(n)
    for start, width in zip(boundaries[:-1], thickness[1:]):
        if start >= n:
            break
        phase[start : start + width] = np.linspace(0.0, 1.0, width)[: n - start]
    grey = 120 + 60 * np.cos(2 * np.pi * phase) + rng.normal(0, 4.0, n)
    return grey


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = classify.prepare(simt.LaunchConfig1D.for_len(SECTION_PX, block=128), dev)
    scan = synthetic_scan(np.random.default_rng(12_000))
    per_section = count_varves(stream, prep, scan)
    depth_mm = np.cumsum([SECTION_PX / PX_PER_MM] * len(per_section))
    ages = np.cumsum(per_section)
    for d, n, age in zip(depth_mm, per_section, ages):
        print(f"to {d:5.0f} mm: {n:3d} varves, {age:4d} varve years before the core top")


if __name__ == "__main__":
    main()
