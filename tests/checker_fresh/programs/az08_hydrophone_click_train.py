# fresh-expect: W0003 at line 48
# fresh-known-miss: cli,mypy W0003 of the op a loop keeps in a tuple it rebinds each iteration (in_flight = (k, op, energy)), never synced after the loop: an op stored in a tuple counts as consumed
# fresh-note: Double-buffered Teager-Kaiser click detection over hydrophone chunks; the loop syncs each chunk's launch_async op only when the next chunk starts, and detect_clicks returns without draining in_flight, so the last chunk's op is dropped unrun.
"""Odontocete click detection on a hydrophone recording, double-buffered.
The recording is cut into fixed chunks; for each chunk the Teager-Kaiser energy operator runs on
the device while the host thresholds the previous chunk's energy, so the transfer of one chunk
overlaps the analysis of the one before it. Detections are grouped into click trains by their
inter-click interval.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FS = 96_000
CHUNK = 512
THRESHOLD = 0.02


@simt.kernel
@simt.launch_contract(block=128, requires=("len(x) >= len(energy)",))
def teager_kaiser(x: Slice[f32], energy: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(x)
    if (e := energy.get_mut(idx)) is not None:
        if i > 0 and i + 1 < n:
            e.set(x[i] * x[i] - x[i - 1] * x[i + 1])
        else:
            e.set(f32(0.0))


def chunked(samples: np.ndarray, size: int) -> Iterator[np.ndarray]:
    it = iter(samples)
    while block := list(itertools.islice(it, size)):
        yield np.asarray(block + [0.0] * (size - len(block)), dtype=np.float32)


def start_chunk(prep: simt.PreparedLaunch, stream: sk.Stream, chunk: np.ndarray) -> tuple[sk.DeviceOp, sk.DeviceBuffer]:
    x = sk.to_device(chunk, stream)
    energy = sk.zeros(CHUNK, f32, stream)
    return teager_kaiser.launch_async(prep, x, energy), energy


def peaks_above(energy: np.ndarray, offset: int) -> list[int]:
    hot = np.flatnonzero(energy > THRESHOLD)
    if hot.size == 0:
        return []
    starts = hot[np.insert(np.diff(hot) > 48, 0, True)]
    return [offset + int(s) for s in starts]


def detect_clicks(stream: sk.Stream, prep: simt.PreparedLaunch, chunks: Iterable[np.ndarray]) -> list[int]:
    clicks: list[int] = []
    in_flight: tuple[int, sk.DeviceOp, sk.DeviceBuffer] | None = None
    for k, chunk in enumerate(chunks):
        op, energy = start_chunk(prep, stream, chunk)
        if in_flight is not None:
            prev_k, prev_op, prev_energy = in_flight
            prev_op.sync_on(stream)
            clicks.extend(peaks_above(prev_energy.to_numpy(stream), prev_k * CHUNK))
        in_flight = (k, op, energy)
    return clicks


def click_trains(clicks: list[int], max_ici_s: float = 0.02) -> list[list[int]]:
    trains: list[list[int]] = []
    for a, b in itertools.pairwise(clicks):
        if trains and trains[-1][-1] == a and (b - a) / FS <= max_ici_s:
            trains[-1].append(b)
        elif (b - a) / FS <= max_ici_s:
            trains.append([a, b])
    return trains


def synthetic_recording(rng: np.random.Generator, seconds: float = 0.06) -> np.ndarray:
    n = int(FS * seconds)
    x = rng.normal(0.0, 0.01, n)
    t = np.arange(64) / FS
    click = 0.8 * np.sin(2 * np.pi * 38_000 * t) * np.hanning(64)
    for at in range(900, n - 64, 1100):
        x[at : at + 64] += click
    return x.astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = teager_kaiser.prepare(simt.LaunchConfig1D.for_len(CHUNK, block=128), dev)
    rec = synthetic_recording(np.random.default_rng(38))
    clicks = detect_clicks(stream, prep, chunked(rec, CHUNK))
    trains = click_trains(clicks)
    print(f"{len(clicks)} clicks in {len(rec) / FS * 1000:.0f} ms, {len(trains)} train(s)")
    for tr in trains:
        icis = np.diff(tr) / FS * 1000
        print(f"  train of {len(tr)} clicks, ICI {icis.mean():.2f} ms")


if __name__ == "__main__":
    main()
