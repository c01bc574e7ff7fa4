# fresh-expect: E0308 at line 55
# fresh-known-false-alarm: cli,mypy false E0308 at line 56: the second launch's prepared launch is the other kernel's too (a real one; the runtime stops at the first, line 55)
# fresh-note: PV string inverter derating and clipping with two SIMT kernels; bug: `StringInverter.__init__` zips `STAGES = ("derate", "clip")` with `KERNELS = (clip_ac, derate_dc)` listed in another order, so `self.prepared["derate"]` was prepared for `clip_ac` and the `derate_dc.launch` at line 55 uses another kernel's prepared launch.
"""Photovoltaic string inverter model: DC power at the maximum power point, derated and clipped.
Each panel's DC power is derated for cell temperature, then clipped to the inverter's AC rating.  The
inverter object prepares one launch per stage when it is built and reuses them for every time step.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def clip_ac(dc: Slice[f32], ac: DisjointSlice[f32], rating_w: f32, efficiency: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := ac.get_mut(idx)) is not None:
        out.set(min(dc[i] * efficiency, rating_w))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def derate_dc(irradiance: Slice[f32], cell_temp: Slice[f32], dc: DisjointSlice[f32], p_stc: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dc.get_mut(idx)) is not None:
        out.set(p_stc * irradiance[i] / f32(1000.0) * (f32(1.0) - f32(0.004) * (cell_temp[i] - f32(25.0))))


class StringInverter:
    STAGES = ("derate", "clip")  # pipeline order
    KERNELS = (clip_ac, derate_dc)  # kernels of this module, alphabetical

    def __init__(self, panels: int, rating_w: float, device: sk.Device, stream: sk.Stream) -> None:
        self.panels = panels
        self.rating_w = rating_w
        self.stream = stream
        cfg = simt.LaunchConfig1D.for_len(panels, block=BLOCK)
        self.prepared = {name: k.prepare(cfg, device) for name, k in zip(self.STAGES, self.KERNELS)}
        self.dc = sk.zeros(panels, f32, stream)
        self.ac = sk.zeros(panels, f32, stream)

    def step(self, irradiance: np.ndarray, cell_temp: np.ndarray) -> float:
        g = sk.to_device(irradiance.astype(np.float32), self.stream)
        t = sk.to_device(cell_temp.astype(np.float32), self.stream)
        derate_dc.launch(self.prepared["derate"], self.stream, g, t, self.dc, 400.0)
        clip_ac.launch(self.prepared["clip"], self.stream, self.dc, self.ac, self.rating_w / self.panels, 0.975)
        return float(self.ac.to_numpy(self.stream).sum())


def clear_sky_day(hours: np.ndarray) -> np.ndarray:
    return np.clip(1050.0 * np.sin(np.pi * (hours - 6.0) / 13.0), 0.0, None)


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    rng = np.random.default_rng(21)
    inverter = StringInverter(panels=640, rating_w=230_000.0, device=device, stream=stream)
    energy_kwh = 0.0
    for hour in np.arange(6.0, 19.5, 0.5):
        ghi = clear_sky_day(np.array([hour]))[0]
        irradiance = np.clip(ghi * rng.normal(1.0, 0.03, inverter.panels), 0.0, None)
        cell_temp = 20.0 + irradiance / 800.0 * 25.0 + rng.normal(0.0, 1.0, inverter.panels)
        power = inverter.step(irradiance, cell_temp)
        energy_kwh += power * 0.5 / 1000.0
        if hour % 3 == 0:
            print(f"{hour:4.1f} h: {power / 1000:7.1f} kW AC")
    print(f"daily yield {energy_kwh:.0f} kWh")


if __name__ == "__main__":
    main()
