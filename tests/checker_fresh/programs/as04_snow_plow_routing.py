# fresh-expect: clean
# fresh-note: Snow-plow routing; per-district accumulate launches are queued in a deque with launch_async, drained in order, and each district's depth/spare pair is swapped only after its op ran.
"""Hour-by-hour snow depth on city road segments and a greedy plow dispatcher."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SEGMENTS = 200
MELT_CM_PER_HOUR = 0.3
PLOWS_PER_DISTRICT = 12


@simt.kernel
@simt.launch_contract(block=64)
def accumulate(depth: Slice[f32], snowfall: Slice[f32], plowed: Slice[f32],
               out: DisjointSlice[f32], melt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        fresh = depth[i] + snowfall[i] - melt
        if fresh < 0.0:
            fresh = f32(0.0)
        o.set(fresh * (1.0 - plowed[i]))


@dataclass
class District:
    name: str
    depth: sk.DeviceBuffer
    spare: sk.DeviceBuffer
    plowed: sk.DeviceBuffer
    cleared: int = 0


def make_district(name: str, stream: sk.Stream) -> District:
    return District(
        name=name,
        depth=sk.zeros(SEGMENTS, f32, stream),
        spare=sk.zeros(SEGMENTS, f32, stream),
        plowed=sk.zeros(SEGMENTS, f32, stream),
    )


def snowfall_for(hour: int, district: int, rng: np.random.Generator) -> np.ndarray:
    intensity = 1.5 + np.sin(hour / 3.0 + district)
    return rng.gamma(2.0, intensity / 2.0, SEGMENTS).astype(np.float32)


def advance_hour(districts: list[District], snowfall: dict[str, sk.DeviceBuffer],
                 prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    pending: deque[tuple[District, sk.DeviceOp]] = deque()
    for d in districts:
        op = accumulate.launch_async(prepared, d.depth, snowfall[d.name], d.plowed, d.spare, MELT_CM_PER_HOUR)
        pending.append((d, op))
    while pending:
        d, op = pending.popleft()
        op.sync_on(stream)
        d.depth, d.spare = d.spare, d.depth


def dispatch_plows(d: District, stream: sk.Stream) -> None:
    depth = d.depth.to_numpy(stream)
    worst = np.argsort(depth)[-PLOWS_PER_DISTRICT:]
    mask = np.zeros(SEGMENTS, np.float32)
    mask[worst[depth[worst] > 2.0]] = 1.0
    d.cleared += int(mask.sum())
    d.plowed = sk.to_device(mask, stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = accumulate.prepare(simt.LaunchConfig1D.for_len(SEGMENTS, block=64), dev)
    districts = [make_district(name, stream) for name in ("north", "harbor", "uptown")]
    rng = np.random.default_rng(11)

    for hour in range(8):
        falls = {d.name: sk.to_device(snowfall_for(hour, k, rng), stream) for k, d in enumerate(districts)}
        advance_hour(districts, falls, prepared, stream)
        for d in districts:
            dispatch_plows(d, stream)
        if hour % 4 == 3:
            deepest = max(districts, key=lambda d: float(d.depth.to_numpy(stream).max()))
            print(f"hour {hour}: deepest snow in {deepest.name}")

    for d in districts:
        depth = d.depth.to_numpy(stream)
        print(f"{d.name:7s} mean {depth.mean():5.2f} cm, max {depth.max():5.2f} cm, plow passes {d.cleared}")


if __name__ == "__main__":
    main()
