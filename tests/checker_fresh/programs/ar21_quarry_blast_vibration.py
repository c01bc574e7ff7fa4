# fresh-expect: clean
# fresh-note: quarry blast vibration compliance; a list comprehension starts one async launch per seismograph, all sharing the read-only charge buffer but each with its own PPV output and exceedance counter, and the ops are zipped and synced together.
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

HOLES = 96


@simt.kernel
@simt.launch_contract(block=32)
def ppv(charge_kg: Slice[f32], distance_m: Slice[f32], out: DisjointSlice[f32], over: AtomicSlice[i32],
        site_k: f32, beta: f32, limit: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    scaled = distance_m[i] / math.sqrt(max(charge_kg[i], f32(0.01)))
    v = site_k * math.pow(scaled, -beta)
    if (o := out.get_mut(idx)) is not None:
        o.set(v)
        if v > limit:
            over.fetch_add(0, 1)


@dataclass
class Seismograph:
    name: str
    offset_m: float
    ppv: sk.DeviceBuffer | None = None
    over: sk.DeviceBuffer | None = None
    history: list[float] = field(default_factory=list)


def hole_distances(station: Seismograph) -> np.ndarray:
    along = np.arange(HOLES) * 3.5
    return np.hypot(along - along.mean(), station.offset_m).astype(np.float32)


def fire(stations: list[Seismograph], charges: np.ndarray, dev: sk.Device, stream: sk.Stream) -> None:
    plan = ppv.prepare(simt.LaunchConfig1D.for_len(HOLES, block=32), dev)
    charge = sk.to_device(charges.astype(np.float32), stream)
    for st in stations:
        st.ppv, st.over = sk.zeros(HOLES, f32, stream), sk.zeros(1, i32, stream)
    ops = [
        ppv.launch_async(plan, charge, sk.to_device(hole_distances(st), stream), st.ppv, st.over, 1140.0, 1.6, 12.5)
        for st in stations
    ]
    sk.zip(*ops).sync_on(stream)
    for st in stations:
        st.history.append(float(st.ppv.to_numpy(stream).max()))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    stations = [Seismograph("north_farm", 180.0), Seismograph("school", 420.0), Seismograph("pit_edge", 60.0)]
    rng = np.random.default_rng(14)
    for blast in range(2):
        fire(stations, rng.uniform(40.0, 90.0, HOLES), dev, stream)
        for st in stations:
            exceed = int(st.over.to_numpy(stream)[0])
            print(f"blast {blast} {st.name:>10}: peak {st.history[-1]:6.2f} mm/s, {exceed} holes over limit")


if __name__ == "__main__":
    main()
