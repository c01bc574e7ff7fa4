# fresh-expect: E0505 at line 74
# fresh-note: Coffee-roast profiler; a generator yields each batch's rate-of-rise buffer with its pending launch_async op, and the caller partitions the buffer for the tile clamp before syncing the op that still writes it.
"""Rate-of-rise (RoR) profiles for a batch roaster, with first-crack and development-time stats."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.simt import Slice, DisjointSlice, thread
from safekernels.tile import Partition
from safekernels.dtypes import f32

SAMPLE_S = 1.0        # probe sampled once a second
LAG = 30              # RoR over a 30 s window, in degrees per minute
TILE = 120
FIRST_CRACK_C = 196.0


@simt.kernel
@simt.launch_contract(block=64)
def rate_of_rise(temp: Slice[f32], ror: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := ror.get_mut(idx)) is not None:
        if i >= LAG:
            o.set((temp[i] - temp[i - LAG]) * 60.0 / (LAG * dt))
        else:
            o.set(0.0)


@tile.kernel
def clip_crash(ror: Partition[f32]) -> None:
    ror.store(tile.maximum(ror.load(), 0.0))


@dataclass
class RoastBatch:
    name: str
    charge_c: float
    seconds: int

    def probe(self) -> np.ndarray:
        t = np.arange(self.seconds, dtype=np.float32)
        drop = 85.0 + (self.charge_c - 85.0) * np.exp(-t / 35.0)      # beans pull the drum down
        curve = drop + 0.23 * t * (1.0 - np.exp(-t / 60.0))             # then the burner takes over
        return curve.astype(np.float32)


def ror_jobs(prepared, stream: sk.Stream, batches: list[RoastBatch]) -> Iterator[tuple]:
    """Start one RoR computation per batch; the caller waits on each op."""
    for batch in batches:
        temp = sk.to_device(batch.probe(), stream)
        ror = sk.zeros(batch.seconds, f32, stream)
        yield batch, temp, ror, rate_of_rise.launch_async(prepared, temp, ror, SAMPLE_S)


def development_ratio(temp: np.ndarray) -> tuple[int | None, float]:
    turning = int(np.argmin(temp))                      # the charge temperature is above first crack
    crack = np.nonzero(temp[turning:] >= FIRST_CRACK_C)[0]
    if len(crack) == 0:
        return None, 0.0
    first = turning + int(crack[0])
    return first, (len(temp) - first) / len(temp)


def profile_roasts(batches: list[RoastBatch], dev: sk.Device, stream: sk.Stream) -> dict[str, dict]:
    longest = max(b.seconds for b in batches)
    prepared = rate_of_rise.prepare(simt.LaunchConfig1D.for_len(longest, block=64), dev)
    profiles = {}
    for batch, temp, ror, pending in ror_jobs(prepared, stream, batches):
        parts = ror.partition((TILE,))
        pending.sync_on(stream)
        (parts,) = clip_crash(parts).sync_on(stream)
        curve = parts.unpartition().to_numpy(stream)
        first_crack, dtr = development_ratio(temp.to_numpy(stream))
        profiles[batch.name] = {"peak_ror": float(curve.max()), "first_crack_s": first_crack, "dtr": dtr}
    return profiles


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    batches = [RoastBatch("ethiopia-light", 205.0, 600), RoastBatch("brazil-dark", 215.0, 780)]
    for name, stats in profile_roasts(batches, dev, stream).items():
        print(f"{name}: peak RoR {stats['peak_ror']:.1f} C/min, first crack at {stats['first_crack_s']} s, "
              f"DTR {stats['dtr']:.0%}")


if __name__ == "__main__":
    main()
