# fresh-expect: clean
# fresh-note: Hop kiln drying control; a tile kernel updates bed moisture, the result is lent to SIMT kernels through as_buffer for an atomic moisture histogram and a per-bed fan duty written into named scratch buffers keyed by role and length.
"""Moisture tracking and fan control for a hop oast (kiln) during harvest."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BEDS = 96
BINS = 8


@tile.kernel
def dry_hour(nxt: Partition[f32], moisture: Tensor[f32], air_temp: Tensor[f32], k: f32) -> None:
    m = tile.load_like(moisture, nxt)
    nxt.store(m - k * (tile.load_like(air_temp, nxt) - 40.0) * m * 0.01)


@simt.kernel
@simt.launch_contract(block=32)
def moisture_hist(moisture: Slice[f32], counts: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    if i < len(moisture):
        b = i32(moisture[i] * f32(10.0))
        counts.fetch_add(min(max(b, 0), BINS - 1), u32(1))


@simt.kernel
@simt.launch_contract(block=32)
def fan_duty(moisture: Slice[f32], duty: DisjointSlice[f32], target: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (d := duty.get_mut(idx)) is not None:
        d.set(min(max((moisture[i] - target) * f32(4.0), f32(0.1)), f32(1.0)))


class Scratch:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._bufs: dict[tuple[str, int], sk.DeviceBuffer] = {}

    def get(self, role: str, n: int, dtype=f32) -> sk.DeviceBuffer:
        key = (role, n)
        if key not in self._bufs:
            self._bufs[key] = sk.zeros(n, dtype, self.stream)
        return self._bufs[key]


def make_controller(dev: sk.Device, stream: sk.Stream, target: float):
    scratch = Scratch(stream)
    hist_p = moisture_hist.prepare(simt.LaunchConfig1D.for_len(BEDS, block=32), dev)
    duty_p = fan_duty.prepare(simt.LaunchConfig1D.for_len(BEDS, block=32), dev)

    def control(moisture: tile.Tensor) -> tuple[np.ndarray, np.ndarray]:
        counts = sk.zeros(BINS, u32, stream)
        duty = scratch.get("duty", BEDS)
        lent = moisture.as_buffer()
        moisture_hist.launch(hist_p, stream, lent, counts)
        fan_duty.launch(duty_p, stream, lent, duty, target)
        return counts.to_numpy(stream), duty.to_numpy(stream)

    return control


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(33)
    control = make_controller(dev, stream, target=0.1)
    moisture = tile.from_numpy(rng.uniform(0.7, 0.8, BEDS).astype(np.float32)).sync_on(stream)
    for hour in range(12):
        air = tile.from_numpy(rng.normal(62.0, 2.0, BEDS).astype(np.float32))
        nxt, _, _, _ = dry_hour(tile.zeros((BEDS,), f32).partition((32,)), moisture, air, 0.9).sync_on(stream)
        moisture = nxt.unpartition()
        if hour % 4 == 3:
            counts, duty = control(moisture)
            print(f"hour {hour + 1:2d}: moisture bins {counts.tolist()}, mean fan duty {duty.mean():.2f}")


if __name__ == "__main__":
    main()
