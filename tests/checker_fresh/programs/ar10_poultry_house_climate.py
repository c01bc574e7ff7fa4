# fresh-expect: clean
# fresh-note: poultry house climate; per-barn mean temperature by a shared-memory block reduction whose device helper has its own unsafe block, and an unchecked fan-duty launch written inside the caller's own unsafe block.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SENSORS_PER_BARN = 64
BARNS = 4


@simt.device
def block_sum(v: f32) -> f32:
    t = thread.thread_idx_x()
    with simt.unsafe():
        buf = simt.shared_array(f32, 64)
        buf[t] = v
    thread.sync_threads()
    stride = 32
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                buf[t] = buf[t] + buf[t + stride]
        thread.sync_threads()
        stride = stride // 2
    with simt.unsafe():
        total = buf[0]
    return total


@simt.kernel
@simt.launch_contract(block=64)
def barn_mean(temps: Slice[f32], means: DisjointSlice[f32]) -> None:
    tid = thread.thread_idx_x()
    b = thread.block_idx_x()
    total = block_sum(temps[b * 64 + tid])
    if tid == 0:
        with simt.unsafe():  # one writer per block, b < grid = len(means)
            means.get_unchecked_mut(b).set(total / f32(64.0))


@simt.kernel
@simt.launch_contract(block=4)
def fan_duty(means: Slice[f32], duty: DisjointSlice[f32], setpoint: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (d := duty.get_mut(idx)) is not None:
        d.set(min(max((means[i] - setpoint) * f32(0.25), f32(0.0)), f32(1.0)))


class ClimateController:
    def __init__(self, dev: sk.Device, setpoint_c: float) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.setpoint = setpoint_c
        self.reduce_plan = barn_mean.prepare(simt.LaunchConfig1D(grid=BARNS, block=64), dev)

    def step(self, readings: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        temps = sk.to_device(readings.astype(np.float32).ravel(), self.stream)
        means = sk.zeros(BARNS, f32, self.stream)
        duty = sk.zeros(BARNS, f32, self.stream)
        barn_mean.launch(self.reduce_plan, self.stream, temps, means)
        with simt.unsafe():  # 4 barns, one block of 4 threads
            fan_duty.launch_unchecked(simt.LaunchConfig1D(grid=1, block=4), self.stream, means, duty, self.setpoint)
        return means.to_numpy(self.stream), duty.to_numpy(self.stream)


def main() -> None:
    ctl = ClimateController(sk.Device.cpu(), setpoint_c=24.0)
    rng = np.random.default_rng(17)
    for hour in (6, 12, 18):
        outside = 18.0 + 8.0 * np.sin(np.pi * (hour - 6) / 12)
        readings = outside + 4.0 + rng.normal(0, 0.8, (BARNS, SENSORS_PER_BARN))
        means, duty = ctl.step(readings)
        assert np.allclose(means, readings.mean(axis=1), atol=1e-3)
        print(f"{hour:02d}:00 means {np.round(means, 1)} fans {np.round(duty, 2)}")


if __name__ == "__main__":
    main()
