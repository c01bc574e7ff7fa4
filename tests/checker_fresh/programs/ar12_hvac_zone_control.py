# fresh-expect: E0308 at line 61
# fresh-known-miss: cli,mypy the prepared launch is looked up under `self.mode` before the attribute is updated to the new mode: items under keys read from attributes that change between calls are not followed
# fresh-note: office HVAC zone control; on a heat-to-cool changeover the controller picks the new mode's kernel but still looks up the prepared launch under the previous mode, launching `cool` with `heat`'s prepared launch.
from __future__ import annotations
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

ZONES = 96


@simt.kernel
@simt.launch_contract(block=32)
def heat(temp: Slice[f32], setpoint: Slice[f32], valve: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (v := valve.get_mut(idx)) is not None:
        v.set(min(max((setpoint[i] - temp[i]) * gain, f32(0.0)), f32(1.0)))


@simt.kernel
@simt.launch_contract(block=32)
def cool(temp: Slice[f32], setpoint: Slice[f32], valve: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (v := valve.get_mut(idx)) is not None:
        v.set(min(max((temp[i] - setpoint[i]) * gain, f32(0.0)), f32(1.0)))


KERNELS = {"heat": heat, "cool": cool}


@dataclass
class ZoneState:
    temps: np.ndarray
    setpoints: np.ndarray


class ZoneController:
    def __init__(self, dev: sk.Device, stream: sk.Stream, gain: float = 0.4) -> None:
        self.stream = stream
        self.gain = gain
        cfg = simt.LaunchConfig1D.for_len(ZONES, block=32)
        self.plans = {"heat": heat.prepare(cfg, dev), "cool": cool.prepare(cfg, dev)}
        self.mode = "heat"
        self.valve = sk.zeros(ZONES, f32, stream)

    def choose_mode(self, state: ZoneState) -> str:
        return "cool" if float(np.mean(state.temps - state.setpoints)) > 0.5 else "heat"

    def actuate(self, state: ZoneState) -> np.ndarray:
        new_mode = self.choose_mode(state)
        temp = sk.to_device(state.temps.astype(np.float32), self.stream)
        setpoint = sk.to_device(state.setpoints.astype(np.float32), self.stream)
        kernel = KERNELS[new_mode]
        kernel.launch(self.plans[self.mode], self.stream, temp, setpoint, self.valve, self.gain)
        self.mode = new_mode
        return self.valve.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    ctl = ZoneController(dev, stream)
    setpoints = np.full(ZONES, 21.5)
    rng = np.random.default_rng(4)
    for label, offset in [("07:00", -2.0), ("10:00", -0.5), ("14:00", 2.5), ("17:00", 1.5)]:
        state = ZoneState(setpoints + offset + rng.normal(0, 0.3, ZONES), setpoints)
        valve = ctl.actuate(state)
        print(f"{label} mode={ctl.mode:<4} mean valve {valve.mean():.2f}")


if __name__ == "__main__":
    main()
