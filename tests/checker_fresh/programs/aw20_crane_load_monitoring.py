# fresh-expect: clean
# fresh-note: A crane monitor's class-based prefetch context manager keeps a launch_async op pending for the with-block, whose body only touches other buffers; the load buffer is moved into the tile moment pass after the block.
"""Tower crane load monitoring: a load-cell prefetcher context manager decodes asynchronously; the tile moment pass runs after it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

READINGS = 128
G = 9.81


@simt.kernel
@simt.launch_contract(block=64)
def counts_to_kn(counts: Slice[f32], load_kn: DisjointSlice[f32], scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := load_kn.get_mut(idx)) is not None:
        o.set(counts[i] * scale)


@simt.kernel
@simt.launch_contract(block=64)
def wind_drag(gust_ms: Slice[f32], drag_kn: DisjointSlice[f32], area_m2: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := drag_kn.get_mut(idx)) is not None:
        v = gust_ms[i]
        o.set(0.5 * 1.225 * v * v * area_m2 / 1000.0)


@tile.kernel
def overturning(moment: Partition[f32], load_kn: Tensor[f32], drag_kn: Tensor[f32], radius_m: f32, height_m: f32) -> None:
    moment.store(tile.load_like(load_kn, moment) * radius_m + tile.load_like(drag_kn, moment) * height_m)


class LoadCellPrefetch:
    """Decodes one lift's raw load-cell counts on the device while the caller prepares the wind data."""

    def __init__(self, plan, counts: np.ndarray, stream: sk.Stream) -> None:
        self.plan = plan
        self.stream = stream
        self.raw = sk.to_device(counts, stream)
        self.load = sk.zeros(READINGS, f32, stream)
        self.op = None

    def __enter__(self) -> LoadCellPrefetch:
        self.op = counts_to_kn.launch_async(self.plan, self.raw, self.load, 0.0125)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None


@dataclass
class Lift:
    tag: str
    radius_m: float
    mass_t: float
    gust_ms: float


class CraneMonitor:
    LIMIT_KNM = 4200.0

    def __init__(self, dev: sk.Device, jib_height_m: float) -> None:
        self.stream = dev.new_stream()
        self.height = jib_height_m
        config = simt.LaunchConfig1D.for_len(READINGS, block=64)
        self.decode_plan = counts_to_kn.prepare(config, dev)
        self.drag_plan = wind_drag.prepare(config, dev)

    def lift(self, lift: Lift) -> float:
        rng = np.random.default_rng(int(lift.mass_t * 10))
        counts = (lift.mass_t * G * 80.0 * (1.0 + 0.02 * rng.standard_normal(READINGS))).astype(np.float32)
        drag = sk.zeros(READINGS, f32, self.stream)
        with LoadCellPrefetch(self.decode_plan, counts, self.stream) as pf:
            gusts = sk.to_device((lift.gust_ms * (1.0 + 0.3 * rng.random(READINGS))).astype(np.float32), self.stream)
            wind_drag.launch(self.drag_plan, self.stream, gusts, drag, 6.0)
        moment = tile.zeros((READINGS,), f32).partition((32,))
        moment, _load, _drag, _r, _h = overturning(moment, pf.load, drag, lift.radius_m, self.height).sync_on(self.stream)
        return float(moment.to_numpy(self.stream).max())


def main() -> None:
    crane = CraneMonitor(sk.Device.default(), jib_height_m=48.0)
    lifts = [Lift("rebar-bundle", 32.0, 2.1, 6.0), Lift("precast-stair", 18.0, 7.5, 9.0),
             Lift("formwork", 41.0, 1.4, 14.0)]
    for lift in lifts:
        peak = crane.lift(lift)
        status = "STOP" if peak > crane.LIMIT_KNM else "ok"
        print(f"{lift.tag:14s} peak moment {peak:8.1f} kNm  {status}")


if __name__ == "__main__":
    main()
